//! The folder a problem from Competitive Companion becomes: `DIR/<group>/<name>/` with its
//! samples (`samples/1.in`, `1.ans`, ...), a `duipai.toml` holding its name, limits and file
//! names, and, from the user's template, a solution skeleton. Folder names are lowercase
//! ASCII letters, digits and `-`, which every file system takes. Nothing already there is
//! replaced: a file that exists with other contents is kept and named, and a folder that holds
//! another problem leaves the new one a folder of its own (`-2`).

use std::path::{Path, PathBuf};

use super::task::{Input, Output, Task, TestType};

/// The longest folder name made from a name or a group.
const LONGEST_SLUG: usize = 48;
/// Names Windows keeps for devices, whatever follows their dot.
const RESERVED: [&str; 22] = [
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];
/// The problem folder's settings, which every command run there reads.
pub const CONFIG: &str = "duipai.toml";
/// The folder samples go to; `duipai test` with no folder judges them.
pub const SAMPLES: &str = "samples";
/// Where an interactive problem's samples go: they show an exchange, which no answer file
/// can judge.
pub const STATEMENT: &str = "statement";

/// A solution template: its text, with `${name}`, `${group}` and `${url}` replaced, becomes
/// `sol.<extension>` in every new problem's folder.
#[derive(Debug, Clone)]
pub struct Template {
    pub extension: String,
    pub text: String,
}

/// What became of one problem.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Landed {
    /// The problem's folder, below the folder problems go to.
    pub folder: PathBuf,
    /// The name `duipai.toml` gives it, which every command run there takes.
    pub problem: String,
    pub samples: usize,
    /// Files written, files already there with the same contents, and files already there
    /// with other contents, kept as they were.
    pub written: Vec<PathBuf>,
    pub unchanged: Vec<PathBuf>,
    pub kept: Vec<PathBuf>,
    /// What the line about it says besides: multi-test, file I/O, interactive.
    pub notes: Vec<String>,
}

/// A folder name from free text: lowercase ASCII letters and digits, every other run of
/// characters one `-`, at most [`LONGEST_SLUG`] bytes; empty when nothing is left.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.truncate(LONGEST_SLUG);
    let out = out.trim_end_matches('-').to_string();
    if RESERVED.contains(&out.as_str()) {
        format!("{out}-")
    } else {
        out
    }
}

/// The problem's folder name: from its name, else (a name in another script) from the last
/// part of its URL, else `problem`.
fn name_slug(task: &Task) -> String {
    let from_url = || {
        let path = task.url.split(['?', '#']).next().unwrap_or("");
        path.rsplit('/')
            .map(slug)
            .find(|s| !s.is_empty())
            .unwrap_or_default()
    };
    [slug(&task.name), from_url()]
        .into_iter()
        .find(|s| !s.is_empty())
        .unwrap_or_else(|| "problem".to_string())
}

/// Writes `task`'s folder below `dir`, never into a folder of `taken` (the folders earlier
/// problems of the batch went to), and says what it wrote and kept.
pub fn land(
    dir: &Path,
    task: &Task,
    template: Option<&Template>,
    taken: &[PathBuf],
) -> anyhow::Result<Landed> {
    let group = slug(&task.group);
    let base = if group.is_empty() {
        PathBuf::from(name_slug(task))
    } else {
        Path::new(&group).join(name_slug(task))
    };
    let folder = free_folder(dir, &base, task, taken)?;
    let problem = problem_name(&folder);
    let mut landed = Landed {
        folder: folder.clone(),
        problem: problem.clone(),
        samples: task.tests.len(),
        notes: notes(task),
        ..Landed::default()
    };
    for (rel, bytes) in files(task, &problem, template) {
        put(dir, &folder, &rel, &bytes, &mut landed)?;
    }
    Ok(landed)
}

/// `base`, or `base-2`, `base-3`, ...: the first that is not taken, does not exist, is an
/// empty folder, or already holds this very problem (its `duipai.toml` names its URL).
fn free_folder(dir: &Path, base: &Path, task: &Task, taken: &[PathBuf]) -> anyhow::Result<PathBuf> {
    for n in 1..=99 {
        let candidate = if n == 1 {
            base.to_path_buf()
        } else {
            let mut name = base.as_os_str().to_owned();
            name.push(format!("-{n}"));
            PathBuf::from(name)
        };
        if taken.contains(&candidate) {
            continue;
        }
        let at = dir.join(&candidate);
        let empty = std::fs::read_dir(&at).is_ok_and(|mut d| d.next().is_none());
        if !at.exists() || empty || holds(&at, task) {
            return Ok(candidate);
        }
    }
    anyhow::bail!(
        "{} and 98 more folders named after it are taken",
        dir.join(base).display()
    )
}

