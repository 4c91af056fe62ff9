//! The verdict: did an action's effect match what was meant?
//!
//! Deterministic first, from the diff alone; AMBIGUOUS is the only answer that invites an
//! arbiter, and it is what the judge says whenever the diff proves neither way. An empty diff
//! is MISMATCH ("no effect") on a settled page and AMBIGUOUS on a page that was still
//! changing, never MISMATCH.
//!
//! Clicks (and press, upload, drag, goto without a matching intent) are attributed:
//! - **Own state.** A change of the target's own state (checked, pressed, selected, expanded,
//!   value) or a move of the target explains itself: MATCH. Visibility and disabledness are
//!   consequences (a dialog hiding its buttons), not evidence.
//! - **Names.** Otherwise each effect is attributed by the names it carries ("Add Shirt M" →
//!   `Shirt M` appears). The candidates are the target and its neighbours: elements of
//!   `before` with the target's role and region whose role and label are still on the page
//!   afterwards (the rows a recycled node may have shown instead). Each name's terms are
//!   weighted by how distinctive they are among the candidates (`ln(1 + n / df)`, and zero
//!   for a term every candidate shares, such as "Add"); an effect is attributed to the
//!   candidate whose weighted name it covers to at least [`NAME_COVERAGE`] with the largest
//!   matched weight (a tie attributes nothing). When no candidate is carried so, the same
//!   is asked of the names without their action words ("Add a point" is carried by "4
//!   points", "Ver portada" by "Portada de M. Lund"): the verb names the gesture, the rest
//!   the thing it acts on. A neighbour's own state change counts for
//!   that neighbour. A candidate merely appearing or disappearing is no evidence: a
//!   virtualised list scrolls its rows in and out. Target only: MATCH; neighbours only:
//!   MISMATCH naming the most cited one; both: AMBIGUOUS.
//! - **Variants.** An effect whose label holds the target's full name with one
//!   distinguishing word changed ("Remove Shirt L" for "Remove Shirt M") is nobody's by name;
//!   when nothing else is attributed, or when it changed like the target's own effect (both
//!   rows went), it is MISMATCH naming the variant.
//! - **Titles.** Words of the target's container title (`dialog[Delete account?]`) name no
//!   neighbour: a dialog closing after its Cancel is clicked is not Delete's effect.
//! - **Intent.** When no name explains the effect, the caller's sentence of intent may. It is
//!   split into claims (`claims` module: object, container, count, polarity, kept) and MATCH needs
//!   all of them supported; a claim the diff contradicts is MISMATCH naming it, an open one
//!   AMBIGUOUS. An intent only narrows: a MATCH by own state or name also needs every claim.
//!
//! Before anything, changes in slots the page was changing by itself (`background`) are
//! dropped (only those changing is AMBIGUOUS "no effect yet"), and a page `busy` still
//! working is never MATCH. A `press` with a key and no intent is MATCH when the key did its
//! job (Escape closed a popup, Enter submitted the focused form or picked an option, Tab
//! moved focus, Control+B made the selected words of an editor's body bold). A `drag` whose
//! target kept its place in the diff is judged by its position
//! among its list's items, since a reorder leaves the multiset diff empty. A `fill` shown
//! with formatting only added ("(555) 123-4567" for "5551234567") holds the requested value.
//!
//! A `goto` without an intent asked for a new document: MATCH when one answers (the epoch
//! changed). A click on a field that takes text, with no effect but the focus it holds
//! afterwards, is MATCH: it is ready for typing (focus is read from `after`, not the diff).
//!
//! `press`, `upload`, `drag` and `goto` ask the intent first. `hover` weighs only what
//! appeared (or was shown). `watch` has no target: the intent alone decides (MATCH or
//! MISMATCH), and without one a change is AMBIGUOUS. `fill`, `check`, `uncheck` and `select`
//! compare the target's field with the request (a sensitive value by keyed hash only), and a
//! change of another field's value (or checked state, or selection) is MISMATCH naming it.
//! A target already in the requested state, with no other field changed, is MATCH:
//! re-filling a field with its own value did what was meant.
//!
//! The parts, by what each decides: `effects` (an observed difference as evidence and its
//! relation to the target), `candidates` (who a name may point to), `attribution` (a click's
//! effects by own state, names, rows, and an action done twice), `intended` (the claims of an
//! intent against the effects), `keys` (Escape, Enter, Tab, a reorder by drag), `formatting`
//! (Control+B, Control+I in a rich-text editor's body), `actions`
//! (click, hover, watch, fill, check, select, steppers) and `wording` (reasons no rule owns).
//! Their tables of cases are in `tests/`, one file for each part.
//!
//! Trade-off: neighbours are restricted to the target's role and region to keep honest
//! effects elsewhere ("Cart total 19.99" next to a "Cart" button) from being pinned on them;
//! a wrong click that lands on another role or region is left AMBIGUOUS, not MISMATCH.

