//! Typing where the focus is (`Action::TypeText`), as needs: read the focused element and
//! decide whether it is the field meant (the one the last click or key left focused, the same
//! node with the same identity; or, with none meant, any field that takes text), else
//! `FOCUS_LOST` and nothing typed; read its value and selection right before the text goes
//! in (the focus moved meanwhile: `FOCUS_LOST` too); insert the text; settle; read the field
//! back.
//!
//! **What the field should hold**: its value before with the text in place of the selection
//! (offsets in UTF-16 code units, as the page counts them). A field whose selection cannot be
//! read (a contenteditable element) should contain the text; a secret one, its value before
//! with the text after it. A secret (the text declared sensitive, or a sensitive field) is
//! compared by the keyed hash of the field's document: the field is declared sensitive from
//! now on and observed, so its value comes back as a hash only, and the hash of what it should
//! hold is asked of the same document ([`Read::Hash`]). The record never shows it.
//!
//! MATCH when the field holds it; MISMATCH (`VERIFICATION_FAILED`) naming what it shows and
//! what was expected, and whether the focus left the field. Typing is not undone. It acts on
//! the page, so nothing is handed on as the next run's starting point.

use super::need::{Answer, Gesture, Need, Read, Selection};
use super::pointer::same_field;
use super::record::Record;
use super::step::Action;
use super::{Phase, Run};
use crate::core::error::{Error, ErrorCode};
use crate::core::identity::describe_element;
use crate::core::judge::VerdictKind;
use crate::core::model::Element;
use serde::{Deserialize, Serialize};

/// Where typing is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum At {
    /// Waiting for the focused element.
    Focus,
    /// Waiting for the field's value and selection.
    Selection,
    /// The focus left the field before the text went in: waiting for where it is now.
    Moved,
    /// Waiting for the text to be inserted.
    Insert,
    /// Waiting for the page to settle.
    Settling,
    /// Waiting for the field's value (text shown in the record).
    Value,
    /// Waiting for the focused element after typing.
    Still,
    /// Waiting for the observation that hashes a secret field's value.
    Observe,
    /// Waiting for the keyed hash of what a secret field should hold.
    Hash,
}

/// What typing should leave in the field and what it left (never shown when secret).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Typing {
    /// What the field should hold; `None` when it has no value to read back.
    expected: Option<String>,
    /// The selection was known, so `expected` is exact (else the field should contain the
    /// text).
    exact: bool,
    /// The field's value after typing (not for a secret).
    shown: Option<String>,
    /// A secret field's keyed hash after typing.
    hash: Option<String>,
    /// The field went away while typing.
    gone: bool,
    /// The focus is still on the field after typing.
    still: bool,
}

/// `FOCUS_LOST`: where the focus is instead of the field meant, and what to do.
fn focus_lost(want: Option<&Element>, now: Option<&Element>) -> Error {
    let now_s = now.map_or_else(|| "nothing".to_owned(), describe_element);
    let message = match want {
        Some(w) => format!(
            "focus is on {now_s}, not on {} (the field focused last); nothing was typed: click the field again",
            describe_element(w)
        ),
        None => format!(
            "focus is on {now_s}, which takes no text; nothing was typed: click the field first"
        ),
    };
    Error::new(ErrorCode::FocusLost, message)
}

/// The value before with `text` in place of the selection, counted in UTF-16 code units;
/// `None` when the selection does not fit the value.
fn spliced(before: &str, start: u32, end: u32, text: &str) -> Option<String> {
    let units: Vec<u16> = before.encode_utf16().collect();
    let (start, end) = (start as usize, end as usize);
    (start <= end && end <= units.len()).then(|| {
        let mut s = String::from_utf16_lossy(&units[..start]);
        s.push_str(text);
        s.push_str(&String::from_utf16_lossy(&units[end..]));
        s
    })
}

impl Run {
    fn typed_text(&self) -> (&str, Option<&Element>) {
        match &self.step.action {
            Action::TypeText { text, field, .. } => (text, field.as_deref()),
            _ => ("", None),
        }
    }

    fn field_ref(&self) -> String {
        self.attempt
            .target
            .as_ref()
            .map(|t| t.reference.clone())
            .unwrap_or_default()
    }

