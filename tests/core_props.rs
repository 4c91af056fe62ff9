//! Properties of diff, fingerprint and judge over generated snapshots and actions, and over
//! arbitrary JSON handed to their wire types.
//!
//! Labels, regions and refs come from small alphabets so that twins (same identity), shared
//! refs and moves happen often.

use proptest::prelude::*;
use prufe::core::busy::busy;
use prufe::core::diff::{diff, DiffOptions};
use prufe::core::fingerprint;
use prufe::core::judge::{judge, Action, ActionKind, JudgeOptions, VerdictKind};
use prufe::core::{Element, Role, Snapshot, Text, TextKind, Tristate};
use serde_json::Value;

const HASHES: &[&str] = &["hash-secret-1", "hash-secret-2"];
const SECRET: &str = "SECRET-VALUE-123";

fn role() -> impl Strategy<Value = Role> {
    prop::sample::select(vec![
        Role::Button,
        Role::Listitem,
        Role::Checkbox,
        Role::Textbox,
        Role::Option,
        Role::Combobox,
        Role::Link,
        Role::Menuitem,
    ])
}

fn label() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "",
        "Add Shirt M",
        "Add Trousers L",
        "Shirt M",
        "Trousers L",
        "Remove Shirt M",
        "Añadir Camiseta M",
        "Konto gelöscht",
        "Compte supprimé",
    ])
    .prop_map(str::to_owned)
}

fn region() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "",
        "main",
        "cart",
        "cart/list:items",
        "form[Login]",
        "frame[0]/main",
    ])
    .prop_map(str::to_owned)
}

fn tristate() -> impl Strategy<Value = Option<Tristate>> {
    prop::option::of(prop::sample::select(vec![
        Tristate::False,
        Tristate::True,
        Tristate::Mixed,
    ]))
}

fn some_of(values: &'static [&'static str]) -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop::sample::select(values.to_vec()).prop_map(str::to_owned))
}

fn element() -> impl Strategy<Value = Element> {
    let identity = (0..6u8, role(), label(), any::<bool>(), region());
    let states = (
        tristate(),
        tristate(),
        prop::option::of(any::<bool>()),
        prop::option::of(any::<bool>()),
    );
    let flags = (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    );
    let values = (
        some_of(&["/a", "/b"]),
        some_of(&["", "x", "[redacted]"]),
        some_of(HASHES),
    );
    (identity, states, flags, values).prop_map(
        |(
            (r, role, label, as_text, region),
            (checked, pressed, selected, expanded),
            (disabled, visible, in_viewport, focused, sensitive),
            (href, value, value_hash),
        )| {
            let (name, text) = if as_text {
                (String::new(), Some(label))
            } else {
                (label, None)
            };
            Element {
                reference: format!("e{r}"),
                role,
                name,
                text,
                region,
                within: None,
                frame: String::new(),
                href,
                value,
                value_hash,
                checked,
                pressed,
                selected,
                expanded,
                disabled,
                visible,
                in_viewport,
                focused,
                sensitive,
                level: None,
                opaque: false,
                busy: false,
                clickable: false,
            }
        },
    )
}

fn text() -> impl Strategy<Value = Text> {
    (
        prop::sample::select(vec!["Saved", "Cuenta eliminada", "10:00", "10:01"]),
        region(),
        prop::sample::select(vec![TextKind::Status, TextKind::Paragraph, TextKind::Plain]),
    )
        .prop_map(|(t, region, kind)| Text {
            kind,
            text: t.into(),
            region,
            frame: String::new(),
        })
}

fn snapshot() -> impl Strategy<Value = Snapshot> {
    (
        prop::collection::vec(element(), 0..14),
        prop::collection::vec(text(), 0..4),
        any::<bool>(),
    )
        .prop_map(|(elements, texts, has_more)| Snapshot {
            elements,
            texts,
            has_more,
            ..Default::default()
        })
}

/// A snapshot and a variant: shuffled, with refs, focus and viewport scrambled (none of which
/// the diff compares), and sometimes one compared change.
fn snapshot_and_variant() -> impl Strategy<Value = (Snapshot, Snapshot)> {
    snapshot().prop_flat_map(|a| {
        let n = a.elements.len();
        let order = Just((0..n).collect::<Vec<usize>>()).prop_shuffle();
        let scramble = prop::collection::vec((0..6u8, any::<bool>(), any::<bool>()), n);
        let change = prop::option::of((0..n.max(1), 0..8u8, element()));
        (Just(a), order, scramble, change).prop_map(|(a, order, scramble, change)| {
            let mut b = a.clone();
            b.elements = order.iter().map(|&i| a.elements[i].clone()).collect();
            for (e, (r, focused, in_viewport)) in b.elements.iter_mut().zip(scramble) {
                e.reference = format!("e{r}");
                e.focused = focused;
                e.in_viewport = in_viewport;
            }
            b.texts.reverse();
            if let Some((i, what, extra)) = change {
                apply_change(&mut b, i, what, extra);
            }
            (a, b)
        })
    })
}

