//! The verification loop on pages built the way real sites are built: the fixture apps of
//! `fixtures/apps` (React with a keyed cart, a react-window list that reuses its rows, Vue,
//! Radix UI widgets with a react-day-picker calendar), bundled by `make apps`. Honest actions
//! must be MATCH; every fault a page injects (`?fault=…`) must be caught: MISMATCH and undone
//! where an honest inverse exists, else refused.

mod common;

use common::{target, texts, Session};
use prufe::core::error::ErrorCode;
use prufe::core::model::{Element, Role, Snapshot, Tristate};
use prufe_harness::{Error, Outcome, Verdict};

/// Fails (does not skip) when the apps have not been bundled.
fn require_apps() {
    let dist = common::fixtures().join("apps/dist");
    for page in ["react-shop", "react-virtual", "vue-todo", "widgets"] {
        let bundle = dist.join(format!("{page}.js"));
        assert!(
            bundle.is_file(),
            "the fixture app bundle {} is missing: run `make apps` first",
            bundle.display()
        );
    }
}

async fn open(page: &str) -> Session {
    require_apps();
    Session::open(&format!("apps/{page}")).await
}

fn assert_match(o: &Outcome) {
    assert_eq!(o.verdict, Some(Verdict::Match), "{}", o.explain());
    assert!(o.ok, "{}", o.explain());
    assert_eq!(o.attempts, 1, "{}", o.explain());
    assert_eq!(o.undone, 0, "{}", o.explain());
}

/// A wrong effect that was refused with a typed error: a failed verification, an irreversible
/// action or a failed undo (the run stops and says what is left), never approved. Returns its
/// outcome.
fn assert_refused(r: Result<Outcome, Error>) -> Outcome {
    let e = match r {
        Ok(o) => panic!("a wrong effect was approved: {}", o.explain()),
        Err(e) => e,
    };
    assert!(
        matches!(
            e.code(),
            ErrorCode::VerificationFailed | ErrorCode::IrreversibleAction | ErrorCode::UndoFailed
        ),
        "{e}\n{}",
        e.explain()
    );
    let o = e.outcome().expect("a refused effect carries its outcome");
    assert!(!o.ok, "{}", o.explain());
    assert_ne!(o.verdict, Some(Verdict::Match), "{}", o.explain());
    o.clone()
}

/// A wrong effect proven by the diff and undone: MISMATCH, at least one undo.
fn assert_mismatch_undone(r: Result<Outcome, Error>) -> Outcome {
    if let Err(e) = &r {
        assert_ne!(
            e.code(),
            ErrorCode::UndoFailed,
            "an honest inverse exists but the wrong effect was not undone: {e}"
        );
    }
    let o = assert_refused(r);
    assert_eq!(o.verdict, Some(Verdict::Mismatch), "{}", o.explain());
    assert!(o.undone >= 1, "nothing was undone: {}", o.explain());
    o
}

fn find<'a>(s: &'a Snapshot, role: Role, name: &str) -> Option<&'a Element> {
    s.elements.iter().find(|e| e.role == role && e.name == name)
}

fn has_text(s: &Snapshot, text: &str) -> bool {
    s.texts.iter().any(|t| t.text == text)
}

/// The products in the cart: the label of each cart line up to its first digit or "Remove"
/// (React renders `Shirt M`, the quantity and `Remove Shirt M` side by side, no spaces).
fn cart_products(s: &Snapshot) -> Vec<String> {
    common::cart_lines(s)
        .iter()
        .map(|l| {
            // "Black Belt 3XL 1 Remove Black Belt 3XL": the product, less its quantity.
            let end = l
                .find("Remove")
                .into_iter()
                .chain(l.find(" × "))
                .min()
                .unwrap_or(l.len());
            let head = l[..end].trim();
            match head.rsplit_once(' ') {
                Some((product, n)) if n.chars().all(|c| c.is_ascii_digit()) => product.to_owned(),
                _ => head.to_owned(),
            }
        })
        .collect()
}

async fn cart(s: &mut Session) -> Vec<String> {
    cart_products(&s.snapshot().await)
}

fn value_of(s: &Snapshot, role: Role, name: &str) -> Option<String> {
    find(s, role, name).and_then(|e| e.value.clone())
}

// --- React shop -------------------------------------------------------------------------

