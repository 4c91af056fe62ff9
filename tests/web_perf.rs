//! Cost of the engine on a generated page of about 3,000 observable elements, next to a plain
//! JS TreeWalker attribute hash over the same page (the page shape of `scripts/bench.mjs`).
//! Meaningful in a release build: `wasm-pack test --release --headless --chrome . --test web_perf`.
//! The assertions are sanity bounds; `make bench` holds the figures.
#![cfg(target_arch = "wasm32")]

mod web_support;

use prufe::core::fingerprint::{diffed, of_snapshot};
use prufe::dom::{self, Options};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;
use web_support::*;

wasm_bindgen_test_configure!(run_in_browser);

fn bench_page(n: usize) -> String {
    let blocks = (n / 10).max(1);
    let landmarks = [
        ("header", ""),
        ("nav", " aria-label=\"Primary\""),
        ("main", ""),
        ("aside", " aria-label=\"Related\""),
        ("footer", ""),
    ];
    let mut parts: Vec<Vec<String>> = vec![Vec::new(); landmarks.len()];
    for i in 0..blocks {
        let share = if i % 10 < 6 { 2 } else { [0, 1, 3, 4][i % 4] };
        parts[share].push(format!(
            "<section aria-label=\"Block {i}\"><h2>Block {i}</h2>\
<ul id=\"list-{i}\"><li>Item {i}.1</li><li>Item {i}.2</li><li>Item {i}.3</li><li>Item {i}.4</li></ul>\
<button type=\"button\">Add {i}</button> <button type=\"button\" aria-pressed=\"false\">Star {i}</button>\
<a href=\"#item-{i}\">Details {i}</a> <label>Quantity {i} <input type=\"number\" value=\"{}\"></label></section>",
            i % 7
        ));
    }
    landmarks
        .iter()
        .zip(parts)
        .map(|((tag, attrs), p)| format!("<{tag}{attrs}>{}</{tag}>", p.join("")))
        .collect()
}

const PLAIN_WALK: &str = r#"
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  let h = 0x811c9dc5;
  const mix = (s) => { for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193); };
  for (let node = walker.currentNode; node; node = walker.nextNode()) {
    mix(node.tagName);
    for (const a of node.attributes) { mix(a.name); mix(a.value); }
  }
  return (h >>> 0).toString(16);
"#;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    xs[xs.len() / 2]
}

fn time(runs: usize, mut f: impl FnMut()) -> f64 {
    let perf = web_sys::window().unwrap().performance().unwrap();
    let body = document().body().unwrap();
    let mut times = Vec::new();
    for i in 0..runs + 2 {
        body.set_attribute("data-bench-tick", &i.to_string())
            .unwrap();
        let t0 = perf.now();
        f();
        if i >= 2 {
            times.push(perf.now() - t0);
        }
    }
    median(times)
}

#[wasm_bindgen_test]
fn cost_at_3000_elements() {
    load(&bench_page(3000));
    let full = Options {
        max_elements: Some(100_000.0),
        budget_ms: Some(600_000.0),
        ..Default::default()
    };
    let s = dom::snapshot(&full).unwrap();
    assert!(
        s.elements.len() >= 3000,
        "{} observable elements",
        s.elements.len()
    );
    assert_eq!(diffed(&dom::fingerprint(&full).unwrap()), of_snapshot(&s));
    let walk = js_sys::Function::new_no_args(PLAIN_WALK);
    let runs = 21;
    let plain = time(runs, || {
        walk.call0(&JsValue::NULL).unwrap();
    });
    let fp = time(runs, || {
        dom::fingerprint(&full).unwrap();
    });
    let snap = time(runs, || {
        dom::snapshot(&full).unwrap();
    });
    let opts = serde_wasm_bindgen::to_value(
        &serde_json::json!({ "maxElements": 100_000, "budgetMs": 600_000 }),
    )
    .unwrap();
    let snap_js = time(runs, || {
        prufe::bindings::snapshot(opts.clone()).unwrap();
    });
    console_log!(
        "{} elements: plain walk {plain:.2} ms, fingerprint {fp:.2} ms ({:.2}x), snapshot {snap:.2} ms, snapshot to JS {snap_js:.2} ms",
        s.elements.len(),
        fp / plain
    );
    // Sanity bounds only (a debug build under `make test` is many times slower than release).
    let (fp_bound, snap_bound) = if cfg!(debug_assertions) {
        (3_000.0, 6_000.0)
    } else {
        (100.0, 300.0)
    };
    assert!(
        fp < fp_bound && snap_js < snap_bound,
        "fingerprint {fp} ms, snapshot {snap_js} ms"
    );
}
