//! The `window.prufe` exports as JS sees them: wire shapes, errors with `.code`, and the
//! calls that combine the engine with core (resolve without an observation, judge of a
//! sensitive fill).
#![cfg(target_arch = "wasm32")]

mod web_support;

use js_sys::{Array, Reflect};
use prufe::bindings as b;
use prufe::core::fingerprint::{diffed, of_snapshot};
use prufe::core::model::Snapshot;
use serde_json::{json, Value};
use wasm_bindgen::prelude::Closure;
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
        diffed(&b::fingerprint(JsValue::UNDEFINED).unwrap()).into_owned(),
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

/// The ref a snapshot would give `el`.
fn ref_of(el: &web_sys::Element) -> JsValue {
    prufe::dom::record_of(el)
        .unwrap()
        .expect("observable")
        .reference
        .into()
}

fn num(v: &JsValue, key: &str) -> f64 {
    get(v, key).as_f64().unwrap()
}

#[wasm_bindgen_test]
fn a_row_clipped_by_its_scrolling_grid_is_out_of_view() {
    // AG Grid renders spare rows above and below what its own viewport shows: inside the
    // window, clipped by the grid's scroll box. A person scrolls the grid first.
    let c = load(
        r#"<main>
      <div id="grid" style="height: 60px; overflow: auto">
        <button id="first" style="display: block; height: 40px">Order 1001</button>
        <button id="spare" style="display: block; height: 40px">Order 1002</button>
        <button style="display: block; height: 40px">Order 1003</button>
      </div>
      <div style="width: 200px; height: 60px; overflow: hidden; white-space: nowrap">
        <button style="width: 300px">Slide 1</button><button id="slide">Slide 2</button>
      </div>
    </main>"#,
    );
    let first = ref_of(&query(&c, "#first"));
    let spare = ref_of(&query(&c, "#spare"));
    assert_eq!(get(&b::bounds(first).unwrap(), "inView"), JsValue::TRUE);
    let b_spare = b::bounds(spare.clone()).unwrap();
    let (vw, vh) = (
        web_sys::window()
            .unwrap()
            .inner_width()
            .unwrap()
            .as_f64()
            .unwrap(),
        web_sys::window()
            .unwrap()
            .inner_height()
            .unwrap()
            .as_f64()
            .unwrap(),
    );
    let p = get(&b_spare, "point");
    assert!(num(&p, "y") < vh && num(&p, "x") < vw, "in the window");
    assert_eq!(
        get(&b_spare, "inView"),
        JsValue::FALSE,
        "clipped by the grid"
    );
    b::scroll_into_view(spare.clone()).unwrap();
    assert_eq!(get(&b::bounds(spare).unwrap(), "inView"), JsValue::TRUE);
    // A track nobody scrolls by hand (`overflow: hidden`, a carousel's) is not reached into:
    // its hidden slide is left to the hit test.
    let slide = ref_of(&query(&c, "#slide"));
    let s = b::bounds(slide).unwrap();
    assert!(
        num(&get(&s, "point"), "x") > 200.0,
        "beyond the track's box"
    );
    assert_eq!(get(&s, "inView"), JsValue::TRUE);
}

