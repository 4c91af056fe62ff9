//! Knowing at once that the tab can no longer answer, and saying why.
//!
//! A DevTools command sent to a renderer that crashed, or to a browser that exited, never
//! gets its answer: the connection fails it only when its 30 s request timeout runs out, as a
//! bare `Request timed out`. The events that say what happened arrive within milliseconds,
//! so a [`Watchdog`] listens for them, and every command of the tab races it (the one place
//! commands go through is [`Watchdog::guard`], called by `Engine::cmd`):
//!
//! | what happened | how it shows | error |
//! | --- | --- | --- |
//! | the renderer crashed | `Inspector.targetCrashed` on the tab's session, `Target.targetCrashed` for its target | `PAGE_CRASHED` |
//! | the tab went away | `Target.detachedFromTarget` (its session), `Target.targetDestroyed` (its target) | `PAGE_CRASHED` |
//! | the browser exited | the connection closes (its handler ends) | `BROWSER_CLOSED` |
//! | the main thread is stuck | no event at all: see below | `PAGE_UNRESPONSIVE` |
//! | the browser answers nothing, its connection open | no event at all: see below | `BROWSER_CLOSED` |
//!
//! A tab that goes away while the browser shuts down is the browser closing: a detach is
//! reported only after [`SHUTDOWN_GRACE`], as `BROWSER_CLOSED` if the connection closed
//! meanwhile. The first cause reported stays: a crash is not renamed by the browser closing
//! afterwards.
//!
//! **Hangs.** A page whose main thread never returns (`while (true) {}` in a click handler)
//! answers nothing that needs that thread: `Runtime.evaluate` in any of its worlds, the input
//! events it must acknowledge, a screenshot. No event says so, and a command may legitimately
//! wait (a navigation, a promise the engine awaits). So a command unanswered for the step's
//! time budget is followed by a probe, `Runtime.evaluate("0")` in the main world, which needs
//! the main thread and nothing else: no answer within [`PROBE_TIMEOUT`] and the page is
//! unresponsive. The budget applies per command rather than as the remainder of the step:
//! a step is several waits each bounded by the budget, and a per-command bound puts every
//! hang at most budget + probe from its start, wherever in the step it starts. A command
//! that loads a document ([`LOADS`]) gets the longer load budget first: a heavy page may
//! keep the thread building itself for a while, and a slow load is not a hang.
//!
//! Beside the probe goes `Browser.getVersion` on the tab's session, which the browser process
//! answers itself, however stuck the page's thread is. When that too goes unanswered, the
//! browser is gone although the connection stays open: a proxy between prufe and the browser
//! kept prufe's side of the socket after the browser's side closed (a Selenium Grid may, when
//! it ends the session under prufe: `DELETE /session`, or its session timeout). That is
//! `BROWSER_CLOSED`, and every later command fails at once, not a page said to be busy.
//!
//! An unresponsive page stays marked so, and every later command fails at once, until a
//! probe left running in the background gets its answer (the page came back). Without the
//! mark each later command (releasing handles, releasing input) would wait a budget again.
//!
//! A tab attached with [`crate::Verifier::attach`] has no browser connection to listen to:
//! only the tab's own events (the crash) and hangs are seen there.

use crate::cdp::{CdpError, Connection, Page};
use crate::error::{Error, Result};
use futures::StreamExt;
use serde::Deserialize;
use serde_json::{json, Value};
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// How long the main thread has to answer the probe once a command went unanswered for the
/// budget.
pub const PROBE_TIMEOUT: Duration = Duration::from_millis(1_500);

/// How long a tab that went away waits for the connection to close too (then it was the
/// browser shutting down, not the tab).
pub const SHUTDOWN_GRACE: Duration = Duration::from_millis(250);

/// The budget used until [`Watchdog::with_unresponsive_after`] sets the step's own.
pub const DEFAULT_UNRESPONSIVE_AFTER: Duration = Duration::from_secs(5);

/// The commands that load a document, given the load budget before a probe.
pub const LOADS: &[&str] = &[
    "Page.navigate",
    "Page.reload",
    "Page.navigateToHistoryEntry",
];

