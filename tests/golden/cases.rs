//! Core cases shared by the native golden test (`tests/core_golden.rs`) and the in-browser
//! one (`tests/web_golden.rs`): the same JSON inputs go through `core::api` natively and
//! through the wasm exports in Chromium, and both must answer exactly what
//! `tests/golden/core_cases.json` holds.

use serde_json::{json, Value};

/// One case: a name, the operation (`resolve`, `diff`, `judge`) and its arguments in order.
pub struct Case {
    pub name: &'static str,
    pub op: &'static str,
    pub args: Vec<Value>,
}

fn el(r: &str, role: &str, name: &str, region: &str) -> Value {
    json!({
        "ref": r, "role": role, "name": name, "region": region, "frame": "", "href": null,
        "value": null, "checked": null, "pressed": null, "selected": null, "expanded": null,
        "disabled": false, "visible": true, "inViewport": true, "focused": false, "sensitive": false
    })
}

fn with(mut e: Value, key: &str, v: Value) -> Value {
    e[key] = v;
    e
}

fn snap(snapshot: &str, elements: Vec<Value>, texts: Vec<Value>) -> Value {
    json!({ "context": { "tab": "t1", "epoch": 7, "snapshot": snapshot }, "hasMore": false,
            "elements": elements, "texts": texts })
}

fn text(kind: &str, t: &str, region: &str) -> Value {
    json!({ "kind": kind, "text": t, "region": region, "frame": "" })
}

fn catalogue() -> Vec<Value> {
    vec![
        el("e1", "button", "Add Shirt M", "main/list:catalogue"),
        el("e2", "button", "Add Trousers L", "main/list:catalogue"),
        el("e3", "button", "Add Socks S", "main/list:catalogue"),
        el("e4", "list", "", "cart/list:cart-items"),
    ]
}

fn cart_with(item: &str, r: &str) -> Vec<Value> {
    let mut els = catalogue();
    els.push(with(
        el(r, "listitem", "", "cart/list:cart-items"),
        "text",
        json!(item),
    ));
    els.push(el(
        &format!("{r}b"),
        "button",
        &format!("Remove {item}"),
        "cart/list:cart-items",
    ));
    els
}

fn form() -> Vec<Value> {
    vec![
        with(
            el("f1", "textbox", "Name", "form[Checkout]"),
            "value",
            json!(""),
        ),
        with(
            with(
                with(
                    el("f2", "textbox", "Password", "form[Checkout]"),
                    "value",
                    json!("[redacted]"),
                ),
                "valueHash",
                json!("h-old"),
            ),
            "sensitive",
            json!(true),
        ),
        with(
            el("f3", "checkbox", "Gift wrap", "form[Checkout]"),
            "checked",
            json!(false),
        ),
        with(
            el("f4", "combobox", "Shipping", "form[Checkout]"),
            "value",
            json!("Standard"),
        ),
    ]
}

fn set(mut els: Vec<Value>, r: &str, key: &str, v: Value) -> Vec<Value> {
    for e in &mut els {
        if e["ref"] == r {
            e[key] = v.clone();
        }
    }
    els
}

