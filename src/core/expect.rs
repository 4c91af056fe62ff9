//! Typed expectations: what a step promises its own effect will be, checked deterministically
//! against the diff and the snapshot after the action.
//!
//! A step's `expect` is a list of [`Claim`]s. Each is checked on its own ([`Claim::check`])
//! and ends in one of three states:
//! - **held**: the diff (or the page after the action) shows what was claimed;
//! - **broken**: the opposite happened (`changes checked to true` and it became false, a
//!   `stays` target changed, a count is off, a new document at another address);
//! - **absent**: nothing about it, either way (the element that was to appear did not).
//!
//! [`combine`] folds the outcomes into the judge's verdict. The expectation only narrows:
//! - a broken claim is MISMATCH, whatever the judge said;
//! - an absent claim is MISMATCH on a settled page (a typed expectation is a promise the
//!   page did not keep) and AMBIGUOUS on a page that was still changing or still said it was
//!   working (the effect may be yet to come), unless the judge already said MISMATCH;
//! - every claim held: the judge's MATCH stays MATCH and its MISMATCH stays MISMATCH (both
//!   named); its AMBIGUOUS on a settled page becomes MATCH, since the caller said exactly
//!   what the effect is and all of it is there. On a page still changing it stays AMBIGUOUS.
//!
//! What each claim reads:
//! - `appears`: an element matching the target in the diff's appearances, one that turned
//!   visible, or one that moved into the target's `region`. Broken when one disappeared or
//!   was hidden and none appeared.
//! - `disappears`: the mirror image (gone, hidden, or moved out of the target's `region`).
//! - `changes`: the field of a matching element changed (`focused`, which the diff does not
//!   compare, is read from the snapshots before and after); `from` and `to`, when given, must
//!   be its values before and after. A `visible` claim also holds when the element appeared
//!   (`to: true`) or went (`to: false`). A sensitive field's value is never read, so a
//!   `value` claim on it with `from` or `to` has no evidence.
//! - `moves`: a matching element in the diff's moves (another region), or one that kept its
//!   region and changed its position there (a reorder, which the multiset diff does not
//!   show). `to.region` is a region prefix (`cart` matches `cart/list:items`), `to.list` a
//!   list's id or label (`list:<list>` in the region); `position` counts from 1 among the
//!   visible elements of the same role and region after the action, in document order.
//! - `stays`: a matching element is on the page after the action, and no entry of the diff
//!   is about an element matching the target. Focus is not a change (a click focuses).
//! - `navigates`: the address of the new document the action loaded. A pattern with `*` is a
//!   glob over the whole address (`*` matches any run of characters, `/` included); without
//!   `*` it is a substring. A page that did not load a new document (a history change of a
//!   single-page app included) has no evidence: claim what it shows instead.
//! - `count`: the visible elements matching the target after the action; a number off is
//!   broken (never absent), and a cut-short observation (`hasMore`) is no evidence.
//! - `text`: a text run in the diff's appeared texts that contains the text (`exact`: equals
//!   it), after whitespace normalisation and lowercasing; `region` is a region prefix.
//!   Broken when such a text disappeared and none appeared.
//!
//! Targets match the way `resolve` matches them (role, label, then the narrowing fields when
//! given), except that visibility is not required: a `disappears` target is hidden after.
//!
//! Trade-off: a claim is about one element, one text or one address, and it is read from
//! the diff, so what the diff does not compare (the order of a list, focus) is read from the
//! snapshots where it can be. Effects the caller did not claim never break a claim, except
//! that a `stays` claim turns any change of its element into a broken promise.

use super::diff::{region_matches, Diff, Field};
use super::error::{Error, ErrorCode, Result};
use super::identity::{describe_element, describe_parts, Identity};
use super::judge::{Verdict, VerdictKind};
use super::model::{Element, Snapshot, Text};
use super::resolve::{Query, Target};
use super::text::{cap, normalize_key};
use serde::{Deserialize, Serialize};

/// At most this many claims on one step.
pub const MAX_CLAIMS: usize = 64;

/// Longest `url` pattern or `text` of a claim, in characters.
pub const MAX_CLAIM_TEXT: usize = 2_000;

/// One typed claim about a step's own effect. Tagged by `kind` on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Claim {
    Appears(Appears),
    Disappears(Disappears),
    Changes(Changes),
    Moves(Moves),
    Stays(Stays),
    Navigates(Navigates),
    Count(Count),
    Text(TextClaim),
}

/// An element matching `target` appeared (or became visible).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Appears {
    pub target: Target,
}

/// An element matching `target` is gone or hidden.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Disappears {
    pub target: Target,
}

/// A field of the element changed, from and to the values given (each optional).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Changes {
    pub target: Target,
    pub field: ChangeField,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<State>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<State>,
}

/// The fields a `changes` claim may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ChangeField {
    Checked,
    Pressed,
    Selected,
    Expanded,
    Value,
    Disabled,
    Visible,
    Focused,
}

/// A claimed value: `true`/`false`, `"mixed"` for `checked` and `pressed`, a string for
/// `value`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum State {
    Bool(bool),
    Text(String),
}

/// The element moved: to another list or region, or to a position in its list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Moves {
    pub target: Target,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Place>,
    /// From 1, among the visible elements of its role in its region, after the action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u32>,
}

/// Where a move ends: a list (its id or label) or a region (a prefix), or both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Place {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
}

/// The element must not change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Stays {
    pub target: Target,
}

/// The action loaded a new document at an address matching `url` (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Navigates {
    pub url: String,
}

/// After the action, exactly `n` visible elements match `target`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Count {
    pub target: Target,
    pub n: u32,
}

/// A text run appeared (containing `text`, or equal to it with `exact`), in `region` when
/// given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextClaim {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
}

/// How a claim came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Held,
    Broken,
    Absent,
}

impl Status {
    /// The word the record's line uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Held => "held",
            Status::Broken => "broken",
            Status::Absent => "no evidence",
        }
    }
}

/// One claim and what satisfied or broke it, as the record shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// The claim as written: `appears listitem[Shirt M] in cart`.
    pub claim: String,
    pub status: Status,
    /// What the page showed: `appeared listitem[Shirt M] in cart`.
    pub evidence: String,
}

impl Outcome {
    fn new(claim: &Claim, status: Status, evidence: impl Into<String>) -> Outcome {
        Outcome {
            claim: claim.describe(),
            status,
            evidence: evidence.into(),
        }
    }

