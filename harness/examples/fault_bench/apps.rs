//! Fault-bench scenarios on the fixture apps of `fixtures/apps` (`make apps` bundles them):
//! React, a react-window list that reuses its rows, Vue, Radix UI widgets and
//! react-day-picker, each honest and with the faults its page injects by `?fault=`.

use super::Expect::{FaultRefused, FaultUndone, Honest};
use super::{cart, has_text, Act, Scenario};
use prufe::core::model::{Role, Snapshot, Tristate};

fn checked(s: &Snapshot, name: &str) -> bool {
    s.elements
        .iter()
        .any(|e| e.role == Role::Checkbox && e.name == name && e.checked == Some(Tristate::True))
}

fn task(s: &Snapshot, name: &str) -> bool {
    s.elements
        .iter()
        .any(|e| e.role == Role::Checkbox && e.name == name)
}

/// The day button react-day-picker renders for 12 December 2026 (the page's month).
const DAY: &str = "Saturday, December 12th, 2026";
const DAY_INTENT: &str = "the delivery date is Saturday 12 December 2026";
const CANCEL_INTENT: &str = "the dialog closes and the order is kept";

pub fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "React shop: wrong row",
            page: "apps/react-shop.html?fault=wrong-row",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: FaultUndone,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Trousers L")),
            effect_text: "Trousers L in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "React shop: swallowed click",
            page: "apps/react-shop.html?fault=swallow",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: FaultRefused,
            effect: |s| cart(s).is_empty(),
            effect_text: "click swallowed, cart empty",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "React shop: click",
            page: "apps/react-shop.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: Honest,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Shirt M")),
            effect_text: "Shirt M in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "React shop: quantity",
            page: "apps/react-shop.html",
            setup: Some(Act::Click("Add Shirt M", None)),
            act: Act::Fill("spinbutton", "Quantity Shirt M", "3"),
            expect: Honest,
            effect: |s| {
                s.elements
                    .iter()
                    .any(|e| e.name == "Quantity Shirt M" && e.value.as_deref() == Some("3"))
            },
            effect_text: "quantity 3",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "React virtual list: recycled row",
            page: "apps/react-virtual.html?fault=recycle&at=200",
            setup: None,
            act: Act::Click("Add Red Shirt XXL", None),
            expect: FaultUndone,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Sand Shirt S")),
            effect_text: "Sand Shirt S (the slot's first row) in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "React virtual list: add after scroll",
            page: "apps/react-virtual.html?at=200",
            setup: None,
            act: Act::Click("Add Blue Shirt XXL", None),
            expect: Honest,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Blue Shirt XXL")),
            effect_text: "Blue Shirt XXL in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Vue tasks: check",
            page: "apps/vue-todo.html",
            setup: None,
            act: Act::Check("Write invoice"),
            expect: Honest,
            effect: |s| checked(s, "Write invoice"),
            effect_text: "Write invoice done",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Vue tasks: check ticks the row below",
            page: "apps/vue-todo.html?fault=wrong-row",
            setup: None,
            act: Act::Check("Write invoice"),
            // Every control of a row acts on the row below, the neighbour's own checkbox
            // too: nothing on the page unticks it honestly, so the run stops (UNDO_FAILED).
            expect: FaultRefused,
            effect: |s| checked(s, "Call supplier"),
            effect_text: "Call supplier ticked",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Vue tasks: remove removes the row below",
            page: "apps/vue-todo.html?fault=wrong-row",
            setup: None,
            act: Act::Click("Remove Write invoice", None),
            expect: FaultRefused,
            effect: |s| !task(s, "Call supplier"),
            effect_text: "Call supplier removed",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Vue tasks: add",
            page: "apps/vue-todo.html",
            setup: Some(Act::Fill("textbox", "New task", "Order labels")),
            act: Act::Click("Add task", Some("the task Order labels is added")),
            expect: Honest,
            effect: |s| task(s, "Order labels"),
            effect_text: "task added",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Vue tasks: swallowed add",
            page: "apps/vue-todo.html?fault=swallow",
            setup: Some(Act::Fill("textbox", "New task", "Order labels")),
            act: Act::Click("Add task", Some("the task Order labels is added")),
            expect: FaultRefused,
            effect: |s| !task(s, "Order labels"),
            effect_text: "no task added",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Radix dialog: Cancel",
            page: "apps/widgets.html",
            setup: Some(Act::Click("Delete order", None)),
            act: Act::Click("Cancel", Some(CANCEL_INTENT)),
            expect: Honest,
            effect: |s| {
                has_text(s, "Status: Open") && !s.elements.iter().any(|e| e.role == Role::Dialog)
            },
            effect_text: "dialog closed, order kept",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Radix dialog: Cancel deletes",
            page: "apps/widgets.html?fault=cancel-deletes",
            setup: Some(Act::Click("Delete order", None)),
            act: Act::Click("Cancel", Some(CANCEL_INTENT)),
            expect: FaultRefused,
            effect: |s| has_text(s, "Order 1042 deleted"),
            effect_text: "order deleted",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Radix menu: Archive",
            page: "apps/widgets.html",
            setup: Some(Act::Click("Actions", None)),
            act: Act::ClickOn("menuitem", "Archive", Some("the order is archived")),
            expect: Honest,
            effect: |s| has_text(s, "Status: Archived"),
            effect_text: "order archived",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Radix menu: Archive marks it paid",
            page: "apps/widgets.html?fault=menu-wrong",
            setup: Some(Act::Click("Actions", None)),
            act: Act::ClickOn("menuitem", "Archive", Some("the order is archived")),
            expect: FaultRefused,
            effect: |s| has_text(s, "Status: Paid"),
            effect_text: "order marked paid",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Radix toast: save draft",
            page: "apps/widgets.html",
            setup: None,
            act: Act::Click("Save draft", Some("the draft is saved")),
            expect: Honest,
            effect: |s| has_text(s, "Drafts saved: 1"),
            effect_text: "draft saved",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Radix toast: swallowed save",
            page: "apps/widgets.html?fault=swallow",
            setup: None,
            act: Act::Click("Save draft", Some("the draft is saved")),
            expect: FaultRefused,
            effect: |s| has_text(s, "Drafts saved: 0"),
            effect_text: "nothing saved",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Day picker: pick a date",
            page: "apps/widgets.html",
            setup: Some(Act::Click("Delivery date", None)),
            act: Act::Click(DAY, Some(DAY_INTENT)),
            expect: Honest,
            effect: |s| has_text(s, "Delivery: Saturday, 12 December 2026"),
            effect_text: "delivery on the 12th",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Day picker: next day stored",
            page: "apps/widgets.html?fault=date-off",
            setup: Some(Act::Click("Delivery date", None)),
            act: Act::Click(DAY, Some(DAY_INTENT)),
            expect: FaultRefused,
            effect: |s| has_text(s, "Delivery: Sunday, 13 December 2026"),
            effect_text: "delivery on the 13th",
            max_runs: usize::MAX,
        },
    ]
}
