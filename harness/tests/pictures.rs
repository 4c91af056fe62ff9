//! Pictures in traces, in real headless Chromium: `prufe run --screenshots` writes a before and
//! an after JPEG beside each record with the boxes the viewer outlines, no trace file holds a
//! secret, a bad `--screenshots` value changes nothing, and covering the secrets for a capture
//! is nothing the page's scripts can see.
//!
//! That the covered boxes are one flat colour in the saved JPEGs is checked where a JPEG can
//! be decoded: `www/viewer/viewer.test.mjs`, on a run of this same script.

mod common;

use common::cli::{show, PRUFE};

use common::{require_bundle, target, Servers, Session};
use serde_json::Value;
use std::path::Path;

const SECRET: &str = "hunter2-Secret!";

const SCRIPT: &str = r#"[
  {"action": "fill", "target": {"role": "textbox", "name": "Password"}, "value": "hunter2-Secret!"},
  {"action": "click", "target": {"role": "button", "name": "Add Shirt M"}}
]"#;

async fn run(dir: &Path, url: &str, extra: &[&str]) -> std::process::Output {
    run_script(dir, url, SCRIPT, extra).await
}

/// `prufe run URL --script DIR/script.json --trace-dir DIR/traces EXTRA…` with `script`.
async fn run_script(dir: &Path, url: &str, script: &str, extra: &[&str]) -> std::process::Output {
    let script_path = dir.join("script.json");
    std::fs::write(&script_path, script).unwrap();
    let script = script_path;
    let trace = dir.join("traces");
    let mut args = vec![
        "run",
        url,
        "--script",
        script.to_str().unwrap(),
        "--trace-dir",
        trace.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    tokio::process::Command::new(PRUFE)
        .args(&args)
        .kill_on_drop(true)
        .output()
        .await
        .expect("prufe runs")
}

fn records(dir: &Path) -> Vec<(String, Value)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let v = serde_json::from_str(&std::fs::read_to_string(dir.join(&n)).unwrap()).unwrap();
            (n, v)
        })
        .collect()
}

/// The JPEG a picture names, checked: beside the record, a JPEG of the size it says.
fn picture(dir: &Path, record: &str, p: &Value, which: &str) -> Vec<u8> {
    let stem = record.trim_end_matches(".json");
    assert_eq!(p["file"], format!("{stem}.{which}.jpg"), "{p}");
    let bytes = std::fs::read(dir.join(p["file"].as_str().unwrap())).unwrap();
    let (w, h) = prufe_harness::pictures::jpeg_size(&bytes).expect("a JPEG");
    assert_eq!(
        (Some(u64::from(w)), Some(u64::from(h))),
        (p["width"].as_u64(), p["height"].as_u64())
    );
    assert!((200..=800).contains(&w), "{w} px wide");
    bytes
}

fn inside(b: &Value, p: &Value) -> bool {
    let (x, y) = (p["x"].as_f64().unwrap(), p["y"].as_f64().unwrap());
    let n = |k: &str| b[k].as_f64().unwrap();
    x >= n("x") && y >= n("y") && x <= n("x") + n("width") && y <= n("y") + n("height")
}

#[tokio::test]
async fn every_step_keeps_two_covered_pictures_and_no_file_holds_the_secret() {
    require_bundle();
    let servers = Servers::start().await;
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &servers.url("trace-pictures.html"),
        &["--screenshots", "all"],
    )
    .await;
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let trace = dir.path().join("traces");
    let recs = records(&trace);
    let names: Vec<&str> = recs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["0001-fill-match.json", "0002-click-mismatch.json"],
        "{}",
        show(&out)
    );

    // The fill: the password field is the target, and it is covered in both pictures, as are
    // the card line and the line that echoes the password once it is typed.
    let (name, fill) = &recs[0];
    for which in ["before", "after"] {
        let p = &fill["pictures"][which];
        picture(&trace, name, p, which);
        let target = &p["target"];
        assert!(target.is_object(), "{which}: {p}");
        let centre = serde_json::json!({
            "x": target["x"].as_f64().unwrap() + target["width"].as_f64().unwrap() / 2.0,
            "y": target["y"].as_f64().unwrap() + target["height"].as_f64().unwrap() / 2.0,
        });
        let masked = p["masked"].as_array().unwrap();
        assert!(
            masked.iter().any(|b| inside(b, &centre)),
            "{which}: the password field is not among the covered boxes: {p}"
        );
    }
    let masked_after = fill["pictures"]["after"]["masked"]
        .as_array()
        .unwrap()
        .len();
    assert!(
        masked_after >= 3,
        "password, card and echo: {}",
        fill["pictures"]
    );

    // The MISMATCH: target and clicked point in both, the wrong effect outlined after.
    let (name, click) = &recs[1];
    assert_eq!(click["verdict"], "MISMATCH");
    for which in ["before", "after"] {
        let p = &click["pictures"][which];
        picture(&trace, name, p, which);
        assert!(p["target"].is_object(), "{which}: {p}");
        assert!(
            inside(&p["target"], &p["point"]),
            "{which}: the point is on the target: {p}"
        );
    }
    let effect = click["pictures"]["after"]["effect"].as_array().unwrap();
    assert!(!effect.is_empty(), "{}", click["pictures"]);
    assert_eq!(click["pictures"]["before"]["effect"], serde_json::json!([]));

    // No file of the trace holds the secret, in any form the page could echo it in.
    let forms = [
        SECRET.to_owned(),
        SECRET.to_lowercase(),
        "hunter2-Secret%21".to_owned(),
    ];
    for entry in std::fs::read_dir(&trace).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        for form in &forms {
            assert!(
                !bytes.windows(form.len()).any(|w| w == form.as_bytes()),
                "{} holds the secret",
                path.display()
            );
        }
    }
    assert!(!String::from_utf8_lossy(&out.stdout).contains(SECRET));
}

