//! Waiting inside the page: two animation frames (`prepare`), a timer, and the machine's
//! settle need answered in one call (`prufe.settle`).
//!
//! `settle` runs the one settle loop (`core::run::quiet`, which the harness runs over the
//! protocol) where the page is: it reads the fingerprint and `quietFor` every `pollMs` until
//! the page has been quiet for `quietMs`, within `timeoutMs`; with `since`, it first waits
//! for the fingerprint to leave that value (a page that never does was quiet throughout, so
//! stable); with `stopOnChange` it answers at the first move. A page that `quietFor` says has
//! shown no sign of change for a whole window is settled at once. A fingerprint that cannot
//! be read counts as a change. A navigation ends the call with the document: the driver asks
//! again on the new one, where the fingerprint has left `since`.

use super::{fingerprint, js, quiet_for, Options};
use crate::core::background::Background;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::run::quiet::{Settling, Tick};
use crate::core::run::{Answer, Need};
use js_sys::{Function, Promise};
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A frame never painted (a hidden tab) ends a frame wait after this long.
const FRAME_FALLBACK_MS: i32 = 100;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = requestAnimationFrame)]
    fn request_animation_frame(callback: &Function) -> f64;
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(callback: &Function, ms: i32) -> f64;
}

/// Resolves after two animation frames, or [`FRAME_FALLBACK_MS`].
pub(super) async fn two_frames() {
    let promise = Promise::new(&mut |resolve: Function, _reject: Function| {
        let last = resolve.clone();
        let second = Closure::once_into_js(move || {
            let _ = last.call0(&JsValue::NULL);
        });
        let first = Closure::once_into_js(move || {
            request_animation_frame(second.unchecked_ref());
        });
        request_animation_frame(first.unchecked_ref());
        set_timeout(&resolve, FRAME_FALLBACK_MS);
    });
    let _ = JsFuture::from(promise).await;
}

/// Resolves after `ms` milliseconds.
async fn sleep(ms: f64) {
    let ms = ms.clamp(1.0, i32::MAX as f64) as i32;
    let promise = Promise::new(&mut |resolve: Function, _reject: Function| {
        set_timeout(&resolve, ms);
    });
    let _ = JsFuture::from(promise).await;
}

/// The machine's settle need (`core::run::Need::Settle`), as the driver hands it over.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Until {
    #[serde(default)]
    need: Option<String>,
    #[serde(default)]
    since: Option<String>,
    poll_ms: f64,
    quiet_ms: f64,
    timeout_ms: f64,
    #[serde(default)]
    stop_on_change: bool,
    #[serde(default)]
    background: Background,
    #[serde(default)]
    quick_ms: f64,
    #[serde(default)]
    claims: bool,
}

fn read(options: &Options) -> Option<String> {
    fingerprint(options).ok()
}

/// The answer to a settle need: the settle loop of `core::run::quiet`, with the page's own
/// fingerprint (under `options`: regions, budget) and `quietFor` read between timers.
pub async fn settle(until: Until, mut options: Options) -> Result<Answer> {
    if until.need.as_deref().is_some_and(|n| n != "settle") {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "settle takes the machine's settle need",
        ));
    }
    let numbers = [
        until.poll_ms,
        until.quiet_ms,
        until.timeout_ms,
        until.quick_ms,
    ];
    if numbers.iter().any(|n| !n.is_finite() || *n < 0.0) {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "settle needs pollMs, quietMs and timeoutMs as numbers of 0 or more",
        ));
    }
    let need = Need::Settle {
        since: until.since,
        poll_ms: until.poll_ms.round() as u64,
        quiet_ms: until.quiet_ms.round() as u64,
        timeout_ms: until.timeout_ms.round() as u64,
        stop_on_change: until.stop_on_change,
        background: Background::default(),
        quick_ms: until.quick_ms.round() as u64,
        claims: until.claims,
    };
    if !until.background.is_empty() {
        options.background = until.background;
    }
    let quiet = || quiet_for().unwrap_or(0.0);
    let first = read(&options);
    let Some((mut settling, mut tick)) = Settling::start(&need, js::now(), first, quiet()) else {
        return Err(Error::new(ErrorCode::Internal, "a settle need is a settle"));
    };
    loop {
        match tick {
            Tick::Done(answer) => return Ok(answer),
            Tick::Wait { ms } => {
                sleep(ms).await;
                let fp = read(&options);
                tick = settling.read(js::now(), fp, quiet());
            }
        }
    }
}
