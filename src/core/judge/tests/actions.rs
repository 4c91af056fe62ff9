use super::*;

#[test]
fn fill() {
    let s = shop();
    let fill = |t: &str, value: &str| Action {
        value: Some(value.into()),
        ..act(ActionKind::Fill, Some(find(&s, t)))
    };
    let secret = |hash: &str| Action {
        value_hash: Some(hash.into()),
        ..act(ActionKind::Fill, Some(find(&s, "f3")))
    };
    let set = |r: &str, v: &str| {
        let mut a = s.clone();
        edit(&mut a, r, |e| e.value = Some(v.into()));
        a
    };
    let typed_password = {
        let mut a = s.clone();
        edit(&mut a, "f3", |e| {
            (e.value, e.value_hash) = (Some(REDACTED.into()), Some("h-typed".into()))
        });
        a
    };
    let mut both = set("f1", "ana@example.org");
    edit(&mut both, "f2", |e| e.value = Some("Ana".into()));
    let filled = set("f1", "ana@example.org");

    #[rustfmt::skip]
    run(vec![
        case("honest", fill("f1", "ana@example.org"), s.clone(), filled.clone()).want(M, Some("Email"), "changed textbox[Email] in form[Checkout]: value '' -> 'ana@example.org'"),
        case("whitespace-normalised", fill("f1", "  ana@example.org "), s.clone(), filled.clone()).want(M, Some("Email"), ""),
        case("other value", fill("f1", "bob@example.org"), s.clone(), filled.clone()).want(X, Some("Email"), "not to the requested one"),
        case("wrong field", fill("f1", "ana@example.org"), s.clone(), set("f2", "ana@example.org")).want(X, Some("Name"), "the value of textbox[Name] in form[Checkout] changed instead of the target's"),
        case("two fields", fill("f1", "ana@example.org"), s.clone(), both).want(X, Some("Name"), "as well as the target's"),
        case("unchanged", fill("f1", "ana@example.org"), s.clone(), s.clone()).want(X, None, "no effect"),
        case("unchanged on a busy page", fill("f1", "ana@example.org"), s.clone(), s.clone()).unstable().want(A, None, ""),
        case("already held", fill("f1", "ana@example.org"), filled.clone(), filled.clone()).want(M, Some("Email"), "already held"),
        case("no requested value", act(ActionKind::Fill, Some(find(&s, "f1"))), s.clone(), filled.clone()).want(M, Some("Email"), "nothing to compare"),
        case("password by hash", secret("h-typed"), s.clone(), typed_password.clone()).want(M, Some("Password"), "value '' -> '[redacted]'"),
        case("password, other hash", secret("h-other"), s.clone(), typed_password.clone()).want(X, Some("Password"), "not to the requested one"),
        case("password without hash", fill("f3", "hunter2-secret"), s.clone(), typed_password.clone()).want(A, None, "no valueHash"),
        case("password already typed", secret("h-typed"), typed_password.clone(), typed_password).want(M, Some("Password"), "already held"),
        case("filled elsewhere while the page ticks", fill("f1", "x"), s.clone(), { let mut a = s.clone(); a.texts[0].text = "10:01".into(); a }).want(X, None, "the target's value did not change"),
    ]);
}

#[test]
fn fill_never_echoes_a_secret() {
    let s = shop();
    let mut after = s.clone();
    edit(&mut after, "f3", |e| {
        (e.value, e.value_hash) = (Some(REDACTED.into()), Some("h-typed".into()))
    });
    let mut wrong = s.clone();
    edit(&mut wrong, "f1", |e| e.value = Some(REDACTED.into()));
    for (before, after) in [(&s, &after), (&s, &wrong), (&s, &s)] {
        for hash in [None, Some("h-typed".to_owned()), Some("h-nope".to_owned())] {
            let action = Action {
                value: Some("hunter2-secret".into()),
                value_hash: hash,
                ..act(ActionKind::Fill, Some(find(&s, "f3")))
            };
            let v = judge(&action, before, after, &JudgeOptions::default()).unwrap();
            let out = serde_json::to_string(&v).unwrap() + &format!("{action:?}");
            assert!(!out.contains("hunter2"), "{out}");
        }
    }
}

