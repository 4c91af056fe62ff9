//! The page's requests, for the shorter quiet window: which of those a driver heard of are
//! still at work for the last input.
//!
//! A driver only records what its browser library reports ([`super::need::Read::Network`]):
//! when the last input was sent, and for each request heard of since, when it was heard of
//! and when it ended, all as milliseconds before the answer. The rule is here, once: a
//! request counts against the input when it was first heard of after the input was sent (one
//! started just before it but heard of after counts too, which only makes the wait longer),
//! while it is under way and until `recent_ms` after it ended (its response may still be at
//! work). A request heard of before the input (a long poll, a stream) is never waited for.
//! Before the first input every request the driver heard of counts the same way: the page is
//! still loading (a frame's document, a script, the data it shows), and a page that keeps a
//! stream open waits the full window before its first action, as it always did.

use serde::{Deserialize, Serialize};

/// A request a driver heard of, in ms before its answer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Heard {
    /// How long ago the driver first heard of it.
    pub heard_ms_ago: f64,
    /// How long ago it ended (finished or failed); `None` while under way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_ms_ago: Option<f64>,
}

/// How many of `requests` are at work for the input sent `input_ms_ago`; before the first
/// input (`None`), for the page's loading.
pub fn pending(input_ms_ago: Option<f64>, requests: &[Heard], recent_ms: u64) -> u32 {
    requests
        .iter()
        .filter(|r| input_ms_ago.is_none_or(|input| r.heard_ms_ago <= input))
        .filter(|r| r.ended_ms_ago.is_none_or(|ended| ended < recent_ms as f64))
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heard(ago: f64, ended: Option<f64>) -> Heard {
        Heard {
            heard_ms_ago: ago,
            ended_ms_ago: ended,
        }
    }

    #[test]
    fn only_requests_heard_of_since_the_input_and_not_long_ended_count() {
        let poll = heard(500.0, None);
        let save = heard(80.0, None);
        let framed = heard(70.0, Some(40.0));
        let done = heard(75.0, Some(10.0));
        let all = [poll, save, framed, done];
        // No input yet: the page is loading, every request under way or just ended counts.
        assert_eq!(pending(None, &all, 30), 3, "no input yet");
        assert_eq!(pending(None, &[framed], 30), 0, "ended long enough ago");
        assert_eq!(
            pending(Some(100.0), &[poll], 30),
            0,
            "the long poll is older"
        );
        // Under way, and ended 10 ms ago (its response may still be at work); not the one
        // that ended 40 ms ago.
        assert_eq!(pending(Some(100.0), &all, 30), 2);
        assert_eq!(pending(Some(100.0), &all, 50), 3);
        assert_eq!(pending(Some(100.0), &all, 0), 1);
        // Heard of in the same millisecond as the input: its own.
        assert_eq!(pending(Some(80.0), &[save], 0), 1);
    }

    #[test]
    fn the_answer_reads_as_a_driver_writes_it() {
        let r: Heard =
            serde_json::from_value(serde_json::json!({ "heardMsAgo": 12.5, "endedMsAgo": 3 }))
                .expect("reads");
        assert_eq!(r, heard(12.5, Some(3.0)));
        let open: Heard =
            serde_json::from_value(serde_json::json!({ "heardMsAgo": 1 })).expect("reads");
        assert_eq!(open.ended_ms_ago, None);
        assert!(
            serde_json::from_value::<Heard>(serde_json::json!({ "heard": 1 })).is_err(),
            "a misspelt field is refused"
        );
    }
}
