//! The detected-fault bench: does verification catch the wrong effects a bare driver lets
//! through, without crying wolf on honest actions, and what does it cost?
//!
//! ```text
//! cargo run --release -p prufe-harness --example fault_bench              # table on stdout
//! cargo run --release -p prufe-harness --example fault_bench -- --runs 5 --out bench/faults.md
//! ```
//!
//! For every scenario of `fixtures/` the same action runs `--runs` times (default 3) through
//! the verifier and as a bare driver does it (locate by CSS selector and text, dispatch the
//! input over CDP, nothing checked), each time on a freshly loaded page. The table says, per
//! scenario:
//!
//! - **Bare driver**: what the bare action left on the page (for a fault: the wrong effect,
//!   unnoticed);
//! - **Caught** (faults): runs where the verifier refused the wrong effect with a typed error;
//! - **False alarms** (honest actions): runs where a correct action was not approved;
//! - **Undo** (faults with an honest inverse): runs where the wrong effect was undone and the
//!   page shows it is gone;
//! - **Verified / bare ms**: medians of the action's wall time, and their ratio.
//!
//! The summary line states the targets: 100 % caught, 0 false alarms, 100 % undo where an
//! inverse exists. `--strict` exits 1 when one is missed. Pages are local and deterministic;
//! only the times vary between runs and machines.

use prufe::core::model::{Role, Snapshot};
use prufe::core::resolve::Target;
use prufe_harness::inject::send;
use prufe_harness::serve::StaticServer;
use prufe_harness::{Action, Error, Options, Outcome, Step, Verdict, Verifier};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "fault_bench/apps.rs"]
mod apps;

