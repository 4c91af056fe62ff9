//! What verification costs an action: a bare action and a verified one, side by side in one
//! run, on the shop, on a generated page of about 3,000 observable elements, on a page whose
//! clock, ticker and carousel all run at once (and on the same page held still), for a Tab
//! that moves focus and for a reorder by HTML5 drag and by pointer drag.
//!
//! ```text
//! cargo run --release -p prufe-harness --example click_bench [-- --runs 15] [--out bench/click.md]
//! ```
//!
//! - **Bare**: what a driver that trusts its input does: find the element by its text in the
//!   page, read its box, send the input (press and release, a key, a ten-step drag) over CDP.
//!   No wait, no check.
//! - **Verified**: `Verifier::perform` on the element's role and name: the verification
//!   machine's whole loop (settle, observe, resolve, re-describe, prepare, arrive, act,
//!   settle, observe, judge), every need answered over CDP.
//!
//! Each run opens the page afresh (not timed) so every action sees the same page, and checks
//! afterwards (not timed) that the page shows the action's effect. The verified action
//! cannot be quicker than its quiet window after the effect: the budget it is held to is the
//! bare median plus that window plus 60 ms (120 ms at 3,000 elements). A target below the
//! fold costs one more window: the page is observed again once it settled after the scroll.
//! Also printed: the needs answered per verified action (the driver's round trips through
//! the machine).
//!
//! A budget not held is reported, not failed: the bench exits 0. An honest action that is not
//! approved with a MATCH, or an action (bare or verified) whose effect is not on the page,
//! is a failure: the bench exits 2.

#[path = "support/bare_input.rs"]
mod bare_input;

use bare_input::{mouse_click, mouse_drag, press_key};
use prufe::core::resolve::Target;
use prufe_harness::inject::send;
use prufe_harness::serve::StaticServer;
use prufe_harness::{Action, Error, Options, Step, Verdict, Verifier};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

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

/// The first element matching `css` whose text (or label's text) is `text`: scrolled into
/// view, its centre returned; with `focus`, focused instead.
const FIND_JS: &str =
    "(css, text, focus) => { const all = Array.from(document.querySelectorAll(css)); \
  const el = all.find((x) => x.textContent.trim() === text) \
    || all.find((x) => Array.from(x.labels || []).some((l) => l.textContent.trim() === text)); \
  if (!el) return null; if (focus) { el.focus(); return {}; } \
  el.scrollIntoView({ block: 'center' }); const r = el.getBoundingClientRect(); \
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; }";

