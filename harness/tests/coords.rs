//! The coordinate executor in real headless Chromium, over `fixtures/`.

mod common;

use common::{Servers, Session};
use prufe::core::error::ErrorCode;
use prufe_harness::coords::{Executor, Failure, Report, Shot};
use prufe_harness::executor::parse_shape;
use prufe_harness::inject::send;
use prufe_harness::{Options, Verdict, Verifier};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// Evaluates `expression` in the page's own world.
async fn eval(v: &Verifier, expression: &str) -> Value {
    let r = send(
        v.page(),
        "Runtime.evaluate",
        json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
    )
    .await
    .expect("evaluate");
    assert!(r.get("exceptionDetails").is_none(), "{expression}: {r}");
    r["result"]["value"].clone()
}

/// Polls `expression` until it is truthy.
async fn until(v: &Verifier, expression: &str) {
    for _ in 0..200 {
        if eval(v, expression).await.as_bool() == Some(true) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{expression} never held");
}

/// The centre of `selector`'s box, in the pixels of the image `shot`.
async fn centre(v: &Verifier, selector: &str, shot: &Shot) -> (f64, f64) {
    let c = eval(
        v,
        &format!("(() => {{ const r = document.querySelector({selector:?}).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"),
    )
    .await;
    to_image(&c, (0.0, 0.0), shot)
}

/// A CSS point `[x, y]` (plus `offset`) in the pixels of the image `shot`.
fn to_image(css: &Value, offset: (f64, f64), shot: &Shot) -> (f64, f64) {
    // CSS pixels → device pixels → image pixels.
    let k = shot.device_pixel_ratio * shot.width / shot.capture_width;
    (
        ((css[0].as_f64().unwrap() + offset.0) * k).round(),
        ((css[1].as_f64().unwrap() + offset.1) * k).round(),
    )
}

/// The centre of `selector` inside the document of the page's first child frame (of any
/// origin), in top-viewport CSS pixels.
async fn centre_in_frame(v: &Verifier, selector: &str, shot: &Shot) -> (f64, f64) {
    let tree = send(v.page(), "Page.getFrameTree", json!({}))
        .await
        .expect("frame tree");
    let frame = tree["frameTree"]["childFrames"][0]["frame"]["id"]
        .as_str()
        .expect("a child frame")
        .to_owned();
    let world = send(
        v.page(),
        "Page.createIsolatedWorld",
        json!({ "frameId": frame, "worldName": "coords-test" }),
    )
    .await
    .expect("a world");
    let expression = format!(
        "(() => {{ const r = document.querySelector({selector:?}).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
    );
    let inner = send(
        v.page(),
        "Runtime.evaluate",
        json!({ "expression": expression, "contextId": world["executionContextId"], "returnByValue": true }),
    )
    .await
    .expect("evaluate in the frame");
    let frame_box = eval(
        v,
        "(() => { const f = document.querySelector('iframe'); const r = f.getBoundingClientRect(); return [r.left + f.clientLeft, r.top + f.clientTop]; })()",
    )
    .await;
    to_image(
        &inner["result"]["value"],
        (
            frame_box[0].as_f64().unwrap(),
            frame_box[1].as_f64().unwrap(),
        ),
        shot,
    )
}

/// Runs a step as a script gives it: read (its shape refused before anything is sent), then
/// run.
async fn run(e: &mut Executor, v: &mut Verifier, step: Value) -> Result<Report, Failure> {
    let request = parse_shape(&step).map_err(Failure::from)?;
    e.run(v, &request).await
}

async fn screenshot(e: &mut Executor, v: &mut Verifier, step: Value) -> Shot {
    run(e, v, step)
        .await
        .expect("screenshot")
        .observation
        .expect("a screenshot returns its observation")
}

fn fail(r: Result<Report, Failure>) -> Failure {
    match r {
        Ok(report) => panic!(
            "expected a failure, got {}",
            serde_json::to_string_pretty(&report).unwrap()
        ),
        Err(f) => f,
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s.as_str().map(str::to_owned))
        .collect()
}

// --- Validation happens before any input. ---

#[tokio::test]
async fn out_of_bounds_point_is_refused_before_any_input() {
    let mut s = Session::open("cookie-banner.html").await;
    let mut e = Executor::new(&s.v);
    let shot = screenshot(
        &mut e,
        &mut s.v,
        json!({"action":"screenshot","maxWidth":640}),
    )
    .await;
    assert_eq!((shot.id.as_str(), shot.width), ("obs-1", 640.0));
    assert!(!shot.png_base64.is_empty());
    for x in [700.0, 640.0, -1.0] {
        let f = fail(
            run(
                &mut e,
                &mut s.v,
                json!({"action":"click_at","x":x,"y":100,"observation":"obs-1"}),
            )
            .await,
        );
        assert_eq!(f.code(), ErrorCode::PointOutOfBounds, "{x}: {f}");
        assert!(
            f.to_string().contains("640×"),
            "the message gives the image size: {f}"
        );
        assert!(
            f.released.is_none() && f.observation.is_none(),
            "nothing was sent, nothing observed"
        );
    }
    let f = fail(
        run(&mut e, &mut s.v, json!({"action":"drag_at","from":{"x":10,"y":10},"to":{"x":10,"y":shot.height},"observation":"obs-1"})).await,
    );
    assert_eq!(f.code(), ErrorCode::PointOutOfBounds);
    // No mouse event reached the page: its first mousemove would have armed the banner.
    assert_eq!(
        eval(&s.v, "document.body.dataset.banner === undefined").await,
        json!(true)
    );
    assert_eq!(
        eval(&s.v, "document.getElementById('status').textContent").await,
        json!("")
    );
    assert_eq!(
        e.latest().map(|o| o.id.as_str()),
        Some("obs-1"),
        "a refused point leaves the observation quotable"
    );
    s.close().await;
}

#[tokio::test]
async fn stale_observation_is_refused_before_any_input() {
    let mut s = Session::open("cookie-banner.html").await;
    let mut e = Executor::new(&s.v);
    let first = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    let second = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    assert_eq!((first.id.as_str(), second.id.as_str()), ("obs-1", "obs-2"));
    let (x, y) = centre(&s.v, "#save", &first).await;
    let f = fail(
        run(
            &mut e,
            &mut s.v,
            json!({"action":"click_at","x":x,"y":y,"observation":"obs-1"}),
        )
        .await,
    );
    assert_eq!(f.code(), ErrorCode::StaleObservation, "{f}");
    assert!(f.to_string().contains("obs-2"), "{f}");
    let f = fail(
        run(
            &mut e,
            &mut s.v,
            json!({"action":"click_at","x":x,"y":y,"observation":"obs-9"}),
        )
        .await,
    );
    assert_eq!(f.code(), ErrorCode::StaleObservation);
    let f = fail(
        run(
            &mut e,
            &mut s.v,
            json!({"action":"click_at","x":x,"y":y,"observation":"obs-2","shell":"rm -rf /"}),
        )
        .await,
    );
    assert_eq!(f.code(), ErrorCode::InvalidFields);
    assert_eq!(
        eval(&s.v, "document.body.dataset.banner === undefined").await,
        json!(true),
        "no input was sent"
    );
    assert_eq!(
        eval(&s.v, "document.getElementById('status').textContent").await,
        json!("")
    );
    s.close().await;
}

// --- The point's identity is checked right before input. ---

#[tokio::test]
async fn cookie_banner_over_the_target_stops_with_target_changed() {
    let mut s = Session::open("cookie-banner.html").await;
    let mut e = Executor::new(&s.v);
    let shot = screenshot(
        &mut e,
        &mut s.v,
        json!({"action":"screenshot","maxWidth":640}),
    )
    .await;
    let (x, y) = centre(&s.v, "#save", &shot).await;
    // Between the screenshot and the click, the banner slides over Save.
    eval(&s.v, "window.armBanner()").await;
    until(&s.v, "document.body.dataset.banner === 'shown'").await;
    let f = fail(
        run(
            &mut e,
            &mut s.v,
            json!({"action":"click_at","x":x,"y":y,"observation":shot.id}),
        )
        .await,
    );
    assert_eq!(f.code(), ErrorCode::TargetChanged, "{f}");
    let m = f.to_string();
    assert!(
        m.contains("button[Accept all]")
            && m.contains("button[Save]")
            && m.contains("nothing was clicked"),
        "{m}"
    );
    assert_eq!(f.released, Some(true));
    // Nothing was clicked: neither Save nor Accept all.
    assert_eq!(
        eval(&s.v, "document.getElementById('status').textContent").await,
        json!("")
    );
    assert_eq!(
        eval(&s.v, "!!document.getElementById('banner')").await,
        json!(true)
    );
    // A fresh observation comes with the refusal; the old one is stale now.
    let fresh = f.observation.expect("a fresh observation");
    assert_eq!(fresh.id, "obs-2");
    let f = fail(
        run(
            &mut e,
            &mut s.v,
            json!({"action":"click_at","x":x,"y":y,"observation":"obs-1"}),
        )
        .await,
    );
    assert_eq!(f.code(), ErrorCode::StaleObservation);
    s.close().await;
}

#[tokio::test]
async fn click_at_is_verified_at_a_device_pixel_ratio_of_two() {
    let mut s = Session::open("shop.html").await;
    send(
        s.v.page(),
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 1000, "height": 700, "deviceScaleFactor": 2, "mobile": false }),
    )
    .await
    .expect("emulation");
    let dir = tempfile::tempdir().unwrap();
    let mut e = Executor::new(&s.v).with_screenshot_dir(dir.path());
    // Full size: the image is the capture, twice the CSS viewport.
    let full = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    assert_eq!(
        (full.width, full.height, full.device_pixel_ratio),
        (2000.0, 1400.0, 2.0)
    );
    // Saved as obs-1.png, a PNG of exactly the reported size.
    let path = full
        .path
        .clone()
        .expect("saved to the screenshot directory");
    assert_eq!(path, dir.path().join("obs-1.png"));
    assert!(
        full.png_base64.is_empty(),
        "a saved image is not returned inline too"
    );
    let png = std::fs::read(&path).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let be = |i: usize| u32::from_be_bytes([png[i], png[i + 1], png[i + 2], png[i + 3]]);
    assert_eq!((be(16), be(20)), (2000, 1400));
    // Downscaled to CSS size: image points are CSS points.
    let shot = screenshot(
        &mut e,
        &mut s.v,
        json!({"action":"screenshot","maxWidth":1000}),
    )
    .await;
    assert_eq!(
        (shot.width, shot.height, shot.capture_width),
        (1000.0, 700.0, 2000.0)
    );
    let selector = "#catalogue li:nth-child(1) button";
    assert_eq!(
        eval(
            &s.v,
            &format!("document.querySelector({selector:?}).textContent")
        )
        .await,
        json!("Add Shirt M")
    );
    let (x, y) = centre(&s.v, selector, &shot).await;
    let r = run(
        &mut e,
        &mut s.v,
        json!({"action":"click_at","x":x,"y":y,"observation":shot.id}),
    )
    .await
    .unwrap_or_else(|f| panic!("{f}"));
    let o = r.outcome.as_ref().unwrap();
    assert_eq!(o.verdict, Some(Verdict::Match), "{}", o.explain());
    assert!(
        o.target
            .as_deref()
            .unwrap_or("")
            .starts_with("button[Add Shirt M]"),
        "{:?}",
        o.target
    );
    assert!(
        o.lines
            .iter()
            .any(|l| l.starts_with("appeared") && l.contains("Shirt M") && l.contains("cart")),
        "{:?}",
        o.lines
    );
    assert_eq!(
        eval(&s.v, "document.querySelectorAll('#cart-items li').length").await,
        json!(1)
    );
    assert_eq!(r.released, Some(true));
    assert_eq!(r.observation.as_ref().map(|o| o.id.as_str()), Some("obs-3"));
    s.close().await;
}

