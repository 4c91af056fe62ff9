//! Input as a bare driver sends it: raw CDP mouse and key events at a point, nothing waited
//! for and nothing checked. The benches time verified actions against these.

use prufe_harness::cdp::Page;
use prufe_harness::inject::send;
use serde_json::json;

/// One `Input.dispatchMouseEvent` of `kind` at `p`; `buttons` held while moving.
pub async fn mouse(
    page: &Page,
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

/// Move to `p`, press and release the left button there.
pub async fn mouse_click(page: &Page, p: (f64, f64)) -> prufe_harness::Result<()> {
    mouse(page, "mouseMoved", p, 0).await?;
    mouse(page, "mousePressed", p, 1).await?;
    mouse(page, "mouseReleased", p, 1).await
}

/// Press at `a`, move to `b` in ten steps with the button held, release at `b`.
pub async fn mouse_drag(page: &Page, a: (f64, f64), b: (f64, f64)) -> prufe_harness::Result<()> {
    mouse(page, "mouseMoved", a, 0).await?;
    mouse(page, "mousePressed", a, 1).await?;
    for i in 1..=10 {
        let f = f64::from(i) / 10.0;
        let p = (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f);
        mouse(page, "mouseMoved", p, 1).await?;
    }
    mouse(page, "mouseReleased", b, 1).await
}

/// Key down and key up of `key` (`Enter`, `Tab`, anything else is Escape) on the focus.
pub async fn press_key(page: &Page, key: &str) -> prufe_harness::Result<()> {
    let (key, code, key_code, text) = key_fields(key);
    let mut down = json!({ "type": if text.is_some() { "keyDown" } else { "rawKeyDown" },
        "key": key, "code": code, "windowsVirtualKeyCode": key_code, "nativeVirtualKeyCode": key_code });
    if let Some(t) = text {
        down["text"] = json!(t);
        down["unmodifiedText"] = json!(t);
    }
    send(page, "Input.dispatchKeyEvent", down).await?;
    send(
        page,
        "Input.dispatchKeyEvent",
        json!({ "type": "keyUp", "key": key, "code": code,
                "windowsVirtualKeyCode": key_code, "nativeVirtualKeyCode": key_code }),
    )
    .await
    .map(drop)
}

/// `Input.dispatchKeyEvent` fields of the keys the benches press: key, code, key code, text.
fn key_fields(key: &str) -> (&'static str, &'static str, i64, Option<&'static str>) {
    match key {
        "Enter" => ("Enter", "Enter", 13, Some("\r")),
        "Tab" => ("Tab", "Tab", 9, None),
        _ => ("Escape", "Escape", 27, None),
    }
}
