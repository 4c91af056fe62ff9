//! What verification costs a click: a bare click and a verified click, side by side in one
//! run, on `fixtures/shop.html` and on a generated page of about 3,000 observable elements.
//!
//! ```text
//! cargo run --release -p prufe-harness --example click_bench [-- --runs 15]
//! ```
//!
//! - **Bare**: what a driver that trusts its click does: find the button by its text in the
//!   page, read its box, send press and release at its centre. No wait, no check.
//! - **Verified**: `Verifier::click` on the button's role and name: the verification machine's
//!   whole loop (settle, observe, resolve, re-describe, prepare, arrive, act, settle, observe,
//!   judge), every need answered over CDP.
//!
//! Each run opens the page afresh (not timed) so every click sees the same page. The
//! verified click cannot be quicker than its quiet window after the effect: the budget it is
//! held to is the bare median plus that window plus 60 ms on the shop (120 ms at 3,000
//! elements). A target below the fold costs one more window: the page is observed again once
//! it settled after the scroll. Also printed: the needs answered per verified click (the
//! driver's round trips through the machine).

use prufe::core::resolve::Target;
use prufe_harness::inject::send;
use prufe_harness::serve::StaticServer;
use prufe_harness::{Error, Options, Verifier};
use serde_json::json;
use std::time::Instant;

/// A page of `n / 10` blocks of ten observable elements each; "Add i" puts "Item i" in the
/// cart.
fn generated_page(n: usize) -> String {
    let mut body = String::new();
    for i in 0..n / 10 {
        body.push_str(&format!(
            "<section aria-label=\"Block {i}\"><h2>Block {i}</h2>\
             <ul><li>Item {i}.1</li><li>Item {i}.2</li><li>Item {i}.3</li><li>Item {i}.4</li></ul>\
             <button type=\"button\" data-add=\"{i}\">Add {i}</button> \
             <button type=\"button\" aria-pressed=\"false\">Star {i}</button> \
             <a href=\"#item-{i}\">Details {i}</a> \
             <label>Quantity {i} <input type=\"number\" value=\"{}\"></label></section>\n",
            i % 7
        ));
    }
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Bench {n}</title></head>\
         <body><aside aria-label=\"Cart\"><h2>Cart</h2><ul id=\"cart\"></ul></aside><main>\n{body}</main>\
         <script>document.addEventListener('click', (e) => {{ const b = e.target.closest('[data-add]'); if (!b) return; \
         const li = document.createElement('li'); li.textContent = 'Item ' + b.dataset.add; \
         document.getElementById('cart').append(li); }});</script></body></html>"
    )
}

const FIND_JS: &str = "(text) => { const b = Array.from(document.querySelectorAll('button')).find((x) => x.textContent.trim() === text); \
  if (!b) return null; b.scrollIntoView({ block: 'center' }); const r = b.getBoundingClientRect(); \
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; }";

