//! The answer readers and the comparison, case by case.

use super::*;

/// testlib's own integer reader decides: these are its accepted forms.
#[test]
fn reads_integers_as_testlib_does() {
    let table: &[(&[u8], i64)] = &[
        (b"2\n", 2),
        (b"0", 0),
        (b"  -17 \r\n\n", -17),
        (b"\t7\t", 7),
        (b"\xEF\xBB\xBF10\n", 10),
        (b"-9223372036854775808", i64::MIN),
        (b"9223372036854775807\n", i64::MAX),
        (b"1000000000000", 1_000_000_000_000),
    ];
    for &(output, want) in table {
        assert_eq!(
            parse_answer(output),
            Ok(want),
            "{:?}",
            String::from_utf8_lossy(output)
        );
    }
}

/// Everything else, each with the message that says why.
#[test]
fn rejects_with_a_reason() {
    let table: &[(&[u8], &str)] = &[
        (b"", "empty output"),
        (b" \n\t", "empty output"),
        (
            b"0011",
            r#"expected an integer, found "0011": leading zeros are not allowed"#,
        ),
        (
            b"00",
            r#"expected an integer, found "00": leading zeros are not allowed"#,
        ),
        (
            b"-07",
            r#"expected an integer, found "-07": leading zeros are not allowed"#,
        ),
        (
            b"+12",
            r#"expected an integer, found "+12": a leading '+' is not allowed"#,
        ),
        (
            b"+",
            r#"expected an integer, found "+": a leading '+' is not allowed"#,
        ),
        (
            b"-0",
            r#"expected an integer, found "-0": minus zero is not allowed, write 0"#,
        ),
        (
            b"-",
            r#"expected an integer, found "-": a minus sign needs digits after it"#,
        ),
        (
            b"--5",
            r#"expected an integer, found "--5": '-' is not a digit"#,
        ),
        (
            b"two",
            r#"expected an integer, found "two": 't' is not a digit"#,
        ),
        (
            b"3.0",
            r#"expected an integer, found "3.0": '.' is not a digit"#,
        ),
        (
            b"1e3",
            r#"expected an integer, found "1e3": 'e' is not a digit"#,
        ),
        (
            b"12'",
            r#"expected an integer, found "12'": '\'' is not a digit"#,
        ),
        (
            b"2\"",
            r#"expected an integer, found "2\"": '"' is not a digit"#,
        ),
        (
            "\u{FF12}".as_bytes(),
            "expected an integer, found \"\u{FF12}\": '\u{FF12}' is not a digit",
        ),
        (
            b"\x0c10",
            r#"expected an integer, found "\x0C10": \x0C is not a digit"#,
        ),
        (
            b"1\n\xEF\xBB\xBF2\n",
            r#"expected one integer, found "\xEF\xBB\xBF2" after 1: nothing may follow the answer"#,
        ),
        (
            b"\xEF\xBB\xBF\xEF\xBB\xBF2\n",
            r#"expected an integer, found "\xEF\xBB\xBF2": it starts with a UTF-8 byte-order mark, which the program must not print"#,
        ),
        (
            b"\xff2",
            r#"expected an integer, found "\xFF2": byte \xFF is not a digit"#,
        ),
        (
            b"2\x00",
            r#"expected an integer, found "2\x00": \x00 is not a digit"#,
        ),
        (
            "2\u{200B}".as_bytes(),
            r#"expected an integer, found "2\xE2\x80\x8B": \xE2\x80\x8B is not a digit"#,
        ),
        (
            b"a\\b",
            r#"expected an integer, found "a\\b": 'a' is not a digit"#,
        ),
        (
            b"9223372036854775808",
            r#"expected an integer, found "9223372036854775808": it does not fit in 64 bits"#,
        ),
        (
            b"-9223372036854775809",
            r#"expected an integer, found "-9223372036854775809": it does not fit in 64 bits"#,
        ),
        (
            b"2 3\n",
            r#"expected one integer, found "3" after 2: nothing may follow the answer"#,
        ),
        (
            b"2\n3\n4 5",
            r#"expected one integer, found "3" and 2 more tokens after 2: nothing may follow the answer"#,
        ),
        (
            b"2 \xff",
            r#"expected one integer, found "\xFF" after 2: nothing may follow the answer"#,
        ),
        // The first token decides, as in testlib: its fault is named before any extra.
        (
            b"x 2",
            r#"expected an integer, found "x": 'x' is not a digit (2 tokens in all)"#,
        ),
        (
            b"the answer is 42\n",
            r#"expected an integer, found "the": 't' is not a digit (4 tokens in all)"#,
        ),
    ];
    for &(output, want) in table {
        assert_eq!(
            parse_answer(output),
            Err(want.to_string()),
            "{:?}",
            String::from_utf8_lossy(output)
        );
    }
}

