//! Strict target resolution: a declared `{ role, name, … }` becomes exactly one element of a
//! current observation, or a typed error. It stops instead of pressing the first of two
//! identically named buttons.
//!
//! Two entry points share one rule:
//! - [`resolve_value`] takes untrusted JSON (what a driver sends to `prufe.resolve`), checks
//!   every key and type, builds typed values and calls [`resolve`];
//! - [`resolve`] takes typed data (the in-page engine and the harness already hold it) and
//!   re-checks what types cannot express: non-empty text, known roles, unique refs, bounds.
//!
//! Checks run in a fixed order: validation, staleness (`expected` must equal the observation's
//! context), truncation (`hasMore` → `TARGET_QUERY_TRUNCATED` whatever the match count, since a
//! slice cannot prove uniqueness), then the match count (ambiguous, not found) and finally
//! `disabled` of the single match.
//!
//! Matching is exact after whitespace normalisation and lowercasing (`text::normalize_key`):
//! "Save" is not "Save draft". The target name is compared with the element's label
//! ([`Element::label`]): its accessible name, or, for a nameless container such as a cart
//! `listitem`, its observed text. That is the label of the element's identity, so a target
//! reads the way `describe` and the diff name the element; an element with a name is never
//! matched by its text. `region` (normalised), `frame`, `href` (exact) and `inViewport` narrow
//! only when given. Hidden elements never match; disabled ones still count, so a disabled
//! twin makes the target ambiguous rather than silently selecting the enabled one. Offscreen
//! twins count too: only an explicit `inViewport` narrows by viewport.
//!
//! Validation codes: missing or unknown keys (anything not an object where one is required,
//! too) → `INVALID_FIELDS`; a context that is not an object → `INVALID_CONTEXT`; a text of the
//! wrong type, blank where it must not be, over-long or not an ARIA role on an element →
//! `INVALID_TEXT`; a target role that is not an ARIA role → `INVALID_TARGET`; `epoch` →
//! `INVALID_EPOCH`; `hasMore` → `INVALID_COMPLETENESS`; the target's `inViewport` →
//! `INVALID_VIEWPORT`; an element state, its `inViewport` included → `INVALID_STATE`; the
//! element list → `INVALID_ELEMENTS`; the `texts` list → `INVALID_SNAPSHOT`. Optional target
//! keys may be `null`, which means absent; an element's `name` may be empty.
//!
//! The trade-off: resolve compares an explicit contract and guesses nothing. It does not
//! prefer the nearest, the first or the enabled candidate, so a caller sometimes has to add a
//! `region` the page makes obvious to a person. The error says which fields would tell the
//! candidates apart.
//!
//! A resolution selects; it does not authorise or act (`authorized` and `dispatched` are always
//! false). The observation is only as trustworthy as its source: the caller re-checks the live
//! node's identity and actionability right before input.

use super::error::{Candidate, Error, ErrorCode, Result, MAX_CANDIDATES};
use super::identity::{describe_element, describe_parts};
use super::model::{limits, Context, Element, Role, Snapshot, Text, TextKind, Tristate};
use super::text::{cap, normalize_key, normalize_whitespace};
use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt::Write as _;

/// Longest accepted ref, name, text, value, role and context id, in characters: the engine
/// keeps `MAX_TEXT_CHARS` characters and `text::cap` marks a cut with one more (`…`).
pub const TEXT_LIMIT: usize = limits::MAX_TEXT_CHARS + 1;

/// Longest accepted `region`, `frame` and `href` of a target. A region joins a landmark name
/// and a list label under a frame path, and URLs run long, so these get a wider bound.
pub const LOCATOR_LIMIT: usize = 8_192;

/// The bound on `region`, `frame` and `href` as an observation reports them: none. The page
/// writes them (a `data:` link, a long `data-ap-region`), resolve and diff only compare them
/// for equality, and one long link must not make a whole observation unreadable.
const PAGE_LOCATOR_LIMIT: usize = usize::MAX;

/// What a caller declares it wants to act on. `role` and `name` identify; the optional fields
/// narrow, and only when given.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Target {
    /// An ARIA role (`"button"`), compared case-insensitively; empty (absent): any role.
    /// `"generic"` matches clickable generics only (role-less controls, see
    /// `Element::clickable`), never a plain container.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub role: String,
    /// The element's label: its accessible name, or the text of a nameless container.
    pub name: String,
    /// Compared after whitespace normalisation and lowercasing; `""` is the document level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// Frame position path, exact; `""` is the top document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<String>,
    /// Exact `href` metadata as observed (not a verified destination).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_viewport: Option<bool>,
    /// The nearest named container the element is in (`{ "role": "listitem", "name": "Walk
    /// dog" }`), as `Element::within` observes it: what tells apart the unnamed checkbox of
    /// each row, or the `Delete` button every row has. With it, `name` may be empty.
    #[serde(
        default,
        rename = "in",
        alias = "within",
        skip_serializing_if = "Option::is_none"
    )]
    pub within: Option<Container>,
    /// The element's place, from 1, among the visible elements the rest of the target names,
    /// in document order: what tells apart elements with neither a label nor a named row
    /// around them (the second of three unnamed lists of a board, a drop zone a test suite
    /// knows by its CSS id). [`target_of`] gives it to such an element. With it, `name` may
    /// be empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nth: Option<u32>,
}

/// The largest `nth` a target may give.
pub const MAX_NTH: u32 = 100_000;

/// A container a target is in: a role and the container's label.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Container {
    pub role: String,
    pub name: String,
}

impl Container {
    /// The container an observed place names (`listitem[Walk dog]`, `Element::within`).
    pub fn parse(place: &str) -> Option<Container> {
        let (role, name) = place.strip_suffix(']')?.split_once('[')?;
        Some(Container {
            role: role.to_owned(),
            name: name.to_owned(),
        })
    }

    /// `listitem[Walk dog]`, the form `Element::within` takes.
    pub fn describe(&self) -> String {
        format!(
            "{}[{}]",
            normalize_key(&self.role),
            normalize_whitespace(&self.name)
        )
    }
}

/// A selected element. Selection is not permission: `authorized` and `dispatched` are always
/// false, and the live node must be re-checked before input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Resolution {
    pub context: Context,
    pub target: Element,
    pub authorized: bool,
    pub dispatched: bool,
}

impl Target {
    pub fn new(role: impl Into<String>, name: impl Into<String>) -> Self {
        Target {
            role: role.into(),
            name: name.into(),
            ..Default::default()
        }
    }

    /// Reads a target from untrusted JSON: exactly the keys `role`, `name` and optionally
    /// `region`, `frame`, `href`, `inViewport`, `in`, `nth` (`null` counts as absent). The
    /// JSON is read with serde into [`WireTarget`], then checked once: the keys, each field's
    /// type (with its own error code), then [`Target::check`].
    pub fn from_value(value: &Value) -> Result<Target> {
        let w = match Given::<WireTarget>::deserialize(value) {
            Ok(Given::Is(w)) => w,
            Ok(Given::Not(other)) => return Err(not_an_object("target", &other)),
            Ok(Given::Absent | Given::Null) => return Err(not_an_object("target", &Value::Null)),
            Err(e) => return Err(Error::new(ErrorCode::InvalidFields, format!("target: {e}"))),
        };
        keys(
            "target",
            &[("name", w.name.is_given())],
            &w.unknown,
            TARGET_OPTIONAL_KEYS,
        )?;
        let role = match given_text(w.role, "target", "role", TEXT_LIMIT)? {
            None => String::new(),
            Some(role) => {
                non_blank(&role, "target", "role", TEXT_LIMIT)?;
                role
            }
        };
        let name = required_text(w.name, "target", "name", TEXT_LIMIT)?;
        let target = Target {
            role,
            name,
            region: given_text(w.region, "target", "region", LOCATOR_LIMIT)?,
            frame: given_text(w.frame, "target", "frame", LOCATOR_LIMIT)?,
            href: given_text(w.href, "target", "href", LOCATOR_LIMIT)?,
            in_viewport: match w.in_viewport {
                Given::Absent | Given::Null => None,
                Given::Is(b) => Some(b),
                Given::Not(other) => {
                    return Err(Error::new(
                        ErrorCode::InvalidViewport,
                        format!(
                            "target.inViewport must be true or false, got {}",
                            kind(&other)
                        ),
                    ))
                }
            },
            within: match w.within {
                Given::Absent | Given::Null => None,
                Given::Is(c) => {
                    keys(
                        "target.in",
                        &[("role", c.role.is_given()), ("name", c.name.is_given())],
                        &c.unknown,
                        &[],
                    )?;
                    Some(Container {
                        role: required_text(c.role, "target.in", "role", TEXT_LIMIT)?,
                        name: required_text(c.name, "target.in", "name", TEXT_LIMIT)?,
                    })
                }
                Given::Not(other) => return Err(not_an_object("target.in", &other)),
            },
            nth: match w.nth {
                Given::Absent | Given::Null => None,
                Given::Is(n) if (1..=u64::from(MAX_NTH)).contains(&n) => Some(n as u32),
                Given::Is(n) => return Err(bad_nth(&n.to_string())),
                Given::Not(other) => return Err(bad_nth(&other.to_string())),
            },
        };
        target.check()?;
        Ok(target)
    }

    /// The rules typed data can still break: `role` a known ARIA role, `name` and `href`
    /// non-blank (`name` may be empty for a target placed `in` a container, which then
    /// needs a role and a name of its own, and for one given its `nth` place, which then
    /// needs a role), every field within its bound.
    pub fn check(&self) -> Result<()> {
        if !self.role.is_empty() {
            non_blank(&self.role, "target", "role", TEXT_LIMIT)?;
        }
        if let Some(n) = self.nth {
            if n == 0 || n > MAX_NTH {
                return Err(Error::new(
                    ErrorCode::InvalidTarget,
                    format!("target.nth must be a whole number from 1 to {MAX_NTH}, got {n}"),
                ));
            }
            if self.role.is_empty() {
                return Err(Error::new(
                    ErrorCode::InvalidTarget,
                    "a target given by its place (nth) needs the role of the elements it counts",
                ));
            }
        }
        match &self.within {
            Some(c) => {
                within(&self.name, "target", "name", TEXT_LIMIT)?;
                non_blank(&c.role, "target.in", "role", TEXT_LIMIT)?;
                non_blank(&c.name, "target.in", "name", TEXT_LIMIT)?;
                if Role::parse(&normalize_whitespace(&c.role)).is_none() {
                    return Err(Error::new(
                        ErrorCode::InvalidTarget,
                        format!(
                            "target.in.role {:?} is not an ARIA role; use the container's, such as \"listitem\", \"row\" or \"treeitem\"",
                            cap(&c.role, 40)
                        ),
                    ));
                }
            }
            None if self.nth.is_some() => within(&self.name, "target", "name", TEXT_LIMIT)?,
            None => non_blank(&self.name, "target", "name", TEXT_LIMIT)?,
        }
        if let Some(href) = &self.href {
            non_blank(href, "target", "href", LOCATOR_LIMIT)?;
        }
        for (field, value) in [("region", &self.region), ("frame", &self.frame)] {
            if let Some(v) = value {
                within(v, "target", field, LOCATOR_LIMIT)?;
            }
        }
        self.parsed_role().map(|_| ())
    }

