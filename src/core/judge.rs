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
//! moved focus). A `drag` whose target kept its place in the diff is judged by its position
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

/// A candidate's name explains an effect when the effect carries at least this share of the
/// name's weighted terms.
pub const NAME_COVERAGE: f32 = 0.6;

/// At most this many effects are weighed (the first ones in diff order); the verdict on a
/// page that changes more than that rests on them.
pub const MAX_EFFECTS: usize = 1_000;

/// At most this many neighbours are candidates: the nearest to the target in document order.
pub const MAX_NEIGHBOURS: usize = 2_000;

/// An intent is read up to this many characters.
pub const MAX_INTENT_CHARS: usize = 2_000;

/// What the caller did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
/// target itself is always kept): borrowed when there are none.
fn without_background<'d>(d: &'d Diff, bg: &Background, target: Option<&Element>) -> Cow<'d, Diff> {
    if bg.is_empty() || d.empty {
        return Cow::Borrowed(d);
    }
    let is_target =
        |e: &Element| target.is_some_and(|t| same_ref(e, t) || Identity::of(e) == Identity::of(t));
    let element = |e: &Element| !is_target(e) && bg.has_element(e);
    let text = |t: &Text| bg.has_text(t);
    let any = d.appeared.iter().chain(&d.disappeared).any(element)
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
    kept.disappeared.retain(|e| !element(e));
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

/// One observed difference, as evidence.
#[derive(Debug, Clone, Copy)]
enum Effect<'d> {
    Appeared(&'d Element),
    Disappeared(&'d Element),
    Changed(&'d Changed),
    Moved(&'d Moved),
    TextAppeared(&'d Text),
    TextDisappeared(&'d Text),
}

impl<'d> Effect<'d> {
    /// Appearances and changes first, then disappearances; at most [`MAX_EFFECTS`].
    fn all(d: &'d Diff) -> Vec<Effect<'d>> {
        d.appeared
            .iter()
            .map(Effect::Appeared)
            .chain(d.changed.iter().map(Effect::Changed))
            .chain(d.moved.iter().map(Effect::Moved))
            .chain(d.texts_appeared.iter().map(Effect::TextAppeared))
            .chain(d.disappeared.iter().map(Effect::Disappeared))
            .chain(d.texts_disappeared.iter().map(Effect::TextDisappeared))
            .take(MAX_EFFECTS)
            .collect()
    }

    /// The element the effect is about, as it was known before (for identity checks).
    fn element(&self) -> Option<&'d Element> {
        match *self {
            Effect::Appeared(e) | Effect::Disappeared(e) => Some(e),
            Effect::Changed(c) => Some(&c.before),
            Effect::Moved(m) => Some(&m.before),
            Effect::TextAppeared(_) | Effect::TextDisappeared(_) => None,
        }
    }

    fn label(&self) -> &'d str {
        match *self {
            Effect::Appeared(e) | Effect::Disappeared(e) => e.label(),
            Effect::Changed(c) => c.after.label(),
            Effect::Moved(m) => m.after.label(),
            Effect::TextAppeared(t) | Effect::TextDisappeared(t) => &t.text,
        }
    }

    /// Words around the label: the role, regions, the names of changed fields and their new
    /// values (as shown, so redacted where sensitive).
    fn context(&self) -> String {
        match *self {
            Effect::Appeared(e) | Effect::Disappeared(e) => {
                format!("{} {}", role_words(e.role), e.region)
            }
            Effect::Changed(c) => {
                let mut s = format!("{} {}", role_words(c.after.role), c.after.region);
                for f in &c.fields {
                    s.push(' ');
                    s.push_str(f.field.as_str());
                    if let Some(v) = &f.after {
                        s.push(' ');
                        s.push_str(v);
                    }
                    // What people call the state ("on", "open", "selected"): its way is
                    // checked apart (`states::said`).
                    if is_own_field(f.field) {
                        s.push(' ');
                        s.push_str(&states::vocabulary(f.field));
                    }
                }
                s
            }
            Effect::Moved(m) => format!(
                "{} {} {}",
                role_words(m.after.role),
                m.before.region,
                m.after.region
            ),
            Effect::TextAppeared(t) | Effect::TextDisappeared(t) => t.region.clone(),
        }
    }

    fn line(&self) -> String {
        match *self {
            Effect::Appeared(e) => diff::line_appeared(e),
            Effect::Disappeared(e) => diff::line_disappeared(e),
            Effect::Changed(c) => diff::line_changed(c),
            Effect::Moved(m) => diff::line_moved(m),
            Effect::TextAppeared(t) => diff::line_text_appeared(t),
            Effect::TextDisappeared(t) => diff::line_text_disappeared(t),
        }
    }

    /// Something became visible: an element or text appeared, or a hidden one was shown.
    fn is_appearance(&self) -> bool {
        match *self {
            Effect::Appeared(e) => e.visible,
            Effect::TextAppeared(_) => true,
            Effect::Changed(c) => c.has(Field::Visible) && c.after.visible,
            _ => false,
        }
    }

    /// The stems of the label's content words, in order.
    fn stems(&self) -> Vec<String> {
        claims::stems(self.label())
    }

    /// The region the effect is seen in (after a move, the new one).
    fn region(&self) -> &'d str {
        match *self {
            Effect::Appeared(e) | Effect::Disappeared(e) => &e.region,
            Effect::Changed(c) => &c.after.region,
            Effect::Moved(m) => &m.after.region,
            Effect::TextAppeared(t) | Effect::TextDisappeared(t) => &t.region,
        }
    }

    /// Like effects share this key, for counting: direction, role (or text), region, and
    /// the label except for rows, which are counted however they are labelled.
    fn kind_key(&self) -> (u8, Option<Role>, &'d str, &'d str) {
        let (direction, role) = match *self {
            Effect::Appeared(e) => (0, Some(e.role)),
            Effect::Disappeared(e) => (1, Some(e.role)),
            Effect::Changed(c) => (2, Some(c.after.role)),
            Effect::Moved(m) => (3, Some(m.after.role)),
            Effect::TextAppeared(_) => (0, None),
            Effect::TextDisappeared(_) => (1, None),
        };
        let row = matches!(
            role,
            Some(Role::Listitem | Role::Row | Role::Article | Role::Option | Role::Treeitem)
        );
        let label = if row { "" } else { self.label() };
        (direction, role, self.region(), label)
    }

    /// A message of failure that appeared: a text, or an alert or status element.
    fn is_failure_message(&self) -> bool {
        let alerting = |r: Role| matches!(r, Role::Alert | Role::Alertdialog | Role::Status);
        let shown = match *self {
            Effect::TextAppeared(_) => true,
            Effect::Appeared(e) => alerting(e.role),
            Effect::Changed(c) => alerting(c.after.role) && self.is_appearance(),
            _ => false,
        };
        shown && claims::is_failure(self.label())
    }

    /// Does the effect change an element's own state (or place)?
    fn is_own_state(&self) -> bool {
        match *self {
            Effect::Changed(c) => c.fields.iter().any(|f| is_own_field(f.field)),
            Effect::Moved(_) => true,
            _ => false,
        }
    }
}

/// A role as the words a person would use for it in a sentence of intent.
fn role_words(role: Role) -> &'static str {
    match role {
        Role::Alertdialog => "alert dialog",
        Role::Columnheader => "column header",
        Role::Combobox => "combo box",
        Role::Contentinfo => "footer",
        Role::Gridcell => "grid cell",
        Role::Img => "image",
        Role::Listitem => "list item",
        Role::Menubar => "menu bar",
        Role::Menuitem => "menu item",
        Role::Menuitemcheckbox => "menu item checkbox",
        Role::Menuitemradio => "menu item radio",
        Role::Progressbar => "progress bar",
        Role::Radiogroup => "radio group",
        Role::Rowheader => "row header",
        Role::Searchbox => "search box",
        Role::Spinbutton => "spin button",
        Role::Tablist => "tab list",
        Role::Tabpanel => "tab panel",
        Role::Textbox => "text box",
        Role::Treeitem => "tree item",
        Role::Generic | Role::None | Role::Unknown => "",
        other => other.as_str(),
    }
}

/// Fields that are an element's own state, changed by acting on it. Visibility and
/// disabledness are consequences (a dialog hiding its buttons), not evidence.
fn is_own_field(f: Field) -> bool {
    matches!(
        f,
        Field::Checked | Field::Pressed | Field::Selected | Field::Expanded | Field::Value
    )
}

/// The terms of the titles in a region path (`dialog[Delete account?]`, `form[Checkout]`):
/// words of a container, which name no control inside it.
fn title_terms(region: &str) -> Terms {
    let mut titles = String::new();
    for segment in region.split('/') {
        if let (Some(open), true) = (segment.find('['), segment.ends_with(']')) {
            titles.push_str(&segment[open + 1..segment.len() - 1]);
            titles.push(' ');
        }
    }
    Terms::of(&titles)
}

/// The region path up to and including its form (`form[Checkout]`, `main/form[Login]`).
fn form_region(region: &str) -> Option<String> {
    let segments: Vec<&str> = region.split('/').collect();
    let at = segments
        .iter()
        .position(|s| *s == "form" || s.starts_with("form["))?;
    Some(segments[..=at].join("/"))
}

/// Roles that pop up over the page and close again.
fn is_popup(role: Role) -> bool {
    matches!(
        role,
        Role::Dialog | Role::Alertdialog | Role::Listbox | Role::Menu | Role::Tooltip
    )
}

/// A value that keeps every typed character in order and adds only formatting (spaces,
/// `()-./,+'` and the like) or changes only letter case: the requested value as the page shows it.
pub fn is_formatted(typed: &str, shown: &str) -> bool {
    // Characters a page inserts to format a phone number, a card number, an amount or a
    // date; apostrophes and narrow spaces are thousand separators in some locales.
    const FORMATTING: &[char] = &[
        ' ', '(', ')', '-', '.', '/', ',', '+', '\'', '\u{2019}', '\u{a0}', '\u{202f}', '\u{2009}',
    ];
    let typed: Vec<char> = typed.trim().chars().collect();
    if typed.is_empty() {
        return false;
    }
    let mut at = 0;
    for c in shown.trim().chars() {
        // Case is formatting too: an IBAN or a postcode shown in capitals.
        if at < typed.len() && (c == typed[at] || c.to_lowercase().eq(typed[at].to_lowercase())) {
            at += 1;
        } else if !FORMATTING.contains(&c) {
            return false;
        }
    }
    at == typed.len()
}

/// A popup closed: a control collapsed, or a popup disappeared or was hidden.
fn closes_popup(e: &Effect) -> bool {
    match *e {
        Effect::Changed(c) => {
            (c.has(Field::Expanded) && c.after.expanded == Some(false))
                || (c.has(Field::Visible) && !c.after.visible && is_popup(c.after.role))
        }
        Effect::Disappeared(el) => is_popup(el.role),
        _ => false,
    }
}

/// What a dialog closing says, in the four languages: that it closed.
const CLOSED_WORDS: &str =
    "closes closed dismissed cierra cerrado cerrada ferme fermee schliesst geschlossen";

/// What people call a dialog, in the four languages, folded: an intent whose object is one
/// of these is about the dialog itself.
const DIALOG_WORDS: &str = "dialog dialogue modal popup popover panel sheet drawer window \
    prompt confirmation alert box dialogo ventana panel confirmacion aviso fenster \
    ruckfrage bestatigung hinweis meldung boite fenetre";

/// The regions inside the dialogs that `effects` close (`dialog[Delete account?]`).
fn closed_dialogs(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| {
            let el = match *e {
                Effect::Disappeared(el) => el,
                Effect::Changed(c) if c.has(Field::Visible) && !c.after.visible => &c.before,
                _ => return None,
            };
            matches!(el.role, Role::Dialog | Role::Alertdialog).then(|| {
                let own = format!("{}[{}]", el.role.as_str(), el.label());
                if el.region.is_empty() {
                    own
                } else if el.region.ends_with(&own) {
                    el.region.clone()
                } else {
                    format!("{}/{own}", el.region)
                }
            })
        })
        .collect()
}

/// Is `e` part of a dialog closing: the dialog going or hiding, or what was inside it going
/// with it? Its words are the dialog's title and buttons, which say what the dialog was
/// about, never that it happened: a closing is evidence that the dialog closed and of
/// nothing else.
fn is_closing(e: &Effect, closed: &[String]) -> bool {
    // A modal's nameless focus guards and backdrop (no label, no place) go with it.
    if let Effect::Disappeared(el) = *e {
        if !closed.is_empty()
            && el.label().trim().is_empty()
            && el.within.is_none()
            && matches!(
                el.role,
                Role::Generic | Role::None | Role::Unknown | Role::Button
            )
        {
            return true;
        }
    }
    // The control that opened the dialog (`aria-expanded`) collapses with it.
    if let Effect::Changed(c) = *e {
        if !closed.is_empty()
            && c.fields.iter().all(|f| f.field == Field::Expanded)
            && c.after.expanded == Some(false)
        {
            return true;
        }
    }
    let gone = match *e {
        Effect::Disappeared(_) => true,
        Effect::Changed(c) => c.has(Field::Visible) && !c.after.visible,
        _ => false,
    };
    gone && e.element().is_some_and(|el| {
        matches!(el.role, Role::Dialog | Role::Alertdialog)
            || closed.iter().any(|d| diff::region_matches(&el.region, d))
    }) || matches!(*e, Effect::TextDisappeared(t) if closed.iter().any(|d| diff::region_matches(&t.region, d)))
}

/// Is `e` a sibling of the target giving up the selection the target takes? In a group that
/// holds one selection (tabs, radios, options, segmented buttons, tree items, rows of a grid,
/// the current one of a set of links) selecting one item deselects the one that had it: part of the target's effect, never a
/// neighbour's or a variant's.
fn is_deselected_sibling(e: &Effect, target: Option<&Element>, effects: &[Effect]) -> bool {
    let (Effect::Changed(c), Some(t)) = (*e, target) else {
        return false;
    };
    let on = |c: &Changed| {
        c.fields.iter().any(|f| match f.field {
            Field::Selected => c.after.selected == Some(true),
            Field::Checked => c.after.checked == Some(Tristate::True),
            Field::Pressed => c.after.pressed == Some(Tristate::True),
            _ => false,
        })
    };
    // The same choice shown twice (a custom select's popup and the native select it keeps
    // for forms): the target's twin took the selection in the group this sibling left.
    let twin_took = |region: &str| {
        effects.iter().any(|o| match *o {
            Effect::Changed(oc) => {
                oc.after.role == t.role
                    && oc.after.region == region
                    && oc.after.frame == t.frame
                    && text::normalize_key(oc.after.label()) == text::normalize_key(t.label())
                    && on(oc)
            }
            _ => false,
        })
    };
    // A tab's panel shows with it and the panel of the tab it replaces hides.
    if t.role == Role::Tab
        && c.after.role == Role::Tabpanel
        && c.after.frame == t.frame
        && c.fields.iter().all(|f| f.field == Field::Visible)
    {
        return true;
    }
    let single = matches!(
        t.role,
        Role::Tab
            | Role::Radio
            | Role::Option
            | Role::Menuitemradio
            | Role::Treeitem
            | Role::Row
            | Role::Gridcell
            | Role::Button
            | Role::Link
    );
    let off = |f: &diff::FieldChange| match f.field {
        // A link that stops being current loses its `aria-current`: no selection.
        Field::Selected => c.after.selected != Some(true),
        Field::Checked => c.after.checked == Some(Tristate::False),
        Field::Pressed => c.after.pressed == Some(Tristate::False),
        _ => false,
    };
    single
        && c.after.role == t.role
        && (c.after.region == t.region || twin_took(&c.after.region))
        && c.after.frame == t.frame
        && !same_ref(&c.after, t)
        && !c.fields.is_empty()
        && c.fields
            .iter()
            .all(|f| off(f) || f.field == Field::Disabled)
}

/// Did a field's value become the target's name? Picking an option of a combo box, a
/// select or an autocomplete sets the field it belongs to to that option ("Ger" →
/// "Germany"): the field shows the target was picked.
fn takes_name(e: &Effect, t: &Element) -> bool {
    let Effect::Changed(c) = *e else {
        return false;
    };
    let name = text::normalize_key(t.label());
    name.chars().count() >= 2
        && !same_ref(&c.after, t)
        && c.fields.iter().any(|f| {
            f.field == Field::Value
                && f.after
                    .as_deref()
                    .is_some_and(|v| text::normalize_key(v) == name)
        })
}

/// How a person names an element: its label, else the words of its place (the checkbox of
/// the row "Walk dog" is "Walk dog"'s).
fn naming(e: &Element) -> &str {
    match e.label() {
        "" => e
            .within
            .as_deref()
            .and_then(|w| w.strip_suffix(']')?.split_once('[').map(|(_, key)| key))
            .unwrap_or(""),
        label => label,
    }
}

fn same_ref(e: &Element, target: &Element) -> bool {
    !target.reference.is_empty() && e.reference == target.reference
}

/// Who the name evidence points to.
enum Named<'d, 's> {
    Target(Effect<'d>),
    Neighbour(&'s Element, Effect<'d>),
    Both {
        target: Effect<'d>,
        neighbour: &'s Element,
        effect: Effect<'d>,
    },
    Nobody,
}

/// The target and its neighbours, with distinctiveness weights for the terms of their names.
struct Candidates<'s> {
    /// `members[0]` is the target.
    members: Vec<&'s Element>,
    identities: FxHashMap<Identity<'s>, usize>,
    terms: Vec<Vec<String>>,
    weights: Vec<Vec<f32>>,
    total: Vec<f32>,
    /// Whether each term is an action word (`claims::is_action`).
    actions: Vec<Vec<bool>>,
    /// The total weight of each member's terms that are not action words.
    object_total: Vec<f32>,
    /// `intent::bucket` of a term → (member, term index), for terms of positive weight.
    index: FxHashMap<String, Vec<(usize, usize)>>,
}

impl<'s> Candidates<'s> {
    fn new(target: &'s Element, before: &'s Snapshot, after: &Snapshot) -> Self {
        // Present afterwards anywhere: a neighbour that moved is still a neighbour.
        let present: FxHashSet<(Role, &str)> =
            after.elements.iter().map(|e| (e.role, naming(e))).collect();
        let mut labels: FxHashSet<&str> = FxHashSet::default();
        labels.insert(naming(target));
        let mut pool: Vec<(usize, &'s Element)> = before
            .elements
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                e.role == target.role
                    && e.region == target.region
                    && !naming(e).is_empty()
                    && present.contains(&(e.role, naming(e)))
            })
            .filter(|(_, e)| labels.insert(naming(e)))
            .collect();
        if pool.len() > MAX_NEIGHBOURS {
            let at = before
                .elements
                .iter()
                .position(|e| same_ref(e, target))
                .or_else(|| {
                    before
                        .elements
                        .iter()
                        .position(|e| Identity::of(e) == Identity::of(target))
                })
                .unwrap_or(0);
            pool.sort_by_key(|&(i, _)| (i.abs_diff(at), i));
            pool.truncate(MAX_NEIGHBOURS);
            pool.sort_by_key(|&(i, _)| i);
        }
        let members: Vec<&'s Element> = std::iter::once(target)
            .chain(pool.into_iter().map(|(_, e)| e))
            .collect();
        let terms: Vec<Vec<String>> = members
            .iter()
            .map(|e| Terms::of(naming(e)).iter().map(str::to_owned).collect())
            .collect();
        let mut df: FxHashMap<&str, usize> = FxHashMap::default();
        for t in terms.iter().flatten() {
            *df.entry(t.as_str()).or_default() += 1;
        }
        let n = members.len();
        let weights: Vec<Vec<f32>> = terms
            .iter()
            .map(|ts| {
                ts.iter()
                    .map(|t| {
                        let d = df[t.as_str()];
                        if n >= 2 && d == n {
                            0.0
                        } else {
                            (1.0 + n as f32 / d as f32).ln()
                        }
                    })
                    .collect()
            })
            .collect();
        let total = weights.iter().map(|w| w.iter().sum()).collect();
        let actions: Vec<Vec<bool>> = terms
            .iter()
            .map(|ts| ts.iter().map(|t| claims::is_action(t)).collect())
            .collect();
        let object_total = weights
            .iter()
            .zip(&actions)
            .map(|(w, a)| w.iter().zip(a).filter(|(_, &a)| !a).map(|(w, _)| w).sum())
            .collect();
        let mut index: FxHashMap<String, Vec<(usize, usize)>> = FxHashMap::default();
        for (m, ts) in terms.iter().enumerate() {
            for (i, t) in ts.iter().enumerate() {
                if weights[m][i] > 0.0 {
                    index
                        .entry(intent::bucket(t).to_owned())
                        .or_default()
                        .push((m, i));
                }
            }
        }
        let mut identities = FxHashMap::default();
        for (m, e) in members.iter().enumerate() {
            identities.entry(Identity::of(e)).or_insert(m);
        }
        Candidates {
            members,
            identities,
            terms,
            weights,
            total,
            actions,
            object_total,
            index,
        }
    }

    /// The member whose name `label` carries best, if exactly one does; failing that, the
    /// one whose name without its action words it carries best.
    fn carried_by(&self, label: &Terms) -> Option<usize> {
        self.carried(label, false)
            .or_else(|| self.carried(label, true))
    }

    fn carried(&self, label: &Terms, objects_only: bool) -> Option<usize> {
        let mut seen: FxHashSet<(usize, usize)> = FxHashSet::default();
        let mut weight: FxHashMap<usize, f32> = FxHashMap::default();
        for term in label.iter() {
            let Some(list) = self.index.get(intent::bucket(term)) else {
                continue;
            };
            for &(m, i) in list {
                if objects_only && self.actions[m][i] {
                    continue;
                }
                if intent::same_term(term, &self.terms[m][i]) && seen.insert((m, i)) {
                    *weight.entry(m).or_default() += self.weights[m][i];
                }
            }
        }
        let totals = if objects_only {
            &self.object_total
        } else {
            &self.total
        };
        let mut found: Vec<(usize, f32)> = weight
            .into_iter()
            .filter(|&(m, w)| totals[m] > 0.0 && w / totals[m] >= NAME_COVERAGE)
            .collect();
        found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        match found.as_slice() {
            [] => None,
            [(m, _)] => Some(*m),
            [(m, w), (_, w2), ..] => (w - w2 > 1e-4).then_some(*m),
        }
    }
}

