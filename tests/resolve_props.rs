//! Properties of `resolve_value` over arbitrary and mutated JSON: it never panics, every failure
//! carries a code and a message, and success means exactly one visible element matches.
//!
//! The oracle below re-implements the matching rule from the documented contract, reading the
//! JSON directly, so it shares no code with the resolver.

use proptest::prelude::*;
use prufe::core::error::{ErrorCode, MAX_CANDIDATES};
use prufe::core::model::{Context, Element, Role, Snapshot};
use prufe::core::resolve::resolve_value;
use serde_json::{json, Map, Value};

const KEYS: &[&str] = &[
    "role",
    "name",
    "ref",
    "region",
    "frame",
    "href",
    "inViewport",
    "visible",
    "disabled",
    "context",
    "tab",
    "epoch",
    "snapshot",
    "hasMore",
    "elements",
    "texts",
    "text",
    "value",
    "checked",
    "level",
    "opaque",
    "kind",
    "x",
];

const ELEMENT_KEYS: &[&str] = &[
    "ref",
    "role",
    "name",
    "region",
    "frame",
    "href",
    "value",
    "checked",
    "pressed",
    "selected",
    "expanded",
    "disabled",
    "visible",
    "inViewport",
    "focused",
    "sensitive",
    "text",
    "valueHash",
    "level",
    "opaque",
];

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        prop_oneof![
            Just("button".to_owned()),
            Just("Save".to_owned()),
            Just("mixed".to_owned()),
            Just(String::new()),
            "\\PC{0,12}",
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        prop::sample::select(KEYS).prop_map(str::to_owned),
                        "\\PC{0,8}"
                    ],
                    inner
                ),
                0..6,
            )
            .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn arb_element() -> impl Strategy<Value = Element> {
    (
        (
            prop::sample::select(&[Role::Button, Role::Link, Role::Listitem][..]),
            prop::sample::select(&["Save", "save", " Save\n", "Save draft", "", "Cancel"][..]),
            prop::option::of(prop::sample::select(&["Save", "Shirt M"][..])),
            prop::sample::select(&["main", "", "dialog[Confirm]", " MAIN"][..]),
            prop::sample::select(&["", "0"][..]),
            prop::option::of(prop::sample::select(&["/a", "/b"][..])),
        ),
        (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(
                (role, name, text, region, frame, href),
                (visible, disabled, in_viewport, hidden_bias),
            )| Element {
                role,
                name: name.to_owned(),
                text: text.map(str::to_owned),
                region: region.to_owned(),
                frame: frame.to_owned(),
                href: href.map(str::to_owned),
                disabled,
                // Mostly visible, so matches are common.
                visible: visible || hidden_bias,
                in_viewport,
                ..Default::default()
            },
        )
}

/// A valid observation: refs are unique unless the duplicate slot copies one ref onto another.
fn arb_snapshot() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(arb_element(), 0..7),
        prop::bool::weighted(0.1),
        prop::option::weighted(0.1, (0..7usize, 0..7usize)),
    )
        .prop_map(|(mut elements, has_more, duplicate)| {
            for (i, e) in elements.iter_mut().enumerate() {
                e.reference = format!("e{i}");
            }
            if let Some((a, b)) = duplicate {
                let n = elements.len();
                if n > 1 && a % n != b % n {
                    elements[b % n].reference = elements[a % n].reference.clone();
                }
            }
            serde_json::to_value(Snapshot {
                context: Context {
                    tab: "t1".into(),
                    epoch: 7,
                    snapshot: "s1".into(),
                },
                has_more,
                elements,
                texts: Vec::new(),
            })
            .unwrap()
        })
}

/// An observation and a target: half the time the target copies an element's role and label
/// (re-cased and re-spaced) and some of its narrowing fields, so matches are common.
fn arb_case() -> impl Strategy<Value = (Value, Value)> {
    (
        arb_snapshot(),
        arb_target(),
        prop::option::weighted(0.5, (0..7usize, any::<[bool; 5]>())),
    )
        .prop_map(|(obs, mut target, from)| {
            let elements = obs["elements"].as_array().unwrap();
            if let (Some((i, pick)), false) = (from, elements.is_empty()) {
                let e = &elements[i % elements.len()];
                let name = e["name"].as_str().unwrap();
                let label = if name.is_empty() {
                    e.get("text").and_then(Value::as_str).unwrap_or("")
                } else {
                    name
                };
                if !label.trim().is_empty() {
                    let role = e["role"].as_str().unwrap();
                    let role = if pick[0] {
                        role.to_uppercase()
                    } else {
                        role.to_owned()
                    };
                    let name = if pick[1] {
                        format!("  {}\n", label.to_lowercase())
                    } else {
                        label.to_owned()
                    };
                    target = json!({ "role": role, "name": name });
                    for (k, key) in ["region", "frame", "href"].into_iter().enumerate() {
                        if pick[k + 2] && !e[key].is_null() {
                            target[key] = e[key].clone();
                        }
                    }
                    if pick[4] {
                        target["inViewport"] = e["inViewport"].clone();
                    }
                }
            }
            (obs, target)
        })
}

