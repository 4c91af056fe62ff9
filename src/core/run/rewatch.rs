//! A slot that ticks after the action: watched once more before a refusal.
//!
//! The background (`core::background`) is learnt while settling before the action, over a
//! quiet window of a few hundred milliseconds: a clock that ticks once a second, a countdown
//! or a carousel that turns every few seconds often does not move in it, and its next tick
//! then lands in the action's diff ("15:59:48" → "15:59:49" in the banner, a slide
//! "Kitchen" for "Living room"). Such a tick is a replacement in one slot: a text replaced
//! by another that differs only in its digits, or an element by another of its role in its
//! place.
//!
//! When a verified attempt would not pass, its diff holds such a replacement, and the
//! replacements decide its verdict (judged with their slots taken as background, it would be
//! judged otherwise: a pass, or "no effect" where a slide named a neighbour), the machine
//! watches the page once more, for at most [`REWATCH_MS`], from the observation it judged:
//! when the page moves, it waits for it to be quiet (a slide scrolls in after its tab
//! changes), and what changed by itself is the page's background, learnt as before the
//! action; the attempt is judged again on the same two observations. A slot the action
//! itself changed and that then holds still is no background; the target's own changes are
//! never background (`judge::without_background`). Only once per attempt, so a page that
//! keeps changing costs one window, and only before a refusal that the ticks could change,
//! so a passing step, or a wrong row added beside a total that changed, never waits for it.
//!
//! Trade-off: the window is long enough for a carousel that turns every three seconds
//! (Shoelace's default); a slower one is still judged on what the action's window saw.

use super::{Need, Phase, Run};
use crate::core::background::{shape, Background};
use crate::core::diff::Diff;
use crate::core::judge::{judge, VerdictKind};
use crate::core::model::Role;
use crate::core::run::need::Answer;
use serde::{Deserialize, Serialize};

/// How long the page is watched after the action: a carousel's turn of three seconds, and
/// some slack.
pub const REWATCH_MS: u64 = 3_500;

/// Once the page moved in the watch, how long it must hold still before it is observed: a
/// carousel's tab changes at once, its slide when the smooth scroll that brings it in ends,
/// some hundreds of milliseconds later, with nothing changing in between.
pub const REWATCH_QUIET_MS: u64 = 700;

/// How long that may take at most.
pub const REWATCH_QUIET_TIMEOUT_MS: u64 = 2_000;

/// Where the watch is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Rewatch {
    /// Waiting for the fingerprint to move, at most [`REWATCH_MS`].
    Waiting,
    /// It moved: waiting for it to hold still for [`REWATCH_QUIET_MS`].
    Quieting,
    /// Observing what moved.
    Observing,
}

/// The diff's ticks: texts or names replaced by ones that differ only in their digits (a
/// clock, a countdown, "2 of 3" → "3 of 3"), or content (not a row, an option or a control)
/// replaced by other content of its role in its place (a carousel's slide). Their slots,
/// both sides of each replacement, as background would hold them had the page been seen
/// ticking before the action.
pub fn ticks(d: &Diff) -> Background {
    let digits = |s: &str| s.chars().any(|c| c.is_ascii_digit());
    let mut slots = Background::default();
    for a in &d.texts_appeared {
        let pair = d.texts_disappeared.iter().find(|b| {
            a.frame == b.frame && a.region == b.region && shape(&a.text) == shape(&b.text)
        });
        if let Some(b) = pair.filter(|_| digits(&a.text)) {
            slots.add_text_of(a);
            slots.add_text_of(b);
        }
    }
    // Content turns (a slide, a banner's picture); rows, options and controls replaced in
    // their place are an action's own work (a list re-rendered), never watched for.
    let content = |r: Role| {
        matches!(
            r,
            Role::Generic
                | Role::Group
                | Role::Img
                | Role::Figure
                | Role::Article
                | Role::Tabpanel
                | Role::Paragraph
        )
    };
    for a in &d.appeared {
        let pair = d.disappeared.iter().find(|b| {
            a.frame == b.frame
                && a.region == b.region
                && a.role == b.role
                && (content(a.role) || (digits(a.label()) && shape(a.label()) == shape(b.label())))
        });
        if let Some(b) = pair {
            slots.add_element_of(a);
            slots.add_element_of(b);
        }
    }
    slots
}

