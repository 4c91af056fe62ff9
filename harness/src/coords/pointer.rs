//! The driver's side of a coordinate step (`click_at`, `drag_at`, `scroll_at`, `key`,
//! `type` of [`crate::coords`]): while the machine drives the step (see `drive`), the element
//! under a point is reconciled with the observation the point was chosen on, and the input
//! goes through the tab's ledger, released whatever happens.

use super::input::{self, Checkpoint, Input, SharedLedger};
use super::page::{self, RootBox};
use crate::error::{Error, Result};
use crate::executor::{drag_path, encode_chord, identity_at, Button, HitBox, Point};
use crate::inject::Engine;
use crate::observe::Root;
use prufe::core::error::ErrorCode;
use prufe::core::identity::{describe_element, Identity};
use prufe::core::model::Element;
use prufe::core::run;
use prufe::core::run::screen;
use std::time::Duration;

/// The driver's side of a pointer step: the hit boxes of the observation its points were
/// chosen on, and the input it sends (every press in the tab's ledger, released whatever
/// happens).
pub(crate) struct Pointer {
    boxes: Vec<HitBox>,
    ledger: SharedLedger,
    event_timeout: Duration,
    /// Where the pointer is.
    pub(crate) position: Option<Point>,
    /// Everything pressed was released.
    pub(crate) released: bool,
}

impl Pointer {
    /// The pointer of a step whose points were chosen on `boxes`, starting at `position`.
    pub(crate) fn new(
        boxes: Vec<HitBox>,
        ledger: SharedLedger,
        event_timeout: Duration,
        position: Option<Point>,
    ) -> Pointer {
        Pointer {
            boxes,
            ledger,
            event_timeout,
            position,
            released: true,
        }
    }

    /// The element under `at` now, reconciled with the observation: when the hit test and
    /// the observation disagree on an unchanged page (an element whose centre is covered, a
    /// frame element snapshots do not list), the element the boxes show is the answer,
    /// unless the boxes give another answer now or the element under the point appeared
    /// there since.
    pub(crate) async fn locate(
        &self,
        engine: &Engine,
        roots: &[Root],
        frames: &[RootBox],
        at: Point,
    ) -> Result<Option<Element>> {
        locate(engine, roots, frames, &self.boxes, at).await
    }

    /// Sends a gesture of a coordinate step (the pointer's, a wheel turn, a key chord on
    /// whatever has the focus, text inserted there); every press is released before this
    /// returns.
    pub(crate) async fn send(
        &mut self,
        engine: &Engine,
        roots: &[Root],
        gesture: &run::Gesture,
    ) -> Result<()> {
        let mut input = Input::new(engine.clone(), self.ledger.clone(), self.event_timeout);
        let guard = input.guard();
        let sent = async {
            match gesture {
                run::Gesture::MoveTo { at } => input.move_to(*at).await,
                run::Gesture::Click { at, button } => input.click(*button, *at).await,
                run::Gesture::Drag { from, to, steps } => {
                    let destination = identity_at(&self.boxes, *to).cloned();
                    let mut cp = DestinationStays {
                        engine,
                        roots,
                        destination: destination.as_ref(),
                    };
                    input::drag(
                        &mut input,
                        Button::Left,
                        *from,
                        &drag_path(*from, *to, *steps),
                        &mut cp,
                    )
                    .await
                }
                run::Gesture::Wheel { at, dx, dy } => {
                    input.move_to(*at).await?;
                    input.wheel(*at, *dx, *dy).await
                }
                run::Gesture::Insert { text } => input.insert_text(text).await,
                run::Gesture::Press {
                    reference: None,
                    keys,
                } => input::chord(&mut input, &encode_chord(keys)?).await,
                other => Err(Error::core(
                    ErrorCode::Internal,
                    format!("{other:?} is not a gesture of the coordinate executor"),
                )),
            }
        }
        .await;
        let release = input.release_all().await;
        guard.disarm();
        self.position = input.pointer();
        self.released = release.clean();
        sent?;
        if !self.released {
            return Err(Error::core(
                ErrorCode::InputStateUnknown,
                "a key or button could not be released after the action",
            ));
        }
        Ok(())
    }
}

/// The answer to the machine's `Need::Locate`: the element under `at` now, reconciled with
/// the boxes of the observation the point was chosen on (`then`) by the machine's rules
/// (`screen::agrees`, `screen::reconcile`), the boxes now asked only when the two hit tests
/// disagree.
pub(crate) async fn locate(
    engine: &Engine,
    roots: &[Root],
    frames: &[RootBox],
    then: &[HitBox],
    at: Point,
) -> Result<Option<Element>> {
    let now = page::element_at(engine, roots, frames, at).await?;
    if screen::agrees(then, at, now.as_ref()) {
        return Ok(now);
    }
    let boxes_now = page::hit_boxes(engine, roots, frames).await?;
    Ok(screen::reconcile(then, &boxes_now, at, now))
}

/// During a drag: the destination element is still on the page with the same identity.
struct DestinationStays<'a> {
    engine: &'a Engine,
    roots: &'a [Root],
    destination: Option<&'a Element>,
}

impl Checkpoint for DestinationStays<'_> {
    async fn check(&mut self, step: usize) -> Result<()> {
        let Some(want) = self.destination else {
            return Ok(());
        };
        let live = self.engine.describe(self.roots, &want.reference).await?;
        match live {
            Some(e) if Identity::of(&e) == Identity::of(want) => Ok(()),
            other => Err(Error::core(
                ErrorCode::TargetChanged,
                format!(
                    "the drag's destination {} {} after move {} of the drag; the button was released and the drag abandoned",
                    describe_element(want),
                    match other {
                        Some(e) => format!("now shows {}", describe_element(&e)),
                        None => "left the page".to_owned(),
                    },
                    step + 1
                ),
            )),
        }
    }
}
