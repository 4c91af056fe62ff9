//! In-browser tests of what no role announces: plain text runs, role-less clickables, busy
//! regions and progress indicators, over `fixtures/engine/{plain-texts,clickables,busy}*.html`.
#![cfg(target_arch = "wasm32")]

mod web_support;

use prufe::core::error::ErrorCode;
use prufe::core::fingerprint::diffed;
use prufe::core::model::{limits, Role, Snapshot, TextKind, REDACTED};
use prufe::core::resolve::{resolve, Target};
use prufe::dom::{self, Options};
use wasm_bindgen_test::*;
use web_support::*;

wasm_bindgen_test_configure!(run_in_browser);

const PLAIN: &str = include_str!("../fixtures/engine/plain-texts.html");
const PLAIN_DE: &str = include_str!("../fixtures/engine/plain-texts-de.html");
const CLICKABLES: &str = include_str!("../fixtures/engine/clickables.html");
const CLICKABLES_ES: &str = include_str!("../fixtures/engine/clickables-es.html");
const BUSY: &str = include_str!("../fixtures/engine/busy.html");

/// The plain runs of the fixture (the test runner's own output sits at document level).
fn plain(s: &Snapshot) -> Vec<(String, String)> {
    s.texts
        .iter()
        .filter(|t| t.kind == TextKind::Plain && !t.region.is_empty())
        .map(|t| (t.text.clone(), t.region.clone()))
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// Texts of `after` that `before` does not hold, and the other way round.
fn text_diff(before: &Snapshot, after: &Snapshot) -> (Vec<String>, Vec<String>) {
    let (b, a) = (plain(before), plain(after));
    let appeared = a.iter().filter(|t| !b.contains(t)).map(|t| t.0.clone());
    let gone = b.iter().filter(|t| !a.contains(t)).map(|t| t.0.clone());
    (appeared.collect(), gone.collect())
}

/// The cached fingerprint equals a full walk's, and returns the snapshot.
fn settled() -> Snapshot {
    let fp = dom::fingerprint(&Options::default()).unwrap();
    let reference = snap(Options {
        sensitive: vec!["#never-matches".into()],
        ..Default::default()
    });
    assert_eq!(
        fp,
        full_fingerprint(&reference),
        "cached fingerprint and full walk"
    );
    reference
}

fn js(code: &str) {
    js_sys::eval(code).unwrap();
}

#[wasm_bindgen_test]
fn plain_text_in_divs_spans_and_cells_is_observed_and_changes() {
    load(PLAIN);
    dom::fingerprint(&Options::default()).unwrap();
    let before = settled();
    assert_eq!(
        plain(&before),
        pairs(&[
            ("Score 3", "main"),
            ("Total: 19.99", "main"),
            ("Qty 2", "main"),
            ("Shown text", "main"),
            // SPEC DIFFERENCE: rendered aria-hidden text stays observed (see `walk`).
            ("Not for anyone", "main"),
            (&format!("Echo {REDACTED} here"), "main"),
            ("Footer note", "contentinfo"),
        ])
    );
    // Hidden, secret, and what other records already observe: never a plain run.
    // The page's words only: the context's numbers and the value hashes are not the page's.
    let mut words = before.clone();
    words.elements.iter_mut().for_each(|e| e.value_hash = None);
    let json = serde_json::to_string(&(&words.elements, &words.texts)).unwrap();
    for absent in [
        "hunter22",
        "4242",
        "Hidden total",
        "left out",
        "Hidden by attribute",
    ] {
        assert!(!json.contains(absent), "{absent} in {json}");
    }
    for covered in [
        "Invisible ghost",
        "Buy now",
        "Link text",
        "Heading words",
        "Listed item",
        "Email",
        "Paragraph inside",
        "Status words",
    ] {
        assert!(
            !plain(&before).iter().any(|(t, _)| t.contains(covered)),
            "{covered} reported twice"
        );
    }

    // One text changing in its region.
    js("document.querySelector('#total b').textContent = '29.98'");
    let after = settled();
    assert_eq!(
        text_diff(&before, &after),
        (
            vec!["Total: 29.98".to_owned()],
            vec!["Total: 19.99".to_owned()]
        )
    );
    // Text appearing in an empty element, a cover appearing, hidden text shown.
    js("document.querySelector('#saved').textContent = 'Saved'");
    let saved = settled();
    assert_eq!(text_diff(&after, &saved).0, ["Saved"]);
    js("document.querySelector('#cover-slot').innerHTML = \
        '<div class=\"cover\"><div>Welcome back!</div><span>Sign in to continue</span></div>'");
    let covered = settled();
    assert_eq!(
        text_diff(&saved, &covered).0,
        ["Sign in to continue", "Welcome back!"]
    );
    js("document.querySelector('.gone').classList.remove('gone')");
    let shown = settled();
    assert_eq!(text_diff(&covered, &shown).0, ["Hidden total 5"]);
    js("document.querySelector('#score').hidden = true");
    let hidden = settled();
    assert_eq!(
        text_diff(&shown, &hidden),
        (vec![], vec!["Score 3".to_owned()])
    );
}

#[wasm_bindgen_test]
fn plain_text_in_german_regions_and_hidden_hints() {
    load(PLAIN_DE);
    dom::fingerprint(&Options::default()).unwrap();
    let s = settled();
    assert_eq!(
        plain(&s),
        pairs(&[
            ("Summe: 19,99 €", "region[Warenkorb]"),
            ("Artikel 2", "region[Warenkorb]"),
        ])
    );
    let json = serde_json::to_string(&s).unwrap();
    assert!(!json.contains("DE89") && !json.contains("IBAN"), "{json}");
    assert_eq!(find(&s, Role::Cell, "Zelle ist ein Name").role, Role::Cell);
    js("document.querySelector('#hinweis').classList.remove('weg')");
    let shown = settled();
    assert_eq!(text_diff(&s, &shown).0, ["Gespeichert"]);
    js("document.querySelector('#summe strong').textContent = '29,98 €'");
    let changed = settled();
    assert_eq!(
        text_diff(&shown, &changed),
        (
            vec!["Summe: 29,98 €".to_owned()],
            vec!["Summe: 19,99 €".to_owned()]
        )
    );
}

#[wasm_bindgen_test]
async fn plain_text_inside_shadow_roots_and_frames() {
    let c = load(
        "<main><div id='host'><template shadowrootmode='open'><div>Shadow total <b>7</b></div>\
         <slot></slot></template><span>Slotted words</span></div>\
         <iframe title='Inner' srcdoc='<main><div>Frame total 5</div></main>'></iframe></main>",
    );
    frames_loaded(&c).await;
    let s = settled();
    let runs = plain(&s);
    for want in [
        ("Shadow total 7", "main"),
        ("Slotted words", "main"),
        ("Frame total 5", "frame[0]/main"),
    ] {
        assert!(
            runs.contains(&(want.0.into(), want.1.into())),
            "{want:?} in {runs:?}"
        );
    }
    let frame = s.texts.iter().find(|t| t.text == "Frame total 5").unwrap();
    assert_eq!(frame.frame, "0");
}

#[wasm_bindgen_test]
fn plain_runs_are_capped_in_length_and_number() {
    let c = load("<main id='many'></main>");
    let rows: String = (0..limits::MAX_PLAIN_TEXTS + 50)
        .map(|i| format!("<div>Row {i}</div>"))
        .collect();
    query(&c, "#many").set_inner_html(&format!(
        "<div id='long'>{}</div>{rows}",
        "word ".repeat(1_000)
    ));
    let s = snap(Options::default());
    assert!(s.has_more, "past the cap the snapshot says so");
    let runs = s.texts.iter().filter(|t| t.kind == TextKind::Plain).count();
    assert_eq!(runs, limits::MAX_PLAIN_TEXTS);
    let long = s
        .texts
        .iter()
        .map(|t| t.text.chars().count())
        .max()
        .unwrap();
    assert!(long <= limits::MAX_TEXT_CHARS + 1, "{long}");
    assert!(diffed(&dom::fingerprint(&Options::default()).unwrap()).ends_with('+'));
    // Below the cap again: complete.
    query(&c, "#many").set_inner_html("<div>Only one</div>");
    let s = settled();
    assert!(!s.has_more);
}

fn clickables(s: &Snapshot) -> Vec<&str> {
    s.elements
        .iter()
        .filter(|e| e.clickable)
        .map(|e| {
            assert_eq!(e.role, Role::Generic, "{e:?}");
            e.name.as_str()
        })
        .collect()
}

#[wasm_bindgen_test]
fn role_less_clickables_by_cursor_onclick_and_tabindex() {
    load(CLICKABLES);
    dom::fingerprint(&Options::default()).unwrap();
    let s = settled();
    assert_eq!(
        clickables(&s),
        [
            "Add to bag",
            "Remove",
            "Focusable tile",
            "Nested pointer",
            "Close dialog"
        ]
    );
    // No doubles: controls stay what they are, a pointer around a link is no second target.
    for (role, name) in [
        (Role::Button, "Real button"),
        (Role::Link, "Pointer link"),
        (Role::Link, "Card link"),
        (Role::Button, "Inside a button"),
    ] {
        let all: Vec<_> = s.elements.iter().filter(|e| e.label() == name).collect();
        assert_eq!(all.len(), 1, "{name}: {all:?}");
        assert_eq!(all[0].role, role);
    }
    // A clickable's content is its name, not also a plain run.
    assert_eq!(
        plain(&s),
        pairs(&[("9.99", "main"), ("Plain words", "main")])
    );
    // Targets: by name alone, and as a generic; a plain container is never a generic target.
    let by_name = resolve(&Target::new("", "Add to bag"), &s, None).unwrap();
    assert!(by_name.target.clickable);
    let generic = resolve(&Target::new("generic", "add to bag"), &s, None).unwrap();
    assert_eq!(generic.target.reference, by_name.target.reference);
    let err = resolve(&Target::new("generic", "Plain words"), &s, None).unwrap_err();
    assert_eq!(err.code, ErrorCode::TargetNotFound);
    // Becoming clickable without a role: by attribute, and by a class the cursor rule reads.
    js(
        "document.evaluate(\"//div[.='Plain words']\", document, null, 9, null)\
        .singleNodeValue.setAttribute('onclick', 'void 0')",
    );
    let s = settled();
    assert!(clickables(&s).contains(&"Plain words"));
    assert!(!plain(&s).iter().any(|(t, _)| t == "Plain words"));
    js(
        "const d = document.createElement('div'); d.id = 'late'; d.textContent = 'Later tile'; \
        document.querySelector('main').append(d)",
    );
    let s = settled();
    assert!(!clickables(&s).contains(&"Later tile"));
    js("document.querySelector('#late').className = 'tap'");
    let s = settled();
    assert!(clickables(&s).contains(&"Later tile"));
    js("document.querySelector('#bag span').textContent = 'Added'");
    let s = settled();
    assert!(clickables(&s).contains(&"Added"));
    // A link added inside a pointer: the pointer is no longer a target of its own.
    js("document.querySelector('#late').innerHTML = '<a href=\"#l\">Later link</a>'");
    let s = settled();
    assert!(!clickables(&s).contains(&"Later link"));
    assert_eq!(find(&s, Role::Link, "Later link").role, Role::Link);
}

#[wasm_bindgen_test]
async fn clickables_in_lists_shadow_roots_and_frames_in_spanish() {
    let c = load(&format!(
        "{CLICKABLES_ES}<iframe title='Pago' srcdoc='<style>.b{{cursor:pointer}}</style>\
         <main><span class=b>Pagar en el marco</span></main>'></iframe>"
    ));
    frames_loaded(&c).await;
    let s = settled();
    assert_eq!(
        clickables(&s),
        [
            "Añadir a la cesta",
            "Ver cesta (2)",
            "Pagar ahora",
            "Pagar en el marco"
        ]
    );
    let add = find(&s, Role::Generic, "Añadir a la cesta");
    assert_eq!(add.region, "main/list:productos");
    let framed = find(&s, Role::Generic, "Pagar en el marco");
    assert_eq!(
        (framed.frame.as_str(), framed.region.as_str()),
        ("0", "frame[0]/main")
    );
    // The list item keeps its text; the shadow text that is no control stays a plain run.
    assert_eq!(
        find(&s, Role::Listitem, "Añadir a la cesta Camisa M").role,
        Role::Listitem
    );
    assert!(plain(&s).contains(&("Texto en la sombra".into(), "main".into())));
    let r = resolve(&Target::new("generic", "Pagar ahora"), &s, None).unwrap();
    assert!(r.target.clickable && r.target.visible);
}

#[wasm_bindgen_test]
fn busy_ancestors_and_progress_values() {
    load(BUSY);
    dom::fingerprint(&Options::default()).unwrap();
    let s = settled();
    for (role, name, busy) in [
        (Role::Region, "Results", true),
        (Role::Button, "Reload results", true),
        (Role::Button, "Shadow action", true),
        (Role::Button, "Idle action", false),
        (Role::Region, "Ergebnisse", false),
        (Role::Button, "Neu laden", false),
    ] {
        assert_eq!(find(&s, role, name).busy, busy, "{name}");
    }
    for (name, value) in [
        ("Upload", Some("40")),
        ("Spinner", None),
        ("Download", Some("70")),
        ("Waiting", None),
    ] {
        assert_eq!(
            find(&s, Role::Progressbar, name).value.as_deref(),
            value,
            "{name}"
        );
    }
    // Polling sees the page stop working and the progress move.
    let fp = dom::fingerprint(&Options::default()).unwrap();
    js("document.querySelector('[aria-label=Results]').setAttribute('aria-busy', 'false')");
    let idle = settled();
    assert!(!find(&idle, Role::Button, "Reload results").busy);
    assert!(!find(&idle, Role::Button, "Shadow action").busy);
    assert_ne!(dom::fingerprint(&Options::default()).unwrap(), fp);
    js(
        "document.querySelector('[aria-label=Upload]').setAttribute('aria-valuenow', '60'); \
        document.querySelector('[aria-label=Waiting]').value = 30",
    );
    let moved = settled();
    assert_eq!(
        find(&moved, Role::Progressbar, "Upload").value.as_deref(),
        Some("60")
    );
    assert_eq!(
        find(&moved, Role::Progressbar, "Waiting").value.as_deref(),
        Some("30")
    );
    js("document.querySelector('[aria-label=Ergebnisse]').setAttribute('aria-busy', 'true')");
    let busy = settled();
    assert!(find(&busy, Role::Button, "Neu laden").busy);
}
