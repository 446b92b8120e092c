//! `problem.xml` read into a [`Package`], with roxmltree: a read-only tree that keeps every
//! node's place in the text, so each error names its line and column.

use std::path::{Path, PathBuf};

use roxmltree::{Document, Node};

use super::{
    Checker, CheckerTest, CheckerVerdict, Group, Package, PointsPolicy, Solution, Standard, Stress,
    Tag, Test, TestSource, ValidatorTest, path_of, plain_name,
};
use crate::text::quote;

/// The file being read, for positioned messages.
struct Reader<'a> {
    shown: &'a str,
    lines: Lines<'a>,
    dir: &'a Path,
}

/// Where each line of the text starts, so that a byte offset becomes a line and column in
/// logarithmic time: roxmltree's own `text_pos_at` counts from the start of the text each
/// time, which made reading a testset quadratic in its tests.
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        Lines { text, starts }
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    fn position(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&start| start <= offset);
        let start = self.starts[line - 1];
        let column = self
            .text
            .get(start..offset)
            .map_or(0, |s| s.chars().count())
            + 1;
        (line, column)
    }
}

impl Reader<'_> {
    /// `problem.xml:LINE:COLUMN: message` at `node`.
    fn error(&self, node: Node, message: impl std::fmt::Display) -> anyhow::Error {
        anyhow::anyhow!("{}: {message}", self.at(node))
    }

    fn at(&self, node: Node) -> String {
        let (line, column) = self.lines.position(node.range().start);
        format!("{}:{line}:{column}", self.shown)
    }

    /// The line `node` starts on.
    fn line(&self, node: Node) -> usize {
        self.lines.position(node.range().start).0
    }

    /// The child element `name` of `node`, which must be there.
    fn child<'a, 'b>(&self, node: Node<'a, 'b>, name: &str) -> anyhow::Result<Node<'a, 'b>> {
        child(node, name).ok_or_else(|| {
            self.error(
                node,
                format!("<{}> has no <{name}>", node.tag_name().name()),
            )
        })
    }

    /// The text of the child element `name`, trimmed.
    fn child_text(&self, node: Node, name: &str) -> anyhow::Result<String> {
        let child = self.child(node, name)?;
        Ok(child.text().unwrap_or_default().trim().to_string())
    }

    /// A whole number in the child element `name`.
    fn child_number(&self, node: Node, name: &str) -> anyhow::Result<u64> {
        let child = self.child(node, name)?;
        let text = child.text().unwrap_or_default().trim();
        text.parse::<u64>().map_err(|_| {
            self.error(
                child,
                format!("<{name}>: expected a whole number, found {}", quote(text)),
            )
        })
    }

    /// A source file the package names at `<source path="...">` in `node`: it must exist.
    fn source_of(&self, node: Node) -> anyhow::Result<Option<PathBuf>> {
        let Some(source) = child(node, "source") else {
            return Ok(None);
        };
        let path = source
            .attribute("path")
            .ok_or_else(|| self.error(source, "<source> has no path"))?;
        self.existing(source, path).map(Some)
    }

    /// `path` relative to the package, which must be a file there, reached through no
    /// symbolic link: a package from elsewhere could otherwise name any file of the machine.
    fn existing(&self, node: Node, path: &str) -> anyhow::Result<PathBuf> {
        let relative = self.inside(node, path)?;
        if !self.dir.join(&relative).is_file() {
            return Err(self.error(
                node,
                format!(
                    "the package has no file {} ({})",
                    quote(path),
                    self.dir.join(&relative).display()
                ),
            ));
        }
        Ok(relative)
    }

    /// `path` as a path inside the package: relative, without `..`, and with no symbolic
    /// link on the way to it or at its end (whether or not the file exists).
    fn inside(&self, node: Node, path: &str) -> anyhow::Result<PathBuf> {
        let relative = PathBuf::from(path);
        if path.is_empty()
            || relative.is_absolute()
            || path.split(['/', '\\']).any(|part| part == "..")
        {
            return Err(self.error(
                node,
                format!("{} is not a path inside the package", quote(path)),
            ));
        }
        if let Some(link) = crate::fsutil::first_link(self.dir, path) {
            return Err(self.error(
                node,
                format!(
                    "{}: {}",
                    self.dir.join(link).display(),
                    crate::fsutil::LINK_IN_PACKAGE
                ),
            ));
        }
        Ok(relative)
    }
}

/// The first child element of `node` named `name`.
fn child<'a, 'b>(node: Node<'a, 'b>, name: &str) -> Option<Node<'a, 'b>> {
    node.children()
        .find(|n| n.is_element() && n.tag_name().name() == name)
}

/// The child elements of `node` named `name`.
fn children<'a, 'b: 'a>(node: Node<'a, 'b>, name: &'a str) -> impl Iterator<Item = Node<'a, 'b>> {
    node.children()
        .filter(move |n| n.is_element() && n.tag_name().name() == name)
}

