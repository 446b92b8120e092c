//! `problem.yaml` of the ICPC layout, merged key by key into what the setter has: duipai owns
//! only the judge's limits (`limits.time_limit`, `limits.memory`; legacy has no time-limit
//! key, so there it removes `limits.time_limit`) and the format version a pack asks for, and
//! supplies `name`, `uuid` and (legacy, for real answers) the default validator's settings
//! when they are missing; every other key, the order of the keys, comments and blank lines
//! stay as written.
//!
//! The merge reads the top-level keys of a block-style YAML mapping line by line (a key at
//! the start of a line, its value on the rest of the line or on the indented lines below).
//! A file it cannot read that way with certainty (a flow-style `limits: {...}`, a key given
//! twice, several documents, a value it would have to restructure) is left exactly as it
//! is, and the reason is reported.

use super::{IcpcVersion, problem_uuid};
use crate::problem::Problem;

/// What became of `problem.yaml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum YamlOutcome {
    /// There was none: duipai's own was written.
    Created,
    /// It already had duipai's values.
    Unchanged,
    /// These changes were made (`limits.time_limit 5 -> 1`, `added name`).
    Updated(Vec<String>),
    /// It was left exactly as it was, for this reason.
    LeftAlone(String),
}

/// `problem.yaml` as duipai writes it in `version`: the format version, the statement's
/// title, the problem's stable uuid, legacy's validator settings for real answers, and the
/// judge's limits (the time limit in seconds, but not in legacy; the memory in MiB).
pub fn problem_yaml(problem: &dyn Problem, version: IcpcVersion) -> String {
    yaml_text(&YamlValues::of_game(problem, version))
}

/// A new `problem.yaml` holding `values`.
pub fn yaml_text(values: &YamlValues) -> String {
    let mut text = String::new();
    for (key, value) in values.supplied() {
        text.push_str(&format!("{key}: {value}\n"));
    }
    let limits: Vec<(&str, String)> = values
        .limits()
        .into_iter()
        .filter_map(|(key, value)| Some((key, value?)))
        .collect();
    // An empty `limits:` is null, which problemtools refuses: none is written without one.
    if !limits.is_empty() {
        text.push_str("limits:\n");
        for (key, value) in limits {
            text.push_str(&format!("  {key}: {value}\n"));
        }
    }
    text
}

/// The values duipai writes into `problem.yaml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlValues {
    pub version: IcpcVersion,
    /// The statement's title.
    pub name: String,
    pub uuid: String,
    /// Top-level keys supplied when missing after `uuid` (legacy's `validation: default` and
    /// `validator_flags` for real answers, `validation: custom` for a checker, `type:
    /// interactive`).
    pub extra: Vec<(&'static str, String)>,
    /// `limits.time_limit` in seconds; `None` in legacy (which has no such key, so it is
    /// removed) or when the problem sets none.
    pub time_limit: Option<String>,
    /// `limits.time_resolution`, written beside a time limit that is not a whole number of
    /// seconds (the format wants the limit a multiple of it, 1 s by default).
    pub time_resolution: Option<String>,
    /// `limits.memory` in MiB; `None` when the problem sets none.
    pub memory: Option<String>,
    /// Replace limits the file already has (`pack --write-limits`); by default a limit the
    /// setter wrote is kept.
    pub write_limits: bool,
    /// Add the top-level keys the file lacks (`name`, `uuid`, ...); off when only a limit is
    /// set (`judge --write-time-limit`).
    pub supply_keys: bool,
}

impl YamlValues {
    /// A built-in game's values.
    pub fn of_game(problem: &dyn Problem, version: IcpcVersion) -> YamlValues {
        let (time_ms, memory_mib) = problem.default_limits();
        let legacy = version == IcpcVersion::Legacy;
        let mut extra = Vec::new();
        if let Some(flags) = crate::pack::validator_flags(problem.rule()).filter(|_| legacy) {
            extra.push(("validation", "default".to_string()));
            extra.push(("validator_flags", flags));
        }
        YamlValues {
            version,
            name: problem.package().title.to_string(),
            uuid: problem_uuid(problem),
            extra,
            time_limit: version.has_time_limit().then(|| seconds(time_ms)),
            time_resolution: None,
            memory: Some(memory_mib.to_string()),
            write_limits: false,
            supply_keys: true,
        }
    }

