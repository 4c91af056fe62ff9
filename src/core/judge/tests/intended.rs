use super::*;

#[test]
fn what_the_name_and_the_intent_both_say_must_be_shown() {
    let before = Snapshot {
        elements: vec![
            el("m1", Role::Menuitem, "Archive", "menu[Actions]"),
            el("m2", Role::Menuitem, "Mark as paid", "menu[Actions]"),
        ],
        texts: vec![text("Order 1042", "main")],
        ..Default::default()
    };
    let toast = |said: &str| {
        let mut a = before.clone();
        a.texts.push(text(said, "region[Notifications]"));
        a
    };
    let archive = act(ActionKind::Click, Some(find(&before, "m1")));
    let closed = |said: &str| {
        let mut a = toast(said);
        a.elements.clear();
        a
    };

    #[rustfmt::skip]
    run(vec![
        case("shown", archive.clone(), before.clone(), toast("Order archived")).intent("the order is archived").want(M, Some("Archive"), ""),
        case("another outcome of the same object", archive.clone(), before.clone(), toast("Order paid")).intent("the order is archived").want(A, None, "both say 'archiv'"),
        case("another outcome, the menu closing", archive.clone(), before.clone(), closed("Order paid")).intent("the order is archived").want(A, None, "both say 'archiv'"),
        case("shown, the menu closing", archive.clone(), before.clone(), closed("Order archived")).intent("the order is archived").want(M, Some("Archive"), ""),
        case("es: another outcome", archive.clone(), before.clone(), toast("Pedido pagado")).intent("el pedido se archiva").want(A, None, ""),
        case("no word shared: the intent alone", archive, before.clone(), toast("Order moved to the archive")).intent("the order is moved").want(M, Some("Archive"), ""),
    ]);
}

/// MUI's select shows the option it took as text beside its field, which names nothing of
/// "language": that text showing the option's word is the choice shown.
#[test]
fn a_choice_shown_as_text_beside_its_field_is_shown() {
    let mut field = el("c1", Role::Combobox, "Language", "region[Preferences]");
    field.expanded = Some(true);
    let before = Snapshot {
        elements: vec![
            field,
            el("o1", Role::Option, "English", "list:language"),
            el("o2", Role::Option, "Deutsch", "list:language"),
            el("o3", Role::Option, "Español", "list:language"),
        ],
        texts: vec![text("English", "region[Preferences]")],
        ..Default::default()
    };
    let chosen = |word: &str| {
        let mut a = before.clone();
        a.elements.truncate(1);
        edit(&mut a, "c1", |e| e.expanded = Some(false));
        a.texts = vec![text(word, "region[Preferences]")];
        a
    };
    let deutsch = act(ActionKind::Click, Some(find(&before, "o2")));

    #[rustfmt::skip]
    run(vec![
        case("the option's word shown", deutsch.clone(), before.clone(), chosen("Deutsch")).intent("Switch the language to Deutsch").want(M, Some("Deutsch"), ""),
        case("another option's word shown", deutsch.clone(), before.clone(), chosen("Español")).intent("Switch the language to Deutsch").want(A, None, ""),
        case("nothing shown", deutsch, before.clone(), chosen("English")).intent("Switch the language to Deutsch").want(A, None, ""),
    ]);
}

#[test]
fn a_name_given_word_for_word_must_be_shown_so() {
    let before = Snapshot {
        elements: vec![
            el("sv", Role::Button, "Save", "main/list:todos"),
            item("t1", "Call supplier", "main/list:todos"),
        ],
        ..Default::default()
    };
    let saved = |title: &str| {
        let mut a = without(&before, &["t1"]);
        a.elements.push(item("t2", title, "main/list:todos"));
        a.texts.push(text(&format!("Saved {title}"), "main"));
        a
    };
    let save = act(ActionKind::Click, Some(find(&before, "sv")));

    #[rustfmt::skip]
    run(vec![
        case("shown", save.clone(), before.clone(), saved("Call the supplier")).intent("the task is renamed Call the supplier").want(M, Some("Save"), ""),
        case("the old title kept", save.clone(), before.clone(), saved("Call supplier")).intent("the task is renamed Call the supplier").want(A, None, "word for word"),
        case("the old title kept, the edited row gone", save.clone(), { let mut b = before.clone(); b.elements.push(item("ed", "Call the supplier Save", "main/list:todos")); b }, { let mut a = saved("Call supplier"); a.elements.retain(|e| e.reference != "ed"); a }).intent("the task is renamed Call the supplier").want(A, None, "word for word"),
        case("es: renombrada a", save.clone(), before.clone(), saved("Llamar al proveedor")).intent("la tarea es renombrada a Llamar al proveedor").want(M, Some("Save"), ""),
        case("es: the old title kept", save.clone(), before.clone(), saved("Llamar proveedor")).intent("la tarea es renombrada a Llamar al proveedor").want(A, None, "word for word"),
        case("de: heißt", save.clone(), before.clone(), saved("Lieferant anrufen")).intent("die Aufgabe heißt Lieferant sofort anrufen").want(A, None, "word for word"),
    ]);
}