fn apply_change(s: &mut Snapshot, i: usize, what: u8, extra: Element) {
    if s.elements.is_empty() || what == 6 {
        s.elements.push(extra);
        return;
    }
    let at = i % s.elements.len();
    if what == 5 {
        s.elements.remove(at);
        return;
    }
    if what == 7 {
        s.texts.push(Text {
            kind: TextKind::Alert,
            text: "Saved".into(),
            region: "main".into(),
            frame: String::new(),
        });
        return;
    }
    let e = &mut s.elements[at];
    let flip = |t: Option<Tristate>| {
        Some(if t == Some(Tristate::True) {
            Tristate::False
        } else {
            Tristate::True
        })
    };
    match what {
        0 => e.checked = flip(e.checked),
        1 => e.visible = !e.visible,
        2 => {
            e.value_hash = Some(
                if e.value_hash.as_deref() == Some(HASHES[0]) {
                    HASHES[1]
                } else {
                    HASHES[0]
                }
                .into(),
            )
        }
        3 => {
            e.region = if e.region == "main" {
                "cart".into()
            } else {
                "main".into()
            }
        }
        _ => e.expanded = Some(e.expanded != Some(true)),
    }
}

fn complete(s: &Snapshot) -> Snapshot {
    Snapshot {
        has_more: false,
        ..s.clone()
    }
}

fn options() -> impl Strategy<Value = DiffOptions> {
    (
        prop::collection::vec(region(), 0..2),
        prop::collection::vec(region(), 0..2),
    )
        .prop_map(|(regions, ignore_regions)| DiffOptions {
            regions,
            ignore_regions,
        })
}

fn kind() -> impl Strategy<Value = ActionKind> {
    prop::sample::select(vec![
        ActionKind::Click,
        ActionKind::Fill,
        ActionKind::Check,
        ActionKind::Uncheck,
        ActionKind::Select,
        ActionKind::Press,
        ActionKind::Hover,
        ActionKind::Upload,
        ActionKind::Drag,
        ActionKind::Goto,
        ActionKind::Watch,
    ])
}

/// An action aimed at an element of `before` (or a made-up one, or none).
fn action_on(before: &Snapshot) -> impl Strategy<Value = Action> {
    let elements = before.elements.clone();
    let target = (0..elements.len().max(1) + 2, element()).prop_map(move |(i, made_up)| match i {
        i if i < elements.len() => Some(elements[i].clone()),
        i if i == elements.len() => None,
        _ => Some(made_up),
    });
    let intent = some_of(&[
        "the cart gains a shirt size M",
        "la cuenta queda eliminada",
        "le compte est supprimé",
        "das Konto wurde gelöscht",
        "nothing is added",
        "",
    ]);
    (
        kind(),
        target,
        prop::option::of(Just(SECRET.to_owned())),
        some_of(HASHES),
        some_of(&["Shirt M", "x"]),
        intent,
    )
        .prop_map(|(kind, target, value, value_hash, option, intent)| Action {
            kind,
            target,
            value,
            value_hash,
            option,
            intent,
            key: None,
        })
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        prop::sample::select(vec![
            "",
            "click",
            "fill",
            "watch",
            "button",
            "mixed",
            "true",
            "[redacted]",
            "e1",
            "main",
            "ref",
            "kind",
        ])
        .prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        let keys = prop::sample::select(vec![
            "kind",
            "target",
            "value",
            "valueHash",
            "option",
            "intent",
            "ref",
            "role",
            "name",
            "region",
            "frame",
            "elements",
            "texts",
            "context",
            "hasMore",
            "checked",
            "visible",
            "regions",
            "ignoreRegions",
            "stable",
            "extra",
        ]);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(keys, inner, 0..6).prop_map(|m| Value::Object(
                m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
            )),
        ]
    })
}