    /// Only a time limit of `ms` milliseconds, replacing the file's (`judge
    /// --write-time-limit`).
    pub fn time_limit_only(version: IcpcVersion, ms: u64) -> YamlValues {
        YamlValues {
            version,
            name: String::new(),
            uuid: String::new(),
            extra: Vec::new(),
            time_limit: Some(seconds(ms)),
            time_resolution: resolution_for(ms),
            memory: None,
            write_limits: true,
            supply_keys: false,
        }
    }

    /// The top-level keys supplied when missing, in the order a new file has them.
    fn supplied(&self) -> Vec<(&'static str, String)> {
        let mut keys = vec![
            ("problem_format_version", self.version.name().to_string()),
            ("name", yaml_string(&self.name)),
            ("uuid", self.uuid.clone()),
        ];
        keys.extend(self.extra.iter().cloned());
        keys
    }

    /// The keys under `limits` duipai writes; a `None` time limit is removed in legacy.
    fn limits(&self) -> Vec<(&'static str, Option<String>)> {
        let mut limits = Vec::new();
        if self.version == IcpcVersion::Legacy {
            limits.push(("time_limit", None));
        } else if let Some(time) = &self.time_limit {
            limits.push(("time_limit", Some(time.clone())));
        }
        if let Some(resolution) = &self.time_resolution {
            limits.push(("time_resolution", Some(resolution.clone())));
        }
        if let Some(memory) = &self.memory {
            limits.push(("memory", Some(memory.clone())));
        }
        limits
    }
}

/// Milliseconds as `problem.yaml` writes seconds: `1`, `1.5`.
pub fn seconds(ms: u64) -> String {
    (ms as f64 / 1000.0).to_string()
}

/// The `time_resolution` a time limit of `ms` milliseconds needs, when it is not a whole
/// number of seconds: the largest of 0.5, 0.1, 0.05, 0.01 and 0.001 s that divides it.
pub fn resolution_for(ms: u64) -> Option<String> {
    if ms.is_multiple_of(1000) {
        return None;
    }
    [500, 100, 50, 10, 1]
        .into_iter()
        .find(|step| ms.is_multiple_of(*step))
        .map(seconds)
}

/// A title as a YAML scalar: quoted when it holds what YAML would read otherwise
/// (`Gems Fight!` is plain, `Fishhead's Little Game` is plain too; `#`, `: ` and leading
/// indicators are quoted).
fn yaml_string(text: &str) -> String {
    let special = text.contains(": ")
        || text.contains(" #")
        || text.starts_with(|c: char| "!&*{}[]|>'\"%@`#,?:-".contains(c));
    if special {
        format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        text.to_string()
    }
}

/// The value of the top-level key `key` as written (quotes kept), if the file has it.
pub fn top_value(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let (k, rest) = key_of(line)?;
        (k == key).then(|| value_and_comment(&line[rest..]).0.to_string())
    })
}

/// The value at `path` in block-style mapping text (`["limits", "time_limit"]`), as written
/// without its comment; `None` when the text does not have it on one line.
pub fn nested_value(text: &str, path: &[&str]) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let (mut from, mut indent) = (0, 0);
    for (depth, key) in path.iter().enumerate() {
        let mut found = None;
        let mut child_indent = None;
        for (i, line) in lines.iter().enumerate().skip(from) {
            if is_filler(line) {
                continue;
            }
            let own = line.len() - line.trim_start_matches(' ').len();
            // The block ends where the indentation comes back.
            if depth > 0 && own <= indent {
                break;
            }
            let wanted = *child_indent.get_or_insert(own);
            if own != wanted {
                continue;
            }
            if let Some((k, rest)) = key_of(&line[own..])
                && k == *key
            {
                found = Some((i, own, own + rest));
                break;
            }
        }
        let (at, own, rest) = found?;
        if depth + 1 == path.len() {
            let value = value_and_comment(&lines[at][rest..]).0;
            return (!value.is_empty()).then(|| value.to_string());
        }
        (from, indent) = (at + 1, own);
    }
    None
}

/// The title a `name` value gives the statement: unquoted, or `None` for a value that is not
/// a plain one-line title (a map of languages, an empty value).
pub fn title_of(value: &str) -> Option<String> {
    let value = value.trim();
    let unquoted = if let Some(inner) = quoted(value, "\"") {
        inner.replace("\\\"", "\"").replace("\\\\", "\\")
    } else if let Some(inner) = quoted(value, "'") {
        inner.replace("''", "'")
    } else {
        value.to_string()
    };
    // A flow map or list, or a block scalar, is no one-line title.
    let structured = value.starts_with(|c| "{[|>".contains(c));
    (!unquoted.is_empty() && !structured).then_some(unquoted)
}