#[test]
fn confirm_dialogs_need_an_intent_in_every_language() {
    #[rustfmt::skip]
    let fixtures = [
        ("es", "¿Eliminar cuenta?", "Confirmar borrado", "Cancelar", "Cuenta eliminada", "la cuenta queda eliminada", "el pedido queda enviado"),
        ("en", "Close account?", "Confirm", "Cancel", "Account closed", "the account is closed", "the order is shipped"),
        ("fr", "Supprimer le compte ?", "Confirmer", "Annuler", "Compte supprimé", "le compte est supprimé", "la commande est expédiée"),
        ("de", "Konto löschen?", "Bestätigen", "Abbrechen", "Konto gelöscht", "das Konto wurde gelöscht", "die Bestellung wurde versandt"),
    ];
    for (lang, title, confirm, cancel, done, intent, wrong) in fixtures {
        let before = dialog(title, confirm, cancel);
        let after = confirmed(&before, done);
        let click = act(ActionKind::Click, Some(find(&before, "g1")));
        let opts = JudgeOptions::default();
        let bare = judge(&click, &before, &after, &opts).unwrap();
        assert_eq!(bare.verdict, A, "{lang} without intent: {}", bare.reason);
        let with = Action {
            intent: Some(intent.into()),
            ..click.clone()
        };
        let v = judge(&with, &before, &after, &opts).unwrap();
        assert_eq!(v.verdict, M, "{lang} with intent: {}", v.reason);
        assert_eq!(v.attributed_to.unwrap().name, confirm, "{lang}");
        let other = Action {
            intent: Some(wrong.into()),
            ..click
        };
        let v = judge(&other, &before, &after, &opts).unwrap();
        assert_eq!(
            v.verdict, A,
            "{lang} with an unrelated intent: {}",
            v.reason
        );
    }
}

#[test]
fn object_claims() {
    let s = cart();
    let remove = act(ActionKind::Click, Some(find(&s, "cr1")));
    let watch = act(ActionKind::Watch, None);
    let m_gone = without(&s, &["ci1", "cr1"]);
    let l_gone = without(&s, &["ci2", "cr2"]);
    let hat_gone = without(&s, &["ci3", "cr3"]);
    let removed = "Shirt M is removed from the cart";

    #[rustfmt::skip]
    run(vec![
        // The target's name is an object too.
        case("name: supported", remove.clone(), s.clone(), m_gone.clone()).want(M, Some("Remove Shirt M"), "Shirt M"),
        case("name: variant contradicts", remove.clone(), s.clone(), l_gone.clone()).want(X, Some("Shirt L Remove Shirt L"), "a variant of the target's name 'Remove Shirt M'"),
        case("name: absent", remove.clone(), s.clone(), hat_gone.clone()).want(A, None, "no element's name explains"),
        case("name: the variant went too", remove.clone(), s.clone(), without(&s, &["ci1", "cr1", "ci2", "cr2"])).want(X, Some("Shirt L Remove Shirt L"), "also on a variant of it"),
        // A declared intent.
        case("intent: supported", remove.clone(), s.clone(), m_gone.clone()).intent(removed).want(M, Some("Remove Shirt M"), "the intent holds"),
        case("intent: variant contradicts", remove.clone(), s.clone(), l_gone.clone()).intent(removed).want(X, Some("Shirt L Remove Shirt L"), "Shirt L"),
        case("intent: absent", remove.clone(), s.clone(), hat_gone.clone()).intent(removed).want(X, None, "no effect supports it and it is still shown: listitem[Shirt M Remove Shirt M]"),
        case("watch: supported", watch.clone(), s.clone(), m_gone).intent(removed).want(M, None, "listitem[Shirt M Remove Shirt M]"),
        case("watch: variant contradicts", watch.clone(), s.clone(), l_gone).intent(removed).want(X, Some("Shirt L Remove Shirt L"), "a variant of what the intent names"),
        case("watch: absent", watch, s.clone(), hat_gone).intent(removed).want(X, None, "no effect supports it and it is still shown"),
    ]);
}

#[test]
fn container_claims() {
    let s = cart();
    let add = act(ActionKind::Click, Some(find(&s, "b5")));
    let in_cart = with_line(&s, "Mug", 1, "main/list:cart");
    let in_wishlist = with_line(&s, "Mug", 1, "complementary[Wishlist]");
    let nowhere = with_line(&s, "Mug", 1, "main");
    let spanish = with_line(&s, "Mug", 1, "carrito");

    #[rustfmt::skip]
    run(vec![
        case("supported", add.clone(), s.clone(), in_cart.clone()).intent("the cart gains a mug").want(M, Some("Add Mug"), "the intent holds"),
        case("synonym, other language", add.clone(), s.clone(), spanish).intent("the basket gains a mug").want(M, Some("Add Mug"), ""),
        case("de: a verb of arriving", add.clone(), s.clone(), in_cart.clone()).intent("ein Mug kommt in den Warenkorb").want(M, Some("Add Mug"), "the intent holds"),
        case("de: arriving elsewhere", add.clone(), s.clone(), in_wishlist.clone()).intent("ein Mug kommt in den Warenkorb").want(X, Some("Add Mug"), "wishlist"),
        case("contradicted: the name alone would match", add.clone(), s.clone(), in_wishlist.clone()).want(M, Some("Add Mug"), "target's name"),
        case("contradicted", add.clone(), s.clone(), in_wishlist.clone()).intent("the cart gains a mug").want(X, Some("Add Mug"), "the intent names the cart, but the effect is in the wishlist"),
        case("contradicted, watched", act(ActionKind::Watch, None), s.clone(), in_wishlist).intent("el carrito suma una mug").want(X, None, "in the wishlist"),
        case("absent", add.clone(), s.clone(), nowhere).intent("the cart gains a mug").want(A, None, "no effect it explains is in one"),
        case("one clause of two shown", add.clone(), s.clone(), in_cart.clone()).intent("the cart gains a mug and a cap").want(A, None, "clause 2 of the intent is not shown"),
        case("both clauses shown", add.clone(), s.clone(), with_line(&in_cart, "Cap", 2, "main/list:cart")).intent("the cart gains a mug and a cap").want(M, Some("Add Mug"), "the intent holds"),
    ]);
}

