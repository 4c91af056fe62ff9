//! The cheap poll: one short string that changes exactly when the next snapshot's diff
//! would be non-empty.
//!
//! It is a multiset hash (a wrapping sum of per-record hashes), so a reorder changes nothing,
//! like the diff, while a duplicate appearing does. It covers exactly the fields the diff
//! compares: `observable_hash` is the single list of them.
//!
//! **Claims.** The page's fingerprint (`prufe.fingerprint`) carries a second part after a
//! `~`: a hash of what a step may change without changing the diff: which element has the
//! focus, the order of the records, and the text selection ([`with_claims`]). So a Tab, a
//! reorder or a selection moves the fingerprint as soon as it happens, and a settle can see
//! it (`core::run::quiet`, `Need::Settle::claims`). [`diffed`] is the part the diff decides:
//! equal diffed parts ⇔ an empty diff; [`of_snapshot`] computes that part only.

use super::identity::Identity;
use super::model::{Element, Text};
use siphasher::sip::SipHasher13;
use std::hash::{Hash, Hasher};

/// Hash of everything the diff compares about one element: identity, states, value, href,
/// and the busy and clickable flags (so polling sees a page start or stop working).
/// Refs, focus and viewport position are not compared, so they are not hashed.
pub fn observable_hash(e: &Element) -> u64 {
    let mut h = hasher();
    Identity::of(e).unplaced().hash(&mut h);
    e.checked.map(|t| t.as_str()).hash(&mut h);
    e.pressed.map(|t| t.as_str()).hash(&mut h);
    e.selected.hash(&mut h);
    e.expanded.hash(&mut h);
    e.disabled.hash(&mut h);
    e.visible.hash(&mut h);
    e.href.hash(&mut h);
    compared_value(e).hash(&mut h);
    e.busy.hash(&mut h);
    e.clickable.hash(&mut h);
    h.finish()
}

/// The value the diff compares: the keyed hash where there is one, else the value.
pub fn compared_value(e: &Element) -> Option<&str> {
    e.value_hash.as_deref().or(e.value.as_deref())
}

/// Hash of a running text record (kind is presentation; text and region are identity).
pub fn text_hash(t: &Text) -> u64 {
    let mut h = hasher();
    0xffu8.hash(&mut h);
    t.text.hash(&mut h);
    t.region.hash(&mut h);
    h.finish()
}

fn hasher() -> SipHasher13 {
    SipHasher13::new_with_keys(0x6669_6e67_6572_7072, 0x696e_7420_7631_0000)
}

/// Accumulates records in any order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fingerprint {
    sum: u64,
    count: u64,
    more: bool,
    /// The records' hashes chained in the order they came: what the claims hold of order.
    chain: u64,
}

impl Fingerprint {
    pub fn add_element(&mut self, e: &Element) {
        self.add_hash(observable_hash(e));
    }

    pub fn add_text(&mut self, t: &Text) {
        self.add_hash(text_hash(t));
    }

    pub fn add_hash(&mut self, h: u64) {
        // Mixing the hash again before summing keeps structured sums from cancelling out.
        self.sum = self
            .sum
            .wrapping_add(h.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (h >> 29));
        self.chain = (self.chain.rotate_left(23) ^ h).wrapping_mul(0xff51_afd7_ed55_8ccd);
        self.count += 1;
    }

    /// The order the records came in (elements, then texts, each in walk order): equal
    /// sums with another order differ here.
    pub fn order(&self) -> u64 {
        self.chain
    }

    /// Marks a walk that stopped early: its fingerprint never equals a complete one.
    pub fn set_has_more(&mut self, more: bool) {
        self.more = more;
    }

    /// 16 hex digits of the sum, the record count, and `+` when the walk was cut short.
    pub fn finish(&self) -> String {
        format!(
            "{:016x}-{:x}{}",
            self.sum,
            self.count,
            if self.more { "+" } else { "" }
        )
    }
}

/// What a page's claims are made of: the order of its records ([`Fingerprint::order`]),
/// which element has the focus and the text selection, each as the page keys it (0: none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Claims {
    pub order: u64,
    pub focus: u64,
    pub selection: u64,
}

/// `diffed` with the claims part: `{diffed}~{16 hex digits}`.
pub fn with_claims(diffed: String, claims: &Claims) -> String {
    let mut h = hasher();
    claims.hash(&mut h);
    format!("{diffed}{CLAIMS}{:016x}", h.finish())
}

/// Marks the claims part of a fingerprint.
const CLAIMS: char = '~';

