//! A wheel turn at a point (`Action::ScrollAt`), as needs: check that the point still shows
//! what the observation showed there ([`super::locate`]; `TARGET_CHANGED` and nothing sent
//! otherwise), find the scroll container under it and where it stands ([`Read::Scroll`]),
//! turn the wheel, and wait until the container stops moving. A document being replaced right
//! before the wheel gets none: the machine settles and checks the point again, as before other
//! input.
//!
//! **When a scroll is over.** Wheel scrolling may animate, and the fingerprint does not hash
//! scroll positions, so the settle alone cannot say. The machine settles and reads the
//! position again, until two reads in a row agree: the first wait after the wheel lasts at
//! least a quiet window (it waits for the fingerprint to leave its value before the wheel,
//! so a scroll that starts late still shows), each later one a quiet window of the page's
//! own (a scroll event is a sign of change), all within the step's deadline in the driver's
//! time. A container that never left its position did not move: the record says so, and
//! that is no failure (the end of a list, or nothing there scrolls).
//!
//! A scroll is not judged: what it should show is stated by the step after it. It acts on
//! the page, so nothing is handed on as the next run's starting point.

use super::need::{Answer, Gesture, Need, Read, ScrollPosition};
use super::record::Record;
use super::step::Action;
use super::{Phase, Run};
use crate::core::error::{Error, ErrorCode};
use crate::core::model::Element;
use serde::{Deserialize, Serialize};

/// Where a scroll is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum At {
    /// Waiting for the element under the point.
    Locate,
    /// Waiting for the container under the point and its position.
    Container,
    /// Waiting for the fingerprint before the wheel.
    Fingerprint,
    /// The document was being replaced right before the wheel: waiting for it to settle,
    /// then the point is checked again.
    Resettle,
    /// Waiting for the wheel to be sent.
    Wheel,
    /// Waiting for a settle after the wheel.
    Settling,
    /// Waiting for the position after a settle.
    Position,
}

/// A scroll's container and where it stood.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Scrolling {
    container: String,
    before: ScrollPosition,
    /// The position at the last read.
    last: ScrollPosition,
    /// Two reads in a row agreed before the deadline.
    still: bool,
}

/// What a scroll did to the container under the pointer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scrolled {
    /// `the page`, or the container, e.g. `div#scroller in list[Rows]`.
    pub container: String,
    pub before: ScrollPosition,
    pub after: ScrollPosition,
    /// The container's scroll position changed.
    pub moved: bool,
}

/// Did the container's own position change?
fn moved(before: &ScrollPosition, after: &ScrollPosition) -> bool {
    before.left != after.left || before.top != after.top
}

/// `(0, 300)`.
fn place(p: &ScrollPosition) -> String {
    format!("({:.0}, {:.0})", p.left, p.top)
}

impl Run {
    /// What a scroll did, once it is over; `None` for every other run, and for a scroll
    /// that stopped before the wheel.
    pub fn scrolled(&self) -> Option<Scrolled> {
        let s = self
            .scrolling
            .as_ref()
            .filter(|_| self.is_done() && self.dispatched)?;
        let bare = |p: &ScrollPosition| ScrollPosition {
            container: None,
            ..p.clone()
        };
        Some(Scrolled {
            container: s.container.clone(),
            before: bare(&s.before),
            after: bare(&s.last),
            moved: moved(&s.before, &s.last),
        })
    }

    fn scroll_point(&self) -> Option<(super::Point, f64, f64, Option<&Element>)> {
        match &self.step.action {
            Action::ScrollAt {
                at,
                dx,
                dy,
                expected,
                ..
            } => Some((*at, *dx, *dy, expected.as_deref())),
            _ => None,
        }
    }

    pub(super) fn begin_scroll(&mut self) -> Need {
        let Some((at, ..)) = self.scroll_point() else {
            return self.fail(Error::new(ErrorCode::Internal, "a scroll without a point"));
        };
        self.attempts = 1;
        self.attempt = Default::default();
        self.attempt.left_ms = self.policy.timing.timeout_ms;
        self.rescans = 0;
        self.seen = None;
        self.phase = Phase::Scroll { at: At::Locate };
        self.locate(at)
    }