#[test]
fn check_and_uncheck() {
    let s = shop();
    let check = |t: &str| act(ActionKind::Check, Some(find(&s, t)));
    let uncheck = |t: &str| act(ActionKind::Uncheck, Some(find(&s, t)));
    let set = |base: &Snapshot, r: &str, v: Tristate| {
        let mut a = base.clone();
        edit(&mut a, r, |e| e.checked = Some(v));
        a
    };
    let agreed = set(&s, "c1", Tristate::True);
    let subscribed = set(&s, "c2", Tristate::True);
    let mut radio = s.clone();
    radio.elements.push(Element {
        checked: Some(Tristate::True),
        ..el("r1", Role::Radio, "Standard", FORM)
    });
    radio.elements.push(Element {
        checked: Some(Tristate::False),
        ..el("r2", Role::Radio, "Express", FORM)
    });
    let express = set(&set(&radio, "r1", Tristate::False), "r2", Tristate::True);
    let pick = act(ActionKind::Check, Some(find(&radio, "r2")));

    #[rustfmt::skip]
    run(vec![
        case("check", check("c1"), s.clone(), agreed.clone()).want(M, Some("Agree to the terms"), "checked false -> true"),
        case("other box", check("c1"), s.clone(), subscribed).want(X, Some("Newsletter"), "checkbox[Newsletter] in form[Checkout] changed instead of the target"),
        case("already checked", check("c1"), agreed.clone(), agreed.clone()).want(M, Some("Agree to the terms"), "already checked"),
        case("unchanged", check("c1"), s.clone(), s.clone()).want(X, None, "no effect"),
        case("uncheck", uncheck("c1"), agreed.clone(), s.clone()).want(M, Some("Agree to the terms"), "checked true -> false"),
        case("uncheck flipped the wrong way", uncheck("c1"), s.clone(), agreed.clone()).want(X, Some("Agree to the terms"), "was to be unchecked"),
        case("mixed is not checked", check("c1"), s.clone(), set(&s, "c1", Tristate::Mixed)).want(X, Some("Agree to the terms"), "mixed"),
        case("radio group", pick, radio.clone(), express).want(M, Some("Express"), ""),
        case("toggle button", check("t1"), s.clone(), { let mut a = s.clone(); edit(&mut a, "t1", |e| e.pressed = Some(Tristate::True)); a }).want(M, Some("Bold"), "pressed false -> true"),
    ]);
}

#[test]
fn select() {
    let s = shop();
    let select = |t: &str, option: &str| Action {
        option: Some(option.into()),
        ..act(ActionKind::Select, Some(find(&s, t)))
    };
    let shipping = |v: &str| {
        let mut a = s.clone();
        edit(&mut a, "s1", |e| e.value = Some(v.into()));
        a
    };
    let wrap = |on: &str| {
        let mut a = s.clone();
        edit(&mut a, "o1", |e| e.selected = Some(false));
        edit(&mut a, on, |e| e.selected = Some(true));
        a
    };

    #[rustfmt::skip]
    run(vec![
        case("combobox", select("s1", "Express"), s.clone(), shipping("Express")).want(M, Some("Shipping"), "value 'Standard' -> 'Express'"),
        case("combobox, case-insensitive", select("s1", "express "), s.clone(), shipping("Express")).want(M, Some("Shipping"), ""),
        case("combobox, other option", select("s1", "Express"), s.clone(), shipping("Pickup")).want(X, Some("Shipping"), "another option"),
        case("listbox option", select("lb", "Paper"), s.clone(), wrap("o2")).want(M, Some("Gift wrap"), "option[Paper]"),
        case("listbox, wrong option", select("lb", "Paper"), s.clone(), wrap("o3")).want(X, Some("Box"), "option[Box] in form[Checkout] was selected"),
        case("already selected", select("s1", "Standard"), s.clone(), s.clone()).want(M, Some("Shipping"), "already"),
        case("already selected option", select("lb", "None"), s.clone(), s.clone()).want(M, Some("Gift wrap"), "already"),
        case("nothing", select("s1", "Express"), s.clone(), s.clone()).want(X, None, "no effect"),
    ]);
}