async fn bare_click(v: &Verifier, text: &str) -> prufe_harness::Result<()> {
    let page = v.page();
    let expression = format!("({FIND_JS})({})", json!(text));
    let r = send(
        page,
        "Runtime.evaluate",
        json!({ "expression": expression, "returnByValue": true }),
    )
    .await?;
    let p = &r["result"]["value"];
    let (Some(x), Some(y)) = (p["x"].as_f64(), p["y"].as_f64()) else {
        return Err(Error::Launch(format!("bare click: no button {text:?}")));
    };
    for (kind, buttons) in [("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 0)] {
        let mut params = json!({ "type": kind, "x": x, "y": y, "buttons": buttons });
        if kind != "mouseMoved" {
            params["button"] = json!("left");
            params["clickCount"] = json!(1);
        }
        send(page, "Input.dispatchMouseEvent", params).await?;
    }
    Ok(())
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    v[v.len() / 2]
}

struct Case {
    label: &'static str,
    url: String,
    button: &'static str,
    intent: &'static str,
    slack_ms: f64,
    /// Quiet windows the verified click must wait: one after the effect, and one more when
    /// the target must be scrolled into view first (the page is observed again after the
    /// scroll, once it settled: a virtual list renders other rows there).
    windows: f64,
    /// Held to the budget that verification promises (the target in view); the row below
    /// the fold holds itself to a stricter one of its own.
    promised: bool,
}

#[tokio::main]
async fn main() -> prufe_harness::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let runs: usize = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let fixtures = StaticServer::start(root.join("fixtures"), Vec::new())
        .await
        .map_err(|e| Error::Launch(e.to_string()))?;
    let generated = root.join("target").join("click-bench");
    std::fs::create_dir_all(&generated).map_err(|e| Error::Launch(e.to_string()))?;
    std::fs::write(generated.join("bench-3000.html"), generated_page(3000))
        .map_err(|e| Error::Launch(e.to_string()))?;
    let gen_server = StaticServer::start(generated, Vec::new())
        .await
        .map_err(|e| Error::Launch(e.to_string()))?;
    let cases = [
        Case {
            label: "fixtures/shop.html",
            url: fixtures.url("shop.html"),
            button: "Add Shirt M",
            intent: "the cart gains a shirt in size M",
            slack_ms: 60.0,
            windows: 1.0,
            promised: true,
        },
        Case {
            label: "generated, 3,000 elements",
            url: gen_server.url("bench-3000.html"),
            button: "Add 0",
            intent: "the cart gains item 0",
            slack_ms: 120.0,
            windows: 1.0,
            promised: true,
        },
        Case {
            label: "generated, 3,000 elements, target below the fold",
            url: gen_server.url("bench-3000.html"),
            button: "Add 150",
            intent: "the cart gains item 150",
            slack_ms: 120.0,
            windows: 2.0,
            promised: false,
        },
    ];

    let mut v = Verifier::launch(Options::default()).await?;
    let quiet = v.options().timing.quiet_ms as f64;
    println!("click bench: {runs} runs per case, quiet window {quiet} ms\n");
    println!("| page | bare ms | verified ms | verified − bare | budget (bare + windows × quiet + slack) | within | needs per verified click |");
    println!("|---|---:|---:|---:|---:|---|---:|");
    let (mut all_within, mut promised_within) = (true, true);
    for case in &cases {
        let (mut bare, mut verified, mut needs) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..runs + 1 {
            v.open(&case.url).await?;
            let t = Instant::now();
            bare_click(&v, case.button).await?;
            let b = t.elapsed().as_secs_f64() * 1000.0;
            v.open(&case.url).await?;
            let t = Instant::now();
            let outcome = v
                .click(Target::new("button", case.button), Some(case.intent))
                .await?;
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            if !outcome.ok {
                return Err(Error::Launch(format!(
                    "the honest click was not approved: {}",
                    outcome.summary()
                )));
            }
            // The first run warms the page, the engine and the connection.
            if i > 0 {
                bare.push(b);
                verified.push(ms);
                needs.push(v.round_trips() as f64);
            }
        }
        let (b, m, n) = (median(&mut bare), median(&mut verified), median(&mut needs));
        let budget = b + case.windows * quiet + case.slack_ms;
        let within = m <= budget;
        all_within &= within;
        promised_within &= within || !case.promised;
        println!(
            "| {} | {b:.1} | {m:.1} | {:.1} | {budget:.1} | {} | {n:.0} |",
            case.label,
            m - b,
            if within { "yes" } else { "no" },
        );
    }
    v.close().await?;
    let said = |met: bool| if met { "met" } else { "NOT met" };
    println!(
        "\nverified honest click within its budget on shop.html and at 3,000 elements in view: {}",
        said(promised_within)
    );
    println!(
        "verified honest click within its budget on every page, below the fold too: {}",
        said(all_within)
    );
    Ok(())
}
