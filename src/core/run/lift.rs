//! A target in a frame root made ready across the documents above it.
//!
//! A driver prepares a ref in the root the ref names ([`Need::Prepare`]), so its point is in
//! that frame's own viewport and its hit test looked at that document only. When the ref is
//! in a frame, the machine then, in one order for every driver:
//! - asks for the page's roots ([`super::Read::Roots`]) and where the frame and each frame
//!   root around it show ([`Need::Frame`]: the `<iframe>` content boxes, top down, in the
//!   top viewport, and the top viewport), and moves the point by the frame's origin; a frame
//!   on the way that is no longer there is `STALE_REFERENCE`;
//! - a point outside the top viewport or outside the box of any frame on the way is out of
//!   view: the frame is scrolled into view ([`Need::RevealFrame`]) and the step observes
//!   again, as for a target scrolled in its own document;
//! - with a hit test, asks each document from the top down whether input at the point
//!   reaches the next frame's `<iframe>` ([`Need::HitFrame`], the point in that document's
//!   viewport); the first that does not is the refusal, `TARGET_OBSCURED`, at the point in
//!   the top viewport;
//! - a refusal of the frame's own document (covered inside it) is moved to the top viewport
//!   as well, so it names the point input would have gone to.
//!
//! The step sees only the answer this yields: `prepared` with a top-viewport point,
//! `scrolled`, or `refused`. A failed need is handed on as it came.

use serde::{Deserialize, Serialize};

use super::need::{Answer, Need, Point, Read};
use super::ready::{FrameBox, Refusal, Size};
use crate::core::error::{Error, ErrorCode};
use crate::core::frames;

/// Where a prepare across roots stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "stage",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub(super) enum Lifting {
    /// The prepare in the frame's root is asked.
    Prepare { path: String, hit_test: bool },
    /// The page's roots are asked, for the frames above; `local` is the root's answer,
    /// `covered` what covers the target inside the frame.
    Roots {
        path: String,
        hit_test: bool,
        local: Point,
        covered: Option<String>,
    },
    /// Where the frames from the top down to the root at `path` show is asked.
    Frame {
        path: String,
        hit_test: bool,
        local: Point,
        covered: Option<String>,
        paths: Vec<String>,
    },
    /// The hit test of `chain[next]`'s `<iframe>` is asked.
    Hit {
        top: Point,
        chain: Vec<FrameBox>,
        next: usize,
    },
    /// The frame is being scrolled into view.
    Reveal,
}

/// What the lift does with an answer.
pub(super) enum Lifted {
    /// Ask the driver this; the lift goes on.
    Ask(Lifting, Need),
    /// The prepare's answer, in top-viewport terms: the step takes it.
    Done(Answer),
}

impl Lifting {
    /// The lift a need starts: a prepare of a ref in a frame root.
    pub(super) fn of(need: &Need) -> Option<Lifting> {
        match need {
            Need::Prepare {
                reference,
                hit_test,
            } => {
                let (path, _) = frames::route(reference);
                (!path.is_empty()).then(|| Lifting::Prepare {
                    path: path.to_owned(),
                    hit_test: *hit_test,
                })
            }
            _ => None,
        }
    }

    /// The next need of the lift, or the prepare's answer.
    pub(super) fn on(self, answer: Answer) -> Lifted {
        match (self, answer) {
            (Lifting::Prepare { path, hit_test }, Answer::Prepared { point }) => {
                roots(path, hit_test, point, None)
            }
            (
                Lifting::Prepare { path, hit_test },
                Answer::Refused {
                    refusal: Refusal::Covered { by, point },
                },
            ) => roots(path, hit_test, point, Some(by)),
            (
                Lifting::Roots {
                    path,
                    hit_test,
                    local,
                    covered,
                },
                Answer::Roots { paths },
            ) => {
                let chain = frames::chain(&paths, &path);
                if chain.last() != Some(&path) {
                    return Lifted::Done(gone(&path));
                }
                Lifted::Ask(
                    Lifting::Frame {
                        path,
                        hit_test,
                        local,
                        covered,
                        paths: chain.clone(),
                    },
                    Need::Frame { paths: chain },
                )
            }
            (
                Lifting::Frame {
                    path,
                    hit_test,
                    local,
                    covered,
                    paths,
                },
                Answer::Frame { chain, viewport },
            ) => placed(path, hit_test, local, covered, &paths, chain, viewport),
            (Lifting::Hit { top, chain, next }, Answer::Hit { by }) => match by {
                Some(by) => Lifted::Done(covered(by, top)),
                None => hit(top, chain, next + 1),
            },
            (_, answer) => Lifted::Done(answer),
        }
    }
}

/// Asks for the page's roots, to know the frames above the root at `path`.
fn roots(path: String, hit_test: bool, local: Point, covered: Option<String>) -> Lifted {
    Lifted::Ask(
        Lifting::Roots {
            path,
            hit_test,
            local,
            covered,
        },
        Need::Read { read: Read::Roots },
    )
}

