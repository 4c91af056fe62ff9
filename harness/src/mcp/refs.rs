//! The refs of `browser_snapshot`: short names (`e1`, `e2`, …) for semantic identities.
//!
//! A ref stands for what a person would call the element, its `(role, label, region, frame)`,
//! in one document; it never stands for a DOM node. Acting on a ref resolves that identity
//! again, strictly, on the page as it is then (`prufe::core::resolve`): a list row recycled
//! to show another product no longer has the identity, so it is not what gets clicked.
//!
//! Numbers are never reused in a session. A snapshot of the same document keeps the refs it
//! gave before (an identity seen again gets its old ref) and numbers new identities after
//! them; a snapshot of a new document starts a new range. So a ref is, without any look-up,
//!
//! - from an older document (`STALE_REFERENCE`) when it is below the current range, or when
//!   the tab shows another document than the one the range was issued for;
//! - never issued (`INVALID_TARGET`) when it is above the range;
//! - else one identity of the current document.
//!
//! The trade-off: two elements with one identity (two "Remove" buttons in one list) share a
//! ref, and acting on it is `TARGET_AMBIGUOUS`, never the first of them. The snapshot marks
//! such refs `[not unique]`.

use prufe::core::error::{Error, ErrorCode};
use prufe::core::identity::describe_parts;
use prufe::core::model::{Role, Snapshot};
use prufe::core::resolve::{Container, Target};
use std::collections::HashMap;

/// Most identities remembered for one document; past it the document gets a new range (the
/// refs issued so far turn stale, and the agent is told to snapshot again).
pub const MAX_REFS_PER_DOCUMENT: usize = 200_000;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Identity {
    role: Role,
    label: String,
    region: String,
    frame: String,
    /// The row an element without a label, or one whose label its twins in other rows
    /// share, is in (`listitem[Walk dog]`).
    within: Option<String>,
}

/// The refs issued in one session.
#[derive(Debug, Default)]
pub struct Refs {
    /// The number of the first ref of the current document's range.
    first: u64,
    /// The current document (the id the caller gave), once a snapshot was taken.
    document: Option<String>,
    /// Ref `first + i` stands for `identities[i]`.
    identities: Vec<Identity>,
    by_identity: HashMap<Identity, u64>,
}

/// The ref of each element of a snapshot, and which refs more than one element shares.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Assigned {
    /// Per element, in order: `None` for a hidden element or one without a label (it cannot
    /// be a target).
    pub refs: Vec<Option<String>>,
    /// Refs that stand for more than one visible element of the snapshot.
    pub shared: Vec<String>,
}

impl Refs {
    /// Gives a ref to every visible, labelled element of `snapshot`, a snapshot of
    /// `document` (an id that changes with every new document the tab loads).
    pub fn assign(&mut self, document: &str, snapshot: &Snapshot) -> Assigned {
        if self.document.as_deref() != Some(document)
            || self.identities.len() >= MAX_REFS_PER_DOCUMENT
        {
            self.first += self.identities.len() as u64;
            if self.first == 0 {
                self.first = 1;
            }
            self.identities.clear();
            self.by_identity.clear();
            self.document = Some(document.to_owned());
        }
        let mut counts: HashMap<u64, u32> = HashMap::new();
        let refs = snapshot
            .elements
            .iter()
            .map(|e| {
                if !e.visible || (e.label().trim().is_empty() && e.within.is_none()) {
                    return None;
                }
                let identity = Identity {
                    role: e.role,
                    label: e.label().to_owned(),
                    region: e.region.clone(),
                    frame: e.frame.clone(),
                    within: e.within.clone(),
                };
                let n = match self.by_identity.get(&identity) {
                    Some(n) => *n,
                    None => {
                        let n = self.first + self.identities.len() as u64;
                        self.identities.push(identity.clone());
                        self.by_identity.insert(identity, n);
                        n
                    }
                };
                *counts.entry(n).or_default() += 1;
                Some(format!("e{n}"))
            })
            .collect();
        let mut shared: Vec<u64> = counts
            .into_iter()
            .filter(|(_, c)| *c > 1)
            .map(|(n, _)| n)
            .collect();
        shared.sort_unstable();
        Assigned {
            refs,
            shared: shared.into_iter().map(|n| format!("e{n}")).collect(),
        }
    }