    /// `expected: appears listitem[Shirt M] in cart — held: appeared listitem[Shirt M] in cart`.
    pub fn line(&self) -> String {
        format!(
            "expected: {} — {}: {}",
            self.claim,
            self.status.as_str(),
            self.evidence
        )
    }
}

/// Checks a step's claims before anything is sent: every target valid, values of their
/// field's type, at most [`MAX_CLAIMS`]. Errors are `INVALID_EXPECT`, naming the claim.
pub fn validate(claims: &[Claim]) -> Result<()> {
    if claims.len() > MAX_CLAIMS {
        return Err(invalid(format!(
            "expect holds {} claims; at most {MAX_CLAIMS} are read, split the step",
            claims.len()
        )));
    }
    for (i, c) in claims.iter().enumerate() {
        c.validate()
            .map_err(|e| invalid(format!("expect[{i}] ({}): {}", c.kind(), e.message)))?;
    }
    Ok(())
}

/// Reads a step's `expect` from untrusted JSON, as the machine module and the drivers hand it
/// over: `INVALID_EXPECT` for a wrong shape, then [`validate`].
pub fn from_value(value: &serde_json::Value) -> Result<Vec<Claim>> {
    let claims: Vec<Claim> =
        serde_json::from_value(value.clone()).map_err(|e| invalid(format!("expect: {e}")))?;
    validate(&claims)?;
    Ok(claims)
}

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidExpect, message)
}

/// Folds the claims' outcomes into the judge's verdict (see the module docs). `settled`: the
/// page settled before and after the action and said nothing of still working. No outcomes:
/// the verdict as it was.
pub fn combine(verdict: Verdict, outcomes: &[Outcome], settled: bool) -> Verdict {
    if outcomes.is_empty() {
        return verdict;
    }
    let lines = |s: Status| {
        outcomes
            .iter()
            .filter(|o| o.status == s)
            .map(Outcome::line)
            .collect::<Vec<_>>()
    };
    let (broken, absent, held) = (
        lines(Status::Broken),
        lines(Status::Absent),
        lines(Status::Held),
    );
    let judge = |v: &Verdict| format!("the judge: {} — {}", v.verdict.as_str(), v.reason);
    let (kind, reason) = if !broken.is_empty() || (!absent.is_empty() && settled) {
        let mut failed = broken;
        failed.extend(absent);
        let mut reason = failed.join("; ");
        if verdict.verdict == VerdictKind::Mismatch {
            reason = format!("{reason}; and {}", judge(&verdict));
        }
        (VerdictKind::Mismatch, reason)
    } else if !absent.is_empty() {
        let kind = match verdict.verdict {
            VerdictKind::Mismatch => VerdictKind::Mismatch,
            _ => VerdictKind::Ambiguous,
        };
        (
            kind,
            format!(
                "{}; the page was still changing, so what was expected may be yet to come; {}",
                absent.join("; "),
                judge(&verdict)
            ),
        )
    } else {
        let held = held.join("; ");
        match verdict.verdict {
            VerdictKind::Match => (VerdictKind::Match, format!("{}; {held}", verdict.reason)),
            VerdictKind::Mismatch => (
                VerdictKind::Mismatch,
                format!(
                    "{}; though every expected claim held: {held}",
                    judge(&verdict)
                ),
            ),
            VerdictKind::Ambiguous if settled => (
                VerdictKind::Match,
                format!(
                    "every expected claim held: {held} ({} alone)",
                    judge(&verdict)
                ),
            ),
            VerdictKind::Ambiguous => (
                VerdictKind::Ambiguous,
                format!(
                    "{}; every expected claim held so far: {held}",
                    verdict.reason
                ),
            ),
        }
    };
    let attributed_to = match kind {
        VerdictKind::Match if verdict.verdict != VerdictKind::Match => None,
        _ => verdict.attributed_to,
    };
    Verdict {
        verdict: kind,
        reason,
        attributed_to,
        diff: verdict.diff,
    }
}

/// A target, parsed once for matching: `resolve`'s own rule, without its visibility
/// condition.
type Matcher<'t> = Query<'t>;

/// The element of `snapshot` that is `e` (same ref and identity, else same identity,
/// visible first).
fn counterpart<'s>(snapshot: &'s Snapshot, e: &Element) -> Option<&'s Element> {
    let me = Identity::of(e);
    let same = |x: &&Element| Identity::of(x) == me;
    let mut all = snapshot.elements.iter().filter(same);
    all.clone()
        .find(|x| x.reference == e.reference)
        .or_else(|| all.clone().find(|x| x.visible))
        .or_else(|| all.next())
}

/// From 1, among the visible elements of `e`'s role and region, in document order.
fn position(snapshot: &Snapshot, e: &Element) -> Option<u32> {
    snapshot
        .elements
        .iter()
        .filter(|x| x.visible && x.role == e.role && x.region == e.region)
        .position(|x| x.reference == e.reference)
        .map(|i| i as u32 + 1)
}

fn region_name(region: &str) -> &str {
    if region.is_empty() {
        "document"
    } else {
        region
    }
}

/// The list a region ends in (`done` for `board/list:done`), if any.
fn list_of(region: &str) -> Option<&str> {
    region.rsplit('/').next()?.strip_prefix("list:")
}

impl Place {
    fn holds(&self, region: &str) -> bool {
        let key = normalize_key(region);
        self.region
            .as_deref()
            .is_none_or(|r| region_matches(&key, &normalize_key(r)))
            && self
                .list
                .as_deref()
                .is_none_or(|l| list_of(&key).is_some_and(|have| have == normalize_key(l)))
    }

    fn describe(&self) -> String {
        match (&self.list, &self.region) {
            (Some(l), Some(r)) => format!("list:{l} in {r}"),
            (Some(l), None) => format!("list:{l}"),
            (None, Some(r)) => r.clone(),
            (None, None) => String::new(),
        }
    }
}

impl State {
    fn shown(&self) -> String {
        match self {
            State::Bool(b) => b.to_string(),
            State::Text(s) => s.clone(),
        }
    }
}