/// Replaces the node reached by following `path` (indices taken modulo each level's size)
/// with `with`: a near-valid document, the kind that reaches deep into deserialisers.
fn graft(mut v: Value, path: &[usize], with: Value) -> Value {
    fn at(node: &mut Value, path: &[usize], with: Value) {
        match (path.split_first(), node) {
            (Some((&step, rest)), Value::Array(items)) if !items.is_empty() => {
                let n = items.len();
                at(&mut items[step % n], rest, with);
            }
            (Some((&step, rest)), Value::Object(map)) if !map.is_empty() => {
                let n = map.len();
                at(
                    map.values_mut().nth(step % n).expect("index below len"),
                    rest,
                    with,
                );
            }
            (_, node) => *node = with,
        }
    }
    at(&mut v, path, with);
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn diff_is_empty_exactly_when_fingerprints_are_equal((a, b) in snapshot_and_variant()) {
        let d = diff(&a, &b, &DiffOptions::default());
        let same_fingerprint = fingerprint::of_snapshot(&complete(&a)) == fingerprint::of_snapshot(&complete(&b));
        prop_assert_eq!(d.empty, same_fingerprint, "{:?}", d.lines);
    }

    #[test]
    fn equivalence_holds_for_unrelated_snapshots(a in snapshot(), b in snapshot()) {
        let d = diff(&a, &b, &DiffOptions::default());
        let same_fingerprint = fingerprint::of_snapshot(&complete(&a)) == fingerprint::of_snapshot(&complete(&b));
        prop_assert_eq!(d.empty, same_fingerprint);
    }

    #[test]
    fn the_wire_form_gives_back_the_snapshot(a in snapshot()) {
        let wire = prufe::core::wire::encode(&a);
        prop_assert_eq!(prufe::core::wire::decode(&wire).unwrap(), a);
    }

    #[test]
    fn the_wire_decoder_never_panics(text in "\\PC{0,200}") {
        let _ = prufe::core::wire::decode(&text);
    }

    #[test]
    fn a_snapshot_does_not_differ_from_itself(a in snapshot(), opts in options()) {
        let d = diff(&a, &a, &opts);
        prop_assert!(d.empty && d.lines.is_empty(), "{:?}", d.lines);
    }

    #[test]
    fn diff_accounts_for_every_element(a in snapshot(), b in snapshot(), opts in options()) {
        let d = diff(&a, &b, &opts);
        let kept = |s: &Snapshot| s.elements.iter().filter(|e| opts.keeps(&e.region)).count() as isize;
        let kept_texts = |s: &Snapshot| s.texts.iter().filter(|t| opts.keeps(&t.region)).count() as isize;
        prop_assert_eq!(kept(&b) - kept(&a), d.appeared.len() as isize - d.disappeared.len() as isize);
        prop_assert_eq!(kept_texts(&b) - kept_texts(&a), d.texts_appeared.len() as isize - d.texts_disappeared.len() as isize);
        prop_assert_eq!(d.lines.len(), d.appeared.len() + d.disappeared.len() + d.changed.len() + d.moved.len()
            + d.texts_appeared.len() + d.texts_disappeared.len());
        prop_assert_eq!(d.empty, d.lines.is_empty());
        for c in &d.changed {
            prop_assert!(!c.fields.is_empty());
        }
        let regions = d.appeared.iter().chain(&d.disappeared).map(|e| &e.region)
            .chain(d.changed.iter().map(|c| &c.after.region))
            .chain(d.texts_appeared.iter().chain(&d.texts_disappeared).map(|t| &t.region));
        for r in regions {
            prop_assert!(opts.keeps(r), "{} is filtered out", r);
        }
    }

    #[test]
    fn diff_never_prints_a_value_hash(a in snapshot(), b in snapshot()) {
        let d = diff(&a, &b, &DiffOptions::default());
        let printed = serde_json::to_string(&(&d.lines, d.changed.iter().map(|c| &c.fields).collect::<Vec<_>>())).unwrap();
        for h in HASHES {
            prop_assert!(!printed.contains(h), "{}", printed);
        }
    }

    #[test]
    fn judge_is_deterministic_and_never_echoes_the_value(
        (a, b, action) in snapshot_and_variant().prop_flat_map(|(a, b)| {
            let action = action_on(&a);
            (Just(a), Just(b), action)
        }),
        stable in any::<bool>(),
        opts in options(),
    ) {
        let judge_opts = JudgeOptions { stable, regions: opts.regions.clone(), ignore_regions: opts.ignore_regions.clone(), ..Default::default() };
        let first = judge(&action, &a, &b, &judge_opts);
        let second = judge(&action, &a, &b, &judge_opts);
        prop_assert_eq!(&first, &second);
        match first {
            Ok(v) => {
                prop_assert_eq!(&v.diff, &diff(&a, &b, &opts));
                let out = serde_json::to_string(&(&v.reason, &v.attributed_to)).unwrap();
                prop_assert!(!out.contains(SECRET), "{}", out);
                for h in HASHES {
                    prop_assert!(!out.contains(h), "{}", out);
                }
                // No effect on a busy page is never proof of failure.
                if v.diff.empty && !stable {
                    prop_assert_ne!(v.verdict, VerdictKind::Mismatch, "{}", v.reason);
                }
            }
            Err(e) => {
                prop_assert!(action.target.is_none() && action.kind.needs_target(), "{}", e);
                prop_assert!(!e.message.contains(SECRET));
            }
        }
    }

    #[test]
    fn an_intent_only_narrows_and_a_busy_page_never_matches(
        (a, b, action) in snapshot_and_variant().prop_flat_map(|(a, b)| {
            let action = action_on(&a);
            (Just(a), Just(b), action)
        }),
        hover in any::<bool>(),
        mark_busy in any::<bool>(),
        intent in prop::sample::select(vec![
            "the cart gains a shirt size M",
            "Shirt M is removed from the cart",
            "the wishlist gains two shirts",
            "the booking is confirmed",
            "Shirt L",
            "the account is not deleted",
        ]),
    ) {
        prop_assume!(action.target.is_some());
        let mut b = b;
        if let (true, Some(e)) = (mark_busy, b.elements.first_mut()) {
            (e.busy, e.visible) = (true, true);
        }
        let kind = if hover { ActionKind::Hover } else { ActionKind::Click };
        let bare = Action { kind, intent: None, ..action };
        let with = Action { intent: Some(intent.to_owned()), ..bare.clone() };
        let opts = JudgeOptions::default();
        let without = judge(&bare, &a, &b, &opts).unwrap();
        let narrowed = judge(&with, &a, &b, &opts).unwrap();
        if without.verdict == VerdictKind::Mismatch {
            prop_assert_ne!(narrowed.verdict, VerdictKind::Match, "{} / {}", without.reason, narrowed.reason);
        }
        if busy(&a, &b).is_some() {
            prop_assert_ne!(without.verdict, VerdictKind::Match, "{}", without.reason);
            prop_assert_ne!(narrowed.verdict, VerdictKind::Match, "{}", narrowed.reason);
        }
    }

    #[test]
    fn arbitrary_json_never_panics(v in json(), w in json(), x in json()) {
        let action = serde_json::from_value::<Action>(v.clone()).ok();
        let snapshot = serde_json::from_value::<Snapshot>(w.clone()).ok();
        let _ = serde_json::from_value::<DiffOptions>(x.clone());
        let opts = serde_json::from_value::<JudgeOptions>(x).unwrap_or_default();
        let empty = Snapshot::default();
        if let Some(s) = &snapshot {
            let _ = diff(s, &empty, &DiffOptions::default());
            let _ = diff(&empty, s, &DiffOptions::default());
        }
        if let Some(action) = &action {
            let s = snapshot.as_ref().unwrap_or(&empty);
            let _ = judge(action, s, &empty, &opts);
            let _ = judge(action, &empty, s, &opts);
        }
    }

    #[test]
    fn near_valid_json_never_panics(
        (a, b, action) in snapshot_and_variant().prop_flat_map(|(a, b)| {
            let action = action_on(&a);
            (Just(a), Just(b), action)
        }),
        path in prop::collection::vec(0..16usize, 0..6),
        which in 0..3u8,
        with in json(),
    ) {
        let mut docs = [
            serde_json::to_value(&action).unwrap(),
            serde_json::to_value(&a).unwrap(),
            serde_json::to_value(&b).unwrap(),
        ];
        let i = usize::from(which);
        docs[i] = graft(docs[i].clone(), &path, with);
        let action = serde_json::from_value::<Action>(docs[0].clone());
        let before = serde_json::from_value::<Snapshot>(docs[1].clone());
        let after = serde_json::from_value::<Snapshot>(docs[2].clone());
        if let (Ok(action), Ok(before), Ok(after)) = (action, before, after) {
            let opts = JudgeOptions::default();
            prop_assert_eq!(judge(&action, &before, &after, &opts), judge(&action, &before, &after, &opts));
        }
    }
}

