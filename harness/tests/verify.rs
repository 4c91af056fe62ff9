//! The verification loop in real headless Chromium, over `fixtures/`.

mod common;

use common::{assert_paid, assert_paid_in_frame, cart_lines, target, target_in, texts, Session};
use prufe::core::error::ErrorCode;
use prufe::core::model::{Role, Snapshot};
use prufe_harness::{Action, Error, Options, Outcome, Step, Verdict};

fn assert_match(o: &Outcome) {
    assert_eq!(o.verdict, Some(Verdict::Match), "{}", o.explain());
    assert!(o.ok, "{}", o.explain());
    assert_eq!(o.attempts, 1, "{}", o.explain());
    assert_eq!(o.undone, 0, "{}", o.explain());
}

fn value_of(s: &Snapshot, role: Role, name: &str) -> Option<String> {
    s.elements
        .iter()
        .find(|e| e.role == role && e.name == name)
        .and_then(|e| e.value.clone())
}

// --- The honest shop: every control does what its name says, so nothing may alarm. ---

#[tokio::test]
async fn honest_shop_click_is_match() {
    let mut s = Session::open("shop.html").await;
    let o =
        s.v.click(target("button", "Add Shirt M"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert!(
        o.lines
            .iter()
            .any(|l| l.contains("Shirt M") && l.starts_with("appeared")),
        "{:?}",
        o.lines
    );
    assert_eq!(s.cart().await, ["Shirt M Remove Shirt M"]);
    s.close().await;
}

#[tokio::test]
async fn honest_shop_fill_is_match() {
    let mut s = Session::open("shop.html").await;
    let o =
        s.v.fill(target("textbox", "Name"), "Ada Lovelace", false, None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(
        value_of(&s.snapshot().await, Role::Textbox, "Name").as_deref(),
        Some("Ada Lovelace")
    );
    // A second fill replaces the text instead of appending to it.
    let o =
        s.v.fill(target("textbox", "Name"), "Grace", false, None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(
        value_of(&s.snapshot().await, Role::Textbox, "Name").as_deref(),
        Some("Grace")
    );
    s.close().await;
}

#[tokio::test]
async fn honest_shop_check_and_select_are_match() {
    let mut s = Session::open("shop.html").await;
    let o =
        s.v.check(target("checkbox", "Gift wrap"), None)
            .await
            .expect("check MATCH");
    assert_match(&o);
    let gift = s
        .snapshot()
        .await
        .elements
        .into_iter()
        .find(|e| e.name == "Gift wrap")
        .unwrap();
    assert_eq!(gift.checked, Some(prufe::core::model::Tristate::True));
    let again =
        s.v.check(target("checkbox", "Gift wrap"), None)
            .await
            .expect("already checked");
    assert!(
        again.ok && again.reason.contains("already"),
        "{}",
        again.explain()
    );
    let o =
        s.v.uncheck(target("checkbox", "Gift wrap"), None)
            .await
            .expect("uncheck MATCH");
    assert_match(&o);

    let o =
        s.v.select(target("combobox", "Shipping"), "Express", None)
            .await
            .expect("select MATCH");
    assert_match(&o);
    assert_eq!(
        value_of(&s.snapshot().await, Role::Combobox, "Shipping").as_deref(),
        Some("Express")
    );
    s.close().await;
}

#[tokio::test]
async fn honest_shop_upload_is_match() {
    let mut s = Session::open("shop.html").await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("receipt-0042.pdf");
    std::fs::write(&file, b"%PDF-1.4 test").unwrap();
    let o =
        s.v.upload(
            target("button", "Receipt"),
            vec![file],
            Vec::new(),
            Some("the receipt receipt-0042.pdf is uploaded"),
        )
        .await
        .expect("MATCH");
    assert_match(&o);
    assert!(texts(&s.snapshot().await)
        .iter()
        .any(|t| t == "Receipt: receipt-0042.pdf"));
    s.close().await;
}

#[tokio::test]
async fn honest_shop_drag_between_lists_is_match() {
    let mut s = Session::open("shop.html").await;
    let o =
        s.v.drag(
            target("listitem", "Write invoice"),
            target("list", "Done"),
            Vec::new(),
            None,
        )
        .await
        .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    let invoice = snap
        .elements
        .iter()
        .find(|e| e.label() == "Write invoice")
        .unwrap();
    assert_eq!(invoice.region, "main/list:done");
    s.close().await;
}

/// An HTML5 drag whose element turns draggable only when the button goes down, and whose
/// `dragstart` handler takes 400 ms: the drag is still carried as an HTML5 drag.
#[tokio::test]
async fn a_drag_started_late_by_the_page_is_carried_as_an_html5_drag() {
    let mut s = Session::open("drag-late.html").await;
    let o =
        s.v.drag(
            target("listitem", "Write report"),
            target("list", "Done"),
            Vec::new(),
            None,
        )
        .await
        .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    let report = snap
        .elements
        .iter()
        .find(|e| e.label() == "Write report")
        .unwrap();
    assert_eq!(report.region, "main/list:done");
    s.close().await;
}

#[tokio::test]
async fn honest_shop_hover_menu_is_match() {
    let mut s = Session::open("shop.html").await;
    let o =
        s.v.hover(target("button", "Account"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    assert!(
        snap.elements
            .iter()
            .any(|e| e.role == Role::Link && e.name == "Orders"),
        "the menu is open"
    );
    s.close().await;
}

// --- Pages that go wrong. ---

#[tokio::test]
async fn recycled_list_is_a_mismatch_naming_the_neighbour_and_is_undone() {
    let mut s = Session::open("recycled-list.html").await;
    let e =
        s.v.click(target("button", "Add Shirt M"), None)
            .await
            .expect_err("the wrong row takes the click");
    assert_eq!(e.code(), ErrorCode::VerificationFailed, "{e}");
    let o = e.outcome().expect("the failure carries its outcome");
    assert_eq!(o.verdict, Some(Verdict::Mismatch));
    assert!(
        o.reason.contains("Trousers L"),
        "the neighbour is named: {}",
        o.reason
    );
    assert_eq!(
        o.attributed_to.as_deref(),
        Some("button[Add Trousers L] in list")
    );
    assert_eq!(o.attempts, 2);
    assert_eq!(o.undone, 2);
    assert!(
        e.explain().contains("Attempts:  2, 2 undone"),
        "{}",
        e.explain()
    );
    assert!(
        s.cart().await.is_empty(),
        "the wrong product was taken out again"
    );
    s.close().await;
}

#[tokio::test]
async fn a_late_effect_is_still_a_match() {
    let mut s = Session::open("late-effect.html").await;
    let o =
        s.v.click(target("button", "Add Shirt M"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(
        s.cart()
            .await
            .iter()
            .filter(|l| l.starts_with("Shirt M"))
            .count(),
        1,
        "one click, one shirt"
    );
    s.close().await;
}

#[tokio::test]
async fn an_overlay_is_a_clean_error_and_nothing_changes() {
    let mut s = Session::open("overlay.html").await;
    let before = s.snapshot().await;
    let e =
        s.v.click(target("button", "Add Shirt M"), None)
            .await
            .expect_err("covered");
    assert_eq!(e.code(), ErrorCode::TargetObscured, "{e}");
    assert!(e.outcome().is_none(), "no verdict is invented");
    assert!(
        e.to_string().contains("overlay"),
        "the error names what covers the button: {e}"
    );
    let after = s.snapshot().await;
    let d = prufe::core::diff::diff(&before, &after, &Default::default());
    assert!(d.is_empty(), "nothing changed: {:?}", d.lines);
    s.close().await;
}

#[tokio::test]
async fn hostile_overlay_that_acts_is_stopped_before_input() {
    let mut s = Session::open("hostile/12-overlay.html").await;
    let e =
        s.v.click(target("button", "Add Shirt M"), None)
            .await
            .expect_err("covered");
    assert_eq!(e.code(), ErrorCode::TargetObscured, "{e}");
    assert!(s.cart().await.is_empty());
    s.close().await;
}

#[tokio::test]
async fn confirm_dialog_open_and_confirm_with_intent_match_without_intent_is_irreversible() {
    let mut s = Session::open("confirm-dialog.html").await;
    let o =
        s.v.click(target("button", "Delete account"), None)
            .await
            .expect("opening is MATCH");
    assert_match(&o);
    let o =
        s.v.click(
            target("button", "Confirm delete"),
            Some("the account is deleted"),
        )
        .await
        .expect("MATCH");
    assert_match(&o);
    s.close().await;

    let mut s = Session::open("confirm-dialog.html").await;
    s.v.click(target("button", "Delete account"), None)
        .await
        .expect("opening is MATCH");
    let e =
        s.v.click(target("button", "Confirm delete"), None)
            .await
            .expect_err("no intent, no inverse");
    assert_eq!(e.code(), ErrorCode::IrreversibleAction, "{e}");
    let cause = std::error::Error::source(&e).expect("chained to the verification failure");
    assert!(
        cause.to_string().starts_with("VERIFICATION_FAILED"),
        "{cause}"
    );
    assert_eq!(e.outcome().unwrap().verdict, Some(Verdict::Ambiguous));
    assert!(texts(&s.snapshot().await)
        .iter()
        .any(|t| t == "Account deleted"));
    s.close().await;
}

#[tokio::test]
async fn shadow_dom_click_and_fill_are_match() {
    let mut s = Session::open("shadow.html").await;
    let o =
        s.v.click(target("button", "Add Shirt M"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert!(
        o.target
            .as_deref()
            .unwrap_or("")
            .contains("region[Product]"),
        "{:?}",
        o.target
    );
    let o =
        s.v.fill(target("spinbutton", "Quantity"), "3", false, None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(
        value_of(&s.snapshot().await, Role::Spinbutton, "Quantity").as_deref(),
        Some("3")
    );
    s.close().await;
}

#[tokio::test]
async fn iframe_payment_form_is_filled_redacted_and_paid() {
    let mut s = Session::open("iframe-payment.html").await;
    let card = "4111111111111111";
    let o =
        s.v.fill(target("textbox", "Card number"), card, false, None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(
        o.target.as_deref(),
        Some("textbox[Card number] in frame[0]/form[Payment]")
    );
    assert_eq!(
        o.value.as_deref(),
        Some("[redacted]"),
        "a cc-number field is sensitive by itself"
    );
    assert!(!format!("{o:?}{}", o.explain()).contains(card));
    let o =
        s.v.click(target("button", "Pay"), Some("the payment is accepted"))
            .await
            .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    assert_paid_in_frame(&snap, card);
    s.close().await;
}

#[tokio::test]
async fn cross_origin_iframe_is_observed_and_acted_in() {
    let mut s = Session::open("hostile/11-cross-origin-iframe.html").await;
    let snap = s.snapshot().await;
    assert!(
        snap.elements
            .iter()
            .any(|e| e.role == Role::Iframe && e.opaque),
        "the frame element itself is opaque"
    );
    let pay = snap
        .elements
        .iter()
        .find(|e| e.role == Role::Button && e.name == "Pay")
        .expect("the inside is observed");
    assert_eq!(pay.region, "frame[0]/form[Card]");
    assert_eq!(pay.frame, "0");
    let card = "5500005555555559";
    let o =
        s.v.fill(target("textbox", "Card number"), card, false, None)
            .await
            .expect("MATCH");
    assert_match(&o);
    let o =
        s.v.click(target_in("button", "Pay", "frame[0]/form[Card]"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    assert_paid_in_frame(&snap, card);
    s.close().await;
}

#[tokio::test]
async fn a_frame_below_the_fold_is_scrolled_to_and_a_veiled_frame_is_obscured() {
    let mut s = Session::open("frames/far-frame.html").await;
    let pay = || target_in("button", "Pay", "frame[0]/form[Card]");
    let o = s.v.click(pay(), None).await.expect("MATCH");
    assert_match(&o);
    assert_paid(&s.snapshot().await);
    let url = s.url("frames/veiled-frame.html");
    s.v.open(&url).await.expect("the veiled page opens");
    let e = s.v.click(pay(), None).await.expect_err("covered");
    assert_eq!(e.code(), ErrorCode::TargetObscured, "{e}");
    // Worded by the machine, the point in the top viewport, as through every driver.
    let message = e.to_string();
    assert!(
        message.contains("button[Pay] in frame[0]/form[Card] is covered by div.veil at (")
            && message.ends_with("; nothing was clicked"),
        "{message}"
    );
    let snap = s.snapshot().await;
    assert!(
        !snap.texts.iter().any(|t| t.text == "Payment accepted"),
        "nothing was clicked: {:?}",
        snap.texts
    );
    s.close().await;
}

#[tokio::test]
async fn watch_judges_by_the_intent_alone_both_ways() {
    let mut s = Session::open("shop.html").await;
    let add = || {
        vec![Step::new(Action::Click {
            target: target("button", "Add Shirt M"),
        })]
    };
    let o =
        s.v.watch(Some("the cart gains a Shirt M"), add())
            .await
            .expect("nothing thrown");
    assert!(o.ok, "{}", o.explain());
    assert_eq!(o.verdict, Some(Verdict::Match));

    let o =
        s.v.watch(Some("the order is placed"), add())
            .await
            .expect("nothing thrown");
    assert!(!o.ok, "{}", o.explain());
    assert_ne!(o.verdict, Some(Verdict::Match));
    assert_eq!(o.undone, 0, "watch never undoes");

    let o = s.v.watch(None, add()).await.expect("nothing thrown");
    assert_eq!(
        o.verdict,
        Some(Verdict::Ambiguous),
        "without intent the honest verdict is AMBIGUOUS"
    );
    assert!(!o.ok);
    // Nothing was undone: three shirts went in.
    assert_eq!(s.cart().await.len(), 3);

    // Observing someone else act on the page: here, a script of the page's own.
    let w =
        s.v.begin_watch(Some("the cart gains Socks S"))
            .await
            .unwrap();
    s.v.page().evaluate("document.querySelectorAll('button').forEach(b => { if (b.textContent === 'Add Socks S') b.click(); })").await.unwrap();
    let o = s.v.end_watch(w).await.unwrap();
    assert!(o.ok, "{}", o.explain());
    s.close().await;
}

#[tokio::test]
async fn csp_page_still_verifies() {
    let mut s = Session::open("csp.html").await;
    let o =
        s.v.click(target("button", "Add Shirt M"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(cart_lines(&s.snapshot().await).len(), 1);
    s.close().await;
}

#[tokio::test]
async fn spoofing_page_cannot_change_verdicts() {
    let mut s = Session::open("spoof.html").await;
    let o =
        s.v.click(target("button", "Add Shirt M"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    let e =
        s.v.click(target("button", "Add Socks S"), None)
            .await
            .expect_err("it adds Trousers L");
    assert_eq!(e.code(), ErrorCode::VerificationFailed, "{e}");
    let o = e.outcome().unwrap();
    assert_eq!(o.verdict, Some(Verdict::Mismatch));
    assert!(o.reason.contains("Trousers L"), "{}", o.reason);
    assert!(o.undone >= 1);
    let cart = s.cart().await;
    assert!(
        cart.iter().all(|l| !l.contains("Trousers")),
        "undone: {cart:?}"
    );
    s.close().await;
}

#[tokio::test]
async fn password_fill_is_match_and_never_shows_the_password() {
    let secret = "correct-horse-battery-9";
    let dir = tempfile::tempdir().unwrap();
    let opts = Options {
        trace_dir: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    let mut s = Session::open_with("login.html", opts).await;
    let o =
        s.v.fill(target("textbox", "Password"), secret, false, None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(o.value.as_deref(), Some("[redacted]"));
    // The page echoes the password into its title, a hidden span and (after "Show password")
    // visible text: none of it may leak.
    let shown = s.v.check(target("checkbox", "Show password"), None).await;
    let o2 =
        s.v.click(target("button", "Sign in"), Some("welcome back"))
            .await
            .expect("MATCH");
    let snap = s.snapshot().await;
    assert!(
        texts(&snap).iter().any(|t| t.contains("Welcome back")),
        "{:?}",
        texts(&snap)
    );
    let mut everything = format!(
        "{o:?}\n{}\n{o2:?}\n{}\n{:?}\n",
        o.explain(),
        o2.explain(),
        shown
    );
    everything.push_str(&serde_json::to_string(&snap).unwrap());
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        everything.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    assert!(
        std::fs::read_dir(dir.path()).unwrap().count() >= 3,
        "one trace record per action"
    );
    assert!(!everything.contains(secret), "the password leaked");
    assert!(everything.contains("[redacted]"));
    s.close().await;
}

#[tokio::test]
async fn declared_sensitive_values_are_typed_but_never_shown() {
    let mut s = Session::open("shop.html").await;
    let coupon = "SECRET-COUPON-77";
    let o =
        s.v.fill(target("textbox", "Coupon"), coupon, true, None)
            .await
            .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    let field = snap.elements.iter().find(|e| e.name == "Coupon").unwrap();
    assert_eq!(
        field.value.as_deref(),
        Some("[redacted]"),
        "the declared field stays redacted"
    );
    let o2 =
        s.v.click(
            target("button", "Apply coupon"),
            Some("the coupon is applied"),
        )
        .await
        .expect("MATCH");
    let all = format!(
        "{o:?}{}{o2:?}{}{}",
        o.explain(),
        o2.explain(),
        serde_json::to_string(&s.snapshot().await).unwrap()
    );
    assert!(!all.contains(coupon), "{all}");
    s.close().await;
}

#[tokio::test]
async fn ambiguous_policy_accept_lets_an_unexplained_effect_pass() {
    let opts = Options {
        ambiguous: prufe_harness::Ambiguous::Accept,
        ..Options::default()
    };
    let mut s = Session::open_with("confirm-dialog.html", opts).await;
    s.v.click(target("button", "Delete account"), None)
        .await
        .expect("MATCH");
    let o =
        s.v.click(target("button", "Confirm delete"), None)
            .await
            .expect("accepted by policy");
    assert_eq!(o.verdict, Some(Verdict::Ambiguous));
    assert!(o.ok);
    s.close().await;
}

#[tokio::test]
async fn an_ambiguous_target_is_a_typed_error_before_any_input() {
    let mut s = Session::open("hostile/07-same-name-frames.html").await;
    let before = s.snapshot().await;
    // Pick a name that appears in several places, whatever the page.
    let mut seen = std::collections::HashMap::new();
    for e in before
        .elements
        .iter()
        .filter(|e| e.visible && e.role == Role::Button)
    {
        *seen.entry(e.name.clone()).or_insert(0) += 1;
    }
    let Some((name, _)) = seen.into_iter().find(|(_, n)| *n > 1) else {
        panic!("the same-name frames fixture has no repeated button name");
    };
    let e =
        s.v.click(target("button", &name), None)
            .await
            .expect_err("two candidates");
    assert_eq!(e.code(), ErrorCode::TargetAmbiguous, "{e}");
    assert!(e.candidates().len() >= 2);
    let after = s.snapshot().await;
    assert!(prufe::core::diff::diff(&before, &after, &Default::default()).is_empty());
    s.close().await;
}

#[tokio::test]
async fn javascript_dialogs_are_dismissed_and_reported() {
    let mut s = Session::open("hostile/20-native-dialogs.html").await;
    let r =
        s.v.click(target("button", "Delete item"), Some("the item is deleted"))
            .await;
    let o = match &r {
        Ok(o) => o.clone(),
        Err(e) => e
            .outcome()
            .cloned()
            .unwrap_or_else(|| panic!("a typed outcome, not {e}")),
    };
    assert!(
        o.dialogs
            .iter()
            .any(|d| d.contains("Delete item?") && d.contains("dismissed")),
        "{:?}",
        o.dialogs
    );
    assert!(
        texts(&s.snapshot().await).iter().any(|t| t == "Kept"),
        "dismissed confirm keeps the item"
    );
    s.close().await;
}

#[tokio::test]
async fn a_lying_removal_control_is_undo_failed() {
    let mut s = Session::open("hostile/15-lying-remove.html").await;
    let e =
        s.v.click(target("button", "Add Shirt M"), None)
            .await
            .expect_err("undo cannot succeed");
    assert_eq!(e.code(), ErrorCode::UndoFailed, "{e}");
    assert!(e.explain().contains("still there"), "{}", e.explain());
    s.close().await;
}

#[tokio::test]
async fn goto_is_verified_and_undone_by_going_back() {
    let mut s = Session::open("shop.html").await;
    let url = s.url("late-effect.html");
    let o = s.v.goto(&url, None).await;
    // A navigation's verdict comes from the core judge; whatever it is, a failure must have
    // been undone by going back to the shop.
    match o {
        Ok(o) => assert!(o.ok, "{}", o.explain()),
        Err(Error::VerificationFailed(o)) => {
            assert!(o.undone >= 1, "{}", o.explain());
            let snap = s.snapshot().await;
            assert!(
                snap.elements.iter().any(|e| e.name == "Corner Shop"),
                "back on the shop"
            );
        }
        Err(e) => panic!("unexpected {e}"),
    }
    s.close().await;
}

#[tokio::test]
async fn a_row_recycled_by_the_pointer_arriving_is_resolved_again_not_clicked() {
    let mut s = Session::open("hostile/13-recycle-before-dispatch.html?mode=hover").await;
    let o =
        s.v.click(target("button", "Add Shirt M"), None)
            .await
            .expect("re-resolved after the recycle: MATCH");
    assert_match(&o);
    assert_eq!(s.cart().await, ["Shirt M Remove Shirt M"]);
    s.close().await;
}

#[tokio::test]
async fn a_list_recycling_on_a_timer_never_leaves_another_product_in_the_cart() {
    let mut s = Session::open("hostile/13-recycle-before-dispatch.html?mode=timer&ms=120").await;
    let r = s.v.click(target("button", "Add Shirt M"), None).await;
    if let Err(e) = &r {
        assert!(
            matches!(
                e.code(),
                ErrorCode::VerificationFailed
                    | ErrorCode::TargetChanged
                    | ErrorCode::TargetNotStable
            ),
            "{e}"
        );
    }
    let cart = s.cart().await;
    assert!(cart.iter().all(|l| l.starts_with("Shirt M")), "{cart:?}");
    assert!(
        r.is_err() || cart.len() == 1,
        "a MATCH put exactly one shirt in: {cart:?}"
    );
    s.close().await;
}

#[tokio::test]
async fn a_page_that_never_stops_changing_leaves_no_effect_ambiguous_and_a_region_filter_decides_it(
) {
    let quick = prufe_harness::Timing {
        poll_ms: 50,
        quiet_ms: 250,
        timeout_ms: 1500,
        ..Default::default()
    };
    let mut s = Session::open_with(
        "ticker.html",
        Options {
            timing: quick,
            max_attempts: 1,
            ..Options::default()
        },
    )
    .await;
    let e =
        s.v.click(target("button", "Noop"), None)
            .await
            .expect_err("nothing to approve");
    let o = e.outcome().expect("a verdict");
    // The ticker is learnt as background and the page settles over the rest; what the
    // ticker shows is no evidence that the click did nothing.
    assert_eq!(
        o.verdict,
        Some(Verdict::Ambiguous),
        "a page that changes by itself never yields MISMATCH for no effect: {}",
        o.explain()
    );
    // The ticker's rows were learnt as background. Its prices flip between up and down
    // arrows at random: a row showing an arrow it was not seen with before the click is a
    // shape its slot never showed, so a change by rule; then no name explains it, which is
    // AMBIGUOUS too. Either way the reason speaks of the ticker, never of no effect.
    assert!(
        o.background.iter().any(|b| b.contains("ticker")),
        "{:?}",
        o.background
    );
    let why = o.explain();
    assert!(
        why.contains("already changing by itself")
            || (why.contains("no element's name explains the effect")
                && o.diff.lines.iter().all(|l| l.contains("in ticker"))),
        "{why}"
    );
    s.close().await;

    let opts = Options {
        timing: quick,
        max_attempts: 1,
        ignore_regions: vec!["ticker".into()],
        ..Options::default()
    };
    let mut s = Session::open_with("ticker.html", opts).await;
    let o =
        s.v.click(target("button", "Save"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert!(o.stable);
    let e =
        s.v.click(target("button", "Noop"), None)
            .await
            .expect_err("no effect");
    let o = e.outcome().unwrap();
    assert_eq!(o.verdict, Some(Verdict::Mismatch), "{}", o.explain());
    assert!(o.stable && o.lines.is_empty(), "{}", o.explain());
    s.close().await;
}

#[tokio::test]
async fn a_navigation_in_the_middle_of_an_action_is_stale_and_not_replayed() {
    for when in ["pointerdown", "click"] {
        let mut s =
            Session::open(&format!("hostile/16-navigate-mid-action.html?when={when}")).await;
        let e =
            s.v.click(target("button", "Add Shirt M"), None)
                .await
                .expect_err("the document was replaced");
        assert_eq!(e.code(), ErrorCode::StaleObservation, "{when}: {e}");
        assert!(e.outcome().is_none(), "no verdict across two documents");
        let url = s.v.page().url().await.unwrap().unwrap_or_default();
        assert!(
            url.contains("16-navigate-mid-action"),
            "{when}: back on the starting page, not {url}"
        );
        s.close().await;
    }
}

#[tokio::test]
async fn a_browser_killed_mid_drag_is_a_prompt_clean_error() {
    let mut s = Session::open("hostile/19-kill-mid-drag.html?slow=200").await;
    let pid = s.v.browser_pid().expect("launched here");
    let killer = tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(600)).await;
        let _ = tokio::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .await;
    });
    let started = std::time::Instant::now();
    let r =
        s.v.drag(
            target("listitem", "Card A"),
            target("list", "Far away"),
            Vec::new(),
            None,
        )
        .await;
    killer.await.unwrap();
    let e = r.expect_err("the browser is gone");
    assert_eq!(e.code(), ErrorCode::BrowserClosed, "{e}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "no hang: {:?}",
        started.elapsed()
    );
    let _ = s.v.close().await;
}

// --- A page that says it is still working is not settled. ---

#[tokio::test]
async fn a_busy_page_is_judged_on_its_outcome_not_on_its_spinner() {
    let mut s = Session::start(Options::default()).await;
    for (query, outcome) in [
        ("", "Booked"),
        ("?fail=1", "Booking failed"),
        ("?plain=1", "Booked"),
        ("?nobar=1", "Booked"),
    ] {
        s.v.open(&s.url(&format!("actionability/busy.html{query}")))
            .await
            .expect("opens");
        let r = s.v.click(target("button", "Book"), None).await;
        let o = match &r {
            Ok(o) => o.clone(),
            Err(e) => e
                .outcome()
                .cloned()
                .unwrap_or_else(|| panic!("{query}: {e}")),
        };
        assert!(
            o.lines.iter().any(|l| l.contains(outcome)),
            "{query}: judged after the outcome arrived: {}",
            o.explain()
        );
        assert!(
            !o.lines.iter().any(|l| l.contains("progressbar")),
            "{query}: the spinner is gone when judged: {}",
            o.explain()
        );
        assert!(o.stable, "{query}: {}", o.explain());
        assert!(
            o.duration_ms >= 900,
            "{query}: waited for the outcome ({} ms)",
            o.duration_ms
        );
        let want_match = outcome == "Booked";
        assert_eq!(
            o.verdict == Some(Verdict::Match),
            want_match,
            "{query}: judged on the outcome: {}",
            o.explain()
        );
        println!("busy.html{query}: {:?} in {} ms", o.verdict, o.duration_ms);
    }
    s.close().await;
}

#[tokio::test]
async fn a_page_busy_at_the_deadline_is_unstable_and_never_match() {
    let opts = Options {
        timing: prufe_harness::Timing {
            poll_ms: 50,
            quiet_ms: 250,
            timeout_ms: 1500,
            ..Default::default()
        },
        max_attempts: 1,
        ..Options::default()
    };
    let mut s = Session::open_with("actionability/busy.html?never=1", opts).await;
    let e =
        s.v.click(target("button", "Book"), None)
            .await
            .expect_err("a page still working is not approved");
    let o = e.outcome().expect("a verdict");
    assert!(!o.stable, "{}", o.explain());
    assert_ne!(o.verdict, Some(Verdict::Match), "{}", o.explain());
    assert!(
        o.reason.contains("still said it was working"),
        "{}",
        o.explain()
    );
    s.close().await;
}

// --- What the page changes by itself is background. ---

#[tokio::test]
async fn a_ticking_clock_is_background_and_an_honest_click_is_match() {
    let mut s = Session::open("actionability/clock.html").await;
    for _ in 0..2 {
        // The clock ticks by itself after the verifier's last observation.
        let seen = texts(&s.snapshot().await);
        let clock = |t: &Vec<String>| t.iter().find(|t| t.starts_with("Ticks")).cloned();
        let page = s.v.page().clone();
        let shown = || async {
            page.evaluate("document.getElementById('clock').textContent")
                .await
                .unwrap()
                .into_value::<String>()
                .ok()
        };
        for _ in 0..100 {
            if shown().await != clock(&seen) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_ne!(shown().await, clock(&seen), "the clock ticks");
        let o =
            s.v.click(target("button", "Save"), None)
                .await
                .expect("MATCH");
        assert_match(&o);
        assert!(
            o.background.iter().any(|b| b == "text in banner"),
            "the clock was seen changing by itself: {:?}",
            o.background
        );
        assert!(
            !o.background.iter().any(|b| b.contains("main")),
            "the action's region is not background: {:?}",
            o.background
        );
    }
    // A still page learns nothing and costs no snapshot while settling.
    let mut s2 = Session::open("shop.html").await;
    let o =
        s2.v.click(target("button", "Add Shirt M"), None)
            .await
            .expect("MATCH");
    assert!(o.background.is_empty(), "{:?}", o.background);
    s2.close().await;
    s.close().await;
}

// --- Following a link or submitting a form loads a new document. ---

#[tokio::test]
async fn following_a_link_or_a_get_form_is_judged_on_the_new_document() {
    let mut s = Session::open("nav/site.html").await;
    let url = |s: &Session| {
        let page = s.v.page().clone();
        async move { page.url().await.unwrap().unwrap_or_default() }
    };

    let o =
        s.v.click(target("link", "Pricing"), None)
            .await
            .unwrap_or_else(|e| panic!("{e}\n{}", e.explain()));
    assert_match(&o);
    assert!(o.reason.contains("the link's address"), "{}", o.explain());
    assert!(
        url(&s).await.ends_with("/nav/pricing.html"),
        "stayed on the new page"
    );
    assert!(texts(&s.snapshot().await)
        .iter()
        .any(|t| t.contains("Basic plan")));

    s.v.open(&s.url("nav/site.html")).await.unwrap();
    s.v.fill(target("textbox", "Query"), "shoes", false, None)
        .await
        .expect("fill");
    let o =
        s.v.click(target("button", "Search"), None)
            .await
            .unwrap_or_else(|e| panic!("{e}\n{}", e.explain()));
    assert_match(&o);
    assert!(o.reason.contains("the form's action"), "{}", o.explain());
    assert!(url(&s).await.ends_with("/nav/results.html?q=shoes"));

    // Enter in the field submits the form: the same address.
    s.v.open(&s.url("nav/site.html")).await.unwrap();
    s.v.fill(target("textbox", "Query"), "hats", false, None)
        .await
        .expect("fill");
    let o =
        s.v.press("Enter", Some(target("textbox", "Query")), None)
            .await
            .unwrap_or_else(|e| panic!("{e}\n{}", e.explain()));
    assert_match(&o);
    assert!(url(&s).await.ends_with("/nav/results.html?q=hats"));
    assert!(texts(&s.snapshot().await)
        .iter()
        .any(|t| t == "Results for hats"));

    // A button that loads a page has no address to compare: a declared intent decides.
    s.v.open(&s.url("nav/site.html")).await.unwrap();
    let o =
        s.v.click(
            target("button", "Open pricing"),
            Some("the basic plan is shown"),
        )
        .await
        .unwrap_or_else(|e| panic!("{e}\n{}", e.explain()));
    assert_match(&o);
    assert!(o.reason.contains("supports the intent"), "{}", o.explain());
    assert!(url(&s).await.ends_with("/nav/pricing.html"));
    s.close().await;
}

#[tokio::test]
async fn a_link_whose_handler_sends_elsewhere_is_a_typed_error_and_goes_back() {
    let mut s = Session::open("nav/site.html").await;
    let e =
        s.v.click(target("link", "Plans"), None)
            .await
            .expect_err("not the link's address");
    assert_eq!(e.code(), ErrorCode::StaleObservation, "{e}");
    let m = e.to_string();
    assert!(
        m.contains("elsewhere.html") && m.contains("pricing.html"),
        "names both addresses: {m}"
    );
    let now = s.v.page().url().await.unwrap().unwrap_or_default();
    assert!(
        now.ends_with("/nav/site.html"),
        "back where it started: {now}"
    );
    // With an intent the new page does not support, it stays an error.
    let e =
        s.v.click(target("link", "Plans"), Some("the pricing table opens"))
            .await
            .expect_err("the intent is not supported");
    assert_eq!(e.code(), ErrorCode::StaleObservation, "{e}");
    s.close().await;
}

/// Options with the shorter quiet window of 50 ms, whatever the default.
fn quick() -> Options {
    Options {
        timing: prufe_harness::Timing {
            quick_ms: 50,
            ..Default::default()
        },
        ..Options::default()
    }
}

#[tokio::test]
async fn a_tab_and_a_reorder_settle_on_the_shorter_window() {
    // The focus moves and nothing else: the fingerprint's claims see it, so the settle after
    // the key ends on the shorter window instead of looking after a full one.
    let mut s = Session::open_with("real/keys-widgets.html?lang=en", quick()).await;
    let o =
        s.v.press("Tab", Some(target("textbox", "First name")), None)
            .await
            .unwrap_or_else(|e| panic!("{e}\n{}", e.explain()));
    assert_match(&o);
    assert!(o.stable, "{}", o.explain());
    assert_eq!(s.v.quick_settles(), 1, "{}", o.explain());
    let focused = s.snapshot().await;
    let on = focused
        .elements
        .iter()
        .find(|e| e.focused)
        .expect("a focus");
    assert_eq!(on.name, "Last name");
    s.close().await;

    // A drop that only reorders the list: the same.
    let mut s = Session::open_with("real/order.html?kind=html5&lang=en", quick()).await;
    let o =
        s.v.drag(
            target("listitem", "Task C"),
            target("listitem", "Task A"),
            Vec::new(),
            None,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}\n{}", e.explain()));
    assert_match(&o);
    assert_eq!(s.v.quick_settles(), 1, "{}", o.explain());
    let order: Vec<String> = s
        .snapshot()
        .await
        .elements
        .iter()
        .filter(|e| e.role == Role::Listitem && e.label().starts_with("Task"))
        .map(|e| e.label().to_owned())
        .collect();
    assert_eq!(order[..3], ["Task C", "Task A", "Task B"]);
    s.close().await;
}

#[tokio::test]
async fn a_click_whose_effect_comes_from_a_timer_it_set_settles_after_the_timer() {
    // Archive shows "Archiving" at once and "Archived" from a timer 150 ms later: the page's
    // work watch (js/src/work.js) tells the engine the timer is still to run, so the shorter
    // window does not end on the first change.
    let mut s = Session::open_with("slow-save.html", quick()).await;
    let o =
        s.v.click(target("button", "Archive"), Some("archive the order"))
            .await
            .unwrap_or_else(|e| panic!("{e}\n{}", e.explain()));
    assert_match(&o);
    assert!(
        o.lines
            .iter()
            .any(|l| l == "appeared text 'Archived' in main"),
        "{}",
        o.explain()
    );
    assert!(
        !o.lines.iter().any(|l| l.contains("Archiving")),
        "{}",
        o.explain()
    );
    s.close().await;
}

/// The order of the speakers on `reorder-refused.html`.
async fn speakers(s: &mut Session) -> Vec<String> {
    s.snapshot()
        .await
        .elements
        .iter()
        .filter(|e| e.role == Role::Listitem)
        .map(|e| e.label().to_owned())
        .collect()
}

/// A reorder and nothing else, which the intent does not explain, taken back by the
/// declared key Alt+ArrowDown: the drop and the key move the order alone, which the
/// settles count (the fingerprint's claims), so each ends on quiet once the row has moved,
/// not at the deadline; the undo's check sees the order restored, and the step is undone
/// twice.
#[tokio::test]
async fn a_reorder_taken_back_by_a_declared_key_is_seen_at_once() {
    let mut s = Session::open("reorder-refused.html").await;
    let back = Step::new(Action::Press {
        key: "Alt+ArrowDown".into(),
        target: Some(target("listitem", "Olwen")),
    });
    let e =
        s.v.drag(
            target("listitem", "Olwen"),
            target("listitem", "Carys"),
            vec![back],
            Some("the order is saved"),
        )
        .await
        .expect_err("the reorder explains nothing of the intent");
    let Error::VerificationFailed(o) = &e else {
        panic!("unexpected {e}");
    };
    assert!(
        o.lines.is_empty(),
        "the order alone changed: {}",
        o.explain()
    );
    assert!(o.reason.contains("from position 4 to 3"), "{}", o.explain());
    assert_eq!((o.attempts, o.undone), (2, 2), "{}", o.explain());
    assert!(o.residue.is_empty(), "{}", o.explain());
    assert_eq!(
        s.v.unmoved_settles(),
        0,
        "every settle from a fingerprint saw the page leave it: {}",
        o.explain()
    );
    assert_eq!(
        speakers(&mut s).await,
        ["Aled", "Bryn", "Carys", "Olwen", "Rhys"]
    );
    s.close().await;
}

/// The same reorder with no inverse declared: nothing generic puts a list back in order,
/// so the run stops naming the reorder, and the page is left as the drop left it.
#[tokio::test]
async fn a_reorder_without_a_declared_inverse_stops_naming_it() {
    let mut s = Session::open("reorder-refused.html").await;
    let e =
        s.v.drag(
            target("listitem", "Olwen"),
            target("listitem", "Carys"),
            Vec::new(),
            Some("the order is saved"),
        )
        .await
        .expect_err("the reorder explains nothing of the intent");
    let Error::IrreversibleAction { outcome, .. } = &e else {
        panic!("unexpected {e}");
    };
    assert_eq!((outcome.attempts, outcome.undone), (1, 0));
    let message = &outcome.error.as_ref().expect("an error").message;
    assert!(
        message.contains("listitem[Olwen] went from position 4 to 3 in main/list:speakers"),
        "{message}"
    );
    assert_eq!(
        speakers(&mut s).await,
        ["Aled", "Bryn", "Olwen", "Carys", "Rhys"]
    );
    s.close().await;
}

/// A row moved from the keyboard (Alt+ArrowUp, Alt+ArrowDown on the focused row), which
/// changes the order and nothing else: the move the arrow points is the key's effect, with
/// or without an intent that names the row and the way; the other way, refused and taken
/// back by its declared inverse.
#[tokio::test]
async fn a_row_moved_from_the_keyboard_is_the_key_s_effect() {
    let mut s = Session::open("reorder-refused.html").await;
    let key = |k: &str| Action::Press {
        key: k.into(),
        target: Some(target("listitem", "Olwen")),
    };
    let up =
        s.v.perform(&Step::new(key("Alt+ArrowUp")))
            .await
            .expect("a move up one place");
    assert!(
        up.reason
            .contains("moved listitem[Olwen] from position 4 to 3"),
        "{}",
        up.explain()
    );
    let down =
        s.v.perform(&Step::new(key("Alt+ArrowDown")).with_intent("Olwen moves down one place"))
            .await
            .expect("a move down one place, as the intent says");
    assert!(
        down.reason.contains("as the intent says"),
        "{}",
        down.explain()
    );
    assert_eq!(
        speakers(&mut s).await,
        ["Aled", "Bryn", "Carys", "Olwen", "Rhys"]
    );
    // The intent says up, the key moves the row down: refused and taken back.
    let e =
        s.v.perform(
            &Step::new(key("Alt+ArrowDown"))
                .with_intent("Olwen moves up one place")
                .with_inverse(vec![Step::new(key("Alt+ArrowUp"))]),
        )
        .await
        .expect_err("the other way from the intent");
    let Error::VerificationFailed(o) = &e else {
        panic!("unexpected {e}");
    };
    assert!(o.undone >= 1, "{}", o.explain());
    assert_eq!(
        speakers(&mut s).await,
        ["Aled", "Bryn", "Carys", "Olwen", "Rhys"]
    );
    s.close().await;
}
