//! Acting like a user: real input through `Input.*`, and the reads and gestures that go to a
//! ref's node.
//!
//! Input goes through the browser's input pipeline (`Input.dispatchMouseEvent`,
//! `Input.insertText`, `Input.dispatchKeyEvent`), so the page sees trusted events in the
//! order a person would cause them. Whether an element is ready for input (a stable,
//! non-empty box in view, the page's hit test landing on it or on a label that forwards to
//! it) is the page engine's `prufe.prepare` (src/dom/prepare.rs), as through every driver,
//! and across frames the machine's (core `run::lift`, with `hit`).
//!
//! All page-side helpers run in the isolated world (see `inject`), so a page cannot spoof the
//! answers by patching `Element.prototype`.

use crate::coords::input::lock;
use crate::error::{Error, Result};
use crate::executor::{Button, Held};
use crate::inject::Engine;
use crate::observe::{root_of, route, Root};
use prufe::core::error::ErrorCode;
use prufe::core::model::Element;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;

/// A point in the top document's viewport, in CSS pixels.
pub use prufe::core::run::Point;

/// The node behind a ref, for the reads and gestures that go to it.
#[derive(Debug, Clone)]
pub struct Actionable {
    /// Remote handle on the live element, in its root's world.
    pub handle: String,
    /// The DevTools frame id of the root whose world holds the handle.
    pub frame: String,
    /// The element's ref in that root's engine.
    pub reference: String,
}

impl Actionable {
    /// Calls the bundle primitive `function` (`(P, r) => P.box(r)`) on the element's ref, in
    /// its root's world.
    async fn call(&self, engine: &Engine, function: &str) -> Result<Value> {
        engine
            .call_value(&self.frame, function, &json!(self.reference))
            .await
    }
}

/// The top viewport's size in CSS pixels, scroll bars left out.
pub async fn viewport(engine: &Engine) -> Result<(f64, f64)> {
    let m = engine.cmd("Page.getLayoutMetrics", json!({})).await?;
    let v = if m.get("cssLayoutViewport").is_some() {
        &m["cssLayoutViewport"]
    } else {
        &m["layoutViewport"]
    };
    Ok((
        v["clientWidth"].as_f64().unwrap_or(800.0),
        v["clientHeight"].as_f64().unwrap_or(600.0),
    ))
}

/// Where activating an element would load a new document: a link's address, or the action
/// of the form a submit control (or a field's implicit submission) sends.
pub use prufe::core::run::Destination;

/// Reads [`Destination`] from the live element: the nearest `a[href]` or `area[href]`
/// ancestor, else its form (a submitter's `formaction` and `formmethod` first).
pub async fn destination(engine: &Engine, target: &Actionable) -> Result<Option<Destination>> {
    let v = target.call(engine, "(P, r) => P.destination(r)").await?;
    Ok(serde_json::from_value(v).ok())
}

/// Moves the mouse, presses and releases the left button at `p`.
pub async fn click(engine: &Engine, p: Point) -> Result<()> {
    click_with(engine, p, Button::Left).await
}

/// Moves the mouse, presses and releases `button` at `p`.
pub async fn click_with(engine: &Engine, p: Point, button: Button) -> Result<()> {
    mouse(engine, "mouseMoved", p, 0, button).await?;
    mouse(engine, "mousePressed", p, 1, button).await?;
    mouse(engine, "mouseReleased", p, 1, button).await
}

/// Moves the mouse to `p` (hover).
pub async fn move_mouse(engine: &Engine, p: Point) -> Result<()> {
    mouse(engine, "mouseMoved", p, 0, Button::Left).await
}

async fn mouse(engine: &Engine, kind: &str, p: Point, clicks: i64, button: Button) -> Result<()> {
    let mut params = json!({ "type": kind, "x": p.x, "y": p.y, "pointerType": "mouse" });
    match kind {
        "mousePressed" => {
            params["button"] = json!(button.as_cdp());
            params["buttons"] = json!(button.mask());
            params["clickCount"] = json!(clicks);
        }
        "mouseReleased" => {
            params["button"] = json!(button.as_cdp());
            params["buttons"] = json!(0);
            params["clickCount"] = json!(clicks);
        }
        _ => {
            params["button"] = json!("none");
        }
    }
    // The tab's ledger records the press before it is sent, and forgets it once the
    // release went through: a step stopped in between still owes the release.
    let held = Held::Button {
        button,
        at: crate::executor::Point { x: p.x, y: p.y },
    };
    if kind == "mousePressed" {
        lock(engine.ledger()).pressed(held.clone());
    }
    engine.cmd("Input.dispatchMouseEvent", params).await?;
    if kind == "mouseReleased" {
        lock(engine.ledger()).released(&held);
    }
    Ok(())
}

