//! The settle loop, once for every driver: a driver answers a [`Need::Settle`] by reading
//! the page's fingerprint and `quietFor` (in that order) at the start and after each wait
//! this stepper asks for, and hands over the clock; the stepper says when the page is
//! settled and what the answer is. The page's own loop (`prufe.settle`, `src/dom/wait.rs`)
//! and the harness's loop over the protocol (`harness/src/stabilise.rs`) both run it.
//!
//! - Before the action (no `since`), a page that has shown no sign of change for the whole
//!   window is settled at once.
//! - After it (`since` is the fingerprint before), the page is first waited for until its
//!   fingerprint leaves `since`; an action that changes nothing is quiet throughout, so the
//!   deadline then answers stable and unchanged.
//! - Quiet is a fingerprint unchanged for the window, or, with the fingerprint the same as at
//!   the last read, a page that says it has shown no sign of change for that long (the change
//!   came before the poll that saw it).
//! - `stop_on_change` answers at the first move, unstable and changed.
//! - An unreachable fingerprint (no document during a navigation) is never quiet, and a
//!   change: a navigation during the wait counts as one. A driver whose call of the page's
//!   own loop ended with its document goes on with [`Settling::replaced`], reading `None`
//!   while there is no document. The wait goes on to the need's deadline, the one bound;
//!   `stop_on_change` answers at the first read that finds a document again. A deadline that
//!   comes with no document ends the settle on [`lost`] (`NOT_READY`), the same on every
//!   surface: a driver that cannot run the stepper without a document (the Python one, whose
//!   machine lives in the page) raises that error at the need's deadline.
//! - Leaving `since` is judged on the part of the fingerprint the diff decides
//!   (`core::fingerprint::diffed`), or, with `claims`, on the whole of it: the focus, the
//!   order and the selection too. Quiet is judged on the whole of it either way.

use super::need::{Answer, Need};
use crate::core::error::{Error, ErrorCode};
use crate::core::fingerprint::diffed;
use serde::{Deserialize, Serialize};

/// The fingerprint of a page that could not be read (no document during a navigation):
/// unequal to every page's own. The machine reads a `Need::Fingerprint` that failed with a
/// transient code as this one (`Run::next`).
pub const UNREACHABLE: &str = "\u{0}unreachable";

/// The error a settle ends on when its deadline comes and no document has come back.
pub fn lost() -> Error {
    Error::new(
        ErrorCode::NotReady,
        "the page's document went away and did not come back before the step's timeout",
    )
}

/// A settle in progress. Times are in ms on the driver's clock. A driver that keeps it
/// between calls of the machine module (`prufeRun.settling`) holds its JSON as it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Settling {
    since: Option<String>,
    poll_ms: f64,
    quiet_ms: f64,
    #[serde(default)]
    quick_ms: f64,
    begun: f64,
    deadline: f64,
    stop_on_change: bool,
    /// Leaving `since` counts in the claims too (`Need::Settle::claims`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    claims: bool,
    /// The last fingerprint read; `None` while unreachable.
    last: Option<String>,
    last_change: f64,
    changed: bool,
}

/// What the driver does next.
// A tick is made once per poll and consumed at once; `Done` is the rare one, so it is kept
// unboxed rather than paying an allocation on every settle's end.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Tick {
    /// The settle is over: hand this answer to the machine.
    Done(Answer),
    /// Wait this long, read the fingerprint and `quietFor` again, and call [`Settling::read`].
    Wait { ms: f64 },
}

impl Settling {
    /// Starts the settle of `need` with the first reads; `None` when `need` is no settle.
    pub fn start(
        need: &Need,
        now: f64,
        fingerprint: Option<String>,
        quiet_for: f64,
    ) -> Option<(Settling, Tick)> {
        let Need::Settle {
            since,
            poll_ms,
            quiet_ms,
            timeout_ms,
            stop_on_change,
            quick_ms,
            claims,
            ..
        } = need
        else {
            return None;
        };
        let changed = since.is_some() && left(&fingerprint, since, *claims);
        let s = Settling {
            since: since.clone(),
            poll_ms: (*poll_ms as f64).max(1.0),
            quiet_ms: *quiet_ms as f64,
            quick_ms: (*quick_ms).min(*quiet_ms) as f64,
            begun: now,
            deadline: now + *timeout_ms as f64,
            stop_on_change: *stop_on_change,
            claims: *claims,
            last: fingerprint,
            last_change: now,
            changed,
        };
        let tick = if changed && s.stop_on_change && s.last.is_some() {
            s.done(now, false)
        } else if s.since.is_none()
            && s.last.is_some()
            && s.quiet_ms > 0.0
            && quiet_for >= s.quiet_ms
        {
            s.done(now, true)
        } else {
            s.decide(now, quiet_for)
        };
        Some((s, tick))
    }

