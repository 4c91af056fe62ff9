//! Shared helpers of the in-browser tests: load a fixture page into the test page, wait for
//! its frames, find records.
#![allow(dead_code)]

use js_sys::{Function, Promise, Reflect};
use prufe::core::model::{Element, Role, Snapshot};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

pub fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// Replaces the fixture container's content with `html` (a whole fixture page: its styles
/// apply, declarative shadow roots attach, inline scripts run) and returns the container.
/// The container is the first child of `<body>`, above the test runner's own output.
pub fn load(html: &str) -> web_sys::Element {
    let doc = document();
    let body = doc.body().unwrap();
    let container = match doc.get_element_by_id("fixture") {
        Some(c) => c,
        None => {
            let c = doc.create_element("div").unwrap();
            c.set_id("fixture");
            body.insert_before(&c, body.first_child().as_ref()).unwrap();
            c
        }
    };
    let set_html: Function = Reflect::get(&container, &"setHTMLUnsafe".into())
        .unwrap()
        .unchecked_into();
    set_html.call1(&container, &html.into()).unwrap();
    let scripts = container.query_selector_all("script").unwrap();
    for i in 0..scripts.length() {
        let old = scripts.item(i).unwrap();
        let fresh = doc.create_element("script").unwrap();
        fresh.set_text_content(old.text_content().as_deref());
        old.parent_node()
            .unwrap()
            .replace_child(&fresh, &old)
            .unwrap();
    }
    if let Some(active) = doc.active_element() {
        if let Ok(h) = active.dyn_into::<web_sys::HtmlElement>() {
            let _ = h.blur();
        }
    }
    container
}

pub async fn sleep(ms: i32) {
    let promise = Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

/// Waits until every same-origin iframe under `root` (recursively) has loaded its document.
pub async fn frames_loaded(root: &web_sys::Element) {
    for _ in 0..200 {
        if all_loaded(root) {
            return;
        }
        sleep(10).await;
    }
    panic!("frames did not load");
}

fn all_loaded(root: &web_sys::Element) -> bool {
    let frames = root.query_selector_all("iframe").unwrap();
    for i in 0..frames.length() {
        let f: web_sys::HtmlIFrameElement = frames.item(i).unwrap().unchecked_into();
        if f.has_attribute("sandbox") {
            continue;
        }
        let Some(doc) = f.content_document() else {
            return false;
        };
        if doc.ready_state() != "complete"
            || doc.url().map(|u| u == "about:blank").unwrap_or(true) && f.has_attribute("srcdoc")
        {
            return false;
        }
        if let Some(inner) = doc.document_element() {
            if !all_loaded(&inner) {
                return false;
            }
        }
    }
    true
}

pub fn query(root: &web_sys::Element, selector: &str) -> web_sys::Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

pub fn query_all(root: &web_sys::Element, selector: &str) -> Vec<web_sys::Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().unchecked_into())
        .collect()
}

/// The only element of `snap` with this role and label; panics listing what there is.
pub fn find<'a>(snap: &'a Snapshot, role: Role, label: &str) -> &'a Element {
    let hits: Vec<&Element> = snap
        .elements
        .iter()
        .filter(|e| e.role == role && e.label() == label)
        .collect();
    match hits.as_slice() {
        [one] => one,
        _ => panic!(
            "{} matches for {}[{label}] among: {:#?}",
            hits.len(),
            role.as_str(),
            snap.elements
                .iter()
                .map(|e| format!("{}[{}] in {}", e.role.as_str(), e.label(), e.region))
                .collect::<Vec<_>>()
        ),
    }
}

pub fn try_find<'a>(snap: &'a Snapshot, role: Role, label: &str) -> Option<&'a Element> {
    snap.elements
        .iter()
        .find(|e| e.role == role && e.label() == label)
}

/// The `code` of a JS error thrown by a binding.
pub fn code_of(err: &JsValue) -> String {
    Reflect::get(err, &"code".into())
        .ok()
        .and_then(|c| c.as_string())
        .unwrap_or_default()
}

pub fn snap(opts: prufe::dom::Options) -> Snapshot {
    prufe::dom::snapshot(&opts).unwrap()
}

pub fn center(el: &web_sys::Element) -> (f64, f64) {
    let r = el.get_bounding_client_rect();
    (r.left() + r.width() / 2.0, r.top() + r.height() / 2.0)
}

/// The fingerprint of a full walk (a declared selector that matches nothing turns the cache
/// off), checked first: its diffed part is `reference`'s (a snapshot of the page as it is),
/// so a cached fingerprint equal to it agrees with the walk in the diffed part and in its
/// claims (the order of the records among them).
#[allow(dead_code)]
pub fn full_fingerprint(reference: &Snapshot) -> String {
    let full = prufe::dom::Options {
        sensitive: vec!["#never-matches".into()],
        ..Default::default()
    };
    let fp = prufe::dom::fingerprint(&full).unwrap();
    assert_eq!(
        prufe::core::fingerprint::diffed(&fp),
        prufe::core::fingerprint::of_snapshot(reference),
        "a full walk's fingerprint and its snapshot"
    );
    fp
}

/// The engine's answers on a page that did not change since they were asked agree with a full
/// walk: two fingerprints in a row are equal (a quiet page keeps its fingerprint), equal to a
/// full walk's, and a snapshot (which may be answered from the cache) has the full walk's
/// elements and texts. Returns the fingerprint and the full walk's snapshot.
#[allow(dead_code)]
pub fn agrees_with_full_walk(what: &str) -> (String, Snapshot) {
    let full = prufe::dom::Options {
        sensitive: vec!["#never-matches".into()],
        ..Default::default()
    };
    let fp = prufe::dom::fingerprint(&prufe::dom::Options::default()).unwrap();
    let again = prufe::dom::fingerprint(&prufe::dom::Options::default()).unwrap();
    assert_eq!(fp, again, "{what}: a quiet page keeps its fingerprint");
    let cached = prufe::dom::snapshot(&prufe::dom::Options::default()).unwrap();
    let reference = prufe::dom::snapshot(&full).unwrap();
    assert_eq!(
        fp,
        full_fingerprint(&reference),
        "{what}: cached fingerprint and full walk disagree"
    );
    assert_eq!(
        cached.elements, reference.elements,
        "{what}: cached snapshot and full walk disagree"
    );
    assert_eq!(
        cached.texts, reference.texts,
        "{what}: cached texts and full walk disagree"
    );
    (fp, reference)
}