/// Reads `text`, the `problem.xml` of the package in `dir`, shown as `shown` in messages.
pub fn parse(dir: &Path, shown: &str, text: &str) -> anyhow::Result<Package> {
    let doc = Document::parse(text).map_err(|e| {
        let pos = e.pos();
        anyhow::anyhow!("{shown}:{}:{}: {e}", pos.row, pos.col)
    })?;
    let reader = Reader {
        shown,
        lines: Lines::new(text),
        dir,
    };
    let root = problem(&reader, &doc)?;
    let (name, title) = names(root, dir);
    let judging = reader.child(root, "judging")?;
    let testset = testset(&reader, judging)?;
    let assets = reader.child(root, "assets")?;
    let helpers = helpers(&reader, assets)?;
    let solutions = solutions(&reader, assets)?;
    let files = child(root, "files");
    let testlib = testlib(&reader, files)?;
    let generators = generators(&reader, files, &helpers.sources())?;
    let tests = tests_of(&reader, &testset, &generators)?;
    let groups = groups(&reader, testset.node, &tests)?;
    let stresses = stresses(&reader, root, &generators, &solutions)?;
    Ok(Package {
        dir: dir.to_path_buf(),
        name,
        title,
        time_limit_ms: testset.time_limit_ms,
        memory_bytes: testset.memory_bytes,
        input_file: judging.attribute("input-file").unwrap_or("").to_string(),
        output_file: judging.attribute("output-file").unwrap_or("").to_string(),
        judging_at: reader.at(judging),
        tests,
        groups,
        checker: helpers.checker,
        validator: helpers.validator,
        interactor: helpers.interactor,
        generators,
        solutions,
        testlib,
        validator_tests: helpers.validator_tests,
        checker_tests: helpers.checker_tests,
        stresses,
    })
}

/// The document's `<problem>` element; any other root is refused.
fn problem<'a, 'b>(reader: &Reader, doc: &'b Document<'a>) -> anyhow::Result<Node<'b, 'a>> {
    let root = doc.root_element();
    if root.tag_name().name() != "problem" {
        return Err(reader.error(
            root,
            format!(
                "expected a Polygon package's <problem>, found <{}>",
                root.tag_name().name()
            ),
        ));
    }
    Ok(root)
}

/// The package's name (`short-name`, else its folder's) and its first title.
fn names(root: Node, dir: &Path) -> (String, Option<String>) {
    let name = root
        .attribute("short-name")
        .map(plain_name)
        .or_else(|| dir_name(dir))
        .unwrap_or_else(|| "problem".to_string());
    let title = child(root, "names")
        .and_then(|names| child(names, "name"))
        .and_then(|n| n.attribute("value"))
        .map(str::to_string);
    (name, title)
}

/// The programs that judge: the checker, the first validator and the interactor, with the
/// checker's and the validator's own tests.
struct Helpers {
    checker: Checker,
    validator: Option<PathBuf>,
    interactor: Option<PathBuf>,
    validator_tests: Vec<ValidatorTest>,
    checker_tests: Vec<CheckerTest>,
}

impl Helpers {
    /// Their sources, which are no generators though `<executables>` lists them.
    fn sources(&self) -> Vec<&Path> {
        let mut sources: Vec<&Path> = self.validator.iter().map(PathBuf::as_path).collect();
        sources.extend(self.interactor.as_deref());
        if let Checker::Source(path) = &self.checker {
            sources.push(path);
        }
        sources
    }
}

/// The helpers of `<assets>`.
fn helpers(reader: &Reader, assets: Node) -> anyhow::Result<Helpers> {
    let checker = checker(reader, assets)?;
    let first_validator = child(assets, "validators").and_then(|v| children(v, "validator").next());
    let validator = match first_validator {
        Some(first) => reader.source_of(first)?,
        None => None,
    };
    let validator_tests = match first_validator {
        Some(node) => validator_tests(reader, node)?,
        None => Vec::new(),
    };
    let checker_tests = checker_tests(reader, reader.child(assets, "checker")?)?;
    let interactor = match child(assets, "interactor") {
        Some(node) => Some(
            reader
                .source_of(node)?
                .ok_or_else(|| reader.error(node, "<interactor> has no <source>"))?,
        ),
        None => None,
    };
    Ok(Helpers {
        checker,
        validator,
        interactor,
        validator_tests,
        checker_tests,
    })
}

/// `<stresses>`: each `<stress index="1" path="stresses/001"/>` of its `<list>`, its file
/// read (inside the package, through no link), sorted by index. A `<stress>` itself that is
/// wrong (an index given twice, no path, a path leaving the package) is an error of
/// `problem.xml`; a stress file that cannot be run is kept with the reason, for the stress.
fn stresses(
    reader: &Reader,
    root: Node,
    generators: &[(String, PathBuf)],
    solutions: &[Solution],
) -> anyhow::Result<Vec<(usize, Result<Stress, String>)>> {
    let list = child(root, "stresses").and_then(|s| child(s, "list"));
    let mut found: Vec<(usize, Result<Stress, String>)> = Vec::new();
    for node in list.into_iter().flat_map(|l| children(l, "stress")) {
        let written = node.attribute("index").unwrap_or_default();
        let index: usize = written.parse().ok().filter(|&i| i > 0).ok_or_else(|| {
            reader.error(
                node,
                format!(
                    "<stress> index {}: expected a number from 1",
                    quote(written)
                ),
            )
        })?;
        if found.iter().any(|(i, _)| *i == index) {
            return Err(reader.error(node, format!("stress {index} is listed twice")));
        }
        let path = node
            .attribute("path")
            .ok_or_else(|| reader.error(node, format!("stress {index} has no path")))?;
        let relative = reader.inside(node, path)?;
        let at = (reader.at(node), reader.line(node));
        let stress = super::stresses::read(reader.dir, &relative, index, at, generators, solutions)
            .map_err(|e| format!("{e:#}"));
        found.push((index, stress));
    }
    found.sort_by_key(|(index, _)| *index);
    Ok(found)
}