impl ChangeField {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeField::Checked => "checked",
            ChangeField::Pressed => "pressed",
            ChangeField::Selected => "selected",
            ChangeField::Expanded => "expanded",
            ChangeField::Value => "value",
            ChangeField::Disabled => "disabled",
            ChangeField::Visible => "visible",
            ChangeField::Focused => "focused",
        }
    }

    /// The diff's field; `None` for `focused`, which the diff does not compare.
    fn diffed(self) -> Option<Field> {
        match self {
            ChangeField::Checked => Some(Field::Checked),
            ChangeField::Pressed => Some(Field::Pressed),
            ChangeField::Selected => Some(Field::Selected),
            ChangeField::Expanded => Some(Field::Expanded),
            ChangeField::Value => Some(Field::Value),
            ChangeField::Disabled => Some(Field::Disabled),
            ChangeField::Visible => Some(Field::Visible),
            ChangeField::Focused => None,
        }
    }

    /// The element's value of the field, as claims write it.
    fn read(self, e: &Element) -> Option<String> {
        match self.diffed() {
            Some(f) => f.render(e),
            None => Some(e.focused.to_string()),
        }
    }

    /// Is `s` of this field's type?
    fn admits(self, s: &State) -> bool {
        match (self, s) {
            (ChangeField::Value, State::Text(_)) => true,
            (ChangeField::Value, State::Bool(_)) => false,
            (ChangeField::Checked | ChangeField::Pressed, State::Text(t)) => t == "mixed",
            (_, State::Text(_)) => false,
            (_, State::Bool(_)) => true,
        }
    }
}

fn quoted(field: ChangeField, s: &State) -> String {
    match field {
        ChangeField::Value => format!("'{}'", s.shown()),
        _ => s.shown(),
    }
}

/// Does `address` match `pattern`? With `*`: a glob over the whole address, `*` any run of
/// characters; without: a substring.
pub fn address_matches(pattern: &str, address: &str) -> bool {
    if !pattern.contains('*') {
        return address.contains(pattern);
    }
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, rest) = (parts[0], &parts[1..]);
    let Some(mut left) = address.strip_prefix(first) else {
        return false;
    };
    let (last, middle) = rest.split_last().expect("a pattern with '*' has two parts");
    for part in middle {
        match left.find(part) {
            Some(i) => left = &left[i + part.len()..],
            None => return false,
        }
    }
    left.len() >= last.len() && left.ends_with(last)
}

impl Claim {
    /// The wire name of the kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Claim::Appears(_) => "appears",
            Claim::Disappears(_) => "disappears",
            Claim::Changes(_) => "changes",
            Claim::Moves(_) => "moves",
            Claim::Stays(_) => "stays",
            Claim::Navigates(_) => "navigates",
            Claim::Count(_) => "count",
            Claim::Text(_) => "text",
        }
    }

    /// The claim as written, for records: `changes checkbox[Gift wrap] checked to true`.
    pub fn describe(&self) -> String {
        let t = declared;
        match self {
            Claim::Appears(c) => format!("appears {}", t(&c.target)),
            Claim::Disappears(c) => format!("disappears {}", t(&c.target)),
            Claim::Changes(c) => {
                let mut s = format!("changes {} {}", t(&c.target), c.field.as_str());
                if let Some(from) = &c.from {
                    s.push_str(&format!(" from {}", quoted(c.field, from)));
                }
                if let Some(to) = &c.to {
                    s.push_str(&format!(" to {}", quoted(c.field, to)));
                }
                s
            }
            Claim::Moves(c) => {
                let mut s = format!("moves {}", t(&c.target));
                if let Some(to) = &c.to {
                    s.push_str(&format!(" to {}", to.describe()));
                }
                if let Some(p) = c.position {
                    s.push_str(&format!(" at position {p}"));
                }
                s
            }
            Claim::Stays(c) => format!("stays {}", t(&c.target)),
            Claim::Navigates(c) => format!("navigates to '{}'", cap(&c.url, 200)),
            Claim::Count(c) => format!("count {} is {}", t(&c.target), c.n),
            Claim::Text(c) => {
                let how = if c.exact { "exactly " } else { "" };
                let mut s = format!("text {how}'{}'", cap(&c.text, 200));
                if let Some(r) = &c.region {
                    s.push_str(&format!(" in {r}"));
                }
                s
            }
        }
    }

    fn target(&self) -> Option<&Target> {
        match self {
            Claim::Appears(Appears { target })
            | Claim::Disappears(Disappears { target })
            | Claim::Changes(Changes { target, .. })
            | Claim::Moves(Moves { target, .. })
            | Claim::Stays(Stays { target })
            | Claim::Count(Count { target, .. }) => Some(target),
            Claim::Navigates(_) | Claim::Text(_) => None,
        }
    }

    /// The rules types cannot express (see [`validate`]).
    pub fn validate(&self) -> Result<()> {
        if let Some(t) = self.target() {
            t.check()
                .map_err(|e| invalid(format!("target: {}", e.message)))?;
        }
        let text = |what: &str, s: &str| {
            if s.trim().is_empty() {
                Err(invalid(format!("{what} is blank; say what to look for")))
            } else if s.chars().count() > MAX_CLAIM_TEXT {
                Err(invalid(format!(
                    "{what} is longer than {MAX_CLAIM_TEXT} characters"
                )))
            } else {
                Ok(())
            }
        };
        match self {
            Claim::Changes(c) => {
                for (name, s) in [("from", &c.from), ("to", &c.to)] {
                    if let Some(s) = s.as_ref().filter(|s| !c.field.admits(s)) {
                        let want = match c.field {
                            ChangeField::Value => "a string",
                            ChangeField::Checked | ChangeField::Pressed => {
                                "true, false or \"mixed\""
                            }
                            _ => "true or false",
                        };
                        return Err(invalid(format!(
                            "{name} {} is not a value of {}; give {want}",
                            quoted(c.field, s),
                            c.field.as_str()
                        )));
                    }
                }
                if let Some(from) = c.from.as_ref().filter(|_| c.from == c.to) {
                    return Err(invalid(format!(
                        "from and to are both {}: that is no change; use `stays` for an \
                         element that must not change",
                        quoted(c.field, from)
                    )));
                }
                Ok(())
            }
            Claim::Moves(c) => {
                if c.position == Some(0) {
                    return Err(invalid("position counts from 1".into()));
                }
                match &c.to {
                    Some(Place {
                        list: None,
                        region: None,
                    }) => Err(invalid(
                        "to names no place; give `list` (an id or label) or `region`".into(),
                    )),
                    Some(p) => {
                        for s in p.list.iter().chain(p.region.iter()) {
                            text("to", s)?;
                        }
                        Ok(())
                    }
                    None => Ok(()),
                }
            }
            Claim::Navigates(c) => text("url", &c.url),
            Claim::Text(c) => text("text", &c.text),
            Claim::Appears(_) | Claim::Disappears(_) | Claim::Stays(_) | Claim::Count(_) => Ok(()),
        }
    }

    /// Checks the claim against what the action did: `diff` of `before` and `after`, and
    /// `navigated_to`, the address of the new document the action loaded, if it loaded one.
    pub fn check(
        &self,
        diff: &Diff,
        before: &Snapshot,
        after: &Snapshot,
        navigated_to: Option<&str>,
    ) -> Outcome {
        let (status, evidence) = match self {
            Claim::Appears(c) => appears(&Matcher::new(&c.target), diff, after),
            Claim::Disappears(c) => disappears(&Matcher::new(&c.target), diff, after),
            Claim::Changes(c) => changes(c, diff, before, after),
            Claim::Moves(c) => moves(c, diff, before, after),
            Claim::Stays(c) => stays(&Matcher::new(&c.target), diff, after),
            Claim::Navigates(c) => navigates(c, before, after, navigated_to),
            Claim::Count(c) => count(c, after),
            Claim::Text(c) => text(c, diff, after),
        };
        Outcome::new(self, status, evidence)
    }
}

