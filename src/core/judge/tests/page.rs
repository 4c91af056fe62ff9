use super::*;

#[test]
fn busy_pages_never_match() {
    let s = shop();
    let click = act(ActionKind::Click, Some(find(&s, "b1")));
    let mut honest = s.clone();
    add_to_cart(&mut honest, "Shirt M", 1);
    let mut spinning = honest.clone();
    spinning
        .elements
        .push(el("sp", Role::Progressbar, "Loading", "cart"));
    let mut marked = honest.clone();
    edit(&mut marked, "ci1", |e| e.busy = true);
    let mut quiet_spinner = s.clone();
    quiet_spinner
        .elements
        .push(el("sp", Role::Progressbar, "Loading", "cart"));
    let mut recycled = quiet_spinner.clone();
    add_to_cart(&mut recycled, "Trousers L", 1);
    let mut ticker_spins = honest.clone();
    ticker_spins
        .elements
        .push(el("sp", Role::Progressbar, "Refreshing", "ticker"));
    let mut polling = Background::default();
    polling.observe(&s, &{
        let mut a = s.clone();
        a.elements
            .push(el("sp", Role::Progressbar, "Refreshing", "ticker"));
        a
    });

    #[rustfmt::skip]
    run(vec![
        case("settled", click.clone(), s.clone(), honest).want(M, Some("Add Shirt M"), ""),
        case("a spinner appeared", click.clone(), s.clone(), spinning).want(A, None, "the page is still busy: progressbar[Loading] in cart is showing"),
        case("aria-busy", click.clone(), s.clone(), marked).want(A, None, "marked aria-busy"),
        case("busy, no effect yet", click.clone(), s.clone(), quiet_spinner).want(A, None, "still busy"),
        case("busy, the diff proves a neighbour", click.clone(), s.clone(), recycled).want(X, Some("Add Trousers L"), "Trousers L"),
        case("a spinner in another region", click.clone(), s.clone(), ticker_spins.clone()).want(A, None, "progressbar[Refreshing] in ticker"),
        case("a spinner in an ignored region", click.clone(), s.clone(), ticker_spins.clone()).ignoring("ticker").want(M, Some("Add Shirt M"), ""),
        Case { opts: JudgeOptions { background: polling, ..JudgeOptions::default() }, ..case("a spinner that polls by itself", click.clone(), s.clone(), ticker_spins) }.want(M, Some("Add Shirt M"), ""),
    ]);
    // A toast that says the draft is saved, beside words that once counted as busy.
    let mut d = s.clone();
    d.elements
        .push(el("sd", Role::Button, "Save draft", "main"));
    d.texts.push(text("Drafts saved: 0", "main"));
    d.texts.push(text("Loading…", "contentinfo"));
    let save = act(ActionKind::Click, Some(find(&d, "sd")));
    let toast = |msg: &str, n: u32| {
        let mut a = d.clone();
        a.texts.retain(|t| !t.text.starts_with("Drafts saved"));
        a.texts.push(text(&format!("Drafts saved: {n}"), "main"));
        a.texts.push(text(msg, "region[Notifications]"));
        a
    };
    let mut ticking = Background::default();
    ticking.observe(&d, &{
        let mut a = d.clone();
        a.texts.retain(|t| t.region != "contentinfo");
        a.texts.push(text("Updated 10:01", "contentinfo"));
        a
    });
    let mut footer_loads = toast("Draft saved", 1);
    footer_loads.texts.retain(|t| t.region != "contentinfo");
    footer_loads.texts.push(text("Loading…", "contentinfo"));

    #[rustfmt::skip]
    run(vec![
        case("a toast that trails off", save.clone(), d.clone(), toast("Saving draft…", 0)).intent("the draft is saved").want(A, None, "text 'Saving draft…' in region[Notifications] trails off"),
        // Words are content, never a busy signal: an accordion's "2 working days".
        case("content that says working", save.clone(), d.clone(), toast("Orders ship within 2 working days. Draft saved", 1)).intent("the draft is saved").want(M, Some("Save draft"), ""),
        case("saved toast, the footer still loading as before", save.clone(), d.clone(), toast("Draft saved", 1)).intent("the draft is saved").want(M, Some("Save draft"), ""),
        Case { opts: JudgeOptions { background: ticking, ..JudgeOptions::default() }, ..case("a footer loader in a background slot", save, d.clone(), footer_loads) }.intent("the draft is saved").want(M, Some("Save draft"), ""),
    ]);
}

