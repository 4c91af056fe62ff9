//! A wait, as needs: read the fingerprint, observe, and check the postcondition
//! (`core::until`); while it does not hold, settle until the page moves away from that
//! fingerprint (or [`WAKE_MS`] pass, for a condition in what the fingerprint leaves out) and
//! look again, until the deadline. A sensitive value is compared by the page's keyed hash of
//! the expected value, asked of each candidate's document ([`Read::Hash`]).
//!
//! A wait acts on nothing: what it observed last is handed on ([`Run::seen`]). Its record
//! has no verdict: `ok` with the condition as `value` when it held, `POSTCONDITION_TIMEOUT`
//! when the deadline came first. The deadline counts the time the driver says it waited,
//! and the number of looks is bounded too, for a driver whose clock says no time passes.

use super::need::{Answer, Need, Read};
use super::record::Record;
use super::step::{Action, Step};
use super::{Mode, Phase, Policy, Run, Seen};
use crate::core::error::{Error, ErrorCode};
use crate::core::model::Snapshot;
use crate::core::until::Postcondition;
use serde::{Deserialize, Serialize};

/// A wait looks again at least this often (ms), even when the fingerprint did not move.
pub const WAKE_MS: u64 = 500;

/// Where a wait is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum At {
    /// Waiting for the fingerprint a look is taken at.
    Fingerprint,
    /// Waiting for the observation.
    Observe,
    /// Waiting for the keyed hash of the expected value in a candidate's document.
    Hash,
    /// Waiting for the page to move (or the wake-up).
    Settle,
}

/// What a wait carries between needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Waiting {
    until: Postcondition,
    timeout_ms: u64,
    /// The fingerprint the last observation was taken at.
    fingerprint: String,
    looks: u32,
    /// Refs of the last observation whose keyed hash is still to be asked.
    asking: Vec<String>,
    /// `(ref, keyed hash of the expected value)` of the last observation.
    hashes: Vec<(String, String)>,
}

impl Run {
    /// A run that waits until `until` holds, at most `timeout_ms` of the driver's time.
    pub fn wait(until: Postcondition, timeout_ms: u64, policy: Policy) -> Run {
        let mut run = Run::with_mode(Step::new(Action::watch()), policy, Mode::Wait);
        if let Postcondition::ValueEquals {
            value,
            sensitive: true,
            ..
        } = &until
        {
            let value = value.clone();
            run.add_secret(&value);
        }
        run.waiting = Some(Waiting {
            until,
            timeout_ms,
            fingerprint: String::new(),
            looks: 0,
            asking: Vec::new(),
            hashes: Vec::new(),
        });
        run
    }

    /// The last observation of a wait (what the page showed when it held, or at the
    /// deadline); `None` before the first, and for every other run.
    pub fn last_observation(&self) -> Option<&Snapshot> {
        let w = self.waiting.as_ref()?;
        (w.looks > 0).then_some(&self.attempt.after)
    }

    pub(super) fn begin_wait(&mut self) -> Need {
        self.attempts = 1;
        self.attempt = Default::default();
        self.attempt.left_ms = self.waiting.as_ref().map_or(0, |w| w.timeout_ms);
        self.look_again()
    }

    fn look_again(&mut self) -> Need {
        self.phase = Phase::Wait {
            at: At::Fingerprint,
        };
        self.ask(Need::Fingerprint {
            background: Default::default(),
        })
    }

