//! Pages written the way real sites write them (`fixtures/real/`): one test per class of
//! page, its variants (shapes, markup, languages) in a loop on one browser, each page loaded
//! fresh. Every assertion names its variant.

mod common;

use common::{cart_lines, target, texts, Session};
use prufe::core::model::{Role, Snapshot};
use prufe::core::resolve::Target;
use prufe_harness::{Action, Error, Options, Outcome, Step, Verdict};

/// The outcome of a step, whether it was approved or not.
fn outcome(r: &Result<Outcome, Error>) -> Option<&Outcome> {
    match r {
        Ok(o) => Some(o),
        Err(e) => e.outcome(),
    }
}

fn report(r: &Result<Outcome, Error>) -> String {
    match r {
        Ok(o) => o.explain(),
        Err(e) => format!("{e}\n{}", e.explain()),
    }
}

/// An honest action: approved with a MATCH at the first attempt, nothing undone.
fn assert_matched(variant: &str, r: &Result<Outcome, Error>) {
    let o = r
        .as_ref()
        .unwrap_or_else(|e| panic!("{variant}: expected MATCH, got {e}\n{}", e.explain()));
    assert_eq!(
        o.verdict,
        Some(Verdict::Match),
        "{variant}: {}",
        o.explain()
    );
    assert!(o.ok, "{variant}: {}", o.explain());
    assert_eq!(o.attempts, 1, "{variant}: {}", o.explain());
    assert_eq!(o.undone, 0, "{variant}: {}", o.explain());
}

/// A wrong effect: judged (a verdict, not a harness error), not MATCH, not approved.
fn assert_caught<'r>(variant: &str, r: &'r Result<Outcome, Error>) -> &'r Outcome {
    let o = outcome(r).unwrap_or_else(|| {
        panic!(
            "{variant}: expected a judged refusal, got no verdict: {}",
            report(r)
        )
    });
    assert!(
        !o.ok,
        "{variant}: a wrong effect was approved: {}",
        report(r)
    );
    assert!(
        matches!(
            o.verdict,
            Some(Verdict::Mismatch) | Some(Verdict::Ambiguous)
        ),
        "{variant}: {}",
        report(r)
    );
    assert!(r.is_err(), "{variant}: a refused step is an error");
    o
}

/// The page shows `text`: as a text run of its own, or inside one (a table row, a cover whose
/// spans read as one run).
fn has_text(s: &Snapshot, text: &str) -> bool {
    s.texts.iter().any(|t| t.text.contains(text))
        || s.elements.iter().any(|e| e.label().contains(text))
}

fn value_of(s: &Snapshot, role: Role, name: &str) -> Option<String> {
    s.elements
        .iter()
        .find(|e| e.role == role && e.name == name)
        .and_then(|e| e.value.clone())
}

fn listitems(s: &Snapshot) -> Vec<String> {
    s.elements
        .iter()
        .filter(|e| e.role == Role::Listitem)
        .map(|e| e.label().to_owned())
        .collect()
}

async fn open(s: &mut Session, page: &str) {
    let url = s.url(page);
    s.v.open(&url)
        .await
        .unwrap_or_else(|e| panic!("opening {url}: {e}"));
}

async fn url_of(s: &Session) -> String {
    s.v.page().url().await.ok().flatten().unwrap_or_default()
}

/// Does `step` unverified (as a person would before the action under test).
async fn setup(s: &mut Session, variant: &str, step: Step) {
    if let Err(e) = s.v.watch(None, vec![step]).await {
        panic!("{variant}: setting up: {e}\n{}", e.explain());
    }
}

fn click(t: Target) -> Step {
    Step::new(Action::Click { target: t })
}

fn press(key: &str, on: Option<Target>) -> Step {
    Step::new(Action::Press {
        key: prufe::core::run::chord::canonical(key).expect("a known key"),
        target: on,
    })
}

// --- Visible text outside paragraphs. ---

