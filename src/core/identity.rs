//! Semantic identity: `(role, label, region)`, what a person perceives, never a DOM path.
//!
//! Two elements with the same identity are interchangeable to a person, so the diff treats
//! them as a multiset and a ref is kept only while its node's identity is unchanged. An
//! element without a label is told apart by its place (`Element::within`): the unnamed
//! checkbox of the row "Walk dog" is not the one of the row "Pay rent".

use super::model::{Element, Role, Text};
use super::text::normalize_key;
use siphasher::sip::SipHasher13;
use std::hash::{Hash, Hasher};

/// The identity of an element, borrowed from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Identity<'a> {
    pub role: Role,
    pub label: &'a str,
    pub region: &'a str,
    /// The container of an element without a label (`listitem[Walk dog]`); `None` for one
    /// with a label, whose label already identifies it.
    pub within: Option<&'a str>,
}

impl<'a> Identity<'a> {
    pub fn of(e: &'a Element) -> Self {
        let label = e.label();
        Identity {
            role: e.role,
            label,
            region: &e.region,
            within: if label.is_empty() {
                e.within.as_deref()
            } else {
                None
            },
        }
    }

    /// The identity without its place: what the in-page fingerprint hashes, which reads no
    /// places (they cost a look-up per element).
    pub fn unplaced(self) -> Self {
        Identity {
            within: None,
            ..self
        }
    }

    /// A 64-bit hash of the identity, equal across snapshots and documents.
    pub fn hash64(&self) -> u64 {
        let mut h = SipHasher13::new_with_keys(0x7072_7566_6520_6964, 0x656e_7469_7479_0001);
        self.hash(&mut h);
        h.finish()
    }
}

/// The place is hashed only when there is one, so an identity without a place hashes as it
/// did before places were observed.
impl Hash for Identity<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.role.hash(h);
        self.label.hash(h);
        self.region.hash(h);
        if let Some(w) = self.within {
            w.hash(h);
        }
    }
}

/// Is `el` the row `place` names (`listitem[Walk dog]`: a list item whose words begin with
/// "Walk dog", its controls' names after them) or something placed in it?
pub fn is_in_place(el: &Element, place: &str) -> bool {
    if el.within.as_deref() == Some(place) {
        return true;
    }
    let Some((kind, key)) = place.strip_suffix(']').and_then(|p| p.split_once('[')) else {
        return false;
    };
    let (label, key) = (normalize_key(el.label()), normalize_key(key));
    el.role.as_str() == kind && (label == key || label.starts_with(&format!("{key} ")))
}

/// `button[Add Shirt M] in cart`, the way every message names an element; with its place,
/// `checkbox in listitem[Walk dog] in main` (no label) or `button[Delete] in
/// listitem[Walk dog] in main`.
pub fn describe_element(e: &Element) -> String {
    match e.within.as_deref() {
        None => describe_parts(e.role.as_str(), e.label(), &e.region),
        Some(within) => {
            let role = e.role.as_str();
            let head = match e.label() {
                "" => role.to_owned(),
                label => format!("{role}[{label}]"),
            };
            if e.region.is_empty() {
                format!("{head} in {within}")
            } else {
                format!("{head} in {within} in {}", e.region)
            }
        }
    }
}

/// `role[label] in region`, with ` in region` left out for the document level.
pub fn describe_parts(role: &str, label: &str, region: &str) -> String {
    if region.is_empty() {
        format!("{role}[{label}]")
    } else {
        format!("{role}[{label}] in {region}")
    }
}

/// `text 'Saved' in form[Profile]`.
pub fn describe_text(t: &Text) -> String {
    if t.region.is_empty() {
        format!("text '{}'", t.text)
    } else {
        format!("text '{}' in {}", t.text, t.region)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_ignores_ref_and_states() {
        let a = Element {
            reference: "e1".into(),
            role: Role::Button,
            name: "Save".into(),
            region: "main".into(),
            ..Default::default()
        };
        let b = Element {
            reference: "e9".into(),
            disabled: true,
            ..a.clone()
        };
        assert_eq!(Identity::of(&a), Identity::of(&b));
        assert_eq!(Identity::of(&a).hash64(), Identity::of(&b).hash64());
        let c = Element {
            region: "cart".into(),
            ..a.clone()
        };
        assert_ne!(Identity::of(&a).hash64(), Identity::of(&c).hash64());
    }

    #[test]
    fn describe_forms() {
        let e = Element {
            role: Role::Listitem,
            text: Some("Shirt M".into()),
            region: "cart".into(),
            ..Default::default()
        };
        assert_eq!(describe_element(&e), "listitem[Shirt M] in cart");
        assert_eq!(describe_parts("button", "Go", ""), "button[Go]");
        let toggle = Element {
            role: Role::Checkbox,
            region: "main".into(),
            within: Some("listitem[Walk dog]".into()),
            ..Default::default()
        };
        assert_eq!(
            describe_element(&toggle),
            "checkbox in listitem[Walk dog] in main"
        );
        let delete = Element {
            name: "Delete".into(),
            role: Role::Button,
            region: String::new(),
            ..toggle.clone()
        };
        assert_eq!(
            describe_element(&delete),
            "button[Delete] in listitem[Walk dog]"
        );
    }

    #[test]
    fn an_unnamed_element_is_known_by_its_place() {
        let a = Element {
            role: Role::Checkbox,
            region: "main".into(),
            within: Some("listitem[Walk dog]".into()),
            ..Default::default()
        };
        let b = Element {
            within: Some("listitem[Pay rent]".into()),
            ..a.clone()
        };
        assert_ne!(Identity::of(&a), Identity::of(&b));
        // A label identifies on its own: the place only describes.
        let named = |e: &Element| Element {
            name: "Delete".into(),
            ..e.clone()
        };
        assert_eq!(Identity::of(&named(&a)), Identity::of(&named(&b)));
    }
}
