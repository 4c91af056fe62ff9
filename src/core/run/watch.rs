//! A watch, as needs: settle, observe, let the watched actions happen ([`Need::Act`]),
//! settle until the page has moved on from where it was and is quiet, observe, judge what
//! changed against the intent alone, then the ambiguous policy or the arbiter.
//!
//! A watch never undoes and never retries: what was watched was not the machine's to take
//! back. A failed watch ends with `VERIFICATION_FAILED` in its record like any failed step,
//! and a driver whose watch "never raises on a verdict" reads `ok` instead. A watch that
//! replaced the document is judged on the new one (the navigation rule is for the
//! machine's own input). The learnt background does not apply: everything that changed
//! while watching may be the watched actions' doing.

use super::need::{Answer, Need};
use super::record::Record;
use super::{Phase, Run, MAX_RESCANS};
use crate::core::error::{Error, ErrorCode};
use serde::{Deserialize, Serialize};

/// Where a watch is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum At {
    /// Waiting for the settle before.
    Quiet,
    /// Waiting for the observation before.
    Before,
    /// Waiting for the watched actions.
    Acting,
    /// Waiting for the settle after (since the fingerprint before).
    Settling,
    /// Waiting for the observation after.
    After,
}

impl Run {
    /// Starts a watch.
    pub(super) fn begin_watch(&mut self) -> Need {
        self.attempts = 1;
        self.attempt = Default::default();
        self.seen = None;
        self.phase = Phase::Watch { at: At::Quiet };
        self.watch_settle(None)
    }

    fn watch_settle(&mut self, since: Option<String>) -> Need {
        let need = self.settle_need(since, self.policy.timing.timeout_ms, false);
        self.ask(need)
    }

    /// The document was being replaced: settle and look again, a few times at most.
    fn watch_again(&mut self, at: At) -> Need {
        self.rescans += 1;
        if self.rescans > MAX_RESCANS {
            return self.fail(Error::new(
                ErrorCode::StaleObservation,
                "the document kept being replaced while watching; nothing could be judged",
            ));
        }
        let (settle, since) = match at {
            At::Before => (At::Quiet, None),
            _ => (At::Settling, Some(self.attempt.fp0.clone())),
        };
        self.phase = Phase::Watch { at: settle };
        self.watch_settle(since)
    }

    pub(super) fn on_watch(&mut self, at: At, answer: Answer) -> Need {
        match (at, answer) {
            (
                At::Quiet,
                Answer::Settled {
                    fingerprint,
                    stable,
                    ..
                },
            ) => {
                self.attempt.fp0 = fingerprint;
                self.attempt.stable_before = stable;
                self.phase = Phase::Watch { at: At::Before };
                self.observe()
            }
            (At::Before, Answer::Observed { snapshot }) => {
                self.attempt.before = snapshot;
                self.phase = Phase::Watch { at: At::Acting };
                self.ask(Need::Act)
            }
            (At::Acting, Answer::Acted { steps }) => {
                self.attempt.watched = steps;
                self.dispatched = true;
                self.phase = Phase::Watch { at: At::Settling };
                let since = Some(self.attempt.fp0.clone());
                self.watch_settle(since)
            }
            (
                At::Settling,
                Answer::Settled {
                    fingerprint,
                    stable,
                    ..
                },
            ) => {
                self.attempt.fingerprint = fingerprint;
                self.attempt.stable_after = stable;
                self.phase = Phase::Watch { at: At::After };
                self.observe()
            }
            (At::After, Answer::Observed { snapshot }) => {
                self.attempt.after = snapshot;
                self.judge_attempt()
            }
            (at @ (At::Before | At::After), Answer::Unavailable) => self.watch_again(at),
            (_, Answer::Failed { error }) => self.fail(error),
            (_, other) => self.out_of_step(&other),
        }
    }

    /// The decision on a watch: its record, failed without an undo when not `ok`.
    pub(super) fn watched(&mut self, ok: bool) -> Need {
        let mut record: Record = self.outcome_record(ok);
        let steps = self.attempt.watched;
        if steps > 0 {
            let plural = if steps == 1 { "" } else { "s" };
            record.value = Some(format!("{steps} step{plural} performed unverified"));
        }
        if ok {
            return self.finish(record);
        }
        self.fail_verification(record)
    }
}