#[tokio::test]
async fn react_shop_add_quantity_and_remove_are_match() {
    let mut s = open("react-shop.html").await;
    let o =
        s.v.click(target("button", "Add Shirt M"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(cart(&mut s).await, ["Shirt M"]);
    let o =
        s.v.click(target("button", "Add Socks S"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(cart(&mut s).await, ["Shirt M", "Socks S"]);

    let o =
        s.v.fill(target("spinbutton", "Quantity Shirt M"), "3", false, None)
            .await
            .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    assert_eq!(
        value_of(&snap, Role::Spinbutton, "Quantity Shirt M").as_deref(),
        Some("3")
    );
    assert!(has_text(&snap, "Total: 65.60 €"), "{:?}", texts(&snap));

    let o =
        s.v.click(target("button", "Remove Shirt M"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(cart(&mut s).await, ["Socks S"]);
    s.close().await;
}

#[tokio::test]
async fn react_shop_wrong_row_is_a_mismatch_naming_the_neighbour_and_is_undone() {
    let mut s = open("react-shop.html?fault=wrong-row").await;
    let o = assert_mismatch_undone(s.v.click(target("button", "Add Shirt M"), None).await);
    assert!(
        o.reason.contains("Trousers L"),
        "the neighbour is named: {}",
        o.explain()
    );
    assert!(
        cart(&mut s).await.is_empty(),
        "the wrong product was taken out again"
    );
    s.close().await;
}

#[tokio::test]
async fn react_shop_swallowed_add_is_a_mismatch_with_nothing_to_undo() {
    let mut s = open("react-shop.html?fault=swallow").await;
    let o = assert_refused(s.v.click(target("button", "Add Shirt M"), None).await);
    assert_eq!(o.verdict, Some(Verdict::Mismatch), "{}", o.explain());
    assert_eq!(o.undone, 0, "{}", o.explain());
    assert!(cart(&mut s).await.is_empty());
    s.close().await;
}

#[tokio::test]
async fn react_shop_quantity_written_to_another_line_is_caught_and_undone() {
    let mut s = open("react-shop.html?fault=qty-other").await;
    for add in ["Add Shirt M", "Add Trousers L"] {
        let o = s.v.click(target("button", add), None).await.expect("MATCH");
        assert_match(&o);
    }
    let o = assert_mismatch_undone(
        s.v.fill(
            target("spinbutton", "Quantity Trousers L"),
            "4",
            false,
            None,
        )
        .await,
    );
    assert!(o.reason.contains("Shirt M"), "{}", o.explain());
    let snap = s.snapshot().await;
    assert_eq!(
        value_of(&snap, Role::Spinbutton, "Quantity Shirt M").as_deref(),
        Some("1"),
        "Shirt M's quantity is back"
    );
    s.close().await;
}

// --- Virtualised list (react-window, rows reused by slot) --------------------------------

/// The name of product `i` (0-based) of the virtualised list, as `react-virtual.jsx` builds it.
fn product(i: usize) -> String {
    const COLOURS: [&str; 10] = [
        "Red", "Blue", "Green", "Black", "White", "Grey", "Navy", "Olive", "Sand", "Plum",
    ];
    const ITEMS: [&str; 5] = ["Shirt", "Scarf", "Hat", "Belt", "Glove"];
    const SIZES: [&str; 10] = ["S", "M", "L", "XL", "XXL", "XS", "3XL", "4XL", "5XL", "6XL"];
    format!(
        "{} {} {}",
        COLOURS[i % 10],
        ITEMS[(i / 10) % 5],
        SIZES[i / 50]
    )
}

/// Scrolls the product list to row `row` the way a wheel does (the list's own scroll
/// offset), then waits until the list has rendered that row, as a person who scrolled sees
/// it before clicking: React renders a scroll in a later task, which a busy machine may
/// delay past a quiet window.
async fn scroll_list_to(s: &mut Session, row: usize) {
    let name = product(row);
    s.v.page()
        .evaluate(format!(
            "new Promise((done, fail) => {{
                document.getElementById('products').scrollTop = {top};
                const t0 = performance.now();
                const look = () => [...document.querySelectorAll('#products button')]
                    .some((b) => b.textContent.trim() === 'Add {name}')
                    ? done(true)
                    : performance.now() - t0 > 10000 ? fail(new Error('row {row} never rendered'))
                    : setTimeout(look, 20);
                look();
            }})",
            top = row * 40
        ))
        .await
        .expect("scrolled and rendered");
}

#[tokio::test]
async fn virtualised_list_add_after_scrolling_is_match() {
    let mut s = open("react-virtual.html").await;
    let far = product(200);
    assert_eq!(far, "Red Shirt XXL");
    // Not rendered before the list scrolls there: nothing is clicked blind.
    let e =
        s.v.click(target("button", &format!("Add {far}")), None)
            .await
            .expect_err("row 200 is not mounted");
    assert_eq!(e.code(), ErrorCode::TargetNotFound, "{e}");
    assert!(cart(&mut s).await.is_empty());

    scroll_list_to(&mut s, 200).await;
    let o =
        s.v.click(target("button", &format!("Add {far}")), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(cart(&mut s).await, std::slice::from_ref(&far));

    let further = product(333);
    scroll_list_to(&mut s, 330).await;
    let o =
        s.v.click(target("button", &format!("Add {further}")), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(cart(&mut s).await, [far, further]);
    s.close().await;
}

#[tokio::test]
async fn virtualised_list_recycled_row_adding_its_old_product_is_a_mismatch_and_undone() {
    let mut s = open("react-virtual.html?fault=recycle").await;
    // Row 200 is shown by slot 200 % 16 = 8, which first showed row 8.
    let (shown, stale) = (product(200), product(8));
    scroll_list_to(&mut s, 200).await;
    let o = assert_mismatch_undone(
        s.v.click(target("button", &format!("Add {shown}")), None)
            .await,
    );
    assert!(o.reason.contains(&stale), "{}", o.explain());
    assert!(
        cart(&mut s).await.is_empty(),
        "the stale product was taken out again"
    );
    s.close().await;
}

#[tokio::test]
async fn virtualised_list_restored_scroll_position_then_add_is_match() {
    // `?at=200` scrolls just after the first render: every row on screen is a reused one.
    let mut s = open("react-virtual.html?at=200").await;
    let o =
        s.v.click(target("button", &format!("Add {}", product(201))), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(cart(&mut s).await, [product(201)]);
    s.close().await;
}

// --- Vue tasks ---------------------------------------------------------------------------

fn done(s: &Snapshot, task: &str) -> Option<Tristate> {
    find(s, Role::Checkbox, task).and_then(|e| e.checked)
}

fn tasks(s: &Snapshot) -> Vec<String> {
    s.elements
        .iter()
        .filter(|e| e.role == Role::Checkbox && e.region == "main/list:todos")
        .map(|e| e.name.clone())
        .collect()
}

#[tokio::test]
async fn vue_add_toggle_edit_and_remove_are_match() {
    let mut s = open("vue-todo.html").await;
    let o =
        s.v.fill(target("textbox", "New task"), "Order labels", false, None)
            .await
            .expect("MATCH");
    assert_match(&o);
    let o =
        s.v.click(
            target("button", "Add task"),
            Some("the task Order labels is added"),
        )
        .await
        .expect("MATCH");
    assert_match(&o);
    assert_eq!(
        tasks(&s.snapshot().await),
        [
            "Write invoice",
            "Call supplier",
            "Pack order",
            "Order labels"
        ]
    );

    let o =
        s.v.check(target("checkbox", "Write invoice"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    assert_eq!(done(&snap, "Write invoice"), Some(Tristate::True));
    assert!(has_text(&snap, "3 open"), "{:?}", texts(&snap));

    let o =
        s.v.click(target("button", "Edit Call supplier"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    let o =
        s.v.fill(
            target("textbox", "Title of Call supplier"),
            "Call the supplier",
            false,
            None,
        )
        .await
        .expect("MATCH");
    assert_match(&o);
    let o =
        s.v.click(
            target("button", "Save"),
            Some("the task is renamed Call the supplier"),
        )
        .await
        .expect("MATCH");
    assert_match(&o);
    assert_eq!(
        tasks(&s.snapshot().await),
        [
            "Write invoice",
            "Call the supplier",
            "Pack order",
            "Order labels"
        ]
    );

    let o =
        s.v.click(target("button", "Remove Pack order"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    assert_eq!(
        tasks(&s.snapshot().await),
        ["Write invoice", "Call the supplier", "Order labels"]
    );
    s.close().await;
}

#[tokio::test]
async fn vue_swallowed_add_is_refused() {
    let mut s = open("vue-todo.html?fault=swallow").await;
    s.v.fill(target("textbox", "New task"), "Order labels", false, None)
        .await
        .expect("MATCH");
    assert_refused(
        s.v.click(
            target("button", "Add task"),
            Some("the task Order labels is added"),
        )
        .await,
    );
    assert_eq!(tasks(&s.snapshot().await).len(), 3, "nothing was added");
    s.close().await;
}

#[tokio::test]
async fn vue_check_that_ticks_the_row_below_is_refused_and_stops() {
    // Every control of a row acts on the row below, its own checkbox too: nothing on the
    // page can untick the neighbour, so the run stops and says what is left.
    let mut s = open("vue-todo.html?fault=wrong-row").await;
    let r = s.v.check(target("checkbox", "Write invoice"), None).await;
    let (code, said) = match &r {
        Err(e) => (Some(e.code()), e.to_string()),
        Ok(_) => (None, String::new()),
    };
    let o = assert_refused(r);
    assert_eq!(code, Some(ErrorCode::UndoFailed), "{}", o.explain());
    assert_eq!(o.verdict, Some(Verdict::Mismatch), "{}", o.explain());
    assert!(o.reason.contains("Call supplier"), "{}", o.explain());
    assert!(
        said.contains("still there: changed checkbox[Call supplier]"),
        "{said}"
    );
    assert_eq!(
        done(&s.snapshot().await, "Write invoice"),
        Some(Tristate::False)
    );
    s.close().await;
}

#[tokio::test]
async fn vue_remove_that_removes_the_row_below_is_refused() {
    let mut s = open("vue-todo.html?fault=wrong-row").await;
    let o = assert_refused(
        s.v.click(target("button", "Remove Write invoice"), None)
            .await,
    );
    // Refused (AMBIGUOUS: the row that went took its own Remove button with it, so no name
    // on the page is left to attribute it to), with the message that names the row.
    assert!(o.reason.contains("Call supplier"), "{}", o.explain());
    assert_eq!(
        tasks(&s.snapshot().await),
        ["Write invoice", "Pack order"],
        "nothing honest undoes a removal; nothing else was touched"
    );
    s.close().await;
}

#[tokio::test]
async fn vue_edit_that_keeps_the_old_title_is_refused() {
    let mut s = open("vue-todo.html?fault=stale-edit").await;
    s.v.click(target("button", "Edit Call supplier"), None)
        .await
        .expect("MATCH");
    s.v.fill(
        target("textbox", "Title of Call supplier"),
        "Call the supplier",
        false,
        None,
    )
    .await
    .expect("MATCH");
    let o = assert_refused(
        s.v.click(
            target("button", "Save"),
            Some("the task is renamed Call the supplier"),
        )
        .await,
    );
    let left = tasks(&s.snapshot().await);
    assert!(
        left.contains(&"Call supplier".to_owned()),
        "{left:?} {}",
        o.explain()
    );
    s.close().await;
}

// --- Radix UI widgets and react-day-picker ------------------------------------------------

#[tokio::test]
async fn widgets_dialog_open_then_cancel_with_intent_is_match() {
    let mut s = open("widgets.html").await;
    let o =
        s.v.click(target("button", "Delete order"), None)
            .await
            .expect("opening is MATCH");
    assert_match(&o);
    assert!(find(&s.snapshot().await, Role::Dialog, "Delete order?").is_some());
    let o =
        s.v.click(
            target("button", "Cancel"),
            Some("the dialog closes and the order is kept"),
        )
        .await
        .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    assert!(find(&snap, Role::Dialog, "Delete order?").is_none());
    assert!(has_text(&snap, "Status: Open"), "{:?}", texts(&snap));
    s.close().await;
}

#[tokio::test]
async fn widgets_dialog_confirm_with_intent_is_match() {
    let mut s = open("widgets.html").await;
    s.v.click(target("button", "Delete order"), None)
        .await
        .expect("opening is MATCH");
    let o =
        s.v.click(target("button", "Delete"), Some("the order is deleted"))
            .await
            .expect("MATCH");
    assert_match(&o);
    assert!(has_text(&s.snapshot().await, "Order 1042 deleted"));
    s.close().await;
}

#[tokio::test]
async fn widgets_cancel_that_deletes_is_refused() {
    let mut s = open("widgets.html?fault=cancel-deletes").await;
    s.v.click(target("button", "Delete order"), None)
        .await
        .expect("opening is MATCH");
    assert_refused(
        s.v.click(
            target("button", "Cancel"),
            Some("the dialog closes and the order is kept"),
        )
        .await,
    );
    assert!(
        has_text(&s.snapshot().await, "Order 1042 deleted"),
        "the fault did delete it"
    );
    s.close().await;
}

#[tokio::test]
async fn widgets_menu_open_and_pick_are_match() {
    let mut s = open("widgets.html").await;
    let o =
        s.v.click(target("button", "Actions"), None)
            .await
            .expect("opening is MATCH");
    assert_match(&o);
    assert!(find(&s.snapshot().await, Role::Menuitem, "Archive").is_some());
    let o =
        s.v.click(target("menuitem", "Archive"), Some("the order is archived"))
            .await
            .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    assert!(has_text(&snap, "Status: Archived"), "{:?}", texts(&snap));
    assert!(
        find(&snap, Role::Menuitem, "Archive").is_none(),
        "menu closed"
    );
    s.close().await;
}

#[tokio::test]
async fn widgets_menu_item_doing_another_thing_is_refused() {
    let mut s = open("widgets.html?fault=menu-wrong").await;
    s.v.click(target("button", "Actions"), None)
        .await
        .expect("opening is MATCH");
    assert_refused(
        s.v.click(target("menuitem", "Archive"), Some("the order is archived"))
            .await,
    );
    assert!(has_text(&s.snapshot().await, "Status: Paid"));
    s.close().await;
}

#[tokio::test]
async fn widgets_select_open_and_pick_an_option_are_match() {
    let mut s = open("widgets.html").await;
    let o =
        s.v.click(target("combobox", "Shipping"), None)
            .await
            .expect("opening is MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    assert_eq!(
        find(&snap, Role::Option, "Express").and_then(|e| e.selected),
        Some(false)
    );
    let o =
        s.v.click(target("option", "Express"), None)
            .await
            .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    assert!(has_text(&snap, "Shipping: Express"), "{:?}", texts(&snap));
    assert!(
        find(&snap, Role::Option, "Express").is_none(),
        "listbox closed"
    );
    s.close().await;
}

#[tokio::test]
async fn widgets_select_choosing_another_option_is_refused() {
    let mut s = open("widgets.html?fault=select-wrong").await;
    s.v.click(target("combobox", "Shipping"), None)
        .await
        .expect("opening is MATCH");
    let o = assert_refused(s.v.click(target("option", "Express"), None).await);
    let snap = s.snapshot().await;
    assert!(
        has_text(&snap, "Shipping: Pickup"),
        "the fault chose Pickup and nothing honest undoes it: {:?}\n{}",
        texts(&snap),
        o.explain()
    );
    s.close().await;
}

#[tokio::test]
async fn widgets_save_with_a_busy_then_done_toast_is_match() {
    let mut s = open("widgets.html").await;
    let o =
        s.v.click(target("button", "Save draft"), Some("the draft is saved"))
            .await
            .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    assert!(has_text(&snap, "Drafts saved: 1"), "{:?}", texts(&snap));
    assert!(
        snap.elements
            .iter()
            .any(|e| e.label().contains("Draft saved"))
            || has_text(&snap, "Draft saved"),
        "the toast says so: {:?}",
        texts(&snap)
    );
    s.close().await;
}

#[tokio::test]
async fn widgets_swallowed_save_is_refused() {
    let mut s = open("widgets.html?fault=swallow").await;
    let o = assert_refused(
        s.v.click(target("button", "Save draft"), Some("the draft is saved"))
            .await,
    );
    assert_eq!(o.undone, 0, "{}", o.explain());
    assert!(has_text(&s.snapshot().await, "Drafts saved: 0"));
    s.close().await;
}

const DAY: &str = "Saturday, December 12th, 2026";

#[tokio::test]
async fn widgets_date_picker_open_and_pick_are_match() {
    let mut s = open("widgets.html").await;
    let o =
        s.v.click(target("button", "Delivery date"), None)
            .await
            .expect("opening is MATCH");
    assert_match(&o);
    assert!(find(&s.snapshot().await, Role::Grid, "December 2026").is_some());
    let o =
        s.v.click(
            target("button", DAY),
            Some("the delivery date is Saturday 12 December 2026"),
        )
        .await
        .expect("MATCH");
    assert_match(&o);
    let snap = s.snapshot().await;
    assert!(
        has_text(&snap, "Delivery: Saturday, 12 December 2026"),
        "{:?}",
        texts(&snap)
    );
    s.close().await;
}

#[tokio::test]
async fn widgets_date_picker_storing_the_next_day_is_refused() {
    let mut s = open("widgets.html?fault=date-off").await;
    s.v.click(target("button", "Delivery date"), None)
        .await
        .expect("opening is MATCH");
    assert_refused(
        s.v.click(
            target("button", DAY),
            Some("the delivery date is Saturday 12 December 2026"),
        )
        .await,
    );
    assert!(has_text(
        &s.snapshot().await,
        "Delivery: Sunday, 13 December 2026"
    ));
    s.close().await;
}