#[tokio::test]
async fn feedback_in_plain_text_is_match() {
    // (page, button, text that must appear)
    let cases = [
        ("kind=saved&lang=en", "Save", "Saved"),
        ("kind=saved&lang=es", "Guardar", "Guardado"),
        ("kind=saved&lang=de", "Speichern", "Gespeichert"),
        ("kind=score&lang=en", "Add a point", "4 points"),
        ("kind=score&lang=de", "Einen Punkt geben", "4 Punkte"),
        ("kind=total&lang=en", "Add another Shirt M", "39.80 €"),
        ("kind=total&lang=es", "Añadir otra Camiseta M", "39,80 €"),
        ("kind=cover&lang=en", "Show cover", "Cover by M. Lund"),
        ("kind=cover&lang=es", "Ver portada", "Portada de M. Lund"),
    ];
    let mut s = Session::start(Options::default()).await;
    for (query, button, shown) in cases {
        let variant = format!("text-feedback.html?{query}");
        open(&mut s, &format!("real/{variant}")).await;
        let before = s.snapshot().await;
        assert!(
            !has_text(&before, shown),
            "{variant}: {shown:?} is not there before"
        );
        let r = s.v.click(target("button", button), None).await;
        assert_matched(&variant, &r);
        let after = s.snapshot().await;
        assert!(
            has_text(&after, shown),
            "{variant}: {shown:?} observed as text: {:?}",
            texts(&after)
        );
    }
    s.close().await;
}

#[tokio::test]
async fn an_honest_click_on_a_page_that_changes_by_itself_is_match() {
    let cases = [
        ("noise=clock&lang=en", "Save", "Saved"),
        ("noise=carousel&lang=es", "Guardar", "Guardado"),
        ("noise=ticker&lang=de", "Speichern", "Gespeichert"),
        ("noise=carousel&lang=en", "Save", "Saved"),
    ];
    let mut s = Session::start(Options::default()).await;
    for (query, button, shown) in cases {
        let variant = format!("text-noise.html?{query}");
        open(&mut s, &format!("real/{variant}")).await;
        let r = s.v.click(target("button", button), None).await;
        assert_matched(&variant, &r);
        let o = r.unwrap();
        assert!(
            o.lines.iter().any(|l| l.contains(shown)),
            "{variant}: the effect is reported: {:?}",
            o.lines
        );
        assert!(
            has_text(&s.snapshot().await, shown),
            "{variant}: {shown:?} shown"
        );
    }
    s.close().await;
}

#[tokio::test]
async fn an_honest_click_among_a_clock_a_ticker_and_a_carousel_is_match() {
    // (query, button, the basket line it adds); `noise=off` is the same page held still.
    let cases = [
        ("lang=en", "Add Shirt M", "Shirt M"),
        ("noise=off&lang=en", "Add Shirt M", "Shirt M"),
        ("lang=es", "Añadir Calcetines S", "Calcetines S"),
        ("lang=de", "Hemd M hinzufügen", "Hemd M"),
        ("noise=off&lang=de", "Socken S hinzufügen", "Socken S"),
    ];
    let mut s = Session::start(Options::default()).await;
    for (query, button, line) in cases {
        let variant = format!("live-shop.html?{query}");
        open(&mut s, &format!("real/{variant}")).await;
        let r = s.v.click(target("button", button), None).await;
        assert_matched(&variant, &r);
        let o = r.unwrap();
        assert!(
            o.lines.iter().any(|l| l.contains(line)),
            "{variant}: the basket line is reported: {:?}",
            o.lines
        );
        let basket = cart_lines(&s.snapshot().await);
        assert_eq!(basket.len(), 1, "{variant}: one line: {basket:?}");
        assert!(basket[0].starts_with(line), "{variant}: {basket:?}");
    }
    s.close().await;
}

// --- Role-less clickables. ---

