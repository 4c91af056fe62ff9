//! In-browser tests of the observation engine (`prufe::dom`) over `fixtures/engine/*.html`,
//! run in headless Chromium by wasm-bindgen-test.
#![cfg(target_arch = "wasm32")]

mod web_support;

use prufe::core::error::ErrorCode;
use prufe::core::fingerprint::{diffed, of_snapshot};
use prufe::core::model::{limits, Element, Role, Snapshot, TextKind, Tristate, REDACTED};
use prufe::dom::{self, Options};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_support::*;

wasm_bindgen_test_configure!(run_in_browser);

const NAMES: &str = include_str!("../fixtures/engine/names.html");
const REGIONS: &str = include_str!("../fixtures/engine/regions.html");
const STATES: &str = include_str!("../fixtures/engine/states.html");
const SHADOW: &str = include_str!("../fixtures/engine/shadow.html");
const FRAMES: &str = include_str!("../fixtures/engine/frames.html");
const SENSITIVE: &str = include_str!("../fixtures/engine/sensitive.html");
const VIRTUAL: &str = include_str!("../fixtures/engine/virtual-list.html");
const TEXTS: &str = include_str!("../fixtures/engine/texts.html");
const MODAL: &str = include_str!("../fixtures/engine/modal.html");
const SLOTS: &str = include_str!("../fixtures/engine/slots.html");

