use super::*;

#[test]
fn what_keys_do() {
    let mut s = shop();
    edit(&mut s, "f1", |e| e.focused = true);
    let press = |key: &str| Action {
        key: Some(key.into()),
        ..act(ActionKind::Press, None)
    };
    let after = |f: &dyn Fn(&mut Snapshot)| {
        let mut a = s.clone();
        f(&mut a);
        a
    };
    let mut open = s.clone();
    edit(&mut open, "m1", |e| e.expanded = Some(true));
    open.elements
        .push(el("mn", Role::Menu, "Account", "banner"));
    let mut collapsed = open.clone();
    edit(&mut collapsed, "m1", |e| e.expanded = Some(false));
    remove(&mut collapsed, "mn");
    let mut with_dialog = s.clone();
    with_dialog
        .elements
        .push(el("g0", Role::Dialog, "Newsletter", ""));
    let submitted = after(&|a| a.texts.push(text("Order placed", FORM)));
    // A search box in its own landmark, focused and holding what was typed.
    let mut searched = s.clone();
    for e in searched.elements.iter_mut() {
        e.focused = false;
    }
    searched.elements.push(Element {
        focused: true,
        value: Some("shoes".into()),
        ..el("q1", Role::Searchbox, "Search", "search")
    });
    let press_in = |_: &Snapshot, key: &str| press(key);
    let enter_on_q1 = Action {
        key: Some("Enter".into()),
        ..act(ActionKind::Press, Some(find(&searched, "q1")))
    };
    let mut results = searched.clone();
    results.texts.push(text("3 results for shoes", "main"));
    let mut other_results = searched.clone();
    other_results.texts.push(text("3 results", "main"));
    // Two letters typed, and a text that holds them inside a word, not as one.
    let mut short = searched.clone();
    for e in short
        .elements
        .iter_mut()
        .filter(|e| e.role == Role::Searchbox)
    {
        e.value = Some("ho".into());
    }
    let mut inside_a_word = short.clone();
    inside_a_word.texts.push(text("Show more", "main"));
    let declined = after(&|a| a.texts.push(text("Payment declined", FORM)));
    let elsewhere = after(&|a| a.texts.push(text("Order placed", "banner")));
    let picked = after(&|a| edit(a, "s1", |e| e.value = Some("Express".into())));
    let option = after(&|a| {
        edit(a, "o1", |e| e.selected = Some(false));
        edit(a, "o2", |e| e.selected = Some(true));
    });
    // A field of several lines in the form (a rich-text editor's body), focused; Enter gives
    // its value a second line.
    let mut typing = s.clone();
    edit(&mut typing, "f1", |e| e.value = Some("Hi Ana,".into()));
    let mut new_line = typing.clone();
    edit(&mut new_line, "f1", |e| {
        e.value = Some("Hi Ana,\n\n".into())
    });
    let mut same_line = typing.clone();
    edit(&mut same_line, "f1", |e| e.value = Some("Hi Ana, ".into()));
    let tabbed = after(&|a| {
        edit(a, "f1", |e| e.focused = false);
        edit(a, "f2", |e| e.focused = true);
    });
    let back = after(&|a| {
        edit(a, "f1", |e| e.focused = false);
        edit(a, "t1", |e| e.focused = true);
    });

    #[rustfmt::skip]
    run(vec![
        case("Escape closes a menu", press("Escape"), open.clone(), collapsed.clone()).want(M, None, "Escape closed a popup: changed button[Account] in banner: expanded true -> false"),
        case("Escape closes a dialog", press("Escape"), with_dialog.clone(), s.clone()).want(M, None, "disappeared dialog[Newsletter]"),
        case("Escape, nothing closed", press("Escape"), s.clone(), submitted.clone()).want(A, None, "no target"),
        case("no key: no expectation", act(ActionKind::Press, None), open, collapsed).want(A, None, "no target"),
        case("Enter submits the focused form", press("Enter"), s.clone(), submitted.clone()).want(M, None, "Enter submitted form[Checkout]: appeared text 'Order placed'"),
        case("Enter submits a search whose results are elsewhere", press_in(&searched, "Enter"), searched.clone(), results.clone()).want(M, None, "Enter submitted what was typed in searchbox[Search] in search: appeared text '3 results for shoes' in main"),
        case("Enter, results without what was typed", press_in(&searched, "Enter"), searched.clone(), other_results.clone()).want(A, None, ""),
        case("Enter, what was typed only inside another word", press_in(&short, "Enter"), short.clone(), inside_a_word).want(A, None, ""),
        case("Enter submits a search, an intent in another language", enter_on_q1.clone(), searched.clone(), results.clone()).intent("Se listan los zapatos").want(M, Some("Search"), "Enter submitted what was typed"),
        case("Enter, results without what was typed, an intent in another language", enter_on_q1, searched.clone(), other_results.clone()).intent("Se listan los zapatos").want(A, None, ""),
        case("Enter submits, form goes away", press("Enter"), s.clone(), after(&|a| a.elements.retain(|e| e.region != FORM))).want(M, None, "Enter submitted form[Checkout]"),
        case("Enter starts a new line in a field of several lines", press("Enter"), typing.clone(), new_line).want(M, None, "Enter started a new line in textbox[Email] in form[Checkout]"),
        case("Enter that changed a field without a new line submits its form", press("Enter"), typing, same_line).want(M, None, "Enter submitted form[Checkout]"),
        case("Enter, but the form says it failed", press("Enter"), s.clone(), declined).want(A, None, "a failure message appeared"),
        case("Enter, effect outside the form", press("Enter"), s.clone(), elsewhere).want(A, None, "no target"),
        case("Enter picks the combo box's option", press("Enter"), s.clone(), picked).want(M, None, "Enter picked the active option: changed combobox[Shipping]"),
        case("Enter picks a listbox option", press("Enter"), s.clone(), option).want(M, None, "Enter picked the active option"),
        case("Enter, intent decides", press("Enter"), s.clone(), submitted).intent("the order is placed").want(M, None, "the intent explains the effect"),
        case("Tab moves focus", press("Tab"), s.clone(), tabbed.clone()).want(M, Some("Name"), "Tab: focus moved to textbox[Name]"),
        case("Shift+Tab moves focus", press("Shift+Tab"), s.clone(), back).want(M, Some("Bold"), "Shift+Tab: focus moved"),
        case("Tab, nothing", press("Tab"), s.clone(), s.clone()).want(X, None, "no effect"),
    ]);
}

