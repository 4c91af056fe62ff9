//! Stable refs: a live node keeps its ref while its identity `(role, label, region)` is
//! unchanged, and gets a new one when it changes (a recycled row), as Playwright's
//! `computeAriaRef` does.
//!
//! The engine holds a JS `WeakMap` node → packed `(ref index, identity hash)` (one number,
//! so a look-up allocates nothing) and, for the way back, a `WeakRef` per minted index, so
//! neither keeps a removed node alive. A ref reads `e12-k3f`: the index, then a tag of the
//! document's epoch, so a ref of an older document is recognised without any look-up.

use js_sys::{Object, WeakMap, WeakRef};
use rustc_hash::FxHashMap;
use wasm_bindgen::{JsCast, JsValue};

/// Identity hashes are kept to 32 bits: enough to tell a recycled node, and the pair packs
/// into one exact f64 (index < 2^21).
const INDEX_LIMIT: u32 = 1 << 21;
const HASH_SPAN: f64 = 4_294_967_296.0;

pub struct Refs {
    map: WeakMap,
    nodes: FxHashMap<u32, WeakRef<Object>>,
    next: u32,
    tag: String,
    /// Counts the times a node's ref was replaced (or all were forgotten): while it is
    /// unchanged, every ref handed out still names its node.
    pub generation: u64,
}

/// What the engine remembers about a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub index: u32,
    pub identity: u32,
}

impl Refs {
    pub fn new(tag: String) -> Self {
        Refs {
            map: WeakMap::new(),
            nodes: FxHashMap::default(),
            next: 1,
            tag,
            generation: 0,
        }
    }

    pub fn entry(&self, node: &web_sys::Element) -> Option<Entry> {
        let v = self.map.get(node.unchecked_ref()).as_f64()?;
        Some(Entry {
            index: (v / HASH_SPAN) as u32,
            identity: (v % HASH_SPAN) as u32,
        })
    }

    /// The ref of `node` for `identity`: its old one if the identity is unchanged, else a new one.
    pub fn assign(&mut self, node: &web_sys::Element, identity: u32) -> String {
        let index = self.assign_index(node, identity);
        self.format(index)
    }

    /// [`Refs::assign`], as the ref's index.
    pub fn assign_index(&mut self, node: &web_sys::Element, identity: u32) -> u32 {
        if let Some(e) = self.entry(node) {
            if e.identity == identity {
                return e.index;
            }
            self.generation += 1;
        }
        let index = self.mint();
        self.map.set(
            node.unchecked_ref(),
            &JsValue::from_f64(index as f64 * HASH_SPAN + identity as f64),
        );
        self.nodes
            .insert(index, WeakRef::new(node.unchecked_ref::<Object>()));
        index
    }

    fn mint(&mut self) -> u32 {
        if self.next >= INDEX_LIMIT {
            // Extremely long-lived page: start over; old refs become stale, never wrong,
            // because the entry of the node must carry the same index.
            self.next = 1;
            self.nodes.clear();
            self.generation += 1;
        }
        if self.next % 4096 == 0 {
            self.nodes.retain(|_, w| w.deref().is_some());
        }
        let i = self.next;
        self.next += 1;
        i
    }

    pub fn format(&self, index: u32) -> String {
        let mut digits = itoa::Buffer::new();
        let digits = digits.format(index);
        let mut out = String::with_capacity(2 + digits.len() + self.tag.len());
        out.push('e');
        out.push_str(digits);
        out.push('-');
        out.push_str(&self.tag);
        out
    }

    /// The index of a ref of this document; `Err(true)` for another document's ref,
    /// `Err(false)` for something that is not a ref at all.
    pub fn parse(&self, reference: &str) -> Result<u32, bool> {
        let rest = reference.strip_prefix('e').ok_or(false)?;
        let (index, tag) = rest.split_once('-').ok_or(false)?;
        let index: u32 = index.parse().map_err(|_| false)?;
        if tag.is_empty() || !tag.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(false);
        }
        if tag != self.tag {
            return Err(true);
        }
        Ok(index)
    }

    /// The live node of an index, if it was minted here and is not collected.
    pub fn node(&self, index: u32) -> Option<web_sys::Element> {
        self.nodes.get(&index)?.deref().map(|o| o.unchecked_into())
    }
}
