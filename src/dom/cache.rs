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
//! What invalidates the cache (then the next fingerprint walks in full and captures again):
//! - any `MutationObserver` record (child lists, text, and the attributes the engine reads:
//!   ARIA, `role`, `id`, `for`, `type`, `value`, `disabled`, `hidden`, `open`, `slot`,
//!   `style`, `data-ap-*`...) on any document or shadow root the walk entered, read
//!   synchronously with `takeRecords()` so a change made in the same task is seen;
//! - a frame showing another document, a custom element gaining an open shadow root or
//!   changing its closed-root look, a style sheet added, removed or edited (rule counts);
//! - a page with `::before`/`::after` rules is never cached (generated content can change on
//!   hover without any mutation), nor a walk cut short, nor one with caller-declared
//!   sensitive elements.
//!
//! Known blind spot, shared with any DOM-only observer: an element that is not a custom element
//! gaining a shadow root later (`attachShadow` is not a mutation). Custom elements, which do
//! this when they upgrade, are checked on every replay.

use super::js;
use super::walk::{self, Capture, StyleScan};
use js_sys::Array;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

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

pub struct Cache {
    capture: Capture,
    observer: web_sys::MutationObserver,
    dirty: Rc<Cell<bool>>,
    _callback: Closure<dyn FnMut(JsValue, JsValue)>,
}

impl Cache {
    /// Starts watching every scope of `capture`; `None` if the browser refuses.
    pub fn new(capture: Capture) -> Option<Cache> {
        let dirty = Rc::new(Cell::new(false));
        let flag = dirty.clone();
        let callback =
            Closure::<dyn FnMut(JsValue, JsValue)>::new(move |_: JsValue, _: JsValue| {
                flag.set(true)
            });
        let observer = web_sys::MutationObserver::new(callback.as_ref().unchecked_ref()).ok()?;
        let init = web_sys::MutationObserverInit::new();
        init.set_subtree(true);
        init.set_child_list(true);
        init.set_character_data(true);
        init.set_attributes(true);
        let filter: Array = WATCHED.iter().map(|a| JsValue::from_str(a)).collect();
        init.set_attribute_filter(&filter);
        for (root, _) in &capture.roots {
            if observer.observe_with_options(root, &init).is_err() {
                observer.disconnect();
                return None;
            }
        }
        Some(Cache {
            capture,
            observer,
            dirty,
            _callback: callback,
        })
    }

    pub fn capture(&self) -> &Capture {
        &self.capture
    }

    /// Is the capture still the page? Cheap: one `takeRecords()`, then a call or two per
    /// frame, custom element and scope.
    pub fn is_valid(&self, styles: &StyleScan) -> bool {
        if self.dirty.get() || self.observer.take_records().length() > 0 {
            return false;
        }
        for f in &self.capture.frames {
            let now = js::content_document(&f.node);
            let same = match (&now, &f.content) {
                (None, None) => true,
                (Some(a), Some(b)) => js::same(a, b),
                _ => false,
            };
            if !same {
                return false;
            }
        }
        for (custom, closed) in &self.capture.customs {
            if js::shadow_root(custom).is_some() {
                return false;
            }
            if let Some(closed) = closed {
                if walk::is_closed_host(custom) != *closed {
                    return false;
                }
            }
        }
        self.capture
            .roots
            .iter()
            .all(|(root, bits)| styles.scan(root) == *bits)
    }
}

impl Drop for Cache {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}