/// The `<testset>` of a validator or checker: its tests' nodes with their 1-based numbers,
/// and the path of test `index` by the pattern named `pattern`.
fn helper_testset<'a, 'b>(node: Node<'a, 'b>) -> Option<(Node<'a, 'b>, Vec<Node<'a, 'b>>)> {
    let testset = child(node, "testset")?;
    let tests = child(testset, "tests")
        .map(|t| children(t, "test").collect())
        .unwrap_or_default();
    Some((testset, tests))
}

/// Test `index`'s file by the pattern `name` of `testset`, inside the package.
fn helper_test_path(
    reader: &Reader,
    testset: Node,
    name: &str,
    index: usize,
) -> anyhow::Result<PathBuf> {
    let pattern = reader.child_text(testset, name)?;
    let path = path_of(&pattern, index).ok_or_else(|| {
        reader.error(
            testset,
            format!(
                "<{name}>: expected a path with a number, found {}",
                quote(&pattern)
            ),
        )
    })?;
    reader.inside(testset, &path)
}

/// The validator's own tests: each input, and whether it is valid.
fn validator_tests(reader: &Reader, validator: Node) -> anyhow::Result<Vec<ValidatorTest>> {
    let Some((testset, nodes)) = helper_testset(validator) else {
        return Ok(Vec::new());
    };
    let mut tests = Vec::new();
    for (i, node) in nodes.into_iter().enumerate() {
        let valid = match node.attribute("verdict").unwrap_or_default() {
            v if v.eq_ignore_ascii_case("valid") => true,
            v if v.eq_ignore_ascii_case("invalid") => false,
            other => {
                return Err(reader.error(
                    node,
                    format!(
                        "validator test {}: verdict {} is neither valid nor invalid",
                        i + 1,
                        quote(other)
                    ),
                ));
            }
        };
        tests.push(ValidatorTest {
            input: helper_test_path(reader, testset, "input-path-pattern", i + 1)?,
            valid,
            at: reader.at(node),
        });
    }
    Ok(tests)
}

/// The checker's own tests: input, output and answer, and the checker's expected verdict.
fn checker_tests(reader: &Reader, checker: Node) -> anyhow::Result<Vec<CheckerTest>> {
    let Some((testset, nodes)) = helper_testset(checker) else {
        return Ok(Vec::new());
    };
    let mut tests = Vec::new();
    for (i, node) in nodes.into_iter().enumerate() {
        let written = node.attribute("verdict").unwrap_or_default();
        let verdict = CheckerVerdict::parse(written).ok_or_else(|| {
            reader.error(
                node,
                format!(
                    "checker test {}: verdict {} is not ok, wrong-answer, presentation-error \
                     or crashed",
                    i + 1,
                    quote(written)
                ),
            )
        })?;
        let path = |name| helper_test_path(reader, testset, name, i + 1);
        tests.push(CheckerTest {
            input: path("input-path-pattern")?,
            output: path("output-path-pattern")?,
            answer: path("answer-path-pattern")?,
            verdict,
            at: reader.at(node),
        });
    }
    Ok(tests)
}

fn dir_name(dir: &Path) -> Option<String> {
    std::fs::canonicalize(dir)
        .ok()?
        .file_name()
        .map(|n| plain_name(&n.to_string_lossy()))
}

/// The testset judged: `tests` (Polygon's main one), else the first.
struct Testset<'a, 'b> {
    node: Node<'a, 'b>,
    time_limit_ms: u64,
    memory_bytes: u64,
    input_pattern: String,
    /// `<answer-path-pattern>`, when given.
    answer_pattern: Option<String>,
}

fn testset<'a, 'b>(reader: &Reader, judging: Node<'a, 'b>) -> anyhow::Result<Testset<'a, 'b>> {
    let node = children(judging, "testset")
        .find(|t| t.attribute("name") == Some("tests"))
        .or_else(|| children(judging, "testset").next())
        .ok_or_else(|| reader.error(judging, "<judging> has no <testset>"))?;
    let time_limit_ms = reader.child_number(node, "time-limit")?;
    let memory_bytes = reader.child_number(node, "memory-limit")?;
    if time_limit_ms == 0 || memory_bytes < 1 << 20 {
        return Err(reader.error(
            node,
            "the time limit must be above 0 ms and the memory limit at least 1 MiB",
        ));
    }
    let input_pattern = reader.child_text(node, "input-path-pattern")?;
    if path_of(&input_pattern, 1).is_none() {
        let at = reader.child(node, "input-path-pattern")?;
        return Err(reader.error(
            at,
            format!(
                "expected a path with a number, like tests/%02d, found {}",
                quote(&input_pattern)
            ),
        ));
    }
    let answer_pattern = child(node, "answer-path-pattern")
        .and_then(|n| n.text())
        .map(|t| t.trim().to_string())
        .filter(|t| path_of(t, 1).is_some());
    Ok(Testset {
        node,
        time_limit_ms,
        memory_bytes,
        input_pattern,
        answer_pattern,
    })
}

/// Every `<test>`, checked against `<test-count>`.
fn tests_of(
    reader: &Reader,
    testset: &Testset,
    generators: &[(String, PathBuf)],
) -> anyhow::Result<Vec<Test>> {
    let count = reader.child_number(testset.node, "test-count")?;
    let list = reader.child(testset.node, "tests")?;
    let mut tests = Vec::new();
    for (i, node) in children(list, "test").enumerate() {
        tests.push(test(reader, node, i + 1, testset, generators)?);
    }
    if tests.len() as u64 != count {
        let at = reader.child(testset.node, "test-count")?;
        return Err(reader.error(
            at,
            format!(
                "<test-count> says {count} but <tests> lists {}",
                tests.len()
            ),
        ));
    }
    if tests.is_empty() {
        return Err(reader.error(list, "the testset has no test"));
    }
    Ok(tests)
}

