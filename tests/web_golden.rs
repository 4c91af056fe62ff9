//! The shared core cases through the wasm exports in Chromium: every answer must equal the
//! golden file the native test checks, so the page and the harness judge identically.
#![cfg(target_arch = "wasm32")]

#[path = "golden/cases.rs"]
mod cases;

use prufe::bindings as b;
use serde_json::{json, Value};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn js(v: &Value) -> JsValue {
    // As a page would pass it: plain JS objects built from JSON.
    js_sys::JSON::parse(&v.to_string()).unwrap()
}

fn from_js(v: &JsValue) -> Value {
    match js_sys::JSON::stringify(v).ok().and_then(|s| s.as_string()) {
        Some(text) => serde_json::from_str(&text).unwrap(),
        None => Value::Null, // undefined
    }
}

fn get(v: &JsValue, key: &str) -> Value {
    from_js(&js_sys::Reflect::get(v, &key.into()).unwrap_or(JsValue::NULL))
}

fn answer(r: Result<JsValue, JsValue>) -> Value {
    match r {
        Ok(v) => json!({ "ok": from_js(&v) }),
        Err(e) => {
            let mut error = json!({ "code": get(&e, "code"), "message": get(&e, "message") });
            let candidates = get(&e, "candidates");
            if !candidates.is_null() {
                error["candidates"] = candidates;
            }
            json!({ "error": error })
        }
    }
}

#[wasm_bindgen_test]
fn exports_answer_exactly_like_native_core() {
    b::init().unwrap();
    let want: Value = serde_json::from_str(include_str!("golden/core_cases.json")).unwrap();
    let mut checked = 0;
    for c in cases::cases() {
        let a: Vec<JsValue> = c.args.iter().map(js).collect();
        let got = match c.op {
            "resolve" => answer(b::resolve(a[0].clone(), a[1].clone())),
            "diff" => answer(b::diff(a[0].clone(), a[1].clone(), a[2].clone())),
            "judge" => answer(b::judge(
                a[0].clone(),
                a[1].clone(),
                a[2].clone(),
                a[3].clone(),
            )),
            other => panic!("unknown op {other}"),
        };
        assert_eq!(Some(&got), want.get(c.name), "case {:?}", c.name);
        checked += 1;
    }
    assert_eq!(checked, want.as_object().unwrap().len());
}
