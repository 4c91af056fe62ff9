//! The fingerprint cache: the harness polls `fingerprint` every 50 ms while it waits for a page
//! to settle, and a settled page is exactly one whose DOM does not change. So a fingerprint
//! walk keeps, per observable element, the static part of its record (role, name, region,
//! ARIA states) with its live node ([`Capture`]), and the next fingerprint, when nothing the
//! record depends on has changed, re-reads only what changes without a DOM mutation:
//! visibility (style, hover, media queries), values, checked and selected states, the hidden
//! state of frames, the secrets, and every name or text that depends on more than its own
//! element's attributes and text (labels, hidden descendants, embedded controls). The result
//! is by construction what a full walk would hash (`tests/web_engine.rs` checks it).
//!
//! What changes the capture: any `MutationObserver` record of a child list, a text, or an
//! attribute the engine reads (ARIA, `role`, `id`, `for`, `type`, `value`, `disabled`,
//! `hidden`, `open`, `slot`, `style`, `data-ap-*`...) on any document or shadow root the walk
//! entered, read synchronously with `takeRecords()` so a change made in the same task is
//! seen. The capture is patched (`Walk::patch`: removed subtrees leave it, added subtrees
//! and elements whose attributes changed are walked again in their parent's context, and
//! every captured ancestor of a change names itself afresh from then on), or, when a patch
//! cannot be exact (shadow trees, frames, labels, ids other elements name...), thrown away: the next call walks
//! in full and captures again. So it is, too, for:
//! - a frame showing another document, a custom element gaining an open shadow root or
//!   changing its closed-root look, a style sheet turning generated content on;
//! - a page with `::before`/`::after` rules is never cached (generated content can change on
//!   hover without any mutation), nor a walk cut short, nor one with caller-declared
//!   sensitive elements.
//!
//! The visual memo, one level further: visibility and the viewport are the expensive reads
//! of a replay (`checkVisibility`, `getBoundingClientRect` per element), and on a settled
//! page they do not change either. So the last replay's visual facts ([`Visual`]) are reused
//! while none of these has happened since they were read:
//! - an attribute changed that a style may read: any attribute but a `data-*` one that no
//!   rule of any sheet mentions (presentational and user-agent-styled attributes and `id`
//!   count) and but a `class` change no rule can restyle by ([`restyles`]: no rule names a
//!   token that changed, or each such rule's subject compound matches nothing in the
//!   change's reach; `core::classes` says what it reads and where it gives up; where some
//!   do match, only the facts read in or around their subtrees go, `Visual::read_again`);
//!   a sheet added, removed, edited, enabled or disabled;
//! - an event that changes what styles match or where things are: input, keys, drag and drop,
//!   `toggle` (popovers), animation and transition events, resource loads, resize,
//!   history and fullscreen changes; pointer and mouse movement and buttons, focus and the
//!   selection (`:hover`, `:active`, `:focus…`) only while some rule matching those states declares
//!   more than paint (colours, backgrounds, outlines, shadows, decorations, cursor), or some
//!   sheet cannot be read;
//! - a running or filling animation or transition anywhere (`getAnimations()`);
//! - a window size, device pixel ratio (media queries) or location hash (`:target`), a
//!   custom element's definedness (`:defined`) or the form state (values, checked and
//!   selected states: `:checked`, `:placeholder-shown`) differing from the read;
//! - the facts being older than [`MAX_VISUAL_AGE_MS`]: what no event or mutation announces
//!   (a rule's style edited in place through the CSSOM, a colour-scheme change, a web font
//!   arriving, a page that stops our listeners' events from propagating) is seen within that
//!   bound.
//!
//! The viewport facts (`inViewport`) hold under the same conditions and while no window has
//! scrolled (its scroll position is compared at each call) and no `scroll` event fired. An
//! element scrolled by script fires its `scroll` event at the next frame: until then, and
//! only for elements inside it, `inViewport` can lag by that frame.
//!
//! Known blind spot, shared with any DOM-only observer: an element that is not a custom element
//! gaining a shadow root later (`attachShadow` is not a mutation), or holding a closed one
//! whose `:host(.x)` rules a class change makes match (seen within [`MAX_VISUAL_AGE_MS`]).
//! Custom elements, which do this when they upgrade, are checked on every replay, and a
//! class change reaching one without an open root voids the memo.

