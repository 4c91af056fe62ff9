//! The in-page observation engine: the only code that names web-sys.
//!
//! Every entry point runs the same walk ([`walk`]) in one of three modes, so a fingerprint,
//! a snapshot and a single-element look-up taken at the same moment can never disagree:
//! - [`snapshot`]: full records (refs, viewport, focus);
//! - [`fingerprint`]: the same records, hashed into a short string and dropped (nothing is
//!   serialised, nothing crosses to JS but the string);
//! - [`describe`], [`element`], [`at`], [`focused`]: records for a few target nodes only.
//!
//! [`input`] holds what a driver asks of one element around input (box, scroll, hit test,
//! focus, value, select, destination); it measures and acts, it does not walk.
//!
//! Engine state (the document's random key, epoch, refs) lives in one value per wasm
//! instance, that is per document: a new document loads a new instance, so the epoch changes.

mod cache;
mod claims;
mod control;
pub mod cover;
mod el;
mod identify;
pub mod input;
pub mod js;
mod name;
pub mod pointer;
pub mod prepare;
mod quiet;
mod refs;
mod role;
mod style;
pub mod wait;
mod walk;

pub use identify::{identify, node_at};

use crate::core::background::Background;
use crate::core::diff::region_matches;
use crate::core::error::{Error, ErrorCode, Result};
use crate::core::fingerprint::{with_claims, Claims, Fingerprint};
use crate::core::identity::Identity;
use crate::core::model::{limits, Context, Element, Snapshot, Text};
use crate::core::wire_delta::Sent;
use serde::Deserialize;
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Node};

pub use walk::deepest_focus;

/// Options of `snapshot` and `fingerprint` (`prufe.snapshot(options)`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Options {
    pub tab: Option<String>,
    pub max_elements: Option<f64>,
    pub budget_ms: Option<f64>,
    /// Refs of this document or CSS selectors whose elements (and descendants) are sensitive.
    #[serde(default)]
    pub sensitive: Vec<String>,
    /// Keep only elements and texts whose region starts with one of these.
    #[serde(default)]
    pub regions: Vec<String>,
    /// Drop elements and texts whose region starts with one of these.
    #[serde(default)]
    pub ignore_regions: Vec<String>,
    /// `snapshot` answers with the compact wire string (`core::wire`) instead of an object:
    /// for callers outside the page, where the bytes moved cost more than the walk.
    #[serde(default)]
    pub wire: bool,
    /// With `wire`: the id of the snapshot the caller holds (`core::wire_delta::id_of`); the
    /// answer is a delta against it when the engine still keeps it.
    #[serde(default)]
    pub base: Option<String>,
    /// The fingerprint leaves out elements and texts in these slots (what the page changes
    /// by itself, `core::background`), in the merged page's terms.
    #[serde(default)]
    pub background: Background,
    /// This document's frame path in the merged page (empty for the top document), to
    /// match `background`'s slots.
    #[serde(default)]
    pub root: String,
}

struct Engine {
    strings: &'static el::Strings,
    styles: style::StyleScan,
    key: [u8; 16],
    epoch: u64,
    tab: String,
    snapshots: u64,
    refs: refs::Refs,
    /// The last complete fingerprint walk, while the page has not changed (see `cache`).
    cache: Option<cache::Cache>,
    /// The refs the last snapshot answered from a cache handed out, by captured element's
    /// uid. A replay of the same cache, patched since or not, reuses an entry whose identity
    /// is unchanged instead of looking the node up again, while no ref was replaced anywhere
    /// (`Refs::generation`).
    ref_memo: Option<RefMemo>,
    /// The last snapshots answered in the wire form, the bases of the next deltas.
    sent: Sent,
    /// The background the last fingerprint left out: `quietFor`, read after it, leaves it
    /// out too (`dom::quiet`).
    quiet_background: Background,
    /// Keys of the nodes the fingerprint's claims name (`claims`).
    claim_keys: claims::Keys,
}

struct RefMemo {
    cache: u64,
    generation: u64,
    /// Uid → (identity, ref index).
    entries: rustc_hash::FxHashMap<u32, (u32, u32)>,
}