    fn parsed_role(&self) -> Result<Option<Role>> {
        if self.role.is_empty() {
            return Ok(None);
        }
        match Role::parse(&normalize_whitespace(&self.role)) {
            Some(role) => Ok(Some(role)),
            None => Err(Error::new(
                ErrorCode::InvalidTarget,
                format!(
                    "target.role {:?} is not an ARIA role; use one such as \"button\", \"link\", \
                     \"textbox\", \"checkbox\" or \"listitem\"",
                    cap(&self.role, 40)
                ),
            )),
        }
    }

    /// `button[Save] in main`, `checkbox in listitem[Walk dog] in main`, `list 2 in
    /// region[Board]` (by its place), as a person would name it in a message or a record.
    pub fn describe(&self) -> String {
        let role = normalize_key(&self.role);
        let name = normalize_whitespace(&self.name);
        let region = self.region.as_deref().unwrap_or("");
        match (&self.within, self.nth) {
            (None, None) => describe_parts(&role, &cap(&name, 80), region),
            (within, nth) => {
                let mut head = if name.is_empty() {
                    role
                } else {
                    format!("{role}[{}]", cap(&name, 80))
                };
                if let Some(n) = nth {
                    let _ = write!(head, " {n}");
                }
                let Some(c) = within else {
                    return if region.is_empty() {
                        head
                    } else {
                        format!("{head} in {region}")
                    };
                };
                let place = c.describe();
                if region.is_empty() {
                    format!("{head} in {place}")
                } else {
                    format!("{head} in {place} in {region}")
                }
            }
        }
    }
}

/// Resolves a target given as untrusted JSON against an observation given as untrusted JSON
/// (the Snapshot wire form), optionally checking that the observation is the `expected` one.
/// Every failure is a typed error; nothing panics and no input is modified.
pub fn resolve_value(
    target: &Value,
    observation: &Value,
    expected: Option<&Value>,
) -> Result<Resolution> {
    let observation = snapshot_from_value(observation)?;
    let expected = expected
        .map(|v| context_from_value(v, "expected"))
        .transpose()?;
    let target = Target::from_value(target)?;
    resolve(&target, &observation, expected.as_ref())
}

/// Resolves `target` to exactly one visible element of `observation`. With `expected`, the
/// observation's context must equal it (`STALE_OBSERVATION` otherwise).
pub fn resolve(
    target: &Target,
    observation: &Snapshot,
    expected: Option<&Context>,
) -> Result<Resolution> {
    target.check()?;
    check_context(&observation.context, "observation.context")?;
    if let Some(expected) = expected {
        check_context(expected, "expected")?;
    }
    check_elements(&observation.elements)?;
    if let Some(expected) = expected {
        if *expected != observation.context {
            return Err(stale(expected, &observation.context));
        }
    }

    let query = Query::new(target);
    let mut matches: Vec<&Element> = observation
        .elements
        .iter()
        .filter(|e| query.selects(e))
        .collect();
    if observation.has_more {
        return Err(Error::new(
            ErrorCode::TargetQueryTruncated,
            format!(
                "the observation was cut short (hasMore), so it cannot show that {} is unique \
                 ({} matching in the part observed); take a snapshot with a larger maxElements or \
                 budgetMs, or limit it with regions",
                target.describe(),
                matches.len()
            ),
        ));
    }
    if let Some(n) = target.nth {
        let counted = matches.len();
        match matches.get(n as usize - 1).copied() {
            Some(one) => matches = vec![one],
            None if counted > 0 => {
                return Err(Error::new(
                    ErrorCode::TargetNotFound,
                    format!(
                        "{}: only {counted} visible element{} of that role and place {} now; \
                         the page changed since the target was taken, observe it again",
                        target.describe(),
                        if counted == 1 { "" } else { "s" },
                        if counted == 1 {
                            "is there"
                        } else {
                            "are there"
                        },
                    ),
                ))
            }
            None => {}
        }
    }
    match matches.as_slice() {
        // Only hidden elements have this identity: there is nothing a person could act on,
        // and saying so points at the step that should have shown it.
        [] if observation
            .elements
            .iter()
            .any(|e| !e.visible && query.is_same_identity(e) && query.meets_conditions(e)) =>
        {
            Err(Error::new(
                ErrorCode::TargetNotVisible,
                not_found_message(target, &query, observation),
            ))
        }
        [] => Err(Error::new(
            ErrorCode::TargetNotFound,
            not_found_message(target, &query, observation),
        )),
        [one] if one.disabled => Err(Error::new(
            ErrorCode::TargetDisabled,
            format!(
                "{} ({}) is disabled; wait until it is enabled, or check the step that should \
                 have enabled it",
                describe_element(one),
                one.reference
            ),
        )),
        [one] => Ok(Resolution {
            context: observation.context.clone(),
            target: (*one).clone(),
            authorized: false,
            dispatched: false,
        }),
        many => Err(
            Error::new(ErrorCode::TargetAmbiguous, ambiguous_message(target, many))
                .with_candidates(
                    many.iter()
                        .take(MAX_CANDIDATES)
                        .map(|e| candidate(e))
                        .collect(),
                ),
        ),
    }
}

/// The target that names `e`, an element of `observation`, as a person would: its role,
/// label, region and frame; for an element without a label, the named row it is in
/// (`checkbox in listitem[Walk dog]`), else its place among the visible elements without a
/// label of its role in its region (`list 2 in region[Board]`). What a driver turns a
/// library's element (a Playwright Locator matching one element) into, so that resolving
/// the target on the same observation gives back `e`. `TARGET_NOT_VISIBLE` for a hidden
/// element, `TARGET_NOT_FOUND` for one the observation does not hold.
pub fn target_of(e: &Element, observation: &Snapshot) -> Result<Target> {
    let shown = || describe_element(e);
    if !observation
        .elements
        .iter()
        .any(|x| x.reference == e.reference)
    {
        return Err(Error::new(
            ErrorCode::TargetNotFound,
            format!(
                "{} is not in the observation; observe the page again",
                shown()
            ),
        ));
    }
    if !e.visible {
        return Err(Error::new(
            ErrorCode::TargetNotVisible,
            format!("{} is hidden; nothing can act on it", shown()),
        ));
    }
    let label = e.label();
    let mut target = Target {
        role: e.role.as_str().to_owned(),
        name: label.to_owned(),
        region: Some(e.region.clone()),
        frame: (!e.frame.is_empty()).then(|| e.frame.clone()),
        ..Default::default()
    };
    if !label.is_empty() {
        return Ok(target);
    }
    target.within = e.within.as_deref().and_then(Container::parse);
    if target.within.is_none() {
        let query = Query::new(&target);
        let place = observation
            .elements
            .iter()
            .filter(|x| query.selects(x))
            .position(|x| x.reference == e.reference);
        target.nth = place.map(|i| u32::try_from(i + 1).unwrap_or(MAX_NTH).min(MAX_NTH));
    }
    Ok(target)
}

/// A target with its role parsed and its keys normalised once: the one rule for which
/// elements a target names, shared by `resolve` (which also wants them visible) and the typed
/// expectations of `expect` (which look at elements that went or came, visible or not).
pub struct Query<'t> {
    /// `None`: any role.
    role: Option<Role>,
    name: String,
    region: Option<String>,
    frame: Option<&'t str>,
    href: Option<&'t str>,
    in_viewport: Option<bool>,
    /// `listitem[walk dog]`, normalised.
    within: Option<String>,
}

impl<'t> Query<'t> {
    /// A role that is not an ARIA role matches any role; [`Target::check`] refuses one first.
    pub fn new(target: &'t Target) -> Self {
        Query {
            role: target.parsed_role().ok().flatten(),
            name: normalize_key(&target.name),
            region: target.region.as_deref().map(normalize_key),
            frame: target.frame.as_deref(),
            href: target.href.as_deref(),
            in_viewport: target.in_viewport,
            within: target.within.as_ref().map(|c| normalize_key(&c.describe())),
        }
    }

    /// Role and label, the identity part of the target.
    fn is_same_identity(&self, e: &Element) -> bool {
        self.has_role_of(e) && normalize_key(e.label()) == self.name
    }

    /// The target's role, if it names one; a `generic` target matches clickables only.
    fn has_role_of(&self, e: &Element) -> bool {
        match self.role {
            None => true,
            Some(Role::Generic) => e.role == Role::Generic && e.clickable,
            Some(role) => e.role == role,
        }
    }

    /// Role, label and every narrowing field but `region`, whatever the element's visibility.
    pub fn is_like(&self, e: &Element) -> bool {
        self.is_same_identity(e) && self.narrows_to(e)
    }

    /// `frame`, `href`, `inViewport` and `in`, each only when given.
    fn narrows_to(&self, e: &Element) -> bool {
        self.frame.is_none_or(|f| e.frame == f)
            && self.href.is_none_or(|h| e.href.as_deref() == Some(h))
            && self.in_viewport.is_none_or(|v| e.in_viewport == v)
            && self.within.as_ref().is_none_or(|w| {
                e.within
                    .as_deref()
                    .is_some_and(|place| normalize_key(place) == *w)
            })
    }

    /// Does the target give a `region`?
    pub fn has_region(&self) -> bool {
        self.region.is_some()
    }

