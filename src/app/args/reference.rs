//! The check that docs/commands.md documents every flag of every command where a reader of
//! that command looks: in the command's own section, or in a section of shared flags that the
//! command's `Takes:` line links to (the flags every command takes: the `Every command takes:`
//! line). The flags are read from the same clap definitions that parse the command line.

use clap::{Arg, Command, CommandFactory};

use super::Cli;

/// A heading of the reference and its text, up to the next heading of its level or above.
struct Section {
    anchor: String,
    title: String,
    body: String,
}

/// The sections of a Markdown text, headings inside code blocks left out (a shell comment).
fn sections(text: &str) -> Vec<Section> {
    let lines: Vec<&str> = text.lines().collect();
    let mut fenced = false;
    let mut headings = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let level = line.chars().take_while(|&c| c == '#').count();
        if !fenced && level > 0 && line[level..].starts_with(' ') {
            headings.push((at, level, line[level + 1..].trim()));
        }
    }
    headings
        .iter()
        .enumerate()
        .map(|(k, &(start, level, title))| {
            let end = headings[k + 1..]
                .iter()
                .find(|h| h.1 <= level)
                .map_or(lines.len(), |h| h.0);
            Section {
                anchor: anchor(title),
                title: title.to_string(),
                body: lines[start..end].join("\n"),
            }
        })
        .collect()
}

/// The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens.
fn anchor(title: &str) -> String {
    title
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// Whether `--flag` is written in the text as code (`` `--flag`` not followed by more of a
/// name, so `--seed` is not found in `--seed-file`).
fn names(text: &str, flag: &str) -> bool {
    let written = format!("`--{flag}");
    text.match_indices(&written).any(|(at, _)| {
        let next = text[at + written.len()..].chars().next();
        !matches!(next, Some(c) if c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// The sections the paragraph starting with `marker` in `body` links to (`[...](#anchor)`),
/// or the link that no heading has.
fn linked<'a>(body: &str, marker: &str, all: &'a [Section]) -> Result<Vec<&'a Section>, String> {
    let Some(start) = body.find(&format!("\n{marker}")) else {
        return Ok(Vec::new());
    };
    let paragraph = body[start + 1..].split("\n\n").next().unwrap_or_default();
    paragraph
        .split("](#")
        .skip(1)
        .map(|rest| {
            let target = rest.split(')').next().unwrap_or_default();
            all.iter()
                .find(|s| s.anchor == target)
                .ok_or_else(|| format!("{marker} links to #{target}, which no heading has"))
        })
        .collect()
}

/// The section that describes `command`: its heading (`` ### `duipai NAME ...` ``), or for a
/// command described in a list item (`` - `duipai init ...` ``) the innermost section holding it.
fn section_of<'a>(command: &str, all: &'a [Section]) -> Option<&'a Section> {
    let heading = format!("`duipai {command}");
    let own = all.iter().find(|s| {
        s.title
            .strip_prefix(&heading)
            .is_some_and(|rest| rest.starts_with([' ', '`']))
    });
    let item = format!("\n- {heading} ");
    own.or_else(|| all.iter().rfind(|s| s.body.contains(&item)))
}

/// What is wrong with how the reference documents `command`'s flags, a line each.
fn undocumented(command: &Command, all: &[Section], everywhere: &[&Section]) -> Vec<String> {
    let name = command.get_name();
    let Some(own) = section_of(name, all) else {
        return vec![format!("duipai {name} (no section ### `duipai {name}`)")];
    };
    let shared = match linked(&own.body, "Takes:", all) {
        Ok(shared) => shared,
        Err(e) => return vec![format!("duipai {name}: {e}")],
    };
    let visible = |a: &&Arg| !a.is_hide_set() && a.get_long().is_some();
    command
        .get_arguments()
        .filter(visible)
        .filter_map(|arg| {
            let flag = arg.get_long()?;
            let places: Vec<&Section> = if arg.is_global_set() {
                everywhere.to_vec()
            } else {
                std::iter::once(own).chain(shared.iter().copied()).collect()
            };
            let found =
                ["help", "version"].contains(&flag) || places.iter().any(|s| names(&s.body, flag));
            (!found).then(|| {
                format!(
                    "duipai {name} --{flag} (say what it does in the section of `duipai {name}`, \
                     or link the section that does from its Takes: line)"
                )
            })
        })
        .collect()
}

/// The flags of every command that the reference does not document where it should.
fn missing(reference: &str) -> Vec<String> {
    let all = sections(reference);
    let everywhere = match linked(reference, "Every command takes:", &all) {
        Ok(everywhere) => everywhere,
        Err(e) => return vec![e],
    };
    let mut cli = Cli::command();
    cli.build();
    cli.get_subcommands()
        .filter(|c| c.get_name() != "help")
        .flat_map(|c| undocumented(c, &all, &everywhere))
        .collect()
}

/// docs/commands.md documents every command, in a section of its own, and every flag of each
/// in that section or in a shared one its `Takes:` line links to: a flag `--help` shows and the
/// command's reader does not find fails here, naming the command, the flag and the section.
#[test]
fn every_flag_of_every_command_is_in_its_commands_section() {
    let reference = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands.md"),
    )
    .expect("docs/commands.md is readable");
    let missing = missing(&reference);
    assert!(
        missing.is_empty(),
        "docs/commands.md does not document these flags (written as `--flag ...`):\n{}",
        missing.join("\n")
    );
}

/// Anchors are GitHub's for the headings the reference links: a command's, with its flags.
#[test]
fn anchors_are_made_as_github_makes_them() {
    assert_eq!(
        anchor("`duipai gen <PROBLEM> --seed <N> [GEN]`"),
        "duipai-gen-problem---seed-n-gen"
    );
    assert_eq!(
        anchor("A problem folder: `duipai.toml`"),
        "a-problem-folder-duipaitoml"
    );
}

/// A `Takes:` link to a heading that is not there is named, not taken for "takes nothing".
#[test]
fn a_takes_link_to_no_heading_is_an_error() {
    let text = "### `duipai x`\n\nTakes: [limits](#limits), [gone](#gone).\n\n### Limits\n";
    let all = sections(text);
    let error = linked(&all[0].body, "Takes:", &all).err();
    assert_eq!(
        error.as_deref(),
        Some("Takes: links to #gone, which no heading has")
    );
    let heading_in_code = "```sh\n# not a heading\n```\n## Real\n";
    let titles: Vec<String> = sections(heading_in_code)
        .into_iter()
        .map(|s| s.title)
        .collect();
    assert_eq!(titles, ["Real"]);
}