#[tokio::test]
async fn a_row_recycled_after_the_screenshot_stops_with_target_changed() {
    let mut s = Session::open("recycled-list.html").await;
    let mut e = Executor::new(&s.v);
    let shot = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    let (x, y) = centre(&s.v, "ul.rows li:nth-child(1) button", &shot).await;
    assert_eq!(
        eval(
            &s.v,
            "document.querySelector('ul.rows li:nth-child(1) button').textContent"
        )
        .await,
        json!("Add Shirt M")
    );
    // The list re-renders its rows shifted by one: the same node now shows Trousers L.
    eval(&s.v, "document.querySelector('ul.rows').dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }))").await;
    let f = fail(
        run(
            &mut e,
            &mut s.v,
            json!({"action":"click_at","x":x,"y":y,"observation":shot.id}),
        )
        .await,
    );
    assert_eq!(f.code(), ErrorCode::TargetChanged, "{f}");
    assert!(
        f.to_string().contains("button[Add Trousers L]")
            && f.to_string().contains("button[Add Shirt M]"),
        "{f}"
    );
    assert_eq!(
        eval(&s.v, "document.querySelectorAll('#cart-items li').length").await,
        json!(0),
        "nothing was added"
    );
    s.close().await;
}

#[tokio::test]
async fn a_row_recycled_by_the_press_is_judged_undone_and_not_retried_blind() {
    // The list recycles its rows on pointerdown: the press itself lands on Trousers L.
    let mut s = Session::open("recycled-list.html").await;
    let mut e = Executor::new(&s.v);
    let shot = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    let (x, y) = centre(&s.v, "ul.rows li:nth-child(1) button", &shot).await;
    let f = fail(
        run(
            &mut e,
            &mut s.v,
            json!({"action":"click_at","x":x,"y":y,"observation":shot.id}),
        )
        .await,
    );
    assert_eq!(f.code(), ErrorCode::VerificationFailed, "{f}");
    let o = f.error.outcome().expect("the judged click");
    assert_eq!(o.verdict, Some(Verdict::Mismatch), "{}", o.explain());
    assert!(o.reason.contains("Trousers L"), "{}", o.reason);
    assert_eq!(o.undone, 1, "{}", o.explain());
    // The retry found the point showing another row and did not click it.
    assert!(
        o.reason.contains("not retried") && o.reason.contains("TARGET_CHANGED"),
        "{}",
        o.reason
    );
    assert_eq!(
        eval(&s.v, "document.querySelectorAll('#cart-items li').length").await,
        json!(0),
        "the wrong item was removed"
    );
    assert_eq!(f.released, Some(true));
    s.close().await;
}