#[tokio::test]
async fn role_less_clickables_are_targets_and_judged() {
    // (lang, control text, product that must land in the basket)
    let honest = [
        ("en", "Add Shirt M", "Shirt M"),
        ("en", "Add Socks S", "Socks S"),
        ("en", "Add Cap", "Cap"),
        ("es", "Añadir Camiseta M", "Camiseta M"),
        ("es", "Añadir Calcetines S", "Calcetines S"),
        ("de", "Mütze hinzufügen", "Mütze"),
    ];
    let mut s = Session::start(Options::default()).await;
    for (lang, control, product) in honest {
        let variant = format!("clickable.html?lang={lang} {control:?}");
        open(&mut s, &format!("real/clickable.html?lang={lang}")).await;
        let snap = s.snapshot().await;
        let el = snap
            .elements
            .iter()
            .find(|e| e.label() == control)
            .unwrap_or_else(|| panic!("{variant}: the control is observed"));
        assert_eq!(el.role, Role::Generic, "{variant}");
        assert!(el.clickable, "{variant}: observed as clickable");
        let r = s.v.click(target("generic", control), None).await;
        assert_matched(&variant, &r);
        let cart = s.cart().await;
        assert_eq!(cart.len(), 1, "{variant}: {cart:?}");
        assert!(cart[0].starts_with(product), "{variant}: {cart:?}");
    }
    // The liar says Jumper XL and adds Trousers L.
    for (lang, control, wrong) in [
        ("en", "Add Jumper XL", "Trousers L"),
        ("es", "Añadir Jersey XL", "Pantalón L"),
        ("de", "Pullover XL hinzufügen", "Hose L"),
    ] {
        let variant = format!("clickable.html?lang={lang} {control:?}");
        open(&mut s, &format!("real/clickable.html?lang={lang}")).await;
        let r = s.v.click(target("generic", control), None).await;
        let o = assert_caught(&variant, &r);
        assert!(
            o.reason.contains(wrong),
            "{variant}: the reason names {wrong}: {}",
            o.reason
        );
        assert!(o.undone >= 1, "{variant}: undone: {}", o.explain());
        let cart = s.cart().await;
        assert!(
            cart.is_empty(),
            "{variant}: the wrong line is gone: {cart:?}"
        );
    }
    s.close().await;
}

// --- Order. ---

#[tokio::test]
async fn a_drag_that_reorders_is_match_and_one_that_does_nothing_is_caught() {
    let cases = [
        ("kind=html5&lang=en", "Task", false),
        ("kind=pointer&lang=en", "Task", false),
        ("kind=html5&lang=es", "Tarea", false),
        ("kind=pointer&lang=de", "Aufgabe", false),
        ("kind=pointer&lang=en&broken=1", "Task", true),
        ("kind=html5&lang=es&broken=1", "Tarea", true),
    ];
    let mut s = Session::start(Options::default()).await;
    for (query, word, broken) in cases {
        let variant = format!("order.html?{query}");
        open(&mut s, &format!("real/order.html?{query}")).await;
        let (a, b, c) = (
            format!("{word} A"),
            format!("{word} B"),
            format!("{word} C"),
        );
        assert_eq!(
            listitems(&s.snapshot().await),
            [a.clone(), b.clone(), c.clone()],
            "{variant}"
        );
        let r =
            s.v.drag(
                target("listitem", &c),
                target("listitem", &a),
                Vec::new(),
                None,
            )
            .await;
        let order = listitems(&s.snapshot().await);
        if broken {
            assert_caught(&variant, &r);
            assert_eq!(
                order,
                [a.clone(), b.clone(), c.clone()],
                "{variant}: nothing moved"
            );
        } else {
            assert_matched(&variant, &r);
            assert_eq!(
                order,
                [c.clone(), a.clone(), b.clone()],
                "{variant}: C above A"
            );
        }
    }
    s.close().await;
}

// --- Keys. ---

