//! A coordinate step's observation: the screenshot and the hit boxes behind it, as needs.
//!
//! Every driver observes the same way for its coordinate steps ([`Run::shot`]):
//! - with `settle`, the page settles first (a quiet window, [`Need::Settle`]); whether it
//!   did is remembered;
//! - the page's fingerprint is read ([`Need::Fingerprint`]), the viewport captured
//!   ([`Need::Capture`]: the driver takes the picture, its secrets covered, and keeps it),
//!   the hit boxes of every root gathered in the top viewport (`super::across`), and the
//!   fingerprint read again;
//! - while the two fingerprints differ the page changed during the capture: it is taken
//!   again, at most [`CAPTURE_TRIES`](super::capture::CAPTURE_TRIES) times in all
//!   ([`captured`]); the last is kept, stable only when the page had settled and did not
//!   change during it.
//!
//! The run ends with a record of action `screenshot` (no verdict; a failure in `error`) and
//! the observation's boxes and stability ([`Run::shot`]); the picture stays with the driver.

use serde::{Deserialize, Serialize};

use super::across::{Gathered, Gathering};
use super::capture::{captured, Capture};
use super::hitbox::HitBox;
use super::need::{Answer, Need};
use super::record::Record;
use super::step::{Action, Step};
use super::{Mode, Phase, Policy, Run};

/// Which answer the observation waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "stage",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub(super) enum At {
    Settle,
    Before,
    Capture,
    Boxes { gathering: Box<Gathering> },
    After,
}

/// What an observation for coordinate steps found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Shot {
    /// The hit boxes of every root behind the picture kept, in top-viewport CSS pixels and
    /// the page's terms.
    pub boxes: Vec<HitBox>,
    /// The page had settled and did not change during the capture kept.
    pub stable: bool,
    /// The page settled first (or was not asked to).
    settled: bool,
    tries: u32,
    before: String,
}

impl Run {
    /// A run that observes the page for coordinate steps (see the module docs), settling it
    /// first with `settle`.
    pub fn shot(policy: Policy, settle: bool) -> Run {
        Run::with_mode(Step::new(Action::watch()), policy, Mode::Shot { settle })
    }

    /// What the observation found, once it is over without a failure; `None` for every other
    /// run.
    pub fn shot_taken(&self) -> Option<&Shot> {
        self.shot
            .as_ref()
            .filter(|_| self.is_done() && matches!(self.mode, Mode::Shot { .. }))
    }

    pub(super) fn begin_shot(&mut self, settle: bool) -> Need {
        self.attempts = 1;
        self.attempt = Default::default();
        self.shot = Some(Shot {
            settled: true,
            ..Shot::default()
        });
        if !settle {
            return self.shot_before();
        }
        let t = self.policy.timing;
        self.phase = Phase::Shot { at: At::Settle };
        self.ask(Need::Settle {
            since: None,
            poll_ms: t.poll_ms,
            quiet_ms: t.quiet_ms,
            timeout_ms: t.timeout_ms,
            stop_on_change: false,
            background: Default::default(),
            quick_ms: 0,
            claims: false,
        })
    }

    fn shot_before(&mut self) -> Need {
        self.phase = Phase::Shot { at: At::Before };
        self.ask(Need::Fingerprint {
            background: Default::default(),
        })
    }

    pub(super) fn on_shot(&mut self, at: At, answer: Answer) -> Need {
        let shot = self.shot.get_or_insert_with(Shot::default);
        match (at, answer) {
            (At::Settle, Answer::Settled { stable, .. }) => {
                shot.settled = stable;
                self.shot_before()
            }
            (At::Before, Answer::Fingerprint { fingerprint }) => {
                shot.before = fingerprint;
                shot.tries += 1;
                self.phase = Phase::Shot { at: At::Capture };
                self.ask(Need::Capture)
            }
            (At::Capture, Answer::Captured) => self.shot_boxes(Gathering::start(None, None)),
            (At::Boxes { gathering }, a) => self.shot_boxes(gathering.on(a)),
            (At::After, Answer::Fingerprint { fingerprint }) => {
                let kept = captured(&Capture {
                    tries: shot.tries,
                    before: std::mem::take(&mut shot.before),
                    after: fingerprint,
                    settled: shot.settled,
                });
                if kept.again {
                    return self.shot_before();
                }
                shot.stable = kept.stable;
                let record = Record {
                    action: "screenshot".into(),
                    ok: true,
                    reason: if kept.stable {
                        "the page was captured settled".into()
                    } else {
                        "the page was captured while it changed".into()
                    },
                    attempts: 1,
                    stable: kept.stable,
                    ..Record::default()
                };
                self.finish(record)
            }
            (_, Answer::Failed { error }) => {
                self.shot = None;
                self.fail(error)
            }
            (_, other) => {
                self.shot = None;
                self.out_of_step(&other)
            }
        }
    }

