//! C and C++ generators: built again, with the recorder's header force-included before the
//! source (`-include`), and for a testlib generator a copy of its own `testlib.h` whose
//! `rnd` draws through the recorder, included by the header first: the source's own
//! `#include "testlib.h"` then finds it already there (the same include guard).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{Capturable, Mechanism, NotCaptured, Prepared, runtime_folder};
use crate::compile::Language;

/// The recorder's header.
const HEADER: &str = include_str!("duipai_choices.h");

/// `random_t::nextBits`'s last step, where every draw of testlib's `rnd` passes.
const TESTLIB_BITS: &str = "return (long long) (seed >> (48 - bits));";
const TESTLIB_BITS_RECORDED: &str = "return (long long) duipai_choices_draw((1ULL << bits) - 1, \
     0, (unsigned long long) (seed >> (48 - bits)));";

/// `random_t::next(n)` for an `int` and a `long long` n: one choice in 0..n each, whatever
/// `nextBits` draws it takes, so that a choice keeps its range.
const TESTLIB_NEXT: [(&str, &str, &str); 2] = [
    ("    int next(int n) {\n", "int", "duipai_choices_next_int"),
    (
        "    long long next(long long n) {\n",
        "long long",
        "duipai_choices_next_long",
    ),
];

pub(super) fn prepare(capturable: &Capturable) -> Result<Prepared, NotCaptured> {
    let (source, language) = source(&capturable.typed)?;
    if !draws_recorded(source) {
        return Err(NotCaptured(format!(
            "{} uses none of rand(), <random>'s engines and testlib's rnd (it has a random \
             number generator of its own, or draws nothing)",
            source.display()
        )));
    }
    let testlib = match language {
        Language::Cpp => testlib_of(source),
        _ => None,
    };
    let mechanism = match (language, &testlib) {
        (Language::C, _) => Mechanism::C,
        (_, Some(_)) => Mechanism::Testlib,
        _ => Mechanism::Cpp,
    };
    let patched = match &testlib {
        Some(path) => Some(patched_testlib(path)?),
        None => None,
    };
    let mut files: Vec<(&str, &[u8])> = vec![("duipai_choices.h", HEADER.as_bytes())];
    if let Some(patched) = &patched {
        files.push(("testlib.h", patched.as_bytes()));
    }
    let folder = runtime_folder(&capturable.options, &files)?;
    let mut options = capturable.options.clone();
    let compiler = options
        .compiler(language)
        .map_err(|e| NotCaptured(format!("no compiler for the generator: {e}")))?;
    let mut words = compiler.words;
    words.push("-include".to_string());
    words.push(
        folder
            .join("duipai_choices.h")
            .to_string_lossy()
            .into_owned(),
    );
    if patched.is_some() {
        words.push("-DDUIPAI_CHOICES_TESTLIB=\"testlib.h\"".to_string());
    }
    options.overrides.push((language, words));
    let prepared = crate::compile::prepare(&capturable.typed, &options).map_err(|e| {
        let first = e.to_string().lines().next().unwrap_or_default().to_string();
        NotCaptured(format!(
            "building {} with the recorder failed: {first}",
            source.display()
        ))
    })?;
    Ok(Prepared {
        command: prepared.command,
        env: Vec::new(),
        mechanism,
        built_in: prepared.compile_time,
    })
}

/// The C or C++ source the typed command runs, or why it is not one.
fn source(typed: &[OsString]) -> Result<(&Path, Language), NotCaptured> {
    let first = typed
        .first()
        .map(Path::new)
        .ok_or_else(|| NotCaptured("the generator is an empty command".to_string()))?;
    let shown = first.display();
    match Language::from_path(first).filter(|_| first.is_file()) {
        Some(language @ (Language::C | Language::Cpp)) => Ok((first, language)),
        Some(language) => Err(NotCaptured(format!(
            "{shown} is a {language} source: duipai records the choices of Python, C and C++ \
             generators"
        ))),
        None => Err(NotCaptured(format!(
            "{shown} runs a program duipai does not build (the choices of Python, C and C++ \
             sources are recorded: give the generator's source, gen.cpp or gen.py)"
        ))),
    }
}