#[tokio::test]
async fn keys_do_what_they_are_pressed_for() {
    struct Lang {
        q: &'static str,
        options: &'static str,
        edit: &'static str,
        country: &'static str,
        picked: &'static str,
        search: &'static str,
        hits: &'static str,
        first: &'static str,
        last: &'static str,
    }
    let langs = [
        Lang {
            q: "en",
            options: "Options",
            edit: "Edit profile",
            country: "Country",
            picked: "Spain",
            search: "Search",
            hits: "3 results for shoes",
            first: "First name",
            last: "Last name",
        },
        Lang {
            q: "es",
            options: "Opciones",
            edit: "Editar perfil",
            country: "País",
            picked: "España",
            search: "Buscar",
            hits: "3 resultados para shoes",
            first: "Nombre",
            last: "Apellidos",
        },
        Lang {
            q: "de",
            options: "Optionen",
            edit: "Profil bearbeiten",
            country: "Land",
            picked: "Spanien",
            search: "Suche",
            hits: "3 Treffer für shoes",
            first: "Vorname",
            last: "Nachname",
        },
    ];
    let mut s = Session::start(Options::default()).await;
    for l in &langs {
        let page = format!("real/keys-widgets.html?lang={}", l.q);

        // Escape closes an open menu.
        let variant = format!("{page}: Escape closes the menu");
        open(&mut s, &page).await;
        setup(&mut s, &variant, click(target("button", l.options))).await;
        assert!(
            s.snapshot()
                .await
                .elements
                .iter()
                .any(|e| e.role == Role::Menu),
            "{variant}: open"
        );
        let r = s.v.perform(&press("Escape", None)).await;
        assert_matched(&variant, &r);
        assert!(
            !s.snapshot()
                .await
                .elements
                .iter()
                .any(|e| e.role == Role::Menu),
            "{variant}: closed"
        );

        // Escape closes a dialog.
        let variant = format!("{page}: Escape closes the dialog");
        open(&mut s, &page).await;
        setup(&mut s, &variant, click(target("button", l.edit))).await;
        let r = s.v.perform(&press("Escape", None)).await;
        assert_matched(&variant, &r);
        assert!(
            !s.snapshot()
                .await
                .elements
                .iter()
                .any(|e| e.role == Role::Dialog),
            "{variant}: closed"
        );

        // Enter picks the active option of an open listbox.
        let variant = format!("{page}: Enter picks the active option");
        open(&mut s, &page).await;
        setup(&mut s, &variant, click(target("combobox", l.country))).await;
        let r =
            s.v.perform(&press("Enter", Some(target("combobox", l.country))))
                .await;
        assert_matched(&variant, &r);
        let snap = s.snapshot().await;
        assert_eq!(
            value_of(&snap, Role::Combobox, l.country).as_deref(),
            Some(l.picked),
            "{variant}"
        );
        assert!(
            !snap.elements.iter().any(|e| e.role == Role::Listbox),
            "{variant}: the listbox closed"
        );

        // Enter submits the focused form.
        let variant = format!("{page}: Enter submits the search");
        open(&mut s, &page).await;
        let r =
            s.v.perform(&press("Enter", Some(target("textbox", l.search))))
                .await;
        assert_matched(&variant, &r);
        assert!(
            has_text(&s.snapshot().await, l.hits),
            "{variant}: {:?}",
            texts(&s.snapshot().await)
        );

        // Tab moves focus to the next field; then, from the first field again while the
        // focus is still on the next one, the press focuses its field first, so the focus
        // it moves back to the next one is its effect.
        open(&mut s, &page).await;
        for variant in ["Tab moves focus", "Tab from a field without the focus"] {
            let variant = format!("{page}: {variant}");
            let r =
                s.v.perform(&press("Tab", Some(target("textbox", l.first))))
                    .await;
            assert_matched(&variant, &r);
            let snap = s.snapshot().await;
            let focused: Vec<&str> = snap
                .elements
                .iter()
                .filter(|e| e.focused)
                .map(|e| e.label())
                .collect();
            assert_eq!(focused, [l.last], "{variant}");
        }
    }
    s.close().await;
}

// --- Busy pages. ---