/// The part of a fingerprint (or of fingerprints joined across frames, `core::frames::join`)
/// that the diff decides: every claims part taken out.
pub fn diffed(fp: &str) -> std::borrow::Cow<'_, str> {
    if !fp.contains(CLAIMS) {
        return std::borrow::Cow::Borrowed(fp);
    }
    let mut out = String::with_capacity(fp.len());
    let mut rest = fp;
    while let Some(at) = rest.find(CLAIMS) {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 1..];
        let hex = tail.bytes().take_while(u8::is_ascii_hexdigit).count();
        rest = &tail[hex..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// The fingerprint of a finished snapshot, without claims; equals the diffed part of what
/// the page computes without building one.
pub fn of_snapshot(s: &super::model::Snapshot) -> String {
    let mut f = Fingerprint::default();
    s.elements.iter().for_each(|e| f.add_element(e));
    s.texts.iter().for_each(|t| f.add_text(t));
    f.set_has_more(s.has_more);
    f.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{Role, Snapshot, TextKind, Tristate};

    fn el(name: &str) -> Element {
        Element {
            reference: format!("r-{name}"),
            role: Role::Button,
            name: name.into(),
            visible: true,
            ..Default::default()
        }
    }

    #[test]
    fn order_does_not_matter_but_duplicates_do() {
        let a = Snapshot {
            elements: vec![el("A"), el("B")],
            ..Default::default()
        };
        let b = Snapshot {
            elements: vec![el("B"), el("A")],
            ..Default::default()
        };
        let c = Snapshot {
            elements: vec![el("B"), el("A"), el("A")],
            ..Default::default()
        };
        assert_eq!(of_snapshot(&a), of_snapshot(&b));
        assert_ne!(of_snapshot(&a), of_snapshot(&c));
    }

    #[test]
    fn states_and_values_count_refs_and_focus_do_not() {
        let base = el("Agree");
        let fp = |e: &Element| observable_hash(e);
        assert_ne!(
            fp(&base),
            fp(&Element {
                checked: Some(Tristate::True),
                ..base.clone()
            })
        );
        assert_ne!(
            fp(&base),
            fp(&Element {
                value: Some("x".into()),
                ..base.clone()
            })
        );
        for flagged in [
            Element {
                busy: true,
                ..base.clone()
            },
            Element {
                clickable: true,
                ..base.clone()
            },
        ] {
            assert_ne!(fp(&base), fp(&flagged), "{flagged:?}");
        }
        assert_eq!(
            fp(&base),
            fp(&Element {
                reference: "other".into(),
                focused: true,
                in_viewport: true,
                ..base.clone()
            })
        );
    }

    #[test]
    fn redacted_values_compare_by_hash() {
        let a = Element {
            value: Some("[redacted]".into()),
            value_hash: Some("h1".into()),
            ..el("Password")
        };
        let b = Element {
            value_hash: Some("h2".into()),
            ..a.clone()
        };
        assert_ne!(observable_hash(&a), observable_hash(&b));
    }

    #[test]
    fn order_shows_in_the_chain_and_claims_come_off_every_part() {
        let mut ab = Fingerprint::default();
        let mut ba = Fingerprint::default();
        ab.add_element(&el("A"));
        ab.add_element(&el("B"));
        ba.add_element(&el("B"));
        ba.add_element(&el("A"));
        assert_eq!(ab.finish(), ba.finish());
        assert_ne!(ab.order(), ba.order());
        let c = |order, focus, selection| Claims {
            order,
            focus,
            selection,
        };
        let plain = ab.finish();
        let one = with_claims(plain.clone(), &c(ab.order(), 0, 0));
        for other in [
            c(ba.order(), 0, 0),
            c(ab.order(), 3, 0),
            c(ab.order(), 0, 7),
        ] {
            let two = with_claims(plain.clone(), &other);
            assert_ne!(one, two);
            assert_eq!(diffed(&one), diffed(&two));
        }
        assert_eq!(diffed(&one), plain);
        assert_eq!(diffed(&plain), plain);
        let joined = format!(
            "={one};0={two};1=?;",
            two = with_claims("ab-2+".into(), &c(1, 2, 3))
        );
        assert_eq!(diffed(&joined), format!("={plain};0=ab-2+;1=?;"));
    }

    #[test]
    fn truncation_and_texts_show() {
        let mut s = Snapshot {
            elements: vec![el("A")],
            ..Default::default()
        };
        let before = of_snapshot(&s);
        s.texts.push(Text {
            kind: TextKind::Status,
            text: "Saved".into(),
            region: String::new(),
            frame: String::new(),
        });
        let with_text = of_snapshot(&s);
        assert_ne!(before, with_text);
        s.has_more = true;
        assert_ne!(with_text, of_snapshot(&s));
    }
}
