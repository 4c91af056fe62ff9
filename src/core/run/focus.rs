//! The focused element through the frames of other origins it is in.
//!
//! A driver answers [`Read::Focused`] in the top document. When the focus is inside a frame
//! root, that document's focused element is the frame's `<iframe>` (an opaque `iframe`
//! record). The machine then, in one order for every driver:
//! - asks for the page's roots ([`Read::Roots`]);
//! - asks each root just inside the one it stands in, in their order, whether its document
//!   has the focus and what is focused there ([`Read::FocusedIn`]);
//! - the first that has it is where it goes on: its focused element, adopted into the
//!   page's terms, is the answer, unless it is again an `<iframe>` of another root, which is
//!   followed the same way;
//! - when no root inside has the focus, or the one that has it shows no focused element, the
//!   `<iframe>` is the answer.
//!
//! The step sees only the answer to its read. A failed need is handed on as it came.

use serde::{Deserialize, Serialize};

use super::need::{Answer, Need, Read};
use crate::core::frames;
use crate::core::model::{Element, Role};

/// Where the descent stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "stage",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub(super) enum Focusing {
    /// The top document's focused element is asked.
    Top,
    /// The roots are asked; `element` is the `<iframe>` the focus is in.
    Roots { element: Element },
    /// `candidates[next]` is asked; `element` is the deepest focused element found so far.
    Inside {
        element: Element,
        paths: Vec<String>,
        candidates: Vec<String>,
        next: usize,
    },
}

/// What the descent does with an answer.
pub(super) enum Focused {
    /// Ask the driver this; the descent goes on.
    Ask(Box<Focusing>, Need),
    /// The answer to the step's read.
    Done(Answer),
}

/// Is `e` the `<iframe>` of a document the engine cannot see into?
fn is_frame(e: &Element) -> bool {
    e.opaque && e.role == Role::Iframe
}

fn read(read: Read) -> Need {
    Need::Read { read }
}

impl Focusing {
    /// The descent a need starts: a read of the focused element.
    pub(super) fn of(need: &Need) -> Option<Focusing> {
        matches!(
            need,
            Need::Read {
                read: Read::Focused
            }
        )
        .then_some(Focusing::Top)
    }

    /// The next need of the descent, or the read's answer.
    pub(super) fn on(self, answer: Answer) -> Focused {
        match (self, answer) {
            (
                Focusing::Top,
                Answer::Focused {
                    element: Some(element),
                },
            ) if is_frame(&element) => {
                Focused::Ask(Box::new(Focusing::Roots { element }), read(Read::Roots))
            }
            (Focusing::Roots { element }, Answer::Roots { paths }) => inside(element, paths, ""),
            (
                Focusing::Inside {
                    element,
                    paths,
                    candidates,
                    next,
                },
                Answer::FocusedIn {
                    has,
                    element: found,
                },
            ) => {
                let path = &candidates[next];
                match (has, found) {
                    (true, Some(found)) => {
                        let adopted = frames::adopt(path, found);
                        if is_frame(&adopted) {
                            let path = path.clone();
                            inside(adopted, paths, &path)
                        } else {
                            done(Some(adopted))
                        }
                    }
                    (true, None) => done(Some(element)),
                    (false, _) => ask_inside(element, paths, candidates, next + 1),
                }
            }
            (_, answer) => Focused::Done(answer),
        }
    }
}

fn done(element: Option<Element>) -> Focused {
    Focused::Done(Answer::Focused { element })
}

/// Asks the roots just inside the root at `path`, in their order.
fn inside(element: Element, paths: Vec<String>, path: &str) -> Focused {
    let all: Vec<&str> = paths.iter().map(String::as_str).collect();
    let candidates: Vec<String> = paths
        .iter()
        .filter(|p| !p.is_empty() && frames::parent(&all, p) == Some(path))
        .cloned()
        .collect();
    ask_inside(element, paths, candidates, 0)
}