use super::background::Background;
use super::busy::busy_where;
use super::claims::{self, Claims};
use super::diff::{self, diff, Changed, Diff, DiffOptions, Field, Moved};
use super::error::{Error, ErrorCode, Result};
use super::identity::{describe_element, is_in_place, Identity};
use super::intent::{self, Intent, Terms};
use super::model::{limits, Element, Role, Snapshot, Text, Tristate, REDACTED};
use super::reading::Reading;
use super::states;
use super::text;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

mod actions;
mod attribution;
mod candidates;
mod effects;
mod formatting;
mod intended;
mod keys;
mod numbers;
#[cfg(test)]
mod tests;
mod wording;

use candidates::*;
pub use effects::is_formatted;
use effects::*;
use wording::*;

/// A candidate's name explains an effect when the effect carries at least this share of the
/// name's weighted terms.
pub const NAME_COVERAGE: f32 = 0.6;

/// A label that carries this many names or more (each at [`NAME_COVERAGE`]) is a container
/// named by its content, and names none of them.
pub const MAX_NAMES_CARRIED: usize = 3;

/// At most this many effects are weighed (the first ones in diff order); the verdict on a
/// page that changes more than that rests on them.
pub const MAX_EFFECTS: usize = 1_000;

/// At most this many neighbours are candidates: the nearest to the target in document order.
pub const MAX_NEIGHBOURS: usize = 2_000;

/// An intent is read up to this many characters.
pub const MAX_INTENT_CHARS: usize = 2_000;

/// What the caller did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ActionKind {
    Click,
    Fill,
    Check,
    Uncheck,
    Select,
    Press,
    Hover,
    Upload,
    Drag,
    Goto,
    Watch,
}

impl ActionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Click => "click",
            ActionKind::Fill => "fill",
            ActionKind::Check => "check",
            ActionKind::Uncheck => "uncheck",
            ActionKind::Select => "select",
            ActionKind::Press => "press",
            ActionKind::Hover => "hover",
            ActionKind::Upload => "upload",
            ActionKind::Drag => "drag",
            ActionKind::Goto => "goto",
            ActionKind::Watch => "watch",
        }
    }

    /// Actions aimed at one element; `press` and `goto` may have one, `watch` has none.
    pub fn needs_target(self) -> bool {
        !matches!(
            self,
            ActionKind::Press | ActionKind::Goto | ActionKind::Watch
        )
    }
}

/// An action to judge. `value` is what a fill asked for; for a sensitive target the caller
/// passes `valueHash` (`prufe.hash(value)`, keyed in the page) instead, and the judge never
/// reads, compares or prints a secret value.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Action {
    pub kind: ActionKind,
    /// The element `resolve` returned (from `before`).
    #[serde(default)]
    pub target: Option<Element>,
    #[serde(default)]
    pub value: Option<String>,
    #[serde(default)]
    pub value_hash: Option<String>,
    /// The option a `select` asked for.
    #[serde(default)]
    pub option: Option<String>,
    /// What the caller means to happen, in words, in any language.
    #[serde(default)]
    pub intent: Option<String>,
    /// The key a `press` sent (`Enter`, `Escape`, `Tab`, `Control+a`), named as the
    /// `KeyboardEvent.key` values are.
    #[serde(default)]
    pub key: Option<String>,
}