thread_local! {
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
    static CACHE_HITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static VISUAL_HITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static PATCHES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static PLACE_HITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static VIEW_READS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static REF_LOOKUPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    static PLACE_READS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many times the cache was patched after child-list or text mutations (tests).
pub fn cache_patches() -> u64 {
    PATCHES.with(|c| c.get())
}

/// How many replays reused the visual memo so far (diagnostics and tests).
pub fn visual_memo_hits() -> u64 {
    VISUAL_HITS.with(|c| c.get())
}

/// How many snapshots took their records' places from the visual memo (tests).
pub fn place_memo_hits() -> u64 {
    PLACE_HITS.with(|c| c.get())
}

/// How many refs snapshots looked up by their node so far, having none kept (tests).
pub fn ref_lookups() -> u64 {
    REF_LOOKUPS.with(|c| c.get())
}

/// How many records snapshots looked a place up for so far, having none known (tests).
pub fn place_reads() -> u64 {
    PLACE_READS.with(|c| c.get())
}

/// How many elements snapshot replays read the viewport facts of so far (tests).
pub fn view_reads() -> u64 {
    VIEW_READS.with(|c| c.get())
}

/// How many fingerprints were answered from the cache so far (diagnostics and tests).
pub fn fingerprint_cache_hits() -> u64 {
    CACHE_HITS.with(|c| c.get())
}

fn window() -> Result<web_sys::Window> {
    web_sys::window()
        .ok_or_else(|| Error::new(ErrorCode::Internal, "no window: the engine runs in a page"))
}

fn document() -> Result<Document> {
    window()?
        .document()
        .ok_or_else(|| Error::new(ErrorCode::Internal, "no document"))
}

impl Engine {
    fn new() -> Result<Engine> {
        let win = window()?;
        let mut bytes = [0u8; 24];
        let crypto = win
            .crypto()
            .map_err(|_| Error::new(ErrorCode::Internal, "crypto is unavailable"))?;
        crypto
            .get_random_values_with_u8_array(&mut bytes)
            .map_err(|_| Error::new(ErrorCode::Internal, "crypto.getRandomValues failed"))?;
        let mut key = [0u8; 16];
        key.copy_from_slice(&bytes[..16]);
        let origin = win
            .performance()
            .map(|p| p.time_origin())
            .unwrap_or(0.0)
            .max(0.0);
        let noise = u64::from_le_bytes(bytes[16..24].try_into().unwrap_or([0; 8]));
        // timeOrigin in ms × 2048 plus 11 random bits stays an exact JS integer until 2109.
        let epoch = (origin.floor() as u64) * 2048 + (noise & 0x7ff);
        let tag = base36(epoch.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40, 4);
        let strings: &'static el::Strings = Box::leak(Box::new(el::Strings::new()));
        Ok(Engine {
            strings,
            styles: style::StyleScan::new(),
            key,
            epoch,
            tab: format!("t-{tag}"),
            snapshots: 0,
            refs: refs::Refs::new(tag),
            cache: None,
            ref_memo: None,
            sent: Sent::default(),
            quiet_background: Background::default(),
            claim_keys: claims::Keys::default(),
        })
    }

    fn context(&mut self, tab: Option<&str>) -> Context {
        self.snapshots += 1;
        Context {
            tab: tab.map(str::to_owned).unwrap_or_else(|| self.tab.clone()),
            epoch: self.epoch,
            snapshot: format!("s{}", self.snapshots),
        }
    }

    fn walk_options(&self, opts: &Options) -> Result<walk::WalkOptions> {
        let max_elements = match opts.max_elements {
            None => limits::DEFAULT_SNAPSHOT_ELEMENTS,
            Some(n) if n.is_finite() && n >= 0.0 && n.fract() == 0.0 => {
                (n as usize).min(limits::MAX_ELEMENTS)
            }
            Some(n) => {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    format!("maxElements must be a non-negative integer, got {n}"),
                ))
            }
        };
        let budget_ms = match opts.budget_ms {
            None => limits::DEFAULT_BUDGET_MS,
            Some(b) if b.is_finite() && b > 0.0 => b,
            Some(b) => {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    format!("budgetMs must be a positive number, got {b}"),
                ))
            }
        };
        if let Some(tab) = &opts.tab {
            if tab.is_empty() || tab.chars().count() > 200 {
                return Err(Error::new(
                    ErrorCode::InvalidOptions,
                    "tab must be a non-empty string of at most 200 characters",
                ));
            }
        }
        let mut declared = None;
        let mut selectors = Vec::new();
        if !opts.sensitive.is_empty() {
            let set = js_sys::Set::new(&JsValue::UNDEFINED);
            let doc = document()?;
            for s in &opts.sensitive {
                match self.refs.parse(s) {
                    Ok(index) => {
                        if let Some(node) = self.refs.node(index) {
                            set.add(&node);
                        }
                    }
                    // A ref of an older document names no node here.
                    Err(true) => {}
                    Err(false) => {
                        js::query_all(doc.unchecked_ref(), s).map_err(|_| {
                            Error::new(
                                ErrorCode::InvalidOptions,
                                format!(
                                    "sensitive: {s:?} is neither a ref nor a valid CSS selector"
                                ),
                            )
                        })?;
                        selectors.push(s.clone());
                    }
                }
            }
            declared = Some(set);
        }
        Ok(walk::WalkOptions {
            max_elements,
            budget_ms,
            declared,
            selectors,
        })
    }

    fn walk<'a>(
        &'a self,
        mode: walk::Mode,
        opts: &'a walk::WalkOptions,
        targets: Option<js_sys::Set>,
    ) -> Result<walk::Walk<'a>> {
        let doc = document()?;
        let mut w = walk::Walk::new(self.strings, mode, opts, &self.styles, self.key);
        w.targets = targets;
        w.run(&doc);
        Ok(w)
    }

    /// Snapshot and fingerprint walks: answered from the cache when the page has not changed
    /// since the last complete one (see `cache`), else walked in full and captured.
    fn observe(
        &mut self,
        mode: walk::Mode,
        wopts: &walk::WalkOptions,
        hash_only: bool,
    ) -> Result<Observed> {
        let cacheable = wopts.declared.is_none();
        let mut reuse = match &mut self.cache {
            Some(c) if cacheable => c.check(&self.styles),
            _ => None,
        };
        // Children or texts changed: patch the capture rather than walk again.
        if let (Some(r), Some(c)) = (&reuse, &mut self.cache) {
            if !r.patch.is_empty() {
                let mut w = walk::Walk::new(
                    self.strings,
                    walk::Mode::Fingerprint,
                    wopts,
                    &self.styles,
                    self.key,
                );
                if c.patch(r, &mut w) {
                    PATCHES.with(|p| p.set(p.get() + 1));
                } else {
                    reuse = None;
                }
            }
        }
        // A snapshot lists elements in walk order, and a fingerprint's claims hash that order;
        // a patch keeps it where one tree holds them all (`Capture::sortable`); elsewhere, once
        // patched, the page is walked again.
        let reuse = reuse.filter(|_| {
            self.cache
                .as_ref()
                .is_some_and(|c| c.capture().len() <= wopts.max_elements && !c.capture().unordered)
        });
        let doc = document()?;
        // A snapshot replay gives one record per captured element, in capture order.
        let replay_of = reuse
            .as_ref()
            .and(self.cache.as_ref())
            .filter(|_| mode == walk::Mode::Snapshot)
            .map(|c| (c.id, c.capture().element_uids()));
        let (found, texts, has_more, fresh, hashed) = {
            let mut w = walk::Walk::new(self.strings, mode, wopts, &self.styles, self.key);
            let mut fresh = None;
            // The places of the memo's records, when the memo held (see `Visual::places`).
            let mut places = None;
            match (&reuse, &mut self.cache) {
                (Some(reuse), Some(c)) => {
                    CACHE_HITS.with(|h| h.set(h.get() + 1));
                    w.hash_only = hash_only;
                    let memo = c.memo(reuse);
                    let mut visual = w.replay(c.capture(), memo, reuse.view);
                    if visual.reused && memo.is_some_and(|m| m.form != visual.form) {
                        // The form state changed: styles may match differently. Read all.
                        w = walk::Walk::new(self.strings, mode, wopts, &self.styles, self.key);
                        w.hash_only = hash_only;
                        visual = w.replay(c.capture(), None, false);
                    }
                    let used = visual.reused;
                    if used {
                        VISUAL_HITS.with(|h| h.set(h.get() + 1));
                    }
                    places = Some(visual.places.clone());
                    VIEW_READS.with(|h| h.set(h.get() + w.view_reads));
                    c.keep(visual, reuse, used);
                }
                _ => {
                    if cacheable {
                        w.capture = Some(walk::Capture::default());
                    }
                    w.run(&doc);
                    if !w.has_more && !w.pseudo() {
                        fresh = w.capture.take();
                    }
                }
            }
            if mode == walk::Mode::Snapshot {
                match (places, &mut self.cache) {
                    (Some(Some(kept)), _) => {
                        PLACE_HITS.with(|h| h.set(h.get() + 1));
                        w.keep_places(&kept);
                    }
                    // A replay: its memo keeps the places for the next one, and what each
                    // element found, by uid, where that held.
                    (Some(None), Some(c)) => {
                        let known = c.place_words();
                        let uids = replay_of.as_ref().map(|(_, u)| u.as_slice());
                        c.keep_places(w.place_records(true, uids, known.as_ref()));
                    }
                    _ => {
                        w.place_records(true, None, None);
                    }
                }
            }
            PLACE_READS.with(|h| h.set(h.get() + w.place_reads));
            (w.found, w.texts, w.has_more, fresh, w.hashed)
        };
        // A walk with caller-declared secrets neither captures nor voids the cache.
        if cacheable && reuse.is_none() {
            self.cache = None;
            self.cache = fresh.and_then(|c| cache::Cache::new(c, &self.styles));
        }
        Ok(Observed {
            found,
            texts,
            has_more,
            replay_of,
            hashed,
        })
    }

    /// Records of the given nodes (those that are observable), in walk order, with refs.
    fn find(&mut self, nodes: &[web_sys::Element]) -> Result<Vec<Element>> {
        let set = js_sys::Set::new(&JsValue::UNDEFINED);
        for n in nodes {
            set.add(n);
        }
        let opts = walk::WalkOptions {
            max_elements: limits::MAX_ELEMENTS,
            budget_ms: limits::DEFAULT_BUDGET_MS,
            declared: None,
            selectors: Vec::new(),
        };
        let found = {
            let mut w = self.walk(walk::Mode::Find, &opts, Some(set))?;
            w.place_records(false, None, None);
            w.found.into_iter().collect::<Vec<_>>()
        };
        Ok(found
            .into_iter()
            .map(|f| {
                let mut r = f.record;
                if let Some(node) = &f.node {
                    r.reference = self.refs.assign(node, identity32(&r));
                }
                r
            })
            .collect())
    }
}