/// Clicks at an image point of the latest observation and expects a MATCH on `target`.
async fn click_at_matches(
    e: &mut Executor,
    s: &mut Session,
    (x, y): (f64, f64),
    observation: &str,
    target: &str,
) {
    let r = run(
        e,
        &mut s.v,
        json!({"action":"click_at","x":x,"y":y,"observation":observation}),
    )
    .await
    .unwrap_or_else(|f| panic!("{f}"));
    let o = r.outcome.unwrap();
    assert_eq!(o.verdict, Some(Verdict::Match), "{}", o.explain());
    assert_eq!(o.target.as_deref(), Some(target));
}

#[tokio::test]
async fn points_inside_shadow_roots_and_frames_have_their_identity() {
    // An open shadow root.
    let mut s = Session::open("shadow.html").await;
    let mut e = Executor::new(&s.v);
    let shot = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    let c = eval(
        &s.v,
        "(() => { const r = document.querySelector('shop-widget').shadowRoot.getElementById('add').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()",
    )
    .await;
    let (x, y) = to_image(&c, (0.0, 0.0), &shot);
    click_at_matches(
        &mut e,
        &mut s,
        (x, y),
        &shot.id,
        "button[Add Shirt M] in region[Product]",
    )
    .await;
    s.close().await;

    // A same-origin frame: the region carries the frame's position.
    let mut s = Session::open("iframe-payment.html").await;
    let mut e = Executor::new(&s.v);
    let shot = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    let (x, y) = centre_in_frame(&s.v, "button[type=submit]", &shot).await;
    click_at_matches(
        &mut e,
        &mut s,
        (x, y),
        &shot.id,
        "button[Pay] in frame[0]/form[Payment]",
    )
    .await;
    s.close().await;

    // A cross-origin frame: asked in its own world, through its <iframe>'s box.
    let mut s = Session::open("hostile/11-cross-origin-iframe.html").await;
    let mut e = Executor::new(&s.v);
    let shot = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    let (x, y) = centre_in_frame(&s.v, "button[type=submit]", &shot).await;
    click_at_matches(
        &mut e,
        &mut s,
        (x, y),
        &shot.id,
        "button[Pay] in frame[0]/form[Card]",
    )
    .await;
    s.close().await;
}