#[test]
fn count_claims() {
    let s = shop();
    let add = act(ActionKind::Click, Some(find(&s, "b1")));
    let one = with_line(&s, "Shirt M", 1, "cart");
    let two = with_line(&one, "Shirt M", 2, "cart");
    let mut shown = s.clone();
    shown.texts.push(text("Cart: 2 items", "banner"));
    let mut shown_one = s.clone();
    shown_one.texts.push(text("Cart: 1 item", "banner"));
    let mut carrito = s.clone();
    for n in [1, 2] {
        carrito
            .elements
            .push(item(&format!("k{n}"), "Camiseta M", "carrito"));
    }

    #[rustfmt::skip]
    run(vec![
        case("a: supported", add.clone(), s.clone(), one.clone()).intent("the cart gains a shirt").want(M, Some("Add Shirt M"), "the intent holds"),
        case("a: two identical rows contradict", add.clone(), s.clone(), two.clone()).intent("the cart gains a shirt").want(X, Some("Add Shirt M"), "the intent claims 1 ('a'), but 2 like effects"),
        case("exactly one: contradicted", add.clone(), s.clone(), two.clone()).intent("the cart gains exactly one shirt").want(X, Some("Add Shirt M"), "('one')"),
        case("two: supported", add.clone(), s.clone(), two.clone()).intent("the cart gains two shirts").want(M, Some("Add Shirt M"), ""),
        case("2: contradicted", add.clone(), s.clone(), one.clone()).intent("the cart gains 2 shirts").want(X, Some("Add Shirt M"), "but 1 like effects"),
        case("una: contradicted", act(ActionKind::Watch, None), s.clone(), carrito.clone()).intent("el carrito suma una camiseta").want(X, None, "('una')"),
        case("dos: supported", act(ActionKind::Watch, None), s.clone(), carrito).intent("el carrito suma dos camisetas").want(M, None, ""),
        case("zwei: contradicted", add.clone(), s.clone(), one.clone()).intent("der Warenkorb enthält zwei Shirts").want(X, Some("Add Shirt M"), "('zwei')"),
        case("a figure the page shows", act(ActionKind::Watch, None), s.clone(), shown).intent("the cart shows 2 items").want(M, None, "Cart: 2 items"),
        case("a figure the page shows, other number", act(ActionKind::Watch, None), s.clone(), shown_one).intent("the cart shows 2 items").want(X, None, "claims 2"),
        case("absent: nothing to count", add.clone(), s.clone(), { let mut a = s.clone(); a.texts.push(text("Thank you!", "main")); a }).intent("the cart gains a shirt").want(A, None, "nor does the intent"),
    ]);
}

#[test]
fn polarity_claims() {
    let mut s = shop();
    s.elements.push(el("p1", Role::Button, "Book", "main"));
    let book = act(ActionKind::Click, Some(find(&s, "p1")));
    let said = |t: &str, kind: TextKind| {
        let mut a = s.clone();
        a.texts.push(Text {
            kind,
            ..text(t, "main")
        });
        a
    };
    let confirmed = "the booking is confirmed";
    let mut alert = s.clone();
    alert
        .elements
        .push(el("al", Role::Alert, "Zahlung fehlgeschlagen", "main"));
    #[rustfmt::skip]
    run(vec![
        case("supported", book.clone(), s.clone(), said("Booking confirmed", TextKind::Status)).intent(confirmed).want(M, Some("Book"), "the intent holds"),
        case("contradicted by an alert", book.clone(), s.clone(), said("Payment declined", TextKind::Alert)).intent(confirmed).want(X, Some("Book"), "a failure message appeared: appeared text 'Payment declined'"),
        case("contradicted by plain text", book.clone(), s.clone(), said("Booking failed", TextKind::Plain)).intent(confirmed).want(X, Some("Book"), "failure message"),
        case("contradicted, es", book.clone(), s.clone(), said("Pago rechazado", TextKind::Status)).intent("la reserva queda confirmada").want(X, Some("Book"), "Pago rechazado"),
        case("contradicted, fr", book.clone(), s.clone(), said("Le paiement a échoué", TextKind::Status)).intent("la réservation est confirmée").want(X, Some("Book"), "failure"),
        case("contradicted by an alert element, de", book.clone(), s.clone(), alert).intent("die Buchung ist bestätigt").want(X, Some("Book"), "alert[Zahlung fehlgeschlagen]"),
        case("an intent that expects the error", book.clone(), s.clone(), said("Booking failed", TextKind::Alert)).intent("an error says the booking failed").want(M, Some("Book"), ""),
        case("absent", book.clone(), s.clone(), said("Newsletter", TextKind::Status)).intent(confirmed).want(A, None, "nor does the intent"),
        case("no intent: the action was meant to succeed", book.clone(), s.clone(), said("Booking failed", TextKind::Status)).want(X, Some("Book"), "the page reports a failure: appeared text 'Booking failed'"),
        case("no intent, es", book.clone(), s.clone(), said("Reserva fallida", TextKind::Plain)).want(X, None, "the page reports a failure: appeared text 'Reserva fallida'"),
        case("no intent, a success message", book, s.clone(), said("Booking confirmed", TextKind::Status)).want(M, Some("Book"), "target's name"),
    ]);
}