struct Judge<'a> {
    action: &'a Action,
    before: &'a Snapshot,
    after: &'a Snapshot,
    diff: &'a Diff,
    stable: bool,
    /// Something changed, but only in slots the page was already changing by itself.
    background_only: bool,
    intent: Option<&'a Intent>,
    claims: &'a Claims,
    /// What the judge reads of an intent written in another language than the page, when
    /// it could not read all of it (see `reading`).
    reading: Option<&'a Reading>,
}

/// What the claims of an intent come to against the effects.
enum Check<'d> {
    /// Every claim holds; the best explained effect.
    Holds(Effect<'d>),
    /// The diff proves a claim wrong.
    Contradicted(Finding),
    /// The object is there but a claim is neither supported nor contradicted.
    Open(String),
    /// No effect carries the object.
    NoObject,
}

/// The outcome of comparing a field's value with what the action asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ValueCheck {
    Equal,
    /// Equal up to the formatting the page added.
    Formatted,
    Differs,
    /// Nothing was requested.
    NoRequest,
    /// The value cannot be compared without reading a secret (or is absent).
    Unverifiable,
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

    /// One click or key that showed the same new message twice (two toasts "Invitation sent
    /// to Ana", a toast region reading "Price alert setPrice alert set"), when neither the
    /// target's name nor the intent gives a number: the action happened twice. A message is a
    /// text, or a list item or status known by its words; controls are left out (a popup's
    /// two hidden Dismiss buttons are one popup).
    fn twice(&self, target: Option<&Element>) -> Option<Finding> {
        if !matches!(self.action.kind, ActionKind::Click | ActionKind::Press) {
            return None;
        }
        let digits = |s: &str| s.chars().any(|c| c.is_ascii_digit());
        if target.is_some_and(|t| digits(t.label()))
            || self.claims.count.as_ref().is_some_and(|c| c.n != 1)
            || self.action.intent.as_deref().is_some_and(digits)
        {
            return None;
        }
        let doubled = |s: &str| {
            let s = s.trim();
            let n = s.chars().count();
            n >= 6 && n % 2 == 0 && {
                let half: String = s.chars().take(n / 2).collect();
                s.chars().skip(n / 2).collect::<String>() == half
            }
        };
        let mut seen: FxHashMap<(&str, &str, String), u32> = FxHashMap::default();
        let mut line = None;
        for t in &self.diff.texts_appeared {
            if doubled(&t.text) {
                return Some(mismatch(
                    format!(
                        "the same message shows twice: {}",
                        diff::line_text_appeared(t)
                    ),
                    target,
                ));
            }
            let n = seen
                .entry((
                    t.frame.as_str(),
                    t.region.as_str(),
                    text::normalize_key(&t.text),
                ))
                .or_default();
            *n += 1;
            if *n == 2 {
                line = Some(diff::line_text_appeared(t));
            }
        }
        let message = |e: &Element| {
            matches!(
                e.role,
                Role::Listitem | Role::Status | Role::Alert | Role::Article
            ) && text::normalize_key(e.label()).chars().count() >= 3
        };
        for e in self.diff.appeared.iter().filter(|e| message(e)) {
            let key = (
                e.frame.as_str(),
                e.region.as_str(),
                text::normalize_key(e.label()),
            );
            let before = self
                .before
                .elements
                .iter()
                .filter(|b| {
                    b.visible
                        && (
                            b.frame.as_str(),
                            b.region.as_str(),
                            text::normalize_key(b.label()),
                        ) == key
                })
                .count();
            let n = seen.entry(key).or_default();
            *n += 1;
            if *n == 2 && before == 0 {
                line = Some(diff::line_appeared(e));
            }
        }
        line.map(|l| {
            mismatch(
                format!("the same message appeared twice from one action: {l}"),
                target,
            )
        })
    }

    /// A target in a row (`Element::within`) acts on its row: an effect on another row of
    /// the same kind (the next row's checkbox ticked, the next row deleted too) is explained
    /// neither by the target nor by its row, so a MATCH found for the target's own effect
    /// does not stand. A sibling giving up a selection the target took is part of it; an
    /// intent that names the other row explains it.
    fn in_other_row(&self, t: &'a Element) -> Option<Finding> {
        let place = t.within.as_deref()?;
        let (kind, _) = place.strip_suffix(']')?.split_once('[')?;
        let effects = Effect::all(self.diff);
        let other = effects.iter().find(|e| {
            if is_deselected_sibling(e, Some(t), &effects) || self.is_reveal_rename(e, &effects) {
                return false;
            }
            let Some(el) = e.element() else {
                return false;
            };
            // A named control's place only describes it: the diff pairs twins of one name
            // ("Delete todo" in every row) as it finds them, so only the place of an element
            // without a label, which its identity holds, says which row changed.
            match Identity::of(el).within {
                Some(w) => {
                    w != place
                        && w.strip_prefix(kind).is_some_and(|r| r.starts_with('['))
                        && el.frame == t.frame
                }
                None => {
                    el.role.as_str() == kind
                        && matches!(
                            e,
                            Effect::Appeared(_) | Effect::Disappeared(_) | Effect::Changed(_)
                        )
                        && el.frame == t.frame
                        && !is_in_place(el, place)
                }
            }
        })?;
        if let Some(intent) = self.intent.filter(|i| i.is_usable()) {
            if intent.explains(other.label(), &other.context()) {
                return None;
            }
        }
        let row = other
            .element()
            .and_then(|el| el.within.clone())
            .unwrap_or_else(|| other.element().map(describe_element).unwrap_or_default());
        Some(mismatch(
            format!(
                "the target is in {place}, but the effect reaches {row} too, which neither the target nor the intent explains: {}",
                other.line()
            ),
            other.element(),
        ))
    }

    /// A button whose name says a way for a value ("Increase Quantity", "Decrease", "+1"),
    /// whose effect is a value going that way (a spin button's increment and decrement
    /// buttons, the Authoring Practices' spinbutton pattern): its own effect. A number the
    /// intent gives for the new value must be the one shown.
    fn stepped(&self, t: &'a Element, effects: &[Effect<'a>]) -> Option<Finding> {
        if t.role != Role::Button {
            return None;
        }
        let way = states::said(t.label(), Field::Value)?;
        let (c, value) = effects.iter().find_map(|e| match *e {
            Effect::Changed(c) if !same_ref(&c.after, t) => c
                .fields
                .iter()
                .find(|f| {
                    f.field == Field::Value
                        && states::went(f.field, f.before.as_deref(), f.after.as_deref())
                            == Some(way)
                })
                .map(|f| (c, f.after.clone().unwrap_or_default())),
            _ => None,
        })?;
        let found = matched(
            format!(
                "the value went the way the target's name says: {}",
                diff::line_changed(c)
            ),
            Some(t),
        );
        let Some(sentence) = self.action.intent.as_deref() else {
            return Some(self.with_intent(found, effects, t));
        };
        let numbers: Vec<String> = text::tokens(sentence)
            .into_iter()
            .filter(|w| w.chars().all(|ch| ch.is_ascii_digit()))
            .collect();
        let shown = text::tokens(&value);
        if !numbers.is_empty() && !numbers.iter().any(|n| shown.contains(n)) {
            return Some(mismatch(
                format!(
                    "the intent gives the value {}, but it is '{value}': {}",
                    numbers.join(" or "),
                    diff::line_changed(c)
                ),
                Some(t),
            ));
        }
        if states::said(sentence, Field::Value) == Some(!way) {
            return Some(mismatch(
                format!(
                    "the intent says the value goes the other way: {}",
                    diff::line_changed(c)
                ),
                Some(t),
            ));
        }
        Some(matched(
            format!("{}, as the intent says", found.reason),
            Some(t),
        ))
    }

    /// A button of a dialog that closed, where what the dialog's fields held now shows
    /// outside it ("Gemini" typed in the dialog's "Project name", then the heading "Project
    /// Gemini"): the dialog's form was submitted, which is what its button is for.
    fn submitted_dialog(&self, t: &'a Element, effects: &[Effect<'a>]) -> Option<Finding> {
        let closed = closed_dialogs(effects);
        if !closed.iter().any(|d| diff::region_matches(&t.region, d)) {
            return None;
        }
        let in_dialog = |region: &str| closed.iter().any(|d| diff::region_matches(region, d));
        let values: Vec<String> = self
            .before
            .elements
            .iter()
            .filter(|e| in_dialog(&e.region) && !e.sensitive && e.value_hash.is_none())
            .filter(|e| {
                matches!(
                    e.role,
                    Role::Textbox | Role::Searchbox | Role::Combobox | Role::Spinbutton
                )
            })
            .filter_map(|e| e.value.as_deref())
            .map(|v| text::fold(v).trim().to_owned())
            .filter(|v| v.chars().count() >= 2 && v != &text::fold(REDACTED))
            .collect();
        let shown = effects.iter().find(|e| {
            e.is_appearance()
                && !in_dialog(e.region())
                && values
                    .iter()
                    .any(|v| text::fold(e.label()).contains(v.as_str()))
        })?;
        Some(matched(
            format!(
                "what the dialog's fields held shows outside it: {}",
                shown.line()
            ),
            Some(t),
        ))
    }

    /// A control outside the rows whose effect is that exactly the rows whose checkbox was
    /// checked went ("Clear completed", "Delete selected"): a bulk action acts on the checked
    /// rows. Rows with an unchecked box going too, or a checked one staying, is not this.
    fn on_checked_rows(&self, t: &Element, effects: &[Effect<'a>]) -> Option<Finding> {
        if t.within.is_some() || self.action.kind != ActionKind::Click {
            return None;
        }
        let checked_in = |s: &Snapshot, place: &str| {
            s.elements.iter().any(|e| {
                e.within.as_deref() == Some(place)
                    && matches!(e.role, Role::Checkbox | Role::Switch)
                    && e.checked == Some(Tristate::True)
            })
        };
        let is_row = |e: &Element| {
            matches!(
                e.role,
                Role::Listitem | Role::Row | Role::Treeitem | Role::Article
            ) && e.within.is_none()
        };
        let places: Vec<String> = self
            .before
            .elements
            .iter()
            .filter_map(|e| e.within.clone())
            .collect::<FxHashSet<_>>()
            .into_iter()
            .collect();
        let place_of = |row: &Element| places.iter().find(|p| is_in_place(row, p)).cloned();
        let mut gone = 0;
        for e in effects {
            if let Effect::Disappeared(row) = *e {
                if is_row(row) {
                    let place = place_of(row)?;
                    if !checked_in(self.before, &place) {
                        return None;
                    }
                    gone += 1;
                }
            }
        }
        let still_checked = self
            .after
            .elements
            .iter()
            .filter(|e| e.visible && is_row(e))
            .filter_map(place_of)
            .any(|p| checked_in(self.after, &p));
        if gone == 0 || still_checked {
            return None;
        }
        Some(matched(
            format!(
                "the rows whose checkbox was checked went ({gone}), and no checked row is left"
            ),
            Some(t),
        ))
    }

    /// A row that went and came back with the names of its own controls added or taken away
    /// ("Buy milk" → "Buy milk Delete todo" as the pointer comes to rest on it and its
    /// Delete button shows): the row did not change, a control in it was shown or hidden.
    fn is_reveal_rename(&self, e: &Effect<'a>, effects: &[Effect<'a>]) -> bool {
        let (el, went) = match *e {
            Effect::Appeared(el) => (el, false),
            Effect::Disappeared(el) => (el, true),
            _ => return false,
        };
        if el.within.is_some() {
            return false;
        }
        effects.iter().any(|other| {
            let twin = match (*other, went) {
                (Effect::Disappeared(b), false) | (Effect::Appeared(b), true) => b,
                _ => return false,
            };
            if twin.role != el.role || twin.region != el.region || twin.frame != el.frame {
                return false;
            }
            let (a, b) = (
                text::normalize_key(el.label()),
                text::normalize_key(twin.label()),
            );
            let (long, short) = if a.len() > b.len() { (a, b) } else { (b, a) };
            let Some(extra) = long.strip_prefix(&format!("{short} ")) else {
                return false;
            };
            let place = format!("{}[{short}]", el.role.as_str());
            let controls: Vec<String> = [self.before, self.after]
                .iter()
                .flat_map(|s| s.elements.iter())
                .filter(|c| {
                    c.within
                        .as_deref()
                        .is_some_and(|w| text::normalize_key(w) == place)
                        && !c.label().is_empty()
                })
                .map(|c| text::normalize_key(c.label()))
                .collect();
            let mut rest = extra.to_owned();
            for c in &controls {
                rest = rest.replacen(c.as_str(), "", 1);
            }
            rest.trim().is_empty()
        })
    }

    fn decide(&self, target: Option<&'a Element>) -> Finding {
        let kind = self.action.kind;
        if kind == ActionKind::Press && self.action.intent.is_none() {
            if let Some(f) = self.key_effect(target) {
                return f;
            }
        }
        if kind == ActionKind::Press {
            if let Some(f) = self.escaped(target) {
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
                match t {
                    Some(t) => self.click(t),
                    None => self.unexplained(&effects, "there is no target to attribute it to"),
                }
            }
        }
    }

    /// What the key of a press is meant to do, when it did it: Escape closes a popup (a
    /// dialog, listbox, menu or tooltip, or a control that was expanded), Enter submits the
    /// focused form or picks the active option, Tab and Shift+Tab move focus. A failure
    /// message next to it makes it AMBIGUOUS.
    fn key_effect(&self, target: Option<&'a Element>) -> Option<Finding> {
        let key = self.action.key.as_deref()?;
        let base = key.rsplit('+').next().unwrap_or(key);
        let effects = Effect::all(self.diff);
        let found = match base {
            "Escape" | "Esc" => effects
                .iter()
                .find(|e| closes_popup(e))
                .map(|e| format!("{key} closed a popup: {}", e.line())),
            "Enter" => self.enter_effect(&effects, target),
            "Tab" => {
                let f = self.focus_moved()?;
                return Some(Finding {
                    reason: format!("{key}: {}", f.reason),
                    ..f
                });
            }
            _ => None,
        }?;
        if let Some(e) = effects.iter().find(|e| e.is_failure_message()) {
            return Some(ambiguous(format!(
                "{found}, but a failure message appeared: {}",
                e.line()
            )));
        }
        Some(matched(found, target))
    }

    /// Escape that closed a dialog and did nothing else: the dialog was dismissed, held
    /// against the intent as a dismissing button is (`dismissed`).
    fn escaped(&self, target: Option<&'a Element>) -> Option<Finding> {
        let key = self.action.key.as_deref()?;
        if !matches!(key, "Escape" | "Esc") {
            return None;
        }
        let effects = Effect::all(self.diff);
        let closed = closed_dialogs(&effects);
        if closed.is_empty() || !effects.iter().all(|e| is_closing(e, &closed)) {
            return None;
        }
        let found = matched(format!("{key} dismissed {}", closed[0]), target);
        Some(self.dismissed(found, &effects, None))
    }

    /// Enter: an option picked (selected, a combo box's value, its listbox closing), or the
    /// focused form submitted (effects in its region, or the form going away).
    fn enter_effect(&self, effects: &[Effect<'a>], target: Option<&'a Element>) -> Option<String> {
        let picked = effects.iter().find(|e| match *e {
            Effect::Changed(c) => {
                (c.has(Field::Selected) && c.after.selected == Some(true))
                    || (c.after.role == Role::Combobox && c.has(Field::Value))
            }
            _ => false,
        });
        if let Some(e) = picked {
            return Some(format!("Enter picked the active option: {}", e.line()));
        }
        let focused = target.or_else(|| self.before.elements.iter().find(|e| e.focused));
        if let Some(form) = focused.and_then(|f| form_region(&f.region)) {
            if let Some(e) = effects
                .iter()
                .find(|e| diff::region_matches(e.region(), &form))
            {
                return Some(format!("Enter submitted {form}: {}", e.line()));
            }
        }
        // A search submitted from its field: its results carry what was typed
        // ("3 results for shoes"), wherever they are shown.
        let typed = focused
            .filter(|f| !f.sensitive && f.value_hash.is_none())
            .and_then(|f| f.value.as_deref())
            .map(text::fold)
            .filter(|v| v.trim().chars().count() >= 2 && v != REDACTED);
        if let Some(typed) = typed {
            let typed = typed.trim();
            if let Some(e) = effects
                .iter()
                .find(|e| e.is_appearance() && text::fold(e.label()).contains(typed))
            {
                return Some(format!(
                    "Enter submitted what was typed in {}: {}",
                    describe_element(focused.expect("typed comes from it")),
                    e.line()
                ));
            }
        }
        effects
            .iter()
            .find(|e| {
                closes_popup(e)
                    && matches!(
                        e.element().map(|el| el.role),
                        Some(Role::Listbox | Role::Combobox)
                    )
            })
            .map(|e| format!("Enter closed the list, picking its option: {}", e.line()))
    }

    /// A drag that reorders a list leaves the multiset diff empty; the target's position
    /// among the items of its role and region says whether it moved.
    fn reordered(&self, t: &'a Element) -> Option<Finding> {
        if self.own_change(t).is_some() {
            return None;
        }
        let position = |s: &'a Snapshot| -> Option<usize> {
            let items: Vec<&Element> = s
                .elements
                .iter()
                .filter(|e| e.role == t.role && e.region == t.region && e.frame == t.frame)
                .collect();
            items
                .iter()
                .position(|e| same_ref(e, t))
                .or_else(|| {
                    items
                        .iter()
                        .position(|e| Identity::of(e) == Identity::of(t))
                })
                .map(|at| at + 1)
        };
        let (from, to) = (position(self.before)?, position(self.after)?);
        if from == to {
            return None;
        }
        let region = if t.region.is_empty() {
            "document"
        } else {
            &t.region
        };
        let reason = format!(
            "moved {}[{}] from position {from} to {to} in {region}",
            t.role.as_str(),
            t.label()
        );
        let context = Terms::of(&format!("{} {region}", role_words(t.role)));
        // An intent that names the item and says which way it goes ("Olwen moves up one
        // place"): the direction must be the move's.
        let names_item = |i: &Intent| {
            let label = Terms::of(t.label());
            !label.is_empty() && label.iter().all(|term| i.terms().matches(term))
        };
        let way = self.action.intent.as_deref().and_then(claims::direction);
        Some(match self.intent {
            None => matched(reason, Some(t)),
            Some(_) if way.is_some_and(|up| up != (to < from)) => mismatch(
                format!("{reason}, the other way from what the intent says"),
                Some(t),
            ),
            Some(i) if i.score(&Terms::of(t.label()), &context) > 0.0 || names_item(i) => {
                matched(format!("{reason}, as the intent says"), Some(t))
            }
            Some(_) => ambiguous(format!("{reason}, but the intent does not explain it")),
        })
    }

    /// A key press whose only effect is moving focus (Tab, arrow keys in a group): focus is
    /// not part of the diff, so it is read from the two snapshots directly.
    fn focus_moved(&self) -> Option<Finding> {
        let focused = |s: &'a Snapshot| s.elements.iter().find(|e| e.focused);
        let (before, after) = (focused(self.before), focused(self.after));
        let moved = match (before, after) {
            (Some(b), Some(a)) => !same_ref(a, b) || Identity::of(a) != Identity::of(b),
            (None, Some(_)) | (Some(_), None) => true,
            (None, None) => false,
        };
        if !moved {
            return None;
        }
        Some(match after {
            Some(a) => matched(format!("focus moved to {}", describe_element(a)), Some(a)),
            None => matched("focus left the observed elements".to_owned(), None),
        })
    }

    /// A click on a field that takes text, which holds the focus afterwards: its effect is
    /// the focus it took (focus is not part of the diff, so it is read from `after`).
    fn took_focus(&self, t: &Element) -> bool {
        t.role.has_value() && self.current(t).is_some_and(|e| e.focused)
    }

    /// Nothing (relevant) changed: proof of failure on a settled page, nothing on a busy one.
    fn no_effect(&self, what: &str) -> Finding {
        if self.background_only {
            return ambiguous(format!(
                "no effect yet: {what} outside the slots it was already changing by itself, where the action's effect may also land"
            ));
        }
        if self.stable {
            mismatch(format!("no effect: {what}"), None)
        } else {
            ambiguous(format!(
                "no effect yet: {what}, but the page was still changing, so it may be late"
            ))
        }
    }

    fn target_change(&self, t: &Element) -> Option<&'a Changed> {
        let changed = &self.diff.changed;
        changed
            .iter()
            .find(|c| same_ref(&c.before, t) || same_ref(&c.after, t))
            .or_else(|| {
                changed
                    .iter()
                    .find(|c| Identity::of(&c.before) == Identity::of(t))
            })
    }

    fn target_move(&self, t: &Element) -> Option<&'a Moved> {
        let moved = &self.diff.moved;
        moved
            .iter()
            .find(|m| same_ref(&m.before, t) || same_ref(&m.after, t))
            .or_else(|| {
                moved
                    .iter()
                    .find(|m| Identity::of(&m.before) == Identity::of(t))
            })
    }

    /// The target as it is in `after`: same ref, else same identity.
    fn current(&self, t: &Element) -> Option<&'a Element> {
        let elements = &self.after.elements;
        elements
            .iter()
            .find(|e| same_ref(e, t))
            .or_else(|| elements.iter().find(|e| Identity::of(e) == Identity::of(t)))
    }

    /// The target's own state changed, or it moved: the line saying so.
    fn own_change(&self, t: &Element) -> Option<String> {
        if let Some(c) = self
            .target_change(t)
            .filter(|c| Effect::Changed(c).is_own_state())
        {
            return Some(diff::line_changed(c));
        }
        self.target_move(t).map(diff::line_moved)
    }

    /// Attributes `effects` by the names they carry (see the module docs), and collects the
    /// effects on a variant of the target's name ("Shirt L" for "Remove Shirt M"), which are
    /// nobody's by name.
    fn named<'s>(
        &self,
        candidates: &Candidates<'s>,
        effects: &[Effect<'a>],
    ) -> (Named<'a, 's>, Vec<Effect<'a>>) {
        let target_element = candidates.members[0];
        let title = title_terms(&target_element.region);
        let target_stems = claims::stems(target_element.label());
        let target_terms = Terms::of(target_element.label());
        let mut variants: Vec<Effect<'a>> = Vec::new();
        let mut target: Option<Effect<'a>> = None;
        let mut neighbours: Vec<(usize, usize, Effect<'a>)> = Vec::new();
        let mut credit = |m: usize, effect: Effect<'a>| {
            if m == 0 {
                target.get_or_insert(effect);
            } else if let Some(slot) = neighbours.iter_mut().find(|(n, _, _)| *n == m) {
                slot.1 += 1;
            } else {
                neighbours.push((m, 1, effect));
            }
        };
        // A message line that now names the target replaced what it said before ("Added
        // Shirt M" → "Added Hat S"): the old message is no one's evidence.
        let replaced: FxHashSet<(&str, &str)> = effects
            .iter()
            .filter_map(|e| match *e {
                Effect::TextAppeared(t)
                    if candidates.carried_by(&Terms::of(&t.text)) == Some(0) =>
                {
                    Some((t.frame.as_str(), t.region.as_str()))
                }
                _ => None,
            })
            .collect();
        // Likewise an element renamed to name the target (a select's button "Medium Size"
        // → "Large Size"): what it said before is no one's evidence.
        let renamed: FxHashSet<(&str, &str, Role)> = effects
            .iter()
            .filter_map(|e| match *e {
                Effect::Appeared(el)
                    if candidates.carried_by(&Terms::of(el.label())) == Some(0) =>
                {
                    Some((el.frame.as_str(), el.region.as_str(), el.role))
                }
                _ => None,
            })
            .collect();
        // A dialog closing is evidence that it closed, not of what its title names.
        let closed = closed_dialogs(effects);
        for &effect in effects {
            if let Effect::TextDisappeared(t) = effect {
                if replaced.contains(&(t.frame.as_str(), t.region.as_str())) {
                    continue;
                }
            }
            if let Effect::Disappeared(el) = effect {
                if renamed.contains(&(el.frame.as_str(), el.region.as_str(), el.role)) {
                    continue;
                }
            }
            if is_closing(&effect, &closed) {
                continue;
            }
            if is_deselected_sibling(&effect, Some(target_element), effects) {
                continue;
            }
            // A field that took the name of the target, or of a neighbour (the option
            // beside it): that one was picked.
            if let Some(m) = candidates
                .members
                .iter()
                .position(|c| takes_name(&effect, c))
            {
                credit(m, effect);
                continue;
            }
            let member = effect
                .element()
                .and_then(|e| candidates.identities.get(&Identity::of(e)).copied());
            match member {
                Some(m) if effect.is_own_state() => credit(m, effect),
                Some(_) => {}
                None => {
                    let label = Terms::of(effect.label());
                    let variant =
                        || claims::is_variant(&target_stems, &effect.stems(), &target_terms);
                    match candidates.carried_by(&label) {
                        // A word of the target's container (a dialog's title) names no
                        // neighbour: the evidence must name it more specifically.
                        Some(m)
                            if m > 0
                                && !title.is_empty()
                                && candidates.carried_by(&label.without(&title)) != Some(m) => {}
                        Some(0) | None if variant() => variants.push(effect),
                        Some(m) => credit(m, effect),
                        None => {}
                    }
                }
            }
        }
        // The neighbour with the most evidence; the first one seen among equals.
        let top = neighbours
            .iter()
            .enumerate()
            .max_by_key(|&(i, &(_, count, _))| (count, std::cmp::Reverse(i)));
        let named = match (target, top) {
            (None, None) => Named::Nobody,
            (Some(t), None) => Named::Target(t),
            (None, Some((_, &(m, _, e)))) => Named::Neighbour(candidates.members[m], e),
            (Some(t), Some((_, &(m, _, e)))) => Named::Both {
                target: t,
                neighbour: candidates.members[m],
                effect: e,
            },
        };
        (named, variants)
    }

    /// The intent's verdict on `effects`: MATCH when every claim holds, MISMATCH when the
    /// diff contradicts one, AMBIGUOUS when one is open; `None` when no effect carries the
    /// object (or there is no usable intent).
    fn by_intent(&self, effects: &[Effect<'a>], target: Option<&'a Element>) -> Option<Finding> {
        match self.check_claims(effects, target) {
            Check::Holds(e) => Some(matched(
                format!("the intent explains the effect: {}", e.line()),
                target,
            )),
            Check::Contradicted(f) => Some(f),
            Check::Open(why) => Some(ambiguous(why)),
            Check::NoObject => None,
        }
    }

    /// Does `before` or `after` show `phrase` (stems in order) in a label or text? Only a
    /// phrase the page shows names a thing that can have variants.
    fn page_shows(&self, phrase: &[String]) -> bool {
        [self.before, self.after].iter().any(|s| {
            s.elements
                .iter()
                .any(|e| claims::holds(&claims::stems(e.label()), phrase))
                || s.texts
                    .iter()
                    .any(|t| claims::holds(&claims::stems(&t.text), phrase))
        })
    }

    /// A clause says a thing stays ("the order is kept"), but an effect removes it: a
    /// message carrying it with a removal word appeared ("Order 1042 deleted"), or an
    /// element carrying it went (not a popup closing, nor anything inside one).
    fn kept_removed(&self, effects: &[Effect<'a>], target: Option<&'a Element>) -> Option<Finding> {
        let in_popup = |region: &str| {
            region
                .split('/')
                .any(|s| s.starts_with("dialog") || s.starts_with("alertdialog"))
        };
        self.claims.kept.iter().find_map(|object| {
            let carries = |label: &str| {
                let label = Terms::of(label);
                object.iter().all(|t| label.matches(t))
            };
            let removes = |e: &Effect| match *e {
                Effect::TextAppeared(_) | Effect::Appeared(_) | Effect::Changed(_)
                    if e.is_appearance() || matches!(e, Effect::Changed(_)) =>
                {
                    claims::is_removal(e.label()) && carries(e.label())
                }
                Effect::Disappeared(el) => {
                    !is_popup(el.role) && !in_popup(&el.region) && carries(el.label())
                }
                _ => false,
            };
            effects.iter().find(|e| removes(e)).map(|e| {
                mismatch(
                    format!(
                        "the intent says the {} stays, but the effect removes it: {}",
                        object.iter().collect::<Vec<_>>().join(" "),
                        e.line()
                    ),
                    target,
                )
            })
        })
    }

    /// An intent that says its object is removed ("the account is deleted"), on a settled
    /// page where no effect supports it and the object is still shown, unchanged, outside
    /// any dialog the action closed: the removal did not happen.
    fn still_shown(&self, effects: &[Effect<'a>]) -> Option<Finding> {
        let sentence = self.action.intent.as_deref()?;
        let object = &self.claims.object;
        if !self.stable || object.is_empty() || !claims::is_removal(sentence) {
            return None;
        }
        let closed = closed_dialogs(effects);
        let outside = |region: &str| !closed.iter().any(|d| diff::region_matches(region, d));
        let carries = |label: &str| {
            let label = Terms::of(label);
            object.iter().all(|t| label.matches(t))
        };
        let before_texts: FxHashSet<(&str, &str)> = self
            .before
            .texts
            .iter()
            .map(|t| (t.text.as_str(), t.region.as_str()))
            .collect();
        let kept = |e: &&Element| {
            e.visible
                && outside(&e.region)
                && carries(&format!("{} {}", e.label(), e.region))
                && self
                    .before
                    .elements
                    .iter()
                    .any(|b| b.reference == e.reference)
        };
        // The thing itself before a control that names it ("Shirt M" before "Add Shirt M").
        let elements = &self.after.elements;
        let element = elements
            .iter()
            .filter(kept)
            .find(|e| !matches!(e.role, Role::Button | Role::Link))
            .or_else(|| elements.iter().find(kept));
        let shown = element.map(describe_element).or_else(|| {
            self.after
                .texts
                .iter()
                .find(|t| {
                    outside(&t.region)
                        && carries(&format!("{} {}", t.text, t.region))
                        && before_texts.contains(&(t.text.as_str(), t.region.as_str()))
                })
                .map(super::identity::describe_text)
        })?;
        Some(mismatch(
            format!(
                "the intent says the {} is removed, but no effect supports it and it is still shown: {shown}",
                object.iter().collect::<Vec<_>>().join(" ")
            ),
            None,
        ))
    }

    /// Holds the intent's claims (`claims` module) against `effects`.
    fn check_claims(&self, effects: &[Effect<'a>], target: Option<&'a Element>) -> Check<'a> {
        let Some(intent) = self.intent.filter(|i| i.is_usable()) else {
            return Check::NoObject;
        };
        let claims = self.claims;
        if claims.positive {
            if let Some(e) = effects.iter().find(|e| e.is_failure_message()) {
                return Check::Contradicted(mismatch(
                    format!(
                        "the intent expects success, but a failure message appeared: {}",
                        e.line()
                    ),
                    target,
                ));
            }
        }
        if let Some(f) = self.kept_removed(effects, target) {
            return Check::Contradicted(f);
        }
        // The target's form names what it acts on: its title and its fields' names ("Card
        // number" in form[Payment] for "the card is paid").
        let own = target
            .and_then(|t| form_region(&t.region))
            .map(|form| {
                let mut words = form.clone();
                for e in self
                    .before
                    .elements
                    .iter()
                    .filter(|e| e.region.starts_with(&form) && e.role != Role::Button)
                {
                    words.push(' ');
                    words.push_str(e.label());
                }
                Terms::of(&words)
            })
            .unwrap_or_default();
        // A target whose name holds no known action word ("Archive", "Publish") names its
        // action with a word of its own; when the intent says it too ("the order is
        // archived"), an effect that supports the intent must show it ("Order paid" does
        // not). A name with an action word ("Add task") says the rest is the thing.
        let target_terms = target.map(|t| Terms::of(t.label())).unwrap_or_default();
        let named_action = target_terms.iter().any(claims::is_action);
        let shared: Vec<&str> = if named_action {
            Vec::new()
        } else {
            intent
                .terms()
                .iter()
                .filter(|t| target_terms.matches(t))
                .collect()
        };
        let mut support: Vec<(f32, Effect<'a>)> = Vec::new();
        let mut variants: Vec<Effect<'a>> = Vec::new();
        // A dialog closing says only that it closed (see `is_closing`).
        let closed = closed_dialogs(effects);
        let evidence = |e: &Effect| -> (Terms, Terms) {
            if is_closing(e, &closed) {
                let role = e.element().map_or(Role::Dialog, |el| el.role);
                let role = if matches!(role, Role::Dialog | Role::Alertdialog) {
                    role
                } else {
                    Role::Dialog
                };
                (Terms::of(role_words(role)), Terms::of(CLOSED_WORDS))
            } else {
                // An element without a label is named by its place ("Walk dog" for the
                // checkbox of that row).
                let place = e
                    .element()
                    .filter(|el| el.label().is_empty())
                    .and_then(|el| el.within.as_deref())
                    .and_then(|w| w.strip_suffix(']')?.split_once('[').map(|(_, key)| key));
                (
                    Terms::of(place.unwrap_or(e.label())),
                    Terms::of(&e.context()),
                )
            }
        };
        // Whether the page shows each phrase, computed once and only when needed.
        let mut shown: Vec<Option<bool>> = vec![None; claims.phrases.len()];
        for &e in effects {
            let stems = e.stems();
            let mut is_variant = false;
            for (i, p) in claims.phrases.iter().enumerate() {
                if claims::is_variant(p, &stems, intent.terms())
                    && *shown[i].get_or_insert_with(|| self.page_shows(p))
                {
                    is_variant = true;
                    break;
                }
            }
            if is_deselected_sibling(&e, target, effects) {
                continue;
            }
            if is_variant && !is_closing(&e, &closed) {
                variants.push(e);
                continue;
            }
            let (label, context) = evidence(&e);
            let mut score = intent.score(&label, &context);
            // A closing is weighed against each clause too: "the dialog closes and the order
            // is kept" says two things, and the closing shows the first.
            if is_closing(&e, &closed) {
                for (clause, _) in &claims.clauses {
                    score = score.max(clause.score(&label, &context));
                }
            }
            // The whole object, or an explained effect that names part of it.
            let object = &claims.object;
            let carries = !object.is_empty() && object.iter().all(|t| label.matches(t));
            // A closing names its dialog by its role only, which the object never holds.
            // The region an effect is seen in names what it is about ("Status: deleted" in
            // region[Account]).
            let region = Terms::of(e.region());
            let names_part = object.is_empty()
                || is_closing(&e, &closed)
                || object
                    .iter()
                    .any(|t| label.matches(t) || own.matches(t) || region.matches(t));
            if carries || (score > 0.0 && names_part) {
                support.push((score, e));
            }
        }
        let Some(&(_, best)) = support.iter().reduce(|a, b| if b.0 > a.0 { b } else { a }) else {
            return match variants.first() {
                Some(v) => Check::Contradicted(mismatch(
                    format!(
                        "the effect is on a variant of what the intent names, not on it: {}",
                        v.line()
                    ),
                    v.element().or(target),
                )),
                None => match self.still_shown(effects) {
                    Some(f) => Check::Contradicted(f),
                    None => Check::NoObject,
                },
            };
        };
        // The target itself going (its menu closing) shows nothing of what it did.
        let is_target = |e: &Effect| match (e.element(), target) {
            (Some(el), Some(t)) => same_ref(el, t) || Identity::of(el) == Identity::of(t),
            _ => false,
        };
        let says_shared = |e: &Effect| {
            let (label, context) = evidence(e);
            !is_target(e)
                && shared
                    .iter()
                    .all(|t| label.matches(t) || context.matches(t))
        };
        // Evidence from the target itself says them too: its own state changing (a switch
        // "Dark mode" turned on), its own move ("Write invoice" dropped in Done), or what was
        // typed into it carried by what appeared ("2 results for mug" after a search).
        let typed = target
            .filter(|t| !t.sensitive && t.value_hash.is_none())
            .and_then(|t| t.value.as_deref())
            .map(text::fold)
            .filter(|v| v.trim().chars().count() >= 2 && v != REDACTED);
        let from_target = |e: &Effect| {
            (is_target(e) && e.is_own_state())
                || target.is_some_and(|t| takes_name(e, t))
                || typed
                    .as_deref()
                    .is_some_and(|v| e.is_appearance() && text::fold(e.label()).contains(v.trim()))
        };
        if !shared.is_empty()
            && !support.iter().any(|(_, e)| says_shared(e))
            && !effects.iter().any(from_target)
        {
            return Check::Open(format!(
                "the intent and the target's name both say '{}', but no effect does ({})",
                shared.join(" "),
                best.line()
            ));
        }
        // A name given word for word must be shown so ("Call supplier" is not "renamed Call
        // the supplier").
        if let Some(literal) = &claims.literal {
            // What went away (the editing row holding the typed title) shows nothing.
            let shows = |e: &Effect| {
                !matches!(e, Effect::Disappeared(_) | Effect::TextDisappeared(_))
                    && claims::shows_literal(e.label(), literal)
            };
            if !effects.iter().any(shows) {
                return Check::Open(format!(
                    "the intent names '{}' word for word, but no effect shows it ({})",
                    literal.join(" "),
                    best.line()
                ));
            }
        }
        // Each clause of "… and …" needs an effect of its own.
        // (A clause may name the effect by its role: "the dialog closes".)
        let explains = |clause: &Intent, object: &Terms, e: &Effect| {
            let (label, context) = evidence(e);
            let seen = |t: &str| label.matches(t) || context.matches(t);
            let carries = !object.is_empty() && object.iter().all(seen);
            let names_part = object.is_empty() || object.iter().any(|t| label.matches(t));
            carries || (names_part && clause.score(&label, &context) > 0.0)
        };
        // A clause that says its object stays ("and the account is kept") is shown by nothing
        // happening to it: `kept_removed` holds it against every effect.
        let says_kept = |clause: &Intent| {
            clause.terms().iter().any(|t| {
                claims::KEEP_WORDS
                    .iter()
                    .any(|k| intent::stem(k).as_ref() == t)
            })
        };
        let unshown = claims.clauses.iter().position(|(clause, object)| {
            clause.is_usable()
                && !says_kept(clause)
                && !support.iter().any(|(_, e)| explains(clause, object, e))
        });
        if let Some(i) = unshown {
            return Check::Open(format!(
                "clause {} of the intent is not shown by any effect ({})",
                i + 1,
                best.line()
            ));
        }
        let same_kind = |a: &Effect, b: &Effect| {
            let (ka, kb) = (a.kind_key(), b.kind_key());
            (ka.0, ka.1) == (kb.0, kb.1)
        };
        if let Some(v) = variants
            .iter()
            .find(|v| v.element().is_some() && support.iter().any(|(_, s)| same_kind(s, v)))
        {
            return Check::Contradicted(mismatch(
                format!(
                    "the effect is on what the intent names and also on a variant of it: {}",
                    v.line()
                ),
                v.element(),
            ));
        }
        if !claims.containers.is_empty() {
            let named_in =
                |e: &Effect| claims::containers_in(&format!("{} {}", e.region(), e.label()));
            let wanted = |c: &&str| claims.containers.contains(c);
            let want = claims.containers.join(" or ");
            if !support.iter().any(|(_, e)| named_in(e).iter().any(wanted)) {
                let elsewhere = support.iter().find_map(|(_, e)| {
                    named_in(e).into_iter().find(|c| !wanted(c)).map(|c| (e, c))
                });
                return match elsewhere {
                    Some((e, other)) => Check::Contradicted(mismatch(
                        format!(
                            "the intent names the {want}, but the effect is in the {other}: {}",
                            e.line()
                        ),
                        target,
                    )),
                    None => Check::Open(format!(
                        "the intent names the {want}, but no effect it explains is in one ({})",
                        best.line()
                    )),
                };
            }
        }
        if let Some(count) = &claims.count {
            // The effects that name what is counted ("shirt"), else all supporting ones.
            let naming: Vec<&Effect> = support
                .iter()
                .map(|(_, e)| e)
                .filter(|e| Terms::of(e.label()).matches(&count.of))
                .collect();
            let counted: Vec<&Effect> = if naming.is_empty() {
                support.iter().map(|(_, e)| e).collect()
            } else {
                naming
            };
            let mut groups: FxHashMap<_, u32> = FxHashMap::default();
            for e in &counted {
                *groups.entry(e.kind_key()).or_default() += 1;
            }
            let most = groups.values().copied().max().unwrap_or(0);
            // A field named for what is counted that now holds the number ("There are 2
            // passengers": the spin button Passengers at 2) shows the count.
            let holds_count = |e: &Effect| match *e {
                Effect::Changed(c) => {
                    Terms::of(c.after.label()).matches(&count.of)
                        && c.fields.iter().any(|f| {
                            f.field == Field::Value
                                && f.after.as_deref().map(str::trim)
                                    == Some(count.n.to_string().as_str())
                        })
                }
                _ => false,
            };
            let shown = support
                .iter()
                .any(|(_, e)| claims::shows_count(e.label(), count) || holds_count(e));
            if most != count.n && !shown {
                let e = counted
                    .iter()
                    .find(|e| groups[&e.kind_key()] == most)
                    .copied()
                    .unwrap_or(&best);
                return Check::Contradicted(mismatch(
                    format!(
                        "the intent claims {} ('{}'), but {most} like effects are seen: {}",
                        count.n,
                        count.word,
                        e.line()
                    ),
                    target,
                ));
            }
        }
        Check::Holds(best)
    }

    /// A MATCH found by the target's own state or name also needs the intent, when one is
    /// declared: both must hold.
    fn with_intent(&self, found: Finding, effects: &[Effect<'a>], t: &'a Element) -> Finding {
        let Some(intent) = self.intent else {
            // An action without a declared intent is meant to succeed: a failure message
            // that appeared with the effect says it did not.
            if let Some(e) = effects.iter().find(|e| e.is_failure_message()) {
                return mismatch(
                    format!(
                        "{}, but the page reports a failure: {} (declare an intent if that is what was meant)",
                        found.reason,
                        e.line()
                    ),
                    Some(t),
                );
            }
            return found;
        };
        if !intent.is_usable() {
            return ambiguous(format!(
                "{}, but the intent is empty or negated, so it cannot be checked",
                found.reason
            ));
        }
        if let Some(f) = self.against_own_state(t) {
            return f;
        }
        match self.check_claims(effects, Some(t)) {
            Check::Holds(_) => matched(format!("{}, and the intent holds", found.reason), Some(t)),
            Check::Contradicted(f) => f,
            Check::Open(why) => ambiguous(format!("{}; yet {why}", found.reason)),
            Check::NoObject => self.as_read(found, effects, t),
        }
    }

    /// An intent that names the target, and nothing else the page shows, of a MATCH found by
    /// the target's own evidence (its own state, its name carried by the effect): the
    /// sentence is about the target, whose evidence stands ("Show the sent mail" for the tab
    /// Sent that was selected). Its other words name nothing on the page, so they count
    /// neither for nor against; a word the page shows elsewhere is a claim about that, and
    /// it is left unexplained. Of an intent in another language than the page, only the
    /// words read count (`reading`), and read words that name no thing (its verb) are about
    /// the target too.
    fn names_the_target(&self, found: &Finding, t: &Element) -> Option<Finding> {
        if found.verdict != VerdictKind::Match {
            return None;
        }
        let (sentence, note) = match self.reading {
            Some(r) => (r.read.as_str(), r.note()),
            None => (self.action.intent.as_deref()?, String::new()),
        };
        let intent = Intent::parse(sentence);
        if !intent.is_usable() && !intent.terms().is_empty() {
            return None;
        }
        let name = Terms::of(naming(t));
        let mut own = format!("{} {} {}", naming(t), t.region, role_words(t.role));
        if let Some(c) = self.target_change(t) {
            for f in &c.fields {
                own.push(' ');
                own.push_str(&states::vocabulary(f.field));
            }
        }
        let own = Terms::of(&own);
        let things: Vec<&str> = intent
            .terms()
            .iter()
            .filter(|w| !intent::is_action(w) && !w.chars().all(|c| c.is_ascii_digit()))
            .collect();
        let refers = intent.terms().iter().any(|w| name.matches(w));
        let about = refers || (self.reading.is_some() && things.iter().all(|w| own.matches(w)));
        if !about {
            return None;
        }
        let elsewhere = |w: &str| {
            [self.before, self.after].iter().any(|s| {
                s.elements.iter().any(|e| {
                    !same_ref(e, t)
                        && Identity::of(e) != Identity::of(t)
                        && Terms::of(e.label()).matches(w)
                }) || s.texts.iter().any(|x| Terms::of(&x.text).matches(w))
            })
        };
        if things.iter().any(|w| !own.matches(w) && elsewhere(w)) {
            return None;
        }
        Some(matched(
            format!("{}, and the intent names the target{note}", found.reason),
            Some(t),
        ))
    }

    /// A dialog dismissed and nothing else done (its dismissing button, Escape), held against
    /// the intent: one that says nothing is done ("the invoice is not deleted"), that its
    /// object stays ("the booking is kept") or that the dialog closes holds; one that says a
    /// thing is removed is contradicted, since nothing but the dialog went; any other claim
    /// is judged as claims are.
    fn dismissed(&self, found: Finding, effects: &[Effect<'a>], t: Option<&'a Element>) -> Finding {
        let Some(sentence) = self.action.intent.as_deref() else {
            return found;
        };
        let intent = Intent::parse(sentence);
        let tokens = text::tokens(sentence);
        let says = |words: &str| tokens.iter().any(|w| words.split(' ').any(|c| c == w));
        let keeps = tokens.iter().any(|w| {
            claims::KEEP_WORDS.contains(&w.as_str())
                || claims::KEEP_WORDS
                    .iter()
                    .any(|k| intent::stem(k) == intent::stem(w))
        });
        let negated = !intent.is_usable() && !intent.terms().is_empty();
        let closes = says(CLOSED_WORDS) || states::said(sentence, Field::Expanded) == Some(false);
        // "the dialog is closed", "the confirmation is dismissed": the object is the dialog.
        let mut dialog = DIALOG_WORDS.to_owned();
        for d in closed_dialogs(effects) {
            dialog.push(' ');
            dialog.push_str(&d);
        }
        // The control that opened it names it too ("the share popover" of "Share").
        for e in effects {
            if let Effect::Changed(c) = *e {
                if c.has(Field::Expanded) && c.after.expanded == Some(false) {
                    dialog.push(' ');
                    dialog.push_str(c.after.label());
                }
            }
        }
        let dialog = Terms::of(&dialog);
        let about_dialog = claims::Claims::parse(sentence)
            .object
            .iter()
            .all(|w| dialog.matches(w) || intent::is_action(w));
        // "Cancel the deletion", "Se cancela el borrado": the removal is what is called off.
        let keeps = keeps || claims::calls_off_removal(sentence);
        if claims::is_removal(sentence) && !negated && !keeps && !about_dialog {
            return mismatch(
                format!(
                    "{}, but the intent says a thing is removed, and nothing but the dialog went",
                    found.reason
                ),
                t,
            );
        }
        if negated || keeps || closes {
            return matched(
                format!(
                    "{}, and nothing else was done, as the intent says",
                    found.reason
                ),
                t,
            );
        }
        match t {
            Some(t) => self.with_intent(found, effects, t),
            None => match self.check_claims(effects, None) {
                Check::Holds(_) => matched(format!("{}, and the intent holds", found.reason), None),
                Check::Contradicted(f) => f,
                Check::Open(why) => ambiguous(format!("{}; yet {why}", found.reason)),
                Check::NoObject => ambiguous(format!(
                    "{}, but the intent explains none of the effects",
                    found.reason
                )),
            },
        }
    }

    /// The intent says the target's own state went the other way than it did ("Autosave is
    /// turned on" when its switch went off, "the menu closes" when it opened).
    fn against_own_state(&self, t: &Element) -> Option<Finding> {
        let sentence = self.action.intent.as_deref()?;
        let c = self.target_change(t)?;
        c.fields
            .iter()
            .filter(|f| is_own_field(f.field))
            .find_map(|f| {
                let went = states::went(f.field, f.before.as_deref(), f.after.as_deref())?;
                (states::said(sentence, f.field)? != went).then(|| {
                    mismatch(
                        format!(
                            "the intent says the target's {} went the other way: {}",
                            f.field.as_str(),
                            diff::line_changed(c)
                        ),
                        Some(t),
                    )
                })
            })
    }

    /// An intent none of whose words reach any effect, written in another language than the
    /// page: what was read of it decides, and the words not read count neither for nor
    /// against ("Der Warenkorb enthält jetzt ein Hemd in Größe M" reads as a cart, one, M).
    fn as_read(&self, found: Finding, effects: &[Effect<'a>], t: &'a Element) -> Finding {
        let refused = |found: &Finding| {
            ambiguous(format!(
                "{}, but the intent explains none of the effects",
                found.reason
            ))
        };
        if let Some(f) = self.names_the_target(&found, t) {
            return f;
        }
        let Some(reading) = self.reading else {
            return refused(&found);
        };
        let intent = Intent::parse(&reading.read);
        let claims = Claims::parse(&reading.read);
        let read = Judge {
            intent: Some(&intent),
            claims: &claims,
            reading: None,
            ..*self
        };
        let note = reading.note();
        if !intent.is_usable() {
            return matched(format!("{}{note}", found.reason), Some(t));
        }
        match read.check_claims(effects, Some(t)) {
            Check::Holds(_) => matched(
                format!("{}, and the intent holds as read{note}", found.reason),
                Some(t),
            ),
            Check::Contradicted(f) => f,
            Check::Open(why) => ambiguous(format!("{}; yet {why}{note}", found.reason)),
            Check::NoObject => refused(&found),
        }
    }

    fn unexplained(&self, effects: &[Effect<'a>], why: &str) -> Finding {
        if self.intent.is_none() {
            if let Some(e) = effects.iter().find(|e| e.is_failure_message()) {
                return mismatch(
                    format!(
                        "the page reports a failure: {} (declare an intent if that is what was meant)",
                        e.line()
                    ),
                    None,
                );
            }
        }
        let first = effects.first().map(Effect::line).unwrap_or_default();
        let intent = match self.intent {
            None => "; declare an intent to decide",
            Some(i) if i.is_usable() => ", nor does the intent",
            Some(_) => "; the intent is empty or negated, so it cannot be checked",
        };
        ambiguous(format!("{why}{intent} ({first})"))
    }

    /// Attribution by own state, then names, then intent.
    fn attribute(&self, t: &'a Element, effects: &[Effect<'a>]) -> Finding {
        if let Some(line) = self.own_change(t) {
            let found = matched(format!("the target's own state changed: {line}"), Some(t));
            return self.with_intent(found, effects, t);
        }
        // A dialog's dismissing button ("Close", "×", "Cancel", "Keep it") whose dialog
        // closed, and nothing else changed: the dialog was dismissed, as the button is for.
        if claims::is_dismissal(t.label()) {
            let closed = closed_dialogs(effects);
            let own = closed.iter().any(|d| diff::region_matches(&t.region, d));
            if own && effects.iter().all(|e| is_closing(e, &closed)) {
                let line = effects.first().map(Effect::line).unwrap_or_default();
                let found = matched(
                    format!("the dialog's own dismissing button closed it: {line}"),
                    Some(t),
                );
                return self.dismissed(found, effects, Some(t));
            }
        }
        if let Some(f) = self.submitted_dialog(t, effects) {
            return self.with_intent(f, effects, t);
        }
        // A field that took the name of the target's sibling (the option beside it, gone
        // with its popup): the sibling was picked.
        if !effects.iter().any(|e| takes_name(e, t)) {
            let sibling = effects.iter().find_map(|e| {
                self.before
                    .elements
                    .iter()
                    .filter(|s| s.role == t.role && s.region == t.region && !same_ref(s, t))
                    .find(|s| takes_name(e, s))
                    .map(|s| (s, e))
            });
            if let Some((s, e)) = sibling {
                return mismatch(
                    format!(
                        "the field took the name of {}, not the target's: {}",
                        describe_element(s),
                        e.line()
                    ),
                    Some(s),
                );
            }
        }
        if let Some(f) = self.stepped(t, effects) {
            return f;
        }
        if let Some(f) = self.on_checked_rows(t, effects) {
            return self.with_intent(f, effects, t);
        }
        // A control of a row acting on its own row ("Delete" in the row "Walk dog", which
        // goes): the row is the target's place, so its effect is the target's.
        if let Some(place) = t.within.as_deref() {
            // A control shown or hidden in the row (on hover) is no effect of the row's own.
            let of_row = |e: &&Effect| {
                e.element().is_some_and(|el| is_in_place(el, place))
                    && (!matches!(e, Effect::Changed(_)) || e.is_own_state())
            };
            if let Some(e) = effects.iter().find(of_row) {
                let found = matched(
                    format!(
                        "the effect is on the target's own row {place}: {}",
                        e.line()
                    ),
                    Some(t),
                );
                return self.with_intent(found, effects, t);
            }
        }
        let candidates = Candidates::new(t, self.before, self.after);
        let (named, variants) = self.named(&candidates, effects);
        let like = |a: &Effect, b: &Effect| {
            let (ka, kb) = (a.kind_key(), b.kind_key());
            (ka.0, ka.1, ka.2) == (kb.0, kb.1, kb.2)
        };
        match named {
            // A variant's row gone (or added) along with the target's own: not what was meant.
            Named::Target(e) if variants.iter().any(|v| like(v, &e)) => {
                let v = variants.iter().find(|v| like(v, &e)).copied().unwrap_or(e);
                mismatch(
                    format!(
                        "the effect is on the target's '{}' and also on a variant of it: {}",
                        t.label(),
                        v.line()
                    ),
                    v.element(),
                )
            }
            Named::Target(e) => self.with_intent(
                matched(
                    format!("the effect carries the target's name: {}", e.line()),
                    Some(t),
                ),
                effects,
                t,
            ),
            Named::Neighbour(n, e) => mismatch(
                format!(
                    "the effect belongs to {}, not to the target: {}",
                    describe_element(n),
                    e.line()
                ),
                Some(n),
            ),
            Named::Both {
                target,
                neighbour,
                effect,
            } => ambiguous(format!(
                "the effect carries the target's name ({}) and also {}'s ({})",
                target.line(),
                describe_element(neighbour),
                effect.line()
            )),
            Named::Nobody => match variants.first() {
                Some(v) => mismatch(
                    format!(
                        "the effect is on a variant of the target's name '{}', not on it: {}",
                        t.label(),
                        v.line()
                    ),
                    v.element(),
                ),
                None => self.by_intent(effects, Some(t)).unwrap_or_else(|| {
                    self.unexplained(effects, "no element's name explains the effect")
                }),
            },
        }
    }

    fn click(&self, t: &'a Element) -> Finding {
        self.attribute(t, &Effect::all(self.diff))
    }

    /// Hover: something must appear that the target's name or the intent explains.
    fn hover(&self, t: &'a Element) -> Finding {
        if let Some(line) = self.own_change(t) {
            return matched(format!("the target's own state changed: {line}"), Some(t));
        }
        let shown: Vec<Effect> = Effect::all(self.diff)
            .into_iter()
            .filter(Effect::is_appearance)
            .collect();
        if shown.is_empty() {
            let first = self.diff.lines.first().cloned().unwrap_or_default();
            return ambiguous(format!(
                "nothing appeared on hover, though the page changed ({first})"
            ));
        }
        self.attribute(t, &shown)
    }

    fn watch(&self) -> Finding {
        let effects = Effect::all(self.diff);
        match self.intent {
            None => ambiguous(format!(
                "the page changed ({} differences) but no intent was declared, so nothing says whether that was meant",
                self.diff.lines.len()
            )),
            Some(i) if !i.is_usable() => self.unexplained(&effects, "the page changed"),
            Some(_) => self.by_intent(&effects, None).unwrap_or_else(|| {
                let first = effects.first().map(Effect::line).unwrap_or_default();
                mismatch(format!("the intent explains none of the observed changes ({first})"), None)
            }),
        }
    }

    /// Compares an element's value with the request: by keyed hash when the element is
    /// sensitive (never reading the value), else by text.
    /// `loose` compares case-insensitively (option labels); a fill compares exactly, up to
    /// whitespace.
    fn check_value(
        &self,
        e: &Element,
        target: &Element,
        wanted: Option<&str>,
        loose: bool,
    ) -> ValueCheck {
        let secret = target.sensitive
            || e.sensitive
            || e.value_hash.is_some()
            || e.value.as_deref() == Some(REDACTED);
        let by_hash = match (&self.action.value_hash, &e.value_hash) {
            (Some(want), Some(got)) => Some(if want == got {
                ValueCheck::Equal
            } else {
                ValueCheck::Differs
            }),
            (Some(_), None) => Some(ValueCheck::Unverifiable),
            (None, _) => None,
        };
        if secret {
            return by_hash.unwrap_or(if wanted.is_some() {
                ValueCheck::Unverifiable
            } else {
                ValueCheck::NoRequest
            });
        }
        match (wanted, e.value.as_deref()) {
            (Some(want), Some(got)) => {
                let capped = text::cap(want, limits::MAX_TEXT_CHARS);
                let equal = got == want
                    || got == capped
                    || text::normalize_whitespace(got) == text::normalize_whitespace(&capped)
                    || (loose && text::normalize_key(got) == text::normalize_key(&capped));
                if equal {
                    ValueCheck::Equal
                } else if !loose && is_formatted(&capped, got) {
                    ValueCheck::Formatted
                } else {
                    ValueCheck::Differs
                }
            }
            (Some(_), None) => ValueCheck::Unverifiable,
            (None, _) => by_hash.unwrap_or(ValueCheck::NoRequest),
        }
    }

    /// Fill: only the target's value changed, to the requested one.
    fn fill(&self, t: &'a Element) -> Finding {
        let own = self.target_change(t).filter(|c| c.has(Field::Value));
        let wanted = self.action.value.as_deref();
        if let Some(other) = self
            .diff
            .changed
            .iter()
            .find(|c| c.has(Field::Value) && !own.is_some_and(|o| std::ptr::eq(*c, o)))
        {
            let how = if own.is_some() {
                "as well as the target's"
            } else {
                "instead of the target's"
            };
            return mismatch(
                format!(
                    "the value of {} changed {how}: {}",
                    describe_element(&other.after),
                    diff::line_changed(other)
                ),
                Some(&other.after),
            );
        }
        if let Some(c) = own {
            let line = diff::line_changed(c);
            return match self.check_value(&c.after, t, wanted, false) {
                ValueCheck::Equal => matched(format!("the target holds the requested value: {line}"), Some(t)),
                ValueCheck::Formatted => matched(format!("the target holds the requested value as the page formats it: {line}"), Some(t)),
                ValueCheck::NoRequest => matched(format!("the target's value changed (nothing to compare it with): {line}"), Some(t)),
                ValueCheck::Differs => mismatch(format!("the target's value changed, but not to the requested one: {line}"), Some(t)),
                ValueCheck::Unverifiable => ambiguous(format!(
                    "the target's value changed, but it is sensitive and no valueHash was given to compare it: {line}"
                )),
            };
        }
        if self.current(t).is_some_and(|e| {
            matches!(
                self.check_value(e, t, wanted, false),
                ValueCheck::Equal | ValueCheck::Formatted
            )
        }) {
            return matched(
                "the target already held the requested value".to_owned(),
                Some(t),
            );
        }
        self.no_effect(if self.diff.empty {
            "the page did not change"
        } else {
            "the target's value did not change"
        })
    }

    /// Check and uncheck: the target's checked state (pressed, for a toggle button) became
    /// the one asked for.
    fn toggle(&self, t: &'a Element, on: bool) -> Finding {
        let field = if t.checked.is_none() && t.pressed.is_some() {
            Field::Pressed
        } else {
            Field::Checked
        };
        let state = |e: &Element| {
            if field == Field::Checked {
                e.checked
            } else {
                e.pressed
            }
        };
        let want = Tristate::from(on);
        let word = if on { "checked" } else { "unchecked" };
        if let Some(c) = self.target_change(t).filter(|c| c.has(field)) {
            let line = diff::line_changed(c);
            return if state(&c.after) == Some(want) {
                matched(format!("the target is now {word}: {line}"), Some(t))
            } else {
                mismatch(format!("the target was to be {word}, but: {line}"), Some(t))
            };
        }
        if let Some(other) = self
            .diff
            .changed
            .iter()
            .find(|c| c.has(Field::Checked) || c.has(Field::Pressed))
        {
            return mismatch(
                format!(
                    "{} changed instead of the target: {}",
                    describe_element(&other.after),
                    diff::line_changed(other)
                ),
                Some(&other.after),
            );
        }
        if self.current(t).is_some_and(|e| state(e) == Some(want)) {
            return matched(format!("the target was already {word}"), Some(t));
        }
        self.no_effect(if self.diff.empty {
            "the page did not change"
        } else {
            "the target's state did not change"
        })
    }

    /// Select: the target shows the requested option, or that option became selected.
    fn select(&self, t: &'a Element) -> Finding {
        let wanted = self.action.option.as_deref();
        let key = wanted.map(text::normalize_key);
        let is_wanted = |label: &str| {
            key.as_deref()
                .is_none_or(|k| text::normalize_key(label) == k)
        };
        let chosen: Vec<&Changed> = self
            .diff
            .changed
            .iter()
            .filter(|c| c.has(Field::Selected) && c.after.selected == Some(true))
            .collect();
        let own = self.target_change(t).filter(|c| c.has(Field::Value));
        if let Some(c) = own {
            let line = diff::line_changed(c);
            return match self.check_value(&c.after, t, wanted, true) {
                ValueCheck::Equal | ValueCheck::Formatted | ValueCheck::NoRequest => matched(format!("the target shows the requested option: {line}"), Some(t)),
                _ if chosen.iter().any(|o| is_wanted(o.after.label())) => {
                    matched(format!("the requested option is selected: {line}"), Some(t))
                }
                ValueCheck::Differs => mismatch(format!("the target shows another option than the requested one: {line}"), Some(t)),
                ValueCheck::Unverifiable => ambiguous(format!(
                    "the target's value changed, but it cannot be compared without reading it: {line}"
                )),
            };
        }
        if let Some(o) = chosen.iter().find(|o| is_wanted(o.after.label())) {
            return matched(
                format!(
                    "the requested option is selected: {}",
                    diff::line_changed(o)
                ),
                Some(t),
            );
        }
        if let Some(o) = chosen.first() {
            return mismatch(
                format!(
                    "{} was selected, not the requested option: {}",
                    describe_element(&o.after),
                    diff::line_changed(o)
                ),
                Some(&o.after),
            );
        }
        if let Some(other) = self.diff.changed.iter().find(|c| c.has(Field::Value)) {
            return mismatch(
                format!(
                    "the value of {} changed instead of the target's: {}",
                    describe_element(&other.after),
                    diff::line_changed(other)
                ),
                Some(&other.after),
            );
        }
        let shows = self
            .current(t)
            .is_some_and(|e| self.check_value(e, t, wanted, true) == ValueCheck::Equal);
        let option_selected = wanted.is_some()
            && self.after.elements.iter().any(|e| {
                e.role == Role::Option
                    && e.selected == Some(true)
                    && is_wanted(e.label())
                    && diff::region_matches(&e.region, &t.region)
            });
        if shows || option_selected {
            return matched(
                "the requested option was already selected".to_owned(),
                Some(t),
            );
        }
        self.no_effect(if self.diff.empty {
            "the page did not change"
        } else {
            "the selection did not change"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{Context, TextKind};

    const PRODUCTS: &str = "catalogue/list:products";
    const FORM: &str = "form[Checkout]";

    use crate::core::testing::{el, item, text};

    /// A shop: a catalogue, a cart, a toolbar, a checkout form and a task board.
    fn shop() -> Snapshot {
        let field = |r: &str, name: &str| Element {
            value: Some(String::new()),
            ..el(r, Role::Textbox, name, FORM)
        };
        Snapshot {
            context: Context {
                tab: "t1".into(),
                epoch: 1,
                snapshot: "s1".into(),
            },
            has_more: false,
            elements: vec![
                el("b1", Role::Button, "Add Shirt M", PRODUCTS),
                el("b2", Role::Button, "Add Trousers L", PRODUCTS),
                el("b3", Role::Button, "Add Hat S", PRODUCTS),
                el("b4", Role::Button, "Add Shirt L", PRODUCTS),
                el("v1", Role::Button, "View cart", "banner"),
                Element {
                    expanded: Some(false),
                    ..el("m1", Role::Button, "Account", "banner")
                },
                Element {
                    pressed: Some(Tristate::False),
                    ..el("t1", Role::Button, "Bold", "toolbar")
                },
                Element {
                    pressed: Some(Tristate::False),
                    ..el("t2", Role::Button, "Italic", "toolbar")
                },
                field("f1", "Email"),
                field("f2", "Name"),
                Element {
                    sensitive: true,
                    value_hash: Some("h-empty".into()),
                    ..field("f3", "Password")
                },
                Element {
                    checked: Some(Tristate::False),
                    ..el("c1", Role::Checkbox, "Agree to the terms", FORM)
                },
                Element {
                    checked: Some(Tristate::False),
                    ..el("c2", Role::Checkbox, "Newsletter", FORM)
                },
                Element {
                    value: Some("Standard".into()),
                    ..el("s1", Role::Combobox, "Shipping", FORM)
                },
                el("lb", Role::Listbox, "Gift wrap", FORM),
                Element {
                    selected: Some(true),
                    ..el("o1", Role::Option, "None", FORM)
                },
                Element {
                    selected: Some(false),
                    ..el("o2", Role::Option, "Paper", FORM)
                },
                Element {
                    selected: Some(false),
                    ..el("o3", Role::Option, "Box", FORM)
                },
                Element {
                    value: Some(String::new()),
                    ..el("u1", Role::Button, "Upload invoice", FORM)
                },
                item("w1", "Write tests", "board/list:todo"),
                item("w2", "Ship it", "board/list:todo"),
                el("d1", Role::Button, "Delete account", "main"),
            ],
            texts: vec![text("10:00", "ticker")],
        }
    }

    fn find<'s>(s: &'s Snapshot, reference: &str) -> &'s Element {
        s.elements
            .iter()
            .find(|e| e.reference == reference)
            .expect("fixture ref")
    }

    fn edit(s: &mut Snapshot, reference: &str, f: impl FnOnce(&mut Element)) {
        f(s.elements
            .iter_mut()
            .find(|e| e.reference == reference)
            .expect("fixture ref"));
    }

    fn remove(s: &mut Snapshot, reference: &str) {
        s.elements.retain(|e| e.reference != reference);
    }

    fn add_to_cart(s: &mut Snapshot, product: &str, n: usize) {
        s.elements.push(item(
            &format!("ci{n}"),
            &format!("{product} Remove {product}"),
            "cart",
        ));
        s.elements.push(el(
            &format!("cr{n}"),
            Role::Button,
            &format!("Remove {product}"),
            "cart",
        ));
    }

    /// A confirmation dialog (after clicking "Delete account"), in four languages.
    fn dialog(title: &str, confirm: &str, cancel: &str) -> Snapshot {
        let region = format!("dialog[{title}]");
        let mut s = shop();
        s.elements.push(el("g0", Role::Dialog, title, ""));
        s.elements.push(el("g1", Role::Button, confirm, &region));
        s.elements.push(el("g2", Role::Button, cancel, &region));
        s
    }

    fn confirmed(before: &Snapshot, done: &str) -> Snapshot {
        let mut s = before.clone();
        for r in ["g0", "g1", "g2", "d1"] {
            remove(&mut s, r);
        }
        s.texts.push(text(done, "main"));
        s
    }

    fn act(kind: ActionKind, target: Option<&Element>) -> Action {
        Action {
            kind,
            target: target.cloned(),
            value: None,
            value_hash: None,
            option: None,
            intent: None,
            key: None,
        }
    }

    struct Case {
        name: &'static str,
        action: Action,
        before: Snapshot,
        after: Snapshot,
        opts: JudgeOptions,
        want: VerdictKind,
        /// The label of `attributedTo`, if any.
        to: Option<&'static str>,
        /// A piece of the reason.
        says: &'static str,
    }

    fn case(name: &'static str, action: Action, before: Snapshot, after: Snapshot) -> Case {
        Case {
            name,
            action,
            before,
            after,
            opts: JudgeOptions::default(),
            want: VerdictKind::Match,
            to: None,
            says: "",
        }
    }

    impl Case {
        fn want(mut self, want: VerdictKind, to: Option<&'static str>, says: &'static str) -> Self {
            (self.want, self.to, self.says) = (want, to, says);
            self
        }
        fn unstable(mut self) -> Self {
            self.opts.stable = false;
            self
        }
        fn ignoring(mut self, region: &str) -> Self {
            self.opts.ignore_regions.push(region.into());
            self
        }
        fn intent(mut self, intent: &str) -> Self {
            self.action.intent = Some(intent.into());
            self
        }
    }

    fn run(cases: Vec<Case>) {
        for c in cases {
            let v = judge(&c.action, &c.before, &c.after, &c.opts)
                .unwrap_or_else(|e| panic!("{}: {e}", c.name));
            assert_eq!(v.verdict, c.want, "{}: {}", c.name, v.reason);
            assert_eq!(
                v.attributed_to.as_ref().map(|a| a.name.as_str()),
                c.to,
                "{}: {}",
                c.name,
                v.reason
            );
            assert!(
                v.reason.contains(c.says),
                "{}: {:?} lacks {:?}",
                c.name,
                v.reason,
                c.says
            );
            let again = judge(&c.action, &c.before, &c.after, &c.opts).unwrap();
            assert_eq!(v, again, "{}: not deterministic", c.name);
        }
    }

    use VerdictKind::{Ambiguous as A, Match as M, Mismatch as X};

    /// Widget behaviour seen on pages nobody here wrote: each row states what a widget does
    /// (its role, states and relations), never a word of one page.
    /// The rules of widget states, dialogs and pickers, each held and broken.
    #[test]
    fn states_dialogs_and_pickers() {
        let page = |elements: Vec<Element>| Snapshot {
            elements,
            ..Default::default()
        };
        // A switch, its state said in words.
        let switch = |on: bool| {
            let mut s = page(vec![
                Element {
                    checked: Some(if on { Tristate::True } else { Tristate::False }),
                    ..el("s1", Role::Switch, "Autosave", "region[Settings]")
                },
                el("h1", Role::Heading, "Mailbox", "main"),
            ]);
            s.texts.push(text(
                "Your changes are kept on this device for a week",
                "main",
            ));
            s
        };
        let flip = act(ActionKind::Click, Some(find(&switch(true), "s1")));
        // A menu button opening its menu.
        let mut closed_menu = page(vec![Element {
            expanded: Some(false),
            ..el("m0", Role::Button, "Actions", "region[Invoice]")
        }]);
        closed_menu.texts.push(text(
            "This invoice is due in the next week",
            "region[Invoice]",
        ));
        let mut open_menu = closed_menu.clone();
        edit(&mut open_menu, "m0", |e| e.expanded = Some(true));
        open_menu
            .elements
            .push(el("m1", Role::Menuitem, "Duplicate", "menu[Actions]"));
        let opener = act(ActionKind::Click, Some(find(&closed_menu, "m0")));
        // A dialog with Delete and Keep it, its opener expanded.
        let confirm = {
            let mut s = dialog("Delete invoice 2291?", "Delete", "Keep it");
            s.elements.push(Element {
                expanded: Some(true),
                ..el("opener", Role::Button, "Delete invoice", "region[Invoice]")
            });
            s.elements.push(el("guard", Role::Generic, "", ""));
            s
        };
        let dismissed = {
            let mut s = without(&confirm, &["g0", "g1", "g2", "guard"]);
            edit(&mut s, "opener", |e| e.expanded = Some(false));
            s
        };
        let mut deleted = dismissed.clone();
        deleted
            .texts
            .push(text("Invoice deleted", "region[Invoice]"));
        let keep = act(ActionKind::Click, Some(find(&confirm, "g2")));
        let delete = act(ActionKind::Click, Some(find(&confirm, "g1")));
        let escape = Action {
            key: Some("Escape".into()),
            ..act(ActionKind::Press, None)
        };
        // A rename dialog whose field's value shows outside it once saved.
        let rename = page(vec![
            el("h0", Role::Heading, "Project Apollo", "region[Project]"),
            el(
                "d0",
                Role::Dialog,
                "Rename project",
                "dialog[Rename project]",
            ),
            Element {
                value: Some("Gemini".into()),
                ..el(
                    "f0",
                    Role::Textbox,
                    "Project name",
                    "dialog[Rename project]",
                )
            },
            el("b0", Role::Button, "Save name", "dialog[Rename project]"),
        ]);
        let mut renamed = without(&rename, &["h0", "d0", "f0", "b0"]);
        renamed
            .elements
            .push(el("h1", Role::Heading, "Project Gemini", "region[Project]"));
        let save = act(ActionKind::Click, Some(find(&rename, "b0")));
        // A combo box's option picked: the field takes the option's name.
        let combo = page(vec![
            Element {
                value: Some("Ger".into()),
                expanded: Some(true),
                ..el("c0", Role::Combobox, "Country", "region[Order]")
            },
            el("o0", Role::Option, "Germany", "list:countries"),
            el("o9", Role::Option, "Georgia", "list:countries"),
        ]);
        let mut picked = without(&combo, &["o0", "o9"]);
        edit(&mut picked, "c0", |e| {
            e.value = Some("Germany".into());
            e.expanded = Some(false);
        });
        let mut wrong_pick = picked.clone();
        edit(&mut wrong_pick, "c0", |e| e.value = Some("Georgia".into()));
        let pick = act(ActionKind::Click, Some(find(&combo, "o0")));
        // A custom select: the popup's option and its native twin elsewhere.
        let select = page(vec![
            Element {
                selected: Some(false),
                ..el("p1", Role::Option, "US dollar", "list:popup")
            },
            Element {
                selected: Some(true),
                ..el("n0", Role::Option, "Euro", "region[Project]")
            },
            Element {
                selected: Some(false),
                ..el("n1", Role::Option, "US dollar", "region[Project]")
            },
        ]);
        let mut chosen = without(&select, &["p1"]);
        edit(&mut chosen, "n0", |e| e.selected = Some(false));
        edit(&mut chosen, "n1", |e| e.selected = Some(true));
        let choose = act(ActionKind::Click, Some(find(&select, "p1")));
        // A number field with its increment and decrement buttons.
        let field = |v: &str| {
            page(vec![
                el("inc", Role::Button, "Increase Quantity", "region[Order]"),
                el("dec", Role::Button, "Decrease Quantity", "region[Order]"),
                Element {
                    value: Some(v.into()),
                    ..el("q", Role::Textbox, "Quantity", "region[Order]")
                },
            ])
        };
        let increase = act(ActionKind::Click, Some(find(&field("1"), "inc")));
        // A button that shows a toast: once, or twice.
        let invite_page = page(vec![el("iv", Role::Button, "Invite Ana", "main")]);
        let toasts = |n: usize| {
            let mut s = invite_page.clone();
            for i in 0..n {
                s.elements.push(item(
                    &format!("t{i}"),
                    "Invitation sent to Ana",
                    "region[Notifications]",
                ));
            }
            s
        };
        let mut merged = invite_page.clone();
        merged.texts.push(text(
            "Invitation sent to AnaInvitation sent to Ana",
            "region[Notifications]",
        ));
        let invite = act(ActionKind::Click, Some(find(&invite_page, "iv")));
        #[rustfmt::skip]
        run(vec![
            case("a toast once", invite.clone(), invite_page.clone(), toasts(1)).intent("An invitation is sent to Ana").want(M, Some("Invite Ana"), ""),
            case("the same toast twice", invite.clone(), invite_page.clone(), toasts(2)).want(X, Some("Invite Ana"), "appeared twice"),
            case("the same toast twice, one claimed", invite.clone(), invite_page.clone(), toasts(2)).intent("An invitation is sent to Ana").want(X, Some("Invite Ana"), "2 like effects"),
            case("a message that reads twice", invite, invite_page, merged).want(X, Some("Invite Ana"), "shows twice"),
            case("increase, up by one", increase.clone(), field("1"), field("2")).want(M, Some("Increase Quantity"), "the way the target's name says"),
            case("increase, up to the number said", increase.clone(), field("1"), field("2")).intent("The quantity goes up to 2").want(M, Some("Increase Quantity"), "as the intent says"),
            case("increase, doubled past the number said", increase.clone(), field("1"), field("3")).intent("The quantity goes up to 2").want(X, Some("Increase Quantity"), "gives the value 2"),
            case("increase that went down", increase, field("2"), field("1")).want(A, None, ""),
            case("switch off, said off", flip.clone(), switch(true), switch(false)).intent("Autosave is turned off").want(M, Some("Autosave"), "the intent holds"),
            case("switch off, said off in Spanish", flip.clone(), switch(true), switch(false)).intent("Se desactiva el guardado automático").want(M, Some("Autosave"), ""),
            case("switch off, said on", flip.clone(), switch(true), switch(false)).intent("Autosave is turned on").want(X, Some("Autosave"), "went the other way"),
            case("switch off, said no longer on", flip.clone(), switch(true), switch(false)).intent("Autosave is no longer active").want(M, Some("Autosave"), ""),
            case("switch off, the intent names another thing the page shows", flip.clone(), switch(true), switch(false)).intent("Autosave and the mailbox are off").want(A, None, ""),
            case("menu opens, said in German", opener.clone(), closed_menu.clone(), open_menu.clone()).intent("Das Aktionsmenü öffnet sich").want(M, Some("Actions"), "names the target"),
            case("menu opens, said closes", opener, closed_menu, open_menu).intent("The Actions menu closes").want(X, Some("Actions"), "went the other way"),
            case("keep it, no intent", keep.clone(), confirm.clone(), dismissed.clone()).want(M, Some("Keep it"), "dismissing button"),
            case("keep it, kept", keep.clone(), confirm.clone(), dismissed.clone()).intent("The invoice is kept").want(M, Some("Keep it"), "nothing else was done"),
            case("keep it, said deleted", keep.clone(), confirm.clone(), dismissed.clone()).intent("The invoice is deleted").want(X, None, ""),
            case("keep it forwarded to delete", keep.clone(), confirm.clone(), deleted.clone()).want(A, None, ""),
            case("keep it forwarded to delete, kept", keep, confirm.clone(), deleted.clone()).intent("The invoice is kept").want(X, Some("Keep it"), "Invoice deleted"),
            case("delete that only dismissed", delete.clone(), confirm.clone(), dismissed.clone()).want(A, None, ""),
            case("delete, its message shown", delete, confirm.clone(), deleted.clone()).intent("The invoice is deleted").want(M, Some("Delete"), "Invoice deleted"),
            case("escape dismisses", escape.clone(), confirm.clone(), dismissed.clone()).intent("The confirmation is dismissed").want(M, None, "nothing else was done"),
            case("escape, said deleted", escape.clone(), confirm.clone(), dismissed).intent("The invoice is deleted").want(X, None, ""),
            case("escape that deleted", escape, confirm, deleted).intent("The confirmation is dismissed").want(A, None, ""),
            case("save shows the field's value", save.clone(), rename.clone(), renamed).want(M, Some("Save name"), "fields held"),
            case("save that lost the value", save, rename.clone(), without(&rename, &["d0", "f0", "b0"])).want(A, None, ""),
            case("combo box takes the option", pick.clone(), combo.clone(), picked).intent("Germany is chosen as the country").want(M, Some("Germany"), ""),
            case("combo box takes another option", pick, combo, wrong_pick).want(X, Some("Georgia"), "took the name of option[Georgia]"),
            case("custom select and its native twin", choose.clone(), select.clone(), chosen.clone()).want(M, Some("US dollar"), ""),
        ]);
    }

    #[test]
    fn held_out_widget_cases() {
        let placed = |r: &str, role: Role, name: &str, row: &str| Element {
            within: Some(format!("listitem[{row}]")),
            ..el(r, role, name, "main")
        };
        // Rows of unnamed checkboxes, each with a Delete button every row shares.
        let todos = Snapshot {
            elements: vec![
                item("l1", "Walk dog", "main"),
                placed("c1", Role::Checkbox, "", "Walk dog"),
                placed("x1", Role::Button, "Delete todo", "Walk dog"),
                item("l2", "Pay rent", "main"),
                placed("c2", Role::Checkbox, "", "Pay rent"),
                placed("x2", Role::Button, "Delete todo", "Pay rent"),
            ]
            .into_iter()
            .map(|mut e| {
                if e.role == Role::Checkbox {
                    e.checked = Some(Tristate::False);
                }
                e
            })
            .collect(),
            ..Default::default()
        };
        let toggle = act(ActionKind::Click, Some(find(&todos, "c1")));
        let delete = act(ActionKind::Click, Some(find(&todos, "x1")));
        let mut ticked = todos.clone();
        edit(&mut ticked, "c1", |e| e.checked = Some(Tristate::True));
        let mut forwarded = todos.clone();
        edit(&mut forwarded, "c2", |e| e.checked = Some(Tristate::True));
        let deleted = without(&todos, &["l1", "c1", "x1"]);
        let both = without(&todos, &["l1", "c1", "x1", "l2", "c2", "x2"]);
        // The next row slides under the pointer and shows its Delete button.
        let mut slid = deleted.clone();
        edit(&mut slid, "l2", |e| {
            e.reference = "l2b".into();
            e.text = Some("Pay rent Delete todo".into());
        });
        // Tabs: one selected at a time.
        let tabs = Snapshot {
            elements: vec![
                Element {
                    selected: Some(false),
                    ..el("t1", Role::Tab, "Tab #1", "main")
                },
                Element {
                    selected: Some(true),
                    ..el("t2", Role::Tab, "Tab #2", "main")
                },
            ],
            ..Default::default()
        };
        let mut tab1 = tabs.clone();
        edit(&mut tab1, "t1", |e| e.selected = Some(true));
        edit(&mut tab1, "t2", |e| e.selected = Some(false));
        let panels = |shown: &str| {
            let mut s = tabs.clone();
            for (r, name) in [("p1", "Tab #1"), ("p2", "Tab #2")] {
                s.elements.push(Element {
                    visible: name == shown,
                    ..el(r, Role::Tabpanel, name, "main")
                });
            }
            s
        };
        let (with_panels, mut switched) = (panels("Tab #2"), panels("Tab #1"));
        edit(&mut switched, "t1", |e| e.selected = Some(true));
        edit(&mut switched, "t2", |e| e.selected = Some(false));
        let mut only_deselected = tabs.clone();
        edit(&mut only_deselected, "t2", |e| e.selected = Some(false));
        // A switch whose name the intent repeats.
        let switch = Snapshot {
            elements: vec![Element {
                checked: Some(Tristate::False),
                ..el("s1", Role::Switch, "Dark mode", "main")
            }],
            texts: vec![text("Appearance settings for this device", "main")],
            ..Default::default()
        };
        let mut on = switch.clone();
        edit(&mut on, "s1", |e| e.checked = Some(Tristate::True));
        // A confirmation dialog whose Cancel only closes it.
        let mut account = dialog("Delete account?", "Delete", "Cancel");
        account
            .elements
            .push(el("a1", Role::Region, "Account", "main"));
        account
            .texts
            .push(text("Status: active", "main/region[Account]"));
        let cancelled = without(&account, &["g0", "g1", "g2"]);
        let mut confirmed_account = cancelled.clone();
        confirmed_account
            .texts
            .retain(|t| t.text != "Status: active");
        confirmed_account
            .texts
            .push(text("Status: deleted", "main/region[Account]"));
        let confirm = act(ActionKind::Click, Some(find(&account, "g1")));
        let keep = act(ActionKind::Click, Some(find(&account, "g1")));
        let mut closed_instead = cancelled.clone();
        closed_instead
            .texts
            .push(text("Account closed", "main/region[Account]"));
        let cancel = act(ActionKind::Click, Some(find(&account, "g2")));
        // A shop in English, an intent in German.
        let shop_en = {
            let mut s = shop();
            s.texts.push(text("Your cart is empty", "cart"));
            s
        };
        let mut added = shop_en.clone();
        add_to_cart(&mut added, "Shirt M", 1);
        let add = act(ActionKind::Click, Some(find(&shop_en, "b1")));
        // Clear completed: the checked rows go.
        let mut done = todos.clone();
        edit(&mut done, "c1", |e| e.checked = Some(Tristate::True));
        done.elements
            .push(el("cc", Role::Button, "Clear completed", "main"));
        let cleared = without(&done, &["l1", "c1", "x1"]);
        let cleared_wrong = without(&done, &["l2", "c2", "x2"]);
        let clear = act(ActionKind::Click, Some(find(&done, "cc")));
        // A dialog with its own close control.
        let cookies = dialog("Cookies and privacy", "OK", "Close");
        let dismissed = without(&cookies, &["g0", "g1", "g2"]);
        let close = act(ActionKind::Click, Some(find(&cookies, "g2")));
        // A list reordered by a drag: Olwen from 4th to 3rd.
        let speakers = |order: [&str; 4]| Snapshot {
            elements: order
                .iter()
                .map(|n| item(&format!("s-{n}"), n, "main/list:speakers"))
                .collect(),
            ..Default::default()
        };
        let (listed, moved) = (
            speakers(["Anwen", "Bryn", "Cai", "Olwen"]),
            speakers(["Anwen", "Bryn", "Olwen", "Cai"]),
        );
        let olwen = listed.elements[3].clone();
        let drag = Action {
            kind: ActionKind::Drag,
            ..act(ActionKind::Drag, Some(&olwen))
        };
        #[rustfmt::skip]
        run(vec![
            case("bulk: the checked rows go", clear.clone(), done.clone(), cleared).want(M, Some("Clear completed"), "checkbox was checked went (1)"),
            case("bulk: an unchecked row goes", clear, done, cleared_wrong).want(A, None, ""),
            case("dialog: its own close control", close.clone(), cookies.clone(), dismissed.clone()).want(M, Some("Close"), "own dismissing button closed it"),
            case("dialog: its own close control, intent", close, cookies.clone(), dismissed.clone()).intent("the dialog closes").want(M, Some("Close"), ""),
            case("dialog: OK closing it says nothing by itself", act(ActionKind::Click, Some(find(&cookies, "g1"))), cookies.clone(), dismissed).want(A, None, ""),
            case("reorder: the intent names the item and the way", drag.clone(), listed.clone(), moved.clone()).intent("Olwen moves up one place").want(M, Some("Olwen"), "from position 4 to 3"),
            case("reorder: the other way", drag, listed, moved).intent("Olwen moves down one place").want(X, Some("Olwen"), "the other way"),
            case("row: honest toggle", toggle.clone(), todos.clone(), ticked.clone()).want(M, Some(""), "checkbox in listitem[Walk dog]"),
            case("row: honest toggle, intent", toggle.clone(), todos.clone(), ticked).intent("Walk dog is marked as done").want(M, Some(""), ""),
            case("row: toggle forwarded to the next row", toggle.clone(), todos.clone(), forwarded.clone()).want(X, Some(""), "checkbox in listitem[Pay rent]"),
            case("row: forwarded, with intent", toggle, todos.clone(), forwarded).intent("Walk dog is marked as done").want(X, Some(""), "Pay rent"),
            case("row: honest delete", delete.clone(), todos.clone(), deleted).want(M, Some("Delete todo"), ""),
            case("row: honest delete, the next row hovered", delete.clone(), todos.clone(), slid).want(M, Some("Delete todo"), ""),
            case("row: one delete, two rows", delete, todos.clone(), both).want(X, Some("Pay rent"), "reaches listitem[Pay rent] in main too"),
            case("tabs: the sibling's deselection is the target's", act(ActionKind::Click, Some(find(&tabs, "t1"))), tabs.clone(), tab1.clone()).intent("Tab #1 is selected").want(M, Some("Tab #1"), ""),
            case("tabs: no intent", act(ActionKind::Click, Some(find(&tabs, "t1"))), tabs.clone(), tab1).want(M, Some("Tab #1"), "selected false -> true"),
            case("tabs: only a deselection is no selection", act(ActionKind::Click, Some(find(&tabs, "t1"))), tabs.clone(), only_deselected).intent("Tab #1 is selected").want(A, None, ""),
            case("switch: own state, shared words", act(ActionKind::Click, Some(find(&switch, "s1"))), switch.clone(), on).intent("dark mode is turned on").want(M, Some("Dark mode"), "checked false -> true"),
            case("dialog: cancel is no deletion", cancel.clone(), account.clone(), cancelled.clone()).intent("the account is deleted").want(X, None, "still shown"),
            case("dialog: the click went to Close account", keep.clone(), account.clone(), closed_instead).intent("The account is kept").want(X, Some("Delete"), "the account stays, but the effect removes it"),
            case("dialog: confirm, the account says deleted", confirm, account.clone(), confirmed_account).intent("the account is deleted").want(M, Some("Delete"), "Status: deleted"),
            case("tabs: the panels follow", act(ActionKind::Click, Some(find(&with_panels, "t1"))), with_panels.clone(), switched).intent("Tab #1 is selected").want(M, Some("Tab #1"), ""),
            case("dialog: cancel closes it", cancel, account.clone(), cancelled).intent("the dialog closes").want(M, Some("Cancel"), ""),
            case("an intent in another language", add.clone(), shop_en.clone(), added.clone()).intent("Der Warenkorb enthält jetzt ein Hemd in Größe M").want(M, Some("Add Shirt M"), "not read: hemd, grosse"),
            case("the page's language narrows", add, shop_en, added).intent("the cart holds a hat").want(A, None, ""),
        ]);
    }

    #[test]
    fn click() {
        let s = shop();
        let shirt = find(&s, "b1");
        let click = |t: &str| act(ActionKind::Click, Some(find(&s, t)));
        let after = |f: &dyn Fn(&mut Snapshot)| {
            let mut a = s.clone();
            f(&mut a);
            a
        };
        let honest = after(&|a| add_to_cart(a, "Shirt M", 1));
        let recycled = after(&|a| add_to_cart(a, "Trousers L", 1));
        let recycled_away = after(&|a| {
            remove(a, "b1");
            a.elements
                .push(el("b9", Role::Button, "Add Socks XL", PRODUCTS));
            add_to_cart(a, "Trousers L", 1);
        });
        let both = after(&|a| {
            add_to_cart(a, "Shirt M", 1);
            add_to_cart(a, "Trousers L", 2);
        });
        let ticker = after(&|a| a.texts[0].text = "10:01".into());
        let thanks = after(&|a| a.texts.push(text("Thank you!", "main")));
        let counter_only = after(&|a| a.texts.push(text("Cart: 1 item", "banner")));
        let shirt_l = after(&|a| add_to_cart(a, "Shirt L", 1));
        let bold = after(&|a| edit(a, "t1", |e| e.pressed = Some(Tristate::True)));
        let italic = after(&|a| edit(a, "t2", |e| e.pressed = Some(Tristate::True)));
        let opened = after(&|a| {
            edit(a, "m1", |e| e.expanded = Some(true));
            a.elements
                .push(el("mi", Role::Menuitem, "Sign out", "banner"));
        });
        let quantity = after(&|a| {
            a.elements.push(Element {
                value: Some("1".into()),
                ..el("q1", Role::Spinbutton, "Quantity of Shirt M", "cart")
            })
        });
        let hidden_only = after(&|a| edit(a, "b1", |e| e.disabled = true));
        let dialog_opened = after(&|a| {
            a.elements
                .push(el("g0", Role::Dialog, "Delete account?", ""))
        });
        #[rustfmt::skip]
        run(vec![
            case("honest add", click("b1"), s.clone(), honest.clone()).want(M, Some("Add Shirt M"), "appeared listitem[Shirt M Remove Shirt M] in cart"),
            case("recycled row", click("b1"), s.clone(), recycled.clone()).want(X, Some("Add Trousers L"), "the effect belongs to button[Add Trousers L] in catalogue/list:products, not to the target"),
            case("recycled row, target scrolled away", click("b1"), s.clone(), recycled_away).want(X, Some("Add Trousers L"), "Trousers L"),
            case("recycled row with a matching intent still fails", click("b1"), s.clone(), recycled).intent("the cart gains a shirt size M").want(X, Some("Add Trousers L"), ""),
            case("sibling size", click("b1"), s.clone(), shirt_l).want(X, Some("Add Shirt L"), "Shirt L"),
            case("both names", click("b1"), s.clone(), both).want(A, None, "and also button[Add Trousers L]"),
            case("no effect", click("b1"), s.clone(), s.clone()).want(X, None, "no effect"),
            case("no effect on a busy page", click("b1"), s.clone(), s.clone()).unstable().want(A, None, "still changing"),
            case("ticker only", click("b1"), s.clone(), ticker.clone()).want(A, None, "no element's name explains"),
            case("ticker ignored", click("b1"), s.clone(), ticker).ignoring("ticker").want(X, None, "no effect"),
            case("unexplained", click("b1"), s.clone(), thanks.clone()).want(A, None, "declare an intent"),
            case("unexplained, intent matches", click("b1"), s.clone(), thanks.clone()).intent("a thank you message").want(M, Some("Add Shirt M"), "the intent explains the effect: appeared text 'Thank you!' in main"),
            case("unexplained, intent does not match", click("b1"), s.clone(), thanks).intent("the cart gains a shirt").want(A, None, "nor does the intent"),
            case("unexplained, negated intent", click("b1"), s.clone(), counter_only).intent("nothing is added").want(A, None, "negated"),
            case("toggle button", click("t1"), s.clone(), bold.clone()).want(M, Some("Bold"), "own state changed: changed button[Bold] in toolbar: pressed false -> true"),
            case("neighbour toggled", click("t1"), s.clone(), italic).want(X, Some("Italic"), "belongs to button[Italic] in toolbar"),
            case("disclosure", click("m1"), s.clone(), opened).want(M, Some("Account"), "expanded false -> true"),
            case("quantity carries the name", click("b1"), s.clone(), quantity).want(M, Some("Add Shirt M"), "Quantity of Shirt M"),
            case("disabling itself is no evidence", click("b1"), s.clone(), hidden_only).want(A, None, ""),
            case("dialog opens", click("d1"), s.clone(), dialog_opened).want(M, Some("Delete account"), "appeared dialog[Delete account?]"),
            case("other region button", click("v1"), s.clone(), honest).want(A, None, ""),
        ]);
        assert_eq!(shirt.name, "Add Shirt M");
    }

    #[test]
    fn names_carry_across_word_forms_and_languages() {
        // (target button, text that appears next to it, verdict without intent)
        #[rustfmt::skip]
        let cases = [
            ("Pay", "Payment accepted", M),
            ("Apply coupon", "Coupon SAVE10 applied", M),
            ("Place order", "Order placed", M),
            ("Save", "Saved", M),
            ("Submit", "Form submitted", M),
            ("Añadir Camiseta M", "Camiseta M añadida al carrito", M),
            ("Ajouter le T-shirt M", "T-shirt M ajouté au panier", M),
            ("In den Warenkorb", "Artikel im Warenkorb", M),
            ("Jetzt zahlen", "Zahlung erfolgt", M),
            ("Confirm delete", "Account deleted", A),
            ("Sign in", "Welcome back", A),
            ("Add Shirt M", "Shirt L", A),
            ("Add", "Address saved", A),
            // The verb names the gesture; the rest of the name, the thing.
            ("Add a point", "4 points", M),
            ("Sumar un punto", "4 puntos", M),
            ("Einen Punkt geben", "4 Punkte", M),
            ("Show cover", "The Quiet Sea Cover by M. Lund", M),
            ("Ver portada", "Portada de M. Lund", M),
            ("Add a point", "4 badges", A),
            ("Tasse hinzufügen", "Tasse kommt in den Warenkorb", M),
            ("Cover anzeigen", "Kein Bild", A),
        ];
        for (name, said, want) in cases {
            let v = click_then_text([name, "Cancel"], said);
            assert_eq!(v.verdict, want, "{name} -> {said}: {}", v.reason);
        }
    }

    /// A click on the first of two buttons in `main`, after which `said` appears there.
    fn click_then_text(buttons: [&str; 2], said: &str) -> Verdict {
        let before = Snapshot {
            elements: vec![
                el("t", Role::Button, buttons[0], "main"),
                el("n", Role::Button, buttons[1], "main"),
            ],
            ..Default::default()
        };
        let mut after = before.clone();
        after.texts.push(text(said, "main"));
        judge(
            &act(ActionKind::Click, Some(&before.elements[0])),
            &before,
            &after,
            &JudgeOptions::default(),
        )
        .unwrap()
    }

    #[test]
    fn a_name_without_its_verb_still_tells_neighbours_apart() {
        // (effect text, verdict, attributed to)
        #[rustfmt::skip]
        let cases = [
            ("4 points", M, "Add a point"),
            ("2 badges", X, "Add a badge"),
            ("Points and badges", A, ""),
        ];
        for (said, want, to) in cases {
            let v = click_then_text(["Add a point", "Add a badge"], said);
            assert_eq!(v.verdict, want, "{said}: {}", v.reason);
            let name = v
                .attributed_to
                .as_ref()
                .map(|e| e.name.as_str())
                .unwrap_or("");
            assert_eq!(name, to, "{said}: {}", v.reason);
        }
    }

    #[test]
    fn what_the_name_and_the_intent_both_say_must_be_shown() {
        let before = Snapshot {
            elements: vec![
                el("m1", Role::Menuitem, "Archive", "menu[Actions]"),
                el("m2", Role::Menuitem, "Mark as paid", "menu[Actions]"),
            ],
            texts: vec![text("Order 1042", "main")],
            ..Default::default()
        };
        let toast = |said: &str| {
            let mut a = before.clone();
            a.texts.push(text(said, "region[Notifications]"));
            a
        };
        let archive = act(ActionKind::Click, Some(find(&before, "m1")));
        let closed = |said: &str| {
            let mut a = toast(said);
            a.elements.clear();
            a
        };
        #[rustfmt::skip]
        run(vec![
            case("shown", archive.clone(), before.clone(), toast("Order archived")).intent("the order is archived").want(M, Some("Archive"), ""),
            case("another outcome of the same object", archive.clone(), before.clone(), toast("Order paid")).intent("the order is archived").want(A, None, "both say 'archiv'"),
            case("another outcome, the menu closing", archive.clone(), before.clone(), closed("Order paid")).intent("the order is archived").want(A, None, "both say 'archiv'"),
            case("shown, the menu closing", archive.clone(), before.clone(), closed("Order archived")).intent("the order is archived").want(M, Some("Archive"), ""),
            case("es: another outcome", archive.clone(), before.clone(), toast("Pedido pagado")).intent("el pedido se archiva").want(A, None, ""),
            case("no word shared: the intent alone", archive, before.clone(), toast("Order moved to the archive")).intent("the order is moved").want(M, Some("Archive"), ""),
        ]);
    }

    #[test]
    fn a_name_given_word_for_word_must_be_shown_so() {
        let before = Snapshot {
            elements: vec![
                el("sv", Role::Button, "Save", "main/list:todos"),
                item("t1", "Call supplier", "main/list:todos"),
            ],
            ..Default::default()
        };
        let saved = |title: &str| {
            let mut a = without(&before, &["t1"]);
            a.elements.push(item("t2", title, "main/list:todos"));
            a.texts.push(text(&format!("Saved {title}"), "main"));
            a
        };
        let save = act(ActionKind::Click, Some(find(&before, "sv")));
        #[rustfmt::skip]
        run(vec![
            case("shown", save.clone(), before.clone(), saved("Call the supplier")).intent("the task is renamed Call the supplier").want(M, Some("Save"), ""),
            case("the old title kept", save.clone(), before.clone(), saved("Call supplier")).intent("the task is renamed Call the supplier").want(A, None, "word for word"),
            case("the old title kept, the edited row gone", save.clone(), { let mut b = before.clone(); b.elements.push(item("ed", "Call the supplier Save", "main/list:todos")); b }, { let mut a = saved("Call supplier"); a.elements.retain(|e| e.reference != "ed"); a }).intent("the task is renamed Call the supplier").want(A, None, "word for word"),
            case("es: renombrada a", save.clone(), before.clone(), saved("Llamar al proveedor")).intent("la tarea es renombrada a Llamar al proveedor").want(M, Some("Save"), ""),
            case("es: the old title kept", save.clone(), before.clone(), saved("Llamar proveedor")).intent("la tarea es renombrada a Llamar al proveedor").want(A, None, "word for word"),
            case("de: heißt", save.clone(), before.clone(), saved("Lieferant anrufen")).intent("die Aufgabe heißt Lieferant sofort anrufen").want(A, None, "word for word"),
        ]);
    }

    #[test]
    fn confirm_dialogs_need_an_intent_in_every_language() {
        #[rustfmt::skip]
        let fixtures = [
            ("es", "¿Eliminar cuenta?", "Confirmar borrado", "Cancelar", "Cuenta eliminada", "la cuenta queda eliminada", "el pedido queda enviado"),
            ("en", "Close account?", "Confirm", "Cancel", "Account closed", "the account is closed", "the order is shipped"),
            ("fr", "Supprimer le compte ?", "Confirmer", "Annuler", "Compte supprimé", "le compte est supprimé", "la commande est expédiée"),
            ("de", "Konto löschen?", "Bestätigen", "Abbrechen", "Konto gelöscht", "das Konto wurde gelöscht", "die Bestellung wurde versandt"),
        ];
        for (lang, title, confirm, cancel, done, intent, wrong) in fixtures {
            let before = dialog(title, confirm, cancel);
            let after = confirmed(&before, done);
            let click = act(ActionKind::Click, Some(find(&before, "g1")));
            let opts = JudgeOptions::default();
            let bare = judge(&click, &before, &after, &opts).unwrap();
            assert_eq!(bare.verdict, A, "{lang} without intent: {}", bare.reason);
            let with = Action {
                intent: Some(intent.into()),
                ..click.clone()
            };
            let v = judge(&with, &before, &after, &opts).unwrap();
            assert_eq!(v.verdict, M, "{lang} with intent: {}", v.reason);
            assert_eq!(v.attributed_to.unwrap().name, confirm, "{lang}");
            let other = Action {
                intent: Some(wrong.into()),
                ..click
            };
            let v = judge(&other, &before, &after, &opts).unwrap();
            assert_eq!(
                v.verdict, A,
                "{lang} with an unrelated intent: {}",
                v.reason
            );
        }
    }

    #[test]
    fn fill() {
        let s = shop();
        let fill = |t: &str, value: &str| Action {
            value: Some(value.into()),
            ..act(ActionKind::Fill, Some(find(&s, t)))
        };
        let secret = |hash: &str| Action {
            value_hash: Some(hash.into()),
            ..act(ActionKind::Fill, Some(find(&s, "f3")))
        };
        let set = |r: &str, v: &str| {
            let mut a = s.clone();
            edit(&mut a, r, |e| e.value = Some(v.into()));
            a
        };
        let typed_password = {
            let mut a = s.clone();
            edit(&mut a, "f3", |e| {
                (e.value, e.value_hash) = (Some(REDACTED.into()), Some("h-typed".into()))
            });
            a
        };
        let mut both = set("f1", "ana@example.org");
        edit(&mut both, "f2", |e| e.value = Some("Ana".into()));
        let filled = set("f1", "ana@example.org");
        #[rustfmt::skip]
        run(vec![
            case("honest", fill("f1", "ana@example.org"), s.clone(), filled.clone()).want(M, Some("Email"), "changed textbox[Email] in form[Checkout]: value '' -> 'ana@example.org'"),
            case("whitespace-normalised", fill("f1", "  ana@example.org "), s.clone(), filled.clone()).want(M, Some("Email"), ""),
            case("other value", fill("f1", "bob@example.org"), s.clone(), filled.clone()).want(X, Some("Email"), "not to the requested one"),
            case("wrong field", fill("f1", "ana@example.org"), s.clone(), set("f2", "ana@example.org")).want(X, Some("Name"), "the value of textbox[Name] in form[Checkout] changed instead of the target's"),
            case("two fields", fill("f1", "ana@example.org"), s.clone(), both).want(X, Some("Name"), "as well as the target's"),
            case("unchanged", fill("f1", "ana@example.org"), s.clone(), s.clone()).want(X, None, "no effect"),
            case("unchanged on a busy page", fill("f1", "ana@example.org"), s.clone(), s.clone()).unstable().want(A, None, ""),
            case("already held", fill("f1", "ana@example.org"), filled.clone(), filled.clone()).want(M, Some("Email"), "already held"),
            case("no requested value", act(ActionKind::Fill, Some(find(&s, "f1"))), s.clone(), filled.clone()).want(M, Some("Email"), "nothing to compare"),
            case("password by hash", secret("h-typed"), s.clone(), typed_password.clone()).want(M, Some("Password"), "value '' -> '[redacted]'"),
            case("password, other hash", secret("h-other"), s.clone(), typed_password.clone()).want(X, Some("Password"), "not to the requested one"),
            case("password without hash", fill("f3", "hunter2-secret"), s.clone(), typed_password.clone()).want(A, None, "no valueHash"),
            case("password already typed", secret("h-typed"), typed_password.clone(), typed_password).want(M, Some("Password"), "already held"),
            case("filled elsewhere while the page ticks", fill("f1", "x"), s.clone(), { let mut a = s.clone(); a.texts[0].text = "10:01".into(); a }).want(X, None, "the target's value did not change"),
        ]);
    }

    #[test]
    fn fill_never_echoes_a_secret() {
        let s = shop();
        let mut after = s.clone();
        edit(&mut after, "f3", |e| {
            (e.value, e.value_hash) = (Some(REDACTED.into()), Some("h-typed".into()))
        });
        let mut wrong = s.clone();
        edit(&mut wrong, "f1", |e| e.value = Some(REDACTED.into()));
        for (before, after) in [(&s, &after), (&s, &wrong), (&s, &s)] {
            for hash in [None, Some("h-typed".to_owned()), Some("h-nope".to_owned())] {
                let action = Action {
                    value: Some("hunter2-secret".into()),
                    value_hash: hash,
                    ..act(ActionKind::Fill, Some(find(&s, "f3")))
                };
                let v = judge(&action, before, after, &JudgeOptions::default()).unwrap();
                let out = serde_json::to_string(&v).unwrap() + &format!("{action:?}");
                assert!(!out.contains("hunter2"), "{out}");
            }
        }
    }

    #[test]
    fn check_and_uncheck() {
        let s = shop();
        let check = |t: &str| act(ActionKind::Check, Some(find(&s, t)));
        let uncheck = |t: &str| act(ActionKind::Uncheck, Some(find(&s, t)));
        let set = |base: &Snapshot, r: &str, v: Tristate| {
            let mut a = base.clone();
            edit(&mut a, r, |e| e.checked = Some(v));
            a
        };
        let agreed = set(&s, "c1", Tristate::True);
        let subscribed = set(&s, "c2", Tristate::True);
        let mut radio = s.clone();
        radio.elements.push(Element {
            checked: Some(Tristate::True),
            ..el("r1", Role::Radio, "Standard", FORM)
        });
        radio.elements.push(Element {
            checked: Some(Tristate::False),
            ..el("r2", Role::Radio, "Express", FORM)
        });
        let express = set(&set(&radio, "r1", Tristate::False), "r2", Tristate::True);
        let pick = act(ActionKind::Check, Some(find(&radio, "r2")));
        #[rustfmt::skip]
        run(vec![
            case("check", check("c1"), s.clone(), agreed.clone()).want(M, Some("Agree to the terms"), "checked false -> true"),
            case("other box", check("c1"), s.clone(), subscribed).want(X, Some("Newsletter"), "checkbox[Newsletter] in form[Checkout] changed instead of the target"),
            case("already checked", check("c1"), agreed.clone(), agreed.clone()).want(M, Some("Agree to the terms"), "already checked"),
            case("unchanged", check("c1"), s.clone(), s.clone()).want(X, None, "no effect"),
            case("uncheck", uncheck("c1"), agreed.clone(), s.clone()).want(M, Some("Agree to the terms"), "checked true -> false"),
            case("uncheck flipped the wrong way", uncheck("c1"), s.clone(), agreed.clone()).want(X, Some("Agree to the terms"), "was to be unchecked"),
            case("mixed is not checked", check("c1"), s.clone(), set(&s, "c1", Tristate::Mixed)).want(X, Some("Agree to the terms"), "mixed"),
            case("radio group", pick, radio.clone(), express).want(M, Some("Express"), ""),
            case("toggle button", check("t1"), s.clone(), { let mut a = s.clone(); edit(&mut a, "t1", |e| e.pressed = Some(Tristate::True)); a }).want(M, Some("Bold"), "pressed false -> true"),
        ]);
    }

    #[test]
    fn select() {
        let s = shop();
        let select = |t: &str, option: &str| Action {
            option: Some(option.into()),
            ..act(ActionKind::Select, Some(find(&s, t)))
        };
        let shipping = |v: &str| {
            let mut a = s.clone();
            edit(&mut a, "s1", |e| e.value = Some(v.into()));
            a
        };
        let wrap = |on: &str| {
            let mut a = s.clone();
            edit(&mut a, "o1", |e| e.selected = Some(false));
            edit(&mut a, on, |e| e.selected = Some(true));
            a
        };
        #[rustfmt::skip]
        run(vec![
            case("combobox", select("s1", "Express"), s.clone(), shipping("Express")).want(M, Some("Shipping"), "value 'Standard' -> 'Express'"),
            case("combobox, case-insensitive", select("s1", "express "), s.clone(), shipping("Express")).want(M, Some("Shipping"), ""),
            case("combobox, other option", select("s1", "Express"), s.clone(), shipping("Pickup")).want(X, Some("Shipping"), "another option"),
            case("listbox option", select("lb", "Paper"), s.clone(), wrap("o2")).want(M, Some("Gift wrap"), "option[Paper]"),
            case("listbox, wrong option", select("lb", "Paper"), s.clone(), wrap("o3")).want(X, Some("Box"), "option[Box] in form[Checkout] was selected"),
            case("already selected", select("s1", "Standard"), s.clone(), s.clone()).want(M, Some("Shipping"), "already"),
            case("already selected option", select("lb", "None"), s.clone(), s.clone()).want(M, Some("Gift wrap"), "already"),
            case("nothing", select("s1", "Express"), s.clone(), s.clone()).want(X, None, "no effect"),
        ]);
    }

    #[test]
    fn hover() {
        let s = shop();
        let hover = |t: &str| act(ActionKind::Hover, Some(find(&s, t)));
        let with = |f: &dyn Fn(&mut Snapshot)| {
            let mut a = s.clone();
            f(&mut a);
            a
        };
        let expanded = with(&|a| edit(a, "m1", |e| e.expanded = Some(true)));
        let tooltip = with(&|a| {
            a.elements
                .push(el("tt", Role::Tooltip, "View cart (2 items)", "banner"))
        });
        let menu = with(&|a| {
            a.elements
                .push(el("i1", Role::Menuitem, "Profile", "banner"));
            a.elements
                .push(el("i2", Role::Menuitem, "Sign out", "banner"));
        });
        let shown = with(&|a| {
            a.elements.push(Element {
                visible: false,
                ..el("i1", Role::Menuitem, "Profile", "banner")
            });
        });
        let mut visible = shown.clone();
        edit(&mut visible, "i1", |e| e.visible = true);
        let gone = with(&|a| remove(a, "w2"));
        #[rustfmt::skip]
        run(vec![
            case("expands", hover("m1"), s.clone(), expanded).want(M, Some("Account"), "expanded false -> true"),
            case("tooltip carries the name", hover("v1"), s.clone(), tooltip).want(M, Some("View cart"), "tooltip"),
            case("menu, no intent", hover("m1"), s.clone(), menu.clone()).want(A, None, "declare an intent"),
            case("menu, intent", hover("m1"), s.clone(), menu).intent("the profile menu shows").want(M, Some("Account"), "menuitem[Profile]"),
            case("shown, intent", hover("m1"), shown, visible).intent("Profile appears").want(M, Some("Account"), "visible false -> true"),
            case("only a disappearance", hover("m1"), s.clone(), gone).want(A, None, "nothing appeared"),
            case("nothing", hover("m1"), s.clone(), s.clone()).want(X, None, "no effect"),
        ]);
    }

    #[test]
    fn drag_press_upload_goto() {
        let s = shop();
        let moved = |r: &str| {
            let mut a = s.clone();
            edit(&mut a, r, |e| e.region = "board/list:done".into());
            a
        };
        let drag = act(ActionKind::Drag, Some(find(&s, "w1")));
        let mut uploaded = s.clone();
        edit(&mut uploaded, "u1", |e| {
            e.value = Some("invoice.pdf".into())
        });
        let mut searched = s.clone();
        searched.texts.push(text("3 results for shirt", "main"));
        let mut tabbed = s.clone();
        edit(&mut tabbed, "u1", |e| e.focused = true);
        let mut page = s.clone();
        page.elements.clear();
        page.elements
            .push(el("h1", Role::Heading, "Shirt M", "main"));
        let mut new_document = page.clone();
        new_document.context.epoch += 1;
        let mut focused = s.clone();
        edit(&mut focused, "f1", |e| e.focused = true);
        let mut focused_button = s.clone();
        edit(&mut focused_button, "b1", |e| e.focused = true);
        #[rustfmt::skip]
        run(vec![
            case("drag moves the target", drag.clone(), s.clone(), moved("w1")).want(M, Some("Write tests"), "moved listitem[Write tests] from board/list:todo to board/list:done"),
            case("drag moved a neighbour", drag.clone(), s.clone(), moved("w2")).want(X, Some("Ship it"), "listitem[Ship it]"),
            case("drag, intent first", drag, s.clone(), moved("w2")).intent("Ship it is done").want(M, Some("Write tests"), "intent"),
            case("upload", act(ActionKind::Upload, Some(find(&s, "u1"))), s.clone(), uploaded).want(M, Some("Upload invoice"), "invoice.pdf"),
            case("press, no target, intent", act(ActionKind::Press, None), s.clone(), searched.clone()).intent("results for shirt are listed").want(M, None, "3 results"),
            case("press, no target, no intent", act(ActionKind::Press, None), s.clone(), searched.clone()).want(A, None, "no target"),
            case("press, nothing", act(ActionKind::Press, None), s.clone(), s.clone()).want(X, None, "no effect"),
            case("press moves focus", act(ActionKind::Press, None), s.clone(), tabbed).want(M, Some("Upload invoice"), "focus moved to"),
            case("goto, intent", act(ActionKind::Goto, None), s.clone(), page.clone()).intent("the Shirt M product page opens").want(M, None, "heading[Shirt M]"),
            case("goto, no intent", act(ActionKind::Goto, None), s.clone(), page.clone()).want(A, None, ""),
            case("goto, no intent, a new document", act(ActionKind::Goto, None), s.clone(), new_document.clone()).want(M, None, "a new document loaded (1 elements observed)"),
            case("goto, intent, a new document", act(ActionKind::Goto, None), s.clone(), new_document).intent("the Shirt M product page opens").want(M, None, "heading[Shirt M]"),
            case("click takes a field's focus", act(ActionKind::Click, Some(find(&s, "f1"))), s.clone(), focused.clone()).want(M, Some("Email"), "textbox[Email] in form[Checkout] took the focus"),
            case("click on a field, focus elsewhere", act(ActionKind::Click, Some(find(&s, "f1"))), s.clone(), s.clone()).want(X, None, "no effect"),
            case("click on a button that takes focus", act(ActionKind::Click, Some(find(&s, "b1"))), s.clone(), focused_button).want(X, None, "no effect"),
        ]);
    }

    #[test]
    fn watch() {
        let s = shop();
        let watch = act(ActionKind::Watch, None);
        // A Spanish page names its regions in Spanish (`data-ap-region="carrito"`).
        let added = |product: &str| {
            let mut a = s.clone();
            a.elements.push(item(
                "ci",
                &format!("{product} Quitar {product}"),
                "carrito",
            ));
            a.elements.push(el(
                "cr",
                Role::Button,
                &format!("Quitar {product}"),
                "carrito",
            ));
            a.texts.push(text("Carrito: 1 artículo", "carrito"));
            a
        };
        let shirt = added("Camiseta M");
        let trousers = added("Pantalón L");
        // A target on a watch is ignored: nobody acted on it.
        let targeted = Action {
            target: Some(find(&s, "b2").clone()),
            ..watch.clone()
        };
        #[rustfmt::skip]
        run(vec![
            case("intent met", watch.clone(), s.clone(), shirt.clone()).intent("el carrito suma una camiseta").want(M, None, "Camiseta M"),
            case("intent not met", watch.clone(), s.clone(), trousers.clone()).intent("el carrito suma una camiseta").want(X, None, "the intent explains none"),
            case("no intent", watch.clone(), s.clone(), shirt.clone()).want(A, None, "no intent was declared"),
            case("nothing, settled", watch.clone(), s.clone(), s.clone()).intent("el carrito suma una camiseta").want(X, None, "no effect"),
            case("nothing, busy", watch.clone(), s.clone(), s.clone()).unstable().want(A, None, ""),
            case("target ignored", targeted, s.clone(), trousers).intent("el carrito suma una camiseta").want(X, None, ""),
        ]);
    }

    /// A cart with three rows, Shirt M (`ci1`, `cr1`), Shirt L (`ci2`, `cr2`) and Hat S
    /// (`ci3`, `cr3`), and an "Add Mug" button in the catalogue.
    fn cart() -> Snapshot {
        let mut s = shop();
        add_to_cart(&mut s, "Shirt M", 1);
        add_to_cart(&mut s, "Shirt L", 2);
        add_to_cart(&mut s, "Hat S", 3);
        s.elements.push(el("b5", Role::Button, "Add Mug", PRODUCTS));
        s
    }

    fn without(s: &Snapshot, refs: &[&str]) -> Snapshot {
        let mut a = s.clone();
        a.elements.retain(|e| !refs.contains(&e.reference.as_str()));
        a
    }

    fn with_line(s: &Snapshot, product: &str, n: usize, region: &str) -> Snapshot {
        let mut a = s.clone();
        a.elements.push(item(
            &format!("x{n}"),
            &format!("{product} Remove {product}"),
            region,
        ));
        a.elements.push(el(
            &format!("xr{n}"),
            Role::Button,
            &format!("Remove {product}"),
            region,
        ));
        a
    }

    #[test]
    fn object_claims() {
        let s = cart();
        let remove = act(ActionKind::Click, Some(find(&s, "cr1")));
        let watch = act(ActionKind::Watch, None);
        let m_gone = without(&s, &["ci1", "cr1"]);
        let l_gone = without(&s, &["ci2", "cr2"]);
        let hat_gone = without(&s, &["ci3", "cr3"]);
        let removed = "Shirt M is removed from the cart";
        #[rustfmt::skip]
        run(vec![
            // The target's name is an object too.
            case("name: supported", remove.clone(), s.clone(), m_gone.clone()).want(M, Some("Remove Shirt M"), "Shirt M"),
            case("name: variant contradicts", remove.clone(), s.clone(), l_gone.clone()).want(X, Some("Shirt L Remove Shirt L"), "a variant of the target's name 'Remove Shirt M'"),
            case("name: absent", remove.clone(), s.clone(), hat_gone.clone()).want(A, None, "no element's name explains"),
            case("name: the variant went too", remove.clone(), s.clone(), without(&s, &["ci1", "cr1", "ci2", "cr2"])).want(X, Some("Shirt L Remove Shirt L"), "also on a variant of it"),
            // A declared intent.
            case("intent: supported", remove.clone(), s.clone(), m_gone.clone()).intent(removed).want(M, Some("Remove Shirt M"), "the intent holds"),
            case("intent: variant contradicts", remove.clone(), s.clone(), l_gone.clone()).intent(removed).want(X, Some("Shirt L Remove Shirt L"), "Shirt L"),
            case("intent: absent", remove.clone(), s.clone(), hat_gone.clone()).intent(removed).want(X, None, "no effect supports it and it is still shown: listitem[Shirt M Remove Shirt M]"),
            case("watch: supported", watch.clone(), s.clone(), m_gone).intent(removed).want(M, None, "listitem[Shirt M Remove Shirt M]"),
            case("watch: variant contradicts", watch.clone(), s.clone(), l_gone).intent(removed).want(X, Some("Shirt L Remove Shirt L"), "a variant of what the intent names"),
            case("watch: absent", watch, s.clone(), hat_gone).intent(removed).want(X, None, "no effect supports it and it is still shown"),
        ]);
    }

    /// A task list: a form with a textbox and "Add task", three rows, a status line and a
    /// counter.
    fn todo() -> Snapshot {
        let mut s = Snapshot::default();
        let form = "main/form[New task]";
        s.elements.push(Element {
            value: Some("Order labels".into()),
            ..el("n1", Role::Textbox, "New task", form)
        });
        s.elements.push(el("n2", Role::Button, "Add task", form));
        for (i, t) in ["Write invoice", "Call supplier", "Pack order"]
            .iter()
            .enumerate()
        {
            s.elements
                .push(item(&format!("r{i}"), t, "main/list[Tasks]"));
            s.elements.push(el(
                &format!("e{i}"),
                Role::Button,
                &format!("Edit {t}"),
                "main/list[Tasks]",
            ));
            s.elements.push(el(
                &format!("x{i}"),
                Role::Button,
                &format!("Remove {t}"),
                "main/list[Tasks]",
            ));
        }
        s.texts.push(text("3 open", "main"));
        s
    }

    #[test]
    fn a_new_row_is_no_variant_of_the_button() {
        let s = todo();
        let add = act(ActionKind::Click, Some(find(&s, "n2")));
        let mut added = s.clone();
        edit(&mut added, "n1", |e| e.value = Some(String::new()));
        added
            .elements
            .push(item("r3", "Order labels", "main/list[Tasks]"));
        added.elements.push(el(
            "e3",
            Role::Button,
            "Edit Order labels",
            "main/list[Tasks]",
        ));
        added.elements.push(el(
            "x3",
            Role::Button,
            "Remove Order labels",
            "main/list[Tasks]",
        ));
        added.texts = vec![text("Added Order labels", "main"), text("4 open", "main")];
        let mut es = added.clone();
        es.texts[0] = text("Añadido Order labels", "main");
        #[rustfmt::skip]
        run(vec![
            case("add task, intent", add.clone(), s.clone(), added.clone()).intent("the task Order labels is added").want(M, Some("Add task"), "the intent"),
            case("add task, es", add.clone(), s.clone(), es).intent("la tarea Order labels se añade").want(M, Some("Add task"), "the intent"),
        ]);
    }

    #[test]
    fn a_replaced_message_is_no_neighbours_evidence() {
        let mut s = shop();
        add_to_cart(&mut s, "Shirt M", 1);
        s.texts.push(text("Added Shirt M", "main"));
        s.texts.push(text("Total: 19.90 €", "cart"));
        let hat = act(ActionKind::Click, Some(find(&s, "b3")));
        let mut after = s.clone();
        add_to_cart(&mut after, "Hat S", 2);
        after.texts = vec![
            text("10:00", "ticker"),
            text("Added Hat S", "main"),
            text("Total: 31.80 €", "cart"),
        ];
        let mut es = after.clone();
        es.texts[1] = text("Añadido Hat S", "main");
        let mut s_es = s.clone();
        s_es.texts[1] = text("Añadido Shirt M", "main");
        // The message names the neighbour and nothing names the target: still the neighbour's.
        let mut wrong = s.clone();
        add_to_cart(&mut wrong, "Trousers L", 2);
        wrong.texts = vec![
            text("10:00", "ticker"),
            text("Added Trousers L", "main"),
            text("Total: 19.90 €", "cart"),
        ];
        #[rustfmt::skip]
        run(vec![
            case("second add", hat.clone(), s.clone(), after.clone()).want(M, Some("Add Hat S"), "Hat S"),
            case("second add, intent", hat.clone(), s.clone(), after).intent("Hat S is added to the cart").want(M, Some("Add Hat S"), "the intent holds"),
            case("second add, es", hat.clone(), s_es, es).want(M, Some("Add Hat S"), "Hat S"),
            case("second add lands on a neighbour", hat, s.clone(), wrong).want(X, Some("Add Trousers L"), "Trousers L"),
        ]);
    }

    #[test]
    fn the_form_names_what_its_button_acts_on() {
        let form = "frame[1]/form[Payment]";
        let s = Snapshot {
            elements: vec![
                el("cc", Role::Textbox, "Card number", form),
                el("pay", Role::Button, "Pay", form),
            ],
            ..Default::default()
        };
        let pay = act(ActionKind::Click, Some(find(&s, "pay")));
        let mut charged = s.clone();
        charged.texts.push(text("Card charged", "frame[1]"));
        let mut paid = s.clone();
        paid.texts.push(text("Paid", "frame[1]"));
        let mut declined = s.clone();
        declined.texts.push(text("Payment declined", "frame[1]"));
        #[rustfmt::skip]
        run(vec![
            case("the card is charged", pay.clone(), s.clone(), charged).intent("the card is paid").want(M, Some("Pay"), "the intent explains"),
            case("paid is what pay did", pay.clone(), s.clone(), paid).intent("the card is paid").want(M, Some("Pay"), "carries the target's name"),
            case("declined", pay, s.clone(), declined).intent("the card is paid").want(X, Some("Pay"), "failure"),
        ]);
    }

    #[test]
    fn container_claims() {
        let s = cart();
        let add = act(ActionKind::Click, Some(find(&s, "b5")));
        let in_cart = with_line(&s, "Mug", 1, "main/list:cart");
        let in_wishlist = with_line(&s, "Mug", 1, "complementary[Wishlist]");
        let nowhere = with_line(&s, "Mug", 1, "main");
        let spanish = with_line(&s, "Mug", 1, "carrito");
        #[rustfmt::skip]
        run(vec![
            case("supported", add.clone(), s.clone(), in_cart.clone()).intent("the cart gains a mug").want(M, Some("Add Mug"), "the intent holds"),
            case("synonym, other language", add.clone(), s.clone(), spanish).intent("the basket gains a mug").want(M, Some("Add Mug"), ""),
            case("de: a verb of arriving", add.clone(), s.clone(), in_cart.clone()).intent("ein Mug kommt in den Warenkorb").want(M, Some("Add Mug"), "the intent holds"),
            case("de: arriving elsewhere", add.clone(), s.clone(), in_wishlist.clone()).intent("ein Mug kommt in den Warenkorb").want(X, Some("Add Mug"), "wishlist"),
            case("contradicted: the name alone would match", add.clone(), s.clone(), in_wishlist.clone()).want(M, Some("Add Mug"), "target's name"),
            case("contradicted", add.clone(), s.clone(), in_wishlist.clone()).intent("the cart gains a mug").want(X, Some("Add Mug"), "the intent names the cart, but the effect is in the wishlist"),
            case("contradicted, watched", act(ActionKind::Watch, None), s.clone(), in_wishlist).intent("el carrito suma una mug").want(X, None, "in the wishlist"),
            case("absent", add.clone(), s.clone(), nowhere).intent("the cart gains a mug").want(A, None, "no effect it explains is in one"),
            case("one clause of two shown", add.clone(), s.clone(), in_cart.clone()).intent("the cart gains a mug and a cap").want(A, None, "clause 2 of the intent is not shown"),
            case("both clauses shown", add.clone(), s.clone(), with_line(&in_cart, "Cap", 2, "main/list:cart")).intent("the cart gains a mug and a cap").want(M, Some("Add Mug"), "the intent holds"),
        ]);
    }

    #[test]
    fn count_claims() {
        let s = shop();
        let add = act(ActionKind::Click, Some(find(&s, "b1")));
        let one = with_line(&s, "Shirt M", 1, "cart");
        let two = with_line(&one, "Shirt M", 2, "cart");
        let mut shown = s.clone();
        shown.texts.push(text("Cart: 2 items", "banner"));
        let mut shown_one = s.clone();
        shown_one.texts.push(text("Cart: 1 item", "banner"));
        let mut carrito = s.clone();
        for n in [1, 2] {
            carrito
                .elements
                .push(item(&format!("k{n}"), "Camiseta M", "carrito"));
        }
        #[rustfmt::skip]
        run(vec![
            case("a: supported", add.clone(), s.clone(), one.clone()).intent("the cart gains a shirt").want(M, Some("Add Shirt M"), "the intent holds"),
            case("a: two identical rows contradict", add.clone(), s.clone(), two.clone()).intent("the cart gains a shirt").want(X, Some("Add Shirt M"), "the intent claims 1 ('a'), but 2 like effects"),
            case("exactly one: contradicted", add.clone(), s.clone(), two.clone()).intent("the cart gains exactly one shirt").want(X, Some("Add Shirt M"), "('one')"),
            case("two: supported", add.clone(), s.clone(), two.clone()).intent("the cart gains two shirts").want(M, Some("Add Shirt M"), ""),
            case("2: contradicted", add.clone(), s.clone(), one.clone()).intent("the cart gains 2 shirts").want(X, Some("Add Shirt M"), "but 1 like effects"),
            case("una: contradicted", act(ActionKind::Watch, None), s.clone(), carrito.clone()).intent("el carrito suma una camiseta").want(X, None, "('una')"),
            case("dos: supported", act(ActionKind::Watch, None), s.clone(), carrito).intent("el carrito suma dos camisetas").want(M, None, ""),
            case("zwei: contradicted", add.clone(), s.clone(), one.clone()).intent("der Warenkorb enthält zwei Shirts").want(X, Some("Add Shirt M"), "('zwei')"),
            case("a figure the page shows", act(ActionKind::Watch, None), s.clone(), shown).intent("the cart shows 2 items").want(M, None, "Cart: 2 items"),
            case("a figure the page shows, other number", act(ActionKind::Watch, None), s.clone(), shown_one).intent("the cart shows 2 items").want(X, None, "claims 2"),
            case("absent: nothing to count", add.clone(), s.clone(), { let mut a = s.clone(); a.texts.push(text("Thank you!", "main")); a }).intent("the cart gains a shirt").want(A, None, "nor does the intent"),
        ]);
    }

    #[test]
    fn polarity_claims() {
        let mut s = shop();
        s.elements.push(el("p1", Role::Button, "Book", "main"));
        let book = act(ActionKind::Click, Some(find(&s, "p1")));
        let said = |t: &str, kind: TextKind| {
            let mut a = s.clone();
            a.texts.push(Text {
                kind,
                ..text(t, "main")
            });
            a
        };
        let confirmed = "the booking is confirmed";
        let mut alert = s.clone();
        alert
            .elements
            .push(el("al", Role::Alert, "Zahlung fehlgeschlagen", "main"));
        #[rustfmt::skip]
        run(vec![
            case("supported", book.clone(), s.clone(), said("Booking confirmed", TextKind::Status)).intent(confirmed).want(M, Some("Book"), "the intent holds"),
            case("contradicted by an alert", book.clone(), s.clone(), said("Payment declined", TextKind::Alert)).intent(confirmed).want(X, Some("Book"), "a failure message appeared: appeared text 'Payment declined'"),
            case("contradicted by plain text", book.clone(), s.clone(), said("Booking failed", TextKind::Plain)).intent(confirmed).want(X, Some("Book"), "failure message"),
            case("contradicted, es", book.clone(), s.clone(), said("Pago rechazado", TextKind::Status)).intent("la reserva queda confirmada").want(X, Some("Book"), "Pago rechazado"),
            case("contradicted, fr", book.clone(), s.clone(), said("Le paiement a échoué", TextKind::Status)).intent("la réservation est confirmée").want(X, Some("Book"), "failure"),
            case("contradicted by an alert element, de", book.clone(), s.clone(), alert).intent("die Buchung ist bestätigt").want(X, Some("Book"), "alert[Zahlung fehlgeschlagen]"),
            case("an intent that expects the error", book.clone(), s.clone(), said("Booking failed", TextKind::Alert)).intent("an error says the booking failed").want(M, Some("Book"), ""),
            case("absent", book.clone(), s.clone(), said("Newsletter", TextKind::Status)).intent(confirmed).want(A, None, "nor does the intent"),
            case("no intent: the action was meant to succeed", book.clone(), s.clone(), said("Booking failed", TextKind::Status)).want(X, Some("Book"), "the page reports a failure: appeared text 'Booking failed'"),
            case("no intent, es", book.clone(), s.clone(), said("Reserva fallida", TextKind::Plain)).want(X, None, "the page reports a failure: appeared text 'Reserva fallida'"),
            case("no intent, a success message", book, s.clone(), said("Booking confirmed", TextKind::Status)).want(M, Some("Book"), "target's name"),
        ]);
    }

    #[test]
    fn dialog_buttons_own_their_dialog() {
        let before = dialog("Delete account?", "Delete", "Cancel");
        let mut closed = before.clone();
        for r in ["g0", "g1", "g2"] {
            edit(&mut closed, r, |e| e.visible = false);
        }
        let kept = "the dialog closes and the account is kept";
        let mut before = before;
        before
            .elements
            .push(item("ac", "Account ada@example.com", "main/list[Accounts]"));
        let closed = {
            let mut c = closed;
            c.elements
                .push(item("ac", "Account ada@example.com", "main/list[Accounts]"));
            c
        };
        let gone = without(&before, &["g0", "g1", "g2"]);
        let cancel = act(ActionKind::Click, Some(find(&before, "g2")));
        let mut deleted = without(&before, &["g0", "g1", "g2", "d1"]);
        deleted.texts.push(text("Account deleted", "main"));
        let row_gone = without(&before, &["g0", "g1", "g2", "ac"]);
        let mut still = without(&before, &["g0", "g1", "g2"]);
        still.texts.push(text("Account kept", "main"));
        let lang = |title: &str, confirm: &str, cancel: &str, done: &str| {
            let b = dialog(title, confirm, cancel);
            let mut d = without(&b, &["g0", "g1", "g2", "d1"]);
            d.texts.push(text(done, "main"));
            let c = without(&b, &["g0", "g1", "g2"]);
            (act(ActionKind::Click, Some(find(&b, "g2"))), b, d, c)
        };
        let (cancel_es, es, es_deleted, es_closed) = lang(
            "¿Eliminar pedido?",
            "Eliminar",
            "Cancelar",
            "Pedido 1042 eliminado",
        );
        let (cancel_de, de, de_deleted, de_closed) = lang(
            "Bestellung löschen?",
            "Löschen",
            "Abbrechen",
            "Bestellung 1042 gelöscht",
        );
        let (cancel_fr, fr, fr_deleted, _) = lang(
            "Supprimer la commande ?",
            "Supprimer",
            "Annuler",
            "Commande 1042 supprimée",
        );
        #[rustfmt::skip]
        run(vec![
            case("cancel hides the dialog", cancel.clone(), before.clone(), closed.clone()).intent(kept).want(M, Some("Cancel"), "dialog[Delete account?]"),
            case("cancel removes the dialog", cancel.clone(), before.clone(), gone).intent(kept).want(M, Some("Cancel"), ""),
            case("cancel without intent", cancel.clone(), before.clone(), closed.clone()).want(M, Some("Cancel"), "dismissing button closed it"),
            case("delete that only closes the dialog", act(ActionKind::Click, Some(find(&before, "d1"))), before.clone(), closed.clone()).want(A, None, ""),
            case("cancel, negated intent", cancel.clone(), before.clone(), closed.clone()).intent("the account is not deleted").want(M, Some("Cancel"), "nothing else was done"),
            case("cancel, the intent claims the removal", cancel.clone(), before.clone(), closed.clone()).intent("the account is deleted").want(X, None, ""),
            case("cancel that deletes", cancel.clone(), before.clone(), deleted.clone()).intent(kept).want(X, Some("Cancel"), "the intent says the account stays"),
            case("cancel that deletes, one clause", cancel.clone(), before.clone(), deleted).intent("the account is kept").want(X, Some("Cancel"), "Account deleted"),
            case("cancel that removes the account's row", cancel.clone(), before.clone(), row_gone).intent(kept).want(X, Some("Cancel"), "listitem[Account ada@example.com]"),
            case("cancel with a kept message", cancel.clone(), before.clone(), still).intent(kept).want(M, Some("Cancel"), ""),
            case("es: el pedido se mantiene", cancel_es.clone(), es.clone(), es_deleted).intent("el diálogo se cierra y el pedido se mantiene").want(X, Some("Cancelar"), "Pedido 1042 eliminado"),
            case("es: honest", cancel_es, es.clone(), es_closed).intent("el diálogo se cierra y el pedido se mantiene").want(M, Some("Cancelar"), ""),
            case("de: honest", cancel_de.clone(), de.clone(), de_closed.clone()).intent("der Dialog schließt sich und die Bestellung bleibt").want(M, Some("Abbrechen"), ""),
            case("de: honest, bleibt erhalten", cancel_de.clone(), de.clone(), de_closed).intent("der Dialog schließt sich und die Bestellung bleibt erhalten").want(M, Some("Abbrechen"), ""),
            case("de: die Bestellung bleibt", cancel_de, de, de_deleted).intent("der Dialog schließt sich und die Bestellung bleibt").want(X, Some("Abbrechen"), "Bestellung 1042 gelöscht"),
            case("fr: la commande est conservée", cancel_fr, fr, fr_deleted).intent("la commande est conservée").want(X, Some("Annuler"), "Commande 1042 supprimée"),
        ]);
    }

    #[test]
    fn formatted_values() {
        let s = shop();
        let fill = |value: &str| Action {
            value: Some(value.into()),
            ..act(ActionKind::Fill, Some(find(&s, "f1")))
        };
        let shows = |v: &str| {
            let mut a = s.clone();
            edit(&mut a, "f1", |e| e.value = Some(v.into()));
            a
        };
        #[rustfmt::skip]
        run(vec![
            case("phone", fill("5551234567"), s.clone(), shows("(555) 123-4567")).want(M, Some("Email"), "as the page formats it"),
            case("thousands", fill("1234567"), s.clone(), shows("1,234,567")).want(M, Some("Email"), "as the page formats it"),
            case("card", fill("4111111111111111"), s.clone(), shows("4111 1111 1111 1111")).want(M, Some("Email"), ""),
            case("already formatted", fill("5551234567"), shows("(555) 123-4567"), shows("(555) 123-4567")).want(M, Some("Email"), "already held"),
            case("truncated", fill("5551234567"), s.clone(), shows("(555) 123-456")).want(X, Some("Email"), "not to the requested one"),
            case("changed digit", fill("5551234567"), s.clone(), shows("(555) 123-4568")).want(X, Some("Email"), ""),
            case("dropped digit", fill("5551234567"), s.clone(), shows("(555) 123-457")).want(X, Some("Email"), ""),
            case("letters shown in capitals", fill("de89 3704"), s.clone(), shows("DE89 3704")).want(M, Some("Email"), "as the page formats it"),
            case("letters changed", fill("abc"), s.clone(), shows("ABD")).want(X, Some("Email"), ""),
            case("other characters added", fill("555"), s.clone(), shows("555x")).want(X, Some("Email"), ""),
        ]);
        // (typed, shown, formatted?)
        #[rustfmt::skip]
        let table = [
            ("5551234567", "(555) 123-4567", true), ("5551234567", "+5551234567", true),
            ("12345", "12.345", true), ("12345", "12\u{202f}345", true), ("0612", "06/12", true),
            ("", "()", false), ("123", "1234", false), ("123", "132", false), ("1-2", "12", false),
        ];
        for (typed, shown, want) in table {
            assert_eq!(is_formatted(typed, shown), want, "{typed} -> {shown}");
        }
    }

    #[test]
    fn what_keys_do() {
        let mut s = shop();
        edit(&mut s, "f1", |e| e.focused = true);
        let press = |key: &str| Action {
            key: Some(key.into()),
            ..act(ActionKind::Press, None)
        };
        let after = |f: &dyn Fn(&mut Snapshot)| {
            let mut a = s.clone();
            f(&mut a);
            a
        };
        let mut open = s.clone();
        edit(&mut open, "m1", |e| e.expanded = Some(true));
        open.elements
            .push(el("mn", Role::Menu, "Account", "banner"));
        let mut collapsed = open.clone();
        edit(&mut collapsed, "m1", |e| e.expanded = Some(false));
        remove(&mut collapsed, "mn");
        let mut with_dialog = s.clone();
        with_dialog
            .elements
            .push(el("g0", Role::Dialog, "Newsletter", ""));
        let submitted = after(&|a| a.texts.push(text("Order placed", FORM)));
        // A search box in its own landmark, focused and holding what was typed.
        let mut searched = s.clone();
        for e in searched.elements.iter_mut() {
            e.focused = false;
        }
        searched.elements.push(Element {
            focused: true,
            value: Some("shoes".into()),
            ..el("q1", Role::Searchbox, "Search", "search")
        });
        let press_in = |_: &Snapshot, key: &str| press(key);
        let mut results = searched.clone();
        results.texts.push(text("3 results for shoes", "main"));
        let mut other_results = searched.clone();
        other_results.texts.push(text("3 results", "main"));
        let declined = after(&|a| a.texts.push(text("Payment declined", FORM)));
        let elsewhere = after(&|a| a.texts.push(text("Order placed", "banner")));
        let picked = after(&|a| edit(a, "s1", |e| e.value = Some("Express".into())));
        let option = after(&|a| {
            edit(a, "o1", |e| e.selected = Some(false));
            edit(a, "o2", |e| e.selected = Some(true));
        });
        let tabbed = after(&|a| {
            edit(a, "f1", |e| e.focused = false);
            edit(a, "f2", |e| e.focused = true);
        });
        let back = after(&|a| {
            edit(a, "f1", |e| e.focused = false);
            edit(a, "t1", |e| e.focused = true);
        });
        #[rustfmt::skip]
        run(vec![
            case("Escape closes a menu", press("Escape"), open.clone(), collapsed.clone()).want(M, None, "Escape closed a popup: changed button[Account] in banner: expanded true -> false"),
            case("Escape closes a dialog", press("Escape"), with_dialog.clone(), s.clone()).want(M, None, "disappeared dialog[Newsletter]"),
            case("Escape, nothing closed", press("Escape"), s.clone(), submitted.clone()).want(A, None, "no target"),
            case("no key: no expectation", act(ActionKind::Press, None), open, collapsed).want(A, None, "no target"),
            case("Enter submits the focused form", press("Enter"), s.clone(), submitted.clone()).want(M, None, "Enter submitted form[Checkout]: appeared text 'Order placed'"),
            case("Enter submits a search whose results are elsewhere", press_in(&searched, "Enter"), searched.clone(), results.clone()).want(M, None, "Enter submitted what was typed in searchbox[Search] in search: appeared text '3 results for shoes' in main"),
            case("Enter, results without what was typed", press_in(&searched, "Enter"), searched.clone(), other_results.clone()).want(A, None, ""),
            case("Enter submits, form goes away", press("Enter"), s.clone(), after(&|a| a.elements.retain(|e| e.region != FORM))).want(M, None, "Enter submitted form[Checkout]"),
            case("Enter, but the form says it failed", press("Enter"), s.clone(), declined).want(A, None, "a failure message appeared"),
            case("Enter, effect outside the form", press("Enter"), s.clone(), elsewhere).want(A, None, "no target"),
            case("Enter picks the combo box's option", press("Enter"), s.clone(), picked).want(M, None, "Enter picked the active option: changed combobox[Shipping]"),
            case("Enter picks a listbox option", press("Enter"), s.clone(), option).want(M, None, "Enter picked the active option"),
            case("Enter, intent decides", press("Enter"), s.clone(), submitted).intent("the order is placed").want(M, None, "the intent explains the effect"),
            case("Tab moves focus", press("Tab"), s.clone(), tabbed.clone()).want(M, Some("Name"), "Tab: focus moved to textbox[Name]"),
            case("Shift+Tab moves focus", press("Shift+Tab"), s.clone(), back).want(M, Some("Bold"), "Shift+Tab: focus moved"),
            case("Tab, nothing", press("Tab"), s.clone(), s.clone()).want(X, None, "no effect"),
        ]);
    }

    #[test]
    fn drag_order() {
        let list = "board/list:todo";
        let mut s = shop();
        s.elements.push(item("w3", "Fix bug", list));
        let order = |refs: &[&str]| {
            let mut a = s.clone();
            let moved: Vec<Element> = refs.iter().map(|r| find(&s, r).clone()).collect();
            a.elements.retain(|e| e.region != list);
            a.elements.extend(moved);
            a
        };
        let first = order(&["w3", "w1", "w2"]);
        let same = order(&["w1", "w2", "w3"]);
        let drag = |r: &str| act(ActionKind::Drag, Some(find(&s, r)));
        #[rustfmt::skip]
        run(vec![
            case("moved to the top", drag("w3"), s.clone(), first.clone()).want(M, Some("Fix bug"), "moved listitem[Fix bug] from position 3 to 1 in board/list:todo"),
            case("pushed down by the move", drag("w1"), s.clone(), first.clone()).want(M, Some("Write tests"), "from position 1 to 2"),
            case("not moved", drag("w3"), s.clone(), same.clone()).want(X, None, "no effect"),
            case("intent says so", drag("w3"), s.clone(), first.clone()).intent("Fix bug goes first").want(M, Some("Fix bug"), "as the intent says"),
            case("intent says otherwise", drag("w3"), s.clone(), first.clone()).intent("the invoice is uploaded").want(A, None, "the intent does not explain it"),
            case("a click's reorder is no change", act(ActionKind::Click, Some(find(&s, "w3"))), s.clone(), first).want(X, None, "no effect"),
        ]);
    }

    #[test]
    fn busy_pages_never_match() {
        let s = shop();
        let click = act(ActionKind::Click, Some(find(&s, "b1")));
        let mut honest = s.clone();
        add_to_cart(&mut honest, "Shirt M", 1);
        let mut spinning = honest.clone();
        spinning
            .elements
            .push(el("sp", Role::Progressbar, "Loading", "cart"));
        let mut marked = honest.clone();
        edit(&mut marked, "ci1", |e| e.busy = true);
        let mut quiet_spinner = s.clone();
        quiet_spinner
            .elements
            .push(el("sp", Role::Progressbar, "Loading", "cart"));
        let mut recycled = quiet_spinner.clone();
        add_to_cart(&mut recycled, "Trousers L", 1);
        let mut ticker_spins = honest.clone();
        ticker_spins
            .elements
            .push(el("sp", Role::Progressbar, "Refreshing", "ticker"));
        let mut polling = Background::default();
        polling.observe(&s, &{
            let mut a = s.clone();
            a.elements
                .push(el("sp", Role::Progressbar, "Refreshing", "ticker"));
            a
        });
        #[rustfmt::skip]
        run(vec![
            case("settled", click.clone(), s.clone(), honest).want(M, Some("Add Shirt M"), ""),
            case("a spinner appeared", click.clone(), s.clone(), spinning).want(A, None, "the page is still busy: progressbar[Loading] in cart is showing"),
            case("aria-busy", click.clone(), s.clone(), marked).want(A, None, "marked aria-busy"),
            case("busy, no effect yet", click.clone(), s.clone(), quiet_spinner).want(A, None, "still busy"),
            case("busy, the diff proves a neighbour", click.clone(), s.clone(), recycled).want(X, Some("Add Trousers L"), "Trousers L"),
            case("a spinner in another region", click.clone(), s.clone(), ticker_spins.clone()).want(A, None, "progressbar[Refreshing] in ticker"),
            case("a spinner in an ignored region", click.clone(), s.clone(), ticker_spins.clone()).ignoring("ticker").want(M, Some("Add Shirt M"), ""),
            Case { opts: JudgeOptions { background: polling, ..JudgeOptions::default() }, ..case("a spinner that polls by itself", click.clone(), s.clone(), ticker_spins) }.want(M, Some("Add Shirt M"), ""),
        ]);
        // A toast that says the draft is saved, beside words that once counted as busy.
        let mut d = s.clone();
        d.elements
            .push(el("sd", Role::Button, "Save draft", "main"));
        d.texts.push(text("Drafts saved: 0", "main"));
        d.texts.push(text("Loading…", "contentinfo"));
        let save = act(ActionKind::Click, Some(find(&d, "sd")));
        let toast = |msg: &str, n: u32| {
            let mut a = d.clone();
            a.texts.retain(|t| !t.text.starts_with("Drafts saved"));
            a.texts.push(text(&format!("Drafts saved: {n}"), "main"));
            a.texts.push(text(msg, "region[Notifications]"));
            a
        };
        let mut ticking = Background::default();
        ticking.observe(&d, &{
            let mut a = d.clone();
            a.texts.retain(|t| t.region != "contentinfo");
            a.texts.push(text("Updated 10:01", "contentinfo"));
            a
        });
        let mut footer_loads = toast("Draft saved", 1);
        footer_loads.texts.retain(|t| t.region != "contentinfo");
        footer_loads.texts.push(text("Loading…", "contentinfo"));
        #[rustfmt::skip]
        run(vec![
            case("a toast that trails off", save.clone(), d.clone(), toast("Saving draft…", 0)).intent("the draft is saved").want(A, None, "text 'Saving draft…' in region[Notifications] trails off"),
            // Words are content, never a busy signal: an accordion's "2 working days".
            case("content that says working", save.clone(), d.clone(), toast("Orders ship within 2 working days. Draft saved", 1)).intent("the draft is saved").want(M, Some("Save draft"), ""),
            case("saved toast, the footer still loading as before", save.clone(), d.clone(), toast("Draft saved", 1)).intent("the draft is saved").want(M, Some("Save draft"), ""),
            Case { opts: JudgeOptions { background: ticking, ..JudgeOptions::default() }, ..case("a footer loader in a background slot", save, d.clone(), footer_loads) }.intent("the draft is saved").want(M, Some("Save draft"), ""),
        ]);
    }

    #[test]
    fn background_is_no_evidence() {
        let s = shop();
        let click = act(ActionKind::Click, Some(find(&s, "b1")));
        let tick = |a: &mut Snapshot| a.texts[0].text = "10:01".into();
        let mut ticked = s.clone();
        tick(&mut ticked);
        let mut honest = s.clone();
        add_to_cart(&mut honest, "Shirt M", 1);
        tick(&mut honest);
        let mut confirmed = s.clone();
        confirmed.texts.push(text("Shirt M added", "main"));
        confirmed.texts[0].text = "Connection error".into();
        let mut clock = Background::default();
        clock.observe(&s, &ticked);
        // The same place seen showing headlines, not only the time: a ticker.
        let mut headline = s.clone();
        headline.texts[0].text = "Markets up".into();
        let mut ticker = clock.clone();
        ticker.observe(&ticked, &headline);
        let in_ticker = |c: Case| Case {
            opts: JudgeOptions {
                background: ticker.clone(),
                ..c.opts.clone()
            },
            ..c
        };
        let in_background = |c: Case| Case {
            opts: JudgeOptions {
                background: clock.clone(),
                ..c.opts.clone()
            },
            ..c
        };
        #[rustfmt::skip]
        run(vec![
            case("honest add while the clock ticks", click.clone(), s.clone(), honest.clone()).intent("the cart gains a shirt").want(M, Some("Add Shirt M"), "the intent holds"),
            in_background(case("honest add while the clock ticks, in background", click.clone(), s.clone(), honest).intent("the cart gains a shirt")).want(M, Some("Add Shirt M"), "the intent holds"),
            case("only the clock, not known", click.clone(), s.clone(), ticked.clone()).want(A, None, "no element's name explains"),
            in_background(case("only the clock", click.clone(), s.clone(), ticked.clone())).want(A, None, "no effect yet"),
            case("watch: only the clock, not known", act(ActionKind::Watch, None), s.clone(), ticked.clone()).intent("the cart gains a shirt").want(X, None, "explains none"),
            in_background(case("watch: only the clock", act(ActionKind::Watch, None), s.clone(), ticked)).intent("the cart gains a shirt").want(A, None, "no effect yet"),
            case("a failure word in the ticker, not known", click.clone(), s.clone(), confirmed.clone()).intent("Shirt M is added").want(X, Some("Add Shirt M"), "failure message"),
            in_ticker(case("a failure word where headlines were turning", click.clone(), s.clone(), confirmed.clone())).intent("Shirt M is added").want(X, Some("Add Shirt M"), "failure message"),
            in_ticker(case("a headline seen before", click.clone(), s.clone(), { let mut a = confirmed.clone(); a.texts[0].text = "Markets up".into(); a })).intent("Shirt M is added").want(M, Some("Add Shirt M"), "the intent holds"),
            in_background(case("a failure where only the time was changing", click, s.clone(), confirmed)).intent("Shirt M is added").want(X, Some("Add Shirt M"), "failure message"),
        ]);
        // The verdict still reports the whole diff.
        let mut honest = s.clone();
        add_to_cart(&mut honest, "Shirt M", 1);
        tick(&mut honest);
        let v = judge(
            &Action {
                intent: Some("the cart gains a shirt".into()),
                ..act(ActionKind::Click, Some(find(&s, "b1")))
            },
            &s,
            &honest,
            &JudgeOptions {
                background: clock,
                ..JudgeOptions::default()
            },
        )
        .unwrap();
        assert!(
            v.diff.lines.iter().any(|l| l.contains("10:01")),
            "{:?}",
            v.diff.lines
        );
    }

    #[test]
    fn targets_are_required_where_aimed() {
        let s = shop();
        for kind in [
            ActionKind::Click,
            ActionKind::Fill,
            ActionKind::Check,
            ActionKind::Select,
            ActionKind::Hover,
            ActionKind::Drag,
        ] {
            let err = judge(&act(kind, None), &s, &s, &JudgeOptions::default()).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidAction, "{kind:?}");
            assert!(err.message.contains(kind.as_str()), "{}", err.message);
        }
    }

    #[test]
    fn wire_shapes() {
        let s = shop();
        let action: Action = serde_json::from_value(serde_json::json!({
            "kind": "fill", "target": serde_json::to_value(find(&s, "f3")).unwrap(),
            "valueHash": "h-typed", "intent": "the password is typed"
        }))
        .unwrap();
        assert_eq!(action.kind, ActionKind::Fill);
        assert!(
            serde_json::from_str::<Action>(r#"{"kind":"click","target":null,"force":true}"#)
                .is_err()
        );
        assert!(serde_json::from_str::<Action>(r#"{"kind":"Click"}"#).is_err());
        assert!(serde_json::from_str::<Action>(r#"{"kind":"watch"}"#).is_ok());
        assert_eq!(
            serde_json::from_str::<JudgeOptions>("{}").unwrap(),
            JudgeOptions::default()
        );
        assert!(JudgeOptions::default().stable);
        let opts: JudgeOptions =
            serde_json::from_str(r#"{"stable":false,"ignoreRegions":["ticker"]}"#).unwrap();
        assert!(!opts.stable && opts.ignore_regions == ["ticker"]);
        assert!(serde_json::from_str::<JudgeOptions>(r#"{"stable":1}"#).is_err());
        assert!(serde_json::from_str::<JudgeOptions>(r#"{"unstable":true}"#).is_err());
        let v = judge(&action, &s, &s, &opts).unwrap();
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(json["verdict"], "AMBIGUOUS");
        assert!(json["attributedTo"].is_null());
        assert_eq!(json["diff"]["empty"], true);
        let mut after = s.clone();
        add_to_cart(&mut after, "Trousers L", 1);
        let v = judge(
            &act(ActionKind::Click, Some(find(&s, "b1"))),
            &s,
            &after,
            &JudgeOptions::default(),
        )
        .unwrap();
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(json["verdict"], "MISMATCH");
        assert_eq!(
            json["attributedTo"],
            serde_json::json!({ "role": "button", "name": "Add Trousers L", "region": PRODUCTS })
        );
        assert_eq!(serde_json::from_value::<Verdict>(json).unwrap(), v);
    }
}
