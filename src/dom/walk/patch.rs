//! Patch: a capture brought up to date with mutation records, without a full walk.

use super::capture::{permute, Capture, Patched};
use super::text::CLICK_BITS;
use super::{Ctx, Cursor, DocInfo, Level, Scope, Walk};
use crate::core::model::{limits, TextKind};
use crate::dom::el::El;
use crate::dom::js;
use crate::dom::role::{self, RoleCtx, Tag};
use js_sys::JsString;
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::{Cell, OnceCell};
use std::cmp::Ordering;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Node;

/// Is `node` a `<label>` or inside one?
fn in_label(node: &Node) -> bool {
    js::node_type(node) == js::ELEMENT_NODE
        && node
            .unchecked_ref::<web_sys::Element>()
            .closest("label")
            .ok()
            .flatten()
            .is_some()
}

/// Attributes that name other elements by id. Those the engine reads make names (a
/// `<label for>`, `aria-labelledby`) and lists (`list`); the rest are watched all the same.
const BY_ID: &[&str] = &[
    "for",
    "list",
    "aria-labelledby",
    "aria-describedby",
    "aria-controls",
    "aria-details",
    "aria-flowto",
    "aria-owns",
];

/// Does an element of `node`'s tree name it by the id it had (`old`) or has now? Then its
/// change of `id` can change another element's name or state, which re-walking `node` does
/// not see (with duplicate ids, which of them a reference names depends on their order), and
/// the patch gives up. An id of other characters than ASCII letters, digits, `-` and `_`
/// counts as named (a selector would need escapes).
fn referenced(node: &Node, old: Option<String>) -> bool {
    let now = node.unchecked_ref::<web_sys::Element>().get_attribute("id");
    let ids: Vec<String> = [old, now]
        .into_iter()
        .flatten()
        .filter(|v| !v.is_empty())
        .collect();
    if ids.is_empty() {
        return false;
    }
    if ids.iter().any(|v| {
        !v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    }) {
        return true;
    }
    let mut selector = String::new();
    for id in &ids {
        for a in BY_ID {
            if !selector.is_empty() {
                selector.push(',');
            }
            selector.push_str(&format!("[{a}~=\"{id}\"]"));
        }
    }
    let root = js::root_node(node);
    js::query_one_js(&root, &JsString::from(selector)).is_some()
}

/// The attributes by which the engine reads other elements by id: a `<label for>` names its
/// control, `aria-labelledby` its targets.
const NAMING: &[&str] = &["for", "aria-labelledby"];

/// The ids of `node` and of the elements below it, into `out`.
fn ids_in(node: &Node, out: &mut FxHashSet<String>) {
    if js::node_type(node) != js::ELEMENT_NODE {
        return;
    }
    let el: &web_sys::Element = node.unchecked_ref();
    out.extend(el.get_attribute("id").filter(|v| !v.is_empty()));
    let below = js::query_all_js(node, &JsString::from("[id]"));
    for i in 0..below.length() {
        if let Some(e) = below.item(i) {
            out.extend(e.get_attribute("id").filter(|v| !v.is_empty()));
        }
    }
}

/// Can the subtrees child-list records `inserted` and `removed` have changed what an element
/// that is not walked again (outside `roots`) names by id ([`NAMING`])? Yes when one of them
/// names an id a removed subtree held, or an id an inserted subtree holds now first in its
/// tree (with duplicate ids the first in tree order is the one named: an element added before
/// another with a label's or an `aria-labelledby` target's id takes the name over, and one
/// removed gives it back, to an element whose record says it has no such name). A later
/// duplicate changes nothing. Ids compared as strings: no selector needs to spell them.
fn ids_named(
    inserted: &[Node],
    removed: &[Node],
    roots: &[web_sys::Element],
    documents: &[web_sys::Document],
) -> bool {
    let (mut added, mut gone) = (FxHashSet::default(), FxHashSet::default());
    for n in inserted {
        ids_in(n, &mut added);
    }
    for n in removed {
        ids_in(n, &mut gone);
    }
    if added.is_empty() && gone.is_empty() {
        return false;
    }
    let naming = JsString::from("[for],[aria-labelledby]");
    let first_inserted = |doc: &Node, id: &str| {
        js::element_by_id(doc, id)
            .is_some_and(|first| inserted.iter().any(|n| js::contains(n, &first)))
    };
    for doc in documents {
        let doc: &Node = doc.as_ref();
        let found = js::query_all_js(doc, &naming);
        for i in 0..found.length() {
            let Some(r) = found.item(i) else { continue };
            let r: web_sys::Element = r.unchecked_into();
            if roots
                .iter()
                .any(|root| root.contains(Some(r.unchecked_ref())))
            {
                // Walked again: it reads its names afresh.
                continue;
            }
            for attr in NAMING {
                let Some(value) = r.get_attribute(attr) else {
                    continue;
                };
                let named =
                    |id: &str| gone.contains(id) || (added.contains(id) && first_inserted(doc, id));
                let hit = if *attr == "for" {
                    named(&value)
                } else {
                    value.split_ascii_whitespace().any(named)
                };
                if hit {
                    return true;
                }
            }
        }
    }
    false
}