#[wasm_bindgen_test]
fn box_scroll_and_hit_test_answer_for_input() {
    let c = load(
        r#"<main>
      <p><button id="near">Near</button></p>
      <p><button id="covered">Covered</button></p>
      <div id="veil" class="veil top" style="position: absolute; width: 300px; height: 40px; opacity: .9; background: #eee">Accept all cookies</div>
      <p style="margin-top: 80px"><label id="sub-label">Subscribe <input type="checkbox" id="sub"></label></p>
      <div style="height: 3000px"></div>
      <button id="far">Far</button>
    </main>"#,
    );
    let covered = query(&c, "#covered");
    let veil = query(&c, "#veil");
    let r = covered.get_bounding_client_rect();
    veil.set_attribute(
        "style",
        &format!(
            "position: fixed; left: {}px; top: {}px; width: 300px; height: 40px; background: #eee",
            r.left() - 5.0,
            r.top() - 5.0
        ),
    )
    .unwrap();

    let near = query(&c, "#near");
    let b = b::bounds(ref_of(&near)).unwrap();
    let (x, y) = center(&near);
    let point = get(&b, "point");
    assert!((num(&point, "x") - x).abs() < 0.01 && (num(&point, "y") - y).abs() < 0.01);
    let r = near.get_bounding_client_rect();
    assert_eq!((num(&b, "x"), num(&b, "width")), (r.left(), r.width()));
    assert_eq!(get(&b, "inView"), JsValue::TRUE);
    assert!(b::hit_test(ref_of(&near), x.into(), y.into())
        .unwrap()
        .is_null());

    let (x, y) = center(&covered);
    let by = b::hit_test(ref_of(&covered), x.into(), y.into()).unwrap();
    assert_eq!(
        by.as_string().as_deref(),
        Some(r#"div#veil.veil.top "Accept all cookies""#)
    );

    // A label forwards its clicks to its control.
    let label = query(&c, "#sub-label").get_bounding_client_rect();
    let at_label = (label.left() + 3.0, label.top() + label.height() / 2.0);
    let sub = ref_of(&query(&c, "#sub"));
    let by = b::hit_test(sub, at_label.0.into(), at_label.1.into()).unwrap();
    assert!(by.is_null(), "{by:?}");

    let far = ref_of(&query(&c, "#far"));
    assert_eq!(
        get(&b::bounds(far.clone()).unwrap(), "inView"),
        JsValue::FALSE
    );
    b::scroll_into_view(far.clone()).unwrap();
    let now = b::bounds(far.clone()).unwrap();
    assert_eq!(get(&now, "inView"), JsValue::TRUE);
    let p = get(&now, "point");
    assert!(b::hit_test(far, get(&p, "x"), get(&p, "y"))
        .unwrap()
        .is_null());
    web_sys::window().unwrap().scroll_to_with_x_and_y(0.0, 0.0);

    for err in [
        b::bounds("e999999-zz99".into()).unwrap_err(),
        b::scroll_into_view(JsValue::from_f64(1.0)).unwrap_err(),
        b::hit_test(ref_of(&near), "x".into(), 1.0.into()).unwrap_err(),
    ] {
        assert!(matches!(
            code_of(&err).as_str(),
            "STALE_REFERENCE" | "INVALID_ARGUMENT"
        ));
    }
}

#[wasm_bindgen_test]
async fn settle_answers_the_machines_settle_need_in_one_call() {
    let c = load(
        r#"<main><p id="out">Idle</p><button id="go">Go</button></main>
        <aside aria-label="Clock"><p id="clock">10:00</p></aside>"#,
    );
    let out = query(&c, "#out");
    let need = |since: Option<&str>, timeout: f64, stop: bool| {
        serde_wasm_bindgen::to_value(&json!({
            "need": "settle", "since": since, "pollMs": 20, "quietMs": 100,
            "timeoutMs": timeout, "stopOnChange": stop
        }))
        .unwrap()
    };
    let settle = |n: JsValue| async move { b::settle(n, JsValue::UNDEFINED).await.unwrap() };
    // A still page: stable, unchanged.
    let a = settle(need(None, 2000.0, false)).await;
    assert_eq!(get(&a, "answer").as_string().as_deref(), Some("settled"));
    assert_eq!(
        (get(&a, "stable"), get(&a, "changed")),
        (JsValue::TRUE, JsValue::FALSE)
    );
    let fp = get(&a, "fingerprint").as_string().unwrap();
    assert_eq!(fp, b::fingerprint(JsValue::UNDEFINED).unwrap());

    // Since the fingerprint before an action that never changes anything: quiet throughout.
    let a = settle(need(Some(&fp), 150.0, false)).await;
    assert_eq!(
        (get(&a, "stable"), get(&a, "changed")),
        (JsValue::TRUE, JsValue::FALSE)
    );
    assert!(
        num(&a, "waitedMs") >= 140.0,
        "waited for the effect until the deadline"
    );

    // A late effect (120 ms after the call): seen, then quiet.
    let later = Closure::once_into_js({
        let out = out.clone();
        move || out.set_text_content(Some("Saved"))
    });
    let window = web_sys::window().unwrap();
    window
        .set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), 120)
        .unwrap();
    let a = settle(need(Some(&fp), 3000.0, false)).await;
    assert_eq!(
        (get(&a, "stable"), get(&a, "changed")),
        (JsValue::TRUE, JsValue::TRUE)
    );
    assert!(
        num(&a, "waitedMs") >= 200.0,
        "the effect, then a quiet window"
    );
    assert_ne!(get(&a, "fingerprint").as_string().unwrap(), fp);

    // Stop on change: answered at the first move, not stable.
    let fp = b::fingerprint(JsValue::UNDEFINED).unwrap();
    let again = Closure::once_into_js({
        let out = out.clone();
        move || out.set_text_content(Some("Saved twice"))
    });
    window
        .set_timeout_with_callback_and_timeout_and_arguments_0(again.unchecked_ref(), 60)
        .unwrap();
    let a = settle(need(Some(&fp), 3000.0, true)).await;
    assert_eq!(
        (get(&a, "stable"), get(&a, "changed")),
        (JsValue::FALSE, JsValue::TRUE)
    );
    assert!(num(&a, "waitedMs") < 1000.0);

    // Not a settle need: a rejected promise with INVALID_ARGUMENT.
    for bad in [
        json!({ "pollMs": "50", "quietMs": 100, "timeoutMs": 100 }),
        json!({ "pollMs": 50, "quietMs": -1, "timeoutMs": 100 }),
        json!({ "need": "observe", "pollMs": 50, "quietMs": 100, "timeoutMs": 100 }),
    ] {
        let err = b::settle(
            serde_wasm_bindgen::to_value(&bad).unwrap(),
            JsValue::UNDEFINED,
        )
        .await
        .unwrap_err();
        assert_eq!(code_of(&err), "INVALID_ARGUMENT", "{bad}");
    }

    // Fingerprint options narrow what counts: a clock ticking outside `regions` is no change.
    let main_only = serde_wasm_bindgen::to_value(&json!({ "regions": ["main"] })).unwrap();
    let fp = b::fingerprint(main_only.clone()).unwrap();
    let clock = query(&c, "#clock");
    let tick = Closure::once_into_js(move || clock.set_text_content(Some("10:01")));
    window
        .set_timeout_with_callback_and_timeout_and_arguments_0(tick.unchecked_ref(), 40)
        .unwrap();
    let a = b::settle(need(Some(&fp), 300.0, false), main_only)
        .await
        .unwrap();
    assert_eq!(
        (get(&a, "stable"), get(&a, "changed")),
        (JsValue::TRUE, JsValue::FALSE),
        "the clock is outside the regions"
    );
    assert_eq!(get(&a, "fingerprint").as_string().unwrap(), fp);
}