/// What [`Engine::observe`] found, and the id of the cache it replayed with the uids of its
/// records, if it did.
struct Observed {
    found: Vec<walk::Found>,
    texts: Vec<Text>,
    has_more: bool,
    replay_of: Option<(u64, Vec<u32>)>,
    /// What a hash-only replay hashed instead of returning records.
    hashed: Fingerprint,
}

/// The identity a ref was given for, kept beside it so that a node whose identity changed gets
/// a new ref. Read only by this engine, within one document: a quick hash (the stable one,
/// [`Identity::hash64`], costs a snapshot of 3,000 elements about 6 % of its time).
fn identity32(e: &Element) -> u32 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    Identity::of(e).hash(&mut h);
    h.finish() as u32
}

fn base36(mut n: u64, digits: usize) -> String {
    const ALPHABET: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = vec![b'0'; digits];
    for slot in out.iter_mut().rev() {
        *slot = ALPHABET[(n % 36) as usize];
        n /= 36;
    }
    String::from_utf8(out).unwrap_or_default()
}

fn with_engine<T>(f: impl FnOnce(&mut Engine) -> Result<T>) -> Result<T> {
    ENGINE.with(|cell| {
        let mut guard = cell.try_borrow_mut().map_err(|_| {
            Error::new(
                ErrorCode::Internal,
                "prufe was called again from inside one of its own calls",
            )
        })?;
        if guard.is_none() {
            *guard = Some(Engine::new()?);
        }
        match guard.as_mut() {
            Some(engine) => f(engine),
            None => Err(Error::new(ErrorCode::Internal, "engine not initialised")),
        }
    })
}