    /// The target's `region`, when it gives one (compared normalised and exactly).
    pub fn in_region(&self, e: &Element) -> bool {
        self.region
            .as_ref()
            .is_none_or(|r| normalize_key(&e.region) == *r)
    }

    /// The optional narrowing fields, each only when given.
    fn meets_conditions(&self, e: &Element) -> bool {
        self.in_region(e) && self.narrows_to(e)
    }

    /// An element the target names, visible or not.
    pub fn matches(&self, e: &Element) -> bool {
        self.is_like(e) && self.in_region(e)
    }

    /// What resolve selects: a visible element the target names.
    fn selects(&self, e: &Element) -> bool {
        e.visible && self.matches(e)
    }
}

fn candidate(e: &Element) -> Candidate {
    Candidate {
        reference: e.reference.clone(),
        role: e.role.as_str().to_owned(),
        name: e.label().to_owned(),
        region: e.region.clone(),
    }
}

fn stale(expected: &Context, actual: &Context) -> Error {
    let mut differ = Vec::new();
    if expected.tab != actual.tab {
        differ.push("tab");
    }
    if expected.epoch != actual.epoch {
        differ.push("epoch (a new document)");
    }
    if expected.snapshot != actual.snapshot {
        differ.push("snapshot");
    }
    Error::new(
        ErrorCode::StaleObservation,
        format!(
            "the observation is not the expected one: it differs in {}; take a new snapshot and \
             resolve against it",
            differ.join(", ")
        ),
    )
}

fn ambiguous_message(target: &Target, many: &[&Element]) -> String {
    let mut msg = format!(
        "{} visible elements match {}: ",
        many.len(),
        target.describe()
    );
    for (i, e) in many.iter().take(MAX_CANDIDATES).enumerate() {
        if i > 0 {
            msg.push_str(", ");
        }
        let _ = write!(msg, "{} ({}", short(e), cap(&e.reference, 40));
        if e.disabled {
            msg.push_str(", disabled");
        }
        if !e.in_viewport {
            msg.push_str(", offscreen");
        }
        msg.push(')');
    }
    if many.len() > MAX_CANDIDATES {
        let _ = write!(msg, " and {} more", many.len() - MAX_CANDIDATES);
    }
    let first = many[0];
    let differ: Vec<&str> = [
        (
            "region",
            many.iter()
                .any(|e| normalize_key(&e.region) != normalize_key(&first.region)),
        ),
        ("frame", many.iter().any(|e| e.frame != first.frame)),
        ("href", many.iter().any(|e| e.href != first.href)),
        (
            "inViewport",
            many.iter().any(|e| e.in_viewport != first.in_viewport),
        ),
    ]
    .into_iter()
    .filter_map(|(field, differs)| differs.then_some(field))
    .collect();
    if differ.is_empty() {
        msg.push_str(
            "; they agree on region, frame, href and inViewport, so no target field tells them \
             apart: give the controls distinct accessible names or mark their parts with \
             data-ap-region",
        );
    } else {
        let _ = write!(
            msg,
            "; they differ in {}: add it to the target to pick one (resolve never picks the \
             first)",
            differ.join(", ")
        );
    }
    msg
}

/// The not-found message, with near misses when a second pass finds them: hidden twins,
/// twins the narrowing fields excluded, the same name under another role, and names of the
/// same role that contain the target's.
fn not_found_message(target: &Target, query: &Query<'_>, observation: &Snapshot) -> String {
    const SHOWN: usize = 3;
    let (mut hidden, mut excluded, mut other_role, mut containing) =
        (0usize, Vec::new(), Vec::new(), Vec::new());
    for e in &observation.elements {
        let label = normalize_key(e.label());
        if query.has_role_of(e) && label == query.name {
            if !e.visible {
                hidden += 1;
            } else {
                excluded.push(e);
            }
        } else if e.visible && label == query.name {
            other_role.push(e);
        } else if e.visible && query.has_role_of(e) && label.contains(query.name.as_str()) {
            containing.push(e);
        }
    }
    let mut msg = format!("no visible element matches {}", target.describe());
    if !excluded.is_empty() {
        let _ = write!(
            msg,
            "; {} with this role and name did not meet region/frame/href/inViewport: {}",
            excluded.len(),
            list(&excluded, SHOWN, |e| format!(
                "{} (frame {:?}, href {:?}, inViewport {})",
                short(e),
                cap(&e.frame, 20),
                e.href.as_deref().map(|h| cap(h, 60)),
                e.in_viewport
            ))
        );
    }
    if hidden > 0 {
        let _ = write!(
            msg,
            "; hidden (visible: false) with this role and name: {hidden}"
        );
    }
    if !other_role.is_empty() {
        let _ = write!(
            msg,
            "; same name, other role: {}",
            list(&other_role, SHOWN, short)
        );
    }
    if !containing.is_empty() {
        let _ = write!(
            msg,
            "; same role, longer name (names match exactly): {}",
            list(&containing, SHOWN, short)
        );
    }
    let opaque: Vec<&Element> = observation.elements.iter().filter(|e| e.opaque).collect();
    if !opaque.is_empty() {
        let _ = write!(
            msg,
            "; opaque (a closed shadow root or a cross-origin frame whose inside cannot be read), \
             the target may be inside: {}",
            list(&opaque, SHOWN, short)
        );
    }
    if observation.elements.is_empty() {
        msg.push_str("; the observation holds no elements");
    }
    msg
}

fn short(e: &Element) -> String {
    describe_parts(e.role.as_str(), &cap(e.label(), 80), &cap(&e.region, 80))
}

fn list(elements: &[&Element], shown: usize, show: impl Fn(&Element) -> String) -> String {
    let mut out: Vec<String> = elements.iter().take(shown).map(|e| show(e)).collect();
    if elements.len() > shown {
        out.push(format!("{} more", elements.len() - shown));
    }
    out.join(", ")
}

fn check_context(context: &Context, path: &str) -> Result<()> {
    non_blank(&context.tab, path, "tab", TEXT_LIMIT)?;
    non_blank(&context.snapshot, path, "snapshot", TEXT_LIMIT)
}

/// Bounds and unique, non-blank refs. Types guarantee the rest for typed elements; the JSON
/// reader checks every field's bound before it builds them.
fn check_elements(elements: &[Element]) -> Result<()> {
    if elements.len() > limits::MAX_ELEMENTS {
        return Err(too_many(elements.len()));
    }
    let mut seen = FxHashSet::default();
    seen.reserve(elements.len());
    for (i, e) in elements.iter().enumerate() {
        non_blank(&e.reference, &Indexed("elements", i), "ref", TEXT_LIMIT)?;
        if !seen.insert(e.reference.as_str()) {
            return Err(Error::new(
                ErrorCode::DuplicateReference,
                format!(
                    "elements[{i}].ref {:?} is used by an earlier element too; a ref names one \
                     node, so this observation cannot identify a target",
                    cap(&e.reference, 40)
                ),
            ));
        }
    }
    Ok(())
}

fn too_many(n: usize) -> Error {
    Error::new(
        ErrorCode::InvalidElements,
        format!(
            "the observation holds {n} elements, more than {}; take the snapshot with a smaller \
             maxElements or limit it with regions",
            limits::MAX_ELEMENTS
        ),
    )
}

// ---- Reading untrusted JSON -------------------------------------------------------------

/// A target as untrusted JSON writes it: each field as given, for the check in
/// [`Target::from_value`] to say which one is wrong and with which code. Keys no field takes
/// are kept (`unknown`), so the message lists every one of them and the keys there are.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireTarget {
    #[serde(default)]
    role: Given<String>,
    #[serde(default)]
    name: Given<String>,
    #[serde(default)]
    region: Given<String>,
    #[serde(default)]
    frame: Given<String>,
    #[serde(default)]
    href: Given<String>,
    #[serde(default)]
    in_viewport: Given<bool>,
    #[serde(default, rename = "in")]
    within: Given<WireContainer>,
    #[serde(default)]
    nth: Given<u64>,
    #[serde(flatten)]
    unknown: Map<String, Value>,
}

/// The keys of a target besides `name`.
const TARGET_OPTIONAL_KEYS: &[&str] =
    &["role", "region", "frame", "href", "inViewport", "in", "nth"];

/// The `in` of a target as untrusted JSON writes it.
#[derive(Deserialize)]
struct WireContainer {
    #[serde(default)]
    role: Given<String>,
    #[serde(default)]
    name: Given<String>,
    #[serde(flatten)]
    unknown: Map<String, Value>,
}

/// A field of untrusted JSON as given: absent, `null`, of the type wanted, or another value
/// (kept for the message, which names its JSON type only).
#[derive(Default)]
enum Given<T> {
    #[default]
    Absent,
    Null,
    Is(T),
    Not(Value),
}

impl<T> Given<T> {
    /// The key was there, whatever its value.
    fn is_given(&self) -> bool {
        !matches!(self, Given::Absent)
    }
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for Given<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let value = Value::deserialize(d)?;
        if value.is_null() {
            return Ok(Given::Null);
        }
        Ok(match T::deserialize(&value) {
            Ok(t) => Given::Is(t),
            Err(_) => Given::Not(value),
        })
    }
}

/// `path` must be an object: what was given instead.
fn not_an_object(path: &str, given: &Value) -> Error {
    Error::new(
        ErrorCode::InvalidFields,
        format!("{path} must be an object, got {}", kind(given)),
    )
}

/// An optional text field: absent or `null` is `None`.
fn given_text(given: Given<String>, path: &str, field: &str, max: usize) -> Result<Option<String>> {
    match given {
        Given::Absent | Given::Null => Ok(None),
        Given::Is(s) => within(&s, path, field, max).map(|()| Some(s)),
        Given::Not(v) => Err(not_a_string(&v, path, field)),
    }
}

/// A text field that must be there ([`keys`] said so): `null` is not a text.
fn required_text(given: Given<String>, path: &str, field: &str, max: usize) -> Result<String> {
    match given {
        Given::Is(s) => within(&s, path, field, max).map(|()| s),
        Given::Not(v) => Err(not_a_string(&v, path, field)),
        Given::Absent | Given::Null => Err(not_a_string(&Value::Null, path, field)),
    }
}

fn bad_nth(got: &str) -> Error {
    Error::new(
        ErrorCode::InvalidTarget,
        format!(
            "target.nth must be a whole number from 1 to {MAX_NTH}, got {}",
            cap(got, 40)
        ),
    )
}

