//! Waiting for the page to settle, by asking the cheap question only.
//!
//! A wait loop asks one thing: "has anything observable moved?" The engine answers with a
//! fingerprint string computed in the page (equal fingerprints ⇔ an empty diff), so no
//! snapshot crosses the connection while waiting; the full snapshot is taken once, at the end.
//!
//! `stabilise` polls every `poll_ms` until the fingerprint has not changed for `quiet_ms`,
//! within `timeout_ms`. A page still changing at the deadline is reported unstable, never
//! waited on longer: the judge then treats an empty diff as AMBIGUOUS, not as "no effect".
//! There are no fixed sleeps and no network-idle heuristics.
//!
//! After an action, "the action did nothing" and "the action has not done anything yet" look
//! the same for a while. So after an action the wait first waits for the fingerprint to leave
//! its pre-action value (an effect that starts 700 ms later is still seen), then for quiet; a
//! page that never changes within `timeout_ms` is stable with an empty diff.
//! A navigation makes the engine briefly unreachable; those polls count as changes.
//!
//! What a settle means (learning the background while waiting before the action, looking
//! again while the page says it is busy after it) is decided by the verification machine
//! (`prufe::core::run`, settle needs); this module only polls.

use crate::error::Result;
use crate::inject::Engine;
use std::time::{Duration, Instant};

/// Polling parameters, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    pub poll_ms: u64,
    pub quiet_ms: u64,
    pub timeout_ms: u64,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            poll_ms: 50,
            quiet_ms: 250,
            timeout_ms: 5_000,
        }
    }
}

/// How a wait ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stability {
    /// The fingerprint held for `quiet_ms` (or, after an action, never moved).
    pub stable: bool,
    /// The last fingerprint read.
    pub fingerprint: String,
    /// Did the fingerprint leave its starting value?
    pub changed: bool,
    pub waited: Duration,
    /// Why the page still said it was working when the wait ended (then `stable` is false).
    pub busy: Option<String>,
}

/// Fingerprint stand-in while the engine cannot be reached (a document is being replaced).
const UNREACHABLE: &str = "\u{0}unreachable";

/// One settle as the machine asks it (`Need::Settle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettleUntil {
    pub poll: Duration,
    pub quiet: Duration,
    pub timeout: Duration,
    /// Answer as soon as the fingerprint moves (not stable, changed).
    pub stop_on_change: bool,
}

impl From<Timing> for SettleUntil {
    fn from(t: Timing) -> Self {
        SettleUntil {
            poll: Duration::from_millis(t.poll_ms),
            quiet: Duration::from_millis(t.quiet_ms),
            timeout: Duration::from_millis(t.timeout_ms),
            stop_on_change: false,
        }
    }
}

/// Waits for the page to settle. With `since` (the fingerprint read right before an action),
/// first waits for a change away from it.
pub async fn stabilise(engine: &Engine, timing: Timing, since: Option<&str>) -> Result<Stability> {
    settle(engine, timing.into(), since).await
}

/// Polls the fingerprint until it has been quiet for `until.quiet` (after leaving `since`,
/// when given), the deadline, or with `stop_on_change` its first move.
pub async fn settle(engine: &Engine, until: SettleUntil, since: Option<&str>) -> Result<Stability> {
    let start = Instant::now();
    let deadline = start + until.timeout;
    let poll = until.poll.max(Duration::from_millis(1));
    let quiet = until.quiet;

    let mut last = read(engine).await?;
    let mut last_change = Instant::now();
    let mut changed = since.is_some_and(|s| s != last);
    let ended = |stable: bool, fingerprint: String, changed: bool| Stability {
        stable,
        fingerprint,
        changed,
        waited: start.elapsed(),
        busy: None,
    };
    loop {
        let now = Instant::now();
        let waiting_for_effect = since.is_some() && !changed;
        if !waiting_for_effect && now.duration_since(last_change) >= quiet && last != UNREACHABLE {
            return Ok(ended(true, last, changed));
        }
        if now >= deadline {
            // After an action that never changed anything, the page was quiet throughout.
            let stable = waiting_for_effect && last != UNREACHABLE;
            return Ok(ended(stable, last, changed));
        }
        // The page knows when it last changed (`prufe.quietFor`): once the effect is seen, a
        // page that has been quiet for the window since its last change is settled, and the
        // next poll comes no later than the window's end.
        let mut nap = poll;
        if !waiting_for_effect && last != UNREACHABLE {
            let quiet_for = match engine.roots().await {
                Ok(roots) => engine.quiet_for(&roots).await,
                Err(_) => 0.0,
            };
            let quiet_ms = quiet.as_secs_f64() * 1000.0;
            if quiet_for > 0.0 && quiet_for >= quiet_ms {
                let fp = read(engine).await?;
                if fp == last {
                    return Ok(ended(true, last, changed));
                }
            } else if quiet_for > 0.0 {
                nap = nap.min(Duration::from_secs_f64((quiet_ms - quiet_for) / 1000.0));
            }
        }
        tokio::time::sleep(nap.min(deadline.saturating_duration_since(now))).await;
        let fp = read(engine).await?;
        if fp != last {
            last = fp;
            last_change = Instant::now();
            if since.is_none_or(|s| s != last) {
                changed = true;
            }
            if until.stop_on_change {
                return Ok(ended(false, last, true));
            }
        }
    }
}

/// The verifier's last observation of a document and the fingerprint it was taken at.
pub use prufe::core::run::Seen;

/// The page's fingerprint now, as the wait loop reads it.
pub async fn fingerprint_now(engine: &Engine) -> Result<String> {
    read(engine).await
}

/// One fingerprint read; a transient failure (no context during a navigation) reads as
/// [`UNREACHABLE`], a real engine error (wasm refused, …) is returned.
async fn read(engine: &Engine) -> Result<String> {
    let roots = match engine.roots().await {
        Ok(r) => r,
        Err(e) if transient(&e) => return Ok(UNREACHABLE.to_owned()),
        Err(e) => return Err(e),
    };
    match engine.fingerprint(&roots).await {
        Ok(fp) => Ok(fp),
        Err(e) if transient(&e) => Ok(UNREACHABLE.to_owned()),
        Err(e) => Err(e),
    }
}

pub(crate) fn transient(e: &crate::Error) -> bool {
    use prufe::core::ErrorCode::*;
    if crate::inject::is_context_gone(e) {
        return true;
    }
    matches!(
        e.code(),
        BrowserError | NotReady | StaleReference | Internal | Timeout
    ) && !matches!(e.code(), WasmBlocked)
}
