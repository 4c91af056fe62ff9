//! What the fingerprint's claims read of the page besides the order of its records
//! (`core::fingerprint::Claims`): which element has the focus, and the text selection.
//!
//! Both are read live at every fingerprint, a handful of property reads: the focus through
//! shadow roots and same-origin frames as the walk finds it (`walk::deepest_focus`), and the
//! selection of the focused field (`selectionStart`, `selectionEnd`) or else of the focused
//! element's document. A node is keyed by a number the engine gives it the first time it is
//! read (a `WeakMap`, so a node removed and put back keeps its key, and a key never names
//! another node): the claims say which node, not what it shows, which the diffed part of the
//! fingerprint covers.
//!
//! Trade-off: a caret outside an editable element (the collapsed selection a click leaves
//! in plain text) is not read, since it shows nothing; a selected range anywhere is, and so
//! is the caret of a field or of a `contenteditable` element.

use super::js;
use super::walk::deepest_focus;
use js_sys::{Reflect, WeakMap};
use std::hash::{Hash, Hasher};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Document;

/// Keys of the nodes the claims name, for the life of the engine.
pub struct Keys {
    map: WeakMap,
    next: f64,
}

impl Default for Keys {
    fn default() -> Self {
        Keys {
            map: WeakMap::new(),
            next: 1.0,
        }
    }
}

impl Keys {
    /// The node's key (0 for no node).
    fn of(&mut self, node: &JsValue) -> u64 {
        if !node.is_object() {
            return 0;
        }
        let object = node.unchecked_ref();
        if let Some(k) = self.map.get(object).as_f64() {
            return k as u64;
        }
        let k = self.next;
        self.next += 1.0;
        self.map.set(object, &JsValue::from_f64(k));
        k as u64
    }
}

/// The focused element's key (0: nothing, or the body) and a hash of the selection (0: none
/// that shows).
pub fn read(doc: &Document, keys: &mut Keys) -> (u64, u64) {
    let Some(focused) = deepest_focus(doc) else {
        return (0, selection_of(doc.as_ref(), false, keys));
    };
    let focus = keys.of(focused.as_ref());
    let number = |k: &str| {
        Reflect::get(&focused, &k.into())
            .ok()
            .and_then(|v| v.as_f64())
    };
    // A field's own selection (some input types throw on reading it: none then).
    if let (Some(start), Some(end)) = (number("selectionStart"), number("selectionEnd")) {
        let mut h = rustc_hash::FxHasher::default();
        (1u8, start as u64, end as u64).hash(&mut h);
        return (focus, h.finish() | 1);
    }
    let editable = Reflect::get(&focused, &"isContentEditable".into())
        .ok()
        .is_some_and(|v| v.as_bool() == Some(true));
    let owner = js::owner_document(focused.unchecked_ref());
    let selection = match owner {
        Some(d) => selection_of(d.as_ref(), editable, keys),
        None => 0,
    };
    (focus, selection)
}

/// The document's selection: its ends when it is a range, or a caret in an editable element.
fn selection_of(doc: &JsValue, caret: bool, keys: &mut Keys) -> u64 {
    let Ok(get) = Reflect::get(doc, &"getSelection".into()) else {
        return 0;
    };
    let Some(get) = get.dyn_ref::<js_sys::Function>() else {
        return 0;
    };
    let Ok(sel) = get.call0(doc) else {
        return 0;
    };
    if !sel.is_object() {
        return 0;
    }
    let field = |k: &str| Reflect::get(&sel, &k.into()).unwrap_or(JsValue::NULL);
    let collapsed = field("isCollapsed").as_bool().unwrap_or(true);
    let anchor = field("anchorNode");
    if anchor.is_null() || (collapsed && !caret) {
        return 0;
    }
    let mut h = rustc_hash::FxHasher::default();
    (
        2u8,
        keys.of(&anchor),
        field("anchorOffset").as_f64().unwrap_or(0.0) as u64,
        keys.of(&field("focusNode")),
        field("focusOffset").as_f64().unwrap_or(0.0) as u64,
    )
        .hash(&mut h);
    h.finish() | 1
}