#[wasm_bindgen_test]
async fn prepare_answers_the_machines_prepare_need() {
    let c = load(
        r#"<main>
      <p><button id="near">Near</button></p>
      <p><button id="covered">Covered</button></p>
      <p><button id="moving" style="position: relative">Moving</button></p>
      <div style="height: 3000px"></div>
      <button id="far">Far</button>
    </main>"#,
    );
    web_sys::window().unwrap().scroll_to_with_x_and_y(0.0, 0.0);
    let shown = |a: &JsValue| format!("{:?}", js_sys::JSON::stringify(a));
    // A refused answer: the refusal as data, worded by the machine, never by the page.
    let refused = |a: &JsValue, kind: &str, field: &str, value: &str| {
        assert_eq!(
            get(a, "answer").as_string().as_deref(),
            Some("refused"),
            "{}",
            shown(a)
        );
        let refusal = get(a, "refusal");
        assert_eq!(get(&refusal, "kind").as_string().as_deref(), Some(kind));
        let got = get(&refusal, field);
        let got = got
            .as_string()
            .or_else(|| got.as_f64().map(|n| n.to_string()))
            .unwrap_or_default();
        assert_eq!(got, value, "{}", shown(a));
    };
    let prepare = |el: &web_sys::Element, hit: bool| {
        let r = ref_of(el);
        async move { b::prepare(r, hit.into(), 400.0.into()).await.unwrap() }
    };
    // Ready: the point input goes to, the centre of its box.
    let near = query(&c, "#near");
    let a = prepare(&near, true).await;
    assert_eq!(
        get(&a, "answer").as_string().as_deref(),
        Some("prepared"),
        "{:?}",
        js_sys::JSON::stringify(&a)
    );
    let (x, y) = center(&near);
    let point = get(&a, "point");
    assert!((num(&point, "x") - x).abs() < 0.01 && (num(&point, "y") - y).abs() < 0.01);

    // Covered at its point: refused, naming what is on top and where; without a hit test, ready.
    let covered = query(&c, "#covered");
    let r = covered.get_bounding_client_rect();
    let veil = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .create_element("div")
        .unwrap();
    veil.set_attribute("id", "veil").unwrap();
    veil.set_attribute(
        "style",
        &format!(
            "position: fixed; left: {}px; top: {}px; width: 300px; height: 40px; background: #eee",
            r.left() - 5.0,
            r.top() - 5.0
        ),
    )
    .unwrap();
    c.append_child(&veil).unwrap();
    let a = prepare(&covered, true).await;
    refused(&a, "covered", "by", "div#veil");
    let (x, y) = center(&covered);
    let point = get(&get(&a, "refusal"), "point");
    assert!((num(&point, "x") - x).abs() < 0.01 && (num(&point, "y") - y).abs() < 0.01);
    assert_eq!(
        get(&prepare(&covered, false).await, "answer")
            .as_string()
            .as_deref(),
        Some("prepared")
    );

    // Moving on every frame until the deadline: TARGET_NOT_STABLE, nothing moved by prepare.
    let moving = query(&c, "#moving");
    let step = Closure::<dyn FnMut()>::new({
        let moving = moving.clone();
        let mut n = 0;
        move || {
            n += 7;
            let _ =
                moving.set_attribute("style", &format!("position: relative; left: {}px", n % 200));
        }
    });
    let window = web_sys::window().unwrap();
    let timer = window
        .set_interval_with_callback_and_timeout_and_arguments_0(step.as_ref().unchecked_ref(), 10)
        .unwrap();
    // It has moved (a page quiet for two frames holds still and is prepared at once).
    sleep(50).await;
    let a = prepare(&moving, true).await;
    window.clear_interval_with_handle(timer);
    refused(&a, "keptMoving", "timeoutMs", "400");

    // Out of view: scrolled there, and ready on the next prepare.
    let far = query(&c, "#far");
    assert_eq!(
        get(&prepare(&far, true).await, "answer")
            .as_string()
            .as_deref(),
        Some("scrolled")
    );
    assert_eq!(
        get(&prepare(&far, true).await, "answer")
            .as_string()
            .as_deref(),
        Some("prepared")
    );
    web_sys::window().unwrap().scroll_to_with_x_and_y(0.0, 0.0);

    // A ref of no element: a failed answer with the typed code, not a throw; a ref that is
    // not a string: a rejected promise with INVALID_ARGUMENT.
    let a = b::prepare("e999999-zz99".into(), true.into(), 400.0.into())
        .await
        .unwrap();
    assert_eq!(
        get(&get(&a, "error"), "code").as_string().as_deref(),
        Some("STALE_REFERENCE")
    );
    let err = b::prepare(JsValue::from_f64(1.0), true.into(), 400.0.into())
        .await
        .unwrap_err();
    assert_eq!(code_of(&err), "INVALID_ARGUMENT");
}