use super::js;
use super::quiet::{self, Log};
use super::style::{Sheets, StyleScan, CURSOR};
use super::walk::{self, Capture, Visual};
use crate::core::background::Background;
use crate::core::classes::{self, Reach};
use js_sys::Array;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::EventTarget;

/// How long visual facts may be reused before they are read again whatever happened.
pub const MAX_VISUAL_AGE_MS: f64 = 1000.0;

/// Events after which styles may match differently or elements may have moved, listened
/// for (capturing, passive) on every document walked.
const VISUAL_EVENTS: &[&str] = &[
    "input",
    "change",
    "keydown",
    "keyup",
    "dragenter",
    "dragleave",
    "dragend",
    "drop",
    "toggle",
    "beforetoggle",
    "animationstart",
    "animationend",
    "animationiteration",
    "animationcancel",
    "transitionrun",
    "transitionstart",
    "transitionend",
    "transitioncancel",
    "load",
    "error",
    "fullscreenchange",
];

/// Pointer, wheel, focus and selection events: they change styles only through rules that match
/// what the user points at or focuses (`:hover`, `:active`, `:focus…`; `::selection` is
/// paint), so they void the memo only while some sheet has such a rule that does more than
/// paint (`Sheets::stateful`); what a page's own handler does on them is a mutation, seen as
/// one. They always count for [`Cache::quiet_ms`]: input is activity.
const USER_EVENTS: &[&str] = &[
    "wheel",
    "pointerdown",
    "pointerup",
    "pointercancel",
    "mousedown",
    "mouseup",
    "focusin",
    "focusout",
    "selectionchange",
];

/// The same on each window walked.
const WINDOW_EVENTS: &[&str] = &[
    "resize",
    "hashchange",
    "popstate",
    "pageshow",
    "orientationchange",
    "beforeprint",
    "afterprint",
];

/// The pointer entering or leaving an element: `:hover` as for [`USER_EVENTS`], but no
/// activity of its own. The browser sends these when the pointer moves and also when a
/// change of layout moves another element under a still pointer, which the change that
/// moved it already counts.
const BOUNDARY_EVENTS: &[&str] = &["pointerover", "pointerout", "mouseover", "mouseout"];

/// The page's timers that an input set off, as the work watch run in its main world tells
/// (js/src/work.js): asked `prufe:ask`, it answers `prufe:work` at once while one is still
/// to run; `prufe:idle` when the last has run. While one is to run the page is not quiet;
/// its quiet counts from the end.
const WORK_EVENTS: &[&str] = &["prufe:work", "prufe:idle"];
const ASK_WORK: &str = "prufe:ask";

/// Events that do not leave a shadow root but can change styles or layout inside it.
const SHADOW_EVENTS: &[&str] = &["toggle", "beforetoggle", "load", "change"];

/// Attributes whose change can change a record's static part.
const WATCHED: &[&str] = &[
    "role",
    "id",
    "for",
    "type",
    "value",
    "href",
    "alt",
    "title",
    "placeholder",
    "list",
    "multiple",
    "size",
    "scope",
    "label",
    "name",
    "slot",
    "open",
    "hidden",
    "inert",
    "disabled",
    "style",
    "autocomplete",
    "tabindex",
    "contenteditable",
    "src",
    "srcdoc",
    "sandbox",
    "data-ap-region",
    "data-ap-sensitive",
    "data-ap-watch",
    "aria-label",
    "aria-labelledby",
    "aria-describedby",
    "aria-hidden",
    "aria-disabled",
    "aria-checked",
    "aria-pressed",
    "aria-selected",
    "aria-expanded",
    "aria-level",
    "aria-valuetext",
    "aria-valuenow",
    "aria-live",
    "aria-atomic",
    "aria-busy",
    "onclick",
    "aria-controls",
    "aria-current",
    "aria-details",
    "aria-flowto",
    "aria-haspopup",
    "aria-invalid",
    "aria-keyshortcuts",
    "aria-owns",
    "aria-relevant",
    "aria-roledescription",
];