    /// Goes on with the settle of `need`, begun at `begun`, whose document went away before the
    /// page's own loop answered (the loop ended with it): that was a change, and `now`'s read
    /// (`None` while there is still no document) is the first since. The deadline stays the
    /// one `need` set at `begun`.
    pub fn replaced(
        need: &Need,
        begun: f64,
        now: f64,
        fingerprint: Option<String>,
        quiet_for: f64,
    ) -> Option<(Settling, Tick)> {
        let (mut s, _) = Settling::start(need, begun, None, 0.0)?;
        s.changed = true;
        let tick = s.read(now, fingerprint, quiet_for);
        Some((s, tick))
    }

    /// The reads after a wait.
    pub fn read(&mut self, now: f64, fingerprint: Option<String>, quiet_for: f64) -> Tick {
        let mut quiet_for = quiet_for;
        if fingerprint != self.last {
            // Leaving `since` is a change, and so is a document going away (a navigation).
            self.changed |= self.since.is_none() || left(&fingerprint, &self.since, self.claims);
            self.last = fingerprint;
            self.last_change = now;
            // What the page says of its quiet covers the value just read only from the next
            // read on.
            quiet_for = 0.0;
        }
        // The first move answers with the document it moved to.
        if self.changed && self.stop_on_change && self.last.is_some() {
            return self.done(now, false);
        }
        self.decide(now, quiet_for)
    }

    fn waiting_for_effect(&self) -> bool {
        self.since.is_some() && !self.changed
    }

    fn decide(&self, now: f64, quiet_for: f64) -> Tick {
        let waiting = self.waiting_for_effect();
        let reachable = self.last.is_some();
        // The shorter window stands on what the page says of itself, once no effect is
        // awaited (after the action, once the fingerprint left `since`).
        let quick = self.quick_ms > 0.0 && (self.since.is_none() || self.changed);
        if quick && !waiting && reachable && quiet_for > 0.0 && quiet_for >= self.quick_ms {
            return Tick::Done(Answer::Quick {
                fingerprint: self.last.clone().unwrap_or_default(),
                waited_ms: (now - self.begun).max(0.0).round() as u64,
            });
        }
        if !waiting
            && reachable
            && (now - self.last_change >= self.quiet_ms
                || (quiet_for > 0.0 && quiet_for >= self.quiet_ms))
        {
            return self.done(now, true);
        }
        if now >= self.deadline {
            if !reachable {
                return Tick::Done(Answer::Failed { error: lost() });
            }
            // After an action that never changed anything, the page was quiet throughout.
            return self.done(now, waiting);
        }
        let mut ms = self.poll_ms;
        if !waiting && reachable && quiet_for > 0.0 {
            let window = if quick { self.quick_ms } else { self.quiet_ms };
            ms = ms.min(window - quiet_for);
        }
        Tick::Wait {
            ms: ms.min(self.deadline - now).max(0.0),
        }
    }

    fn done(&self, now: f64, stable: bool) -> Tick {
        Tick::Done(Answer::Settled {
            fingerprint: self.last.clone().unwrap_or_default(),
            stable,
            changed: self.changed,
            waited_ms: (now - self.begun).max(0.0).round() as u64,
        })
    }
}