#[test]
fn background_is_no_evidence() {
    let s = shop();
    let click = act(ActionKind::Click, Some(find(&s, "b1")));
    let tick = |a: &mut Snapshot| a.texts[0].text = "10:01".into();
    let mut ticked = s.clone();
    tick(&mut ticked);
    let mut honest = s.clone();
    add_to_cart(&mut honest, "Shirt M", 1);
    tick(&mut honest);
    let mut confirmed = s.clone();
    confirmed.texts.push(text("Shirt M added", "main"));
    confirmed.texts[0].text = "Connection error".into();
    let mut clock = Background::default();
    clock.observe(&s, &ticked);
    // The same place seen showing headlines, not only the time: a ticker.
    let mut headline = s.clone();
    headline.texts[0].text = "Markets up".into();
    let mut ticker = clock.clone();
    ticker.observe(&ticked, &headline);
    let in_ticker = |c: Case| Case {
        opts: JudgeOptions {
            background: ticker.clone(),
            ..c.opts.clone()
        },
        ..c
    };
    let in_background = |c: Case| Case {
        opts: JudgeOptions {
            background: clock.clone(),
            ..c.opts.clone()
        },
        ..c
    };

    #[rustfmt::skip]
    run(vec![
        case("honest add while the clock ticks", click.clone(), s.clone(), honest.clone()).intent("the cart gains a shirt").want(M, Some("Add Shirt M"), "the intent holds"),
        in_background(case("honest add while the clock ticks, in background", click.clone(), s.clone(), honest).intent("the cart gains a shirt")).want(M, Some("Add Shirt M"), "the intent holds"),
        case("only the clock, not known", click.clone(), s.clone(), ticked.clone()).want(A, None, "no element's name explains"),
        in_background(case("only the clock", click.clone(), s.clone(), ticked.clone())).want(A, None, "no effect yet"),
        case("watch: only the clock, not known", act(ActionKind::Watch, None), s.clone(), ticked.clone()).intent("the cart gains a shirt").want(X, None, "explains none"),
        in_background(case("watch: only the clock", act(ActionKind::Watch, None), s.clone(), ticked)).intent("the cart gains a shirt").want(A, None, "no effect yet"),
        case("a failure word in the ticker, not known", click.clone(), s.clone(), confirmed.clone()).intent("Shirt M is added").want(X, Some("Add Shirt M"), "failure message"),
        in_ticker(case("a failure word where headlines were turning", click.clone(), s.clone(), confirmed.clone())).intent("Shirt M is added").want(X, Some("Add Shirt M"), "failure message"),
        in_ticker(case("a headline seen before", click.clone(), s.clone(), { let mut a = confirmed.clone(); a.texts[0].text = "Markets up".into(); a })).intent("Shirt M is added").want(M, Some("Add Shirt M"), "the intent holds"),
        in_background(case("a failure where only the time was changing", click, s.clone(), confirmed)).intent("Shirt M is added").want(X, Some("Add Shirt M"), "failure message"),
    ]);
    // The verdict still reports the whole diff.
    let mut honest = s.clone();
    add_to_cart(&mut honest, "Shirt M", 1);
    tick(&mut honest);
    let v = judge(
        &Action {
            intent: Some("the cart gains a shirt".into()),
            ..act(ActionKind::Click, Some(find(&s, "b1")))
        },
        &s,
        &honest,
        &JudgeOptions {
            background: clock,
            ..JudgeOptions::default()
        },
    )
    .unwrap();
    assert!(
        v.diff.lines.iter().any(|l| l.contains("10:01")),
        "{:?}",
        v.diff.lines
    );
}

#[test]
fn targets_are_required_where_aimed() {
    let s = shop();
    for kind in [
        ActionKind::Click,
        ActionKind::Fill,
        ActionKind::Check,
        ActionKind::Select,
        ActionKind::Hover,
        ActionKind::Drag,
    ] {
        let err = judge(&act(kind, None), &s, &s, &JudgeOptions::default()).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidAction, "{kind:?}");
        assert!(err.message.contains(kind.as_str()), "{}", err.message);
    }
}

#[test]
fn wire_shapes() {
    let s = shop();
    let action: Action = serde_json::from_value(serde_json::json!({
        "kind": "fill", "target": serde_json::to_value(find(&s, "f3")).unwrap(),
        "valueHash": "h-typed", "intent": "the password is typed"
    }))
    .unwrap();
    assert_eq!(action.kind, ActionKind::Fill);
    assert!(
        serde_json::from_str::<Action>(r#"{"kind":"click","target":null,"force":true}"#).is_err()
    );
    assert!(serde_json::from_str::<Action>(r#"{"kind":"Click"}"#).is_err());
    assert!(serde_json::from_str::<Action>(r#"{"kind":"watch"}"#).is_ok());
    assert_eq!(
        serde_json::from_str::<JudgeOptions>("{}").unwrap(),
        JudgeOptions::default()
    );
    assert!(JudgeOptions::default().stable);
    let opts: JudgeOptions =
        serde_json::from_str(r#"{"stable":false,"ignoreRegions":["ticker"]}"#).unwrap();
    assert!(!opts.stable && opts.ignore_regions == ["ticker"]);
    assert!(serde_json::from_str::<JudgeOptions>(r#"{"stable":1}"#).is_err());
    assert!(serde_json::from_str::<JudgeOptions>(r#"{"unstable":true}"#).is_err());
    let v = judge(&action, &s, &s, &opts).unwrap();
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["verdict"], "AMBIGUOUS");
    assert!(json["attributedTo"].is_null());
    assert_eq!(json["diff"]["empty"], true);
    let mut after = s.clone();
    add_to_cart(&mut after, "Trousers L", 1);
    let v = judge(
        &act(ActionKind::Click, Some(find(&s, "b1"))),
        &s,
        &after,
        &JudgeOptions::default(),
    )
    .unwrap();
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["verdict"], "MISMATCH");
    assert_eq!(
        json["attributedTo"],
        serde_json::json!({ "role": "button", "name": "Add Trousers L", "region": PRODUCTS })
    );
    assert_eq!(serde_json::from_value::<Verdict>(json).unwrap(), v);
}