/// `button[Add Shirt M] in list`, `checkbox in listitem[Walk dog] in main`: a target as
/// written, named the way the diff names elements.
fn declared(t: &Target) -> String {
    let region = t.region.as_deref().unwrap_or("");
    let Some(c) = &t.within else {
        return describe_parts(&t.role, &t.name, region);
    };
    let role = if t.role.is_empty() {
        "element"
    } else {
        &t.role
    };
    let head = if t.name.is_empty() {
        role.to_owned()
    } else {
        format!("{role}[{}]", t.name)
    };
    match region {
        "" => format!("{head} in {}", c.describe()),
        r => format!("{head} in {} in {r}", c.describe()),
    }
}

type Found = (Status, String);

fn appears(m: &Matcher, diff: &Diff, after: &Snapshot) -> Found {
    if let Some(e) = diff.appeared.iter().find(|e| e.visible && m.matches(e)) {
        return (Status::Held, format!("appeared {}", describe_element(e)));
    }
    if let Some(c) = diff
        .changed
        .iter()
        .find(|c| c.has(Field::Visible) && c.after.visible && m.matches(&c.after))
    {
        return (
            Status::Held,
            format!("{} became visible", describe_element(&c.after)),
        );
    }
    if m.has_region() {
        if let Some(mv) = diff
            .moved
            .iter()
            .find(|mv| mv.after.visible && m.matches(&mv.after) && !m.in_region(&mv.before))
        {
            return (
                Status::Held,
                format!(
                    "{} moved in from {}",
                    describe_element(&mv.after),
                    region_name(&mv.before.region)
                ),
            );
        }
    }
    if let Some(e) = diff.disappeared.iter().find(|e| m.matches(e)) {
        return (
            Status::Broken,
            format!("disappeared {}", describe_element(e)),
        );
    }
    if let Some(c) = diff
        .changed
        .iter()
        .find(|c| c.has(Field::Visible) && !c.after.visible && m.matches(&c.after))
    {
        return (
            Status::Broken,
            format!("{} was hidden", describe_element(&c.after)),
        );
    }
    match after.elements.iter().find(|e| e.visible && m.matches(e)) {
        Some(e) => (
            Status::Absent,
            format!(
                "{} was already shown before the action",
                describe_element(e)
            ),
        ),
        None => (Status::Absent, "nothing matching appeared".into()),
    }
}

fn disappears(m: &Matcher, diff: &Diff, after: &Snapshot) -> Found {
    if let Some(e) = diff.disappeared.iter().find(|e| m.matches(e)) {
        return (Status::Held, format!("disappeared {}", describe_element(e)));
    }
    if let Some(c) = diff
        .changed
        .iter()
        .find(|c| c.has(Field::Visible) && !c.after.visible && m.matches(&c.after))
    {
        return (
            Status::Held,
            format!("{} was hidden", describe_element(&c.after)),
        );
    }
    if m.has_region() {
        if let Some(mv) = diff
            .moved
            .iter()
            .find(|mv| m.matches(&mv.before) && !m.in_region(&mv.after))
        {
            return (
                Status::Held,
                format!(
                    "{} moved out to {}",
                    describe_element(&mv.before),
                    region_name(&mv.after.region)
                ),
            );
        }
    }
    if let Some(e) = diff.appeared.iter().find(|e| e.visible && m.matches(e)) {
        return (Status::Broken, format!("appeared {}", describe_element(e)));
    }
    if let Some(c) = diff
        .changed
        .iter()
        .find(|c| c.has(Field::Visible) && c.after.visible && m.matches(&c.after))
    {
        return (
            Status::Broken,
            format!("{} became visible", describe_element(&c.after)),
        );
    }
    match after.elements.iter().find(|e| e.visible && m.matches(e)) {
        Some(e) => (
            Status::Absent,
            format!("{} is still shown", describe_element(e)),
        ),
        None => (
            Status::Absent,
            "nothing matching was on the page to disappear".into(),
        ),
    }
}