fn arb_target() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(&["button", "BUTTON", "link", "listitem"][..]),
        prop::sample::select(&["Save", " save ", "Save draft", "Shirt M", "Cancel"][..]),
        prop::option::of(prop::sample::select(&["main", "", "Dialog[confirm]"][..])),
        prop::option::of(prop::sample::select(&["", "0"][..])),
        prop::option::of(prop::sample::select(&["/a", "/b"][..])),
        prop::option::of(any::<bool>()),
    )
        .prop_map(|(role, name, region, frame, href, in_viewport)| {
            let mut t = json!({ "role": role, "name": name });
            for (key, value) in [("region", region), ("frame", frame), ("href", href)] {
                if let Some(v) = value {
                    t[key] = json!(v);
                }
            }
            if let Some(v) = in_viewport {
                t["inViewport"] = json!(v);
            }
            t
        })
}

/// One way to break a valid input, or none (`kind` 0).
#[derive(Debug, Clone)]
struct Mutation {
    kind: u8,
    index: usize,
    key: usize,
    replacement: Value,
}

fn arb_mutation() -> impl Strategy<Value = Mutation> {
    let kind = prop_oneof![4 => Just(0u8), 6 => 1..9u8];
    (kind, 0..8usize, 0..32usize, arb_json()).prop_map(|(kind, index, key, replacement)| Mutation {
        kind,
        index,
        key,
        replacement,
    })
}

fn apply(m: &Mutation, obs: &mut Value, target: &mut Value) {
    let element_key = ELEMENT_KEYS[m.key % ELEMENT_KEYS.len()];
    let elements = obs["elements"].as_array_mut().unwrap();
    let n = elements.len();
    let element = if n == 0 {
        None
    } else {
        elements[m.index % n].as_object_mut()
    };
    match (m.kind, element) {
        (1, Some(e)) => {
            e.insert(element_key.to_owned(), m.replacement.clone());
        }
        (2, Some(e)) => {
            e.remove(element_key);
        }
        (3, Some(e)) => {
            e.insert(
                KEYS[m.key % KEYS.len()].to_owned() + "_",
                m.replacement.clone(),
            );
        }
        (4, _) => {
            let key = ["context", "hasMore", "elements", "texts", "extra"][m.key % 5];
            obs[key] = m.replacement.clone();
        }
        (5, _) => {
            let key = ["tab", "epoch", "snapshot", "extra"][m.key % 4];
            obs["context"][key] = m.replacement.clone();
        }
        (6, _) if n > 0 => obs["elements"][m.index % n] = m.replacement.clone(),
        (7, _) => {
            let key = [
                "role",
                "name",
                "region",
                "frame",
                "href",
                "inViewport",
                "index",
            ][m.key % 7];
            target[key] = m.replacement.clone();
        }
        (8, _) => {
            let key = ["role", "name"][m.key % 2];
            target.as_object_mut().unwrap().remove(key);
        }
        _ => {}
    }
}

fn key(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The refs of the visible elements of `obs` that `target` matches, read from the JSON.
fn oracle_matches<'a>(target: &Value, obs: &'a Value) -> Vec<&'a Value> {
    oracle_identity(target, obs, true)
}

/// The elements with the target's identity and conditions, visible or hidden.
fn oracle_identity<'a>(target: &Value, obs: &'a Value, visible: bool) -> Vec<&'a Value> {
    let given = |k: &str| target.get(k).filter(|v| !v.is_null());
    obs["elements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            let name = e["name"].as_str().unwrap();
            let label = if name.is_empty() {
                e.get("text").and_then(Value::as_str).unwrap_or("")
            } else {
                name
            };
            e["visible"] == json!(visible)
                // No role: any role; `generic`: clickable generics only.
                && given("role").is_none_or(|r| {
                    let role = key(r.as_str().unwrap());
                    key(e["role"].as_str().unwrap()) == role
                        && (role != "generic" || e["clickable"] == json!(true))
                })
                && key(label) == key(target["name"].as_str().unwrap())
                && given("region")
                    .is_none_or(|r| key(r.as_str().unwrap()) == key(e["region"].as_str().unwrap()))
                && given("frame").is_none_or(|f| *f == e["frame"])
                && given("href").is_none_or(|h| *h == e["href"])
                && given("inViewport").is_none_or(|v| *v == e["inViewport"])
        })
        .collect()
}

