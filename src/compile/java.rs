//! What a Java source declares at its top level: its package and its public class, found by a
//! small tokenizer that skips comments, strings and character literals.
//!
//! javac insists that a public class `Main` lives in `Main.java`, while contestants name files
//! `a.java`; knowing the public class lets duipai compile a copy under the right name and run
//! the right class, as judges such as Codeforces do.

/// The top-level declarations that decide how a source is compiled and run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Declarations {
    /// `package a.b;`, if any: the class then runs as `a.b.Name`.
    pub package: Option<String>,
    /// The first public top-level class, interface, enum or record.
    pub public_class: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Symbol(char),
}

fn is_word_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '$'
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Splits Java source into words and symbols, dropping comments and literals: a `class` in a
/// string or comment must not count.
fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if c == '"' && next == Some('"') && chars.get(i + 2) == Some(&'"') {
            // A text block: up to the next unescaped `"""`.
            i += 3;
            while i < chars.len() {
                if chars[i] == '\\' {
                    i += 2;
                } else if chars[i] == '"'
                    && chars.get(i + 1) == Some(&'"')
                    && chars.get(i + 2) == Some(&'"')
                {
                    i += 3;
                    break;
                } else {
                    i += 1;
                }
            }
        } else if c == '"' || c == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != c && chars[i] != '\n' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if is_word_start(c) {
            let start = i;
            while i < chars.len() && is_word_char(chars[i]) {
                i += 1;
            }
            out.push(Token::Word(chars[start..i].iter().collect()));
        } else {
            out.push(Token::Symbol(c));
            i += 1;
        }
    }
    out
}

/// Finds the package and the first public top-level type of a Java source.
pub(crate) fn declarations(source: &str) -> Declarations {
    let tokens = tokens(source);
    let mut found = Declarations::default();
    let mut depth = 0usize;
    // Whether `public` appeared among the modifiers of the declaration being read.
    let mut public = false;
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Symbol('{') => depth += 1,
            Token::Symbol('}') => depth = depth.saturating_sub(1),
            Token::Symbol(';') => public = false,
            Token::Word(w) if depth == 0 && w == "package" && found.package.is_none() => {
                let mut name = String::new();
                i += 1;
                while let Some(t) = tokens.get(i) {
                    match t {
                        Token::Word(part) => name.push_str(part),
                        Token::Symbol('.') => name.push('.'),
                        _ => break,
                    }
                    i += 1;
                }
                if !name.is_empty() {
                    found.package = Some(name);
                }
                continue;
            }
            Token::Word(w) if depth == 0 && w == "public" => public = true,
            Token::Word(w)
                if depth == 0
                    && matches!(w.as_str(), "class" | "interface" | "enum" | "record") =>
            {
                if let Some(Token::Word(name)) = tokens.get(i + 1)
                    && public
                    && found.public_class.is_none()
                {
                    found.public_class = Some(name.clone());
                }
                public = false;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public_class(source: &str) -> Option<String> {
        declarations(source).public_class
    }

    #[test]
    fn finds_the_public_class() {
        assert_eq!(
            public_class(
                "import java.util.*;\npublic class Main { public static void main(String[] a) {} }"
            ),
            Some("Main".into())
        );
        assert_eq!(
            public_class("final public class Solution {}"),
            Some("Solution".into())
        );
        assert_eq!(
            public_class("class Helper {}\npublic final class A { class Inner {} }"),
            Some("A".into())
        );
    }

    #[test]
    fn ignores_non_public_nested_commented_and_quoted_classes() {
        assert_eq!(public_class("class Main {}"), None);
        assert_eq!(
            public_class("class Main { public class Inner {} }"),
            None,
            "a nested class is not top-level"
        );
        assert_eq!(
            public_class(
                "// public class Fake {}\n/* public class Fake2 {} */ class B { String s = \"public class Q {\"; char c = '{'; }\npublic class Real {}"
            ),
            Some("Real".into())
        );
        assert_eq!(
            public_class(
                "class T { String t = \"\"\"\n  public class X { \"\n  \"\"\"; }\npublic class Y {}"
            ),
            Some("Y".into())
        );
    }

    #[test]
    fn reads_the_package() {
        let d = declarations("package contest.round1;\n\npublic class Main {}");
        assert_eq!(d.package.as_deref(), Some("contest.round1"));
        assert_eq!(d.public_class.as_deref(), Some("Main"));
        assert_eq!(declarations("public class Main {}").package, None);
    }

    #[test]
    fn survives_garbage() {
        for s in [
            "",
            "{{{",
            "}}}}",
            "public",
            "public class",
            "\"unterminated",
            "/* open",
            "'",
        ] {
            let _ = declarations(s);
        }
    }
}