#[tokio::test]
async fn a_busy_page_is_judged_on_its_real_outcome() {
    let intents = [
        (
            "en",
            "the table is booked",
            "Booking confirmed",
            "Booking failed",
        ),
        (
            "es",
            "la mesa queda reservada",
            "Reserva confirmada",
            "Reserva fallida",
        ),
        (
            "de",
            "der Tisch ist gebucht",
            "Buchung bestätigt",
            "Buchung fehlgeschlagen",
        ),
    ];
    let cases = [
        ("region", 0, false),
        ("spinner", 1, false),
        ("button", 2, false),
        ("region", 1, true),
        ("spinner", 2, true),
        ("button", 0, true),
    ];
    let mut s = Session::start(Options::default()).await;
    for (shape, lang, fail) in cases {
        let (q, intent, ok_text, fail_text) = intents[lang];
        let outcome_q = if fail { "fail" } else { "ok" };
        let variant = format!("busy.html?shape={shape}&outcome={outcome_q}&lang={q}");
        open(&mut s, &format!("real/{variant}")).await;
        let book = match q {
            "en" => "Book table",
            "es" => "Reservar mesa",
            _ => "Tisch buchen",
        };
        let r = s.v.click(target("button", book), Some(intent)).await;
        let snap = s.snapshot().await;
        if fail {
            let o = assert_caught(&variant, &r);
            assert!(
                o.reason.contains(fail_text),
                "{variant}: the reason names {fail_text:?}: {}",
                o.reason
            );
            assert!(has_text(&snap, fail_text), "{variant}");
        } else {
            assert_matched(&variant, &r);
            assert!(has_text(&snap, ok_text), "{variant}: {:?}", texts(&snap));
        }
        assert!(
            !snap.elements.iter().any(|e| e.busy),
            "{variant}: judged after the page stopped being busy"
        );
    }
    s.close().await;
}

// --- Intent that widens. ---

struct Words {
    lang: &'static str,
    remove_m: &'static str,
    shirt_m: &'static str,
    shirt_l: &'static str,
    removed_m: &'static str,
    add_mug: &'static str,
    mug: &'static str,
    gains_mug: &'static str,
    add_shirt_s: &'static str,
    shirt_s: &'static str,
    gains_shirt: &'static str,
    pay: &'static str,
    paid: &'static str,
    declined: &'static str,
}

const CART_WORDS: [Words; 3] = [
    Words {
        lang: "en",
        remove_m: "Remove Shirt M",
        shirt_m: "Shirt M",
        shirt_l: "Shirt L",
        removed_m: "Shirt M is removed from the cart",
        add_mug: "Add Mug",
        mug: "Mug",
        gains_mug: "the cart gains a mug",
        add_shirt_s: "Add Shirt S",
        shirt_s: "Shirt S",
        gains_shirt: "the cart gains a shirt",
        pay: "Pay now",
        paid: "the payment is accepted",
        declined: "Payment declined",
    },
    Words {
        lang: "es",
        remove_m: "Quitar Camisa M",
        shirt_m: "Camisa M",
        shirt_l: "Camisa L",
        removed_m: "Camisa M se quita del carrito",
        add_mug: "Añadir Taza",
        mug: "Taza",
        gains_mug: "se añade una taza al carrito",
        add_shirt_s: "Añadir Camisa S",
        shirt_s: "Camisa S",
        gains_shirt: "se añade una camisa al carrito",
        pay: "Pagar ahora",
        paid: "el pago es aceptado",
        declined: "Pago rechazado",
    },
    Words {
        lang: "de",
        remove_m: "Hemd M entfernen",
        shirt_m: "Hemd M",
        shirt_l: "Hemd L",
        removed_m: "Hemd M wird aus dem Warenkorb entfernt",
        add_mug: "Tasse hinzufügen",
        mug: "Tasse",
        gains_mug: "eine Tasse kommt in den Warenkorb",
        add_shirt_s: "Hemd S hinzufügen",
        shirt_s: "Hemd S",
        gains_shirt: "ein Hemd kommt in den Warenkorb",
        pay: "Jetzt bezahlen",
        paid: "die Zahlung wird akzeptiert",
        declined: "Zahlung abgelehnt",
    },
];

