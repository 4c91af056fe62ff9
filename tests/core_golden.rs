//! The shared core cases through `core::api`, natively, against the golden answers. Run with
//! `PRUFE_BLESS=1` to rewrite `tests/golden/core_cases.json` after a deliberate change.

#[path = "golden/cases.rs"]
mod cases;

use cases::cases;
use prufe::core::api;
use serde_json::{json, Map, Value};

fn native(op: &str, a: &[Value]) -> Value {
    match op {
        "resolve" => answer(api::resolve_value(&a[0], &a[1])),
        "diff" => answer(api::diff_value(&a[0], &a[1], &a[2])),
        "judge" => answer(api::judge_value(&a[0], &a[1], &a[2], &a[3])),
        other => panic!("unknown op {other}"),
    }
}

#[test]
fn native_answers_equal_the_golden_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/core_cases.json");
    let mut got = Map::new();
    for c in cases() {
        assert!(
            got.insert(c.name.to_owned(), native(c.op, &c.args))
                .is_none(),
            "duplicate case {}",
            c.name
        );
    }
    let got = Value::Object(got);
    if std::env::var_os("PRUFE_BLESS").is_some() {
        std::fs::write(path, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
    }
    let want: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for (name, answer) in got.as_object().unwrap() {
        assert_eq!(Some(answer), want.get(name), "case {name:?}");
    }
    assert_eq!(
        got.as_object().unwrap().len(),
        want.as_object().unwrap().len()
    );
}

/// The answer as the golden file records it: `{"ok": result}` or `{"error": {...}}`.
pub fn answer<T: serde::Serialize>(r: Result<T, prufe::core::Error>) -> Value {
    match r {
        Ok(v) => json!({ "ok": serde_json::to_value(v).unwrap() }),
        Err(e) => json!({ "error": serde_json::to_value(e).unwrap() }),
    }
}
