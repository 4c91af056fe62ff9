//! Going back one entry in the tab's history, as needs: read where the previous entry
//! leads, go back, settle the document as a look does (what it changes by itself is
//! learnt), observe, and read the address the tab shows. MATCH when it is the previous
//! entry's (fragment aside), MISMATCH otherwise; `NAVIGATION_FAILED` when there is no entry
//! to go back to. Nothing is undone: going back is itself the undo of a navigation.

use super::need::{Answer, Gesture, Need, Read};
use super::record::{background_lines, Record};
use super::step::{Action, Step};
use super::{Mode, Phase, Policy, Run, Seen};
use crate::core::error::{Error, ErrorCode};
use crate::core::judge::VerdictKind;
use crate::core::run::navigation::same_address;
use serde::{Deserialize, Serialize};

/// Where a back is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum At {
    /// Waiting for the previous entry's address.
    Previous,
    /// Waiting for the tab to go back.
    Going,
    /// Waiting for the new document's settle (it stops when the page moves).
    Settling,
    /// Waiting for a snapshot after the page moved by itself.
    Learning,
    /// Waiting for the observation of the document reached.
    Observing,
    /// Waiting for the address the tab shows.
    Address,
}

impl Run {
    /// A run that goes back one entry in the tab's history and checks where it landed.
    pub fn back(policy: Policy) -> Run {
        Run::with_mode(Step::new(Action::watch()), policy, Mode::Back)
    }

    pub(super) fn begin_back(&mut self) -> Need {
        self.attempts = 1;
        self.attempt = Default::default();
        self.attempt.left_ms = self.policy.timing.timeout_ms;
        self.seen = None;
        self.phase = Phase::Back { at: At::Previous };
        self.ask(Need::Read {
            read: Read::Previous,
        })
    }

    fn back_settle(&mut self) -> Need {
        self.phase = Phase::Back { at: At::Settling };
        let need = self.settle_need(None, self.attempt.left_ms, true);
        self.ask(need)
    }

    pub(super) fn on_back(&mut self, at: At, answer: Answer) -> Need {
        match (at, answer) {
            (At::Previous, Answer::Address { url }) if url.is_empty() => self.fail(Error::new(
                ErrorCode::NavigationFailed,
                "there is no page to go back to in this tab's history",
            )),
            (At::Previous, Answer::Address { url }) => {
                self.attempt.destination = Some(super::Destination {
                    kind: "history".into(),
                    url,
                    method: String::new(),
                });
                self.phase = Phase::Back { at: At::Going };
                self.dispatched = true;
                self.ask(Need::Input {
                    gesture: Gesture::GoBack,
                })
            }
            (At::Going, Answer::Sent) => {
                self.new_document();
                self.back_settle()
            }
            (
                At::Settling,
                Answer::Settled {
                    fingerprint,
                    stable,
                    changed,
                    waited_ms,
                },
            ) => {
                let at = if self.arrival_moved(fingerprint, stable, changed, waited_ms) {
                    At::Learning
                } else {
                    At::Observing
                };
                self.phase = Phase::Back { at };
                self.observe()
            }
            (At::Learning, Answer::Observed { snapshot }) => {
                self.learn_repeated(Some(snapshot));
                self.back_settle()
            }
            (At::Learning, Answer::Unavailable) => {
                self.learn_repeated(None);
                self.back_settle()
            }
            (At::Observing, Answer::Observed { snapshot }) => {
                self.attempt.after = snapshot;
                self.phase = Phase::Back { at: At::Address };
                self.ask(Need::Read {
                    read: Read::Address,
                })
            }
            (At::Observing, Answer::Unavailable) => self.fail(Error::new(
                ErrorCode::BrowserError,
                "the page could not be observed after going back; check the tab",
            )),
            (At::Address, Answer::Address { url }) => self.went_back(url),
            (_, Answer::Failed { error }) => self.fail(error),
            (_, other) => self.out_of_step(&other),
        }
    }

    fn went_back(&mut self, now: String) -> Need {
        let a = &self.attempt;
        let went = a
            .destination
            .as_ref()
            .map(|d| d.url.clone())
            .unwrap_or_default();
        let reached = same_address(&went, &now, false);
        let record = Record {
            action: "back".into(),
            value: Some(went.clone()),
            verdict: Some(if reached {
                VerdictKind::Match
            } else {
                VerdictKind::Mismatch
            }),
            ok: reached,
            reason: if reached {
                "the tab shows the previous entry of its history".into()
            } else {
                format!("the previous entry of the history is {went}, the tab shows {now}")
            },
            error: (!reached).then(|| {
                Error::new(
                    ErrorCode::VerificationFailed,
                    "the tab did not reach the previous page",
                )
            }),
            lines: vec![format!("navigated to {now}")],
            attempts: 1,
            stable: a.stable_after,
            background: background_lines(&a.background),
            ..Record::default()
        };
        if reached {
            self.seen = Some(Seen {
                fingerprint: a.fingerprint.clone(),
                snapshot: a.after.clone(),
                background: a.background.clone(),
            });
        }
        self.finish(record)
    }
}
