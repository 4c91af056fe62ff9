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

use super::need::Need;
use super::record::{background_lines, Record};
use super::step::{Action, Step};
use super::{Mode, Policy, Run, Seen};
use crate::core::model::Snapshot;

impl Run {
    /// A run that only settles and observes, to be handed the driver's last observation
    /// ([`Run::with_seen`]) and to hand on the next one ([`Run::seen`]). Its record has no
    /// verdict: `action` is `look`, `stable` says whether the page settled, `background`
    /// where it was seen changing by itself.
    pub fn look(policy: Policy) -> Run {
        Run::with_mode(Step::new(Action::Watch), policy, Mode::Look)
    }

    pub(super) fn begin_look(&mut self) -> Need {
        self.attempts = 1;
        self.attempt = Default::default();
        self.settle_before(true)
    }

    /// The observation after the settle: kept with the fingerprint it was taken at.
    pub(super) fn looked(&mut self, snapshot: Snapshot) -> Need {
        let a = &self.attempt;
        self.seen = Some(Seen {
            fingerprint: a.fingerprint.clone(),
            snapshot,
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
