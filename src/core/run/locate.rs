//! The element under a point of the top viewport, through the frames of other origins it is
//! in, reconciled with the observation the point was chosen on.
//!
//! A pointer step asks what lies under its point before input and again once the pointer is
//! there. A driver answers for one root at a time ([`Read::Under`], the point in that
//! root's viewport, the element in its own terms), so the machine, in one order for every
//! driver:
//! - asks the top document;
//! - while the answer is the `<iframe>` of another root (an opaque `iframe` record), asks
//!   for the page's roots ([`Read::Roots`]) and where the frame roots show ([`Need::Frame`]),
//!   and asks the first root just inside whose `<iframe>` box holds the point, with the point
//!   moved by that box's origin; a frame that cannot answer leaves the `<iframe>` as the
//!   answer, one that shows nothing there leaves none;
//! - adopts what it found into the page's terms;
//! - asks for the hit boxes of the observation the step was aimed on ([`Read::Aimed`]): when
//!   there are some and they show another element under the point, the two hit tests may
//!   still agree on an unchanged page (a covered centre, an element snapshots do not list),
//!   so it asks every root for its hit boxes now ([`Read::HitBoxes`]), moves them to the top
//!   viewport, and lets [`screen::reconcile`] decide; a frame root that cannot answer is left
//!   out, the top document's failure is handed on.
//!
//! A pointer step sees only the answer of the locate: [`Answer::Under`], or a failure. A
//! driver that shows what is under a point without a step (the CLI's probe) drives a
//! [`Locating`] itself, answering the same needs.

use serde::{Deserialize, Serialize};

use super::across::{Gathered, Gathering, Layout, Surveyed, Surveying};
use super::hitbox::HitBox;
use super::need::{Answer, Need, Point, Read};
use super::screen;
use crate::core::frames;
use crate::core::model::{Element, Role};

/// What the layout is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Goal {
    /// Looking into the frame root under the point.
    Descend,
    /// The hit boxes of every root now.
    BoxesNow,
}

/// Which answer the locate waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "stage",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Stage {
    /// The element under the point in the root at `path`.
    Under,
    /// The page's roots and where the frame roots show.
    Layout { goal: Goal, surveying: Surveying },
    /// The observation's hit boxes.
    Aimed,
    /// Every root's hit boxes under the point now.
    Now { gathering: Box<Gathering> },
}

/// Where a locate stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Locating {
    at: Point,
    /// The root asked last, and what was found under the point so far (the page's terms).
    path: String,
    now: Option<Element>,
    layout: Option<Layout>,
    /// The observation's boxes under the point.
    then: Vec<HitBox>,
    stage: Stage,
}

/// What the locate does with an answer.
pub enum Located {
    /// Ask the driver this; the locate goes on.
    Ask(Box<Locating>, Need),
    /// The locate's answer.
    Done(Answer),
}

/// Is `e` the `<iframe>` of a document its engine cannot see into?
fn is_frame(e: &Element) -> bool {
    e.opaque && e.role == Role::Iframe
}

fn read(read: Read) -> Need {
    Need::Read { read }
}

impl Locating {
    /// A locate of `at`, and its first question.
    pub fn start(at: Point) -> (Locating, Need) {
        let locating = Locating {
            at,
            path: String::new(),
            now: None,
            layout: None,
            then: Vec::new(),
            stage: Stage::Under,
        };
        let first = read(Read::Under {
            path: String::new(),
            at,
        });
        (locating, first)
    }