fn not_a_string(value: &Value, path: &(impl std::fmt::Display + ?Sized), field: &str) -> Error {
    Error::new(
        ErrorCode::InvalidText,
        format!("{path}.{field} must be a string, got {}", kind(value)),
    )
}

const SNAPSHOT_KEYS: &[&str] = &["context", "hasMore", "elements", "texts"];
const TEXT_KEYS: &[&str] = &["kind", "text", "region", "frame"];
/// The keys `Element` always serialises.
const ELEMENT_KEYS: &[&str] = &[
    "ref",
    "role",
    "name",
    "region",
    "frame",
    "href",
    "value",
    "checked",
    "pressed",
    "selected",
    "expanded",
    "disabled",
    "visible",
    "inViewport",
    "focused",
    "sensitive",
];
/// The keys `Element` serialises only when set.
const ELEMENT_OPTIONAL_KEYS: &[&str] = &[
    "text",
    "within",
    "valueHash",
    "level",
    "opaque",
    "busy",
    "clickable",
];

/// Reads an observation in the Snapshot wire form, checking every key and type.
pub fn snapshot_from_value(value: &Value) -> Result<Snapshot> {
    let obj = object(value, "observation", SNAPSHOT_KEYS, &[])?;
    let context = context_from_value(&obj["context"], "observation.context")?;
    let has_more = match &obj["hasMore"] {
        Value::Bool(b) => *b,
        other => {
            return Err(Error::new(
                ErrorCode::InvalidCompleteness,
                format!(
                    "observation.hasMore must be true or false, got {}",
                    kind(other)
                ),
            ))
        }
    };
    let elements = match &obj["elements"] {
        Value::Array(items) if items.len() > limits::MAX_ELEMENTS => {
            return Err(too_many(items.len()))
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| element_from_value(v, i))
            .collect::<Result<_>>()?,
        other => {
            return Err(Error::new(
                ErrorCode::InvalidElements,
                format!("observation.elements must be a list, got {}", kind(other)),
            ))
        }
    };
    let texts = match &obj["texts"] {
        Value::Array(items) if items.len() <= limits::MAX_ELEMENTS => items
            .iter()
            .enumerate()
            .map(|(i, v)| text_from_value(v, i))
            .collect::<Result<_>>()?,
        other => {
            return Err(Error::new(
                ErrorCode::InvalidSnapshot,
                format!(
                    "observation.texts must be a list of at most {} entries, got {}",
                    limits::MAX_ELEMENTS,
                    kind(other)
                ),
            ))
        }
    };
    Ok(Snapshot {
        context,
        has_more,
        elements,
        texts,
    })
}

/// Reads a `{ tab, epoch, snapshot }` context: with serde into [`WireContext`], then checked
/// once, each field with its own error code.
pub fn context_from_value(value: &Value, path: &str) -> Result<Context> {
    let w = match Given::<WireContext>::deserialize(value) {
        Ok(Given::Is(w)) => w,
        _ => {
            return Err(Error::new(
                ErrorCode::InvalidContext,
                format!(
                    "{path} must be an object {{ tab, epoch, snapshot }}, got {}",
                    kind(value)
                ),
            ))
        }
    };
    keys(
        path,
        &[
            ("tab", w.tab.is_given()),
            ("epoch", w.epoch.is_given()),
            ("snapshot", w.snapshot.is_given()),
        ],
        &w.unknown,
        &[],
    )?;
    let tab = required_text(w.tab, path, "tab", TEXT_LIMIT)?;
    let epoch = match w.epoch {
        Given::Is(n) => n,
        Given::Not(v) => return Err(bad_epoch(path, &describe_number(&v))),
        Given::Absent | Given::Null => return Err(bad_epoch(path, "null")),
    };
    let snapshot = required_text(w.snapshot, path, "snapshot", TEXT_LIMIT)?;
    let context = Context {
        tab,
        epoch,
        snapshot,
    };
    check_context(&context, path)?;
    Ok(context)
}

/// A context as untrusted JSON writes it.
#[derive(Deserialize)]
struct WireContext {
    #[serde(default)]
    tab: Given<String>,
    #[serde(default)]
    epoch: Given<u64>,
    #[serde(default)]
    snapshot: Given<String>,
    #[serde(flatten)]
    unknown: Map<String, Value>,
}

fn bad_epoch(path: &str, got: &str) -> Error {
    Error::new(
        ErrorCode::InvalidEpoch,
        format!("{path}.epoch must be a non-negative integer, got {got}"),
    )
}

fn element_from_value(value: &Value, i: usize) -> Result<Element> {
    let path = Indexed("elements", i);
    let obj = object(value, &path, ELEMENT_KEYS, ELEMENT_OPTIONAL_KEYS)?;
    let role_text = string(&obj["role"], &path, "role", TEXT_LIMIT)?;
    // `unknown` is how `Role::Unknown` serialises; it is a valid observation, never a match.
    let role = match Role::parse(role_text) {
        Some(role) => role,
        None if role_text == Role::Unknown.as_str() => Role::Unknown,
        None => {
            return Err(Error::new(
                ErrorCode::InvalidText,
                format!("{path}.role {:?} is not an ARIA role", cap(role_text, 40)),
            ))
        }
    };
    let reference = string(&obj["ref"], &path, "ref", TEXT_LIMIT)?;
    non_blank(reference, &path, "ref", TEXT_LIMIT)?;
    Ok(Element {
        reference: reference.to_owned(),
        role,
        name: string(&obj["name"], &path, "name", TEXT_LIMIT)?.to_owned(),
        text: optional_string(obj.get("text"), &path, "text", TEXT_LIMIT)?,
        region: string(&obj["region"], &path, "region", PAGE_LOCATOR_LIMIT)?.to_owned(),
        within: optional_string(obj.get("within"), &path, "within", PAGE_LOCATOR_LIMIT)?,
        frame: string(&obj["frame"], &path, "frame", PAGE_LOCATOR_LIMIT)?.to_owned(),
        href: optional_string(Some(&obj["href"]), &path, "href", PAGE_LOCATOR_LIMIT)?,
        value: optional_string(Some(&obj["value"]), &path, "value", TEXT_LIMIT)?,
        value_hash: optional_string(obj.get("valueHash"), &path, "valueHash", TEXT_LIMIT)?,
        checked: tristate(&obj["checked"], &path, "checked")?,
        pressed: tristate(&obj["pressed"], &path, "pressed")?,
        selected: optional_bool(&obj["selected"], &path, "selected")?,
        expanded: optional_bool(&obj["expanded"], &path, "expanded")?,
        disabled: state(&obj["disabled"], &path, "disabled")?,
        visible: state(&obj["visible"], &path, "visible")?,
        in_viewport: state(&obj["inViewport"], &path, "inViewport")?,
        focused: state(&obj["focused"], &path, "focused")?,
        sensitive: state(&obj["sensitive"], &path, "sensitive")?,
        level: match obj.get("level") {
            None | Some(Value::Null) => None,
            Some(v) => match v.as_u64().and_then(|n| u8::try_from(n).ok()) {
                Some(level) => Some(level),
                None => {
                    return Err(Error::new(
                        ErrorCode::InvalidState,
                        format!(
                            "{path}.level must be an integer from 0 to 255, got {}",
                            describe_number(v)
                        ),
                    ))
                }
            },
        },
        opaque: match obj.get("opaque") {
            None => false,
            Some(v) => state(v, &path, "opaque")?,
        },
        busy: match obj.get("busy") {
            None => false,
            Some(v) => state(v, &path, "busy")?,
        },
        clickable: match obj.get("clickable") {
            None => false,
            Some(v) => state(v, &path, "clickable")?,
        },
    })
}

fn text_from_value(value: &Value, i: usize) -> Result<Text> {
    let path = Indexed("texts", i);
    let obj = object(value, &path, TEXT_KEYS, &[])?;
    let kind_text = string(&obj["kind"], &path, "kind", TEXT_LIMIT)?;
    let text_kind = serde_json::from_value::<TextKind>(Value::String(kind_text.to_owned()))
        .map_err(|_| {
            Error::new(
                ErrorCode::InvalidText,
                format!(
                    "{path}.kind {:?} is not one of paragraph, status, alert, log, watch, other, plain",
                    cap(kind_text, 40)
                ),
            )
        })?;
    Ok(Text {
        kind: text_kind,
        text: string(&obj["text"], &path, "text", TEXT_LIMIT)?.to_owned(),
        region: string(&obj["region"], &path, "region", PAGE_LOCATOR_LIMIT)?.to_owned(),
        frame: string(&obj["frame"], &path, "frame", PAGE_LOCATOR_LIMIT)?.to_owned(),
    })
}

/// `elements[3]`: a path built only when a message needs it.
struct Indexed(&'static str, usize);

impl std::fmt::Display for Indexed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}[{}]", self.0, self.1)
    }
}

/// `value` as an object holding every `required` key, and otherwise only `optional` ones.
/// On success every `required` key can be indexed without a `Null` fallback.
fn object<'v>(
    value: &'v Value,
    path: &(impl std::fmt::Display + ?Sized),
    required: &[&str],
    optional: &[&str],
) -> Result<&'v Map<String, Value>> {
    let Value::Object(obj) = value else {
        return Err(Error::new(
            ErrorCode::InvalidFields,
            format!("{path} must be an object, got {}", kind(value)),
        ));
    };
    let given: Vec<(&str, bool)> = required
        .iter()
        .map(|k| (*k, obj.contains_key(*k)))
        .collect();
    let unknown = obj
        .iter()
        .filter(|(k, _)| !required.contains(&k.as_str()) && !optional.contains(&k.as_str()));
    keys_of(path, &given, unknown.map(|(k, _)| k), optional)?;
    Ok(obj)
}

/// Every required key given (`required`: each with whether it was), no `unknown` one.
fn keys(
    path: &(impl std::fmt::Display + ?Sized),
    required: &[(&str, bool)],
    unknown: &Map<String, Value>,
    optional: &[&str],
) -> Result<()> {
    keys_of(path, required, unknown.keys(), optional)
}