#[test]
fn held_out_widget_cases() {
    let placed = |r: &str, role: Role, name: &str, row: &str| Element {
        within: Some(format!("listitem[{row}]")),
        ..el(r, role, name, "main")
    };
    // Rows of unnamed checkboxes, each with a Delete button every row shares.
    let todos = Snapshot {
        elements: vec![
            item("l1", "Walk dog", "main"),
            placed("c1", Role::Checkbox, "", "Walk dog"),
            placed("x1", Role::Button, "Delete todo", "Walk dog"),
            item("l2", "Pay rent", "main"),
            placed("c2", Role::Checkbox, "", "Pay rent"),
            placed("x2", Role::Button, "Delete todo", "Pay rent"),
        ]
        .into_iter()
        .map(|mut e| {
            if e.role == Role::Checkbox {
                e.checked = Some(Tristate::False);
            }
            e
        })
        .collect(),
        ..Default::default()
    };
    let toggle = act(ActionKind::Click, Some(find(&todos, "c1")));
    let delete = act(ActionKind::Click, Some(find(&todos, "x1")));
    let mut ticked = todos.clone();
    edit(&mut ticked, "c1", |e| e.checked = Some(Tristate::True));
    let mut forwarded = todos.clone();
    edit(&mut forwarded, "c2", |e| e.checked = Some(Tristate::True));
    let deleted = without(&todos, &["l1", "c1", "x1"]);
    let both = without(&todos, &["l1", "c1", "x1", "l2", "c2", "x2"]);
    // The next row slides under the pointer and shows its Delete button.
    let mut slid = deleted.clone();
    edit(&mut slid, "l2", |e| {
        e.reference = "l2b".into();
        e.text = Some("Pay rent Delete todo".into());
    });
    // Tabs: one selected at a time.
    let tabs = Snapshot {
        elements: vec![
            Element {
                selected: Some(false),
                ..el("t1", Role::Tab, "Tab #1", "main")
            },
            Element {
                selected: Some(true),
                ..el("t2", Role::Tab, "Tab #2", "main")
            },
        ],
        ..Default::default()
    };
    let mut tab1 = tabs.clone();
    edit(&mut tab1, "t1", |e| e.selected = Some(true));
    edit(&mut tab1, "t2", |e| e.selected = Some(false));
    let panels = |shown: &str| {
        let mut s = tabs.clone();
        for (r, name) in [("p1", "Tab #1"), ("p2", "Tab #2")] {
            s.elements.push(Element {
                visible: name == shown,
                ..el(r, Role::Tabpanel, name, "main")
            });
        }
        s
    };
    let (with_panels, mut switched) = (panels("Tab #2"), panels("Tab #1"));
    edit(&mut switched, "t1", |e| e.selected = Some(true));
    edit(&mut switched, "t2", |e| e.selected = Some(false));
    let mut only_deselected = tabs.clone();
    edit(&mut only_deselected, "t2", |e| e.selected = Some(false));
    // A switch whose name the intent repeats.
    let switch = Snapshot {
        elements: vec![Element {
            checked: Some(Tristate::False),
            ..el("s1", Role::Switch, "Dark mode", "main")
        }],
        texts: vec![text("Appearance settings for this device", "main")],
        ..Default::default()
    };
    let mut on = switch.clone();
    edit(&mut on, "s1", |e| e.checked = Some(Tristate::True));
    // A confirmation dialog whose Cancel only closes it.
    let mut account = dialog("Delete account?", "Delete", "Cancel");
    account
        .elements
        .push(el("a1", Role::Region, "Account", "main"));
    account
        .texts
        .push(text("Status: active", "main/region[Account]"));
    let cancelled = without(&account, &["g0", "g1", "g2"]);
    let mut confirmed_account = cancelled.clone();
    confirmed_account
        .texts
        .retain(|t| t.text != "Status: active");
    confirmed_account
        .texts
        .push(text("Status: deleted", "main/region[Account]"));
    let confirm = act(ActionKind::Click, Some(find(&account, "g1")));
    let keep = act(ActionKind::Click, Some(find(&account, "g1")));
    let mut closed_instead = cancelled.clone();
    closed_instead
        .texts
        .push(text("Account closed", "main/region[Account]"));
    let cancel = act(ActionKind::Click, Some(find(&account, "g2")));
    // A shop in English, an intent in German.
    let shop_en = {
        let mut s = shop();
        s.texts.push(text("Your cart is empty", "cart"));
        s
    };
    let mut added = shop_en.clone();
    add_to_cart(&mut added, "Shirt M", 1);
    let add = act(ActionKind::Click, Some(find(&shop_en, "b1")));
    // Clear completed: the checked rows go.
    let mut done = todos.clone();
    edit(&mut done, "c1", |e| e.checked = Some(Tristate::True));
    done.elements
        .push(el("cc", Role::Button, "Clear completed", "main"));
    let cleared = without(&done, &["l1", "c1", "x1"]);
    let cleared_wrong = without(&done, &["l2", "c2", "x2"]);
    let clear = act(ActionKind::Click, Some(find(&done, "cc")));
    // A dialog with its own close control.
    let cookies = dialog("Cookies and privacy", "OK", "Close");
    let dismissed = without(&cookies, &["g0", "g1", "g2"]);
    let close = act(ActionKind::Click, Some(find(&cookies, "g2")));
    // A dialog with no name, kept in the page while closed (Ionic's modal): its region is
    // `dialog`, and a landmark inside it is `dialog/banner`; closing it hides them all.
    let profile = {
        let mut s = shop();
        let mut d = el("p0", Role::Dialog, "", "dialog");
        d.text = Some("Edit profile Full name Cancel Done".into());
        s.elements.push(d);
        s.elements.push(el("p1", Role::Banner, "", "dialog/banner"));
        s.elements.push(el("p2", Role::Button, "Cancel", "dialog"));
        s.elements.push(el("p3", Role::Button, "Done", "dialog"));
        s
    };
    let mut profile_closed = profile.clone();
    for r in ["p0", "p1", "p2", "p3"] {
        edit(&mut profile_closed, r, |e| e.visible = false);
    }
    let profile_cancel = act(ActionKind::Click, Some(find(&profile, "p2")));
    // A list reordered by a drag: Olwen from 4th to 3rd.
    let speakers = |order: [&str; 4]| Snapshot {
        elements: order
            .iter()
            .map(|n| item(&format!("s-{n}"), n, "main/list:speakers"))
            .collect(),
        ..Default::default()
    };
    let (listed, moved) = (
        speakers(["Anwen", "Bryn", "Cai", "Olwen"]),
        speakers(["Anwen", "Bryn", "Olwen", "Cai"]),
    );
    let olwen = listed.elements[3].clone();
    let drag = Action {
        kind: ActionKind::Drag,
        ..act(ActionKind::Drag, Some(&olwen))
    };

    #[rustfmt::skip]
    run(vec![
        case("bulk: the checked rows go", clear.clone(), done.clone(), cleared).want(M, Some("Clear completed"), "checkbox was checked went (1)"),
        case("bulk: an unchecked row goes", clear, done, cleared_wrong).want(A, None, ""),
        case("dialog: its own close control", close.clone(), cookies.clone(), dismissed.clone()).want(M, Some("Close"), "own dismissing button closed it"),
        case("dialog: its own close control, intent", close, cookies.clone(), dismissed.clone()).intent("the dialog closes").want(M, Some("Close"), ""),
        case("dialog without a name: its Cancel hides it", profile_cancel.clone(), profile.clone(), profile_closed.clone()).want(M, Some("Cancel"), "own dismissing button closed it"),
        case("dialog without a name: its Cancel, intent", profile_cancel, profile.clone(), profile_closed.clone()).intent("the profile stays as it was").want(M, Some("Cancel"), ""),
        case("dialog without a name: Escape hides it", Action { key: Some("Escape".into()), ..act(ActionKind::Press, None) }, profile.clone(), profile_closed.clone()).intent("the dialog is closed").want(M, None, ""),
        case("dialog without a name: Escape, a closed thing it may not be", Action { key: Some("Escape".into()), ..act(ActionKind::Press, None) }, profile.clone(), profile_closed).intent("the profile editor is closed").want(A, None, "not that it is this dialog"),
        case("dialog: OK closing it says nothing by itself", act(ActionKind::Click, Some(find(&cookies, "g1"))), cookies.clone(), dismissed).want(A, None, ""),
        case("reorder: the intent names the item and the way", drag.clone(), listed.clone(), moved.clone()).intent("Olwen moves up one place").want(M, Some("Olwen"), "from position 4 to 3"),
        case("reorder: the other way", drag, listed, moved).intent("Olwen moves down one place").want(X, Some("Olwen"), "the other way"),
        case("row: honest toggle", toggle.clone(), todos.clone(), ticked.clone()).want(M, Some(""), "checkbox in listitem[Walk dog]"),
        case("row: honest toggle, intent", toggle.clone(), todos.clone(), ticked).intent("Walk dog is marked as done").want(M, Some(""), ""),
        case("row: toggle forwarded to the next row", toggle.clone(), todos.clone(), forwarded.clone()).want(X, Some(""), "checkbox in listitem[Pay rent]"),
        case("row: forwarded, with intent", toggle, todos.clone(), forwarded).intent("Walk dog is marked as done").want(X, Some(""), "Pay rent"),
        case("row: honest delete", delete.clone(), todos.clone(), deleted).want(M, Some("Delete todo"), ""),
        case("row: honest delete, the next row hovered", delete.clone(), todos.clone(), slid).want(M, Some("Delete todo"), ""),
        case("row: one delete, two rows", delete, todos.clone(), both).want(X, Some("Pay rent"), "reaches listitem[Pay rent] in main too"),
        case("tabs: the sibling's deselection is the target's", act(ActionKind::Click, Some(find(&tabs, "t1"))), tabs.clone(), tab1.clone()).intent("Tab #1 is selected").want(M, Some("Tab #1"), ""),
        case("tabs: no intent", act(ActionKind::Click, Some(find(&tabs, "t1"))), tabs.clone(), tab1).want(M, Some("Tab #1"), "selected false -> true"),
        case("tabs: only a deselection is no selection", act(ActionKind::Click, Some(find(&tabs, "t1"))), tabs.clone(), only_deselected).intent("Tab #1 is selected").want(A, None, ""),
        case("switch: own state, shared words", act(ActionKind::Click, Some(find(&switch, "s1"))), switch.clone(), on).intent("dark mode is turned on").want(M, Some("Dark mode"), "checked false -> true"),
        case("dialog: cancel is no deletion", cancel.clone(), account.clone(), cancelled.clone()).intent("the account is deleted").want(X, None, "still shown"),
        case("dialog: the click went to Close account", keep.clone(), account.clone(), closed_instead).intent("The account is kept").want(X, Some("Delete"), "the account stays, but the effect removes it"),
        case("dialog: confirm, the account says deleted", confirm, account.clone(), confirmed_account).intent("the account is deleted").want(M, Some("Delete"), "Status: deleted"),
        case("tabs: the panels follow", act(ActionKind::Click, Some(find(&with_panels, "t1"))), with_panels.clone(), switched).intent("Tab #1 is selected").want(M, Some("Tab #1"), ""),
        case("dialog: cancel closes it", cancel, account.clone(), cancelled).intent("the dialog closes").want(M, Some("Cancel"), ""),
        case("an intent in another language", add.clone(), shop_en.clone(), added.clone()).intent("Der Warenkorb enthält jetzt ein Hemd in Größe M").want(M, Some("Add Shirt M"), "not read: hemd, grosse"),
        case("the page's language narrows", add, shop_en, added).intent("the cart holds a hat").want(A, None, ""),
    ]);
}