/// The frame at `path`, or one around it, is no longer on the page.
fn gone(path: &str) -> Answer {
    Answer::Failed {
        error: Error::new(
            ErrorCode::StaleReference,
            format!("frame '{path}' is no longer on the page"),
        ),
    }
}

/// The frame's answer placed in the top viewport: refused, out of view, or hit-tested above.
fn placed(
    path: String,
    hit_test: bool,
    local: Point,
    by: Option<String>,
    paths: &[String],
    chain: Vec<FrameBox>,
    viewport: Size,
) -> Lifted {
    let answered: Vec<&String> = chain.iter().map(|b| &b.path).collect();
    if answered.len() != paths.len() || answered.iter().zip(paths).any(|(a, p)| *a != p) {
        let missing = paths
            .iter()
            .find(|p| !answered.contains(p))
            .unwrap_or(&path);
        return Lifted::Done(gone(missing));
    }
    let Some(own) = chain.last() else {
        return Lifted::Done(gone(&path));
    };
    let top = Point {
        x: local.x + own.x,
        y: local.y + own.y,
    };
    if let Some(by) = by {
        return Lifted::Done(covered(by, top));
    }
    let shown = top.within(0.0, 0.0, viewport.width, viewport.height)
        && chain.iter().all(|b| b.contains(top));
    if !shown {
        return Lifted::Ask(Lifting::Reveal, Need::RevealFrame { path });
    }
    if !hit_test {
        return Lifted::Done(Answer::Prepared { point: top });
    }
    hit(top, chain, 0)
}

/// The hit test of the `<iframe>` of `chain[next]` in the document above it, or the point
/// when every one reached its frame.
fn hit(top: Point, chain: Vec<FrameBox>, next: usize) -> Lifted {
    let Some(frame) = chain.get(next) else {
        return Lifted::Done(Answer::Prepared { point: top });
    };
    let (ox, oy) = match next.checked_sub(1).and_then(|i| chain.get(i)) {
        Some(above) => (above.x, above.y),
        None => (0.0, 0.0),
    };
    let need = Need::HitFrame {
        path: frame.path.clone(),
        at: Point {
            x: top.x - ox,
            y: top.y - oy,
        },
    };
    Lifted::Ask(Lifting::Hit { top, chain, next }, need)
}

