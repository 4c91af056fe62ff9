//! Putting text in a field by its ref (`fill`, and an undo that types a field's old value
//! back), as gestures the driver only sends: focus the field and select its content
//! ([`Gesture::Focus`]); when the focus did not stay there (a page that moves it, a frame of
//! another origin that takes no focus from a script), click where a person would, at the
//! point prepared for the field, and focus it again; when it still is not there,
//! `FOCUS_LOST` and nothing typed. Then the text replaces the selection
//! ([`Gesture::Insert`]); an empty text deletes it (Backspace).

use super::need::{Answer, Gesture, Need};
use super::point::Point;
use super::Run;
use crate::core::error::{Error, ErrorCode};
use serde::{Deserialize, Serialize};

/// Where filling is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
enum At {
    /// The field focused; waiting for whether the focus held (after the click: `clicked`).
    Focus { clicked: bool },
    /// Waiting for the click at the field's point.
    Click,
    /// Waiting for the text (or the Backspace).
    Text,
}

/// A field being filled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Filling {
    reference: String,
    text: String,
    /// Where a person's click would put the focus in the field (its prepared point).
    point: Point,
    at: At,
}

/// What comes after an answer.
enum Next {
    /// Send this gesture.
    Send(Gesture),
    /// The text is in.
    Done,
    /// Nothing (more) was typed.
    Failed(Error),
}

impl Filling {
    /// Filling `reference` with `text`, and the first gesture: the focus.
    pub(super) fn start(reference: String, text: String, point: Point) -> (Filling, Gesture) {
        let focus = Gesture::Focus {
            reference: reference.clone(),
            select: true,
        };
        let filling = Filling {
            reference,
            text,
            point,
            at: At::Focus { clicked: false },
        };
        (filling, focus)
    }

    /// The driver's answer to the last gesture, and what follows.
    fn on(&mut self, answer: Answer) -> Next {
        match (self.at, answer) {
            (At::Focus { .. }, Answer::Focus { held: true }) => {
                self.at = At::Text;
                Next::Send(match self.text.is_empty() {
                    true => Gesture::Press {
                        reference: None,
                        keys: vec!["Backspace".to_owned()],
                    },
                    false => Gesture::Insert {
                        text: self.text.clone(),
                    },
                })
            }
            (At::Focus { clicked: false }, Answer::Focus { held: false }) => {
                self.at = At::Click;
                Next::Send(Gesture::Click {
                    at: self.point,
                    button: Default::default(),
                })
            }
            (At::Focus { clicked: true }, Answer::Focus { held: false }) => {
                Next::Failed(Error::new(
                    ErrorCode::FocusLost,
                    "the field did not keep the focus, not even after a click on it; nothing was typed",
                ))
            }
            (At::Click, Answer::Sent) => {
                self.at = At::Focus { clicked: true };
                Next::Send(Gesture::Focus {
                    reference: self.reference.clone(),
                    select: true,
                })
            }
            (At::Text, Answer::Sent) => Next::Done,
            (_, Answer::Failed { error }) => Next::Failed(error),
            (_, other) => Next::Failed(Error::new(
                ErrorCode::Internal,
                format!(
                    "the driver answered '{}' to a gesture filling a field",
                    other.name()
                ),
            )),
        }
    }
}

impl Run {
    /// The driver's answer while a field is filled (the step's own input, or an undo's): the
    /// next gesture asked, or `done` once the text is in, or `failed` with why nothing (more)
    /// was typed.
    pub(super) fn on_filling(
        &mut self,
        answer: Answer,
        done: impl FnOnce(&mut Run) -> Need,
        failed: impl FnOnce(&mut Run, Error) -> Need,
    ) -> Need {
        let Some(filling) = self.filling.as_mut() else {
            return self.out_of_step(&answer);
        };
        match filling.on(answer) {
            Next::Send(gesture) => self.ask(Need::Input { gesture }),
            Next::Done => {
                self.filling = None;
                done(self)
            }
            Next::Failed(error) => {
                self.filling = None;
                failed(self, error)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(next: Next) -> Gesture {
        match next {
            Next::Send(g) => g,
            Next::Done => panic!("done early"),
            Next::Failed(e) => panic!("failed: {e}"),
        }
    }

    const AT: Point = Point { x: 12.0, y: 34.0 };

    #[test]
    fn a_field_that_keeps_the_focus_gets_the_text_at_once() {
        let (mut f, first) = Filling::start("e1".into(), "Ada".into(), AT);
        assert!(matches!(first, Gesture::Focus { .. }));
        let g = sent(f.on(Answer::Focus { held: true }));
        assert_eq!(g, Gesture::Insert { text: "Ada".into() });
        assert!(matches!(f.on(Answer::Sent), Next::Done));
    }

    #[test]
    fn a_field_that_loses_the_focus_is_clicked_once_then_refused() {
        let (mut f, _) = Filling::start("e1".into(), "Ada".into(), AT);
        let g = sent(f.on(Answer::Focus { held: false }));
        assert_eq!(
            g,
            Gesture::Click {
                at: AT,
                button: Default::default()
            }
        );
        let g = sent(f.on(Answer::Sent));
        assert!(matches!(g, Gesture::Focus { ref reference, select: true } if reference == "e1"));
        let Next::Failed(e) = f.on(Answer::Focus { held: false }) else {
            panic!("a field that never keeps the focus is typed into");
        };
        assert_eq!(e.code, ErrorCode::FocusLost);
    }

    #[test]
    fn a_click_that_gives_the_focus_lets_the_text_in() {
        let (mut f, _) = Filling::start("e1".into(), "".into(), AT);
        sent(f.on(Answer::Focus { held: false }));
        sent(f.on(Answer::Sent));
        let g = sent(f.on(Answer::Focus { held: true }));
        assert_eq!(
            g,
            Gesture::Press {
                reference: None,
                keys: vec!["Backspace".into()]
            }
        );
    }

    #[test]
    fn a_driver_failure_or_a_stray_answer_ends_it() {
        let (mut f, _) = Filling::start("e1".into(), "x".into(), AT);
        let error = Error::new(ErrorCode::StaleReference, "gone");
        let Next::Failed(e) = f.on(Answer::Failed { error }) else {
            panic!("a failure went on");
        };
        assert_eq!(e.code, ErrorCode::StaleReference);
        let (mut f, _) = Filling::start("e1".into(), "x".into(), AT);
        let Next::Failed(e) = f.on(Answer::Scrolled) else {
            panic!("a stray answer went on");
        };
        assert_eq!(e.code, ErrorCode::Internal);
    }
}