/// Widget behaviour seen on pages nobody here wrote: each row states what a widget does
/// (its role, states and relations), never a word of one page.
/// The rules of widget states, dialogs and pickers, each held and broken.
#[test]
fn states_dialogs_and_pickers() {
    let page = |elements: Vec<Element>| Snapshot {
        elements,
        ..Default::default()
    };
    // A switch, its state said in words.
    let switch = |on: bool| {
        let mut s = page(vec![
            Element {
                checked: Some(if on { Tristate::True } else { Tristate::False }),
                ..el("s1", Role::Switch, "Autosave", "region[Settings]")
            },
            el("h1", Role::Heading, "Mailbox", "main"),
        ]);
        s.texts.push(text(
            "Your changes are kept on this device for a week",
            "main",
        ));
        s
    };
    let flip = act(ActionKind::Click, Some(find(&switch(true), "s1")));
    // A menu button opening its menu.
    let mut closed_menu = page(vec![Element {
        expanded: Some(false),
        ..el("m0", Role::Button, "Actions", "region[Invoice]")
    }]);
    closed_menu.texts.push(text(
        "This invoice is due in the next week",
        "region[Invoice]",
    ));
    let mut open_menu = closed_menu.clone();
    edit(&mut open_menu, "m0", |e| e.expanded = Some(true));
    open_menu
        .elements
        .push(el("m1", Role::Menuitem, "Duplicate", "menu[Actions]"));
    let opener = act(ActionKind::Click, Some(find(&closed_menu, "m0")));
    // A dialog with Delete and Keep it, its opener expanded.
    let confirm = {
        let mut s = dialog("Delete invoice 2291?", "Delete", "Keep it");
        s.elements.push(Element {
            expanded: Some(true),
            ..el("opener", Role::Button, "Delete invoice", "region[Invoice]")
        });
        s.elements.push(el("guard", Role::Generic, "", ""));
        s
    };
    let dismissed = {
        let mut s = without(&confirm, &["g0", "g1", "g2", "guard"]);
        edit(&mut s, "opener", |e| e.expanded = Some(false));
        s
    };
    let mut deleted = dismissed.clone();
    deleted
        .texts
        .push(text("Invoice deleted", "region[Invoice]"));
    let keep = act(ActionKind::Click, Some(find(&confirm, "g2")));
    let delete = act(ActionKind::Click, Some(find(&confirm, "g1")));
    let escape = Action {
        key: Some("Escape".into()),
        ..act(ActionKind::Press, None)
    };
    // A rename dialog whose field's value shows outside it once saved.
    let rename = page(vec![
        el("h0", Role::Heading, "Project Apollo", "region[Project]"),
        el(
            "d0",
            Role::Dialog,
            "Rename project",
            "dialog[Rename project]",
        ),
        Element {
            value: Some("Gemini".into()),
            ..el(
                "f0",
                Role::Textbox,
                "Project name",
                "dialog[Rename project]",
            )
        },
        el("b0", Role::Button, "Save name", "dialog[Rename project]"),
    ]);
    let mut renamed = without(&rename, &["h0", "d0", "f0", "b0"]);
    renamed
        .elements
        .push(el("h1", Role::Heading, "Project Gemini", "region[Project]"));
    let save = act(ActionKind::Click, Some(find(&rename, "b0")));
    // A combo box's option picked: the field takes the option's name.
    let combo = page(vec![
        Element {
            value: Some("Ger".into()),
            expanded: Some(true),
            ..el("c0", Role::Combobox, "Country", "region[Order]")
        },
        el("o0", Role::Option, "Germany", "list:countries"),
        el("o9", Role::Option, "Georgia", "list:countries"),
    ]);
    let mut picked = without(&combo, &["o0", "o9"]);
    edit(&mut picked, "c0", |e| {
        e.value = Some("Germany".into());
        e.expanded = Some(false);
    });
    let mut wrong_pick = picked.clone();
    edit(&mut wrong_pick, "c0", |e| e.value = Some("Georgia".into()));
    let pick = act(ActionKind::Click, Some(find(&combo, "o0")));
    // A custom select: the popup's option and its native twin elsewhere.
    let select = page(vec![
        Element {
            selected: Some(false),
            ..el("p1", Role::Option, "US dollar", "list:popup")
        },
        Element {
            selected: Some(true),
            ..el("n0", Role::Option, "Euro", "region[Project]")
        },
        Element {
            selected: Some(false),
            ..el("n1", Role::Option, "US dollar", "region[Project]")
        },
    ]);
    let mut chosen = without(&select, &["p1"]);
    edit(&mut chosen, "n0", |e| e.selected = Some(false));
    edit(&mut chosen, "n1", |e| e.selected = Some(true));
    let choose = act(ActionKind::Click, Some(find(&select, "p1")));
    // A number field with its increment and decrement buttons.
    let field = |v: &str| {
        page(vec![
            el("inc", Role::Button, "Increase Quantity", "region[Order]"),
            el("dec", Role::Button, "Decrease Quantity", "region[Order]"),
            Element {
                value: Some(v.into()),
                ..el("q", Role::Textbox, "Quantity", "region[Order]")
            },
        ])
    };
    let increase = act(ActionKind::Click, Some(find(&field("1"), "inc")));
    // A button that shows a toast: once, or twice.
    let invite_page = page(vec![el("iv", Role::Button, "Invite Ana", "main")]);
    let toasts = |n: usize| {
        let mut s = invite_page.clone();
        for i in 0..n {
            s.elements.push(item(
                &format!("t{i}"),
                "Invitation sent to Ana",
                "region[Notifications]",
            ));
        }
        s
    };
    let mut merged = invite_page.clone();
    merged.texts.push(text(
        "Invitation sent to AnaInvitation sent to Ana",
        "region[Notifications]",
    ));
    let invite = act(ActionKind::Click, Some(find(&invite_page, "iv")));

    #[rustfmt::skip]
    run(vec![
        case("a toast once", invite.clone(), invite_page.clone(), toasts(1)).intent("An invitation is sent to Ana").want(M, Some("Invite Ana"), ""),
        case("the same toast twice", invite.clone(), invite_page.clone(), toasts(2)).want(X, Some("Invite Ana"), "appeared twice"),
        case("the same toast twice, one claimed", invite.clone(), invite_page.clone(), toasts(2)).intent("An invitation is sent to Ana").want(X, Some("Invite Ana"), "2 like effects"),
        case("a message that reads twice", invite, invite_page, merged).want(X, Some("Invite Ana"), "shows twice"),
        case("increase, up by one", increase.clone(), field("1"), field("2")).want(M, Some("Increase Quantity"), "the way the target's name says"),
        case("increase, up to the number said", increase.clone(), field("1"), field("2")).intent("The quantity goes up to 2").want(M, Some("Increase Quantity"), "as the intent says"),
        case("increase, doubled past the number said", increase.clone(), field("1"), field("3")).intent("The quantity goes up to 2").want(X, Some("Increase Quantity"), "gives the value 2"),
        case("increase that went down", increase, field("2"), field("1")).want(A, None, ""),
        case("switch off, said off", flip.clone(), switch(true), switch(false)).intent("Autosave is turned off").want(M, Some("Autosave"), "the intent holds"),
        case("switch off, said off in Spanish", flip.clone(), switch(true), switch(false)).intent("Se desactiva el guardado automático").want(M, Some("Autosave"), ""),
        case("switch off, said on", flip.clone(), switch(true), switch(false)).intent("Autosave is turned on").want(X, Some("Autosave"), "went the other way"),
        case("switch off, said no longer on", flip.clone(), switch(true), switch(false)).intent("Autosave is no longer active").want(M, Some("Autosave"), ""),
        case("switch off, the intent names another thing the page shows", flip.clone(), switch(true), switch(false)).intent("Autosave and the mailbox are off").want(A, None, ""),
        case("menu opens, said in German", opener.clone(), closed_menu.clone(), open_menu.clone()).intent("Das Aktionsmenü öffnet sich").want(M, Some("Actions"), "the way its state went"),
        case("menu opens, said closes", opener, closed_menu, open_menu).intent("The Actions menu closes").want(X, Some("Actions"), "went the other way"),
        case("keep it, no intent", keep.clone(), confirm.clone(), dismissed.clone()).want(M, Some("Keep it"), "dismissing button"),
        case("keep it, kept", keep.clone(), confirm.clone(), dismissed.clone()).intent("The invoice is kept").want(M, Some("Keep it"), "nothing else was done"),
        case("keep it, said deleted", keep.clone(), confirm.clone(), dismissed.clone()).intent("The invoice is deleted").want(X, None, ""),
        case("keep it forwarded to delete", keep.clone(), confirm.clone(), deleted.clone()).want(A, None, ""),
        case("keep it forwarded to delete, kept", keep, confirm.clone(), deleted.clone()).intent("The invoice is kept").want(X, Some("Keep it"), "Invoice deleted"),
        case("delete that only dismissed", delete.clone(), confirm.clone(), dismissed.clone()).want(A, None, ""),
        case("delete, its message shown", delete, confirm.clone(), deleted.clone()).intent("The invoice is deleted").want(M, Some("Delete"), "Invoice deleted"),
        case("escape dismisses", escape.clone(), confirm.clone(), dismissed.clone()).intent("The confirmation is dismissed").want(M, None, "nothing else was done"),
        case("escape, said deleted", escape.clone(), confirm.clone(), dismissed).intent("The invoice is deleted").want(X, None, ""),
        case("escape that deleted", escape, confirm, deleted).intent("The confirmation is dismissed").want(A, None, ""),
        case("save shows the field's value", save.clone(), rename.clone(), renamed).want(M, Some("Save name"), "fields held"),
        case("save that lost the value", save, rename.clone(), without(&rename, &["d0", "f0", "b0"])).want(A, None, ""),
        case("combo box takes the option", pick.clone(), combo.clone(), picked).intent("Germany is chosen as the country").want(M, Some("Germany"), ""),
        case("combo box takes another option", pick, combo, wrong_pick).want(X, Some("Georgia"), "took the name of option[Georgia]"),
        case("custom select and its native twin", choose.clone(), select.clone(), chosen.clone()).want(M, Some("US dollar"), ""),
    ]);
}