#[tokio::test]
async fn an_intent_that_claims_more_than_happened_is_caught_and_honest_ones_match() {
    let mut s = Session::start(Options::default()).await;
    for w in &CART_WORDS {
        let page = |fault: &str| format!("real/cart-claims.html?lang={}&fault={fault}", w.lang);
        let count = |cart: &[String], p: &str| cart.iter().filter(|l| l.starts_with(p)).count();

        // Removing the row next to the one named, with the intent and without.
        for intent in [Some(w.removed_m), None] {
            let variant = format!("{} remove-wrong, intent {intent:?}", w.lang);
            open(&mut s, &page("remove-wrong")).await;
            let r = s.v.click(target("button", w.remove_m), intent).await;
            let o = assert_caught(&variant, &r);
            assert!(
                o.reason.contains(w.shirt_l),
                "{variant}: the reason names {}: {}",
                w.shirt_l,
                o.reason
            );
            let variant = format!("{} honest remove, intent {intent:?}", w.lang);
            open(&mut s, &page("")).await;
            let r = s.v.click(target("button", w.remove_m), intent).await;
            assert_matched(&variant, &r);
            let cart = s.cart().await;
            assert_eq!(
                (count(&cart, w.shirt_m), count(&cart, w.shirt_l)),
                (0, 1),
                "{variant}: {cart:?}"
            );
        }

        // The mug lands in the wishlist, not the cart.
        let variant = format!("{} wishlist, intent {:?}", w.lang, w.gains_mug);
        open(&mut s, &page("wishlist")).await;
        let r =
            s.v.click(target("button", w.add_mug), Some(w.gains_mug))
                .await;
        let o = assert_caught(&variant, &r);
        assert!(
            o.reason.contains("wishlist"),
            "{variant}: the reason names the container: {}",
            o.reason
        );
        assert!(o.undone >= 1, "{variant}: undone: {}", o.explain());
        let snap = s.snapshot().await;
        assert!(
            !snap
                .elements
                .iter()
                .any(|e| e.region.starts_with("wishlist") && e.label().starts_with(w.mug)),
            "{variant}: the mug was taken out of the wishlist again"
        );
        let variant = format!("{} honest mug, intent {:?}", w.lang, w.gains_mug);
        open(&mut s, &page("")).await;
        let r =
            s.v.click(target("button", w.add_mug), Some(w.gains_mug))
                .await;
        assert_matched(&variant, &r);
        assert_eq!(count(&s.cart().await, w.mug), 1, "{variant}");

        // One click, two identical rows.
        let variant = format!("{} double, intent {:?}", w.lang, w.gains_shirt);
        open(&mut s, &page("double")).await;
        let r =
            s.v.click(target("button", w.add_shirt_s), Some(w.gains_shirt))
                .await;
        let o = assert_caught(&variant, &r);
        assert!(
            o.reason.contains(w.shirt_s),
            "{variant}: the reason names the rows: {}",
            o.reason
        );
        let variant = format!("{} honest shirt, intent {:?}", w.lang, w.gains_shirt);
        open(&mut s, &page("")).await;
        let r =
            s.v.click(target("button", w.add_shirt_s), Some(w.gains_shirt))
                .await;
        assert_matched(&variant, &r);
        assert_eq!(count(&s.cart().await, w.shirt_s), 1, "{variant}");

        // A declined payment against a positive intent.
        let variant = format!("{} declined, intent {:?}", w.lang, w.paid);
        open(&mut s, &page("declined")).await;
        let r = s.v.click(target("button", w.pay), Some(w.paid)).await;
        let o = assert_caught(&variant, &r);
        assert!(
            o.reason.contains(w.declined),
            "{variant}: the reason names the alert: {}",
            o.reason
        );
        let variant = format!("{} honest payment, intent {:?}", w.lang, w.paid);
        open(&mut s, &page("")).await;
        let r = s.v.click(target("button", w.pay), Some(w.paid)).await;
        assert_matched(&variant, &r);
    }
    s.close().await;
}

// --- Dialog buttons. ---

