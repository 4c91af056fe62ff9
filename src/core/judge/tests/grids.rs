use super::*;

/// A table pagination's range ("1–5 of 12") and a calendar's month ("December 2026") are
/// positions its next button steps one at a time.
#[test]
fn a_range_and_a_month_step_one_page() {
    const GRID: &str = "main/list:Customers";
    let pager = |range: &str| Snapshot {
        elements: vec![el("next", Role::Button, "Go to next page", "main")],
        texts: vec![text(&format!("{range} of 12"), "main")],
        ..Default::default()
    };
    let calendar = |month: &str| Snapshot {
        elements: vec![
            el(
                "nm",
                Role::Button,
                "Go to the Next Month",
                "navigation[Navigation bar]",
            ),
            el("g", Role::Grid, month, GRID),
        ],
        texts: vec![text(month, "main")],
        ..Default::default()
    };
    let next = act(ActionKind::Click, Some(find(&pager("1–5"), "next")));
    let month = act(
        ActionKind::Click,
        Some(find(&calendar("December 2026"), "nm")),
    );

    #[rustfmt::skip]
    run(vec![
        case("the next range", next.clone(), pager("1–5"), pager("6–10")).want(M, Some("Go to next page"), "one step forward"),
        case("the last range, shorter", next.clone(), pager("6–10"), pager("11–12")).want(M, Some("Go to next page"), "one step forward"),
        case("two ranges on", next.clone(), pager("1–5"), pager("11–12")).want(X, Some("Go to next page"), "from 1 to 3"),
        case("the next month, a new year", month.clone(), calendar("December 2026"), calendar("January 2027")).want(M, Some("Go to the Next Month"), "one step forward"),
        case("the next month in the year", month.clone(), calendar("March 2026"), calendar("April 2026")).want(M, Some("Go to the Next Month"), "one step forward"),
        case("two months on", month, calendar("December 2026"), calendar("February 2027")).want(X, Some("Go to the Next Month"), "went from"),
    ]);
}

/// MUI X names a row's checkbox for what its next press does ("Select row" → "Unselect
/// row"), and the row by that name first: the box in the target's place that took the
/// state under its new name is the target, its renamed row still its own.
#[test]
fn a_box_renamed_for_its_next_press_is_the_target() {
    const GRID: &str = "main/list:Customers";
    let row = |r: &str, who: &str, ticked: bool| {
        let label = if ticked { "Unselect row" } else { "Select row" };
        let mut b = el(&format!("c{r}"), Role::Checkbox, label, GRID);
        b.checked = Some(Tristate::from(ticked));
        if !ticked {
            b.within = Some(format!("row[{who}]"));
        }
        let mut line = el(
            &format!("r{r}{ticked}"),
            Role::Row,
            &format!("{label} {who}"),
            GRID,
        );
        line.selected = Some(ticked);
        [
            line,
            Element {
                reference: format!("c{r}{ticked}"),
                ..b
            },
        ]
    };
    let grid = |ana: bool, chen: bool| {
        let mut all = el("h", Role::Checkbox, "Select all rows", GRID);
        all.checked = Some(if ana || chen {
            Tristate::Mixed
        } else {
            Tristate::False
        });
        let mut elements = vec![all];
        elements.extend(row("1", "Ana Lopez Berlin 3", ana));
        elements.extend(row("2", "Chen Wei Vienna 13", chen));
        Snapshot {
            elements,
            ..Default::default()
        }
    };
    let tick = act(
        ActionKind::Check,
        Some(find(&grid(false, false), "c2false")),
    );

    #[rustfmt::skip]
    run(vec![
        case("its own box", tick.clone(), grid(false, false), grid(false, true)).want(M, Some("Select row"), "renamed for its next press"),
        case("its own box, with its intent", tick.clone(), grid(false, false), grid(false, true)).intent("Chen Wei is selected").want(M, Some("Select row"), "renamed for its next press"),
        case("the neighbour's box", tick, grid(false, false), grid(true, false)).want(X, Some("Select all rows"), "changed instead of the target"),
    ]);
}

/// A tooltip shows as the pointer comes to rest on its button: a press that shows only
/// that did nothing.
#[test]
fn a_tooltip_alone_is_no_press() {
    // MUI's tooltip is put at the end of the page, not right after its button.
    let before = Snapshot {
        elements: vec![
            el("next", Role::Button, "Go to next page", "main"),
            el("h", Role::Heading, "Delivery date", "main"),
        ],
        texts: vec![text("1–5 of 12", "main")],
        ..Default::default()
    };
    let mut after = before.clone();
    after
        .elements
        .push(el("tip", Role::Tooltip, "Go to next page", ""));
    let press = act(ActionKind::Click, Some(find(&before, "next")));

    #[rustfmt::skip]
    run(vec![
        case("only the tooltip", press.clone(), before.clone(), after.clone()).want(X, None, "only a tooltip showed"),
        case("only the tooltip, with an intent", press, before, after).intent("The next page of customers is shown").want(X, None, "only a tooltip showed"),
    ]);
}

/// A column header's press orders its grid's rows: a virtualised grid's rows going and
/// coming in the new order are the header's effect.
#[test]
fn a_column_header_orders_its_rows() {
    const ORDERS: &str = "region[Orders]";
    let grid = |rows: &[(&str, &str)], said: &str| Snapshot {
        elements: [
            el("h1", Role::Columnheader, "Order", ORDERS),
            el("h2", Role::Columnheader, "Total", ORDERS),
        ]
        .into_iter()
        .chain(rows.iter().map(|(r, name)| el(r, Role::Row, name, ORDERS)))
        .chain(
            [el("more", Role::Button, "Load more", "main")]
                .into_iter()
                .filter(|_| said == "more"),
        )
        .collect(),
        texts: vec![text(said, "main")],
        ..Default::default()
    };
    let before = grid(
        &[("r1", "1001 Ana Lopez 20"), ("r2", "1002 Hana Sato 57")],
        "",
    );
    let sorted = grid(
        &[("r1", "1001 Ana Lopez 20"), ("r3", "1014 Hana Sato 21")],
        "Orders sorted by total",
    );
    let mut beside = sorted.clone();
    beside
        .elements
        .push(el("x", Role::Button, "Export", ORDERS));
    // Each header's sort button, named for its column and renamed for its next press.
    let with_sort = |page: &Snapshot, total: &str, order: &str| {
        let mut page = page.clone();
        page.elements.push(el(
            "st",
            Role::Button,
            &format!("Sort Total in {total} order"),
            ORDERS,
        ));
        page.elements.push(el(
            "so",
            Role::Button,
            &format!("Sort Order in {order} order"),
            ORDERS,
        ));
        page
    };
    let by_total = act(ActionKind::Click, Some(find(&before, "h2")));

    #[rustfmt::skip]
    run(vec![
        case("the rows come in a new order", by_total.clone(), before.clone(), sorted.clone()).want(M, Some("Total"), "the rows of the header's grid changed order"),
        case("with an intent in another language", by_total.clone(), before.clone(), sorted.clone()).intent("Los pedidos se ordenan por total").want(M, Some("Total"), "the rows of the header's grid changed order"),
        case("the header's own sort button renamed for its next press", by_total.clone(), with_sort(&before, "ascending", "ascending"), with_sort(&sorted, "descending", "ascending")).want(M, Some("Total"), "the rows of the header's grid changed order"),
        case("another column's sort button renamed", by_total.clone(), with_sort(&before, "ascending", "ascending"), with_sort(&sorted, "ascending", "descending")).want(A, None, ""),
        case("something else of the grid came too", by_total, before, beside).want(A, None, ""),
    ]);
}