/// Why the tab can no longer answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gone {
    /// The renderer crashed.
    Crashed,
    /// The tab's target was closed or detached.
    TabClosed,
    /// The browser exited or the connection closed.
    BrowserClosed,
    /// The browser answers nothing, not even `Browser.getVersion`, though the connection
    /// stays open.
    BrowserSilent,
}

impl Gone {
    /// The error a command `during` ends with.
    pub fn error(self, during: &str) -> Error {
        match self {
            Gone::Crashed => {
                Error::PageCrashed(format!("the page's renderer crashed (during {during})"))
            }
            Gone::TabClosed => Error::PageCrashed(format!(
                "the tab was closed or detached from prufe (during {during})"
            )),
            Gone::BrowserClosed => Error::BrowserClosed(format!(
                "the browser exited or its DevTools connection closed (during {during})"
            )),
            Gone::BrowserSilent => Error::BrowserClosed(format!(
                "the browser answers nothing, not even Browser.getVersion, though its DevTools \
                 connection is open: a proxy in between (a Selenium Grid whose session ended) \
                 kept the socket after the browser went away (during {during})"
            )),
        }
    }
}

/// The state the event tasks write and the commands read.
struct Shared {
    gone: watch::Sender<Option<Gone>>,
    /// The page did not answer the probe, and has not answered since.
    busy: AtomicBool,
}

impl Shared {
    /// Records `why`, unless a cause is already known.
    fn report(&self, why: Gone) {
        self.gone.send_if_modified(|g| {
            if g.is_some() {
                return false;
            }
            *g = Some(why);
            true
        });
    }
}

/// Tasks stopped when the last clone of their watchdog is dropped.
#[derive(Default)]
struct Tasks(Mutex<Vec<JoinHandle<()>>>);

impl Tasks {
    fn push(&self, task: JoinHandle<()>) {
        let mut tasks = self.0.lock().unwrap_or_else(|p| p.into_inner());
        tasks.retain(|t| !t.is_finished());
        tasks.push(task);
    }
}

impl Drop for Tasks {
    fn drop(&mut self) {
        for t in self.0.get_mut().unwrap_or_else(|p| p.into_inner()).iter() {
            t.abort();
        }
    }
}

/// The liveness of one tab (see the module docs). Clones share it.
#[derive(Clone)]
pub struct Watchdog {
    page: Page,
    shared: Arc<Shared>,
    unresponsive_after: Duration,
    load_unresponsive_after: Duration,
    tasks: Arc<Tasks>,
}

impl Watchdog {
    /// Watches `page`'s own session for a renderer crash.
    pub async fn for_page(page: &Page) -> Result<Watchdog> {
        let (gone, _) = watch::channel(None);
        let shared = Arc::new(Shared {
            gone,
            busy: AtomicBool::new(false),
        });
        let mut crashed = page.subscribe::<Value>("Inspector.targetCrashed");
        // Inspector's events are sent once the domain is enabled.
        crate::cdp::send(page, "Inspector.enable", json!({})).await?;
        let on_crash = shared.clone();
        let tasks = Arc::new(Tasks::default());
        tasks.push(tokio::spawn(async move {
            if crashed.next().await.is_some() {
                on_crash.report(Gone::Crashed);
            }
        }));
        Ok(Watchdog {
            page: page.clone(),
            shared,
            unresponsive_after: DEFAULT_UNRESPONSIVE_AFTER,
            load_unresponsive_after: DEFAULT_UNRESPONSIVE_AFTER,
            tasks,
        })
    }

    /// A command unanswered for `budget` makes the page be probed; one that loads a
    /// document, unanswered for `load` (at least `budget`).
    pub fn with_unresponsive_after(mut self, budget: Duration, load: Duration) -> Watchdog {
        self.unresponsive_after = budget;
        self.load_unresponsive_after = load.max(budget);
        self
    }

    /// How long `method` may go unanswered before the page is probed.
    pub fn patience(&self, method: &str) -> Duration {
        if LOADS.contains(&method) {
            self.load_unresponsive_after
        } else {
            self.unresponsive_after
        }
    }

