//! A key chord on whatever has the focus (`Action::Key`), as needs: send it (the driver
//! presses modifiers first and releases every key in reverse order, or fails), settle, and
//! read where the focus is now: typing goes there next ([`Run::focused`]).
//!
//! A key is not judged: what it should do is stated by the step after it (a `wait`). Its
//! record says what was sent and where the focus went. It acts on the page, so nothing is
//! handed on as the next run's starting point.

use super::need::{Answer, Gesture, Need, Read};
use super::record::Record;
use super::step::Action;
use super::{Phase, Run};
use crate::core::identity::describe_element;
use serde::{Deserialize, Serialize};

/// Where a key is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum At {
    /// Waiting for the chord to be sent.
    Sending,
    /// Waiting for the page to settle.
    Settling,
    /// Waiting for the focused element.
    Focus,
}

impl Run {
    pub(super) fn begin_key(&mut self) -> Need {
        let Action::Key { chord } = &self.step.action else {
            return self.fail(crate::core::error::Error::new(
                crate::core::error::ErrorCode::Internal,
                "a key run without a chord",
            ));
        };
        let keys = super::chord::pressed(chord);
        self.attempts = 1;
        self.attempt = Default::default();
        self.seen = None;
        self.dispatched = true;
        self.phase = Phase::Key { at: At::Sending };
        self.ask(Need::Input {
            gesture: Gesture::Press {
                reference: None,
                keys,
            },
        })
    }

    pub(super) fn on_key(&mut self, at: At, answer: Answer) -> Need {
        match (at, answer) {
            (At::Sending, Answer::Sent) => {
                self.phase = Phase::Key { at: At::Settling };
                let need = self.settle_need(None, self.policy.timing.timeout_ms, false);
                self.ask(need)
            }
            (At::Settling, Answer::Settled { stable, .. }) => {
                self.attempt.stable_after = stable;
                self.phase = Phase::Key { at: At::Focus };
                self.ask(Need::Read {
                    read: Read::Focused,
                })
            }
            (At::Focus, Answer::Focused { element }) => {
                self.attempt.focus = element;
                self.key_sent()
            }
            // Where the focus is could not be read (a document being replaced): the key was
            // sent all the same.
            (At::Focus, Answer::Failed { .. }) => self.key_sent(),
            (_, Answer::Failed { error }) => self.fail(error),
            (_, other) => self.out_of_step(&other),
        }
    }

    fn key_sent(&mut self) -> Need {
        let focus = match &self.attempt.focus {
            Some(f) => format!("the focus is on {}", describe_element(f)),
            None => "no observable element has the focus".to_owned(),
        };
        let record = Record {
            action: self.step.action.name().into(),
            value: self.step.action.shown_value(None),
            ok: true,
            reason: format!("sent; every key released in reverse order; {focus}"),
            attempts: 1,
            stable: self.attempt.stable_after,
            ..Record::default()
        };
        self.finish(record)
    }
}
