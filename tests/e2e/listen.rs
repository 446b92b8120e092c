//! `duipai listen`: Competitive Companion's documents posted over real HTTP to the real
//! binary, the folders they become, and `duipai test` in them with a right and a wrong
//! solution.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::util::{Duipai, wait_until_executable, write_sh};

/// A problem as the extension sends it (its README's format), with `extra` fields spliced in
/// after the name.
fn document(name: &str, batch: (&str, u64), extra: &str, tests: &[(&str, &str)]) -> String {
    let tests: Vec<String> = tests
        .iter()
        .map(|(input, output)| {
            format!(
                r#"{{"input":{},"output":{}}}"#,
                serde_json::Value::from(*input),
                serde_json::Value::from(*output)
            )
        })
        .collect();
    format!(
        r#"{{"name":"{name}",{extra}"group":"Codeforces - Round 999 (Div. 2)","url":"https://codeforces.com/contest/999/problem/{}","interactive":false,"memoryLimit":256,"timeLimit":2000,"tests":[{}],"testType":"single","input":{{"type":"stdin"}},"output":{{"type":"stdout"}},"languages":{{"java":{{"mainClass":"Main","taskClass":"Task"}}}},"batch":{{"id":"{}","size":{}}}}}"#,
        &name[..1],
        tests.join(","),
        batch.0,
        batch.1
    )
}

/// A port no one listens on now.
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Posts `body` to `http://localhost:PORT/` as the extension does; the status and the text of
/// the answer.
fn post(port: u16, body: &[u8]) -> (u16, String) {
    let mut stream = connect(port);
    let head = format!(
        "POST / HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\nOrigin: moz-extension://8d1f5b27-7a4c-4f5e-9c1f-2f2d7c9e4b11\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // An oversized body is read and thrown away before its refusal: the whole body goes.
    stream.write_all(body).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer:?}"));
    let text = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, text)
}

/// A connection to the receiver, once it listens (it binds before anything else; the wait is
/// for a loaded machine to start it).
fn connect(port: u16) -> TcpStream {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match TcpStream::connect(("127.0.0.1", port)) {
            Ok(stream) => return stream,
            Err(e) if Instant::now() < deadline => {
                let _ = e;
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("duipai listen never listened on {port}: {e}"),
        }
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `a b` on a line: their sum, right or off by one when a > 3.
fn solutions(dir: &Path) {
    write_sh(dir, "right.sh", "read a b; echo $((a + b))");
    write_sh(
        dir,
        "wrong.sh",
        "read a b; if [ $a -gt 3 ]; then echo $((a + b + 1)); else echo $((a + b)); fi",
    );
    wait_until_executable(&dir.join("right.sh"));
    wait_until_executable(&dir.join("wrong.sh"));
}

#[test]
fn a_problem_lands_with_its_samples_and_what_is_not_the_extensions_json_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let listen = Duipai::in_dir(dir.path())
        .args(["listen", "--port", &port.to_string(), "--once"])
        .start();
    let (status, text) = post(port, b"hello");
    assert_eq!(status, 400, "{text}");
    assert!(
        text.starts_with(
            "not Competitive Companion's problem JSON: expected value at line 1 column 1"
        ),
        "{text}"
    );
    let (status, text) = post(
        port,
        br#"{"name":"A. Sum","memoryLimit":256,"timeLimit":1000}"#,
    );
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("missing field `tests`"), "{text}");
    let oversized = vec![b' '; 5 * 1024 * 1024];
    let (status, text) = post(port, &oversized);
    assert_eq!(status, 413, "{text}");
    assert!(
        text.contains("larger than the 4096 KiB duipai listen takes"),
        "{text}"
    );
    let sum = document(
        "A. Sum",
        ("one", 1),
        "",
        &[("1 2\n", "3\n"), ("5 7\n", "12\n")],
    );
    let (status, text) = post(port, sum.as_bytes());
    assert_eq!((status, text.trim()), (200, "received A. Sum"));
    let (ran, _) = listen.finish_within(Duration::from_secs(60));
    let ran = ran.success();
    assert_eq!(
        ran.stdout(),
        "codeforces-round-999-div-2/a-sum/: 2 samples, 2 s, 256 MiB\n"
    );
    let stderr = ran.stderr();
    assert_eq!(
        stderr
            .matches("duipai: refused a request from 127.0.0.1")
            .count(),
        3,
        "{stderr}"
    );
    let folder = dir.path().join("codeforces-round-999-div-2/a-sum");
    assert_eq!(read(&folder.join("samples/2.in")), "5 7\n");
    assert_eq!(read(&folder.join("samples/2.ans")), "12\n");
    let toml = read(&folder.join("duipai.toml"));
    assert!(toml.starts_with("# A. Sum\n# Codeforces - Round 999 (Div. 2)\n# https://codeforces.com/contest/999/problem/A\n"), "{toml}");
    assert!(
        toml.ends_with("problem = \"a-sum\"\ntime-limit = \"2000ms\"\nmemory-limit = \"256MiB\"\n"),
        "{toml}"
    );

    // Samples first: `duipai test` with no folder judges them.
    solutions(&folder);
    let right = Duipai::in_dir(&folder)
        .args(["test"])
        .program(["./right.sh"])
        .run()
        .success();
    assert!(
        right
            .stdout()
            .contains("testing right.sh on 2 cases from samples/"),
        "{}",
        right.stdout()
    );
    // The folder is a problem of the user's own: its name is no misspelt game.
    assert!(
        !right.stderr().contains("is not a problem duipai knows"),
        "{}",
        right.stderr()
    );
    assert!(
        right.stdout().contains("2 cases: 2 AC"),
        "{}",
        right.stdout()
    );
    let wrong = Duipai::in_dir(&folder)
        .args(["test"])
        .program(["./wrong.sh"])
        .run()
        .code(1);
    let report = wrong.stdout();
    assert!(report.contains("AC  samples/1.in"), "{report}");
    assert!(report.contains("WA  samples/2.in"), "{report}");
    assert!(report.contains("expected 12, found 13"), "{report}");
}