#[test]
fn hover() {
    let s = shop();
    let hover = |t: &str| act(ActionKind::Hover, Some(find(&s, t)));
    let with = |f: &dyn Fn(&mut Snapshot)| {
        let mut a = s.clone();
        f(&mut a);
        a
    };
    let expanded = with(&|a| edit(a, "m1", |e| e.expanded = Some(true)));
    let tooltip = with(&|a| {
        a.elements
            .push(el("tt", Role::Tooltip, "View cart (2 items)", "banner"))
    });
    let menu = with(&|a| {
        a.elements
            .push(el("i1", Role::Menuitem, "Profile", "banner"));
        a.elements
            .push(el("i2", Role::Menuitem, "Sign out", "banner"));
    });
    let shown = with(&|a| {
        a.elements.push(Element {
            visible: false,
            ..el("i1", Role::Menuitem, "Profile", "banner")
        });
    });
    let mut visible = shown.clone();
    edit(&mut visible, "i1", |e| e.visible = true);
    let gone = with(&|a| remove(a, "w2"));

    #[rustfmt::skip]
    run(vec![
        case("expands", hover("m1"), s.clone(), expanded).want(M, Some("Account"), "expanded false -> true"),
        case("tooltip carries the name", hover("v1"), s.clone(), tooltip).want(M, Some("View cart"), "tooltip"),
        case("menu, no intent", hover("m1"), s.clone(), menu.clone()).want(A, None, "declare an intent"),
        case("menu, intent", hover("m1"), s.clone(), menu).intent("the profile menu shows").want(M, Some("Account"), "menuitem[Profile]"),
        case("shown, intent", hover("m1"), shown, visible).intent("Profile appears").want(M, Some("Account"), "visible false -> true"),
        case("only a disappearance", hover("m1"), s.clone(), gone).want(A, None, "nothing appeared"),
        case("nothing", hover("m1"), s.clone(), s.clone()).want(X, None, "no effect"),
    ]);
}

#[test]
fn watch() {
    let s = shop();
    let watch = act(ActionKind::Watch, None);
    // A Spanish page names its regions in Spanish (`data-ap-region="carrito"`).
    let added = |product: &str| {
        let mut a = s.clone();
        a.elements.push(item(
            "ci",
            &format!("{product} Quitar {product}"),
            "carrito",
        ));
        a.elements.push(el(
            "cr",
            Role::Button,
            &format!("Quitar {product}"),
            "carrito",
        ));
        a.texts.push(text("Carrito: 1 artículo", "carrito"));
        a
    };
    let shirt = added("Camiseta M");
    let trousers = added("Pantalón L");
    // A target on a watch is ignored: nobody acted on it.
    let targeted = Action {
        target: Some(find(&s, "b2").clone()),
        ..watch.clone()
    };

    #[rustfmt::skip]
    run(vec![
        case("intent met", watch.clone(), s.clone(), shirt.clone()).intent("el carrito suma una camiseta").want(M, None, "Camiseta M"),
        case("intent not met", watch.clone(), s.clone(), trousers.clone()).intent("el carrito suma una camiseta").want(X, None, "the intent explains none"),
        case("no intent", watch.clone(), s.clone(), shirt.clone()).want(A, None, "no intent was declared"),
        case("nothing, settled", watch.clone(), s.clone(), s.clone()).intent("el carrito suma una camiseta").want(X, None, "no effect"),
        case("nothing, busy", watch.clone(), s.clone(), s.clone()).unstable().want(A, None, ""),
        case("target ignored", targeted, s.clone(), trousers).intent("el carrito suma una camiseta").want(X, None, ""),
    ]);
}

