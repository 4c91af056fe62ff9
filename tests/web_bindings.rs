//! The `window.prufe` exports as JS sees them: wire shapes, errors with `.code`, and the
//! calls that combine the engine with core (resolve without an observation, judge of a
//! sensitive fill).
#![cfg(target_arch = "wasm32")]

mod web_support;

use js_sys::{Array, Reflect};
use prufe::bindings as b;
use prufe::core::fingerprint::of_snapshot;
use prufe::core::model::Snapshot;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_support::*;

wasm_bindgen_test_configure!(run_in_browser);

const SHOP: &str = r#"<main>
  <form aria-label="Login"><input type="password" aria-label="Password" value="s3cret-pass!">
  <input aria-label="Email" value="ada@example.com"></form>
  <ul id="cart"></ul>
  <section aria-label="Catalogue">
    <button id="add" onclick="">Add Shirt M</button>
    <button>Twin</button><button>Twin</button>
  </section>
</main>"#;

fn js(v: Value) -> JsValue {
    serde_wasm_bindgen::to_value(&v).unwrap()
}

fn value(v: &JsValue) -> Value {
    serde_wasm_bindgen::from_value(v.clone()).unwrap()
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap()
}

#[wasm_bindgen_test]
fn snapshot_wire_shape() {
    load(SHOP);
    b::init().unwrap();
    assert_eq!(b::version(), env!("CARGO_PKG_VERSION"));
    let snap = b::snapshot(JsValue::UNDEFINED).unwrap();
    let context = get(&snap, "context");
    assert!(get(&context, "epoch").as_f64().unwrap() > 0.0);
    assert!(get(&context, "snapshot").is_string());
    assert_eq!(get(&snap, "hasMore"), JsValue::FALSE);
    let elements: Array = get(&snap, "elements").unchecked_into();
    let first_button = elements
        .iter()
        .find(|e| get(e, "role").as_string().as_deref() == Some("button"))
        .unwrap();
    for key in ["ref", "role", "name", "region", "frame"] {
        assert!(get(&first_button, key).is_string(), "{key}");
    }
    for key in [
        "href", "value", "checked", "pressed", "selected", "expanded",
    ] {
        assert!(
            get(&first_button, key).is_null(),
            "{key} must be null, not absent"
        );
    }
    for key in ["disabled", "visible", "inViewport", "focused", "sensitive"] {
        assert!(get(&first_button, key).as_bool().is_some(), "{key}");
    }
    assert!(
        get(&first_button, "valueHash").is_undefined(),
        "absent unless set"
    );
    let password = elements
        .iter()
        .find(|e| get(e, "name").as_string().as_deref() == Some("Password"))
        .unwrap();
    assert_eq!(
        get(&password, "value").as_string().as_deref(),
        Some("[redacted]")
    );
    assert!(get(&password, "valueHash").is_string());
    assert!(get(&snap, "texts").is_instance_of::<Array>());
    // The wire form reads back as the model, and the fingerprint equals its fingerprint.
    let typed: Snapshot = serde_wasm_bindgen::from_value(snap).unwrap();
    assert_eq!(
        b::fingerprint(JsValue::UNDEFINED).unwrap(),
        of_snapshot(&typed)
    );
    let text = js_sys::JSON::stringify(&b::snapshot(JsValue::NULL).unwrap())
        .unwrap()
        .as_string()
        .unwrap();
    assert!(!text.contains("s3cret-pass!"));
}

#[wasm_bindgen_test]
fn errors_carry_a_code() {
    load(SHOP);
    let cases: Vec<(JsValue, &str)> = vec![
        (b::element("e1-zz99".into()).unwrap_err(), "STALE_REFERENCE"),
        (
            b::element(JsValue::from_f64(3.0)).unwrap_err(),
            "INVALID_ARGUMENT",
        ),
        (
            b::snapshot(js(json!({ "bogus": 1 }))).unwrap_err(),
            "INVALID_OPTIONS",
        ),
        (
            b::snapshot(js(json!({ "maxElements": "ten" }))).unwrap_err(),
            "INVALID_OPTIONS",
        ),
        (
            b::fingerprint(js(json!({ "sensitive": ["::nope("] }))).unwrap_err(),
            "INVALID_OPTIONS",
        ),
        (
            b::hash(JsValue::from_f64(42.0)).unwrap_err(),
            "INVALID_ARGUMENT",
        ),
        (
            b::at(JsValue::from_str("x"), JsValue::from_f64(1.0)).unwrap_err(),
            "INVALID_ARGUMENT",
        ),
        (
            b::resolve(
                js(json!({ "role": "button", "name": "Add Shirt M" })),
                js(json!({ "bogus": true })),
            )
            .unwrap_err(),
            "INVALID_OPTIONS",
        ),
        (
            b::diff(js(json!({})), JsValue::UNDEFINED, JsValue::UNDEFINED).unwrap_err(),
            "INVALID_*",
        ),
    ];
    for (err, code) in cases {
        match code.strip_suffix('*') {
            Some(prefix) => assert!(code_of(&err).starts_with(prefix), "{err:?}"),
            None => assert_eq!(code_of(&err), code, "{err:?}"),
        }
        assert!(err.is_instance_of::<js_sys::Error>());
        assert!(!get(&err, "message").as_string().unwrap().is_empty());
        assert_eq!(get(&err, "name").as_string().as_deref(), Some("PrufeError"));
    }
}

