//! The detected-fault bench: does verification catch the wrong effects a bare driver lets
//! through, without crying wolf on honest actions, and what does it cost?
//!
//! ```text
//! cargo run --release -p prufe-harness --example fault_bench              # table on stdout
//! cargo run --release -p prufe-harness --example fault_bench -- --runs 5 --out bench/faults.md
//! ```
//!
//! For every scenario of `fixtures/` the same action runs `--runs` times (default 3) through
//! the verifier and as a bare driver does it (locate by CSS selector and text, dispatch the
//! input over CDP, nothing checked), each time on a freshly loaded page. The table says, per
//! scenario:
//!
//! - **Bare driver**: what the bare action left on the page (for a fault: the wrong effect,
//!   unnoticed);
//! - **Caught** (faults): runs where the verifier refused the wrong effect with a typed error;
//! - **False alarms** (honest actions): runs where a correct action was not approved;
//! - **Undo** (faults with an honest inverse): runs where the wrong effect was undone and the
//!   page shows it is gone;
//! - **Verified / bare ms**: medians of the action's wall time, and their ratio.
//!
//! The summary line states the targets: 100 % caught, 0 false alarms, 100 % undo where an
//! inverse exists. `--strict` exits 1 when one is missed. Pages are local and deterministic;
//! only the times vary between runs and machines.

use prufe::core::model::{Role, Snapshot};
use prufe::core::resolve::Target;
use prufe_harness::inject::send;
use prufe_harness::serve::StaticServer;
use prufe_harness::{Action, Error, Options, Outcome, Step, Verdict, Verifier};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "fault_bench/apps.rs"]
mod apps;
#[path = "support/bare_input.rs"]
mod bare_input;

use bare_input::{mouse, mouse_click, mouse_drag, press_key};

/// What the action is, in both forms.
#[derive(Clone)]
enum Act {
    Click(&'static str, Option<&'static str>),
    Fill(&'static str, &'static str, &'static str),
    Check(&'static str),
    Select(&'static str, &'static str),
    Upload(&'static str),
    Drag(&'static str, &'static str),
    Hover(&'static str),
    /// Click on a target of any role (`link`, `generic`, `combobox`), with an intent.
    ClickOn(&'static str, &'static str, Option<&'static str>),
    /// Press a key (`Escape`, `Enter`, `Tab`), on a target (role, name) or on the focus.
    Press(&'static str, Option<(&'static str, &'static str)>),
    /// Drag a list item onto another one of the same list (a reorder).
    Reorder(&'static str, &'static str),
}

impl Act {
    fn describe(&self) -> String {
        match self {
            Act::Click(name, None) => format!("click {name}"),
            Act::Click(name, Some(_)) => format!("click {name} (with intent)"),
            Act::Fill(_, name, _) => format!("fill {name}"),
            Act::Check(name) => format!("check {name}"),
            Act::Select(name, option) => format!("select {option} in {name}"),
            Act::Upload(name) => format!("upload to {name}"),
            Act::Drag(from, to) => format!("drag {from} to {to}"),
            Act::Hover(name) => format!("hover {name}"),
            Act::ClickOn(role, name, None) => format!("click {role} {name}"),
            Act::ClickOn(role, name, Some(_)) => format!("click {role} {name} (with intent)"),
            Act::Press(key, None) => format!("press {key}"),
            Act::Press(key, Some((_, name))) => format!("press {key} in {name}"),
            Act::Reorder(from, onto) => format!("drag {from} onto {onto}"),
        }
    }
}

/// What a scenario should end in.
#[derive(Clone, Copy, PartialEq)]
enum Expect {
    /// An honest action: MATCH.
    Honest,
    /// A wrong effect that has an honest inverse: caught and undone.
    FaultUndone,
    /// A wrong effect, refused; there is nothing (honest) to undo.
    FaultRefused,
}

struct Scenario {
    name: &'static str,
    page: &'static str,
    /// Done first, unverified, on every load (e.g. opening a dialog).
    setup: Option<Act>,
    act: Act,
    expect: Expect,
    /// The wrong effect (faults) or the intended effect (honest actions) is on the page.
    effect: fn(&Snapshot) -> bool,
    /// A short description of what `effect` checks.
    effect_text: &'static str,
    /// Most runs (very slow scenarios run once).
    max_runs: usize,
}

fn cart(s: &Snapshot) -> Vec<&str> {
    s.elements
        .iter()
        .filter(|e| e.role == Role::Listitem && e.region.starts_with("cart"))
        .map(|e| e.label())
        .collect()
}

fn has_text(s: &Snapshot, text: &str) -> bool {
    s.texts.iter().any(|t| t.text == text)
}

fn scenarios() -> Vec<Scenario> {
    use Expect::*;
    let mut all = vec![
        Scenario {
            name: "Recycled list",
            page: "recycled-list.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: FaultUndone,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Trousers L")),
            effect_text: "Trousers L in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Spoofed prufe, lying button",
            page: "spoof.html",
            setup: None,
            act: Act::Click("Add Socks S", None),
            expect: FaultUndone,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Trousers L")),
            effect_text: "Trousers L in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Overlay takes the click",
            page: "overlay.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: FaultRefused,
            effect: |s| cart(s).is_empty(),
            effect_text: "click swallowed, cart empty",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Lying remove",
            page: "hostile/15-lying-remove.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: FaultRefused,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Trousers L")),
            effect_text: "Trousers L in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Very late effect (8 s)",
            page: "very-late-effect.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: FaultRefused,
            effect: |s| cart(s).is_empty(),
            effect_text: "no effect within the deadline",
            max_runs: 1,
        },
        Scenario {
            name: "Confirm dialog without intent",
            page: "confirm-dialog.html",
            setup: Some(Act::Click("Delete account", None)),
            act: Act::Click("Confirm delete", None),
            expect: FaultRefused,
            effect: |s| has_text(s, "Account deleted"),
            effect_text: "account deleted, nobody declared it",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Late effect (700 ms)",
            page: "late-effect.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: Honest,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Shirt M")),
            effect_text: "Shirt M in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: click",
            page: "shop.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: Honest,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Shirt M")),
            effect_text: "Shirt M in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: fill",
            page: "shop.html",
            setup: None,
            act: Act::Fill("textbox", "Name", "Ada Lovelace"),
            expect: Honest,
            effect: |s| {
                s.elements
                    .iter()
                    .any(|e| e.name == "Name" && e.value.as_deref() == Some("Ada Lovelace"))
            },
            effect_text: "Name holds the text",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: check",
            page: "shop.html",
            setup: None,
            act: Act::Check("Gift wrap"),
            expect: Honest,
            effect: |s| {
                s.elements.iter().any(|e| {
                    e.name == "Gift wrap" && e.checked == Some(prufe::core::model::Tristate::True)
                })
            },
            effect_text: "Gift wrap checked",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: select",
            page: "shop.html",
            setup: None,
            act: Act::Select("Shipping", "Express"),
            expect: Honest,
            effect: |s| {
                s.elements
                    .iter()
                    .any(|e| e.name == "Shipping" && e.value.as_deref() == Some("Express"))
            },
            effect_text: "Shipping is Express",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: upload",
            page: "shop.html",
            setup: None,
            act: Act::Upload("Receipt"),
            expect: Honest,
            effect: |s| s.texts.iter().any(|t| t.text.starts_with("Receipt: ")),
            effect_text: "receipt shown",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: drag between lists",
            page: "shop.html",
            setup: None,
            act: Act::Drag("Write invoice", "Done"),
            expect: Honest,
            effect: |s| {
                s.elements
                    .iter()
                    .any(|e| e.label() == "Write invoice" && e.region.ends_with("list:done"))
            },
            effect_text: "task in Done",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shop: hover menu",
            page: "shop.html",
            setup: None,
            act: Act::Hover("Account"),
            expect: Honest,
            effect: |s| {
                s.elements
                    .iter()
                    .any(|e| e.role == Role::Link && e.name == "Orders")
            },
            effect_text: "menu open",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Password fill",
            page: "login.html",
            setup: None,
            act: Act::Fill("textbox", "Password", "bench-password-77"),
            expect: Honest,
            effect: |s| {
                s.elements
                    .iter()
                    .any(|e| e.name == "Password" && e.value_hash.is_some())
            },
            effect_text: "password set (redacted)",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Shadow DOM click",
            page: "shadow.html",
            setup: None,
            act: Act::Click("Add Shirt M", None),
            expect: Honest,
            effect: |s| cart(s).iter().any(|l| l.starts_with("Shirt M")),
            effect_text: "Shirt M in the cart",
            max_runs: usize::MAX,
        },
        Scenario {
            name: "Iframe payment",
            page: "iframe-payment.html",
            setup: Some(Act::Fill("textbox", "Card number", "4111111111111111")),
            act: Act::Click("Pay", Some("the payment is accepted")),
            expect: Honest,
            effect: |s| has_text(s, "Payment accepted"),
            effect_text: "payment accepted",
            max_runs: usize::MAX,
        },
    ];
    all.extend(class_scenarios());
    all
}

