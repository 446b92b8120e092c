//! `problem.xml` as duipai writes it, for a built-in game's package and for a problem of
//! one's own's alike: the package described as data ([`Problem`]) and written element by
//! element, each test's input in `tests/NN.in` and its answer in `tests/NN.ans`.

use std::path::Path;

use crate::polygon::Standard;

/// What a written `problem.xml` says.
pub struct Problem<'a> {
    /// The short name, also the English title of a problem of one's own.
    pub name: &'a str,
    pub title: &'a str,
    pub time_ms: u128,
    pub memory_bytes: u64,
    pub tests: Vec<Test>,
    /// The setter's groups, in order; none leaves `<groups>` out.
    pub groups: Vec<Group>,
    /// `<files>`: headers and executables. `None` leaves the element out (a built-in game's
    /// package has no program but its solution).
    pub files: Option<Files>,
    pub judged: Judged,
    pub validator: Option<String>,
    /// Each solution's path in the package and its tag.
    pub solutions: Vec<(String, &'static str)>,
}

/// One `<test>`.
#[derive(Clone, Default)]
pub struct Test {
    /// The command that prints it, for a generated test; a manual one has its file.
    pub cmd: Option<String>,
    /// Its group and its own points in it.
    pub group: Option<(String, f64)>,
    pub sample: bool,
}

/// One `<group>`.
pub struct Group {
    pub name: String,
    pub points: u32,
    pub each_test: bool,
    pub dependencies: Vec<String>,
}

/// `<files>`: the headers the programs include and the executables (generators, validator,
/// checker or interactor), by path in the package.
pub struct Files {
    pub headers: Vec<String>,
    pub executables: Vec<String>,
}

/// How outputs are judged, as `problem.xml` says it.
pub enum Judged {
    Checker(String),
    Interactor(String),
    Standard(Standard),
}

/// The text of `problem.xml`.
pub fn write(problem: &Problem) -> String {
    let mut xml = Xml::default();
    xml.head(problem.name, problem.title);
    xml.testset(problem);
    if let Some(files) = &problem.files {
        xml.files(files);
    }
    xml.assets(problem);
    xml.0
}

/// `problem.xml` as it is written, line by line.
#[derive(Default)]
struct Xml(String);

impl Xml {
    fn line(&mut self, indent: usize, text: impl AsRef<str>) {
        self.0.push_str(&" ".repeat(indent * 4));
        self.0.push_str(text.as_ref());
        self.0.push('\n');
    }