    pub(super) fn on_wait(&mut self, at: At, answer: Answer) -> Need {
        let Some(w) = self.waiting.as_mut() else {
            return self.fail(Error::new(
                ErrorCode::Internal,
                "a wait without a condition",
            ));
        };
        match (at, answer) {
            (At::Fingerprint, Answer::Fingerprint { fingerprint }) => {
                w.fingerprint = fingerprint;
                self.phase = Phase::Wait { at: At::Observe };
                self.observe()
            }
            (At::Observe, Answer::Observed { snapshot }) => {
                w.looks += 1;
                w.hashes.clear();
                w.asking = match &w.until {
                    Postcondition::ValueEquals { .. } => w
                        .until
                        .candidates(&snapshot)
                        .into_iter()
                        .filter(|e| e.value_hash.is_some())
                        .map(|e| e.reference.clone())
                        .collect(),
                    _ => Vec::new(),
                };
                self.attempt.after = snapshot;
                self.next_hash()
            }
            // The document is being replaced: wait for it to move on, then look again.
            (At::Observe, Answer::Unavailable) => self.wait_for_move(),
            (At::Hash, Answer::Hash { hash }) => {
                if let Some(reference) = w.asking.pop() {
                    w.hashes.push((reference, hash));
                }
                self.next_hash()
            }
            // The candidate went away while asked: it holds no value.
            (At::Hash, Answer::Failed { .. }) => {
                w.asking.pop();
                self.next_hash()
            }
            (
                At::Settle,
                Answer::Settled {
                    fingerprint,
                    waited_ms,
                    ..
                },
            ) => {
                w.fingerprint = fingerprint;
                let a = &mut self.attempt;
                a.left_ms = a.left_ms.saturating_sub(waited_ms);
                self.phase = Phase::Wait { at: At::Observe };
                self.observe()
            }
            (_, Answer::Failed { error }) => self.fail(error),
            (_, other) => self.out_of_step(&other),
        }
    }

    /// Asks the keyed hash of the expected value in the next candidate's document, or checks
    /// the condition once every one is known.
    fn next_hash(&mut self) -> Need {
        let Some(w) = self.waiting.as_ref() else {
            return self.fail(Error::new(
                ErrorCode::Internal,
                "a wait without a condition",
            ));
        };
        if let (Some(reference), Postcondition::ValueEquals { value, .. }) =
            (w.asking.last(), &w.until)
        {
            let need = Need::Read {
                read: Read::Hash {
                    reference: reference.clone(),
                    value: value.clone(),
                },
            };
            self.phase = Phase::Wait { at: At::Hash };
            return self.ask(need);
        }
        let hashes = &w.hashes;
        let hash_of = |e: &crate::core::model::Element| {
            hashes
                .iter()
                .find(|(r, _)| *r == e.reference)
                .map(|(_, h)| h.clone())
        };
        if w.until.holds(&self.attempt.after, &hash_of) {
            return self.held();
        }
        self.wait_for_move()
    }

    /// Settles until the page leaves the fingerprint of the last look, at most [`WAKE_MS`],
    /// or ends the wait at the deadline.
    fn wait_for_move(&mut self) -> Need {
        let Some(w) = self.waiting.as_ref() else {
            return self.fail(Error::new(
                ErrorCode::Internal,
                "a wait without a condition",
            ));
        };
        let most_looks = w.timeout_ms / self.policy.timing.poll_ms.max(1) + 2;
        if self.attempt.left_ms == 0 || u64::from(w.looks) > most_looks {
            return self.timed_out();
        }
        self.phase = Phase::Wait { at: At::Settle };
        let since = Some(w.fingerprint.clone());
        let need = self.settle_need(since, self.attempt.left_ms.min(WAKE_MS), true);
        self.ask(need)
    }

    fn held(&mut self) -> Need {
        let Some(w) = self.waiting.as_ref() else {
            return self.fail(Error::new(
                ErrorCode::Internal,
                "a wait without a condition",
            ));
        };
        let condition = w.until.describe();
        self.seen = Some(Seen {
            fingerprint: w.fingerprint.clone(),
            snapshot: self.attempt.after.clone(),
            background: Default::default(),
        });
        let record = Record {
            action: "wait".into(),
            value: Some(condition.clone()),
            ok: true,
            reason: format!("held: {condition}"),
            attempts: 1,
            stable: true,
            ..Record::default()
        };
        self.finish(record)
    }

    fn timed_out(&mut self) -> Need {
        let Some(w) = self.waiting.as_ref() else {
            return self.fail(Error::new(
                ErrorCode::Internal,
                "a wait without a condition",
            ));
        };
        let (condition, timeout_ms) = (w.until.describe(), w.timeout_ms);
        let message = format!(
            "{condition} did not hold within {timeout_ms} ms; the action may still take effect late: \
             inspect the page before repeating it"
        );
        let record = Record {
            action: "wait".into(),
            value: Some(condition),
            reason: message.clone(),
            error: Some(Error::new(ErrorCode::PostconditionTimeout, message)),
            attempts: 1,
            ..Record::default()
        };
        self.finish(record)
    }
}
