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
//! A navigation makes the engine briefly unreachable; those polls count as changes, and a
//! document that does not come back by the deadline ends the step on the machine's error.
//!
//! What a settle means (learning the background while waiting before the action, looking
//! again while the page says it is busy after it) is decided by the verification machine
//! (`prufe::core::run`, settle needs); this module only polls.

use crate::error::Result;
use crate::inject::Engine;
use crate::observe::{root_filters, Root};
use prufe::core::background::Background;
use prufe::core::run::quiet::UNREACHABLE;
use prufe::core::run::{Answer, Need};
use prufe::core::ErrorCode;
use serde_json::json;
use std::time::{Duration, Instant};

/// Polling parameters, in milliseconds: the machine's own, defaults included.
pub use prufe::core::run::Timing;

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
    /// The wait ended on the shorter window (`SettleUntil::quick`): stable and changed.
    pub quick: bool,
}

/// One settle as the machine asks it (`Need::Settle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettleUntil {
    pub poll: Duration,
    pub quiet: Duration,
    pub timeout: Duration,
    /// Answer as soon as the fingerprint moves (not stable, changed).
    pub stop_on_change: bool,
    /// After leaving `since`: the shorter window the page's own word may end the wait on
    /// (`Need::Settle`'s `quick_ms`); zero for none.
    pub quick: Duration,
    /// Leaving `since` counts in the fingerprint's claims too (`Need::Settle`'s `claims`).
    pub claims: bool,
}

impl From<Timing> for SettleUntil {
    fn from(t: Timing) -> Self {
        SettleUntil {
            poll: Duration::from_millis(t.poll_ms),
            quiet: Duration::from_millis(t.quiet_ms),
            timeout: Duration::from_millis(t.timeout_ms),
            stop_on_change: false,
            quick: Duration::ZERO,
            claims: false,
        }
    }
}

/// Waits for the page to settle. With `since` (the fingerprint read right before an action),
/// first waits for a change away from it.
pub async fn stabilise(engine: &Engine, timing: Timing, since: Option<&str>) -> Result<Stability> {
    settle(engine, timing.into(), since).await
}

/// Waits until the page has been quiet for `until.quiet` (after leaving `since`, when given),
/// the deadline, or with `stop_on_change` its first move: the settle loop of
/// `prufe::core::run::quiet`. A page of one document (no frame of another process) runs it
/// itself, in one call (`prufe.settle`); a page whose frames have engines of their own is
/// polled, every root's fingerprint and `quietFor` read per turn. A document replaced during
/// the call is the machine's to judge (`Settling::replaced`): the rest of the wait is polled,
/// unreachable reads as `None`, to the need's deadline.
pub async fn settle(engine: &Engine, until: SettleUntil, since: Option<&str>) -> Result<Stability> {
    settle_over(engine, until, since, &Background::default()).await
}

/// [`settle`], with the fingerprint leaving out what is in a slot of `background` (what the
/// page was seen changing by itself: `Need::Settle`'s own).
pub async fn settle_over(
    engine: &Engine,
    until: SettleUntil,
    since: Option<&str>,
    background: &Background,
) -> Result<Stability> {
    let start = Instant::now();
    let need = need_of(until, since, background);
    // Several roots: the machine's composition asks each (`crate::whole`). A document
    // replaced during the page's own loop: the composition goes on from there, a change, to
    // the need's deadline.
    let gone = |e: crate::Error| match transient(&e) && !e.is_fatal() {
        true => Ok(Answer::Failed { error: e.to_core() }),
        false => Err(e),
    };
    let (first, roots) = match engine.roots().await {
        Err(e) => (gone(e)?, Vec::new()),
        Ok(roots) => match in_page(engine, &need, since, &roots).await {
            Ok(Some(answer)) => return ended(answer, start),
            Ok(None) => {
                let shown = crate::whole::filtered(engine, roots);
                (crate::whole::named(&shown), shown)
            }
            Err(e) => (gone(e)?, Vec::new()),
        },
    };
    let answer = Box::pin(crate::whole::compose(engine, &need, first, roots)).await?;
    ended(answer, start)
}