const HIDDEN_CONTROLS: &str = include_str!("../fixtures/actionability/hidden-controls.html");

#[wasm_bindgen_test]
async fn a_visually_hidden_input_is_prepared_at_its_label() {
    let c = load(HIDDEN_CONTROLS);
    web_sys::window().unwrap().scroll_to_with_x_and_y(0.0, 0.0);
    let prepare = |el: &web_sys::Element| {
        let r = ref_of(el);
        async move { b::prepare(r, true.into(), 400.0.into()).await.unwrap() }
    };
    let inputs = query_all(&c, "input");
    let (insurance, aisle, offset) = (&inputs[0], &inputs[2], &inputs[3]);
    // The input's own point is clipped away: the page's hit test lands on the section.
    let (x, y) = center(insurance);
    assert!(b::hit_test(ref_of(insurance), x.into(), y.into())
        .unwrap()
        .as_string()
        .is_some_and(|by| by.starts_with("section")));
    // Its label is in view and reaches it: input goes to the label's point.
    for input in [insurance, aisle] {
        let label = input.closest("label").unwrap().unwrap();
        let a = prepare(input).await;
        assert_eq!(
            get(&a, "answer").as_string().as_deref(),
            Some("prepared"),
            "{:?}",
            js_sys::JSON::stringify(&a)
        );
        let point = get(&a, "point");
        let (lx, ly) = center(&label);
        assert!(
            (num(&point, "x") - lx).abs() < 0.01 && (num(&point, "y") - ly).abs() < 0.01,
            "the label's centre ({lx}, {ly}): {:?}",
            js_sys::JSON::stringify(&point)
        );
        let found: web_sys::Element = b::label_in_reach(ref_of(input)).unwrap();
        assert_eq!(found, label);
    }
    // Under a veil, the label is covered too: refused, naming the veil.
    let a = prepare(offset).await;
    assert_eq!(
        get(&a, "answer").as_string().as_deref(),
        Some("refused"),
        "{:?}",
        js_sys::JSON::stringify(&a)
    );
    let refusal = get(&a, "refusal");
    assert_eq!(
        get(&refusal, "kind").as_string().as_deref(),
        Some("covered")
    );
    assert_eq!(get(&refusal, "by").as_string().as_deref(), Some("div#veil"));
    let err = b::label_in_reach(ref_of(offset)).unwrap_err();
    assert_eq!(code_of(&err), "TARGET_OBSCURED");
    // A control without a label is not reached through anything else.
    let label = offset.closest("label").unwrap().unwrap();
    let bare = offset.clone();
    label
        .parent_node()
        .unwrap()
        .insert_before(&bare, Some(&label))
        .unwrap();
    label.remove();
    query(&c, "#veil").remove();
    let a = prepare(&bare).await;
    assert_eq!(
        get(&get(&a, "refusal"), "kind").as_string().as_deref(),
        Some("covered"),
        "{:?}",
        js_sys::JSON::stringify(&a)
    );
    // The button inside a web component, covered only by its own slotted text, is ready at
    // its own centre.
    let button = query(&c, "#all-off")
        .shadow_root()
        .unwrap()
        .query_selector("button")
        .unwrap()
        .unwrap();
    let a = prepare(&button).await;
    assert_eq!(
        get(&a, "answer").as_string().as_deref(),
        Some("prepared"),
        "{:?}",
        js_sys::JSON::stringify(&a)
    );
    let (bx, by) = center(&button);
    let point = get(&a, "point");
    assert!((num(&point, "x") - bx).abs() < 0.01 && (num(&point, "y") - by).abs() < 0.01);
}