/// A move this far (CSS pixels) from where the button went down is past any browser's drag
/// threshold (Chromium's is a few pixels).
const DRAG_THRESHOLD_PAST: f64 = 16.0;

/// How long a move up to that distance waits for the browser to report an HTML5 drag when
/// the pressed element can start one. The report comes after the page's `dragstart` handler
/// has run, which a busy renderer may delay well beyond a frame; a handler that cancels the
/// drag makes the move wait this long once or twice.
const DRAG_START_WAIT: Duration = Duration::from_millis(1_000);

/// Whether an HTML5 drag can start where the button went down, asked after the press (a page
/// may make an element draggable on `mousedown`): an element or ancestor the browser would
/// drag (`draggable`, true by default for links and images), a selection (its text can be
/// dragged), or a frame this document cannot look into. Open shadow roots and same-origin
/// frames are looked through. A pointer drag then waits for no report it will never get.
const MAY_START_DRAG: &str = r#"(P, a) => {
  let doc = document, x = a.x, y = a.y;
  for (let depth = 0; depth < 16; depth++) {
    const sel = doc.getSelection && doc.getSelection();
    if (sel && !sel.isCollapsed) return true;
    let el = doc.elementFromPoint(x, y);
    while (el && el.shadowRoot) {
      const inner = el.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === el) break;
      el = inner;
    }
    if (!el) return false;
    if (el.localName === 'iframe' || el.localName === 'frame') {
      let inner = null;
      try { inner = el.contentDocument; } catch (e) { inner = null; }
      if (!inner) return true;
      const box = el.getBoundingClientRect();
      x -= box.left + el.clientLeft; y -= box.top + el.clientTop;
      doc = inner;
      continue;
    }
    for (let n = el; n; n = n.parentNode || n.host) {
      if (n.nodeType === 1 && n.draggable === true) return true;
    }
    return false;
  }
  return true;
}"#;

/// A drag under way, one gesture at a time as the machine sends them (`run::drag`): the
/// button is down. A native HTML drag the browser starts is intercepted
/// (`Input.setInterceptDrags`) and replayed with `Input.dispatchDragEvent`, so `draggable`
/// elements work as well as pointer-event drags.
pub struct Dragging {
    intercepted: crate::cdp::Events<Value>,
    from: Point,
    button: Button,
    /// The intercepted drag's data, once the browser started one.
    data: Option<Value>,
    /// Whether a move may still start an HTML5 drag.
    may_start: bool,
    /// Where the pointer is.
    last: Point,
}

impl Dragging {
    /// Moves to `at` and presses `button` there, the interception on.
    pub async fn down(engine: &Engine, at: Point, button: Button) -> Result<Dragging> {
        let intercepted = engine.page().subscribe::<Value>("Input.dragIntercepted");
        engine
            .cmd("Input.setInterceptDrags", json!({ "enabled": true }))
            .await?;
        let mut dragging = Dragging {
            intercepted,
            from: at,
            button,
            data: None,
            may_start: true,
            last: at,
        };
        let pressed = async {
            mouse(engine, "mouseMoved", at, 0, button).await?;
            mouse(engine, "mousePressed", at, 1, button).await
        }
        .await;
        if let Err(e) = pressed {
            dragging.stop(engine).await;
            return Err(e);
        }
        // The browser starts an HTML5 drag at the first move past its drag threshold (a few
        // pixels); once a move is well past it with no drag intercepted, none is coming, and
        // the later moves need not wait for one. Where nothing can start one, no move waits.
        // A page the question cannot be asked in (no engine there yet) may start one.
        let spot = json!({ "x": at.x, "y": at.y });
        dragging.may_start = match engine.main_frame().await {
            Ok(main) => {
                engine
                    .call_value(&main.id, MAY_START_DRAG, &spot)
                    .await
                    .ok()
                    != Some(Value::Bool(false))
            }
            Err(_) => true,
        };
        Ok(dragging)
    }

    /// Where the button went down.
    pub fn start(&self) -> Point {
        self.from
    }

    /// Moves to `p` with the button held (a `dragOver` once an HTML5 drag started).
    pub async fn move_to(&mut self, engine: &Engine, p: Point) -> Result<()> {
        use futures::StreamExt;
        if let Some(data) = &self.data {
            let params = json!({ "type": "dragOver", "x": p.x, "y": p.y, "data": data });
            engine.cmd("Input.dispatchDragEvent", params).await?;
            self.last = p;
            return Ok(());
        }
        self.held_move(engine, p).await?;
        if !self.may_start {
            return Ok(());
        }
        self.may_start = (p.x - self.from.x).hypot(p.y - self.from.y) < DRAG_THRESHOLD_PAST;
        if let Ok(Some(ev)) = tokio::time::timeout(DRAG_START_WAIT, self.intercepted.next()).await {
            let data = ev.get("data").cloned().unwrap_or(Value::Null);
            engine
                .cmd(
                    "Input.dispatchDragEvent",
                    json!({ "type": "dragEnter", "x": p.x, "y": p.y, "data": data }),
                )
                .await?;
            self.data = Some(data);
        }
        Ok(())
    }