/// Most added subtrees and change points one patch takes on; beyond, a full walk is cheaper.
const PATCH_ADDED: usize = 16;
const PATCH_TARGETS: usize = 64;
/// Largest removed or re-walked subtree looked into for captured entries.
const PATCH_SUBTREE: u32 = 512;

/// Look-ups by scan before [`Index`] builds its hash map.
const SCANS: u32 = 8;

/// Uid → index of a capture's entries, for the few look-ups a patch makes (the ancestors of
/// its change points): a scan of the uids while they are few, a hash map once they are many.
/// Building the map for every patch cost more than the rest of the patch of one list item
/// on a page of 3,000 elements.
struct Index {
    uids: Vec<u32>,
    scans: Cell<u32>,
    map: OnceCell<FxHashMap<u32, usize>>,
}

impl Index {
    fn new(uids: impl Iterator<Item = u32>) -> Index {
        Index {
            uids: uids.collect(),
            scans: Cell::new(0),
            map: OnceCell::new(),
        }
    }

    fn get(&self, uid: u32) -> Option<usize> {
        if self.map.get().is_none() && self.scans.get() < SCANS {
            self.scans.set(self.scans.get() + 1);
            return self.uids.iter().position(|&u| u == uid);
        }
        let map = self
            .map
            .get_or_init(|| self.uids.iter().enumerate().map(|(i, &u)| (u, i)).collect());
        map.get(&uid).copied()
    }
}

/// `Node.DOCUMENT_NODE`.
const DOCUMENT_NODE: u16 = 9;