/// What the action is, in both forms.
#[derive(Clone)]
enum Act {
    Click(&'static str, Option<&'static str>),
    Fill(&'static str, &'static str, &'static str),
    Check(&'static str),
    Select(&'static str, &'static str),
    Upload(&'static str),
    Drag(&'static str, &'static str),
    Hover(&'static str),
}

impl Act {
    fn describe(&self) -> String {
        match self {
            Act::Click(name, None) => format!("click {name}"),
            Act::Click(name, Some(_)) => format!("click {name} (with intent)"),
            Act::Fill(_, name, _) => format!("fill {name}"),
            Act::Check(name) => format!("check {name}"),
            Act::Select(name, option) => format!("select {option} in {name}"),
            Act::Upload(name) => format!("upload to {name}"),
            Act::Drag(from, to) => format!("drag {from} to {to}"),
            Act::Hover(name) => format!("hover {name}"),
        }
    }
}

/// What a scenario should end in.
#[derive(Clone, Copy, PartialEq)]
enum Expect {
    /// An honest action: MATCH.
    Honest,
    /// A wrong effect that has an honest inverse: caught and undone.
    FaultUndone,
    /// A wrong effect, refused; there is nothing (honest) to undo.
    FaultRefused,
}

struct Scenario {
    name: &'static str,
    page: &'static str,
    /// Done first, unverified, on every load (e.g. opening a dialog).
    setup: Option<Act>,
    act: Act,
    expect: Expect,
    /// The wrong effect (faults) or the intended effect (honest actions) is on the page.
    effect: fn(&Snapshot) -> bool,
    /// A short description of what `effect` checks.
    effect_text: &'static str,
    /// Most runs (very slow scenarios run once).
    max_runs: usize,
}

fn cart(s: &Snapshot) -> Vec<&str> {
    s.elements
        .iter()
        .filter(|e| e.role == Role::Listitem && e.region.starts_with("cart"))
        .map(|e| e.label())
        .collect()
}

fn has_text(s: &Snapshot, text: &str) -> bool {
    s.texts.iter().any(|t| t.text == text)
}

fn scenarios() -> Vec<Scenario> {
    use Expect::*;
    vec![
        Scenario {
            name: "Recycled list",
            page: "recycled-list.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: FaultUndone,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Trousers L")),
            effect_text: "Trousers L in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Spoofed prufe, lying button",
            page: "spoof.html",
            setup: None,
            act: Act::Click("Add Socks S", None),
            expect: FaultUndone,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Trousers L")),
            effect_text: "Trousers L in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Overlay takes the click",
            page: "overlay.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: FaultRefused,
            effect: |s| cart(s).is_empty(),
            effect_text: "click swallowed, cart empty",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Lying remove",
            page: "hostile/15-lying-remove.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: FaultRefused,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Trousers L")),
            effect_text: "Trousers L in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Very late effect (8 s)",
            page: "very-late-effect.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: FaultRefused,
            effect: |s| cart(s).is_empty(),
            effect_text: "no effect within the deadline",
            max_runs: 1,
        },
        Scenario {
            name: "Confirm dialog without intent",
            page: "confirm-dialog.html",
            setup: Some(Act::Click("Delete account", None)),
            act: Act::Click("Confirm delete", None),
            expect: FaultRefused,
            effect: |s| has_text(s, "Account deleted"),
            effect_text: "account deleted, nobody declared it",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Late effect (700 ms)",
            page: "late-effect.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: Honest,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Shirt M")),
            effect_text: "Shirt M in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: click",
            page: "shop.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: Honest,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Shirt M")),
            effect_text: "Shirt M in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: fill",
            page: "shop.html",
            setup: None,
            act: Act::Fill("textbox", "Name", "Ada Lovelace"),
            expect: Honest,
            effect: |s| {
                s.elements
                    .iter()
                    .any(|e| e.name == "Name" && e.value.as_deref() == Some("Ada Lovelace"))
            },
            effect_text: "Name holds the text",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: check",
            page: "shop.html",
            setup: None,
            act: Act::Check("Gift wrap"),
            expect: Honest,
            effect: |s| {
                s.elements.iter().any(|e| {
                    e.name == "Gift wrap" && e.checked == Some(prufe::core::model::Tristate::True)
                })
            },
            effect_text: "Gift wrap checked",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: select",
            page: "shop.html",
            setup: None,
            act: Act::Select("Shipping", "Express"),
            expect: Honest,
            effect: |s| {
                s.elements
                    .iter()
                    .any(|e| e.name == "Shipping" && e.value.as_deref() == Some("Express"))
            },
            effect_text: "Shipping is Express",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: upload",
            page: "shop.html",
            setup: None,
            act: Act::Upload("Receipt"),
            expect: Honest,
            effect: |s| s.texts.iter().any(|t| t.text.starts_with("Receipt: ")),
            effect_text: "receipt shown",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: drag between lists",
            page: "shop.html",
            setup: None,
            act: Act::Drag("Write invoice", "Done"),
            expect: Honest,
            effect: |s| {
                s.elements
                    .iter()
                    .any(|e| e.label() == "Write invoice" && e.region.ends_with("list:done"))
            },
            effect_text: "task in Done",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: hover menu",
            page: "shop.html",
            setup: None,
            act: Act::Hover("Account"),
            expect: Honest,
            effect: |s| {
                s.elements
                    .iter()
                    .any(|e| e.role == Role::Link && e.name == "Orders")
            },
            effect_text: "menu open",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Password fill",
            page: "login.html",
            setup: None,
            act: Act::Fill("textbox", "Password", "bench-password-77"),
            expect: Honest,
            effect: |s| {
                s.elements
                    .iter()
                    .any(|e| e.name == "Password" && e.value_hash.is_some())
            },
            effect_text: "password set (redacted)",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shadow DOM click",
            page: "shadow.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: Honest,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Shirt M")),
            effect_text: "Shirt M in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Iframe payment",
            page: "iframe-payment.html",
            setup: Some(Act::Fill("textbox", "Card number", "4111111111111111")),
            act: Act::Click("Pay", Some("the payment is accepted")),
            expect: Honest,
            effect: |s| has_text(s, "Payment accepted"),
            effect_text: "payment accepted",
            max_runs: usize::MAX,
        },
    ]
}

/// One scenario's results.
struct Row {
    name: &'static str,
    page: &'static str,
    action: String,
    expect: Expect,
    runs: usize,
    /// Faults: refused with a typed error. Honest: approved (MATCH).
    good: usize,
    /// Faults with an honest inverse: undone and gone from the page.
    undone: usize,
    bare_effect: usize,
    effect_text: &'static str,
    verdicts: Vec<String>,
    verified_ms: Vec<f64>,
    bare_ms: Vec<f64>,
}

