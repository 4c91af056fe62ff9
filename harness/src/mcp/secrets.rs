//! `--secrets FILE`: named values an agent may type without ever seeing them.
//!
//! The file is dotenv: `NAME=value` per line, `export NAME=value` too, `#` comments, values
//! optionally quoted (`"…"` with `\n`, `\"` and `\\` escapes, or `'…'` taken as written). An
//! agent writes `${NAME}` in the text of `browser_type` (or a `browser_fill_form` value); the
//! server types the value and marks the step sensitive. Every value is registered with the
//! verifier's redactor when the server starts, so it is scrubbed from every answer, log line
//! and trace record whether or not it was typed through a placeholder (a page may echo it).
//!
//! Errors name the line or the placeholder, never a value.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

/// The named values of a secrets file.
#[derive(Default, Clone)]
pub struct Secrets {
    values: BTreeMap<String, String>,
}

/// Debug output lists the names only.
impl fmt::Debug for Secrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.values.keys()).finish()
    }
}

/// A text after its placeholders were replaced.
#[derive(PartialEq, Eq)]
pub struct Expanded {
    pub text: String,
    /// The text holds a secret: type it as a sensitive value.
    pub sensitive: bool,
}

impl fmt::Debug for Expanded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if self.sensitive {
            prufe::core::model::REDACTED
        } else {
            &self.text
        };
        f.debug_struct("Expanded")
            .field("text", &text)
            .field("sensitive", &self.sensitive)
            .finish()
    }
}

impl Secrets {
    /// Reads a secrets file.
    pub fn load(path: &Path) -> Result<Secrets, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the secrets file {}: {e}", path.display()))?;
        Self::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses dotenv text (see the module docs).
    pub fn parse(text: &str) -> Result<Secrets, String> {
        let mut values = BTreeMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
            let Some((name, value)) = line.split_once('=') else {
                return Err(format!("line {}: expected NAME=value", i + 1));
            };
            let name = name.trim();
            if !is_name(name) {
                return Err(format!(
                    "line {}: {name:?} is not a name (letters, digits and _, not starting with a digit)",
                    i + 1
                ));
            }
            let value = unquote(value.trim()).map_err(|e| format!("line {}: {e}", i + 1))?;
            values.insert(name.to_owned(), value);
        }
        Ok(Secrets { values })
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.values.keys().map(String::as_str)
    }

    /// The values, for the redactor.
    pub fn values(&self) -> impl Iterator<Item = &str> {
        self.values.values().map(String::as_str)
    }

    /// Replaces every `${NAME}` of `text` by its value. A name the file does not hold is an
    /// error that lists the names it does hold.
    pub fn expand(&self, text: &str) -> Result<Expanded, String> {
        let mut out = String::with_capacity(text.len());
        let mut sensitive = false;
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let Some(end) = after.find('}') else {
                out.push_str(&rest[start..]);
                rest = "";
                break;
            };
            let name = &after[..end];
            if !is_name(name) {
                out.push_str(&rest[start..start + 2 + end + 1]);
                rest = &after[end + 1..];
                continue;
            }
            match self.values.get(name) {
                Some(value) => {
                    out.push_str(value);
                    sensitive = true;
                }
                None => {
                    let known: Vec<&str> = self.names().collect();
                    return Err(if known.is_empty() {
                        format!(
                            "${{{name}}} names a secret, but no secrets file was given (start the server with --secrets FILE)"
                        )
                    } else {
                        format!(
                            "${{{name}}}: the secrets file holds no {name}; it holds {}",
                            known.join(", ")
                        )
                    });
                }
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok(Expanded {
            text: out,
            sensitive,
        })
    }
}

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn unquote(value: &str) -> Result<String, String> {
    if let Some(inner) = value.strip_prefix('\'') {
        return inner
            .strip_suffix('\'')
            .map(str::to_owned)
            .ok_or_else(|| "a value opened with ' is not closed".to_owned());
    }
    if let Some(inner) = value.strip_prefix('"') {
        let Some(inner) = inner.strip_suffix('"') else {
            return Err("a value opened with \" is not closed".to_owned());
        };
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        }
        return Ok(out);
    }
    // An unquoted value ends at a ` #` comment.
    let value = match value.find(" #") {
        Some(i) => &value[..i],
        None => value,
    };
    Ok(value.trim_end().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotenv_lines_parse() {
        let s = Secrets::parse(
            "# shop account\n\
             SHOP_PASSWORD=Tr0ub4dor&3 # the old one\n\
             export API_TOKEN = \"tok\\\"en\\n\"\n\
             PIN='12 34 # not a comment'\n\
             \n\
             EMPTY=\n",
        )
        .unwrap();
        assert_eq!(
            s.names().collect::<Vec<_>>(),
            ["API_TOKEN", "EMPTY", "PIN", "SHOP_PASSWORD"]
        );
        let values: Vec<&str> = s.values().collect();
        assert_eq!(
            values,
            ["tok\"en\n", "", "12 34 # not a comment", "Tr0ub4dor&3"]
        );
    }

    #[test]
    fn malformed_lines_name_the_line_not_the_value() {
        for (text, words) in [
            ("A=1\nno equals sign here", "line 2: expected NAME=value"),
            ("1ABC=hunter22", "line 1: \"1ABC\" is not a name"),
            (
                "A=\"hunter22",
                "line 1: a value opened with \" is not closed",
            ),
            ("A='hunter22", "line 1: a value opened with ' is not closed"),
        ] {
            let e = Secrets::parse(text).unwrap_err();
            assert!(e.contains(words), "{text:?}: {e}");
            assert!(!e.contains("hunter22") || words.contains("hunter22"), "{e}");
        }
    }

    #[test]
    fn placeholders_expand_and_mark_the_text_sensitive() {
        let s = Secrets::parse("PASS=hunter22\nUSER=ada").unwrap();
        let cases = [
            ("${PASS}", "hunter22", true),
            ("me-${USER}:${PASS}", "me-ada:hunter22", true),
            ("no placeholder", "no placeholder", false),
            (
                "$PASS and ${not a name} and ${",
                "$PASS and ${not a name} and ${",
                false,
            ),
            ("cost: ${", "cost: ${", false),
        ];
        for (text, want, sensitive) in cases {
            let e = s.expand(text).unwrap();
            assert_eq!((e.text.as_str(), e.sensitive), (want, sensitive), "{text}");
        }
        let e = s.expand("${TOKEN}").unwrap_err();
        assert!(e.contains("holds no TOKEN; it holds PASS, USER"), "{e}");
        let e = Secrets::default().expand("${TOKEN}").unwrap_err();
        assert!(e.contains("--secrets FILE"), "{e}");
    }

    #[test]
    fn debug_shows_names_only() {
        let s = Secrets::parse("PASS=hunter22").unwrap();
        assert_eq!(format!("{s:?}"), "{\"PASS\"}");
        let e = s.expand("${PASS}").unwrap();
        assert!(!format!("{e:?}").contains("hunter22"));
    }
}
