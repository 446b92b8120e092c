//! Real numbers as testlib reads and compares them: `readDouble`'s token rules and
//! `doubleCompare`'s absolute-or-relative error test with its tiny slack.

/// One token read as a real number the way testlib's `stringToDouble` reads it: only digits,
/// `.`, `e`/`E`, `-` and `+`, at least one digit, at most one `.` and one exponent, and the
/// whole token a number (`5.`, `.5`, `1e3`, `-0.0` are numbers; `nan`, `inf`, `1,5`, `0x1p3`
/// and `1e` are not). The error is the reason alone.
pub fn read_real(token: &[u8]) -> Result<f64, String> {
    if let Some(&bad) = token
        .iter()
        .find(|&&b| !(b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+')))
    {
        let shown = match bad {
            0x21..=0x7E => format!("'{}'", bad as char),
            _ => crate::text::hex_bytes(&[bad]),
        };
        return Err(format!("{shown} does not belong in a number"));
    }
    let count = |f: fn(&u8) -> bool| token.iter().filter(|b| f(b)).count();
    let digits = count(u8::is_ascii_digit);
    if digits == 0
        || count(|&b| b == b'-') > 2
        || count(|&b| b == b'+') > 2
        || count(|&b| b == b'.') > 1
        || count(|&b| b == b'e' || b == b'E') > 1
    {
        return Err("it is not a number".to_string());
    }
    std::str::from_utf8(token)
        .ok()
        .and_then(|t| t.parse::<f64>().ok())
        .filter(|v| !v.is_nan())
        .ok_or_else(|| "it is not a number".to_string())
}

/// Whether `found` is within `tolerance` of `expected`, absolutely or relatively, as testlib's
/// `doubleCompare` decides: the tolerance gets a slack of 1e-15, so that two decimal strings
/// one unit of the last printed digit apart (`0.555556` and `0.555555` with 1e-6) are
/// accepted although their difference as doubles is a hair above the tolerance.
/// Values beyond 1e300 count as infinite, as in testlib (`1e309` matches `1e308`).
pub fn within(expected: f64, found: f64, tolerance: f64) -> bool {
    let tolerance = tolerance + 1e-15;
    let infinite = |v: f64| v.abs() > 1e300;
    if expected.is_nan() {
        return found.is_nan();
    }
    if infinite(expected) {
        return infinite(found) && (found > 0.0) == (expected > 0.0);
    }
    if !found.is_finite() {
        return false;
    }
    if (found - expected).abs() <= tolerance {
        return true;
    }
    let a = expected * (1.0 - tolerance);
    let b = expected * (1.0 + tolerance);
    a.min(b) <= found && found <= a.max(b)
}

/// Whether `found` is within `tolerance` of `expected` as the ICPC default output validator
/// decides with `float_tolerance`: an absolute or a relative error of at most `tolerance`,
/// with no slack (`0.555555` against `0.555556` is off by a hair more than 1e-6: rejected),
/// and only finite values.
pub fn within_icpc(expected: f64, found: f64, tolerance: f64) -> bool {
    if !(expected.is_finite() && found.is_finite()) {
        return false;
    }
    let error = (found - expected).abs();
    error <= tolerance || error <= tolerance * expected.abs()
}

/// Whether a token reads as a real number that is not written as an integer: it has a `.` or
/// an exponent. Such expected tokens get the tolerance; integers are compared exactly.
pub fn is_real_not_integer(token: &[u8]) -> bool {
    token.iter().any(|&b| matches!(b, b'.' | b'e' | b'E')) && read_real(token).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_testlib_reads() {
        for (token, value) in [
            ("0.555556", 0.555556),
            ("5.", 5.0),
            (".5", 0.5),
            ("-0.0", 0.0),
            ("1e3", 1000.0),
            ("5.55556e-1", 0.555556),
            ("+2", 2.0),
            ("12", 12.0),
        ] {
            assert_eq!(read_real(token.as_bytes()), Ok(value), "{token}");
        }
        for token in [
            "nan", "inf", "1,5", "1e", "e5", ".", "-", "1-2", "0x10", "1..2", "",
        ] {
            assert!(read_real(token.as_bytes()).is_err(), "{token}");
        }
        assert_eq!(
            read_real(b"1,5"),
            Err("',' does not belong in a number".to_string())
        );
    }

    #[test]
    fn compares_with_absolute_or_relative_error() {
        // One unit of the sixth decimal either way: accepted thanks to the slack.
        assert!(within(0.555556, 0.555555, 1e-6));
        assert!(within(0.555556, 0.555557, 1e-6));
        assert!(!within(0.555556, 0.555554, 1e-6));
        assert!(!within(0.555556, 0.56, 1e-6));
        // Relative error for large values.
        assert!(within(1e9, 1e9 + 900.0, 1e-6));
        assert!(!within(1e9, 1e9 + 1100.0, 1e-6));
        assert!(!within(1.0, f64::INFINITY, 1e-6));
        assert!(within(f64::INFINITY, f64::INFINITY, 1e-6));
        // testlib takes anything beyond 1e300 for infinite.
        assert!(within(1e308, f64::INFINITY, 1e-6));
        assert!(!within(1e308, 1.0, 1e-6));
    }

    #[test]
    fn the_icpc_rule_has_no_slack() {
        assert!(!within_icpc(0.555556, 0.555555, 1e-6));
        assert!(within_icpc(0.555556, 0.555557, 1e-6));
        assert!(within_icpc(1e9, 1e9 + 900.0, 1e-6));
        assert!(!within_icpc(1e9, 1e9 + 1100.0, 1e-6));
        assert!(!within_icpc(f64::INFINITY, f64::INFINITY, 1e-6));
        assert!(within_icpc(0.0, 0.000001, 1e-6));
    }

    #[test]
    fn only_tokens_with_a_point_or_exponent_are_reals() {
        assert!(is_real_not_integer(b"60.000000"));
        assert!(is_real_not_integer(b"1e9"));
        assert!(!is_real_not_integer(b"60"));
        assert!(!is_real_not_integer(b"e"));
        assert!(!is_real_not_integer(b"v1.2a"));
    }
}