#[wasm_bindgen_test]
fn resolve_takes_a_fresh_snapshot_and_refuses_twins() {
    load(SHOP);
    let ok = b::resolve(
        js(json!({ "role": "button", "name": "add shirt m" })),
        JsValue::UNDEFINED,
    )
    .unwrap();
    let target = get(&ok, "target");
    assert_eq!(
        get(&target, "name").as_string().as_deref(),
        Some("Add Shirt M")
    );
    assert_eq!(get(&ok, "authorized"), JsValue::FALSE);
    let node = b::element(get(&target, "ref")).unwrap();
    assert_eq!(node.id(), "add");
    let twins = b::resolve(
        js(json!({ "role": "button", "name": "Twin" })),
        JsValue::UNDEFINED,
    )
    .unwrap_err();
    assert_eq!(code_of(&twins), "TARGET_AMBIGUOUS");
    let candidates: Array = get(&twins, "candidates").unchecked_into();
    assert_eq!(candidates.length(), 2);
    // An observation from this document, checked against an expectation from another.
    let snap = b::snapshot(JsValue::UNDEFINED).unwrap();
    let mut expected = value(&get(&snap, "context"));
    expected["epoch"] = json!(1);
    let stale = b::resolve(
        js(json!({ "role": "button", "name": "Add Shirt M" })),
        js(json!({ "observation": value(&snap), "expected": expected })),
    )
    .unwrap_err();
    assert_eq!(code_of(&stale), "STALE_OBSERVATION");
}

#[wasm_bindgen_test]
fn diff_and_judge_through_the_exports() {
    let c = load(SHOP);
    let before = b::snapshot(JsValue::UNDEFINED).unwrap();
    let item = document().create_element("li").unwrap();
    item.set_text_content(Some("Shirt M"));
    query(&c, "#cart").append_child(&item).unwrap();
    let after = b::snapshot(JsValue::UNDEFINED).unwrap();
    let diff = value(&b::diff(before.clone(), after.clone(), JsValue::UNDEFINED).unwrap());
    assert_eq!(diff["empty"], json!(false));
    assert!(
        diff["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().contains("Shirt M")),
        "{diff}"
    );
    let add = value(
        &b::resolve(
            js(json!({ "role": "button", "name": "Add Shirt M" })),
            JsValue::UNDEFINED,
        )
        .unwrap(),
    )["target"]
        .clone();
    let verdict = value(
        &b::judge(
            js(json!({ "kind": "click", "target": add })),
            before,
            after,
            JsValue::UNDEFINED,
        )
        .unwrap(),
    );
    assert_eq!(verdict["verdict"], json!("MATCH"), "{verdict}");

    // A sensitive fill: the plaintext is hashed in the page before judge sees it.
    let before = b::snapshot(JsValue::UNDEFINED).unwrap();
    let field: web_sys::HtmlInputElement = query(&c, "input[type=password]").unchecked_into();
    field.set_value("n3w-pass-word");
    let after = b::snapshot(JsValue::UNDEFINED).unwrap();
    let password = value(&before)["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "Password")
        .unwrap()
        .clone();
    let action = json!({ "kind": "fill", "target": password, "value": "n3w-pass-word" });
    let verdict = b::judge(
        js(action),
        before.clone(),
        after.clone(),
        JsValue::UNDEFINED,
    )
    .unwrap();
    let text = js_sys::JSON::stringify(&verdict)
        .unwrap()
        .as_string()
        .unwrap();
    assert_eq!(value(&verdict)["verdict"], json!("MATCH"), "{text}");
    assert!(
        !text.contains("n3w-pass-word") && !text.contains("s3cret-pass!"),
        "{text}"
    );
    let wrong = json!({ "kind": "fill", "target": password, "value": "another-one" });
    assert_ne!(
        value(&b::judge(js(wrong), before, after, JsValue::UNDEFINED).unwrap())["verdict"],
        json!("MATCH")
    );
    assert_eq!(b::hash("n3w-pass-word".into()).unwrap().len(), 32);
}

#[wasm_bindgen_test]
fn describe_at_and_focused_return_records_or_null() {
    let c = load(SHOP);
    let button = query(&c, "#add");
    let (x, y) = center(&button);
    let hit = b::at(JsValue::from_f64(x), JsValue::from_f64(y)).unwrap();
    assert_eq!(
        get(&hit, "name").as_string().as_deref(),
        Some("Add Shirt M")
    );
    let again = b::describe(get(&hit, "ref")).unwrap();
    assert_eq!(get(&again, "ref"), get(&hit, "ref"));
    assert!(b::describe("e999999-zz99".into()).unwrap().is_null());
    assert!(b::focused().unwrap().is_null());
    button
        .unchecked_ref::<web_sys::HtmlElement>()
        .focus()
        .unwrap();
    assert_eq!(get(&b::focused().unwrap(), "ref"), get(&hit, "ref"));
    assert!(b::at(JsValue::from_f64(-50.0), JsValue::from_f64(-50.0))
        .unwrap()
        .is_null());
}