/// Whether the folder at `at` holds `task`: its `duipai.toml` starts as duipai writes it for
/// this problem (the name, the group, the URL).
fn holds(at: &Path, task: &Task) -> bool {
    let Ok(text) = std::fs::read_to_string(at.join(CONFIG)) else {
        return false;
    };
    text.starts_with(&header(task))
}

/// The name `duipai.toml` gives the problem: its folder's name, which is already letters,
/// digits and `-`, unless that is a built-in game's (a problem called "Chess" is not duipai's
/// chess).
fn problem_name(folder: &Path) -> String {
    let name = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "problem".to_string());
    if crate::problem::by_name(&name).is_some() {
        format!("{name}-task")
    } else {
        name
    }
}

/// What the line about the problem adds to its samples and limits.
fn notes(task: &Task) -> Vec<String> {
    let mut notes = Vec::new();
    match task.test_type {
        TestType::Single => {}
        TestType::MultiNumber => notes.push("multi-test (the count first)".to_string()),
        TestType::MultiEof => notes.push("multi-test (until the end)".to_string()),
    }
    if let Some((input, output)) = task.files() {
        notes.push(format!("file I/O {input} / {output}"));
    } else if !matches!((&task.input, &task.output), (Input::Stdin, Output::Stdout)) {
        notes.push("judged on stdin and stdout here (see duipai.toml)".to_string());
    }
    if task.interactive {
        notes.push(format!(
            "interactive: samples in {STATEMENT}/, set an interactor in duipai.toml"
        ));
    }
    notes
}

/// The first lines of the folder's `duipai.toml`: the problem's name, group and URL, each
/// made one line of text a comment can hold (see [`one_line`]).
fn header(task: &Task) -> String {
    format!(
        "# {}\n# {}\n# {}\n",
        one_line(&task.name),
        one_line(&task.group),
        one_line(&task.url)
    )
}

