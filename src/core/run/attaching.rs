//! A target not found while a frame of the page is still out of reach.
//!
//! A frame of another origin is read by its own engine, once the browser has attached to
//! it; until then the snapshot shows its `iframe` element as opaque. A frame nested in
//! another process attaches through its parent's session, so right after a load it can
//! lag behind the page around it. A target that is not found while such a frame is on the
//! page may be inside it: rather than failing at once, the run waits for the page to change
//! (a frame attaching changes the merged fingerprint), then observes and resolves again,
//! within the step's timeout. A page that does not change before the timeout ends the step
//! with the error resolve gave. Nothing was dispatched meanwhile.

use super::need::{Answer, Need};
use super::{Phase, Run};
use crate::core::error::{Error, ErrorCode};
use crate::core::model::Role;

/// At most this many looks while a frame attaches (a bound the timeout also keeps).
pub const MAX_ATTACHING_LOOKS: u32 = 20;

impl Run {
    /// Is a frame of the page still out of reach, so that `missing` may be inside it?
    fn frame_out_of_reach(&self, missing: &Error) -> bool {
        missing.code == ErrorCode::TargetNotFound
            && self
                .attempt
                .before
                .elements
                .iter()
                .any(|e| e.opaque && e.role == Role::Iframe)
    }

    /// Fails with `missing`, or first waits for an out-of-reach frame to attach.
    pub(super) fn not_found(&mut self, missing: Error) -> Need {
        let a = &self.attempt;
        let left = self.policy.timing.timeout_ms.saturating_sub(a.attaching_ms);
        if !self.frame_out_of_reach(&missing)
            || left == 0
            || a.attaching_looks >= MAX_ATTACHING_LOOKS
        {
            return self.fail(missing);
        }
        self.attempt.attaching_looks += 1;
        let since = Some(self.attempt.fingerprint.clone());
        self.phase = Phase::Attaching {
            missing: Box::new(missing),
        };
        let need = self.settle_need(since, left, false);
        self.ask(need)
    }

    pub(super) fn on_attaching(&mut self, missing: Error, answer: Answer) -> Need {
        match answer {
            Answer::Settled {
                fingerprint,
                changed,
                waited_ms,
                ..
            } => {
                let a = &mut self.attempt;
                a.attaching_ms += waited_ms.max(self.policy.timing.poll_ms);
                a.fingerprint = fingerprint;
                if changed {
                    self.observe_before(false)
                } else {
                    self.fail(missing)
                }
            }
            Answer::Failed { error } => self.fail(error),
            other => self.out_of_step(&other),
        }
    }
}