    fn is_secret_typing(&self) -> bool {
        self.step.action.is_secret(self.attempt.target.as_ref())
    }

    pub(super) fn begin_type(&mut self) -> Need {
        self.attempts = 1;
        self.attempt = Default::default();
        self.attempt.target = self.typed_text().1.cloned();
        self.seen = None;
        self.typing = Some(Typing::default());
        self.phase = Phase::Type { at: At::Focus };
        self.ask(Need::Read {
            read: Read::Focused,
        })
    }

    pub(super) fn on_type(&mut self, at: At, answer: Answer) -> Need {
        match (at, answer) {
            (At::Focus, Answer::Focused { element }) => self.focus_read(element),
            (At::Selection, Answer::Selection { selection: None }) => {
                self.phase = Phase::Type { at: At::Moved };
                self.ask(Need::Read {
                    read: Read::Focused,
                })
            }
            (At::Selection, Answer::Selection { selection: Some(s) }) => self.insert(s),
            (At::Moved, Answer::Focused { element }) => {
                let want = self.attempt.target.clone();
                self.fail(focus_lost(want.as_ref(), element.as_ref()))
            }
            (At::Insert, Answer::Sent) => {
                self.phase = Phase::Type { at: At::Settling };
                let need = self.settle_need(None, self.policy.timing.timeout_ms, false);
                self.ask(need)
            }
            (At::Settling, Answer::Settled { stable, .. }) => {
                self.attempt.stable_after = stable;
                let reference = self.field_ref();
                if self.is_secret_typing() {
                    if !self.sensitive.contains(&reference) {
                        self.sensitive.push(reference);
                    }
                    self.phase = Phase::Type { at: At::Observe };
                    return self.observe();
                }
                self.phase = Phase::Type { at: At::Value };
                self.ask(Need::Read {
                    read: Read::Value { reference },
                })
            }
            (At::Value, Answer::Value { value }) => {
                if let Some(t) = self.typing.as_mut() {
                    t.shown = value;
                }
                self.phase = Phase::Type { at: At::Still };
                self.ask(Need::Read {
                    read: Read::Focused,
                })
            }
            (At::Value, Answer::Failed { .. }) | (At::Observe, Answer::Unavailable) => {
                if let Some(t) = self.typing.as_mut() {
                    t.gone = true;
                }
                self.typed()
            }
            (At::Still, Answer::Focused { element }) => {
                let still = match (&self.attempt.target, &element) {
                    (Some(f), Some(now)) => same_field(f, now),
                    _ => false,
                };
                if let Some(t) = self.typing.as_mut() {
                    t.still = still;
                }
                self.typed()
            }
            (At::Still, Answer::Failed { .. }) => self.typed(),
            (At::Observe, Answer::Observed { snapshot }) => {
                let reference = self.field_ref();
                let field = snapshot.elements.iter().find(|e| e.reference == reference);
                let Some(t) = self.typing.as_mut() else {
                    return self.typed();
                };
                match field {
                    None => t.gone = true,
                    Some(e) => {
                        t.still = e.focused;
                        t.hash = e.value_hash.clone();
                    }
                }
                match (&t.expected, &t.hash) {
                    (Some(value), Some(_)) => {
                        let value = value.clone();
                        self.phase = Phase::Type { at: At::Hash };
                        self.ask(Need::Read {
                            read: Read::Hash { reference, value },
                        })
                    }
                    _ => self.typed(),
                }
            }
            (At::Hash, Answer::Hash { hash }) => {
                let holds = self
                    .typing
                    .as_ref()
                    .is_some_and(|t| t.hash.as_deref() == Some(hash.as_str()));
                self.typed_secret(holds)
            }
            (_, Answer::Failed { error }) => self.fail(error),
            (_, other) => self.out_of_step(&other),
        }
    }