#[test]
fn drag_order() {
    let list = "board/list:todo";
    let mut s = shop();
    s.elements.push(item("w3", "Fix bug", list));
    let order = |refs: &[&str]| {
        let mut a = s.clone();
        let moved: Vec<Element> = refs.iter().map(|r| find(&s, r).clone()).collect();
        a.elements.retain(|e| e.region != list);
        a.elements.extend(moved);
        a
    };
    let first = order(&["w3", "w1", "w2"]);
    let same = order(&["w1", "w2", "w3"]);
    let drag = |r: &str| act(ActionKind::Drag, Some(find(&s, r)));

    #[rustfmt::skip]
    run(vec![
        case("moved to the top", drag("w3"), s.clone(), first.clone()).want(M, Some("Fix bug"), "moved listitem[Fix bug] from position 3 to 1 in board/list:todo"),
        case("pushed down by the move", drag("w1"), s.clone(), first.clone()).want(M, Some("Write tests"), "from position 1 to 2"),
        case("not moved", drag("w3"), s.clone(), same.clone()).want(X, None, "no effect"),
        case("intent says so", drag("w3"), s.clone(), first.clone()).intent("Fix bug goes first").want(M, Some("Fix bug"), "as the intent says"),
        case("intent says otherwise", drag("w3"), s.clone(), first.clone()).intent("the invoice is uploaded").want(A, None, "the intent does not explain it"),
        case("a click's reorder is no change", act(ActionKind::Click, Some(find(&s, "w3"))), s.clone(), first.clone()).want(X, None, "no effect"),
    ]);

    // A key that moves the item it is pressed on (a sortable list's keyboard move).
    let key = |k: &str, r: &str| {
        let mut a = act(ActionKind::Press, Some(find(&s, r)));
        a.key = Some(k.into());
        a
    };
    let second = order(&["w1", "w3", "w2"]);
    #[rustfmt::skip]
    run(vec![
        case("Alt+ArrowUp moves the item up one place", key("Alt+ArrowUp", "w3"), s.clone(), second.clone()).want(M, Some("Fix bug"), "moved listitem[Fix bug] from position 3 to 2"),
        case("ArrowUp, with an intent naming the item and the way", key("ArrowUp", "w3"), s.clone(), second.clone()).intent("Fix bug moves up one place").want(M, Some("Fix bug"), "as the intent says"),
        case("ArrowDown, but the item went up", key("Alt+ArrowDown", "w3"), s.clone(), second.clone()).want(X, Some("Fix bug"), "the other way from where its arrow points"),
        case("ArrowDown on the first, the last moved to the top instead", key("Alt+ArrowDown", "w1"), s.clone(), first.clone()).want(X, Some("Write tests"), "other items of its list changed places too"),
        case("an arrow that moved nothing is no effect", key("Alt+ArrowUp", "w3"), s.clone(), same).want(X, None, "no effect"),
        case("Space is no reorder key", key("Space", "w3"), s.clone(), second).want(X, None, "no effect"),
    ]);
}