/// Whether the source uses something the recorder wraps (a look at its text, which saves a
/// build when it draws from a generator of its own): `rand`, an engine,
/// `uniform_int_distribution`, or testlib's `rnd`, as names of the code, not words of a
/// comment or a string, nor parts of a longer name (`next_random`, `srand` alone).
fn draws_recorded(source: &Path) -> bool {
    std::fs::read_to_string(source).is_ok_and(|text| uses_recorded(&text))
}

/// [`draws_recorded`] on the source's text.
fn uses_recorded(text: &str) -> bool {
    const NAMES: [&str; 5] = [
        "rand",
        "mt19937",
        "mt19937_64",
        "default_random_engine",
        "uniform_int_distribution",
    ];
    let includes_testlib = text.lines().any(|line| {
        let line = line.trim_start();
        line.starts_with('#') && line.contains("include") && line.contains("testlib.h")
    });
    let code = code_names(text);
    includes_testlib
        || code.windows(2).any(|w| w[0] == "rnd" && w[1] == ".")
        || code.iter().any(|name| NAMES.contains(name))
}

/// The names and punctuation of C or C++ code, comments, strings and character literals left
/// out.
fn code_names(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let name_byte = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            i += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        } else if rest.starts_with(b"/*") {
            i += memchr::memmem::find(&rest[2..], b"*/").map_or(rest.len(), |e| e + 4);
        } else if rest[0] == b'"' || rest[0] == b'\'' {
            // To the closing quote, past escaped ones (or the line's end).
            let mut j = 1;
            while j < rest.len() && rest[j] != rest[0] && rest[j] != b'\n' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            i += (j + 1).min(rest.len());
        } else if name_byte(rest[0]) {
            let len = if rest[0].is_ascii_digit() {
                number_len(rest)
            } else {
                rest.iter()
                    .position(|&b| !name_byte(b))
                    .unwrap_or(rest.len())
            };
            if let Some(raw) = raw_string_len(&rest[len..], &text[i..i + len]) {
                i += len + raw;
                continue;
            }
            out.push(&text[i..i + len]);
            i += len;
        } else if rest[0].is_ascii_whitespace() {
            i += 1;
        } else {
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push(&text[i..i + len]);
            i += len;
        }
    }
    out
}

/// The length of the number `rest` starts with, its digit separators (`1'000'000`) included.
fn number_len(rest: &[u8]) -> usize {
    let mut len = 0;
    while len < rest.len() {
        let b = rest[len];
        let separator = b == b'\''
            && len > 0
            && rest[len - 1].is_ascii_alphanumeric()
            && rest.get(len + 1).is_some_and(u8::is_ascii_alphanumeric);
        if !(b.is_ascii_alphanumeric() || b == b'_' || separator) {
            break;
        }
        len += 1;
    }
    len
}

/// The length of the raw string literal `after` starts with (`"delim( ... )delim"`, to its
/// closing quote, over lines), when `prefix`, the name before it, makes it one (`R`, `LR`,
/// `uR`, `UR`, `u8R`); a raw string has no escapes, so a `"` inside it ends nothing.
fn raw_string_len(after: &[u8], prefix: &str) -> Option<usize> {
    if !matches!(prefix, "R" | "LR" | "uR" | "UR" | "u8R") || after.first() != Some(&b'"') {
        return None;
    }
    // The delimiter: at most 16 characters up to `(`, none of them a space, `\\` or `)`.
    let open = after[1..].iter().take(17).position(|&b| b == b'(')? + 1;
    let delim = &after[1..open];
    if delim
        .iter()
        .any(|&b| b.is_ascii_whitespace() || matches!(b, b'\\' | b')' | b'"'))
    {
        return None;
    }
    let mut close = Vec::with_capacity(delim.len() + 2);
    close.push(b')');
    close.extend_from_slice(delim);
    close.push(b'"');
    let body = &after[open + 1..];
    Some(memchr::memmem::find(body, &close).map_or(after.len(), |e| open + 1 + e + close.len()))
}

/// The `testlib.h` the source includes from its own folder, if any.
fn testlib_of(source: &Path) -> Option<PathBuf> {
    crate::compile::local_sources(source).into_iter().find(|p| {
        p.file_name().is_some_and(|n| n == "testlib.h")
            && std::fs::read(p).is_ok_and(|t| memchr::memmem::find(&t, b"class random_t").is_some())
    })
}