#[test]
fn formatted_values() {
    let s = shop();
    let fill = |value: &str| Action {
        value: Some(value.into()),
        ..act(ActionKind::Fill, Some(find(&s, "f1")))
    };
    let shows = |v: &str| {
        let mut a = s.clone();
        edit(&mut a, "f1", |e| e.value = Some(v.into()));
        a
    };

    #[rustfmt::skip]
    run(vec![
        case("phone", fill("5551234567"), s.clone(), shows("(555) 123-4567")).want(M, Some("Email"), "as the page formats it"),
        case("thousands", fill("1234567"), s.clone(), shows("1,234,567")).want(M, Some("Email"), "as the page formats it"),
        case("card", fill("4111111111111111"), s.clone(), shows("4111 1111 1111 1111")).want(M, Some("Email"), ""),
        case("already formatted", fill("5551234567"), shows("(555) 123-4567"), shows("(555) 123-4567")).want(M, Some("Email"), "already held"),
        case("truncated", fill("5551234567"), s.clone(), shows("(555) 123-456")).want(X, Some("Email"), "not to the requested one"),
        case("changed digit", fill("5551234567"), s.clone(), shows("(555) 123-4568")).want(X, Some("Email"), ""),
        case("dropped digit", fill("5551234567"), s.clone(), shows("(555) 123-457")).want(X, Some("Email"), ""),
        case("letters shown in capitals", fill("de89 3704"), s.clone(), shows("DE89 3704")).want(M, Some("Email"), "as the page formats it"),
        case("letters changed", fill("abc"), s.clone(), shows("ABD")).want(X, Some("Email"), ""),
        case("other characters added", fill("555"), s.clone(), shows("555x")).want(X, Some("Email"), ""),
    ]);
    // (typed, shown, formatted?)
    #[rustfmt::skip]
    let table = [
        ("5551234567", "(555) 123-4567", true), ("5551234567", "+5551234567", true),
        ("12345", "12.345", true), ("12345", "12\u{202f}345", true), ("0612", "06/12", true),
        ("", "()", false), ("123", "1234", false), ("123", "132", false), ("1-2", "12", false),
    ];
    for (typed, shown, want) in table {
        assert_eq!(is_formatted(typed, shown), want, "{typed} -> {shown}");
    }
}

