//! Semantic identity: `(role, label, region)`, what a person perceives, never a DOM path.
//!
//! Two elements with the same identity are interchangeable to a person, so the diff treats
//! them as a multiset and a ref is kept only while its node's identity is unchanged.

use super::model::{Element, Role, Text};
use siphasher::sip::SipHasher13;
use std::hash::{Hash, Hasher};

/// The identity of an element, borrowed from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Identity<'a> {
    pub role: Role,
    pub label: &'a str,
    pub region: &'a str,
}

impl<'a> Identity<'a> {
    pub fn of(e: &'a Element) -> Self {
        Identity {
            role: e.role,
            label: e.label(),
            region: &e.region,
        }
    }

    /// A 64-bit hash of the identity, equal across snapshots and documents.
    pub fn hash64(&self) -> u64 {
        let mut h = SipHasher13::new_with_keys(0x7072_7566_6520_6964, 0x656e_7469_7479_0001);
        self.hash(&mut h);
        h.finish()
    }
}

/// `button[Add Shirt M] in cart`, the way every message names an element.
pub fn describe_element(e: &Element) -> String {
    describe_parts(e.role.as_str(), e.label(), &e.region)
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
    }
}
