//! Real input with a ledger: every button and key is recorded *before* its press is sent, so
//! a press whose answer never came (an error, a timeout, a cancelled future) is still owed a
//! release. Whatever way an action ends, [`Input::release_all`] releases what is held, newest
//! first, and reports whether every release went through.
//!
//! Three ways an action can end, and who releases:
//! - success: the gesture released what it pressed; the ledger is empty;
//! - an error or a timeout (every event has a deadline): the caller calls `release_all`;
//! - cancellation (the caller dropped the future): the [`ReleaseGuard`] taken at the start
//!   spawns the releases on the current runtime when it is dropped still armed.
//!
//! A held button is released over the point where it was pressed, after moving back there
//! with the button still held: an aborted drag drops where it began, not on whatever lies
//! under the pointer when the drag stopped.
//!
//! Commands go through a [`Sink`] (a tab's [`crate::cdp::Page`] in use, a scripted fake in the unit
//! tests), so every failure path is tested without a browser.

use crate::error::{Error, Result};
use crate::executor::{Button, Held, InputLedger, Key, Point, ReleaseReport};
use serde_json::{json, Value};
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// How long one input event may take to be acknowledged before the action is abandoned
/// (and everything held released).
pub const EVENT_TIMEOUT: Duration = Duration::from_secs(5);

/// Where DevTools commands go.
pub trait Sink: Clone + Send + Sync + 'static {
    fn send(
        &self,
        method: &'static str,
        params: Value,
    ) -> impl Future<Output = Result<Value>> + Send;
}

impl Sink for crate::cdp::Page {
    fn send(
        &self,
        method: &'static str,
        params: Value,
    ) -> impl Future<Output = Result<Value>> + Send {
        let page = self.clone();
        async move { crate::cdp::send(&page, method, params).await }
    }
}

/// The ledger shared by an executor, its in-flight gesture and a release spawned on drop.
pub type SharedLedger = Arc<Mutex<InputLedger>>;

pub(crate) fn lock(ledger: &Mutex<InputLedger>) -> MutexGuard<'_, InputLedger> {
    ledger
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

// Modifier bits that turn a key into a shortcut, so it types no text (Alt, Control, Meta).
// https://chromedevtools.github.io/devtools-protocol/tot/Input/#method-dispatchKeyEvent
const SHORTCUT_MODIFIERS: i64 = 1 | 2 | 4;

/// Sends `method` and waits at most `timeout` for its answer.
async fn send_within<S: Sink>(
    sink: &S,
    timeout: Duration,
    method: &'static str,
    params: Value,
) -> Result<Value> {
    match tokio::time::timeout(timeout, sink.send(method, params)).await {
        Ok(r) => r,
        Err(_) => Err(Error::Timeout(format!(
            "{method} got no answer within {} ms",
            timeout.as_millis()
        ))),
    }
}

/// The CDP `button` of a mouse move: the first held button, else `none`.
fn moving_button(buttons: i64) -> &'static str {
    [Button::Left, Button::Right, Button::Middle]
        .into_iter()
        .find(|b| buttons & b.mask() != 0)
        .map_or("none", Button::as_cdp)
}

/// Input to one page, recorded in a ledger.
pub struct Input<S: Sink> {
    sink: S,
    ledger: SharedLedger,
    timeout: Duration,
    pointer: Option<Point>,
}

impl<S: Sink> Input<S> {
    /// `timeout` bounds every single event.
    pub fn new(sink: S, ledger: SharedLedger, timeout: Duration) -> Self {
        Input {
            sink,
            ledger,
            timeout,
            pointer: None,
        }
    }

    /// Where the last mouse event put the pointer.
    pub fn pointer(&self) -> Option<Point> {
        self.pointer
    }

    /// A guard that releases whatever is still held if it is dropped armed.
    pub fn guard(&self) -> ReleaseGuard<S> {
        ReleaseGuard {
            sink: self.sink.clone(),
            ledger: self.ledger.clone(),
            timeout: self.timeout,
            armed: true,
        }
    }

    async fn send(&self, method: &'static str, params: Value) -> Result<Value> {
        send_within(&self.sink, self.timeout, method, params).await
    }

    fn held_state(&self) -> (i64, i64) {
        let l = lock(&self.ledger);
        (l.buttons(), l.modifiers())
    }

