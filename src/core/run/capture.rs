//! Capturing a coordinate step's screenshot while the page may be changing: the page's
//! fingerprint is read before and after each capture (the picture and the hit boxes behind
//! it), and the capture is taken again while the two differ, at most [`CAPTURE_TRIES`] times
//! in all. The last capture is kept either way; it counts as stable only when the page had
//! settled before it and did not change during it. Every driver (the CLI's executor, the npm
//! package, the Python package) asks [`captured`] after each capture rather than keep a count
//! of its own.

use serde::{Deserialize, Serialize};

/// How many captures a screenshot takes at most while the page changes under it.
pub const CAPTURE_TRIES: u32 = 3;

/// One capture, as a driver took it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Capture {
    /// Which capture this was, from 1.
    pub tries: u32,
    /// The page's fingerprint right before it, and right after it.
    pub before: String,
    pub after: String,
    /// The page had settled before the first capture (or was not asked to).
    pub settled: bool,
}

/// What follows a capture: take it `again`, or keep it, `stable` or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Kept {
    pub again: bool,
    pub stable: bool,
}

/// The rule (see the module docs).
pub fn captured(c: &Capture) -> Kept {
    let unchanged = c.before == c.after;
    Kept {
        again: !unchanged && c.tries < CAPTURE_TRIES,
        stable: c.settled && unchanged,
    }
}
