//! A drag (`Action::Drag`, `Action::DragAt`) as the machine drives it: the button goes down
//! at the start ([`Gesture::Down`], the step's input), the pointer moves along [`path`] one
//! [`Gesture::MoveTo`] at a time, and the button comes up over the destination
//! ([`Gesture::Up`]).
//!
//! - After every move the destination element (the one resolved for a semantic drag, the
//!   one under the destination point for a pointer drag) is described again
//!   ([`Need::Describe`]); one that now shows something else, or left the page, ends the
//!   step with `TARGET_CHANGED`: the same rule for both, since both know the destination's
//!   reference, and a drop on something else is never the drop that was asked for.
//! - Once the button is down it comes up whatever happens: a need that fails during the
//!   drag (a move, a describe) or a destination that changed is followed by the release over
//!   the drag's start, which abandons the drag, and only then does the step end with the
//!   error. Drivers keep their own safety net besides.

use super::need::{Answer, Button, Gesture, Need, Point};
use super::step::Action;
use super::{Phase, Run};
use crate::core::error::{Error, ErrorCode};
use crate::core::identity::{describe_element, Identity};
use crate::core::model::Element;
use serde::{Deserialize, Serialize};

/// How many moves a semantic drag takes from its start to its destination.
pub const SEMANTIC_STEPS: u32 = 10;

/// The points a drag moves through: `steps` (at least one) evenly spaced, the start left
/// out, the destination last.
pub fn path(from: Point, to: Point, steps: u32) -> Vec<Point> {
    let n = steps.max(1);
    (1..=n)
        .map(|i| {
            let t = f64::from(i) / f64::from(n);
            Point {
                x: from.x + (to.x - from.x) * t,
                y: from.y + (to.y - from.y) * t,
            }
        })
        .collect()
}

/// Where a drag is, once the button is down.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "at", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub(super) enum At {
    /// Waiting for move `index` (0-based) to be sent.
    Move { index: u32 },
    /// Waiting for the destination's live record after move `index`.
    Check { index: u32 },
    /// Waiting for the drop.
    Up,
    /// Waiting for the release over the start; the step then ends with `error`.
    Abandon { error: Box<Error> },
}

impl Run {
    /// The drag's start, destination and number of moves.
    fn drag_line(&self) -> (Point, Point, u32) {
        let a = &self.attempt;
        let origin = Point { x: 0.0, y: 0.0 };
        match &self.step.action {
            Action::DragAt {
                from, to, steps, ..
            } => (*from, *to, *steps),
            _ => {
                let from = a.point.unwrap_or(origin);
                (from, a.to_point.unwrap_or(from), SEMANTIC_STEPS)
            }
        }
    }

    /// The step's input: the button down at the drag's start.
    pub(super) fn drag_down(&self) -> Gesture {
        Gesture::Down {
            at: self.drag_line().0,
            button: Button::Left,
        }
    }

    /// The button is down: the first move.
    pub(super) fn drag_pressed(&mut self) -> Need {
        self.drag_move(0)
    }

    fn drag_move(&mut self, index: u32) -> Need {
        let (from, to, steps) = self.drag_line();
        let Some(at) = path(from, to, steps).get(index as usize).copied() else {
            return self.drag_up();
        };
        self.phase = Phase::Drag {
            at: At::Move { index },
        };
        self.ask(Need::Input {
            gesture: Gesture::MoveTo { at },
        })
    }

    fn drag_up(&mut self) -> Need {
        self.phase = Phase::Drag { at: At::Up };
        self.ask(Need::Input {
            gesture: Gesture::Up {
                at: self.drag_line().1,
                button: Button::Left,
            },
        })
    }

    /// A need failed or the destination changed with the button down: release over the
    /// start, then end with `error`.
    pub(super) fn drag_abandon(&mut self, error: Error) -> Need {
        let at = self.drag_line().0;
        self.phase = Phase::Drag {
            at: At::Abandon {
                error: Box::new(error),
            },
        };
        self.ask(Need::Input {
            gesture: Gesture::Up {
                at,
                button: Button::Left,
            },
        })
    }

    /// The destination whose identity must hold during the drag, when one is known.
    fn drag_destination(&self) -> Option<&Element> {
        self.attempt.to.as_ref().filter(|e| !e.reference.is_empty())
    }

    pub(super) fn on_drag(&mut self, at: At, answer: Answer) -> Need {
        match (at, answer) {
            (At::Move { index }, Answer::Sent) => match self.drag_destination() {
                Some(to) => {
                    let reference = to.reference.clone();
                    self.phase = Phase::Drag {
                        at: At::Check { index },
                    };
                    self.ask(Need::Describe { reference })
                }
                None => self.drag_move(index + 1),
            },
            (At::Check { index }, Answer::Described { element }) => {
                match self.destination_changed(index, element.as_ref()) {
                    Some(error) => self.drag_abandon(error),
                    None => self.drag_move(index + 1),
                }
            }
            (At::Up, Answer::Sent) => self.settle_after(),
            (At::Abandon { error }, _) => self.fail(*error),
            (At::Up, Answer::Failed { error }) => self.fail(error),
            (At::Move { .. } | At::Check { .. }, Answer::Failed { error }) => {
                self.drag_abandon(error)
            }
            (At::Move { .. } | At::Check { .. }, other) => {
                let error = Error::new(
                    ErrorCode::Internal,
                    format!("the answer {:?} does not fit a drag's move", other.name()),
                );
                self.drag_abandon(error)
            }
            (_, other) => self.out_of_step(&other),
        }
    }

    /// `TARGET_CHANGED` when the destination no longer shows what it showed (or is gone)
    /// after move `index`.
    fn destination_changed(&self, index: u32, live: Option<&Element>) -> Option<Error> {
        let want = self.drag_destination()?;
        if live.is_some_and(|e| Identity::of(e) == Identity::of(want)) {
            return None;
        }
        let now = match live {
            Some(e) => format!("now shows {}", describe_element(e)),
            None => "left the page".to_owned(),
        };
        Some(Error::new(
            ErrorCode::TargetChanged,
            format!(
                "the drag's destination {} {now} after move {} of the drag; the button was released and the drag abandoned",
                describe_element(want),
                index + 1
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_ends_at_the_destination() {
        let p = path(Point { x: 0.0, y: 0.0 }, Point { x: 10.0, y: 20.0 }, 4);
        assert_eq!(p.len(), 4);
        assert_eq!(p[0], Point { x: 2.5, y: 5.0 });
        assert_eq!(p[3], Point { x: 10.0, y: 20.0 });
        assert_eq!(path(p[0], p[0], 0).len(), 1, "at least one move");
    }
}
