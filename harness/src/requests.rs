//! The page's requests, as the DevTools Network domain reports them, for the machine's
//! `Read::Network`. This only records; which requests are at work for an input is the
//! machine's rule (`prufe::core::run::requests`).
//!
//! A request is heard of when its `requestWillBeSent` arrives, keyed by the session it came
//! from (out-of-process frames have sessions of their own), and ends with `loadingFinished` or
//! `loadingFailed`. Marking an input forgets every request heard of before it: none of them
//! can be at work for this input (the machine counts only those heard of since), and a
//! session that went away reports no more ends.

use prufe::core::run::requests::Heard;
use serde::Deserialize;
use std::collections::HashMap;
use std::time::Instant;

/// At most this many requests are kept for one input, the newest.
const KEPT: usize = 512;

/// The requests of one tab since its last input.
#[derive(Debug, Default)]
pub struct Requests {
    /// When the last input was marked.
    mark: Option<Instant>,
    /// (session, request id) → when it was heard of, and when it ended.
    heard: HashMap<(String, String), (Instant, Option<Instant>)>,
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
        self.heard.clear();
    }

    pub fn started(&mut self, session: &str, id: &str, now: Instant) {
        if self.heard.len() >= KEPT {
            let oldest = self.heard.iter().min_by_key(|(_, (at, _))| *at);
            if let Some(key) = oldest.map(|(k, _)| k.clone()) {
                self.heard.remove(&key);
            }
        }
        self.heard
            .entry((session.to_owned(), id.to_owned()))
            .or_insert((now, None));
    }

    pub fn ended(&mut self, session: &str, id: &str, now: Instant) {
        if let Some((_, end)) = self.heard.get_mut(&(session.to_owned(), id.to_owned())) {
            end.get_or_insert(now);
        }
    }

    /// A session went away: its requests will report nothing more.
    pub fn forget_session(&mut self, session: &str) {
        self.heard.retain(|(s, _), _| s != session);
    }

    /// What the machine asks: since the input, and each request heard of since, in ms
    /// before `now`.
    pub fn heard(&self, now: Instant) -> (Option<f64>, Vec<Heard>) {
        let ago = |t: Instant| now.saturating_duration_since(t).as_secs_f64() * 1000.0;
        let requests = self
            .heard
            .values()
            .map(|(heard, ended)| Heard {
                heard_ms_ago: ago(*heard),
                ended_ms_ago: ended.map(ago),
            })
            .collect();
        (self.mark.map(ago), requests)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prufe::core::run::requests::pending;
    use std::time::Duration;

    fn ms(base: Instant, n: u64) -> Instant {
        base + Duration::from_millis(n)
    }

    fn at_work(r: &Requests, recent_ms: u64, now: Instant) -> u32 {
        let (input, heard) = r.heard(now);
        pending(input, &heard, recent_ms)
    }

    #[test]
    fn the_events_recorded_count_as_the_machine_counts_them() {
        let t = Instant::now();
        let mut r = Requests::default();
        r.started("s", "poll", ms(t, 0));
        assert_eq!(
            at_work(&r, 0, ms(t, 1)),
            1,
            "no input yet: the page is loading"
        );
        r.mark(ms(t, 10));
        r.ended("s", "poll", ms(t, 11));
        assert_eq!(at_work(&r, 100, ms(t, 12)), 0, "the long poll is older");
        r.started("s", "save", ms(t, 12));
        r.started("frame", "save", ms(t, 13));
        assert_eq!(at_work(&r, 0, ms(t, 14)), 2);
        r.ended("s", "save", ms(t, 50));
        r.ended("frame", "save", ms(t, 60));
        // Ended just now: its response may still be at work.
        assert_eq!(at_work(&r, 30, ms(t, 70)), 2);
        assert_eq!(at_work(&r, 30, ms(t, 85)), 1);
        assert_eq!(at_work(&r, 30, ms(t, 95)), 0);
    }

    #[test]
    fn a_new_input_starts_over_and_a_gone_session_counts_no_more() {
        let t = Instant::now();
        let mut r = Requests::default();
        r.mark(ms(t, 0));
        r.started("child", "a", ms(t, 1));
        r.started("s", "b", ms(t, 2));
        r.ended("s", "b", ms(t, 3));
        assert_eq!(at_work(&r, 100, ms(t, 4)), 2);
        r.forget_session("child");
        assert_eq!(at_work(&r, 100, ms(t, 5)), 1);
        r.mark(ms(t, 6));
        assert_eq!(at_work(&r, 100, ms(t, 7)), 0);
        for n in 0..KEPT + 10 {
            r.started("s", &n.to_string(), ms(t, 8));
        }
        assert_eq!(
            r.heard.len(),
            KEPT,
            "a page that never stops asking is bounded"
        );
    }
}
