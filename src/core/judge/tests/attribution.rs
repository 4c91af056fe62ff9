use super::*;

#[test]
fn click() {
    let s = shop();
    let shirt = find(&s, "b1");
    let click = |t: &str| act(ActionKind::Click, Some(find(&s, t)));
    let after = |f: &dyn Fn(&mut Snapshot)| {
        let mut a = s.clone();
        f(&mut a);
        a
    };
    let honest = after(&|a| add_to_cart(a, "Shirt M", 1));
    let recycled = after(&|a| add_to_cart(a, "Trousers L", 1));
    let recycled_away = after(&|a| {
        remove(a, "b1");
        a.elements
            .push(el("b9", Role::Button, "Add Socks XL", PRODUCTS));
        add_to_cart(a, "Trousers L", 1);
    });
    let both = after(&|a| {
        add_to_cart(a, "Shirt M", 1);
        add_to_cart(a, "Trousers L", 2);
    });
    let ticker = after(&|a| a.texts[0].text = "10:01".into());
    let thanks = after(&|a| a.texts.push(text("Thank you!", "main")));
    let counter_only = after(&|a| a.texts.push(text("Cart: 1 item", "banner")));
    let shirt_l = after(&|a| add_to_cart(a, "Shirt L", 1));
    let bold = after(&|a| edit(a, "t1", |e| e.pressed = Some(Tristate::True)));
    let italic = after(&|a| edit(a, "t2", |e| e.pressed = Some(Tristate::True)));
    let opened = after(&|a| {
        edit(a, "m1", |e| e.expanded = Some(true));
        a.elements
            .push(el("mi", Role::Menuitem, "Sign out", "banner"));
    });
    let quantity = after(&|a| {
        a.elements.push(Element {
            value: Some("1".into()),
            ..el("q1", Role::Spinbutton, "Quantity of Shirt M", "cart")
        })
    });
    let hidden_only = after(&|a| edit(a, "b1", |e| e.disabled = true));
    let dialog_opened = after(&|a| {
        a.elements
            .push(el("g0", Role::Dialog, "Delete account?", ""))
    });

    #[rustfmt::skip]
    run(vec![
        case("honest add", click("b1"), s.clone(), honest.clone()).want(M, Some("Add Shirt M"), "appeared listitem[Shirt M Remove Shirt M] in cart"),
        case("recycled row", click("b1"), s.clone(), recycled.clone()).want(X, Some("Add Trousers L"), "the effect belongs to button[Add Trousers L] in catalogue/list:products, not to the target"),
        case("recycled row, target scrolled away", click("b1"), s.clone(), recycled_away).want(X, Some("Add Trousers L"), "Trousers L"),
        case("recycled row with a matching intent still fails", click("b1"), s.clone(), recycled).intent("the cart gains a shirt size M").want(X, Some("Add Trousers L"), ""),
        case("sibling size", click("b1"), s.clone(), shirt_l).want(X, Some("Add Shirt L"), "Shirt L"),
        case("both names", click("b1"), s.clone(), both).want(A, None, "and also button[Add Trousers L]"),
        case("no effect", click("b1"), s.clone(), s.clone()).want(X, None, "no effect"),
        case("no effect on a busy page", click("b1"), s.clone(), s.clone()).unstable().want(A, None, "still changing"),
        case("ticker only", click("b1"), s.clone(), ticker.clone()).want(A, None, "no element's name explains"),
        case("ticker ignored", click("b1"), s.clone(), ticker).ignoring("ticker").want(X, None, "no effect"),
        case("unexplained", click("b1"), s.clone(), thanks.clone()).want(A, None, "declare an intent"),
        case("unexplained, intent matches", click("b1"), s.clone(), thanks.clone()).intent("a thank you message").want(M, Some("Add Shirt M"), "the intent explains the effect: appeared text 'Thank you!' in main"),
        case("unexplained, intent does not match", click("b1"), s.clone(), thanks).intent("the cart gains a shirt").want(A, None, "nor does the intent"),
        case("unexplained, negated intent", click("b1"), s.clone(), counter_only).intent("nothing is added").want(A, None, "negated"),
        case("toggle button", click("t1"), s.clone(), bold.clone()).want(M, Some("Bold"), "own state changed: changed button[Bold] in toolbar: pressed false -> true"),
        case("neighbour toggled", click("t1"), s.clone(), italic).want(X, Some("Italic"), "belongs to button[Italic] in toolbar"),
        case("disclosure", click("m1"), s.clone(), opened).want(M, Some("Account"), "expanded false -> true"),
        case("quantity carries the name", click("b1"), s.clone(), quantity).want(M, Some("Add Shirt M"), "Quantity of Shirt M"),
        case("disabling itself is no evidence", click("b1"), s.clone(), hidden_only).want(A, None, ""),
        case("dialog opens", click("d1"), s.clone(), dialog_opened).want(M, Some("Delete account"), "appeared dialog[Delete account?]"),
        case("other region button", click("v1"), s.clone(), honest).want(A, None, ""),
    ]);
    assert_eq!(shirt.name, "Add Shirt M");
}