    /// Drops at `at` (an intercepted drag's `drop`) and releases the button there; the
    /// interception goes off whatever happens.
    pub async fn up(mut self, engine: &Engine, at: Point) -> Result<()> {
        let released = async {
            if let Some(data) = self.data.take() {
                let drop = json!({ "type": "drop", "x": at.x, "y": at.y, "data": data });
                engine.cmd("Input.dispatchDragEvent", drop).await?;
            } else if self.last != at {
                self.held_move(engine, at).await?;
            }
            mouse(engine, "mouseReleased", at, 1, self.button).await
        }
        .await;
        self.stop(engine).await;
        released
    }

    async fn held_move(&mut self, engine: &Engine, p: Point) -> Result<()> {
        let params = json!({ "type": "mouseMoved", "x": p.x, "y": p.y, "button": self.button.as_cdp(),
                             "buttons": self.button.mask(), "pointerType": "mouse" });
        engine.cmd("Input.dispatchMouseEvent", params).await?;
        self.last = p;
        Ok(())
    }

    async fn stop(&mut self, engine: &Engine) {
        let _ = engine
            .cmd("Input.setInterceptDrags", json!({ "enabled": false }))
            .await;
    }
}

/// Releases `button` at `at` with no drag under way (a press that failed halfway).
pub async fn release_mouse(engine: &Engine, at: Point, button: Button) -> Result<()> {
    mouse(engine, "mouseReleased", at, 1, button).await
}

/// Inserts `text` where the focus is, as an input method commits it (a field's typing,
/// once the machine saw the focus hold).
pub async fn insert_text(engine: &Engine, text: &str) -> Result<()> {
    engine
        .cmd("Input.insertText", json!({ "text": text }))
        .await?;
    Ok(())
}

/// The element's current value, read live (used to restore it; never logged).
pub async fn read_value(engine: &Engine, target: &Actionable) -> Result<Option<String>> {
    let v = target.call(engine, "(P, r) => P.value(r)").await?;
    Ok(v.as_str().map(str::to_owned))
}

/// Presses and releases a key or chord, its keys as the machine names them (`Gesture::Press`):
/// modifiers down in order, the key down and up, modifiers up in reverse; whatever happens,
/// nothing stays held.
pub async fn press(engine: &Engine, keys: &[String]) -> Result<()> {
    let chord = crate::executor::encode_chord(keys)?;
    let mut input = crate::coords::input::Input::new(
        engine.clone(),
        engine.ledger().clone(),
        crate::coords::input::EVENT_TIMEOUT,
    );
    let sent = crate::coords::input::chord(&mut input, &chord).await;
    let released = input.release_all().await;
    sent?;
    if !released.clean() {
        return Err(Error::core(
            ErrorCode::InputStateUnknown,
            "a key could not be released after the press",
        ));
    }
    Ok(())
}

/// Focuses the element and selects its content, so that typing replaces it: whether the
/// focus is then on the element or inside it (`Gesture::Focus`).
pub async fn focus_select(engine: &Engine, target: &Actionable) -> Result<bool> {
    Ok(target.call(engine, "(P, r) => P.focusSelect(r)").await? == Value::Bool(true))
}

/// Focuses an element (for `press` on a target); `true` when the focus is then on it or
/// inside it.
pub async fn focus(engine: &Engine, target: &Actionable) -> Result<bool> {
    Ok(target.call(engine, "(P, r) => P.focus(r)").await? == Value::Bool(true))
}

/// Chooses the option labelled (or valued) `option` in a `<select>`, firing `input` and
/// `change` as a person's choice would. Returns the previous value.
pub async fn select_option(engine: &Engine, target: &Actionable, option: &str) -> Result<String> {
    let previous = engine
        .call_value(
            &target.frame,
            "(P, a) => P.select(a.ref, a.option)",
            &json!({ "ref": target.reference, "option": option }),
        )
        .await?;
    Ok(previous.as_str().unwrap_or_default().to_owned())
}

/// Restores a `<select>`'s value (undo of `select`).
pub async fn restore_select(engine: &Engine, target: &Actionable, value: &str) -> Result<()> {
    engine
        .call_value(
            &target.frame,
            "(P, a) => P.restore(a.ref, a.value)",
            &json!({ "ref": target.reference, "value": value }),
        )
        .await?;
    Ok(())
}