/// A pagination and a carousel (the Authoring Practices' patterns, as MUI and Ark UI build
/// them): "next" and "previous" step the shown position by one, a line the page replaces.
#[test]
fn sequences_step_one_place() {
    const NAV: &str = "navigation[pagination navigation]";
    let pager = |page: u32, of: u32| Snapshot {
        elements: vec![
            el("prev", Role::Button, "Go to previous page", NAV),
            el(
                "p1",
                Role::Button,
                if page == 1 { "page 1" } else { "Go to page 1" },
                NAV,
            ),
            el(
                "p2",
                Role::Button,
                if page == 2 { "page 2" } else { "Go to page 2" },
                NAV,
            ),
            el(
                "p3",
                Role::Button,
                if page == 3 { "page 3" } else { "Go to page 3" },
                NAV,
            ),
            el("next", Role::Button, "Go to next page", NAV),
        ],
        texts: vec![text(
            &format!("Inbox: page {page} of {of}"),
            "region[Mailbox]",
        )],
        ..Default::default()
    };
    let with_clock = |mut s: Snapshot, time: &str| {
        s.texts.insert(0, text(time, "banner"));
        s
    };
    let carousel = |moved: bool| Snapshot {
        elements: vec![
            el("nx", Role::Button, "Next slide", "region[Offers]"),
            if moved {
                el("x", Role::Button, "Previous slide", "region[Offers]")
            } else {
                el("c", Role::Generic, "1 of 3", "region[Offers]")
            },
        ],
        texts: if moved {
            vec![
                text("2 of 3", "region[Offers]"),
                text("Oslo from 129 €", "region[Offers]"),
            ]
        } else {
            vec![
                text("Lisbon from 89 €", "region[Offers]"),
                text("Rome from 99 €", "region[Offers]"),
            ]
        },
        ..Default::default()
    };
    // A carousel's tabs name the current slide "Slide 2" and the others "Go to slide 1 of
    // 3" (Shoelace): a renamed tab is a new node, and its slide shows.
    const ROOMS: [&str; 3] = ["Living room", "Kitchen", "Bedroom"];
    let slides = |current: usize| Snapshot {
        elements: (1..=3)
            .map(|k| {
                if k == current {
                    el(
                        &format!("c{k}"),
                        Role::Tab,
                        &format!("Slide {k}"),
                        "region[Carousel]",
                    )
                } else {
                    el(
                        &format!("g{k}"),
                        Role::Tab,
                        &format!("Go to slide {k} of 3"),
                        "region[Carousel]",
                    )
                }
            })
            .chain([el(
                "room",
                Role::Generic,
                ROOMS[current - 1],
                "region[Carousel]",
            )])
            .collect(),
        ..Default::default()
    };
    let to_third = act(ActionKind::Click, Some(find(&slides(2), "g3")));
    let carousel_next = act(ActionKind::Click, Some(find(&carousel(false), "nx")));
    let on = |r: &str| act(ActionKind::Click, Some(find(&pager(1, 3), r)));
    let back = act(ActionKind::Click, Some(find(&pager(2, 3), "prev")));
    let wrap_back = act(ActionKind::Click, Some(find(&pager(1, 3), "prev")));

    #[rustfmt::skip]
    run(vec![
        case("next: one step forward", on("next"), pager(1, 3), pager(2, 3)).want(M, Some("Go to next page"), "one step forward"),
        case("next with its intent", on("next"), pager(1, 3), pager(2, 3)).intent("The next page of messages is shown").want(M, Some("Go to next page"), ""),
        case("next twice", on("next"), pager(1, 3), pager(3, 3)).want(X, Some("Go to next page"), "from 1 to 3"),
        case("next twice, a clock ticking by one", on("next"), with_clock(pager(1, 3), "19:07:13"), with_clock(pager(3, 3), "19:07:14")).want(X, Some("Go to next page"), "from 1 to 3"),
        case("next went back", on("next"), pager(2, 3), pager(1, 3)).want(X, Some("Go to next page"), "from 2 to 1"),
        // The page turns the position by itself (an autoplaying carousel, seen turning): one
        // step is the target's; two cannot be told from one and a turn of its own.
        case("next, the page turning it too: one step", on("next"), pager(1, 3), pager(2, 3)).turning(&pager(2, 3), &pager(3, 3)).want(M, Some("Go to next page"), "one step forward"),
        case("next, the page turning it too: two steps", on("next"), pager(1, 3), pager(3, 3)).turning(&pager(2, 3), &pager(3, 3)).want(A, None, "turns it by itself"),
        case("next, the page turning it too: none", on("next"), pager(1, 3), pager(1, 3)).turning(&pager(2, 3), &pager(3, 3)).want(X, None, "no effect"),
        case("previous: one step back", back, pager(2, 3), pager(1, 3)).want(M, Some("Go to previous page"), "one step back"),
        case("a carousel wraps back to the last", wrap_back, pager(1, 3), pager(3, 3)).want(M, Some("Go to previous page"), "one step back"),
        case("a carousel: its counter an element before, a text after, among slides", carousel_next.clone(), carousel(false), carousel(true)).want(M, Some("Next slide"), "one step forward"),
        case("a page's own button: the line names it by its changed word", on("p3"), pager(1, 3), pager(3, 3)).want(M, Some("Go to page 3"), ""),
        case("a page's own button, another page shown", on("p3"), pager(1, 3), pager(2, 3)).want(X, Some("Go to page 2"), "another became the current one"),
        case("a carousel's tab becomes the current one", to_third.clone(), slides(2), slides(3)).want(M, Some("Go to slide 3 of 3"), "became the current one"),
        case("a carousel's tab, with its intent", to_third.clone(), slides(2), slides(3)).intent("The third room is shown").want(M, Some("Go to slide 3 of 3"), "became the current one"),
        case("a carousel's tab, another slide shown", to_third, slides(2), slides(1)).want(X, Some("Go to slide 1 of 3"), "another became the current one"),
    ]);
}