/// An intent about the target (its name, its state) whose other words name its container or
/// a text: the target's own evidence stands. A word that names another control of the
/// target's role is a claim about that one.
#[test]
fn an_intent_that_names_the_target_and_its_container() {
    let page = |italic: bool, bold: bool| Snapshot {
        elements: vec![
            el("tb", Role::Toolbar, "Text formatting", "region[Settings]"),
            Element {
                pressed: Some(if bold {
                    Tristate::True
                } else {
                    Tristate::False
                }),
                ..el("b", Role::Button, "Bold", "region[Settings]")
            },
            Element {
                pressed: Some(if italic {
                    Tristate::True
                } else {
                    Tristate::False
                }),
                ..el("i", Role::Button, "Italic", "region[Settings]")
            },
        ],
        texts: vec![text("Mail", "banner")],
        ..Default::default()
    };
    let italic = act(ActionKind::Click, Some(find(&page(false, false), "i")));

    #[rustfmt::skip]
    run(vec![
        case("its container's word", italic.clone(), page(false, false), page(true, false)).intent("Make the text italic").want(M, Some("Italic"), "names the target"),
        case("a banner's word", italic.clone(), page(false, false), page(true, false)).intent("Italic mail").want(M, Some("Italic"), ""),
        case("another toggle named", italic.clone(), page(false, false), page(true, false)).intent("Make the text italic and bold").want(A, None, ""),
        case("the other way", italic.clone(), page(false, false), page(true, false)).intent("Italic is turned off").want(X, Some("Italic"), ""),
        case("its group's name", italic.clone(), page(false, false), page(true, false)).intent("The formatting is italic").want(M, Some("Italic"), ""),
        case("es: the way its state went, the rest unread", italic.clone(), page(false, false), page(true, false)).intent("Se activa la cursiva").want(M, Some("Italic"), "the way its state went"),
        case("de: the way its state went", italic.clone(), page(false, false), page(true, false)).intent("Kursiv ist aktiviert").want(M, Some("Italic"), "the way its state went"),
        case("a sentence about something else", italic, page(false, false), page(true, false)).intent("The order is shipped").want(A, None, ""),
    ]);
}

