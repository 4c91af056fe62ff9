//! The hit boxes of every root of a page, in the top viewport and the page's terms.
//!
//! A driver answers for one root at a time: its hit boxes ([`Read::HitBoxes`], in that
//! root's own viewport and terms). The machine, in one order for every driver:
//! - asks for the page's roots ([`Read::Roots`]) and where the frame roots show
//!   ([`Need::Frame`]), unless it knows them already ([`Layout`]);
//! - asks each root that shows, the top first, for its boxes, moves them by the root's
//!   `<iframe>` content box origin and adopts their elements ([`frames::adopt`]);
//! - leaves out a frame root that cannot answer (navigating away: its content stays
//!   unobserved) and hands on the top document's failure as it came.
//!
//! Used by a screenshot's observation (`super::shot`) and, for the boxes under one point,
//! by the locate (`super::locate`).

use serde::{Deserialize, Serialize};

use super::hitbox::HitBox;
use super::need::{Answer, Need, Point, Read};
use super::ready::FrameBox;
use crate::core::frames;

/// The page's roots and where the frame roots show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Layout {
    pub(super) paths: Vec<String>,
    /// The `<iframe>` content boxes of the frame roots still on the page, in the top viewport.
    pub(super) boxes: Vec<FrameBox>,
}

impl Layout {
    /// The layout of `paths` (a [`Read::Roots`] answer), and the need for the frame roots'
    /// boxes when there are any.
    pub(super) fn of_roots(paths: Vec<String>) -> (Layout, Option<Need>) {
        let frames: Vec<String> = paths.iter().filter(|p| !p.is_empty()).cloned().collect();
        let need = (!frames.is_empty()).then_some(Need::Frame { paths: frames });
        let layout = Layout {
            paths,
            boxes: Vec::new(),
        };
        (layout, need)
    }

    /// Where a root's viewport starts in the top one: `None` for a frame that does not show.
    pub(super) fn origin(&self, path: &str) -> Option<Point> {
        if path.is_empty() {
            return Some(Point { x: 0.0, y: 0.0 });
        }
        self.boxes
            .iter()
            .find(|b| b.path == path)
            .map(|b| Point { x: b.x, y: b.y })
    }
}

/// A reading of the layout: the roots asked (`None`), then where the frame roots show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Surveying {
    layout: Option<Layout>,
}

/// What a reading of the layout does with an answer.
pub enum Surveyed {
    Ask(Surveying, Need),
    Done(Layout),
    /// An answer that is not the one asked for (a failure), as it came.
    Ended(Answer),
}

impl Surveying {
    /// A reading of the layout, and its first question.
    pub fn start() -> (Surveying, Need) {
        (Surveying { layout: None }, Need::Read { read: Read::Roots })
    }

    pub fn on(self, answer: Answer) -> Surveyed {
        match (self.layout, answer) {
            (None, Answer::Roots { paths }) => match Layout::of_roots(paths) {
                (layout, Some(need)) => Surveyed::Ask(
                    Surveying {
                        layout: Some(layout),
                    },
                    need,
                ),
                (layout, None) => Surveyed::Done(layout),
            },
            (Some(mut layout), Answer::Frame { chain, .. }) => {
                layout.boxes = chain;
                Surveyed::Done(layout)
            }
            (_, answer) => Surveyed::Ended(answer),
        }
    }
}

/// Which answer the gathering waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "stage",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
enum Stage {
    Layout {
        surveying: Surveying,
    },
    /// The boxes of the root `layout.paths[next]`.
    Boxes {
        next: usize,
    },
}

/// Where a gathering of hit boxes stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Gathering {
    layout: Option<Layout>,
    /// Only the boxes holding this point are kept.
    within: Option<Point>,
    boxes: Vec<HitBox>,
    stage: Stage,
}

/// What the gathering does with an answer.
pub enum Gathered {
    /// Ask the driver this; the gathering goes on.
    Ask(Box<Gathering>, Need),
    /// Every root's boxes, in the top viewport and the page's terms.
    Done(Vec<HitBox>),
    /// The answer that ended it: the top document's failure, or an answer out of turn.
    Ended(Answer),
}

impl Gathering {
    /// A gathering over `layout` (read first when `None`), keeping only the boxes that hold
    /// `within` when given.
    pub fn start(layout: Option<Layout>, within: Option<Point>) -> Gathered {
        let (surveying, first) = Surveying::start();
        let g = Gathering {
            layout,
            within,
            boxes: Vec::new(),
            stage: Stage::Layout { surveying },
        };
        if g.layout.is_none() {
            return Gathered::Ask(Box::new(g), first);
        }
        g.ask_boxes(0)
    }

