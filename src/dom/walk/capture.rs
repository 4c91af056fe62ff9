//! What a walk keeps for the cache (see `cache`): the capture of a fingerprint walk, and
//! the visual memo of a replay.

use super::Ctx;
use crate::core::fingerprint::{compared_value, observable_hash, text_hash};
use crate::core::model::{limits, Element, Role, Text, TextKind};
use crate::core::text::cap;
use crate::dom::js;
use crate::dom::name;
use crate::dom::role::{RoleCtx, Tag};
use std::rc::Rc;
use wasm_bindgen::JsValue;
use web_sys::{Document, Node};

/// What a replay read that changes without any DOM mutation: visibility, the viewport, and
/// the names and texts that depend on them. The cache keeps the last one so that the next replay
/// can reuse it while nothing that could change these facts has happened (see `cache`).
pub struct Visual {
    /// When these facts were last read from the page (`performance.now()`).
    pub at: f64,
    /// Per captured element.
    pub(super) visible: Vec<bool>,
    /// Records of the slow elements, in capture order.
    pub(super) slow: Vec<Slow>,
    /// Per captured text.
    pub(super) texts: Vec<TextMemo>,
    /// Per captured element, when read (snapshots); `None` for one a patch added after
    /// (read by the next replay).
    pub(super) in_view: Option<Vec<Option<bool>>>,
    /// `in_view` was read from the page by this replay (not carried over).
    pub view_read: bool,
    /// This replay took its visibility from a memo (else it read it from the page).
    pub reused: bool,
    /// Per captured frame: hidden, and in view when read.
    pub(super) frames: Vec<(bool, Option<bool>)>,
    /// Hash of the form state read (values, checked and selected states, secrets): the memo
    /// holds only while it is unchanged, since `:checked` or `:placeholder-shown` rules can
    /// hide elements.
    pub form: u64,
    /// The places a snapshot gave the records of this replay (`Walk::place_records`): they
    /// read the DOM (mutations void the capture's id and this memo with it), the styles
    /// (visibility) and the form state, as the memo's other facts do, so they hold while the
    /// memo does.
    pub places: Option<super::place::Places>,
    /// What each record that needed a place found, by captured element's uid: it outlives
    /// `places` through a patch of states no word reads (see `cache`), where elements may
    /// move but no container's words change, so that only the re-walked records are placed
    /// again.
    pub place_words: Option<super::place::PlaceWords>,
    /// Subtrees a class change may have restyled since these facts were read (see
    /// [`Visual::read_again`]).
    pub(super) again: Vec<web_sys::Element>,
}

/// The record of a slow element (one whose name or text reads more than its own attributes
/// and text), with what it was read from.
pub(super) struct Slow {
    /// Its capture index.
    pub(super) at: u32,
    pub(super) record: Element,
    /// The element itself and the nodes its name read beyond it (`Namer::read`): a change
    /// outside all of their subtrees leaves the record as it is. `None` when the name
    /// depends on more than subtrees (an `aria-labelledby` id that named no node).
    pub(super) sources: Option<Rc<[Node]>>,
}