/// Does `now` differ from `since`: in the diffed part, or with `claims` anywhere? A fingerprint
/// that cannot be read differs from one that could.
fn left(now: &Option<String>, since: &Option<String>, claims: bool) -> bool {
    match (now, since) {
        (Some(a), Some(b)) if !claims => diffed(a) != diffed(b),
        _ => now != since,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn need(since: Option<&str>, quiet: u64, timeout: u64, stop: bool) -> Need {
        Need::Settle {
            since: since.map(str::to_owned),
            poll_ms: 50,
            quiet_ms: quiet,
            timeout_ms: timeout,
            stop_on_change: stop,
            background: Default::default(),
            quick_ms: 0,
            claims: false,
        }
    }

    fn quick(since: Option<&str>, quiet: u64, quick: u64) -> Need {
        let mut n = need(since, quiet, 5000, false);
        if let Need::Settle { quick_ms, .. } = &mut n {
            *quick_ms = quick;
        }
        n
    }

    fn fp(s: &str) -> Option<String> {
        Some(s.to_owned())
    }

    /// Runs a settle over a page whose fingerprint at time t is `page(t)` and whose
    /// `quietFor` is `quiet(t)`; returns the answer and the reads it took.
    fn run(
        n: &Need,
        page: impl Fn(f64) -> Option<String>,
        quiet: impl Fn(f64) -> f64,
    ) -> (Answer, usize) {
        let (mut s, mut tick) = Settling::start(n, 0.0, page(0.0), quiet(0.0)).unwrap();
        let (mut now, mut reads) = (0.0, 1);
        loop {
            match tick {
                Tick::Done(a) => return (a, reads),
                Tick::Wait { ms } => {
                    now += ms;
                    reads += 1;
                    assert!(reads < 1000, "the settle never ends");
                    tick = s.read(now, page(now), quiet(now));
                }
            }
        }
    }

    fn settled(a: &Answer) -> (String, bool, bool, u64) {
        match a {
            Answer::Settled {
                fingerprint,
                stable,
                changed,
                waited_ms,
            } => (fingerprint.clone(), *stable, *changed, *waited_ms),
            other => panic!("not settled: {other:?}"),
        }
    }

    #[test]
    fn a_page_quiet_for_the_window_is_settled_at_once() {
        let (a, reads) = run(&need(None, 250, 5000, false), |_| fp("a"), |_| 400.0);
        assert_eq!(settled(&a), ("a".into(), true, false, 0));
        assert_eq!(reads, 1);
        // Not after the action: the effect may not have started yet.
        let (a, _) = run(&need(Some("a"), 250, 1000, false), |_| fp("a"), |_| 400.0);
        assert_eq!(settled(&a), ("a".into(), true, false, 1000));
    }

    #[test]
    fn without_word_from_the_page_quiet_is_the_window_of_polls() {
        let (a, _) = run(&need(None, 250, 5000, false), |_| fp("a"), |_| 0.0);
        assert_eq!(settled(&a), ("a".into(), true, false, 250));
        let (a, _) = run(
            &need(None, 250, 5000, false),
            |t| fp(if t < 120.0 { "a" } else { "b" }),
            |_| 0.0,
        );
        // Seen at the poll of 150 ms, quiet from there.
        assert_eq!(settled(&a), ("b".into(), true, true, 400));
    }

    #[test]
    fn after_the_action_waits_for_the_effect_then_for_quiet() {
        let late = |t: f64| fp(if t < 700.0 { "before" } else { "after" });
        let (a, _) = run(&need(Some("before"), 250, 5000, false), late, |_| 0.0);
        assert_eq!(settled(&a), ("after".into(), true, true, 950));
        // The page says when it changed: the window counts from there.
        let (a, _) = run(&need(Some("before"), 250, 5000, false), late, |t| {
            if t >= 700.0 {
                t - 700.0
            } else {
                0.0
            }
        });
        let (_, stable, changed, waited) = settled(&a);
        assert!(stable && changed);
        assert!((950..=1000).contains(&waited), "{waited}");
    }

    #[test]
    fn quiet_reported_on_the_read_that_saw_a_change_does_not_count() {
        // A page that claims quiet while its fingerprint moves is polled for the window.
        let (a, _) = run(
            &need(None, 250, 5000, false),
            |t| fp(if t < 100.0 { "a" } else { "b" }),
            |t| if t < 100.0 { 0.0 } else { 10_000.0 },
        );
        let (f, stable, changed, waited) = settled(&a);
        assert_eq!((f.as_str(), stable, changed), ("b", true, true));
        assert_eq!(
            waited, 150,
            "the read after the change may take the page's word"
        );
    }

    #[test]
    fn after_an_effect_a_page_that_says_it_is_quiet_ends_the_shorter_window() {
        let effect = |t: f64| fp(if t < 40.0 { "before" } else { "after" });
        // The page reports quiet from the change on (mutations at 40 ms).
        let says = |t: f64| if t >= 40.0 { t - 40.0 } else { 0.0 };
        let (a, _) = run(&quick(Some("before"), 250, 60), effect, says);
        match a {
            Answer::Quick {
                fingerprint,
                waited_ms,
            } => {
                assert_eq!(fingerprint, "after");
                assert!((100..=110).contains(&waited_ms), "{waited_ms}");
            }
            other => panic!("not quick: {other:?}"),
        }
        // Without the page's word (an animation runs, the cache is cold), the full window.
        let (a, _) = run(&quick(Some("before"), 250, 60), effect, |_| 0.0);
        assert_eq!(settled(&a), ("after".into(), true, true, 300));
        // Before any effect the shorter window is never taken.
        let (a, _) = run(&quick(Some("before"), 250, 60), |_| fp("before"), |_| 400.0);
        assert_eq!(settled(&a), ("before".into(), true, false, 5000));
        // Without `since` (before an action), the page's word for the shorter window.
        let (a, _) = run(&quick(None, 250, 60), |_| fp("a"), |t| t + 100.0);
        assert!(matches!(a, Answer::Quick { waited_ms: 0, .. }), "{a:?}");
        let (a, _) = run(&quick(None, 250, 60), |_| fp("a"), |t| t + 20.0);
        assert!(matches!(a, Answer::Quick { waited_ms: 40, .. }), "{a:?}");
        // A change the page made after saying it was quiet restarts the count.
        let twice = |t: f64| {
            fp(match t {
                t if t < 40.0 => "before",
                t if t < 120.0 => "after",
                _ => "again",
            })
        };
        let says = |t: f64| match t {
            t if t < 40.0 => 0.0,
            t if t < 120.0 => t - 40.0,
            t => t - 120.0,
        };
        let (a, _) = run(&quick(Some("before"), 250, 100), twice, says);
        match a {
            Answer::Quick { fingerprint, .. } => assert_eq!(fingerprint, "again"),
            other => panic!("not quick: {other:?}"),
        }
    }

    #[test]
    fn claims_leave_since_only_when_the_settle_counts_them() {
        // A Tab: the focus moves at 40 ms, the part the diff decides stays.
        let tab = |t: f64| fp(if t < 40.0 { "a-1~0001" } else { "a-1~0002" });
        let says = |t: f64| if t >= 40.0 { t - 40.0 } else { 0.0 };
        let mut n = quick(Some("a-1~0001"), 250, 60);
        let (a, _) = run(&n, tab, says);
        // Without claims the effect is still awaited (a click's focus is not its effect):
        // the deadline answers unchanged.
        assert_eq!(settled(&a), ("a-1~0002".into(), true, false, 5000));
        if let Need::Settle { claims, .. } = &mut n {
            *claims = true;
        }
        let (a, _) = run(&n, tab, says);
        assert!(
            matches!(&a, Answer::Quick { fingerprint, waited_ms } if fingerprint == "a-1~0002" && *waited_ms <= 110),
            "{a:?}"
        );
        // A claim that moved still breaks the quiet either way.
        let moving = |t: f64| Some(format!("a-1~{:04}", (t / 100.0).floor()));
        let (a, _) = run(&need(None, 250, 1000, false), moving, |_| 0.0);
        assert!(!settled(&a).1);
    }

    #[test]
    fn a_busy_page_is_unstable_at_the_deadline() {
        let ticking = |t: f64| Some(format!("{}", (t / 100.0).floor()));
        let (a, _) = run(&need(None, 250, 1000, false), ticking, |_| 0.0);
        let (_, stable, changed, waited) = settled(&a);
        assert!(!stable && changed);
        assert_eq!(waited, 1000);
    }

    #[test]
    fn stop_on_change_answers_at_the_first_move() {
        let (a, _) = run(
            &need(None, 250, 5000, true),
            |t| fp(if t < 120.0 { "a" } else { "b" }),
            |_| 0.0,
        );
        assert_eq!(settled(&a), ("b".into(), false, true, 150));
        // Already moved from `since`: at once.
        let (a, reads) = run(&need(Some("a"), 250, 5000, true), |_| fp("b"), |_| 0.0);
        assert_eq!(settled(&a), ("b".into(), false, true, 0));
        assert_eq!(reads, 1);
    }

    #[test]
    fn an_unreachable_page_is_never_quiet_and_its_return_is_a_change() {
        // A document that never comes back ends the settle at its deadline, on the one error.
        for since in [None, Some("old")] {
            let (a, reads) = run(&need(since, 250, 600, false), |_| None, |_| 1000.0);
            assert_eq!(a, Answer::Failed { error: lost() }, "{since:?}");
            assert_eq!(reads, 13, "polled to the deadline");
        }
        let navigating = |t: f64| match t {
            t if t < 100.0 => fp("old"),
            t if t < 300.0 => None,
            _ => fp("new"),
        };
        let (a, _) = run(&need(Some("old"), 250, 5000, false), navigating, |_| 0.0);
        assert_eq!(settled(&a), ("new".into(), true, true, 550));
        // A document that went away is a change, even when the next one looks the same.
        let blink = |t: f64| {
            if (100.0..200.0).contains(&t) {
                None
            } else {
                fp("same")
            }
        };
        let (a, _) = run(&need(Some("same"), 250, 1000, false), blink, |_| 0.0);
        assert_eq!(settled(&a), ("same".into(), true, true, 450));
    }

    /// Runs a settle whose page's own loop ended with its document at `at` ms.
    fn run_replaced(n: &Need, at: f64, page: impl Fn(f64) -> Option<String>) -> (Answer, Vec<f64>) {
        let (mut s, mut tick) = Settling::replaced(n, 0.0, at, page(at), 0.0).unwrap();
        let mut reads = vec![at];
        let mut now = at;
        loop {
            match tick {
                Tick::Done(a) => return (a, reads),
                Tick::Wait { ms } => {
                    now += ms;
                    reads.push(now);
                    assert!(reads.len() < 1000, "the settle never ends");
                    tick = s.read(now, page(now), 0.0);
                }
            }
        }
    }

    #[test]
    fn a_replaced_document_is_a_change_and_the_deadline_stays_the_needs() {
        // The document went away at 400 ms; the next one answers from 1500 ms on (a slow
        // navigation): a change, then quiet in the new document.
        let late = |t: f64| (t >= 1500.0).then(|| "new".to_owned());
        for since in [None, Some("old")] {
            let (a, _) = run_replaced(&need(since, 250, 5000, false), 400.0, late);
            assert_eq!(settled(&a), ("new".into(), true, true, 1750), "{since:?}");
        }
        // Even a new document that looks the same as the old one.
        let (a, _) = run_replaced(&need(Some("old"), 250, 5000, false), 400.0, |_| fp("old"));
        assert_eq!(settled(&a), ("old".into(), true, true, 650));
        // The first move answers with the document it moved to, once there is one.
        let (a, _) = run_replaced(&need(Some("old"), 250, 5000, true), 400.0, late);
        assert_eq!(settled(&a), ("new".into(), false, true, 1500));
        // Never back: the deadline the need set when the settle began, then the one error.
        let (a, reads) = run_replaced(&need(Some("old"), 250, 2000, false), 400.0, |_| None);
        assert_eq!(a, Answer::Failed { error: lost() });
        assert_eq!(reads.last(), Some(&2000.0));
        assert_eq!(lost().code, ErrorCode::NotReady);
        let (a, _) = run_replaced(&need(None, 250, 2000, true), 400.0, |_| None);
        assert_eq!(a, Answer::Failed { error: lost() });
        // A page's own loop that never lost its document answers no differently.
        let (a, _) = run(&need(Some("old"), 250, 2000, false), |_| fp("old"), |_| 0.0);
        assert_eq!(settled(&a), ("old".into(), true, false, 2000));
    }

    #[test]
    fn other_needs_are_not_settles() {
        assert!(Settling::start(
            &Need::Fingerprint {
                background: Default::default()
            },
            0.0,
            fp("a"),
            0.0
        )
        .is_none());
    }
}