/// A status line the page rewrites: the words that changed say whose effect it is.
#[test]
fn a_rewritten_line_names_by_its_changed_words() {
    const MENU: &str = "menu[View options]";
    let page = |status: &str| Snapshot {
        elements: vec![
            el("sd", Role::Menuitemcheckbox, "Show done tasks", MENU),
            el("cc", Role::Menuitemcheckbox, "Compact cards", MENU),
            el("ex", Role::Menuitem, "Export board", MENU),
        ],
        texts: vec![text(status, "region[Board]")],
        ..Default::default()
    };
    let show = act(ActionKind::Click, Some(find(&page(""), "sd")));
    let compact = act(ActionKind::Click, Some(find(&page(""), "cc")));

    #[rustfmt::skip]
    run(vec![
        case("the changed word names the target", show.clone(), page("Done tasks hidden"), page("Done tasks shown")).want(M, Some("Show done tasks"), "carries the target's name"),
        case("a count rewritten: the word kept names what changed", compact.clone(), page("Compact: 3 cards"), page("Compact: 4 cards")).want(M, Some("Compact cards"), "carries the target's name"),
    ]);
}

/// Activating a menu item closes its menu (the Authoring Practices' menu pattern): with
/// nothing else changed, the closing is the item's effect.
#[test]
fn a_menu_item_closes_its_menu() {
    const MENU: &str = "list:menu-1";
    let open = Snapshot {
        elements: vec![
            Element {
                expanded: Some(true),
                ..el("vo", Role::Button, "View options", "region[Board]")
            },
            el("m", Role::Menu, "View options", MENU),
            Element {
                checked: Some(Tristate::True),
                ..el("cc", Role::Menuitemcheckbox, "Compact cards", MENU)
            },
            el("sh", Role::Menuitem, "Share trip", MENU),
        ],
        ..Default::default()
    };
    let closed = || {
        let mut a = without(&open, &["m", "cc", "sh"]);
        edit(&mut a, "vo", |e| e.expanded = Some(false));
        a
    };
    let with_toast = |said: &str| {
        let mut a = closed();
        a.texts.push(text(said, "region[Board]"));
        a
    };
    let compact = act(ActionKind::Click, Some(find(&open, "cc")));
    let share = act(ActionKind::Click, Some(find(&open, "sh")));

    #[rustfmt::skip]
    run(vec![
        case("a checkbox item", compact.clone(), open.clone(), closed()).want(M, Some("Compact cards"), "the menu closed"),
        case("a checkbox item, its intent", compact.clone(), open.clone(), closed()).intent("Compact cards are turned off").want(M, Some("Compact cards"), "the menu closed"),
        case("an item whose effect is unseen", share.clone(), open.clone(), closed()).intent("Share the trip").want(M, Some("Share trip"), "the menu closed"),
        case("another item's message", share.clone(), open.clone(), with_toast("Compact cards off")).want(A, None, ""),
        case("the item's own message", share.clone(), open.clone(), with_toast("Trip link copied")).want(M, Some("Share trip"), "and then appeared text 'Trip link copied'"),
        case("the item's own message, its intent", share, open.clone(), with_toast("Trip link copied")).intent("The trip link is copied").want(M, Some("Share trip"), "the menu closed"),
        case("the menu stayed open", compact, open.clone(), open.clone()).want(X, None, "no effect"),
    ]);
}

/// A menu that opens right after a button that says nothing of a popup (no
/// `aria-expanded`; a menu anchored to its button) is the button's own, named by it.
#[test]
fn a_menu_opens_right_after_its_button() {
    const R: &str = "region[Library]";
    let page = |open: &[&str]| Snapshot {
        elements: vec![
            el("ea", Role::Button, "Episode actions", R),
            Element {
                visible: open.contains(&"ea"),
                ..el("mp", Role::Menuitem, "Mark as played", R)
            },
            Element {
                visible: open.contains(&"ea"),
                ..el("de", Role::Menuitem, "Download episode", R)
            },
            el("sa", Role::Button, "Show actions", R),
            Element {
                visible: open.contains(&"sa"),
                ..el("sh", Role::Menuitem, "Share show", R)
            },
        ],
        ..Default::default()
    };
    let mut with_message = page(&["ea"]);
    with_message.texts.push(text("Episode downloaded", R));
    let mut says_its_state = page(&[]);
    edit(&mut says_its_state, "ea", |e| e.expanded = Some(false));
    let mut expanded = page(&["ea"]);
    edit(&mut expanded, "ea", |e| e.expanded = Some(false));
    let episode = act(ActionKind::Click, Some(find(&page(&[]), "ea")));
    let show = act(ActionKind::Click, Some(find(&page(&[]), "sa")));

    #[rustfmt::skip]
    run(vec![
        case("its menu", episode.clone(), page(&[]), page(&["ea"])).want(M, Some("Episode actions"), "the popup that follows the target opened"),
        case("its menu, named by it", episode.clone(), page(&[]), page(&["ea"])).intent("The episode actions menu opens").want(M, Some("Episode actions"), "the popup that follows the target opened"),
        case("its menu, said closed", episode.clone(), page(&[]), page(&["ea"])).intent("The episode actions menu closes").want(X, Some("Episode actions"), ""),
        case("the menu after another button", episode.clone(), page(&[]), page(&["sa"])).want(A, None, ""),
        case("the next button's menu, its own", show, page(&[]), page(&["sa"])).want(M, Some("Show actions"), "the popup that follows the target opened"),
        case("its menu and a message", episode.clone(), page(&[]), with_message).want(M, Some("Episode actions"), "carries the target's name"),
        case("a button that says its state is judged by it", episode, says_its_state, expanded).want(M, Some("Episode actions"), ""),
    ]);
}