fn covered(by: String, point: Point) -> Answer {
    Answer::Refused {
        refusal: Refusal::Covered { by, point },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(path: &str, [x, y, width, height]: [f64; 4]) -> FrameBox {
        FrameBox {
            path: path.into(),
            x,
            y,
            width,
            height,
        }
    }

    const VIEW: Size = Size {
        width: 800.0,
        height: 600.0,
    };

    fn prepare(reference: &str) -> Lifting {
        Lifting::of(&Need::Prepare {
            reference: reference.into(),
            hit_test: true,
        })
        .expect("a ref in a frame is lifted")
    }

    fn ask(l: Lifted) -> (Lifting, Need) {
        match l {
            Lifted::Ask(l, n) => (l, n),
            Lifted::Done(a) => panic!("done early: {a:?}"),
        }
    }

    /// The roots asked after the frame's own answer, answered with `roots`.
    fn with_roots(l: Lifted, roots: &[&str]) -> (Lifting, Need) {
        let (l, need) = ask(l);
        assert_eq!(need, Need::Read { read: Read::Roots });
        ask(l.on(Answer::Roots {
            paths: roots.iter().map(|p| p.to_string()).collect(),
        }))
    }

    fn paths(p: &[&str]) -> Need {
        Need::Frame {
            paths: p.iter().map(|p| p.to_string()).collect(),
        }
    }

    fn done(l: Lifted) -> Answer {
        match l {
            Lifted::Done(a) => a,
            Lifted::Ask(_, n) => panic!("asked {n:?}"),
        }
    }

    #[test]
    fn a_ref_of_the_top_document_is_not_lifted() {
        assert!(Lifting::of(&Need::Prepare {
            reference: "e3".into(),
            hit_test: true
        })
        .is_none());
        assert!(Lifting::of(&Need::Observe { sensitive: vec![] }).is_none());
    }

    #[test]
    fn a_point_in_a_nested_frame_is_moved_and_hit_tested_in_every_document_above() {
        let l = prepare("f0.1:e7");
        let (l, need) = with_roots(
            l.on(Answer::Prepared {
                point: Point { x: 5.0, y: 6.0 },
            }),
            &["", "0", "0.1", "1"],
        );
        assert_eq!(need, paths(&["0", "0.1"]));
        let chain = vec![
            frame("0", [100.0, 50.0, 400.0, 300.0]),
            frame("0.1", [120.0, 80.0, 200.0, 100.0]),
        ];
        let (l, need) = ask(l.on(Answer::Frame {
            chain,
            viewport: VIEW,
        }));
        let top = Point { x: 125.0, y: 86.0 };
        assert_eq!(
            need,
            Need::HitFrame {
                path: "0".into(),
                at: top
            }
        );
        let (l, need) = ask(l.on(Answer::Hit { by: None }));
        assert_eq!(
            need,
            Need::HitFrame {
                path: "0.1".into(),
                at: Point { x: 25.0, y: 36.0 }
            },
            "in the viewport of frame 0"
        );
        assert_eq!(
            done(l.on(Answer::Hit { by: None })),
            Answer::Prepared { point: top }
        );
    }

    #[test]
    fn a_veil_over_a_frame_refuses_at_the_top_point() {
        let (l, _) = with_roots(
            prepare("f0:e1").on(Answer::Prepared {
                point: Point { x: 10.0, y: 10.0 },
            }),
            &["", "0"],
        );
        let (l, _) = ask(l.on(Answer::Frame {
            chain: vec![frame("0", [20.0, 30.0, 300.0, 200.0])],
            viewport: VIEW,
        }));
        assert_eq!(
            done(l.on(Answer::Hit {
                by: Some("div.veil".into())
            })),
            covered("div.veil".into(), Point { x: 30.0, y: 40.0 })
        );
    }

    #[test]
    fn covered_inside_the_frame_is_named_at_the_top_point() {
        let (l, need) = with_roots(
            prepare("f0:e1").on(covered("div.toast".into(), Point { x: 1.0, y: 2.0 })),
            &["", "0"],
        );
        assert_eq!(need, paths(&["0"]));
        assert_eq!(
            done(l.on(Answer::Frame {
                chain: vec![frame("0", [20.0, 30.0, 300.0, 200.0])],
                viewport: VIEW,
            })),
            covered("div.toast".into(), Point { x: 21.0, y: 32.0 })
        );
    }

    #[test]
    fn a_frame_out_of_view_is_revealed_and_the_step_observes_again() {
        for (chain, why) in [
            (
                vec![frame("0", [0.0, 700.0, 300.0, 200.0])],
                "below the viewport",
            ),
            (
                vec![
                    frame("0", [0.0, 0.0, 300.0, 100.0]),
                    frame("0.2", [0.0, 150.0, 300.0, 100.0]),
                ],
                "below the frame around it",
            ),
        ] {
            let path = chain.last().unwrap().path.clone();
            let roots: Vec<&str> = std::iter::once("")
                .chain(chain.iter().map(|b| b.path.as_str()))
                .collect();
            let (l, _) = with_roots(
                prepare(&format!("f{path}:e1")).on(Answer::Prepared {
                    point: Point { x: 10.0, y: 10.0 },
                }),
                &roots,
            );
            let (l, need) = ask(l.on(Answer::Frame {
                chain,
                viewport: VIEW,
            }));
            assert_eq!(need, Need::RevealFrame { path }, "{why}");
            assert_eq!(done(l.on(Answer::Scrolled)), Answer::Scrolled);
        }
    }

    #[test]
    fn without_a_hit_test_the_moved_point_is_the_answer() {
        let l = Lifting::of(&Need::Prepare {
            reference: "f1:e2".into(),
            hit_test: false,
        })
        .unwrap();
        let (l, _) = with_roots(
            l.on(Answer::Prepared {
                point: Point { x: 1.0, y: 1.0 },
            }),
            &["", "1"],
        );
        assert_eq!(
            done(l.on(Answer::Frame {
                chain: vec![frame("1", [10.0, 10.0, 50.0, 50.0])],
                viewport: VIEW,
            })),
            Answer::Prepared {
                point: Point { x: 11.0, y: 11.0 }
            }
        );
    }

    #[test]
    fn other_answers_and_failures_are_handed_on() {
        let failed = Answer::Failed {
            error: Error::new(ErrorCode::StaleReference, "gone"),
        };
        assert_eq!(
            done(prepare("f0:e1").on(Answer::Scrolled)),
            Answer::Scrolled
        );
        assert_eq!(
            done(prepare("f0:e1").on(Answer::Refused {
                refusal: Refusal::EmptyBox
            })),
            Answer::Refused {
                refusal: Refusal::EmptyBox
            }
        );
        let prepared = || {
            prepare("f0.1:e1").on(Answer::Prepared {
                point: Point { x: 1.0, y: 1.0 },
            })
        };
        let (l, _) = ask(prepared());
        assert_eq!(done(l.clone().on(failed.clone())), failed);
        // The frame is no longer among the roots.
        assert_eq!(
            done(l.on(Answer::Roots {
                paths: vec!["".into(), "0".into()]
            })),
            gone("0.1")
        );
        // A frame on the way is no longer on the page: the one missing is named.
        let (l, _) = with_roots(prepared(), &["", "0", "0.1"]);
        assert_eq!(
            done(l.on(Answer::Frame {
                chain: vec![frame("0.1", [0.0, 0.0, 10.0, 10.0])],
                viewport: VIEW,
            })),
            gone("0")
        );
        let Answer::Failed { error } = gone("0") else {
            unreachable!()
        };
        assert_eq!(
            (error.code, error.message.as_str()),
            (
                ErrorCode::StaleReference,
                "frame '0' is no longer on the page"
            )
        );
    }
}