#[test]
fn names_carry_across_word_forms_and_languages() {
    // (target button, text that appears next to it, verdict without intent)
    #[rustfmt::skip]
    let cases = [
        ("Pay", "Payment accepted", M),
        ("Apply coupon", "Coupon SAVE10 applied", M),
        ("Place order", "Order placed", M),
        ("Save", "Saved", M),
        ("Submit", "Form submitted", M),
        ("Añadir Camiseta M", "Camiseta M añadida al carrito", M),
        ("Ajouter le T-shirt M", "T-shirt M ajouté au panier", M),
        ("In den Warenkorb", "Artikel im Warenkorb", M),
        ("Jetzt zahlen", "Zahlung erfolgt", M),
        ("Confirm delete", "Account deleted", A),
        ("Sign in", "Welcome back", A),
        ("Add Shirt M", "Shirt L", A),
        ("Add", "Address saved", A),
        // The verb names the gesture; the rest of the name, the thing.
        ("Add a point", "4 points", M),
        ("Sumar un punto", "4 puntos", M),
        ("Einen Punkt geben", "4 Punkte", M),
        ("Show cover", "The Quiet Sea Cover by M. Lund", M),
        ("Ver portada", "Portada de M. Lund", M),
        ("Add a point", "4 badges", A),
        ("Tasse hinzufügen", "Tasse kommt in den Warenkorb", M),
        ("Cover anzeigen", "Kein Bild", A),
    ];
    for (name, said, want) in cases {
        let v = click_then_text([name, "Cancel"], said);
        assert_eq!(v.verdict, want, "{name} -> {said}: {}", v.reason);
    }
}

#[test]
fn a_name_without_its_verb_still_tells_neighbours_apart() {
    // (effect text, verdict, attributed to)
    #[rustfmt::skip]
    let cases = [
        ("4 points", M, "Add a point"),
        ("2 badges", X, "Add a badge"),
        ("Points and badges", A, ""),
    ];
    for (said, want, to) in cases {
        let v = click_then_text(["Add a point", "Add a badge"], said);
        assert_eq!(v.verdict, want, "{said}: {}", v.reason);
        let name = v
            .attributed_to
            .as_ref()
            .map(|e| e.name.as_str())
            .unwrap_or("");
        assert_eq!(name, to, "{said}: {}", v.reason);
    }
}

/// A neighbour is told from the target only by a word of its name the target's lacks; a
/// line that reported the neighbours' state before is judged among them.
#[test]
fn a_neighbour_is_told_by_a_word_the_target_lacks() {
    const R: &str = "region[Doors]";
    let page = |status: &str| Snapshot {
        elements: vec![
            el("lk", Role::Button, "Lock", R),
            el("ul", Role::Button, "Unlock", R),
            el("nt", Role::Button, "Notify me when locked", R),
            el("sv", Role::Button, "Save", R),
            el("sd", Role::Button, "Save as draft", R),
        ],
        texts: vec![text(status, R)],
        ..Default::default()
    };
    let toast = |said: &str| {
        let mut a = page("Front door: unlocked");
        a.texts.push(text(said, "main"));
        a
    };
    let before = page("Front door: unlocked");
    let click = |r: &str| act(ActionKind::Click, Some(find(&before, r)));

    #[rustfmt::skip]
    run(vec![
        case("a toast saying the target's word", click("nt"), before.clone(), toast("Front door locked")).want(M, Some("Notify me when locked"), "carries the target's name"),
        case("the neighbour's state line, the target's word in it", click("nt"), before.clone(), page("Front door: locked")).want(X, Some("Unlock"), "belongs to button[Unlock]"),
        case("the neighbour's own click", click("lk"), before.clone(), page("Front door: locked")).want(M, Some("Lock"), "carries the target's name"),
        case("the other neighbour's word", click("nt"), before.clone(), toast("Front door unlocked")).want(X, Some("Unlock"), "belongs to button[Unlock]"),
        case("a longer name's own word", click("sd"), before.clone(), toast("Draft saved")).want(M, Some("Save as draft"), "carries the target's name"),
        case("the shorter name, no word of its own", click("sd"), before.clone(), toast("Saved")).want(A, None, ""),
    ]);
}

