//! One problem as Competitive Companion sends it: a JSON object with the problem's name, its
//! group (`<judge> - <contest>`), its URL, its limits (`timeLimit` in ms, `memoryLimit` in
//! MB), its samples (`tests`: `input` and `output`), whether it is interactive, how it reads
//! and writes (`stdin`/`stdout` or a file), and the batch it belongs to (one id for every
//! problem of a contest, and their number). The document is described in the extension's
//! README ("The format"); fields duipai has no use for (`languages`) are ignored.

use serde::Deserialize;

/// The most samples, and the largest batch, a document may announce: far above any judge's.
const MOST_TESTS: usize = 1000;
const LARGEST_BATCH: u64 = 1000;

/// One problem.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    pub name: String,
    #[serde(default)]
    pub group: String,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub interactive: bool,
    /// MB, as the judge's page says it (judges mean MiB).
    pub memory_limit: f64,
    /// Milliseconds.
    pub time_limit: f64,
    pub tests: Vec<Sample>,
    #[serde(default)]
    pub test_type: TestType,
    #[serde(default)]
    pub input: Input,
    #[serde(default)]
    pub output: Output,
    /// Absent from documents of extension versions before batches existed: a batch of one.
    #[serde(default)]
    pub batch: Option<Batch>,
}

/// A sample: its input and the expected output, each ending with a line break.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Sample {
    pub input: String,
    pub output: String,
}

/// `single`: one test per input; `multiNumber`: the input starts with the number of tests;
/// `multiEOF`: tests until the end of the input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TestType {
    #[default]
    Single,
    MultiNumber,
    #[serde(rename = "multiEOF")]
    MultiEof,
}

/// Where the input comes from: stdin, a file of a given name, or (Google's old Code Jam) the
/// newest file whose name matches a pattern.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Input {
    #[default]
    Stdin,
    File {
        #[serde(rename = "fileName")]
        file_name: String,
    },
    Regex {
        pattern: String,
    },
}

/// Where the output goes: stdout or a file of a given name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Output {
    #[default]
    Stdout,
    File {
        #[serde(rename = "fileName")]
        file_name: String,
    },
}

/// The problems sent by one click: one on a problem's page, every problem of the contest on
/// a contest's page.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Batch {
    pub id: String,
    pub size: u64,
}

impl Task {
    /// The batch's id and size; a document without one is a batch of its own, named by its
    /// URL and name.
    pub fn batch(&self) -> (String, u64) {
        match &self.batch {
            Some(batch) => (batch.id.clone(), batch.size),
            None => (format!("{} {}", self.url, self.name), 1),
        }
    }

    /// The time limit in whole milliseconds (at least 1).
    pub fn time_limit_ms(&self) -> u64 {
        (self.time_limit.round() as u64).max(1)
    }

    /// The memory limit in whole MiB (at least 1).
    pub fn memory_limit_mib(&self) -> u64 {
        (self.memory_limit.round() as u64).max(1)
    }

    /// The input and output file names when the problem reads and writes files, both of them:
    /// duipai runs a program either on stdin and stdout or on two files.
    pub fn files(&self) -> Option<(&str, &str)> {
        match (&self.input, &self.output) {
            (Input::File { file_name: i }, Output::File { file_name: o }) => Some((i, o)),
            _ => None,
        }
    }
}

/// Reads a posted body as Competitive Companion's document for one problem. The error says
/// what is wrong in a line, positioned where JSON can be: `not Competitive Companion's
/// problem JSON: missing field `tests` at line 1 column 52`.
pub fn parse_task(body: &[u8]) -> Result<Task, String> {
    let not_ours = |why: String| format!("not Competitive Companion's problem JSON: {why}");
    let task: Task = serde_json::from_slice(body).map_err(|e| not_ours(e.to_string()))?;
    check(&task).map_err(not_ours)?;
    Ok(task)
}