#[test]
fn drag_press_upload_goto() {
    let s = shop();
    let moved = |r: &str| {
        let mut a = s.clone();
        edit(&mut a, r, |e| e.region = "board/list:done".into());
        a
    };
    let drag = act(ActionKind::Drag, Some(find(&s, "w1")));
    let mut uploaded = s.clone();
    edit(&mut uploaded, "u1", |e| {
        e.value = Some("invoice.pdf".into())
    });
    let mut searched = s.clone();
    searched.texts.push(text("3 results for shirt", "main"));
    let mut tabbed = s.clone();
    edit(&mut tabbed, "u1", |e| e.focused = true);
    let mut page = s.clone();
    page.elements.clear();
    page.elements
        .push(el("h1", Role::Heading, "Shirt M", "main"));
    let mut new_document = page.clone();
    new_document.context.epoch += 1;
    let mut focused = s.clone();
    edit(&mut focused, "f1", |e| e.focused = true);
    let mut focused_button = s.clone();
    edit(&mut focused_button, "b1", |e| e.focused = true);

    #[rustfmt::skip]
    run(vec![
        case("drag moves the target", drag.clone(), s.clone(), moved("w1")).want(M, Some("Write tests"), "moved listitem[Write tests] from board/list:todo to board/list:done"),
        case("drag moved a neighbour", drag.clone(), s.clone(), moved("w2")).want(X, Some("Ship it"), "listitem[Ship it]"),
        case("drag, intent first", drag, s.clone(), moved("w2")).intent("Ship it is done").want(M, Some("Write tests"), "intent"),
        case("upload", act(ActionKind::Upload, Some(find(&s, "u1"))), s.clone(), uploaded).want(M, Some("Upload invoice"), "invoice.pdf"),
        case("press, no target, intent", act(ActionKind::Press, None), s.clone(), searched.clone()).intent("results for shirt are listed").want(M, None, "3 results"),
        case("press, no target, no intent", act(ActionKind::Press, None), s.clone(), searched.clone()).want(A, None, "no target"),
        case("press, nothing", act(ActionKind::Press, None), s.clone(), s.clone()).want(X, None, "no effect"),
        case("press moves focus", act(ActionKind::Press, None), s.clone(), tabbed).want(M, Some("Upload invoice"), "focus moved to"),
        case("goto, intent", act(ActionKind::Goto, None), s.clone(), page.clone()).intent("the Shirt M product page opens").want(M, None, "heading[Shirt M]"),
        case("goto, no intent", act(ActionKind::Goto, None), s.clone(), page.clone()).want(A, None, ""),
        case("goto, no intent, a new document", act(ActionKind::Goto, None), s.clone(), new_document.clone()).want(M, None, "a new document loaded (1 elements observed)"),
        case("goto, intent, a new document", act(ActionKind::Goto, None), s.clone(), new_document).intent("the Shirt M product page opens").want(M, None, "heading[Shirt M]"),
        case("click takes a field's focus", act(ActionKind::Click, Some(find(&s, "f1"))), s.clone(), focused.clone()).want(M, Some("Email"), "textbox[Email] in form[Checkout] took the focus"),
        case("click on a field, focus elsewhere", act(ActionKind::Click, Some(find(&s, "f1"))), s.clone(), s.clone()).want(X, None, "no effect"),
        case("click on a button that takes focus", act(ActionKind::Click, Some(find(&s, "b1"))), s.clone(), focused_button).want(X, None, "no effect"),
    ]);
}