#[test]
fn a_new_row_is_no_variant_of_the_button() {
    let s = todo();
    let add = act(ActionKind::Click, Some(find(&s, "n2")));
    let mut added = s.clone();
    edit(&mut added, "n1", |e| e.value = Some(String::new()));
    added
        .elements
        .push(item("r3", "Order labels", "main/list[Tasks]"));
    added.elements.push(el(
        "e3",
        Role::Button,
        "Edit Order labels",
        "main/list[Tasks]",
    ));
    added.elements.push(el(
        "x3",
        Role::Button,
        "Remove Order labels",
        "main/list[Tasks]",
    ));
    added.texts = vec![text("Added Order labels", "main"), text("4 open", "main")];
    let mut es = added.clone();
    es.texts[0] = text("Añadido Order labels", "main");

    #[rustfmt::skip]
    run(vec![
        case("add task, intent", add.clone(), s.clone(), added.clone()).intent("the task Order labels is added").want(M, Some("Add task"), "the intent"),
        case("add task, es", add.clone(), s.clone(), es).intent("la tarea Order labels se añade").want(M, Some("Add task"), "the intent"),
    ]);
}

#[test]
fn a_replaced_message_is_no_neighbours_evidence() {
    let mut s = shop();
    add_to_cart(&mut s, "Shirt M", 1);
    s.texts.push(text("Added Shirt M", "main"));
    s.texts.push(text("Total: 19.90 €", "cart"));
    let hat = act(ActionKind::Click, Some(find(&s, "b3")));
    let mut after = s.clone();
    add_to_cart(&mut after, "Hat S", 2);
    after.texts = vec![
        text("10:00", "ticker"),
        text("Added Hat S", "main"),
        text("Total: 31.80 €", "cart"),
    ];
    let mut es = after.clone();
    es.texts[1] = text("Añadido Hat S", "main");
    let mut s_es = s.clone();
    s_es.texts[1] = text("Añadido Shirt M", "main");
    // The message names the neighbour and nothing names the target: still the neighbour's.
    let mut wrong = s.clone();
    add_to_cart(&mut wrong, "Trousers L", 2);
    wrong.texts = vec![
        text("10:00", "ticker"),
        text("Added Trousers L", "main"),
        text("Total: 19.90 €", "cart"),
    ];

    #[rustfmt::skip]
    run(vec![
        case("second add", hat.clone(), s.clone(), after.clone()).want(M, Some("Add Hat S"), "Hat S"),
        case("second add, intent", hat.clone(), s.clone(), after).intent("Hat S is added to the cart").want(M, Some("Add Hat S"), "the intent holds"),
        case("second add, es", hat.clone(), s_es, es).want(M, Some("Add Hat S"), "Hat S"),
        case("second add lands on a neighbour", hat, s.clone(), wrong).want(X, Some("Add Trousers L"), "Trousers L"),
    ]);
}

#[test]
fn the_form_names_what_its_button_acts_on() {
    let form = "frame[1]/form[Payment]";
    let s = Snapshot {
        elements: vec![
            el("cc", Role::Textbox, "Card number", form),
            el("pay", Role::Button, "Pay", form),
        ],
        ..Default::default()
    };
    let pay = act(ActionKind::Click, Some(find(&s, "pay")));
    let mut charged = s.clone();
    charged.texts.push(text("Card charged", "frame[1]"));
    let mut paid = s.clone();
    paid.texts.push(text("Paid", "frame[1]"));
    let mut declined = s.clone();
    declined.texts.push(text("Payment declined", "frame[1]"));

    #[rustfmt::skip]
    run(vec![
        case("the card is charged", pay.clone(), s.clone(), charged).intent("the card is paid").want(M, Some("Pay"), "the intent explains"),
        case("paid is what pay did", pay.clone(), s.clone(), paid).intent("the card is paid").want(M, Some("Pay"), "carries the target's name"),
        case("declined", pay, s.clone(), declined).intent("the card is paid").want(X, Some("Pay"), "failure"),
    ]);
}