    /// Also watches the browser's side: the tab's target crashing, detaching or being
    /// destroyed, and the connection closing.
    pub async fn watch_browser(&self, browser: &Connection) -> Result<()> {
        let mut closed = browser.closed();
        let mut crashed = browser.subscribe::<OfTarget>("Target.targetCrashed");
        let mut destroyed = browser.subscribe::<OfTarget>("Target.targetDestroyed");
        let mut detached = browser.subscribe::<OfSession>("Target.detachedFromTarget");
        let target = self.page.target_id().to_owned();
        let session = self.page.session_id().to_owned();
        let shared = self.shared.clone();
        self.tasks.push(tokio::spawn(async move {
            let went_away = loop {
                tokio::select! {
                    _ = closed.wait_for(|c| *c) => break Gone::BrowserClosed,
                    Some(ev) = crashed.next() => if ev.target_id == target { break Gone::Crashed },
                    Some(ev) = destroyed.next() => if ev.target_id == target { break Gone::TabClosed },
                    Some(ev) = detached.next() => if ev.session_id == session { break Gone::TabClosed },
                    else => return,
                }
            };
            let why = match went_away {
                Gone::TabClosed => {
                    let shutdown = tokio::time::timeout(SHUTDOWN_GRACE, closed.wait_for(|c| *c));
                    if matches!(shutdown.await, Ok(Ok(_))) {
                        Gone::BrowserClosed
                    } else {
                        Gone::TabClosed
                    }
                }
                other => other,
            };
            shared.report(why);
        }));
        Ok(())
    }

    /// Why the tab can no longer answer, once known.
    pub fn gone(&self) -> Option<Gone> {
        *self.shared.gone.borrow()
    }

    /// Is the page marked unresponsive (it has not answered the probe since)?
    pub fn is_busy(&self) -> bool {
        self.shared.busy.load(Ordering::Acquire)
    }

    /// `Err` with the reason when commands to the tab cannot complete now.
    pub fn alive(&self, during: &str) -> Result<()> {
        if let Some(g) = self.gone() {
            return Err(g.error(during));
        }
        if self.is_busy() {
            return Err(self.still_busy(during));
        }
        Ok(())
    }

    /// The error a step should end with: the tab's fate when it is gone or unresponsive and
    /// `e` is only a consequence of it (an error without an outcome), else `e`.
    pub fn cause(&self, e: Error) -> Error {
        if e.is_fatal() || e.outcome().is_some() {
            return e;
        }
        let during = format!("the step, which had failed with {}", e.code());
        match self.alive(&during) {
            Err(fatal) => fatal,
            Ok(()) => e,
        }
    }

    /// [`Watchdog::cause`], once the events that say why the connection dropped had a
    /// moment to arrive when `e` is that drop.
    pub async fn cause_after(&self, e: Error) -> Error {
        if lost_connection(&e) && self.gone().is_none() {
            let mut gone = self.shared.gone.subscribe();
            let _ = tokio::time::timeout(2 * SHUTDOWN_GRACE, wait_gone(&mut gone)).await;
        }
        self.cause(e)
    }

    /// Runs `work` (a command `method` sent to the tab) unless the tab is gone or hung, and
    /// stops waiting for it as soon as either becomes known.
    pub async fn guard<T>(&self, method: &str, work: impl Future<Output = Result<T>>) -> Result<T> {
        self.alive(method)?;
        let patience = self.patience(method);
        let mut gone = self.shared.gone.subscribe();
        tokio::pin!(work);
        loop {
            tokio::select! {
                r = &mut work => return match r {
                    Err(e) if lost_connection(&e) => Err(self.fate(method, e, &mut gone).await),
                    r => r,
                },
                why = wait_gone(&mut gone) => return Err(why.error(method)),
                () = tokio::time::sleep(patience) => {
                    tokio::select! {
                        (answered, browser) = async { tokio::join!(self.probe(), self.browser_answers()) } => if !answered {
                            if !browser {
                                self.shared.report(Gone::BrowserSilent);
                                return Err(Gone::BrowserSilent.error(method));
                            }
                            self.mark_busy();
                            return Err(Error::PageUnresponsive(format!(
                                "{method} got no answer for {} ms and the page's main thread did not answer a trivial \
                                 evaluation within {} ms",
                                patience.as_millis(),
                                PROBE_TIMEOUT.as_millis()
                            )));
                        },
                        why = wait_gone(&mut gone) => return Err(why.error(method)),
                    }
                }
            }
        }
    }