/// Free text from the browser as one line of text, fit for a TOML comment or a terminal:
/// every control character (line breaks, escapes, NUL, DEL) and every [`invisible`] one
/// becomes a space, and runs of white space one space. A comment of
/// `duipai.toml` cannot then end early (what followed a line break would be read as
/// settings), nor hold a character TOML refuses in a comment (the file would not be read).
pub fn one_line(text: &str) -> String {
    let spaced: String = text
        .chars()
        .map(|c| {
            if c.is_control() || invisible(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Unicode line and paragraph separators, and the characters that change the direction or
/// hide text (the bidirectional overrides and isolates, zero-width spaces and joiners): a
/// terminal or an editor would show a line that is not the one written.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{2028}' | '\u{2029}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}'
    )
}

/// A name or a group as `${name}` and `${group}` put it into a template: one line (see
/// [`one_line`]) of letters and digits of any script, spaces, and the punctuation that closes
/// no comment and no string of any language (`.,:;-_+()[]!?#%=@~<>&`); every other character
/// (quotes, `\`, `/`, `*`, `$`, `{`, `}`, the backtick) becomes a space. The posted name is
/// free text: as it was, a name could end the comment or the string it is put into and
/// write code into the solution.
pub fn template_text(text: &str) -> String {
    let kept: String = one_line(text)
        .chars()
        .map(|c| {
            let plain = c.is_alphanumeric()
                || (!c.is_ascii() && !c.is_whitespace())
                || " .,:;-_+()[]!?#%=@~<>&".contains(c);
            if plain { c } else { ' ' }
        })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A URL as `${url}` puts it into a template: every byte outside the characters a URL is
/// written with (letters, digits, `-._~:/?#[]@!&()+,;=%`) percent-encoded, and `*` and `'`
/// too, so that it can neither close a `/* */` comment nor a string.
pub fn template_url(url: &str) -> String {
    let mut out = String::new();
    for byte in url.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~:/?#[]@!&()+,;=%".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Every file of the folder, relative to it, with its contents.
fn files(task: &Task, problem: &str, template: Option<&Template>) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = vec![(PathBuf::from(CONFIG), settings(task, problem).into_bytes())];
    let (folder, answer) = if task.interactive {
        (STATEMENT, "out")
    } else {
        (SAMPLES, "ans")
    };
    for (i, sample) in task.tests.iter().enumerate() {
        let at = Path::new(folder);
        files.push((
            at.join(format!("{}.in", i + 1)),
            sample.input.clone().into_bytes(),
        ));
        files.push((
            at.join(format!("{}.{answer}", i + 1)),
            sample.output.clone().into_bytes(),
        ));
    }
    if let Some(template) = template {
        let text = template
            .text
            .replace("${name}", &template_text(&task.name))
            .replace("${group}", &template_text(&task.group))
            .replace("${url}", &template_url(&task.url));
        files.push((
            PathBuf::from(format!("sol.{}", template.extension)),
            text.into_bytes(),
        ));
    }
    files
}

/// The folder's `duipai.toml`: every command run in the folder takes the problem's name and
/// limits from it.
fn settings(task: &Task, problem: &str) -> String {
    let mut text = header(task);
    text.push_str(
        "# From Competitive Companion, by duipai listen. In this folder:\n\
         #   duipai test -- sol.cpp     judges the samples (and the cases stress saved)\n\
         #   duipai stress -- sol.cpp   the samples, then random cases: set a generator and a\n\
         #                              brute force first (generator = \"gen.py\",\n\
         #                              reference = \"brute.cpp\")\n",
    );
    match task.test_type {
        TestType::Single => {}
        TestType::MultiNumber => text.push_str("# Each input starts with its number of tests.\n"),
        TestType::MultiEof => text.push_str("# Each input holds tests until its end.\n"),
    }
    if task.interactive {
        text.push_str(&format!(
            "# Interactive: the program talks with the judge. The samples in {STATEMENT}/ show\n\
             # the exchange; to test, write an interactor (testlib's protocol) and name it:\n\
             # interactor = \"interactor.cpp\"\n"
        ));
    }
    match (&task.input, &task.output, task.files()) {
        (_, _, Some(_)) => {}
        (Input::Stdin, Output::Stdout, _) => {}
        // The pattern is the posted text as a TOML string: escaped, one line whatever it holds.
        (Input::Regex { pattern }, _, _) => text.push_str(&format!(
            "# The judge gives the input as the newest file matching the pattern\n\
             # {}; here the program reads stdin and writes stdout.\n",
            toml_string(pattern)
        )),
        _ => text.push_str(
            "# The judge reads one of input and output from a file and the other on the\n\
             # standard stream; duipai runs a program on stdin and stdout or on two files,\n\
             # so here it reads stdin and writes stdout.\n",
        ),
    }
    text.push_str(&values(task, problem));
    text
}

/// The settings of the folder's `duipai.toml` as TOML, written by `toml_edit`: every value a
/// string it escapes ([`toml_string`]), whatever the browser posted.
fn values(task: &Task, problem: &str) -> String {
    let mut settings = vec![
        ("problem", problem.to_string()),
        ("time-limit", format!("{}ms", task.time_limit_ms())),
        ("memory-limit", format!("{}MiB", task.memory_limit_mib())),
    ];
    if let Some((input, output)) = task.files() {
        settings.push(("input-file", input.to_string()));
        settings.push(("output-file", output.to_string()));
    }
    let mut document = toml_edit::DocumentMut::new();
    for (key, value) in settings {
        let value: toml_edit::Value = toml_string(&value)
            .parse()
            .unwrap_or_else(|_| toml_edit::Value::from(value));
        document[key] = toml_edit::Item::Value(value);
    }
    document.to_string()
}

/// `text` as a TOML basic string on one line, escaped by `toml_edit`'s writer (a line break
/// or any control character is an escape, never itself; `toml_edit` alone would write a
/// text with line breaks as a multi-line string): the one way a `duipai.toml` duipai writes
/// quotes a value, and puts posted text in a comment.
pub fn toml_string(text: &str) -> String {
    use toml_writer::TomlWrite;
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = out.value(toml_writer::TomlStringBuilder::new(text).as_basic());
    out
}

/// Creates `rel` in `folder` below `dir` with `bytes` unless it exists: the same contents
/// count as unchanged, others are kept.
fn put(
    dir: &Path,
    folder: &Path,
    rel: &Path,
    bytes: &[u8],
    landed: &mut Landed,
) -> anyhow::Result<()> {
    let path = dir.join(folder).join(rel);
    let rel_text = folder.join(rel).to_string_lossy().into_owned();
    if !crate::fsutil::no_link_on_the_way(dir, &rel_text) {
        anyhow::bail!(
            "{} is reached through a symbolic link; duipai listen writes only below {}",
            path.display(),
            dir.display()
        );
    }
    match std::fs::read(&path) {
        Ok(existing) if existing == bytes => landed.unchanged.push(rel.to_path_buf()),
        Ok(_) => landed.kept.push(rel.to_path_buf()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| {
                    anyhow::anyhow!("cannot create the folder {}: {e}", parent.display())
                })?;
            }
            match crate::fsutil::write_new_atomic(&path, bytes) {
                Ok(()) => landed.written.push(rel.to_path_buf()),
                // Made meanwhile by someone else: theirs.
                Err(_) if path.exists() => landed.kept.push(rel.to_path_buf()),
                Err(e) => return Err(e),
            }
        }
        // A folder or an unreadable file where a file goes: left alone.
        Err(_) => landed.kept.push(rel.to_path_buf()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::companion::task::parse_task;

    fn task(json: &str) -> Task {
        parse_task(json.as_bytes()).unwrap()
    }

    fn castle() -> Task {
        task(
            r#"{"name":"G. Castle Defense","group":"Codeforces - Educational Codeforces Round 40 (Rated for Div. 2)","url":"https://codeforces.com/problemset/problem/954/G","memoryLimit":256,"timeLimit":1500,"tests":[{"input":"5 0 6\n","output":"5\n"}]}"#,
        )
    }

    #[test]
    fn folder_names_are_plain_ascii_on_every_file_system() {
        assert_eq!(slug("G. Castle Defense"), "g-castle-defense");
        assert_eq!(
            slug("Codeforces - Educational Codeforces Round 40 (Rated for Div. 2)"),
            "codeforces-educational-codeforces-round-40-rated"
        );
        assert_eq!(slug("  ../../etc/passwd  "), "etc-passwd");
        assert_eq!(slug("CON"), "con-");
        assert_eq!(slug("【模板】快速幂"), "");
        assert_eq!(slug("A+B Problem: 1 ≤ a ≤ 10⁹"), "a-b-problem-1-a-10");
        let luogu = task(
            r#"{"name":"【模板】快速幂","group":"Luogu","url":"https://www.luogu.com.cn/problem/P1226","memoryLimit":128,"timeLimit":1000,"tests":[]}"#,
        );
        assert_eq!(name_slug(&luogu), "p1226");
    }

    #[test]
    fn a_problem_lands_with_its_samples_and_limits() {
        let dir = tempfile::tempdir().unwrap();
        let landed = land(dir.path(), &castle(), None, &[]).unwrap();
        let folder = Path::new("codeforces-educational-codeforces-round-40-rated/g-castle-defense");
        assert_eq!(landed.folder, folder);
        assert_eq!(landed.problem, "g-castle-defense");
        assert_eq!(landed.written.len(), 3);
        let at = dir.path().join(folder);
        assert_eq!(
            std::fs::read_to_string(at.join("samples/1.in")).unwrap(),
            "5 0 6\n"
        );
        assert_eq!(
            std::fs::read_to_string(at.join("samples/1.ans")).unwrap(),
            "5\n"
        );
        let toml = std::fs::read_to_string(at.join("duipai.toml")).unwrap();
        assert!(
            toml.starts_with("# G. Castle Defense\n# Codeforces - Educational"),
            "{toml}"
        );
        assert!(toml.contains("\nproblem = \"g-castle-defense\"\ntime-limit = \"1500ms\"\nmemory-limit = \"256MiB\"\n"), "{toml}");
    }

    #[test]
    fn nothing_there_is_overwritten_and_another_problem_gets_a_folder_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        land(dir.path(), &castle(), None, &[]).unwrap();
        let folder = dir
            .path()
            .join("codeforces-educational-codeforces-round-40-rated/g-castle-defense");
        std::fs::write(folder.join("samples/1.ans"), "mine\n").unwrap();
        // The same problem again: the edited answer stays, the rest is unchanged.
        let again = land(dir.path(), &castle(), None, &[]).unwrap();
        assert_eq!(again.folder, folder.strip_prefix(dir.path()).unwrap());
        assert_eq!(again.kept, [PathBuf::from("samples/1.ans")]);
        assert_eq!(again.unchanged.len(), 2);
        assert!(again.written.is_empty());
        assert_eq!(
            std::fs::read_to_string(folder.join("samples/1.ans")).unwrap(),
            "mine\n"
        );
        // Another problem of the same name: a folder of its own.
        let mut other = castle();
        other.url = "https://codeforces.com/gym/100/problem/G".into();
        let landed = land(dir.path(), &other, None, &[]).unwrap();
        assert!(
            landed.folder.ends_with("g-castle-defense-2"),
            "{:?}",
            landed.folder
        );
    }

    #[test]
    fn a_template_becomes_the_solution_and_a_game_name_is_not_taken() {
        let dir = tempfile::tempdir().unwrap();
        let template = Template {
            extension: "cpp".into(),
            text: "// ${name}: ${url}\nint main() {}\n".into(),
        };
        let mut chess = castle();
        chess.name = "Chess".into();
        chess.group = String::new();
        let landed = land(dir.path(), &chess, Some(&template), &[]).unwrap();
        assert_eq!(landed.folder, Path::new("chess"));
        assert_eq!(landed.problem, "chess-task");
        let sol = std::fs::read_to_string(dir.path().join("chess/sol.cpp")).unwrap();
        assert_eq!(
            sol,
            "// Chess: https://codeforces.com/problemset/problem/954/G\nint main() {}\n"
        );
    }

    /// What the browser posts is data: a name, a group, a URL and a "regex" input's
    /// pattern with line breaks and control characters stay in their comments and strings,
    /// and the file reads back with the settings duipai wrote and no other.
    #[test]
    fn posted_text_never_becomes_settings() {
        let dir = tempfile::tempdir().unwrap();
        let mut hostile = castle();
        hostile.name = "A\ngenerator = \"sh -c 'id'\"\u{1b}[2J\u{0}\u{7f}".into();
        hostile.group = "G\r\nreference = \"x\"".into();
        hostile.url = "https://e.example/\ninteractor = \"y\"".into();
        hostile.input = Input::Regex {
            pattern: "a.*\ngenerator = \"sh -c 'touch /tmp/pwned'\"\n[stress]\ntime = 1".into(),
        };
        let landed = land(dir.path(), &hostile, None, &[]).unwrap();
        let text = std::fs::read_to_string(dir.path().join(&landed.folder).join(CONFIG)).unwrap();
        let document: toml_edit::DocumentMut =
            text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
        let keys: Vec<&str> = document.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["problem", "time-limit", "memory-limit"], "{text}");
        assert!(
            text.contains(r#""a.*\ngenerator = \"sh -c 'touch /tmp/pwned'\"\n[stress]\ntime = 1""#),
            "{text}"
        );
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        // The same problem posted again is found in its folder.
        let again = land(dir.path(), &hostile, None, &[]).unwrap();
        assert_eq!(again.folder, landed.folder);
    }

    /// `${name}`, `${group}` and `${url}` put the posted text in as one line that can close
    /// neither a comment nor a string.
    #[test]
    fn a_template_gets_names_in_a_safe_form() {
        let dir = tempfile::tempdir().unwrap();
        let template = Template {
            extension: "cpp".into(),
            text: "// ${name}\n/* ${group} */\nconst char *u = \"${url}\";\nint main() {}\n".into(),
        };
        let mut hostile = castle();
        hostile.name = "A\nint x = system(\"id\"); //".into();
        hostile.group = "G */ int y; /* 【模板】".into();
        hostile.url = "https://e.example/p?a=\"; system(\"id\"); //*/".into();
        let landed = land(dir.path(), &hostile, Some(&template), &[]).unwrap();
        let sol = std::fs::read_to_string(dir.path().join(&landed.folder).join("sol.cpp")).unwrap();
        assert_eq!(
            sol,
            "// A int x = system( id );\n/* G int y; 【模板】 */\n\
             const char *u = \"https://e.example/p?a=%22;%20system(%22id%22);%20//%2A/\";\n\
             int main() {}\n"
        );
    }
}