#[test]
fn dialog_buttons_own_their_dialog() {
    let before = dialog("Delete account?", "Delete", "Cancel");
    let mut closed = before.clone();
    for r in ["g0", "g1", "g2"] {
        edit(&mut closed, r, |e| e.visible = false);
    }
    let kept = "the dialog closes and the account is kept";
    let mut before = before;
    before
        .elements
        .push(item("ac", "Account ada@example.com", "main/list[Accounts]"));
    let closed = {
        let mut c = closed;
        c.elements
            .push(item("ac", "Account ada@example.com", "main/list[Accounts]"));
        c
    };
    let gone = without(&before, &["g0", "g1", "g2"]);
    let cancel = act(ActionKind::Click, Some(find(&before, "g2")));
    let mut deleted = without(&before, &["g0", "g1", "g2", "d1"]);
    deleted.texts.push(text("Account deleted", "main"));
    let row_gone = without(&before, &["g0", "g1", "g2", "ac"]);
    let mut still = without(&before, &["g0", "g1", "g2"]);
    still.texts.push(text("Account kept", "main"));
    let lang = |title: &str, confirm: &str, cancel: &str, done: &str| {
        let b = dialog(title, confirm, cancel);
        let mut d = without(&b, &["g0", "g1", "g2", "d1"]);
        d.texts.push(text(done, "main"));
        let c = without(&b, &["g0", "g1", "g2"]);
        (act(ActionKind::Click, Some(find(&b, "g2"))), b, d, c)
    };
    let (cancel_es, es, es_deleted, es_closed) = lang(
        "¿Eliminar pedido?",
        "Eliminar",
        "Cancelar",
        "Pedido 1042 eliminado",
    );
    let (cancel_de, de, de_deleted, de_closed) = lang(
        "Bestellung löschen?",
        "Löschen",
        "Abbrechen",
        "Bestellung 1042 gelöscht",
    );
    let (cancel_fr, fr, fr_deleted, _) = lang(
        "Supprimer la commande ?",
        "Supprimer",
        "Annuler",
        "Commande 1042 supprimée",
    );

    #[rustfmt::skip]
    run(vec![
        case("cancel hides the dialog", cancel.clone(), before.clone(), closed.clone()).intent(kept).want(M, Some("Cancel"), "dialog[Delete account?]"),
        case("cancel removes the dialog", cancel.clone(), before.clone(), gone).intent(kept).want(M, Some("Cancel"), ""),
        case("cancel without intent", cancel.clone(), before.clone(), closed.clone()).want(M, Some("Cancel"), "dismissing button closed it"),
        case("delete that only closes the dialog", act(ActionKind::Click, Some(find(&before, "d1"))), before.clone(), closed.clone()).want(A, None, ""),
        case("cancel, negated intent", cancel.clone(), before.clone(), closed.clone()).intent("the account is not deleted").want(M, Some("Cancel"), "nothing else was done"),
        case("cancel, the intent claims the removal", cancel.clone(), before.clone(), closed.clone()).intent("the account is deleted").want(X, None, ""),
        case("cancel that deletes", cancel.clone(), before.clone(), deleted.clone()).intent(kept).want(X, Some("Cancel"), "the intent says the account stays"),
        case("cancel that deletes, one clause", cancel.clone(), before.clone(), deleted).intent("the account is kept").want(X, Some("Cancel"), "Account deleted"),
        case("cancel that removes the account's row", cancel.clone(), before.clone(), row_gone).intent(kept).want(X, Some("Cancel"), "listitem[Account ada@example.com]"),
        case("cancel with a kept message", cancel.clone(), before.clone(), still).intent(kept).want(M, Some("Cancel"), ""),
        case("es: el pedido se mantiene", cancel_es.clone(), es.clone(), es_deleted).intent("el diálogo se cierra y el pedido se mantiene").want(X, Some("Cancelar"), "Pedido 1042 eliminado"),
        case("es: honest", cancel_es, es.clone(), es_closed).intent("el diálogo se cierra y el pedido se mantiene").want(M, Some("Cancelar"), ""),
        case("de: honest", cancel_de.clone(), de.clone(), de_closed.clone()).intent("der Dialog schließt sich und die Bestellung bleibt").want(M, Some("Abbrechen"), ""),
        case("de: honest, bleibt erhalten", cancel_de.clone(), de.clone(), de_closed).intent("der Dialog schließt sich und die Bestellung bleibt erhalten").want(M, Some("Abbrechen"), ""),
        case("de: die Bestellung bleibt", cancel_de, de, de_deleted).intent("der Dialog schließt sich und die Bestellung bleibt").want(X, Some("Abbrechen"), "Bestellung 1042 gelöscht"),
        case("fr: la commande est conservée", cancel_fr, fr, fr_deleted).intent("la commande est conservée").want(X, Some("Annuler"), "Commande 1042 supprimée"),
    ]);
}

/// A verb that sets a state ("Turn off") names the gesture; the state names what changed.
#[test]
fn a_setting_verb_names_the_gesture() {
    const D: &str = "dialog[Turn off every light?]";
    let open = Snapshot {
        elements: vec![
            el("k", Role::Button, "Keep them on", D),
            el("t", Role::Button, "Turn off", D),
        ],
        ..Default::default()
    };
    let done = |said: &str| {
        let mut a = without(&open, &["k", "t"]);
        a.texts.push(text(said, "region[Lights]"));
        a
    };
    let turn_off = act(ActionKind::Click, Some(find(&open, "t")));
    let keep = act(ActionKind::Click, Some(find(&open, "k")));

    #[rustfmt::skip]
    run(vec![
        case("its outcome", turn_off, open.clone(), done("All lights are off")).want(M, Some("Turn off"), "carries the target's name"),
        case("the other button's outcome", keep, open.clone(), done("All lights are off")).want(A, None, ""),
    ]);
}