    /// The next need of the locate, or its answer.
    pub fn on(mut self, answer: Answer) -> Located {
        match (std::mem::replace(&mut self.stage, Stage::Under), answer) {
            (Stage::Under, Answer::Under { element }) => {
                self.now = element.map(|e| frames::adopt(&self.path, e));
                match &self.now {
                    Some(e) if is_frame(e) => self.go(Goal::Descend),
                    _ => self.aimed(),
                }
            }
            // A frame root that cannot answer: its `<iframe>` is what lies there.
            (Stage::Under, Answer::Failed { .. }) if !self.path.is_empty() => self.aimed(),
            (Stage::Layout { goal, surveying }, answer) => match surveying.on(answer) {
                Surveyed::Ask(surveying, need) => {
                    self.stage = Stage::Layout { goal, surveying };
                    Located::Ask(Box::new(self), need)
                }
                Surveyed::Done(layout) => {
                    self.layout = Some(layout);
                    self.go(goal)
                }
                Surveyed::Ended(answer) => Located::Done(answer),
            },
            (Stage::Aimed, Answer::Aimed { boxes }) => {
                let Some(boxes) = boxes else {
                    return self.done();
                };
                self.then = boxes.into_iter().filter(|b| b.contains(self.at)).collect();
                if screen::agrees(&self.then, self.at, self.now.as_ref()) {
                    return self.done();
                }
                self.go(Goal::BoxesNow)
            }
            (Stage::Now { gathering }, answer) => self.gathered(gathering.on(answer)),
            (_, answer) => Located::Done(answer),
        }
    }

    /// Reads the layout for `goal` when it is not read yet, else goes on with `goal`.
    fn go(mut self, goal: Goal) -> Located {
        let Some(layout) = &self.layout else {
            let (surveying, first) = Surveying::start();
            self.stage = Stage::Layout { goal, surveying };
            return Located::Ask(Box::new(self), first);
        };
        match goal {
            Goal::BoxesNow => {
                let gathered = Gathering::start(Some(layout.clone()), Some(self.at));
                self.gathered(gathered)
            }
            Goal::Descend => {
                let all: Vec<&str> = layout.paths.iter().map(String::as_str).collect();
                let inner = layout.paths.iter().find_map(|p| {
                    let inside = !p.is_empty() && frames::parent(&all, p) == Some(&self.path);
                    let b = layout.boxes.iter().find(|b| &b.path == p)?;
                    (inside && b.contains(self.at)).then(|| (p.clone(), Point { x: b.x, y: b.y }))
                });
                let Some((path, origin)) = inner else {
                    return self.aimed();
                };
                let at = Point {
                    x: self.at.x - origin.x,
                    y: self.at.y - origin.y,
                };
                self.path = path.clone();
                self.stage = Stage::Under;
                Located::Ask(Box::new(self), read(Read::Under { path, at }))
            }
        }
    }

    fn aimed(mut self) -> Located {
        self.stage = Stage::Aimed;
        Located::Ask(Box::new(self), read(Read::Aimed))
    }

    /// Goes on with the gathering of the boxes now; reconciles once they are all in.
    fn gathered(mut self, gathered: Gathered) -> Located {
        match gathered {
            Gathered::Ask(gathering, need) => {
                self.stage = Stage::Now { gathering };
                Located::Ask(Box::new(self), need)
            }
            Gathered::Done(now) => {
                let element = screen::reconcile(&self.then, &now, self.at, self.now.take());
                Located::Done(Answer::Under { element })
            }
            Gathered::Ended(answer) => Located::Done(answer),
        }
    }