impl Visual {
    /// The memo of a patched capture (see [`Walk::patch`]), when its facts carry over:
    /// dropped entries go, appended ones come with what the patch read, and every slow
    /// record and text is read again. The viewport facts carry over only with
    /// `layout_holds` (the caller knows the change moved nothing: see `cache`), those of
    /// appended elements to be read. What each element's place was carries over only with
    /// `places_hold` (the caller knows no container's words changed).
    pub fn patched(mut self, p: &Patched, layout_holds: bool, places_hold: bool) -> Option<Visual> {
        if !layout_holds {
            self.in_view = None;
        }
        if let Some((elements, texts)) = &p.kept {
            if elements.len() != self.visible.len() || texts.len() != self.texts.len() {
                return None;
            }
            if let Some(v) = &mut self.in_view {
                if v.len() != elements.len() {
                    self.in_view = None;
                } else {
                    let mut keep = elements.iter();
                    v.retain(|_| *keep.next().unwrap_or(&false));
                }
            }
            let mut keep = elements.iter();
            self.visible.retain(|_| *keep.next().unwrap_or(&false));
            let mut renumber = Vec::with_capacity(elements.len());
            let mut n = 0u32;
            for k in elements {
                renumber.push(n);
                n += *k as u32;
            }
            self.slow = std::mem::take(&mut self.slow)
                .into_iter()
                .filter(|s| elements.get(s.at as usize) == Some(&true))
                .map(|s| Slow {
                    at: renumber[s.at as usize],
                    ..s
                })
                .collect();
            let mut keep = texts.iter();
            self.texts.retain(|_| *keep.next().unwrap_or(&false));
        }
        // Indexes moved: placed again; what each element found holds unless a container's
        // words may have changed.
        self.places = None;
        if !places_hold {
            self.place_words = None;
        }
        // Slow names and texts depend on content elsewhere (labels, references, hidden
        // descendants): those read from a subtree the change reached are read again.
        let reached = reached(&p.touched);
        self.slow.retain(|s| {
            s.sources.as_ref().is_some_and(|nodes| {
                nodes
                    .iter()
                    .all(|n| js::is_connected(n) && !reached.has(n.as_ref()))
            })
        });
        for t in &mut self.texts {
            if let TextMemo::Slow(_, sources) = t {
                let holds = sources.as_ref().is_some_and(|nodes| {
                    nodes
                        .iter()
                        .all(|n| js::is_connected(n) && !reached.has(n.as_ref()))
                });
                if !holds {
                    *t = TextMemo::Shown;
                }
            }
        }
        if !p.added_texts_known {
            return None;
        }
        self.visible.extend(&p.added_visible);
        if let Some(v) = &mut self.in_view {
            v.extend(p.added_visible.iter().map(|_| None));
            if v.len() != self.visible.len() {
                self.in_view = None;
            }
        }
        self.texts
            .extend((0..p.added_texts).map(|_| TextMemo::Shown));
        if let Some(order) = &p.order.0 {
            if !permute(&mut self.visible, order) {
                return None;
            }
            if let Some(v) = &mut self.in_view {
                if !permute(v, order) {
                    self.in_view = None;
                }
            }
            // The slow records move with their elements (`order` is a permutation now).
            let mut to = vec![0u32; order.len()];
            for (j, &i) in order.iter().enumerate() {
                to[i] = j as u32;
            }
            for s in &mut self.slow {
                s.at = to[s.at as usize];
            }
            self.slow.sort_unstable_by_key(|s| s.at);
        }
        if let Some(order) = &p.order.1 {
            if !permute(&mut self.texts, order) {
                return None;
            }
        }
        Some(self)
    }

    /// These facts hold but for the subtrees of `roots`, which a class change may have
    /// restyled (the elements its rules can now match: `cache::restyles`): the next replay
    /// reads again the visibility of what is inside them and every name or text read from
    /// nodes inside or around them, and takes the rest from here. Whatever moved in the
    /// layout, the viewport facts and the places go.
    pub fn read_again(&mut self, roots: impl IntoIterator<Item = web_sys::Element>) {
        self.again.extend(roots);
        self.in_view = None;
        self.places = None;
        self.place_words = None;
    }

    /// How many subtrees [`Visual::read_again`] marked.
    pub fn again_len(&self) -> usize {
        self.again.len()
    }

    /// Were the viewport facts read (a snapshot replay)?
    pub fn has_view(&self) -> bool {
        self.in_view.is_some()
    }
}

pub(super) enum TextMemo {
    Hidden,
    /// Its text is known empty: visibility not read.
    Empty,
    /// Shown; its text is the capture's.
    Shown,
    /// Shown; its text depends on more than its element and was read: from the element and
    /// the nodes named (as for [`Slow::sources`]; `None` when an `aria-labelledby` id
    /// named no node).
    Slow(String, Option<Rc<[Node]>>),
}

/// An order-sensitive hash of the form state a replay reads.
#[derive(Default)]
pub(super) struct FormHash(pub(super) u64);