/// The text between a quote at each end of `value`.
fn quoted<'a>(value: &'a str, quote: &str) -> Option<&'a str> {
    value.strip_prefix(quote)?.strip_suffix(quote)
}

/// The new text of `problem.yaml` (`None`: leave the file as it is) and what was done.
pub fn merge(
    existing: Option<&[u8]>,
    problem: &dyn Problem,
    version: IcpcVersion,
) -> (Option<String>, YamlOutcome) {
    let merged = merge_values(existing, &YamlValues::of_game(problem, version));
    (merged.text, merged.outcome)
}

/// What a merge of `problem.yaml` gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// The new text; `None`: leave the file as it is.
    pub text: Option<String>,
    pub outcome: YamlOutcome,
    /// The limits the file has and keeps though duipai's differ (`limits.time_limit 2, not
    /// duipai's 1`).
    pub kept: Vec<String>,
}

/// Merges `values` into the file's text `existing` (or writes them whole without one).
pub fn merge_values(existing: Option<&[u8]>, values: &YamlValues) -> Merged {
    let left_alone = |why: String| Merged {
        text: None,
        outcome: YamlOutcome::LeftAlone(why),
        kept: Vec::new(),
    };
    let Some(bytes) = existing else {
        return Merged {
            text: Some(yaml_text(values)),
            outcome: YamlOutcome::Created,
            kept: Vec::new(),
        };
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return left_alone("it is not UTF-8 text".to_string());
    };
    // A byte-order mark stays first, before any key added.
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(body) => ("\u{feff}", body),
        None => ("", text),
    };
    match merge_text(body, values) {
        Ok((merged, edits)) if edits.changes.is_empty() => {
            debug_assert_eq!(merged, body);
            Merged {
                text: None,
                outcome: YamlOutcome::Unchanged,
                kept: edits.kept,
            }
        }
        Ok((merged, edits)) => Merged {
            text: Some(format!("{bom}{merged}")),
            outcome: YamlOutcome::Updated(edits.changes),
            kept: edits.kept,
        },
        Err(why) => left_alone(why),
    }
}

/// A line of the file, split into its text and its line break.
#[derive(Debug, Clone)]
struct Line<'a> {
    text: &'a str,
    end: &'a str,
}

fn split_lines(text: &str) -> Vec<Line<'_>> {
    text.split_inclusive('\n')
        .map(|raw| {
            let text = raw.trim_end_matches(['\n', '\r']);
            Line {
                text,
                end: &raw[text.len()..],
            }
        })
        .collect()
}

/// Blank, or a comment.
fn is_filler(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('#')
}

/// `key: rest` for a plain key at the start of `line`: the key and the byte offset of the
/// rest (after the colon).
fn key_of(line: &str) -> Option<(&str, usize)> {
    let end = line
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map_or(line.len(), |(i, _)| i);
    let key = &line[..end];
    let first = key.chars().next()?;
    if !(first.is_ascii_alphabetic() || first == '_') {
        return None;
    }
    let after = line[end..].trim_start_matches(' ');
    let colon = line.len() - after.len();
    let rest = after.strip_prefix(':')?;
    (rest.is_empty() || rest.starts_with([' ', '\t'])).then_some((key, colon + 1))
}

/// Splits the rest of a `key:` line into its value and what follows it (spaces and a
/// comment), respecting quotes.
fn value_and_comment(rest: &str) -> (&str, &str) {
    let lead = rest.len() - rest.trim_start().len();
    let body = &rest[lead..];
    let mut quote = None;
    let mut prev_space = true;
    for (i, c) in body.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if (c == '"' || c == '\'') && i == 0 => quote = Some(c),
            None if c == '#' && prev_space => {
                let value = body[..i].trim_end();
                return (value, &body[value.len()..]);
            }
            None => {}
        }
        prev_space = c == ' ' || c == '\t';
    }
    let value = body.trim_end();
    (value, &body[value.len()..])
}

/// A top-level entry: its key line and the lines below it, up to the next key.
struct Entry<'a> {
    key: &'a str,
    /// Index of the key line.
    at: usize,
    /// One past its last line (the next key's line, or the end).
    until: usize,
}