/// The generator's own testlib.h with `rnd`'s draws made through the recorder.
fn patched_testlib(path: &Path) -> Result<String, NotCaptured> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| NotCaptured(format!("cannot read {}: {e}", path.display())))?;
    patch_testlib(&text).ok_or_else(|| {
        NotCaptured(format!(
            "{} has no random_t::nextBits as testlib writes it (`{TESTLIB_BITS}`)",
            path.display()
        ))
    })
}

/// `text` (a testlib.h) with `nextBits` drawing through the recorder, and `next(n)` one
/// choice of its range; `None` when its `nextBits` is not testlib's.
fn patch_testlib(text: &str) -> Option<String> {
    if text.matches(TESTLIB_BITS).count() != 1 {
        return None;
    }
    let mut patched = text.replacen(TESTLIB_BITS, TESTLIB_BITS_RECORDED, 1);
    for (head, kind, raw) in TESTLIB_NEXT {
        if patched.matches(head).count() != 1 {
            continue;
        }
        let bounded = format!(
            "    {kind} next({kind} n) {{\n        if (n <= 0)\n            return {raw}(n);\n        \
             return ({kind}) duipai_choices_bounded((unsigned long long) n - 1, [&]() {{\n            \
             return (unsigned long long) {raw}(n);\n        }});\n    }}\n\n    \
             {kind} {raw}({kind} n) {{\n"
        );
        patched = patched.replacen(head, &bounded, 1);
    }
    Some(patched)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_use_in_the_code_counts_as_drawing_what_is_recorded() {
        let recorded = [
            "int main() { int x = rand() % 10; }",
            "int main() { int x = std::rand(); }",
            "std::mt19937 gen(42);",
            "std::mt19937_64 gen(seed);",
            "std::uniform_int_distribution<int> d(1, 6);",
            "#include \"testlib.h\"\nint main() {}",
            "int main() { int n = rnd.next(1, 5); }",
            "auto x = rnd . next(3);",
        ];
        for text in recorded {
            assert!(uses_recorded(text), "{text}");
        }
        let own = [
            "// not rand(), a splitmix of our own\nuint64_t next_random() { return 1; }",
            "/* uses mt19937? no */ int main() { srand(1); }",
            "int main() { puts(\"rand() is not used\"); char c = '\\''; }",
            "int brand = 3, random_value = 4, rnd_count = 5; int rnd = 1; rnd = 2;",
            "// #include \"testlib.h\" was dropped\nint main() {}",
            // A raw string's quotes and escapes are its text: nothing in it is code.
            "const char* s = R\"(say \"rand()\" \\)\"; int main() {}",
            "auto s = R\"x(a )\" rand() \n mt19937 gen;)x\"; int main() {}",
            "auto s = u8R\"(\"\n) rand();\")\"; auto t = LR\"(rnd.next)\";",
        ];
        for text in own {
            assert!(!uses_recorded(text), "{text}");
        }
        // After a raw string, and after a number with digit separators, the code is read
        // again: a `"` or `'` inside them opens nothing.
        let after = [
            "auto s = R\"(\")\"; int x = rand();",
            "auto s = R\"-(a \" )\" b)-\"; std::mt19937 gen(1);",
            "int n = 1'000'000; int x = rand() % n;",
            // `R` alone is a name, and a string after it an ordinary one.
            "#define R \"(\"\nint x = rand();",
        ];
        for text in after {
            assert!(uses_recorded(text), "{text}");
        }
    }

    #[test]
    fn testlib_is_patched_where_rnd_draws_and_only_there() {
        let text = "class random_t {\n    long long nextBits(int bits) {\n            \
                    return (long long) (seed >> (48 - bits));\n    }\n    int next(int n) {\n        \
                    return n;\n    }\n};\n";
        let patched = patch_testlib(text).unwrap();
        assert!(
            patched.contains("duipai_choices_draw((1ULL << bits) - 1"),
            "{patched}"
        );
        assert!(patched.contains("int duipai_choices_next_int(int n) {\n        return n;"));
        assert!(patched.contains("duipai_choices_bounded((unsigned long long) n - 1"));
        assert!(!patched.contains("duipai_choices_next_long"));
        assert_eq!(patch_testlib("class random_t {};"), None);
    }
}