#[tokio::test]
async fn an_unchanged_page_never_reads_as_changed() {
    // The identity under a point is recorded from hit boxes and re-read with prufe.at: on a
    // page that did not change, the two must agree everywhere (no false TARGET_CHANGED).
    for page in [
        "shop.html",
        "shadow.html",
        "iframe-payment.html",
        "drag-invalid.html",
        "scroll-container.html",
    ] {
        let mut s = Session::open(page).await;
        let mut e = Executor::new(&s.v);
        let shot = screenshot(
            &mut e,
            &mut s.v,
            json!({"action":"screenshot","maxWidth":800}),
        )
        .await;
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..16 {
            for j in 0..12 {
                let (x, y) = (
                    (i as f64 + 0.5) * shot.width / 16.0,
                    (j as f64 + 0.5) * shot.height / 12.0,
                );
                match e.probe(&mut s.v, x.floor(), y.floor()).await {
                    Ok(el) => {
                        seen.insert(el.map(|el| el.label().to_owned()));
                    }
                    Err(f) => panic!("{page} ({x}, {y}): {f}"),
                }
            }
        }
        assert!(
            seen.len() >= 3,
            "{page}: the grid met several elements: {seen:?}"
        );
        assert_eq!(
            e.latest().map(|o| o.id.as_str()),
            Some("obs-1"),
            "probing sends nothing and keeps the observation"
        );
        let f = e.probe(&mut s.v, shot.width + 1.0, 1.0).await.unwrap_err();
        assert_eq!(f.code(), ErrorCode::PointOutOfBounds);
        s.close().await;
    }
}