#[test]
fn numbers_the_intent_gives() {
    // AG Grid's quantity cell edited in place, and the status line the app writes.
    let mut s = shop();
    s.elements.push(Element {
        value: Some("10".into()),
        ..el("q1", Role::Spinbutton, "Quantity", "main")
    });
    let enter = Action {
        key: Some("Enter".into()),
        ..act(ActionKind::Press, Some(find(&s, "q1")))
    };
    let set = |v: &str| {
        let mut a = s.clone();
        edit(&mut a, "q1", |e| e.value = Some(v.into()));
        a.texts
            .push(text(&format!("Order 1003: quantity {v}"), "main"));
        a
    };
    #[rustfmt::skip]
    run(vec![
        case("the number shown", enter.clone(), s.clone(), set("12")).intent("The quantity of order 1003 becomes 12").want(M, Some("Quantity"), ""),
        case("another number shown", enter.clone(), s.clone(), set("13")).intent("The quantity of order 1003 becomes 12").want(A, None, "the intent says 12, but no effect shows it"),
        case("a step of one thing", enter.clone(), s.clone(), set("12")).intent("The quantity of order 1003 goes up by 2").want(M, Some("Quantity"), ""),
        case("a step it did not take", enter.clone(), s.clone(), set("13")).intent("The quantity of order 1003 goes up by 2").want(A, None, "the intent says 2"),
        case("no number given", enter, s.clone(), set("13")).intent("The quantity of order 1003 changes").want(M, Some("Quantity"), ""),
    ]);
    assert_eq!(
        crate::core::judge::numbers::numbers("the 2nd item, v2, H2O, 1003 and 12."),
        [1003, 12]
    );
}