    /// Is the focus on the field meant? Then its value and selection are asked for.
    fn focus_read(&mut self, now: Option<Element>) -> Need {
        let want = self.typed_text().1.cloned();
        let field = match (&want, now) {
            (Some(w), Some(f)) if same_field(w, &f) => f,
            (None, Some(f)) if f.role.has_value() => f,
            (w, f) => return self.fail(focus_lost(w.as_ref(), f.as_ref())),
        };
        let reference = field.reference.clone();
        self.attempt.focus = Some(field.clone());
        self.attempt.target = Some(field);
        if self.is_secret_typing() {
            let text = self.typed_text().0.to_owned();
            self.add_secret(&text);
        }
        self.phase = Phase::Type { at: At::Selection };
        self.ask(Need::Read {
            read: Read::Selection { reference },
        })
    }

    /// The text goes in; what the field should hold then is kept.
    fn insert(&mut self, s: Selection) -> Need {
        let text = self.typed_text().0.to_owned();
        let secret = self.is_secret_typing();
        let exact = s.start.is_some() && s.end.is_some();
        let expected = match (&s.value, s.start, s.end) {
            (Some(before), Some(start), Some(end)) => spliced(before, start, end, &text),
            (Some(before), _, _) if secret => Some(format!("{before}{text}")),
            (Some(_), _, _) => Some(text.clone()),
            (None, _, _) => None,
        };
        self.typing = Some(Typing {
            expected,
            exact,
            ..Typing::default()
        });
        self.dispatched = true;
        self.phase = Phase::Type { at: At::Insert };
        self.ask(Need::Input {
            gesture: Gesture::Insert { text },
        })
    }

    /// A text that is not a secret: the field shows what it should, or not.
    fn typed(&mut self) -> Need {
        let t = self.typing.clone().unwrap_or_default();
        if self.is_secret_typing() {
            return self.typed_secret(false);
        }
        let holds = match (&t.shown, &t.expected) {
            (Some(now), Some(want)) if t.exact => now == want,
            (Some(now), Some(_)) => now.contains(self.typed_text().0),
            _ => false,
        };
        let what = self.field_name();
        let reason = if holds {
            format!("{what} shows the typed text")
        } else if t.gone {
            format!("{what} left the page while typing")
        } else {
            format!(
                "{what} shows '{}', expected '{}'",
                t.shown.as_deref().unwrap_or(""),
                t.expected.as_deref().unwrap_or(self.typed_text().0)
            )
        };
        self.type_record(holds, reason, &t)
    }

    /// A secret: the field's keyed hash is the hash of what it should hold, or not.
    fn typed_secret(&mut self, holds: bool) -> Need {
        let t = self.typing.clone().unwrap_or_default();
        let what = self.field_name();
        let reason = if holds {
            format!("{what} holds the typed text (compared by keyed hash)")
        } else if t.gone {
            format!("{what} left the page while typing")
        } else {
            format!("{what} does not hold the typed text (compared by keyed hash)")
        };
        self.type_record(holds, reason, &t)
    }

    fn field_name(&self) -> String {
        self.attempt
            .target
            .as_ref()
            .map_or_else(|| "the field".to_owned(), describe_element)
    }

    fn type_record(&mut self, holds: bool, reason: String, t: &Typing) -> Need {
        let reason = if !holds && !t.gone && !t.still {
            format!("{reason}; focus left the field")
        } else {
            reason
        };
        let target = self.attempt.target.as_ref();
        let record = Record {
            action: self.step.action.name().into(),
            target: target.map(describe_element),
            value: self.step.action.shown_value(target),
            verdict: Some(if holds {
                VerdictKind::Match
            } else {
                VerdictKind::Mismatch
            }),
            ok: holds,
            error: (!holds).then(|| Error::new(ErrorCode::VerificationFailed, reason.clone())),
            reason,
            attempts: 1,
            stable: self.attempt.stable_after,
            ..Record::default()
        };
        self.finish(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_takes_the_place_of_the_selection_in_utf16_units() {
        assert_eq!(spliced("", 0, 0, "Ada").as_deref(), Some("Ada"));
        assert_eq!(spliced("Ada L", 3, 5, "!").as_deref(), Some("Ada!"));
        assert_eq!(spliced("é😀x", 3, 3, "y").as_deref(), Some("é😀yx"));
        assert_eq!(spliced("ab", 1, 3, "y"), None, "a selection past the end");
        assert_eq!(spliced("ab", 2, 1, "y"), None, "a selection backwards");
    }
}
