//! Reading what the arbiter said ([`Answer::Arbiter`](super::Answer::Arbiter)): the one
//! rule every surface follows, fail-closed. A driver carries the arbiter's reply as it came
//! (an OpenAI-compatible chat completion's body, or the JSON of what a caller's arbiter
//! returned), cut to [`SAID_MAX_CHARS`]; the machine reads it here and words the outcome.
//!
//! Only a clean yes approves: the word `YES` (any case, an optional final period), `true`,
//! or `{ "yes": true, "detail"? }` / `[true, detail]` from a caller's arbiter. Anything else
//! — a hedge, an empty reply, a body that is not JSON, a chat completion without message
//! content — is no, and the record says which.

use crate::core::text::cap;
use serde_json::Value;

/// Most characters of a reply a driver carries ([`Need::Ask`](super::Need::Ask)'s
/// `maxChars`); a longer one is cut there, and a cut JSON body reads as not JSON.
pub const SAID_MAX_CHARS: usize = 4096;

/// How much of a reply that is not a yes the record quotes.
const QUOTED: usize = 40;

/// How much of a caller's arbiter's own detail the record keeps.
const DETAIL: usize = 200;

/// What the arbiter's reply means: approved or not, and the record's words for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    pub yes: bool,
    pub detail: String,
}

/// Reads `said` (see the module docs).
pub fn read(said: &str) -> Reading {
    match serde_json::from_str::<Value>(said) {
        Ok(value) => read_value(&value),
        Err(_) => no("the reply was not JSON".into()),
    }
}

/// The words when no arbiter is configured: no, as an AMBIGUOUS effect is never approved
/// silently.
pub fn none() -> Reading {
    no("no arbiter is configured".into())
}

/// The words when the arbiter did not answer within `within_ms`.
pub fn silent(within_ms: u64) -> Reading {
    no(format!("no answer within {within_ms} ms"))
}

/// The words when asking failed (`why`: the driver's message, an HTTP status, an exception).
pub fn failed(why: &str) -> Reading {
    no(cap(why, DETAIL).into_owned())
}

fn read_value(value: &Value) -> Reading {
    match value {
        Value::Bool(true) => yes(None),
        Value::String(text) => read_word(text),
        Value::Object(o) if o.contains_key("choices") => {
            match value["choices"][0]["message"]["content"].as_str() {
                Some(content) => read_word(content),
                None => no("the reply had no message content".into()),
            }
        }
        Value::Object(o) if o.contains_key("yes") => {
            judged(&o["yes"], o.get("detail").unwrap_or(&Value::Null))
        }
        Value::Array(a) if a.len() == 2 => judged(&a[0], &a[1]),
        other => no(format!("answered {}", cap(&other.to_string(), QUOTED))),
    }
}

/// A one-word reply: only a clean YES is yes.
fn read_word(text: &str) -> Reading {
    let trimmed = text.trim();
    let word = trimmed.strip_suffix('.').unwrap_or(trimmed);
    if word.eq_ignore_ascii_case("yes") {
        yes(None)
    } else {
        no(format!("answered {:?}", cap(trimmed, QUOTED)))
    }
}

/// A caller's arbiter's own decision: yes only when it is exactly `true`.
fn judged(decision: &Value, detail: &Value) -> Reading {
    let detail = match detail {
        Value::Null => None,
        Value::String(s) if s.trim().is_empty() => None,
        Value::String(s) => Some(cap(s.trim(), DETAIL).into_owned()),
        other => Some(cap(&other.to_string(), DETAIL).into_owned()),
    };
    match (decision, detail) {
        (Value::Bool(true), detail) => yes(detail),
        (_, Some(detail)) => no(detail),
        (other, None) => no(format!("answered {}", cap(&other.to_string(), QUOTED))),
    }
}

fn yes(detail: Option<String>) -> Reading {
    Reading {
        yes: true,
        detail: detail.unwrap_or_else(|| "YES".into()),
    }
}

fn no(why: String) -> Reading {
    Reading {
        yes: false,
        detail: format!("NO ({why})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chat(content: &str) -> String {
        serde_json::json!({ "choices": [{ "message": { "role": "assistant", "content": content } }] })
            .to_string()
    }

    #[test]
    fn only_a_clean_yes_is_yes() {
        for (content, yes) in [
            ("YES", true),
            ("yes", true),
            (" Yes.\n", true),
            ("NO", false),
            ("", false),
            ("Yes, probably", false),
            ("maybe", false),
            ("YES YES", false),
            ("Sí", false),
            ("yes!", false),
        ] {
            assert_eq!(read(&chat(content)).yes, yes, "{content:?}");
            let word = serde_json::Value::String(content.into()).to_string();
            assert_eq!(read(&word).yes, yes, "{content:?} said alone");
        }
        for said in [
            "not json",
            r#"{"choices":[]}"#,
            r#"{"choices":[{"message":{"content":7}}]}"#,
            "null",
            "1",
            r#"{"yes":1}"#,
            r#"[1,"x"]"#,
        ] {
            assert!(!read(said).yes, "{said}");
        }
        let long = "x".repeat(100);
        let quoted = read(&chat(&long)).detail;
        assert!(quoted.len() < 60 && quoted.ends_with("…\")"), "{quoted}");
    }
}