impl fmt::Debug for Action {
    /// The requested value is never printed: it may be a secret.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Action")
            .field("kind", &self.kind)
            .field("target", &self.target)
            .field("value", &self.value.as_ref().map(|_| REDACTED))
            .field("value_hash", &self.value_hash)
            .field("option", &self.option)
            .field("intent", &self.intent)
            .field("key", &self.key)
            .finish()
    }
}

/// How to judge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct JudgeOptions {
    /// The page settled before `after` was taken. When false, an absent effect may be yet
    /// to come, so it is AMBIGUOUS, never MISMATCH.
    pub stable: bool,
    /// Judge only changes in these regions (prefixes, as `DiffOptions::regions`).
    pub regions: Vec<String>,
    /// Ignore changes in these regions (a ticker, a clock).
    pub ignore_regions: Vec<String>,
    /// What the page was changing by itself before the action (seen while settling).
    pub background: Background,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            stable: true,
            regions: Vec::new(),
            ignore_regions: Vec::new(),
            background: Background::default(),
        }
    }
}

/// The three answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum VerdictKind {
    /// The effect is the one intended.
    Match,
    /// The diff proves the effect is not the one intended (or that there was none).
    Mismatch,
    /// The diff proves neither.
    Ambiguous,
}

impl VerdictKind {
    /// The wire name: `MATCH`, `MISMATCH`, `AMBIGUOUS`.
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictKind::Match => "MATCH",
            VerdictKind::Mismatch => "MISMATCH",
            VerdictKind::Ambiguous => "AMBIGUOUS",
        }
    }
}

/// The element an effect was attributed to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Attribution {
    pub role: Role,
    /// The element's label: its name, else its observed text.
    pub name: String,
    pub region: String,
}

impl Attribution {
    pub fn of(e: &Element) -> Self {
        Attribution {
            role: e.role,
            name: e.label().to_owned(),
            region: e.region.clone(),
        }
    }
}

/// The judge's answer. `reason` is one sentence built from redacted data only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    pub verdict: VerdictKind,
    pub reason: String,
    pub attributed_to: Option<Attribution>,
    pub diff: Diff,
}

/// Judges `action` from the diff of `before` and `after` (restricted to the regions `opts`
/// keeps). Deterministic: equal inputs give equal verdicts. Fails only with
/// `INVALID_ACTION` when an action that aims at an element comes without a target.
pub fn judge(
    action: &Action,
    before: &Snapshot,
    after: &Snapshot,
    opts: &JudgeOptions,
) -> Result<Verdict> {
    let target = match action.kind {
        ActionKind::Watch => None,
        kind => match &action.target {
            None if kind.needs_target() => {
                return Err(Error::new(
                    ErrorCode::InvalidAction,
                    format!(
                        "a {} needs a target: pass the element resolve returned",
                        kind.as_str()
                    ),
                ))
            }
            target => target.as_ref(),
        },
    };
    let diff_opts = DiffOptions {
        regions: opts.regions.clone(),
        ignore_regions: opts.ignore_regions.clone(),
    };
    let diff = diff(before, after, &diff_opts);
    let sentence = action
        .intent
        .as_deref()
        .map(|s| text::cap(s, MAX_INTENT_CHARS));
    // Only what the judge can read of the sentence narrows (see `reading`); an intent of
    // which nothing is read is no intent.
    let reading = sentence
        .as_deref()
        .map(|s| Reading::of(s, before, after))
        .filter(|r| !r.unread.is_empty());
    let intent = sentence.as_deref().map(Intent::parse);
    let claims = sentence.as_deref().map(Claims::parse).unwrap_or_default();
    let judged = without_background(&diff, &opts.background, target);
    let still_busy = busy_where(
        before,
        after,
        |e| diff_opts.keeps(&e.region) && !opts.background.has_place(&e.frame, &e.region, e.role),
        |t| diff_opts.keeps(&t.region) && !opts.background.has_text(t),
    );
    let mut finding = Judge {
        action,
        before,
        after,
        diff: &judged,
        full: &diff,
        stable: opts.stable && still_busy.is_none(),
        background_only: !diff.empty && judged.empty,
        intent: intent.as_ref(),
        claims: &claims,
        reading: reading.as_ref(),
    }
    .run(target);
    if let Some(why) = still_busy {
        if finding.verdict != VerdictKind::Mismatch {
            finding = ambiguous(format!(
                "the page is still busy: {why} ({})",
                finding.reason
            ));
        }
    }
    Ok(Verdict {
        verdict: finding.verdict,
        reason: finding.reason,
        attributed_to: finding.attributed_to,
        diff,
    })
}

