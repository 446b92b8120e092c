//! What the ICPC problem package holds beside the tests, in each version of the format
//! duipai writes: where the statement goes, how the default output validator gets its
//! tolerance, which validators and test data each version knows, and the problem's stable
//! `uuid`.
//!
//! `2025-09` is what BAPCtools and DOMjudge read; problemtools (`verifyproblem`) reads
//! `legacy` fully and `2023-07-draft` in part, and neither side reads the other's versions.

use crate::problem::Problem;

mod folders;
pub mod generators;
pub mod own;
pub mod yaml;

/// A version of the ICPC problem package format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IcpcVersion {
    /// `2025-09`: BAPCtools (`bt`), DOMjudge.
    V2025_09,
    /// `2023-07-draft`: problemtools, in part.
    Draft2023_07,
    /// `legacy`: problemtools (`verifyproblem`), Kattis.
    Legacy,
}

impl IcpcVersion {
    pub const ALL: [IcpcVersion; 3] = [
        IcpcVersion::V2025_09,
        IcpcVersion::Draft2023_07,
        IcpcVersion::Legacy,
    ];

    /// The `problem_format_version` value.
    pub fn name(self) -> &'static str {
        match self {
            IcpcVersion::V2025_09 => "2025-09",
            IcpcVersion::Draft2023_07 => "2023-07-draft",
            IcpcVersion::Legacy => "legacy",
        }
    }

    /// The version a `problem_format_version` value names (quotes allowed).
    pub fn from_name(name: &str) -> Option<IcpcVersion> {
        let name = name.trim_matches(['"', '\'']);
        IcpcVersion::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The statement's path: `statement/problem.en.tex`, `problem_statement/` in legacy.
    pub fn statement_path(self) -> &'static str {
        match self {
            IcpcVersion::Legacy => "problem_statement/problem.en.tex",
            _ => "statement/problem.en.tex",
        }
    }

    /// Whether `problem.yaml` has `limits.time_limit` (legacy has no time-limit key:
    /// problemtools derives the limit from the accepted submissions' times).
    pub fn has_time_limit(self) -> bool {
        self != IcpcVersion::Legacy
    }

    /// Whether the version knows `answer_validators/` and `data/invalid_input/` (BAPCtools'
    /// 2025-09; problemtools takes any other folder of `data/` for a test group).
    pub fn has_validation_data(self) -> bool {
        self == IcpcVersion::V2025_09
    }
}

/// A file of the package that is the setter's once it exists: written when missing, never
/// replaced (the statement, the validators, the accepted submission).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetterFile {
    pub path: String,
    pub content: String,
}

/// The setter's files of `problem`'s package in `version`; the statement's title is `name`,
/// the `name` in `problem.yaml` (BAPCtools requires the two to match).
pub fn setter_files(problem: &dyn Problem, version: IcpcVersion, name: &str) -> Vec<SetterFile> {
    let package = problem.package();
    let game = problem.name();
    let mut files = vec![
        SetterFile {
            path: version.statement_path().to_string(),
            content: format!("\\problemname{{{name}}}\n\n{}", package.statement),
        },
        SetterFile {
            path: format!("input_validators/{game}.ctd"),
            content: package.input_validator.to_string(),
        },
        SetterFile {
            path: format!("submissions/accepted/{game}.cpp"),
            content: package.accepted.to_string(),
        },
    ];
    if version.has_validation_data() {
        let validator = package.answer_validator;
        files.push(SetterFile {
            path: format!("answer_validators/{game}.{}", validator.extension),
            content: validator.text.to_string(),
        });
    }
    files
}

/// The paths of [`setter_files`], without their contents.
pub fn setter_paths(problem: &dyn Problem, version: IcpcVersion) -> Vec<String> {
    setter_files(problem, version, "")
        .into_iter()
        .map(|f| f.path)
        .collect()
}