#[wasm_bindgen_test]
async fn boxes_of_frame_elements_are_in_the_top_viewport() {
    let c = load(
        r#"<iframe id="fr" style="border: 3px solid; padding: 7px 11px; margin-left: 20px; width: 300px; height: 120px"
        srcdoc="<body style='margin: 4px'><button id=inner>Inner</button></body>"></iframe>"#,
    );
    frames_loaded(&c).await;
    let frame: web_sys::HtmlIFrameElement = query(&c, "#fr").unchecked_into();
    let inner = frame
        .content_document()
        .unwrap()
        .get_element_by_id("inner")
        .unwrap();
    let b = b::bounds(ref_of(&inner)).unwrap();
    let f = frame.get_bounding_client_rect();
    let i = inner.get_bounding_client_rect();
    assert!((num(&b, "x") - (f.left() + 3.0 + 11.0 + i.left())).abs() < 0.01);
    assert!((num(&b, "y") - (f.top() + 3.0 + 7.0 + i.top())).abs() < 0.01);
    let p = get(&b, "point");
    assert!(b::hit_test(ref_of(&inner), get(&p, "x"), get(&p, "y"))
        .unwrap()
        .is_null());
    let under = b::at(get(&p, "x"), get(&p, "y")).unwrap();
    assert_eq!(get(&under, "name").as_string().as_deref(), Some("Inner"));
}