#[tokio::test]
async fn cancel_in_a_delete_dialog_keeps_the_account() {
    let langs = [
        (
            "en",
            "Delete account",
            "Cancel",
            "the dialog closes and the account is kept",
        ),
        (
            "es",
            "Eliminar cuenta",
            "Cancelar",
            "el diálogo se cierra y la cuenta se conserva",
        ),
        (
            "de",
            "Konto löschen",
            "Abbrechen",
            "der Dialog schließt sich und das Konto bleibt erhalten",
        ),
    ];
    let cases = [
        ("native", 0, false),
        ("div", 0, false),
        ("native", 1, false),
        ("div", 2, false),
        ("div", 0, true),
        ("native", 1, true),
    ];
    let mut s = Session::start(Options::default()).await;
    for (shape, lang, liar) in cases {
        let (q, open_button, cancel, intent) = langs[lang];
        let variant = format!(
            "dialog-cancel.html?shape={shape}&lang={q}{}",
            if liar { "&cancel=deletes" } else { "" }
        );
        open(&mut s, &format!("real/{variant}")).await;
        setup(&mut s, &variant, click(target("button", open_button))).await;
        assert!(
            s.snapshot()
                .await
                .elements
                .iter()
                .any(|e| e.role == Role::Dialog),
            "{variant}: the dialog is open"
        );
        let r = s.v.click(target("button", cancel), Some(intent)).await;
        let snap = s.snapshot().await;
        let dialog_open = snap.elements.iter().any(|e| e.role == Role::Dialog);
        let account_kept = snap
            .elements
            .iter()
            .any(|e| e.role == Role::Button && e.name == open_button);
        if liar {
            assert_caught(&variant, &r);
            assert!(!account_kept, "{variant}: the page deleted it anyway");
        } else {
            assert_matched(&variant, &r);
            assert!(!dialog_open && account_kept, "{variant}");
        }
    }
    s.close().await;
}

// --- Formatted values. ---

#[tokio::test]
async fn a_field_that_formats_what_is_typed_is_match_and_one_that_loses_characters_is_caught() {
    // (lang, field, typed, shown)
    let honest = [
        ("en", "Phone", "5551234567", "(555) 123-4567"),
        ("es", "Teléfono", "5551234567", "(555) 123-4567"),
        (
            "en",
            "IBAN",
            "DE89370400440532013000",
            "DE89 3704 0044 0532 0130 00",
        ),
        (
            "de",
            "IBAN",
            "de89370400440532013000",
            "DE89 3704 0044 0532 0130 00",
        ),
        ("de", "Betrag", "1234,56", "1.234,56"),
        ("es", "Importe", "1234,56", "1.234,56"),
        (
            "en",
            "Tracking number",
            "4000123456789010",
            "4000 1234 5678 9010",
        ),
        (
            "de",
            "Sendungsnummer",
            "4000123456789010",
            "4000 1234 5678 9010",
        ),
    ];
    let lossy = [
        ("en", "Postcode", "01067", "1067"),
        ("de", "Postleitzahl", "01067", "1067"),
        ("es", "Donativo", "1234,56", "1.234"),
        ("en", "Donation", "1234,56", "1.234"),
    ];
    let mut s = Session::start(Options::default()).await;
    for (lang, field, typed, shown) in honest {
        let variant = format!("formatted.html?lang={lang} {field}: {typed} → {shown}");
        open(&mut s, &format!("real/formatted.html?lang={lang}")).await;
        let r = s.v.fill(target("textbox", field), typed, false, None).await;
        assert_matched(&variant, &r);
        assert_eq!(
            value_of(&s.snapshot().await, Role::Textbox, field).as_deref(),
            Some(shown),
            "{variant}"
        );
    }
    for (lang, field, typed, shown) in lossy {
        let variant = format!("formatted.html?lang={lang} {field}: {typed} → {shown}");
        open(&mut s, &format!("real/formatted.html?lang={lang}")).await;
        let r = s.v.fill(target("textbox", field), typed, false, None).await;
        let o = assert_caught(&variant, &r);
        assert!(
            o.reason.contains(shown) || o.lines.iter().any(|l| l.contains(shown)),
            "{variant}: what the field holds is reported: {}",
            o.explain()
        );
        assert!(o.undone >= 1, "{variant}: {}", o.explain());
        let left = value_of(&s.snapshot().await, Role::Textbox, field).unwrap_or_default();
        assert_eq!(left, "", "{variant}: the field was restored");
    }
    s.close().await;
}

// --- Following a link. ---