/// A dialog that opens is one effect: its title, text and buttons together name whose it
/// is, and a part of it (a sentence naming the thing it asks about) is no variant's.
#[test]
fn a_dialog_that_opens_is_one_effect() {
    const D: &str = "dialog[Unsubscribe?]";
    let page = |open: bool| {
        let shown = |e: Element| Element { visible: open, ..e };
        let mut texts = Vec::new();
        if open {
            texts.push(text("Downloaded episodes of Tech Talk will be removed.", D));
        }
        Snapshot {
            elements: vec![
                el(
                    "u1",
                    Role::Button,
                    "Unsubscribe from Tech Talk",
                    "region[Library]",
                ),
                el(
                    "u2",
                    Role::Button,
                    "Unsubscribe from Daily News",
                    "region[Library]",
                ),
                shown(el("d", Role::Dialog, "Unsubscribe?", D)),
                shown(el("s", Role::Button, "Stay subscribed", D)),
                shown(el("y", Role::Button, "Unsubscribe", D)),
            ],
            texts,
            ..Default::default()
        }
    };
    let other = |open: bool| {
        let mut p = page(open);
        for t in &mut p.texts {
            t.text = t.text.replace("Tech Talk", "Daily News");
        }
        p
    };
    let tech = act(ActionKind::Click, Some(find(&page(false), "u1")));

    #[rustfmt::skip]
    run(vec![
        case("its own dialog", tech.clone(), page(false), page(true)).want(M, Some("Unsubscribe from Tech Talk"), "carries the target's name"),
        case("the dialog of the button beside it", tech, other(false), other(true)).want(X, Some("Unsubscribe from Daily News"), ""),
    ]);
}

/// A toast's own action (MUI's Snackbar "Undo"): the control goes with its message, and the
/// line that takes the message's place is the control's doing.
#[test]
fn a_toasts_action_replaces_its_message() {
    const MAIL: &str = "region[Mailbox]";
    let toast = Snapshot {
        elements: vec![
            el("ar", Role::Button, "Archive", MAIL),
            el("un", Role::Button, "Undo", MAIL),
        ],
        texts: vec![text("Conversation archived Undo", MAIL)],
        ..Default::default()
    };
    let replaced = |said: &str, region: &str| Snapshot {
        elements: vec![el("ar", Role::Button, "Archive", MAIL)],
        texts: vec![text(said, region)],
        ..Default::default()
    };
    let undo = act(ActionKind::Click, Some(find(&toast, "un")));

    #[rustfmt::skip]
    run(vec![
        case("the toast's line replaced", undo.clone(), toast.clone(), replaced("Archive undone", MAIL)).want(M, Some("Undo"), "the message holding the target was replaced"),
        case("the toast's line replaced, an intent", undo.clone(), toast.clone(), replaced("Archive undone", MAIL)).intent("The archiving is undone").want(M, Some("Undo"), "and the intent holds"),
        case("a line elsewhere", undo, toast.clone(), replaced("Archive undone", "banner")).want(A, None, ""),
    ]);
}