fn changes(c: &Changes, diff: &Diff, before: &Snapshot, after: &Snapshot) -> Found {
    let m = Matcher::new(&c.target);
    let field = c.field;
    let wants = |from: Option<&str>, to: Option<&str>| {
        let ok = |claim: &Option<State>, seen: Option<&str>| {
            claim
                .as_ref()
                .is_none_or(|s| seen == Some(s.shown().as_str()))
        };
        ok(&c.from, from) && ok(&c.to, to)
    };
    let show = |v: Option<&str>| match (field, v) {
        (_, None) => "null".to_owned(),
        (ChangeField::Value, Some(s)) => format!("'{s}'"),
        (_, Some(s)) => s.to_owned(),
    };
    let secret = |e: &Element| e.sensitive || e.value_hash.is_some();
    // Every element matching the target whose field changed, with its values.
    let mut seen: Vec<(&Element, Option<String>, Option<String>)> = Vec::new();
    match field.diffed() {
        Some(f) => {
            for ch in &diff.changed {
                if ch.has(f) && (m.matches(&ch.after) || m.matches(&ch.before)) {
                    seen.push((&ch.after, f.render(&ch.before), f.render(&ch.after)));
                }
            }
        }
        None => {
            for b in before.elements.iter().filter(|e| m.matches(e)) {
                if let Some(a) = counterpart(after, b).filter(|a| a.focused != b.focused) {
                    seen.push((a, field.read(b), field.read(a)));
                }
            }
        }
    }
    if field == ChangeField::Value && (c.from.is_some() || c.to.is_some()) {
        if let Some((e, ..)) = seen.iter().find(|(e, ..)| secret(e)) {
            return (
                Status::Absent,
                format!(
                    "{} is sensitive: its value is never read, so only that it changed can be \
                     claimed (leave out from and to)",
                    describe_element(e)
                ),
            );
        }
    }
    if let Some((e, from, to)) = seen
        .iter()
        .find(|(_, from, to)| wants(from.as_deref(), to.as_deref()))
    {
        return (
            Status::Held,
            format!(
                "{}: {} {} -> {}",
                describe_element(e),
                field.as_str(),
                show(from.as_deref()),
                show(to.as_deref())
            ),
        );
    }
    if let Some((e, from, to)) = seen.first() {
        return (
            Status::Broken,
            format!(
                "{}: {} {} -> {}",
                describe_element(e),
                field.as_str(),
                show(from.as_deref()),
                show(to.as_deref())
            ),
        );
    }
    if field == ChangeField::Visible {
        let to = c.to.as_ref();
        if to.is_none_or(|s| *s == State::Bool(true)) && c.from != Some(State::Bool(true)) {
            if let Some(e) = diff.appeared.iter().find(|e| e.visible && m.matches(e)) {
                return (Status::Held, format!("appeared {}", describe_element(e)));
            }
        }
        if to.is_none_or(|s| *s == State::Bool(false)) && c.from != Some(State::Bool(false)) {
            if let Some(e) = diff.disappeared.iter().find(|e| e.visible && m.matches(e)) {
                return (Status::Held, format!("disappeared {}", describe_element(e)));
            }
        }
    }
    if let Some(e) = diff.disappeared.iter().find(|e| m.matches(e)) {
        return (
            Status::Absent,
            format!("disappeared {} instead", describe_element(e)),
        );
    }
    match after.elements.iter().find(|e| m.matches(e)) {
        Some(e) => (
            Status::Absent,
            format!(
                "{} kept {} {}",
                describe_element(e),
                field.as_str(),
                show(field.read(e).as_deref())
            ),
        ),
        None => (Status::Absent, "nothing matching is on the page".into()),
    }
}

fn moves(c: &Moves, diff: &Diff, before: &Snapshot, after: &Snapshot) -> Found {
    let m = Matcher::new(&c.target);
    let placed = |e: &Element| -> std::result::Result<(), String> {
        if let Some(to) = c.to.as_ref().filter(|to| !to.holds(&e.region)) {
            return Err(format!(
                "is in {}, not {}",
                region_name(&e.region),
                to.describe()
            ));
        }
        match (c.position, position(after, e)) {
            (Some(want), Some(have)) if want != have => {
                Err(format!("is at position {have}, not {want}"))
            }
            _ => Ok(()),
        }
    };
    let mut wrong = None;
    for mv in diff
        .moved
        .iter()
        .filter(|mv| m.matches(&mv.before) || m.matches(&mv.after))
    {
        let what = format!(
            "{}[{}] moved from {} to {}",
            mv.after.role.as_str(),
            mv.after.label(),
            region_name(&mv.before.region),
            region_name(&mv.after.region)
        );
        match placed(&mv.after) {
            Ok(()) => return (Status::Held, what),
            Err(why) => wrong = wrong.or(Some(format!("{what}, but {why}"))),
        }
    }
    if let Some(w) = wrong {
        return (Status::Broken, w);
    }
    // A reorder in place: the multiset diff shows nothing, the positions do.
    let mut stayed = None;
    for b in before.elements.iter().filter(|e| e.visible && m.matches(e)) {
        let Some(a) = counterpart(after, b).filter(|a| a.visible && a.region == b.region) else {
            continue;
        };
        let (from, to) = (position(before, b), position(after, a));
        if from != to {
            let what = format!(
                "{} moved from position {} to {}",
                describe_element(a),
                from.unwrap_or(0),
                to.unwrap_or(0)
            );
            return match placed(a) {
                Ok(()) => (Status::Held, what),
                Err(why) => (Status::Broken, format!("{what}, but it {why}")),
            };
        }
        stayed = stayed.or(Some(format!(
            "{} stayed at position {} in {}",
            describe_element(a),
            to.unwrap_or(0),
            region_name(&a.region)
        )));
    }
    if let Some(e) = diff.disappeared.iter().find(|e| m.matches(e)) {
        return (
            Status::Broken,
            format!("disappeared {} instead", describe_element(e)),
        );
    }
    (
        Status::Absent,
        stayed.unwrap_or_else(|| "nothing matching was on the page to move".into()),
    )
}

fn stays(m: &Matcher, diff: &Diff, after: &Snapshot) -> Found {
    let broke = |what: String| (Status::Broken, what);
    if let Some(e) = diff.appeared.iter().find(|e| m.matches(e)) {
        return broke(format!("appeared {}", describe_element(e)));
    }
    if let Some(e) = diff.disappeared.iter().find(|e| m.matches(e)) {
        return broke(format!("disappeared {}", describe_element(e)));
    }
    if let Some(c) = diff
        .changed
        .iter()
        .find(|c| m.matches(&c.before) || m.matches(&c.after))
    {
        return broke(super::diff::line_changed(c));
    }
    if let Some(mv) = diff
        .moved
        .iter()
        .find(|mv| m.matches(&mv.before) || m.matches(&mv.after))
    {
        return broke(super::diff::line_moved(mv));
    }
    match after.elements.iter().find(|e| m.matches(e)) {
        Some(e) => (
            Status::Held,
            format!("{} is unchanged", describe_element(e)),
        ),
        None => (Status::Absent, "nothing matching is on the page".into()),
    }
}

fn navigates(c: &Navigates, before: &Snapshot, after: &Snapshot, to: Option<&str>) -> Found {
    match to {
        Some(url) if address_matches(&c.url, url) => {
            (Status::Held, format!("a new document loaded at {url}"))
        }
        Some(url) => (
            Status::Broken,
            format!("a new document loaded at {url}, which does not match"),
        ),
        None if before.context.epoch != after.context.epoch => (
            Status::Absent,
            "a new document loaded, but its address could not be read".into(),
        ),
        None => (Status::Absent, "no new document loaded".into()),
    }
}

