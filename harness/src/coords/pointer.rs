//! The driver's side of a coordinate step (`click_at`, `drag_at`, `scroll_at`, `key`,
//! `type` of [`crate::coords`]): while the machine drives the step (see `drive`), the element
//! under a point is reconciled with the observation the point was chosen on, and the input
//! goes through the tab's ledger, released whatever happens.

use super::input::{self, lock, Input, SharedLedger};
use crate::error::{Error, Result};
use crate::executor::{encode_chord, HitBox, Point};
use crate::inject::Engine;
use prufe::core::error::ErrorCode;
use prufe::core::run;
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
    /// While a drag's button is down between gestures: releases it if the step is dropped
    /// (cancelled) before the machine's release.
    holding: Option<input::ReleaseGuard<Engine>>,
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
            holding: None,
        }
    }

    /// The boxes of the observation the step's points were chosen on (`Read::Aimed`).
    pub(crate) fn boxes(&self) -> &[HitBox] {
        &self.boxes
    }

    /// Sends a gesture of a coordinate step (the pointer's, a wheel turn, a key chord on
    /// whatever has the focus, text inserted there). A drag's button stays down from its
    /// [`run::Gesture::Down`] to its [`run::Gesture::Up`], as the machine sends them (the
    /// machine sends the release also after a failed move); any other press is released
    /// before this returns, also when its gesture fails.
    pub(crate) async fn send(&mut self, engine: &Engine, gesture: &run::Gesture) -> Result<()> {
        let mut input = Input::new(engine.clone(), self.ledger.clone(), self.event_timeout);
        let guard = input.guard();
        let sent = async {
            match gesture {
                run::Gesture::MoveTo { at } => input.move_to(*at).await,
                run::Gesture::Click { at, button } => input.click(*button, *at).await,
                run::Gesture::Down { at, button } => {
                    input.move_to(*at).await?;
                    input.press(*button, *at).await
                }
                run::Gesture::Up { at, button } => {
                    input.move_to(*at).await?;
                    input.release(*button, *at).await
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
        // Between a drag's press and its release (which the machine sends also after a
        // failed move) the button stays down; the guard releases it if the step is dropped.
        let dragging = match gesture {
            run::Gesture::Down { .. } => true,
            run::Gesture::MoveTo { .. } => self.holding.is_some(),
            _ => false,
        };
        if dragging {
            match self.holding {
                Some(_) => guard.disarm(),
                None => self.holding = Some(guard),
            }
        } else {
            let release = input.release_all().await;
            self.released = release.clean();
            guard.disarm();
            if release.clean() {
                if let Some(held) = self.holding.take() {
                    held.disarm();
                }
            }
        }
        self.position = input.pointer();
        sent?;
        if !self.released {
            return Err(Error::core(
                ErrorCode::InputStateUnknown,
                "a key or button could not be released after the action",
            ));
        }
        Ok(())
    }

    /// The safety net at the end of a step: whatever is still held (a drive that ended
    /// between a drag's press and its release) is released now.
    pub(crate) async fn let_go(&mut self, engine: &Engine) {
        if lock(&self.ledger).held().is_empty() {
            return;
        }
        let mut input = Input::new(engine.clone(), self.ledger.clone(), self.event_timeout);
        self.released = input.release_all().await.clean();
        if self.released {
            if let Some(held) = self.holding.take() {
                held.disarm();
            }
        }
    }
}