pub fn cases() -> Vec<Case> {
    let base = snap("s1", catalogue(), vec![]);
    let expected = json!({ "tab": "t1", "epoch": 7, "snapshot": "s1" });
    let obs = |elements: Vec<Value>| json!({ "observation": snap("s1", elements, vec![]), "expected": expected });
    let add = |name: &str| json!({ "role": "button", "name": name });
    let mut c = vec![
        Case {
            name: "resolve unique",
            op: "resolve",
            args: vec![add("Add Shirt M"), obs(catalogue())],
        },
        Case {
            name: "resolve normalises case and spaces",
            op: "resolve",
            args: vec![add("  add   SHIRT m "), obs(catalogue())],
        },
        Case {
            name: "resolve twins are ambiguous",
            op: "resolve",
            args: vec![
                add("Save"),
                obs(vec![
                    el("a", "button", "Save", "main"),
                    el("b", "button", "Save", "dialog[Edit]"),
                ]),
            ],
        },
        Case {
            name: "resolve region narrows twins",
            op: "resolve",
            args: vec![
                json!({"role": "button", "name": "Save", "region": "dialog[Edit]"}),
                obs(vec![
                    el("a", "button", "Save", "main"),
                    el("b", "button", "Save", "dialog[Edit]"),
                ]),
            ],
        },
        Case {
            name: "resolve hidden twin excluded",
            op: "resolve",
            args: vec![
                add("Save"),
                obs(vec![
                    el("a", "button", "Save", "main"),
                    with(el("b", "button", "Save", "main"), "visible", json!(false)),
                ]),
            ],
        },
        Case {
            name: "resolve disabled twin counts",
            op: "resolve",
            args: vec![
                add("Save"),
                obs(vec![
                    el("a", "button", "Save", "main"),
                    with(el("b", "button", "Save", "main"), "disabled", json!(true)),
                ]),
            ],
        },
        Case {
            name: "resolve single disabled",
            op: "resolve",
            args: vec![
                add("Save"),
                obs(vec![with(
                    el("a", "button", "Save", "main"),
                    "disabled",
                    json!(true),
                )]),
            ],
        },
        Case {
            name: "resolve offscreen twin is ambiguous",
            op: "resolve",
            args: vec![
                add("Save"),
                obs(vec![
                    el("a", "button", "Save", "main"),
                    with(
                        el("b", "button", "Save", "main"),
                        "inViewport",
                        json!(false),
                    ),
                ]),
            ],
        },
        Case {
            name: "resolve explicit viewport",
            op: "resolve",
            args: vec![
                json!({"role": "button", "name": "Save", "inViewport": true}),
                obs(vec![
                    el("a", "button", "Save", "main"),
                    with(
                        el("b", "button", "Save", "main"),
                        "inViewport",
                        json!(false),
                    ),
                ]),
            ],
        },
        Case {
            name: "resolve frame condition",
            op: "resolve",
            args: vec![
                json!({"role": "button", "name": "Pay", "frame": "1"}),
                obs(vec![
                    with(el("a", "button", "Pay", "frame[0]"), "frame", json!("0")),
                    with(el("b", "button", "Pay", "frame[1]"), "frame", json!("1")),
                ]),
            ],
        },
        Case {
            name: "resolve href condition",
            op: "resolve",
            args: vec![
                json!({"role": "link", "name": "Docs", "href": "/b"}),
                obs(vec![
                    with(el("a", "link", "Docs", "main"), "href", json!("/a")),
                    with(el("b", "link", "Docs", "main"), "href", json!("/b")),
                ]),
            ],
        },
        Case {
            name: "resolve Save is not Save draft",
            op: "resolve",
            args: vec![
                add("Save"),
                obs(vec![el("a", "button", "Save draft", "main")]),
            ],
        },
        Case {
            name: "resolve changed tab",
            op: "resolve",
            args: vec![
                add("Add Shirt M"),
                json!({ "observation": base, "expected": {"tab": "t2", "epoch": 7, "snapshot": "s1"} }),
            ],
        },
        Case {
            name: "resolve changed epoch",
            op: "resolve",
            args: vec![
                add("Add Shirt M"),
                json!({ "observation": base, "expected": {"tab": "t1", "epoch": 8, "snapshot": "s1"} }),
            ],
        },
        Case {
            name: "resolve changed snapshot",
            op: "resolve",
            args: vec![
                add("Add Shirt M"),
                json!({ "observation": base, "expected": {"tab": "t1", "epoch": 7, "snapshot": "s2"} }),
            ],
        },
        Case {
            name: "resolve truncated",
            op: "resolve",
            args: vec![
                add("Add Shirt M"),
                json!({ "observation": with(base.clone(), "hasMore", json!(true)), "expected": expected }),
            ],
        },
        Case {
            name: "resolve integer is not a boolean",
            op: "resolve",
            args: vec![
                add("Save"),
                obs(vec![with(
                    el("a", "button", "Save", "main"),
                    "visible",
                    json!(1),
                )]),
            ],
        },
        Case {
            name: "resolve epoch must be an integer",
            op: "resolve",
            args: vec![
                add("Save"),
                json!({ "observation": with(base.clone(), "context", json!({"tab": "t1", "epoch": "7", "snapshot": "s1"})) }),
            ],
        },
        Case {
            name: "resolve unknown target field",
            op: "resolve",
            args: vec![
                json!({"role": "button", "name": "Save", "index": 1}),
                obs(catalogue()),
            ],
        },
        Case {
            name: "resolve duplicate refs",
            op: "resolve",
            args: vec![
                add("Save"),
                obs(vec![
                    el("a", "button", "Save", "main"),
                    el("a", "button", "Other", "main"),
                ]),
            ],
        },
        Case {
            name: "resolve not found",
            op: "resolve",
            args: vec![add("Add Hat"), obs(catalogue())],
        },
        Case {
            name: "resolve empty name",
            op: "resolve",
            args: vec![add(""), obs(catalogue())],
        },
    ];
    let shirt = snap(
        "s2",
        cart_with("Shirt M", "c1"),
        vec![text("watch", "Total: 19.90 €", "cart")],
    );
    let trousers = snap(
        "s2",
        cart_with("Trousers L", "c1"),
        vec![text("watch", "Total: 39.90 €", "cart")],
    );
    let before = snap(
        "s1",
        catalogue(),
        vec![text("watch", "Total: 0.00 €", "cart")],
    );
    let reordered = {
        let mut els = catalogue();
        els.swap(0, 2);
        snap("s2", els, vec![text("watch", "Total: 0.00 €", "cart")])
    };
    let forms = snap("s1", form(), vec![]);
    let changed = |r: &str, k: &str, v: Value| snap("s2", set(form(), r, k, v), vec![]);
    let password_changed = snap(
        "s2",
        set(
            set(form(), "f2", "valueHash", json!("h-new")),
            "f2",
            "value",
            json!("[redacted]"),
        ),
        vec![],
    );
    let todo = snap(
        "s1",
        vec![with(
            el("w1", "listitem", "", "main/list:todo"),
            "text",
            json!("Write tests"),
        )],
        vec![],
    );
    let done = snap(
        "s2",
        vec![with(
            el("w1", "listitem", "", "main/list:done"),
            "text",
            json!("Write tests"),
        )],
        vec![],
    );
    c.extend([
        Case {
            name: "diff appeared cart line",
            op: "diff",
            args: vec![before.clone(), shirt.clone(), Value::Null],
        },
        Case {
            name: "diff reorder is no change",
            op: "diff",
            args: vec![before.clone(), reordered, Value::Null],
        },
        Case {
            name: "diff checkbox changed",
            op: "diff",
            args: vec![
                forms.clone(),
                changed("f3", "checked", json!(true)),
                Value::Null,
            ],
        },
        Case {
            name: "diff password by hash, printed redacted",
            op: "diff",
            args: vec![forms.clone(), password_changed.clone(), Value::Null],
        },
        Case {
            name: "diff move between lists",
            op: "diff",
            args: vec![todo.clone(), done.clone(), Value::Null],
        },
        Case {
            name: "diff region filter",
            op: "diff",
            args: vec![
                before.clone(),
                shirt.clone(),
                json!({"ignoreRegions": ["cart"]}),
            ],
        },
        Case {
            name: "diff bad options",
            op: "diff",
            args: vec![before.clone(), shirt.clone(), json!({"regions": "cart"})],
        },
        Case {
            name: "diff not a snapshot",
            op: "diff",
            args: vec![json!([1, 2]), shirt.clone(), Value::Null],
        },
    ]);
    let target = |els: &Vec<Value>, r: &str| {
        els.iter()
            .find(|e| e["ref"] == r)
            .cloned()
            .unwrap_or(Value::Null)
    };
    let cat = catalogue();
    let click = |r: &str| json!({ "kind": "click", "target": target(&cat, r) });
    let f = form();
    c.extend([
        Case { name: "judge click match", op: "judge", args: vec![click("e1"), before.clone(), shirt.clone(), Value::Null] },
        Case { name: "judge click neighbour mismatch", op: "judge", args: vec![click("e1"), before.clone(), trousers.clone(), Value::Null] },
        Case { name: "judge click no effect, stable", op: "judge", args: vec![click("e1"), before.clone(), before.clone(), Value::Null] },
        Case { name: "judge click no effect, unstable", op: "judge", args: vec![click("e1"), before.clone(), before.clone(), json!({"stable": false})] },
        Case { name: "judge click unexplained effect", op: "judge", args: vec![click("e3"), before.clone(), snap("s2", catalogue(), vec![text("status", "Account deleted", "main"), text("watch", "Total: 0.00 €", "cart")]), Value::Null] },
        Case { name: "judge intent es", op: "judge", args: vec![with(click("e3"), "intent", json!("la cuenta queda eliminada")), before.clone(), snap("s2", catalogue(), vec![text("status", "Cuenta eliminada", "main"), text("watch", "Total: 0.00 €", "cart")]), Value::Null] },
        Case { name: "judge intent fr", op: "judge", args: vec![with(click("e3"), "intent", json!("le compte est supprimé")), before.clone(), snap("s2", catalogue(), vec![text("status", "Compte supprimé", "main"), text("watch", "Total: 0.00 €", "cart")]), Value::Null] },
        Case { name: "judge intent de", op: "judge", args: vec![with(click("e3"), "intent", json!("das Konto wurde gelöscht")), before.clone(), snap("s2", catalogue(), vec![text("status", "Konto gelöscht", "main"), text("watch", "Total: 0.00 €", "cart")]), Value::Null] },
        Case { name: "judge fill sensitive by hash", op: "judge", args: vec![json!({"kind": "fill", "target": target(&f, "f2"), "valueHash": "h-new"}), forms.clone(), password_changed.clone(), Value::Null] },
        Case { name: "judge fill wrong hash", op: "judge", args: vec![json!({"kind": "fill", "target": target(&f, "f2"), "valueHash": "h-other"}), forms.clone(), password_changed, Value::Null] },
        Case { name: "judge fill another field changed", op: "judge", args: vec![json!({"kind": "fill", "target": target(&f, "f1"), "value": "Ada"}), forms.clone(), changed("f4", "value", json!("Ada")), Value::Null] },
        Case { name: "judge check", op: "judge", args: vec![json!({"kind": "check", "target": target(&f, "f3")}), forms.clone(), changed("f3", "checked", json!(true)), Value::Null] },
        Case { name: "judge uncheck not done", op: "judge", args: vec![json!({"kind": "uncheck", "target": with(target(&f, "f3"), "checked", json!(true))}), snap("s1", set(form(), "f3", "checked", json!(true)), vec![]), snap("s2", set(form(), "f3", "checked", json!(true)), vec![]), Value::Null] },
        Case { name: "judge select", op: "judge", args: vec![json!({"kind": "select", "target": target(&f, "f4"), "option": "Express"}), forms.clone(), changed("f4", "value", json!("Express")), Value::Null] },
        Case { name: "judge drag moves target", op: "judge", args: vec![json!({"kind": "drag", "target": target(&todo["elements"].as_array().unwrap().clone(), "w1")}), todo, done, Value::Null] },
        Case { name: "judge watch without intent", op: "judge", args: vec![json!({"kind": "watch"}), before.clone(), shirt.clone(), Value::Null] },
        Case { name: "judge watch with intent", op: "judge", args: vec![json!({"kind": "watch", "intent": "the cart gains a shirt M"}), before.clone(), shirt, Value::Null] },
        Case { name: "judge press moves focus", op: "judge", args: vec![json!({"kind": "press"}), forms.clone(), changed("f1", "focused", json!(true)), Value::Null] },
        Case { name: "judge click needs a target", op: "judge", args: vec![json!({"kind": "click"}), before.clone(), before.clone(), Value::Null] },
        Case { name: "judge unknown field", op: "judge", args: vec![json!({"kind": "click", "why": 1}), before.clone(), before, Value::Null] },
    ]);
    c.extend(claim_cases());
    c
}