    /// The next need of the gathering, or its boxes.
    pub fn on(mut self, answer: Answer) -> Gathered {
        let stage = std::mem::replace(&mut self.stage, Stage::Boxes { next: 0 });
        match (stage, answer) {
            (Stage::Layout { surveying }, answer) => match surveying.on(answer) {
                Surveyed::Ask(surveying, need) => {
                    self.stage = Stage::Layout { surveying };
                    Gathered::Ask(Box::new(self), need)
                }
                Surveyed::Done(layout) => {
                    self.layout = Some(layout);
                    self.ask_boxes(0)
                }
                Surveyed::Ended(answer) => Gathered::Ended(answer),
            },
            (Stage::Boxes { next }, Answer::HitBoxes { boxes }) => {
                let (path, origin) = self.root(next);
                let within = self.within;
                self.boxes.extend(
                    boxes
                        .into_iter()
                        .map(|b| HitBox {
                            element: frames::adopt(&path, b.element),
                            x: b.x + origin.x,
                            y: b.y + origin.y,
                            ..b
                        })
                        .filter(|b| within.is_none_or(|p| b.contains(p))),
                );
                self.ask_boxes(next + 1)
            }
            // A frame root that cannot give its boxes is left out.
            (Stage::Boxes { next }, Answer::Failed { .. }) if next > 0 => self.ask_boxes(next + 1),
            (_, answer) => Gathered::Ended(answer),
        }
    }

    /// The path and origin of the root `layout.paths[i]`.
    fn root(&self, i: usize) -> (String, Point) {
        let origin = Point { x: 0.0, y: 0.0 };
        match &self.layout {
            Some(l) => (l.paths[i].clone(), l.origin(&l.paths[i]).unwrap_or(origin)),
            None => (String::new(), origin),
        }
    }

    /// Asks the first root from `from` on that shows for its boxes; done when none is left.
    fn ask_boxes(mut self, from: usize) -> Gathered {
        let next = self
            .layout
            .as_ref()
            .and_then(|l| (from..l.paths.len()).find(|&i| l.origin(&l.paths[i]).is_some()));
        let Some(next) = next else {
            return Gathered::Done(self.boxes);
        };
        let path = self.root(next).0;
        self.stage = Stage::Boxes { next };
        Gathered::Ask(
            Box::new(self),
            Need::Read {
                read: Read::HitBoxes { path },
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::{Error, ErrorCode};
    use crate::core::model::{Element, Role};
    use crate::core::run::ready::Size;

    fn hit(name: &str, x: f64, y: f64) -> HitBox {
        HitBox {
            element: Element {
                role: Role::Button,
                name: name.into(),
                reference: "e1".into(),
                ..Element::default()
            },
            x,
            y,
            width: 10.0,
            height: 10.0,
            topmost: true,
        }
    }

    fn ask(g: Gathered) -> (Gathering, Need) {
        match g {
            Gathered::Ask(g, n) => (*g, n),
            _ => panic!("not asking"),
        }
    }

    #[test]
    fn every_root_that_shows_is_asked_its_boxes_moved_and_adopted() {
        let (g, need) = ask(Gathering::start(None, None));
        assert_eq!(need, Need::Read { read: Read::Roots });
        let (g, need) = ask(g.on(Answer::Roots {
            paths: vec!["".into(), "0".into(), "1".into()],
        }));
        assert_eq!(
            need,
            Need::Frame {
                paths: vec!["0".into(), "1".into()]
            }
        );
        let frame = FrameBox {
            path: "1".into(),
            x: 100.0,
            y: 50.0,
            width: 200.0,
            height: 200.0,
        };
        let (g, need) = ask(g.on(Answer::Frame {
            chain: vec![frame],
            viewport: Size {
                width: 800.0,
                height: 600.0,
            },
        }));
        let hit_boxes = |path: &str| Need::Read {
            read: Read::HitBoxes { path: path.into() },
        };
        assert_eq!(need, hit_boxes(""));
        let (g, need) = ask(g.on(Answer::HitBoxes {
            boxes: vec![hit("Top", 1.0, 2.0)],
        }));
        assert_eq!(need, hit_boxes("1"), "frame 0 does not show: not asked");
        let Gathered::Done(boxes) = g.on(Answer::HitBoxes {
            boxes: vec![hit("Inner", 5.0, 5.0)],
        }) else {
            panic!("done")
        };
        assert_eq!(boxes.len(), 2);
        assert_eq!((boxes[1].x, boxes[1].y), (105.0, 55.0));
        assert_eq!(boxes[1].element.reference, "f1:e1");
        assert_eq!(boxes[0].element.reference, "e1");
    }

    #[test]
    fn a_frame_that_fails_is_left_out_and_the_top_s_failure_is_handed_on() {
        let failed = Answer::Failed {
            error: Error::new(ErrorCode::NotReady, "replaced"),
        };
        let layout = Layout {
            paths: vec!["".into(), "0".into()],
            boxes: vec![FrameBox {
                path: "0".into(),
                x: 0.0,
                y: 0.0,
                width: 50.0,
                height: 50.0,
            }],
        };
        let (g, _) = ask(Gathering::start(Some(layout.clone()), None));
        let Gathered::Ended(a) = g.on(failed.clone()) else {
            panic!("ended")
        };
        assert_eq!(a, failed);
        let within = Some(Point { x: 3.0, y: 3.0 });
        let (g, _) = ask(Gathering::start(Some(layout), within));
        let (g, _) = ask(g.on(Answer::HitBoxes {
            boxes: vec![hit("Here", 0.0, 0.0), hit("Elsewhere", 30.0, 30.0)],
        }));
        let Gathered::Done(boxes) = g.on(failed) else {
            panic!("done")
        };
        assert_eq!(boxes.len(), 1, "only the box holding the point: {boxes:?}");
        assert_eq!(boxes[0].element.name, "Here");
    }
}