#[tokio::test]
async fn failures_only_by_default_and_a_bad_value_changes_nothing() {
    require_bundle();
    let servers = Servers::start().await;
    let dir = tempfile::tempdir().unwrap();
    let url = servers.url("trace-pictures.html");

    let out = run(dir.path(), &url, &["--screenshots", "sometimes"]).await;
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("INVALID_OPTIONS") && stderr.contains("off, failures or all"),
        "{stderr}"
    );
    assert!(!dir.path().join("traces").exists(), "nothing was written");

    let out = run(dir.path(), &url, &[]).await;
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let trace = dir.path().join("traces");
    let recs = records(&trace);
    assert_eq!(recs.len(), 2, "{}", show(&out));
    assert!(
        recs[0].1.get("pictures").is_none(),
        "a passed step keeps none"
    );
    assert!(recs[1].1["pictures"]["after"].is_object());
    let jpegs = std::fs::read_dir(&trace)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "jpg")
        })
        .count();
    assert_eq!(jpegs, 2);

    let off = tempfile::tempdir().unwrap();
    let out = run(off.path(), &url, &["--screenshots", "off"]).await;
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    for (_, r) in records(&off.path().join("traces")) {
        assert!(r.get("pictures").is_none(), "{r}");
    }
}

#[tokio::test]
async fn the_page_sees_nothing_of_the_cover() {
    let mut s = Session::open("trace-pictures.html").await;
    s.v.fill(target("textbox", "Password"), SECRET, false, None)
        .await
        .expect("the fill passes");
    let page = s.v.page().clone();
    let read = |js: &'static str| {
        let page = page.clone();
        async move {
            page.evaluate(js)
                .await
                .expect("evaluates")
                .into_value::<Value>()
                .expect("a value")
        }
    };
    // Let the focus transition of the field end, then start listening afresh.
    read("new Promise((r) => setTimeout(() => { window.pageSaw.length = 0; r(0); }, 1300))").await;
    let style = "(() => { const s = getComputedStyle(document.getElementById('password')); \
                 return [s.filter, s.boxShadow, s.color, document.adoptedStyleSheets.length]; })()";
    let before = read(style).await;

    let shot = s.v.picture().await.expect("a covered picture");
    assert!(
        shot.masked.len() >= 3,
        "password, card and echo: {:?}",
        shot.masked
    );
    assert_eq!(
        prufe_harness::pictures::jpeg_size(&shot.jpeg),
        Some((shot.width, shot.height))
    );

    // Nothing the page listens to fired, and its styles are back as they were.
    read("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))").await;
    assert_eq!(read("window.pageSaw").await, serde_json::json!([]));
    assert_eq!(read(style).await, before);
    assert_eq!(
        read("document.getAnimations().length").await,
        serde_json::json!(0),
        "no transition started"
    );
    s.close().await;
}

#[tokio::test]
async fn a_coordinate_click_is_traced_with_its_point() {
    require_bundle();
    let servers = Servers::start().await;
    let url = servers.url("trace-pictures.html");
    // Where the password field is: the target box of a fill's picture, in CSS pixels.
    let first = tempfile::tempdir().unwrap();
    let out = run_script(
        first.path(),
        &url,
        r#"[{"action": "fill", "target": {"role": "textbox", "name": "Password"}, "value": "x"}]"#,
        &["--screenshots", "all"],
    )
    .await;
    let fill_trace = first.path().join("traces");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let before = &records(&fill_trace)[0].1["pictures"]["before"];
    let (t, k) = (&before["target"], before["scale"].as_f64().unwrap());
    let n = |key: &str| t[key].as_f64().unwrap() / k;
    let (x, y) = (
        (n("x") + n("width") / 2.0).round(),
        (n("y") + n("height") / 2.0).round(),
    );

    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        r#"[{{"action": "screenshot"}}, {{"action": "click_at", "x": {x}, "y": {y}, "observation": "obs-1"}}]"#
    );
    let out = run_script(dir.path(), &url, &script, &["--screenshots", "all"]).await;
    let trace = dir.path().join("traces");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let recs = records(&trace);
    assert_eq!(recs.len(), 1, "{}", show(&out));
    let (name, click) = &recs[0];
    assert_eq!(name, "0001-click_at-match.json");
    for which in ["before", "after"] {
        let p = &click["pictures"][which];
        picture(&trace, name, p, which);
        let point = &p["point"];
        let k = p["scale"].as_f64().unwrap();
        assert!((point["x"].as_f64().unwrap() - x * k).abs() < 1.0, "{p}");
        assert!(
            p["masked"]
                .as_array()
                .unwrap()
                .iter()
                .any(|b| inside(b, point)),
            "{which}: the field clicked is covered: {p}"
        );
    }
}