fn test(
    reader: &Reader,
    node: Node,
    index: usize,
    testset: &Testset,
    generators: &[(String, PathBuf)],
) -> anyhow::Result<Test> {
    let pattern = testset.input_pattern.as_str();
    let source = match node.attribute("method").unwrap_or("manual") {
        "manual" => {
            let path = path_of(pattern, index).unwrap_or_default();
            let relative = reader.inside(node, &path)?;
            if !reader.dir.join(&relative).is_file() {
                return Err(reader.error(
                    node,
                    format!("test {index} is manual and the package has no file {path}"),
                ));
            }
            TestSource::Manual(relative)
        }
        "generated" => generated(reader, node, index, generators)?,
        other => {
            return Err(reader.error(
                node,
                format!(
                    "test {index}: method {} is neither manual nor generated",
                    quote(other)
                ),
            ));
        }
    };
    let points = match node.attribute("points") {
        None => None,
        Some(text) => Some(
            text.parse::<f64>()
                .ok()
                .filter(|p| p.is_finite() && *p >= 0.0)
                .ok_or_else(|| {
                    reader.error(
                        node,
                        format!(
                            "test {index}: points: expected a number, found {}",
                            quote(text)
                        ),
                    )
                })?,
        ),
    };
    Ok(Test {
        index,
        source,
        group: node.attribute("group").map(str::to_string),
        points,
        sample: node.attribute("sample") == Some("true"),
        answer: shipped_answer(reader, node, index, testset)?,
        at: reader.at(node),
        line: reader.line(node),
    })
}

/// The answer file of test `index` the package ships, if it has it; one reached through a
/// link is refused.
fn shipped_answer(
    reader: &Reader,
    node: Node,
    index: usize,
    testset: &Testset,
) -> anyhow::Result<Option<PathBuf>> {
    let Some(path) = testset
        .answer_pattern
        .as_deref()
        .and_then(|p| path_of(p, index))
    else {
        return Ok(None);
    };
    let relative = reader.inside(node, &path)?;
    Ok(Some(relative).filter(|r| reader.dir.join(r).is_file()))
}

/// `cmd="gen --type=tree 10"`: a generator of the package and its arguments.
fn generated(
    reader: &Reader,
    node: Node,
    index: usize,
    generators: &[(String, PathBuf)],
) -> anyhow::Result<TestSource> {
    let cmd = node
        .attribute("cmd")
        .ok_or_else(|| reader.error(node, format!("test {index} is generated and has no cmd")))?;
    let words = shell_words::split(cmd)
        .map_err(|e| reader.error(node, format!("test {index}: cmd {}: {e}", quote(cmd))))?;
    let Some((generator, args)) = words.split_first() else {
        return Err(reader.error(node, format!("test {index}: cmd is empty")));
    };
    if let Some(why) = super::stresses::not_a_generator(generators, generator) {
        return Err(reader.error(node, format!("test {index}: cmd {why}")));
    }
    Ok(TestSource::Generated {
        generator: generator.clone(),
        args: args.to_vec(),
    })
}

/// `<groups>`, and a group for each name a test uses that `<groups>` does not list.
fn groups(reader: &Reader, testset: Node, tests: &[Test]) -> anyhow::Result<Vec<Group>> {
    let mut groups: Vec<Group> = Vec::new();
    if let Some(list) = child(testset, "groups") {
        for node in children(list, "group") {
            let name = node
                .attribute("name")
                .ok_or_else(|| reader.error(node, "<group> has no name"))?;
            let policy = match node.attribute("points-policy").unwrap_or("complete-group") {
                "complete-group" => PointsPolicy::CompleteGroup,
                "each-test" => PointsPolicy::EachTest,
                other => {
                    return Err(reader.error(
                        node,
                        format!(
                            "group {name}: points-policy {} is neither complete-group nor \
                             each-test",
                            quote(other)
                        ),
                    ));
                }
            };
            let points = node.attribute("points").and_then(|p| p.parse::<f64>().ok());
            let dependencies = child(node, "dependencies")
                .into_iter()
                .flat_map(|d| children(d, "dependency"))
                .filter_map(|d| d.attribute("group").map(str::to_string))
                .collect();
            groups.push(Group {
                name: name.to_string(),
                points,
                policy,
                dependencies,
            });
        }
        for node in children(list, "group") {
            for dependency in child(node, "dependencies")
                .into_iter()
                .flat_map(|d| children(d, "dependency"))
            {
                let wanted = dependency.attribute("group").unwrap_or_default();
                if !groups.iter().any(|g| g.name == wanted) {
                    return Err(reader.error(
                        dependency,
                        format!("a dependency on {}, which is no group", quote(wanted)),
                    ));
                }
            }
        }
    }
    for test in tests {
        if let Some(name) = &test.group
            && !groups.iter().any(|g| &g.name == name)
        {
            groups.push(Group {
                name: name.clone(),
                points: None,
                policy: PointsPolicy::EachTest,
                dependencies: Vec::new(),
            });
        }
    }
    Ok(groups)
}

