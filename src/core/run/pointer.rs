//! Pointer steps: the target is what lies under a point of an observation.
//!
//! Right before input, the element under the point is asked again ([`super::locate`]). When
//! it is not the one the observation showed there (a cookie banner slid in, a row was
//! recycled) the step stops with `TARGET_CHANGED` and nothing is pressed; the check runs
//! before the pointer moves and again once it is there. A retry after a verified undo checks
//! the point first: when it now shows something else, the retry is not made and the undone
//! `VERIFICATION_FAILED` is what the step reports. A point no observable element covers
//! gives nothing to judge against: AMBIGUOUS, which only the policy or the arbiter may pass,
//! and never undone (nothing says what the input was meant to do, so nothing says what to
//! take back).

use super::need::{Answer, Gesture, Need, Point};
use super::step::Action;
use super::{Phase, Run};
use crate::core::error::{Error, ErrorCode};
use crate::core::identity::Identity;
use crate::core::model::Element;
use serde::{Deserialize, Serialize};

/// Which point is being located.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum Spot {
    /// The point acted on, before the pointer moves.
    From,
    /// A drag's destination point.
    To,
    /// The point acted on, with the pointer in place.
    Again,
}

/// The same field: same identity, and the same node when both refs are known.
pub(super) fn same_field(a: &Element, b: &Element) -> bool {
    Identity::of(a) == Identity::of(b)
        && (a.reference.is_empty() || b.reference.is_empty() || a.reference == b.reference)
}

impl Run {
    fn origin(&self) -> (Point, Option<&Element>) {
        match &self.step.action {
            Action::ClickAt { at, expected, .. } => (*at, expected.as_deref()),
            Action::DragAt { from, expected, .. } => (*from, expected.as_deref()),
            _ => (Point { x: 0.0, y: 0.0 }, None),
        }
    }

    pub(super) fn locate_from(&mut self) -> Need {
        self.phase = Phase::Locate { spot: Spot::From };
        let at = self.origin().0;
        self.locate(at)
    }

    pub(super) fn locate_again(&mut self) -> Need {
        self.phase = Phase::Locate { spot: Spot::Again };
        let at = self.origin().0;
        self.locate(at)
    }

    fn arrive(&mut self) -> Need {
        self.phase = Phase::Arrive;
        let at = self.origin().0;
        self.ask(Need::Input {
            gesture: Gesture::MoveTo { at },
        })
    }

    pub(super) fn on_locate(&mut self, spot: Spot, answer: Answer) -> Need {
        let now = match answer {
            Answer::Under { element } => element,
            Answer::Failed { error } => return self.fail_pointer(error),
            other => return self.out_of_step(&other),
        };
        let (at, expected) = match (spot, &self.step.action) {
            (
                Spot::To,
                Action::DragAt {
                    to, expected_to, ..
                },
            ) => (*to, expected_to.as_deref().cloned()),
            _ => {
                let (at, expected) = self.origin();
                (at, expected.cloned())
            }
        };
        let what = match self.step.action {
            Action::DragAt { .. } => "nothing was dragged",
            _ => "nothing was clicked",
        };
        if let Some(error) = super::screen::changed(at, expected.as_ref(), now.as_ref(), what) {
            return self.fail_pointer(error);
        }
        match spot {
            Spot::From if matches!(self.step.action, Action::DragAt { .. }) => {
                self.phase = Phase::Locate { spot: Spot::To };
                let Action::DragAt { to, .. } = &self.step.action else {
                    unreachable!("matched above");
                };
                let at = *to;
                self.locate(at)
            }
            Spot::From => self.arrive(),
            Spot::To => {
                self.attempt.to = now;
                self.arrive()
            }
            Spot::Again => {
                // The element acted on, as the before snapshot knows it.
                self.attempt.target = now.map(|n| {
                    self.attempt
                        .before
                        .elements
                        .iter()
                        .find(|e| e.reference == n.reference)
                        .cloned()
                        .unwrap_or(n)
                });
                self.fingerprint0()
            }
        }
    }

    /// A pointer step that cannot go on. On a retry whose point now shows something else,
    /// the undone failure of the attempt before is reported instead.
    fn fail_pointer(&mut self, error: Error) -> Need {
        match self.failed.take() {
            Some(mut record) if error.code == ErrorCode::TargetChanged => {
                record.reason = format!("{}; not retried: {error}", record.reason);
                record.error = Some(Error::new(ErrorCode::VerificationFailed, record.summary()));
                self.seen = None;
                self.finish(record)
            }
            _ => self.fail(error),
        }
    }

    /// A pointer click on a field that now holds the focus: its effect is already there.
    pub(super) fn focus_taken(&self) -> bool {
        let a = &self.attempt;
        match (&a.target, &a.focus) {
            (Some(t), Some(f)) => t.role.has_value() && same_field(t, f),
            _ => false,
        }
    }
}