fn keys_of<'k>(
    path: &(impl std::fmt::Display + ?Sized),
    required: &[(&str, bool)],
    unknown: impl Iterator<Item = &'k String>,
    optional: &[&str],
) -> Result<()> {
    let missing: Vec<&str> = required
        .iter()
        .filter(|(_, given)| !given)
        .map(|(k, _)| *k)
        .collect();
    let unknown: Vec<String> = unknown
        .take(5)
        .map(|k| format!("{:?}", cap(k, 40)))
        .collect();
    if missing.is_empty() && unknown.is_empty() {
        return Ok(());
    }
    let mut msg = format!("{path} ");
    if !missing.is_empty() {
        let _ = write!(msg, "lacks {}", missing.join(", "));
    }
    if !unknown.is_empty() {
        if !missing.is_empty() {
            msg.push_str(" and ");
        }
        let _ = write!(msg, "has unknown keys {}", unknown.join(", "));
    }
    let mut allowed: Vec<&str> = required.iter().map(|(k, _)| *k).collect();
    allowed.extend_from_slice(optional);
    let _ = write!(msg, "; the keys are {}", allowed.join(", "));
    Err(Error::new(ErrorCode::InvalidFields, msg))
}

fn string<'v>(
    value: &'v Value,
    path: &(impl std::fmt::Display + ?Sized),
    field: &str,
    max: usize,
) -> Result<&'v str> {
    match value {
        Value::String(s) => {
            within(s, path, field, max)?;
            Ok(s)
        }
        other => Err(not_a_string(other, path, field)),
    }
}

/// Absent or `null` is `None`.
fn optional_string(
    value: Option<&Value>,
    path: &(impl std::fmt::Display + ?Sized),
    field: &str,
    max: usize,
) -> Result<Option<String>> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(v) => string(v, path, field, max).map(|s| Some(s.to_owned())),
    }
}

fn within(
    s: &str,
    path: &(impl std::fmt::Display + ?Sized),
    field: &str,
    max: usize,
) -> Result<()> {
    if s.len() <= max || s.chars().nth(max).is_none() {
        Ok(())
    } else {
        Err(Error::new(
            ErrorCode::InvalidText,
            format!("{path}.{field} is longer than {max} characters"),
        ))
    }
}

fn non_blank(
    s: &str,
    path: &(impl std::fmt::Display + ?Sized),
    field: &str,
    max: usize,
) -> Result<()> {
    within(s, path, field, max)?;
    if normalize_whitespace(s).is_empty() {
        return Err(Error::new(
            ErrorCode::InvalidText,
            format!("{path}.{field} must not be empty"),
        ));
    }
    Ok(())
}

fn state(value: &Value, path: &(impl std::fmt::Display + ?Sized), field: &str) -> Result<bool> {
    match value {
        Value::Bool(b) => Ok(*b),
        other => Err(Error::new(
            ErrorCode::InvalidState,
            format!("{path}.{field} must be true or false, got {}", kind(other)),
        )),
    }
}

fn optional_bool(
    value: &Value,
    path: &(impl std::fmt::Display + ?Sized),
    field: &str,
) -> Result<Option<bool>> {
    match value {
        Value::Null => Ok(None),
        Value::Bool(b) => Ok(Some(*b)),
        other => Err(Error::new(
            ErrorCode::InvalidState,
            format!(
                "{path}.{field} must be true, false or null, got {}",
                kind(other)
            ),
        )),
    }
}

fn tristate(
    value: &Value,
    path: &(impl std::fmt::Display + ?Sized),
    field: &str,
) -> Result<Option<Tristate>> {
    match value {
        Value::Null => Ok(None),
        Value::Bool(b) => Ok(Some((*b).into())),
        Value::String(s) if s == "mixed" => Ok(Some(Tristate::Mixed)),
        other => Err(Error::new(
            ErrorCode::InvalidState,
            format!(
                "{path}.{field} must be true, false, \"mixed\" or null, got {}",
                kind(other)
            ),
        )),
    }
}