/// The settle asked of a page of one root in one call (`prufe.settle`), its fingerprint the
/// merged one; `None` when the page has several roots, to be polled.
async fn in_page(
    engine: &Engine,
    need: &Need,
    since: Option<&str>,
    roots: &[Root],
) -> Result<Option<Answer>> {
    let [root] = roots else {
        return Ok(None);
    };
    let Some(options) = root_filters(engine.filters(), &root.path) else {
        return Ok(None);
    };
    let mut asked = serde_json::to_value(need)
        .map_err(|e| crate::Error::core(ErrorCode::Internal, format!("settle need: {e}")))?;
    // The page's own fingerprint is the one root's part of the merged one.
    asked["since"] = json!(since.map(|s| own_part(s).unwrap_or(s)));
    let answer = engine
        .call_once::<Answer>(
            &root.frame,
            "(P, a) => P.settle(a.need, a.options)",
            &json!({ "need": asked, "options": options }),
        )
        .await?;
    Ok(Some(match answer {
        Answer::Settled {
            fingerprint,
            stable,
            changed,
            waited_ms,
        } => Answer::Settled {
            fingerprint: merged_of_one(&root.path, &fingerprint),
            stable,
            changed,
            waited_ms,
        },
        Answer::Quick {
            fingerprint,
            waited_ms,
        } => Answer::Quick {
            fingerprint: merged_of_one(&root.path, &fingerprint),
            waited_ms,
        },
        other => other,
    }))
}

/// How the settle ended, as the machine answered it.
fn ended(answer: Answer, start: Instant) -> Result<Stability> {
    match answer {
        Answer::Settled {
            fingerprint,
            stable,
            changed,
            ..
        } => Ok(Stability {
            stable,
            fingerprint,
            changed,
            waited: start.elapsed(),
            busy: None,
            quick: false,
        }),
        Answer::Quick { fingerprint, .. } => Ok(Stability {
            stable: true,
            fingerprint,
            changed: true,
            waited: start.elapsed(),
            busy: None,
            quick: true,
        }),
        Answer::Failed { error } => Err(error.into()),
        other => Err(crate::Error::core(
            ErrorCode::Internal,
            format!("a settle was answered {:?}", other.name()),
        )),
    }
}

fn need_of(until: SettleUntil, since: Option<&str>, background: &Background) -> Need {
    Need::Settle {
        since: since.map(str::to_owned),
        poll_ms: until.poll.as_millis() as u64,
        quiet_ms: until.quiet.as_millis() as u64,
        timeout_ms: until.timeout.as_millis() as u64,
        stop_on_change: until.stop_on_change,
        background: background.clone(),
        quick_ms: until.quick.as_millis() as u64,
        claims: until.claims,
    }
}

/// The page's fingerprint inside a merged one of a single root (`=<fp>;`).
fn own_part(merged: &str) -> Option<&str> {
    let rest = merged.strip_prefix('=')?.strip_suffix(';')?;
    (!rest.contains(';')).then_some(rest)
}

/// The merged fingerprint of one root, as [`Engine::fingerprint`] writes it.
fn merged_of_one(path: &str, fingerprint: &str) -> String {
    format!("{path}={fingerprint};")
}

/// The verifier's last observation of a document and the fingerprint it was taken at.
pub use prufe::core::run::Seen;

/// The page's fingerprint now, as the coordinate steps' observation compares it around its
/// capture: a page that cannot answer now (a navigation) reads as [`UNREACHABLE`], a change.
pub async fn fingerprint_now(engine: &Engine) -> Result<String> {
    match fingerprint_over(engine, &Background::default()).await {
        Err(e) if transient(&e) => Ok(UNREACHABLE.to_owned()),
        read => read,
    }
}

/// The page's fingerprint, leaving out what is in a slot of `background`: `Need::Fingerprint`.
/// A page that cannot answer now is the error as it came; the machine reads a transient one
/// as a move (`Run::next`), so no driver decides it.
pub async fn fingerprint_over(engine: &Engine, background: &Background) -> Result<String> {
    let roots = engine.roots().await?;
    crate::whole::fingerprint(engine, &roots, background).await
}

/// A page that could not answer now (the machine's codes, `ErrorCode::is_transient`, or a
/// context the protocol says is gone): asked again, never a step's end.
pub(crate) fn transient(e: &crate::Error) -> bool {
    crate::inject::is_context_gone(e) || e.code().is_transient()
}
