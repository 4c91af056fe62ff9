//! The page's requests, as the DevTools Network domain reports them, for the machine's
//! `Read::Network`: how many requests the page started since the last input are still under
//! way or ended just now. A driver carries the count; the machine decides what it means (a
//! verified step's shorter quiet window holds only when it is zero).
//!
//! The ledger counts a request from the moment its `requestWillBeSent` arrives, keyed by the
//! session it came from (out-of-process frames have sessions of their own), until
//! `loadingFinished` or `loadingFailed`. A request is counted against an input when it was
//! first heard of after the input was marked: one started just before the input but heard
//! of after counts too, which only makes the wait longer.

use serde::Deserialize;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How many ends of requests are kept for "ended just now" (the newest).
const ENDS_KEPT: usize = 64;

/// The requests of one tab.
#[derive(Debug, Default)]
pub struct Requests {
    /// When the last input was marked.
    mark: Option<Instant>,
    /// (session, request id) → when it was first heard of.
    open: HashMap<(String, String), Instant>,
    /// When requests heard of after the mark ended, newest last.
    ended: Vec<Instant>,
}

/// The fields of the Network events read.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestEvent {
    pub request_id: String,
}

impl Requests {
    /// An input is about to be sent: requests heard of from now on are its own.
    pub fn mark(&mut self, now: Instant) {
        self.mark = Some(now);
        self.ended.clear();
        // What never ended before this input (a long poll, a stream) is not waited for.
        self.open.retain(|_, heard| *heard >= now);
    }

    pub fn started(&mut self, session: &str, id: &str, now: Instant) {
        self.open
            .entry((session.to_owned(), id.to_owned()))
            .or_insert(now);
    }

    pub fn ended(&mut self, session: &str, id: &str, now: Instant) {
        let Some(heard) = self.open.remove(&(session.to_owned(), id.to_owned())) else {
            return;
        };
        if self.mark.is_some_and(|m| heard >= m) {
            if self.ended.len() == ENDS_KEPT {
                self.ended.remove(0);
            }
            self.ended.push(now);
        }
    }

    /// The requests heard of since the mark that are under way, or ended less than `recent`
    /// before `now`.
    pub fn pending(&self, recent: Duration, now: Instant) -> u32 {
        let Some(mark) = self.mark else {
            return 0;
        };
        let open = self.open.values().filter(|heard| **heard >= mark).count();
        let just = self
            .ended
            .iter()
            .filter(|end| now.saturating_duration_since(**end) < recent)
            .count();
        (open + just) as u32
    }

    /// A session went away: its requests will report nothing more.
    pub fn forget_session(&mut self, session: &str) {
        self.open.retain(|(s, _), _| s != session);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(base: Instant, n: u64) -> Instant {
        base + Duration::from_millis(n)
    }

    #[test]
    fn only_requests_heard_of_after_the_input_count() {
        let t = Instant::now();
        let mut r = Requests::default();
        r.started("s", "poll", ms(t, 0));
        assert_eq!(r.pending(Duration::ZERO, ms(t, 1)), 0, "no input yet");
        r.mark(ms(t, 10));
        assert_eq!(
            r.pending(Duration::ZERO, ms(t, 11)),
            0,
            "the long poll is older"
        );
        r.started("s", "save", ms(t, 12));
        r.started("frame", "save", ms(t, 13));
        assert_eq!(r.pending(Duration::ZERO, ms(t, 14)), 2);
        r.ended("s", "save", ms(t, 50));
        r.ended("frame", "save", ms(t, 60));
        r.ended("s", "poll", ms(t, 61));
        // Ended just now: its response may still be at work.
        assert_eq!(r.pending(Duration::from_millis(30), ms(t, 70)), 2);
        assert_eq!(r.pending(Duration::from_millis(30), ms(t, 85)), 1);
        assert_eq!(r.pending(Duration::from_millis(30), ms(t, 95)), 0);
    }

    #[test]
    fn a_new_input_starts_over_and_a_gone_session_counts_no_more() {
        let t = Instant::now();
        let mut r = Requests::default();
        r.mark(ms(t, 0));
        r.started("child", "a", ms(t, 1));
        r.started("s", "b", ms(t, 2));
        r.ended("s", "b", ms(t, 3));
        assert_eq!(r.pending(Duration::from_millis(100), ms(t, 4)), 2);
        r.forget_session("child");
        assert_eq!(r.pending(Duration::from_millis(100), ms(t, 5)), 1);
        r.mark(ms(t, 6));
        assert_eq!(r.pending(Duration::from_millis(100), ms(t, 7)), 0);
    }
}