/// Creates the engine (random key, epoch). Safe to call more than once.
pub fn init() -> Result<()> {
    with_engine(|_| Ok(()))
}

fn keep_region(opts: &Options, region: &str) -> bool {
    (opts.regions.is_empty() || opts.regions.iter().any(|p| region_matches(region, p)))
        && !opts
            .ignore_regions
            .iter()
            .any(|p| region_matches(region, p))
}

/// `prufe.snapshot(options)`.
pub fn snapshot(opts: &Options) -> Result<Snapshot> {
    with_engine(|eng| {
        let wopts = eng.walk_options(opts)?;
        let Observed {
            found,
            texts,
            has_more,
            replay_of,
            ..
        } = eng.observe(walk::Mode::Snapshot, &wopts, false)?;
        let replay_of = replay_of.filter(|(_, uids)| uids.len() == found.len());
        let memo = match (eng.ref_memo.take(), &replay_of) {
            (Some(m), Some((of, _))) if m.cache == *of && m.generation == eng.refs.generation => {
                m.entries
            }
            _ => Default::default(),
        };
        let uids = replay_of.as_ref().map(|(_, u)| u.as_slice());
        let mut kept = rustc_hash::FxHashMap::default();
        kept.reserve(uids.map_or(0, <[u32]>::len));
        let mut elements = Vec::with_capacity(found.len());
        for (i, f) in found.into_iter().enumerate() {
            let mut r = f.record;
            if let Some(node) = &f.node {
                let identity = identity32(&r);
                let uid = uids.map(|u| u[i]);
                let index = match uid.and_then(|u| memo.get(&u)) {
                    Some(&(same, index)) if same == identity => index,
                    _ => {
                        REF_LOOKUPS.with(|c| c.set(c.get() + 1));
                        eng.refs.assign_index(node, identity)
                    }
                };
                r.reference = eng.refs.format(index);
                if let Some(uid) = uid {
                    kept.insert(uid, (identity, index));
                }
            }
            if keep_region(opts, &r.region) {
                elements.push(r);
            }
        }
        eng.ref_memo = replay_of.map(|(cache, _)| RefMemo {
            cache,
            generation: eng.refs.generation,
            entries: kept,
        });
        let texts: Vec<Text> = texts
            .into_iter()
            .filter(|t| keep_region(opts, &t.region))
            .collect();
        Ok(Snapshot {
            context: eng.context(opts.tab.as_deref()),
            has_more,
            elements,
            texts,
        })
    })
}