impl FormHash {
    pub(super) fn add(&mut self, h: u64) {
        self.0 = (self.0.rotate_left(5) ^ h).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    /// A form element's state: its value and states. Not its name or visibility, which
    /// the memo gives, or a replay reads again for the subtrees a class change restyled
    /// (`Visual::read_again`) without the rest of the form having changed.
    pub(super) fn add_state(&mut self, r: &Element) {
        use std::hash::{Hash, Hasher};
        let mut h = siphasher::sip::SipHasher13::new();
        r.checked.map(|t| t.as_str()).hash(&mut h);
        r.pressed.map(|t| t.as_str()).hash(&mut h);
        r.selected.hash(&mut h);
        r.expanded.hash(&mut h);
        r.disabled.hash(&mut h);
        compared_value(r).hash(&mut h);
        self.add(h.finish());
    }

    pub(super) fn add_str(&mut self, s: Option<&str>) {
        use std::hash::{Hash, Hasher};
        let mut h = siphasher::sip::SipHasher13::new();
        s.hash(&mut h);
        self.add(h.finish());
    }
}

/// What a fingerprint walk keeps so that the next fingerprints of an unchanged page can be
/// answered by re-reading only what changes without a DOM mutation (see `cache`): each
/// record's static part (role, name, region...) with its live node and context.
#[derive(Default)]
pub struct Capture {
    /// Boxed: a patch drops, appends and reorders entries of a capture of thousands, and
    /// moving a pointer is cheaper than moving a record.
    #[allow(clippy::vec_box)]
    pub(in crate::dom) elements: Vec<Box<CachedElement>>,
    pub(in crate::dom) texts: Vec<CachedText>,
    /// Frame elements in walk order, with the document they showed.
    pub frames: Vec<CachedFrame>,
    /// Custom elements without an open shadow root, and (for those without child elements)
    /// whether they looked like a closed host.
    pub customs: Vec<(web_sys::Element, Option<bool>)>,
    /// Sensitive fields: their values are secrets, read again on every replay.
    pub(in crate::dom) fields: Vec<(web_sys::Element, Tag, u64)>,
    /// Documents and shadow roots entered, with their style-sheet bits.
    pub roots: Vec<(Node, u8)>,
    /// The documents walked, by index (the top one first).
    pub documents: Vec<Document>,
    /// The labels index the walk built, if it named a labelled element.
    pub(super) label_index: Option<name::LabelIndex>,
    /// Per element, the hashes of its captured record hidden and visible, once asked.
    pub(super) hashes: std::cell::RefCell<Vec<Option<[u64; 2]>>>,
    /// The walk context of each document's top element.
    pub(super) doc_ctx: Vec<Rc<Ctx>>,
    /// Some scope reads the cursor (clickables by pointer): a style sheet edit voids it.
    pub cursor: bool,
    /// Elements and texts are no longer in walk order: a patch appended to them where it
    /// could not put them in place (a capture that is not [`Capture::sortable`]).
    pub unordered: bool,
    /// A region or a role depends on text elsewhere (a landmark named by
    /// `aria-labelledby`): no patch can tell what a text change does to it.
    pub(super) fragile: bool,
    /// Node → uid of `elements` and of `texts`, built by the first patch and kept up to
    /// date by the next ones.
    pub(super) maps: std::cell::RefCell<Option<(js_sys::Map, js_sys::Map)>>,
    /// The last uid handed out.
    pub(super) next_uid: u32,
}

impl Capture {
    /// One document and no shadow root: document order is the walk's order, so a patch
    /// puts what it adds in place (`patch::in_order`) and the capture stays in walk order.
    pub fn sortable(&self) -> bool {
        self.documents.len() == 1 && self.roots.len() == 1
    }

    /// Node → uid maps of elements and texts (see `maps`).
    pub(super) fn maps(&self) -> (js_sys::Map, js_sys::Map) {
        let mut maps = self.maps.borrow_mut();
        let (elements, texts) = maps.get_or_insert_with(|| {
            let elements = js_sys::Map::new();
            for e in &self.elements {
                elements.set(&e.node, &JsValue::from_f64(e.uid as f64));
            }
            let texts = js_sys::Map::new();
            for t in &self.texts {
                texts.set(&t.node, &JsValue::from_f64(t.uid as f64));
            }
            (elements, texts)
        });
        (elements.clone(), texts.clone())
    }

    /// The fingerprint hash of element `i`'s captured record with visibility `visible`.
    pub(super) fn hash_of(&self, i: usize, visible: bool) -> u64 {
        let mut hashes = self.hashes.borrow_mut();
        if hashes.len() < self.elements.len() {
            hashes.resize(self.elements.len(), None);
        }
        let pair = hashes[i].get_or_insert_with(|| {
            let mut r = self.elements[i].record.clone();
            r.visible = false;
            let hidden = observable_hash(&r);
            r.visible = true;
            [hidden, observable_hash(&r)]
        });
        pair[visible as usize]
    }

    /// The uid of each captured element, in capture order (a snapshot replay's records).
    pub(in crate::dom) fn element_uids(&self) -> Vec<u32> {
        self.elements.iter().map(|e| e.uid).collect()
    }