/// The page shows `text`: as a text run of its own, or inside one (a table row, a cover whose
/// spans read as one run).
fn shows(s: &Snapshot, text: &str) -> bool {
    s.texts.iter().any(|t| t.text.contains(text))
        || s.elements.iter().any(|e| e.label().contains(text))
}

fn heading(s: &Snapshot, name: &str) -> bool {
    s.elements
        .iter()
        .any(|e| e.role == Role::Heading && e.name == name)
}

fn value_is(s: &Snapshot, name: &str, value: &str) -> bool {
    s.elements
        .iter()
        .any(|e| e.name == name && e.value.as_deref() == Some(value))
}

fn focused_is(s: &Snapshot, name: &str) -> bool {
    s.elements.iter().any(|e| e.focused && e.name == name)
}

fn has_role(s: &Snapshot, role: Role) -> bool {
    s.elements.iter().any(|e| e.role == role)
}

fn order_is(s: &Snapshot, want: &[&str]) -> bool {
    let items: Vec<&str> = s
        .elements
        .iter()
        .filter(|e| e.role == Role::Listitem)
        .map(|e| e.label())
        .collect();
    items == want
}

fn in_cart(s: &Snapshot, product: &str) -> usize {
    cart(s).iter().filter(|l| l.starts_with(product)).count()
}

fn in_region(s: &Snapshot, region: &str, product: &str) -> bool {
    s.elements.iter().any(|e| {
        e.role == Role::Listitem && e.region.starts_with(region) && e.label().starts_with(product)
    })
}

/// A scenario on a page of `fixtures/real/`.
fn real(
    name: &'static str,
    page: &'static str,
    setup: Option<Act>,
    act: Act,
    expect: Expect,
    effect: fn(&Snapshot) -> bool,
    effect_text: &'static str,
) -> Scenario {
    Scenario {
        name,
        page,
        setup,
        act,
        expect,
        effect,
        effect_text,
        max_runs: usize::MAX,
    }
}