impl Run {
    /// Before a refusal of a verified attempt whose diff holds a tick: watch once more, when
    /// the ticks decide the verdict, that is when the attempt, judged with the ticks' slots
    /// taken as background, would be judged otherwise (a pass, or "no effect" where a slide
    /// named a neighbour). A refusal that stands as it is without them (a wrong row added
    /// beside a total that changed) is decided at once.
    pub(super) fn should_rewatch(&self, verdict: VerdictKind, d: &Diff) -> bool {
        let a = &self.attempt;
        if !self.is_verified() || a.rewatched || verdict == VerdictKind::Match {
            return false;
        }
        let ticks = ticks(d);
        if ticks.is_empty() {
            return false;
        }
        let mut options = self.judge_options();
        options.background.texts.extend(ticks.texts);
        options.background.elements.extend(ticks.elements);
        judge(&self.judge_action(), &a.before, &a.after, &options)
            .is_ok_and(|v| v.verdict != verdict)
    }

    pub(super) fn rewatch(&mut self) -> Need {
        self.attempt.rewatched = true;
        self.phase = Phase::Rewatch {
            at: Rewatch::Waiting,
        };
        let t = self.policy.timing;
        self.ask(Need::Settle {
            since: None,
            poll_ms: t.poll_ms,
            quiet_ms: REWATCH_MS,
            timeout_ms: REWATCH_MS,
            stop_on_change: true,
            background: Default::default(),
            quick_ms: 0,
            claims: false,
        })
    }

    pub(super) fn on_rewatch(&mut self, at: Rewatch, answer: Answer) -> Need {
        match (at, answer) {
            (Rewatch::Waiting, Answer::Settled { changed: true, .. }) => {
                self.phase = Phase::Rewatch {
                    at: Rewatch::Quieting,
                };
                let t = self.policy.timing;
                self.ask(Need::Settle {
                    since: None,
                    poll_ms: t.poll_ms,
                    quiet_ms: REWATCH_QUIET_MS.max(t.quiet_ms),
                    timeout_ms: REWATCH_QUIET_TIMEOUT_MS,
                    stop_on_change: false,
                    background: Default::default(),
                    quick_ms: 0,
                    claims: false,
                })
            }
            (Rewatch::Quieting, Answer::Settled { .. }) => {
                self.phase = Phase::Rewatch {
                    at: Rewatch::Observing,
                };
                self.observe()
            }
            (Rewatch::Waiting, Answer::Settled { .. })
            | (Rewatch::Observing, Answer::Unavailable) => self.judge_attempt(),
            (Rewatch::Observing, Answer::Observed { snapshot }) => {
                let a = &mut self.attempt;
                if a.after.context.epoch == snapshot.context.epoch {
                    a.background.observe(&a.after, &snapshot);
                }
                self.judge_attempt()
            }
            (_, a) => self.out_of_step(&a),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::diff::{diff, DiffOptions};
    use crate::core::model::{Snapshot, Text};
    use crate::core::testing::text;

    fn with(texts: Vec<Text>) -> Snapshot {
        Snapshot {
            texts,
            ..Default::default()
        }
    }

    #[test]
    fn a_tick_is_a_replacement_in_its_digits() {
        let d = |a: &str, b: &str| {
            diff(
                &with(vec![text(a, "banner")]),
                &with(vec![text(b, "banner")]),
                &DiffOptions::default(),
            )
        };
        assert!(!ticks(&d("15:59:48", "15:59:49")).is_empty());
        assert!(!ticks(&d("Offer ends in 59:59", "Offer ends in 59:58")).is_empty());
        assert!(ticks(&d("Saving", "Saved")).is_empty());
        assert!(ticks(&d("1 item", "Cart is empty")).is_empty());
        // An element replaced by another of its role in its place: a slide turned.
        let slide = |name: &str| Snapshot {
            elements: vec![crate::core::testing::el(
                name,
                crate::core::model::Role::Generic,
                name,
                "region[Carousel]",
            )],
            ..Default::default()
        };
        let turned = |a: &str, b: &str, region: &str| {
            let mut after = slide(b);
            after.elements[0].region = region.into();
            diff(&slide(a), &after, &DiffOptions::default())
        };
        assert!(!ticks(&turned("Living room", "Kitchen", "region[Carousel]")).is_empty());
        assert!(ticks(&turned("Living room", "Kitchen", "region[Lights]")).is_empty());
    }
}