/// What serde cannot say: limits and sizes in range, file names that are plain names.
fn check(task: &Task) -> Result<(), String> {
    if task.name.trim().is_empty() {
        return Err("the problem's name is empty".into());
    }
    if !(task.time_limit.is_finite() && (1.0..=86_400_000.0).contains(&task.time_limit)) {
        return Err(format!(
            "timeLimit {} is not milliseconds within 1..=86400000",
            task.time_limit
        ));
    }
    if !(task.memory_limit.is_finite() && (1.0..=1_048_576.0).contains(&task.memory_limit)) {
        return Err(format!(
            "memoryLimit {} is not MB within 1..=1048576",
            task.memory_limit
        ));
    }
    if task.tests.len() > MOST_TESTS {
        return Err(format!(
            "{} tests; at most {MOST_TESTS} are taken",
            task.tests.len()
        ));
    }
    if let Some(batch) = &task.batch
        && !(1..=LARGEST_BATCH).contains(&batch.size)
    {
        return Err(format!(
            "batch size {} is not within 1..={LARGEST_BATCH}",
            batch.size
        ));
    }
    let names = [
        match &task.input {
            Input::File { file_name } => Some(file_name),
            _ => None,
        },
        match &task.output {
            Output::File { file_name } => Some(file_name),
            _ => None,
        },
    ];
    for name in names.into_iter().flatten() {
        if !plain_file_name(name) {
            return Err(format!(
                "the file name {} is not a plain file name",
                crate::text::quote(name)
            ));
        }
    }
    Ok(())
}

/// A file name the program opens in its working folder: no folder part, nothing hidden or
/// special, printable ASCII.
fn plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-+".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The extension README's example, as it sends it.
    pub const CASTLE: &str = r#"{"name":"G. Castle Defense","group":"Codeforces - Educational Codeforces Round 40 (Rated for Div. 2)","url":"https://codeforces.com/problemset/problem/954/G","interactive":false,"memoryLimit":256,"timeLimit":1500,"tests":[{"input":"5 0 6\n5 4 3 4 9\n","output":"5\n"},{"input":"4 2 0\n1 2 3 4\n","output":"6\n"}],"testType":"single","input":{"type":"stdin"},"output":{"type":"stdout"},"languages":{"java":{"mainClass":"Main","taskClass":"GCastleDefense"}},"batch":{"id":"123e67c8-03c6-44a4-a3f9-5918533f9fb2","size":1}}"#;

    #[test]
    fn the_extensions_example_reads_whole() {
        let task = parse_task(CASTLE.as_bytes()).unwrap();
        assert_eq!(task.name, "G. Castle Defense");
        assert_eq!(task.time_limit_ms(), 1500);
        assert_eq!(task.memory_limit_mib(), 256);
        assert_eq!(task.tests.len(), 2);
        assert_eq!(task.tests[1].output, "6\n");
        assert_eq!(task.test_type, TestType::Single);
        assert_eq!(task.input, Input::Stdin);
        assert_eq!(task.files(), None);
        assert_eq!(
            task.batch(),
            ("123e67c8-03c6-44a4-a3f9-5918533f9fb2".to_string(), 1)
        );
    }

    #[test]
    fn file_io_and_multi_tests_are_read() {
        let body = CASTLE
            .replace(
                r#""input":{"type":"stdin"}"#,
                r#""input":{"type":"file","fileName":"input.txt"}"#,
            )
            .replace(
                r#""output":{"type":"stdout"}"#,
                r#""output":{"type":"file","fileName":"output.txt"}"#,
            )
            .replace(r#""testType":"single""#, r#""testType":"multiNumber""#);
        let task = parse_task(body.as_bytes()).unwrap();
        assert_eq!(task.files(), Some(("input.txt", "output.txt")));
        assert_eq!(task.test_type, TestType::MultiNumber);
    }

    #[test]
    fn what_is_not_a_problem_is_refused_saying_why() {
        let err = parse_task(b"hello").unwrap_err();
        assert!(
            err.starts_with(
                "not Competitive Companion's problem JSON: expected value at line 1 column 1"
            ),
            "{err}"
        );
        let err = parse_task(br#"{"name":"A","memoryLimit":256,"timeLimit":1000}"#).unwrap_err();
        assert!(err.contains("missing field `tests`"), "{err}");
        let err = parse_task(CASTLE.replace("1500", "-3").as_bytes()).unwrap_err();
        assert!(err.contains("timeLimit -3 is not milliseconds"), "{err}");
        let sneaky = CASTLE.replace(
            r#""output":{"type":"stdout"}"#,
            r#""output":{"type":"file","fileName":"../../.bashrc"}"#,
        );
        let err = parse_task(sneaky.as_bytes()).unwrap_err();
        assert!(
            err.contains("\"../../.bashrc\" is not a plain file name"),
            "{err}"
        );
    }
}