/// `d` less the changes in slots the page was already changing by itself (a change of the
/// target itself is always kept): borrowed when there are none. The undo asks it too, of a
/// wrong effect that may be a reorder alone on a live page (`run::undo`).
pub fn without_background<'d>(
    d: &'d Diff,
    bg: &Background,
    target: Option<&Element>,
) -> Cow<'d, Diff> {
    if bg.is_empty() || d.empty {
        return Cow::Borrowed(d);
    }
    let is_target =
        |e: &Element| target.is_some_and(|t| same_ref(e, t) || Identity::of(e) == Identity::of(t));
    let element = |e: &Element| !is_target(e) && bg.has_element(e);
    // What left a slot that turns by itself (a carousel's slide turned out) is background.
    let left = |e: &Element| element(e) || (!is_target(e) && bg.has_left(e));
    let text = |t: &Text| bg.has_text(t);
    let any = d.appeared.iter().any(element)
        || d.disappeared.iter().any(left)
        || d.changed.iter().any(|c| element(&c.after))
        || d.moved
            .iter()
            .any(|m| element(&m.after) && element(&m.before))
        || d.texts_appeared
            .iter()
            .chain(&d.texts_disappeared)
            .any(text);
    if !any {
        return Cow::Borrowed(d);
    }
    let mut kept = d.clone();
    kept.appeared.retain(|e| !element(e));
    kept.disappeared.retain(|e| !left(e));
    kept.changed.retain(|c| !element(&c.after));
    kept.moved
        .retain(|m| !(element(&m.after) && element(&m.before)));
    kept.texts_appeared.retain(|t| !text(t));
    kept.texts_disappeared.retain(|t| !text(t));
    kept.lines = kept.describe();
    kept.empty = kept.is_empty();
    Cow::Owned(kept)
}

struct Finding {
    verdict: VerdictKind,
    reason: String,
    attributed_to: Option<Attribution>,
}

fn finding(verdict: VerdictKind, reason: String, to: Option<&Element>) -> Finding {
    Finding {
        verdict,
        reason,
        attributed_to: to.map(Attribution::of),
    }
}

fn matched(reason: String, to: Option<&Element>) -> Finding {
    finding(VerdictKind::Match, reason, to)
}

fn mismatch(reason: String, to: Option<&Element>) -> Finding {
    finding(VerdictKind::Mismatch, reason, to)
}

fn ambiguous(reason: String) -> Finding {
    finding(VerdictKind::Ambiguous, reason, None)
}

struct Judge<'a> {
    action: &'a Action,
    before: &'a Snapshot,
    after: &'a Snapshot,
    diff: &'a Diff,
    /// The whole diff, the slots the page changes by itself included (`diff` leaves them
    /// out): where a stepping control's position line is read when the page turns it too.
    full: &'a Diff,
    stable: bool,
    /// Something changed, but only in slots the page was already changing by itself.
    background_only: bool,
    intent: Option<&'a Intent>,
    claims: &'a Claims,
    /// What the judge reads of an intent written in another language than the page, when
    /// it could not read all of it (see `reading`).
    reading: Option<&'a Reading>,
}