/// Pages written the way real sites write them (`fixtures/real/`), one group per class.
fn class_scenarios() -> Vec<Scenario> {
    use Act::*;
    use Expect::*;
    vec![
        // Visible text outside paragraphs.
        real(
            "Plain text: Saved",
            "real/text-feedback.html?kind=saved&lang=en",
            None,
            Click("Save", None),
            Honest,
            |s| shows(s, "Saved"),
            "Saved in a span",
        ),
        real(
            "Plain text: Guardado",
            "real/text-feedback.html?kind=saved&lang=es",
            None,
            Click("Guardar", None),
            Honest,
            |s| shows(s, "Guardado"),
            "Guardado in a span",
        ),
        real(
            "Plain text: Gespeichert",
            "real/text-feedback.html?kind=saved&lang=de",
            None,
            Click("Speichern", None),
            Honest,
            |s| shows(s, "Gespeichert"),
            "Gespeichert in a span",
        ),
        real(
            "Plain text: score",
            "real/text-feedback.html?kind=score&lang=en",
            None,
            Click("Add a point", None),
            Honest,
            |s| shows(s, "4 points"),
            "4 points in a div",
        ),
        real(
            "Plain text: table total",
            "real/text-feedback.html?kind=total&lang=es",
            None,
            Click("Añadir otra Camiseta M", None),
            Honest,
            |s| shows(s, "39,80 €"),
            "total cell 39,80 €",
        ),
        real(
            "Plain text: cover appears",
            "real/text-feedback.html?kind=cover&lang=en",
            None,
            Click("Show cover", None),
            Honest,
            |s| shows(s, "Cover by M. Lund"),
            "cover shown",
        ),
        real(
            "Clock ticking, honest save",
            "real/text-noise.html?noise=clock&lang=en",
            None,
            Click("Save", None),
            Honest,
            |s| shows(s, "Saved"),
            "Saved",
        ),
        real(
            "Carousel turning, honest save",
            "real/text-noise.html?noise=carousel&lang=es",
            None,
            Click("Guardar", None),
            Honest,
            |s| shows(s, "Guardado"),
            "Guardado",
        ),
        real(
            "Ticker running, honest save",
            "real/text-noise.html?noise=ticker&lang=de",
            None,
            Click("Speichern", None),
            Honest,
            |s| shows(s, "Gespeichert"),
            "Gespeichert",
        ),
        // Role-less clickables.
        real(
            "Span with a listener",
            "real/clickable.html?lang=en",
            None,
            ClickOn("generic", "Add Shirt M", None),
            Honest,
            |s| in_cart(s, "Shirt M") == 1,
            "Shirt M in the basket",
        ),
        real(
            "Div with onclick",
            "real/clickable.html?lang=es",
            None,
            ClickOn("generic", "Añadir Calcetines S", None),
            Honest,
            |s| in_cart(s, "Calcetines S") == 1,
            "Calcetines S in the basket",
        ),
        real(
            "Div with tabindex",
            "real/clickable.html?lang=de",
            None,
            ClickOn("generic", "Mütze hinzufügen", None),
            Honest,
            |s| in_cart(s, "Mütze") == 1,
            "Mütze in the basket",
        ),
        real(
            "Lying span",
            "real/clickable.html?lang=en",
            None,
            ClickOn("generic", "Add Jumper XL", None),
            FaultUndone,
            |s| in_cart(s, "Trousers L") > 0,
            "Trousers L in the basket",
        ),
        real(
            "Lying span (de)",
            "real/clickable.html?lang=de",
            None,
            ClickOn("generic", "Pullover XL hinzufügen", None),
            FaultUndone,
            |s| in_cart(s, "Hose L") > 0,
            "Hose L in the basket",
        ),
        // Order.
        real(
            "Reorder, HTML5 drag",
            "real/order.html?kind=html5&lang=en",
            None,
            Reorder("Task C", "Task A"),
            Honest,
            |s| order_is(s, &["Task C", "Task A", "Task B"]),
            "order C, A, B",
        ),
        real(
            "Reorder, pointer drag",
            "real/order.html?kind=pointer&lang=de",
            None,
            Reorder("Aufgabe C", "Aufgabe A"),
            Honest,
            |s| order_is(s, &["Aufgabe C", "Aufgabe A", "Aufgabe B"]),
            "order C, A, B",
        ),
        real(
            "Reorder that does nothing",
            "real/order.html?kind=pointer&lang=en&broken=1",
            None,
            Reorder("Task C", "Task A"),
            FaultRefused,
            |s| order_is(s, &["Task A", "Task B", "Task C"]),
            "order unchanged",
        ),
        real(
            "Reorder that does nothing (es)",
            "real/order.html?kind=html5&lang=es&broken=1",
            None,
            Reorder("Tarea C", "Tarea A"),
            FaultRefused,
            |s| order_is(s, &["Tarea A", "Tarea B", "Tarea C"]),
            "order unchanged",
        ),
        // Keys.
        real(
            "Escape closes a menu",
            "real/keys-widgets.html?lang=en",
            Some(Click("Options", None)),
            Press("Escape", None),
            Honest,
            |s| !has_role(s, Role::Menu),
            "menu closed",
        ),
        real(
            "Escape closes a dialog",
            "real/keys-widgets.html?lang=es",
            Some(Click("Editar perfil", None)),
            Press("Escape", None),
            Honest,
            |s| !has_role(s, Role::Dialog),
            "dialog closed",
        ),
        real(
            "Enter picks the active option",
            "real/keys-widgets.html?lang=de",
            Some(ClickOn("combobox", "Land", None)),
            Press("Enter", Some(("combobox", "Land"))),
            Honest,
            |s| value_is(s, "Land", "Spanien"),
            "Land is Spanien",
        ),
        real(
            "Enter submits the form",
            "real/keys-widgets.html?lang=en",
            None,
            Press("Enter", Some(("textbox", "Search"))),
            Honest,
            |s| shows(s, "3 results for shoes"),
            "results shown",
        ),
        real(
            "Tab moves focus",
            "real/keys-widgets.html?lang=es",
            None,
            Press("Tab", Some(("textbox", "Nombre"))),
            Honest,
            |s| focused_is(s, "Apellidos"),
            "Apellidos focused",
        ),
        // Busy pages.
        real(
            "Busy region, booked",
            "real/busy.html?shape=region&outcome=ok&lang=en",
            None,
            Click("Book table", Some("the table is booked")),
            Honest,
            |s| shows(s, "Booking confirmed"),
            "Booking confirmed",
        ),
        real(
            "Spinner, booked",
            "real/busy.html?shape=spinner&outcome=ok&lang=es",
            None,
            Click("Reservar mesa", Some("la mesa queda reservada")),
            Honest,
            |s| shows(s, "Reserva confirmada"),
            "Reserva confirmada",
        ),
        real(
            "Busy button, booked",
            "real/busy.html?shape=button&outcome=ok&lang=de",
            None,
            Click("Tisch buchen", Some("der Tisch ist gebucht")),
            Honest,
            |s| shows(s, "Buchung bestätigt"),
            "Buchung bestätigt",
        ),
        real(
            "Busy region, booking fails",
            "real/busy.html?shape=region&outcome=fail&lang=es",
            None,
            Click("Reservar mesa", Some("la mesa queda reservada")),
            FaultRefused,
            |s| shows(s, "Reserva fallida"),
            "Reserva fallida",
        ),
        real(
            "Spinner, booking fails",
            "real/busy.html?shape=spinner&outcome=fail&lang=de",
            None,
            Click("Tisch buchen", Some("der Tisch ist gebucht")),
            FaultRefused,
            |s| shows(s, "Buchung fehlgeschlagen"),
            "Buchung fehlgeschlagen",
        ),
        real(
            "Busy button, booking fails",
            "real/busy.html?shape=button&outcome=fail&lang=en",
            None,
            Click("Book table", Some("the table is booked")),
            FaultRefused,
            |s| shows(s, "Booking failed"),
            "Booking failed",
        ),
        // Intent that widens.
        real(
            "Remove takes the neighbour (intent)",
            "real/cart-claims.html?fault=remove-wrong&lang=en",
            None,
            Click("Remove Shirt M", Some("Shirt M is removed from the cart")),
            FaultRefused,
            |s| in_cart(s, "Shirt L") == 0,
            "Shirt L removed instead",
        ),
        real(
            "Remove takes the neighbour",
            "real/cart-claims.html?fault=remove-wrong&lang=es",
            None,
            Click("Quitar Camisa M", None),
            FaultRefused,
            |s| in_cart(s, "Camisa L") == 0,
            "Camisa L removed instead",
        ),
        real(
            "Add goes to the wishlist",
            "real/cart-claims.html?fault=wishlist&lang=de",
            None,
            Click(
                "Tasse hinzufügen",
                Some("eine Tasse kommt in den Warenkorb"),
            ),
            FaultUndone,
            |s| in_region(s, "wishlist", "Tasse"),
            "Tasse in the wishlist",
        ),
        real(
            "One click, two rows",
            "real/cart-claims.html?fault=double&lang=en",
            None,
            Click("Add Shirt S", Some("the cart gains a shirt")),
            FaultUndone,
            |s| in_cart(s, "Shirt S") > 0,
            "Shirt S rows in the cart",
        ),
        real(
            "Payment declined",
            "real/cart-claims.html?fault=declined&lang=es",
            None,
            Click("Pagar ahora", Some("el pago es aceptado")),
            FaultRefused,
            |s| shows(s, "Pago rechazado"),
            "Pago rechazado",
        ),
        real(
            "Zahlung abgelehnt",
            "real/cart-claims.html?fault=declined&lang=de",
            None,
            Click("Jetzt bezahlen", Some("die Zahlung wird akzeptiert")),
            FaultRefused,
            |s| shows(s, "Zahlung abgelehnt"),
            "Zahlung abgelehnt",
        ),
        real(
            "Honest remove (intent)",
            "real/cart-claims.html?lang=en",
            None,
            Click("Remove Shirt M", Some("Shirt M is removed from the cart")),
            Honest,
            |s| in_cart(s, "Shirt M") == 0 && in_cart(s, "Shirt L") == 1,
            "only Shirt M removed",
        ),
        real(
            "Honest remove",
            "real/cart-claims.html?lang=de",
            None,
            Click("Hemd M entfernen", None),
            Honest,
            |s| in_cart(s, "Hemd M") == 0 && in_cart(s, "Hemd L") == 1,
            "only Hemd M removed",
        ),
        real(
            "Honest add to cart",
            "real/cart-claims.html?lang=es",
            None,
            Click("Añadir Taza", Some("se añade una taza al carrito")),
            Honest,
            |s| in_cart(s, "Taza") == 1,
            "Taza in the cart",
        ),
        real(
            "Honest single row",
            "real/cart-claims.html?lang=en",
            None,
            Click("Add Shirt S", Some("the cart gains a shirt")),
            Honest,
            |s| in_cart(s, "Shirt S") == 1,
            "one Shirt S row",
        ),
        real(
            "Payment accepted",
            "real/cart-claims.html?lang=en",
            None,
            Click("Pay now", Some("the payment is accepted")),
            Honest,
            |s| shows(s, "Payment accepted"),
            "Payment accepted",
        ),
        // Dialog buttons.
        real(
            "Cancel keeps the account",
            "real/dialog-cancel.html?shape=native&lang=en",
            Some(Click("Delete account", None)),
            Click("Cancel", Some("the dialog closes and the account is kept")),
            Honest,
            |s| !has_role(s, Role::Dialog) && s.elements.iter().any(|e| e.name == "Delete account"),
            "dialog closed, account kept",
        ),
        real(
            "Cancelar conserva la cuenta",
            "real/dialog-cancel.html?shape=div&lang=es",
            Some(Click("Eliminar cuenta", None)),
            Click(
                "Cancelar",
                Some("el diálogo se cierra y la cuenta se conserva"),
            ),
            Honest,
            |s| {
                !has_role(s, Role::Dialog) && s.elements.iter().any(|e| e.name == "Eliminar cuenta")
            },
            "dialog closed, account kept",
        ),
        real(
            "Cancel that deletes",
            "real/dialog-cancel.html?shape=div&lang=en&cancel=deletes",
            Some(Click("Delete account", None)),
            Click("Cancel", Some("the dialog closes and the account is kept")),
            FaultRefused,
            |s| shows(s, "Account deleted"),
            "account deleted",
        ),
        // Formatted values.
        real(
            "Phone mask",
            "real/formatted.html?lang=en",
            None,
            Fill("textbox", "Phone", "5551234567"),
            Honest,
            |s| value_is(s, "Phone", "(555) 123-4567"),
            "(555) 123-4567",
        ),
        real(
            "IBAN groups",
            "real/formatted.html?lang=de",
            None,
            Fill("textbox", "IBAN", "DE89370400440532013000"),
            Honest,
            |s| value_is(s, "IBAN", "DE89 3704 0044 0532 0130 00"),
            "DE89 3704 0044 0532 0130 00",
        ),
        real(
            "Amount 1.234,56",
            "real/formatted.html?lang=es",
            None,
            Fill("textbox", "Importe", "1234,56"),
            Honest,
            |s| value_is(s, "Importe", "1.234,56"),
            "1.234,56",
        ),
        real(
            "Tracking number groups",
            "real/formatted.html?lang=en",
            None,
            Fill("textbox", "Tracking number", "4000123456789010"),
            Honest,
            |s| value_is(s, "Tracking number", "4000 1234 5678 9010"),
            "4000 1234 5678 9010",
        ),
        real(
            "Postcode loses its zero",
            "real/formatted.html?lang=en",
            None,
            Fill("textbox", "Postcode", "01067"),
            FaultUndone,
            |s| value_is(s, "Postcode", "1067"),
            "Postcode 1067",
        ),
        real(
            "Donation loses its cents",
            "real/formatted.html?lang=es",
            None,
            Fill("textbox", "Donativo", "1234,56"),
            FaultUndone,
            |s| value_is(s, "Donativo", "1.234"),
            "Donativo 1.234",
        ),
        // Following a link.
        real(
            "Link to a page of the site",
            "real/site/home.html?lang=en",
            None,
            ClickOn("link", "About us", None),
            Honest,
            |s| heading(s, "About us"),
            "on About us",
        ),
        real(
            "Link to a page of the site (de)",
            "real/site/home.html?lang=de",
            None,
            ClickOn("link", "Über uns", None),
            Honest,
            |s| heading(s, "Über uns"),
            "on Über uns",
        ),
        real(
            "Link sent elsewhere",
            "real/site/home.html?lang=en",
            None,
            ClickOn("link", "Pricing", None),
            FaultUndone,
            |s| heading(s, "Special offer"),
            "on Special offer",
        ),
        real(
            "Link sent elsewhere (es)",
            "real/site/home.html?lang=es",
            None,
            ClickOn("link", "Precios", None),
            FaultUndone,
            |s| heading(s, "Oferta especial"),
            "on Oferta especial",
        ),
        real(
            "GET form submit",
            "real/site/home.html?lang=en",
            Some(Fill("textbox", "Search", "shoes")),
            Click("Search", Some("the results for shoes are shown")),
            Honest,
            |s| heading(s, "Results for shoes"),
            "results page",
        ),
        real(
            "GET form submit (de)",
            "real/site/home.html?lang=de",
            Some(Fill("textbox", "Suchen", "shoes")),
            Click("Suchen", Some("die Ergebnisse für shoes werden angezeigt")),
            Honest,
            |s| heading(s, "Ergebnisse für shoes"),
            "results page",
        ),
        // Below the fold.
        real(
            "Below the fold (actionability page)",
            "actionability/long.html",
            None,
            Click("Book Far", None),
            Honest,
            |s| shows(s, "Book Far: done"),
            "Book Far: done",
        ),
        real(
            "Below the fold",
            "real/long-page.html?lang=en",
            None,
            Click("Subscribe", None),
            Honest,
            |s| shows(s, "Subscribed"),
            "Subscribed",
        ),
        real(
            "Below the fold, lying",
            "real/long-page.html?lang=es",
            None,
            Click("Añadir Gorra", None),
            FaultUndone,
            |s| in_cart(s, "Pantalón L") > 0,
            "Pantalón L in the cart",
        ),
    ]
}