    /// Moves the pointer to `p`, with whatever buttons and modifiers are held.
    pub async fn move_to(&mut self, p: Point) -> Result<()> {
        let (buttons, modifiers) = self.held_state();
        self.send(
            "Input.dispatchMouseEvent",
            json!({ "type": "mouseMoved", "x": p.x, "y": p.y, "button": moving_button(buttons),
                    "buttons": buttons, "modifiers": modifiers, "pointerType": "mouse" }),
        )
        .await?;
        self.pointer = Some(p);
        Ok(())
    }

    /// Presses `button` at `p` (recorded first).
    pub async fn press(&mut self, button: Button, p: Point) -> Result<()> {
        lock(&self.ledger).pressed(Held::Button { button, at: p });
        let (buttons, modifiers) = self.held_state();
        self.send(
            "Input.dispatchMouseEvent",
            json!({ "type": "mousePressed", "x": p.x, "y": p.y, "button": button.as_cdp(), "buttons": buttons,
                    "clickCount": 1, "modifiers": modifiers, "pointerType": "mouse" }),
        )
        .await?;
        self.pointer = Some(p);
        Ok(())
    }

    /// Releases `button` at `p`; the ledger forgets it once the release went through.
    pub async fn release(&mut self, button: Button, p: Point) -> Result<()> {
        let (buttons, modifiers) = self.held_state();
        self.send(
            "Input.dispatchMouseEvent",
            json!({ "type": "mouseReleased", "x": p.x, "y": p.y, "button": button.as_cdp(),
                    "buttons": buttons & !button.mask(), "clickCount": 1, "modifiers": modifiers, "pointerType": "mouse" }),
        )
        .await?;
        lock(&self.ledger).released(&Held::Button { button, at: p });
        self.pointer = Some(p);
        Ok(())
    }

    /// Presses and releases `button` at `p`.
    pub async fn click(&mut self, button: Button, p: Point) -> Result<()> {
        self.press(button, p).await?;
        self.release(button, p).await
    }

    /// Presses `key` (recorded first), with the modifiers held, itself included.
    pub async fn key_down(&mut self, key: &Key) -> Result<()> {
        lock(&self.ledger).pressed(Held::Key(key.clone()));
        let (_, modifiers) = self.held_state();
        let text = key
            .text
            .as_deref()
            .filter(|_| modifiers & SHORTCUT_MODIFIERS == 0);
        let mut params = json!({
            "type": if text.is_some() { "keyDown" } else { "rawKeyDown" },
            "key": key.key, "code": key.code, "modifiers": modifiers,
            "windowsVirtualKeyCode": key.key_code, "nativeVirtualKeyCode": key.key_code,
        });
        if let Some(t) = text {
            params["text"] = json!(t);
            params["unmodifiedText"] = json!(t);
        }
        self.send("Input.dispatchKeyEvent", params).await?;
        Ok(())
    }

    /// Releases `key`; the ledger forgets it once the release went through.
    pub async fn key_up(&mut self, key: &Key) -> Result<()> {
        send_key_up(&self.sink, self.timeout, &self.ledger, key).await?;
        lock(&self.ledger).released(&Held::Key(key.clone()));
        Ok(())
    }

    /// A wheel turn at `p` (CSS pixels of scroll); it goes to the scroll container under `p`.
    pub async fn wheel(&mut self, p: Point, dx: f64, dy: f64) -> Result<()> {
        let (buttons, modifiers) = self.held_state();
        self.send(
            "Input.dispatchMouseEvent",
            json!({ "type": "mouseWheel", "x": p.x, "y": p.y, "deltaX": dx, "deltaY": dy, "button": moving_button(buttons),
                    "buttons": buttons, "modifiers": modifiers, "pointerType": "mouse" }),
        )
        .await?;
        self.pointer = Some(p);
        Ok(())
    }

    /// Inserts `text` at the caret of the focused element (no key events, no layout).
    pub async fn insert_text(&mut self, text: &str) -> Result<()> {
        self.send("Input.insertText", json!({ "text": text }))
            .await?;
        Ok(())
    }

    /// Releases everything held, newest first.
    pub async fn release_all(&mut self) -> ReleaseReport {
        release_held(&self.sink, &self.ledger, self.timeout).await
    }
}

async fn send_key_up<S: Sink>(
    sink: &S,
    timeout: Duration,
    ledger: &Mutex<InputLedger>,
    key: &Key,
) -> Result<Value> {
    let modifiers = lock(ledger).modifiers() & !key.modifier_bit;
    send_within(
        sink,
        timeout,
        "Input.dispatchKeyEvent",
        json!({ "type": "keyUp", "key": key.key, "code": key.code, "modifiers": modifiers,
                "windowsVirtualKeyCode": key.key_code, "nativeVirtualKeyCode": key.key_code }),
    )
    .await
}