#[test]
fn long_tokens_are_cut() {
    let err = parse_answer(&[b'x'; 100]).unwrap_err();
    assert_eq!(
        err,
        format!(
            "expected an integer, found \"{}…\": 'x' is not a digit",
            "x".repeat(24)
        )
    );
    let err = parse_answer(&[0xff; 100]).unwrap_err();
    assert!(
        err.starts_with(&format!(
            "expected an integer, found \"{}…\"",
            r"\xFF".repeat(24)
        )),
        "{err}"
    );
}

/// No message ever carries a Rust debug escape (`\u{feff}`, `\0`, `\'`-style output of
/// `{:?}`), whatever the bytes.
#[test]
fn messages_have_no_debug_escapes() {
    let samples: &[&[u8]] = &[
        b"\xEF\xBB\xBF\xEF\xBB\xBF1",
        "\u{FEFF}".as_bytes(),
        b"\x00\x01\x7f",
        "\u{202E}12".as_bytes(),
        b"\t\"q\"",
        b"1 \xc3",
    ];
    for sample in samples {
        let err = parse_answer(sample).unwrap_err();
        assert!(!err.contains("\\u{"), "{err}");
        assert!(!err.contains("\\0"), "{err}");
        assert!(!err.contains('\u{FEFF}'), "{err}");
        assert!(!err.contains('\u{202E}'), "{err}");
    }
}

fn integers(values: &[i64]) -> Expected {
    let lines: Vec<String> = values.iter().map(i64::to_string).collect();
    Expected::from_lines(&lines, Rule::Integers, true)
}

#[test]
fn the_single_integer_keeps_its_messages() {
    let e = Expected::integer(2);
    assert_eq!(check(&e, b"2\n"), Check::Accepted(String::new()));
    assert_eq!(
        check(&e, b"3"),
        Check::Wrong("expected 2, found 3".to_string())
    );
    assert_eq!(
        check(&e, b"2 2"),
        Check::Format(
            r#"expected one integer, found "2" after 2: nothing may follow the answer"#.to_string()
        )
    );
    assert_eq!(check_cases(&e, b"3").1, Some(0));
    assert_eq!(check_cases(&e, b"2").1, None);
}

#[test]
fn a_mismatch_names_its_case() {
    let e = integers(&[3, -3, 5]);
    assert_eq!(check(&e, b"3\n-3\n5\n"), Check::Accepted("3 cases".into()));
    assert_eq!(check(&e, b"3 -3 5"), Check::Accepted("3 cases".into()));
    assert_eq!(
        check_cases(&e, b"3\n-2\n5\n"),
        (
            Check::Wrong("case 2 of 3: expected -3, found -2".into()),
            Some(1)
        )
    );
    assert_eq!(
        check_cases(&e, b"3\n-3\n"),
        (
            Check::Format("case 3 of 3: expected 5, found end of output".into()),
            Some(2)
        )
    );
    assert_eq!(
        check(&e, b"3\n-3\n05\n"),
        Check::Format(
            r#"case 3 of 3: expected an integer, found "05": leading zeros are not allowed"#.into()
        )
    );
    assert_eq!(
        check_cases(&e, b"3 -3 5 7 8"),
        (
            Check::Format(
                r#"found "7" and 1 more token after the last of 3 answers: nothing may follow it"#
                    .into()
            ),
            None
        )
    );
}