/// Two rich-text editors' bodies, each in its region with a toolbar toggle: the words the key
/// formats are observed as `strong` / `emphasis` records in the host's region.
#[test]
fn formatting_keys() {
    let (mail, notes) = ("form[Compose]", "form[Compose]/region[Private notes]");
    let body = |r: &str, name: &str, value: &str, region: &str| Element {
        value: Some(value.into()),
        focused: r == "b1",
        ..el(r, Role::Textbox, name, region)
    };
    let toggle = |r: &str, region: &str| Element {
        pressed: Some(Tristate::False),
        ..el(r, Role::Button, "Bold", region)
    };
    let s = Snapshot {
        elements: vec![
            toggle("t1", mail),
            body("b1", "Message", "Please review the draft", mail),
            toggle("t2", notes),
            body("b2", "Notes", "Call Ana on Friday", notes),
        ],
        ..Default::default()
    };
    let with = |f: &dyn Fn(&mut Snapshot)| {
        let mut a = s.clone();
        f(&mut a);
        a
    };
    let format = |role: Role, words: &'static str, region: &'static str| {
        move |a: &mut Snapshot| a.elements.push(el("f1", role, words, region))
    };
    let bold = with(&format(Role::Strong, "review", mail));
    let italic = with(&format(Role::Emphasis, "review", mail));
    let bold_and_pressed = with(&|a| {
        format(Role::Strong, "review", mail)(a);
        edit(a, "t1", |e| e.pressed = Some(Tristate::True));
    });
    let released = with(&|a| {
        format(Role::Strong, "review", mail)(a);
        edit(a, "t1", |e| e.pressed = Some(Tristate::Mixed));
    });
    let other_editor = with(&format(Role::Strong, "Friday", notes));
    let other_words = with(&format(Role::Strong, "Friday", mail));
    let bold_and_text = with(&|a| {
        format(Role::Strong, "review", mail)(a);
        a.texts.push(text("Draft saved", "banner"));
    });
    let key = |k: &str| Action {
        key: Some(k.into()),
        ..act(ActionKind::Press, Some(find(&s, "b1")))
    };
    let unbold = |k: &str| Action {
        key: Some(k.into()),
        ..act(ActionKind::Press, Some(find(&bold, "b1")))
    };

    #[rustfmt::skip]
    run(vec![
        case("Control+B makes the words bold", key("Control+B"), s.clone(), bold.clone()).want(M, Some("Message"), "Control+B made words bold in textbox[Message] in form[Compose]: appeared strong[review]"),
        case("Meta+b makes the words bold", key("Meta+b"), s.clone(), bold.clone()).want(M, Some("Message"), "made words bold"),
        case("Control+B turns the host's toolbar toggle on too", key("Control+B"), s.clone(), bold_and_pressed.clone()).want(M, Some("Message"), "made words bold"),
        case("Control+B takes bold off", unbold("Control+B"), bold.clone(), s.clone()).want(M, Some("Message"), "took bold off words"),
        case("Control+I makes the words italic", key("Control+I"), s.clone(), italic.clone()).want(M, Some("Message"), "made words italic"),
        case("Control+B that made the words italic", key("Control+B"), s.clone(), italic.clone()).want(X, Some("Message"), "meant to make its words bold, but: appeared emphasis[review]"),
        case("Control+B that made them italic, with an intent naming the word", key("Control+B"), s.clone(), italic.clone()).intent("The word review is bold").want(X, Some("Message"), "meant to make its words bold"),
        case("Control+B that landed in the other editor", key("Control+B"), s.clone(), other_editor.clone()).want(X, Some("Message"), "the formatting changed outside it: appeared strong[Friday]"),
        case("Control+B formatting words the host does not hold", key("Control+B"), s.clone(), other_words).want(X, Some("Message"), "outside it"),
        case("Control+B and a toggle that went the other way", key("Control+B"), s.clone(), released).want(A, None, ""),
        case("Control+B and an effect it does not explain", key("Control+B"), s.clone(), bold_and_text).want(A, None, ""),
        case("Control+B, nothing", key("Control+B"), s.clone(), s.clone()).want(X, None, "no effect"),
        case("Shift+B is typing, not formatting", key("Shift+B"), s.clone(), bold.clone()).want(A, None, ""),
        case("Control+B with an intent that says the format", key("Control+B"), s.clone(), bold.clone()).intent("Make the selected word bold").want(M, Some("Message"), "made words bold in textbox[Message] in form[Compose]: appeared strong[review] in form[Compose], as the intent says"),
        case("Control+B, an intent naming other words of the host", key("Control+B"), s.clone(), bold.clone()).intent("Make the word draft bold").want(A, None, ""),
        case("Control+I, an intent saying bold", key("Control+I"), s.clone(), italic.clone()).intent("Make the selected word bold").want(A, None, ""),
        case("Control+B, the toggle on, with an intent", key("Control+B"), s.clone(), bold_and_pressed).intent("The word review is bold").want(M, Some("Message"), ""),
    ]);
}