    fn shot_boxes(&mut self, gathered: Gathered) -> Need {
        match gathered {
            Gathered::Ask(gathering, need) => {
                self.phase = Phase::Shot {
                    at: At::Boxes { gathering },
                };
                self.ask(need)
            }
            Gathered::Done(boxes) => {
                if let Some(shot) = &mut self.shot {
                    shot.boxes = boxes;
                }
                self.phase = Phase::Shot { at: At::After };
                self.ask(Need::Fingerprint {
                    background: Default::default(),
                })
            }
            Gathered::Ended(answer) => {
                self.shot = None;
                match answer {
                    Answer::Failed { error } => self.fail(error),
                    other => self.out_of_step(&other),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::{Error, ErrorCode};
    use crate::core::model::{Element, Role};
    use crate::core::run::need::Read;

    fn fp(f: &str) -> Answer {
        Answer::Fingerprint {
            fingerprint: f.into(),
        }
    }

    fn boxes() -> Answer {
        Answer::HitBoxes {
            boxes: vec![HitBox {
                element: Element {
                    role: Role::Button,
                    name: "Save".into(),
                    ..Element::default()
                },
                x: 1.0,
                y: 2.0,
                width: 3.0,
                height: 4.0,
                topmost: true,
            }],
        }
    }

    /// Answers a capture's needs from the fingerprint before on, the page at `before` and
    /// `after` around it; returns the need that follows.
    fn capture(run: &mut Run, before: &str, after: &str) -> Need {
        assert_eq!(run.next(fp(before)), Need::Capture);
        assert_eq!(run.next(Answer::Captured), Need::Read { read: Read::Roots });
        let need = run.next(Answer::Roots {
            paths: vec!["".into()],
        });
        assert_eq!(
            need,
            Need::Read {
                read: Read::HitBoxes { path: "".into() }
            }
        );
        assert!(matches!(run.next(boxes()), Need::Fingerprint { .. }));
        run.next(fp(after))
    }

    #[test]
    fn a_settled_page_is_captured_once_with_its_boxes() {
        let mut run = Run::shot(Policy::default(), true);
        let settle = run.next(Answer::Start);
        assert!(
            matches!(
                settle,
                Need::Settle {
                    since: None,
                    stop_on_change: false,
                    ..
                }
            ),
            "{settle:?}"
        );
        let need = run.next(Answer::Settled {
            fingerprint: "a".into(),
            stable: true,
            changed: false,
            waited_ms: 250,
        });
        assert!(matches!(need, Need::Fingerprint { .. }));
        let Need::Done { record } = capture(&mut run, "a", "a") else {
            panic!("done")
        };
        assert!(
            record.ok && record.stable && record.error.is_none(),
            "{record:?}"
        );
        assert_eq!(record.action, "screenshot");
        let shot = run.shot_taken().expect("the observation");
        assert!(shot.stable);
        assert_eq!(shot.boxes.len(), 1);
    }

    #[test]
    fn a_page_that_changes_is_captured_again_three_times_at_most() {
        let mut run = Run::shot(Policy::default(), false);
        assert!(matches!(run.next(Answer::Start), Need::Fingerprint { .. }));
        assert!(matches!(
            capture(&mut run, "a", "b"),
            Need::Fingerprint { .. }
        ));
        assert!(matches!(
            capture(&mut run, "b", "c"),
            Need::Fingerprint { .. }
        ));
        let Need::Done { record } = capture(&mut run, "c", "d") else {
            panic!("kept after three")
        };
        assert!(record.ok && !record.stable, "{record:?}");
        assert!(!run.shot_taken().expect("kept").stable);
    }

    #[test]
    fn a_failure_ends_the_observation_with_its_error() {
        let mut run = Run::shot(Policy::default(), false);
        run.next(Answer::Start);
        run.next(fp("a"));
        let Need::Done { record } = run.next(Answer::Failed {
            error: Error::new(ErrorCode::BrowserError, "no screenshot"),
        }) else {
            panic!("done")
        };
        assert_eq!(record.error.map(|e| e.code), Some(ErrorCode::BrowserError));
        assert!(run.shot_taken().is_none(), "nothing found");
    }
}