fn ask_inside(
    element: Element,
    paths: Vec<String>,
    candidates: Vec<String>,
    next: usize,
) -> Focused {
    let Some(path) = candidates.get(next).cloned() else {
        return done(Some(element));
    };
    Focused::Ask(
        Box::new(Focusing::Inside {
            element,
            paths,
            candidates,
            next,
        }),
        read(Read::FocusedIn { path }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::error::{Error, ErrorCode};

    fn el(reference: &str, role: Role, opaque: bool) -> Element {
        Element {
            reference: reference.into(),
            role,
            name: reference.into(),
            opaque,
            ..Default::default()
        }
    }

    fn ask(f: Focused) -> (Focusing, Need) {
        match f {
            Focused::Ask(f, n) => (*f, n),
            Focused::Done(a) => panic!("done early: {a:?}"),
        }
    }

    fn done_with(f: Focused) -> Answer {
        match f {
            Focused::Done(a) => a,
            Focused::Ask(_, n) => panic!("asked {n:?}"),
        }
    }

    fn focused(e: Option<Element>) -> Answer {
        Answer::Focused { element: e }
    }

    fn roots(paths: &[&str]) -> Answer {
        Answer::Roots {
            paths: paths.iter().map(|p| p.to_string()).collect(),
        }
    }

    fn in_root(has: bool, e: Option<Element>) -> Answer {
        Answer::FocusedIn { has, element: e }
    }

    #[test]
    fn only_a_read_of_the_focus_starts_a_descent() {
        assert!(Focusing::of(&read(Read::Focused)).is_some());
        assert!(Focusing::of(&read(Read::Address)).is_none());
        assert!(Focusing::of(&Need::Act).is_none());
    }

    #[test]
    fn a_focus_in_the_top_document_is_the_answer_at_once() {
        let field = el("e1", Role::Textbox, false);
        assert_eq!(
            done_with(Focusing::Top.on(focused(Some(field.clone())))),
            focused(Some(field))
        );
        assert_eq!(done_with(Focusing::Top.on(focused(None))), focused(None));
    }

    #[test]
    fn the_focus_is_followed_into_nested_frames_of_other_origins() {
        let frame = el("e9", Role::Iframe, true);
        let (f, need) = ask(Focusing::Top.on(focused(Some(frame))));
        assert_eq!(need, read(Read::Roots));
        let (f, need) = ask(f.on(roots(&["", "0", "0.1", "1"])));
        assert_eq!(
            need,
            read(Read::FocusedIn { path: "0".into() }),
            "the roots just inside the top first"
        );
        let (f, need) = ask(f.on(in_root(false, None)));
        assert_eq!(need, read(Read::FocusedIn { path: "1".into() }));
        // Root 1 has it, and it is on root 1's own frame: followed into none (1 has no root
        // inside), so that frame is the answer.
        let inner = el("e4", Role::Iframe, true);
        let answer = done_with(f.on(in_root(true, Some(inner))));
        let Answer::Focused { element: Some(e) } = answer else {
            panic!("{answer:?}")
        };
        assert_eq!(e.reference, "f1:e4", "adopted into the page's terms");

        let (f, _) = ask(Focusing::Top.on(focused(Some(el("e9", Role::Iframe, true)))));
        let (f, _) = ask(f.on(roots(&["", "0", "0.1"])));
        let (f, need) = ask(f.on(in_root(true, Some(el("e2", Role::Iframe, true)))));
        assert_eq!(need, read(Read::FocusedIn { path: "0.1".into() }));
        let Answer::Focused { element: Some(e) } =
            done_with(f.on(in_root(true, Some(el("e5", Role::Textbox, false)))))
        else {
            panic!()
        };
        assert_eq!((e.reference.as_str(), e.role), ("f0.1:e5", Role::Textbox));
    }

    #[test]
    fn no_root_inside_with_the_focus_leaves_the_frame_as_the_answer() {
        let frame = el("e9", Role::Iframe, true);
        let (f, _) = ask(Focusing::Top.on(focused(Some(frame.clone()))));
        assert_eq!(
            done_with(f.clone().on(roots(&[""]))),
            focused(Some(frame.clone()))
        );
        let (f, _) = ask(f.on(roots(&["", "0"])));
        assert_eq!(
            done_with(f.clone().on(in_root(false, None))),
            focused(Some(frame.clone()))
        );
        assert_eq!(
            done_with(f.on(in_root(true, None))),
            focused(Some(frame)),
            "the frame has the focus on nothing observable"
        );
    }

    #[test]
    fn failures_are_handed_on() {
        let failed = Answer::Failed {
            error: Error::new(ErrorCode::BrowserError, "gone"),
        };
        assert_eq!(done_with(Focusing::Top.on(failed.clone())), failed);
        let (f, _) = ask(Focusing::Top.on(focused(Some(el("e9", Role::Iframe, true)))));
        assert_eq!(done_with(f.on(failed.clone())), failed);
    }
}