impl Walk<'_> {
    /// Brings `capture` up to date with `records` without walking the page again. Child-list
    /// and text changes: entries of removed or moved subtrees go, added subtrees are walked
    /// in the context their parent gives them, and every captured ancestor of a change has
    /// its name and text read again on every replay from then on (they may come from the
    /// changed content). A changed attribute the walk reads: its element's subtree is walked
    /// again in the same way. `None`, leaving `capture` to be thrown away, when the change
    /// reaches what a patch cannot redo exactly: a shadow tree, a frame, a slot, a custom
    /// element, a label, a scope's first `<label>` or disabled control, an `id` some element
    /// names (see [`referenced`]), an element added or removed holding such an id (see
    /// [`ids_named`]), a landmark
    /// named by `aria-labelledby`, or the parent context of an element the walk did not
    /// capture.
    pub fn patch(
        &mut self,
        capture: &mut Capture,
        records: &[web_sys::MutationRecord],
    ) -> Option<Patched> {
        if capture.fragile {
            return None;
        }
        let mut targets: Vec<Node> = Vec::new();
        // Change points of children and attributes (not of text alone).
        let mut structural: Vec<Node> = Vec::new();
        let mut added: Vec<web_sys::Element> = Vec::new();
        // Elements child-list records added (`added` also holds attribute targets).
        let mut inserted: Vec<Node> = Vec::new();
        let mut removed: Vec<Node> = Vec::new();
        let mut restyle = false;
        for r in records {
            match r.type_().as_str() {
                "attributes" => {
                    // One the walk reads (the cache passes no other): walk its element again.
                    let name = r.attribute_name().unwrap_or_default();
                    if matches!(name.as_str(), "for" | "slot" | "name") {
                        return None;
                    }
                    let t = r.target()?;
                    if js::node_type(&t) != js::ELEMENT_NODE {
                        return None;
                    }
                    if name == "id" && referenced(&t, r.old_value()) {
                        return None;
                    }
                    // Its whole subtree is walked again; other elements' styles can follow an
                    // attribute only through sibling or `:has()` rules (the cache checks).
                    if js::is_connected(&t) {
                        added.push(t.clone().unchecked_into());
                    }
                    structural.push(t.clone());
                    targets.push(t);
                }
                "characterData" => {
                    if let Some(parent) = r.target().and_then(|t| js::parent_node(&t)) {
                        targets.push(parent);
                    }
                }
                "childList" => {
                    let t = r.target()?;
                    // A `<details>` shows its first `<summary>` child only.
                    restyle |= js::node_type(&t) == js::ELEMENT_NODE
                        && js::local_name(t.unchecked_ref()) == "details";
                    let list = r.added_nodes();
                    for i in 0..list.length() {
                        let Some(n) = list.item(i) else { continue };
                        if js::node_type(&n) == js::ELEMENT_NODE && js::is_connected(&n) {
                            inserted.push(n.clone());
                            added.push(n.unchecked_into());
                        }
                    }
                    let gone = r.removed_nodes();
                    if gone.length() > 0 && in_label(&t) {
                        // Which element a label names depends on its whole subtree.
                        return None;
                    }
                    for i in 0..gone.length() {
                        let Some(n) = gone.item(i) else { continue };
                        if self.near_label(&n) {
                            return None;
                        }
                        removed.push(n);
                    }
                    structural.push(t.clone());
                    targets.push(t);
                }
                _ => return None,
            }
            if added.len() > PATCH_ADDED || targets.len() > PATCH_TARGETS {
                return None;
            }
        }
        // An added subtree inside another is walked with it.
        let mut roots: Vec<web_sys::Element> = Vec::new();
        for a in added {
            if roots.iter().any(|r| r.contains(Some(a.unchecked_ref()))) {
                continue;
            }
            roots.retain(|r| !a.contains(Some(r.unchecked_ref())));
            roots.push(a);
        }
        if roots.iter().any(|r| self.near_label(r)) {
            return None;
        }
        let in_document = |n: &Node| {
            let root = js::root_node(n);
            capture.documents.iter().any(|d| js::same(d, &root))
        };
        targets.retain(js::is_connected);
        if !targets.iter().all(in_document) || !roots.iter().all(|r| in_document(r)) {
            return None;
        }
        if capture.frames.iter().any(|f| !js::is_connected(&f.node))
            || capture.roots.iter().any(|(r, _)| !js::is_connected(r))
        {
            return None;
        }
        if ids_named(&inserted, &removed, &roots, &capture.documents) {
            return None;
        }

        let element_at = Index::new(capture.elements.iter().map(|e| e.uid));
        let text_at = Index::new(capture.texts.iter().map(|t| t.uid));
        {
            let (elements, _) = capture.maps();
            if structural
                .iter()
                .filter(|n| js::is_connected(n))
                .any(|n| self.near_clickable(n, capture, &elements, &element_at))
            {
                return None;
            }
        }

        // Entries of removed subtrees, and of subtrees walked again, go. Found through the
        // node → uid maps in those subtrees; for large ones every entry is checked instead.
        let (elements, texts) = capture.maps();
        let mut keep_elements = vec![true; capture.elements.len()];
        let mut keep_texts = vec![true; capture.texts.len()];
        let mut sweep = false;
        for n in removed
            .iter()
            .chain(roots.iter().map(|r| r.unchecked_ref::<Node>()))
        {
            if js::node_type(n) != js::ELEMENT_NODE {
                continue;
            }
            let inside = js::query_all_js(n, &self.s.any_element);
            if inside.length() > PATCH_SUBTREE {
                sweep = true;
                break;
            }
            let nodes = std::iter::once(n.clone())
                .chain((0..inside.length()).filter_map(|i| inside.item(i).map(Node::from)));
            for node in nodes {
                for (map, at, keep) in [
                    (&elements, &element_at, &mut keep_elements),
                    (&texts, &text_at, &mut keep_texts),
                ] {
                    if let Some(uid) = map.get(&node).as_f64() {
                        if let Some(i) = at.get(uid as u32) {
                            keep[i] = false;
                        }
                        map.delete(&node);
                    }
                }
            }
        }
        let gone = |n: &Node| !js::is_connected(n) || roots.iter().any(|r| r.contains(Some(n)));
        if sweep {
            *capture.maps.borrow_mut() = None;
            keep_elements = capture.elements.iter().map(|e| !gone(&e.node)).collect();
            keep_texts = capture.texts.iter().map(|t| !gone(&t.node)).collect();
        }
        let mut kept = None;
        if keep_elements.contains(&false) || keep_texts.contains(&false) {
            let mut k = keep_elements.iter();
            capture.elements.retain(|_| *k.next().unwrap_or(&true));
            let mut k = keep_texts.iter();
            capture.texts.retain(|_| *k.next().unwrap_or(&true));
            let mut hashes = capture.hashes.borrow_mut();
            if hashes.len() == keep_elements.len() {
                let mut k = keep_elements.iter();
                hashes.retain(|_| *k.next().unwrap_or(&true));
            } else {
                hashes.clear();
            }
            drop(hashes);
            kept = Some((keep_elements, keep_texts));
        }
        capture.fields.retain(|(n, _, _)| !gone(n));
        capture.customs.retain(|(n, _)| !gone(n));

        // Every captured ancestor of a change point may name itself from the changed content.
        let (elements, texts) = capture.maps();
        let element_at = Index::new(capture.elements.iter().map(|e| e.uid));
        let text_at = Index::new(capture.texts.iter().map(|t| t.uid));
        for t in &targets {
            let mut at = Some(t.clone());
            while let Some(node) = at.filter(|n| js::node_type(n) == js::ELEMENT_NODE) {
                if let Some(i) = elements
                    .get(&node)
                    .as_f64()
                    .and_then(|u| element_at.get(u as u32))
                {
                    capture.elements[i].slow = true;
                }
                if let Some(i) = texts
                    .get(&node)
                    .as_f64()
                    .and_then(|u| text_at.get(u as u32))
                {
                    capture.texts[i].text = None;
                }
                at = js::parent_node(&node);
            }
        }

        // Added subtrees, walked in their parent's context.
        self.docs = capture
            .documents
            .iter()
            .map(|_| DocInfo {
                width: 0.0,
                height: 0.0,
                hidden: false,
                in_view: false,
                iframes: 0,
            })
            .collect();
        self.deadline = js::now() + self.opts.budget_ms;
        self.namer.label_index = None;
        self.capture = Some(Capture::default());
        for root in &roots {
            match self.context_of(root, capture, &elements, &element_at) {
                Err(()) => return None,
                Ok(None) => self.collect_secrets(root.unchecked_ref()),
                Ok(Some((ctx, rc, run))) => {
                    if !self.scope_holds(root, &ctx.scope) {
                        return None;
                    }
                    let level = Level {
                        cursor: Cursor::List(js_sys::Array::of1(root), 0),
                        ctx,
                        role: rc,
                        run,
                    };
                    self.drain(vec![level]);
                }
            }
        }
        let mut new = self.capture.take()?;
        let runs = capture
            .texts
            .iter()
            .chain(&new.texts)
            .filter(|t| t.kind == TextKind::Plain && t.text.as_deref() != Some(""))
            .count();
        // Past the cap, which runs a walk reports depends on its order: walk in full.
        if runs > limits::MAX_PLAIN_TEXTS
            || self.has_more
            || !new.frames.is_empty()
            || !new.roots.is_empty()
            || !new.documents.is_empty()
        {
            return None;
        }
        let mut patched = Patched {
            kept,
            added_visible: new.elements.iter().map(|e| e.record.visible).collect(),
            added_texts: new.texts.len(),
            added_texts_known: new.texts.iter().all(|t| t.text.is_some()),
            restyle,
            touched: targets.clone(),
            order: (None, None),
        };
        let (old_elements, old_texts) = (capture.elements.len(), capture.texts.len());
        let added = !new.elements.is_empty() || !new.texts.is_empty();
        capture.fragile |= new.fragile;
        let live = capture.maps.borrow().is_some();
        for e in &mut new.elements {
            capture.next_uid += 1;
            e.uid = capture.next_uid;
            if live {
                elements.set(&e.node, &JsValue::from_f64(e.uid as f64));
            }
        }
        for t in &mut new.texts {
            capture.next_uid += 1;
            t.uid = capture.next_uid;
            if live {
                texts.set(&t.node, &JsValue::from_f64(t.uid as f64));
            }
        }
        capture.elements.extend(new.elements);
        capture.texts.extend(new.texts);
        if capture.sortable() {
            patched.order = (
                in_order(&capture.elements, old_elements, |e| &e.node),
                in_order(&capture.texts, old_texts, |t| &t.node),
            );
            if let Some(order) = &patched.order.0 {
                permute(&mut capture.elements, order);
                let mut hashes = capture.hashes.borrow_mut();
                if hashes.len() == old_elements {
                    hashes.resize(capture.elements.len(), None);
                    permute(&mut hashes, order);
                } else {
                    hashes.clear();
                }
            }
            if let Some(order) = &patched.order.1 {
                permute(&mut capture.texts, order);
            }
        } else {
            capture.unordered |= added;
        }
        capture.fields.extend(new.fields);
        capture.customs.extend(new.customs);
        // Labels may have come or gone: the index is built again when next needed.
        capture.label_index = self.namer.label_index.take();
        Some(patched)
    }

    /// The walk context and role context the walk gives `root`: its nearest captured
    /// ancestor's, through plain elements only. `Ok(None)`: the walk never reaches it
    /// (hidden from the accessibility tree, or under a leaf); `Err`: not patchable.
    fn context_of(
        &self,
        root: &web_sys::Element,
        capture: &Capture,
        elements: &js_sys::Map,
        element_at: &Index,
    ) -> Result<Option<(Rc<Ctx>, RoleCtx, bool)>, ()> {
        let mut plain = false;
        let mut at = js::parent_node(root.unchecked_ref());
        let adjust = |rc: RoleCtx, plain: bool| {
            if plain {
                RoleCtx {
                    parent_is_list: false,
                    parent_list_presentational: false,
                    ..rc
                }
            } else {
                rc
            }
        };
        while let Some(node) = at {
            match js::node_type(&node) {
                DOCUMENT_NODE => {
                    let i = capture
                        .documents
                        .iter()
                        .position(|d| js::same(d, &node))
                        .ok_or(())?;
                    let ctx = capture.doc_ctx.get(i).cloned().ok_or(())?;
                    return Ok(Some((ctx, adjust(RoleCtx::default(), plain), plain)));
                }
                js::ELEMENT_NODE => {}
                _ => return Err(()),
            }
            let el: web_sys::Element = node.unchecked_into();
            if let Some(i) = elements
                .get(&el)
                .as_f64()
                .and_then(|u| element_at.get(u as u32))
            {
                let e = &capture.elements[i];
                if e.opaque
                    || matches!(e.tag, Tag::Slot | Tag::Iframe | Tag::Frame | Tag::Custom)
                    || js::shadow_root(&el).is_some()
                {
                    return Err(());
                }
                if e.tag.is_leaf() {
                    return Ok(None);
                }
                return Ok(Some((e.ctx.clone(), adjust(e.child_rc, plain), true)));
            }
            let x = El::new(self.s, &el);
            if x.tag.is_skipped() || x.tag.is_leaf() {
                return Ok(None);
            }
            if x.tag.is_semantic()
                || x.has_bits(role::RELEVANT_BITS)
                || matches!(x.tag, Tag::Custom | Tag::Slot)
                || x.shadow().is_some()
            {
                return Err(());
            }
            plain = true;
            at = js::parent_node(&el);
        }
        Ok(None)
    }

    /// Is `node`, or one of its ancestors, a clickable or an element that could become one
    /// (an `onclick`, a `tabindex`, a pointer that starts there), or a container named by a
    /// child? Then a change below may add or remove the control that decides it, or the name
    /// that decides whether its content is observed as plain runs.
    fn near_clickable(
        &self,
        node: &Node,
        capture: &Capture,
        elements: &js_sys::Map,
        element_at: &Index,
    ) -> bool {
        let mut at = Some(node.clone());
        while let Some(n) = at.filter(|n| js::node_type(n) == js::ELEMENT_NODE) {
            let e: &web_sys::Element = n.unchecked_ref();
            match elements
                .get(e)
                .as_f64()
                .and_then(|u| element_at.get(u as u32))
            {
                Some(i) => {
                    let c = &capture.elements[i];
                    // A clickable, or a container named by a child (`legend`, `figcaption`,
                    // `summary`) whose plain runs exist only while it has a name.
                    if c.record.clickable
                        || (role::uses_text(c.role)
                            && !c.record.name.is_empty()
                            && matches!(c.tag, Tag::Fieldset | Tag::Figure | Tag::Details))
                    {
                        return true;
                    }
                }
                None => {
                    let x = El::new(self.s, e);
                    if x.has_bits(CLICK_BITS) || (capture.cursor && self.pointer_starts(e)) {
                        return true;
                    }
                }
            }
            at = js::parent_node(&n);
        }
        false
    }

    /// Is `node` a `<label>`, inside one, or holding one? Then adding or removing it can
    /// change which element a label names, far from the change.
    fn near_label(&self, node: &Node) -> bool {
        js::node_type(node) == js::ELEMENT_NODE
            && (in_label(node) || js::query_one_js(node, &self.s.labels_probe).is_some())
    }

    /// Does the scope's one-time probe still hold with `root` in it (no first `<label>`,
    /// `[disabled]` or inline `visibility` where the scope had none)?
    fn scope_holds(&self, root: &web_sys::Element, scope: &Scope) -> bool {
        let has = |selector: &JsString| {
            js::matches_js(root, selector) || js::query_one_js(root, selector).is_some()
        };
        if !has(&self.s.any_probe) {
            return true;
        }
        (scope.labels || !has(&self.s.labels_probe))
            && (scope.disabled || !has(&self.s.disabled_probe))
            && (scope.visibility || !has(&self.s.visibility_probe))
    }
}