/// The default output validator's flags as a YAML list: `[float_tolerance, "1e-6"]`
/// (numbers quoted, so that they stay strings).
pub(super) fn args_list(flags: &str) -> String {
    let items: Vec<String> = flags
        .split_whitespace()
        .map(|w| {
            if w.parse::<f64>().is_ok() {
                format!("\"{w}\"")
            } else {
                w.to_string()
            }
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// The test-data files that give the default output validator its flags (`flags`, from
/// [`crate::pack::validator_flags`]), as (path, content): 2025-09 `test_group.yaml` in each test
/// folder, 2023-07-draft `data/testdata.yaml` (the key problemtools reads); none in legacy,
/// whose `problem.yaml` holds them.
pub fn flag_files(version: IcpcVersion, flags: &str) -> Vec<(String, String)> {
    match version {
        IcpcVersion::V2025_09 => {
            // BAPCtools reads the setting per folder: one file in each.
            let content = format!("output_validator_args: {}\n", args_list(flags));
            ["sample", "secret"]
                .into_iter()
                .map(|g| (format!("data/{g}/test_group.yaml"), content.clone()))
                .collect()
        }
        IcpcVersion::Draft2023_07 => vec![(
            crate::pack::TESTDATA_YAML.to_string(),
            format!("output_validator_flags: {flags}\n"),
        )],
        IcpcVersion::Legacy => Vec::new(),
    }
}

/// The problem's `uuid`: a name-based UUID (version 5, SHA-1, in the URL namespace) of
/// `duipai:<problem>`, so that every pack of a problem has the same one.
pub fn problem_uuid(problem: &dyn Problem) -> String {
    uuid_for(problem.name())
}

/// The `uuid` of the problem named `name`: the version-5 UUID of `duipai:<name>`.
pub fn uuid_for(name: &str) -> String {
    let id = format!("duipai:{name}");
    uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, id.as_bytes()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{CHESS, CHESSBOARD, SHOOTING};

    #[test]
    fn uuids_are_the_standard_name_based_ones() {
        // Python: uuid.uuid5(uuid.NAMESPACE_URL, "duipai:chess"), and so on.
        assert_eq!(problem_uuid(&CHESS), "eaa44efd-e011-50bd-8d93-d4d897f9803e");
        assert_eq!(
            problem_uuid(&CHESSBOARD),
            "f71829ed-7b0b-5c1d-ba26-1b12aae839e8"
        );
        assert_eq!(
            problem_uuid(&SHOOTING),
            "c1b0997f-c0ce-5b9c-af4b-e3c30dc4c945"
        );
    }

    #[test]
    fn each_version_puts_the_tolerance_where_its_tools_read_it() {
        let flags = "float_tolerance 1e-6";
        assert_eq!(
            flag_files(IcpcVersion::V2025_09, flags),
            [
                (
                    "data/sample/test_group.yaml".to_string(),
                    "output_validator_args: [float_tolerance, \"1e-6\"]\n".to_string()
                ),
                (
                    "data/secret/test_group.yaml".to_string(),
                    "output_validator_args: [float_tolerance, \"1e-6\"]\n".to_string()
                ),
            ]
        );
        assert_eq!(
            flag_files(IcpcVersion::Draft2023_07, flags),
            [(
                "data/testdata.yaml".to_string(),
                "output_validator_flags: float_tolerance 1e-6\n".to_string()
            )]
        );
        assert!(flag_files(IcpcVersion::Legacy, flags).is_empty());
    }

    #[test]
    fn the_statement_goes_where_each_version_looks() {
        let files = setter_files(&CHESS, IcpcVersion::Legacy, "Chess");
        assert_eq!(files[0].path, "problem_statement/problem.en.tex");
        assert!(files[0].content.starts_with("\\problemname{Chess}\n\n"));
        assert_eq!(
            setter_paths(&CHESS, IcpcVersion::V2025_09),
            [
                "statement/problem.en.tex",
                "input_validators/chess.ctd",
                "submissions/accepted/chess.cpp",
                "answer_validators/chess.ctd"
            ]
        );
    }
}
