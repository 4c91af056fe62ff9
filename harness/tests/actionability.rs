//! Actionability where the target must first come into view: 3,000 px down a long page,
//! below the fold of a scrolled inner container, below the fold of a scrolled iframe (of the
//! same origin and of another); at
//! device scale factors 1 and 2 and under a CSS zoom. Every click must be MATCH and land on
//! the target: the pages record which button each click reached (`window.clicks`).

mod common;

use common::{target, texts, Session};
use prufe_harness::coords::{Executor, Shot};
use prufe_harness::executor::{Button, Point, Request};
use prufe_harness::inject::send;
use prufe_harness::{Options, Verdict, Verifier};
use serde_json::{json, Value};
use std::time::Instant;

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

/// What the page recorded as clicked, in order.
async fn clicks(v: &Verifier) -> Vec<String> {
    serde_json::from_value(eval(v, "window.clicks").await).expect("window.clicks")
}

async fn emulate(v: &Verifier, scale: f64) {
    send(
        v.page(),
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 800, "height": 600, "deviceScaleFactor": scale, "mobile": false }),
    )
    .await
    .expect("device metrics override");
    let dpr = eval(v, "window.devicePixelRatio").await.as_f64();
    assert_eq!(dpr, Some(scale), "the emulated scale factor holds");
}

/// The pages and the button to click on each.
const CASES: &[(&str, &str)] = &[
    ("actionability/long.html", "Book Far"),
    ("actionability/inner.html", "Book Seat 37"),
    ("actionability/frame.html", "Book Far"),
    ("actionability/frame.html?x=1", "Book Far"),
    ("actionability/long.html?zoom=1.5", "Book Far"),
    ("actionability/inner.html?zoom=1.5", "Book Seat 37"),
];

#[tokio::test]
async fn targets_out_of_view_are_scrolled_clicked_and_judged() {
    let mut s = Session::start(Options::default()).await;
    let mut report = Vec::new();
    for scale in [1.0, 2.0] {
        emulate(&s.v, scale).await;
        for (page, name) in CASES {
            let url = s.url(page);
            s.v.open(&url).await.expect("opens");
            let before = texts(&s.snapshot().await);
            assert!(
                !before.iter().any(|t| t.ends_with(": done")),
                "{page}: nothing clicked yet"
            );
            let started = Instant::now();
            let o = s.v.click(target("button", name), None).await;
            let took = started.elapsed();
            let o = o.unwrap_or_else(|e| panic!("{page} at DSF {scale}: {e}\n{}", e.explain()));
            assert_eq!(
                o.verdict,
                Some(Verdict::Match),
                "{page} at DSF {scale}: {}",
                o.explain()
            );
            assert!(o.ok && o.attempts == 1 && o.undone == 0, "{}", o.explain());
            // A cross-origin frame cannot tell the top page; its status line says it.
            let want: Vec<String> = if page.contains("x=1") {
                Vec::new()
            } else {
                vec![name.to_string()]
            };
            assert_eq!(
                clicks(&s.v).await,
                want,
                "{page} at DSF {scale}: the click landed on the target, once"
            );
            let after = texts(&s.snapshot().await);
            assert!(
                after.iter().any(|t| *t == format!("{name}: done")),
                "{page} at DSF {scale}: {after:?}"
            );
            report.push(format!(
                "{page} DSF {scale}: MATCH in {} ms",
                took.as_millis()
            ));
        }
    }
    println!("{}", report.join("\n"));
    s.close().await;
}

/// The coordinate executor has its own hit test and scroll: after the page scrolled 3,000
/// px, a point on the image is still the element the image shows there.
#[tokio::test]
async fn coordinate_clicks_below_the_fold_land_on_the_target() {
    let mut s = Session::start(Options::default()).await;
    for scale in [1.0, 2.0] {
        emulate(&s.v, scale).await;
        for zoom in ["", "?zoom=1.5"] {
            let url = s.url(&format!("actionability/long.html{zoom}"));
            s.v.open(&url).await.expect("opens");
            eval(
                &s.v,
                "(() => { const b = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Book Far'); \
                 b.scrollIntoView({ block: 'center' }); return window.scrollY; })()",
            )
            .await;
            let mut e = Executor::new(&s.v);
            let shot: Shot = e
                .run(
                    &mut s.v,
                    &Request::screenshot(Some(640.0)).expect("a screenshot"),
                )
                .await
                .unwrap_or_else(|f| panic!("{f}"))
                .observation
                .expect("a screenshot");
            let c = eval(
                &s.v,
                "(() => { const b = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Book Far'); \
                 const r = b.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()",
            )
            .await;
            let k = shot.device_pixel_ratio * shot.width / shot.capture_width;
            let (x, y) = (
                (c[0].as_f64().unwrap() * k).round(),
                (c[1].as_f64().unwrap() * k).round(),
            );
            let r = e
                .run(
                    &mut s.v,
                    &Request::click_at(Point { x, y }, shot.id.clone(), Button::Left, None)
                        .expect("a click"),
                )
                .await
                .unwrap_or_else(|f| panic!("DSF {scale}{zoom}: {f}"));
            let o = r.outcome.expect("a judged click");
            assert_eq!(
                o.verdict,
                Some(Verdict::Match),
                "DSF {scale}{zoom}: {}",
                o.explain()
            );
            assert_eq!(
                o.target.as_deref(),
                Some("button[Book Far] in region[Seats]"),
                "DSF {scale}{zoom}"
            );
            assert_eq!(clicks(&s.v).await, ["Book Far"], "DSF {scale}{zoom}");
        }
    }
    s.close().await;
}