fn count(c: &Count, after: &Snapshot) -> Found {
    let m = Matcher::new(&c.target);
    let n = after
        .elements
        .iter()
        .filter(|e| e.visible && m.matches(e))
        .count();
    let plural = if n == 1 { "" } else { "es" };
    if n == c.n as usize {
        return (Status::Held, format!("{n} match{plural}"));
    }
    if after.has_more {
        return (
            Status::Absent,
            format!("{n} match{plural} in the part observed; the observation was cut short"),
        );
    }
    (Status::Broken, format!("{n} match{plural}, not {}", c.n))
}

fn text(c: &TextClaim, diff: &Diff, after: &Snapshot) -> Found {
    let want = normalize_key(&c.text);
    let region = c.region.as_deref().map(normalize_key);
    let fits = |t: &Text| {
        let have = normalize_key(&t.text);
        let said = if c.exact {
            have == want
        } else {
            have.contains(&want)
        };
        said && region
            .as_deref()
            .is_none_or(|r| region_matches(&normalize_key(&t.region), r))
    };
    let shown = |t: &Text| super::identity::describe_text(t);
    if let Some(t) = diff.texts_appeared.iter().find(|t| fits(t)) {
        return (Status::Held, format!("appeared {}", shown(t)));
    }
    if let Some(t) = diff.texts_disappeared.iter().find(|t| fits(t)) {
        return (Status::Broken, format!("disappeared {}", shown(t)));
    }
    match after.texts.iter().find(|t| fits(t)) {
        Some(t) => (
            Status::Absent,
            format!("{} was already shown before the action", shown(t)),
        ),
        None => (Status::Absent, "no such text appeared".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::diff::{diff, DiffOptions};
    use crate::core::model::{Context, Role, TextKind, Tristate};
    use serde_json::json;

    const CART: &str = "cart/list:items";

    fn el(r: &str, role: Role, name: &str, region: &str) -> Element {
        Element {
            reference: r.into(),
            role,
            name: name.into(),
            region: region.into(),
            visible: true,
            ..Default::default()
        }
    }

    fn item(r: &str, text: &str, region: &str) -> Element {
        Element {
            text: Some(text.into()),
            ..el(r, Role::Listitem, "", region)
        }
    }

    fn box_(r: &str, name: &str, checked: bool) -> Element {
        Element {
            checked: Some(Tristate::from(checked)),
            ..el(r, Role::Checkbox, name, "")
        }
    }

    fn said(t: &str, region: &str) -> Text {
        Text {
            kind: TextKind::Status,
            text: t.into(),
            region: region.into(),
            frame: String::new(),
        }
    }

    fn snap(epoch: u64, elements: Vec<Element>, texts: Vec<Text>) -> Snapshot {
        Snapshot {
            context: Context {
                tab: "t".into(),
                epoch,
                snapshot: format!("s{}", elements.len()),
            },
            has_more: false,
            elements,
            texts,
        }
    }

    /// A shop: an Add button, a gift-wrap box, a cart with one line, a to-do board.
    fn page() -> Vec<Element> {
        vec![
            el("b1", Role::Button, "Add Shirt M", "catalogue"),
            box_("c1", "Gift wrap", false),
            item("i1", "Socks S", CART),
            item("t1", "Write tests", "board/list:todo"),
            item("t2", "Walk dog", "board/list:todo"),
            el("k", Role::Button, "Checkout", "cart"),
            Element {
                within: Some("listitem[Walk dog]".into()),
                ..box_("x2", "", false)
            },
            Element {
                within: Some("listitem[Write tests]".into()),
                ..box_("x1", "", false)
            },
        ]
    }

    fn with(f: fn(&mut Vec<Element>, &mut Vec<Text>)) -> Snapshot {
        let mut e = page();
        let mut t = vec![];
        f(&mut e, &mut t);
        snap(1, e, t)
    }

    fn claim(v: serde_json::Value) -> Claim {
        serde_json::from_value(v).expect("a claim")
    }

    fn set(e: &mut [Element], r: &str, f: impl FnOnce(&mut Element)) {
        f(e.iter_mut().find(|e| e.reference == r).expect("ref"))
    }

    #[test]
    fn claims_hold_break_or_lack_evidence() {
        use Status::{Absent as No, Broken as B, Held as H};
        let shirt = json!({ "kind": "appears", "target": { "role": "listitem", "name": "Shirt M", "region": CART } });
        let socks_go =
            json!({ "kind": "disappears", "target": { "role": "listitem", "name": "Socks S" } });
        let wrap_on = json!({ "kind": "changes", "target": { "role": "checkbox", "name": "Gift wrap" }, "field": "checked", "to": true });
        let wrap_any = json!({ "kind": "changes", "target": { "role": "checkbox", "name": "Gift wrap" }, "field": "checked" });
        let focus = json!({ "kind": "changes", "target": { "name": "Add Shirt M" }, "field": "focused", "to": true });
        let done = json!({ "kind": "moves", "target": { "role": "listitem", "name": "Write tests" }, "to": { "list": "done" } });
        let first = json!({ "kind": "moves", "target": { "role": "listitem", "name": "Walk dog" }, "position": 1 });
        let keep = json!({ "kind": "stays", "target": { "role": "button", "name": "Checkout" } });
        let nav = json!({ "kind": "navigates", "url": "*/checkout*" });
        let nav_sub = json!({ "kind": "navigates", "url": "/cart" });
        let two = json!({ "kind": "count", "target": { "role": "listitem", "region": CART, "name": "Socks S" }, "n": 2 });
        let saved = json!({ "kind": "text", "text": "saved", "region": "cart" });
        let saved_exact = json!({ "kind": "text", "text": "Saved", "exact": true });
        let stray = json!({ "kind": "stays", "target": { "name": "Pay" } });
        let walk_done = json!({ "kind": "changes", "target": { "role": "checkbox", "name": "", "in": { "role": "listitem", "name": "Walk dog" } }, "field": "checked", "to": true });

        type Edit = fn(&mut Vec<Element>, &mut Vec<Text>);
        let same: Edit = |_, _| {};
        let hidden_line: Edit = |e, _| {
            e.push(Element {
                visible: false,
                ..item("i2", "Shirt M", CART)
            })
        };
        // name, claim, before, after, address, status, evidence
        type Row<'r> = (
            &'r str,
            &'r serde_json::Value,
            Edit,
            Edit,
            Option<&'r str>,
            Status,
            &'r str,
        );
        #[rustfmt::skip]
        let rows: Vec<Row> = vec![
            // name, claim, before, after (each an edit of the page), address → status, evidence
            ("appears: the line is added", &shirt, same, |e, _| e.push(item("i2", "Shirt M", CART)), None, H, "appeared listitem[Shirt M] in cart/list:items"),
            ("appears: a hidden line is shown", &shirt, hidden_line, |e, _| e.push(item("i2", "Shirt M", CART)), None, H, "became visible"),
            ("appears: added elsewhere", &shirt, same, |e, _| e.push(item("i2", "Shirt M", "wishlist")), None, No, "nothing matching appeared"),
            ("appears: already there", &shirt, |e, _| e.push(item("i2", "Shirt M", CART)), |e, _| e.push(item("i2", "Shirt M", CART)), None, No, "already shown"),
            ("appears: the line went", &shirt, |e, _| e.push(item("i2", "Shirt M", CART)), same, None, B, "disappeared listitem[Shirt M]"),
            ("disappears: the line is removed", &socks_go, same, |e, _| e.retain(|e| e.reference != "i1"), None, H, "disappeared listitem[Socks S]"),
            ("disappears: the line is hidden", &socks_go, same, |e, _| set(e, "i1", |e| e.visible = false), None, H, "was hidden"),
            ("disappears: still there", &socks_go, same, same, None, No, "is still shown"),
            ("disappears: one more came", &socks_go, same, |e, _| e.push(item("i9", "Socks S", CART)), None, B, "appeared listitem[Socks S]"),
            ("changes: checked as claimed", &wrap_on, same, |e, _| set(e, "c1", |e| e.checked = Some(Tristate::True)), None, H, "checked false -> true"),
            ("changes: checked, any way", &wrap_any, same, |e, _| set(e, "c1", |e| e.checked = Some(Tristate::Mixed)), None, H, "false -> mixed"),
            ("changes: checked, not to true", &wrap_on, same, |e, _| set(e, "c1", |e| e.checked = Some(Tristate::Mixed)), None, B, "checked false -> mixed"),
            ("changes: unchanged", &wrap_on, same, same, None, No, "kept checked false"),
            ("changes: the row's own box", &walk_done, same, |e, _| set(e, "x2", |e| e.checked = Some(Tristate::True)), None, H, "checkbox in listitem[Walk dog]: checked false -> true"),
            ("changes: the next row's box", &walk_done, same, |e, _| set(e, "x1", |e| e.checked = Some(Tristate::True)), None, No, "kept checked false"),
            ("changes: focus taken", &focus, same, |e, _| set(e, "b1", |e| e.focused = true), None, H, "focused false -> true"),
            ("changes: focus not taken", &focus, same, same, None, No, "kept focused false"),
            ("moves: to the done list", &done, same, |e, _| set(e, "t1", |e| e.region = "board/list:done".into()), None, H, "moved from board/list:todo to board/list:done"),
            ("moves: to another list", &done, same, |e, _| set(e, "t1", |e| e.region = "board/list:later".into()), None, B, "not list:done"),
            ("moves: stayed", &done, same, same, None, No, "stayed at position 1 in board/list:todo"),
            ("moves: first in its list", &first, same, |e, _| e.swap(3, 4), None, H, "moved from position 2 to 1"),
            ("moves: removed instead", &first, same, |e, _| e.retain(|e| e.reference != "t2"), None, B, "disappeared listitem[Walk dog]"),
            ("stays: untouched", &keep, same, |e, _| e.push(item("i2", "Shirt M", CART)), None, H, "button[Checkout] in cart is unchanged"),
            ("stays: disabled", &keep, same, |e, _| set(e, "k", |e| e.disabled = true), None, B, "disabled false -> true"),
            ("stays: not on the page", &stray, same, same, None, No, "nothing matching"),
            ("navigates: glob", &nav, same, same, Some("https://shop.test/checkout?step=1"), H, "loaded at https://shop.test/checkout?step=1"),
            ("navigates: substring", &nav_sub, same, same, Some("https://shop.test/cart#top"), H, ""),
            ("navigates: elsewhere", &nav, same, same, Some("https://shop.test/cart"), B, "does not match"),
            ("navigates: no new document", &nav, same, same, None, No, "no new document loaded"),
            ("count: two lines", &two, same, |e, _| e.push(item("i3", "Socks S", CART)), None, H, "2 matches"),
            ("count: one line", &two, same, same, None, B, "1 match, not 2"),
            ("text: a status says it", &saved, same, |_, t| t.push(said("Draft saved", "cart")), None, H, "appeared"),
            ("text: exact, not so", &saved_exact, same, |_, t| t.push(said("Draft saved", "cart")), None, No, "no such text"),
            ("text: in another region", &saved, same, |_, t| t.push(said("Saved", "banner")), None, No, "no such text"),
            ("text: it went", &saved, |_, t| t.push(said("Saved", "cart")), same, None, B, "disappeared text"),
        ];
        for (name, c, before, after, url, want, evidence) in rows {
            let c = claim(c.clone());
            let (before, after) = (with(before), with(after));
            let d = diff(&before, &after, &DiffOptions::default());
            let o = c.check(&d, &before, &after, url);
            assert_eq!(o.status, want, "{name}: {}", o.line());
            assert!(o.evidence.contains(evidence), "{name}: {}", o.line());
        }
    }

    #[test]
    fn a_line_that_went_breaks_appears_and_text_that_went_breaks_text() {
        let before = with(|e, t| {
            e.push(item("i2", "Shirt M", CART));
            t.push(said("Saved", "cart"));
        });
        let after = with(|_, _| {});
        let d = diff(&before, &after, &DiffOptions::default());
        for (c, evidence) in [
            (
                json!({ "kind": "appears", "target": { "role": "listitem", "name": "Shirt M", "region": CART } }),
                "disappeared listitem[Shirt M]",
            ),
            (
                json!({ "kind": "text", "text": "saved" }),
                "disappeared text",
            ),
            (
                json!({ "kind": "changes", "target": { "name": "Shirt M" }, "field": "visible", "to": true }),
                "disappeared listitem[Shirt M]",
            ),
        ] {
            let o = claim(c).check(&d, &before, &after, None);
            assert!(o.evidence.contains(evidence), "{}", o.line());
        }
    }

    #[test]
    fn a_sensitive_value_is_never_compared() {
        let field = |v: &str| Element {
            value: Some("[redacted]".into()),
            value_hash: Some(v.into()),
            sensitive: true,
            ..el("p", Role::Textbox, "Password", "")
        };
        let before = snap(1, vec![field("h0")], vec![]);
        let after = snap(1, vec![field("h1")], vec![]);
        let d = diff(&before, &after, &DiffOptions::default());
        let to = claim(
            json!({ "kind": "changes", "target": { "name": "Password" }, "field": "value", "to": "hunter2" }),
        );
        let o = to.check(&d, &before, &after, None);
        assert_eq!(o.status, Status::Absent, "{}", o.line());
        let any =
            claim(json!({ "kind": "changes", "target": { "name": "Password" }, "field": "value" }));
        assert_eq!(any.check(&d, &before, &after, None).status, Status::Held);
    }

    #[test]
    fn the_record_line_names_claim_and_evidence() {
        let before = with(|_, _| {});
        let after = with(|e, _| e.push(item("i2", "Shirt M", CART)));
        let d = diff(&before, &after, &DiffOptions::default());
        let c = claim(
            json!({ "kind": "appears", "target": { "role": "listitem", "name": "Shirt M", "region": "cart/list:items" } }),
        );
        assert_eq!(
            c.check(&d, &before, &after, None).line(),
            "expected: appears listitem[Shirt M] in cart/list:items — held: appeared listitem[Shirt M] in cart/list:items"
        );
    }

    #[test]
    fn combining_only_narrows() {
        use VerdictKind::{Ambiguous as A, Match as M, Mismatch as X};
        let v = |kind| Verdict {
            verdict: kind,
            reason: "judged".into(),
            attributed_to: None,
            diff: Diff::default(),
        };
        let o = |status| Outcome {
            claim: "appears x".into(),
            status,
            evidence: "e".into(),
        };
        use Status::{Absent as No, Broken as B, Held as H};
        #[rustfmt::skip]
        let rows = [
            // judge, outcomes, settled → verdict, in the reason
            (M, vec![o(H)], true, M, "judged; expected: appears x — held: e"),
            (M, vec![o(H), o(B)], true, X, "expected: appears x — broken: e"),
            (M, vec![o(No)], true, X, "no evidence: e"),
            (M, vec![o(No)], false, A, "still changing"),
            (X, vec![o(H)], true, X, "the judge: MISMATCH — judged; though every expected claim held"),
            (X, vec![o(B)], true, X, "broken: e; and the judge: MISMATCH"),
            (X, vec![o(No)], false, X, "the judge: MISMATCH"),
            (A, vec![o(H)], true, M, "every expected claim held: expected: appears x — held: e (the judge: AMBIGUOUS — judged alone)"),
            (A, vec![o(H)], false, A, "held so far"),
            (A, vec![o(B)], false, X, "broken"),
            (A, vec![], true, A, "judged"),
        ];
        for (judge, outcomes, settled, want, reason) in rows {
            let got = combine(v(judge), &outcomes, settled);
            assert_eq!(
                got.verdict, want,
                "{judge:?} {outcomes:?} {settled}: {}",
                got.reason
            );
            assert!(got.reason.contains(reason), "{}", got.reason);
        }
    }

    #[test]
    fn bad_claims_are_invalid_expect() {
        #[rustfmt::skip]
        let rows = [
            json!([{ "kind": "appears" }]),
            json!([{ "kind": "vanishes", "target": { "name": "x" } }]),
            json!([{ "kind": "appears", "target": { "name": "x" }, "extra": 1 }]),
            json!([{ "kind": "appears", "target": { "name": "  " } }]),
            json!([{ "kind": "appears", "target": { "role": "nonsense", "name": "x" } }]),
            json!([{ "kind": "changes", "target": { "name": "x" }, "field": "checked", "to": "yes" }]),
            json!([{ "kind": "changes", "target": { "name": "x" }, "field": "value", "to": true }]),
            json!([{ "kind": "changes", "target": { "name": "x" }, "field": "expanded", "to": "mixed" }]),
            json!([{ "kind": "changes", "target": { "name": "x" }, "field": "checked", "from": true, "to": true }]),
            json!([{ "kind": "changes", "target": { "name": "x" }, "field": "href" }]),
            json!([{ "kind": "moves", "target": { "name": "x" }, "position": 0 }]),
            json!([{ "kind": "moves", "target": { "name": "x" }, "to": {} }]),
            json!([{ "kind": "navigates", "url": " " }]),
            json!([{ "kind": "count", "target": { "name": "x" }, "n": -1 }]),
            json!([{ "kind": "text", "text": "" }]),
            json!({ "kind": "text", "text": "x" }),
        ];
        for v in rows {
            let e = from_value(&v).expect_err(&v.to_string());
            assert_eq!(e.code, ErrorCode::InvalidExpect, "{v}: {e}");
        }
        let many =
            serde_json::Value::Array(vec![json!({ "kind": "text", "text": "x" }); MAX_CLAIMS + 1]);
        assert_eq!(
            from_value(&many).unwrap_err().code,
            ErrorCode::InvalidExpect
        );
        let ok = json!([
            { "kind": "changes", "target": { "name": "x" }, "field": "checked", "from": false, "to": "mixed" },
            { "kind": "moves", "target": { "name": "x" }, "to": { "list": "done" }, "position": 2 },
            { "kind": "count", "target": { "name": "x" }, "n": 0 },
        ]);
        let claims = from_value(&ok).unwrap();
        assert_eq!(serde_json::to_value(&claims).unwrap(), ok);
    }

    #[test]
    fn address_patterns() {
        #[rustfmt::skip]
        let rows = [
            ("/checkout", "https://a.test/checkout/1", true),
            ("/checkout", "https://a.test/cart", false),
            ("*/checkout", "https://a.test/checkout", true),
            ("*/checkout", "https://a.test/checkout/1", false),
            ("https://a.test/*", "https://a.test/x?y", true),
            ("https://*.test/*/done", "https://b.test/orders/7/done", true),
            ("https://*.test/*/done", "https://b.test/done", false),
            ("*", "about:blank", true),
            ("a*a", "a", false),
        ];
        for (pattern, address, want) in rows {
            assert_eq!(
                address_matches(pattern, address),
                want,
                "{pattern} ~ {address}"
            );
        }
    }
}