// --- Drags release what they hold. ---

#[tokio::test]
async fn drag_whose_destination_vanishes_is_released_and_reported() {
    let mut s = Session::open("drag-invalid.html").await;
    let mut e = Executor::new(&s.v);
    let shot = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    let (fx, fy) = centre(&s.v, "#card-a", &shot).await;
    let (tx, ty) = centre(&s.v, "#sprint", &shot).await;
    let f = fail(
        run(&mut e, &mut s.v, json!({"action":"drag_at","from":{"x":fx,"y":fy},"to":{"x":tx,"y":ty},"observation":shot.id,"steps":10}))
            .await,
    );
    assert_eq!(f.released, Some(true), "{f}");
    assert_eq!(f.code(), ErrorCode::TargetChanged, "{f}");
    assert!(f.to_string().contains("left the page"), "{f}");
    until(&s.v, "window.dragEvents.includes('pointerup buttons=0')").await;
    let log = strings(&eval(&s.v, "window.dragEvents").await);
    assert_eq!(log[0], "pointerdown Card A", "{log:?}");
    assert!(
        log.contains(&"pointermove 3: destination removed".to_owned()),
        "{log:?}"
    );
    assert!(
        log.contains(&"drop cancelled: no destination".to_owned()),
        "{log:?}"
    );
    assert_eq!(
        log.iter().filter(|l| l.starts_with("pointerup")).count(),
        1,
        "released exactly once: {log:?}"
    );
    assert_eq!(
        eval(&s.v, "!!document.querySelector('#backlog #card-a')").await,
        json!(true),
        "Card A stays in Backlog"
    );
    assert!(e.held().is_empty());
    // The next pointer move is an ordinary one: no button held.
    assert_eq!(
        eval(
            &s.v,
            "window.dragEvents.filter((l) => l.startsWith('pointerup')).length"
        )
        .await,
        json!(1)
    );
    s.close().await;
}