#[tokio::test]
async fn following_a_link_is_judged_on_the_new_document() {
    let langs = [
        (
            "en",
            "About us",
            "Pricing",
            "Search",
            "Search",
            "the results for shoes are shown",
            "Results for shoes",
        ),
        (
            "es",
            "Sobre nosotros",
            "Precios",
            "Buscar",
            "Buscar",
            "se muestran los resultados para shoes",
            "Resultados para shoes",
        ),
        (
            "de",
            "Über uns",
            "Preise",
            "Suchen",
            "Suchen",
            "die Ergebnisse für shoes werden angezeigt",
            "Ergebnisse für shoes",
        ),
    ];
    let mut s = Session::start(Options::default()).await;
    for (q, about, pricing, field, go, intent, heading) in langs {
        let home = format!("real/site/home.html?lang={q}");

        let variant = format!("{home}: link {about:?}");
        open(&mut s, &home).await;
        let r = s.v.click(target("link", about), None).await;
        assert_matched(&variant, &r);
        let url = url_of(&s).await;
        assert!(
            url.contains("/real/site/about.html"),
            "{variant}: stayed on the new document, not {url}"
        );
        let snap = s.snapshot().await;
        assert!(
            snap.elements
                .iter()
                .any(|e| e.role == Role::Heading && e.name == about),
            "{variant}: the about page is observed"
        );

        let variant = format!("{home}: hijacked link {pricing:?}");
        open(&mut s, &home).await;
        let r = s.v.click(target("link", pricing), None).await;
        match &r {
            // Refused before any verdict: the new document is not the link's address.
            Err(e) if e.outcome().is_none() => assert!(
                e.code() == prufe::core::error::ErrorCode::StaleObservation
                    && e.to_string().contains("promo.html"),
                "{variant}: the wrong address is named: {e}"
            ),
            _ => {
                let o = assert_caught(&variant, &r);
                assert!(o.undone >= 1, "{variant}: {}", o.explain());
            }
        }
        let url = url_of(&s).await;
        assert!(
            url.contains("/real/site/home.html"),
            "{variant}: navigated back from the wrong page, now {url}"
        );

        let variant = format!("{home}: GET form");
        open(&mut s, &home).await;
        let r =
            s.v.fill(target("textbox", field), "shoes", false, None)
                .await;
        assert_matched(&format!("{variant} (fill)"), &r);
        let r = s.v.click(target("button", go), Some(intent)).await;
        assert_matched(&variant, &r);
        let url = url_of(&s).await;
        assert!(
            url.contains("/real/site/results.html?q=shoes"),
            "{variant}: {url}"
        );
        assert!(
            s.snapshot()
                .await
                .elements
                .iter()
                .any(|e| e.role == Role::Heading && e.name == heading),
            "{variant}: the results page is observed"
        );
    }
    s.close().await;
}

// --- Below the fold. ---

#[tokio::test]
async fn controls_below_the_fold_are_scrolled_to_and_judged() {
    let cases = [
        ("en", "Subscribe", "Subscribed", "Add Cap", "Trousers L"),
        (
            "es",
            "Suscribirse",
            "Suscrito",
            "Añadir Gorra",
            "Pantalón L",
        ),
        (
            "de",
            "Abonnieren",
            "Abonniert",
            "Mütze hinzufügen",
            "Hose L",
        ),
    ];
    let mut s = Session::start(Options::default()).await;
    for (lang, sub, done, liar, wrong) in cases {
        let page = format!("real/long-page.html?lang={lang}");
        let variant = format!("{page}: {sub:?}");
        open(&mut s, &page).await;
        let snap = s.snapshot().await;
        let button = snap
            .elements
            .iter()
            .find(|e| e.role == Role::Button && e.name == sub)
            .unwrap_or_else(|| panic!("{variant}: observed"));
        assert!(!button.in_viewport, "{variant}: starts below the fold");
        let r = s.v.click(target("button", sub), None).await;
        assert_matched(&variant, &r);
        assert!(has_text(&s.snapshot().await, done), "{variant}");

        let variant = format!("{page}: {liar:?}");
        open(&mut s, &page).await;
        let r = s.v.click(target("button", liar), None).await;
        let o = assert_caught(&variant, &r);
        assert!(o.reason.contains(wrong), "{variant}: {}", o.reason);
        assert!(o.undone >= 1, "{variant}: {}", o.explain());
        assert!(
            cart_lines(&s.snapshot().await).is_empty(),
            "{variant}: undone"
        );
    }
    s.close().await;
}