#[test]
fn words_are_compared_per_case_line() {
    let lines = [
        "Case #1: Tom200".to_string(),
        "Case #2: Jerry404".to_string(),
    ];
    let e = Expected::from_lines(&lines, Rule::EXACT, true);
    assert!(check(&e, b"Case #1: Tom200\nCase #2: Jerry404\n").is_accepted());
    assert_eq!(
        check(&e, b"Case #1: Tom200\nCase #2: Tom200\n"),
        Check::Wrong(
            r#"case 2 of 2: expected "Case #2: Jerry404", found "Case #2: Tom200""#.into()
        )
    );
    assert_eq!(
        check(&e, b"Case #1: Tom200\n"),
        Check::Wrong(r#"case 2 of 2: expected "Case #2: Jerry404", found end of output"#.into())
    );
    assert_eq!(
        check(&e, b"Case #1: Tom200\nCase #2: Jerry404\nbye\n"),
        Check::Wrong(r#"found "bye" after the last of 2 answers: nothing may follow it"#.into())
    );
}

/// Nothing at all is a presentation error whatever the answers' rule, as for the integer
/// games: word answers (fishhead's) included, while words cut short stay wrong words.
#[test]
fn an_empty_output_is_a_presentation_error_under_every_rule() {
    let words = Expected::from_lines(&["Case #1: Tom200".to_string()], Rule::EXACT, true);
    let rules = [
        Expected::from_lines(&["3".to_string(), "-3".to_string()], Rule::Integers, true),
        Expected::from_lines(&["0.5".to_string()], Rule::Reals { tolerance: 1e-6 }, true),
        words.clone(),
        Expected::tokens(b"YES 7\n", Rule::EXACT),
        Expected::tokens(
            b"1.5\n",
            Rule::Tokens {
                tolerance: Some(1e-6),
                ignore_case: true,
            },
        ),
        Expected::integer(2),
    ];
    for expected in &rules {
        for output in [&b""[..], b"\n", b" \r\n\t\n"] {
            let check = check(expected, output);
            assert!(
                matches!(check, Check::Format(_)),
                "{expected:?} on {output:?}: {check:?}"
            );
        }
    }
    assert_eq!(
        check(&words, b""),
        Check::Format(r#"case 1 of 1: expected "Case #1: Tom200", found end of output"#.into())
    );
    assert_eq!(
        check(&words, b"Case #1:"),
        Check::Wrong(r#"case 1 of 1: expected "Case #1: Tom200", found end of output"#.into())
    );
}

#[test]
fn reals_are_compared_within_the_tolerance() {
    let lines = ["0.555556".to_string(), "1.000000".to_string()];
    let e = Expected::from_lines(&lines, Rule::Reals { tolerance: 1e-6 }, true);
    // Single precision, off by one in the last printed digit: accepted.
    assert!(check(&e, b"0.555555\n0.999999\n").is_accepted());
    assert!(check(&e, b"5.55556e-1 1").is_accepted());
    // Two decimals: wrong.
    assert_eq!(
        check(&e, b"0.56\n1.00\n"),
        Check::Wrong(
            "case 1 of 2: expected 0.555556, found 0.56 (absolute error 4.44e-3, relative \
             error 8.00e-3, both above the tolerance 1e-6)"
                .into()
        )
    );
    let zero = Expected::from_lines(
        &["0.000000".to_string()],
        Rule::Reals { tolerance: 1e-6 },
        true,
    );
    assert_eq!(
        check(&zero, b"0.00001\n"),
        Check::Wrong(
            "case 1 of 1: expected 0.000000, found 0.00001 (absolute error 1.00e-5, above the \
             tolerance 1e-6; the answer is 0, so no relative error can accept it)"
                .into()
        )
    );
    assert_eq!(
        check(&e, b"0.555556\nnan\n"),
        Check::Format(
            r#"case 2 of 2: expected a real number, found "nan": 'n' does not belong in a number"#
                .into()
        )
    );
}

#[test]
fn tokens_with_a_tolerance_accept_close_reals_and_exact_integers() {
    let rule = Rule::Tokens {
        tolerance: Some(1e-6),
        ignore_case: false,
    };
    let e = Expected::tokens(b"60.000000000 7\n", rule);
    assert!(check(&e, b"60.000000 7").is_accepted());
    assert!(check(&e, b"60 7").is_accepted());
    assert_eq!(
        check(&e, b"60.1 7"),
        Check::Wrong(
            r#"token 1: expected "60.000000000", found "60.1" (absolute error 1.00e-1, relative error 1.67e-3, both above the tolerance 1e-6)"#
                .into()
        )
    );
    assert_eq!(
        check(&e, b"60 7.0"),
        Check::Wrong(r#"token 2: expected "7", found "7.0""#.into())
    );
    assert_eq!(
        check(&e, b"60"),
        Check::Wrong(r#"token 2: expected "7", found end of output"#.into())
    );
    let yes = Expected::tokens(
        b"YES\n",
        Rule::Tokens {
            tolerance: None,
            ignore_case: true,
        },
    );
    assert!(check(&yes, b"yes").is_accepted());
    assert!(!check(&Expected::tokens(b"YES", Rule::EXACT), b"yes").is_accepted());
}

/// Without a tolerance or `--ignore-case`, a token written differently says what accepts it.
#[test]
fn near_misses_say_what_would_accept_them() {
    let exact = Expected::tokens(b"60.000000000 YES 7\n", Rule::EXACT);
    assert_eq!(
        check(&exact, b"60.000000 YES 7"),
        Check::Wrong(
            r#"token 1: expected "60.000000000", found "60.000000" (equal as real numbers: --tolerance 1e-6 compares reals within 1e-6)"#
                .into()
        )
    );
    assert_eq!(
        check(&exact, b"60.0000001 YES 7"),
        Check::Wrong(
            r#"token 1: expected "60.000000000", found "60.0000001" (equal as real numbers: --tolerance 1e-6 compares reals within 1e-6)"#
                .into()
        )
    );
    assert_eq!(
        check(&exact, b"60.01 YES 7"),
        Check::Wrong(r#"token 1: expected "60.000000000", found "60.01""#.into())
    );
    assert_eq!(
        check(&exact, b"60.000000000 yes 7"),
        Check::Wrong(
            r#"token 2: expected "YES", found "yes" (they differ only in letter case: --ignore-case accepts that)"#
                .into()
        )
    );
    // An expected integer is compared exactly, with --tolerance too: no hint.
    assert_eq!(
        check(&exact, b"60.000000000 YES 7.0"),
        Check::Wrong(r#"token 3: expected "7", found "7.0""#.into())
    );
    let real = Expected::tokens(
        b"0.5\n",
        Rule::Tokens {
            tolerance: Some(1e-9),
            ignore_case: false,
        },
    );
    assert_eq!(
        check(&real, b"0.5000001"),
        Check::Wrong(
            r#"token 1: expected "0.5", found "0.5000001" (absolute error 1.00e-7, relative error 2.00e-7, both above the tolerance 1e-9)"#
                .into()
        )
    );
}

#[test]
fn answer_files_are_read_by_line_or_by_token() {
    let e = Expected::read(b"3\n-3\n", Rule::Integers, 2, true).unwrap();
    assert_eq!(e.case_count(), 2);
    assert_eq!(e.case_text(1), "-3");
    let e = Expected::read(b"3 -3", Rule::Integers, 2, true).unwrap();
    assert_eq!(e.case_text(0), "3");
    assert_eq!(
        Expected::read(b"3\n", Rule::Integers, 2, true).unwrap_err(),
        "expected 2 answers (one line each), found 1 non-empty line"
    );
    assert_eq!(
        Expected::read(b"3\n07\n", Rule::Integers, 2, true).unwrap_err(),
        r#"answer 2: "07": leading zeros are not allowed"#
    );
    let words = Expected::read(b"Case #1: Tom200\n", Rule::EXACT, 1, true).unwrap();
    assert_eq!(words.case_text(0), "Case #1: Tom200");
    assert_eq!(
        Expected::read(b"0012", Rule::Integers, 1, false).unwrap_err(),
        r#"expected an integer, found "0012": leading zeros are not allowed"#
    );
}

#[test]
fn icpc_blanks_separate_at_vertical_tabs() {
    let e = Expected::integer(5).with_syntax(Syntax::Icpc);
    assert!(check(&e, b"5\x0B").is_accepted());
    assert!(!check(&Expected::integer(5), b"5\x0B").is_accepted());
}