/// Where the entries a patch appended to `entries` (from `kept` on) go among the kept ones,
/// which are in document order: the order that puts them all in document order, as a list
/// of indexes into `entries`, or `None` when the appended entries already come last.
///
/// The same order a stable sort of all of `entries` by document position gives (appended
/// entries after kept ones of the same node), at the cost of sorting the appended entries
/// and a binary search per appended entry, where the sort compared every neighbouring pair
/// at each snapshot. Why not the sort: `compareDocumentPosition` of two siblings crawls the
/// siblings between them, so on a page of many sibling sections each comparison grows with
/// the page and the sort grew with its square.
pub(super) fn in_order<T>(
    entries: &[T],
    kept: usize,
    node: impl Fn(&T) -> &web_sys::Element,
) -> Option<Vec<usize>> {
    let kept = kept.min(entries.len());
    let before = |a: usize, b: usize| document_order(node(&entries[a]), node(&entries[b]));
    let mut appended: Vec<usize> = (kept..entries.len()).collect();
    appended.sort_by(|&a, &b| before(a, b));
    let first = *appended.first()?;
    let sorted = appended.iter().enumerate().all(|(k, &i)| i == kept + k);
    if sorted && (kept == 0 || before(kept - 1, first) != Ordering::Greater) {
        return None;
    }
    let mut order = Vec::with_capacity(entries.len());
    let mut at = 0;
    for i in appended {
        // The first kept entry after `i`: kept entries of the same node stay before it.
        let mut next = at;
        if at < kept && before(at, i) != Ordering::Greater {
            let mut end = kept;
            next = at + 1;
            while next < end {
                let mid = next + (end - next) / 2;
                if before(mid, i) == Ordering::Greater {
                    end = mid;
                } else {
                    next = mid + 1;
                }
            }
        }
        order.extend(at..next);
        order.push(i);
        at = next;
    }
    order.extend(at..kept);
    Some(order)
}

/// `a` before `b` in a tree's preorder (an ancestor before what it contains).
fn document_order(a: &web_sys::Node, b: &web_sys::Node) -> Ordering {
    if a.is_same_node(Some(b)) {
        return Ordering::Equal;
    }
    let p = a.compare_document_position(b);
    if p & web_sys::Node::DOCUMENT_POSITION_FOLLOWING != 0 {
        Ordering::Less
    } else if p & web_sys::Node::DOCUMENT_POSITION_PRECEDING != 0 {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}