    pub(super) fn on_scroll(&mut self, at: At, answer: Answer) -> Need {
        let Some((point, dx, dy, expected)) = self.scroll_point() else {
            return self.fail(Error::new(ErrorCode::Internal, "a scroll without a point"));
        };
        match (at, answer) {
            (At::Locate, Answer::Under { element }) => {
                let what = "nothing was scrolled";
                if let Some(error) = super::screen::changed(point, expected, element.as_ref(), what)
                {
                    return self.fail(error);
                }
                self.attempt.target = element;
                self.phase = Phase::Scroll { at: At::Container };
                self.ask(Need::Read {
                    read: Read::Scroll { at: Some(point) },
                })
            }
            (At::Container, Answer::Position { position: Some(p) }) => {
                self.scrolling = Some(Scrolling {
                    container: p.container.clone().unwrap_or_else(|| "the page".to_owned()),
                    before: p.clone(),
                    last: p,
                    still: false,
                });
                self.phase = Phase::Scroll {
                    at: At::Fingerprint,
                };
                self.ask(Need::Fingerprint {
                    background: Default::default(),
                })
            }
            (At::Container, Answer::Position { position: None }) => self.fail(Error::new(
                ErrorCode::BrowserError,
                "no scroll container could be found under the point; nothing was scrolled",
            )),
            // The document is being replaced right before the wheel: nothing is sent into it;
            // settled, and the point checked again on the page that comes, as before other
            // input (at most `MAX_RESCANS` times, then `STALE_OBSERVATION`).
            (At::Fingerprint, Answer::Fingerprint { fingerprint })
                if fingerprint == super::quiet::UNREACHABLE =>
            {
                self.rescans += 1;
                if self.rescans > super::MAX_RESCANS {
                    return self.fail(super::attempt::replaced_before());
                }
                self.phase = Phase::Scroll { at: At::Resettle };
                let need = self.settle_need(None, self.attempt.left_ms, false);
                self.ask(need)
            }
            (At::Resettle, Answer::Settled { waited_ms, .. }) => {
                let a = &mut self.attempt;
                a.left_ms = a.left_ms.saturating_sub(waited_ms);
                self.phase = Phase::Scroll { at: At::Locate };
                self.locate(point)
            }
            (At::Fingerprint, Answer::Fingerprint { fingerprint }) => {
                self.attempt.fp0 = fingerprint;
                self.dispatched = true;
                self.phase = Phase::Scroll { at: At::Wheel };
                self.ask(Need::Input {
                    gesture: Gesture::Wheel { at: point, dx, dy },
                })
            }
            (At::Wheel, Answer::Sent) => {
                // At least a quiet window, unless the page changes first.
                let t = self.policy.timing;
                let window = t.quiet_ms.max(t.poll_ms).min(self.attempt.left_ms);
                let since = Some(self.attempt.fp0.clone());
                self.phase = Phase::Scroll { at: At::Settling };
                let need = self.settle_need(since, window, false);
                self.ask(need)
            }
            (
                At::Settling,
                Answer::Settled {
                    stable, waited_ms, ..
                },
            ) => {
                let a = &mut self.attempt;
                a.left_ms = a.left_ms.saturating_sub(waited_ms);
                a.stable_after = stable;
                self.phase = Phase::Scroll { at: At::Position };
                self.ask(Need::Read {
                    read: Read::Scroll { at: None },
                })
            }
            (At::Position, Answer::Position { position }) => {
                let Some(s) = self.scrolling.as_mut() else {
                    return self.fail(Error::new(
                        ErrorCode::Internal,
                        "a scroll without a container",
                    ));
                };
                match position {
                    Some(p) if !p.same_place(&s.last) => {
                        s.last = p;
                        if self.attempt.left_ms == 0 {
                            return self.scroll_over();
                        }
                        self.phase = Phase::Scroll { at: At::Settling };
                        let need = self.settle_need(None, self.attempt.left_ms, false);
                        self.ask(need)
                    }
                    // Where it stood at the last read: it has stopped.
                    Some(_) => {
                        s.still = true;
                        self.scroll_over()
                    }
                    // No container any more: a new document, which ends the scroll too.
                    None => self.scroll_over(),
                }
            }
            (_, Answer::Failed { error }) => self.fail(error),
            (_, other) => self.out_of_step(&other),
        }
    }

    fn scroll_over(&mut self) -> Need {
        let Some(done) = self.scrolling.as_ref() else {
            return self.fail(Error::new(
                ErrorCode::Internal,
                "a scroll without a container",
            ));
        };
        let (b, l) = (&done.before, &done.last);
        let (before, after) = (place(b), place(l));
        let mut reason = if moved(b, l) {
            format!("{} scrolled from {before} to {after}", done.container)
        } else {
            format!(
                "{} did not move: it stays at {before} (the end of its content, or nothing there scrolls)",
                done.container
            )
        };
        if done.container != "the page" && (b.page_left, b.page_top) != (l.page_left, l.page_top) {
            reason.push_str(&format!(
                "; the page scrolled from ({:.0}, {:.0}) to ({:.0}, {:.0})",
                b.page_left, b.page_top, l.page_left, l.page_top
            ));
        }
        let reason = if done.still {
            reason
        } else {
            format!("{reason}; it was still moving at the deadline")
        };
        let record = Record {
            action: self.step.action.name().into(),
            target: Some(done.container.clone()),
            value: self.step.action.shown_value(None),
            ok: true,
            reason,
            attempts: 1,
            stable: self.attempt.stable_after && done.still,
            ..Record::default()
        };
        self.finish(record)
    }
}