#[wasm_bindgen_test]
fn fields_selects_and_destinations() {
    let c = load(
        r#"<main>
      <form id="f" action="/search" method="post" aria-label="Search">
        <input id="q" aria-label="Query" value="shoes">
        <div id="ed" contenteditable="true" role="textbox" aria-label="Notes">old notes</div>
        <select id="size" aria-label="Size"
          oninput="this.dataset.inputs = (+this.dataset.inputs || 0) + 1"
          onchange="this.dataset.changes = (+this.dataset.changes || 0) + 1">
          <option value="s">Small</option><option value="m">  Medium  </option><option value="l" disabled>Large</option>
        </select>
        <button id="go">Go</button>
        <button id="alt" formaction="/other" formmethod="GET">Alt</button>
      </form>
      <a id="link" href="/shop.html#top">Shop</a>
      <button id="lone">Lone</button>
    </main>"#,
    );
    let r = |sel: &str| ref_of(&query(&c, sel));
    let eval = |code: &str| js_sys::eval(code).unwrap();

    assert_eq!(
        b::value(r("#q")).unwrap().as_string().as_deref(),
        Some("shoes")
    );
    assert_eq!(
        b::value(r("#ed")).unwrap().as_string().as_deref(),
        Some("old notes")
    );
    assert!(b::value(r("#link")).unwrap().is_null());

    assert!(b::focus_select(r("#q")).unwrap());
    let q: web_sys::HtmlInputElement = query(&c, "#q").unchecked_into();
    assert_eq!(
        (q.selection_start().unwrap(), q.selection_end().unwrap()),
        (Some(0), Some(5))
    );
    assert!(b::focus_select(r("#ed")).unwrap());
    assert_eq!(
        eval("getSelection().toString()").as_string().as_deref(),
        Some("old notes")
    );

    let size = query(&c, "#size");
    assert_eq!(b::select(r("#size"), "medium".into()).unwrap(), "s");
    assert_eq!(
        eval("document.getElementById('size').value")
            .as_string()
            .as_deref(),
        Some("m")
    );
    assert_eq!(size.get_attribute("data-inputs").as_deref(), Some("1"));
    assert_eq!(size.get_attribute("data-changes").as_deref(), Some("1"));
    assert_eq!(b::select(r("#size"), "s".into()).unwrap(), "m");
    let disabled = b::select(r("#size"), "Large".into()).unwrap_err();
    assert_eq!(code_of(&disabled), "TARGET_DISABLED");
    let missing = b::select(r("#size"), "XL".into()).unwrap_err();
    assert_eq!(code_of(&missing), "TARGET_NOT_FOUND");
    let message = get(&missing, "message").as_string().unwrap();
    assert!(message.contains("Small, Medium, Large"), "{message}");
    assert_eq!(
        code_of(&b::select(r("#q"), "x".into()).unwrap_err()),
        "INVALID_ACTION"
    );
    assert_eq!(
        code_of(&b::select(r("#size"), 3.into()).unwrap_err()),
        "INVALID_ARGUMENT"
    );
    b::restore(r("#size"), "m".into()).unwrap();
    assert_eq!(
        eval("document.getElementById('size').value")
            .as_string()
            .as_deref(),
        Some("m")
    );
    assert_eq!(size.get_attribute("data-changes").as_deref(), Some("3"));

    let destination = |sel: &str| value(&b::destination(r(sel)).unwrap());
    let origin = eval("location.origin").as_string().unwrap();
    assert_eq!(
        destination("#link"),
        json!({ "kind": "link", "url": format!("{origin}/shop.html#top"), "method": "" })
    );
    assert_eq!(
        destination("#go"),
        json!({ "kind": "form", "url": format!("{origin}/search"), "method": "post" })
    );
    assert_eq!(
        destination("#alt"),
        json!({ "kind": "form", "url": format!("{origin}/other"), "method": "get" })
    );
    assert_eq!(destination("#q")["url"], json!(format!("{origin}/search")));
    assert_eq!(destination("#lone"), Value::Null);
}