fn has_duplicate_refs(obs: &Value) -> bool {
    let refs: Vec<&str> = obs["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["ref"].as_str().unwrap())
        .collect();
    let mut unique = refs.clone();
    unique.sort_unstable();
    unique.dedup();
    unique.len() != refs.len()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_json_never_panics(target in arb_json(), obs in arb_json(), expected in prop::option::of(arb_json())) {
        let (t0, o0, x0) = (target.clone(), obs.clone(), expected.clone());
        if let Err(e) = resolve_value(&target, &obs, expected.as_ref()) {
            prop_assert!(!e.message.is_empty());
            prop_assert!(e.code.as_str().chars().all(|c| c.is_ascii_uppercase() || c == '_'));
        }
        prop_assert_eq!((target, obs, expected), (t0, o0, x0));
    }

    #[test]
    fn mutated_observations_resolve_to_one_visible_match_or_fail_with_a_code(
        case in arb_case(),
        mutation in arb_mutation(),
        expected_kind in prop_oneof![4 => Just(0u8), 4 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8)],
        other in arb_json(),
    ) {
        let (mut obs, mut target) = case;
        apply(&mutation, &mut obs, &mut target);
        let context = obs["context"].clone();
        let expected = match expected_kind {
            0 => None,
            1 => Some(context.clone()),
            2 => Some(json!({ "tab": "t1", "epoch": 8, "snapshot": "s1" })),
            _ => Some(other),
        };
        let result = resolve_value(&target, &obs, expected.as_ref());
        match &result {
            Ok(res) => {
                let matches = oracle_matches(&target, &obs);
                prop_assert_eq!(matches.len(), 1, "Ok with {} oracle matches", matches.len());
                let element: Element = serde_json::from_value(matches[0].clone()).unwrap();
                prop_assert_eq!(&res.target, &element);
                prop_assert!(!element.disabled && element.visible);
                prop_assert_eq!(obs["hasMore"].clone(), json!(false));
                prop_assert!(!has_duplicate_refs(&obs));
                prop_assert!(!res.authorized && !res.dispatched);
                if let Some(x) = &expected {
                    prop_assert_eq!(x, &context);
                }
            }
            Err(e) => {
                prop_assert!(!e.message.is_empty());
                prop_assert!(e.candidates.len() <= MAX_CANDIDATES);
                if e.code == ErrorCode::TargetAmbiguous {
                    prop_assert!(e.candidates.len() >= 2);
                } else {
                    prop_assert!(e.candidates.is_empty());
                }
            }
        }

        // Unmutated input with a matching or absent expectation: the oracle predicts the outcome.
        if mutation.kind == 0 && expected_kind <= 1 {
            let matches = oracle_matches(&target, &obs);
            let want: Result<String, ErrorCode> = if has_duplicate_refs(&obs) {
                Err(ErrorCode::DuplicateReference)
            } else if obs["hasMore"] == json!(true) {
                Err(ErrorCode::TargetQueryTruncated)
            } else if matches.is_empty() && !oracle_identity(&target, &obs, false).is_empty() {
                Err(ErrorCode::TargetNotVisible)
            } else if matches.is_empty() {
                Err(ErrorCode::TargetNotFound)
            } else if matches.len() > 1 {
                Err(ErrorCode::TargetAmbiguous)
            } else if matches[0]["disabled"] == json!(true) {
                Err(ErrorCode::TargetDisabled)
            } else {
                Ok(matches[0]["ref"].as_str().unwrap().to_owned())
            };
            let got = result.as_ref().map(|r| r.target.reference.clone()).map_err(|e| e.code);
            prop_assert_eq!(got, want);
        }
        // A changed epoch is always stale once the input is otherwise valid.
        if mutation.kind == 0 && expected_kind == 2 && !has_duplicate_refs(&obs) {
            prop_assert_eq!(result.as_ref().err().map(|e| e.code), Some(ErrorCode::StaleObservation));
        }
    }
}