    /// A program's `<source>` element.
    fn source(&mut self, indent: usize, path: &str) {
        self.line(
            indent,
            format!(r#"<source path="{}" type="{}"/>"#, escape(path), kind(path)),
        );
    }

    fn head(&mut self, name: &str, title: &str) {
        self.line(
            0,
            r#"<?xml version="1.0" encoding="utf-8" standalone="no"?>"#,
        );
        self.line(
            0,
            format!(r#"<problem revision="1" short-name="{}">"#, escape(name)),
        );
        self.line(1, "<names>");
        self.line(
            2,
            format!(r#"<name language="english" value="{}"/>"#, escape(title)),
        );
        self.line(1, "</names>");
    }

    fn testset(&mut self, problem: &Problem) {
        let count = problem.tests.len();
        let width = count.to_string().len().max(2);
        self.line(1, r#"<judging input-file="" output-file="">"#);
        self.line(2, r#"<testset name="tests">"#);
        self.line(3, format!("<time-limit>{}</time-limit>", problem.time_ms));
        self.line(
            3,
            format!("<memory-limit>{}</memory-limit>", problem.memory_bytes),
        );
        self.line(3, format!("<test-count>{count}</test-count>"));
        self.line(
            3,
            format!("<input-path-pattern>tests/%0{width}d.in</input-path-pattern>"),
        );
        self.line(
            3,
            format!("<answer-path-pattern>tests/%0{width}d.ans</answer-path-pattern>"),
        );
        self.line(3, "<tests>");
        for test in &problem.tests {
            self.test(test);
        }
        self.line(3, "</tests>");
        self.groups(&problem.groups);
        self.line(2, "</testset>");
        self.line(1, "</judging>");
    }

    fn test(&mut self, test: &Test) {
        let mut attributes = match &test.cmd {
            Some(cmd) => format!(r#" cmd="{}" method="generated""#, escape(cmd)),
            None => r#" method="manual""#.to_string(),
        };
        if let Some((group, points)) = &test.group {
            attributes.push_str(&format!(r#" group="{}""#, escape(group)));
            attributes.push_str(&format!(r#" points="{points:.1}""#));
        }
        if test.sample {
            attributes.push_str(r#" sample="true""#);
        }
        self.line(4, format!("<test{attributes}/>"));
    }

    fn groups(&mut self, groups: &[Group]) {
        if groups.is_empty() {
            return;
        }
        self.line(3, "<groups>");
        for group in groups {
            let policy = match group.each_test {
                true => "each-test",
                false => "complete-group",
            };
            let open = format!(
                r#"<group feedback-policy="icpc" name="{}" points="{}.0" points-policy="{policy}""#,
                escape(&group.name),
                group.points
            );
            if group.dependencies.is_empty() {
                self.line(4, format!("{open}/>"));
                continue;
            }
            self.line(4, format!("{open}>"));
            self.line(5, "<dependencies>");
            for dependency in &group.dependencies {
                self.line(
                    6,
                    format!(r#"<dependency group="{}"/>"#, escape(dependency)),
                );
            }
            self.line(5, "</dependencies>");
            self.line(4, "</group>");
        }
        self.line(3, "</groups>");
    }

    fn files(&mut self, files: &Files) {
        self.line(1, "<files>");
        self.line(2, "<resources>");
        for path in &files.headers {
            self.line(
                3,
                format!(r#"<file path="{}" type="h.g++"/>"#, escape(path)),
            );
        }
        self.line(2, "</resources>");
        self.line(2, "<executables>");
        for path in &files.executables {
            self.line(3, "<executable>");
            self.source(4, path);
            self.line(3, "</executable>");
        }
        self.line(2, "</executables>");
        self.line(1, "</files>");
    }

    fn assets(&mut self, problem: &Problem) {
        self.line(1, "<assets>");
        self.judged(&problem.judged);
        if let Some(path) = &problem.validator {
            self.line(2, "<validators>");
            self.line(3, "<validator>");
            self.source(4, path);
            self.line(3, "</validator>");
            self.line(2, "</validators>");
        }
        self.line(2, "<solutions>");
        for (path, tag) in &problem.solutions {
            self.line(3, format!(r#"<solution tag="{tag}">"#));
            self.source(4, path);
            self.line(3, "</solution>");
        }
        self.line(2, "</solutions>");
        self.line(1, "</assets>");
        self.line(0, "</problem>");
    }

    fn judged(&mut self, judged: &Judged) {
        match judged {
            Judged::Checker(path) => {
                self.line(2, r#"<checker type="testlib">"#);
                self.source(3, path);
                self.line(2, "</checker>");
            }
            Judged::Standard(standard) => {
                let name = standard.polygon_name();
                self.line(2, format!(r#"<checker name="{name}" type="testlib"/>"#));
            }
            Judged::Interactor(path) => {
                self.line(2, r#"<checker name="std::wcmp.cpp" type="testlib"/>"#);
                self.line(2, "<interactor>");
                self.source(3, path);
                self.line(2, "</interactor>");
            }
        }
    }
}

/// Polygon's name of a source's language.
fn kind(path: &str) -> &'static str {
    match Path::new(path).extension().and_then(|e| e.to_str()) {
        Some("c") => "c.gcc",
        Some("py") => "python.3",
        Some("java") => "java11",
        Some("rs") => "rust",
        _ => "cpp.g++17",
    }
}

/// Text for an XML attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_is_read_back_as_it_was_written() {
        let problem = Problem {
            name: "pairs",
            title: "Pairs & \"more\" <x>",
            time_ms: 1500,
            memory_bytes: 256 << 20,
            tests: vec![
                Test {
                    sample: true,
                    ..Test::default()
                },
                Test {
                    cmd: Some("gen 5 'a b' 7".to_string()),
                    group: Some(("small".to_string(), 20.0)),
                    sample: false,
                },
            ],
            groups: vec![Group {
                name: "small".to_string(),
                points: 40,
                each_test: true,
                dependencies: vec!["base".to_string()],
            }],
            files: Some(Files {
                headers: vec!["files/testlib.h".to_string()],
                executables: vec!["files/gen.py".to_string()],
            }),
            judged: Judged::Checker("files/check.cpp".to_string()),
            validator: Some("files/val.c".to_string()),
            solutions: vec![("solutions/a.cpp".to_string(), "main")],
        };
        let text = write(&problem);
        let doc = roxmltree::Document::parse(&text).unwrap();
        let find = |tag: &str| doc.descendants().find(|n| n.has_tag_name(tag)).unwrap();
        assert_eq!(
            find("name").attribute("value"),
            Some("Pairs & \"more\" <x>")
        );
        assert_eq!(find("time-limit").text(), Some("1500"));
        assert_eq!(find("memory-limit").text(), Some("268435456"));
        assert_eq!(find("test-count").text(), Some("2"));
        let tests: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("test"))
            .collect();
        assert_eq!(tests[0].attribute("method"), Some("manual"));
        assert_eq!(tests[0].attribute("sample"), Some("true"));
        assert_eq!(tests[1].attribute("cmd"), Some("gen 5 'a b' 7"));
        assert_eq!(tests[1].attribute("points"), Some("20.0"));
        let group = find("group");
        assert_eq!(group.attribute("points-policy"), Some("each-test"));
        assert_eq!(find("dependency").attribute("group"), Some("base"));
        assert_eq!(find("file").attribute("type"), Some("h.g++"));
        let sources: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("source"))
            .map(|n| (n.attribute("path").unwrap(), n.attribute("type").unwrap()))
            .collect();
        assert_eq!(
            sources,
            [
                ("files/gen.py", "python.3"),
                ("files/check.cpp", "cpp.g++17"),
                ("files/val.c", "c.gcc"),
                ("solutions/a.cpp", "cpp.g++17"),
            ]
        );
    }
}