/// The top-level entries, or why the file cannot be merged line by line.
fn entries<'a>(lines: &[Line<'a>]) -> Result<Vec<Entry<'a>>, String> {
    let mut entries: Vec<Entry<'a>> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let text = line.text;
        if is_filler(text) || text.starts_with([' ', '\t']) {
            continue;
        }
        if text.trim_end() == "---" && entries.is_empty() {
            continue;
        }
        if text.starts_with("---") || text.starts_with("...") {
            return Err(format!("line {}: it holds several YAML documents", i + 1));
        }
        let Some((key, _)) = key_of(text) else {
            return Err(format!(
                "line {}: {} is not a plain `key: value` line",
                i + 1,
                crate::text::quote(text)
            ));
        };
        if let Some(first) = entries.iter().find(|e| e.key == key) {
            return Err(format!(
                "line {}: {key} is given twice (first on line {})",
                i + 1,
                first.at + 1
            ));
        }
        if let Some(last) = entries.last_mut() {
            last.until = i;
        }
        entries.push(Entry {
            key,
            at: i,
            until: lines.len(),
        });
    }
    Ok(entries)
}

/// The merged text and the edits made, or why the text is left alone.
fn merge_text(text: &str, owned: &YamlValues) -> Result<(String, Edits), String> {
    let lines = split_lines(text);
    let entries = entries(&lines)?;
    let eol = if lines.first().is_some_and(|l| l.end == "\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let mut edits = Edits::new(eol);
    if owned.supply_keys {
        supply_keys(&lines, &entries, owned, &mut edits);
    }
    let limits = owned.limits();
    match entries.iter().find(|e| e.key == "limits") {
        None if limits.iter().all(|(_, value)| value.is_none()) => {}
        None => {
            let mut block = format!("limits:{eol}");
            for (key, value) in &limits {
                if let Some(value) = value {
                    block.push_str(&format!("  {key}: {value}{eol}"));
                }
            }
            edits.insert(lines.len(), block);
            edits.changes.push("added limits".to_string());
        }
        Some(entry) => merge_limits(&lines, entry, &limits, owned.write_limits, &mut edits)?,
    }
    Ok((edits.apply(&lines), edits))
}

/// What a merge does to the file, gathered before any of it is done so that a file found
/// unmergeable halfway is left whole.
struct Edits {
    /// The file's line break, which the lines added end with.
    eol: &'static str,
    /// Whole lines replaced (an empty text removes the line).
    replaced: Vec<(usize, String)>,
    /// New lines to insert before a line index; the number of lines inserts at the end.
    inserted: Vec<(usize, String)>,
    /// What was done, as the report lists it.
    changes: Vec<String>,
    /// The setter's limits kept though duipai's differ.
    kept: Vec<String>,
}

impl Edits {
    fn new(eol: &'static str) -> Edits {
        Edits {
            eol,
            replaced: Vec::new(),
            inserted: Vec::new(),
            changes: Vec::new(),
            kept: Vec::new(),
        }
    }

    fn replace(&mut self, at: usize, new: String) {
        self.replaced.push((at, new));
    }

    fn insert(&mut self, at: usize, new: String) {
        self.inserted.push((at, new));
    }

    /// The file's lines with the edits made.
    fn apply(&self, lines: &[Line<'_>]) -> String {
        let size: usize = lines.iter().map(|l| l.text.len() + l.end.len()).sum();
        let mut out = String::with_capacity(size + 64);
        for (i, line) in lines.iter().enumerate() {
            for (_, new) in self.inserted.iter().filter(|(at, _)| *at == i) {
                out.push_str(new);
            }
            match self.replaced.iter().find(|(at, _)| *at == i) {
                Some((_, new)) => out.push_str(new),
                None => {
                    out.push_str(line.text);
                    out.push_str(line.end);
                }
            }
        }
        let at_end: Vec<&String> = self
            .inserted
            .iter()
            .filter(|(at, _)| *at == lines.len())
            .map(|(_, new)| new)
            .collect();
        if !at_end.is_empty() && !out.is_empty() && !out.ends_with('\n') {
            out.push_str(self.eol);
        }
        at_end.into_iter().for_each(|new| out.push_str(new));
        out
    }
}

/// Adds the top-level keys duipai supplies that the file lacks, and sets the format version.
fn supply_keys(lines: &[Line<'_>], entries: &[Entry<'_>], owned: &YamlValues, edits: &mut Edits) {
    let first_key = entries.first().map_or(lines.len(), |e| e.at);
    // New keys go after the last of duipai's keys the file has, else before its first key.
    let supplied = owned.supplied();
    let at = entries
        .iter()
        .filter(|e| supplied.iter().any(|(k, _)| *k == e.key))
        .map(|e| e.until)
        .max()
        .unwrap_or(first_key);
    for (key, value) in supplied {
        match entries.iter().find(|e| e.key == key) {
            None => {
                edits.insert(at, format!("{key}: {value}{}", edits.eol));
                edits.changes.push(format!("added {key}"));
            }
            Some(entry) if key == "problem_format_version" => {
                set_version(lines, entry, owned.version, edits);
            }
            Some(_) => {}
        }
    }
}

/// Replaces a `problem_format_version` that names another version duipai knows by the one
/// the pack is written in; a value duipai does not know is the setter's and stays.
fn set_version(lines: &[Line<'_>], entry: &Entry<'_>, version: IcpcVersion, edits: &mut Edits) {
    let line = &lines[entry.at];
    let (_, rest_at) = key_of(line.text).unwrap_or(("", line.text.len()));
    let (old, comment) = value_and_comment(&line.text[rest_at..]);
    match IcpcVersion::from_name(old) {
        Some(v) if v != version => {
            let new = version.name();
            edits.replace(
                entry.at,
                format!("problem_format_version: {new}{comment}{}", line.end),
            );
            edits
                .changes
                .push(format!("problem_format_version {old} -> {new}"));
        }
        _ => {}
    }
}

/// Sets `limits.time_limit` and `limits.memory` inside the block mapping under `limits:`,
/// and removes a key whose value is `None`.
fn merge_limits(
    lines: &[Line<'_>],
    entry: &Entry<'_>,
    limits: &[(&str, Option<String>)],
    replace: bool,
    edits: &mut Edits,
) -> Result<(), String> {
    let block = LimitsBlock::read(lines, entry)?;
    for (key, value) in limits {
        block.set(lines, key, value.as_deref(), replace, edits)?;
    }
    Ok(())
}

/// The block mapping under `limits:`, as far as duipai edits it.
struct LimitsBlock<'a> {
    /// The line of `limits:`.
    at: usize,
    /// One past the block's last line.
    until: usize,
    /// The block's lines other than blanks and comments.
    children: Vec<usize>,
    /// The spaces before the block's keys.
    indent: usize,
    /// The block's keys and their lines.
    keys: Vec<(&'a str, usize)>,
}

impl<'a> LimitsBlock<'a> {
    /// The block under `entry`, or why duipai cannot edit it line by line.
    fn read(lines: &[Line<'a>], entry: &Entry<'_>) -> Result<LimitsBlock<'a>, String> {
        let head = lines[entry.at].text;
        let (_, rest_at) = key_of(head).unwrap_or(("", head.len()));
        let (inline, _) = value_and_comment(&head[rest_at..]);
        if !inline.is_empty() {
            return Err(format!(
                "line {}: limits is written on one line ({}); duipai sets only a block of \
                 `key: value` lines",
                entry.at + 1,
                crate::text::quote(inline)
            ));
        }
        let children: Vec<usize> = (entry.at + 1..entry.until)
            .filter(|&i| !is_filler(lines[i].text))
            .collect();
        let indent = children.first().map_or(2, |&i| {
            lines[i].text.len() - lines[i].text.trim_start_matches(' ').len()
        });
        if indent == 0 {
            return Err(format!(
                "line {}: the lines under limits are not indented with spaces",
                entry.at + 2
            ));
        }
        let keys = block_keys(lines, &children, indent)?;
        Ok(LimitsBlock {
            at: entry.at,
            until: entry.until,
            children,
            indent,
            keys,
        })
    }

    /// Sets `key` to `value` (`None`: removes it), adding it after the block's last line when
    /// the block lacks it; a value the setter wrote is kept unless `replace`. A value duipai
    /// would have to restructure is refused.
    fn set(
        &self,
        lines: &[Line<'_>],
        key: &str,
        value: Option<&str>,
        replace: bool,
        edits: &mut Edits,
    ) -> Result<(), String> {
        let Some(&(_, at)) = self.keys.iter().find(|(k, _)| *k == key) else {
            if let Some(value) = value {
                let last_child = self.children.last().copied().unwrap_or(self.at);
                let pad = " ".repeat(self.indent);
                edits.insert(last_child + 1, format!("{pad}{key}: {value}{}", edits.eol));
                edits.changes.push(format!("added limits.{key}"));
            }
            return Ok(());
        };
        let next = next_key_after(&self.keys, at, self.until);
        if self.children.iter().any(|&c| c > at && c < next) {
            return Err(format!(
                "line {}: limits.{key} has lines below it; duipai sets only a one-line value",
                at + 1
            ));
        }
        let text = lines[at].text;
        let rest_at = self.indent + key_of(&text[self.indent..]).map_or(0, |(_, r)| r);
        let (old, comment) = value_and_comment(&text[rest_at..]);
        let Some(value) = value else {
            edits.replace(at, String::new());
            edits.changes.push(format!(
                "removed limits.{key} (format version legacy has no such key)"
            ));
            return Ok(());
        };
        if same_number(old, value) {
            return Ok(());
        }
        if !replace {
            edits.kept.push(format!(
                "limits.{key} {}, not duipai's {value}",
                display_value(old)
            ));
            return Ok(());
        }
        let value_at = rest_at + (text[rest_at..].len() - text[rest_at..].trim_start().len());
        let mut prefix = text[..value_at].to_string();
        if !prefix.ends_with([' ', '\t']) {
            prefix.push(' ');
        }
        edits.replace(at, format!("{prefix}{value}{comment}{}", lines[at].end));
        edits
            .changes
            .push(format!("limits.{key} {} -> {value}", display_value(old)));
        Ok(())
    }
}

/// The keys at the block's indentation and their lines; a line indented less than the
/// first, or one at its indentation that is not a plain key, cannot be edited line by line.
fn block_keys<'a>(
    lines: &[Line<'a>],
    children: &[usize],
    indent: usize,
) -> Result<Vec<(&'a str, usize)>, String> {
    let mut keys = Vec::new();
    for &i in children {
        let text = lines[i].text;
        let own = text.len() - text.trim_start_matches(' ').len();
        if own < indent {
            return Err(format!(
                "line {}: its indentation does not match limits' other keys",
                i + 1
            ));
        }
        if own > indent {
            continue;
        }
        match key_of(&text[indent..]) {
            Some((key, _)) => keys.push((key, i)),
            None => {
                return Err(format!(
                    "line {}: {} under limits is not a plain `key: value` line",
                    i + 1,
                    crate::text::quote(text.trim())
                ));
            }
        }
    }
    Ok(keys)
}

/// The line of the key that follows the one on line `at` under `limits`, or the block's end.
fn next_key_after(found: &[(&str, usize)], at: usize, until: usize) -> usize {
    found
        .iter()
        .map(|&(_, i)| i)
        .filter(|&i| i > at)
        .min()
        .unwrap_or(until)
}

/// Whether a value as written is the number duipai writes (`1.0` and `1` are the same).
fn same_number(written: &str, ours: &str) -> bool {
    match (written.parse::<f64>(), ours.parse::<f64>()) {
        (Ok(a), Ok(b)) => a == b,
        _ => written == ours,
    }
}

fn display_value(value: &str) -> &str {
    if value.is_empty() { "(empty)" } else { value }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::{CHESS, CHESSBOARD};

    const V2025: IcpcVersion = IcpcVersion::V2025_09;
    const CHESS_UUID: &str = "uuid: eaa44efd-e011-50bd-8d93-d4d897f9803e\n";

    /// Merged in the version the text names (2025-09 if none), as `pack` does without
    /// `--icpc-version`.
    fn merged(text: &str) -> (Option<String>, YamlOutcome) {
        let version = top_value(text, "problem_format_version")
            .and_then(|v| IcpcVersion::from_name(&v))
            .unwrap_or(V2025);
        merge(Some(text.as_bytes()), &CHESS, version)
    }

    #[test]
    fn a_missing_file_is_written_whole() {
        let (text, outcome) = merge(None, &CHESSBOARD, V2025);
        assert_eq!(outcome, YamlOutcome::Created);
        assert_eq!(
            text.unwrap(),
            "problem_format_version: 2025-09\nname: Game on Chessboard\n\
             uuid: f71829ed-7b0b-5c1d-ba26-1b12aae839e8\nlimits:\n  time_limit: 2\n  \
             memory: 1024\n"
        );
        // Legacy: no time limit; real answers get the default validator's settings.
        let (text, _) = merge(None, &crate::problem::SHOOTING, IcpcVersion::Legacy);
        assert_eq!(
            text.unwrap(),
            "problem_format_version: legacy\nname: Shooting Game\n\
             uuid: c1b0997f-c0ce-5b9c-af4b-e3c30dc4c945\nvalidation: default\n\
             validator_flags: float_tolerance 1e-6\nlimits:\n  memory: 128\n"
        );
    }

    #[test]
    fn duipais_own_file_is_unchanged() {
        let own = problem_yaml(&CHESS, V2025);
        assert_eq!(merged(&own), (None, YamlOutcome::Unchanged));
    }

    #[test]
    fn the_setters_keys_comments_and_order_stay() {
        let text = "# Problem A of the contest\n\
                    problem_format_version: 2023-07-draft\n\
                    name: 一双木棋  # the statement's title\n\
                    uuid: 4c3b6e2a-59d1-4f0e-9a43-0a3c1f2b7d11\n\
                    license: cc by-sa\n\
                    rights_owner: NOI committee\n\
                    \n\
                    limits:\n    \
                        time_limit: 5.0   # tuned by hand\n    \
                        output: 8\n    \
                        memory: 256\n\
                    keywords:\n  \
                      - game\n";
        // The setter's limits stay unless a limit is asked for.
        let kept = merge_values(
            Some(text.as_bytes()),
            &YamlValues::of_game(&CHESS, IcpcVersion::Draft2023_07),
        );
        assert_eq!((kept.text, kept.outcome), (None, YamlOutcome::Unchanged));
        assert_eq!(
            kept.kept,
            [
                "limits.time_limit 5.0, not duipai's 1",
                "limits.memory 256, not duipai's 512"
            ]
        );
        let values = YamlValues {
            write_limits: true,
            ..YamlValues::of_game(&CHESS, IcpcVersion::Draft2023_07)
        };
        let written = merge_values(Some(text.as_bytes()), &values);
        let expected = text
            .replace("time_limit: 5.0   #", "time_limit: 1   #")
            .replace("memory: 256", "memory: 512");
        assert_eq!(written.text.unwrap(), expected);
        assert_eq!(
            written.outcome,
            YamlOutcome::Updated(vec![
                "limits.time_limit 5.0 -> 1".to_string(),
                "limits.memory 256 -> 512".to_string()
            ])
        );
    }

    #[test]
    fn nested_values_are_found_in_their_block() {
        let text = "name: x\nlimits:\n  memory: 512  # MiB\n  time_multipliers:\n    \
                    ac_to_time_limit: 3\n  time_limit: 2\nother:\n  time_limit: 9\n";
        assert_eq!(
            nested_value(text, &["limits", "time_limit"]).as_deref(),
            Some("2")
        );
        assert_eq!(
            nested_value(text, &["limits", "memory"]).as_deref(),
            Some("512")
        );
        assert_eq!(
            nested_value(text, &["limits", "time_multipliers", "ac_to_time_limit"]).as_deref(),
            Some("3")
        );
        assert_eq!(nested_value(text, &["limits", "output"]), None);
        assert_eq!(nested_value(text, &["name"]).as_deref(), Some("x"));
    }

    #[test]
    fn a_time_limit_off_whole_seconds_gets_its_resolution() {
        assert_eq!(resolution_for(2000), None);
        assert_eq!(resolution_for(1500).as_deref(), Some("0.5"));
        assert_eq!(resolution_for(1250).as_deref(), Some("0.05"));
        assert_eq!(seconds(1500), "1.5");
    }

    #[test]
    fn missing_keys_are_added_where_they_belong() {
        let (new, outcome) = merged("# header\nlicense: cc0\nlimits:\n  output: 8\n");
        assert_eq!(
            new.unwrap(),
            format!(
                "# header\nproblem_format_version: 2025-09\nname: Chess\n{CHESS_UUID}\
                 license: cc0\nlimits:\n  output: 8\n  time_limit: 1\n  memory: 512\n"
            )
        );
        let YamlOutcome::Updated(changes) = outcome else {
            panic!("{outcome:?}")
        };
        assert_eq!(
            changes,
            [
                "added problem_format_version",
                "added name",
                "added uuid",
                "added limits.time_limit",
                "added limits.memory"
            ]
        );
        // No limits at all, and no final line break.
        let (new, _) = merged("problem_format_version: 2025-09\nname: Chess\nuuid: x");
        assert_eq!(
            new.unwrap(),
            "problem_format_version: 2025-09\nname: Chess\nuuid: x\nlimits:\n  time_limit: 1\n  \
             memory: 512\n"
        );
        // An empty limits block, followed by another key, and CRLF line ends.
        let (new, _) =
            merged("name: c\r\nproblem_format_version: 2025-09\r\nlimits:\r\nuuid: u\r\n");
        assert_eq!(
            new.unwrap(),
            "name: c\r\nproblem_format_version: 2025-09\r\nlimits:\r\n  time_limit: 1\r\n  memory: \
             512\r\nuuid: u\r\n"
        );
    }

    #[test]
    fn quoted_values_and_comments_are_told_apart() {
        let text = "name: \"a # b\"\nproblem_format_version: '2023-07-draft'\nlimits:\n  \
                    time_limit: '3'  # quoted\n  memory: 512 #x\n";
        let (new, _) = merged(text);
        assert_eq!(
            new.unwrap(),
            text.replace("'\nlimits", &format!("'\n{CHESS_UUID}limits"))
        );
        assert_eq!(title_of("\"a # b\"").as_deref(), Some("a # b"));
        assert_eq!(value_and_comment(" \"a # b\"  # c"), ("\"a # b\"", "  # c"));
        assert_eq!(value_and_comment(" a#b"), ("a#b", ""));
        assert_eq!(value_and_comment(""), ("", ""));
    }

    #[test]
    fn what_cannot_be_merged_line_by_line_is_left_alone() {
        for (text, says) in [
            (
                "name: c\nlimits: {time_limit: 2, memory: 64}\n",
                "written on one line",
            ),
            ("name: c\nname: d\n", "given twice"),
            ("name: c\n---\nname: d\n", "several YAML documents"),
            ("\"name\": c\n", "not a plain"),
            ("limits:\n  time_limit:\n    - 1\n", "lines below it"),
            ("limits:\n    memory: 1\n  time_limit: 2\n", "indentation"),
            ("limits:\n  - 1\n", "not a plain"),
        ] {
            let (new, outcome) = merged(text);
            assert_eq!(new, None, "{text:?}");
            let YamlOutcome::LeftAlone(why) = outcome else {
                panic!("{text:?}: {outcome:?}")
            };
            assert!(why.contains(says), "{text:?}: {why}");
        }
        let (new, outcome) = merge(Some(b"name: \xff\n"), &CHESS, V2025);
        assert_eq!(new, None);
        assert!(matches!(outcome, YamlOutcome::LeftAlone(_)));
    }

    #[test]
    fn a_document_start_and_nested_setter_values_are_kept() {
        let text = "---\nname: c\nproblem_format_version: draft\ncredits:\n  authors:\n    - A\n\
                    limits:\n  time_limit: 1\n  time_multipliers:\n    ac_to_time_limit: 2\n  \
                    memory: 512\n";
        let with_uuid = text.replace("draft\n", &format!("draft\n{CHESS_UUID}"));
        assert_eq!(
            merged(text),
            (
                Some(with_uuid.clone()),
                YamlOutcome::Updated(vec!["added uuid".to_string()])
            )
        );
        // A format version duipai does not know is the setter's.
        assert_eq!(merged(&with_uuid), (None, YamlOutcome::Unchanged));
    }

    #[test]
    fn another_version_asked_for_replaces_the_version_and_legacy_drops_the_time_limit() {
        let own = problem_yaml(&CHESS, V2025);
        let (new, outcome) = merge(Some(own.as_bytes()), &CHESS, IcpcVersion::Legacy);
        assert_eq!(
            new.unwrap(),
            own.replace("2025-09", "legacy")
                .replace("  time_limit: 1\n", "")
        );
        assert_eq!(
            outcome,
            YamlOutcome::Updated(vec![
                "problem_format_version 2025-09 -> legacy".to_string(),
                "removed limits.time_limit (format version legacy has no such key)".to_string()
            ])
        );
        assert_eq!(top_value(&own, "uuid").as_deref(), Some(&CHESS_UUID[6..42]));
        assert_eq!(title_of("'It''s'").as_deref(), Some("It's"));
        assert_eq!(title_of("\"a \\\"b\\\"\"").as_deref(), Some("a \"b\""));
        assert_eq!(title_of("{en: A}"), None);
    }
}