fn rows(items: &[(&str, &str)], region: &str) -> Vec<Value> {
    let mut els = catalogue();
    for (item, r) in items {
        els.push(with(el(r, "listitem", "", region), "text", json!(item)));
        els.push(el(
            &format!("{r}b"),
            "button",
            &format!("Remove {item}"),
            region,
        ));
    }
    els
}

/// The judge's rules for intents as claims, dialogs, formatted values, keys, drag order,
/// busy pages and background.
fn claim_cases() -> Vec<Case> {
    const CART: &str = "cart/list:cart-items";
    let find = |els: &[Value], r: &str| els.iter().find(|e| e["ref"] == r).cloned().unwrap();
    let three = rows(
        &[("Shirt M", "c1"), ("Shirt L", "c2"), ("Socks S", "c3")],
        CART,
    );
    let l_gone = rows(&[("Shirt M", "c1"), ("Socks S", "c3")], CART);
    let m_gone = rows(&[("Shirt L", "c2"), ("Socks S", "c3")], CART);
    let cart3 = snap("s1", three.clone(), vec![]);
    let remove = json!({ "kind": "click", "target": find(&three, "c1b") });
    let empty = snap("s1", catalogue(), vec![]);
    let add = json!({ "kind": "click", "target": find(&catalogue(), "e1") });
    let gains = |intent: &str| with(add.clone(), "intent", json!(intent));
    let one = snap("s2", rows(&[("Shirt M", "c1")], CART), vec![]);
    let twice = snap(
        "s2",
        rows(&[("Shirt M", "c1"), ("Shirt M", "c2")], CART),
        vec![],
    );
    let wishlist = snap(
        "s2",
        rows(&[("Shirt M", "c1")], "complementary[Wishlist]"),
        vec![],
    );
    let declined = snap(
        "s2",
        catalogue(),
        vec![text("alert", "Payment declined", "main")],
    );

    let dialog = vec![
        el("g0", "dialog", "Delete account?", ""),
        el("g1", "button", "Delete", "dialog[Delete account?]"),
        el("g2", "button", "Cancel", "dialog[Delete account?]"),
    ];
    let hidden: Vec<Value> = dialog
        .iter()
        .map(|e| with(e.clone(), "visible", json!(false)))
        .collect();

    let phone = |v: &str| snap("s", set(form(), "f1", "value", json!(v)), vec![]);
    let fill = |v: &str| json!({ "kind": "fill", "target": find(&form(), "f1"), "value": v });

    let press = |key: &str| json!({ "kind": "press", "key": key });
    let menu_open = snap(
        "s1",
        vec![
            with(
                el("m1", "button", "Account", "banner"),
                "expanded",
                json!(true),
            ),
            el("m2", "menu", "Account", "banner"),
        ],
        vec![],
    );
    let menu_closed = snap(
        "s2",
        vec![with(
            el("m1", "button", "Account", "banner"),
            "expanded",
            json!(false),
        )],
        vec![],
    );
    let focused = snap("s1", set(form(), "f1", "focused", json!(true)), vec![]);
    let placed = snap(
        "s2",
        set(form(), "f1", "focused", json!(true)),
        vec![text("status", "Order placed", "form[Checkout]")],
    );
    let tabbed = snap("s2", set(form(), "f4", "focused", json!(true)), vec![]);

    let task = |r: &str, t: &str| with(el(r, "listitem", "", "main/list:todo"), "text", json!(t));
    let todo = snap(
        "s1",
        vec![
            task("w1", "Write tests"),
            task("w2", "Ship it"),
            task("w3", "Fix bug"),
        ],
        vec![],
    );
    let reordered = snap(
        "s2",
        vec![
            task("w3", "Fix bug"),
            task("w1", "Write tests"),
            task("w2", "Ship it"),
        ],
        vec![],
    );

    let mut spinning = rows(&[("Shirt M", "c1")], CART);
    spinning.push(el("p1", "progressbar", "Loading", "cart"));
    let clock = |t: &str| snap("s", catalogue(), vec![text("status", t, "banner")]);
    let background = json!({ "background": { "texts": [{ "frame": "", "region": "banner", "kind": "status" }], "elements": [] } });

    #[rustfmt::skip]
    let cases = vec![
        Case { name: "judge object: name variant is a mismatch", op: "judge", args: vec![remove.clone(), cart3.clone(), snap("s2", l_gone.clone(), vec![]), Value::Null] },
        Case { name: "judge object: name supported", op: "judge", args: vec![remove.clone(), cart3.clone(), snap("s2", m_gone.clone(), vec![]), Value::Null] },
        Case { name: "judge object: intent variant is a mismatch", op: "judge", args: vec![json!({ "kind": "watch", "intent": "Shirt M is removed from the cart" }), cart3.clone(), snap("s2", l_gone, vec![]), Value::Null] },
        Case { name: "judge object: intent supported", op: "judge", args: vec![with(remove, "intent", json!("Shirt M is removed from the cart")), cart3, snap("s2", m_gone, vec![]), Value::Null] },
        Case { name: "judge container: supported", op: "judge", args: vec![gains("the cart gains a shirt"), empty.clone(), one.clone(), Value::Null] },
        Case { name: "judge container: wishlist contradicts the cart", op: "judge", args: vec![gains("the cart gains a shirt"), empty.clone(), wishlist.clone(), Value::Null] },
        Case { name: "judge container: other language", op: "judge", args: vec![gains("der Warenkorb enthält ein Shirt"), empty.clone(), wishlist, Value::Null] },
        Case { name: "judge count: two identical rows contradict one", op: "judge", args: vec![gains("the cart gains a shirt"), empty.clone(), twice.clone(), Value::Null] },
        Case { name: "judge count: two supported", op: "judge", args: vec![gains("the cart gains two shirts"), empty.clone(), twice, Value::Null] },
        Case { name: "judge polarity: a declined payment contradicts", op: "judge", args: vec![gains("la compra queda confirmada"), empty.clone(), declined, Value::Null] },
        Case { name: "judge dialog: cancel owns its dialog", op: "judge", args: vec![json!({ "kind": "click", "target": dialog[2], "intent": "the dialog closes and the account is kept" }), snap("s1", dialog.clone(), vec![]), snap("s2", hidden.clone(), vec![]), Value::Null] },
        Case { name: "judge dialog: cancel without intent", op: "judge", args: vec![json!({ "kind": "click", "target": dialog[2] }), snap("s1", dialog, vec![]), snap("s2", hidden, vec![]), Value::Null] },
        Case { name: "judge fill: formatted phone number", op: "judge", args: vec![fill("5551234567"), phone(""), phone("(555) 123-4567"), Value::Null] },
        Case { name: "judge fill: truncated phone number", op: "judge", args: vec![fill("5551234567"), phone(""), phone("(555) 123-456"), Value::Null] },
        Case { name: "judge press: Escape closes a menu", op: "judge", args: vec![press("Escape"), menu_open, menu_closed, Value::Null] },
        Case { name: "judge press: Enter submits the focused form", op: "judge", args: vec![press("Enter"), focused.clone(), placed, Value::Null] },
        Case { name: "judge press: Tab moves focus", op: "judge", args: vec![press("Tab"), focused, tabbed, Value::Null] },
        Case { name: "judge drag: reorder within a list", op: "judge", args: vec![json!({ "kind": "drag", "target": task("w3", "Fix bug") }), todo.clone(), reordered.clone(), Value::Null] },
        Case { name: "judge drag: a click's reorder is no change", op: "judge", args: vec![json!({ "kind": "click", "target": task("w3", "Fix bug") }), todo, reordered, Value::Null] },
        Case { name: "judge busy: a spinner is never a match", op: "judge", args: vec![add.clone(), empty.clone(), snap("s2", spinning, vec![]), Value::Null] },
        Case { name: "judge background: only the clock ticked", op: "judge", args: vec![add.clone(), clock("10:00"), clock("10:01"), background.clone()] },
        Case { name: "judge background: honest add while the clock ticks", op: "judge", args: vec![gains("the cart gains a shirt"), clock("10:00"), snap("s2", rows(&[("Shirt M", "c1")], CART), vec![text("status", "10:01", "banner")]), background] },
    ];
    cases
}