/// Releases everything `ledger` holds, newest first. A release that fails stays recorded.
pub async fn release_held<S: Sink>(
    sink: &S,
    ledger: &Mutex<InputLedger>,
    timeout: Duration,
) -> ReleaseReport {
    let owed = lock(ledger).newest_first();
    let mut failed = 0;
    for held in &owed {
        let ok = match held {
            Held::Key(key) => send_key_up(sink, timeout, ledger, key).await.is_ok(),
            Held::Button { button, at } => {
                let (buttons, modifiers) = {
                    let l = lock(ledger);
                    (l.buttons(), l.modifiers())
                };
                // Back over the press point with the button held, so the release drops there.
                let _ = send_within(
                    sink,
                    timeout,
                    "Input.dispatchMouseEvent",
                    json!({ "type": "mouseMoved", "x": at.x, "y": at.y, "button": moving_button(buttons),
                            "buttons": buttons, "modifiers": modifiers, "pointerType": "mouse" }),
                )
                .await;
                send_within(
                    sink,
                    timeout,
                    "Input.dispatchMouseEvent",
                    json!({ "type": "mouseReleased", "x": at.x, "y": at.y, "button": button.as_cdp(),
                            "buttons": buttons & !button.mask(), "clickCount": 1, "modifiers": modifiers, "pointerType": "mouse" }),
                )
                .await
                .is_ok()
            }
        };
        if ok {
            lock(ledger).released(held);
        } else {
            failed += 1;
        }
    }
    ReleaseReport {
        owed: owed.len(),
        failed,
    }
}

/// Releases what is still held when dropped armed: the path a cancelled action takes.
pub struct ReleaseGuard<S: Sink> {
    sink: S,
    ledger: SharedLedger,
    timeout: Duration,
    armed: bool,
}

impl<S: Sink> ReleaseGuard<S> {
    /// The action released (or reported) its input itself.
    pub fn disarm(mut self) {
        self.armed = false;
    }
}

impl<S: Sink> Drop for ReleaseGuard<S> {
    fn drop(&mut self) {
        if !self.armed || lock(&self.ledger).held().is_empty() {
            return;
        }
        // Outside a runtime nothing can be sent; the next action releases first instead.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let (sink, ledger, timeout) = (self.sink.clone(), self.ledger.clone(), self.timeout);
            runtime.spawn(async move {
                release_held(&sink, &ledger, timeout).await;
            });
        }
    }
}