/// `duipai stress` in the folder judges the samples first and stops on one that fails; a
/// program that passes them is stressed.
#[test]
fn stress_in_a_problem_folder_runs_the_samples_first() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path();
    std::fs::write(
        folder.join("duipai.toml"),
        "problem = \"a-sum\"\ngenerator = \"./gen.sh\"\nreference = \"./right.sh\"\n",
    )
    .unwrap();
    std::fs::create_dir(folder.join("samples")).unwrap();
    for (name, text) in [
        ("1.in", "1 2\n"),
        ("1.ans", "3\n"),
        ("2.in", "5 7\n"),
        ("2.ans", "12\n"),
    ] {
        std::fs::write(folder.join("samples").join(name), text).unwrap();
    }
    solutions(folder);
    write_sh(folder, "gen.sh", "echo $(($1 % 10)) 1");
    write_sh(
        folder,
        "nine.sh",
        "read a b; if [ $a -eq 9 ]; then echo 0; else echo $((a + b)); fi",
    );
    wait_until_executable(&folder.join("gen.sh"));
    wait_until_executable(&folder.join("nine.sh"));
    let wrong = Duipai::in_dir(folder)
        .args(["stress", "--no-shrink"])
        .program(["./wrong.sh"])
        .run()
        .code(1);
    let report = wrong.stdout();
    assert!(
        report.contains("judging the 2 samples in samples/ first"),
        "{report}"
    );
    assert!(report.contains("WA  samples/2.in"), "{report}");
    assert!(
        report.contains("not searching: 1 sample above fails"),
        "{report}"
    );
    assert!(!report.contains("stressing"), "{report}");
    let nine = Duipai::in_dir(folder)
        .args(["stress", "--no-shrink"])
        .program(["./nine.sh"])
        .run()
        .code(1);
    let report = nine.stdout();
    assert!(report.contains("all of them pass"), "{report}");
    assert!(
        report.contains("FAILED on seed 9 after ") && report.contains("WA expected 10, found 0"),
        "{report}"
    );
    // Words after the problem go to its generator before the seed, as `gen` takes them: here
    // `gen.sh 9 SEED` prints `9 1` for every seed.
    let words = Duipai::in_dir(folder)
        .args([
            "stress",
            "9",
            "--no-shrink",
            "--iterations",
            "3",
            "--save",
            "words",
        ])
        .program(["./nine.sh"])
        .run()
        .code(1);
    let report = words.stdout();
    assert!(report.contains("FAILED on seed 1 after"), "{report}");
    assert!(
        report.contains("duipai stress a-sum 9 --generator ./gen.sh"),
        "{report}"
    );
}