/// Sets the files of the file input that is, or is inside (or labelled by), the element.
pub async fn set_files(
    engine: &Engine,
    roots: &[Root],
    element: &Element,
    files: &[PathBuf],
) -> Result<()> {
    let (path, local) = route(&element.reference);
    let root = root_of(roots, path)?;
    let input = engine
        .element_handle(&root.frame, local, Some("fileInput"))
        .await?;
    let files: Vec<String> = files
        .iter()
        .map(|f| {
            std::fs::canonicalize(f)
                .unwrap_or_else(|_| f.clone())
                .display()
                .to_string()
        })
        .collect();
    engine
        .cmd(
            "DOM.setFileInputFiles",
            json!({ "files": files, "objectId": input }),
        )
        .await?;
    Ok(())
}

/// Navigates the top frame; fails with `NAVIGATION_FAILED` when the browser reports an error.
/// A relative URL is resolved against the current document's. Returns the navigation's
/// loader id (absent for a same-document navigation).
pub async fn navigate(engine: &Engine, url: &str) -> Result<Option<String>> {
    let absolute = match url::Url::parse(url) {
        Ok(u) => u.to_string(),
        Err(_) => {
            let current = engine.main_frame().await?.url;
            url::Url::parse(&current)
                .and_then(|base| base.join(url))
                .map_err(|e| {
                    Error::Navigation(format!("cannot resolve {url:?} against {current}: {e}"))
                })?
                .to_string()
        }
    };
    let r = engine
        .cmd("Page.navigate", json!({ "url": absolute }))
        .await?;
    if let Some(err) = r["errorText"].as_str().filter(|e| !e.is_empty()) {
        return Err(Error::Navigation(format!("{absolute}: {err}")));
    }
    Ok(r["loaderId"].as_str().map(str::to_owned))
}

/// The address of the tab's previous history entry; `None` when there is none.
pub async fn previous_entry(engine: &Engine) -> Result<Option<String>> {
    let h = engine.cmd("Page.getNavigationHistory", json!({})).await?;
    let current = h["currentIndex"].as_i64().unwrap_or(0);
    Ok(current
        .checked_sub(1)
        .and_then(|i| h["entries"].get(usize::try_from(i).ok()?))
        .and_then(|e| e["url"].as_str())
        .map(str::to_owned))
}

/// Goes one entry back in the tab's history; `false` when there is none.
pub async fn history_back(engine: &Engine) -> Result<bool> {
    let h = engine.cmd("Page.getNavigationHistory", json!({})).await?;
    let current = h["currentIndex"].as_i64().unwrap_or(0);
    if current <= 0 {
        return Ok(false);
    }
    let Some(entry) = h["entries"].get((current - 1) as usize) else {
        return Ok(false);
    };
    let id = entry["id"].as_i64().unwrap_or_default();
    engine
        .cmd("Page.navigateToHistoryEntry", json!({ "entryId": id }))
        .await?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use prufe::core::run::chord;

    #[test]
    fn keys_parse_with_codes_and_text() {
        const CONTROL: i64 = 2;
        const SHIFT: i64 = 8;
        for (spec, key, code, kc, text, mods) in [
            ("Enter", "Enter", "Enter", 13, Some("\r"), 0),
            ("enter", "Enter", "Enter", 13, Some("\r"), 0),
            ("a", "a", "KeyA", 65, Some("a"), 0),
            ("Shift+a", "A", "KeyA", 65, Some("A"), SHIFT),
            ("Control+a", "a", "KeyA", 65, Some("a"), CONTROL),
            ("ctrl+Shift+Tab", "Tab", "Tab", 9, None, CONTROL | SHIFT),
            ("7", "7", "Digit7", 55, Some("7"), 0),
            ("+", "+", "", 0, Some("+"), 0),
            ("Shift++", "+", "", 0, Some("+"), SHIFT),
            ("Space", " ", "Space", 32, Some(" "), 0),
            ("F5", "F5", "F5", 116, None, 0),
            ("é", "é", "", 0, Some("é"), 0),
        ] {
            // As the machine sends it: read once, split into its keys.
            let keys = chord::pressed(&chord::canonical(spec).expect(spec));
            let encoded = crate::executor::encode_chord(&keys).expect(spec);
            let (main, modifiers) = encoded.split_last().expect("a chord has a key");
            assert_eq!(main.key, key, "{spec}");
            assert_eq!(main.code, code, "{spec}");
            assert_eq!(main.key_code, kc, "{spec}");
            assert_eq!(main.text.as_deref(), text, "{spec}");
            assert_eq!(crate::executor::modifier_mask(modifiers), mods, "{spec}");
        }
        for bad in [
            &[][..],
            &["Hyper".to_owned(), "a".to_owned()],
            &["ab".to_owned()],
        ] {
            assert!(
                crate::executor::encode_chord(bad).is_err(),
                "{bad:?} encoded"
            );
        }
    }
}