/// A chord: modifiers down in order, the main key down and up, modifiers up in reverse.
/// On an error the caller releases what is held ([`Input::release_all`]).
pub async fn chord<S: Sink>(input: &mut Input<S>, keys: &[Key]) -> Result<()> {
    let Some((main, modifiers)) = keys.split_last() else {
        return Ok(());
    };
    for m in modifiers {
        input.key_down(m).await?;
    }
    input.key_down(main).await?;
    input.key_up(main).await?;
    for m in modifiers.iter().rev() {
        input.key_up(m).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::executor::{encode_chord, parse_key};
    use prufe::core::error::ErrorCode;
    use prufe::core::run::chord::{canonical, pressed};

    /// A chord as the machine sends it (read, then split), encoded for CDP.
    fn parse_chord(spec: &str) -> Result<Vec<crate::executor::Key>, prufe::core::error::Error> {
        encode_chord(&pressed(&canonical(spec)?))
    }

    /// A scripted sink: records every command; fails or hangs the commands it is told to.
    #[derive(Clone, Default)]
    struct Fake {
        log: Arc<Mutex<Vec<(String, Value)>>>,
        /// Index (0-based, in sending order) of a command that fails.
        fail_at: Option<usize>,
        /// Index of a command that never answers.
        hang_at: Option<usize>,
        /// Every mouseReleased/keyUp fails.
        releases_fail: bool,
    }

    impl Fake {
        fn events(&self) -> Vec<String> {
            self.log
                .lock()
                .unwrap()
                .iter()
                .map(|(m, p)| {
                    let kind = p["type"].as_str().unwrap_or(m);
                    match (p.get("key"), p.get("button")) {
                        (Some(k), _) => format!(
                            "{kind} {} mods={}",
                            k.as_str().unwrap_or(""),
                            p["modifiers"]
                        ),
                        (None, Some(b)) => format!(
                            "{kind} {} buttons={} at {},{}",
                            b.as_str().unwrap_or(""),
                            p["buttons"],
                            p["x"],
                            p["y"]
                        ),
                        _ => kind.to_owned(),
                    }
                })
                .collect()
        }
    }

    impl Sink for Fake {
        fn send(
            &self,
            method: &'static str,
            params: Value,
        ) -> impl Future<Output = Result<Value>> + Send {
            let index = {
                let mut log = self.log.lock().unwrap();
                log.push((method.to_owned(), params.clone()));
                log.len() - 1
            };
            let kind = params["type"].as_str().unwrap_or("").to_owned();
            let fail = self.fail_at == Some(index)
                || (self.releases_fail && (kind == "mouseReleased" || kind == "keyUp"));
            let hang = self.hang_at == Some(index);
            async move {
                if hang {
                    std::future::pending::<()>().await;
                }
                if fail {
                    Err(Error::Launch(format!("{method} {kind} failed")))
                } else {
                    Ok(json!({}))
                }
            }
        }
    }

    /// A drag as the machine sends it (`run::drag`): down at `from`, the moves of the path,
    /// up at its end; the machine stops after move `stop_after` (0-based) when told to, and
    /// the caller releases what is held.
    async fn drag(
        input: &mut Input<Fake>,
        from: Point,
        path: &[Point],
        stop_after: Option<usize>,
    ) -> Result<()> {
        input.move_to(from).await?;
        input.press(Button::Left, from).await?;
        for (i, p) in path.iter().enumerate() {
            input.move_to(*p).await?;
            if stop_after == Some(i) {
                return Err(Error::core(
                    ErrorCode::TargetChanged,
                    "the destination is gone",
                ));
            }
        }
        input
            .release(Button::Left, path.last().copied().unwrap_or(from))
            .await
    }

    fn input(fake: &Fake, timeout_ms: u64) -> (Input<Fake>, SharedLedger) {
        let ledger = SharedLedger::default();
        (
            Input::new(
                fake.clone(),
                ledger.clone(),
                Duration::from_millis(timeout_ms),
            ),
            ledger,
        )
    }

    const A: Point = Point { x: 10.0, y: 20.0 };
    const B: Point = Point { x: 50.0, y: 20.0 };

    #[tokio::test]
    async fn chord_presses_modifiers_first_and_releases_them_last() {
        let fake = Fake::default();
        let (mut i, ledger) = input(&fake, 1_000);
        chord(&mut i, &parse_chord("Control+Shift+s").unwrap())
            .await
            .unwrap();
        assert_eq!(
            fake.events(),
            [
                "rawKeyDown Control mods=2",
                "rawKeyDown Shift mods=10",
                // The machine sends a letter under Shift as its capital, as a keyboard types it.
                "rawKeyDown S mods=10",
                "keyUp S mods=10",
                "keyUp Shift mods=2",
                "keyUp Control mods=0",
            ]
        );
        assert!(lock(&ledger).held().is_empty());
        // A plain key types its text.
        let fake = Fake::default();
        let (mut i, _) = input(&fake, 1_000);
        chord(&mut i, &parse_chord("a").unwrap()).await.unwrap();
        assert_eq!(fake.log.lock().unwrap()[0].1["text"], "a");
    }

    #[tokio::test]
    async fn a_failed_chord_releases_everything_in_reverse() {
        // The main key's press fails: it was recorded first, so it is released too.
        let fake = Fake {
            fail_at: Some(1),
            ..Default::default()
        };
        let (mut i, ledger) = input(&fake, 1_000);
        let e = chord(&mut i, &parse_chord("Control+s").unwrap())
            .await
            .unwrap_err();
        assert_eq!(e.code(), ErrorCode::BrowserError);
        assert_eq!(lock(&ledger).held().len(), 2);
        let report = i.release_all().await;
        assert_eq!(report, ReleaseReport { owed: 2, failed: 0 });
        assert_eq!(
            &fake.events()[2..],
            ["keyUp s mods=2", "keyUp Control mods=0"]
        );
        assert!(lock(&ledger).held().is_empty());
    }

    #[tokio::test]
    async fn a_drag_that_fails_halfway_releases_over_its_start() {
        let fake = Fake::default();
        let (mut i, ledger) = input(&fake, 1_000);
        let path = prufe::core::run::drag::path(A, B, 4);
        let e = drag(&mut i, A, &path, Some(2)).await.unwrap_err();
        assert_eq!(e.code(), ErrorCode::TargetChanged);
        assert_eq!(
            lock(&ledger).buttons(),
            1,
            "the button is still down until released"
        );
        let report = i.release_all().await;
        assert!(report.clean());
        let ev = fake.events();
        assert_eq!(ev[0], "mouseMoved none buttons=0 at 10.0,20.0");
        assert_eq!(ev[1], "mousePressed left buttons=1 at 10.0,20.0");
        assert!(
            ev[2..5]
                .iter()
                .all(|e| e.starts_with("mouseMoved left buttons=1")),
            "{ev:?}"
        );
        assert_eq!(
            &ev[5..],
            [
                "mouseMoved left buttons=1 at 10.0,20.0",
                "mouseReleased left buttons=0 at 10.0,20.0"
            ]
        );
        assert_eq!(lock(&ledger).buttons(), 0);
    }

    #[tokio::test]
    async fn a_completed_drag_owes_nothing() {
        let fake = Fake::default();
        let (mut i, ledger) = input(&fake, 1_000);
        let path = prufe::core::run::drag::path(A, B, 3);
        drag(&mut i, A, &path, None).await.unwrap();
        assert_eq!(
            fake.events().last().unwrap(),
            "mouseReleased left buttons=0 at 50.0,20.0"
        );
        assert_eq!(i.release_all().await, ReleaseReport { owed: 0, failed: 0 });
        assert!(lock(&ledger).held().is_empty());
    }

    #[tokio::test]
    async fn an_event_that_never_answers_times_out_and_releases() {
        // The third command (the first move while held) hangs.
        let fake = Fake {
            hang_at: Some(2),
            ..Default::default()
        };
        let (mut i, ledger) = input(&fake, 30);
        let path = prufe::core::run::drag::path(A, B, 4);
        let e = drag(&mut i, A, &path, None).await.unwrap_err();
        assert_eq!(e.code(), ErrorCode::Timeout);
        assert!(i.release_all().await.clean());
        assert!(lock(&ledger).held().is_empty());
        assert_eq!(
            fake.events().last().unwrap(),
            "mouseReleased left buttons=0 at 10.0,20.0"
        );
    }

    #[tokio::test]
    async fn a_press_that_errs_is_still_released() {
        let fake = Fake {
            fail_at: Some(0),
            ..Default::default()
        };
        let (mut i, ledger) = input(&fake, 1_000);
        assert!(i.click(Button::Right, A).await.is_err());
        assert_eq!(lock(&ledger).buttons(), 2);
        assert!(i.release_all().await.clean());
        assert_eq!(
            fake.events().last().unwrap(),
            "mouseReleased right buttons=0 at 10.0,20.0"
        );
    }

    #[tokio::test]
    async fn a_failed_release_is_reported_and_stays_owed() {
        let fake = Fake {
            releases_fail: true,
            ..Default::default()
        };
        let (mut i, ledger) = input(&fake, 1_000);
        i.key_down(&parse_key("Shift").unwrap()).await.unwrap();
        i.press(Button::Left, A).await.unwrap();
        let report = i.release_all().await;
        assert_eq!(report, ReleaseReport { owed: 2, failed: 2 });
        assert!(!report.clean());
        assert_eq!(
            lock(&ledger).held().len(),
            2,
            "what did not release is still owed"
        );
    }

    #[tokio::test]
    async fn a_cancelled_drag_is_released_by_its_guard() {
        // The fourth command hangs (with a long deadline); the caller gives up and drops it.
        let fake = Fake {
            hang_at: Some(3),
            ..Default::default()
        };
        let (mut i, ledger) = input(&fake, 60_000);
        let path = prufe::core::run::drag::path(A, B, 4);
        let cancelled = tokio::time::timeout(Duration::from_millis(50), async {
            let guard = i.guard();
            let r = drag(&mut i, A, &path, None).await;
            guard.disarm();
            r
        })
        .await;
        assert!(cancelled.is_err(), "the drag was cancelled mid-way");
        for _ in 0..100 {
            if lock(&ledger).held().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert!(
            lock(&ledger).held().is_empty(),
            "the guard released the button"
        );
        assert_eq!(
            fake.events().last().unwrap(),
            "mouseReleased left buttons=0 at 10.0,20.0"
        );
    }

    #[tokio::test]
    async fn a_disarmed_guard_sends_nothing() {
        let fake = Fake::default();
        let (i, ledger) = input(&fake, 1_000);
        lock(&ledger).pressed(Held::Button {
            button: Button::Left,
            at: A,
        });
        i.guard().disarm();
        tokio::task::yield_now().await;
        assert!(fake.events().is_empty());
    }
}
