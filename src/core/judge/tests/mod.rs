//! The judge's tables of cases, one file for each part of the judge, on shared pages.

use super::*;

use crate::core::model::{Context, TextKind};

const PRODUCTS: &str = "catalogue/list:products";

const FORM: &str = "form[Checkout]";

use crate::core::testing::{el, item, text};

/// A shop: a catalogue, a cart, a toolbar, a checkout form and a task board.
fn shop() -> Snapshot {
    let field = |r: &str, name: &str| Element {
        value: Some(String::new()),
        ..el(r, Role::Textbox, name, FORM)
    };
    Snapshot {
        context: Context {
            tab: "t1".into(),
            epoch: 1,
            snapshot: "s1".into(),
        },
        has_more: false,
        elements: vec![
            el("b1", Role::Button, "Add Shirt M", PRODUCTS),
            el("b2", Role::Button, "Add Trousers L", PRODUCTS),
            el("b3", Role::Button, "Add Hat S", PRODUCTS),
            el("b4", Role::Button, "Add Shirt L", PRODUCTS),
            el("v1", Role::Button, "View cart", "banner"),
            Element {
                expanded: Some(false),
                ..el("m1", Role::Button, "Account", "banner")
            },
            Element {
                pressed: Some(Tristate::False),
                ..el("t1", Role::Button, "Bold", "toolbar")
            },
            Element {
                pressed: Some(Tristate::False),
                ..el("t2", Role::Button, "Italic", "toolbar")
            },
            field("f1", "Email"),
            field("f2", "Name"),
            Element {
                sensitive: true,
                value_hash: Some("h-empty".into()),
                ..field("f3", "Password")
            },
            Element {
                checked: Some(Tristate::False),
                ..el("c1", Role::Checkbox, "Agree to the terms", FORM)
            },
            Element {
                checked: Some(Tristate::False),
                ..el("c2", Role::Checkbox, "Newsletter", FORM)
            },
            Element {
                value: Some("Standard".into()),
                ..el("s1", Role::Combobox, "Shipping", FORM)
            },
            el("lb", Role::Listbox, "Gift wrap", FORM),
            Element {
                selected: Some(true),
                ..el("o1", Role::Option, "None", FORM)
            },
            Element {
                selected: Some(false),
                ..el("o2", Role::Option, "Paper", FORM)
            },
            Element {
                selected: Some(false),
                ..el("o3", Role::Option, "Box", FORM)
            },
            Element {
                value: Some(String::new()),
                ..el("u1", Role::Button, "Upload invoice", FORM)
            },
            item("w1", "Write tests", "board/list:todo"),
            item("w2", "Ship it", "board/list:todo"),
            el("d1", Role::Button, "Delete account", "main"),
        ],
        texts: vec![text("10:00", "ticker")],
    }
}

fn find<'s>(s: &'s Snapshot, reference: &str) -> &'s Element {
    s.elements
        .iter()
        .find(|e| e.reference == reference)
        .expect("fixture ref")
}

fn edit(s: &mut Snapshot, reference: &str, f: impl FnOnce(&mut Element)) {
    f(s.elements
        .iter_mut()
        .find(|e| e.reference == reference)
        .expect("fixture ref"));
}

fn remove(s: &mut Snapshot, reference: &str) {
    s.elements.retain(|e| e.reference != reference);
}

fn add_to_cart(s: &mut Snapshot, product: &str, n: usize) {
    s.elements.push(item(
        &format!("ci{n}"),
        &format!("{product} Remove {product}"),
        "cart",
    ));
    s.elements.push(el(
        &format!("cr{n}"),
        Role::Button,
        &format!("Remove {product}"),
        "cart",
    ));
}

/// A confirmation dialog (after clicking "Delete account"), in four languages.
fn dialog(title: &str, confirm: &str, cancel: &str) -> Snapshot {
    let region = format!("dialog[{title}]");
    let mut s = shop();
    s.elements.push(el("g0", Role::Dialog, title, ""));
    s.elements.push(el("g1", Role::Button, confirm, &region));
    s.elements.push(el("g2", Role::Button, cancel, &region));
    s
}

fn confirmed(before: &Snapshot, done: &str) -> Snapshot {
    let mut s = before.clone();
    for r in ["g0", "g1", "g2", "d1"] {
        remove(&mut s, r);
    }
    s.texts.push(text(done, "main"));
    s
}

fn act(kind: ActionKind, target: Option<&Element>) -> Action {
    Action {
        kind,
        target: target.cloned(),
        value: None,
        value_hash: None,
        option: None,
        intent: None,
        key: None,
    }
}

struct Case {
    name: &'static str,
    action: Action,
    before: Snapshot,
    after: Snapshot,
    opts: JudgeOptions,
    want: VerdictKind,
    /// The label of `attributedTo`, if any.
    to: Option<&'static str>,
    /// A piece of the reason.
    says: &'static str,
}