/// A new cache id.
fn next_id() -> u64 {
    thread_local!(static NEXT: Cell<u64> = const { Cell::new(1) });
    NEXT.with(|n| {
        n.set(n.get() + 1);
        n.get()
    })
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Most child-list and text records kept for a patch; past them the capture is void.
const MAX_PENDING: usize = 256;

/// ARIA states that no accessible name, no element's own words, no role and no visibility
/// reads (`dom::name`: an embedded control's value reads `aria-selected`, `aria-valuenow`
/// and `aria-valuetext`; hiding reads `aria-hidden`): a change of one leaves every record's
/// place (`walk::place`) as it was.
// https://www.w3.org/TR/accname-1.2/#comp_embedded_control
const PLACELESS_STATES: &[&str] = &[
    "aria-pressed",
    "aria-checked",
    "aria-expanded",
    "aria-current",
    "aria-busy",
    "aria-disabled",
    "aria-invalid",
    "aria-sort",
    "aria-required",
    "aria-readonly",
];

/// Elements whose `class` changed, each with the value it had before (`oldValue`).
type ClassRecords = Vec<(web_sys::Element, Option<String>)>;

/// What mutation records say: the capture is void (too many changes), or it needs a patch
/// (children, texts or an attribute the walk reads changed; `Walk::patch`), or only the
/// visual facts may have changed.
#[derive(Default, Clone, Copy)]
struct Verdict {
    void: bool,
    visual: bool,
}

/// Classifies `records`, keeping those a patch needs in `pending` and the class changes for
/// [`restyles`] in `classes` (past [`MAX_PENDING`] of them, the visual facts are void).
fn classify(
    records: &Array,
    sheets: &Sheets,
    pending: &mut Vec<web_sys::MutationRecord>,
    classes: &mut ClassRecords,
    cursor: bool,
) -> Verdict {
    let mut v = Verdict::default();
    for r in records.iter() {
        let r: web_sys::MutationRecord = r.unchecked_into();
        if r.type_() != "attributes" {
            // What this does to styles (`:empty`, sibling rules) the patch decides.
            if pending.len() >= MAX_PENDING {
                v.void = true;
                return v;
            }
            pending.push(r);
            continue;
        }
        let name = r.attribute_name().unwrap_or_default();
        let watched = WATCHED.contains(&name.as_str());
        let styles = sheets.styles_attribute(&name);
        // An attribute the walk reads, or one a rule may read where the cursor makes
        // clickables: its element is walked again by the patch.
        if watched || (cursor && styles) {
            if pending.len() >= MAX_PENDING {
                v.void = true;
                return v;
            }
            pending.push(r);
            v.visual |= !watched;
            continue;
        }
        if name == "class" && !v.visual {
            match r
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            {
                Some(target) if classes.len() < MAX_PENDING => {
                    classes.push((target, r.old_value()));
                    continue;
                }
                _ => v.visual = true,
            }
        }
        if !v.visual && styles {
            v.visual = true;
        }
    }
    v
}

/// Most elements a class change's rules can match that [`restyles`] names one by one; past
/// it, the subtree they all lie in.
const MAX_SUBJECTS: u32 = 16;
/// Most subtrees a memo reads again (`Visual::read_again`); past it, everything.
const MAX_AGAIN: usize = 32;

/// What class changes did to the styles of the capture's pages.
enum Restyle {
    /// Nothing.
    None,
    /// At most the styles of these elements (their subtrees', by inheritance).
    Below(Vec<web_sys::Element>),
    /// Anything.
    All,
}

/// What can the class changes of `records` have changed of the capture's styles? Nothing
/// when no element in their reach matches the subject of a rule that names a changed token
/// (`core::classes::reach`); else the styles of the elements that do, and of what they hold:
/// whether an element matches the subject compound is the same before and after, and the
/// declarations of a rule apply to its subject, inherited below it (visibility has no other
/// way out of an element's subtree, but through a container's size: with `@container` rules,
/// anything). Anything, too, where sheets cannot be read, for a change reaching a custom
/// element without an open shadow root, whose closed root's sheets (`:host(.x)`) cannot be,
/// and where the capture is not one tree in document order (a replay finds the entries of a
/// subtree by that order).
fn restyles(records: ClassRecords, sheets: &Sheets, capture: &Capture) -> Restyle {
    if records.is_empty() {
        return Restyle::None;
    }
    if sheets.unknown {
        return Restyle::All;
    }
    let by_subtree = capture.sortable() && !capture.unordered && !sheets.container;
    let mut targets: Vec<(web_sys::Element, Vec<String>)> = Vec::new();
    for (element, old) in records {
        let old = old.unwrap_or_default();
        match targets.iter_mut().find(|(e, _)| js::same(e, &element)) {
            Some((_, values)) => values.push(old),
            None => targets.push((element, vec![old])),
        }
    }
    let mut below: Vec<web_sys::Element> = Vec::new();
    for (element, mut values) in targets {
        if !element.is_connected() {
            // Gone: the child-list record of its removal is patched.
            continue;
        }
        values.push(element.get_attribute("class").unwrap_or_default());
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        let tokens = classes::changed_tokens(&values);
        if tokens.is_empty() {
            continue;
        }
        let subjects = match classes::reach(&sheets.classes, &tokens) {
            Reach::Nothing => continue,
            Reach::Any => return Restyle::All,
            Reach::Subjects(s) => s,
        };
        if capture
            .customs
            .iter()
            .any(|(custom, _)| element.contains(Some(custom)))
        {
            return Restyle::All;
        }
        for s in subjects {
            let scope = if s.siblings {
                match element.parent_element() {
                    Some(p) => p,
                    None => return Restyle::All,
                }
            } else {
                element.clone()
            };
            if !by_subtree {
                if !matches!(scope.query_selector(&s.compound), Ok(None)) {
                    return Restyle::All;
                }
                continue;
            }
            let Ok(found) = scope.query_selector_all(&s.compound) else {
                return Restyle::All;
            };
            match found.length() {
                0 => {}
                n if n > MAX_SUBJECTS => below.push(scope),
                n => below.extend((0..n).filter_map(|i| found.item(i)?.dyn_into().ok())),
            }
            if below.len() > MAX_AGAIN {
                return Restyle::All;
            }
        }
    }
    if below.is_empty() {
        Restyle::None
    } else {
        Restyle::Below(below)
    }
}

/// When the page last showed activity (any mutation or watched event, input included) and
/// when something last happened that can change what the engine observes (`performance.now()`).
/// Each sign of activity is logged with what it touched ([`Log`]), for the quiet over what
/// the judge looks at.
struct Clock {
    activity: Cell<f64>,
    moved: Cell<f64>,
    log: RefCell<Log>,
}

impl Clock {
    fn new(now: f64) -> Clock {
        Clock {
            activity: Cell::new(now),
            moved: Cell::new(now),
            log: RefCell::new(Log::new(now)),
        }
    }

    fn moved(&self, now: f64, node: Option<web_sys::Node>) {
        self.activity.set(now);
        self.moved.set(now);
        self.log.borrow_mut().push(now, node);
    }

    /// [`Clock::moved`] by a batch of mutation records.
    fn mutated(&self, now: f64, records: &Array) {
        self.activity.set(now);
        self.moved.set(now);
        self.log.borrow_mut().push_all(
            now,
            records
                .iter()
                .map(|r| r.unchecked_into::<web_sys::MutationRecord>().target()),
        );
    }

    fn active(&self, now: f64) {
        self.activity.set(now);
        self.log.borrow_mut().push(now, None);
    }
}

/// The node an event was aimed at; `None` for a window or anything else.
fn event_node(event: &JsValue) -> Option<web_sys::Node> {
    let event: &web_sys::Event = event.dyn_ref()?;
    event.target()?.dyn_into::<web_sys::Node>().ok()
}

pub struct Cache {
    /// Unique per cache of this engine, kept through patches: a captured element keeps its
    /// uid while it stays captured, and the uids of one cache are never given twice.
    pub id: u64,
    capture: Capture,
    observer: web_sys::MutationObserver,
    /// Set by records the callback received: the capture is void.
    dirty: Rc<Cell<bool>>,
    /// When a mutation record, or an event that may change a style or a layout, last came
    /// (`performance.now()`), or when the cache was made.
    changed_at: Rc<Clock>,
    /// Child-list and text records received, for the next patch.
    pending: Rc<RefCell<Vec<web_sys::MutationRecord>>>,
    /// Class changes received, for the next check to tell whether they restyle.
    classes: Rc<RefCell<ClassRecords>>,
    /// Something may have changed a style or a layout since the memo was read.
    visual: Rc<Cell<bool>>,
    /// Something may have scrolled since the memo's viewport facts were read.
    view: Rc<Cell<bool>>,
    /// Window scroll positions when the viewport facts were read.
    view_env: u64,
    /// The sheets as last seen, for the callback to classify attribute records.
    sheets: Rc<RefCell<Sheets>>,
    /// Window sizes and sheets when the memo was read.
    env: u64,
    memo: Option<Visual>,
    listeners: Vec<(EventTarget, &'static str, Listener)>,
    _callback: Closure<dyn FnMut(JsValue, JsValue)>,
    on_visual: Closure<dyn FnMut(JsValue)>,
    on_scroll: Closure<dyn FnMut(JsValue)>,
    on_user: Closure<dyn FnMut(JsValue)>,
    on_boundary: Closure<dyn FnMut(JsValue)>,
    /// A document answered that timers an input set off are still to run ([`WORK_EVENTS`]).
    working: Rc<Cell<bool>>,
    on_work: Closure<dyn FnMut(JsValue)>,
}

/// Which of the cache's listeners an event goes to.
#[derive(Clone, Copy)]
enum Listener {
    Visual,
    Scroll,
    User,
    Boundary,
    Work,
}

/// What [`Cache::check`] found.
pub struct Reuse {
    /// The memo's visibility facts hold.
    pub visual: bool,
    /// ... and so do its viewport facts.
    pub view: bool,
    view_env: u64,
    /// The environment to store with the next memo.
    env: u64,
    /// Child-list and text records to patch the capture with first (`Walk::patch`).
    pub patch: Vec<web_sys::MutationRecord>,
}

impl Cache {
    /// Starts watching every scope of `capture`; `None` if the browser refuses.
    pub fn new(capture: Capture, styles: &StyleScan) -> Option<Cache> {
        let dirty = Rc::new(Cell::new(false));
        let changed_at = Rc::new(Clock::new(js::now()));
        let visual = Rc::new(Cell::new(true));
        let view = Rc::new(Cell::new(true));
        let mut initial = Sheets::default();
        for (root, _) in &capture.roots {
            styles.sheets(root, &mut initial, true);
        }
        let sheets = Rc::new(RefCell::new(initial));
        let pending = Rc::new(RefCell::new(Vec::new()));
        let classes = Rc::new(RefCell::new(Vec::new()));
        let callback = {
            let (dirty, visual, sheets, pending, classes, changed_at) = (
                dirty.clone(),
                visual.clone(),
                sheets.clone(),
                pending.clone(),
                classes.clone(),
                changed_at.clone(),
            );
            let cursor = capture.cursor || capture.roots.iter().any(|(_, b)| b & CURSOR != 0);
            Closure::<dyn FnMut(JsValue, JsValue)>::new(move |records: JsValue, _: JsValue| {
                changed_at.mutated(js::now(), records.unchecked_ref());
                if dirty.get() {
                    return;
                }
                let v = classify(
                    records.unchecked_ref(),
                    &sheets.borrow(),
                    &mut pending.borrow_mut(),
                    &mut classes.borrow_mut(),
                    cursor,
                );
                if v.void {
                    dirty.set(true);
                    pending.borrow_mut().clear();
                }
                if v.visual {
                    visual.set(true);
                }
            })
        };
        let on_visual = {
            let (visual, view, changed_at) = (visual.clone(), view.clone(), changed_at.clone());
            Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
                changed_at.moved(js::now(), event_node(&event));
                visual.set(true);
                view.set(true);
            })
        };
        let on_scroll = {
            let (view, changed_at) = (view.clone(), changed_at.clone());
            Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
                changed_at.moved(js::now(), None);
                view.set(true)
            })
        };
        // Input is activity (what it sets off, a timer or a request, may show later, so a
        // settle counts its quiet from there whatever the styles); a pointer merely entering
        // or leaving is not. Either moves what is observed only through stateful rules.
        let state_event = |activity: bool| {
            let (visual, view, changed_at, sheets) = (
                visual.clone(),
                view.clone(),
                changed_at.clone(),
                sheets.clone(),
            );
            Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
                let now = js::now();
                if activity {
                    changed_at.active(now);
                }
                if sheets.borrow().stateful {
                    changed_at.moved(now, None);
                    visual.set(true);
                    view.set(true);
                }
            })
        };
        let (on_user, on_boundary) = (state_event(true), state_event(false));
        let working = Rc::new(Cell::new(false));
        let on_work = {
            let (working, changed_at) = (working.clone(), changed_at.clone());
            Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
                if event.unchecked_ref::<web_sys::Event>().type_() == WORK_EVENTS[0] {
                    working.set(true);
                } else {
                    changed_at.active(js::now());
                }
            })
        };
        let observer = web_sys::MutationObserver::new(callback.as_ref().unchecked_ref()).ok()?;
        let init = web_sys::MutationObserverInit::new();
        init.set_subtree(true);
        init.set_child_list(true);
        init.set_character_data(true);
        init.set_attributes(true);
        init.set_attribute_old_value(true);
        for (root, _) in &capture.roots {
            if observer.observe_with_options(root, &init).is_err() {
                observer.disconnect();
                return None;
            }
        }
        let mut cache = Cache {
            id: next_id(),
            capture,
            observer,
            dirty,
            changed_at,
            pending,
            classes,
            visual,
            view,
            view_env: 0,
            sheets,
            env: 0,
            memo: None,
            listeners: Vec::new(),
            _callback: callback,
            on_visual,
            on_scroll,
            on_user,
            on_boundary,
            working,
            on_work,
        };
        cache.listen();
        Some(cache)
    }

    /// How long, in ms, no mutation of any scope the capture watches and no event that may
    /// change a style, a layout or a scroll position has come; 0 while an animation or a
    /// transition runs, or timers an input set off are still to run.
    pub fn quiet_ms(&self) -> f64 {
        if self.dirty.get()
            || self.working()
            || self.capture.roots.iter().any(|(r, _)| js::animating(r))
        {
            return 0.0;
        }
        (js::now() - self.changed_at.activity.get()).max(0.0)
    }

    /// [`Cache::quiet_ms`] over what the judge looks at: what touched only `background`
    /// (see `dom::quiet`) does not count, nor does an animation of it.
    pub fn quiet_ms_outside(&self, background: &Background) -> f64 {
        if self.dirty.get()
            || self.working()
            || self
                .capture
                .roots
                .iter()
                .any(|(r, _)| quiet::animating_outside(r, background))
        {
            return 0.0;
        }
        let last = self.changed_at.log.borrow().last_outside(background);
        (js::now() - last).max(0.0)
    }

    /// Does a document of the capture say that timers an input set off are still to run? Each
    /// is asked, and its work watch answers while the question is dispatched.
    fn working(&self) -> bool {
        self.working.set(false);
        for doc in &self.capture.documents {
            if let Ok(ask) = web_sys::Event::new(ASK_WORK) {
                let _ = doc.unchecked_ref::<EventTarget>().dispatch_event(&ask);
            }
        }
        self.working.get()
    }

    /// How long, in ms, nothing that can change what the engine observes has happened: no
    /// mutation, no event that may change a style, a layout or a scroll position (pointer and
    /// focus events only where [`Sheets::stateful`]); 0 while an animation or a transition
    /// runs. At least [`Cache::quiet_ms`]: input that changes nothing is not counted here.
    pub fn still_ms(&self) -> f64 {
        if self.dirty.get() || self.capture.roots.iter().any(|(r, _)| js::animating(r)) {
            return 0.0;
        }
        (js::now() - self.changed_at.moved.get()).max(0.0)
    }

    fn listen(&mut self) {
        let visual = self.on_visual.as_ref().unchecked_ref::<js_sys::Function>();
        let scroll = self.on_scroll.as_ref().unchecked_ref::<js_sys::Function>();
        let user = self.on_user.as_ref().unchecked_ref::<js_sys::Function>();
        let boundary = self
            .on_boundary
            .as_ref()
            .unchecked_ref::<js_sys::Function>();
        let work = self.on_work.as_ref().unchecked_ref::<js_sys::Function>();
        let mut add = |target: &EventTarget, kind: &'static str, to: Listener| {
            let f = match to {
                Listener::Visual => visual,
                Listener::Scroll => scroll,
                Listener::User => user,
                Listener::Boundary => boundary,
                Listener::Work => work,
            };
            if target
                .add_event_listener_with_callback_and_bool(kind, f, true)
                .is_ok()
            {
                self.listeners.push((target.clone(), kind, to));
            }
        };
        for doc in &self.capture.documents {
            let target: &EventTarget = doc.unchecked_ref();
            for kind in VISUAL_EVENTS {
                add(target, kind, Listener::Visual);
            }
            for kind in USER_EVENTS {
                add(target, kind, Listener::User);
            }
            for kind in BOUNDARY_EVENTS {
                add(target, kind, Listener::Boundary);
            }
            for kind in WORK_EVENTS {
                add(target, kind, Listener::Work);
            }
            add(target, "scroll", Listener::Scroll);
            if let Some(window) = js::default_view(doc) {
                let target: &EventTarget = window.unchecked_ref();
                for kind in WINDOW_EVENTS {
                    add(target, kind, Listener::Visual);
                }
                add(target, "scroll", Listener::Scroll);
            }
        }
        let docs = self.capture.documents.len();
        for (root, _) in &self.capture.roots {
            if self.capture.documents[..docs]
                .iter()
                .any(|d| js::same(d, root))
            {
                continue;
            }
            let target: &EventTarget = root.unchecked_ref();
            for kind in SHADOW_EVENTS {
                add(target, kind, Listener::Visual);
            }
            add(target, "scroll", Listener::Scroll);
        }
    }

    pub fn capture(&self) -> &Capture {
        &self.capture
    }

    /// Patches the capture (`Walk::patch` does the work); false when it could not, and the
    /// cache must go.
    pub fn patch(&mut self, reuse: &Reuse, walk: &mut walk::Walk) -> bool {
        let Some(p) = walk.patch(&mut self.capture, &reuse.patch) else {
            return false;
        };
        // Only `aria-*` attributes that no rule mentions changed: nothing moved, and the
        // viewport facts of the elements kept still hold.
        let layout_holds = !p.restyle
            && reuse.patch.iter().all(|r| {
                r.type_() == "attributes"
                    && r.attribute_name().is_some_and(|n| {
                        n.starts_with("aria-") && !self.sheets.borrow().styles_attribute(&n)
                    })
            });
        if !layout_holds {
            self.view.set(true);
        }
        // Of those, states no name, word, role or visibility reads: every container keeps
        // its words, so what each element found for its place holds.
        let places_hold = layout_holds
            && reuse.patch.iter().all(|r| {
                r.attribute_name()
                    .is_some_and(|n| PLACELESS_STATES.contains(&n.as_str()))
            });
        // Old elements keep their visibility unless a rule matches by structure (an
        // attribute rule without sibling or `:has()` parts reaches the re-walked subtree only).
        let carry =
            !p.restyle && !self.sheets.borrow().structural && self.capture.documents.len() == 1;
        self.memo = match (carry, self.memo.take()) {
            (true, Some(m)) => m.patched(&p, layout_holds, places_hold),
            _ => None,
        };
        if self.memo.is_none() {
            self.visual.set(true);
        }
        true
    }

    /// Is the capture still the page, and do the memo's visual facts still hold? `None`
    /// when the capture is void. Cheap: one `takeRecords()`, a call or two per frame,
    /// custom element, scope and style sheet.
    pub fn check(&mut self, styles: &StyleScan) -> Option<Reuse> {
        if self.dirty.get() {
            return None;
        }
        let records = self.observer.take_records();
        if records.length() > 0 {
            let cursor =
                self.capture.cursor || self.capture.roots.iter().any(|(_, b)| b & CURSOR != 0);
            let v = classify(
                &records,
                &self.sheets.borrow(),
                &mut self.pending.borrow_mut(),
                &mut self.classes.borrow_mut(),
                cursor,
            );
            if v.void {
                self.dirty.set(true);
                return None;
            }
            if v.visual {
                self.visual.set(true);
            }
        }
        for f in &self.capture.frames {
            let now = js::content_document(&f.node);
            let same = match (&now, &f.content) {
                (None, None) => true,
                (Some(a), Some(b)) => js::same(a, b),
                _ => false,
            };
            if !same {
                return None;
            }
        }
        for (custom, closed) in &self.capture.customs {
            if js::shadow_root(custom).is_some() {
                return None;
            }
            if let Some(closed) = closed {
                if walk::is_closed_host(custom) != *closed {
                    return None;
                }
            }
        }
        // Sheet signatures on every call; the attributes rules read only when they changed.
        let mut sheets = Sheets::default();
        let mut animating = false;
        for (root, bits) in &self.capture.roots {
            if styles.sheets(root, &mut sheets, false) != *bits {
                return None;
            }
            animating = animating || js::animating(root);
        }
        if sheets.sig != self.sheets.borrow().sig {
            // A rule edited may move a pointer: which elements are clickable is static.
            if self.capture.cursor || self.capture.roots.iter().any(|(_, b)| b & CURSOR != 0) {
                return None;
            }
            let mut full = Sheets::default();
            for (root, _) in &self.capture.roots {
                styles.sheets(root, &mut full, true);
            }
            *self.sheets.borrow_mut() = full;
        }
        // Class changes restyle nothing unless a rule naming a changed token can match in
        // their reach (read against the sheets as they are now).
        let classes = std::mem::take(&mut *self.classes.borrow_mut());
        if !self.visual.get() {
            match restyles(classes, &self.sheets.borrow(), &self.capture) {
                Restyle::None => {}
                Restyle::Below(roots) => match &mut self.memo {
                    Some(m) if m.again_len() + roots.len() <= MAX_AGAIN => m.read_again(roots),
                    _ => self.visual.set(true),
                },
                Restyle::All => self.visual.set(true),
            }
        }
        let mut env = sheets.sig;
        let mut view_env = 0u64;
        let mut mix = |x: u64| env = env.rotate_left(11).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ x;
        for doc in &self.capture.documents {
            if let Some(w) = js::default_view(doc) {
                for x in [
                    js::inner_width(&w),
                    js::inner_height(&w),
                    js::device_pixel_ratio(&w),
                ] {
                    mix(x.to_bits());
                }
                for x in [js::scroll_x(&w), js::scroll_y(&w)] {
                    view_env =
                        view_env.rotate_left(13).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ x.to_bits();
                }
            }
            let hash = doc
                .location()
                .and_then(|l| l.hash().ok())
                .unwrap_or_default();
            mix(fnv(&hash));
        }
        for (custom, _) in &self.capture.customs {
            mix(custom.matches(":defined").unwrap_or(false) as u64);
        }
        let visual = !self.visual.get()
            && !animating
            && env == self.env
            && self
                .memo
                .as_ref()
                .is_some_and(|m| js::now() - m.at < MAX_VISUAL_AGE_MS);
        let view = visual
            && !self.view.get()
            && view_env == self.view_env
            && self.memo.as_ref().is_some_and(Visual::has_view);
        Some(Reuse {
            visual,
            view,
            env,
            view_env,
            patch: std::mem::take(&mut *self.pending.borrow_mut()),
        })
    }

    /// The memo, when [`Cache::check`] said it holds.
    pub fn memo(&self, reuse: &Reuse) -> Option<&Visual> {
        if reuse.visual {
            self.memo.as_ref()
        } else {
            None
        }
    }

    /// Keeps the facts a replay read (or re-used) as the next memo.
    pub fn keep(&mut self, visual: Visual, reuse: &Reuse, used: bool) {
        if !used {
            // Read afresh: whatever happened before the read is in it.
            self.visual.set(false);
        }
        if visual.view_read {
            self.view.set(false);
            self.view_env = reuse.view_env;
        }
        self.env = reuse.env;
        self.memo = Some(visual);
    }

    /// Keeps the places a snapshot gave the records of the replay just kept (see
    /// `Visual::places` and `Visual::place_words`).
    pub fn keep_places(&mut self, (places, words): (walk::Places, Option<walk::PlaceWords>)) {
        if let Some(m) = &mut self.memo {
            m.places = Some(places);
            m.place_words = words;
        }
    }

    /// What the records of the replay just kept found for their places, by uid, while it
    /// holds.
    pub fn place_words(&self) -> Option<walk::PlaceWords> {
        self.memo.as_ref().and_then(|m| m.place_words.clone())
    }
}

impl Drop for Cache {
    fn drop(&mut self) {
        self.observer.disconnect();
        for (target, kind, to) in &self.listeners {
            let f = match to {
                Listener::Visual => &self.on_visual,
                Listener::Scroll => &self.on_scroll,
                Listener::User => &self.on_user,
                Listener::Boundary => &self.on_boundary,
                Listener::Work => &self.on_work,
            }
            .as_ref()
            .unchecked_ref::<js_sys::Function>();
            let _ = target.remove_event_listener_with_callback_and_bool(kind, f, true);
        }
    }
}