    /// The target `reference` stands for, when the tab now shows `document_now`.
    pub fn target(&self, reference: &str, document_now: &str) -> Result<Target, Error> {
        let n = parse(reference).ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidTarget,
                format!(
                    "{:?} is not a ref; refs look like e12 and come from browser_snapshot",
                    prufe::core::text::cap(reference, 40)
                ),
            )
        })?;
        let next = self.first + self.identities.len() as u64;
        if n >= next || n == 0 {
            return Err(Error::new(
                ErrorCode::InvalidTarget,
                format!("ref e{n} was never issued; call browser_snapshot and use a ref from its answer"),
            ));
        }
        if n < self.first || self.document.as_deref() != Some(document_now) {
            return Err(stale(n));
        }
        let identity = &self.identities[(n - self.first) as usize];
        Ok(Target {
            role: identity.role.as_str().to_owned(),
            name: identity.label.clone(),
            region: Some(identity.region.clone()),
            frame: Some(identity.frame.clone()),
            within: identity.within.as_deref().and_then(Container::parse),
            ..Target::default()
        })
    }

    /// The ref already issued for an element of the current document with this role, label
    /// and region (any frame), if there is one.
    pub fn find(&self, role: &str, label: &str, region: &str) -> Option<String> {
        self.identities
            .iter()
            .position(|i| i.role.as_str() == role && i.label == label && i.region == region)
            .map(|i| format!("e{}", self.first + i as u64))
    }

    /// How `reference` reads to a person, `button[Add Shirt M] in list`, when it is a ref of
    /// the current range.
    pub fn describe(&self, reference: &str) -> Option<String> {
        let n = parse(reference)?;
        let i = n.checked_sub(self.first)? as usize;
        let identity = self.identities.get(i)?;
        Some(describe_parts(
            identity.role.as_str(),
            &identity.label,
            &identity.region,
        ))
    }
}

/// The error of a ref from a document the tab no longer shows.
pub fn stale(n: u64) -> Error {
    Error::new(
        ErrorCode::StaleReference,
        format!(
            "ref e{n} is from a page that is gone: the tab has loaded another document since; \
             call browser_snapshot again and use a ref from its answer"
        ),
    )
}

