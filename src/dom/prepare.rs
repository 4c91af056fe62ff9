//! `prufe.prepare(ref, hitTest, timeoutMs)`: the machine's prepare need
//! (`core::run::Need::Prepare`) answered inside the page, once for every driver of the
//! bundle (the Node and Python packages; the CDP harness answers it over the protocol, with
//! frames of other processes).
//!
//! The element of the ref, checked once, must have a non-empty box that holds still across
//! two animation frames (a page that showed no mutation, no layout event and no animation
//! for two frames, `quietFor`, holds its boxes still: one read), its point in view (else it
//! is scrolled there and the answer is `scrolled`: observe again), and, with `hitTest`, the
//! page's hit test at the point must reach it. Every refusal is a `failed` answer with its
//! typed code and the harness's words, so the records agree whatever drove the step.

use super::input::{bounds_of, hit_node, scroll_node_into_view, Bounds};
use super::wait::two_frames;
use super::{describe, element, js, quiet_for};
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::identity::describe_element;
use crate::core::run::{Answer, Point};

/// Two animation frames at 60 Hz: how long a box must hold still.
const TWO_FRAMES_MS: f64 = 34.0;

fn same_box(a: &Bounds, b: &Bounds) -> bool {
    (a.x - b.x).abs() < 0.5
        && (a.y - b.y).abs() < 0.5
        && (a.width - b.width).abs() < 0.5
        && (a.height - b.height).abs() < 0.5
}

fn refused(code: ErrorCode, message: String) -> Result<Answer> {
    Err(Error::new(code, message))
}

/// The answer to a prepare need; a refusal or a stale ref is a `failed` answer.
pub async fn prepare(reference: &str, hit_test: bool, timeout_ms: f64) -> Answer {
    match ready(reference, hit_test, timeout_ms).await {
        Ok(answer) => answer,
        Err(error) => Answer::Failed { error },
    }
}

async fn ready(reference: &str, hit_test: bool, timeout_ms: f64) -> Result<Answer> {
    let el = element(reference)?;
    let what = describe(reference)?
        .map(|e| describe_element(&e))
        .unwrap_or_else(|| reference.to_owned());
    let deadline = js::now() + timeout_ms.max(0.0);
    let mut b = bounds_of(&el)?;
    if quiet_for()? < TWO_FRAMES_MS {
        loop {
            two_frames().await;
            let now = bounds_of(&el)?;
            if !(now.width > 0.0 && now.height > 0.0) {
                return refused(
                    ErrorCode::TargetNotVisible,
                    format!("{what} has an empty box; it cannot be clicked"),
                );
            }
            let still = same_box(&b, &now);
            b = now;
            if still {
                break;
            }
            if js::now() >= deadline {
                return refused(
                    ErrorCode::TargetNotStable,
                    format!("{what} kept moving for {timeout_ms} ms; nothing was dispatched"),
                );
            }
        }
    }
    let Some(point) = b.point else {
        return refused(
            ErrorCode::TargetNotVisible,
            format!("{what} has no visible area"),
        );
    };
    if !b.in_view {
        scroll_node_into_view(&el)?;
        return Ok(Answer::Scrolled);
    }
    if hit_test {
        if let Some(by) = hit_node(&el, point.x, point.y)? {
            return refused(
                ErrorCode::TargetObscured,
                format!(
                    "{what} is covered by {by} at ({}, {}); nothing was clicked",
                    point.x.round(),
                    point.y.round()
                ),
            );
        }
    }
    Ok(Answer::Prepared {
        point: Point {
            x: point.x,
            y: point.y,
        },
    })
}