/// Every `[data-expect="role|name"]` element of a fixture is reported with that role and
/// name; `data-expect="-"` elements are not reported at all.
fn check_expectations(container: &web_sys::Element) -> usize {
    let mut failures = Vec::new();
    let marked = query_all(container, "[data-expect]");
    for el in &marked {
        let want = el.get_attribute("data-expect").unwrap();
        let got = dom::record_of(el)
            .unwrap()
            .map(|r| format!("{}|{}", r.role.as_str(), r.name));
        match (want.as_str(), got) {
            ("-", None) => {}
            (w, Some(g)) if w == g => {}
            (w, g) => failures.push(format!(
                "{}: want {w:?}, got {g:?}",
                el.outer_html().chars().take(90).collect::<String>()
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} expectations failed:\n{}",
        failures.len(),
        marked.len(),
        failures.join("\n")
    );
    marked.len()
}

#[wasm_bindgen_test]
fn roles_and_names_follow_html_aam_and_accname() {
    let c = load(NAMES);
    let checked = check_expectations(&c);
    assert!(checked > 80, "only {checked} expectations");
}

#[wasm_bindgen_test]
fn regions_come_from_landmarks_overrides_and_lists() {
    let c = load(REGIONS);
    check_expectations(&c);
    let mut failures = Vec::new();
    for el in query_all(&c, "[data-region]") {
        let want = el.get_attribute("data-region").unwrap();
        let got = dom::record_of(&el).unwrap().map(|r| r.region);
        if got.as_deref() != Some(want.as_str()) {
            failures.push(format!(
                "{}: want {want:?}, got {got:?}",
                el.outer_html().chars().take(80).collect::<String>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[wasm_bindgen_test]
fn moving_an_item_between_lists_changes_its_identity() {
    let c = load(REGIONS);
    let before = snap(Options::default());
    let item = find(&before, Role::Listitem, "Socks");
    assert_eq!(item.region, "cart/list:Cart items");
    let target = query(&c, "#products");
    let li = query(&c, "[data-region='cart/list:Cart items']");
    target.append_child(&li).unwrap();
    let after = snap(Options::default());
    assert_eq!(
        find(&after, Role::Listitem, "Socks").region,
        "region[Catalogue]/list:products"
    );
}

#[wasm_bindgen_test]
fn states_values_and_visibility() {
    let c = load(STATES);
    let button = query(&c, "#focus-me").unchecked_into::<web_sys::HtmlElement>();
    button.focus().unwrap();
    let s = snap(Options::default());
    let checked = |role, name: &str| find(&s, role, name).checked;
    assert_eq!(checked(Role::Checkbox, "Checked box"), Some(Tristate::True));
    assert_eq!(
        checked(Role::Checkbox, "Unchecked box"),
        Some(Tristate::False)
    );
    assert_eq!(checked(Role::Checkbox, "Mixed box"), Some(Tristate::Mixed));
    assert_eq!(checked(Role::Checkbox, "Aria mixed"), Some(Tristate::Mixed));
    assert_eq!(checked(Role::Switch, "Wifi"), Some(Tristate::True));
    assert_eq!(checked(Role::Radio, "Radio on"), Some(Tristate::True));
    assert_eq!(find(&s, Role::Button, "Bold").pressed, Some(Tristate::True));
    assert_eq!(
        find(&s, Role::Button, "Italic").pressed,
        Some(Tristate::False)
    );
    let plain = find(&s, Role::Button, "Plain");
    assert_eq!(
        (plain.pressed, plain.checked, plain.selected, plain.expanded),
        (None, None, None, None)
    );
    assert_eq!(find(&s, Role::Button, "Menu").expanded, Some(false));
    assert_eq!(find(&s, Role::Button, "Open details").expanded, Some(true));
    assert_eq!(
        find(&s, Role::Button, "Closed details").expanded,
        Some(false)
    );
    assert!(!find(&s, Role::Button, "Inside closed details").visible);
    assert_eq!(
        find(&s, Role::Combobox, "Pick").value.as_deref(),
        Some("Two")
    );
    assert_eq!(find(&s, Role::Option, "Two").selected, Some(true));
    assert_eq!(find(&s, Role::Option, "One").selected, Some(false));
    assert_eq!(find(&s, Role::Option, "Chosen").selected, Some(true));
    assert_eq!(find(&s, Role::Option, "Other").selected, Some(false));
    for name in ["Disabled button", "Fieldset button", "Aria disabled child"] {
        assert!(
            find(&s, Role::Button, name).disabled,
            "{name} should be disabled"
        );
    }
    assert!(find(&s, Role::Textbox, "In disabled fieldset").disabled);
    assert!(find(&s, Role::Link, "Disabled link").disabled);
    assert!(
        !find(&s, Role::Button, "Legend button").disabled,
        "the first legend is exempt"
    );
    assert!(!find(&s, Role::Button, "Plain").disabled);
    for name in [
        "Display none",
        "Inside display none",
        "Visibility hidden",
        "Hidden attribute",
    ] {
        assert!(
            !find(&s, Role::Button, name).visible,
            "{name} should be reported invisible"
        );
    }
    assert!(find(&s, Role::Button, "Plain").visible);
    // SPEC DIFFERENCE: rendered content of aria-hidden and inert subtrees stays observed.
    assert!(find(&s, Role::Button, "Aria hidden").visible);
    assert!(find(&s, Role::Button, "Inert").visible);
    assert!(find(&s, Role::Button, "Aria hidden false").visible);
    assert_eq!(
        find(&s, Role::Textbox, "Name field").value.as_deref(),
        Some("Ada")
    );
    assert_eq!(
        find(&s, Role::Textbox, "Notes").value.as_deref(),
        Some("Hello\nthere")
    );
    assert_eq!(find(&s, Role::Slider, "Level").value.as_deref(), Some("7"));
    assert_eq!(
        find(&s, Role::Slider, "Aria level").value.as_deref(),
        Some("four")
    );
    assert!(find(&s, Role::Button, "Focus me").focused);
    assert_eq!(s.elements.iter().filter(|e| e.focused).count(), 1);
    assert_eq!(find(&s, Role::Heading, "Level two").level, Some(2));
    assert_eq!(find(&s, Role::Heading, "Level four").level, Some(4));
    assert_eq!(
        find(&s, Role::Link, "Hyper").href.as_deref(),
        Some("/target?x=1")
    );
    assert_eq!(find(&s, Role::Button, "Plain").href, None);
    assert!(find(&s, Role::Button, "Plain").in_viewport);
    assert!(!find(&s, Role::Button, "Far below").in_viewport);
    assert!(find(&s, Role::Button, "Far below").visible);
}

/// A rich-text editor's body (Quill's, ProseMirror's: a `contenteditable` element with the
/// textbox role) holds its text as its value, a line per paragraph, so that what is typed into
/// it is seen as the field's value changing; a textbox that is not editable holds none.
#[wasm_bindgen_test]
fn a_rich_text_body_holds_its_text_as_its_value() {
    let c = load(
        r#"<div id="body" contenteditable="true" role="textbox" aria-multiline="true" aria-label="Message"><p>Hi Ana,</p></div>
        <div role="textbox" aria-label="Read only box">Not editable</div>"#,
    );
    let lines = |s: &Snapshot| {
        let value = find(s, Role::Textbox, "Message").value.clone();
        value.map(|v| {
            v.lines()
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join("|")
        })
    };
    let before = snap(Options::default());
    assert_eq!(lines(&before).as_deref(), Some("Hi Ana,"));
    assert_eq!(find(&before, Role::Textbox, "Read only box").value, None);
    let p = document().create_element("p").unwrap();
    p.set_text_content(Some("The report is attached."));
    query(&c, "#body").append_child(&p).unwrap();
    let after = snap(Options::default());
    assert_eq!(
        lines(&after).as_deref(),
        Some("Hi Ana,|The report is attached.")
    );
}

/// Inside a rich-text editor's body (an editing host) the words' formatting is observed: a
/// `<strong>` (or the `<b>` a bold command writes) as `strong` named by its words, `<em>` and
/// `<i>` as `emphasis`, `<code>` as `code`, in the host's region, coming and going as the
/// editor formats words; the same markup outside an editing host, or under an element that is
/// not editable, stays out of the observation. Each state as a full walk gives it.
#[wasm_bindgen_test]
fn formatting_inside_an_editing_host_is_observed() {
    let c = load(
        r#"<form aria-label="Compose"><div id="body" contenteditable="true" role="textbox" aria-multiline="true" aria-label="Message"><p id="line">Please review the draft</p></div>
        <div id="plain" contenteditable="true"><p>A <em>plain</em> editable</p></div>
        <p>Read <strong>this</strong> first, <code>npm test</code></p>
        <div role="textbox" aria-label="Read only box"><strong>Not editable</strong></div></form>"#,
    );
    let formatting = |s: &Snapshot| -> Vec<(Role, String, String)> {
        s.elements
            .iter()
            .filter(|e| e.role.is_formatting())
            .map(|e| (e.role, e.name.clone(), e.region.clone()))
            .collect()
    };
    let owned = |v: &[(Role, &str)]| -> Vec<(Role, String, String)> {
        v.iter()
            .map(|(r, n)| (*r, n.to_string(), "form[Compose]".to_string()))
            .collect()
    };
    let (_, before) = agrees_with_full_walk("before");
    assert_eq!(formatting(&before), owned(&[(Role::Emphasis, "plain")]));
    let line = query(&c, "#line");
    line.set_inner_html("Please <strong>review</strong> the draft");
    let (_, bold) = agrees_with_full_walk("bold");
    assert_eq!(
        formatting(&bold),
        owned(&[(Role::Strong, "review"), (Role::Emphasis, "plain")])
    );
    assert_eq!(
        find(&bold, Role::Textbox, "Message")
            .value
            .as_deref()
            .map(str::trim),
        Some("Please review the draft"),
        "the value is the words, not their formatting"
    );
    line.set_inner_html("<b>Please</b> <i>review</i> the <code>draft</code>");
    let (_, written) = agrees_with_full_walk("b, i, code");
    assert_eq!(
        formatting(&written),
        owned(&[
            (Role::Strong, "Please"),
            (Role::Emphasis, "review"),
            (Role::Code, "draft"),
            (Role::Emphasis, "plain"),
        ])
    );
    line.set_inner_html("Please review the draft");
    let (_, plain) = agrees_with_full_walk("unformatted");
    assert_eq!(formatting(&plain), owned(&[(Role::Emphasis, "plain")]));
    // Not editable any more: its formatting leaves the observation with it.
    query(&c, "#plain")
        .set_attribute("contenteditable", "false")
        .unwrap();
    let (_, none) = agrees_with_full_walk("not editable");
    assert_eq!(formatting(&none), vec![]);
}

#[wasm_bindgen_test]
fn shadow_dom_in_composed_order_and_closed_roots_opaque() {
    let c = load(SHADOW);
    let s = snap(Options::default());
    let buttons: Vec<&str> = s
        .elements
        .iter()
        .filter(|e| matches!(e.role, Role::Button | Role::Link))
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(
        buttons,
        [
            "Before host",
            "Shadow first",
            "Slotted action",
            "Nested shadow",
            "Inner light",
            "Light custom element",
            "After host"
        ]
    );
    assert_eq!(find(&s, Role::Button, "Shadow first").region, "cards");
    assert_eq!(find(&s, Role::Button, "Nested shadow").region, "cards");
    assert_eq!(find(&s, Role::Heading, "Card title").region, "cards");
    let locked = find(&s, Role::Generic, "Payment widget");
    assert!(locked.opaque);
    let opaque: Vec<&str> = s
        .elements
        .iter()
        .filter(|e| e.opaque)
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(opaque.len(), 2, "x-locked and x-empty-closed: {opaque:?}");
    assert!(try_find(&s, Role::Button, "Secret inside").is_none());
    assert!(try_find(&s, Role::Button, "Never rendered").is_none());
    // A button inside an open shadow root is found under its point and when focused.
    let host = query(&c, "x-card");
    let inner = host
        .shadow_root()
        .unwrap()
        .query_selector("button")
        .unwrap()
        .unwrap();
    let (x, y) = center(&inner);
    let hit = dom::at(x, y).unwrap().expect("element under the point");
    assert_eq!(
        (hit.role, hit.name.as_str()),
        (Role::Button, "Shadow first")
    );
    inner
        .unchecked_ref::<web_sys::HtmlElement>()
        .focus()
        .unwrap();
    let f = dom::focused().unwrap().expect("focused element");
    assert_eq!(f.name, "Shadow first");
    assert_eq!(f.reference, hit.reference, "one node, one ref");
}

/// The inner element of a host's open shadow root matching `selector`.
fn inner(host: &web_sys::Element, selector: &str) -> web_sys::Element {
    host.shadow_root()
        .expect("an open shadow root")
        .query_selector(selector)
        .unwrap()
        .expect(selector)
}

#[wasm_bindgen_test]
fn icons_hidden_from_assistive_technology_are_no_records() {
    // MUI draws its icons as `<svg aria-hidden="true">`; Shoelace's `sl-icon` and Ionic's
    // `ion-icon` hide themselves and draw an `<svg>` in their shadow root (Ionic's also says
    // `role="img"`). Decoration, not records. A modal library's `aria-hidden` on a container
    // or on a child of `<body>` hides nothing from a person: what is there stays.
    load(
        r#"<main>
        <section aria-label="Own"><button>Delete <svg aria-hidden="true" width="10" height="10"><path d="M0 0h10v10z"/></svg></button>
          <svg aria-hidden="true" width="10" height="10"></svg></section>
        <section aria-label="Icon"><x-icon aria-hidden="true"><template shadowrootmode="open"><div><svg width="10" height="10"></svg></div></template></x-icon>
          <x-icon role="img" aria-hidden="true"><template shadowrootmode="open"><svg width="10" height="10"></svg></template></x-icon></section>
        <section aria-label="Named"><x-icon aria-hidden="true"><template shadowrootmode="open"><svg aria-label="Gear" width="10" height="10"></svg></template></x-icon></section>
        <section aria-label="Plain"><svg width="10" height="10"></svg></section>
        <section aria-label="Behind"><div aria-hidden="true"><svg width="10" height="10"></svg></div></section>
        <section aria-label="Panel"><x-panel aria-hidden="true"><template shadowrootmode="open"><svg width="10" height="10"></svg><slot></slot></template><p>Inside</p></x-panel></section>
        </main>"#,
    );
    let doc = document();
    let body = doc.body().unwrap();
    let sprite = doc
        .create_element_ns(Some("http://www.w3.org/2000/svg"), "svg")
        .unwrap();
    sprite.set_attribute("aria-hidden", "true").unwrap();
    body.append_child(&sprite).unwrap();
    let s = snap(Options::default());
    sprite.remove();
    let images = |region: &str| {
        s.elements
            .iter()
            .filter(|e| e.role == Role::Img && e.region == region)
            .count()
    };
    assert_eq!(images("region[Own]"), 0, "{:?}", s.elements);
    assert_eq!(images("region[Icon]"), 0, "{:?}", s.elements);
    assert_eq!(find(&s, Role::Img, "Gear").region, "region[Named]");
    assert_eq!(images("region[Plain]"), 1, "{:?}", s.elements);
    assert_eq!(images("region[Behind]"), 1, "{:?}", s.elements);
    assert_eq!(images("region[Panel]"), 1, "{:?}", s.elements);
    assert_eq!(images(""), 1, "the child of <body>: {:?}", s.elements);
    assert!(find(&s, Role::Button, "Delete").visible);
}

#[wasm_bindgen_test]
fn a_custom_selects_hidden_native_twin_is_no_second_control() {
    // Ark UI's and Radix's select: the trigger people use, and a native `<select>` for forms
    // that hides itself from the eye and from assistive technology.
    load(
        r#"<main><label id="cab">Cabin</label>
        <button role="combobox" aria-labelledby="cab" aria-expanded="false">Economy</button>
        <select aria-labelledby="cab" aria-hidden="true" tabindex="-1"
          style="position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0)">
          <option>Economy</option><option>Business</option></select>
        <div aria-hidden="true"><button>Behind a modal</button><input aria-label="Note"></div>
        <input type="file" aria-label="Passport scan" aria-hidden="true" tabindex="-1"
          style="position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0)">
        <section aria-label="Terms"><button type="button" role="checkbox" aria-checked="false" id="t">
          </button><label for="t">Accept terms</label>
          <input type="checkbox" aria-hidden="true" tabindex="-1"
            style="position:absolute;pointer-events:none;opacity:0;margin:0;transform:translateX(-100%)"></section>
        <section aria-label="Kept"><input type="checkbox" aria-hidden="true" tabindex="0" aria-label="Hidden but tabbable">
          <div aria-hidden="true"><input type="radio" tabindex="-1" aria-label="Roving"></div></section>
        <section aria-label="Value"><input aria-hidden="true" tabindex="-1" value="Ten"
          style="position:absolute;opacity:0;pointer-events:none"></section></main>"#,
    );
    let s = snap(Options::default());
    let cabins: Vec<&Element> = s
        .elements
        .iter()
        .filter(|e| e.role == Role::Combobox && e.name == "Cabin")
        .collect();
    assert_eq!(cabins.len(), 2, "{cabins:?}");
    assert_eq!(
        cabins.iter().filter(|e| e.visible).count(),
        1,
        "only the trigger is visible: {cabins:?}"
    );
    // A page hidden behind a modal (aria-hidden on a container) is still seen.
    assert!(find(&s, Role::Button, "Behind a modal").visible);
    assert!(find(&s, Role::Textbox, "Note").visible);
    // A hidden file input is what an upload is given to: it stays a target.
    assert!(s
        .elements
        .iter()
        .any(|e| e.name == "Passport scan" && e.visible));
    // Radix's checkbox keeps a native one for forms under it; MUI's select an input for
    // its value: neither is a second, unnamed control.
    let shown = |region: &str| {
        s.elements
            .iter()
            .filter(|e| {
                e.region == region && e.visible && !matches!(e.role, Role::Button | Role::Region)
            })
            .map(|e| format!("{:?}[{}]", e.role, e.name))
            .collect::<Vec<_>>()
    };
    assert_eq!(shown("region[Terms]"), ["Checkbox[Accept terms]"]);
    assert_eq!(shown("region[Value]"), Vec::<String>::new());
    // Only a field hidden in its own right and out of the tab order: a modal's aria-hidden
    // around a roving radio, or a field hidden but still reached by Tab, stays.
    assert_eq!(
        shown("region[Kept]"),
        ["Checkbox[Hidden but tabbable]", "Radio[Roving]"]
    );
}

#[wasm_bindgen_test]
fn slotted_text_names_the_control_it_is_rendered_in() {
    let c = load(SLOTS);
    let s = snap(Options::default());
    // A slot is display: contents (no box of its own): what is assigned to it is rendered,
    // so it names the control around the slot.
    find(&s, Role::Switch, "Heating");
    find(&s, Role::Button, "Turn all lights off");
    find(&s, Role::Slider, "Target temperature");
    find(&s, Role::Menuitem, "Mark as played");
    // Slotted text that is not rendered names nothing.
    find(&s, Role::Button, "Go");
    find(&s, Role::Button, "Stop");
    assert!(
        !s.elements
            .iter()
            .any(|e| e.name.contains("Secret") || e.name.contains("Hidden")),
        "{:?}",
        s.elements.iter().map(|e| &e.name).collect::<Vec<_>>()
    );
    // aria-labelledby naming the button itself after its label: the label is read once.
    find(&s, Role::Button, "Priority Normal");
    find(&s, Role::Button, "Team");
    assert!(try_find(&s, Role::Button, "Priority Priority").is_none());
    // Controls slotted into a wrapper's shadow root keep the labels and the fieldset of
    // their own tree.
    find(&s, Role::Textbox, "Feedback");
    find(&s, Role::Textbox, "Nickname");
    assert!(find(&s, Role::Button, "Send").disabled);
    // The switch is the input inside the host's shadow root, as a person finds it by name.
    let input = inner(&query(&c, "#heating"), "input");
    let record = dom::record_of(&input).unwrap().expect("observed");
    assert_eq!(
        (record.role, record.name.as_str()),
        (Role::Switch, "Heating")
    );
}

/// A `div#veil` laid over `el`'s box, fixed in the viewport, appended to `c`.
fn veil_over(c: &web_sys::Element, el: &web_sys::Element) {
    let veil = document().create_element("div").unwrap();
    let r = el.get_bounding_client_rect();
    veil.set_attribute(
        "style",
        &format!(
            "position: fixed; left: {}px; top: {}px; width: {}px; height: {}px",
            r.left(),
            r.top(),
            r.width(),
            r.height()
        ),
    )
    .unwrap();
    veil.set_attribute("id", "veil").unwrap();
    c.append_child(&veil).unwrap();
}

#[wasm_bindgen_test]
fn a_click_on_slotted_text_reaches_the_control_holding_the_slot() {
    let c = load(SLOTS);
    let host = query(&c, "#all-off");
    let button = inner(&host, "button");
    let (x, y) = center(&button);
    // elementFromPoint answers the host for its own text; the text is rendered in the slot,
    // inside the inner button, which is where input lands.
    let doc = document();
    assert!(
        doc.element_from_point(x as f32, y as f32)
            .is_some_and(|e| e == host),
        "the page's own hit test answers the host"
    );
    assert_eq!(dom::input::hit_node(&button, x, y).unwrap(), None);
    let hit = dom::at(x, y).unwrap().expect("an element under the point");
    assert_eq!(
        (hit.role, hit.name.as_str()),
        (Role::Button, "Turn all lights off")
    );
    // An element laid over the button still covers it: the rule reads the host's text only
    // where the page's hit test answers the host.
    veil_over(&c, &button);
    let by = dom::input::hit_node(&button, x, y).unwrap();
    assert_eq!(by.as_deref(), Some("div#veil"), "a real cover is still one");
}

#[wasm_bindgen_test]
fn a_click_on_a_control_that_takes_no_pointer_input_reaches_its_host() {
    let c = load(SLOTS);
    let host = query(&c, "#week");
    let tab = inner(&host, "button");
    let (x, y) = center(&tab);
    assert!(
        document()
            .element_from_point(x as f32, y as f32)
            .is_some_and(|e| e == host),
        "the page's hit test answers the host"
    );
    assert_eq!(dom::input::hit_node(&tab, x, y).unwrap(), None);
    // The host's own sibling is no holder of the tab: it still covers it.
    let other = query(&c, "#all-off");
    let (ox, oy) = center(&inner(&other, "button"));
    assert!(dom::input::hit_node(&tab, ox, oy).unwrap().is_some());
    // Something laid over the tab, not one of its holders, covers it.
    veil_over(&c, &tab);
    let by = dom::input::hit_node(&tab, x, y).unwrap();
    assert_eq!(by.as_deref(), Some("div#veil"), "a real cover is still one");
}

/// A dialog kept in the page while closed, with a part hidden from the accessibility tree
/// (Ionic's input label, `aria-hidden="true"`): its words are the same closed and open, so
/// opening or closing it changes the one dialog; and so do a hidden button's. A landmark
/// inside it is a region of the dialog, so what closes with it is seen to be inside it.
#[wasm_bindgen_test]
fn a_hidden_element_reads_as_it_does_shown() {
    let c = load(
        r#"<main><div id="profile" role="dialog" hidden><div role="banner"><h2>Edit profile</h2></div>
        <label><span aria-hidden="true">Full name</span><input aria-label="Full name"></label>
        <button id="done">Done <span aria-hidden="true">(enter)</span></button></div></main>"#,
    );
    let closed = snap(Options::default());
    query(&c, "#profile").remove_attribute("hidden").unwrap();
    let open = snap(Options::default());
    for (role, name) in [(Role::Dialog, ""), (Role::Button, "Done")] {
        let pick = |s: &Snapshot| {
            s.elements
                .iter()
                .find(|e| e.role == role && e.name == name)
                .cloned()
                .unwrap_or_else(|| panic!("{role:?} {name:?} in {:?}", s.elements))
        };
        let (a, b) = (pick(&closed), pick(&open));
        assert!(!a.visible && b.visible, "{role:?}");
        assert_eq!(a.text, b.text, "{role:?}");
    }
    // A landmark inside the dialog is a region of the dialog.
    assert_eq!(find(&open, Role::Button, "Done").region, "dialog");
    assert_eq!(
        find(&open, Role::Heading, "Edit profile").region,
        "dialog/banner"
    );
}

#[wasm_bindgen_test]
async fn frames_walked_by_position_and_cross_origin_opaque() {
    let c = load(FRAMES);
    frames_loaded(&c).await;
    let s = snap(Options::default());
    let top = find(&s, Role::Button, "Top button");
    assert_eq!((top.frame.as_str(), top.region.as_str()), ("", "main"));
    let pays: Vec<(&str, &str)> = s
        .elements
        .iter()
        .filter(|e| e.name == "Pay now")
        .map(|e| (e.frame.as_str(), e.region.as_str()))
        .collect();
    assert_eq!(
        pays,
        [
            ("0", "frame[0]/form[Payment]"),
            ("1", "frame[1]/form[Payment]")
        ],
        "same name, different frames"
    );
    let deep = find(&s, Role::Button, "Deep button");
    assert_eq!(
        (deep.frame.as_str(), deep.region.as_str()),
        ("0.0", "frame[0.0]")
    );
    let sandboxed = find(&s, Role::Iframe, "Sandboxed");
    assert!(sandboxed.opaque);
    assert!(!find(&s, Role::Iframe, "Payment").opaque);
    assert!(try_find(&s, Role::Button, "Cannot see me").is_none());
    let hidden = find(&s, Role::Button, "Inside hidden frame");
    assert!(!hidden.visible);
    assert_eq!(hidden.frame, "3");
    let card = find(&s, Role::Textbox, "Card number");
    assert_eq!(card.value.as_deref(), Some(REDACTED));
    assert!(card.sensitive);
    let json = serde_json::to_string(&s).unwrap();
    assert!(!json.contains("4111111111111111"));
    // The point under a button inside the first frame.
    let frame = query(&c, "iframe");
    let inner_doc = frame
        .unchecked_ref::<web_sys::HtmlIFrameElement>()
        .content_document()
        .unwrap();
    let inner_button = inner_doc.query_selector("button").unwrap().unwrap();
    let fr = frame.get_bounding_client_rect();
    let (bx, by) = center(&inner_button);
    let hit = dom::at(
        fr.left() + frame.client_left() as f64 + bx,
        fr.top() + frame.client_top() as f64 + by,
    )
    .unwrap()
    .expect("element under the point");
    assert_eq!((hit.name.as_str(), hit.frame.as_str()), ("Pay now", "0"));
}

const SECRETS: [&str; 8] = [
    "hidden-pass-42",
    "hunter2secret",
    "4242424242424242",
    "918273",
    "Corr3ctHorse",
    "notreallyfalse77",
    "diary-entry-55",
    "declared-by-caller-9",
];

#[wasm_bindgen_test]
fn secrets_are_redacted_everywhere() {
    let c = load(SENSITIVE);
    let opts = Options {
        sensitive: vec!["#declared".into()],
        ..Default::default()
    };
    let s = snap(opts.clone());
    for name in [
        "Password",
        "Card",
        "Code",
        "New password",
        "Marked false",
        "Declared",
    ] {
        let e = try_find(&s, Role::Textbox, name).unwrap_or_else(|| panic!("{name} missing"));
        assert!(e.sensitive, "{name}");
        assert_eq!(e.value.as_deref(), Some(REDACTED), "{name}");
        assert!(e.value_hash.is_some(), "{name}");
    }
    assert_eq!(
        find(&s, Role::Textbox, "Private note").value.as_deref(),
        Some(REDACTED)
    );
    let empty = find(&s, Role::Textbox, "Empty password");
    assert_eq!(empty.value.as_deref(), Some(""));
    assert!(!find(&s, Role::Textbox, "User").sensitive);
    assert_eq!(
        find(&s, Role::Textbox, "User").value.as_deref(),
        Some("ada@example.com")
    );
    assert_eq!(
        find(&s, Role::Textbox, "Password").value_hash,
        Some(dom::hash("hunter2secret").unwrap())
    );
    // Echoes in text, title, aria-label, data-ap-region, list text, href, live region.
    assert!(s
        .texts
        .iter()
        .any(|t| t.text == "Your password is [redacted] and your card [redacted]."));
    assert!(
        try_find(&s, Role::Button, "[redacted]").is_some(),
        "name from title"
    );
    assert!(try_find(&s, Role::Button, "Copy [redacted]").is_some());
    assert_eq!(
        find(&s, Role::Button, "In echo region").region,
        "box [redacted]"
    );
    assert!(try_find(&s, Role::Listitem, "Note: [redacted]").is_some());
    assert_eq!(
        find(&s, Role::Link, "Reset link").href.as_deref(),
        Some("/reset?token=[redacted]")
    );
    assert!(s
        .texts
        .iter()
        .any(|t| t.text == "Declared value [redacted] saved"));
    assert!(s
        .texts
        .iter()
        .any(|t| t.text == "Echo of an unobservable field: [redacted]"));
    // Observed inside its aria-hidden subtree, and redacted like any other password.
    let hidden_field = find(&s, Role::Textbox, "Unobservable");
    assert!(hidden_field.sensitive);
    assert_eq!(hidden_field.value.as_deref(), Some(REDACTED));
    // A walk cut short still scrubs echoes of the fields it did not reach.
    let cut = snap(Options {
        max_elements: Some(1.0),
        ..opts.clone()
    });
    assert!(cut.has_more);
    assert_eq!(
        cut.texts.first().map(|t| t.text.as_str()),
        Some("Top echo [redacted] before any field")
    );
    // The page's words only: the context's numbers and the value hashes are not the page's.
    let mut words = s.clone();
    words.elements.iter_mut().for_each(|e| e.value_hash = None);
    let json = serde_json::to_string(&(&words.elements, &words.texts)).unwrap();
    let fp = dom::fingerprint(&opts).unwrap();
    for secret in SECRETS {
        assert!(!json.contains(secret), "{secret} leaked into the snapshot");
        assert!(!fp.contains(secret));
    }
    // A field declared by its ref is sensitive too, and so is everything its value echoes.
    let user = find(&s, Role::Textbox, "User").reference.clone();
    let by_ref = snap(Options {
        sensitive: vec![user],
        ..Default::default()
    });
    assert_eq!(
        find(&by_ref, Role::Textbox, "User").value.as_deref(),
        Some(REDACTED)
    );
    assert!(!serde_json::to_string(&by_ref)
        .unwrap()
        .contains("ada@example.com"));
    // Without the declaration the declared field is an ordinary one.
    let plain = snap(Options::default());
    assert_eq!(
        find(&plain, Role::Textbox, "Declared").value.as_deref(),
        Some("declared-by-caller-9")
    );
    // A change of a redacted value is observable by hash, and the value stays redacted.
    let before = dom::fingerprint(&opts).unwrap();
    let pw: web_sys::HtmlInputElement = query(&c, "input[type=password]").unchecked_into();
    pw.set_value("another-pass-1");
    let after = snap(opts.clone());
    assert_ne!(before, dom::fingerprint(&opts).unwrap());
    let e = find(&after, Role::Textbox, "Password");
    assert_eq!(e.value.as_deref(), Some(REDACTED));
    assert_eq!(e.value_hash, Some(dom::hash("another-pass-1").unwrap()));
    assert!(!serde_json::to_string(&after)
        .unwrap()
        .contains("another-pass-1"));
}

#[wasm_bindgen_test]
fn recycled_nodes_get_new_refs_and_old_refs_fail() {
    let c = load(VIRTUAL);
    let s1 = snap(Options::default());
    let shirt = find(&s1, Role::Button, "Add Shirt M").clone();
    assert_eq!(shirt.region, "catalogue/list:rows");
    let node = dom::element(&shirt.reference).expect("live ref");
    assert_eq!(node.text_content().as_deref(), Some("Add Shirt M"));
    // Stable while nothing changes.
    let s2 = snap(Options::default());
    assert_eq!(
        find(&s2, Role::Button, "Add Shirt M").reference,
        shirt.reference
    );
    // pointerdown recycles the row nodes: the same node now shows another product.
    let rows = query(&c, "#rows");
    let ev = web_sys::Event::new("pointerdown").unwrap();
    rows.dispatch_event(&ev).unwrap();
    let err = dom::element(&shirt.reference).unwrap_err();
    assert_eq!(err.code, ErrorCode::TargetChanged, "{}", err.message);
    let now = dom::describe(&shirt.reference)
        .unwrap()
        .expect("the node still exists");
    assert_eq!(now.name, "Add Trousers L");
    assert_ne!(
        now.reference, shirt.reference,
        "a recycled node gets a new ref"
    );
    let s3 = snap(Options::default());
    let trousers = find(&s3, Role::Button, "Add Trousers L");
    assert_eq!(trousers.reference, now.reference);
    assert_ne!(
        trousers.reference,
        find(&s1, Role::Button, "Add Trousers L").reference
    );
    assert!(try_find(&s3, Role::Button, "Add Shirt M").is_none());
    // A ref of another document, and a removed node, are stale.
    let foreign = format!("{}-zzzz", shirt.reference.split('-').next().unwrap());
    assert_eq!(
        dom::element(&foreign).unwrap_err().code,
        ErrorCode::StaleReference
    );
    let list_item = node.parent_element().unwrap();
    list_item.remove();
    assert_eq!(
        dom::element(&trousers.reference).unwrap_err().code,
        ErrorCode::StaleReference
    );
    assert!(dom::describe(&trousers.reference).unwrap().is_none());
    assert_eq!(
        dom::element("nonsense").unwrap_err().code,
        ErrorCode::InvalidArgument
    );
}

#[wasm_bindgen_test]
fn running_texts_and_live_regions() {
    load(TEXTS);
    let s = snap(Options::default());
    let texts: Vec<(TextKind, &str, &str)> = s
        .texts
        .iter()
        .map(|t| (t.kind, t.text.as_str(), t.region.as_str()))
        .collect();
    assert_eq!(
        texts,
        [
            (
                TextKind::Paragraph,
                "First paragraph with newlines.",
                "main"
            ),
            (
                TextKind::Status,
                "Saved inner paragraph not repeated",
                "main"
            ),
            (TextKind::Alert, "Payment failed", "main"),
            (TextKind::Log, "Line one Line two", "main"),
            (TextKind::Status, "Total 40", "main"),
            (TextKind::Status, "Polite news", "main"),
            (TextKind::Alert, "Urgent news", "main"),
            (TextKind::Watch, "Watched counter 3", "main"),
            (TextKind::Paragraph, "Paragraph in region", "region[Side]"),
        ]
    );
    assert_eq!(
        find(&s, Role::Heading, "Heading is an element").level,
        Some(1)
    );
}

#[wasm_bindgen_test]
fn fingerprint_equals_the_snapshot_and_tracks_the_diff() {
    for (html, name) in [
        (NAMES, "names"),
        (REGIONS, "regions"),
        (STATES, "states"),
        (SHADOW, "shadow"),
        (SENSITIVE, "sensitive"),
        (TEXTS, "texts"),
    ] {
        load(html);
        for opts in [
            Options::default(),
            Options {
                regions: vec!["main".into()],
                ..Default::default()
            },
            Options {
                ignore_regions: vec!["main".into()],
                ..Default::default()
            },
            Options {
                max_elements: Some(5.0),
                ..Default::default()
            },
        ] {
            let fp = dom::fingerprint(&opts).unwrap();
            let s = dom::snapshot(&opts).unwrap();
            assert_eq!(diffed(&fp), of_snapshot(&s), "{name} with {opts:?}");
        }
    }
    let c = load(STATES);
    let fp0 = dom::fingerprint(&Options::default()).unwrap();
    // Focus and scrolling are not compared by the diff: no change to its part. The focus is
    // one of the claims, which moved.
    query(&c, "#focus-me")
        .unchecked_into::<web_sys::HtmlElement>()
        .focus()
        .unwrap();
    web_sys::window()
        .unwrap()
        .scroll_to_with_x_and_y(0.0, 300.0);
    let focused = dom::fingerprint(&Options::default()).unwrap();
    assert_eq!(diffed(&focused), diffed(&fp0));
    assert_ne!(focused, fp0);
    web_sys::window().unwrap().scroll_to_with_x_and_y(0.0, 0.0);
    assert_eq!(dom::fingerprint(&Options::default()).unwrap(), focused);
    // A state change, a value change, a text change: each changes it.
    let boxed: web_sys::HtmlInputElement = query(&c, "input[type=checkbox]").unchecked_into();
    boxed.set_checked(!boxed.checked());
    let fp1 = dom::fingerprint(&Options::default()).unwrap();
    assert_ne!(fp1, fp0);
    let field: web_sys::HtmlInputElement =
        query(&c, "input[aria-label='Name field']").unchecked_into();
    field.set_value("Grace");
    let fp2 = dom::fingerprint(&Options::default()).unwrap();
    assert_ne!(fp2, fp1);
    query(&c, "h2").set_text_content(Some("Renamed"));
    let fp3 = dom::fingerprint(&Options::default()).unwrap();
    assert_ne!(fp3, fp2);
    assert_eq!(
        diffed(&fp3),
        of_snapshot(&dom::snapshot(&Options::default()).unwrap())
    );
}

#[wasm_bindgen_test]
fn fingerprint_leaves_out_the_background_it_is_given() {
    let c = load(
        "<header><span id=clock>10:00:01</span></header>\
         <main><button>Save</button><p id=msg></p></main>",
    );
    let clock = query(&c, "#clock");
    let s0 = dom::snapshot(&Options::default()).unwrap();
    clock.set_text_content(Some("10:00:02"));
    let s1 = dom::snapshot(&Options::default()).unwrap();
    let mut background = prufe::core::background::Background::default();
    background.observe(&s0, &s1);
    assert!(!background.is_empty(), "the clock's slot is learnt");
    let over = Options {
        background,
        ..Default::default()
    };
    let fp = dom::fingerprint(&over).unwrap();
    // The clock ticks on: no change to a fingerprint that leaves its slot out, a change to
    // the plain one.
    let plain = dom::fingerprint(&Options::default()).unwrap();
    clock.set_text_content(Some("10:00:03"));
    assert_eq!(dom::fingerprint(&over).unwrap(), fp);
    assert_ne!(dom::fingerprint(&Options::default()).unwrap(), plain);
    // A shape the clock never showed, in its place, is a change.
    clock.set_text_content(Some("Offline"));
    assert_ne!(dom::fingerprint(&over).unwrap(), fp);
    clock.set_text_content(Some("10:00:04"));
    assert_eq!(dom::fingerprint(&over).unwrap(), fp);
    // So is anything anywhere else.
    query(&c, "#msg").set_text_content(Some("Saved"));
    assert_ne!(dom::fingerprint(&over).unwrap(), fp);
}

#[wasm_bindgen_test]
fn context_epoch_and_snapshot_ids() {
    load(TEXTS);
    let a = snap(Options::default());
    let b = snap(Options {
        tab: Some("t9".into()),
        ..Default::default()
    });
    assert_eq!(a.context.epoch, b.context.epoch);
    assert_eq!(a.context.epoch, dom::epoch().unwrap());
    assert!(
        a.context.epoch > 1_000_000_000_000,
        "derived from timeOrigin"
    );
    assert!(a.context.epoch < (1u64 << 53), "an exact JS integer");
    assert_ne!(a.context.snapshot, b.context.snapshot);
    assert_eq!(b.context.tab, "t9");
    assert_eq!(
        a.context.tab,
        snap(Options::default()).context.tab,
        "default tab is stable per page"
    );
    let bad = dom::snapshot(&Options {
        max_elements: Some(-1.0),
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(bad.code, ErrorCode::InvalidOptions);
    let bad = dom::snapshot(&Options {
        sensitive: vec!["[[[".into()],
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(bad.code, ErrorCode::InvalidOptions);
}

/// A chain of `depth` nested divs under `parent` with a button at the bottom.
fn nest(parent: &web_sys::Element, depth: usize, label: &str) {
    let doc = document();
    let mut parent = parent.clone();
    for _ in 0..depth {
        let d = doc.create_element("div").unwrap();
        parent.append_child(&d).unwrap();
        parent = d;
    }
    let button = doc.create_element("button").unwrap();
    button.set_text_content(Some(label));
    parent.append_child(&button).unwrap();
}

#[wasm_bindgen_test]
fn bounded_depth_size_and_time() {
    // Chromium 156's renderer itself crashes laying out about 5,000 nested boxes, so the
    // 10,000-deep chains sit in a `display: none` subtree (walked all the same, reported
    // invisible); 2,000 rendered levels cover the visible case.
    let c = load("<main id='deep'><div id='unrendered' style='display:none'></div><div id='rendered'></div></main>");
    nest(&query(&c, "#unrendered"), 10_000, "Bottom");
    nest(&query(&c, "#rendered"), 2_000, "Rendered bottom");
    let doc = document();
    let deep_button = doc.create_element("button").unwrap();
    let mut p = deep_button.clone();
    for _ in 0..10_000 {
        let s = doc.create_element("span").unwrap();
        p.append_child(&s).unwrap();
        p = s;
    }
    p.set_text_content(Some("too deep"));
    deep_button
        .insert_adjacent_text("afterbegin", "Deep ")
        .unwrap();
    query(&c, "#unrendered").append_child(&deep_button).unwrap();
    let long = doc.create_element("button").unwrap();
    long.set_text_content(Some(&"x".repeat(1_000_000)));
    query(&c, "#deep").append_child(&long).unwrap();
    // Depth and size caps, not time: a budget no loaded machine reaches.
    let s = snap(Options {
        budget_ms: Some(120_000.0),
        ..Default::default()
    });
    let bottom = find(&s, Role::Button, "Bottom");
    assert_eq!((bottom.region.as_str(), bottom.visible), ("main", false));
    assert!(find(&s, Role::Button, "Rendered bottom").visible);
    assert!(
        try_find(&s, Role::Button, "Deep").is_some(),
        "content below the depth cap is left out of the name"
    );
    let longest = s
        .elements
        .iter()
        .map(|e| e.name.chars().count())
        .max()
        .unwrap();
    assert!(longest <= limits::MAX_TEXT_CHARS + 1, "{longest}");
    // The element cap.
    let s = snap(Options {
        max_elements: Some(2.0),
        ..Default::default()
    });
    assert!(s.has_more);
    assert_eq!(s.elements.len(), 2);
    // 100,000 nodes with a tiny budget: stops, says so, and stays near the budget.
    let c = load("<main id='wide'></main>");
    let wide = query(&c, "#wide");
    let html: String = (0..25_000)
        .map(|i| format!("<div><span>row {i}</span><button>B{i}</button></div>"))
        .collect();
    wide.set_inner_html(&html);
    // Style and layout of the new nodes are the browser's cost, paid before the clock starts.
    let _ = query(&c, "#wide button:last-child").get_bounding_client_rect();
    let t0 = js_sys::Date::now();
    let s = snap(Options {
        budget_ms: Some(5.0),
        ..Default::default()
    });
    let elapsed = js_sys::Date::now() - t0;
    assert!(s.has_more, "a 100,000-node page does not fit 5 ms");
    assert!(s.elements.len() < 25_000, "{} elements", s.elements.len());
    // Near the budget (a loaded machine stretches it).
    assert!(elapsed < 1_000.0, "took {elapsed} ms");
    let fp = dom::fingerprint(&Options {
        budget_ms: Some(5.0),
        ..Default::default()
    })
    .unwrap();
    assert!(diffed(&fp).ends_with('+'), "{fp}");
}

const CHANGING: &str = r#"<style>.gone { display: none }</style>
<main>
  <input aria-label="Name" value="Ada">
  <input type="checkbox" aria-label="Agree">
  <select aria-label="Size"><option>S</option><option selected>M</option></select>
  <button id="save">Save <span id="extra">draft</span></button>
  <label for="qty">Quantity</label><input id="qty" type="number" value="1">
  <p id="note">Nothing yet</p>
  <x-later id="later"></x-later>
  <input type="password" aria-label="Password" value="first-secret">
  <p id="echo">-</p>
  <div style="height: 3000px"></div>
  <button id="bottom">Bottom</button>
</main>"#;

/// Every fingerprint, answered from the cache or not, equals the fingerprint of a snapshot
/// taken right after it, through changes that make no DOM mutation (properties, styles,
/// late shadow roots) and changes that do.
#[wasm_bindgen_test]
fn cached_fingerprints_follow_every_change() {
    let c = load(CHANGING);
    let doc = document();
    // A selector that matches nothing still turns the cache off: the reference full walk.
    let full = Options {
        sensitive: vec!["#never-matches".into()],
        ..Default::default()
    };
    let check = |what: &str, previous: &str| -> String {
        let (fp, _) = agrees_with_full_walk(what);
        assert_ne!(fp, previous, "{what}: the change went unseen");
        fp
    };
    let hits = dom::fingerprint_cache_hits();
    let mut fp = check("first walk", "");
    // Focus and scrolling change the snapshot (focused, inViewport) without a mutation.
    query(&c, "#save")
        .unchecked_into::<web_sys::HtmlElement>()
        .focus()
        .unwrap();
    let focused = dom::snapshot(&Options::default()).unwrap();
    assert!(find(&focused, Role::Button, "Save draft").focused);
    assert_eq!(focused.elements, dom::snapshot(&full).unwrap().elements);
    let window = web_sys::window().unwrap();
    window.scroll_to_with_x_and_y(0.0, 10_000.0);
    let scrolled = dom::snapshot(&Options::default()).unwrap();
    assert!(find(&scrolled, Role::Button, "Bottom").in_viewport);
    assert_eq!(scrolled.elements, dom::snapshot(&full).unwrap().elements);
    window.scroll_to_with_x_and_y(0.0, 0.0);
    assert!(
        !find(
            &dom::snapshot(&Options::default()).unwrap(),
            Role::Button,
            "Bottom"
        )
        .in_viewport
    );
    let name: web_sys::HtmlInputElement = query(&c, "input[aria-label=Name]").unchecked_into();
    name.set_value("Grace");
    fp = check("value typed", &fp);
    let agree: web_sys::HtmlInputElement = query(&c, "input[type=checkbox]").unchecked_into();
    agree.set_checked(true);
    fp = check("checkbox ticked", &fp);
    let size: web_sys::HtmlSelectElement = query(&c, "select").unchecked_into();
    size.set_selected_index(0);
    fp = check("option chosen", &fp);
    query(&c, "#extra").class_list().add_1("gone").unwrap();
    fp = check("descendant hidden by a class", &fp);
    let s = dom::snapshot(&Options::default()).unwrap();
    assert!(try_find(&s, Role::Button, "Save").is_some());
    query(&c, "#save").class_list().add_1("gone").unwrap();
    fp = check("element hidden by a class", &fp);
    let qty: web_sys::HtmlInputElement = query(&c, "#qty").unchecked_into();
    qty.set_value("5");
    fp = check("labelled value", &fp);
    let sheet = doc
        .style_sheets()
        .get(doc.style_sheets().length() - 1)
        .unwrap();
    let sheet: web_sys::CssStyleSheet = sheet.unchecked_into();
    sheet
        .insert_rule_with_index("#note { display: none }", 0)
        .unwrap();
    fp = check("style rule added", &fp);
    let later = query(&c, "#later");
    let init = web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open);
    let root = later.attach_shadow(&init).unwrap();
    root.set_inner_html("<button>Late shadow button</button>");
    fp = check("shadow root attached", &fp);
    query(&c, "#note").set_text_content(Some("Changed text"));
    query(&c, "#note").remove_attribute("class").unwrap();
    sheet.delete_rule(0).unwrap();
    fp = check("text changed", &fp);
    // A replay keeps each input's `type` from the capture: a change of it is walked again.
    let name = query(&c, "input[aria-label=Name]");
    name.set_attribute("type", "checkbox").unwrap();
    fp = check("input type changed", &fp);
    name.unchecked_ref::<web_sys::HtmlInputElement>()
        .set_checked(true);
    fp = check("changed input ticked", &fp);
    let pw: web_sys::HtmlInputElement = query(&c, "input[type=password]").unchecked_into();
    query(&c, "#echo").set_text_content(Some("echo second-secret"));
    fp = check("echo written", &fp);
    pw.set_value("second-secret");
    let last = check("secret typed", &fp);
    let s = dom::snapshot(&Options::default()).unwrap();
    assert!(
        s.texts.iter().any(|t| t.text == "echo [redacted]"),
        "{:?}",
        s.texts
    );
    assert_ne!(last, fp);
    let replays = dom::fingerprint_cache_hits() - hits;
    assert!(
        replays >= 12,
        "only {replays} fingerprints came from the cache"
    );
}

const STYLED: &str = r#"<style>
[data-state="closed"] .panel { display: none }
#tick:checked + .after { display: none }
x-pending:not(:defined) { display: none }
@keyframes pulse { from { opacity: 0.5 } to { opacity: 1 } }
.pulsing { animation: pulse 10s infinite }
#plain { color: black }
</style>
<main>
  <div data-state="open"><button class="panel">Panel action</button></div>
  <input type="checkbox" id="tick" aria-label="Tick"><button class="after">After tick</button>
  <div popover id="pop"><button>In popover</button></div>
  <x-pending><button>Pending child</button></x-pending>
  <button id="anim">Animated</button>
  <p id="plain" data-noise="0">Plain text</p>
  <div id="scroller" style="height: 100px; overflow: auto"><div style="height: 5000px"></div><button>Deep in scroller</button></div>
</main>"#;

/// The visual memo (visibility reused between replays) never hides a change: each way a
/// style can change without a DOM mutation the engine reads is seen at once, and an
/// attribute no style reads is proven harmless and answered from the memo.
#[wasm_bindgen_test]
async fn visual_memo_sees_every_style_change() {
    let c = load(STYLED);
    // Fingerprints twice (the second may use the memo), then checks both against a full walk.
    let check = agrees_with_full_walk;
    let visible = |s: &Snapshot, name: &str| find(s, Role::Button, name).visible;
    check("warm-up");
    let (fp, s) = check("settled");
    assert!(visible(&s, "Panel action") && visible(&s, "After tick"));
    assert!(!visible(&s, "In popover") && !visible(&s, "Pending child"));

    let hits = dom::visual_memo_hits();
    query(&c, "#plain")
        .set_attribute("data-noise", "1")
        .unwrap();
    let (same, _) = check("an attribute no rule reads");
    assert_eq!(same, fp);
    assert!(dom::visual_memo_hits() > hits, "the memo was not used");

    query(&c, "[data-state]")
        .set_attribute("data-state", "closed")
        .unwrap();
    let (fp2, s) = check("an attribute a rule reads");
    assert_ne!(fp2, fp);
    assert!(!visible(&s, "Panel action"));

    let tick: web_sys::HtmlInputElement = query(&c, "#tick").unchecked_into();
    tick.set_checked(true);
    let (fp3, s) = check("checked by script, no event");
    assert_ne!(fp3, fp2);
    assert!(!visible(&s, "After tick"));

    let pop = query(&c, "#pop");
    let show = js_sys::Reflect::get(&pop, &"showPopover".into()).unwrap();
    show.unchecked_ref::<js_sys::Function>()
        .call0(&pop)
        .unwrap();
    let (fp4, s) = check("popover shown");
    assert_ne!(fp4, fp3);
    assert!(visible(&s, "In popover"));

    js_sys::Function::new_no_args(
        "customElements.define('x-pending', class extends HTMLElement {})",
    )
    .call0(&wasm_bindgen::JsValue::NULL)
    .unwrap();
    let (fp5, s) = check("custom element defined");
    assert_ne!(fp5, fp4);
    assert!(visible(&s, "Pending child"));

    // While anything animates, visibility is read on every call.
    query(&c, "#anim").class_list().add_1("pulsing").unwrap();
    check("animation started");
    let hits = dom::visual_memo_hits();
    check("animating");
    assert_eq!(dom::visual_memo_hits(), hits, "memo used while animating");
    query(&c, "#anim").class_list().remove_1("pulsing").unwrap();
    check("animation stopped");

    // A rule edited in place through the CSSOM announces nothing: seen within the memo's age.
    // (First let the events the steps above queued, `toggle` and `animationcancel`, fire.)
    sleep(200).await;
    check("settled again");
    // An element scrolled by script: its scroll event (next frame) voids the viewport facts.
    let deep = |s: &Snapshot| find(s, Role::Button, "Deep in scroller").in_viewport;
    let (_, s) = check("before scrolling");
    assert!(!deep(&s));
    query(&c, "#scroller").set_scroll_top(5000);
    sleep(100).await;
    let (_, s) = check("element scrolled");
    assert!(deep(&s), "the scrolled element is not in the viewport");

    let doc = document();
    let sheet: web_sys::CssStyleSheet = doc
        .style_sheets()
        .get(doc.style_sheets().length() - 1)
        .unwrap()
        .unchecked_into();
    let rules = js_sys::Reflect::get(&sheet, &"cssRules".into()).unwrap();
    let rules: js_sys::Array = js_sys::Array::from(&rules);
    let rule = rules
        .iter()
        .find(|r| {
            js_sys::Reflect::get(r, &"selectorText".into())
                .ok()
                .and_then(|t| t.as_string())
                .as_deref()
                == Some("#plain")
        })
        .unwrap();
    let style = js_sys::Reflect::get(&rule, &"style".into()).unwrap();
    style
        .unchecked_ref::<web_sys::CssStyleDeclaration>()
        .set_property("display", "none")
        .unwrap();
    sleep(1100).await;
    let (_, s) = check("rule edited in place");
    assert!(
        !s.texts.iter().any(|t| t.text == "Plain text"),
        "{:?}",
        s.texts
    );
}

const CLASSED: &str = r#"<style>
.odd .hide-me { display: none }
.first-on + .sib { display: none }
li:has(.mark) { display: none }
.never-here .odd span.nothing { display: none }
</style>
<main>
  <section id="plain"><button>Plain one</button><p>Plain text</p></section>
  <section id="holder"><button class="hide-me">Hideable</button></section>
  <ul><li><span id="mark">Row one</span></li><li>Row two</li></ul>
  <p id="first">First</p><p class="sib">Sibling text</p>
  <label>Quantity <input type="number" value="1"></label>
  <div id="host"></div>
</main>"#;

/// A class change keeps the visual memo when no rule that names a changed token can match
/// in its reach (a class no rule names, a rule whose subject matches nothing below), and
/// drops it when one can: a rule hiding a descendant, `:has()`, a sibling combinator, a
/// shadow root's own rules, `:host()`, and a sheet that cannot be read (the page holds a
/// shadow root, so its capture is not one tree in document order and no part of the memo
/// is kept: see `class_changes_read_again_only_what_their_rules_reach` for one tree).
/// Either way the fingerprint is that of a full walk.
#[wasm_bindgen_test]
async fn class_changes_keep_the_memo_where_no_rule_reaches() {
    let c = load(CLASSED);
    let host = query(&c, "#host");
    let root = host
        .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
        .unwrap();
    root.set_inner_html(
        "<style>.shut button { display: none } :host(.closed) button { visibility: hidden }</style>\
         <div id=\"inner\"><button>Inside</button></div>",
    );
    let inner: web_sys::Element = root.get_element_by_id("inner").unwrap();
    sleep(60).await;
    let check = |what: &str| -> (String, bool) {
        let (fp, reference) = agrees_with_full_walk(what);
        (
            fp,
            reference
                .elements
                .iter()
                .any(|e| e.visible && e.label() == "Quantity"),
        )
    };
    check("warm-up");
    let (mut fp, labelled) = check("settled");
    assert!(labelled, "the labelled field is not seen");
    // Each change, then: is the memo kept, does the fingerprint change?
    let steps: Vec<(&str, Box<dyn Fn()>, bool)> = vec![
        (
            "a class no rule names",
            Box::new(|| query(&c, "#plain").class_list().add_1("unnamed").unwrap()),
            true,
        ),
        (
            "a named class whose rule matches nothing below",
            Box::new(|| query(&c, "#plain").class_list().add_1("odd").unwrap()),
            true,
        ),
        (
            "the same class where its rule hides a descendant",
            Box::new(|| query(&c, "#holder").class_list().add_1("odd").unwrap()),
            false,
        ),
        (
            "a class in a :has() rule",
            Box::new(|| query(&c, "#mark").class_list().add_1("mark").unwrap()),
            false,
        ),
        (
            "a class in a sibling rule",
            Box::new(|| query(&c, "#first").class_list().add_1("first-on").unwrap()),
            false,
        ),
        (
            "a class no rule names, in a shadow root",
            Box::new(|| inner.class_list().add_1("unnamed").unwrap()),
            true,
        ),
        (
            "a class a shadow root's rule reads",
            Box::new(|| inner.class_list().add_1("shut").unwrap()),
            false,
        ),
        (
            "that class removed",
            Box::new(|| inner.class_list().remove_1("shut").unwrap()),
            false,
        ),
        (
            "the host's class a :host() rule reads",
            Box::new(|| host.class_list().add_1("closed").unwrap()),
            false,
        ),
        (
            "classes swapped in order only",
            Box::new(|| {
                query(&c, "#plain")
                    .set_attribute("class", "odd unnamed")
                    .unwrap()
            }),
            true,
        ),
    ];
    for (what, change, kept) in steps {
        change();
        let hits = dom::visual_memo_hits();
        let first = dom::fingerprint(&Options::default()).unwrap();
        let used = dom::visual_memo_hits() > hits;
        let (now, _) = check(what);
        assert_eq!(first, now, "{what}: the first fingerprint after the change");
        assert_eq!(used, kept, "{what}: memo used: {used}");
        assert_eq!(
            now == fp,
            kept,
            "{what}: fingerprint changed: {}",
            now != fp
        );
        fp = now;
    }
    // A sheet whose rules cannot be read: any class may be named there.
    let doc = document();
    let sheet = doc
        .style_sheets()
        .get(doc.style_sheets().length() - 1)
        .unwrap();
    js_sys::Function::new_with_args(
        "sheet",
        "Object.defineProperty(sheet, 'cssRules', { get() { throw new DOMException('cross-origin', 'SecurityError'); } });",
    )
    .call1(&JsValue::NULL, &sheet)
    .unwrap();
    check("an unreadable sheet");
    query(&c, "#plain").class_list().add_1("anything").unwrap();
    let hits = dom::visual_memo_hits();
    dom::fingerprint(&Options::default()).unwrap();
    assert_eq!(
        dom::visual_memo_hits(),
        hits,
        "memo used beside an unreadable sheet"
    );
    check("a class change beside an unreadable sheet");
}

const RESTYLED: &str = r#"<style>
.shut > button, .shut > input { display: none }
.folded .hint { display: none }
.bare .cur { display: none }
.sib + li { display: none }
.lead ~ p { visibility: hidden }
li:has(.mark) b { display: none }
.short .long { display: none }
</style>
<main>
  <section id="box"><button>Hide me</button><input id="boxed"><span><button>Not a child</button></span></section>
  <label for="boxed">Boxed field</label>
  <div id="labels"><label for="q">Quantity <span class="hint">in units</span></label></div>
  <input id="q" type="number" value="1">
  <p id="total">Total <b class="cur">EUR</b></p>
  <ul><li id="one">One</li><li>Two</li><li>Three <b id="bold">bold</b></li></ul>
  <div><p id="first">First words</p><p>Second words</p><button>Beside</button></div>
  <button id="far">Far</button>
  <p>Price in <span aria-labelledby="cur"></span></p>
  <div id="currency"><span id="cur">EUR <b class="long">euros</b></span></div>
</main>"#;

/// A class change whose rule can match elements below (or, with `+`/`~`, beside) the
/// changed one keeps the visual memo but for those elements' subtrees: their visibility,
/// the names read from nodes in or around them (a `<label for>` whose words a rule hides),
/// and the texts holding them are read again. Each change leaves every answer equal to a
/// full walk's; a `:has()` rule still drops the memo whole.
#[wasm_bindgen_test]
async fn class_changes_read_again_only_what_their_rules_reach() {
    let c = load(RESTYLED);
    let full = Options {
        sensitive: vec!["#never-matches".into()],
        ..Default::default()
    };
    sleep(60).await;
    let check = |what: &str| -> String { agrees_with_full_walk(what).0 };
    check("warm-up");
    let mut fp = check("settled");
    let class = |selector: &str, token: &str, on: bool| {
        let list = query(&c, selector).class_list();
        if on {
            list.add_1(token).unwrap();
        } else {
            list.remove_1(token).unwrap();
        }
    };
    // Each change, then: is the memo used (in part), and what must the page show?
    let shown = |s: &Snapshot, role: Role, name: &str| {
        s.elements
            .iter()
            .any(|e| e.visible && e.role == role && e.label() == name)
    };
    let text = |s: &Snapshot, words: &str| s.texts.iter().any(|t| t.text == words);
    type Step<'a> = (
        &'a str,
        Box<dyn Fn() + 'a>,
        bool,
        Box<dyn Fn(&Snapshot) -> bool + 'a>,
    );
    let steps: Vec<Step> = vec![
        (
            "children hidden, one labelled from outside",
            Box::new(|| class("#box", "shut", true)),
            true,
            Box::new(|s| {
                !shown(s, Role::Button, "Hide me")
                    && !shown(s, Role::Textbox, "Boxed field")
                    && shown(s, Role::Button, "Not a child")
            }),
        ),
        (
            "a label's words hidden where its field is not",
            Box::new(|| class("#labels", "folded", true)),
            true,
            Box::new(|s| shown(s, Role::Spinbutton, "Quantity")),
        ),
        (
            "words hidden inside a text",
            Box::new(|| class("#total", "bare", true)),
            true,
            Box::new(|s| text(s, "Total") && !text(s, "Total EUR")),
        ),
        (
            "a sibling hidden by `+`",
            Box::new(|| class("#one", "sib", true)),
            true,
            Box::new(|s| !shown(s, Role::Listitem, "Two") && shown(s, Role::Listitem, "One")),
        ),
        (
            "siblings hidden by `~`",
            Box::new(|| class("#first", "lead", true)),
            true,
            Box::new(|s| !text(s, "Second words") && text(s, "First words")),
        ),
        (
            "words hidden where a text's `aria-labelledby` reads them",
            Box::new(|| class("#currency", "short", true)),
            true,
            Box::new(|s| text(s, "Price in EUR")),
        ),
        (
            "a class a `:has()` rule reads",
            Box::new(|| class("#bold", "mark", true)),
            false,
            Box::new(|s| shown(s, Role::Listitem, "Three")),
        ),
        (
            "all of it undone",
            Box::new(|| {
                class("#box", "shut", false);
                class("#labels", "folded", false);
                class("#total", "bare", false);
                class("#one", "sib", false);
                class("#first", "lead", false);
            }),
            true,
            Box::new(|s| {
                shown(s, Role::Button, "Hide me")
                    && shown(s, Role::Textbox, "Boxed field")
                    && shown(s, Role::Spinbutton, "Quantity in units")
                    && text(s, "Total EUR")
                    && shown(s, Role::Listitem, "Two")
                    && text(s, "Second words")
            }),
        ),
    ];
    for (what, change, used, shows) in steps {
        change();
        let hits = dom::visual_memo_hits();
        let first = dom::fingerprint(&Options::default()).unwrap();
        assert_eq!(
            dom::visual_memo_hits() > hits,
            used,
            "{what}: memo used: {}",
            !used
        );
        let now = check(what);
        assert_eq!(first, now, "{what}: the first fingerprint after the change");
        assert_ne!(now, fp, "{what}: the change went unseen");
        let s = dom::snapshot(&full).unwrap();
        assert!(shows(&s), "{what}: {:?} {:?}", s.elements, s.texts);
        fp = now;
    }
}

/// Pointer and focus events void the visual memo only where a rule matching those states
/// may do more than paint: colour-only hover rules (every real site has them) keep it, a
/// hover rule that shows a menu, moves a box or sets a custom property does not, nor does
/// one the scan cannot read declaration by declaration.
#[wasm_bindgen_test]
async fn pointer_events_void_the_memo_only_where_state_rules_move_things() {
    let dispatch = js_sys::Function::new_with_args(
        "el",
        "el.dispatchEvent(new PointerEvent('pointerover', { bubbles: true })); \
         el.dispatchEvent(new MouseEvent('mousedown', { bubbles: true })); \
         el.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));",
    );
    for (sheet, voids) in [
        ("", false),
        (
            "button:hover { color: red; background-color: #eee; outline: 2px solid; \
             cursor: pointer; border-top-color: blue } a:focus-visible { text-decoration: underline }",
            false,
        ),
        (
            "nav .sub { display: none } nav:hover .sub { display: block }",
            true,
        ),
        ("button:active { transform: scale(0.9) }", true),
        ("button:focus { border-width: 3px }", true),
        ("button:hover { --lift: 4px }", true),
        ("button:hover { opacity: 0 }", true),
        ("@media (hover: hover) { button:hover { color: red } }", true),
    ] {
        let c = load(&format!(
            "<style>{sheet}</style><main><nav><button>Menu</button>\
             <ul class=\"sub\"><li>Sub</li></ul></nav><button id=\"b\">Buy</button></main>"
        ));
        // Let what loading queued fire first (the sheet's load, the selection's change).
        sleep(60).await;
        for _ in 0..3 {
            dom::fingerprint(&Options::default()).unwrap();
        }
        let hits = dom::visual_memo_hits();
        dom::fingerprint(&Options::default()).unwrap();
        assert!(dom::visual_memo_hits() > hits, "{sheet:?}: memo unused on a quiet page");
        sleep(40).await;
        let hits = dom::visual_memo_hits();
        dispatch.call1(&JsValue::NULL, &query(&c, "#b")).unwrap();
        let quiet = dom::quiet_for().unwrap();
        let still = dom::still_for().unwrap();
        dom::fingerprint(&Options::default()).unwrap();
        let used = dom::visual_memo_hits() > hits;
        assert_eq!(used, !voids, "{sheet:?}: memo used after pointer events: {used}");
        // Whatever the styles, input is activity: a settle counts its quiet from there. What
        // can change an observation (`stillFor`) moved exactly where the memo went.
        assert!(quiet < 20.0, "{sheet:?}: quiet for {quiet} ms after them");
        assert_eq!(still < 20.0, voids, "{sheet:?}: still for {still} ms after them");
    }
}

/// A snapshot after a patch (rows added at the top, in the middle and at the end, a text
/// added, a row removed) comes from the cache, in the order a full walk gives.
#[wasm_bindgen_test]
fn a_snapshot_of_a_patched_page_is_in_document_order() {
    let c = load(
        r#"<main><h2>Cart</h2><ul id="cart"><li>Shirt M</li><li>Mug</li><li>Cap</li></ul>
        <p id="note">Three items</p><button>Checkout</button></main>"#,
    );
    let full = Options {
        sensitive: vec!["#never-matches".into()],
        ..Default::default()
    };
    for _ in 0..3 {
        dom::snapshot(&Options::default()).unwrap();
    }
    let doc = document();
    let cart = query(&c, "#cart");
    let li = |text: &str| {
        let e = doc.create_element("li").unwrap();
        e.set_text_content(Some(text));
        e
    };
    cart.prepend_with_node_1(&li("Socks")).unwrap();
    let mug = query(&c, "#cart li:nth-child(3)");
    cart.insert_before(&li("Scarf"), Some(&mug)).unwrap();
    cart.append_with_node_1(&li("Belt")).unwrap();
    let extra = doc.create_element("p").unwrap();
    extra.set_text_content(Some("Free shipping"));
    query(&c, "h2").after_with_node_1(&extra).unwrap();
    query(&c, "#cart li:nth-child(2)").remove();
    let patches = dom::cache_patches();
    dom::fingerprint(&Options::default()).unwrap();
    assert!(
        dom::cache_patches() > patches,
        "the capture was not patched"
    );
    let hits = dom::fingerprint_cache_hits();
    let cached = dom::snapshot(&Options::default()).unwrap();
    assert!(
        dom::fingerprint_cache_hits() > hits,
        "the snapshot walked again"
    );
    let reference = dom::snapshot(&full).unwrap();
    let names = |s: &Snapshot| -> Vec<String> {
        s.elements
            .iter()
            .map(|e| format!("{:?} {}", e.role, e.name))
            .collect()
    };
    assert_eq!(names(&cached), names(&reference));
    assert_eq!(cached.elements, reference.elements);
    assert_eq!(cached.texts, reference.texts);
    let rows: Vec<&str> = cached
        .elements
        .iter()
        .filter(|e| e.role == Role::Listitem)
        .map(|e| e.text.as_deref().unwrap_or_default())
        .collect();
    assert_eq!(rows, ["Socks", "Scarf", "Mug", "Cap", "Belt"]);
    let texts: Vec<&str> = cached.texts.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(texts, ["Free shipping", "Three items"]);
}

/// A name that follows a value changes without any mutation: snapshots answered from the
/// cache still give the node a new ref, and the old ref fails with TARGET_CHANGED.
#[wasm_bindgen_test]
fn refs_follow_identity_changes_between_cached_snapshots() {
    let c = load(
        r#"<main><input id="qty" value="1">
        <button aria-labelledby="word qty">Buy</button><span id="word">Buy</span></main>"#,
    );
    let buy = |s: &Snapshot| {
        s.elements
            .iter()
            .find(|e| e.role == Role::Button)
            .unwrap()
            .clone()
    };
    let first = buy(&dom::snapshot(&Options::default()).unwrap());
    let again = buy(&dom::snapshot(&Options::default()).unwrap());
    assert_eq!(first.name, "Buy 1");
    assert_eq!(again.reference, first.reference);
    let qty: web_sys::HtmlInputElement = query(&c, "#qty").unchecked_into();
    qty.set_value("2");
    let changed = buy(&dom::snapshot(&Options::default()).unwrap());
    assert_eq!(changed.name, "Buy 2");
    assert_ne!(changed.reference, first.reference);
    assert_eq!(
        dom::element(&first.reference).unwrap_err().code,
        ErrorCode::TargetChanged
    );
    assert!(dom::element(&changed.reference).is_ok());
    qty.set_value("1");
    let back = buy(&dom::snapshot(&Options::default()).unwrap());
    assert_eq!(back.name, "Buy 1");
    assert_ne!(back.reference, first.reference);
    assert_ne!(back.reference, changed.reference);
    assert!(dom::element(&back.reference).is_ok());
    assert_eq!(
        buy(&dom::snapshot(&Options::default()).unwrap()).reference,
        back.reference
    );
}

/// Refs kept through patches follow their nodes: twin buttons whose rows are added,
/// removed and moved keep their refs, a new one gets its own, and only the rows walked again
/// are looked up.
#[wasm_bindgen_test]
fn refs_follow_their_nodes_through_patches() {
    let c = load(
        r#"<main><ul id="rows"><li id="a">Alpha <button>Delete</button></li>
        <li id="b">Beta <button>Delete</button></li><li id="g">Gamma <button>Delete</button></li></ul></main>"#,
    );
    let refs = |s: &Snapshot| -> Vec<(String, String)> {
        s.elements
            .iter()
            .filter(|e| e.role == Role::Button)
            .map(|e| (e.within.clone().unwrap_or_default(), e.reference.clone()))
            .collect()
    };
    let row_of = |reference: &str| -> String {
        dom::element(reference)
            .unwrap()
            .parent_element()
            .unwrap()
            .id()
    };
    let before = refs(&agrees_with_full_walk("at first").1);
    assert_eq!(before.len(), 3, "{before:?}");
    // The refs a cached snapshot handed out are what the next one keeps.
    dom::snapshot(&Options::default()).unwrap();
    let doc = document();
    let zero = doc.create_element("li").unwrap();
    zero.set_id("z");
    zero.set_inner_html("Zero <button>Delete</button>");
    let rows = query(&c, "#rows");
    rows.prepend_with_node_1(&zero).unwrap();
    query(&c, "#b").remove();
    rows.prepend_with_node_1(&query(&c, "#g")).unwrap();
    // The cached snapshot looks up the rows it walked again (the new one and the moved one,
    // each a row and a button) and none of the others.
    let lookups = dom::ref_lookups();
    let cached = dom::snapshot(&Options::default()).unwrap();
    let looked_up = dom::ref_lookups() - lookups;
    assert!(
        looked_up <= 4 && cached.elements.len() == 8,
        "{looked_up} of {} refs looked up",
        cached.elements.len()
    );
    let s = agrees_with_full_walk("rows added, removed and moved").1;
    assert_eq!(refs(&cached), refs(&s));
    let after = refs(&s);
    let wanted: Vec<&str> = after.iter().map(|(_, r)| r.as_str()).collect();
    assert_eq!(
        wanted.iter().map(|r| row_of(r)).collect::<Vec<_>>(),
        ["g", "z", "a"]
    );
    for (place, reference) in &before {
        if !place.contains("Beta") {
            assert!(
                after.contains(&(place.clone(), reference.clone())),
                "{place}: {reference} not kept in {after:?}"
            );
        }
    }
}

/// Names read from elsewhere (a `<label>`, `aria-labelledby` targets) stay right through
/// patches, which keep such records unless the change reached what they read: a change far
/// from them, one inside a target, a target that comes only later, rows added before them
/// (their records move), and a change inside the label.
#[wasm_bindgen_test]
fn names_read_from_elsewhere_follow_patches() {
    let c = load(
        r#"<main><ul id="rows"><li>One</li></ul>
        <label>Quantity <input id="q" value="1"></label>
        <button aria-labelledby="word">Buy</button><span id="word">Buy</span>
        <button aria-labelledby="later">Soon</button>
        <p>Total in <span aria-labelledby="unit"></span></p><span id="unit">EUR</span>
        <p id="far">Far</p></main>"#,
    );
    let full = Options {
        sensitive: vec!["#never-matches".into()],
        ..Default::default()
    };
    let memo_used = std::cell::Cell::new(0);
    let names = |what: &str| -> Vec<String> {
        let hits = dom::visual_memo_hits();
        let fp = dom::fingerprint(&Options::default()).unwrap();
        memo_used.set(memo_used.get() + (dom::visual_memo_hits() > hits) as u32);
        let reference = dom::snapshot(&full).unwrap();
        assert_eq!(
            fp,
            full_fingerprint(&reference),
            "{what}: fingerprints differ"
        );
        let cached = dom::snapshot(&Options::default()).unwrap();
        assert_eq!(cached.elements, reference.elements, "{what}");
        assert_eq!(cached.texts, reference.texts, "{what}");
        cached
            .elements
            .iter()
            .filter(|e| matches!(e.role, Role::Textbox | Role::Button))
            .map(|e| e.name.clone())
            .collect()
    };
    let doc = document();
    assert_eq!(names("at first"), ["Quantity", "Buy", "Soon"]);
    let patches = dom::cache_patches();
    query(&c, "#far").set_text_content(Some("Near"));
    assert_eq!(names("a change far away"), ["Quantity", "Buy", "Soon"]);
    query(&c, "#word").set_text_content(Some("Order"));
    assert_eq!(names("a target's text"), ["Quantity", "Order", "Soon"]);
    let later = doc.create_element("span").unwrap();
    later.set_id("later");
    later.set_text_content(Some("Now"));
    query(&c, "#far").after_with_node_1(&later).unwrap();
    assert_eq!(
        names("a target that came later"),
        ["Quantity", "Order", "Now"]
    );
    for text in ["Zero", "Minus one"] {
        let row = doc.create_element("li").unwrap();
        row.set_text_content(Some(text));
        query(&c, "#rows").prepend_with_node_1(&row).unwrap();
        assert_eq!(names("rows added before"), ["Quantity", "Order", "Now"]);
    }
    query(&c, "label")
        .first_child()
        .unwrap()
        .set_text_content(Some("Amount "));
    assert_eq!(names("the label's text"), ["Amount", "Order", "Now"]);
    // A text whose words an `aria-labelledby` inside it reads from elsewhere.
    query(&c, "#unit").set_text_content(Some("USD"));
    assert_eq!(names("a text's named words"), ["Amount", "Order", "Now"]);
    let s = dom::snapshot(&Options::default()).unwrap();
    assert!(
        s.texts.iter().any(|t| t.text == "Total in USD"),
        "{:?}",
        s.texts
    );
    let patched = dom::cache_patches() - patches;
    assert!(patched >= 6, "only {patched} of 7 changes were patched");
    assert!(
        memo_used.get() >= 4,
        "the visual memo was used {} times",
        memo_used.get()
    );
}

/// An `id` change is patched (its element walked again) where no element names that id, old
/// or new: a list's id names the region of its items. Where one does (`aria-labelledby`), the
/// patch gives up: with duplicate ids, an element earlier in the page taking a referenced id
/// takes over the name, which walking it again alone would not see.
#[wasm_bindgen_test]
fn an_aria_state_no_rule_reads_keeps_the_viewport_facts() {
    let c = load(
        r#"<style>.panel { display: none; height: 3000px } [aria-expanded="true"] .panel { display: block }</style>
        <main><button id="star" aria-pressed="false">Star</button>
        <div id="more" aria-expanded="false"><button>More</button><div class="panel">Panel</div></div>
        <button>Below</button><div style="height: 3000px"></div><button>Far</button></main>"#,
    );
    window_scroll_top();
    let s = agrees_with_full_walk("at first").1;
    assert!(find(&s, Role::Button, "Below").in_viewport);
    assert!(!find(&s, Role::Button, "Far").in_viewport);
    // A state no rule reads moves nothing: the snapshot reads the viewport facts of the
    // re-walked button alone.
    let reads = dom::view_reads();
    query(&c, "#star")
        .set_attribute("aria-pressed", "true")
        .unwrap();
    let s = agrees_with_full_walk("a state no rule reads").1;
    assert_eq!(find(&s, Role::Button, "Star").pressed, Some(Tristate::True));
    assert!(
        dom::view_reads() - reads <= 1,
        "{} viewport reads for one changed button",
        dom::view_reads() - reads
    );
    // A state a rule reads shows the panel, which pushes the button below out of view: read
    // again, all of it.
    let reads = dom::view_reads();
    query(&c, "#more")
        .set_attribute("aria-expanded", "true")
        .unwrap();
    let s = agrees_with_full_walk("a state a rule reads").1;
    assert!(!find(&s, Role::Button, "Below").in_viewport);
    assert!(
        dom::view_reads() - reads >= 4,
        "the viewport facts were not read again"
    );
}

fn window_scroll_top() {
    web_sys::window().unwrap().scroll_to_with_x_and_y(0.0, 0.0);
}

#[wasm_bindgen_test]
fn id_changes_are_patched_where_no_reference_names_them() {
    let c = load(
        r#"<main><ul id="rows"><li>One</li><li>Two</li></ul>
        <span id="early">Early</span>
        <button aria-labelledby="word">Buy</button><span id="word">Order</span>
        <p>Far</p></main>"#,
    );
    let check = |what: &str| -> Snapshot { agrees_with_full_walk(what).1 };
    let s = check("at first");
    assert!(s.elements.iter().any(|e| e.region.ends_with("list:rows")));
    let patches = dom::cache_patches();
    query(&c, "#rows").set_id("lines");
    let s = check("a list's id changed");
    assert!(
        s.elements.iter().any(|e| e.region.ends_with("list:lines")),
        "{:?}",
        s.elements
    );
    query(&c, "p").set_id("far");
    check("an id given");
    assert_eq!(
        dom::cache_patches() - patches,
        2,
        "id changes nothing names were not patched"
    );
    assert_eq!(find(&s, Role::Button, "Order").role, Role::Button);
    // Duplicate ids: the earlier element now names the button.
    query(&c, "#early").set_id("word");
    let s = check("a referenced id taken earlier in the page");
    assert!(
        try_find(&s, Role::Button, "Early").is_some(),
        "{:?}",
        s.elements
    );
}

/// An element added or removed holding an id some element names (`aria-labelledby`, a
/// `<label for>`) can change that element's name far from the change: with duplicate ids the
/// first in tree order is the one named. An added element that takes such an id first, or a
/// removed one that held it, leaves every cached answer equal to a full walk's; an id nothing
/// names, or a later duplicate, is still patched.
#[wasm_bindgen_test]
fn ids_added_or_removed_where_a_reference_names_them() {
    let c = load(
        r#"<main><div id="top"></div>
        <button aria-labelledby="word">Buy</button><span id="word">Order</span>
        <label for="mail">Email</label><input id="mail" placeholder="Typed">
        <div id="pair"><input id="phone" class="one"><input id="phone" class="two" placeholder="Second"></div>
        <label for="phone">Phone</label>
        <p id="far">Far</p></main>"#,
    );
    let doc = document();
    let names = |what: &str| -> Vec<String> {
        // Once more before the change: that fingerprint keeps the visual memo it patches.
        let (_, reference) = agrees_with_full_walk(what);
        dom::fingerprint(&Options::default()).unwrap();
        reference
            .elements
            .iter()
            .filter(|e| matches!(e.role, Role::Textbox | Role::Button))
            .map(|e| e.name.clone())
            .collect()
    };
    let span = |id: &str, text: &str| {
        let s = doc.create_element("span").unwrap();
        s.set_id(id);
        s.set_text_content(Some(text));
        s
    };
    let input = |id: &str| {
        let i = doc.create_element("input").unwrap();
        i.set_id(id);
        i
    };
    let top = query(&c, "#top");
    assert_eq!(names("at first"), ["Order", "Email", "Phone", "Second"]);
    names("settled");
    let patches = dom::cache_patches();
    top.append_with_node_1(&span("other", "Other")).unwrap();
    assert_eq!(
        names("an id nothing names"),
        ["Order", "Email", "Phone", "Second"]
    );
    query(&c, "#far")
        .after_with_node_1(&span("word", "Late"))
        .unwrap();
    assert_eq!(
        names("a later duplicate"),
        ["Order", "Email", "Phone", "Second"]
    );
    assert_eq!(
        dom::cache_patches() - patches,
        2,
        "ids that change no name were not patched"
    );
    let early = span("word", "Early");
    top.append_with_node_1(&early).unwrap();
    assert_eq!(
        names("a referenced id added earlier in the page"),
        ["Early", "Email", "Phone", "Second"]
    );
    early.remove();
    assert_eq!(
        names("the first of two duplicates removed"),
        ["Order", "Email", "Phone", "Second"]
    );
    let wrapper = doc.create_element("div").unwrap();
    wrapper.append_with_node_1(&span("word", "Nested")).unwrap();
    top.append_with_node_1(&wrapper).unwrap();
    assert_eq!(
        names("a referenced id added inside a subtree"),
        ["Nested", "Email", "Phone", "Second"]
    );
    wrapper.remove();
    names("that subtree removed");
    let field = input("mail");
    top.append_with_node_1(&field).unwrap();
    assert_eq!(
        names("a label's id added earlier in the page"),
        ["Email", "Order", "Typed", "Phone", "Second"]
    );
    field.remove();
    assert_eq!(
        names("the label's first field removed"),
        ["Order", "Email", "Phone", "Second"]
    );
    query(&c, "#pair .one").remove();
    assert_eq!(
        names("the first of two labelled duplicates removed"),
        ["Order", "Email", "Phone"]
    );
}

/// The places of the records (`within`) are kept with the visual memo between snapshots of
/// an unchanged page, and found again after a change of the container's words (text edited
/// in place, a label set, words hidden by a style): each time, what a full walk gives.
#[wasm_bindgen_test]
fn places_kept_between_snapshots_follow_every_change() {
    let c = load(
        r#"<style>.gone .t { display: none }</style><main><ul id="rows">
        <li><span class="t">Walk dog</span> <button>Delete</button></li>
        <li><span class="t">Feed cat</span> <button>Delete</button></li></ul></main>"#,
    );
    let full = Options {
        sensitive: vec!["#never-matches".into()],
        ..Default::default()
    };
    let places = |what: &str| -> Vec<Option<String>> {
        let reference = dom::snapshot(&full).unwrap();
        let cached = dom::snapshot(&Options::default()).unwrap();
        assert_eq!(cached.elements, reference.elements, "{what}");
        cached
            .elements
            .iter()
            .filter(|e| e.role == Role::Button)
            .map(|e| e.within.clone())
            .collect()
    };
    let both = |a: &str, b: &str| vec![Some(a.to_owned()), Some(b.to_owned())];
    places("warm-up");
    assert_eq!(
        places("at first"),
        both("listitem[Walk dog]", "listitem[Feed cat]")
    );
    let hits = dom::place_memo_hits();
    query(&c, "li").set_attribute("data-noise", "1").unwrap();
    assert_eq!(
        places("an attribute nothing reads"),
        both("listitem[Walk dog]", "listitem[Feed cat]")
    );
    assert!(dom::place_memo_hits() > hits, "the places were not kept");
    // A state that no name or word reads is patched: only the button walked again is
    // placed again (the reference walk places both).
    query(&c, "button")
        .set_attribute("aria-pressed", "true")
        .unwrap();
    let reference = dom::snapshot(&full).unwrap();
    let reads = dom::place_reads();
    let cached = dom::snapshot(&Options::default()).unwrap();
    assert_eq!(cached.elements, reference.elements, "a state no word reads");
    assert_eq!(
        dom::place_reads() - reads,
        1,
        "the places were not kept through a state",
    );
    // An ARIA attribute that hides words places again.
    query(&c, ".t")
        .set_attribute("aria-hidden", "true")
        .unwrap();
    let hidden = places("a container's words hidden by aria-hidden");
    assert_ne!(hidden[0].as_deref(), Some("listitem[Walk dog]"));
    query(&c, ".t").remove_attribute("aria-hidden").unwrap();
    places("settled again");
    query(&c, ".t").set_text_content(Some("Walk cat"));
    assert_eq!(
        places("a container's words edited"),
        both("listitem[Walk cat]", "listitem[Feed cat]")
    );
    places("settled again");
    query(&c, "li:last-child")
        .set_attribute("aria-label", "Chores")
        .unwrap();
    assert_eq!(
        places("a container labelled"),
        both("listitem[Walk cat]", "listitem[Chores]")
    );
    places("settled again");
    query(&c, "li").class_list().add_1("gone").unwrap();
    let hidden = places("a container's words hidden by a style");
    assert_ne!(hidden[0].as_deref(), Some("listitem[Walk cat]"));
    assert_eq!(hidden[1].as_deref(), Some("listitem[Chores]"));
}

const MUTABLE: &str = r##"<header><nav aria-label="Top"><a href="#a">Home</a><a href="#b">Shop</a></nav></header>
<main>
  <section aria-label="Catalogue">
    <h2>Products</h2>
    <ul id="products"><li>Shirt M <button>Add Shirt M</button></li><li>Trousers L <button>Add Trousers L</button></li></ul>
    <div class="grid"><div class="card"><span>Socks</span> <button>Add <span>Socks</span></button></div></div>
  </section>
  <section aria-label="Cart"><ul id="cart"><li>Empty</li></ul><p role="status" id="status">Nothing yet</p></section>
  <form aria-label="Checkout"><label>Name <input value="Ada"></label><button type="submit">Pay</button></form>
  <p>Some running <b>text</b> here.</p>
  <div class="holder"></div>
  <div><button aria-labelledby="ref-0">Named</button><span id="ref-0">Ref zero</span>
  <label for="fld-0">Field zero</label><input id="fld-0"></div>
</main>
<footer><p>Footer text</p></footer>"##;

/// Child-list, text and attribute mutations patch the cache instead of walking the page
/// again; after each of 2,400 random ones (added, removed, moved and wrapped elements, among
/// them twins of ids a `<label for>` or an `aria-labelledby` names, edited and added texts,
/// ARIA, role, hidden, style, type... attributes set and removed; in the last two runs, half
/// of them class changes that rules do and do not read) the fingerprint equals that of a full
/// walk.
#[wasm_bindgen_test]
async fn patched_fingerprints_equal_full_walks_through_random_mutations() {
    let full = Options {
        sensitive: vec!["#never-matches".into()],
        ..Default::default()
    };
    let mutate = js_sys::Function::new_with_args(
        "seed, classy",
        r##"
        let x = seed >>> 0;
        const rnd = (n) => { x = (Math.imul(x, 1103515245) + 12345) >>> 0; return (x >>> 8) % n; };
        const main = document.querySelector('main');
        const pick = (sel) => { const all = [...main.querySelectorAll(sel)]; return all.length ? all[rnd(all.length)] : main; };
        const containers = 'section, ul, li, div, p, button, span, b, nav, form, label, td, fieldset, details';
        const snippets = [
          (n) => `<button>New ${n}</button>`, (n) => `<li>Item ${n}</li>`, (n) => `<a href="#n${n}">Link ${n}</a>`,
          (n) => `<p>Para ${n}</p>`, (n) => `<section aria-label="S ${n}"><button>In S ${n}</button></section>`,
          (n) => `<div><span>deep <b>${n}</b></span></div>`, (n) => `<div role="status">Status ${n}</div>`,
          (n) => `<ul id="l-${n}"><li>x ${n}</li></ul>`, (n) => `<h3>Head ${n}</h3>`, (n) => `<input aria-label="In ${n}">`,
          (n) => `<div hidden><button>Hidden ${n}</button></div>`, (n) => `<div aria-hidden="true"><button>AH ${n}</button></div>`,
          (n) => `<label>Lab ${n} <input></label>`, (n) => `<nav aria-label="N ${n}"><a href="#">Go ${n}</a></nav>`,
          (n) => `<input type="password" aria-label="Pw ${n}" value="pw-${n % 5}">`, (n) => `<p>echo pw-${n % 5}</p>`,
          (n) => `<div data-ap-sensitive><input aria-label="Card ${n}" value="card-${n}"></div>`,
          (n) => `<select aria-label="Sel ${n}"><option>A ${n}</option><option selected>B ${n}</option></select>`,
          (n) => `<table><tr><th>H ${n}</th></tr><tr><td>Cell ${n}</td></tr></table>`,
          (n) => `<details><summary>Sum ${n}</summary><button>In details ${n}</button></details>`,
          (n) => `<fieldset><legend>Leg ${n}</legend><button>F ${n}</button></fieldset>`,
          (n) => `<div>Total: <b>${n}</b> <i>EUR</i></div>`, (n) => `<span>Saved ${n}</span>`,
          (n) => `<div><div>Cover ${n}</div><span hidden>Hint ${n}</span></div>`,
          (n) => `<div class="tap"><span>Tap ${n}</span></div>`, (n) => `<span onclick="">Click ${n}</span>`,
          (n) => `<div tabindex="0">Tile ${n}</div>`, (n) => `<div class="tap"><a href="#t">In tap ${n}</a></div>`,
          (n) => `<div aria-busy="true"><button>Busy ${n}</button></div>`,
          (n) => `<div role="progressbar" aria-label="P ${n}" aria-valuenow="${n % 100}"></div>`,
          (n) => `<progress aria-label="Q ${n}"${n % 2 ? ` value="${n % 100}" max="100"` : ''}></progress>`,
          (n) => `<div data-ap-sensitive><span>Secret ${n}</span></div>`,
          (n) => `<button aria-labelledby="ref-${n % 4} ref-${(n + 1) % 4}">Ref ${n}</button>`,
          (n) => `<span id="ref-${n % 4}">Target ${n}</span>`,
          (n) => `<button aria-labelledby="ref-${n % 4}">One ref ${n}</button>`,
          (n) => `<p>Words of <span aria-labelledby="ref-${n % 4}"></span></p>`,
          (n) => `<div><b id="ref-${n % 4}">Deep target ${n}</b></div>`,
          (n) => `<input id="fld-${n % 3}" placeholder="Fld ${n}">`, (n) => `<label for="fld-${n % 3}">For ${n}</label>`,
          (n) => `<li>Task ${n} <button>Delete</button></li>`, (n) => `<article><h3>Post ${n}</h3><button>Like</button></article>`,
        ];
        const n = rnd(1000);
        if (classy && rnd(2) === 0) {
          const e = pick('*');
          if (e !== main) {
            const value = ['', 'shut', 'odd', 'shut odd', 'unused', 'odd unused', 'sib', 'mark'][rnd(8)];
            if (rnd(4) === 0) e.removeAttribute('class'); else e.setAttribute('class', value);
          }
          return 'class';
        }
        switch (rnd(8)) {
          case 0: case 1: {
            const t = document.createElement('template');
            // A third of the time, when some element names an id: a twin of that id's holder.
            const named = [...main.querySelectorAll('[id]')]
              .filter((e) => main.querySelector(`[aria-labelledby~="${e.id}"], [for="${e.id}"]`));
            t.innerHTML = named.length && rnd(3) === 0
              ? `<span id="${named[rnd(named.length)].id}">Twin ${n}</span>`
              : snippets[rnd(snippets.length)](n);
            const where = pick(containers);
            where.insertBefore(t.content.firstChild, where.childNodes[rnd(where.childNodes.length + 1)] || null);
            return 'add';
          }
          case 2: { const e = pick('*'); if (e !== main) e.remove(); return 'remove'; }
          case 3: {
            const e = pick('*'); const to = pick(containers);
            if (e !== main && !e.contains(to)) to.appendChild(e);
            return 'move';
          }
          case 4: {
            const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
            const texts = []; for (let t = walker.nextNode(); t; t = walker.nextNode()) texts.push(t);
            if (texts.length) texts[rnd(texts.length)].data = `changed ${n}`;
            return 'text';
          }
          case 5: { pick(containers).append(`more ${n}`); return 'add text'; }
          case 6: {
            const e = pick('*');
            const attributes = [
              ['aria-label', ['', `Label ${n}`]], ['hidden', ['']], ['aria-hidden', ['true', 'false']],
              ['role', ['button', 'list', 'listitem', 'region', 'none', 'navigation']], ['aria-expanded', ['true', 'false']],
              ['aria-disabled', ['true']], ['data-ap-region', [`Zone ${n}`]], ['data-ap-sensitive', ['']],
              ['aria-expanded', ['false', 'true']], ['aria-pressed', ['true', 'false']],
              ['disabled', ['']], ['aria-pressed', ['true', 'mixed']], ['style', ['display: none', 'visibility: hidden', '']],
              ['type', ['checkbox', 'text', 'password']], ['aria-live', ['polite']], ['inert', ['']], ['href', ['#x']],
              ['aria-busy', ['true', 'false']], ['onclick', ['']], ['tabindex', ['0', '-1']],
              ['class', ['tap', '']], ['aria-valuenow', [`${n % 100}`]], ['id', ['ref-0', 'ref-1', `i-${n}`]],
            ];
            const [name, values] = attributes[rnd(attributes.length)];
            if (e !== main) {
              if (rnd(3) === 0) e.removeAttribute(name); else e.setAttribute(name, values[rnd(values.length)]);
            }
            return `attribute ${name}`;
          }
          default: {
            const e = pick('*');
            if (e !== main) { const w = document.createElement('div'); e.replaceWith(w); w.append(e); }
            return 'wrap';
          }
        }
        "##,
    );
    let patches = dom::cache_patches();
    // Rules that read attributes, and in half the runs rules that match by structure too
    // (then a patch cannot keep the visibility it read).
    let by_state = "[aria-pressed=\"true\"] button { display: none } \
         [role=\"list\"] > li { visibility: hidden } .grid [hidden] { display: block } \
         [aria-expanded=\"false\"] span { display: none }";
    let by_attribute = format!(".tap {{ cursor: pointer }} {by_state}");
    let plain = format!("<style>{by_attribute}</style>{MUTABLE}");
    let styled = format!(
        "<style>{by_attribute} li:first-child > button {{ display: none }} \
         span:empty {{ display: none }} section + p {{ visibility: hidden }}</style>{MUTABLE}"
    );
    // Without a cursor rule, class changes go to the visual memo's reading of selectors.
    let by_class = ".shut > button { display: none } .odd span { display: none } \
         .never .odd b { visibility: hidden } section.shut li { visibility: hidden }";
    let classed = format!("<style>{by_state} {by_class}</style>{MUTABLE}");
    let classed_structural = format!(
        "<style>{by_state} {by_class} .sib + li {{ display: none }} \
         .sib ~ p {{ visibility: hidden }} li:has(.mark) b {{ display: none }}</style>{MUTABLE}"
    );
    for (k, base) in [
        17u32, 4242, 99_991, 314_159, 2_718_281, 1_618_033, 8_675_309, 1_234_567,
    ]
    .into_iter()
    .enumerate()
    {
        let classy = k >= 6;
        load(match k {
            6 => &classed,
            7 => &classed_structural,
            _ if k % 2 == 0 => &plain,
            _ => &styled,
        });
        dom::fingerprint(&Options::default()).unwrap();
        for step in 0..300u32 {
            if step % 10 == 0 {
                // Let the test runner's own calls through: the whole run takes longer than
                // its request timeout (5 s), and on a loaded machine fifty steps did too.
                sleep(0).await;
            }
            let what = mutate
                .call2(
                    &wasm_bindgen::JsValue::NULL,
                    &(step.wrapping_mul(7919).wrapping_add(base)).into(),
                    &classy.into(),
                )
                .unwrap()
                .as_string()
                .unwrap();
            let fp = dom::fingerprint(&Options::default()).unwrap();
            let reference = dom::snapshot(&full).unwrap();
            assert_eq!(
                fp,
                full_fingerprint(&reference),
                "seed {base} step {step} ({what}): patched fingerprint and full walk disagree"
            );
            if step % 10 == 9 {
                // A snapshot of the settled page before the next change: the next one's
                // records must not keep what this one placed them in (`within`).
                dom::snapshot(&Options::default()).unwrap();
            }
            if step % 10 == 0 {
                let snapshot = dom::snapshot(&Options::default()).unwrap();
                assert_eq!(
                    snapshot.elements, reference.elements,
                    "seed {base} step {step} ({what})"
                );
                assert_eq!(
                    snapshot.texts, reference.texts,
                    "seed {base} step {step} ({what})"
                );
            }
        }
    }
    let patched = dom::cache_patches() - patches;
    assert!(
        patched >= 500,
        "only {patched} of 2,100 changes were patched"
    );
}

/// What identifies an element across snapshots: its ref and semantic identity.
fn identities(s: &Snapshot) -> Vec<(String, Role, String, String, bool)> {
    s.elements
        .iter()
        .map(|e| {
            (
                e.reference.clone(),
                e.role,
                e.name.clone(),
                e.region.clone(),
                e.visible,
            )
        })
        .collect()
}

fn in_dialog(e: &(String, Role, String, String, bool)) -> bool {
    e.1 == Role::Dialog || e.3.starts_with("dialog[")
}

/// A cached snapshot and fingerprint, checked against a full walk.
fn modal_snapshot(what: &str) -> Snapshot {
    let fp = dom::fingerprint(&Options::default()).unwrap();
    let cached = snap(Options::default());
    let reference = snap(Options {
        sensitive: vec!["#never-matches".into()],
        ..Default::default()
    });
    assert_eq!(fp, full_fingerprint(&reference), "{what}: fingerprint");
    assert_eq!(cached.elements, reference.elements, "{what}: elements");
    assert_eq!(cached.texts, reference.texts, "{what}: texts");
    reference
}

/// A modal hides every sibling of its portal (aria-hidden, then inert) while open: the page
/// behind stays observed with the same refs, and only the dialog comes and goes.
#[wasm_bindgen_test]
fn a_modal_changes_only_itself() {
    load(MODAL);
    let call = |f: &str, arg: &str| {
        let window = web_sys::window().unwrap();
        let func: js_sys::Function = js_sys::Reflect::get(&window, &f.into())
            .unwrap()
            .unchecked_into();
        func.call1(&JsValue::NULL, &arg.into()).unwrap();
    };
    let before = modal_snapshot("before");
    let page = identities(&before);
    assert!(page.iter().all(|e| !in_dialog(e)));
    for (role, name) in [
        (Role::Button, "Delete order"),
        (Role::Button, "Actions"),
        (Role::Button, "Edit"),
        (Role::Region, "Order 1042"),
        (Role::Link, "Account"),
    ] {
        assert!(find(&before, role, name).visible, "{name}");
    }
    let runs: Vec<&str> = before
        .texts
        .iter()
        .filter(|t| t.kind == TextKind::Plain)
        .map(|t| t.text.as_str())
        .collect();
    assert!(runs.contains(&"Shipped to Ada"), "{runs:?}");
    assert!(runs.contains(&"Total: 19.99"), "{runs:?}");
    for glyph in ["•", "★", "✎"] {
        assert!(
            !runs.iter().any(|r| r.contains(glyph)),
            "{glyph} in {runs:?}"
        );
    }
    for how in ["aria-hidden", "inert"] {
        call("openModal", how);
        let during = modal_snapshot(how);
        let now = identities(&during);
        let (dialog, rest): (Vec<_>, Vec<_>) = now.into_iter().partition(in_dialog);
        assert_eq!(rest, page, "{how}: the page behind the modal");
        let names: Vec<&str> = dialog.iter().map(|e| e.2.as_str()).collect();
        assert_eq!(names, ["Confirm delete", "Cancel", "Delete"], "{how}");
        assert_eq!(find(&during, Role::Button, "Actions").expanded, Some(true));
        assert!(during.texts.iter().any(|t| t.text == "Delete order 1042?"));
        let page_texts = |s: &Snapshot| -> Vec<String> {
            s.texts
                .iter()
                .filter(|t| !t.region.starts_with("dialog["))
                .map(|t| format!("{}|{}", t.text, t.region))
                .collect()
        };
        assert_eq!(page_texts(&during), page_texts(&before), "{how}: texts");
        call("closeModal", "");
        let after = modal_snapshot(&format!("{how} closed"));
        assert_eq!(identities(&after), page, "{how}: after closing");
        assert_eq!(after.texts, before.texts, "{how}: texts after closing");
    }
}