fn case(name: &'static str, action: Action, before: Snapshot, after: Snapshot) -> Case {
    Case {
        name,
        action,
        before,
        after,
        opts: JudgeOptions::default(),
        want: VerdictKind::Match,
        to: None,
        says: "",
    }
}

impl Case {
    fn want(mut self, want: VerdictKind, to: Option<&'static str>, says: &'static str) -> Self {
        (self.want, self.to, self.says) = (want, to, says);
        self
    }

    fn unstable(mut self) -> Self {
        self.opts.stable = false;
        self
    }

    fn ignoring(mut self, region: &str) -> Self {
        self.opts.ignore_regions.push(region.into());
        self
    }

    fn intent(mut self, intent: &str) -> Self {
        self.action.intent = Some(intent.into());
        self
    }

    /// The page was seen changing from `earlier` to `later` by itself (the background).
    fn turning(mut self, earlier: &Snapshot, later: &Snapshot) -> Self {
        self.opts.background.observe(earlier, later);
        self
    }
}

fn run(cases: Vec<Case>) {
    for c in cases {
        let v = judge(&c.action, &c.before, &c.after, &c.opts)
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        assert_eq!(v.verdict, c.want, "{}: {}", c.name, v.reason);
        assert_eq!(
            v.attributed_to.as_ref().map(|a| a.name.as_str()),
            c.to,
            "{}: {}",
            c.name,
            v.reason
        );
        assert!(
            v.reason.contains(c.says),
            "{}: {:?} lacks {:?}",
            c.name,
            v.reason,
            c.says
        );
        let again = judge(&c.action, &c.before, &c.after, &c.opts).unwrap();
        assert_eq!(v, again, "{}: not deterministic", c.name);
    }
}

use VerdictKind::{Ambiguous as A, Match as M, Mismatch as X};

/// A click on the first of two buttons in `main`, after which `said` appears there.
fn click_then_text(buttons: [&str; 2], said: &str) -> Verdict {
    let before = Snapshot {
        elements: vec![
            el("t", Role::Button, buttons[0], "main"),
            el("n", Role::Button, buttons[1], "main"),
        ],
        ..Default::default()
    };
    let mut after = before.clone();
    after.texts.push(text(said, "main"));
    judge(
        &act(ActionKind::Click, Some(&before.elements[0])),
        &before,
        &after,
        &JudgeOptions::default(),
    )
    .unwrap()
}

/// A cart with three rows, Shirt M (`ci1`, `cr1`), Shirt L (`ci2`, `cr2`) and Hat S
/// (`ci3`, `cr3`), and an "Add Mug" button in the catalogue.
fn cart() -> Snapshot {
    let mut s = shop();
    add_to_cart(&mut s, "Shirt M", 1);
    add_to_cart(&mut s, "Shirt L", 2);
    add_to_cart(&mut s, "Hat S", 3);
    s.elements.push(el("b5", Role::Button, "Add Mug", PRODUCTS));
    s
}

fn without(s: &Snapshot, refs: &[&str]) -> Snapshot {
    let mut a = s.clone();
    a.elements.retain(|e| !refs.contains(&e.reference.as_str()));
    a
}

fn with_line(s: &Snapshot, product: &str, n: usize, region: &str) -> Snapshot {
    let mut a = s.clone();
    a.elements.push(item(
        &format!("x{n}"),
        &format!("{product} Remove {product}"),
        region,
    ));
    a.elements.push(el(
        &format!("xr{n}"),
        Role::Button,
        &format!("Remove {product}"),
        region,
    ));
    a
}

/// A task list: a form with a textbox and "Add task", three rows, a status line and a
/// counter.
fn todo() -> Snapshot {
    let mut s = Snapshot::default();
    let form = "main/form[New task]";
    s.elements.push(Element {
        value: Some("Order labels".into()),
        ..el("n1", Role::Textbox, "New task", form)
    });
    s.elements.push(el("n2", Role::Button, "Add task", form));
    for (i, t) in ["Write invoice", "Call supplier", "Pack order"]
        .iter()
        .enumerate()
    {
        s.elements
            .push(item(&format!("r{i}"), t, "main/list[Tasks]"));
        s.elements.push(el(
            &format!("e{i}"),
            Role::Button,
            &format!("Edit {t}"),
            "main/list[Tasks]",
        ));
        s.elements.push(el(
            &format!("x{i}"),
            Role::Button,
            &format!("Remove {t}"),
            "main/list[Tasks]",
        ));
    }
    s.texts.push(text("3 open", "main"));
    s
}

mod actions;
mod attribution;
mod grids;
mod intended;
mod keys;
mod page;