struct Bench {
    v: Verifier,
    server: StaticServer,
    upload: PathBuf,
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = flag(&args, "--runs")
        .and_then(|r| r.parse().ok())
        .filter(|r| *r > 0)
        .unwrap_or(3);
    let out = flag(&args, "--out").map(PathBuf::from);
    let strict = args.iter().any(|a| a == "--strict");
    match run(runs).await {
        Ok((table, met)) => {
            print!("{table}");
            if let Some(path) = out {
                if let Err(e) = std::fs::write(&path, &table) {
                    eprintln!("fault bench: cannot write {}: {e}", path.display());
                }
            }
            if strict && !met {
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!("fault bench: {e}\n{}", e.explain());
            std::process::exit(2);
        }
    }
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

async fn run(runs: usize) -> prufe_harness::Result<(String, bool)> {
    let started = Instant::now();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let server = StaticServer::start(fixtures, Vec::new())
        .await
        .map_err(|e| Error::Launch(format!("fixture server: {e}")))?;
    let dir = tempfile::tempdir().map_err(|e| Error::Io {
        context: "temporary directory".into(),
        source: e,
    })?;
    let upload = dir.path().join("receipt-0042.pdf");
    std::fs::write(&upload, b"%PDF-1.4 bench").map_err(|e| Error::Io {
        context: "upload file".into(),
        source: e,
    })?;
    let v = Verifier::launch(Options::default()).await?;
    let mut bench = Bench { v, server, upload };
    let browser = send(bench.v.page(), "Browser.getVersion", json!({}))
        .await
        .ok()
        .and_then(|v| v["product"].as_str().map(str::to_owned))
        .unwrap_or_else(|| "Chromium (version unknown)".into());

    let mut rows = Vec::new();
    for sc in scenarios().into_iter().chain(apps::scenarios()) {
        eprintln!("fault bench: {} …", sc.name);
        let row = bench.scenario(&sc, runs.min(sc.max_runs)).await?;
        rows.push(row);
    }
    let timing = bench.v.options().timing;
    bench.v.close().await?;
    let (table, met) = render(&rows, runs, &browser, timing, started.elapsed());
    Ok((table, met))
}

impl Bench {
    async fn open(&mut self, page: &str) -> prufe_harness::Result<()> {
        let url = self.server.url(page);
        self.v.open(&url).await
    }

    async fn scenario(&mut self, sc: &Scenario, runs: usize) -> prufe_harness::Result<Row> {
        let mut row = Row {
            name: sc.name,
            page: sc.page,
            action: sc.act.describe(),
            expect: sc.expect,
            runs,
            good: 0,
            undone: 0,
            bare_effect: 0,
            effect_text: sc.effect_text,
            verdicts: Vec::new(),
            verified_ms: Vec::new(),
            bare_ms: Vec::new(),
        };
        for _ in 0..runs {
            // Verified.
            self.open(sc.page).await?;
            if let Some(setup) = &sc.setup {
                self.v.perform(&step(setup, &self.upload)).await?;
            }
            let t = Instant::now();
            let r = self.v.perform(&step(&sc.act, &self.upload)).await;
            row.verified_ms.push(t.elapsed().as_secs_f64() * 1000.0);
            let after = self.v.snapshot().await?;
            row.verdicts.push(short(&r));
            match sc.expect {
                Expect::Honest => {
                    if r.as_ref().is_ok_and(|o| o.ok) && (sc.effect)(&after) {
                        row.good += 1;
                    }
                }
                Expect::FaultUndone | Expect::FaultRefused => {
                    if refused(&r) {
                        row.good += 1;
                    }
                    if sc.expect == Expect::FaultUndone && refused(&r) && !(sc.effect)(&after) {
                        row.undone += 1;
                    }
                }
            }

            // Bare.
            self.open(sc.page).await?;
            if let Some(setup) = &sc.setup {
                self.bare(setup).await?;
                self.v.snapshot().await?;
            }
            let t = Instant::now();
            self.bare(&sc.act).await?;
            row.bare_ms.push(t.elapsed().as_secs_f64() * 1000.0);
            let after = self.v.snapshot().await?;
            if (sc.effect)(&after) {
                row.bare_effect += 1;
            }
        }
        Ok(row)
    }

    /// The action as a plain driver does it: find by selector and text, send the input.
    async fn bare(&mut self, act: &Act) -> prufe_harness::Result<()> {
        let page = self.v.page().clone();
        match act {
            Act::Click(name, _) => {
                let p = self.locate("button, [role=button], a[href]", name).await?;
                mouse_click(&page, p).await
            }
            Act::Fill(_, name, value) => {
                let p = self.locate("input, textarea", name).await?;
                mouse_click(&page, p).await?;
                send(&page, "Input.insertText", json!({ "text": value }))
                    .await
                    .map(drop)
            }
            Act::Check(name) => {
                let p = self.locate("input[type=checkbox]", name).await?;
                mouse_click(&page, p).await
            }
            Act::Select(name, option) => {
                let js = format!(
                    "(() => {{ const s = ({LOCATE_JS})({}, true); const o = Array.from(s.options).find((x) => x.label === {}); \
                     s.value = o.value; s.dispatchEvent(new Event('input', {{ bubbles: true }})); \
                     s.dispatchEvent(new Event('change', {{ bubbles: true }})); return true; }})()",
                    json!({ "css": "select", "text": name }),
                    json!(option)
                );
                evaluate(&page, &js).await.map(drop)
            }
            Act::Upload(name) => {
                let js = format!(
                    "({LOCATE_JS})({}, true)",
                    json!({ "css": "input[type=file]", "text": name })
                );
                let r = evaluate_in_world(&page, &js, true).await?;
                let object = r
                    .as_str()
                    .ok_or_else(|| Error::Launch(format!("no file input named {name}")))?;
                let file = self.upload.display().to_string();
                send(
                    &page,
                    "DOM.setFileInputFiles",
                    json!({ "files": [file], "objectId": object }),
                )
                .await
                .map(drop)
            }
            Act::Drag(from, to) => {
                let a = self.locate("li", from).await?;
                let b = self.locate("ul, ol", to).await?;
                mouse(&page, "mouseMoved", a, 0).await?;
                mouse(&page, "mousePressed", a, 1).await?;
                for i in 1..=10 {
                    let f = f64::from(i) / 10.0;
                    let p = (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f);
                    mouse(&page, "mouseMoved", p, 1).await?;
                }
                mouse(&page, "mouseReleased", b, 1).await
            }
            Act::Hover(name) => {
                let p = self.locate("button, a", name).await?;
                mouse(&page, "mouseMoved", p, 0).await
            }
        }
    }

    async fn locate(&self, css: &str, text: &str) -> prufe_harness::Result<(f64, f64)> {
        let js = format!("({LOCATE_JS})({})", json!({ "css": css, "text": text }));
        let v = evaluate(self.v.page(), &js).await?;
        match (v["x"].as_f64(), v["y"].as_f64()) {
            (Some(x), Some(y)) => Ok((x, y)),
            _ => Err(Error::Launch(format!(
                "bare driver: no {css} named {text:?}"
            ))),
        }
    }
}

/// Finds the first element matching `css` whose text, `aria-label` or label is `text`,
/// through open shadow roots and same-origin frames; scrolls it into view and returns its
/// centre in top-viewport coordinates (or, with `element`, the element itself).
const LOCATE_JS: &str = "function (spec, element) { \
  const norm = (s) => String(s || '').replace(/\\s+/g, ' ').trim(); \
  const roots = []; \
  const visit = (root, frame) => { roots.push([root, frame]); \
    for (const el of root.querySelectorAll('*')) { \
      if (el.shadowRoot) visit(el.shadowRoot, frame); \
      if (el.tagName === 'IFRAME') { try { if (el.contentDocument) visit(el.contentDocument, el); } catch (e) {} } } }; \
  visit(document, null); \
  for (const [root, frame] of roots) for (const el of root.querySelectorAll(spec.css)) { \
    const labels = el.labels ? Array.from(el.labels).map((l) => norm(l.textContent)) : []; \
    if (norm(el.textContent) !== spec.text && norm(el.getAttribute('aria-label')) !== spec.text && !labels.includes(spec.text)) continue; \
    if (element) return el; \
    el.scrollIntoView({ block: 'center' }); \
    const r = el.getBoundingClientRect(); let x = r.left + r.width / 2, y = r.top + r.height / 2; \
    for (let f = frame; f; ) { const fr = f.getBoundingClientRect(); x += fr.left + f.clientLeft; y += fr.top + f.clientTop; \
      const w = f.ownerDocument.defaultView; f = w && w.frameElement; } \
    return { x, y }; } \
  return null; }";

/// Evaluates `js` in a world of the bare driver's own (as Playwright's utility world), so a
/// page's patched built-ins do not break the locator; returns the value, or with `handle`
/// the remote object id.
async fn evaluate_in_world(
    page: &chromiumoxide::Page,
    js: &str,
    handle: bool,
) -> prufe_harness::Result<Value> {
    let tree = send(page, "Page.getFrameTree", json!({})).await?;
    let frame = tree["frameTree"]["frame"]["id"].clone();
    let world = send(
        page,
        "Page.createIsolatedWorld",
        json!({ "frameId": frame, "worldName": "bare-driver" }),
    )
    .await?;
    let r = send(
        page,
        "Runtime.evaluate",
        json!({ "expression": js, "contextId": world["executionContextId"], "returnByValue": !handle }),
    )
    .await?;
    if let Some(ex) = r.get("exceptionDetails") {
        return Err(Error::Launch(format!(
            "bare driver: {}",
            prufe_harness::inject::exception_text(ex)
        )));
    }
    Ok(if handle {
        r["result"]["objectId"].clone()
    } else {
        r["result"].get("value").cloned().unwrap_or(Value::Null)
    })
}

async fn evaluate(page: &chromiumoxide::Page, js: &str) -> prufe_harness::Result<Value> {
    evaluate_in_world(page, js, false).await
}

async fn mouse(
    page: &chromiumoxide::Page,
    kind: &str,
    p: (f64, f64),
    buttons: i64,
) -> prufe_harness::Result<()> {
    let mut params = json!({ "type": kind, "x": p.0, "y": p.1, "pointerType": "mouse" });
    match kind {
        "mousePressed" => {
            params["button"] = json!("left");
            params["buttons"] = json!(1);
            params["clickCount"] = json!(1);
        }
        "mouseReleased" => {
            params["button"] = json!("left");
            params["buttons"] = json!(0);
            params["clickCount"] = json!(1);
        }
        _ => {
            params["button"] = json!(if buttons > 0 { "left" } else { "none" });
            params["buttons"] = json!(buttons);
        }
    }
    send(page, "Input.dispatchMouseEvent", params)
        .await
        .map(drop)
}

async fn mouse_click(page: &chromiumoxide::Page, p: (f64, f64)) -> prufe_harness::Result<()> {
    mouse(page, "mouseMoved", p, 0).await?;
    mouse(page, "mousePressed", p, 1).await?;
    mouse(page, "mouseReleased", p, 1).await
}

fn step(act: &Act, upload: &Path) -> Step {
    let t = |role: &str, name: &str| Target::new(role, name);
    match act {
        Act::Click(name, intent) => {
            let s = Step::new(Action::Click {
                target: t("button", name),
            });
            match intent {
                Some(i) => s.with_intent(*i),
                None => s,
            }
        }
        Act::Fill(role, name, value) => Step::new(Action::Fill {
            target: t(role, name),
            value: (*value).to_owned(),
            sensitive: false,
        }),
        Act::Check(name) => Step::new(Action::Check {
            target: t("checkbox", name),
        }),
        Act::Select(name, option) => Step::new(Action::Select {
            target: t("combobox", name),
            option: (*option).to_owned(),
        }),
        Act::Upload(name) => Step::new(Action::Upload {
            target: t("button", name),
            files: vec![upload.to_path_buf()],
        }),
        Act::Drag(from, to) => Step::new(Action::Drag {
            target: t("listitem", from),
            to: t("list", to),
        }),
        Act::Hover(name) => Step::new(Action::Hover {
            target: t("button", name),
        }),
    }
}

/// A wrong effect refused: a typed error before input, or a failed verification.
fn refused(r: &Result<Outcome, Error>) -> bool {
    match r {
        Ok(o) => !o.ok,
        Err(e) => e
            .outcome()
            .is_none_or(|o| !o.ok && o.verdict != Some(Verdict::Match)),
    }
}

/// `MATCH`, `VERIFICATION_FAILED (MISMATCH, 2 attempts, 2 undone)`, `TARGET_OBSCURED`.
fn short(r: &Result<Outcome, Error>) -> String {
    let detail = |o: &Outcome| {
        let mut s = o.verdict.map(|v| v.as_str().to_owned()).unwrap_or_default();
        if o.attempts > 1 {
            s.push_str(&format!(", {} attempts", o.attempts));
        }
        if o.undone > 0 {
            s.push_str(&format!(", {} undone", o.undone));
        }
        s
    };
    match r {
        Ok(o) if o.ok => detail(o),
        Ok(o) => format!("not approved ({})", detail(o)),
        Err(e) => match e.outcome() {
            Some(o) => format!("{} ({})", e.code().as_str(), detail(o)),
            None => e.code().as_str().to_owned(),
        },
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn percent(n: usize, d: usize) -> String {
    if d == 0 {
        "—".into()
    } else {
        format!("{:.0} %", 100.0 * n as f64 / d as f64)
    }
}

fn render(
    rows: &[Row],
    runs: usize,
    browser: &str,
    timing: prufe_harness::Timing,
    took: Duration,
) -> (String, bool) {
    let mut out = String::new();
    out.push_str("## Detected-fault bench\n\n");
    out.push_str(&format!(
        "{browser} · {runs} runs per scenario (1 for the 8 s effect) · stabilise: poll {} ms, quiet {} ms, \
         timeout {} ms · `cargo run --release -p prufe-harness --example fault_bench`\n\n",
        timing.poll_ms, timing.quiet_ms, timing.timeout_ms
    ));
    out.push_str("| Scenario | Page | Action | Bare driver | Verified outcome | Caught | False alarms | Undo | Verified ms | Bare ms | × |\n");
    out.push_str("| --- | --- | --- | --- | --- | --- | --- | --- | ---: | ---: | ---: |\n");
    let (mut caught, mut faults, mut alarms, mut honest, mut undone, mut undoable) =
        (0, 0, 0, 0, 0, 0);
    let mut ratios = Vec::new();
    for r in rows {
        let mut verdicts = r.verdicts.clone();
        verdicts.dedup();
        let (v_ms, b_ms) = (median(&r.verified_ms), median(&r.bare_ms));
        let ratio = if b_ms > 0.0 { v_ms / b_ms } else { 0.0 };
        if r.expect == Expect::Honest {
            ratios.push(ratio);
        }
        let bare = format!("{}/{} {}", r.bare_effect, r.runs, r.effect_text);
        let (caught_cell, alarm_cell, undo_cell) = match r.expect {
            Expect::Honest => {
                honest += r.runs;
                alarms += r.runs - r.good;
                (
                    "—".to_owned(),
                    format!("{}/{}", r.runs - r.good, r.runs),
                    "—".to_owned(),
                )
            }
            Expect::FaultUndone => {
                faults += r.runs;
                caught += r.good;
                undoable += r.runs;
                undone += r.undone;
                (
                    format!("{}/{}", r.good, r.runs),
                    "—".to_owned(),
                    format!("{}/{} undone, verified gone", r.undone, r.runs),
                )
            }
            Expect::FaultRefused => {
                faults += r.runs;
                caught += r.good;
                (
                    format!("{}/{}", r.good, r.runs),
                    "—".to_owned(),
                    "no honest inverse".to_owned(),
                )
            }
        };
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} | {} | {} | {:.0} | {:.0} | {:.0}× |\n",
            r.name,
            r.page,
            r.action,
            bare,
            verdicts.join("; "),
            caught_cell,
            alarm_cell,
            undo_cell,
            v_ms,
            b_ms,
            ratio
        ));
    }
    out.push_str(
        "\nBare driver: how often the page showed the effect named there once it settled after \
         the bare action. A verified action's time is mostly stabilisation (a quiet window before \
         and after the input); a bare one is the dispatch alone, with no wait for any effect.\n",
    );
    let met = caught == faults && alarms == 0 && undone == undoable;
    out.push_str(&format!(
        "\n**Summary:** caught {caught}/{faults} wrong effects ({}) · false alarms {alarms}/{honest} honest actions ({}) · \
         undo {undone}/{undoable} where an honest inverse exists ({}) · verified honest action: median {:.0}× a bare one · \
         targets 100 % caught, 0 false alarms, 100 % undo: **{}** · bench took {:.0} s\n",
        percent(caught, faults),
        percent(alarms, honest),
        percent(undone, undoable),
        median(&ratios),
        if met { "met" } else { "NOT met" },
        took.as_secs_f64()
    ));
    (out, met)
}