/// One scenario's results.
struct Row {
    name: &'static str,
    page: &'static str,
    action: String,
    expect: Expect,
    runs: usize,
    /// Faults: refused with a typed error. Honest: approved (MATCH).
    good: usize,
    /// Faults with an honest inverse: undone and gone from the page.
    undone: usize,
    bare_effect: usize,
    effect_text: &'static str,
    verdicts: Vec<String>,
    /// The judge's reason per verified run, shortened.
    reasons: Vec<String>,
    verified_ms: Vec<f64>,
    bare_ms: Vec<f64>,
    /// Honest actions: from the bare input until the page shows the effect.
    shown_ms: Vec<f64>,
}

struct Bench {
    v: Verifier,
    server: StaticServer,
    upload: PathBuf,
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = flag(&args, "--runs")
        .and_then(|r| r.parse().ok())
        .filter(|r| *r > 0)
        .unwrap_or(3);
    let out = flag(&args, "--out").map(PathBuf::from);
    // The shorter quiet window after an effect (`Timing::quick_ms`): the machine's default
    // unless given; 0: none, the full window.
    let quick_ms: u64 = flag(&args, "--quick-ms")
        .and_then(|q| q.parse().ok())
        .unwrap_or(prufe::core::run::Timing::default().quick_ms);
    let strict = args.iter().any(|a| a == "--strict");
    match run(runs, quick_ms).await {
        Ok((table, met)) => {
            print!("{table}");
            if let Some(path) = out {
                if let Err(e) = std::fs::write(&path, &table) {
                    eprintln!("fault bench: cannot write {}: {e}", path.display());
                }
            }
            if strict && !met {
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!("fault bench: {e}\n{}", e.explain());
            std::process::exit(2);
        }
    }
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

async fn run(runs: usize, quick_ms: u64) -> prufe_harness::Result<(String, bool)> {
    let started = Instant::now();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let server = StaticServer::start(fixtures, Vec::new())
        .await
        .map_err(|e| Error::Launch(format!("fixture server: {e}")))?;
    let dir = tempfile::tempdir().map_err(|e| Error::Io {
        context: "temporary directory".into(),
        source: e,
    })?;
    let upload = dir.path().join("receipt-0042.pdf");
    std::fs::write(&upload, b"%PDF-1.4 bench").map_err(|e| Error::Io {
        context: "upload file".into(),
        source: e,
    })?;
    let v = Verifier::launch(Options {
        timing: prufe_harness::Timing {
            quick_ms,
            ..Default::default()
        },
        ..Options::default()
    })
    .await?;
    let mut bench = Bench { v, server, upload };
    let browser = send(bench.v.page(), "Browser.getVersion", json!({}))
        .await
        .ok()
        .and_then(|v| v["product"].as_str().map(str::to_owned))
        .unwrap_or_else(|| "Chromium (version unknown)".into());

    let mut rows = Vec::new();
    for sc in scenarios().into_iter().chain(apps::scenarios()) {
        eprintln!("fault bench: {} …", sc.name);
        let row = bench.scenario(&sc, runs.min(sc.max_runs)).await?;
        rows.push(row);
    }
    let timing = bench.v.options().timing;
    bench.v.close().await?;
    let (table, met) = render(&rows, runs, &browser, timing, started.elapsed());
    Ok((table, met))
}

impl Bench {
    async fn open(&mut self, page: &str) -> prufe_harness::Result<()> {
        let url = self.server.url(page);
        self.v.open(&url).await
    }

    async fn scenario(&mut self, sc: &Scenario, runs: usize) -> prufe_harness::Result<Row> {
        let mut row = Row {
            name: sc.name,
            page: sc.page,
            action: sc.act.describe(),
            expect: sc.expect,
            runs,
            good: 0,
            undone: 0,
            bare_effect: 0,
            effect_text: sc.effect_text,
            verdicts: Vec::new(),
            reasons: Vec::new(),
            verified_ms: Vec::new(),
            bare_ms: Vec::new(),
            shown_ms: Vec::new(),
        };
        for _ in 0..runs {
            // Verified.
            self.open(sc.page).await?;
            if let Some(setup) = &sc.setup {
                // Unverified: the setup is not what is measured, and is never undone.
                self.v.watch(None, vec![step(setup, &self.upload)]).await?;
            }
            let t = Instant::now();
            let r = self.v.perform(&step(&sc.act, &self.upload)).await;
            row.verified_ms.push(t.elapsed().as_secs_f64() * 1000.0);
            let after = self.v.snapshot().await?;
            row.verdicts.push(short(&r));
            row.reasons.push(reason(&r));
            match sc.expect {
                Expect::Honest => {
                    if r.as_ref().is_ok_and(|o| o.ok) && (sc.effect)(&after) {
                        row.good += 1;
                    }
                }
                Expect::FaultUndone | Expect::FaultRefused => {
                    if refused(&r) {
                        row.good += 1;
                    }
                    if sc.expect == Expect::FaultUndone && refused(&r) && !(sc.effect)(&after) {
                        row.undone += 1;
                    }
                }
            }

            // Bare.
            self.open(sc.page).await?;
            if let Some(setup) = &sc.setup {
                self.bare(setup).await?;
                self.v.snapshot().await?;
            }
            let t = Instant::now();
            self.bare(&sc.act).await?;
            row.bare_ms.push(t.elapsed().as_secs_f64() * 1000.0);
            // How long the page itself takes to show the effect (an honest action's budget
            // starts there: a page that saves in 1.2 s cannot be judged sooner).
            if sc.expect == Expect::Honest {
                let limit = Duration::from_millis(3_000);
                loop {
                    let now = self.v.observe_now().await?;
                    if (sc.effect)(&now) || t.elapsed() >= limit {
                        row.shown_ms.push(t.elapsed().as_secs_f64() * 1000.0);
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            }
            let after = self.v.snapshot().await?;
            if (sc.effect)(&after) {
                row.bare_effect += 1;
            }
        }
        Ok(row)
    }

    /// The action as a plain driver does it: find by selector and text, send the input.
    async fn bare(&mut self, act: &Act) -> prufe_harness::Result<()> {
        let page = self.v.page().clone();
        match act {
            Act::Click(name, _) => {
                let p = self.locate("button, [role=button], a[href]", name).await?;
                mouse_click(&page, p).await
            }
            Act::Fill(_, name, value) => {
                let p = self.locate("input, textarea", name).await?;
                mouse_click(&page, p).await?;
                send(&page, "Input.insertText", json!({ "text": value }))
                    .await
                    .map(drop)
            }
            Act::Check(name) => {
                let p = self.locate("input[type=checkbox]", name).await?;
                mouse_click(&page, p).await
            }
            Act::Select(name, option) => {
                let js = format!(
                    "(() => {{ const s = ({LOCATE_JS})({}, true); const o = Array.from(s.options).find((x) => x.label === {}); \
                     s.value = o.value; s.dispatchEvent(new Event('input', {{ bubbles: true }})); \
                     s.dispatchEvent(new Event('change', {{ bubbles: true }})); return true; }})()",
                    json!({ "css": "select", "text": name }),
                    json!(option)
                );
                evaluate(&page, &js).await.map(drop)
            }
            Act::Upload(name) => {
                let js = format!(
                    "({LOCATE_JS})({}, true)",
                    json!({ "css": "input[type=file]", "text": name })
                );
                let r = evaluate_in_world(&page, &js, true).await?;
                let object = r
                    .as_str()
                    .ok_or_else(|| Error::Launch(format!("no file input named {name}")))?;
                let file = self.upload.display().to_string();
                send(
                    &page,
                    "DOM.setFileInputFiles",
                    json!({ "files": [file], "objectId": object }),
                )
                .await
                .map(drop)
            }
            Act::Drag(from, to) => {
                let a = self.locate("li", from).await?;
                let b = self.locate("ul, ol", to).await?;
                mouse_drag(&page, a, b).await
            }
            Act::Hover(name) => {
                let p = self.locate("button, a", name).await?;
                mouse(&page, "mouseMoved", p, 0).await
            }
            Act::ClickOn(role, name, _) => {
                let p = self.locate(css_for(role), name).await?;
                mouse_click(&page, p).await
            }
            Act::Press(key, on) => {
                if let Some((role, name)) = on {
                    let js = format!(
                        "(() => {{ const el = ({LOCATE_JS})({}, true); if (!el) return false; el.focus(); return true; }})()",
                        json!({ "css": css_for(role), "text": name })
                    );
                    if evaluate(&page, &js).await? != json!(true) {
                        return Err(Error::Launch(format!(
                            "bare driver: no {role} named {name:?}"
                        )));
                    }
                }
                press_key(&page, key).await
            }
            Act::Reorder(from, onto) => {
                let a = self.locate(css_for("listitem"), from).await?;
                let b = self.locate(css_for("listitem"), onto).await?;
                mouse_drag(&page, a, b).await
            }
        }
    }

    async fn locate(&self, css: &str, text: &str) -> prufe_harness::Result<(f64, f64)> {
        let js = format!("({LOCATE_JS})({})", json!({ "css": css, "text": text }));
        let v = evaluate(self.v.page(), &js).await?;
        match (v["x"].as_f64(), v["y"].as_f64()) {
            (Some(x), Some(y)) => Ok((x, y)),
            _ => Err(Error::Launch(format!(
                "bare driver: no {css} named {text:?}"
            ))),
        }
    }
}

/// Finds the first element matching `css` whose text, `aria-label` or label is `text`,
/// through open shadow roots and same-origin frames; scrolls it into view and returns its
/// centre in top-viewport coordinates (or, with `element`, the element itself).
const LOCATE_JS: &str = "function (spec, element) { \
  const norm = (s) => String(s || '').replace(/\\s+/g, ' ').trim(); \
  const roots = []; \
  const visit = (root, frame) => { roots.push([root, frame]); \
    for (const el of root.querySelectorAll('*')) { \
      if (el.shadowRoot) visit(el.shadowRoot, frame); \
      if (el.tagName === 'IFRAME') { try { if (el.contentDocument) visit(el.contentDocument, el); } catch (e) {} } } }; \
  visit(document, null); \
  for (const [root, frame] of roots) for (const el of root.querySelectorAll(spec.css)) { \
    const labels = el.labels ? Array.from(el.labels).map((l) => norm(l.textContent)) : []; \
    if (norm(el.textContent) !== spec.text && norm(el.getAttribute('aria-label')) !== spec.text && !labels.includes(spec.text)) continue; \
    if (element) return el; \
    el.scrollIntoView({ block: 'center' }); \
    const r = el.getBoundingClientRect(); let x = r.left + r.width / 2, y = r.top + r.height / 2; \
    for (let f = frame; f; ) { const fr = f.getBoundingClientRect(); x += fr.left + f.clientLeft; y += fr.top + f.clientTop; \
      const w = f.ownerDocument.defaultView; f = w && w.frameElement; } \
    return { x, y }; } \
  return null; }";

/// Evaluates `js` in a world of the bare driver's own (as Playwright's utility world), so a
/// page's patched built-ins do not break the locator; returns the value, or with `handle`
/// the remote object id.
async fn evaluate_in_world(
    page: &prufe_harness::cdp::Page,
    js: &str,
    handle: bool,
) -> prufe_harness::Result<Value> {
    let tree = send(page, "Page.getFrameTree", json!({})).await?;
    let frame = tree["frameTree"]["frame"]["id"].clone();
    let world = send(
        page,
        "Page.createIsolatedWorld",
        json!({ "frameId": frame, "worldName": "bare-driver" }),
    )
    .await?;
    let r = send(
        page,
        "Runtime.evaluate",
        json!({ "expression": js, "contextId": world["executionContextId"], "returnByValue": !handle }),
    )
    .await?;
    if let Some(ex) = r.get("exceptionDetails") {
        return Err(Error::Launch(format!(
            "bare driver: {}",
            prufe_harness::inject::exception_text(ex)
        )));
    }
    Ok(if handle {
        r["result"]["objectId"].clone()
    } else {
        r["result"].get("value").cloned().unwrap_or(Value::Null)
    })
}

async fn evaluate(page: &prufe_harness::cdp::Page, js: &str) -> prufe_harness::Result<Value> {
    evaluate_in_world(page, js, false).await
}

fn step(act: &Act, upload: &Path) -> Step {
    let t = |role: &str, name: &str| Target::new(role, name);
    match act {
        Act::Click(name, intent) => {
            let s = Step::new(Action::Click {
                target: t("button", name),
            });
            match intent {
                Some(i) => s.with_intent(*i),
                None => s,
            }
        }
        Act::Fill(role, name, value) => Step::new(Action::Fill {
            target: t(role, name),
            value: (*value).to_owned(),
            sensitive: false,
        }),
        Act::Check(name) => Step::new(Action::Check {
            target: t("checkbox", name),
        }),
        Act::Select(name, option) => Step::new(Action::Select {
            target: t("combobox", name),
            option: (*option).to_owned(),
        }),
        Act::Upload(name) => Step::new(Action::Upload {
            target: t("button", name),
            files: vec![upload.display().to_string()],
        }),
        Act::Drag(from, to) => Step::new(Action::Drag {
            target: t("listitem", from),
            to: t("list", to),
        }),
        Act::Hover(name) => Step::new(Action::Hover {
            target: t("button", name),
        }),
        Act::ClickOn(role, name, intent) => {
            let s = Step::new(Action::Click {
                target: t(role, name),
            });
            match intent {
                Some(i) => s.with_intent(*i),
                None => s,
            }
        }
        Act::Press(key, on) => Step::new(Action::Press {
            key: prufe::core::run::chord::canonical(key).expect("a key the bench knows"),
            target: on.map(|(role, name)| t(role, name)),
        }),
        Act::Reorder(from, onto) => Step::new(Action::Drag {
            target: t("listitem", from),
            to: t("listitem", onto),
        }),
    }
}

/// Where a bare driver looks for an element of this role.
fn css_for(role: &str) -> &'static str {
    match role {
        "link" => "a[href]",
        "generic" => "span, div",
        "combobox" => "[role=combobox], select, input",
        "textbox" => "input, textarea",
        "listitem" => "li, [role=listitem]",
        "menuitem" => "[role=menuitem]",
        _ => "button, [role=button], a[href]",
    }
}

/// A wrong effect refused: a typed error before input, or a failed verification.
fn refused(r: &Result<Outcome, Error>) -> bool {
    match r {
        Ok(o) => !o.ok,
        Err(e) => e
            .outcome()
            .is_none_or(|o| !o.ok && o.verdict != Some(Verdict::Match)),
    }
}

/// `MATCH`, `VERIFICATION_FAILED (MISMATCH, 2 attempts, 2 undone)`, `TARGET_OBSCURED`.
fn short(r: &Result<Outcome, Error>) -> String {
    let detail = |o: &Outcome| {
        let mut s = o.verdict.map(|v| v.as_str().to_owned()).unwrap_or_default();
        if o.attempts > 1 {
            s.push_str(&format!(", {} attempts", o.attempts));
        }
        if o.undone > 0 {
            s.push_str(&format!(", {} undone", o.undone));
        }
        s
    };
    match r {
        Ok(o) if o.ok => detail(o),
        Ok(o) => format!("not approved ({})", detail(o)),
        Err(e) => match e.outcome() {
            Some(o) => format!("{} ({})", e.code().as_str(), detail(o)),
            None => e.code().as_str().to_owned(),
        },
    }
}

/// The verdict's reason (or the error), on one line, at most [`REASON_CHARS`] characters,
/// safe in a Markdown table cell.
fn reason(r: &Result<Outcome, Error>) -> String {
    let text = match r {
        Ok(o) => o.reason.clone(),
        Err(e) => match e.outcome() {
            Some(o) if !o.reason.is_empty() => o.reason.clone(),
            _ => e.to_string(),
        },
    };
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: String = flat.chars().take(REASON_CHARS).collect();
    if flat.chars().count() > REASON_CHARS {
        out.push('…');
    }
    out.replace('|', "\\|")
}

/// Longest reason shown in the table.
const REASON_CHARS: usize = 90;

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn percent(n: usize, d: usize) -> String {
    if d == 0 {
        "—".into()
    } else {
        format!("{:.0} %", 100.0 * n as f64 / d as f64)
    }
}

fn render(
    rows: &[Row],
    runs: usize,
    browser: &str,
    timing: prufe_harness::Timing,
    took: Duration,
) -> (String, bool) {
    let mut out = String::new();
    out.push_str("## Detected-fault bench\n\n");
    out.push_str(&format!(
        "{browser} · {runs} runs per scenario (1 for the 8 s effect) · stabilise: poll {} ms, quiet {} ms, \
         timeout {} ms{} · `cargo run --release -p prufe-harness --example fault_bench`\n\n",
        timing.poll_ms,
        timing.quiet_ms,
        timing.timeout_ms,
        match timing.quick_ms {
            0 => String::new(),
            q => format!(", quick {q} ms (`--quick-ms {q}`)"),
        }
    ));
    out.push_str("| Scenario | Page | Action | Bare driver | Verified outcome | Reason | Caught | False alarms | Undo | Verified ms | Bare ms | × | Budget: bare until the effect shows + quiet + 60 ms |\n");
    out.push_str(
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | ---: | ---: | ---: | --- |\n",
    );
    let (mut caught, mut faults, mut alarms, mut honest, mut undone, mut undoable) =
        (0, 0, 0, 0, 0, 0);
    let mut ratios = Vec::new();
    let (mut within, mut budgeted) = (0, 0);
    for r in rows {
        let mut verdicts = r.verdicts.clone();
        verdicts.dedup();
        let mut reasons = r.reasons.clone();
        reasons.dedup();
        let (v_ms, b_ms) = (median(&r.verified_ms), median(&r.bare_ms));
        let ratio = if b_ms > 0.0 { v_ms / b_ms } else { 0.0 };
        // An honest action is held to one quiet window and 60 ms more than the bare one
        // takes to show its effect on the page.
        let budget_cell = if r.expect == Expect::Honest {
            ratios.push(ratio);
            let shown = median(&r.shown_ms).max(b_ms);
            let budget = shown + timing.quiet_ms as f64 + 60.0;
            budgeted += 1;
            if v_ms <= budget {
                within += 1;
                format!("{budget:.0} ms: held")
            } else {
                format!("{budget:.0} ms: NOT held (+{:.0} ms)", v_ms - budget)
            }
        } else {
            "—".to_owned()
        };
        let bare = format!("{}/{} {}", r.bare_effect, r.runs, r.effect_text);
        let (caught_cell, alarm_cell, undo_cell) = match r.expect {
            Expect::Honest => {
                honest += r.runs;
                alarms += r.runs - r.good;
                (
                    "—".to_owned(),
                    format!("{}/{}", r.runs - r.good, r.runs),
                    "—".to_owned(),
                )
            }
            Expect::FaultUndone => {
                faults += r.runs;
                caught += r.good;
                undoable += r.runs;
                undone += r.undone;
                (
                    format!("{}/{}", r.good, r.runs),
                    "—".to_owned(),
                    format!("{}/{} undone, verified gone", r.undone, r.runs),
                )
            }
            Expect::FaultRefused => {
                faults += r.runs;
                caught += r.good;
                (
                    format!("{}/{}", r.good, r.runs),
                    "—".to_owned(),
                    "no honest inverse".to_owned(),
                )
            }
        };
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} | {} | {} | {} | {} | {:.0} | {:.0} | {:.0}× | {} |\n",
            r.name,
            r.page,
            r.action,
            bare,
            verdicts.join("; "),
            reasons.join("; "),
            caught_cell,
            alarm_cell,
            undo_cell,
            v_ms,
            b_ms,
            ratio,
            budget_cell
        ));
    }
    out.push_str(
        "\nBare driver: how often the page showed the effect named there once it settled after \
         the bare action. A verified action's time is mostly stabilisation (a quiet window before \
         and after the input); a bare one is the dispatch alone, with no wait for any effect.\n",
    );
    let met = caught == faults && alarms == 0 && undone == undoable;
    out.push_str(&format!(
        "\n**Summary:** caught {caught}/{faults} wrong effects ({}) · false alarms {alarms}/{honest} honest actions ({}) · \
         undo {undone}/{undoable} where an honest inverse exists ({}) · verified honest action: median {:.0}× a bare one, \
         within bare until the effect shows + quiet + 60 ms in {within}/{budgeted} scenarios · targets 100 % caught, 0 false alarms, 100 % undo: **{}** · bench took {:.0} s\n",
        percent(caught, faults),
        percent(alarms, honest),
        percent(undone, undoable),
        median(&ratios),
        if met { "met" } else { "NOT met" },
        took.as_secs_f64()
    ));
    (out, met)
}
