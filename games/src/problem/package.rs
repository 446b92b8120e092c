//! What a judge's problem package holds for a game beside its tests ([`Package`]): the
//! statement, the validators a judge runs without duipai, and a reference solution of its
//! own. Each game keeps these files in its folder (`games/src/problem/<game>/package/`), embedded
//! in the binary; `pack --layout icpc` writes them.

/// A game's package files, as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Package {
    /// The statement's title (`\problemname`, and `name` in `problem.yaml`).
    pub title: &'static str,
    /// The statement's body in LaTeX for the ICPC problem class (problemtools' and BAPCtools'
    /// `problem.cls`): rules, `Input` and `Output` environments; no `\problemname` (the pack
    /// adds it) and no sample (the tools show `data/sample/`).
    pub statement: &'static str,
    /// A checktestdata grammar every valid input matches and every input `duipai validate`
    /// rejects fails (`input_validators/`).
    pub input_validator: &'static str,
    /// The answer validator (`answer_validators/`, BAPCtools): a checktestdata grammar of a
    /// valid answer file, or a C++ program run as `validator input < answer` (exit 42 valid,
    /// 43 invalid) where the answer's lines must match the input's cases.
    pub answer_validator: Source,
    /// A reference solution in C++17, sharing nothing with duipai's solvers
    /// (`submissions/accepted/`).
    pub accepted: &'static str,
    /// Inputs the validators must reject, by name (`data/invalid_input/NAME.in`).
    pub invalid_inputs: &'static [(&'static str, &'static str)],
}

/// A validator's source: its file extension (`ctd`, `cpp`) and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Source {
    pub extension: &'static str,
    pub text: &'static str,
}

/// A game's [`Package`] from the files of its `package/` folder, with the invalid inputs
/// named (each `package/invalid/NAME.in`) and the answer validator's extension (`ctd` when
/// not given). Invoked from the game's own `mod.rs`, whose folder the paths are relative to.
macro_rules! package {
    ($title:expr, [$($invalid:literal),* $(,)?]) => {
        $crate::problem::package::package!($title, "ctd", [$($invalid),*])
    };
    ($title:expr, $answer:literal, [$($invalid:literal),* $(,)?]) => {
        $crate::problem::Package {
            title: $title,
            statement: include_str!("package/statement.tex"),
            input_validator: include_str!("package/input.ctd"),
            answer_validator: $crate::problem::package::Source {
                extension: $answer,
                text: include_str!(concat!("package/answer.", $answer)),
            },
            accepted: include_str!("package/accepted.cpp"),
            invalid_inputs: &[$(
                ($invalid, include_str!(concat!("package/invalid/", $invalid, ".in"))),
            )*],
        }
    };
}
pub(crate) use package;