/// `prufe.snapshot({ wire: true, base? })`: the wire form, a delta against `base` when the
/// engine keeps that snapshot and took it with the same options (`core::wire_delta`).
pub fn snapshot_wire(opts: &Options) -> Result<String> {
    let s = snapshot(opts)?;
    // What decides the snapshot's content; `wire`, `base` and the fingerprint's own options
    // do not.
    let asked = format!(
        "{:?}",
        (
            &opts.tab,
            opts.max_elements,
            opts.budget_ms,
            &opts.sensitive,
            &opts.regions,
            &opts.ignore_regions
        )
    );
    with_engine(|eng| Ok(eng.sent.answer(asked, opts.base.as_deref(), s)))
}

/// `prufe.targetOf(ref, options)`: the target that names the element of `ref` as a person
/// would (`core::resolve::target_of`), on a snapshot taken with `options`, so that
/// resolving it on the next observation finds that element again.
pub fn target_of(reference: &str, opts: &Options) -> Result<crate::core::resolve::Target> {
    let observed = snapshot(opts)?;
    let Some(e) = observed.elements.iter().find(|e| e.reference == reference) else {
        return Err(Error::new(
            ErrorCode::TargetNotFound,
            format!("{reference} names no element prufe observes now; observe the page again"),
        ));
    };
    crate::core::resolve::target_of(e, &observed)
}