    /// The error of a command that failed because the connection dropped under it: the
    /// events saying why may arrive a moment after the command's own failure (its answer
    /// channel closes first), so this waits for them a little before keeping `e`.
    async fn fate(
        &self,
        method: &str,
        e: Error,
        gone: &mut watch::Receiver<Option<Gone>>,
    ) -> Error {
        match tokio::time::timeout(2 * SHUTDOWN_GRACE, wait_gone(gone)).await {
            Ok(why) => why.error(method),
            Err(_) => e,
        }
    }

    fn still_busy(&self, during: &str) -> Error {
        Error::PageUnresponsive(format!(
            "the page's main thread is still busy ({during} not sent)"
        ))
    }

    /// Does the main thread answer a trivial evaluation within [`PROBE_TIMEOUT`]? Any
    /// answer counts, an error included (no context during a navigation): it came from there.
    async fn probe(&self) -> bool {
        tokio::time::timeout(
            PROBE_TIMEOUT,
            crate::cdp::send(&self.page, "Runtime.evaluate", probe_params()),
        )
        .await
        .is_ok()
    }

    /// Does the browser process answer `Browser.getVersion` on the tab's session within
    /// [`PROBE_TIMEOUT`]? It needs no renderer: a hung page does not keep it from answering.
    async fn browser_answers(&self) -> bool {
        tokio::time::timeout(
            PROBE_TIMEOUT,
            crate::cdp::send(&self.page, "Browser.getVersion", json!({})),
        )
        .await
        .is_ok()
    }

    /// Marks the page unresponsive and leaves a probe waiting for its answer, which clears
    /// the mark.
    fn mark_busy(&self) {
        if self.shared.busy.swap(true, Ordering::AcqRel) {
            return;
        }
        let (page, shared) = (self.page.clone(), self.shared.clone());
        self.tasks.push(tokio::spawn(async move {
            loop {
                match crate::cdp::send(&page, "Runtime.evaluate", probe_params()).await {
                    // The connection gave up waiting (its request timeout): ask again.
                    Err(Error::Cdp(CdpError::Timeout)) if shared.gone.borrow().is_none() => {
                        continue
                    }
                    _ => break,
                }
            }
            shared.busy.store(false, Ordering::Release);
        }));
    }
}

fn probe_params() -> Value {
    json!({ "expression": "0", "returnByValue": true, "silent": true })
}

/// Resolves when a cause is reported; never, if the channel closed without one.
/// Did `e` come from the DevTools connection itself (closed, its answer channel dropped)
/// rather than from the command?
fn lost_connection(e: &Error) -> bool {
    matches!(e, Error::Cdp(CdpError::Closed))
}

/// `Target.targetCrashed` and `Target.targetDestroyed`, the field read.
#[derive(Deserialize)]
struct OfTarget {
    #[serde(rename = "targetId")]
    target_id: String,
}

/// `Target.detachedFromTarget`, the field read.
#[derive(Deserialize)]
struct OfSession {
    #[serde(rename = "sessionId", default)]
    session_id: String,
}

async fn wait_gone(gone: &mut watch::Receiver<Option<Gone>>) -> Gone {
    let why = gone.wait_for(Option::is_some).await.ok().and_then(|g| *g);
    match why {
        Some(g) => g,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prufe::core::error::ErrorCode;

    #[test]
    fn each_cause_has_its_code_and_names_the_command() {
        for (g, code) in [
            (Gone::Crashed, ErrorCode::PageCrashed),
            (Gone::TabClosed, ErrorCode::PageCrashed),
            (Gone::BrowserClosed, ErrorCode::BrowserClosed),
            (Gone::BrowserSilent, ErrorCode::BrowserClosed),
        ] {
            let e = g.error("Runtime.evaluate");
            assert_eq!(e.code(), code, "{g:?}");
            assert!(e.to_string().contains("during Runtime.evaluate"), "{e}");
        }
    }

    #[test]
    fn the_first_cause_reported_stays() {
        let (gone, rx) = watch::channel(None);
        let shared = Shared {
            gone,
            busy: AtomicBool::new(false),
        };
        shared.report(Gone::Crashed);
        shared.report(Gone::BrowserClosed);
        assert_eq!(*rx.borrow(), Some(Gone::Crashed));
    }
}