impl<'a> Judge<'a> {
    fn run(&self, target: Option<&'a Element>) -> Finding {
        let found = self.decide(target);
        let found = match target {
            Some(t) if found.verdict == VerdictKind::Match => self.in_other_row(t).unwrap_or(found),
            _ => found,
        };
        if found.verdict == VerdictKind::Match {
            if let Some(f) = self.twice(target) {
                return f;
            }
        }
        found
    }

    fn decide(&self, target: Option<&'a Element>) -> Finding {
        let kind = self.action.kind;
        if kind == ActionKind::Press && self.action.intent.is_none() {
            if let Some(f) = self.key_effect(target) {
                return f;
            }
        }
        if kind == ActionKind::Press {
            // A formatting key whose format went wrong (or elsewhere) is refused whatever the
            // intent reads of the words it formatted; one whose format the intent says, of the
            // words it formatted, is done.
            if let Some((f, said)) = self.formatting_key(target) {
                if f.verdict == VerdictKind::Mismatch || said {
                    return f;
                }
            }
            if let Some(f) = self.escaped(target) {
                return f;
            }
            if let Some(f) = target
                .filter(|_| self.diff.empty)
                .and_then(|t| self.keyed_reorder(t))
            {
                return f;
            }
        }
        if let (ActionKind::Drag, Some(t)) = (kind, target) {
            if let Some(f) = self.reordered(t) {
                return f;
            }
        }
        // A goto without an intent asked for one thing: a new document. The epoch says one
        // answers; what it shows is no evidence either way.
        if kind == ActionKind::Goto
            && self.action.intent.is_none()
            && self.before.context.epoch != self.after.context.epoch
        {
            return matched(
                format!(
                    "a new document loaded ({} elements observed)",
                    self.after.elements.len()
                ),
                None,
            );
        }
        match (kind, target) {
            (ActionKind::Fill, Some(t)) => self.fill(t),
            (ActionKind::Check, Some(t)) => self.toggle(t, true),
            (ActionKind::Uncheck, Some(t)) => self.toggle(t, false),
            (ActionKind::Select, Some(t)) => self.select(t),
            (ActionKind::Click, Some(t)) if self.diff.empty && self.took_focus(t) => matched(
                format!(
                    "{} took the focus; it is ready for typing",
                    describe_element(t)
                ),
                Some(t),
            ),
            // A stepping control whose position line the page turns by itself too (an
            // autoplaying carousel's "1 of 3"): the line is read from the whole diff.
            (ActionKind::Click, Some(t)) if self.diff.empty && self.background_only => self
                .paged(t, &[])
                .unwrap_or_else(|| self.no_effect("the page did not change")),
            (ActionKind::Press, _) if self.diff.empty && self.action.intent.is_none() => self
                .focus_moved()
                .unwrap_or_else(|| self.no_effect("the page did not change")),
            _ if self.diff.empty => self.no_effect("the page did not change"),
            (ActionKind::Watch, _) => self.watch(),
            (ActionKind::Hover, Some(t)) => self.hover(t),
            (ActionKind::Click, Some(t)) => self.click(t),
            // press, upload, drag, goto: a declared intent decides first.
            (_, t) => {
                let effects = Effect::all(self.diff);
                if let Some(f) = self.by_intent(&effects, t) {
                    return f;
                }
                // What the key is meant to do, done, is the target's evidence, held against
                // the intent as its own state is (a foreign intent's unread words count for
                // nothing).
                if let (ActionKind::Press, Some(t)) = (kind, t) {
                    if let Some(f) = self.key_effect(Some(t)) {
                        if f.verdict == VerdictKind::Match {
                            return self.with_intent(f, &effects, t);
                        }
                    }
                }
                match t {
                    Some(t) => self.click(t),
                    None => self.unexplained(&effects, "there is no target to attribute it to"),
                }
            }
        }
    }
}