#[test]
fn valid_documents_round_trip() {
    let before: Snapshot = serde_json::from_value(serde_json::json!({
        "context": { "tab": "t1", "epoch": 1, "snapshot": "s1" },
        "hasMore": false,
        "elements": [{ "ref": "e1", "role": "button", "name": "Add Shirt M", "region": "list", "frame": "",
            "href": null, "value": null, "checked": null, "pressed": null, "selected": null, "expanded": null,
            "disabled": false, "visible": true, "inViewport": true, "focused": false, "sensitive": false }],
        "texts": []
    }))
    .unwrap();
    let mut after = before.clone();
    after.texts.push(Text {
        kind: TextKind::Status,
        text: "Added Shirt M".into(),
        region: "cart".into(),
        frame: String::new(),
    });
    let action: Action = serde_json::from_value(serde_json::json!({
        "kind": "click", "target": serde_json::to_value(&before.elements[0]).unwrap()
    }))
    .unwrap();
    let v = judge(&action, &before, &after, &JudgeOptions::default()).unwrap();
    assert_eq!(
        serde_json::to_value(v.verdict).unwrap(),
        "MATCH",
        "{}",
        v.reason
    );
    assert_eq!(v.diff.lines, vec!["appeared text 'Added Shirt M' in cart"]);
}