#[test]
fn a_contest_lands_at_once_with_multi_tests_file_io_and_an_interactive_problem() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let listen = Duipai::in_dir(dir.path())
        .args([
            "listen",
            "--port",
            &port.to_string(),
            "--once",
            "--dir",
            "contest",
        ])
        .start();
    let batch = ("3f1c", 3);
    let multi = document("B. Many Sums", batch, "", &[("2\n1 2\n3 4\n", "3\n7\n")])
        .replace(r#""testType":"single""#, r#""testType":"multiNumber""#);
    let files = document(
        "C. Sum In Files",
        batch,
        "",
        &[("1 2\n", "3\n"), ("9 9\n", "18\n")],
    )
    .replace(
        r#""input":{"type":"stdin"}"#,
        r#""input":{"type":"file","fileName":"input.txt"}"#,
    )
    .replace(
        r#""output":{"type":"stdout"}"#,
        r#""output":{"type":"file","fileName":"output.txt"}"#,
    );
    let interactive = document("D. Guess", batch, "", &[("5\n", "? 3\n! 5\n")])
        .replace(r#""interactive":false"#, r#""interactive":true"#);
    for body in [&multi, &files, &interactive] {
        assert_eq!(post(port, body.as_bytes()).0, 200);
    }
    let (ran, _) = listen.finish_within(Duration::from_secs(60));
    let lines = ran.success().stdout();
    assert_eq!(
        lines,
        "Codeforces - Round 999 (Div. 2): 3 problems\n\
         contest/codeforces-round-999-div-2/b-many-sums/: 1 sample, 2 s, 256 MiB, multi-test (the count first)\n\
         contest/codeforces-round-999-div-2/c-sum-in-files/: 2 samples, 2 s, 256 MiB, file I/O input.txt / output.txt\n\
         contest/codeforces-round-999-div-2/d-guess/: 1 sample, 2 s, 256 MiB, interactive: samples in statement/, set an interactor in duipai.toml\n"
    );
    let contest = dir.path().join("contest/codeforces-round-999-div-2");
    assert!(
        read(&contest.join("b-many-sums/duipai.toml"))
            .contains("# Each input starts with its number of tests.\n")
    );
    let interactive = contest.join("d-guess");
    assert!(read(&interactive.join("duipai.toml")).contains("# interactor = \"interactor.cpp\"\n"));
    assert_eq!(read(&interactive.join("statement/1.out")), "? 3\n! 5\n");
    assert!(
        !interactive.join("samples").exists(),
        "an exchange is not an answer to judge"
    );

    // The file names go into duipai.toml, and the program runs on those files.
    let folder = contest.join("c-sum-in-files");
    assert!(
        read(&folder.join("duipai.toml"))
            .ends_with("input-file = \"input.txt\"\noutput-file = \"output.txt\"\n")
    );
    write_sh(
        &folder,
        "files.sh",
        "read a b < input.txt && echo $((a + b)) > output.txt",
    );
    wait_until_executable(&folder.join("files.sh"));
    let right = Duipai::in_dir(&folder)
        .args(["test"])
        .program(["./files.sh"])
        .run()
        .success();
    assert!(
        right.stdout().contains("2 cases: 2 AC"),
        "{}",
        right.stdout()
    );
    solutions(&folder);
    let stdio = Duipai::in_dir(&folder)
        .args(["test"])
        .program(["./right.sh"])
        .run()
        .code(1);
    assert!(
        stdio.stdout().contains("no output file output.txt"),
        "{}",
        stdio.stdout()
    );
}

/// What the browser posts is data. A "regex" input's pattern and a name with line breaks
/// (and control characters) land as escaped strings in comments and values: the folder's
/// `duipai.toml` reads back with the three settings duipai wrote and nothing else (the
/// pattern's lines were once settings, `generator = "sh -c ..."`, that `stress` ran), the
/// template's `${name}` puts no code into `sol.cpp`, and `duipai test` runs there.
#[test]
fn a_posted_pattern_and_a_name_with_line_breaks_stay_data() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("template.sh");
    std::fs::write(
        &template,
        "# ${name}\n# ${url}\nread a b; echo $((a + b))\n",
    )
    .unwrap();
    let port = free_port();
    let listen = Duipai::in_dir(dir.path())
        .args(["listen", "--port", &port.to_string(), "--once"])
        .args(["--template", template.to_str().unwrap()])
        .start();
    let marker = dir.path().join("pwned");
    let injected = format!("x\ngenerator = \"sh -c 'touch {}'\"\n", marker.display());
    let name = format!("A. Sum\ntouch {}\n\u{1b}[31m\u{0}", marker.display());
    let body = document("A", ("hostile", 1), "", &[("1 2\n", "3\n")])
        .replace(
            r#""name":"A""#,
            &format!(r#""name":{}"#, serde_json::Value::from(name)),
        )
        .replace(
            r#""input":{"type":"stdin"}"#,
            &format!(
                r#""input":{{"type":"regex","pattern":{}}}"#,
                serde_json::Value::from(injected.as_str())
            ),
        );
    let (status, text) = post(port, body.as_bytes());
    assert_eq!(status, 200, "{text}");
    assert!(!text.contains('\u{1b}'), "{text:?}");
    let (ran, _) = listen.finish_within(Duration::from_secs(60));
    let out = ran.success().stdout();
    assert!(!out.contains('\u{1b}') && !out.contains('\u{0}'), "{out:?}");
    let folder = dir
        .path()
        .join("codeforces-round-999-div-2/a-sum-touch-tmp");
    let folder = std::fs::read_dir(dir.path().join("codeforces-round-999-div-2"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .unwrap_or(folder);
    let toml = read(&folder.join("duipai.toml"));
    let document: toml_edit::DocumentMut = toml.parse().unwrap_or_else(|e| panic!("{e}\n{toml}"));
    let keys: Vec<&str> = document.iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["problem", "time-limit", "memory-limit"], "{toml}");
    assert!(
        toml.contains(&format!(
            "# {}; here the program",
            serde_json::Value::from(injected.as_str())
        )),
        "the pattern, escaped as a TOML string: {toml}"
    );
    let sol = read(&folder.join("sol.sh"));
    assert_eq!(sol.lines().count(), 3, "{sol}");
    assert!(sol.starts_with("# A. Sum touch "), "{sol}");
    // What runs in the folder is what duipai wrote: the samples judged, nothing else started.
    write_sh(&folder, "right.sh", "read a b; echo $((a + b))");
    wait_until_executable(&folder.join("right.sh"));
    let tested = Duipai::in_dir(&folder)
        .args(["test"])
        .program(["./right.sh"])
        .run()
        .success();
    assert!(
        tested.stdout().contains("1 case: 1 AC"),
        "{}",
        tested.stdout()
    );
    assert!(!marker.exists(), "the posted text ran as a command");
}

/// Slow clients cannot keep the extension out: 70 connections (more than the receiver
/// handles at once) each sending one byte and then nothing, and a normal post is answered
/// 200 at once, and each slow one is cut off within its deadline, its timeout said in words.
#[test]
fn slow_clients_and_a_normal_post_answered_200() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let listen = Duipai::in_dir(dir.path())
        .args(["listen", "--port", &port.to_string(), "--once"])
        .start();
    let mut slow: Vec<TcpStream> = (0..70)
        .map(|_| {
            let mut stream = connect(port);
            stream.write_all(b"P").unwrap();
            stream
        })
        .collect();
    let body = document("A. Sum", ("one", 1), "", &[("1 2\n", "3\n")]);
    let asked = Instant::now();
    let (status, text) = post(port, body.as_bytes());
    assert_eq!((status, text.trim()), (200, "received A. Sum"));
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    let (ran, _) = listen.finish_within(Duration::from_secs(60));
    ran.success();
    // The last slow ones (the first were cut off for newer connections) got their 408 in
    // words, or were closed when listen ended.
    let last = slow.last_mut().unwrap();
    last.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut answer = String::new();
    let _ = last.read_to_string(&mut answer);
    assert!(
        answer.is_empty() || answer.contains("did not come within 10 s"),
        "{answer}"
    );
}

/// A problem that cannot be written (its group's folder is a link out of the folder problems
/// go to) is an error answer to its post and a line, and listen goes on with the next.
#[test]
fn a_problem_that_cannot_be_written_is_an_answer_not_an_exit() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        elsewhere.path(),
        dir.path().join("codeforces-round-999-div-2"),
    )
    .unwrap();
    let port = free_port();
    let listen = Duipai::in_dir(dir.path())
        .args(["listen", "--port", &port.to_string()])
        .start();
    let linked = document("A. Sum", ("one", 1), "", &[("1 2\n", "3\n")]);
    let (status, text) = post(port, linked.as_bytes());
    assert_eq!(status, 500, "{text}");
    assert!(
        text.contains("cannot write A. Sum") && text.contains("symbolic link"),
        "{text}"
    );
    let elsewhere_post = document("B. Next", ("two", 1), "", &[("1\n", "1\n")])
        .replace("Codeforces - Round 999 (Div. 2)", "AtCoder");
    let (status, text) = post(port, elsewhere_post.as_bytes());
    assert_eq!((status, text.trim()), (200, "received B. Next"));
    let mut listen = listen;
    assert!(!listen.has_exited(), "listen went on");
    listen.signal(libc::SIGINT);
    let (ran, _) = listen.finish_within(Duration::from_secs(60));
    let ran = ran.code(1);
    assert!(
        ran.stdout().contains("atcoder/b-next/: 1 sample"),
        "{}",
        ran.stdout()
    );
    assert!(
        ran.stderr()
            .contains("stopped; 1 problem received, 1 not written"),
        "{}",
        ran.stderr()
    );
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
}