    fn done(self) -> Located {
        Located::Done(Answer::Under { element: self.now })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::{Error, ErrorCode};
    use crate::core::run::ready::{FrameBox, Size};

    fn element(role: Role, name: &str, reference: &str) -> Element {
        Element {
            role,
            name: name.into(),
            reference: reference.into(),
            ..Element::default()
        }
    }

    fn iframe(reference: &str) -> Element {
        Element {
            opaque: true,
            ..element(Role::Iframe, "", reference)
        }
    }

    fn frame(path: &str, x: f64, y: f64, width: f64, height: f64) -> FrameBox {
        FrameBox {
            path: path.into(),
            x,
            y,
            width,
            height,
        }
    }

    fn hit(e: &Element, x: f64, y: f64, size: f64) -> HitBox {
        HitBox {
            element: e.clone(),
            x,
            y,
            width: size,
            height: size,
            topmost: true,
        }
    }

    const AT: Point = Point { x: 150.0, y: 120.0 };

    fn ask(l: Located) -> (Locating, Need) {
        match l {
            Located::Ask(l, n) => (*l, n),
            Located::Done(a) => panic!("done early: {a:?}"),
        }
    }

    fn done(l: Located) -> Answer {
        match l {
            Located::Done(a) => a,
            Located::Ask(_, n) => panic!("asked {n:?}"),
        }
    }

    fn under(element: Option<Element>) -> Answer {
        Answer::Under { element }
    }

    fn roots(paths: &[&str]) -> Answer {
        Answer::Roots {
            paths: paths.iter().map(|p| p.to_string()).collect(),
        }
    }

    fn framed(chain: Vec<FrameBox>) -> Answer {
        Answer::Frame {
            chain,
            viewport: Size {
                width: 800.0,
                height: 600.0,
            },
        }
    }

    #[test]
    fn an_element_of_the_top_document_is_checked_against_the_observation() {
        let (l, need) = Locating::start(AT);
        assert_eq!(
            need,
            read(Read::Under {
                path: String::new(),
                at: AT
            })
        );
        let save = element(Role::Button, "Save", "e1");
        let (l, need) = ask(l.on(under(Some(save.clone()))));
        assert_eq!(need, read(Read::Aimed));
        // Not aimed on an observation: what the page says.
        assert_eq!(
            done(l.clone().on(Answer::Aimed { boxes: None })),
            under(Some(save.clone()))
        );
        // The observation agrees.
        assert_eq!(
            done(l.on(Answer::Aimed {
                boxes: Some(vec![hit(&save, 100.0, 100.0, 100.0)])
            })),
            under(Some(save))
        );
    }

    #[test]
    fn a_point_over_a_frame_root_is_asked_of_that_root_in_its_viewport() {
        let (l, _) = Locating::start(AT);
        let (l, need) = ask(l.on(under(Some(iframe("e4")))));
        assert_eq!(need, read(Read::Roots));
        let (l, need) = ask(l.on(roots(&["", "0", "0.1", "1"])));
        assert_eq!(
            need,
            Need::Frame {
                paths: vec!["0".into(), "0.1".into(), "1".into()]
            }
        );
        // Frame 1 does not hold the point; frame 0 does, and 0.1 inside it does too.
        let (l, need) = ask(l.on(framed(vec![
            frame("0", 100.0, 100.0, 200.0, 200.0),
            frame("0.1", 140.0, 110.0, 50.0, 50.0),
            frame("1", 400.0, 0.0, 100.0, 100.0),
        ])));
        assert_eq!(
            need,
            read(Read::Under {
                path: "0".into(),
                at: Point { x: 50.0, y: 20.0 }
            })
        );
        let (l, need) = ask(l.on(under(Some(iframe("e2")))));
        assert_eq!(
            need,
            read(Read::Under {
                path: "0.1".into(),
                at: Point { x: 10.0, y: 10.0 }
            }),
            "the roots are read once"
        );
        let pay = element(Role::Button, "Pay", "e9");
        let (l, need) = ask(l.on(under(Some(pay))));
        assert_eq!(need, read(Read::Aimed));
        let Answer::Under {
            element: Some(found),
        } = done(l.on(Answer::Aimed { boxes: None }))
        else {
            panic!("an element")
        };
        assert_eq!(
            (found.reference.as_str(), found.frame.as_str()),
            ("f0.1:e9", "0.1"),
            "in the page's terms"
        );
    }

    #[test]
    fn a_frame_that_cannot_answer_leaves_its_iframe_and_one_that_shows_nothing_leaves_none() {
        let descend = || {
            let (l, _) = Locating::start(AT);
            let (l, _) = ask(l.on(under(Some(iframe("e4")))));
            let (l, _) = ask(l.on(roots(&["", "0"])));
            let (l, _) = ask(l.on(framed(vec![frame("0", 100.0, 100.0, 200.0, 200.0)])));
            l
        };
        let failed = Answer::Failed {
            error: Error::new(ErrorCode::BrowserError, "the frame went away"),
        };
        let (l, need) = ask(descend().on(failed));
        assert_eq!(need, read(Read::Aimed));
        assert_eq!(
            done(l.on(Answer::Aimed { boxes: None })),
            under(Some(iframe("e4")))
        );
        let (l, _) = ask(descend().on(under(None)));
        assert_eq!(done(l.on(Answer::Aimed { boxes: None })), under(None));
        // No frame root holds the point (its box is gone): the `<iframe>` it is.
        let (l, _) = Locating::start(AT);
        let (l, _) = ask(l.on(under(Some(iframe("e4")))));
        let (l, _) = ask(l.on(roots(&["", "0"])));
        let (l, need) = ask(l.on(framed(vec![])));
        assert_eq!(need, read(Read::Aimed));
        assert_eq!(
            done(l.on(Answer::Aimed { boxes: None })),
            under(Some(iframe("e4")))
        );
    }

    #[test]
    fn a_disagreement_is_settled_by_every_root_s_boxes_now() {
        let card = element(Role::Group, "Card", "e3");
        let save = element(Role::Button, "Save", "e1");
        // The page's hit test says the card (the button's centre is covered elsewhere); the
        // observation showed the button, and so do the boxes now.
        let (l, _) = Locating::start(AT);
        let (l, _) = ask(l.on(under(Some(card.clone()))));
        let then = vec![hit(&save, 140.0, 110.0, 20.0), hit(&card, 0.0, 0.0, 400.0)];
        let (l, need) = ask(l.on(Answer::Aimed {
            boxes: Some([then.clone(), vec![hit(&card, 600.0, 0.0, 10.0)]].concat()),
        }));
        assert_eq!(need, read(Read::Roots));
        let (l, need) = ask(l.on(roots(&["", "0"])));
        assert_eq!(
            need,
            Need::Frame {
                paths: vec!["0".into()]
            }
        );
        let (l, need) = ask(l.on(framed(vec![frame("0", 500.0, 0.0, 100.0, 100.0)])));
        assert_eq!(
            need,
            read(Read::HitBoxes {
                path: String::new()
            })
        );
        let (l, need) = ask(l.on(Answer::HitBoxes { boxes: then }));
        assert_eq!(need, read(Read::HitBoxes { path: "0".into() }));
        // A frame root that cannot give its boxes is left out.
        let failed = Answer::Failed {
            error: Error::new(ErrorCode::BrowserError, "gone"),
        };
        assert_eq!(done(l.clone().on(failed.clone())), under(Some(save)));
        // Its boxes are moved to the top viewport and adopted: one now covers the point.
        let other = element(Role::Button, "Other", "e5");
        let Answer::Under { element: Some(now) } = done(l.on(Answer::HitBoxes {
            boxes: vec![hit(&other, -355.0, 118.0, 8.0)],
        })) else {
            panic!("an element")
        };
        assert_eq!(
            now.reference, "e3",
            "the boxes now disagree: the page's hit test"
        );
        // The top document's failure is handed on.
        let (l, _) = Locating::start(AT);
        let (l, _) = ask(l.on(under(Some(card))));
        let (l, _) = ask(l.on(Answer::Aimed {
            boxes: Some(vec![hit(
                &element(Role::Button, "Save", "e1"),
                140.0,
                110.0,
                20.0,
            )]),
        }));
        let (l, _) = ask(l.on(roots(&[""])));
        assert_eq!(done(l.on(failed.clone())), failed);
    }

    #[test]
    fn a_failure_of_the_top_document_is_handed_on() {
        let failed = Answer::Failed {
            error: Error::new(ErrorCode::NotReady, "replaced"),
        };
        let (l, _) = Locating::start(AT);
        assert_eq!(done(l.on(failed.clone())), failed);
    }
}
