//! What the coordinate executor asks of a page around a pointer step: the hit boxes of the
//! observable elements, the scroll container under a point and how far it moved since, and
//! whether typing into the focused field gave the value it should.
//!
//! The scroll container and the field's state before typing are kept here, in the engine's
//! own world, between the call that finds them and the one that reads them back: nothing is
//! left on the page's globals, and a field's value never leaves the page on the way.
//! Coordinates are CSS pixels of this document's viewport, as in [`super::input`].

use super::input::{get, offset, value_of, viewport};
use super::{composed_ancestors, document, element, focused, hit_test, js, snapshot, with_engine};
use crate::core::error::Result;
use crate::core::model::Element;
use crate::core::redact::keyed_hash;
use js_sys::{JsString, Object};
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::JsCast;

thread_local! {
    /// The container [`scroll_from`] found, for [`scroll_position`].
    static SCROLLED: RefCell<Option<web_sys::Element>> = const { RefCell::new(None) };
    /// The field [`typing_begin`] checked, for [`typing_check`].
    static TYPING: RefCell<Option<Typing>> = const { RefCell::new(None) };
}

/// The box of an observable element that intersects the viewport (`prufe.hitBoxes`).
#[derive(Debug, Clone, Serialize)]
pub struct HitBox {
    pub element: Element,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    /// The hit at the centre of its visible part is the element or inside it.
    pub topmost: bool,
}

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

/// Where a scroll container stands, and the page with it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScrollPosition {
    /// What the container is, for a person: `the page`, or `div#list in list[Results]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub container: Option<String>,
    pub left: f64,
    pub top: f64,
    pub page_left: f64,
    pub page_top: f64,
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

/// A field's state right before typing into it.
struct Typing {
    reference: String,
    before: Option<String>,
    start: Option<u32>,
    end: Option<u32>,
}

/// How `prufe.typingBegin(ref)` found the field.
#[derive(Debug, Clone, Serialize)]
pub struct TypingBegin {
    /// The focus is on the field.
    pub ok: bool,
    /// The field has a value to read back.
    pub editable: bool,
    /// Where the focus is instead.
    pub focused: Option<Element>,
}

/// `prufe.typingBegin(ref)`: is the focus still on the field of `ref`? If so, keeps its
/// value and selection here for [`typing_check`].
pub fn typing_begin(reference: &str) -> Result<TypingBegin> {
    let now = focused()?;
    if now.as_ref().is_none_or(|f| f.reference != reference) {
        return Ok(TypingBegin {
            ok: false,
            editable: false,
            focused: now,
        });
    }
    let el = element(reference)?;
    let before = value_of(&el);
    // Some input types (email, number) throw on reading the selection.
    let offset = |k: &str| {
        js_sys::Reflect::get(&el, &k.into())
            .ok()
            .and_then(|v| v.as_f64())
            .map(|n| n as u32)
    };
    let editable = before.is_some();
    TYPING.with(|t| {
        *t.borrow_mut() = Some(Typing {
            reference: reference.to_owned(),
            before,
            start: offset("selectionStart"),
            end: offset("selectionEnd"),
        })
    });
    Ok(TypingBegin {
        ok: true,
        editable,
        focused: None,
    })
}

/// What reading the field back after typing showed (`prufe.typingCheck`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TypingCheck {
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    pub still_focused: bool,
    pub value_hash: Option<String>,
    /// The value now; `None` for a sensitive field.
    pub shown: Option<String>,
    /// The value typing should have given; `None` for a sensitive field.
    pub expected: Option<String>,
}

impl TypingCheck {
    fn failed(reason: &'static str) -> TypingCheck {
        TypingCheck {
            ok: false,
            reason: Some(reason),
            still_focused: false,
            value_hash: None,
            shown: None,
            expected: None,
        }
    }
}

/// `prufe.typingCheck(text, sensitive)`: reads back the field [`typing_begin`] kept and
/// compares it with its value before with `text` put in place of the selection (or, without
/// a selection, that it now holds `text`). A sensitive field's values are not returned.
pub fn typing_check(text: &str, sensitive: bool) -> Result<TypingCheck> {
    let Some(t) = TYPING.with(|t| t.borrow_mut().take()) else {
        return Ok(TypingCheck::failed("lost"));
    };
    let Ok(el) = element(&t.reference) else {
        return Ok(TypingCheck::failed("gone"));
    };
    let Some(now) = value_of(&el) else {
        return Ok(TypingCheck::failed("no-value"));
    };
    // Selection offsets count UTF-16 code units, as the page's strings do.
    let expected = match (&t.before, t.start, t.end) {
        (Some(before), Some(start), Some(end)) => {
            let units: Vec<u16> = before.encode_utf16().collect();
            let (start, end) = (start as usize, end as usize);
            (start <= end && end <= units.len()).then(|| {
                let mut s = String::from_utf16_lossy(&units[..start]);
                s.push_str(text);
                s.push_str(&String::from_utf16_lossy(&units[end..]));
                s
            })
        }
        _ => None,
    };
    let ok = match &expected {
        Some(e) => *e == now,
        None => now.contains(text),
    };
    let still_focused = focused()?.is_some_and(|f| f.reference == t.reference);
    let value_hash = with_engine(|eng| Ok(keyed_hash(&eng.key, &now)))?;
    Ok(TypingCheck {
        ok,
        reason: None,
        still_focused,
        value_hash: Some(value_hash),
        shown: (!sensitive).then_some(now),
        expected: if sensitive { None } else { expected },
    })
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