/// The checker: the package's source; or, for a standard one named without its file, duipai's.
fn checker(reader: &Reader, assets: Node) -> anyhow::Result<Checker> {
    let node = reader.child(assets, "checker")?;
    let name = node.attribute("name");
    let source = child(node, "source").and_then(|s| s.attribute("path"));
    if let Some(path) = source
        && reader.dir.join(reader.inside(node, path)?).is_file()
    {
        return Ok(Checker::Source(PathBuf::from(path)));
    }
    match name {
        Some(name) => match Standard::from_polygon_name(name) {
            Some(standard) => Ok(Checker::Standard(standard)),
            None => Err(reader.error(
                node,
                format!(
                    "the checker {} has no file in the package{}, and is not one of testlib's \
                     standard checkers ({})",
                    quote(name),
                    source.map(|p| format!(" ({p})")).unwrap_or_default(),
                    Standard::ALL
                        .iter()
                        .map(|s| s.polygon_name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        },
        None => Err(reader.error(
            node,
            match source {
                Some(path) => format!("the package has no file {}", quote(path)),
                None => "<checker> has neither a name nor a <source>".to_string(),
            },
        )),
    }
}

/// The solutions with their tags.
fn solutions(reader: &Reader, assets: Node) -> anyhow::Result<Vec<Solution>> {
    let Some(list) = child(assets, "solutions") else {
        return Ok(Vec::new());
    };
    let mut solutions = Vec::new();
    for node in children(list, "solution") {
        let written = node
            .attribute("tag")
            .ok_or_else(|| reader.error(node, "<solution> has no tag"))?;
        let tag = Tag::parse(written).ok_or_else(|| {
            reader.error(
                node,
                format!(
                    "unknown tag {}: Polygon's tags are {}",
                    quote(written),
                    Tag::ALL.map(Tag::name).join(", ")
                ),
            )
        })?;
        let path = reader
            .source_of(node)?
            .ok_or_else(|| reader.error(node, "<solution> has no <source>"))?;
        solutions.push(Solution { path, tag });
    }
    Ok(solutions)
}

/// `files/testlib.h`, or the resource ending so, when the package has it. Every resource is
/// checked to be inside the package, reached through no link.
fn testlib(reader: &Reader, files: Option<Node>) -> anyhow::Result<Option<PathBuf>> {
    let mut found = None;
    for node in files
        .and_then(|f| child(f, "resources"))
        .into_iter()
        .flat_map(|r| children(r, "file"))
    {
        let Some(path) = node.attribute("path") else {
            continue;
        };
        let relative = reader.inside(node, path)?;
        if found.is_none() && path.ends_with("testlib.h") {
            found = Some(relative);
        }
    }
    let path = found.unwrap_or_else(|| PathBuf::from("files/testlib.h"));
    if crate::fsutil::first_link(reader.dir, &path.to_string_lossy()).is_some() {
        let message = format!(
            "{}: {}",
            reader.dir.join(&path).display(),
            crate::fsutil::LINK_IN_PACKAGE
        );
        return Err(anyhow::anyhow!("{}: {message}", reader.shown));
    }
    Ok(Some(path).filter(|p| reader.dir.join(p).is_file()))
}

/// The executables that are neither the checker, a validator nor the interactor, named by
/// their sources' stems.
fn generators(
    reader: &Reader,
    files: Option<Node>,
    not_generators: &[&Path],
) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    let executables = files.and_then(|f| child(f, "executables"));
    for node in executables
        .into_iter()
        .flat_map(|e| children(e, "executable"))
    {
        let Some(source) = child(node, "source") else {
            continue;
        };
        let Some(path) = source.attribute("path") else {
            continue;
        };
        reader.inside(source, path)?;
        if not_generators.iter().any(|p| *p == Path::new(path)) {
            continue;
        }
        let Some(stem) = Path::new(path).file_stem() else {
            continue;
        };
        let name = stem.to_string_lossy().into_owned();
        if found.iter().any(|(n, _)| *n == name) || !reader.dir.join(path).is_file() {
            continue;
        }
        found.push((name, PathBuf::from(path)));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(files: &[(&str, &str)], xml: &str) -> anyhow::Result<Package> {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        parse(dir.path(), "problem.xml", xml)
    }

    const FILES: [(&str, &str); 6] = [
        ("tests/01", "1 2\n"),
        ("files/gen.cpp", "int main(){}"),
        ("files/val.cpp", "int main(){}"),
        ("files/check.cpp", "int main(){}"),
        ("files/testlib.h", ""),
        ("solutions/main.cpp", "int main(){}"),
    ];

    fn xml(tests: &str, groups: &str, checker: &str) -> String {
        format!(
            r#"<?xml version="1.0" encoding="utf-8"?>
<problem short-name="a-plus-b">
  <names><name language="english" value="A+B"/></names>
  <judging input-file="" output-file="">
    <testset name="tests">
      <time-limit>2000</time-limit>
      <memory-limit>268435456</memory-limit>
      <test-count>{}</test-count>
      <input-path-pattern>tests/%02d</input-path-pattern>
      <answer-path-pattern>tests/%02d.a</answer-path-pattern>
      <tests>{tests}</tests>
      {groups}
    </testset>
  </judging>
  <files>
    <resources><file path="files/testlib.h" type="h.g++"/></resources>
    <executables>
      <executable><source path="files/gen.cpp" type="cpp.g++17"/></executable>
      <executable><source path="files/val.cpp" type="cpp.g++17"/></executable>
    </executables>
  </files>
  <assets>
    {checker}
    <validators><validator><source path="files/val.cpp" type="cpp.g++17"/></validator></validators>
    <solutions>
      <solution tag="main"><source path="solutions/main.cpp" type="cpp.g++17"/></solution>
    </solutions>
  </assets>
</problem>
"#,
            tests.matches("<test ").count()
        )
    }

    const CHECKER: &str = r#"<checker name="std::ncmp.cpp" type="testlib"><source path="files/check.cpp" type="cpp.g++17"/></checker>"#;

    #[test]
    fn reads_a_testset_with_groups() {
        let tests = r#"
            <test method="manual" sample="true" group="0"/>
            <test cmd="gen --type=tree 10 &quot;a b&quot;" method="generated" group="1" points="30"/>
            <test cmd="gen 5" method="generated" group="1"/>"#;
        let groups = r#"<groups>
            <group name="0" points-policy="each-test"/>
            <group name="1" points="30" points-policy="complete-group">
              <dependencies><dependency group="0"/></dependencies>
            </group></groups>"#;
        let p = package(&FILES, &xml(tests, groups, CHECKER)).unwrap();
        assert_eq!(p.name, "a-plus-b");
        assert_eq!(p.title.as_deref(), Some("A+B"));
        assert_eq!((p.time_limit_ms, p.memory_bytes), (2000, 256 << 20));
        assert_eq!(p.tests.len(), 3);
        assert_eq!(p.tests[0].source, TestSource::Manual("tests/01".into()));
        assert!(p.tests[0].sample);
        assert_eq!(
            p.tests[1].source,
            TestSource::Generated {
                generator: "gen".into(),
                args: vec!["--type=tree".into(), "10".into(), "a b".into()]
            }
        );
        assert_eq!(
            p.generators,
            [("gen".to_string(), PathBuf::from("files/gen.cpp"))]
        );
        assert_eq!(p.validator, Some(PathBuf::from("files/val.cpp")));
        assert_eq!(p.checker, Checker::Source("files/check.cpp".into()));
        assert_eq!(p.groups[1].dependencies, ["0"]);
        assert_eq!(p.score_of(&p.groups[1]), Some(30.0));
        assert_eq!(p.score_of(&p.groups[0]), None);
        assert_eq!(
            p.main_solution().unwrap().path,
            PathBuf::from("solutions/main.cpp")
        );
        assert_eq!(p.testlib, Some(PathBuf::from("files/testlib.h")));
    }

    #[test]
    fn a_standard_checker_without_its_file_is_duipais() {
        let checker = r#"<checker name="std::rcmp6.cpp" type="testlib"><source path="files/gone.cpp"/></checker>"#;
        let p = package(&FILES, &xml(r#"<test method="manual"/>"#, "", checker)).unwrap();
        assert_eq!(p.checker, Checker::Standard(Standard::Rcmp6));
    }

    #[test]
    fn errors_name_line_and_column() {
        let message = |xml: &str| format!("{:#}", package(&FILES, xml).unwrap_err());
        let bad_cmd = xml(r#"<test cmd="gem 1" method="generated"/>"#, "", CHECKER);
        let m = message(&bad_cmd);
        assert!(m.starts_with("problem.xml:11:14: test 1: cmd runs"), "{m}");
        assert!(m.contains("\"gem\", which is not an executable"), "{m}");
        let missing = xml(
            r#"<test method="manual"/><test method="manual"/>"#,
            "",
            CHECKER,
        );
        let m = message(&missing);
        assert!(
            m.contains("test 2 is manual and the package has no file tests/02"),
            "{m}"
        );
        let count = xml(r#"<test method="manual"/>"#, "", CHECKER)
            .replace("<test-count>1</test-count>", "<test-count>2</test-count>");
        let m = message(&count);
        assert!(m.starts_with("problem.xml:8:7: <test-count> says 2"), "{m}");
        let m = message("<problem>\n  <judging></problem>");
        assert!(m.starts_with("problem.xml:2:"), "{m}");
        let tag =
            xml(r#"<test method="manual"/>"#, "", CHECKER).replace("tag=\"main\"", "tag=\"ok\"");
        let m = message(&tag);
        assert!(m.contains("unknown tag \"ok\""), "{m}");
        let dependency = xml(
            r#"<test method="manual" group="a"/>"#,
            r#"<groups><group name="a"><dependencies><dependency group="b"/></dependencies></group></groups>"#,
            CHECKER,
        );
        assert!(message(&dependency).contains("dependency on \"b\""));
        let unknown = r#"<checker name="mine.cpp"/>"#;
        let m = message(&xml(r#"<test method="manual"/>"#, "", unknown));
        assert!(m.contains("not one of testlib's standard checkers"), "{m}");
    }

    #[test]
    fn positions_match_a_count_from_the_start() {
        let text = "ab\nçd\n\n  <x/>";
        let lines = Lines::new(text);
        for offset in [0, 1, 3, 5, 6, 7, 8, 10] {
            let counted = &text[..offset];
            let line = counted.matches('\n').count() + 1;
            let column = counted[counted.rfind('\n').map_or(0, |i| i + 1)..]
                .chars()
                .count()
                + 1;
            assert_eq!(lines.position(offset), (line, column), "offset {offset}");
        }
    }

    #[test]
    fn fifty_thousand_tests_are_read_in_order_with_their_lines() {
        const COUNT: usize = 50_000;
        let mut tests = String::new();
        for i in 1..=COUNT {
            tests.push_str(&format!(
                "\n            <test cmd=\"gen {i}\" method=\"generated\"/>"
            ));
        }
        let text = xml(&tests, "", CHECKER);
        let first = text.lines().position(|l| l.contains("gen 1\"")).unwrap() + 1;
        // A guard against reading growing quadratic again (50,000 tests took 21 s that way;
        // now well under a second): generous, for a loaded machine and a debug build.
        let started = std::time::Instant::now();
        let p = package(&FILES, &text).unwrap();
        assert!(started.elapsed() < std::time::Duration::from_secs(10));
        assert_eq!(p.tests.len(), COUNT);
        for (i, test) in p.tests.iter().enumerate() {
            assert_eq!(test.index, i + 1);
            assert_eq!(test.line, first + i);
            assert_eq!(test.at, format!("problem.xml:{}:13", first + i));
            assert_eq!(
                test.source,
                TestSource::Generated {
                    generator: "gen".into(),
                    args: vec![(i + 1).to_string()]
                }
            );
        }
    }

    #[test]
    fn links_and_paths_leaving_the_package_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in FILES {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let secret = tempfile::NamedTempFile::new().unwrap();
        let linked = |path: &str| {
            let at = dir.path().join(path);
            let _ = std::fs::remove_file(&at);
            std::os::unix::fs::symlink(secret.path(), &at).unwrap();
        };
        let read = || {
            let text = xml(r#"<test method="manual"/>"#, "", CHECKER);
            parse(dir.path(), "problem.xml", &text).map(|_| ())
        };
        read().unwrap();
        linked("tests/01");
        let m = format!("{:#}", read().unwrap_err());
        assert!(
            m.contains("tests/01: a symbolic link; duipai does not follow"),
            "{m}"
        );
        std::fs::remove_file(dir.path().join("tests/01")).unwrap();
        std::fs::write(dir.path().join("tests/01"), "1 2\n").unwrap();
        linked("files/gen.cpp");
        let m = format!("{:#}", read().unwrap_err());
        assert!(m.contains("files/gen.cpp: a symbolic link"), "{m}");
        std::fs::remove_file(dir.path().join("files/gen.cpp")).unwrap();
        std::fs::write(dir.path().join("files/gen.cpp"), "int main(){}").unwrap();
        let away = xml(r#"<test method="manual"/>"#, "", CHECKER)
            .replace("files/gen.cpp", "../../etc/gen.cpp");
        let m = format!("{:#}", parse(dir.path(), "problem.xml", &away).unwrap_err());
        assert!(
            m.contains("\"../../etc/gen.cpp\" is not a path inside the package"),
            "{m}"
        );
        let tests = dir.path().join("tests");
        std::fs::rename(&tests, dir.path().join("real-tests")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("real-tests"), &tests).unwrap();
        let m = format!("{:#}", read().unwrap_err());
        assert!(m.contains("/tests: a symbolic link"), "{m}");
    }

    const STRESSES: &str = r#"  <stresses>
    <stress-count>2</stress-count>
    <stress-path-pattern>stresses/%03d</stress-path-pattern>
    <list>
      <stress index="2" path="stresses/002"/>
      <stress index="1" path="stresses/001"/>
    </list>
  </stresses>
</problem>"#;

    fn with_stresses(stress_files: &[(&str, &str)]) -> anyhow::Result<Package> {
        let tests = r#"<test method="manual"/>"#;
        let text = xml(tests, "", CHECKER).replace("</problem>", STRESSES);
        let mut files = FILES.to_vec();
        files.push(("solutions/wrong.cpp", "int main(){}"));
        files.extend_from_slice(stress_files);
        let text = text.replace(
            "</solutions>",
            r#"<solution tag="wrong-answer"><source path="solutions/wrong.cpp" type="cpp.g++17"/></solution></solutions>"#,
        );
        package(&files, &text)
    }

    const STRESS_1: &str = r#"{"id":"a1","index":1,"scriptPattern":"gen 23874 100000","inputFile":"stdin","outputFile":"stdout","memoryLimit":256,"timeLimit":15000,"totalTimeLimit":30000,"solutionNames":["wrong.cpp","main.cpp"],"description":""}"#;
    const STRESS_2: &str = r#"{"index":2,"scriptPattern":"gen","memoryLimit":64,"timeLimit":1000,"totalTimeLimit":5000,"solutionNames":["main.cpp"]}"#;

    #[test]
    fn stresses_are_read_by_index_with_their_files() {
        let package =
            with_stresses(&[("stresses/001", STRESS_1), ("stresses/002", STRESS_2)]).unwrap();
        assert_eq!(package.stresses.len(), 2);
        let first = package.stress(1).unwrap().unwrap();
        assert_eq!(package.stresses[0].0, 1, "sorted by index");
        assert_eq!(Ok(first), package.stresses[0].1.as_ref());
        assert_eq!(first.generator, "gen");
        assert_eq!(first.args, ["23874", "100000"]);
        assert_eq!(
            (first.time_limit_ms, first.memory_mib, first.total_time_ms),
            (15000, 256, 30000)
        );
        assert_eq!(
            first.solutions,
            [
                PathBuf::from("solutions/wrong.cpp"),
                PathBuf::from("solutions/main.cpp")
            ]
        );
        assert_eq!(first.file, PathBuf::from("stresses/001"));
        // `<stress index="1" ...>` is on the list's second line, after the 2nd.
        let line = xml(r#"<test method="manual"/>"#, "", CHECKER)
            .lines()
            .count()
            - 1
            + 6;
        assert_eq!(first.at, format!("problem.xml:{line}:7"));
        let second = package.stress(2).unwrap().unwrap();
        assert_eq!((second.generator.as_str(), second.args.len()), ("gen", 0));
        assert_eq!(second.memory_mib, 64);
    }

    /// Why stress 1 of a package with these stress files cannot be run; the package itself
    /// reads, and stress 2 stays usable: only `--polygon-stress 1` is stopped.
    fn stress_1_refused(stress_files: &[(&str, &str)]) -> String {
        let package = with_stresses(stress_files).expect("the package reads");
        assert!(package.stress(2).unwrap().is_ok(), "stress 2 is usable");
        package.stress(1).unwrap().unwrap_err().to_string()
    }

    #[test]
    fn a_bad_stress_file_is_named_with_its_line_and_column_and_stops_only_that_stress() {
        let bad = "{\"index\":1,\n \"scriptPattern\":\"gen 1\",\n \"timeLimit\":\"soon\"}";
        let err = stress_1_refused(&[("stresses/001", bad), ("stresses/002", STRESS_2)]);
        // serde_json places a wrong value at its last character: `"soon"` ends at column 19.
        assert!(
            err.contains("stresses/001:3:19: invalid type: string \"soon\", expected u64"),
            "{err}"
        );
        let unknown = STRESS_1.replace("wrong.cpp", "nosuch.cpp");
        let err = stress_1_refused(&[("stresses/001", &unknown), ("stresses/002", STRESS_2)]);
        assert!(
            err.contains("stresses/001: solutionNames: the package has no solution \"nosuch.cpp\""),
            "{err}"
        );
        let ranged = STRESS_1.replace("gen 23874 100000", "gen [1..10] 5");
        let err = stress_1_refused(&[("stresses/001", &ranged), ("stresses/002", STRESS_2)]);
        assert!(
            err.contains("stresses/001: scriptPattern \"gen [1..10] 5\": duipai does not expand"),
            "{err}"
        );
        let other = STRESS_1.replace("gen 23874", "rnd 23874");
        let err = stress_1_refused(&[("stresses/001", &other), ("stresses/002", STRESS_2)]);
        assert!(
            err.contains(
                "stresses/001: scriptPattern runs \"rnd\", which is not an executable of the \
                 package (its generators: gen)"
            ),
            "{err}"
        );
        let err = stress_1_refused(&[("stresses/002", STRESS_2)]);
        let line = xml(r#"<test method="manual"/>"#, "", CHECKER)
            .lines()
            .count()
            - 1
            + 6;
        assert!(
            err.starts_with(&format!(
                "problem.xml:{line}:7: stress 1: the package has no file"
            )),
            "{err}"
        );
    }

    #[test]
    fn a_stress_on_files_is_refused_at_its_input_file() {
        let streams = |input: &str, output: &str| {
            let text = STRESS_1
                .replace(r#""inputFile":"stdin""#, input)
                .replace(r#""outputFile":"stdout""#, output);
            let package =
                with_stresses(&[("stresses/001", &text), ("stresses/002", STRESS_2)]).unwrap();
            package.stress(1).unwrap().unwrap().check_streams()
        };
        assert!(streams(r#""inputFile":"stdin""#, r#""outputFile":"stdout""#).is_ok());
        // Stress 2 names neither: stdin and stdout.
        let package =
            with_stresses(&[("stresses/001", STRESS_1), ("stresses/002", STRESS_2)]).unwrap();
        assert!(package.stress(2).unwrap().unwrap().check_streams().is_ok());
        // `"inputFile"` starts at byte 56 of the one-line file: column 57.
        assert_eq!(STRESS_1.find(r#""inputFile""#), Some(56));
        let err = streams(r#""inputFile":"in.txt""#, r#""outputFile":"stdout""#)
            .unwrap_err()
            .to_string();
        assert!(
            err.ends_with(
                "stresses/001:1:57: stress 1 runs its solutions on files (inputFile \"in.txt\", \
                 outputFile \"stdout\"): duipai runs the main solution, the reference, on \
                 stdin and stdout, so it cannot run this stress; a stress of a problem read \
                 from stdin and written to stdout has \"inputFile\":\"stdin\",\
                 \"outputFile\":\"stdout\""
            ),
            "{err}"
        );
        let err = streams(r#""inputFile":"stdin""#, r#""outputFile":"out.txt""#)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("(inputFile \"stdin\", outputFile \"out.txt\")"),
            "{err}"
        );
        // On its second line, the key is placed there.
        let text = STRESS_1.replace(r#","inputFile":"in.txt""#, "");
        let text = text.replace(r#""inputFile":"stdin","#, "\n  \"inputFile\":\"a\",");
        let package =
            with_stresses(&[("stresses/001", &text), ("stresses/002", STRESS_2)]).unwrap();
        let err = package
            .stress(1)
            .unwrap()
            .unwrap()
            .check_streams()
            .unwrap_err()
            .to_string();
        assert!(err.contains("stresses/001:2:3: stress 1"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_stress_file_that_is_a_link_is_refused() {
        let outside = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(outside.path(), STRESS_1).unwrap();
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in FILES {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        std::fs::create_dir_all(dir.path().join("stresses")).unwrap();
        std::fs::write(dir.path().join("stresses/002"), STRESS_2).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("stresses/001")).unwrap();
        let text = xml(r#"<test method="manual"/>"#, "", CHECKER).replace("</problem>", STRESSES);
        let err = parse(dir.path(), "problem.xml", &text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("stresses/001: a symbolic link"), "{err}");
    }
}