/// `snapshot({ wire: true, base })` on a live page: a delta while the engine keeps the base,
/// which `core::wire_delta::apply` turns into the full answer's snapshot; the full form for a
/// base it does not keep; a typed field's value in neither.
#[wasm_bindgen_test]
fn a_wire_delta_is_the_full_answer() {
    use prufe::core::wire::decode;
    use prufe::core::wire_delta::{apply, id_of};
    let root = load(SHOP);
    let wire = |base: Option<&str>| -> String {
        let mut o = json!({ "wire": true, "sensitive": ["input:not([type])"] });
        if let Some(base) = base {
            o["base"] = json!(base);
        }
        b::snapshot(js(o)).unwrap().as_string().unwrap()
    };
    let same_call = |mut s: Snapshot| {
        s.context.snapshot.clear();
        s
    };
    let mut held = decode(&wire(None)).unwrap();
    let cart = query(&root, "#cart");
    let changes: Vec<Box<dyn Fn()>> = vec![
        Box::new(|| cart.set_inner_html("<li>Shirt M – 1 × 20 €</li>")),
        Box::new(|| query(&root, "#add").set_text_content(Some("Add Shirt L"))),
        Box::new(|| {
            let email: web_sys::HtmlInputElement =
                query(&root, "input[aria-label=Email]").unchecked_into();
            email.set_value("grace@example.com");
        }),
        Box::new(|| cart.set_inner_html("")),
    ];
    for (i, change) in changes.iter().enumerate() {
        change();
        let delta = wire(Some(&id_of(&held.context)));
        let full = decode(&wire(None)).unwrap();
        assert!(delta.contains("\"base\":"), "change {i}: {delta}");
        assert!(delta.len() * 2 < serde_json::to_string(&full).unwrap().len() / 4);
        for secret in ["grace@example.com", "s3cret-pass!"] {
            assert!(!delta.contains(secret), "change {i}: {delta}");
        }
        let applied = apply(&held, &delta).unwrap();
        assert_eq!(same_call(applied.clone()), same_call(full), "change {i}");
        held = applied;
    }
    let unknown = wire(Some("1-s1"));
    assert!(!unknown.contains("\"base\":"), "{unknown}");
    assert_eq!(
        code_of(&b::snapshot(js(json!({ "base": "1-s1" }))).unwrap_err()),
        "INVALID_OPTIONS"
    );
}