/// `prufe.fingerprint(options)`: its diffed part equals `core::fingerprint::of_snapshot` of
/// the snapshot taken with the same options at the same moment; its claims add the order of
/// the records, the focus and the selection (`claims`), unless the background says the page
/// moves them by itself. Repeated on an unchanged page it is answered from the last walk's
/// capture (see `cache`).
pub fn fingerprint(opts: &Options) -> Result<String> {
    with_engine(|eng| {
        let wopts = eng.walk_options(opts)?;
        let bg = &opts.background;
        if eng.quiet_background != *bg {
            eng.quiet_background = bg.clone();
        }
        let filtered =
            !opts.regions.is_empty() || !opts.ignore_regions.is_empty() || bg.has_slots();
        let Observed {
            found,
            texts,
            has_more,
            hashed,
            ..
        } = eng.observe(walk::Mode::Fingerprint, &wopts, !filtered)?;
        let mut fp = hashed;
        for f in &found {
            if keep_region(opts, &f.record.region) && !bg.hides_element(&opts.root, &f.record) {
                fp.add_element(&f.record);
            }
        }
        for t in &texts {
            if keep_region(opts, &t.region) && !bg.hides_text(&opts.root, t) {
                fp.add_text(t);
            }
        }
        fp.set_has_more(has_more);
        if bg.claims {
            return Ok(fp.finish());
        }
        let (focus, selection) = claims::read(&document()?, &mut eng.claim_keys);
        let claims = Claims {
            order: fp.order(),
            focus,
            selection,
        };
        Ok(with_claims(fp.finish(), &claims))
    })
}

/// `prufe.quietFor()`: how long, in ms, the page has shown no sign of change to the
/// fingerprint's cache (no mutation in any document or shadow root it watches, no event that
/// may move a style, a layout or a scroll position) and runs no animation. 0 when that is
/// not known: no cache yet (or a page the cache does not cover), or a change just now. A
/// driver may count a page quiet for this long as settled without polling. After a
/// fingerprint that left a background out, what touched only that background does not
/// count (`dom::quiet`): a settle reads the fingerprint, then `quietFor`.
pub fn quiet_for() -> Result<f64> {
    with_engine(|eng| {
        let Some(cache) = eng.cache.as_ref() else {
            return Ok(0.0);
        };
        if eng.quiet_background.is_empty() {
            return Ok(cache.quiet_ms());
        }
        Ok(cache.quiet_ms_outside(&eng.quiet_background))
    })
}

/// `prufe.stillFor()`: how long, in ms, nothing that can change what the engine observes has
/// happened (see `Cache::still_ms`): at least `quietFor`, since input that changes nothing
/// counts there and not here. A record or a box read this long ago still holds. 0 when not
/// known.
pub fn still_for() -> Result<f64> {
    with_engine(|eng| {
        let Some(cache) = eng.cache.as_ref() else {
            return Ok(0.0);
        };
        Ok(cache.still_ms())
    })
}

/// The live node of a ref, checked: `STALE_REFERENCE` when it belongs to an older document,
/// is gone or no longer observable; `TARGET_CHANGED` when it now shows something else.
pub fn element(reference: &str) -> Result<web_sys::Element> {
    element_checked(reference, true)
}

/// The node a ref was minted for, as a declared-sensitive ref names it (whatever it shows
/// now): `Err(())` when `reference` is not a ref at all (a CSS selector), `Ok(None)` when it
/// names no live node of this document.
pub(crate) fn declared_node(reference: &str) -> std::result::Result<Option<web_sys::Element>, ()> {
    ENGINE.with(|cell| {
        let cell = cell.borrow();
        let Some(eng) = cell.as_ref() else {
            return Ok(None);
        };
        match eng.refs.parse(reference) {
            Ok(index) => Ok(eng
                .refs
                .node(index)
                .filter(|n| js::is_connected(n.unchecked_ref::<Node>()))),
            Err(true) => Ok(None),
            Err(false) => Err(()),
        }
    })
}

/// The live node of a ref, checked for everything but what it shows now (no walk): for a
/// read that is only a hint (where activating it leads), made right after a look-up that
/// re-described it.
pub fn element_unwalked(reference: &str) -> Result<web_sys::Element> {
    element_checked(reference, false)
}