/// The JSON type of a value, for messages: never the value itself, which may be a secret.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Numbers are shown (an epoch or level is no secret); other values by type only.
fn describe_number(value: &Value) -> String {
    match value {
        Value::Number(n) => n.to_string(),
        other => kind(other).to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ctx() -> Context {
        Context {
            tab: "t1".into(),
            epoch: 7,
            snapshot: "s1".into(),
        }
    }

    fn el(reference: &str, role: Role, name: &str) -> Element {
        Element {
            reference: reference.into(),
            role,
            name: name.into(),
            region: "main".into(),
            visible: true,
            in_viewport: true,
            ..Default::default()
        }
    }

    fn button(reference: &str, name: &str) -> Element {
        el(reference, Role::Button, name)
    }

    fn snap(elements: Vec<Element>) -> Snapshot {
        Snapshot {
            context: ctx(),
            has_more: false,
            elements,
            texts: Vec::new(),
        }
    }

    fn save() -> Target {
        Target::new("button", "Save")
    }

    fn hidden(e: Element) -> Element {
        Element {
            visible: false,
            ..e
        }
    }

    fn disabled(e: Element) -> Element {
        Element {
            disabled: true,
            ..e
        }
    }

    fn offscreen(e: Element) -> Element {
        Element {
            in_viewport: false,
            ..e
        }
    }

    fn in_region(region: &str, e: Element) -> Element {
        Element {
            region: region.into(),
            ..e
        }
    }

    fn in_frame(frame: &str, e: Element) -> Element {
        Element {
            frame: frame.into(),
            ..e
        }
    }

    fn with_href(href: &str, e: Element) -> Element {
        Element {
            href: Some(href.into()),
            ..e
        }
    }

    fn with_text(text: &str, e: Element) -> Element {
        Element {
            text: Some(text.into()),
            ..e
        }
    }

    /// `Save` narrowed by one field.
    fn save_where(narrow: fn(&mut Target)) -> Target {
        let mut t = save();
        narrow(&mut t);
        t
    }

    /// `Ok(ref)` or `Err(code)`.
    fn outcome(r: Result<Resolution>) -> std::result::Result<String, ErrorCode> {
        r.map(|res| res.target.reference).map_err(|e| e.code)
    }

    type Want = std::result::Result<&'static str, ErrorCode>;

    #[test]
    fn typed_cases() {
        use ErrorCode::*;
        let docs = |href: &str| {
            let mut t = Target::new("link", "Docs");
            t.href = Some(href.into());
            t
        };
        let long = "x".repeat(TEXT_LIMIT + 1);
        #[rustfmt::skip]
        let cases: Vec<(&str, Target, Vec<Element>, Want)> = vec![
            ("unique", save(), vec![button("e1", "Save"), button("e2", "Cancel")], Ok("e1")),
            ("any role by name", Target { role: String::new(), ..Target::new("button", "Save") }, vec![button("e1", "Save"), button("e2", "Cancel")], Ok("e1")),
            ("any role, two roles", Target { role: String::new(), ..Target::new("button", "Save") }, vec![button("e1", "Save"), el("e2", Role::Link, "Save")], Err(TargetAmbiguous)),
            ("generic matches a clickable", Target::new("generic", "Add to bag"), vec![el("e1", Role::Generic, "Add to bag"), Element { clickable: true, ..el("e2", Role::Generic, "Add to bag") }], Ok("e2")),
            ("generic never a plain container", Target::new("generic", "Add to bag"), vec![el("e1", Role::Generic, "Add to bag")], Err(TargetNotFound)),
            ("duplicates", save(), vec![button("e1", "Save"), button("e2", "Save")], Err(TargetAmbiguous)),
            ("hidden duplicate excluded", save(), vec![hidden(button("e1", "Save")), button("e2", "Save")], Ok("e2")),
            ("only hidden is not visible", save(), vec![hidden(button("e1", "Save"))], Err(TargetNotVisible)),
            ("disabled duplicate still counts", save(), vec![disabled(button("e1", "Save")), button("e2", "Save")], Err(TargetAmbiguous)),
            ("one disabled target", save(), vec![disabled(button("e1", "Save")), button("e2", "Cancel")], Err(TargetDisabled)),
            ("hidden twin of a disabled target", save(), vec![disabled(button("e1", "Save")), hidden(button("e2", "Save"))], Err(TargetDisabled)),
            ("offscreen twin is ambiguous", save(), vec![button("e1", "Save"), offscreen(button("e2", "Save"))], Err(TargetAmbiguous)),
            ("explicit viewport true", save_where(|t| t.in_viewport = Some(true)), vec![button("e1", "Save"), offscreen(button("e2", "Save"))], Ok("e1")),
            ("explicit viewport false", save_where(|t| t.in_viewport = Some(false)), vec![button("e1", "Save"), offscreen(button("e2", "Save"))], Ok("e2")),
            ("lone offscreen target", save(), vec![offscreen(button("e1", "Save"))], Ok("e1")),
            ("frame condition", save_where(|t| t.frame = Some("0".into())), vec![button("e1", "Save"), in_frame("0", button("e2", "Save"))], Ok("e2")),
            ("top frame is the empty frame", save_where(|t| t.frame = Some(String::new())), vec![button("e1", "Save"), in_frame("0", button("e2", "Save"))], Ok("e1")),
            ("frame condition with no match", save_where(|t| t.frame = Some("1".into())), vec![button("e1", "Save"), in_frame("0", button("e2", "Save"))], Err(TargetNotFound)),
            ("href condition", docs("/b"), vec![with_href("/a", el("e1", Role::Link, "Docs")), with_href("/b", el("e2", Role::Link, "Docs"))], Ok("e2")),
            ("href is exact", docs("/B"), vec![with_href("/b", el("e1", Role::Link, "Docs"))], Err(TargetNotFound)),
            ("href never matches a link without one", docs("/a"), vec![el("e1", Role::Link, "Docs")], Err(TargetNotFound)),
            ("region narrows", save_where(|t| t.region = Some("dialog[Confirm]".into())), vec![button("e1", "Save"), in_region("dialog[Confirm]", button("e2", "Save"))], Ok("e2")),
            ("region compared normalised", save_where(|t| t.region = Some("  DIALOG[confirm] ".into())), vec![button("e1", "Save"), in_region("dialog[Confirm]", button("e2", "Save"))], Ok("e2")),
            ("empty region is the document level", save_where(|t| t.region = Some(String::new())), vec![button("e1", "Save"), in_region("", button("e2", "Save"))], Ok("e2")),
            ("region is exact, not a prefix", save_where(|t| t.region = Some("cart".into())), vec![in_region("cart/list:items", button("e1", "Save"))], Err(TargetNotFound)),
            ("whitespace and case normalised", Target::new(" BUTTON ", "  save\n\u{a0}"), vec![button("e1", "Save")], Ok("e1")),
            ("element name normalised too", save(), vec![button("e1", " SAVE\t")], Ok("e1")),
            ("Save is not Save draft", save(), vec![button("e1", "Save draft")], Err(TargetNotFound)),
            ("Save draft is not Save", Target::new("button", "Save draft"), vec![button("e1", "Save")], Err(TargetNotFound)),
            ("Save among Save draft", save(), vec![button("e1", "Save draft"), button("e2", "Save")], Ok("e2")),
            ("role must match", save(), vec![el("e1", Role::Link, "Save")], Err(TargetNotFound)),
            ("presentation is none", Target::new("presentation", "x"), vec![el("e1", Role::None, "x")], Ok("e1")),
            ("nameless container matched by its text", Target::new("listitem", "shirt m"), vec![with_text("Shirt M", el("e1", Role::Listitem, ""))], Ok("e1")),
            ("named element not matched by its text", Target::new("listitem", "Shirt M"), vec![with_text("Shirt M", el("e1", Role::Listitem, "Line 1"))], Err(TargetNotFound)),
            ("nameless element without text", Target::new("listitem", "x"), vec![el("e1", Role::Listitem, "")], Err(TargetNotFound)),
            ("empty observation", save(), vec![], Err(TargetNotFound)),
            ("duplicate refs", save(), vec![button("e1", "Save"), button("e1", "Cancel")], Err(DuplicateReference)),
            ("duplicate refs among hidden elements", save(), vec![button("e1", "Save"), hidden(button("e2", "x")), hidden(button("e2", "y"))], Err(DuplicateReference)),
            ("blank ref", save(), vec![button(" ", "Save")], Err(InvalidText)),
            ("empty target name", Target::new("button", ""), vec![button("e1", "")], Err(InvalidText)),
            ("blank target name", Target::new("button", " \u{a0}\n"), vec![button("e1", "")], Err(InvalidText)),
            ("empty target role is any role", Target::new("", "Save"), vec![button("e1", "Save")], Ok("e1")),
            ("blank target role", Target::new(" ", "Save"), vec![button("e1", "Save")], Err(InvalidText)),
            ("unknown target role", Target::new("buton", "Save"), vec![button("e1", "Save")], Err(InvalidTarget)),
            ("unknown is not a target role", Target::new("unknown", "x"), vec![el("e1", Role::Unknown, "x")], Err(InvalidTarget)),
            ("blank target href", save_where(|t| t.href = Some(" ".into())), vec![button("e1", "Save")], Err(InvalidText)),
            ("over-long target name", Target::new("button", long.as_str()), vec![button("e1", "Save")], Err(InvalidText)),
        ];
        for (name, target, elements, want) in cases {
            let obs = snap(elements);
            let want = want.map(str::to_owned);
            assert_eq!(
                outcome(resolve(&target, &obs, Some(&ctx()))),
                want,
                "{name}"
            );
            // The JSON path gives the same answer for the same data.
            let got = resolve_value(
                &serde_json::to_value(&target).unwrap(),
                &serde_json::to_value(&obs).unwrap(),
                Some(&serde_json::to_value(ctx()).unwrap()),
            );
            assert_eq!(outcome(got), want, "{name} (JSON)");
        }
    }

    #[test]
    fn check_order() {
        use ErrorCode::*;
        let two = || vec![button("e1", "Save"), button("e2", "Save")];
        let truncated = |elements: Vec<Element>| Snapshot {
            has_more: true,
            ..snap(elements)
        };
        let other = Some(Context { epoch: 8, ..ctx() });
        #[rustfmt::skip]
        let cases: Vec<(&str, Target, Snapshot, Option<Context>, ErrorCode)> = vec![
            ("truncated with one match", save(), truncated(vec![button("e1", "Save")]), None, TargetQueryTruncated),
            ("truncated with no match", save(), truncated(vec![]), None, TargetQueryTruncated),
            ("truncated before ambiguous", save(), truncated(two()), None, TargetQueryTruncated),
            ("truncated before disabled", save(), truncated(vec![disabled(button("e1", "Save"))]), None, TargetQueryTruncated),
            ("stale before truncated", save(), truncated(two()), other.clone(), StaleObservation),
            ("invalid target before stale", Target::new("button", ""), snap(two()), other.clone(), InvalidText),
            ("duplicate before stale", save(), snap(vec![button("e1", "a"), button("e1", "b")]), other, DuplicateReference),
        ];
        for (name, target, obs, expected, want) in cases {
            assert_eq!(
                outcome(resolve(&target, &obs, expected.as_ref())),
                Err(want),
                "{name}"
            );
        }
    }

    #[test]
    fn staleness() {
        let obs = snap(vec![button("e1", "Save")]);
        #[rustfmt::skip]
        let cases: [(&str, Context, Want); 5] = [
            ("same", ctx(), Ok("e1")),
            ("tab", Context { tab: "t2".into(), ..ctx() }, Err(ErrorCode::StaleObservation)),
            ("epoch", Context { epoch: 8, ..ctx() }, Err(ErrorCode::StaleObservation)),
            ("snapshot", Context { snapshot: "s2".into(), ..ctx() }, Err(ErrorCode::StaleObservation)),
            ("blank expected tab", Context { tab: "".into(), ..ctx() }, Err(ErrorCode::InvalidText)),
        ];
        for (name, expected, want) in cases {
            assert_eq!(
                outcome(resolve(&save(), &obs, Some(&expected))),
                want.map(str::to_owned),
                "{name}"
            );
        }
        assert_eq!(
            outcome(resolve(&save(), &obs, None)),
            Ok("e1".into()),
            "no expectation, no check"
        );
        let e = resolve(&save(), &obs, Some(&Context { epoch: 8, ..ctx() })).unwrap_err();
        assert!(e.message.contains("epoch"), "{}", e.message);
        assert!(!e.message.contains("tab"), "{}", e.message);
    }

    /// Resolves `button[Save]` in a valid JSON observation after `mutate` changed the
    /// observation, the target or the expected context.
    fn json_case(mutate: impl FnOnce(&mut Value, &mut Value, &mut Value)) -> Result<Resolution> {
        let obs = snap(vec![
            Element {
                checked: Some(Tristate::Mixed),
                level: Some(2),
                ..button("e1", "Save")
            },
            Element {
                value_hash: Some("h".into()),
                ..with_text("Shirt M", el("e2", Role::Listitem, ""))
            },
        ]);
        let mut obs = serde_json::to_value(obs).unwrap();
        obs["texts"] =
            json!([{ "kind": "status", "text": "Saved", "region": "main", "frame": "" }]);
        obs["elements"][0]["opaque"] = json!(false);
        let mut target = json!({ "role": "button", "name": "Save" });
        let mut expected = json!({ "tab": "t1", "epoch": 7, "snapshot": "s1" });
        mutate(&mut obs, &mut target, &mut expected);
        resolve_value(&target, &obs, Some(&expected))
    }

    #[test]
    fn json_validation() {
        use ErrorCode::*;
        type Mutation = fn(&mut Value, &mut Value, &mut Value);
        fn remove(v: &mut Value, key: &str) {
            v.as_object_mut().unwrap().remove(key);
        }
        #[rustfmt::skip]
        let cases: Vec<(&str, Mutation, Want)> = vec![
            ("valid", |_, _, _| {}, Ok("e1")),
            ("null optional target keys", |_, t, _| t["frame"] = Value::Null, Ok("e1")),
            ("all target keys", |_, t, _| *t = json!({"role": "button", "name": "Save", "region": "main", "frame": "", "href": null, "inViewport": true}), Ok("e1")),
            ("optional element keys absent", |o, _, _| { remove(&mut o["elements"][0], "level"); remove(&mut o["elements"][0], "opaque"); }, Ok("e1")),
            ("optional element text null", |o, _, _| o["elements"][0]["text"] = Value::Null, Ok("e1")),
            ("role serialised from Role::Unknown", |o, _, _| o["elements"][1]["role"] = json!("unknown"), Ok("e1")),
            ("long page href", |o, _, _| o["elements"][1]["href"] = json!("h".repeat(4 * LOCATOR_LIMIT)), Ok("e1")),
            ("long page region", |o, _, _| o["elements"][1]["region"] = json!("r".repeat(4 * LOCATOR_LIMIT)), Ok("e1")),
            // Observation shape.
            ("observation not an object", |o, _, _| *o = json!([1]), Err(InvalidFields)),
            ("observation unknown key", |o, _, _| o["extra"] = json!(1), Err(InvalidFields)),
            ("observation snake case key", |o, _, _| { remove(o, "hasMore"); o["has_more"] = json!(false); }, Err(InvalidFields)),
            ("observation without texts", |o, _, _| remove(o, "texts"), Err(InvalidFields)),
            ("hasMore 1 is not a boolean", |o, _, _| o["hasMore"] = json!(1), Err(InvalidCompleteness)),
            ("hasMore string", |o, _, _| o["hasMore"] = json!("false"), Err(InvalidCompleteness)),
            ("elements not a list", |o, _, _| o["elements"] = json!({}), Err(InvalidElements)),
            ("elements null", |o, _, _| o["elements"] = Value::Null, Err(InvalidElements)),
            ("texts not a list", |o, _, _| o["texts"] = json!("x"), Err(InvalidSnapshot)),
            ("text unknown kind", |o, _, _| o["texts"][0]["kind"] = json!("shout"), Err(InvalidText)),
            ("text unknown key", |o, _, _| o["texts"][0]["x"] = json!(1), Err(InvalidFields)),
            // Contexts.
            ("context not an object", |o, _, _| o["context"] = json!("t1"), Err(InvalidContext)),
            ("expected null", |_, _, x| *x = Value::Null, Err(InvalidContext)),
            ("expected unknown key", |_, _, x| x["url"] = json!("/"), Err(InvalidFields)),
            ("context missing snapshot", |o, _, _| remove(&mut o["context"], "snapshot"), Err(InvalidFields)),
            ("negative epoch", |o, _, _| o["context"]["epoch"] = json!(-1), Err(InvalidEpoch)),
            ("float epoch", |_, _, x| x["epoch"] = json!(7.0), Err(InvalidEpoch)),
            ("fractional epoch", |_, _, x| x["epoch"] = json!(7.5), Err(InvalidEpoch)),
            ("string epoch", |_, _, x| x["epoch"] = json!("7"), Err(InvalidEpoch)),
            ("empty tab", |o, _, _| o["context"]["tab"] = json!(""), Err(InvalidText)),
            ("numeric snapshot id", |_, _, x| x["snapshot"] = json!(1), Err(InvalidText)),
            ("changed tab", |_, _, x| x["tab"] = json!("t2"), Err(StaleObservation)),
            ("changed epoch", |_, _, x| x["epoch"] = json!(8), Err(StaleObservation)),
            ("changed snapshot", |_, _, x| x["snapshot"] = json!("s0"), Err(StaleObservation)),
            // Elements.
            ("element not an object", |o, _, _| o["elements"][1] = Value::Null, Err(InvalidFields)),
            ("element unknown key", |o, _, _| o["elements"][1]["onclick"] = json!("x"), Err(InvalidFields)),
            ("element missing state", |o, _, _| remove(&mut o["elements"][1], "focused"), Err(InvalidFields)),
            ("element missing nullable href", |o, _, _| remove(&mut o["elements"][1], "href"), Err(InvalidFields)),
            ("visible 1 is not true", |o, _, _| o["elements"][0]["visible"] = json!(1), Err(InvalidState)),
            ("disabled 0 is not false", |o, _, _| o["elements"][0]["disabled"] = json!(0), Err(InvalidState)),
            ("element inViewport string", |o, _, _| o["elements"][0]["inViewport"] = json!("true"), Err(InvalidState)),
            ("visible null", |o, _, _| o["elements"][0]["visible"] = Value::Null, Err(InvalidState)),
            ("selected number", |o, _, _| o["elements"][0]["selected"] = json!(1), Err(InvalidState)),
            ("checked other string", |o, _, _| o["elements"][0]["checked"] = json!("yes"), Err(InvalidState)),
            ("opaque null", |o, _, _| o["elements"][0]["opaque"] = Value::Null, Err(InvalidState)),
            ("level too big", |o, _, _| o["elements"][0]["level"] = json!(300), Err(InvalidState)),
            ("level float", |o, _, _| o["elements"][0]["level"] = json!(2.5), Err(InvalidState)),
            ("element name number", |o, _, _| o["elements"][0]["name"] = json!(5), Err(InvalidText)),
            ("element role not an ARIA role", |o, _, _| o["elements"][0]["role"] = json!("clickable"), Err(InvalidText)),
            ("element ref empty", |o, _, _| o["elements"][0]["ref"] = json!(""), Err(InvalidText)),
            ("element ref number", |o, _, _| o["elements"][0]["ref"] = json!(1), Err(InvalidText)),
            ("element href number", |o, _, _| o["elements"][0]["href"] = json!(1), Err(InvalidText)),
            ("element name over-long", |o, _, _| o["elements"][1]["name"] = json!("n".repeat(TEXT_LIMIT + 1)), Err(InvalidText)),
            ("element duplicate ref", |o, _, _| o["elements"][1]["ref"] = json!("e1"), Err(DuplicateReference)),
            // Target.
            ("target not an object", |_, t, _| *t = json!("Save"), Err(InvalidFields)),
            ("target unknown key", |_, t, _| t["index"] = json!(0), Err(InvalidFields)),
            ("target snake case key", |_, t, _| t["in_viewport"] = json!(true), Err(InvalidFields)),
            ("target role null", |_, t, _| t["role"] = json!(null), Ok("e1")),
            ("target without role", |_, t, _| remove(t, "role"), Ok("e1")),
            ("target role blank", |_, t, _| t["role"] = json!(" "), Err(InvalidText)),
            ("target inViewport 1", |_, t, _| t["inViewport"] = json!(1), Err(InvalidViewport)),
            ("target name number", |_, t, _| t["name"] = json!(1), Err(InvalidText)),
            ("target name empty", |_, t, _| t["name"] = json!(""), Err(InvalidText)),
            ("target frame list", |_, t, _| t["frame"] = json!([]), Err(InvalidText)),
            ("target region over-long", |_, t, _| t["region"] = json!("r".repeat(LOCATOR_LIMIT + 1)), Err(InvalidText)),
            ("target role unknown", |_, t, _| t["role"] = json!("btn"), Err(InvalidTarget)),
        ];
        for (name, mutate, want) in cases {
            assert_eq!(
                outcome(json_case(mutate)),
                want.map(str::to_owned),
                "{name}"
            );
        }
    }

    #[test]
    fn text_bound_admits_a_capped_name() {
        let capped = crate::core::text::cap(&"n".repeat(1000), limits::MAX_TEXT_CHARS).into_owned();
        assert_eq!(capped.chars().count(), TEXT_LIMIT);
        let obs = serde_json::to_value(snap(vec![button("e1", &capped)])).unwrap();
        let target = serde_json::to_value(Target::new("button", capped)).unwrap();
        assert_eq!(
            outcome(resolve_value(&target, &obs, None)),
            Ok("e1".to_owned())
        );
    }

    #[test]
    fn element_count_is_bounded() {
        // Counted before any element is read: nulls over the bound are INVALID_ELEMENTS, not
        // INVALID_FIELDS.
        let over = json!({
            "context": { "tab": "t1", "epoch": 7, "snapshot": "s1" },
            "hasMore": false,
            "elements": vec![Value::Null; limits::MAX_ELEMENTS + 1],
            "texts": [],
        });
        let target = json!({ "role": "button", "name": "Save" });
        assert_eq!(
            outcome(resolve_value(&target, &over, None)),
            Err(ErrorCode::InvalidElements)
        );

        let last = limits::MAX_ELEMENTS - 1;
        let mut elements: Vec<Element> = (0..limits::MAX_ELEMENTS)
            .map(|i| button(&format!("e{i}"), "Other"))
            .collect();
        elements[last].name = "Save".into();
        let mut obs = snap(elements);
        assert_eq!(
            outcome(resolve(&save(), &obs, None)),
            Ok(format!("e{last}"))
        );
        obs.elements.push(button("extra", "x"));
        assert_eq!(
            outcome(resolve(&save(), &obs, None)),
            Err(ErrorCode::InvalidElements)
        );
    }

    #[test]
    fn ambiguity_lists_at_most_ten_candidates_and_says_how_to_narrow() {
        let elements: Vec<Element> = (0..15)
            .map(|i| in_region(&format!("list:{i}"), button(&format!("e{i}"), "Save")))
            .collect();
        let e = resolve(&save(), &snap(elements), None).unwrap_err();
        assert_eq!(e.code, ErrorCode::TargetAmbiguous);
        assert_eq!(e.candidates.len(), MAX_CANDIDATES);
        let first = Candidate {
            reference: "e0".into(),
            role: "button".into(),
            name: "Save".into(),
            region: "list:0".into(),
        };
        assert_eq!(e.candidates[0], first);
        assert_eq!(e.candidates[9].reference, "e9");
        assert!(
            e.message
                .starts_with("15 visible elements match button[Save]"),
            "{}",
            e.message
        );
        assert!(e.message.contains("and 5 more"), "{}", e.message);
        assert!(e.message.contains("differ in region"), "{}", e.message);
        assert!(!e.message.contains("e10"), "{}", e.message);

        let twins = vec![
            button("e1", "Save"),
            disabled(offscreen(button("e2", "Save"))),
        ];
        let e = resolve(&save(), &snap(twins), None).unwrap_err();
        assert!(e.message.contains("differ in inViewport"), "{}", e.message);
        assert!(
            e.message.contains("(e2, disabled, offscreen)"),
            "{}",
            e.message
        );

        let nameless = vec![
            with_text("Shirt M", el("e1", Role::Listitem, "")),
            with_text("Shirt M", el("e2", Role::Listitem, "")),
        ];
        let e = resolve(&Target::new("listitem", "Shirt M"), &snap(nameless), None).unwrap_err();
        assert_eq!(
            e.candidates[0].name, "Shirt M",
            "candidates show the label that matched"
        );
        assert!(
            e.message.contains("no target field tells them apart"),
            "{}",
            e.message
        );
        let wire = serde_json::to_value(&e).unwrap();
        assert_eq!(wire["code"], "TARGET_AMBIGUOUS");
        assert_eq!(wire["candidates"][1]["ref"], "e2");
    }

    #[test]
    fn not_found_suggests_near_misses() {
        let elements = vec![
            button("e1", "Save draft"),
            el("e2", Role::Link, "Save"),
            hidden(button("e3", "Save")),
            in_region("dialog", button("e4", "Save")),
            Element {
                opaque: true,
                ..el("e5", Role::Generic, "")
            },
        ];
        let target = save_where(|t| t.region = Some("main".into()));
        let e = resolve(&target, &snap(elements.clone()), None).unwrap_err();
        assert_eq!(
            e.code,
            ErrorCode::TargetNotVisible,
            "the one with this identity is hidden"
        );
        let shown: Vec<Element> = elements
            .iter()
            .filter(|e| e.reference != "e3")
            .cloned()
            .collect();
        let gone = resolve(&target, &snap(shown), None).unwrap_err();
        assert_eq!(gone.code, ErrorCode::TargetNotFound);
        for want in [
            "no visible element matches button[Save] in main",
            "same role, longer name (names match exactly): button[Save draft] in main",
            "same name, other role: link[Save] in main",
            "hidden (visible: false) with this role and name: 1",
            "did not meet region/frame/href/inViewport: button[Save] in dialog",
            "opaque (a closed shadow root or a cross-origin frame whose inside cannot be read), the target may be inside: generic[] in main",
        ] {
            assert!(e.message.contains(want), "{want:?} in {}", e.message);
        }
        let e = resolve(&save(), &snap(vec![]), None).unwrap_err();
        assert!(e.message.contains("no elements"), "{}", e.message);
        let e = resolve(&save(), &snap(vec![button("e1", "Cancel")]), None).unwrap_err();
        assert_eq!(e.message, "no visible element matches button[Save]");
    }

    #[test]
    fn disabled_and_truncated_messages_say_what_to_do() {
        let e = resolve(&save(), &snap(vec![disabled(button("e1", "Save"))]), None).unwrap_err();
        assert!(
            e.message.contains("button[Save] in main (e1) is disabled"),
            "{}",
            e.message
        );
        let e = resolve(
            &save(),
            &Snapshot {
                has_more: true,
                ..snap(vec![])
            },
            None,
        )
        .unwrap_err();
        assert!(e.message.contains("maxElements"), "{}", e.message);
    }

    #[test]
    fn resolution_wire_form() {
        let obs = snap(vec![with_href("/s", button("e1", "Save"))]);
        let res = resolve(&save(), &obs, Some(&ctx())).unwrap();
        assert!(!res.authorized && !res.dispatched);
        assert_eq!(res.context, ctx());
        assert_eq!(res.target, obs.elements[0]);
        let v = serde_json::to_value(&res).unwrap();
        assert_eq!(v["authorized"], false);
        assert_eq!(v["dispatched"], false);
        assert_eq!(
            v["context"],
            json!({ "tab": "t1", "epoch": 7, "snapshot": "s1" })
        );
        assert_eq!(v["target"]["ref"], "e1");
        assert_eq!(v["target"]["inViewport"], true);
        assert_eq!(serde_json::from_value::<Resolution>(v).unwrap(), res);
    }

    #[test]
    fn inputs_are_unchanged() {
        let obs = snap(vec![button("e1", "Save"), button("e2", "Save draft")]);
        let (target, expected) = (save(), ctx());
        let (obs_before, target_before) = (obs.clone(), target.clone());
        let first = resolve(&target, &obs, Some(&expected)).unwrap();
        assert_eq!(
            (&obs, &target, &expected),
            (&obs_before, &target_before, &ctx())
        );
        let (obs_json, target_json, expected_json) = (
            serde_json::to_value(&obs).unwrap(),
            serde_json::to_value(&target).unwrap(),
            serde_json::to_value(&expected).unwrap(),
        );
        let copies = (obs_json.clone(), target_json.clone(), expected_json.clone());
        let second = resolve_value(&target_json, &obs_json, Some(&expected_json)).unwrap();
        assert_eq!((obs_json, target_json, expected_json), copies);
        assert_eq!(first, second);
        // The resolution owns a copy: changing it leaves the observation alone.
        let mut res = second;
        res.target.name.push('!');
        assert_eq!(obs.elements[0].name, "Save");
    }

    #[test]
    fn target_reads_and_writes_camel_case() {
        let wire = json!({ "role": "button", "name": "Go", "inViewport": false });
        let t = Target::from_value(&wire).unwrap();
        assert_eq!(t.in_viewport, Some(false));
        assert_eq!(serde_json::to_value(&t).unwrap(), wire);
        assert!(serde_json::from_value::<Target>(
            json!({ "role": "button", "name": "Go", "index": 1 })
        )
        .is_err());
    }

    #[test]
    fn messages_name_the_field_and_never_echo_its_value() {
        let e = json_case(|o, _, _| o["elements"][0]["value"] = json!({ "secret": "hunter22" }))
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidText);
        assert!(
            e.message
                .contains("elements[0].value must be a string, got an object"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("hunter22"), "{}", e.message);
        let e = json_case(|_, t, _| t["index"] = json!(1)).unwrap_err();
        assert!(
            e.message.contains("target has unknown keys \"index\""),
            "{}",
            e.message
        );
        let e = json_case(|o, _, _| o["elements"][1]["visible"] = json!(1)).unwrap_err();
        assert!(
            e.message
                .contains("elements[1].visible must be true or false, got a number"),
            "{}",
            e.message
        );
    }

    /// A board of unnamed lists in one region, with a named list and a placed checkbox.
    fn board() -> Snapshot {
        let list = |r: &str| el(r, Role::List, "");
        let mut hidden = list("h");
        hidden.visible = false;
        let mut named = list("n");
        named.name = "Done".into();
        let mut boxed = el("c", Role::Checkbox, "");
        boxed.within = Some("listitem[Walk dog]".into());
        let mut elsewhere = list("x");
        elsewhere.region = "aside".into();
        snap(vec![
            list("a"),
            hidden,
            named,
            elsewhere,
            list("b"),
            boxed,
            list("z"),
        ])
    }

    #[test]
    fn an_element_is_named_as_a_person_would_and_resolves_back() {
        let s = board();
        let target_of_ref = |r: &str| {
            let e = s.elements.iter().find(|e| e.reference == r).unwrap();
            target_of(e, &s)
        };
        let rows: [(&str, Option<u32>, &str); 5] = [
            ("a", Some(1), "list 1 in main"),
            ("b", Some(2), "list 2 in main"),
            ("z", Some(3), "list 3 in main"),
            ("n", None, "list[Done] in main"),
            ("c", None, "checkbox in listitem[Walk dog] in main"),
        ];
        for (r, nth, shown) in rows {
            let t = target_of_ref(r).unwrap();
            assert_eq!(t.nth, nth, "{r}");
            assert_eq!(t.describe(), shown, "{r}");
            assert_eq!(resolve(&t, &s, None).unwrap().target.reference, r, "{r}");
            let back = Target::from_value(&serde_json::to_value(&t).unwrap()).unwrap();
            assert_eq!(back, t, "{r}: the wire form keeps the place");
        }
        let x = target_of_ref("x").unwrap();
        assert_eq!((x.nth, x.region.as_deref()), (Some(1), Some("aside")));
        assert_eq!(
            target_of_ref("h").unwrap_err().code,
            ErrorCode::TargetNotVisible
        );
        let gone = el("q", Role::List, "");
        assert_eq!(
            target_of(&gone, &s).unwrap_err().code,
            ErrorCode::TargetNotFound
        );
    }

    #[test]
    fn a_place_that_is_no_longer_there_is_not_found() {
        let mut t = Target::new("list", "");
        t.region = Some("main".into());
        t.nth = Some(4);
        let e = resolve(&t, &board(), None).unwrap_err();
        assert_eq!(e.code, ErrorCode::TargetNotFound);
        assert!(e.message.contains("only 3 visible"), "{}", e.message);
    }

    #[test]
    fn a_target_read_from_json_names_its_field_and_code() {
        let read = |v: Value| Target::from_value(&v).map_err(|e| (e.code, e.message));
        for (v, code, words) in [
            (
                json!({"role": "button"}),
                ErrorCode::InvalidFields,
                "target lacks name; the keys are name, role",
            ),
            (
                json!({"name": null}),
                ErrorCode::InvalidText,
                "target.name must be a string, got null",
            ),
            (
                json!({"name": "x", "a": 1, "b": 2}),
                ErrorCode::InvalidFields,
                "target has unknown keys \"a\", \"b\"",
            ),
            (
                json!({"name": "x", "within": {"role": "row", "name": "r"}}),
                ErrorCode::InvalidFields,
                "unknown keys \"within\"",
            ),
            (
                json!({"name": "", "in": "row"}),
                ErrorCode::InvalidFields,
                "target.in must be an object, got a string",
            ),
            (
                json!({"name": "", "in": {"role": "row"}}),
                ErrorCode::InvalidFields,
                "target.in lacks name",
            ),
            (
                json!({"name": "", "in": {"role": "row", "name": "r", "x": 1}}),
                ErrorCode::InvalidFields,
                "target.in has unknown keys \"x\"",
            ),
            (
                json!({"name": "", "in": {"role": 3, "name": "r"}}),
                ErrorCode::InvalidText,
                "target.in.role must be a string, got a number",
            ),
            (
                json!({"name": "x", "href": true}),
                ErrorCode::InvalidText,
                "target.href must be a string, got a boolean",
            ),
            (
                json!({"name": "x", "inViewport": "yes"}),
                ErrorCode::InvalidViewport,
                "got a string",
            ),
            (
                json!({"role": "list", "name": "", "nth": 1.5}),
                ErrorCode::InvalidTarget,
                "got 1.5",
            ),
            (
                json!(null),
                ErrorCode::InvalidFields,
                "target must be an object, got null",
            ),
            (
                json!(["button", "x"]),
                ErrorCode::InvalidFields,
                "target must be an object, got a list",
            ),
        ] {
            let (got_code, message) = read(v.clone()).unwrap_err();
            assert_eq!(got_code, code, "{v}: {message}");
            assert!(
                message.contains(words),
                "{v}\n  got: {message}\n  want: {words}"
            );
        }
        assert_eq!(
            read(json!({"role": "checkbox", "name": "", "in": {"role": "listitem", "name": "Walk dog"}, "frame": null}))
                .unwrap()
                .within,
            Some(Container {
                role: "listitem".into(),
                name: "Walk dog".into()
            })
        );
        let ctx = |v: Value| context_from_value(&v, "expected").unwrap_err();
        let e = ctx(json!({"tab": "t", "epoch": 1, "snapshot": "s", "url": "/"}));
        assert!(
            e.message
                .contains("expected has unknown keys \"url\"; the keys are tab, epoch, snapshot"),
            "{}",
            e.message
        );
        let e = ctx(json!({"tab": "t", "snapshot": "s"}));
        assert_eq!(e.code, ErrorCode::InvalidFields, "{}", e.message);
        let e = ctx(json!({"tab": "t", "epoch": null, "snapshot": "s"}));
        assert_eq!(
            (e.code, e.message.as_str()),
            (
                ErrorCode::InvalidEpoch,
                "expected.epoch must be a non-negative integer, got null"
            )
        );
        let e = ctx(json!([1]));
        assert_eq!(e.code, ErrorCode::InvalidContext, "{}", e.message);
    }

    #[test]
    fn a_place_is_checked_like_every_field() {
        let rows = [
            json!({"role": "list", "name": "", "nth": 0}),
            json!({"role": "list", "name": "", "nth": -1}),
            json!({"role": "list", "name": "", "nth": 1.5}),
            json!({"role": "list", "name": "", "nth": "2"}),
            json!({"name": "", "nth": 2}),
        ];
        for row in rows {
            let e = Target::from_value(&row).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidTarget, "{row}");
        }
        assert_eq!(
            Target::from_value(&json!({"role": "list", "name": ""}))
                .unwrap_err()
                .code,
            ErrorCode::InvalidText,
            "without a place or a row a name is needed"
        );
    }
}
