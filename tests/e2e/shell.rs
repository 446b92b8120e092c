//! `duipai completions` and `duipai man`: what they print works in the shell and in `man`.

use std::process::Command;

use crate::util::{Duipai, assert_contains, require};

/// bash loads the script `duipai completions bash` prints, registers it for `duipai`, and
/// completes `duipai str` to `stress`, and `duipai stress --wa` to the flag.
#[test]
fn bash_loads_the_completion_script_and_completes_a_subcommand() {
    require(&["bash"]);
    let dir = tempfile::tempdir().unwrap();
    let script = Duipai::new().args(["completions", "bash"]).run().success();
    let path = dir.path().join("duipai.bash");
    std::fs::write(&path, script.stdout()).unwrap();
    // The completion function clap writes, called as bash calls it on a Tab: COMP_WORDS and
    // COMP_CWORD set, the command and the word being completed as arguments.
    let complete = |words: &str| {
        let session = format!(
            "source {script}\n\
             complete -p duipai\n\
             COMP_WORDS=({words}); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))\n\
             COMP_LINE=\"${{COMP_WORDS[*]}}\"; COMP_POINT=${{#COMP_LINE}}\n\
             func=$(complete -p duipai | sed -E 's/.*-F ([^ ]+).*/\\1/')\n\
             \"$func\" duipai \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
             printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
            script = path.display(),
        );
        let out = Command::new("bash")
            .args(["--norc", "--noprofile", "-c", &session])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let subcommand = complete("duipai str");
    // `complete -p duipai` shows the registration: a function completes duipai.
    let registered = subcommand.lines().next().unwrap();
    assert!(
        registered.starts_with("complete ") && registered.ends_with(" duipai"),
        "{registered}"
    );
    assert_contains(registered, "-F _duipai");
    let replies: Vec<&str> = subcommand.lines().skip(1).collect();
    assert_eq!(replies, ["stress"], "{subcommand}");
    let flag = complete("duipai stress --wa");
    assert!(flag.lines().any(|l| l == "--watch"), "{flag}");
}

/// The manual page is roff that names every command; a command's own page lists its flags.
#[test]
fn man_pages_name_the_commands_and_their_flags() {
    let page = Duipai::new().arg("man").run().success().stdout();
    assert!(page.starts_with(".ie") || page.starts_with(".TH"), "{page}");
    assert_contains(&page, ".TH duipai 1");
    for command in ["stress", "pack", "judge", "completions"] {
        assert_contains(&page, &format!("duipai\\-{command}"));
    }
    let stress = Duipai::new()
        .args(["man", "stress"])
        .run()
        .success()
        .stdout();
    assert_contains(&stress, ".TH duipai-stress 1");
    assert_contains(&stress, "\\-\\-watch");
    let unknown = Duipai::new().args(["man", "strss"]).run().code(2);
    assert_contains(&unknown.stderr(), "no command `strss`");
}