#[tokio::test]
async fn a_cancelled_drag_is_released() {
    let mut s = Session::open("drag-invalid.html").await;
    let mut e = Executor::new(&s.v);
    let shot = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    let (fx, fy) = centre(&s.v, "#card-a", &shot).await;
    let (tx, ty) = centre(&s.v, "#card-b", &shot).await;
    let page = s.v.page().clone();
    let pressed = async {
        loop {
            let r = send(
                &page,
                "Runtime.evaluate",
                json!({ "expression": "window.dragEvents.length > 0", "returnByValue": true }),
            )
            .await;
            if r.is_ok_and(|r| r["result"]["value"] == json!(true)) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    let step = parse_shape(&json!({"action":"drag_at","from":{"x":fx,"y":fy},"to":{"x":tx,"y":ty},"observation":shot.id,"steps":200})).expect("a drag");
    tokio::select! {
        r = e.run(&mut s.v, &step) => panic!("the drag finished before it could be cancelled: {:?}", r.map(|r| r.action)),
        () = pressed => {}
    }
    // The caller dropped the drag with the button down; the ledger's guard releases it.
    until(&s.v, "window.dragEvents.includes('pointerup buttons=0')").await;
    assert!(e.held().is_empty(), "{:?}", e.held());
    assert_eq!(
        eval(&s.v, "!!document.querySelector('#backlog #card-a')").await,
        json!(true)
    );
    // The interrupted step left no quotable observation: choose again on a new one.
    assert!(e.latest().is_none());
    s.close().await;
}

// --- Typing checks focus first and reads the field back. ---

#[tokio::test]
async fn focus_thief_stops_typing_with_focus_lost() {
    let mut s = Session::open("focus-thief.html").await;
    let mut e = Executor::new(&s.v);
    let shot = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    let (x, y) = centre(&s.v, "#search", &shot).await;
    // The click itself lands on Search; the dialog it opens 100 ms later is its unexplained
    // effect, which the verifier reports rather than approves.
    let click = run(
        &mut e,
        &mut s.v,
        json!({"action":"click_at","x":x,"y":y,"observation":shot.id}),
    )
    .await;
    let f = fail(click);
    assert_eq!(f.code(), ErrorCode::IrreversibleAction, "{f}");
    let o = f.error.outcome().expect("the judged click");
    assert_eq!(o.verdict, Some(Verdict::Ambiguous), "{}", o.explain());
    assert!(
        o.lines
            .iter()
            .any(|l| l == "appeared dialog[Newsletter] in dialog[Newsletter]"),
        "{:?}",
        o.lines
    );
    assert!(
        e.intended_field().is_some_and(|f| f.name == "Search"),
        "{:?}",
        e.intended_field()
    );
    until(
        &s.v,
        "document.activeElement && document.activeElement.id === 'nl-email'",
    )
    .await;
    let f = fail(
        run(
            &mut e,
            &mut s.v,
            json!({"action":"type","text":"Jaipur Kites"}),
        )
        .await,
    );
    assert_eq!(f.code(), ErrorCode::FocusLost, "{f}");
    assert!(
        f.to_string().contains("Email") && f.to_string().contains("Search"),
        "{f}"
    );
    assert_eq!(f.released, Some(true));
    // No text reached any field.
    assert_eq!(
        eval(
            &s.v,
            "Array.from(document.querySelectorAll('input')).map((i) => i.value).join('')"
        )
        .await,
        json!("")
    );
    s.close().await;
}

#[tokio::test]
async fn typing_reads_the_field_back_and_hides_secrets() {
    // keys.html logs every click into its event log; that log is not the click's effect.
    let opts = Options {
        ignore_regions: vec!["main/list:log".into()],
        ..Options::default()
    };
    let mut s = Session::open_with("keys.html", opts).await;
    let mut e = Executor::new(&s.v);
    let shot = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    let (x, y) = centre(&s.v, "#text", &shot).await;
    let r = run(
        &mut e,
        &mut s.v,
        json!({"action":"click_at","x":x,"y":y,"observation":shot.id}),
    )
    .await
    .unwrap_or_else(|f| panic!("{f}"));
    let o = r.outcome.unwrap();
    assert_eq!(o.verdict, Some(Verdict::Match), "{}", o.explain());
    assert!(o.reason.contains("focus"), "{}", o.reason);
    let r = run(
        &mut e,
        &mut s.v,
        json!({"action":"type","text":"Jaipur Kites won by 6 wickets."}),
    )
    .await
    .unwrap_or_else(|f| panic!("{f}"));
    let o = r.outcome.unwrap();
    assert!(o.ok && o.verdict == Some(Verdict::Match), "{}", o.explain());
    assert_eq!(
        eval(&s.v, "document.getElementById('text').value").await,
        json!("Jaipur Kites won by 6 wickets.")
    );

    let secret = "hunter22-Lanterns";
    let r = run(
        &mut e,
        &mut s.v,
        json!({"action":"type","text":secret,"sensitive":true}),
    )
    .await
    .unwrap_or_else(|f| panic!("{f}"));
    let printed = serde_json::to_string(&r).unwrap();
    assert!(!printed.contains(secret), "{printed}");
    let o = r.outcome.unwrap();
    assert!(o.ok, "{}", o.explain());
    assert_eq!(o.value.as_deref(), Some("[redacted]"));
    assert!(o.reason.contains("keyed hash"), "{}", o.reason);
    assert_eq!(
        eval(&s.v, "document.getElementById('text').value").await,
        json!(format!("Jaipur Kites won by 6 wickets.{secret}"))
    );
    s.close().await;
}

// --- Key chords leave nothing held. ---

#[tokio::test]
async fn key_chord_leaves_no_modifier_held() {
    let mut s = Session::open("keys.html").await;
    let mut e = Executor::new(&s.v);
    screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    let r = run(
        &mut e,
        &mut s.v,
        json!({"action":"key","chord":"Control+S"}),
    )
    .await
    .unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(r.released, Some(true));
    assert!(e.held().is_empty());
    let shot = r.observation.expect("a fresh observation after the key");
    let log = strings(&eval(&s.v, "window.keyEvents").await);
    assert_eq!(
        log,
        [
            "keydown Control ctrl=true shift=false alt=false meta=false",
            "keydown S ctrl=true shift=false alt=false meta=false",
            "keyup S ctrl=true shift=false alt=false meta=false",
            "keyup Control ctrl=false shift=false alt=false meta=false",
        ],
        "modifiers pressed first, released last"
    );
    // The following click is not a Ctrl+click.
    let (x, y) = centre(&s.v, "#target", &shot).await;
    let r = run(
        &mut e,
        &mut s.v,
        json!({"action":"click_at","x":x,"y":y,"observation":shot.id,"intent":"a click is logged in the event log"}),
    )
    .await
    .unwrap_or_else(|f| panic!("{f}"));
    let o = r.outcome.unwrap();
    assert_eq!(o.verdict, Some(Verdict::Match), "{}", o.explain());
    assert_eq!(o.target.as_deref(), Some("button[Target] in main"));
    let log = strings(&eval(&s.v, "window.keyEvents").await);
    let clicks: Vec<&String> = log.iter().filter(|l| l.starts_with("click")).collect();
    assert_eq!(
        clicks,
        ["click ctrl=false shift=false alt=false meta=false"],
        "{log:?}"
    );
    s.close().await;
}

// --- Scroll goes to the container under the pointer. ---

#[tokio::test]
async fn scroll_goes_to_the_inner_container_not_the_page() {
    let mut s = Session::open("scroll-container.html").await;
    let mut e = Executor::new(&s.v);
    let shot = screenshot(&mut e, &mut s.v, json!({"action":"screenshot"})).await;
    let (x, y) = centre(&s.v, "#scroller", &shot).await;
    // Up from the top: nothing moves, and the record says so without failing.
    let r = run(
        &mut e,
        &mut s.v,
        json!({"action":"scroll_at","x":x,"y":y,"dx":0,"dy":-300,"observation":shot.id}),
    )
    .await
    .unwrap_or_else(|f| panic!("{f}"));
    let o = r
        .outcome
        .as_ref()
        .expect("the machine's record of the scroll");
    assert!(o.ok && o.reason.contains("did not move"), "{}", o.reason);
    assert!(!r.scroll.as_ref().expect("a scroll report").moved);
    let shot = r.observation.expect("observed again after scrolling");
    let r = run(
        &mut e,
        &mut s.v,
        json!({"action":"scroll_at","x":x,"y":y,"dx":0,"dy":300,"observation":shot.id}),
    )
    .await
    .unwrap_or_else(|f| panic!("{f}"));
    let o = r
        .outcome
        .as_ref()
        .expect("the machine's record of the scroll");
    assert!(
        o.ok && o.reason.contains("scrolled from (0, 0) to (0, "),
        "{}",
        o.reason
    );
    let scroll = r.scroll.expect("a scroll report");
    assert!(scroll.moved, "{scroll:?}");
    assert!(scroll.container.contains("scroller"), "{scroll:?}");
    assert!(
        scroll.after.top > 0.0 && scroll.after.page_top == 0.0,
        "{scroll:?}"
    );
    assert!(
        eval(&s.v, "document.getElementById('scroller').scrollTop")
            .await
            .as_f64()
            .unwrap()
            > 0.0
    );
    assert_eq!(eval(&s.v, "window.scrollY").await, json!(0));
    // Observed again after scrolling.
    assert_eq!(r.observation.map(|o| o.id), Some("obs-3".to_owned()));
    s.close().await;
}

// --- Waits poll a postcondition until a deadline. ---

#[tokio::test]
async fn wait_returns_when_the_postcondition_holds_and_reports_it_at_the_deadline() {
    let mut s = Session::open("cookie-banner.html").await;
    let mut e = Executor::new(&s.v);
    // The banner slides in 300 ms after being armed.
    eval(&s.v, "window.armBanner()").await;
    let started = Instant::now();
    let r = run(
        &mut e,
        &mut s.v,
        json!({"action":"wait","until":{"role":"button","name":"Accept all","region":"dialog[Cookie consent]"},"timeoutMs":5000}),
    )
    .await
    .unwrap_or_else(|f| panic!("{f}"));
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(250) && waited < Duration::from_millis(4_000),
        "polled until it held, and returned then: {waited:?}"
    );
    assert_eq!(
        r.condition.as_deref(),
        Some("button[Accept all] appears in dialog[Cookie consent]")
    );
    assert!(r
        .snapshot
        .unwrap()
        .elements
        .iter()
        .any(|el| el.name == "Accept all"));

    let started = Instant::now();
    let f = fail(
        run(
            &mut e,
            &mut s.v,
            json!({"action":"wait","until":{"text":"Saved","region":"main"},"timeoutMs":400}),
        )
        .await,
    );
    let waited = started.elapsed();
    assert_eq!(f.code(), ErrorCode::PostconditionTimeout, "{f}");
    assert!(waited >= Duration::from_millis(400), "{waited:?}");
    assert_eq!(f.condition.as_deref(), Some("text 'Saved' appears in main"));
    let last = f.last.expect("the last observation");
    assert!(
        last.elements.iter().any(|el| el.name == "Accept all"),
        "the last observation is the page at the deadline"
    );
    assert!(f.observation.is_some());
    s.close().await;
}

// --- An attached browser's input state is established first. ---

#[tokio::test]
async fn attached_browser_input_state_is_established_before_the_first_input() {
    common::require_bundle();
    let servers = Servers::start().await;
    let browser = prufe_harness::cdp::Browser::launch(None, true)
        .await
        .expect("Chromium launches");
    let opts = Options {
        connect: Some(browser.endpoint().to_owned()),
        ..Options::default()
    };
    let mut v = Verifier::launch(opts).await.expect("attaches");
    v.open(&servers.url("keys.html")).await.expect("opens");
    let mut e = Executor::new(&v);
    run(&mut e, &mut v, json!({"action":"key","chord":"a"}))
        .await
        .unwrap_or_else(|f| panic!("{f}"));
    let log = strings(&eval(&v, "window.keyEvents").await);
    let first_down = log
        .iter()
        .position(|l| l.starts_with("keydown"))
        .expect("the key was sent");
    for m in ["Shift", "Control", "Alt", "Meta"] {
        let up = log
            .iter()
            .position(|l| l.starts_with(&format!("keyup {m} ")))
            .unwrap_or_else(|| panic!("no keyup {m}: {log:?}"));
        assert!(
            up < first_down,
            "{m} released before the first key: {log:?}"
        );
    }
    // Once established, later steps send nothing extra.
    let before = log.len();
    run(&mut e, &mut v, json!({"action":"key","chord":"b"}))
        .await
        .unwrap_or_else(|f| panic!("{f}"));
    assert_eq!(
        strings(&eval(&v, "window.keyEvents").await).len(),
        before + 2
    );
    v.close().await.expect("detaches");
    browser.close().await.expect("closes");
}