fn element_checked(reference: &str, walk_it: bool) -> Result<web_sys::Element> {
    with_engine(|eng| {
        let index = match eng.refs.parse(reference) {
            Ok(i) => i,
            Err(true) => {
                return Err(Error::new(
                    ErrorCode::StaleReference,
                    format!("{reference} belongs to an older document: take a new snapshot"),
                ))
            }
            Err(false) => {
                return Err(Error::new(
                    ErrorCode::InvalidArgument,
                    format!("{reference:?} is not a ref"),
                ))
            }
        };
        let gone = || {
            Error::new(
                ErrorCode::StaleReference,
                format!("{reference} is gone from the page: take a new snapshot"),
            )
        };
        let node = eng.refs.node(index).ok_or_else(gone)?;
        if !js::is_connected(node.unchecked_ref::<Node>()) {
            return Err(gone());
        }
        let entry = eng.refs.entry(&node).ok_or_else(gone)?;
        let changed = || {
            Error::new(
                ErrorCode::TargetChanged,
                format!("the node of {reference} now shows something else (a recycled node): resolve the target again"),
            )
        };
        if entry.index != index {
            return Err(changed());
        }
        if !walk_it {
            return Ok(node);
        }
        let set = [node.clone()];
        let records = {
            let opts = walk::WalkOptions {
                max_elements: limits::MAX_ELEMENTS,
                budget_ms: limits::DEFAULT_BUDGET_MS,
                declared: None,
                selectors: Vec::new(),
            };
            let targets = js_sys::Set::new(&JsValue::UNDEFINED);
            targets.add(&set[0]);
            let mut w = eng.walk(walk::Mode::Find, &opts, Some(targets))?;
            w.place_records(false, None, None);
            w.found.into_iter().map(|f| f.record).collect::<Vec<_>>()
        };
        let record = records.into_iter().next().ok_or_else(|| {
            Error::new(
                ErrorCode::StaleReference,
                format!("{reference} is no longer observable (hidden from assistive technology)"),
            )
        })?;
        if identity32(&record) != entry.identity {
            return Err(changed());
        }
        Ok(node)
    })
}

/// The node a ref of this document was minted for, unchecked: for a caller that took the
/// snapshot holding the ref a moment ago in the same call.
fn minted(reference: &str) -> Option<web_sys::Element> {
    with_engine(|eng| {
        Ok(eng
            .refs
            .parse(reference)
            .ok()
            .and_then(|i| eng.refs.node(i)))
    })
    .ok()
    .flatten()
}

/// The current record of a live ref, or `None` when the ref is stale. A node whose identity
/// changed is given a new ref (the record says which).
pub fn describe(reference: &str) -> Result<Option<Element>> {
    with_engine(|eng| {
        let index = match eng.refs.parse(reference) {
            Ok(i) => i,
            Err(true) => return Ok(None),
            Err(false) => {
                return Err(Error::new(
                    ErrorCode::InvalidArgument,
                    format!("{reference:?} is not a ref"),
                ))
            }
        };
        let Some(node) = eng.refs.node(index) else {
            return Ok(None);
        };
        if !js::is_connected(node.unchecked_ref::<Node>()) {
            return Ok(None);
        }
        Ok(eng.find(&[node])?.pop())
    })
}

/// The record of one live node, if it is observable (its ref is assigned as in a snapshot).
pub fn record_of(node: &web_sys::Element) -> Result<Option<Element>> {
    with_engine(|eng| Ok(eng.find(std::slice::from_ref(node))?.pop()))
}

/// The observable element under a viewport point, through open shadow roots and same-origin
/// frames: the deepest observable element among the hit element and its composed ancestors.
pub fn at(x: f64, y: f64) -> Result<Option<Element>> {
    if !x.is_finite() || !y.is_finite() {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "at(x, y) needs two finite numbers",
        ));
    }
    let doc = document()?;
    let Some(hit) = hit_test(&doc, x, y) else {
        return Ok(None);
    };
    let chain = composed_ancestors(&hit);
    with_engine(|eng| Ok(eng.find(&chain)?.pop()))
}

