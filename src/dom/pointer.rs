//! What the coordinate executor asks of a page around a pointer step: the hit boxes of the
//! observable elements, the scroll container under a point and how far it moved since, and
//! the focused field's value and selection right before typing.
//!
//! The scroll container is kept here, in the engine's own world, between the call that finds
//! it and the ones that read it back: nothing is left on the page's globals.
//! Coordinates are CSS pixels of this document's viewport, as in [`super::input`].

use super::input::{get, offset, value_of, viewport};
use super::{composed_ancestors, document, element, focused, hit_test, js, snapshot, with_engine};
use crate::core::error::Result;
use crate::core::run::{ScrollPosition, Selection};
use js_sys::{JsString, Object};
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::JsCast;

thread_local! {
    /// The container [`scroll_from`] found, for [`scroll_position`].
    static SCROLLED: RefCell<Option<web_sys::Element>> = const { RefCell::new(None) };
}

/// The box of an observable element that intersects the viewport (`prufe.hitBoxes`): the
/// machine's, which reads it back for a coordinate step's points.
pub use crate::core::run::HitBox;

/// `prufe.hitBoxes()`: every visible observable element of a fresh snapshot whose border box
/// intersects the viewport, and whether it is the topmost at the centre of its visible part.
pub fn hit_boxes() -> Result<Vec<HitBox>> {
    let snap = snapshot(&super::Options::default())?;
    let doc = document()?;
    let (vw, vh) = viewport()?;
    let mut out = Vec::new();
    for e in snap.elements.into_iter().filter(|e| e.visible) {
        let Some(el) = super::minted(&e.reference) else {
            continue;
        };
        let r = js::rect(&el);
        let (width, height) = (r.right() - r.left(), r.bottom() - r.top());
        if !(width > 0.0 && height > 0.0) {
            continue;
        }
        let (ox, oy) = offset(&el);
        let (x, y) = (r.left() + ox, r.top() + oy);
        let (l, t) = (x.max(0.0), y.max(0.0));
        let (rr, b) = ((x + width).min(vw), (y + height).min(vh));
        if rr <= l || b <= t {
            continue;
        }
        let topmost = hit_test(&doc, (l + rr) / 2.0, (t + b) / 2.0)
            .is_some_and(|hit| composed_ancestors(&hit).iter().any(|n| js::same(n, &el)));
        out.push(HitBox {
            element: e,
            x,
            y,
            width,
            height,
            topmost,
        });
    }
    Ok(out)
}

fn position(c: &web_sys::Element, container: Option<String>) -> Result<ScrollPosition> {
    let win: Object = super::window()?.unchecked_into();
    let n = |k: &str| get(c, k).as_f64().unwrap_or(0.0);
    Ok(ScrollPosition {
        container,
        left: n("scrollLeft"),
        top: n("scrollTop"),
        page_left: js::scroll_x(&win),
        page_top: js::scroll_y(&win),
    })
}

/// Can `el` scroll: the document's scrolling element with content beyond its box, or an
/// element whose overflow lets it scroll and whose content exceeds it.
fn scrolls(el: &web_sys::Element) -> bool {
    let n = |k: &str| get(el, k).as_f64().unwrap_or(0.0);
    let over_y = n("scrollHeight") > n("clientHeight");
    let over_x = n("scrollWidth") > n("clientWidth");
    let Some(doc) = js::owner_document(el.unchecked_ref()) else {
        return false;
    };
    if js::same(&get(&doc, "scrollingElement"), el) {
        return over_y || over_x;
    }
    let Some(view) = js::default_view(&doc) else {
        return false;
    };
    let style = js::computed_style(&view, el, &JsString::from(""));
    let can = |side: &str| {
        matches!(
            style.property(&JsString::from(side)).as_str(),
            "auto" | "scroll" | "overlay"
        )
    };
    (over_y && can("overflow-y")) || (over_x && can("overflow-x"))
}

/// `prufe.scrollFrom(x, y)`: finds the scroll container under the point (the page when none
/// is), keeps it for [`scroll_position`], and says where it stands.
pub fn scroll_from(x: f64, y: f64) -> Result<ScrollPosition> {
    let doc = document()?;
    let chain = hit_test(&doc, x, y)
        .map(|hit| composed_ancestors(&hit))
        .unwrap_or_default();
    let page = get(&doc, "scrollingElement")
        .dyn_into::<web_sys::Element>()
        .ok()
        .or_else(|| js::document_element(&doc));
    let found = chain.iter().position(scrolls);
    let Some(c) = found.map(|i| chain[i].clone()).or(page.clone()) else {
        return Ok(ScrollPosition {
            container: Some("the page".into()),
            left: 0.0,
            top: 0.0,
            page_left: 0.0,
            page_top: 0.0,
        });
    };
    let name = if page.as_ref().is_some_and(|p| js::same(p, &c)) {
        "the page".to_owned()
    } else {
        let mut name = js::local_name(&c);
        if let Some(id) = js::attr(&c, &JsString::from("id")).filter(|i| !i.is_empty()) {
            name.push('#');
            name.push_str(&id);
        }
        let within = &chain[found.unwrap_or(0)..];
        if let Some(rec) = with_engine(|eng| Ok(eng.find(within)?.pop()))? {
            let shown = if rec.name.is_empty() {
                rec.text.clone().unwrap_or_default()
            } else {
                rec.name.clone()
            };
            name.push_str(&format!(" in {}[{shown}]", rec.role.as_str()));
        }
        name
    };
    SCROLLED.with(|s| *s.borrow_mut() = Some(c.clone()));
    position(&c, Some(name))
}

/// `prufe.scrollPosition()`: where the container [`scroll_from`] kept stands now; `None`
/// when there is none (a new document).
pub fn scroll_position() -> Result<Option<ScrollPosition>> {
    let kept = SCROLLED.with(|s| s.borrow().clone());
    kept.map(|c| position(&c, None)).transpose()
}

/// `prufe.selection(ref)`: the raw value and selection of the field of `ref` when the focus
/// is on it (`None` otherwise), read right before typing: the machine decides from them what
/// the field should hold after (`core::run::typing`).
pub fn selection(reference: &str) -> Result<Option<Selection>> {
    let now = focused()?;
    if now.as_ref().is_none_or(|f| f.reference != reference) {
        return Ok(None);
    }
    let el = element(reference)?;
    // Some input types (email, number) throw on reading the selection.
    let offset = |k: &str| {
        js_sys::Reflect::get(&el, &k.into())
            .ok()
            .and_then(|v| v.as_f64())
            .map(|n| n as u32)
    };
    Ok(Some(Selection {
        value: value_of(&el),
        start: offset("selectionStart"),
        end: offset("selectionEnd"),
    }))
}

/// The document as a driver needs to know it (`prufe.page`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageState {
    /// `loading`, `interactive` or `complete`.
    pub ready_state: String,
    /// Device pixels per CSS pixel (a screenshot's scale).
    pub device_pixel_ratio: f64,
}

/// `prufe.page()`.
pub fn page() -> Result<PageState> {
    let doc = document()?;
    let win: Object = super::window()?.unchecked_into();
    Ok(PageState {
        ready_state: get(&doc, "readyState").as_string().unwrap_or_default(),
        device_pixel_ratio: js::device_pixel_ratio(&win),
    })
}
