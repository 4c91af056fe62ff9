//! `prufe.prepare(ref, hitTest, timeoutMs)`: the machine's prepare need
//! (`core::run::Need::Prepare`) answered inside the page, once for every driver (the CLI, the
//! Node and Python packages), in the root the ref names; a frame's point is moved to the top
//! viewport and hit-tested in the documents above by the machine (`core::run::lift`).
//!
//! The element of the ref, checked once, must have a non-empty box that holds still across
//! two animation frames (a page that showed no mutation, no layout event and no animation
//! for two frames, `stillFor`, holds its boxes still: one read), its point in view (else it
//! is scrolled there and the answer is `scrolled`: observe again), and, with `hitTest`, the
//! page's hit test at the point must reach it, or else at the point of one of its `<label>`s,
//! which then is where input goes (a visually hidden input inside the label a person clicks:
//! `input::label_in_reach`). Every refusal is a `refused` answer, data without words: the
//! machine words it (`core::run::ready`) with its own name for
//! the target, so the records agree whatever drove the step.

use super::input::{bounds_of, hit_node, label_in_reach, scroll_node_into_view, Bounds};
use super::wait::two_frames;
use super::{element, js, still_for};
use crate::core::error::Result;
use crate::core::run::ready::{self, Extent, Refusal, TWO_FRAMES_MS};
use crate::core::run::Answer;

fn extent(b: &Bounds) -> Extent {
    [b.x, b.y, b.width, b.height]
}

/// The answer to a prepare need; a stale ref is a `failed` answer.
pub async fn prepare(reference: &str, hit_test: bool, timeout_ms: f64) -> Answer {
    match ready(reference, hit_test, timeout_ms).await {
        Ok(answer) => answer,
        Err(error) => Answer::Failed { error },
    }
}

async fn ready(reference: &str, hit_test: bool, timeout_ms: f64) -> Result<Answer> {
    let el = element(reference)?;
    let refused = |refusal| Ok(Answer::Refused { refusal });
    let deadline = js::now() + timeout_ms.max(0.0);
    let mut b = bounds_of(&el)?;
    if still_for()? < TWO_FRAMES_MS {
        loop {
            two_frames().await;
            let now = bounds_of(&el)?;
            if ready::is_empty(extent(&now)) {
                return refused(Refusal::EmptyBox);
            }
            let still = ready::holds_still(extent(&b), extent(&now));
            b = now;
            if still {
                break;
            }
            if js::now() >= deadline {
                return refused(Refusal::KeptMoving {
                    timeout_ms: timeout_ms.max(0.0) as u64,
                });
            }
        }
    }
    let Some(mut point) = b.point else {
        return refused(Refusal::NoVisibleArea);
    };
    if !b.in_view {
        scroll_node_into_view(&el)?;
        return Ok(Answer::Scrolled);
    }
    if hit_test {
        if let Some(by) = hit_node(&el, point.x, point.y)? {
            // A visually hidden control is operated through its label (see `label_in_reach`).
            match label_in_reach(&el)? {
                Some((_, at)) => point = at,
                None => return refused(Refusal::Covered { by, point }),
            }
        }
    }
    Ok(Answer::Prepared { point })
}
