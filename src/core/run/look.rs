//! A look: no action, only the settle before one and its observation, as needs. It is the
//! baseline a driver keeps when it opens a page or is asked for a snapshot, taken the way a
//! step would take it, so a page that changes by itself (a clock, a ticker, a carousel)
//! settles once what it does by itself is learnt, instead of holding the wait to the
//! deadline, and the next step starts from what was learnt ([`super::Seen`]).
//!
//! A page just opened may still be filling in, so a look learns a slot only once it has
//! changed in two pairs of observations ([`Background::observe_repeated`]); what it hands on
//! with the last observation of an earlier run it keeps.
//!
//! [`Background::observe_repeated`]: crate::core::background::Background::observe_repeated

use super::need::{Answer, Need};
use super::record::{background_lines, Record};
use super::step::{Action, Step};
use super::{Mode, Phase, Policy, Run, Seen, MAX_RESCANS};
use crate::core::model::Snapshot;

impl Run {
    /// A run that only settles and observes, to be handed the driver's last observation
    /// ([`Run::with_seen`]) and to hand on the next one ([`Run::seen`]). Its record has no
    /// verdict: `action` is `look`, `stable` says whether the page settled, `background`
    /// where it was seen changing by itself.
    pub fn look(policy: Policy) -> Run {
        Run::with_mode(Step::new(Action::watch()), policy, Mode::Look)
    }

    pub(super) fn begin_look(&mut self) -> Need {
        self.attempts = 1;
        self.attempt = Default::default();
        self.settle_before(true)
    }

    /// The observation after the settle: checked against the fingerprint the settle ended
    /// on before it is kept.
    pub(super) fn looked(&mut self, snapshot: Snapshot) -> Need {
        self.attempt.before = snapshot;
        self.phase = Phase::Looked;
        let background = self.attempt.background.clone();
        self.ask(Need::Fingerprint { background })
    }

    pub(super) fn on_looked(&mut self, answer: Answer) -> Need {
        match answer {
            Answer::Fingerprint { fingerprint } if fingerprint == self.attempt.fingerprint => {
                self.keep_look()
            }
            // The page moved between the settle and the observation (a clock ticked): the
            // observation is one more the page made by itself. Learn from it and settle
            // again, a few times at most, so that what is kept is one consistent pair.
            Answer::Fingerprint { fingerprint } => {
                self.rescans += 1;
                if self.rescans > MAX_RESCANS || self.attempt.left_ms == 0 {
                    self.attempt.fingerprint = fingerprint;
                    self.attempt.stable_before = false;
                    return self.keep_look();
                }
                let seen = std::mem::take(&mut self.attempt.before);
                self.learn(Some(seen));
                self.wait_before()
            }
            Answer::Failed { error } => self.fail(error),
            other => self.out_of_step(&other),
        }
    }

    /// Keeps the observation with its fingerprint and what was learnt, and ends the look.
    fn keep_look(&mut self) -> Need {
        let a = &self.attempt;
        self.seen = Some(Seen {
            fingerprint: a.fingerprint.clone(),
            snapshot: a.before.clone(),
            background: a.background.clone(),
        });
        let record = Record {
            action: "look".into(),
            ok: true,
            reason: if a.stable_before {
                "the page settled".into()
            } else {
                "the page did not settle before the deadline".into()
            },
            attempts: 1,
            stable: a.stable_before,
            background: background_lines(&a.background),
            ..Record::default()
        };
        self.finish(record)
    }
}