/// The focused observable element (through shadow roots and same-origin frames), or its
/// nearest observable ancestor.
pub fn focused() -> Result<Option<Element>> {
    let doc = document()?;
    let Some(focus) = walk::deepest_focus(&doc) else {
        return Ok(None);
    };
    let chain = composed_ancestors(&focus);
    with_engine(|eng| Ok(eng.find(&chain)?.pop()))
}

/// Keyed hash of a value with this document's key (compare with `valueHash`).
pub fn hash(value: &str) -> Result<String> {
    with_engine(|eng| Ok(crate::core::redact::keyed_hash(&eng.key, value)))
}

/// This document's epoch.
pub fn epoch() -> Result<u64> {
    with_engine(|eng| Ok(eng.epoch))
}

/// The deepest element at a viewport point, through open shadow roots and same-origin
/// frames: what input there reaches first.
///
/// Text has no element of its own, so `elementFromPoint` answers the element the text is a
/// child of. For a shadow host's own text that is assigned to a slot, that is the host, and
/// the host's shadow root answers the host again; but the text is rendered in the slot's
/// place in the flat tree, and input on it reaches whatever holds the slot there (the
/// `<button>` of Shoelace's `sl-button`, whose label is the host's text). So when a host
/// answers for itself, a slotted text child whose boxes hold the point makes the slot the hit.
fn hit_test(doc: &Document, x: f64, y: f64) -> Option<web_sys::Element> {
    let (mut x, mut y) = (x, y);
    let mut el = js::element_from_point(doc.unchecked_ref(), x, y)?;
    for _ in 0..64 {
        if let Some(root) = js::shadow_root(&el) {
            match js::element_from_point(&root, x, y) {
                Some(inner) if !js::same(&inner, &el) => {
                    el = inner;
                    continue;
                }
                _ => {
                    if let Some(slot) = slotted_text_at(&el, x, y) {
                        el = slot;
                        continue;
                    }
                }
            }
        }
        let local = js::local_name(&el);
        if local == "iframe" || local == "frame" {
            if let Some(inner_doc) = js::content_document(&el) {
                let (fx, fy) = input::frame_origin(&el);
                x -= fx;
                y -= fy;
                if let Some(inner) = js::element_from_point(inner_doc.unchecked_ref(), x, y) {
                    el = inner;
                    continue;
                }
            }
        }
        break;
    }
    Some(el)
}

/// The slot that a text child of `host`, assigned to it, is rendered in at (`x`, `y`).
fn slotted_text_at(host: &web_sys::Element, x: f64, y: f64) -> Option<web_sys::Element> {
    let mut child = js::first_child(host.unchecked_ref());
    while let Some(c) = child {
        if js::node_type(&c) == js::TEXT_NODE {
            if let Some(slot) = js::assigned_slot(&c) {
                let rects = js::text_rects(&c)?;
                let holds = (0..rects.list_length()).any(|i| {
                    let r: js::Rect = rects.list_item(i).unchecked_into();
                    x >= r.left() && x < r.right() && y >= r.top() && y < r.bottom()
                });
                if holds {
                    return Some(slot);
                }
            }
        }
        child = js::next_sibling(&c);
    }
    None
}

/// The element and its ancestors in the composed tree (slots, shadow hosts, frame elements).
fn composed_ancestors(start: &web_sys::Element) -> Vec<web_sys::Element> {
    let mut out = vec![start.clone()];
    let mut node: Node = start.clone().unchecked_into();
    for _ in 0..100_000 {
        let next: Option<Node> = if let Some(slot) = js::assigned_slot(&node) {
            Some(slot.unchecked_into())
        } else {
            match js::parent_node(&node) {
                Some(p) => match js::node_type(&p) {
                    js::ELEMENT_NODE => Some(p),
                    // Shadow root: continue at its host.
                    11 => js::host(&p).map(|h| h.unchecked_into()),
                    // Document: continue at the frame element of its window, if same-origin.
                    9 => js::default_view(p.unchecked_ref())
                        .and_then(|w| js::frame_element(&w))
                        .map(|f| f.unchecked_into()),
                    _ => None,
                },
                None => None,
            }
        };
        let Some(n) = next else { break };
        if js::node_type(&n) == js::ELEMENT_NODE {
            out.push(n.clone().unchecked_into());
        }
        node = n;
    }
    out
}