    /// Observable elements captured (what a replay would count against `maxElements`).
    pub(in crate::dom) fn len(&self) -> usize {
        self.elements.len()
    }
}

pub(in crate::dom) struct CachedElement {
    pub(super) node: web_sys::Element,
    pub(super) tag: Tag,
    pub(super) present: u64,
    pub(super) role: Role,
    pub(super) opaque: bool,
    pub(super) ctx: Rc<Ctx>,
    pub(super) landmark: Option<String>,
    /// The name or text depends on more than the element's attributes and text.
    pub(super) slow: bool,
    pub(super) record: Element,
    /// The role context its children are walked with (`ctx` is their walk context).
    pub(super) child_rc: RoleCtx,
    /// An `<input>`'s `type` as the walk read it (a change of it is patched).
    pub(super) input_type: Option<Rc<str>>,
    /// Unique in its capture (see [`Capture::maps`]).
    pub(super) uid: u32,
}

pub(in crate::dom) struct CachedText {
    pub(super) node: web_sys::Element,
    pub(super) tag: Tag,
    pub(super) present: u64,
    pub(super) kind: TextKind,
    pub(super) ctx: Rc<Ctx>,
    /// The text, when it depends on the element's own text only and was read.
    pub(super) text: Option<String>,
    /// Unique in its capture (see [`Capture::maps`]).
    pub(super) uid: u32,
    /// Hash of its record with the captured text, once asked.
    pub(super) hash: std::cell::OnceCell<u64>,
}

impl CachedText {
    /// The record with the captured text (which must be known).
    pub(super) fn record(&self) -> Text {
        Text {
            kind: self.kind,
            text: cap(self.text.as_deref().unwrap_or(""), limits::MAX_TEXT_CHARS).into_owned(),
            region: String::from(&*self.ctx.region),
            frame: String::from(&*self.ctx.frame),
        }
    }

    /// The fingerprint hash of [`CachedText::record`], computed once.
    pub(super) fn hash(&self) -> u64 {
        *self.hash.get_or_init(|| text_hash(&self.record()))
    }
}

pub struct CachedFrame {
    pub node: web_sys::Element,
    pub(super) parent: usize,
    pub(super) doc: Option<usize>,
    pub content: Option<Document>,
    pub(super) scope_visibility: bool,
}

/// What [`Walk::patch`] changed in a capture, for the cache to carry its visual memo over.
pub struct Patched {
    /// Which old elements and texts were kept, when some were dropped.
    pub kept: Option<(Vec<bool>, Vec<bool>)>,
    /// The visibility the patch read for each element it appended.
    pub added_visible: Vec<bool>,
    /// How many texts it appended, and whether each is shown with its own text (else its
    /// state is unknown).
    pub added_texts: usize,
    pub added_texts_known: bool,
    /// Styles may now match old elements differently for a reason no sheet shows.
    pub restyle: bool,
    /// Where the page changed: the targets of the mutation records patched (for a change of
    /// text, its parent).
    pub touched: Vec<Node>,
    /// Where the appended elements and texts went among the kept ones, when not last (see
    /// `patch::in_order`): indexes, in the new order, into the kept entries followed by the
    /// appended ones.
    pub order: (Option<Vec<usize>>, Option<Vec<usize>>),
}

/// The nodes `touched` and every ancestor of theirs, across shadow roots to their hosts: a
/// subtree the change reached has its root among them.
fn reached(touched: &[Node]) -> js_sys::Set {
    let set = js_sys::Set::new(&JsValue::UNDEFINED);
    for t in touched {
        let mut at = Some(t.clone());
        while let Some(node) = at {
            if set.has(node.as_ref()) {
                break;
            }
            set.add(node.as_ref());
            at = js::parent_node(&node).or_else(|| js::host(&node).map(Into::into));
        }
    }
    set
}

/// Reorders `v` to `order` (indexes into `v`, each once); false, leaving `v` as it was,
/// when `order` is not a permutation of it.
pub(super) fn permute<T>(v: &mut Vec<T>, order: &[usize]) -> bool {
    let mut seen = vec![false; v.len()];
    if order.len() != v.len()
        || !order
            .iter()
            .all(|&i| i < seen.len() && !std::mem::replace(&mut seen[i], true))
    {
        return false;
    }
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(order.iter().filter_map(|&i| slots[i].take()));
    true
}