/// What the bench does, in both forms.
enum Act {
    /// Click the button named so.
    Click(&'static str),
    /// Tab from the textbox named so.
    Tab(&'static str),
    /// Drag the list item named so onto the other one (a reorder).
    Reorder(&'static str, &'static str),
}

impl Act {
    fn step(&self, intent: Option<&str>) -> Step {
        let step = match *self {
            Act::Click(name) => Step::new(Action::Click {
                target: Target::new("button", name),
            }),
            Act::Tab(from) => Step::new(Action::Press {
                key: "Tab".to_owned(),
                target: Some(Target::new("textbox", from)),
            }),
            Act::Reorder(from, onto) => Step::new(Action::Drag {
                target: Target::new("listitem", from),
                to: Target::new("listitem", onto),
            }),
        };
        match intent {
            Some(i) => step.with_intent(i),
            None => step,
        }
    }

    async fn bare(&self, v: &Verifier) -> prufe_harness::Result<()> {
        let page = v.page();
        match *self {
            Act::Click(name) => mouse_click(page, find(v, "button", name, false).await?).await,
            Act::Tab(from) => {
                find(v, "input", from, true).await?;
                press_key(page, "Tab").await
            }
            Act::Reorder(from, onto) => {
                let items = "li, [role=listitem]";
                let a = find(v, items, from, false).await?;
                let b = find(v, items, onto, false).await?;
                mouse_drag(page, a, b).await
            }
        }
    }
}

/// [`FIND_JS`] in the page's own world, as a plain driver evaluates it.
async fn find(
    v: &Verifier,
    css: &str,
    text: &str,
    focus: bool,
) -> prufe_harness::Result<(f64, f64)> {
    let expression = format!("({FIND_JS})({}, {}, {focus})", json!(css), json!(text));
    let r = evaluate(v, &expression).await?;
    match (&r, r["x"].as_f64(), r["y"].as_f64()) {
        (Value::Object(_), _, _) if focus => Ok((0.0, 0.0)),
        (_, Some(x), Some(y)) => Ok((x, y)),
        _ => Err(Error::Launch(format!(
            "bare driver: no {css} named {text:?}"
        ))),
    }
}

async fn evaluate(v: &Verifier, expression: &str) -> prufe_harness::Result<Value> {
    let r = send(
        v.page(),
        "Runtime.evaluate",
        json!({ "expression": expression, "returnByValue": true }),
    )
    .await?;
    Ok(r["result"].get("value").cloned().unwrap_or(Value::Null))
}

/// Waits (up to two seconds) for `done` to be true in the page.
async fn shows_effect(v: &Verifier, done: &str) -> prufe_harness::Result<bool> {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        if evaluate(v, done).await? == json!(true) {
            return Ok(true);
        }
        if Instant::now() >= deadline {
            return Ok(false);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
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
    act: Act,
    intent: Option<&'static str>,
    /// A JavaScript expression, true once the page shows the action's effect.
    done: &'static str,
    slack_ms: f64,
    /// Quiet windows the verified action must wait: one after the effect, and one more when
    /// the target must be scrolled into view first (the page is observed again after the
    /// scroll, once it settled: a virtual list renders other rows there).
    windows: f64,
    /// Actions done first on the same page, not timed (bare before bare, verified before
    /// verified): the timed one is then a later action on a page already acted on, as in
    /// any script or agent session, where what the page changes by itself was seen before.
    first: &'static [Act],
}

const CART_ONE_LINE: &str = "document.querySelectorAll('#cart-items > li').length === 1";
const CART_TWO_LINES: &str = "document.querySelectorAll('#cart-items > li').length === 2";
const ORDER_C_A_B: &str = "Array.from(document.querySelectorAll('#tasks > *'), (e) => e.textContent).join() === 'Task C,Task A,Task B'";

fn cases(fixtures: &StaticServer, generated: &StaticServer) -> Vec<Case> {
    let case = |label, url, act, intent, done| Case {
        label,
        url,
        act,
        intent,
        done,
        slack_ms: 60.0,
        windows: 1.0,
        first: &[],
    };
    // Add Shirt M on the live shop, as its first action or after others that leave Socks S
    // in the basket.
    let shirt = |label: &'static str, page: &str, first: &'static [Act]| Case {
        first,
        ..case(
            label,
            fixtures.url(page),
            Act::Click("Add Shirt M"),
            Some("the basket gains a shirt in size M"),
            if first.is_empty() {
                CART_ONE_LINE
            } else {
                CART_TWO_LINES
            },
        )
    };
    const NEXT: &[Act] = &[Act::Click("Add Socks S")];
    const FOURTH: &[Act] = &[
        Act::Click("Add Socks S"),
        Act::Click("Remove Socks S"),
        Act::Click("Add Socks S"),
    ];
    vec![
        case(
            "click, `fixtures/shop.html`",
            fixtures.url("shop.html"),
            Act::Click("Add Shirt M"),
            Some("the cart gains a shirt in size M"),
            CART_ONE_LINE,
        ),
        Case {
            slack_ms: 120.0,
            ..case(
                "click, generated, 3,000 elements",
                generated.url("bench-3000.html"),
                Act::Click("Add 0"),
                Some("the cart gains item 0"),
                "document.querySelectorAll('#cart > li').length === 1",
            )
        },
        Case {
            slack_ms: 120.0,
            windows: 2.0,
            ..case(
                "click, generated, 3,000 elements, target below the fold",
                generated.url("bench-3000.html"),
                Act::Click("Add 150"),
                Some("the cart gains item 150"),
                "document.querySelectorAll('#cart > li').length === 1",
            )
        },
        shirt(
            "click, live page: ticker, clock and carousel running (`real/live-shop.html`), first action after opening",
            "real/live-shop.html?lang=en",
            &[],
        ),
        shirt(
            "click, live page, the next action (one action on it before)",
            "real/live-shop.html?lang=en",
            NEXT,
        ),
        shirt(
            "click, live page, the fourth action (its carousel's slides seen by then)",
            "real/live-shop.html?lang=en",
            FOURTH,
        ),
        shirt(
            "click, the same page held still (`real/live-shop.html?noise=off`)",
            "real/live-shop.html?noise=off&lang=en",
            &[],
        ),
        shirt(
            "click, the same page held still, the next action",
            "real/live-shop.html?noise=off&lang=en",
            NEXT,
        ),
        shirt(
            "click, the same page held still, the fourth action",
            "real/live-shop.html?noise=off&lang=en",
            FOURTH,
        ),
        case(
            "Tab moves focus (`real/keys-widgets.html`)",
            fixtures.url("real/keys-widgets.html?lang=en"),
            Act::Tab("First name"),
            None,
            "document.activeElement && document.activeElement.id === 'last'",
        ),
        case(
            "reorder, HTML5 drag (`real/order.html?kind=html5`)",
            fixtures.url("real/order.html?kind=html5&lang=en"),
            Act::Reorder("Task C", "Task A"),
            None,
            ORDER_C_A_B,
        ),
        case(
            "reorder, pointer drag (`real/order.html?kind=pointer`)",
            fixtures.url("real/order.html?kind=pointer&lang=en"),
            Act::Reorder("Task C", "Task A"),
            None,
            ORDER_C_A_B,
        ),
    ]
}

/// The one-minute load average, which says how far the medians can be trusted on a shared
/// machine ("unknown" where `/proc/loadavg` is not there).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".into())
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = flag(&args, "--runs")
        .and_then(|r| r.parse().ok())
        .filter(|r| *r > 0)
        .unwrap_or(15);
    let out = flag(&args, "--out").map(PathBuf::from);
    // The shorter quiet window after an effect (`Timing::quick_ms`): the machine's default
    // unless given; 0: none, the full window.
    let quick_ms: u64 = flag(&args, "--quick-ms")
        .and_then(|q| q.parse().ok())
        .unwrap_or(prufe::core::run::Timing::default().quick_ms);
    match run(runs, quick_ms).await {
        Ok(table) => {
            print!("{table}");
            if let Some(path) = out {
                if let Err(e) = std::fs::write(&path, &table) {
                    eprintln!("click bench: cannot write {}: {e}", path.display());
                    std::process::exit(2);
                }
            }
        }
        Err(e) => {
            eprintln!("click bench: {e}\n{}", e.explain());
            std::process::exit(2);
        }
    }
}

async fn run(runs: usize, quick_ms: u64) -> prufe_harness::Result<String> {
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

    let mut v = Verifier::launch(Options {
        timing: prufe_harness::Timing {
            quick_ms,
            ..Default::default()
        },
        ..Options::default()
    })
    .await?;
    let browser = send(v.page(), "Browser.getVersion", json!({}))
        .await
        .ok()
        .and_then(|r| r["product"].as_str().map(str::to_owned))
        .unwrap_or_else(|| "Chromium (version unknown)".into());
    let quiet = v.options().timing.quiet_ms as f64;
    let load_before = load_average();
    let quick = match quick_ms {
        0 => String::new(),
        q => format!(" · quick window {q} ms (`--quick-ms {q}`)"),
    };
    let mut out = format!(
        "## Click bench\n\n{browser} · {runs} runs per row, medians · quiet window {quiet} ms{quick} · \
         `cargo run --release -p prufe-harness --example click_bench`\n\n\
         | action | bare ms | verified ms | verified − bare | budget ms (bare + windows × quiet + slack) | holds | needs per verified action |\n\
         |---|---:|---:|---:|---:|---|---:|\n"
    );
    let (mut held, mut rows, mut over) = (0, 0, Vec::new());
    for case in cases(&fixtures, &gen_server) {
        eprintln!("click bench: {} …", case.label);
        let (mut bare, mut verified, mut needs) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..runs + 1 {
            v.open(&case.url).await?;
            for first in case.first {
                first.bare(&v).await?;
            }
            let t = Instant::now();
            case.act.bare(&v).await?;
            let b = t.elapsed().as_secs_f64() * 1000.0;
            if !shows_effect(&v, case.done).await? {
                return Err(Error::Launch(format!(
                    "{}: the bare action left no effect ({}), so it is no yardstick",
                    case.label, case.done
                )));
            }
            v.open(&case.url).await?;
            for first in case.first {
                let o = v.perform(&first.step(None)).await;
                if !o.as_ref().is_ok_and(|o| o.ok) {
                    return Err(Error::Launch(format!(
                        "{}: the action before the timed one failed",
                        case.label
                    )));
                }
            }
            let t = Instant::now();
            let outcome = v.perform(&case.act.step(case.intent)).await;
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            match &outcome {
                Ok(o) if o.ok && o.verdict == Some(Verdict::Match) => {}
                Ok(o) => {
                    return Err(Error::Launch(format!(
                        "{}: the honest action was not approved with a MATCH: {}",
                        case.label,
                        o.summary()
                    )))
                }
                Err(e) => {
                    return Err(Error::Launch(format!(
                        "{}: the honest action failed: {e}\n{}",
                        case.label,
                        e.explain()
                    )))
                }
            }
            if !shows_effect(&v, case.done).await? {
                return Err(Error::Launch(format!(
                    "{}: MATCH, yet the page does not show the effect ({})",
                    case.label, case.done
                )));
            }
            // The first run warms the page, the engine and the connection.
            if i > 0 {
                bare.push(b);
                verified.push(ms);
                needs.push(f64::from(v.round_trips()));
            }
        }
        let (b, m, n) = (median(&mut bare), median(&mut verified), median(&mut needs));
        let budget = b + case.windows * quiet + case.slack_ms;
        let holds = m <= budget;
        rows += 1;
        if holds {
            held += 1;
        } else {
            over.push(format!("{} (+{:.0} ms)", case.label, m - budget));
        }
        out.push_str(&format!(
            "| {} | {b:.1} | {m:.1} | {:.1} | {budget:.1} ({b:.0} + {} × {quiet:.0} + {:.0}) | {} | {n:.0} |\n",
            case.label,
            m - b,
            case.windows,
            case.slack_ms,
            if holds { "yes" } else { "no" },
        ));
    }
    // What opening costs: the navigation, the document, and the look the first action
    // starts from (what the live page changes by itself is learnt there).
    out.push_str(
        "\n| opening (navigate, wait for the document, look) | ms | stable | learnt |\n|---|---:|---|---|\n",
    );
    for (label, page) in [
        (
            "live page (`real/live-shop.html`)",
            "real/live-shop.html?lang=en",
        ),
        (
            "the same page held still",
            "real/live-shop.html?noise=off&lang=en",
        ),
        ("`fixtures/shop.html`", "shop.html"),
    ] {
        let url = fixtures.url(page);
        let mut took = Vec::new();
        let mut look = None;
        for i in 0..runs + 1 {
            let t = Instant::now();
            v.open(&url).await?;
            if i > 0 {
                took.push(t.elapsed().as_secs_f64() * 1000.0);
            }
            look = v.last_look().cloned();
        }
        let look = look.unwrap_or_default();
        out.push_str(&format!(
            "| {label} | {:.1} | {} | {} |\n",
            median(&mut took),
            if look.stable { "yes" } else { "no" },
            if look.background.is_empty() {
                "nothing".to_owned()
            } else {
                look.background.join(", ")
            },
        ));
    }
    v.close().await?;
    out.push_str(&format!(
        "\nBare: find the element in the page, send the input, nothing waited for. Verified: the \
         whole verification loop, MATCH required. Budget: bare + one quiet window + 60 ms (120 ms \
         at 3,000 elements); a target below the fold waits one window more. Load average (1 min) \
         {load_before} before, {} after.\n",
        load_average()
    ));
    out.push_str(&format!("\n{held} of {rows} rows hold the budget"));
    if over.is_empty() {
        out.push_str(".\n");
    } else {
        out.push_str(&format!("; over it: {}.\n", over.join(", ")));
    }
    Ok(out)
}