/// `e12`, also written `ref=e12` or `[ref=e12]` as the snapshot shows it.
fn parse(reference: &str) -> Option<u64> {
    let r = reference.trim();
    let r = r.strip_prefix('[').unwrap_or(r);
    let r = r.strip_suffix(']').unwrap_or(r);
    let r = r.strip_prefix("ref=").unwrap_or(r);
    let digits = r.strip_prefix('e')?;
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use prufe::core::model::Element;

    fn element(role: Role, name: &str, region: &str) -> Element {
        Element {
            role,
            name: name.into(),
            region: region.into(),
            visible: true,
            ..Element::default()
        }
    }

    fn snapshot(elements: Vec<Element>) -> Snapshot {
        Snapshot {
            elements,
            ..Snapshot::default()
        }
    }

    #[test]
    fn an_unnamed_control_in_a_row_has_a_ref_that_names_its_row() {
        let placed = |name: &str, row: &str| Element {
            within: Some(format!("listitem[{row}]")),
            ..element(Role::Checkbox, name, "main")
        };
        let mut refs = Refs::default();
        let assigned = refs.assign(
            "doc-1",
            &snapshot(vec![placed("", "Walk dog"), placed("", "Pay rent")]),
        );
        assert_eq!(assigned.refs, [Some("e1".into()), Some("e2".into())]);
        assert!(assigned.shared.is_empty());
        let target = refs.target("e2", "doc-1").unwrap();
        assert_eq!(target.name, "");
        assert_eq!(
            target.within.map(|c| c.describe()),
            Some("listitem[Pay rent]".to_owned())
        );
        assert!(refs.target("e1", "doc-1").unwrap().check().is_ok());
    }

    #[test]
    fn refs_stand_for_identities_and_survive_snapshots_of_one_document() {
        let mut refs = Refs::default();
        let first = refs.assign(
            "doc-1",
            &snapshot(vec![
                element(Role::Button, "Add Shirt M", "list"),
                element(Role::Button, "Add Trousers L", "list"),
                Element {
                    visible: false,
                    ..element(Role::Button, "Hidden", "list")
                },
                element(Role::Textbox, "", "form[Checkout]"),
            ]),
        );
        assert_eq!(
            first.refs,
            [Some("e1".into()), Some("e2".into()), None, None]
        );
        // The rows swapped their products: each identity keeps its ref, a new one is appended.
        let second = refs.assign(
            "doc-1",
            &snapshot(vec![
                element(Role::Button, "Add Trousers L", "list"),
                element(Role::Button, "Add Socks S", "list"),
                element(Role::Button, "Add Shirt M", "list"),
            ]),
        );
        assert_eq!(
            second.refs,
            [Some("e2".into()), Some("e3".into()), Some("e1".into())]
        );
        let t = refs.target("e1", "doc-1").unwrap();
        assert_eq!(
            (
                t.role.as_str(),
                t.name.as_str(),
                t.region.as_deref(),
                t.frame.as_deref()
            ),
            ("button", "Add Shirt M", Some("list"), Some(""))
        );
        assert_eq!(
            refs.describe("e3").as_deref(),
            Some("button[Add Socks S] in list")
        );
        assert_eq!(
            refs.find("button", "Add Socks S", "list").as_deref(),
            Some("e3")
        );
    }

    #[test]
    fn refs_of_an_older_document_are_stale() {
        let mut refs = Refs::default();
        refs.assign(
            "doc-1",
            &snapshot(vec![element(Role::Link, "Next", "main")]),
        );
        // The tab navigated and nobody took a snapshot yet.
        let e = refs.target("e1", "doc-2").unwrap_err();
        assert_eq!(e.code, ErrorCode::StaleReference);
        assert!(
            e.message.contains("call browser_snapshot again"),
            "{}",
            e.message
        );
        // A snapshot of the new document: its range starts after the old one.
        let a = refs.assign(
            "doc-2",
            &snapshot(vec![element(Role::Link, "Next", "main")]),
        );
        assert_eq!(a.refs, [Some("e2".into())]);
        assert_eq!(
            refs.target("e1", "doc-2").unwrap_err().code,
            ErrorCode::StaleReference
        );
        assert!(refs.target("e2", "doc-2").is_ok());
        assert_eq!(refs.describe("e1"), None);
    }

    #[test]
    fn malformed_and_unissued_refs_are_invalid_targets() {
        let mut refs = Refs::default();
        for r in ["e1", "x1", "", "e", "e-1", "e1.5", "e99999999999999999999"] {
            let e = refs.target(r, "doc").unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidTarget, "{r}");
        }
        refs.assign("doc", &snapshot(vec![element(Role::Button, "Save", "")]));
        for r in ["e1", "ref=e1", "[ref=e1]", " e1 "] {
            assert!(refs.target(r, "doc").is_ok(), "{r}");
        }
        let e = refs.target("e2", "doc").unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidTarget);
        assert!(e.message.contains("never issued"), "{}", e.message);
    }

    #[test]
    fn one_identity_twice_is_one_shared_ref() {
        let mut refs = Refs::default();
        let a = refs.assign(
            "doc",
            &snapshot(vec![
                element(Role::Button, "Remove", "cart"),
                element(Role::Button, "Remove", "cart"),
                element(Role::Button, "Remove", "wishlist"),
            ]),
        );
        assert_eq!(
            a.refs,
            [Some("e1".into()), Some("e1".into()), Some("e2".into())]
        );
        assert_eq!(a.shared, ["e1"]);
    }
}
