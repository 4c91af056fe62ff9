//! Waiting inside the page: two animation frames (`prepare`), a timer, and the machine's
//! settle need answered in one call (`prufe.settle`).
//!
//! `settle` is the harness's `stabilise::settle` run where the page is, for the drivers that
//! reach the page through one world (the Node and Python packages): it reads the fingerprint
//! every `pollMs` until it has not changed for `quietMs`, within `timeoutMs`; with `since`,
//! it first waits for the fingerprint to leave that value (a page that never does was quiet
//! throughout, so stable); with `stopOnChange` it answers at the first move. A page that
//! `quietFor` says has shown no sign of change for a whole window is settled at once. A
//! fingerprint that cannot be read counts as a change. A navigation ends the call with the
//! document: the driver asks again on the new one, where the fingerprint has left `since`.

use super::{fingerprint, js, quiet_for, Options};
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::run::Answer;
use js_sys::{Function, Promise};
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A frame never painted (a hidden tab) ends a frame wait after this long.
const FRAME_FALLBACK_MS: i32 = 100;

/// Fingerprint stand-in while the engine cannot read the page.
const UNREACHABLE: &str = "\u{0}unreachable";

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
}

fn read() -> String {
    fingerprint(&Options::default()).unwrap_or_else(|_| UNREACHABLE.to_owned())
}

/// The answer to a settle need.
pub async fn settle(until: Until) -> Result<Answer> {
    if until.need.as_deref().is_some_and(|n| n != "settle") {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "settle takes the machine's settle need",
        ));
    }
    let numbers = [until.poll_ms, until.quiet_ms, until.timeout_ms];
    if numbers.iter().any(|n| !n.is_finite() || *n < 0.0) {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "settle needs pollMs, quietMs and timeoutMs as numbers of 0 or more",
        ));
    }
    let begun = js::now();
    let deadline = begun + until.timeout_ms;
    let since = until.since.as_deref();
    let settled = |last: &str, stable: bool, changed: bool| Answer::Settled {
        fingerprint: if last == UNREACHABLE {
            String::new()
        } else {
            last.to_owned()
        },
        stable,
        changed,
        waited_ms: (js::now() - begun).max(0.0).round() as u64,
    };
    let mut last = read();
    let mut last_change = js::now();
    let mut changed = since.is_some_and(|s| s != last);
    if changed && until.stop_on_change {
        return Ok(settled(&last, false, true));
    }
    let quiet = || quiet_for().unwrap_or(0.0);
    if since.is_none() && last != UNREACHABLE && until.quiet_ms > 0.0 && quiet() >= until.quiet_ms {
        return Ok(settled(&last, true, false));
    }
    loop {
        let now = js::now();
        let waiting_for_effect = since.is_some() && !changed;
        if !waiting_for_effect && now - last_change >= until.quiet_ms && last != UNREACHABLE {
            return Ok(settled(&last, true, changed));
        }
        if now >= deadline {
            // After an action that never changed anything, the page was quiet throughout.
            let stable = waiting_for_effect && last != UNREACHABLE;
            return Ok(settled(&last, stable, changed));
        }
        sleep(until.poll_ms.min(deadline - now)).await;
        let fp = read();
        if fp != last {
            last = fp;
            last_change = js::now();
            changed |= since.is_none_or(|s| s != last);
            if changed && until.stop_on_change {
                return Ok(settled(&last, false, true));
            }
        }
    }
}
