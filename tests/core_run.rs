//! The verification machine (`prufe::core::run`) driven by a fake page: one row per decision
//! of the loop, no browser. Every run is serialised to JSON and read back between any two
//! answers, as a driver that carries the state across a navigation does.

use prufe::core::background::Background;
use prufe::core::fingerprint::{diffed, with_claims, Claims, Fingerprint};
use prufe::core::judge::VerdictKind::{self, Ambiguous as A, Match as M, Mismatch as X};
use prufe::core::model::{Context, Element, Role, Snapshot, Text, TextKind};
use prufe::core::resolve::Target;
use prufe::core::run::ready::{FrameBox, Refusal, Size};
use prufe::core::run::requests::Heard;
use prufe::core::run::{
    Action, Ambiguous, Answer, Button, Destination, Gesture, Moment, Need, Point, Policy, Read,
    Record, Run, ScrollPosition, Seen, Selection, Step, Timing,
};
use prufe::core::ErrorCode;
use std::collections::VecDeque;

const PRODUCTS: &str = "catalogue/list:products";
const CART: &str = "cart/list:items";

fn el(reference: &str, role: Role, name: &str, region: &str) -> Element {
    Element {
        reference: reference.into(),
        role,
        name: name.into(),
        region: region.into(),
        visible: true,
        in_viewport: true,
        ..Default::default()
    }
}

fn item(reference: &str, text: &str, region: &str) -> Element {
    Element {
        text: Some(text.into()),
        ..el(reference, Role::Listitem, "", region)
    }
}

fn text(t: &str, region: &str) -> Text {
    Text {
        kind: TextKind::Plain,
        text: t.into(),
        region: region.into(),
        frame: String::new(),
    }
}

/// A shop: two products, an empty cart, a link, a field and a clock in the banner.
fn shop() -> Snapshot {
    Snapshot {
        context: Context {
            tab: "t1".into(),
            epoch: 1,
            snapshot: "s1".into(),
        },
        has_more: false,
        elements: vec![
            el("b1", Role::Button, "Add Shirt M", PRODUCTS),
            el("b2", Role::Button, "Add Trousers L", PRODUCTS),
            el("b3", Role::Button, "Add Shirt M", "promo"),
            Element {
                href: Some("/shirt.html".into()),
                ..el("l1", Role::Link, "Shirt M details", PRODUCTS)
            },
            Element {
                value: Some(String::new()),
                ..el("f1", Role::Textbox, "Coupon", "cart")
            },
        ],
        texts: vec![text("10:00", "banner")],
    }
}

fn add(page: &mut Snapshot, reference: &str, product: &str, removable: bool) {
    page.elements.push(item(reference, product, CART));
    if removable {
        page.elements.push(el(
            &format!("rm-{reference}"),
            Role::Button,
            &format!("Remove {product}"),
            CART,
        ));
    }
}

fn drop_refs(page: &mut Snapshot, refs: &[&str]) {
    page.elements
        .retain(|e| !refs.contains(&e.reference.as_str()));
}

/// Where a prepared element's point is: one slot per element index.
fn point_of(page: &Snapshot, reference: &str) -> Point {
    let i = page
        .elements
        .iter()
        .position(|e| e.reference == reference)
        .unwrap_or(0);
    Point {
        x: i as f64 * 10.0 + 5.0,
        y: 5.0,
    }
}

/// A container scrolled `top` pixels down, on a page that has not scrolled.
fn at_scroll(top: f64) -> ScrollPosition {
    ScrollPosition {
        container: None,
        left: 0.0,
        top,
        page_left: 0.0,
        page_top: 0.0,
    }
}

/// The name of the element under `p`, empty when there is none.
fn name_at(page: &Snapshot, p: Point) -> String {
    at_point(page, p).map(|e| e.name).unwrap_or_default()
}

fn at_point(page: &Snapshot, p: Point) -> Option<Element> {
    let i = ((p.x - 5.0) / 10.0).round() as usize;
    (p.y == 5.0)
        .then(|| page.elements.get(i).cloned())
        .flatten()
}

type React = Box<dyn FnMut(&Gesture, &mut World)>;

/// A row's own assertions on the record, the world after the run and the run.
type Check = Box<dyn Fn(&Record, &World, &Run)>;

/// The fake browser tab.
struct World {
    page: Snapshot,
    url: String,
    /// What the page shows next each time time passes after the input (a plain settle).
    later: VecDeque<Snapshot>,
    /// Changes the page makes by itself while the run settles before acting.
    ticks: VecDeque<Snapshot>,
    /// Changes the page makes by itself just before an observation is taken (after the
    /// settle that came before it).
    observe_ticks: VecDeque<Snapshot>,
    /// How the next observations go, one entry per observation: `true`, the document is
    /// being replaced (`Answer::Unavailable`); `false`, it is taken.
    observe_unavailable: VecDeque<bool>,
    history: Vec<(Snapshot, String)>,
    destination: Option<Destination>,
    arbiter: bool,
    /// The arbiter does not answer within the need's bound.
    arbiter_silent: bool,
    /// What the driver answers the arbiter's need with, in place of the arbiter's own
    /// `{ yes, detail }` (a chat reply, no arbiter, a failure).
    arbiter_answer: Option<Answer>,
    /// Overrides `describe`: what the live node shows now.
    described: Option<Element>,
    /// Overrides the first `describe` only (the target moves once, then holds still).
    described_once: Option<Element>,
    /// The answer to every `prepare`: the element is not ready for input.
    refusal: Option<Refusal>,
    /// What covers every frame's `<iframe>` in the document above it (a veil of the top
    /// document); every frame shows at the top viewport's origin.
    frame_veil: Option<String>,
    /// What the page shows once a watch's actions are done, at which address when they
    /// loaded a new document, and how many steps the driver says it performed.
    acted: Option<(Snapshot, Option<String>, u32)>,
    waited_ms: u64,
    inputs: Vec<Gesture>,
    needs: Vec<Need>,
    /// The scroll container under every point, and where it stands.
    scroll: ScrollPosition,
    /// Where a wheel turn takes it, one position per settle after the wheel.
    wheel: VecDeque<ScrollPosition>,
    scrolling: VecDeque<ScrollPosition>,
    /// The selection of the focused field, in UTF-16 units (else the caret at its end).
    selected: Option<(u32, u32)>,
    /// The focus leaves the field between its read and the selection's.
    focus_moves: bool,
    /// The page moves the focus away from this many fields focused next (a
    /// `Gesture::Focus` that does not hold).
    focus_refusals: u32,
    /// How the next fingerprint reads fail, one entry per read (`None`: it is read).
    fingerprint_fails: VecDeque<Option<ErrorCode>>,
    /// Input fails with this error.
    input_fails: Option<ErrorCode>,
    /// The input sent after this many inputs fails (once) with this error.
    input_fails_after: Option<(usize, ErrorCode)>,
    /// The page says it has shown no sign of change for the shorter window once it changed.
    says_quiet: bool,
    /// The requests started since the input still under way; `None`: the driver cannot see
    /// them.
    requests: Option<u32>,
    /// The driver answers a need of the whole page with its roots, and each root alone
    /// (`run::whole`): the elements of a frame root are those whose ref names it.
    composed: bool,
    /// The driver's clock (ms), moved by each `Need::Wait`.
    clock: u64,
}

impl World {
    /// Whether the document of the root at `path` holds the focus, and its focused element
    /// in that root's terms: the element itself, or the `<iframe>` of the root inside that
    /// holds it.
    fn focused_in(&self, path: &str) -> (bool, Option<Element>) {
        let Some(f) = self.page.elements.iter().find(|e| e.focused) else {
            return (path.is_empty(), None);
        };
        let (at, local) = prufe::core::frames::route(&f.reference);
        let inside = path.is_empty() || at == path || at.starts_with(&format!("{path}."));
        if !inside {
            return (false, None);
        }
        if at == path {
            return (
                true,
                Some(Element {
                    reference: local.into(),
                    ..f.clone()
                }),
            );
        }
        let rest = if path.is_empty() {
            at
        } else {
            &at[path.len() + 1..]
        };
        let index = rest.split('.').next().unwrap_or_default();
        let frame = Element {
            opaque: true,
            ..el(&format!("fr{index}"), Role::Iframe, "Card payment", "main")
        };
        (true, Some(frame))
    }

    fn new(page: Snapshot) -> World {
        World {
            page,
            url: "http://shop.test/".into(),
            later: VecDeque::new(),
            ticks: VecDeque::new(),
            observe_ticks: VecDeque::new(),
            observe_unavailable: VecDeque::new(),
            history: Vec::new(),
            destination: None,
            arbiter: false,
            arbiter_silent: false,
            arbiter_answer: None,
            described: None,
            described_once: None,
            refusal: None,
            frame_veil: None,
            acted: None,
            waited_ms: 300,
            inputs: Vec::new(),
            needs: Vec::new(),
            scroll: at_scroll(0.0),
            wheel: VecDeque::new(),
            scrolling: VecDeque::new(),
            selected: None,
            focus_moves: false,
            focus_refusals: 0,
            fingerprint_fails: VecDeque::new(),
            input_fails: None,
            input_fails_after: None,
            says_quiet: true,
            requests: Some(0),
            composed: false,
            clock: 0,
        }
    }

    /// The page's roots, the top first: the frame paths its refs name.
    fn roots(&self) -> Vec<String> {
        let mut paths = vec![String::new()];
        for e in &self.page.elements {
            let (path, _) = prufe::core::frames::route(&e.reference);
            if !paths.iter().any(|p| p == path) {
                paths.push(path.to_owned());
            }
        }
        paths
    }

    /// The snapshot of the root at `path` alone, in its own terms (the texts are the top's).
    fn root_snapshot(&mut self, path: &str, sensitive: &[String], react: &mut React) -> Answer {
        let merged: Vec<String> = sensitive
            .iter()
            .map(|r| prufe::core::frames::merged_ref(path, r))
            .collect();
        self.composed = false;
        let whole = self.answer(&Need::Observe { sensitive: merged }, react);
        self.composed = true;
        self.needs.pop();
        let Answer::Observed { mut snapshot } = whole else {
            return whole;
        };
        let prefix = format!("frame[{path}]/");
        snapshot.elements = snapshot
            .elements
            .into_iter()
            .filter_map(|e| {
                let (at, local) = prufe::core::frames::route(&e.reference);
                (at == path).then(|| Element {
                    reference: local.to_owned(),
                    region: e
                        .region
                        .strip_prefix(&prefix)
                        .unwrap_or(&e.region)
                        .to_owned(),
                    ..e.clone()
                })
            })
            .collect();
        if !path.is_empty() {
            snapshot.texts.clear();
        }
        Answer::Observed { snapshot }
    }

    fn focused_mut(&mut self) -> Option<&mut Element> {
        self.page.elements.iter_mut().find(|e| e.focused)
    }

    /// Text inserted where the focus is, in place of the selection.
    fn insert(&mut self, text: &str) {
        let selected = self.selected.take();
        let Some(f) = self.focused_mut() else {
            return;
        };
        let before: Vec<u16> = f.value.clone().unwrap_or_default().encode_utf16().collect();
        let (start, end) = selected.map_or((before.len(), before.len()), |(s, e)| {
            (s as usize, e as usize)
        });
        let mut now = String::from_utf16_lossy(&before[..start]);
        now.push_str(text);
        now.push_str(&String::from_utf16_lossy(&before[end..]));
        f.value = Some(now);
    }

    /// As the engine's fingerprint: what the diff compares (no refs, no focus, no order),
    /// per document, leaving out what is in a slot of the need's `background`; then the
    /// claims (the order of what is left and the focused element), unless the background
    /// says the page moves them by itself.
    fn fingerprint_over(&self, background: &Background) -> String {
        let mut f = Fingerprint::default();
        for e in self
            .page
            .elements
            .iter()
            .filter(|e| !background.hides_element("", e))
        {
            f.add_element(e);
        }
        for t in self
            .page
            .texts
            .iter()
            .filter(|t| !background.hides_text("", t))
        {
            f.add_text(t);
        }
        let diffed = f.finish();
        let fp = match background.claims {
            true => diffed,
            false => {
                let focus = self.page.elements.iter().position(|e| e.focused);
                let claims = Claims {
                    order: f.order(),
                    focus: focus.map_or(0, |i| i as u64 + 1),
                    selection: 0,
                };
                with_claims(diffed, &claims)
            }
        };
        format!("{fp}@{}", self.page.context.epoch)
    }

    /// Did the page leave `since`, as the settle counts it (`Need::Settle::claims`)?
    fn left(since: &str, now: &str, claims: bool) -> bool {
        match claims {
            true => since != now,
            false => diffed(since) != diffed(now),
        }
    }

    /// Loads a new document (a navigation).
    fn navigate(&mut self, url: &str, mut page: Snapshot) {
        self.history.push((self.page.clone(), self.url.clone()));
        page.context.epoch = self.page.context.epoch + 1;
        self.page = page;
        self.url = url.into();
    }

    fn answer(&mut self, need: &Need, react: &mut React) -> Answer {
        self.needs.push(need.clone());
        if self.composed
            && matches!(
                need,
                Need::Observe { .. } | Need::Fingerprint { .. } | Need::Settle { .. }
            )
        {
            return Answer::Roots {
                paths: self.roots(),
            };
        }
        if matches!(need, Need::Settle { .. }) {
            if let Some(next) = self.scrolling.pop_front() {
                self.scroll = next;
            }
        }
        match need {
            Need::Settle {
                since,
                stop_on_change,
                background,
                quick_ms,
                claims,
                ..
            } => {
                if *stop_on_change {
                    // Ticks in slots of the background do not end the wait: the next tick
                    // that moves what is left does.
                    let start = self.fingerprint_over(background);
                    while let Some(next) = self.ticks.pop_front() {
                        self.page = next;
                        if self.fingerprint_over(background) != start {
                            return Answer::Settled {
                                fingerprint: self.fingerprint_over(background),
                                stable: false,
                                changed: true,
                                waited_ms: 100,
                            };
                        }
                    }
                } else if since
                    .as_ref()
                    .is_none_or(|s| !World::left(s, &self.fingerprint_over(background), *claims))
                {
                    // While the driver waits, the page's next change (if any) lands.
                    if let Some(next) = self.later.pop_front() {
                        self.page = next;
                    }
                }
                let fingerprint = self.fingerprint_over(background);
                let changed = since
                    .as_ref()
                    .is_some_and(|s| World::left(s, &fingerprint, *claims));
                // The page says it is quiet: after an effect, or before the action when it
                // has nothing of its own to change.
                let before = since.is_none() && self.ticks.is_empty();
                if *quick_ms > 0 && (changed || before) && self.says_quiet {
                    return Answer::Quick {
                        fingerprint,
                        waited_ms: *quick_ms,
                    };
                }
                Answer::Settled {
                    changed,
                    fingerprint,
                    stable: true,
                    waited_ms: self.waited_ms,
                }
            }
            Need::Fingerprint { background } => match self.fingerprint_fails.pop_front() {
                Some(Some(code)) => Answer::Failed {
                    error: prufe::core::Error::new(code, "the fingerprint could not be read"),
                },
                _ => Answer::Fingerprint {
                    fingerprint: self.fingerprint_over(background),
                },
            },
            Need::Observe { .. } if self.observe_unavailable.pop_front() == Some(true) => {
                Answer::Unavailable
            }
            Need::Observe { sensitive } => {
                if let Some(next) = self.observe_ticks.pop_front() {
                    self.page = next;
                }
                // Declared sensitivity sticks, and the engine shows such a value by hash.
                for e in &mut self.page.elements {
                    e.sensitive |= sensitive.contains(&e.reference);
                }
                let mut snapshot = self.page.clone();
                for e in snapshot.elements.iter_mut().filter(|e| e.sensitive) {
                    if let Some(v) = e.value.take() {
                        e.value_hash = Some(format!("h:{v}"));
                        e.value = Some("[redacted]".into());
                    }
                }
                Answer::Observed { snapshot }
            }
            Need::Describe { reference } => Answer::Described {
                element: self
                    .described_once
                    .take()
                    .or_else(|| self.described.clone())
                    .or_else(|| {
                        self.page
                            .elements
                            .iter()
                            .find(|e| e.reference == *reference)
                            .cloned()
                    }),
            },
            Need::Prepare { reference, .. } => match &self.refusal {
                Some(refusal) => Answer::Refused {
                    refusal: refusal.clone(),
                },
                None => Answer::Prepared {
                    point: point_of(&self.page, reference),
                },
            },
            Need::Input { gesture } => {
                if let Some(code) = self.input_fails {
                    return Answer::Failed {
                        error: prufe::core::Error::new(code, "the input could not be sent"),
                    };
                }
                if let Some((n, code)) = self.input_fails_after {
                    if self.inputs.len() == n {
                        self.input_fails_after = None;
                        return Answer::Failed {
                            error: prufe::core::Error::new(code, "the input could not be sent"),
                        };
                    }
                }
                self.inputs.push(gesture.clone());
                match gesture {
                    Gesture::Focus { reference, select } => {
                        if self.focus_refusals > 0 {
                            self.focus_refusals -= 1;
                            return Answer::Focus { held: false };
                        }
                        let mut len = None;
                        for e in self.page.elements.iter_mut() {
                            e.focused = e.reference == *reference;
                            if e.focused {
                                len = e.value.as_ref().map(|v| v.encode_utf16().count() as u32);
                            }
                        }
                        self.selected = if *select { len.map(|n| (0, n)) } else { None };
                        return Answer::Focus { held: true };
                    }
                    Gesture::Press {
                        reference: None,
                        keys,
                    } if keys == &["Backspace"] => self.insert(""),
                    Gesture::Insert { text } => self.insert(text),
                    Gesture::Wheel { .. } => self.scrolling = std::mem::take(&mut self.wheel),
                    _ => {}
                }
                if *gesture == Gesture::GoBack {
                    let Some((page, url)) = self.history.pop() else {
                        return Answer::Failed {
                            error: prufe::core::Error::new(
                                ErrorCode::NavigationFailed,
                                "no history",
                            ),
                        };
                    };
                    (self.page, self.url) = (page, url);
                    return Answer::Sent;
                }
                react(gesture, self);
                Answer::Sent
            }
            Need::Read { read } => match read {
                Read::Value { reference } => Answer::Value {
                    value: self
                        .page
                        .elements
                        .iter()
                        .find(|e| e.reference == *reference)
                        .and_then(|e| e.value.clone()),
                },
                Read::Hash { value, .. } => Answer::Hash {
                    hash: format!("h:{value}"),
                },
                Read::Destination { .. } => Answer::Destination {
                    destination: self.destination.clone(),
                },
                Read::Address => Answer::Address {
                    url: self.url.clone(),
                },
                Read::Previous => Answer::Address {
                    url: self
                        .history
                        .last()
                        .map(|(_, u)| u.clone())
                        .unwrap_or_default(),
                },
                // A focus inside a frame root shows in the top document as its `<iframe>`.
                Read::Focused => Answer::Focused {
                    element: self.focused_in("").1,
                },
                Read::Roots => Answer::Roots {
                    paths: self.roots(),
                },
                Read::Snapshot { path, sensitive } => {
                    let (path, sensitive) = (path.clone(), sensitive.clone());
                    self.root_snapshot(&path, &sensitive, react)
                }
                // The top's fingerprint is the page's; a frame's never moves.
                Read::Pulse { path, background } => Answer::Pulse {
                    fingerprint: if path.is_empty() {
                        self.fingerprint_over(background)
                    } else {
                        format!("frame {path}")
                    },
                    quiet_for: 0.0,
                },
                Read::FocusedIn { path } => {
                    let (has, element) = self.focused_in(path);
                    Answer::FocusedIn { has, element }
                }
                // The world's elements are all in the top document's viewport.
                Read::Under { path, at } if path.is_empty() => Answer::Under {
                    element: at_point(&self.page, *at),
                },
                Read::Under { .. } => Answer::Under { element: None },
                Read::Aimed => Answer::Aimed { boxes: None },
                Read::HitBoxes { .. } => Answer::HitBoxes { boxes: vec![] },
                // `n` requests heard of since the input and under way, beside a long poll
                // heard of before it (never waited for) and one that ended long ago.
                Read::Network { .. } => match self.requests {
                    Some(n) => {
                        let heard = |heard_ms_ago, ended_ms_ago| Heard {
                            heard_ms_ago,
                            ended_ms_ago,
                        };
                        let mut requests = vec![heard(5_000.0, None), heard(90.0, Some(80.0))];
                        requests.extend((0..n).map(|_| heard(60.0, None)));
                        Answer::Network {
                            input_ms_ago: Some(100.0),
                            requests,
                        }
                    }
                    None => Answer::Unavailable,
                },
                Read::Scroll { at } => Answer::Position {
                    position: Some(ScrollPosition {
                        container: at.map(|_| "div#products in list[Products]".to_owned()),
                        ..self.scroll.clone()
                    }),
                },
                Read::Selection { reference } => {
                    if std::mem::take(&mut self.focus_moves) {
                        for e in &mut self.page.elements {
                            e.focused = e.reference == "b1";
                        }
                    }
                    let field = self
                        .page
                        .elements
                        .iter()
                        .find(|e| e.focused && e.reference == *reference);
                    Answer::Selection {
                        selection: field.map(|f| {
                            let value = f.value.clone().unwrap_or_default();
                            let end = value.encode_utf16().count() as u32;
                            let (start, end) = self.selected.unwrap_or((end, end));
                            Selection {
                                value: Some(value),
                                start: Some(start),
                                end: Some(end),
                            }
                        }),
                    }
                }
            },
            Need::Act => {
                let Some((page, url, steps)) = self.acted.take() else {
                    return Answer::Acted { steps: 0 };
                };
                match url {
                    Some(url) => self.navigate(&url, page),
                    None => self.page = page,
                }
                Answer::Acted { steps }
            }
            Need::Ask { timeout_ms, .. } if self.arbiter_silent => Answer::Failed {
                error: prufe::core::Error::new(
                    ErrorCode::Timeout,
                    format!("the arbiter did not answer within {timeout_ms} ms"),
                ),
            },
            Need::Ask { .. } if self.arbiter_answer.is_some() => {
                self.arbiter_answer.clone().unwrap()
            }
            Need::Ask { .. } => Answer::Arbiter {
                said: serde_json::json!({
                    "yes": self.arbiter,
                    "detail": format!("arbiter says {}", if self.arbiter { "yes" } else { "no" }),
                })
                .to_string(),
            },
            Need::Frame { paths } => {
                let chain = paths
                    .iter()
                    .map(|p| FrameBox {
                        path: p.clone(),
                        x: 0.0,
                        y: 0.0,
                        width: 10_000.0,
                        height: 10_000.0,
                    })
                    .collect();
                Answer::Frame {
                    chain,
                    viewport: Size {
                        width: 10_000.0,
                        height: 10_000.0,
                    },
                }
            }
            Need::HitFrame { .. } => Answer::Hit {
                by: self.frame_veil.clone(),
            },
            Need::RevealFrame { .. } => Answer::Scrolled,
            Need::Capture => Answer::Captured,
            Need::Picture { .. } => Answer::Pictured,
            // While the driver waits, the page's next change (if any) lands.
            Need::Wait { ms } => {
                if *ms > 0 {
                    if let Some(next) = self.later.pop_front() {
                        self.page = next;
                    }
                }
                self.clock += ms;
                Answer::Waited {
                    now: self.clock as f64,
                }
            }
            Need::Done { .. } => unreachable!("done"),
        }
    }
}

/// Runs `step` on `world` to the end, round-tripping the run through JSON at every answer.
fn drive(
    world: &mut World,
    step: Step,
    policy: Policy,
    seen: Option<Seen>,
    mut react: React,
) -> (Record, Run) {
    let mut run = Run::new(step, policy).with_seen(seen);
    let mut answer = Answer::Start;
    for _ in 0..500 {
        let json = serde_json::to_string(&run).expect("a run serialises");
        let tag =
            serde_json::from_str::<serde_json::Value>(&json).unwrap()["phase"]["phase"].clone();
        assert_eq!(
            tag,
            run.phase(),
            "Run::phase names the phase as the run's JSON does"
        );
        run = serde_json::from_str(&json).expect("a run reads back");
        let answer_json = serde_json::to_string(&answer).unwrap();
        let need = run.next(serde_json::from_str(&answer_json).expect("answers read back"));
        let need_json = serde_json::to_string(&need).unwrap();
        assert_eq!(serde_json::from_str::<Need>(&need_json).unwrap(), need);
        if let Need::Done { record } = need {
            return (*record, run);
        }
        answer = world.answer(&need, &mut react);
    }
    panic!("the run did not end");
}

fn target(role: &str, name: &str) -> Target {
    Target::new(role, name)
}

/// A click step on the button of the catalogue's list (the promo repeats its name).
fn in_products(step: Step) -> Step {
    let Action::Click { mut target } = step.action else {
        unreachable!()
    };
    target.region = Some(PRODUCTS.into());
    Step::new(Action::Click { target })
}

fn click(name: &str) -> Step {
    Step::new(Action::Click {
        target: target("button", name),
    })
}

/// A reaction that adds `product` to the cart on the click on `button`, and takes it out on
/// its Remove control.
fn cart_reaction(button: &'static str, product: &'static str, removable: bool) -> React {
    let mut n = 0;
    Box::new(move |g, w| {
        if let Gesture::Click { at, .. } = g {
            let hit = name_at(&w.page, *at);
            if hit == button {
                n += 1;
                add(&mut w.page, &format!("c{n}"), product, removable);
            } else if hit.starts_with("Remove ") {
                let r = format!("c{n}");
                drop_refs(&mut w.page, &[&r, &format!("rm-{r}")]);
            }
        }
    })
}

struct Row {
    name: &'static str,
    world: World,
    step: Step,
    policy: Policy,
    seen: Option<Seen>,
    react: React,
    verdict: Option<VerdictKind>,
    ok: bool,
    error: Option<ErrorCode>,
    says: &'static str,
    attempts: u32,
    undone: u32,
    check: Check,
}

/// An AMBIGUOUS click (`react`: an effect no name explains) put to the arbiter, whose need is answered `answer`: approved when the
/// machine words it `says` "YES" (or the arbiter's own yes), else retried and failed.
fn arbiter_row(name: &'static str, answer: Answer, says: &'static str, react: React) -> Row {
    let world = World {
        arbiter_answer: Some(answer),
        ..World::new(shop())
    };
    let approved = says == "YES" || !says.starts_with("NO");
    let r = row(name, world, in_products(click("Add Shirt M")), react)
        .policy(|p| p.ambiguous = Ambiguous::Arbiter);
    let r = match approved {
        true => r.want(Some(A), true, None, ""),
        false => r
            .want(Some(A), false, Some(ErrorCode::VerificationFailed), "")
            .tries(2, 2),
    };
    r.then(move |rec, _, _| assert_eq!(rec.arbiter.as_deref(), Some(says)))
}

/// The arbiter's answer: `text` as an OpenAI-compatible chat completion's body.
fn chat(text: &str) -> Answer {
    said(
        &serde_json::json!({ "choices": [{ "message": { "role": "assistant", "content": text } }] })
            .to_string(),
    )
}

/// The arbiter's answer: `text` as it said it.
fn said(text: &str) -> Answer {
    Answer::Arbiter { said: text.into() }
}

fn row(name: &'static str, world: World, step: Step, react: React) -> Row {
    Row {
        name,
        world,
        step,
        policy: Policy::default(),
        seen: None,
        react,
        verdict: None,
        ok: false,
        error: None,
        says: "",
        attempts: 1,
        undone: 0,
        check: Box::new(|_, _, _| {}),
    }
}

impl Row {
    fn want(
        mut self,
        verdict: Option<VerdictKind>,
        ok: bool,
        error: Option<ErrorCode>,
        says: &'static str,
    ) -> Self {
        (self.verdict, self.ok, self.error, self.says) = (verdict, ok, error, says);
        self
    }
    fn tries(mut self, attempts: u32, undone: u32) -> Self {
        (self.attempts, self.undone) = (attempts, undone);
        self
    }
    fn policy(mut self, f: impl FnOnce(&mut Policy)) -> Self {
        f(&mut self.policy);
        self
    }
    fn then(mut self, f: impl Fn(&Record, &World, &Run) + 'static) -> Self {
        self.check = Box::new(f);
        self
    }
}

fn run_rows(rows: Vec<Row>) {
    for mut r in rows {
        let (record, run) = drive(
            &mut r.world,
            r.step.clone(),
            r.policy.clone(),
            r.seen.clone(),
            r.react,
        );
        let name = r.name;
        assert_eq!(record.verdict, r.verdict, "{name}: {}", record.reason);
        assert_eq!(record.ok, r.ok, "{name}: {}", record.reason);
        assert_eq!(
            record.error.as_ref().map(|e| e.code),
            r.error,
            "{name}: {}",
            record.reason
        );
        assert!(
            record.reason.contains(r.says),
            "{name}: {:?} lacks {:?}",
            record.reason,
            r.says
        );
        assert_eq!(
            (record.attempts, record.undone),
            (r.attempts, r.undone),
            "{name}: attempts, undone"
        );
        (r.check)(&record, &r.world, &run);
    }
}

fn clicks(w: &World) -> usize {
    w.inputs
        .iter()
        .filter(|g| matches!(g, Gesture::Click { .. }))
        .count()
}

/// The wrong product first, the right one on the retry.
fn wrong_then_right() -> React {
    let mut n = 0;
    Box::new(move |g, w| {
        if let Gesture::Click { at, .. } = g {
            let hit = name_at(&w.page, *at);
            if hit == "Add Shirt M" {
                n += 1;
                let product = if n == 1 { "Trousers L" } else { "Shirt M" };
                add(&mut w.page, &format!("c{n}"), product, true);
            } else if hit.starts_with("Remove ") {
                drop_refs(&mut w.page, &[&format!("c{n}"), &format!("rm-c{n}")]);
            }
        }
    })
}

#[test]
fn semantic_steps() {
    let honest = cart_reaction("Add Shirt M", "Shirt M", true);
    let mut late = World::new(shop());
    late.later.push_back({
        let mut p = shop();
        add(&mut p, "c1", "Shirt M", false);
        p
    });
    let spinner = Box::new(|g: &Gesture, w: &mut World| {
        if matches!(g, Gesture::Click { .. }) {
            w.page
                .elements
                .push(el("sp", Role::Progressbar, "Loading", CART));
        }
    });
    let still_spinning = Box::new(|g: &Gesture, w: &mut World| {
        if matches!(g, Gesture::Click { .. }) {
            add(&mut w.page, "c1", "Shirt M", false);
            w.page
                .elements
                .push(el("sp", Role::Progressbar, "Loading", CART));
        }
    });
    let nothing: React = Box::new(|_, _| {});
    let stuck_remove: React = Box::new(|g, w| {
        if let Gesture::Click { at, .. } = g {
            if at_point(&w.page, *at).is_some_and(|e| e.name == "Add Shirt M") {
                add(&mut w.page, "c1", "Trousers L", true);
            }
        }
    });
    let irreversible = cart_reaction("Add Shirt M", "Trousers L", false);
    // An effect no name explains, with a control that takes it out.
    let stranger = || -> React {
        let mut n = 0;
        Box::new(move |g, w| {
            if let Gesture::Click { at, .. } = g {
                let hit = name_at(&w.page, *at);
                if hit == "Add Shirt M" {
                    n += 1;
                    w.page
                        .elements
                        .push(item(&format!("g{n}"), "Gift card", "promo"));
                    w.page.elements.push(el(
                        &format!("rm{n}"),
                        Role::Button,
                        "Remove Gift card",
                        "promo",
                    ));
                } else if hit.starts_with("Remove ") {
                    drop_refs(&mut w.page, &[&format!("g{n}"), &format!("rm{n}")]);
                }
            }
        })
    };
    let mut busy_world = World::new(shop());
    busy_world.waited_ms = 400;
    // Busy at every quiet point until the deadline, done by the last look.
    let spinning = |done: bool| {
        let mut p = shop();
        add(&mut p, "c1", "Shirt M", false);
        if !done {
            p.elements
                .push(el("sp", Role::Progressbar, "Loading", CART));
        }
        p
    };
    let mut done_too_late = World::new(shop());
    done_too_late.waited_ms = 400;
    // A spinner turns: the page never says it is quiet while it shows one.
    done_too_late.says_quiet = false;
    done_too_late
        .later
        .extend([spinning(false), spinning(true)]);
    let spinning_then_done = Box::new(move |g: &Gesture, w: &mut World| {
        if matches!(g, Gesture::Click { .. }) {
            w.page = spinning(false);
        }
    });
    let mut out_of_time = World::new(shop());
    out_of_time.waited_ms = 1_000;
    let spins = Box::new(|g: &Gesture, w: &mut World| {
        if matches!(g, Gesture::Click { .. }) {
            w.page
                .elements
                .push(el("sp", Role::Progressbar, "Loading", CART));
        }
    });
    #[rustfmt::skip]
    run_rows(vec![
        row("honest click", World::new(shop()), in_products(click("Add Shirt M")), honest)
            .want(Some(M), true, None, "")
            .then(|r, w, run| {
                assert_eq!(clicks(w), 1);
                assert_eq!(r.target.as_deref(), Some("button[Add Shirt M] in catalogue/list:products"));
                assert!(run.seen().is_some_and(|s| s.snapshot.elements.iter().any(|e| e.label() == "Shirt M")), "the after observation is kept");
            }),
        row("with pictures: one before the click, one after each observation of the effect, naming what it changed", World::new(shop()), in_products(click("Add Shirt M")), cart_reaction("Add Shirt M", "Shirt M", true))
            .policy(|p| p.pictures = true)
            .want(Some(M), true, None, "")
            .then(|_, w, _| {
                let pictures: Vec<&Need> = w.needs.iter().filter(|n| matches!(n, Need::Picture { .. })).collect();
                let Some(Need::Picture { moment: Moment::Before, target: Some(target), effect, .. }) = pictures.first() else { panic!("{pictures:?}") };
                assert!(effect.is_empty());
                let click = w.needs.iter().position(|n| matches!(n, Need::Input { gesture: Gesture::Click { .. } })).expect("a click");
                let before = w.needs.iter().position(|n| matches!(n, Need::Picture { moment: Moment::Before, .. })).unwrap();
                assert!(before < click, "the before picture precedes the click");
                let Some(Need::Picture { moment: Moment::After, target: after_target, effect, point, .. }) = pictures.last() else { panic!("{pictures:?}") };
                assert_eq!(after_target.as_ref(), Some(target));
                assert!(point.is_some(), "the point input went to");
                assert!(!effect.is_empty() && effect.len() <= prufe::core::run::camera::MAX_EFFECT, "{effect:?}");
            }),
        row("with pictures, a retried step: a before picture for each attempt", World::new(shop()), in_products(click("Add Shirt M")), wrong_then_right())
            .policy(|p| p.pictures = true)
            .want(Some(M), true, None, "").tries(2, 1)
            .then(|_, w, _| {
                let before = w.needs.iter().filter(|n| matches!(n, Need::Picture { moment: Moment::Before, .. })).count();
                assert_eq!(before, 2, "{:?}", w.needs);
            }),
        row("without pictures none is asked", World::new(shop()), in_products(click("Add Shirt M")), cart_reaction("Add Shirt M", "Shirt M", true))
            .want(Some(M), true, None, "")
            .then(|_, w, _| assert!(!w.needs.iter().any(|n| matches!(n, Need::Picture { .. })))),
        row("a late effect is found on the rescan of a busy page", late, in_products(click("Add Shirt M")), spinner)
            .want(Some(M), true, None, "")
            .then(|r, w, _| {
                assert!(r.stable, "settled once the spinner went");
                assert_eq!(w.needs.iter().filter(|n| matches!(n, Need::Observe { .. })).count(), 3, "before, the busy quiet point, the settled one");
                assert_eq!(w.needs.iter().filter(|n| matches!(n, Need::Settle { since: Some(_), .. })).count(), 2, "after the input, and the busy re-settle waits for the page to move on");
            }),
        row("no effect: not undone, not retried", World::new(shop()), in_products(click("Add Shirt M")), nothing)
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "no effect")
            .then(|_, w, run| { assert_eq!(clicks(w), 1, "no repeat"); assert!(run.seen().is_none()); }),
        row("wrong effect, undone, retried, MATCH", World::new(shop()), in_products(click("Add Shirt M")), wrong_then_right())
            .want(Some(M), true, None, "").tries(2, 1)
            .then(|_, w, _| assert_eq!(clicks(w), 3, "click, remove, click")),
        row("undo leaves the wrong effect: UNDO_FAILED", World::new(shop()), in_products(click("Add Shirt M")), stuck_remove)
            .want(Some(X), false, Some(ErrorCode::UndoFailed), "Trousers L")
            .then(|r, _, _| assert_eq!(r.residue, ["appeared listitem[Trousers L] in cart/list:items", "appeared button[Remove Trousers L] in cart/list:items"])),
        row("wrong effect without inverse: IRREVERSIBLE_ACTION", World::new(shop()), in_products(click("Add Shirt M")), irreversible)
            .want(Some(X), false, Some(ErrorCode::IrreversibleAction), "Trousers L"),
        row("ambiguous, rejected: undone and retried, then stopped", World::new(shop()), in_products(click("Add Shirt M")), stranger())
            .want(Some(A), false, Some(ErrorCode::VerificationFailed), "").tries(2, 2),
        row("ambiguous, accepted", World::new(shop()), in_products(click("Add Shirt M")), stranger())
            .policy(|p| p.ambiguous = Ambiguous::Accept)
            .want(Some(A), true, None, "")
            .then(|r, w, _| { assert!(r.arbiter.is_none()); assert!(!w.needs.iter().any(|n| matches!(n, Need::Ask { .. }))); }),
        row("ambiguous, the arbiter says yes", World { arbiter: true, ..World::new(shop()) }, in_products(click("Add Shirt M")), stranger())
            .policy(|p| p.ambiguous = Ambiguous::Arbiter)
            .want(Some(A), true, None, "")
            .then(|r, _, _| assert_eq!(r.arbiter.as_deref(), Some("arbiter says yes"))),
        row("ambiguous, the arbiter says no", World::new(shop()), in_products(click("Add Shirt M")), stranger())
            .policy(|p| p.ambiguous = Ambiguous::Arbiter)
            .want(Some(A), false, Some(ErrorCode::VerificationFailed), "").tries(2, 2)
            .then(|r, _, _| assert_eq!(r.arbiter.as_deref(), Some("NO (arbiter says no)"))),
        arbiter_row("the arbiter's chat reply, a clean yes with a period, approves", chat("  Yes.\n"), "YES", stranger())
            .then(|r, w, _| {
                assert_eq!(r.arbiter.as_deref(), Some("YES"));
                assert!(w.needs.iter().any(|n| matches!(n, Need::Ask { max_chars: 4096, .. })), "the bound the driver cuts a reply to is the need's: {:?}", w.needs);
            }),
        arbiter_row("the arbiter's chat reply hedges: no, quoted", chat("Probably yes"), r#"NO (answered "Probably yes")"#, stranger()),
        arbiter_row("the arbiter's chat reply says yes twice: no", chat("YES YES"), r#"NO (answered "YES YES")"#, stranger()),
        arbiter_row("the arbiter's chat reply is empty: no", chat(""), r#"NO (answered "")"#, stranger()),
        arbiter_row("the arbiter's reply is not JSON: no", said("YES, but not JSON {"), "NO (the reply was not JSON)", stranger()),
        arbiter_row("the arbiter's chat reply has no message content: no", said(r#"{"choices":[]}"#), "NO (the reply had no message content)", stranger()),
        arbiter_row("a caller's arbiter returns the word YES", said(r#""yes""#), "YES", stranger()),
        arbiter_row("a caller's arbiter returns true", said("true"), "YES", stranger()),
        arbiter_row("a caller's arbiter returns false", said("false"), "NO (answered false)", stranger()),
        arbiter_row("a caller's arbiter returns a truthy non-boolean: no", said(r#"{"yes":"yes","detail":"sure"}"#), "NO (sure)", stranger()),
        arbiter_row("a caller's arbiter returns yes and why", said(r#"[true,"the section is gone"]"#), "the section is gone", stranger()),
        arbiter_row("a caller's arbiter returns something else: no", said(r#"{"verdict":"YES"}"#), r#"NO (answered {"verdict":"YES"})"#, stranger()),
        arbiter_row("no arbiter is configured: no, in the machine's words", Answer::NoArbiter, "NO (no arbiter is configured)", stranger()),
        arbiter_row("the arbiter could not be asked: no, saying why", Answer::Failed { error: prufe::core::Error::new(ErrorCode::BrowserError, "HTTP 500") }, "NO (HTTP 500)", stranger()),
        row("ambiguous, the arbiter asked for at most ten seconds and silent: no, in the machine's words", World { arbiter: true, arbiter_silent: true, ..World::new(shop()) }, in_products(click("Add Shirt M")), stranger())
            .policy(|p| p.ambiguous = Ambiguous::Arbiter)
            .want(Some(A), false, Some(ErrorCode::VerificationFailed), "").tries(2, 2)
            .then(|r, w, _| {
                assert_eq!(r.arbiter.as_deref(), Some("NO (no answer within 10000 ms)"));
                assert!(w.needs.iter().any(|n| matches!(n, Need::Ask { timeout_ms: 10_000, .. })), "the bound is the need's: {:?}", w.needs);
            }),
        row("busy until the deadline: AMBIGUOUS", busy_world, in_products(click("Add Shirt M")), still_spinning)
            .policy(|p| { p.ambiguous = Ambiguous::Accept; p.timing = Timing { timeout_ms: 1_000, ..Timing::default() }; })
            .want(Some(A), true, None, "still said it was working at the deadline (progressbar[Loading] in cart/list:items is showing)")
            .then(|r, _, _| assert!(!r.stable)),
        row("the deadline fell while busy: a late outcome is not approved", done_too_late, in_products(click("Add Shirt M")), spinning_then_done)
            .policy(|p| { p.ambiguous = Ambiguous::Accept; p.timing = Timing { timeout_ms: 1_000, ..Timing::default() }; })
            .want(Some(A), true, None, "so its outcome is yet to come")
            .then(|r, _, _| assert!(r.diff.lines.iter().all(|l| !l.contains("Loading")), "the last look shows no spinner: {:?}", r.diff.lines)),
        row("busy when the first settle took the whole deadline", out_of_time, in_products(click("Add Shirt M")), spins)
            .policy(|p| { p.ambiguous = Ambiguous::Accept; p.timing = Timing { timeout_ms: 1_000, ..Timing::default() }; })
            .want(Some(A), true, None, "")
            .then(|_, w, _| assert!(!w.needs.iter().any(|n| matches!(n, Need::Settle { timeout_ms: 0, .. })), "no settle without time left")),
    ]);
}

/// How many settles the run asked for after its input.
fn settles_after_input(w: &World) -> usize {
    let input = w
        .needs
        .iter()
        .position(|n| matches!(n, Need::Input { .. }))
        .expect("an input");
    w.needs[input..]
        .iter()
        .filter(|n| matches!(n, Need::Settle { .. }))
        .count()
}

fn network_reads(w: &World) -> usize {
    w.needs
        .iter()
        .filter(|n| {
            matches!(
                n,
                Need::Read {
                    read: Read::Network { .. }
                }
            )
        })
        .count()
}

fn asked_network(w: &World) -> bool {
    network_reads(w) > 0
}

#[test]
fn a_shorter_window_after_the_effect_stands_on_the_page_and_its_requests() {
    let quick = |p: &mut Policy| p.timing.quick_ms = 60;
    // The cart shows the item, then takes it back (the server refused it) a while later.
    let rolled_back = || {
        let mut w = World::new(shop());
        w.later.push_back(shop());
        w
    };
    let mut busy_request = rolled_back();
    busy_request.requests = Some(1);
    let mut unseen = rolled_back();
    unseen.requests = None;
    let mut animating = World::new(shop());
    animating.says_quiet = false;
    run_rows(vec![
        row(
            "quiet page, no request: looked at after the shorter window",
            World::new(shop()),
            in_products(click("Add Shirt M")),
            cart_reaction("Add Shirt M", "Shirt M", true),
        )
        .policy(quick)
        .want(Some(VerdictKind::Match), true, None, "Shirt M")
        .then(|_, w, _| {
            assert_eq!(network_reads(w), 2, "before the input and after it");
            assert_eq!(settles_after_input(w), 1, "no second window");
            let quick_asked = w
                .needs
                .iter()
                .filter(|n| matches!(n, Need::Settle { quick_ms: 60, .. }))
                .count();
            assert_eq!(quick_asked, 2, "the settles before and after the input");
        }),
        row(
            "a request under way: the full window, which sees the cart rolled back",
            busy_request,
            in_products(click("Add Shirt M")),
            cart_reaction("Add Shirt M", "Shirt M", false),
        )
        .policy(quick)
        .want(
            Some(VerdictKind::Mismatch),
            false,
            Some(ErrorCode::VerificationFailed),
            "no effect",
        )
        .then(|_, w, _| {
            assert_eq!(network_reads(w), 2);
            // Before the input, requests under way: the settle went on with the full window.
            let input = w
                .needs
                .iter()
                .position(|n| matches!(n, Need::Input { .. }))
                .unwrap();
            assert!(w.needs[..input]
                .iter()
                .any(|n| matches!(n, Need::Settle { quick_ms: 0, .. })));
        }),
        row(
            "a driver that cannot see requests: the full window",
            unseen,
            in_products(click("Add Shirt M")),
            cart_reaction("Add Shirt M", "Shirt M", false),
        )
        .policy(quick)
        .want(
            Some(VerdictKind::Mismatch),
            false,
            Some(ErrorCode::VerificationFailed),
            "no effect",
        ),
        row(
            "the page does not say it is quiet (an animation): the full window, no requests asked",
            animating,
            in_products(click("Add Shirt M")),
            cart_reaction("Add Shirt M", "Shirt M", true),
        )
        .policy(quick)
        .want(Some(VerdictKind::Match), true, None, "Shirt M")
        .then(|_, w, _| assert!(!asked_network(w))),
        row(
            "without a shorter window the requests are never asked about",
            World::new(shop()),
            in_products(click("Add Shirt M")),
            cart_reaction("Add Shirt M", "Shirt M", true),
        )
        .policy(|p: &mut Policy| p.timing.quick_ms = 0)
        .want(Some(VerdictKind::Match), true, None, "Shirt M")
        .then(|_, w, _| {
            assert!(!asked_network(w));
            assert!(!w
                .needs
                .iter()
                .any(|n| matches!(n, Need::Settle { quick_ms: 1.., .. })));
        }),
    ]);
}

#[test]
fn a_look_takes_the_full_window_to_learn() {
    let mut policy = Policy::default();
    policy.timing.quick_ms = 60;
    let mut world = World::new(shop());
    let (record, _) = to_end(&mut world, Run::look(policy));
    assert!(record.ok, "{}", record.reason);
    assert!(!asked_network(&world));
    assert!(world
        .needs
        .iter()
        .all(|n| !matches!(n, Need::Settle { quick_ms: 1.., .. })));
}

#[test]
fn a_look_learns_a_focus_that_moves_by_itself_the_second_time() {
    let focus_on = |reference: &str| {
        let mut page = form_and_tasks();
        for e in &mut page.elements {
            e.focused = e.reference == reference;
        }
        page
    };
    // An autofocus that lands once: not the page's background.
    let mut once = World::new(form_and_tasks());
    once.ticks.push_back(focus_on("f-surname"));
    let (record, run) = to_end(&mut once, Run::look(Policy::default()));
    assert!(record.ok && record.stable, "{}", record.reason);
    assert!(!run.seen().expect("kept").background.claims);
    // A focus that keeps moving: learnt, and the fingerprint leaves the claims out after.
    let mut wandering = World::new(form_and_tasks());
    for on in ["f-surname", "f-name", "f-surname"] {
        wandering.ticks.push_back(focus_on(on));
    }
    let (record, run) = to_end(&mut wandering, Run::look(Policy::default()));
    assert!(record.ok && record.stable, "{}", record.reason);
    assert!(run.seen().expect("kept").background.claims);
    let observed = wandering
        .needs
        .iter()
        .filter(|n| matches!(n, Need::Observe { .. }))
        .count();
    assert_eq!(
        observed, 1,
        "the look's own: a move of the claims alone costs no snapshot"
    );
}

#[test]
fn a_driver_that_reports_no_time_passing_still_ends_a_busy_wait() {
    let mut w = World::new(shop());
    w.waited_ms = 0;
    let react: React = Box::new(|g, w| {
        if matches!(g, Gesture::Click { .. }) {
            w.page
                .elements
                .push(el("sp", Role::Progressbar, "Loading", CART));
        }
    });
    let step = Step::new(Action::Click {
        target: Target {
            region: Some(PRODUCTS.into()),
            ..target("button", "Add Shirt M")
        },
    });
    let policy = Policy {
        ambiguous: Ambiguous::Accept,
        ..Policy::default()
    };
    let (r, _) = drive(&mut w, step, policy, None, react);
    assert_eq!(r.verdict, Some(A), "{}", r.reason);
    let observed = w
        .needs
        .iter()
        .filter(|n| matches!(n, Need::Observe { .. }))
        .count();
    // Before, the first quiet point and each rescan, after.
    assert_eq!(observed, prufe::core::run::MAX_BUSY_RESCANS as usize + 3);
}

fn product_page() -> Snapshot {
    Snapshot {
        elements: vec![el("h1", Role::Heading, "Shirt M", "main")],
        texts: vec![],
        ..shop()
    }
}

/// A shop with a wallet frame of another origin, not yet attached: its iframe is opaque.
fn shop_with_wallet() -> Snapshot {
    let mut page = shop();
    page.elements.push(Element {
        opaque: true,
        ..el("fr1", Role::Iframe, "Wallet", "main")
    });
    page
}

/// The wallet frame once attached: its inside is read, its Pay button among them.
fn wallet_attached() -> Snapshot {
    let mut page = shop_with_wallet();
    page.elements.retain(|e| e.reference != "fr1");
    page.elements
        .push(el("1:b1", Role::Button, "Pay", "frame[0]/form[Card]"));
    page
}

#[test]
fn a_target_in_a_frame_root_is_placed_and_hit_tested_by_the_machine() {
    let framed = || {
        let mut page = shop();
        page.elements
            .push(el("f0:b1", Role::Button, "Pay", "frame[0]/form[Card]"));
        page
    };
    let pay = || {
        Step::new(Action::Click {
            target: Target {
                region: Some("frame[0]/form[Card]".into()),
                ..target("button", "Pay")
            },
        })
    };
    let paid = || -> React {
        Box::new(|g, w| {
            if let Gesture::Click { at, .. } = g {
                if at_point(&w.page, *at).is_some_and(|e| e.name == "Pay") {
                    w.page
                        .texts
                        .push(text("Payment accepted", "frame[0]/form[Card]"));
                }
            }
        })
    };
    let mut veiled = World::new(framed());
    veiled.frame_veil = Some("div.veil".into());
    let mut composed = World::new(framed());
    composed.composed = true;
    let asked = |w: &World, name: &str| {
        w.needs
            .iter()
            .filter(|n| serde_json::to_value(n).unwrap()["need"] == name)
            .count()
    };
    #[rustfmt::skip]
    run_rows(vec![
        row("a frame's target: its place asked, the frame hit-tested above it, clicked", World::new(framed()), pay(), paid())
            .want(Some(M), true, None, "")
            .then(move |_, w, _| {
                assert_eq!(clicks(w), 1);
                assert!(asked(w, "frame") >= 1 && asked(w, "hitFrame") >= 1, "{:?}", w.needs);
                assert!(w.needs.iter().all(|n| !matches!(n, Need::Frame { paths } if paths != &["0"])));
            }),
        row("a page of several roots named by the driver: observed, fingerprinted and settled root by root", composed, pay(), paid())
            .want(Some(M), true, None, "")
            .then(move |_, w, _| {
                assert_eq!(clicks(w), 1);
                let snapshot_of = |p: &str| w.needs.iter().any(|n| matches!(n, Need::Read { read: Read::Snapshot { path, .. } } if path == p));
                assert!(snapshot_of("") && snapshot_of("0"), "{:?}", w.needs);
                let pulses_of_frame = w.needs.iter().filter(|n| matches!(n, Need::Read { read: Read::Pulse { path, .. } } if path == "0")).count();
                assert!(pulses_of_frame >= 2 && asked(w, "wait") >= 2, "{:?}", w.needs);
            }),
        row("a veil over the frame: TARGET_OBSCURED in the machine's words, nothing sent", veiled, pay(), paid())
            .want(None, false, Some(ErrorCode::TargetObscured), "is covered by div.veil")
            .then(move |_, w, _| assert!(w.inputs.is_empty(), "{:?}", w.inputs)),
    ]);
}

#[test]
fn a_focus_inside_a_frame_root_is_followed_by_the_machine() {
    let mut page = shop();
    page.elements.push(Element {
        value: Some(String::new()),
        ..el("f0:t1", Role::Textbox, "Card number", "frame[0]/form[Card]")
    });
    let focus_on_click: React = Box::new(|g, w| {
        if let Gesture::Click { at, .. } = g {
            if let Some(i) = at_point(&w.page, *at).and_then(|e| {
                let r = e.reference.clone();
                w.page.elements.iter().position(|x| x.reference == r)
            }) {
                w.page.elements[i].focused = true;
            }
        }
    });
    let step = click_at(&page, "f0:t1");
    let mut world = World::new(page);
    let (record, run) = drive(&mut world, step, Policy::default(), None, focus_on_click);
    assert_eq!(clicks(&world), 1, "{}", record.reason);
    let focused = run.focused().expect("the focus is known");
    assert_eq!(
        (focused.reference.as_str(), focused.role),
        ("f0:t1", Role::Textbox),
        "the field inside the frame, in the page's terms"
    );
    let asked = |kind: &str| {
        world
            .needs
            .iter()
            .filter(|n| matches!(n, Need::Read { read } if serde_json::to_value(read).unwrap()["kind"] == kind))
            .count()
    };
    assert!(
        asked("roots") >= 1 && asked("focusedIn") >= 1,
        "{:?}",
        world.needs
    );
}

#[test]
fn a_target_in_a_frame_still_attaching_is_awaited() {
    let pay = || {
        Step::new(Action::Click {
            target: Target {
                region: Some("frame[0]/form[Card]".into()),
                ..target("button", "Pay")
            },
        })
    };
    let paid: React = Box::new(|g, w| {
        if let Gesture::Click { at, .. } = g {
            if at_point(&w.page, *at).is_some_and(|e| e.name == "Pay") {
                w.page
                    .texts
                    .push(text("Payment accepted", "frame[0]/form[Card]"));
            }
        }
    });
    let nothing = || -> React { Box::new(|_, _| {}) };
    let mut attaching = World::new(shop_with_wallet());
    attaching.later.push_back(wallet_attached());
    let still = World::new(shop_with_wallet());
    // A clock ticks while the frame stays out of reach: looked at again after each change,
    // until the step's 5 s are spent (2 s a look).
    let mut ticking = World::new(shop_with_wallet());
    ticking.waited_ms = 2_000;
    for minute in 1..=5 {
        let mut page = shop_with_wallet();
        page.texts[0].text = format!("10:0{minute}");
        ticking.later.push_back(page);
    }
    let waits = |w: &World| {
        w.needs
            .iter()
            .filter(|n| matches!(n, Need::Settle { since: Some(_), .. }))
            .count()
    };
    #[rustfmt::skip]
    run_rows(vec![
        row("the frame attaches: the target is found inside it and clicked", attaching, pay(), paid)
            .want(Some(M), true, None, "")
            .then(move |_, w, _| {
                assert_eq!(clicks(w), 1);
                assert!(waits(w) >= 1, "{:?}", w.needs);
            }),
        row("a page that does not change while it waits: TARGET_NOT_FOUND, nothing sent", still, pay(), nothing())
            .want(None, false, Some(ErrorCode::TargetNotFound), "opaque")
            .then(move |_, w, _| {
                assert!(w.inputs.is_empty());
                assert_eq!(waits(w), 1, "{:?}", w.needs);
            }),
        row("a frame that stays out of reach on a ticking page: TARGET_NOT_FOUND once the timeout is spent", ticking, pay(), nothing())
            .want(None, false, Some(ErrorCode::TargetNotFound), "opaque")
            .then(move |_, w, _| {
                assert!(w.inputs.is_empty());
                assert_eq!(waits(w), 3, "{:?}", w.needs);
                let observed = w.needs.iter().filter(|n| matches!(n, Need::Observe { .. })).count();
                assert_eq!(observed, 4, "{:?}", w.needs);
            }),
        row("no frame out of reach: TARGET_NOT_FOUND at once", World::new(shop()), pay(), nothing())
            .want(None, false, Some(ErrorCode::TargetNotFound), "")
            .then(move |_, w, _| {
                assert!(w.inputs.is_empty());
                assert_eq!(waits(w), 0, "{:?}", w.needs);
            }),
    ]);
}

#[test]
fn navigations() {
    let to_product: React = Box::new(|g, w| {
        if matches!(g, Gesture::Click { .. }) {
            w.navigate("http://shop.test/shirt.html", product_page());
        }
    });
    let hijack: React = Box::new(|g, w| {
        if matches!(g, Gesture::Click { .. }) {
            w.navigate("http://evil.test/", product_page());
        }
    });
    let goto: React = Box::new(|g, w| {
        if let Gesture::Navigate { url } = g {
            w.navigate(url, product_page());
        }
    });
    let link = Step::new(Action::Click {
        target: target("link", "Shirt M details"),
    });
    let linked = World {
        destination: Some(Destination {
            kind: "link".into(),
            url: "http://shop.test/shirt.html#top".into(),
            method: String::new(),
        }),
        ..World::new(shop())
    };
    let button = Step::new(Action::Click {
        target: Target {
            region: Some(PRODUCTS.into()),
            ..target("button", "Add Shirt M")
        },
    });
    let intent_world = World::new(shop());
    let to_product_again: React = Box::new(|g, w| {
        if matches!(g, Gesture::Click { .. }) {
            w.navigate("http://shop.test/p/1", product_page());
        }
    });
    // The new document has a clock that ticks while it settles.
    let to_live: React = Box::new(|g, w| {
        if let Gesture::Navigate { url } = g {
            let clock = |t: &str| {
                let mut p = product_page();
                p.texts = vec![text(t, "banner")];
                p
            };
            w.navigate(url, clock("10:00"));
            let epoch = w.page.context.epoch;
            for minute in 1..=6 {
                let mut p = clock(&format!("10:0{minute}"));
                p.context.epoch = epoch;
                w.ticks.push_back(p);
            }
        }
    });
    #[rustfmt::skip]
    run_rows(vec![
        row("a goto to a live page learns what it changes by itself, and settles", World::new(shop()), Step::new(Action::Goto { url: "http://shop.test/live.html".into() }), to_live)
            .want(Some(M), true, None, "a new document loaded")
            .then(|r, w, run| {
                assert_eq!(r.background, ["text in banner"]);
                assert!(w.ticks.is_empty(), "every tick came while it settled");
                let settles: Vec<_> = w.needs.iter().filter(|n| matches!(n, Need::Settle { stop_on_change: true, .. })).collect();
                assert_eq!(settles.len(), 5, "before the goto, then a baseline, two pairs and quiet over the rest: {:?}", w.needs);
                assert!(run.seen().is_some_and(|s| !s.background.is_empty() && s.snapshot.context.epoch == 2), "the next step starts from it");
            }),
        row("honest link navigation, judged on the new document", linked, link, to_product)
            .want(Some(M), true, None, "a new document loaded at the link's address, http://shop.test/shirt.html")
            .then(|r, w, run| {
                assert!(!w.inputs.contains(&Gesture::GoBack), "an honest navigation is never undone");
                assert_eq!(r.lines, ["navigated to http://shop.test/shirt.html"]);
                assert_eq!(run.seen().map(|s| s.snapshot.context.epoch), Some(2));
            }),
        row("a navigation the intent explains", intent_world, button.clone().with_intent("the Shirt M page opens"), to_product_again)
            .want(Some(M), true, None, "supports the intent"),
        row("hijacked navigation: back, STALE_OBSERVATION", World::new(shop()), button, hijack)
            .want(None, false, Some(ErrorCode::StaleObservation), "replaced the document to http://evil.test/")
            .then(|r, w, _| {
                assert!(w.inputs.contains(&Gesture::GoBack));
                assert_eq!(w.page.context.epoch, 1, "back on the page it started on");
                assert!(r.reason.contains("the tab went back"), "{}", r.reason);
            }),
        row("goto without an intent", World::new(shop()), Step::new(Action::Goto { url: "http://shop.test/shirt.html".into() }), goto)
            .want(Some(M), true, None, "a new document loaded (1 elements observed)")
            .then(|_, w, _| {
                let settles: Vec<_> = w.needs.iter().filter_map(|n| match n { Need::Settle { since, .. } => Some(since.clone()), _ => None }).collect();
                assert_eq!(settles.last(), Some(&None), "a goto settles from no fingerprint");
                assert!(matches!(w.needs.iter().rev().find(|n| matches!(n, Need::Settle { .. })), Some(Need::Settle { stop_on_change: true, .. })), "and learns what the new page changes by itself");
            }),
    ]);
}

/// A world whose fingerprint reads fail as `fails` says, one read each, in order.
fn fingerprint_failing(fails: &[Option<ErrorCode>]) -> World {
    World {
        fingerprint_fails: fails.iter().copied().collect(),
        ..World::new(shop())
    }
}

#[test]
fn a_fingerprint_the_page_cannot_give_now_is_a_move_the_machine_waits_through() {
    let gone = Some(ErrorCode::BrowserError);
    let kept_replacing: Vec<_> = std::iter::once(None)
        .chain(std::iter::repeat_n(gone, 20))
        .collect();
    let describes = |w: &World| {
        w.needs
            .iter()
            .filter(|n| matches!(n, Need::Describe { .. }))
            .count()
    };
    #[rustfmt::skip]
    run_rows(vec![
        row("a fingerprint read in a document being replaced: settled through, then the click", fingerprint_failing(&[gone]), in_products(click("Add Shirt M")), cart_reaction("Add Shirt M", "Shirt M", true))
            .want(Some(M), true, None, "")
            .then(|_, w, _| {
                assert_eq!(clicks(w), 1);
                assert!(w.fingerprint_fails.is_empty(), "the failed read was answered, not asked again by the driver");
            }),
        row("a fingerprint the engine refuses for good ends the step with its code, nothing sent", fingerprint_failing(&[Some(ErrorCode::WasmBlocked)]), in_products(click("Add Shirt M")), cart_reaction("Add Shirt M", "Shirt M", true))
            .want(None, false, Some(ErrorCode::WasmBlocked), "could not be read")
            .then(|_, w, _| assert!(w.inputs.is_empty())),
        row("the document replaced right before the input: observed and resolved again, then the click", fingerprint_failing(&[None, gone]), in_products(click("Add Shirt M")), cart_reaction("Add Shirt M", "Shirt M", true))
            .want(Some(M), true, None, "")
            .then(move |_, w, _| {
                assert_eq!(clicks(w), 1);
                // Described before and after the pointer's arrival, each time it was resolved.
                assert_eq!(describes(w), 4, "the target was resolved again: {:?}", w.needs);
            }),
        row("a document replaced before every input: STALE_OBSERVATION, nothing clicked", fingerprint_failing(&kept_replacing), in_products(click("Add Shirt M")), cart_reaction("Add Shirt M", "Shirt M", true))
            .want(None, false, Some(ErrorCode::StaleObservation), "kept being replaced before input")
            .then(move |_, w, _| {
                assert_eq!(clicks(w), 0);
                assert_eq!(describes(w) as u32, 2 * (prufe::core::run::MAX_RESCANS + 1));
            }),
    ]);
}

#[test]
fn targets() {
    let nothing = || -> React { Box::new(|_, _| {}) };
    let mut recycled = World::new(shop());
    recycled.described = Some(el("b1", Role::Button, "Add Hat S", PRODUCTS));
    let mut disabled = World::new(shop());
    disabled.described = Some(Element {
        disabled: true,
        ..el("b1", Role::Button, "Add Shirt M", PRODUCTS)
    });
    // Refused by whichever driver answered in the page: the machine words it, naming the
    // target as the merged page does.
    let mut covered = World::new(shop());
    covered.refusal = Some(Refusal::Covered {
        by: "div#veil".into(),
        point: Point { x: 40.4, y: 20.5 },
    });
    let mut moving = World::new(shop());
    moving.refusal = Some(Refusal::KeptMoving { timeout_ms: 400 });
    let mut checked = shop();
    checked.elements.push(Element {
        checked: Some(true.into()),
        ..el("g1", Role::Checkbox, "Gift wrap", "cart")
    });
    #[rustfmt::skip]
    run_rows(vec![
        row("an ambiguous target is a typed error, nothing sent", World::new(shop()), click("Add Shirt M"), nothing())
            .want(None, false, Some(ErrorCode::TargetAmbiguous), "")
            .then(|r, w, _| {
                assert!(w.inputs.is_empty());
                assert_eq!(r.error.as_ref().map(|e| e.candidates.len()), Some(2));
            }),
        row("a target re-described as something else: TARGET_CHANGED", recycled, Step::new(Action::Click { target: Target { region: Some(PRODUCTS.into()), ..target("button", "Add Shirt M") } }), nothing())
            .want(None, false, Some(ErrorCode::TargetChanged), "kept changing")
            .then(|_, w, _| {
                assert!(w.inputs.is_empty());
                let described = w.needs.iter().filter(|n| matches!(n, Need::Describe { .. })).count();
                assert_eq!(described as u32, prufe::core::run::MAX_RESCANS + 1);
            }),
        row("a target that became disabled", disabled, Step::new(Action::Click { target: Target { region: Some(PRODUCTS.into()), ..target("button", "Add Shirt M") } }), nothing())
            .want(None, false, Some(ErrorCode::TargetDisabled), "became disabled"),
        row("a covered target: TARGET_OBSCURED in the machine's words, nothing sent", covered, Step::new(Action::Click { target: Target { region: Some(PRODUCTS.into()), ..target("button", "Add Shirt M") } }), nothing())
            .want(None, false, Some(ErrorCode::TargetObscured), "button[Add Shirt M] in catalogue/list:products is covered by div#veil at (40, 21); nothing was clicked")
            .then(|_, w, _| assert!(w.inputs.is_empty())),
        row("a target that keeps moving: TARGET_NOT_STABLE", moving, Step::new(Action::Click { target: Target { region: Some(PRODUCTS.into()), ..target("button", "Add Shirt M") } }), nothing())
            .want(None, false, Some(ErrorCode::TargetNotStable), "button[Add Shirt M] in catalogue/list:products kept moving for 400 ms")
            .then(|_, w, _| assert!(w.inputs.is_empty())),
        row("checking a checked box dispatches nothing", World::new(checked), Step::new(Action::Check { target: target("checkbox", "Gift wrap") }), nothing())
            .want(Some(M), true, None, "already checked")
            .then(|_, w, _| assert!(w.inputs.is_empty())),
    ]);
}

#[test]
fn fills() {
    let fill = |sensitive: bool| {
        Step::new(Action::Fill {
            target: target("textbox", "Coupon"),
            value: "SAVE-1234".into(),
            sensitive,
        })
    };
    let kinds = |w: &World| -> Vec<&'static str> {
        w.inputs
            .iter()
            .map(|g| match g {
                Gesture::Focus { .. } => "focus",
                Gesture::Click { .. } => "click",
                Gesture::Insert { .. } => "insert",
                Gesture::Press { .. } => "press",
                Gesture::MoveTo { .. } => "move",
                _ => "other",
            })
            .collect()
    };
    let mut slippery = World::new(shop());
    slippery.focus_refusals = 1;
    let mut unfocusable = World::new(shop());
    unfocusable.focus_refusals = 2;
    // The field keeps only its first four characters, the first time.
    let truncates: React = Box::new(|g, w| {
        let inserts = w
            .inputs
            .iter()
            .filter(|g| matches!(g, Gesture::Insert { .. }))
            .count();
        if matches!(g, Gesture::Insert { .. }) && inserts == 1 {
            if let Some(f) = w.focused_mut() {
                f.value = f.value.as_ref().map(|v| v.chars().take(4).collect());
            }
        }
    });
    #[rustfmt::skip]
    run_rows(vec![
        row("a fill: the field focused and its content selected, then the text", World::new(shop()), fill(false), nothing())
            .want(Some(M), true, None, "")
            .then(move |_, w, _| assert_eq!(kinds(w).into_iter().filter(|k| *k != "move").collect::<Vec<_>>(), ["focus", "insert"])),
        row("a field that lets the focus go is clicked where a person would, then typed into", slippery, fill(false), nothing())
            .want(Some(M), true, None, "")
            .then(move |r, w, _| {
                assert_eq!(kinds(w).into_iter().filter(|k| *k != "move").collect::<Vec<_>>(), ["focus", "click", "focus", "insert"]);
                let clicked = w.inputs.iter().find_map(|g| match g { Gesture::Click { at, .. } => Some(*at), _ => None });
                assert_eq!(clicked, Some(point_of(&w.page, "f1")), "the click is at the field's prepared point");
                assert_eq!(r.value.as_deref(), Some("SAVE-1234"));
            }),
        row("a field that never keeps the focus: FOCUS_LOST, nothing typed", unfocusable, fill(false), nothing())
            .want(None, false, Some(ErrorCode::FocusLost), "not even after a click on it; nothing was typed")
            .then(move |_, w, _| assert!(!kinds(w).contains(&"insert"), "{:?}", w.inputs)),
        row("a fill that went wrong is typed back (an empty field: Backspace over the selection), then retried", World::new(shop()), fill(false), truncates)
            .want(Some(M), true, None, "").tries(2, 1)
            .then(move |r, w, _| {
                assert_eq!(kinds(w).into_iter().filter(|k| *k != "move").collect::<Vec<_>>(), ["focus", "insert", "focus", "press", "focus", "insert"]);
                assert!(w.inputs.contains(&Gesture::Press { reference: None, keys: vec!["Backspace".into()] }));
                assert_eq!(r.value.as_deref(), Some("SAVE-1234"));
            }),
        row("a fill", World::new(shop()), fill(false), nothing())
            .want(Some(M), true, None, "")
            .then(|r, _, _| assert_eq!(r.value.as_deref(), Some("SAVE-1234"))),
        row("a sensitive fill is judged by hash and never shown", World::new(shop()), fill(true), nothing())
            .want(Some(M), true, None, "")
            .then(|r, w, run| {
                assert_eq!(r.value.as_deref(), Some("[redacted]"));
                assert!(!serde_json::to_string(r).unwrap().contains("SAVE-1234"), "{r:?}");
                assert!(w.needs.iter().any(|n| matches!(n, Need::Read { read: Read::Hash { .. } })));
                assert_eq!(run.sensitive(), ["f1"]);
                // The field is declared before the observation the judge reads.
                let first_describe = w.needs.iter().position(|n| matches!(n, Need::Describe { .. })).unwrap();
                assert!(matches!(&w.needs[first_describe - 1], Need::Observe { sensitive } if sensitive == &["f1"]), "{:?}", w.needs[first_describe - 1]);
            }),
    ]);
}

#[test]
fn background_is_learnt_before_acting() {
    // A ticker in the banner, changing while the run settles.
    let ticker = |t: &str| {
        let mut p = shop();
        p.texts[0].text = t.into();
        p
    };
    // What the banner shows right after the click: a new failure message, or a headline
    // the ticker was already seen showing.
    let react = |banner: &'static str| -> React {
        Box::new(move |g, w| {
            if matches!(g, Gesture::Click { .. }) {
                add(&mut w.page, "c1", "Shirt M", false);
                w.page.texts[0].text = banner.into();
            }
        })
    };
    let step = || {
        Step::new(Action::Click {
            target: Target {
                region: Some(PRODUCTS.into()),
                ..target("button", "Add Shirt M")
            },
        })
        .with_intent("Shirt M is added")
    };
    let mut ticking = World::new(ticker("Rain in Oslo"));
    // The first change gives the baseline, the second a pair to learn from.
    ticking.ticks.push_back(ticker("Markets up"));
    ticking.ticks.push_back(ticker("Sports today"));
    let mut ticking_again = World::new(ticker("Rain in Oslo"));
    ticking_again.ticks.push_back(ticker("Markets up"));
    ticking_again.ticks.push_back(ticker("Sports today"));
    // The ticker moves twice, then the target is found recycled once: the rescan keeps
    // what was learnt and learns nothing from its own settle.
    let mut rescanned = World::new(ticker("Rain in Oslo"));
    rescanned.ticks.push_back(ticker("Markets up"));
    rescanned.ticks.push_back(ticker("Sports today"));
    rescanned.described_once = Some(el("b1", Role::Button, "Add Hat S", PRODUCTS));
    let mut seen_world = World::new(ticker("Markets up"));
    let seen = Some(Seen {
        fingerprint: "an older page".into(),
        snapshot: ticker("Rain in Oslo"),
        background: Background::default(),
    });
    // The last run on this document learnt the ticker: this one starts from it and waits
    // for nothing the ticker does.
    let mut learnt = Background::default();
    learnt.observe(&ticker("Rain in Oslo"), &ticker("Markets up"));
    let mut carried_world = World::new(ticker("Markets up"));
    carried_world.ticks.push_back(ticker("Rain in Oslo"));
    carried_world.ticks.push_back(ticker("Markets up"));
    let carried = Some(Seen {
        fingerprint: carried_world.fingerprint_over(&learnt),
        snapshot: ticker("Markets up"),
        background: learnt.clone(),
    });
    // What another document learnt is not this one's.
    let mut other = ticker("Rain in Oslo");
    other.context.epoch = 7;
    let elsewhere = Some(Seen {
        fingerprint: "another document".into(),
        snapshot: other,
        background: learnt.clone(),
    });
    #[rustfmt::skip]
    run_rows(vec![
        row("a still page: a failure word is the action's", World::new(ticker("Rain in Oslo")), step(), react("Connection error"))
            .want(Some(X), false, Some(ErrorCode::IrreversibleAction), "failure message"),
        row("a slot the page changes by itself is no evidence", ticking, step(), react("Rain in Oslo"))
            .want(Some(M), true, None, "")
            .then(|r, _, _| assert_eq!(r.background, ["text in banner"])),
        row("a new text in a slot that was changing is judged", ticking_again, step(), react("Connection error"))
            .want(Some(X), false, Some(ErrorCode::IrreversibleAction), "failure message"),
        row("a rescan keeps the background learnt before it", rescanned, step(), react("Rain in Oslo"))
            .want(Some(M), true, None, "")
            .then(|r, w, _| {
                assert_eq!(r.background, ["text in banner"]);
                let describes = w.needs.iter().filter(|n| matches!(n, Need::Describe { .. })).count();
                assert_eq!(describes, 3, "the recycled look-up, then the look-up and the check before the click");
                let learning = w.needs.iter().filter(|n| matches!(n, Need::Settle { stop_on_change: true, .. })).count();
                assert_eq!(learning, 3, "the rescan settles plainly");
            }),
        Row { seen, ..row("learnt from the last observation", std::mem::replace(&mut seen_world, World::new(shop())), step(), react("Rain in Oslo")) }
            .want(Some(M), true, None, "")
            .then(|r, _, _| assert_eq!(r.background, ["text in banner"])),
        Row { seen: carried, ..row("the background learnt on the document carries to the next run", carried_world, step(), react("Rain in Oslo")) }
            .want(Some(M), true, None, "")
            .then(|r, w, run| {
                assert_eq!(r.background, ["text in banner"]);
                assert!(matches!(&w.needs[0], Need::Fingerprint { background } if !background.is_empty()), "read as the last settle read it: {:?}", w.needs[0]);
                let input = w.needs.iter().position(|n| matches!(n, Need::Input { gesture: Gesture::Click { .. } })).unwrap();
                let learning = w.needs[..input].iter().filter(|n| matches!(n, Need::Settle { stop_on_change: true, .. })).count();
                assert_eq!(learning, 1, "one settle, over what the ticker does not change: {:?}", w.needs);
                assert!(w.ticks.is_empty(), "the ticks came while it settled");
                assert!(run.seen().is_some_and(|s| !s.background.is_empty()), "and it hands the background on");
            }),
        Row { seen: elsewhere, ..row("another document's background is dropped", World::new(ticker("Rain in Oslo")), step(), react("Rain in Oslo")) }
            .want(Some(M), true, None, "")
            .then(|r, _, _| assert!(r.background.is_empty(), "{:?}", r.background)),
    ]);
}

/// Drives a look (`Run::look`) on `world` to its end, through JSON between answers.
fn look(world: &mut World, seen: Option<Seen>) -> (Record, Run) {
    to_end(world, Run::look(Policy::default()).with_seen(seen))
}

/// Drives `run` on `world` to its end, through JSON between answers.
fn to_end(world: &mut World, mut run: Run) -> (Record, Run) {
    let mut answer = Answer::Start;
    let mut react: React = Box::new(|_, _| {});
    for _ in 0..200 {
        run =
            serde_json::from_str(&serde_json::to_string(&run).unwrap()).expect("a run reads back");
        let need = run.next(answer);
        if let Need::Done { record } = need {
            return (*record, run);
        }
        answer = world.answer(&need, &mut react);
    }
    panic!("the run did not end");
}

#[test]
fn going_back() {
    // A tab that went from the shop to a product page goes back to the shop.
    let mut w = World::new(shop());
    w.navigate("http://shop.test/shirt.html", product_page());
    let (r, run) = to_end(&mut w, Run::back(Policy::default()));
    assert_eq!((r.verdict, r.ok), (Some(M), true), "{r:?}");
    assert_eq!(r.value.as_deref(), Some("http://shop.test/"));
    assert_eq!(r.lines, ["navigated to http://shop.test/"]);
    assert!(w.inputs.contains(&Gesture::GoBack));
    assert!(
        run.seen()
            .is_some_and(|s| s.snapshot.context.epoch == w.page.context.epoch),
        "the next step starts from the page reached"
    );

    // With no entry to go back to, nothing is sent.
    let mut first = World::new(shop());
    let (r, _) = to_end(&mut first, Run::back(Policy::default()));
    assert_eq!(r.error.map(|e| e.code), Some(ErrorCode::NavigationFailed));
    assert!(first.inputs.is_empty());
    assert_eq!(r.verdict, None);
}

#[test]
fn waits() {
    use prufe::core::until::Postcondition;
    let saved = |t: &str| {
        let mut p = shop();
        p.texts.push(text(t, PRODUCTS));
        p
    };
    let appears = |t: &str| Postcondition::TextAppears {
        text: t.into(),
        region: None,
    };

    // The text comes after two changes: the wait looks after each move, and holds.
    let mut w = World::new(shop());
    w.ticks.push_back(saved("Saving…"));
    w.ticks.push_back(saved("Saved"));
    let (r, run) = to_end(
        &mut w,
        Run::wait(appears("Saved"), 5_000, Policy::default()),
    );
    assert!(r.ok && r.error.is_none(), "{r:?}");
    assert_eq!(r.value.as_deref(), Some("text 'Saved' appears"));
    let looks = w
        .needs
        .iter()
        .filter(|n| matches!(n, Need::Observe { .. }))
        .count();
    assert_eq!(looks, 3, "{:?}", w.needs);
    assert!(run
        .last_observation()
        .is_some_and(|s| s.texts.iter().any(|t| t.text == "Saved")));
    assert!(
        run.seen().is_some(),
        "a wait acts on nothing: its observation is handed on"
    );

    // Nothing comes: the deadline, counted in the driver's time, ends it.
    let mut still = World::new(shop());
    let (r, run) = to_end(
        &mut still,
        Run::wait(appears("Saved"), 1_000, Policy::default()),
    );
    assert_eq!(
        r.error.as_ref().map(|e| e.code),
        Some(ErrorCode::PostconditionTimeout),
        "{r:?}"
    );
    assert!(
        r.reason.contains("did not hold within 1000 ms"),
        "{}",
        r.reason
    );
    assert!(!r.ok);
    assert!(run.last_observation().is_some(), "the page at the deadline");
    let settles = still
        .needs
        .iter()
        .filter(|n| {
            matches!(
                n,
                Need::Settle {
                    stop_on_change: true,
                    since: Some(_),
                    ..
                }
            )
        })
        .count();
    assert_eq!(settles, 4, "300 ms a settle: {:?}", still.needs);

    // A driver whose clock says no time passes still ends it.
    let mut frozen = World::new(shop());
    frozen.waited_ms = 0;
    let (r, _) = to_end(
        &mut frozen,
        Run::wait(appears("Saved"), 1_000, Policy::default()),
    );
    assert_eq!(
        r.error.map(|e| e.code),
        Some(ErrorCode::PostconditionTimeout)
    );

    // A text that goes away.
    let mut going = World::new(saved("Saving…"));
    going.ticks.push_back(shop());
    let gone = Postcondition::TextGone {
        text: "saving".into(),
        region: None,
    };
    let (r, _) = to_end(&mut going, Run::wait(gone, 5_000, Policy::default()));
    assert!(r.ok, "{r:?}");
    assert_eq!(r.value.as_deref(), Some("text 'saving' is gone"));

    // A sensitive value is compared by the keyed hash in the field's document, and never
    // shown.
    let mut secret = World::new(shop());
    let mut filled = shop();
    filled.elements[4].value = Some("hunter22".into());
    filled.elements[4].sensitive = true;
    secret.ticks.push_back(filled);
    let equals = Postcondition::ValueEquals {
        role: Role::Textbox,
        name: "Coupon".into(),
        region: None,
        value: "hunter22".into(),
        sensitive: true,
    };
    let (r, run) = to_end(&mut secret, Run::wait(equals, 5_000, Policy::default()));
    assert!(r.ok, "{r:?}");
    assert!(
        secret.needs.iter().any(|n| matches!(
            n,
            Need::Read {
                read: Read::Hash { .. }
            }
        )),
        "{:?}",
        secret.needs
    );
    assert!(
        !serde_json::to_string(&r).unwrap().contains("hunter22"),
        "{r:?}"
    );
    assert_eq!(r.value.as_deref(), Some("textbox[Coupon] shows [redacted]"));
    let _ = run;
}

#[test]
fn a_look_settles_and_learns_only_what_changes_again() {
    let banner = |t: &str| {
        let mut p = shop();
        p.texts[0].text = t.into();
        p
    };
    // A still page: a fingerprint, one settle, one observation, nothing learnt.
    let mut still = World::new(shop());
    let (r, run) = look(&mut still, None);
    assert_eq!(
        (r.action.as_str(), r.ok, r.stable, r.verdict),
        ("look", true, true, None),
        "{r:?}"
    );
    assert_eq!(
        still.needs.len(),
        4,
        "a fingerprint, a settle, an observation, the fingerprint it was taken at: {:?}",
        still.needs
    );
    let seen = run.seen().expect("the look is the last observation");
    assert_eq!(
        seen.fingerprint,
        still.fingerprint_over(&Background::default())
    );
    assert!(seen.background.is_empty());

    // A clock that keeps ticking while the page is looked at: learnt once it ticked in two
    // pairs, then the look is quiet over the rest.
    let mut ticking = World::new(banner("10:00"));
    for minute in 1..=9 {
        ticking.ticks.push_back(banner(&format!("10:0{minute}")));
    }
    let (r, run) = look(&mut ticking, None);
    assert_eq!(r.background, ["text in banner"], "{r:?}");
    assert!(r.stable, "{r:?}");
    let learning = ticking
        .needs
        .iter()
        .filter(|n| {
            matches!(
                n,
                Need::Settle {
                    stop_on_change: true,
                    ..
                }
            )
        })
        .count();
    assert_eq!(
        learning, 4,
        "a baseline, two pairs, then quiet over the rest: {:?}",
        ticking.needs
    );
    let seen = run.seen().cloned().expect("handed on");
    assert!(!seen.background.is_empty());
    // The next step on the page starts from it: one settle before its input.
    let mut next = World::new(ticking.page.clone());
    next.ticks.push_back(banner("10:11"));
    next.ticks.push_back(banner("10:12"));
    let step = Step::new(Action::Click {
        target: Target {
            region: Some(PRODUCTS.into()),
            ..target("button", "Add Shirt M")
        },
    })
    .with_intent("Shirt M is added");
    let added: React = Box::new(|g, w| {
        if matches!(g, Gesture::Click { .. }) {
            add(&mut w.page, "c1", "Shirt M", false);
        }
    });
    let (r, _) = drive(&mut next, step, Policy::default(), Some(seen), added);
    assert_eq!(r.verdict, Some(M), "{r:?}");
    let input = next
        .needs
        .iter()
        .position(|n| {
            matches!(
                n,
                Need::Input {
                    gesture: Gesture::Click { .. }
                }
            )
        })
        .unwrap();
    let learning = next.needs[..input]
        .iter()
        .filter(|n| {
            matches!(
                n,
                Need::Settle {
                    stop_on_change: true,
                    ..
                }
            )
        })
        .count();
    assert_eq!(learning, 1, "{:?}", next.needs);

    // Content arriving once (offers loaded after the document) is not background: the
    // next step's own line of that shape is judged as its effect.
    let mut loading = World::new(shop());
    let mut loaded = shop();
    loaded.texts.push(text("3 offers today", PRODUCTS));
    loading.ticks.push_back(loaded.clone());
    let (r, run) = look(&mut loading, None);
    assert!(r.background.is_empty(), "{r:?}");
    let seen = run.seen().expect("handed on");
    assert!(seen.background.is_empty());
    assert!(
        seen.snapshot
            .texts
            .iter()
            .any(|t| t.text == "3 offers today"),
        "the look shows the page as loaded"
    );

    // The page moves between the settle and the observation: the look settles again, so
    // that what it keeps is one consistent pair.
    let mut raced = World::new(banner("10:00"));
    raced.observe_ticks.push_back(banner("10:01"));
    let (r, run) = look(&mut raced, None);
    assert!(r.stable, "{r:?}");
    let seen = run.seen().expect("handed on");
    assert_eq!(seen.snapshot.texts[0].text, "10:01");
    assert_eq!(
        seen.fingerprint,
        raced.fingerprint_over(&seen.background),
        "the kept fingerprint is the kept snapshot's"
    );
    let settles = raced
        .needs
        .iter()
        .filter(|n| matches!(n, Need::Settle { .. }))
        .count();
    assert_eq!(settles, 2, "{:?}", raced.needs);

    // What an earlier run learnt is kept.
    let mut learnt = Background::default();
    learnt.observe(&banner("10:00"), &banner("10:01"));
    let mut carried = World::new(banner("10:02"));
    let earlier = Seen {
        fingerprint: carried.fingerprint_over(&learnt),
        snapshot: banner("10:01"),
        background: learnt,
    };
    let (r, run) = look(&mut carried, Some(earlier));
    assert_eq!(r.background, ["text in banner"], "{r:?}");
    assert!(run.seen().is_some_and(|s| !s.background.is_empty()));
}

#[test]
fn a_settle_is_quiet_over_what_the_page_does_not_change_by_itself() {
    let clock = |t: &str| {
        let mut p = shop();
        p.texts[0].text = t.into();
        p
    };
    let step = Step::new(Action::Click {
        target: Target {
            region: Some(PRODUCTS.into()),
            ..target("button", "Add Shirt M")
        },
    })
    .with_intent("Shirt M is added");
    let added: React = Box::new(|g, w| {
        if matches!(g, Gesture::Click { .. }) {
            add(&mut w.page, "c1", "Shirt M", false);
        }
    });
    // A clock that keeps ticking while the run settles.
    let mut ticking = World::new(clock("10:00"));
    for minute in 1..=9 {
        ticking.ticks.push_back(clock(&format!("10:0{minute}")));
    }
    // The same clock, then a message of a shape it never showed, in its place.
    let mut told = World::new(clock("10:00"));
    for minute in 1..=3 {
        told.ticks.push_back(clock(&format!("10:0{minute}")));
    }
    told.ticks.push_back(clock("Maintenance at noon"));
    #[rustfmt::skip]
    run_rows(vec![
        row("ticks in a slot learnt as background do not keep the wait open", ticking, step.clone(), added)
            .want(Some(M), true, None, "")
            .then(|r, w, _| {
                assert_eq!(r.background, ["text in banner"]);
                assert!(w.ticks.is_empty(), "every tick came while the run waited");
                let learning = w.needs.iter().filter(|n| matches!(n, Need::Settle { stop_on_change: true, .. })).count();
                assert_eq!(learning, 3, "a baseline, a pair to learn from, then quiet over the rest: {:?}", w.needs);
                let input = w.needs.iter().position(|n| matches!(n, Need::Input { gesture: Gesture::Click { .. } })).unwrap();
                let fp0 = w.needs[..input].iter().rev().find(|n| matches!(n, Need::Fingerprint { .. }));
                assert!(matches!(fp0, Some(Need::Fingerprint { background }) if !background.is_empty()), "{fp0:?}");
                assert!(w.needs[input..].iter().all(|n| !matches!(n, Need::Settle { background, .. } if background.is_empty())), "{:?}", w.needs);
            }),
        row("a shape the slot never showed is a change", told, step, Box::new(|_, _| {}))
            .then(|_, w, _| {
                let input = w.needs.iter().position(|n| matches!(n, Need::Input { gesture: Gesture::Click { .. } })).unwrap();
                let learning = w.needs[..input].iter().filter(|n| matches!(n, Need::Settle { stop_on_change: true, .. })).count();
                assert_eq!(learning, 4, "the message moved the page: {:?}", w.needs);
            })
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "no effect"),
    ]);
}

#[test]
fn a_tick_after_the_action_is_watched_once_more() {
    // A clock in the banner that did not tick while the run settled before the click, and
    // ticks right after it: the click's diff holds the tick.
    let clock = |t: &str| {
        let mut p = shop();
        p.texts[0].text = t.into();
        p
    };
    // The click's effect (a product added, or nothing) and the clock's tick; with `again`,
    // the clock ticks once more while the run watches.
    let ticked = |also: Option<&'static str>, again: bool| -> React {
        Box::new(move |g, w| {
            if matches!(g, Gesture::Click { .. }) {
                if let Some(product) = also {
                    add(&mut w.page, "c1", product, false);
                }
                w.page.texts[0].text = "10:00:01".into();
                if again {
                    let mut next = w.page.clone();
                    next.texts[0].text = "10:00:02".into();
                    w.ticks.push_back(next);
                }
            }
        })
    };
    let step = || {
        Step::new(Action::Click {
            target: Target {
                region: Some(PRODUCTS.into()),
                ..target("button", "Add Shirt M")
            },
        })
    };
    // A carousel whose slide did not turn while the run settled, and turns right after
    // the click; with `again`, it turns once more (and its slide scrolls in after a moment)
    // while the run watches.
    let carousel = |slide: &str| {
        let mut p = shop();
        p.elements.push(el(
            &format!("s-{slide}"),
            Role::Generic,
            slide,
            "region[Carousel]",
        ));
        p
    };
    // The click adds Shirt M (or not) and the slide turns to one that names a neighbour's
    // product; with `again`, it turns once more while the run watches.
    let turned = |also: bool, again: bool| -> React {
        Box::new(move |g, w| {
            if matches!(g, Gesture::Click { .. }) {
                if also {
                    add(&mut w.page, "c1", "Shirt M", false);
                }
                let slide = w
                    .page
                    .elements
                    .iter()
                    .rposition(|e| e.region == "region[Carousel]");
                w.page.elements.remove(slide.expect("a slide"));
                w.page.elements.push(el(
                    "s-L",
                    Role::Generic,
                    "Trousers L on sale",
                    "region[Carousel]",
                ));
                if again {
                    let mut next = w.page.clone();
                    next.elements.pop();
                    next.elements.push(el(
                        "s-H",
                        Role::Generic,
                        "Hat S on sale",
                        "region[Carousel]",
                    ));
                    w.ticks.push_back(next);
                }
            }
        })
    };

    let watched = |w: &World| {
        w.needs
            .iter()
            .filter(|n| matches!(n, Need::Settle { quiet_ms, stop_on_change: true, .. } if *quiet_ms == 3_500))
            .count()
    };
    #[rustfmt::skip]
    run_rows(vec![
        // A refusal of the same kind with or without the tick (nothing else happened, AMBIGUOUS
        // either way) is decided at once.
        row("a tick and no effect: no watch", World::new(clock("10:00:00")), step(), ticked(None, true))
            .want(Some(A), false, Some(ErrorCode::IrreversibleAction), "no element's name explains the effect")
            .then(move |r, w, _| {
                assert!(r.background.is_empty());
                assert_eq!(watched(w), 0, "no watch");
            }),
        // A refusal that stands as it is without the tick is decided at once.
        row("a wrong product beside a tick: no watch", World::new(clock("10:00:00")), step(), ticked(Some("Trousers L"), true))
            .want(Some(X), false, Some(ErrorCode::IrreversibleAction), "Trousers L")
            .then(move |_, w, _| assert_eq!(watched(w), 0, "no watch")),
        row("an effect beside a tick passes with no watch", World::new(clock("10:00:00")), step(), ticked(Some("Shirt M"), true))
            .want(Some(M), true, None, "")
            .then(move |_, w, _| assert_eq!(watched(w), 0, "a MATCH is not watched")),
        // A slide naming a neighbour's product turned in with the effect: the tick stands
        // between the attempt and a pass, so the page is watched once more.
        row("a slide that turns again is background, what it turned out too", World::new(carousel("Living room")), step(), turned(true, true))
            .want(Some(M), true, None, "")
            .then(move |r, w, _| {
                assert_eq!(r.background, ["generic in region[Carousel]"]);
                assert_eq!(watched(w), 1, "one watch");
            }),
        row("a slide the action turned and that holds still is judged as it is", World::new(carousel("Living room")), step(), turned(true, false))
            .want(Some(A), false, Some(ErrorCode::IrreversibleAction), "also button[Add Trousers L]")
            .then(move |r, w, _| {
                assert!(r.background.is_empty());
                assert_eq!(watched(w), 1, "one watch");
            }),
        row("a slide naming a neighbour that turns again is no effect", World::new(carousel("Living room")), step(), turned(false, true))
            .want(Some(A), false, Some(ErrorCode::IrreversibleAction), "outside the slots it was already changing by itself")
            .then(move |_, w, _| assert_eq!(watched(w), 1, "one watch")),
    ]);
}

#[test]
fn watches() {
    let nothing = || -> React { Box::new(|_, _| {}) };
    let with_shirt = || {
        let mut p = shop();
        add(&mut p, "c1", "Shirt M", false);
        p
    };
    let watching = |acted: Snapshot, url: Option<&str>, steps: u32| {
        let mut w = World::new(shop());
        w.acted = Some((acted, url.map(str::to_owned), steps));
        w
    };
    let watch = |intent: Option<&str>| {
        let s = Step::new(Action::watch());
        match intent {
            Some(i) => s.with_intent(i),
            None => s,
        }
    };
    let no_input = |_: &Record, w: &World, _: &Run| {
        assert!(
            w.inputs.is_empty(),
            "a watch sends no input: {:?}",
            w.inputs
        );
        assert!(
            !w.needs.iter().any(|n| matches!(
                n,
                Need::Read {
                    read: Read::Address
                }
            )),
            "no navigation rule"
        );
    };
    let accept = Policy {
        ambiguous: Ambiguous::Accept,
        ..Policy::default()
    };
    let arbiter = Policy {
        ambiguous: Ambiguous::Arbiter,
        ..Policy::default()
    };
    let mut yes = watching(with_shirt(), None, 0);
    yes.arbiter = true;
    let mut yes_again = watching(with_shirt(), None, 0);
    yes_again.arbiter = true;
    // A secret the caller registered before this step, which the page happens to show.
    let session_secret = Policy {
        ambiguous: Ambiguous::Arbiter,
        secrets: vec!["Shirt M".into()],
        ..Policy::default()
    };
    let mut thanks = Snapshot {
        elements: vec![el(
            "h1",
            Role::Heading,
            "Thank you, your order is placed",
            "main",
        )],
        ..shop()
    };
    thanks.texts.clear();
    #[rustfmt::skip]
    run_rows(vec![
        row("a watched effect the intent supports", watching(with_shirt(), None, 0), watch(Some("the cart gains a Shirt M")), nothing())
            .want(Some(M), true, None, "")
            .then(move |r, w, run| {
                no_input(r, w, run);
                assert_eq!(r.action, "watch");
                assert_eq!(r.value, None, "the caller's code acted: no step count");
                assert!(r.lines.iter().any(|l| l.contains("Shirt M")), "{:?}", r.lines);
                // Settle, observe, act, settle since the fingerprint before, observe.
                let kinds: Vec<&str> = w.needs.iter().map(|n| match n { Need::Settle { since: None, .. } => "settle", Need::Settle { .. } => "settle-since", Need::Observe { .. } => "observe", Need::Act => "act", _ => "other" }).collect();
                assert_eq!(kinds, ["settle", "observe", "act", "settle-since", "observe"]);
            }),
        row("a watched effect the intent contradicts fails, nothing undone", watching(with_shirt(), None, 2), watch(Some("the order is placed")), nothing())
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "")
            .then(move |r, w, run| {
                no_input(r, w, run);
                assert_eq!(r.value.as_deref(), Some("2 steps performed unverified"));
            }),
        row("without an intent a watch is AMBIGUOUS, rejected", watching(with_shirt(), None, 1), watch(None), nothing())
            .want(Some(A), false, Some(ErrorCode::VerificationFailed), "")
            .then(|r, _, _| assert_eq!(r.value.as_deref(), Some("1 step performed unverified"))),
        Row { policy: accept, ..row("without an intent, accepted by the policy", watching(with_shirt(), None, 0), watch(None), nothing()) }
            .want(Some(A), true, None, ""),
        Row { policy: arbiter, ..row("without an intent, the arbiter is asked about the watch", yes, watch(None), nothing()) }
            .want(Some(A), true, None, "")
            .then(|r, w, _| {
                let asked = w.needs.iter().find_map(|n| match n { Need::Ask { question, .. } => Some(question.clone()), _ => None }).expect("asked");
                assert_eq!((asked.action.as_str(), asked.target.as_deref()), ("watch", None));
                assert_eq!(r.arbiter.as_deref(), Some("arbiter says yes"));
            }),
        Row { policy: session_secret, ..row("the arbiter's question and the record are scrubbed of the session's secrets", yes_again, watch(None), nothing()) }
            .want(Some(A), true, None, "")
            .then(|r, w, _| {
                let asked = w.needs.iter().find_map(|n| match n { Need::Ask { question, .. } => Some(question.clone()), _ => None }).expect("asked");
                let sent = serde_json::to_string(&asked).unwrap();
                assert!(!sent.contains("Shirt M"), "{sent}");
                assert!(asked.observed.iter().any(|l| l.contains("[redacted]")), "{:?}", asked.observed);
                assert!(!serde_json::to_string(r).unwrap().contains("Shirt M"), "{:?}", r.lines);
            }),
        row("a watch that loaded a new document is judged on it", watching(thanks, Some("http://shop.test/thanks"), 1), watch(Some("the order is placed")), nothing())
            .want(Some(M), true, None, "")
            .then(no_input),
    ]);
}

fn click_at(page: &Snapshot, reference: &str) -> Step {
    let at = point_of(page, reference);
    Step::new(Action::ClickAt {
        at,
        button: Default::default(),
        expected: page
            .elements
            .iter()
            .find(|e| e.reference == reference)
            .cloned()
            .map(Box::new),
        shown: Some(format!("({}, {}) on obs-1", at.x, at.y)),
    })
}

#[test]
fn pointer_steps() {
    let s = shop();
    let focus: React = Box::new(|g, w| {
        if let Gesture::Click { at, .. } = g {
            let hit = at_point(&w.page, *at).map(|e| e.reference.clone());
            for e in &mut w.page.elements {
                e.focused = Some(&e.reference) == hit.as_ref() && e.role == Role::Textbox;
            }
        }
    });
    let nowhere = Step::new(Action::ClickAt {
        at: Point { x: 900.0, y: 900.0 },
        button: Default::default(),
        expected: None,
        shown: None,
    });
    let anything = || -> React {
        Box::new(|g, w| {
            if matches!(g, Gesture::Click { .. }) {
                w.page.texts.push(text("Welcome", "main"));
            }
        })
    };
    // The wrong product, and the list recycles its rows when the undo runs.
    let recycles: React = Box::new(|g, w| {
        if let Gesture::Click { at, .. } = g {
            let hit = name_at(&w.page, *at);
            if hit == "Add Shirt M" {
                add(&mut w.page, "c1", "Trousers L", true);
            } else if hit.starts_with("Remove ") {
                drop_refs(&mut w.page, &["c1", "rm-c1"]);
                w.page.elements[0].name = "Add Hat S".into();
            }
        }
    });
    let mut moved = World::new(s.clone());
    moved.page.elements.swap(0, 1);
    #[rustfmt::skip]
    run_rows(vec![
        row("a click on a point", World::new(s.clone()), click_at(&s, "b1"), cart_reaction("Add Shirt M", "Shirt M", true))
            .want(Some(M), true, None, "")
            .then(|r, _, run| {
                assert_eq!(r.action, "click_at");
                assert_eq!(r.value.as_deref(), Some("(5, 5) on obs-1"));
                assert!(run.seen().is_none(), "a pointer step is not a starting point for the background");
            }),
        row("a field that takes the focus", World::new(s.clone()), click_at(&s, "f1"), focus)
            .want(Some(M), true, None, "textbox[Coupon] in cart took the focus")
            .then(|_, w, run| {
                assert_eq!(run.focused().map(|e| e.reference.as_str()), Some("f1"));
                let after_focus = w.needs.iter().skip_while(|n| !matches!(n, Need::Read { read: Read::Focused })).nth(1);
                assert!(matches!(after_focus, Some(Need::Settle { since: None, .. })), "no wait for another effect: {after_focus:?}");
            }),
        row("a point no element covers, rejected: not undone", World::new(s.clone()), nowhere.clone(), anything())
            .want(Some(A), false, Some(ErrorCode::VerificationFailed), "no observable element under the point")
            .then(|_, w, _| assert_eq!(clicks(w), 1)),
        row("a point no element covers, accepted", World::new(s.clone()), nowhere, anything())
            .policy(|p| p.ambiguous = Ambiguous::Accept)
            .want(Some(A), true, None, "passed as the ambiguous policy"),
        row("the point shows something else now", moved, click_at(&s, "b1"), cart_reaction("Add Shirt M", "Shirt M", true))
            .want(None, false, Some(ErrorCode::TargetChanged), "now shows button[Add Trousers L]")
            .then(|_, w, _| assert!(w.inputs.is_empty())),
        row("a retry whose point changed reports the undone failure", World::new(s.clone()), click_at(&s, "b1"), recycles)
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "not retried: TARGET_CHANGED").tries(1, 1),
    ]);
}

fn key(chord: &str) -> Step {
    Step::new(Action::Key {
        chord: chord.into(),
    })
}

fn scroll_at(page: &Snapshot, reference: &str, dy: f64) -> Step {
    let at = point_of(page, reference);
    Step::new(Action::ScrollAt {
        at,
        dx: 0.0,
        dy,
        expected: page
            .elements
            .iter()
            .find(|e| e.reference == reference)
            .cloned()
            .map(Box::new),
        shown: Some(format!("({}, {}) on obs-1", at.x, at.y)),
    })
}

fn type_text(text: &str, sensitive: bool, field: Option<&Element>) -> Step {
    Step::new(Action::TypeText {
        text: text.into(),
        sensitive,
        field: field.cloned().map(Box::new),
    })
}

/// The shop with the Coupon field focused, holding `value`; `sensitive` as the engine says.
fn coupon_focused(value: &str, sensitive: bool) -> World {
    let mut w = World::new(shop());
    let f = &mut w.page.elements[4];
    f.focused = true;
    f.value = Some(value.into());
    f.sensitive = sensitive;
    w
}

fn nothing() -> React {
    Box::new(|_, _| {})
}

fn settles(w: &World) -> usize {
    w.needs
        .iter()
        .filter(|n| matches!(n, Need::Settle { .. }))
        .count()
}

#[test]
fn keys() {
    let s = shop();
    // Tab moves the focus to the Coupon field.
    let tab: React = Box::new(|g, w| {
        if matches!(g, Gesture::Press { reference: None, keys } if keys == &["Tab"]) {
            for e in &mut w.page.elements {
                e.focused = e.reference == "f1";
            }
        }
    });
    let mut broken = World::new(s.clone());
    broken.input_fails = Some(ErrorCode::InputStateUnknown);
    #[rustfmt::skip]
    run_rows(vec![
        row("a chord is sent on whatever has the focus, and the focus read after", World::new(s.clone()), key("Tab"), tab)
            .want(None, true, None, "sent; every key released in reverse order; the focus is on textbox[Coupon] in cart")
            .then(|r, w, run| {
                assert_eq!(r.action, "key");
                assert_eq!(r.value.as_deref(), Some("Tab"));
                assert_eq!(w.inputs, [Gesture::Press { reference: None, keys: vec!["Tab".into()] }]);
                assert_eq!(run.focused().map(|e| e.reference.as_str()), Some("f1"), "typing goes there next");
                assert!(matches!(w.needs[1], Need::Settle { since: None, .. }), "a plain settle: {:?}", w.needs);
                assert!(run.seen().is_none(), "a key acts on the page");
            }),
        row("no observable element has the focus", World::new(s.clone()), key("Control+S"), nothing())
            .want(None, true, None, "no observable element has the focus")
            .then(|r, _, run| {
                assert_eq!(r.value.as_deref(), Some("Control+S"));
                assert!(run.focused().is_none());
            }),
        row("the chord cannot be sent", broken, key("Control+S"), nothing())
            .want(None, false, Some(ErrorCode::InputStateUnknown), "could not be sent")
            .then(|_, w, _| assert_eq!(settles(w), 0, "nothing settled after a failed input")),
        // Every driver presses what the machine names: `enter` is the Enter key on all.
        row("a key written in any case or alias is sent by its name", World::new(s.clone()), key("shift+tab"), nothing())
            .want(None, true, None, "sent")
            .then(|r, w, _| {
                assert_eq!(w.inputs, [Gesture::Press { reference: None, keys: vec!["Shift".into(), "Tab".into()] }]);
                assert_eq!(r.value.as_deref(), Some("Shift+Tab"));
            }),
        // The machine sends a chord already split, modifiers first, a letter under Shift as
        // its capital: no driver reads a chord or decides a key.
        row("a chord is sent key by key, modifiers first", World::new(s.clone()), key("ctrl+shift+k"), nothing())
            .want(None, true, None, "sent")
            .then(|r, w, _| {
                assert_eq!(w.inputs, [Gesture::Press { reference: None, keys: vec!["Control".into(), "Shift".into(), "K".into()] }]);
                assert_eq!(r.value.as_deref(), Some("Control+Shift+k"));
            }),
        row("plus is a key of its own", World::new(s.clone()), key("Shift++"), nothing())
            .want(None, true, None, "sent")
            .then(|r, w, _| {
                assert_eq!(w.inputs, [Gesture::Press { reference: None, keys: vec!["Shift".into(), "+".into()] }]);
                assert_eq!(r.value.as_deref(), Some("Shift++"));
            }),
        row("an unknown key is refused before anything is sent", World::new(s.clone()), key("Hyper+a"), nothing())
            .want(None, false, Some(ErrorCode::InvalidAction), "unknown key \"Hyper\"").tries(0, 0)
            .then(|_, w, _| assert!(w.needs.is_empty() && w.inputs.is_empty(), "{:?}", w.needs)),
    ]);
}

/// What a coordinate step carries is checked by the machine before anything is sent, with
/// the words every surface gives (the CLI's request reader calls the same checks).
#[test]
fn a_text_or_a_drag_past_its_limits_is_refused_before_anything_is_sent() {
    let s = form_and_tasks();
    let drag = |steps: u32| {
        Step::new(Action::DragAt {
            from: Point { x: 5.0, y: 5.0 },
            to: Point { x: 25.0, y: 5.0 },
            steps,
            expected: None,
            expected_to: None,
            shown: None,
        })
    };
    const TEXT: &str = "\"text\" must hold 1 to 10000 characters";
    const STEPS: &str = "\"steps\" must be an integer from 1 to 200";
    let long = "é".repeat(10_001);
    let nothing_sent = |_: &Record, w: &World, _: &Run| {
        assert!(w.needs.is_empty() && w.inputs.is_empty(), "{:?}", w.needs)
    };
    #[rustfmt::skip]
    run_rows(vec![
        row("an empty text", World::new(s.clone()), type_text("", false, None), nothing())
            .want(None, false, Some(ErrorCode::InvalidAction), TEXT).tries(0, 0).then(nothing_sent),
        row("a text of 10,001 characters", World::new(s.clone()), type_text(&long, false, None), nothing())
            .want(None, false, Some(ErrorCode::InvalidAction), TEXT).tries(0, 0).then(nothing_sent),
        row("a drag of no moves", World::new(s.clone()), drag(0), nothing())
            .want(None, false, Some(ErrorCode::InvalidAction), STEPS).tries(0, 0).then(nothing_sent),
        row("a drag of 201 moves", World::new(s.clone()), drag(201), nothing())
            .want(None, false, Some(ErrorCode::InvalidAction), STEPS).tries(0, 0).then(nothing_sent),
    ]);
    // At the limits, the steps are sent.
    for step in [type_text(&"é".repeat(10_000), false, None), drag(200)] {
        let mut w = World::new(s.clone());
        let (r, _) = drive(&mut w, step, Policy::default(), None, nothing());
        assert_ne!(
            r.error.as_ref().map(|e| e.code),
            Some(ErrorCode::InvalidAction),
            "{}",
            r.reason
        );
        assert!(!w.needs.is_empty(), "{}", r.reason);
    }
}

#[test]
fn a_pressed_key_is_judged_and_sent_by_its_name() {
    let press = |key: &str| {
        Step::new(Action::Press {
            key: key.into(),
            target: Some(target("textbox", "Name")),
        })
    };
    // Tab moves the focus to the next field: the judge knows it only as `Tab`.
    let moves: fn(&Gesture, &mut World) = |g, w| {
        if matches!(g, Gesture::Press { keys, .. } if keys == &["Tab"]) {
            for e in &mut w.page.elements {
                e.focused = e.reference == "f-surname";
            }
        }
    };
    let tab = || -> React { Box::new(moves) };
    // The focus already on the next field: a Tab from the first one moves it back there.
    let on_surname = || {
        let mut page = form_and_tasks();
        for e in &mut page.elements {
            e.focused = e.reference == "f-surname";
        }
        World::new(page)
    };
    #[rustfmt::skip]
    run_rows(vec![
        row("tab is the Tab key", World::new(form_and_tasks()), press("tab"), tab())
            .want(Some(M), true, None, "focus moved to textbox[Surname]")
            .then(|r, w, _| {
                assert!(w.inputs.iter().any(|g| matches!(g, Gesture::Press { keys, .. } if keys == &["Tab"])), "{:?}", w.inputs);
                assert_eq!(r.value.as_deref(), Some("Tab"));
            }),
        row("a press on a field without the focus focuses it first, on its own: Tab moves the focus from there", on_surname(), press("Tab"), tab())
            .want(Some(M), true, None, "focus moved to textbox[Surname]")
            .then(|_, w, _| {
                assert_eq!(w.inputs, [
                    Gesture::Focus { reference: "f-name".into(), select: false },
                    Gesture::Press { reference: Some("f-name".into()), keys: vec!["Tab".into()] },
                ]);
                // The focus it took is the baseline: the press's effect is awaited from there.
                let focus = w.needs.iter().position(|n| matches!(n, Need::Input { gesture: Gesture::Focus { .. } })).unwrap();
                let press = w.needs.iter().position(|n| matches!(n, Need::Input { gesture: Gesture::Press { .. } })).unwrap();
                assert!(w.needs[focus..press].iter().any(|n| matches!(n, Need::Fingerprint { .. })), "{:?}", w.needs);
                assert!(w.needs[focus..press].iter().any(|n| matches!(n, Need::Observe { .. })), "{:?}", w.needs);
            }),
        row("an Enter that does nothing on a field without the focus is no effect, not the focus it was given", on_surname(), press("Enter"), nothing())
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "no effect"),
        row("a press on the field with the focus sends no focus of its own", World::new(form_and_tasks()), press("Tab"), tab())
            .want(Some(M), true, None, "focus moved to textbox[Surname]")
            .then(|_, w, _| assert!(!w.inputs.iter().any(|g| matches!(g, Gesture::Focus { .. })), "{:?}", w.inputs)),
        row("an unknown key is refused before the page is touched", World::new(form_and_tasks()), press("Tabulator"), nothing())
            .want(None, false, Some(ErrorCode::InvalidAction), "unknown key \"Tabulator\"").tries(0, 0)
            .then(|_, w, _| assert!(w.needs.is_empty() && w.inputs.is_empty(), "{:?}", w.needs)),
    ]);
}

#[test]
fn scrolls() {
    let s = shop();
    let mut moving = World::new(s.clone());
    moving.wheel = VecDeque::from([at_scroll(150.0), at_scroll(300.0)]);
    let mut endless = World::new(s.clone());
    endless.wheel = (1..40).map(|i| at_scroll(f64::from(i) * 10.0)).collect();
    let mut page_too = World::new(s.clone());
    page_too.wheel = VecDeque::from([ScrollPosition {
        page_top: 80.0,
        ..at_scroll(0.0)
    }]);
    let mut moved = World::new(s.clone());
    moved.page.elements.swap(0, 1);
    let mut replaced = World::new(s.clone());
    replaced.wheel = VecDeque::from([at_scroll(300.0)]);
    replaced.fingerprint_fails = VecDeque::from([Some(ErrorCode::NotReady)]);
    let mut replacing = World::new(s.clone());
    replacing.fingerprint_fails = std::iter::repeat_n(Some(ErrorCode::NotReady), 10).collect();
    #[rustfmt::skip]
    run_rows(vec![
        row("a document replaced right before the wheel gets none: settled, the point checked again, then scrolled", replaced, scroll_at(&s, "b1", 300.0), nothing())
            .want(None, true, None, "scrolled from (0, 0) to (0, 300)")
            .then(|_, w, _| {
                let locates = w.needs.iter().filter(|n| matches!(n, Need::Read { read: Read::Under { .. } })).count();
                assert_eq!(locates, 2, "the point is checked again on the page that came: {:?}", w.needs);
                assert!(matches!(&w.inputs[..], [Gesture::Wheel { .. }]), "one wheel, into the page that came: {:?}", w.inputs);
            }),
        row("a document replaced before every wheel: nothing is scrolled, STALE_OBSERVATION", replacing, scroll_at(&s, "b1", 300.0), nothing())
            .want(None, false, Some(ErrorCode::StaleObservation), "the document kept being replaced before input; nothing was dispatched")
            .then(|_, w, run| {
                assert!(w.inputs.is_empty(), "{:?}", w.inputs);
                assert!(run.scrolled().is_none());
            }),
        row("a scroll that moves waits until two reads agree", moving, scroll_at(&s, "b1", 300.0), nothing())
            .want(None, true, None, "div#products in list[Products] scrolled from (0, 0) to (0, 300)")
            .then(|r, w, run| {
                assert_eq!(r.action, "scroll_at");
                assert_eq!(r.target.as_deref(), Some("div#products in list[Products]"));
                assert_eq!(r.value.as_deref(), Some("(5, 5) on obs-1"));
                assert!(r.stable && r.verdict.is_none(), "{r:?}");
                let done = run.scrolled().expect("what the scroll did");
                assert!(done.moved && done.after.top == 300.0 && done.before.top == 0.0, "{done:?}");
                assert_eq!(done.after.container, None);
                assert_eq!(settles(w), 3, "150, 300, then 300 again: {:?}", w.needs);
                let wheel = w.needs.iter().position(|n| matches!(n, Need::Input { gesture: Gesture::Wheel { .. } })).expect("a wheel");
                let after = w.needs[wheel..].iter().find(|n| matches!(n, Need::Settle { .. }));
                assert!(
                    matches!(after, Some(Need::Settle { since: Some(_), timeout_ms: 250, .. })),
                    "the first wait after the wheel is a quiet window from the fingerprint before: {after:?}"
                );
                assert!(matches!(&w.inputs[..], [Gesture::Wheel { dy, .. }] if *dy == 300.0));
            }),
        row("a scroll that does not move says so, and is no failure", World::new(s.clone()), scroll_at(&s, "b1", 300.0), nothing())
            .want(None, true, None, "did not move: it stays at (0, 0)")
            .then(|r, w, run| {
                assert!(!run.scrolled().expect("what the scroll did").moved);
                assert_eq!(settles(w), 1, "one quiet window: {:?}", w.needs);
                assert!(r.stable);
            }),
        row("the page moves when the container is at its end", page_too, scroll_at(&s, "b1", 300.0), nothing())
            .want(None, true, None, "did not move: it stays at (0, 0) (the end of its content, or nothing there scrolls); the page scrolled from (0, 0) to (0, 80)"),
        row("a container still moving at the deadline", endless, scroll_at(&s, "b1", 300.0), nothing())
            .policy(|p| p.timing.timeout_ms = 1_000)
            .want(None, true, None, "it was still moving at the deadline")
            .then(|r, _, _| assert!(!r.stable, "{r:?}")),
        row("the point shows something else now: nothing is scrolled", moved, scroll_at(&s, "b1", 300.0), nothing())
            .want(None, false, Some(ErrorCode::TargetChanged), "now shows button[Add Trousers L] in catalogue/list:products, not button[Add Shirt M] in catalogue/list:products as in the observation; nothing was scrolled")
            .then(|_, w, run| {
                assert!(w.inputs.is_empty());
                assert!(run.scrolled().is_none());
            }),
    ]);
}

#[test]
fn typing() {
    let s = shop();
    let coupon = s.elements[4].clone();
    let mut email = coupon_focused("", false);
    email.page.elements.push(Element {
        value: Some(String::new()),
        ..el("f2", Role::Textbox, "Email", "dialog[Newsletter]")
    });
    for e in &mut email.page.elements {
        e.focused = e.reference == "f2";
    }
    // The same identity on another node: a twin is another field.
    let mut twin = coupon_focused("", false);
    twin.page.elements[4].focused = false;
    twin.page.elements.push(Element {
        reference: "f9".into(),
        focused: true,
        ..coupon.clone()
    });
    let mut on_button = World::new(s.clone());
    on_button.page.elements[0].focused = true;
    let mut moves = coupon_focused("", false);
    moves.focus_moves = true;
    let mut selected = coupon_focused("OLD10", false);
    selected.selected = Some((0, 3));
    // A field that keeps at most five characters.
    let short: React = Box::new(|g, w| {
        if matches!(g, Gesture::Insert { .. }) {
            if let Some(f) = w.focused_mut() {
                f.value = f.value.take().map(|v| v.chars().take(5).collect());
            }
        }
    });
    // A dialog takes the focus, and the text does not stay.
    let stolen: React = Box::new(|g, w| {
        if matches!(g, Gesture::Insert { .. }) {
            for e in &mut w.page.elements {
                if e.reference == "f1" {
                    e.value = Some(String::new());
                }
                e.focused = e.reference == "b1";
            }
        }
    });
    let doubled: React = Box::new(|g, w| {
        if let Gesture::Insert { text } = g {
            if let Some(f) = w.focused_mut() {
                f.value = Some(format!("{text}{text}"));
            }
        }
    });
    let removed: React = Box::new(|g, w| {
        if matches!(g, Gesture::Insert { .. }) {
            drop_refs(&mut w.page, &["f1"]);
        }
    });
    let secret = "hunter22-Lanterns";
    let hides = move |r: &Record, _: &World, _: &Run| {
        let printed = serde_json::to_string(r).unwrap();
        assert!(!printed.contains(secret), "{printed}");
        assert_eq!(r.value.as_deref(), Some("[redacted]"));
    };
    #[rustfmt::skip]
    run_rows(vec![
        row("text typed into the field meant, read back", coupon_focused("", false), type_text("SAVE10", false, Some(&coupon)), nothing())
            .want(Some(M), true, None, "textbox[Coupon] in cart shows the typed text")
            .then(|r, w, run| {
                assert_eq!((r.action.as_str(), r.target.as_deref(), r.value.as_deref()), ("type", Some("textbox[Coupon] in cart"), Some("SAVE10")));
                assert_eq!(w.inputs, [Gesture::Insert { text: "SAVE10".into() }]);
                assert_eq!(run.focused().map(|e| e.reference.as_str()), Some("f1"), "typing goes on there");
                assert!(run.seen().is_none());
            }),
        row("with no field meant, whatever field has the focus", coupon_focused("", false), type_text("SAVE10", false, None), nothing())
            .want(Some(M), true, None, "shows the typed text"),
        row("the text takes the place of the selection", selected, type_text("NEW", false, Some(&coupon)), nothing())
            .want(Some(M), true, None, "shows the typed text")
            .then(|_, w, _| assert_eq!(w.page.elements[4].value.as_deref(), Some("NEW10"))),
        row("the focus is on another field: nothing is typed", email, type_text("SAVE10", false, Some(&coupon)), nothing())
            .want(None, false, Some(ErrorCode::FocusLost), "focus is on textbox[Email] in dialog[Newsletter], not on textbox[Coupon] in cart (the field focused last); nothing was typed: click the field again")
            .then(|_, w, _| assert!(w.inputs.is_empty())),
        row("a twin of the field meant is another field", twin, type_text("SAVE10", false, Some(&coupon)), nothing())
            .want(None, false, Some(ErrorCode::FocusLost), "not on textbox[Coupon] in cart (the field focused last)")
            .then(|_, w, _| assert!(w.inputs.is_empty())),
        row("the focus is on something that takes no text", on_button, type_text("SAVE10", false, None), nothing())
            .want(None, false, Some(ErrorCode::FocusLost), "which takes no text; nothing was typed: click the field first")
            .then(|_, w, _| assert!(w.inputs.is_empty())),
        row("the focus moves away right before the text goes in", moves, type_text("SAVE10", false, Some(&coupon)), nothing())
            .want(None, false, Some(ErrorCode::FocusLost), "focus is on button[Add Shirt M] in catalogue/list:products, not on textbox[Coupon] in cart")
            .then(|_, w, _| assert!(w.inputs.is_empty())),
        row("the field keeps less than was typed", coupon_focused("", false), type_text("SAVE10", false, Some(&coupon)), short)
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "textbox[Coupon] in cart shows 'SAVE1', expected 'SAVE10'")
            .then(|r, _, _| assert!(!r.reason.contains("focus left"), "{}", r.reason)),
        row("the focus left the field and the text did not stay", coupon_focused("", false), type_text("SAVE10", false, Some(&coupon)), stolen)
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "shows '', expected 'SAVE10'; focus left the field"),
        row("a secret is compared by keyed hash and never shown", coupon_focused("", false), type_text(secret, true, Some(&coupon)), nothing())
            .want(Some(M), true, None, "textbox[Coupon] in cart holds the typed text (compared by keyed hash)")
            .then(move |r, w, run| {
                hides(r, w, run);
                assert!(w.needs.iter().any(|n| matches!(n, Need::Observe { sensitive } if sensitive.contains(&"f1".to_owned()))), "{:?}", w.needs);
                assert!(w.needs.iter().any(|n| matches!(n, Need::Read { read: Read::Hash { .. } })));
                assert!(!w.needs.iter().any(|n| matches!(n, Need::Read { read: Read::Value { .. } })), "its value never comes back");
                assert_eq!(run.sensitive(), ["f1"], "the field is sensitive from now on");
            }),
        row("a secret the field does not hold, still never shown", coupon_focused("", false), type_text(secret, true, Some(&coupon)), doubled)
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "textbox[Coupon] in cart does not hold the typed text (compared by keyed hash)")
            .then(hides),
        row("text typed into a sensitive field is a secret too", coupon_focused("", true), type_text(secret, false, None), nothing())
            .want(Some(M), true, None, "holds the typed text (compared by keyed hash)")
            .then(hides),
        row("the field leaves the page while typing", coupon_focused("", true), type_text(secret, true, None), removed)
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "textbox[Coupon] in cart left the page while typing")
            .then(hides),
    ]);
}

#[test]
fn answers_out_of_step_stop_the_run() {
    let mut run = Run::new(click("Add Shirt M"), Policy::default());
    assert_eq!(
        run.next(Answer::Start),
        Need::Fingerprint {
            background: Background::default()
        }
    );
    let Need::Done { record } = run.next(Answer::Sent) else {
        panic!("done")
    };
    assert_eq!(
        record.error.map(|e| e.code),
        Some(ErrorCode::InvalidArgument)
    );
    assert!(run.is_done());
    assert!(
        matches!(run.next(Answer::Start), Need::Done { .. }),
        "done stays done"
    );
}

#[test]
fn wire_shapes() {
    let step: Step = serde_json::from_value(serde_json::json!({
        "action": { "kind": "click", "target": { "role": "button", "name": "Add Shirt M" } },
        "intent": "the cart gains a shirt"
    }))
    .unwrap();
    assert_eq!(step.action.name(), "click");
    assert!(serde_json::from_value::<Step>(serde_json::json!({ "action": { "kind": "click", "target": { "name": "x" }, "force": true } })).is_err());
    // A watch of whatever acts next is `{"kind":"watch"}` both ways; one of the driver's
    // own steps carries them.
    let watch: Step =
        serde_json::from_value(serde_json::json!({ "action": { "kind": "watch" } })).unwrap();
    assert_eq!(watch.action, Action::watch());
    assert_eq!(
        serde_json::to_value(&watch.action).unwrap(),
        serde_json::json!({ "kind": "watch" })
    );
    let own = Action::Watch {
        steps: vec![step.clone()],
    };
    let back: Action = serde_json::from_value(serde_json::to_value(&own).unwrap()).unwrap();
    assert_eq!(back, own);
    for b in [Button::Left, Button::Middle, Button::Right] {
        assert_eq!(serde_json::to_value(b).unwrap(), b.as_cdp());
    }
    let need = serde_json::to_value(Need::Describe {
        reference: "e1".into(),
    })
    .unwrap();
    assert_eq!(need, serde_json::json!({ "need": "describe", "ref": "e1" }));
    let answer: Answer = serde_json::from_value(serde_json::json!({ "answer": "refused", "refusal": { "kind": "covered", "by": "div.veil", "point": { "x": 1.0, "y": 2.0 } } })).unwrap();
    assert!(matches!(
        answer,
        Answer::Refused {
            refusal: Refusal::Covered { .. }
        }
    ));
    let answer: Answer = serde_json::from_value(serde_json::json!({ "answer": "settled", "fingerprint": "f", "stable": true, "changed": false, "waitedMs": 250 })).unwrap();
    assert!(matches!(answer, Answer::Settled { waited_ms: 250, .. }));
    let policy: Policy =
        serde_json::from_value(serde_json::json!({ "ambiguous": "arbiter", "maxAttempts": 3 }))
            .unwrap();
    assert_eq!(
        (policy.ambiguous, policy.max_attempts),
        (Ambiguous::Arbiter, 3)
    );
    let gesture = serde_json::to_value(Gesture::Click {
        at: Point { x: 1.0, y: 2.0 },
        button: Default::default(),
    })
    .unwrap();
    assert_eq!(
        gesture,
        serde_json::json!({ "kind": "click", "at": { "x": 1.0, "y": 2.0 }, "button": "left" })
    );
}

/// A claim of a step's `expect`, from its JSON.
fn claim(v: serde_json::Value) -> prufe::core::expect::Claim {
    serde_json::from_value(v).expect("a claim")
}

fn expecting(step: Step, claims: &[serde_json::Value]) -> Step {
    step.with_expect(claims.iter().cloned().map(claim).collect())
}

fn statuses(r: &Record) -> Vec<Status> {
    r.expect.iter().map(|o| o.status).collect()
}

use prufe::core::expect::Status;

#[test]
fn typed_expectations() {
    use serde_json::json;
    let add_shirt = || {
        let mut step = click("Add Shirt M");
        if let Action::Click { target } = &mut step.action {
            target.region = Some(PRODUCTS.into());
        }
        step
    };
    let shirt_in_cart = json!({ "kind": "appears", "target": { "role": "listitem", "name": "Shirt M", "region": CART } });
    let trousers_in_cart = json!({ "kind": "appears", "target": { "role": "listitem", "name": "Trousers L", "region": CART } });
    let coupon_stays =
        json!({ "kind": "stays", "target": { "role": "textbox", "name": "Coupon" } });
    let one_line = json!({ "kind": "count", "target": { "role": "listitem", "name": "Shirt M", "region": CART }, "n": 1 });
    let gift_card = json!({ "kind": "appears", "target": { "role": "listitem", "name": "Gift card", "region": "promo" } });
    let honest = || cart_reaction("Add Shirt M", "Shirt M", true);
    // The shirt goes in, and a coupon code is written into the field.
    let clears_coupon: React = Box::new(|g, w| {
        if let Gesture::Click { at, .. } = g {
            let hit = name_at(&w.page, *at);
            if hit == "Add Shirt M" {
                add(&mut w.page, "c1", "Shirt M", true);
                w.page
                    .elements
                    .iter_mut()
                    .filter(|e| e.name == "Coupon")
                    .for_each(|e| e.value = Some("SAVE10".into()));
            } else if hit.starts_with("Remove ") {
                drop_refs(&mut w.page, &["c1", "rm-c1"]);
            }
        }
    });
    let stranger: React = {
        let mut n = 0;
        Box::new(move |g, w| {
            if let Gesture::Click { at, .. } = g {
                let hit = name_at(&w.page, *at);
                if hit == "Add Shirt M" {
                    n += 1;
                    w.page
                        .elements
                        .push(item(&format!("g{n}"), "Gift card", "promo"));
                }
            }
        })
    };
    let wrong_then_right = wrong_then_right();
    let still_spinning: React = Box::new(|g, w| {
        if matches!(g, Gesture::Click { .. }) {
            add(&mut w.page, "c1", "Shirt M", false);
            w.page
                .elements
                .push(el("sp", Role::Progressbar, "Loading", CART));
        }
    });
    let mut busy_world = World::new(shop());
    busy_world.waited_ms = 400;
    let to_product = || -> React {
        Box::new(|g, w| {
            if matches!(g, Gesture::Click { .. }) {
                w.navigate("http://shop.test/shirt.html", product_page());
            }
        })
    };
    let linked = || World {
        destination: Some(Destination {
            kind: "link".into(),
            url: "http://shop.test/shirt.html".into(),
            method: String::new(),
        }),
        ..World::new(shop())
    };
    let link = || {
        Step::new(Action::Click {
            target: target("link", "Shirt M details"),
        })
    };
    let hijack: React = Box::new(|g, w| {
        if matches!(g, Gesture::Click { .. }) {
            w.navigate("http://shop.test/checkout?from=promo", product_page());
        }
    });
    let goto: React = Box::new(|g, w| {
        if let Gesture::Navigate { url } = g {
            w.navigate(url, product_page());
        }
    });
    let nothing = || -> React { Box::new(|_, _| {}) };
    #[rustfmt::skip]
    run_rows(vec![
        row("every claim held on a MATCH", World::new(shop()), expecting(add_shirt(), &[shirt_in_cart.clone(), coupon_stays.clone(), one_line.clone()]), honest())
            .want(Some(M), true, None, "expected: appears listitem[Shirt M] in cart/list:items — held: appeared listitem[Shirt M] in cart/list:items")
            .then(|r, _, _| {
                assert_eq!(statuses(r), [Status::Held; 3]);
                assert!(r.reason.contains("stays textbox[Coupon] — held: textbox[Coupon] in cart is unchanged"), "{}", r.reason);
                assert!(r.explain().contains("Expected:  appears listitem[Shirt M] in cart/list:items — held"), "{}", r.explain());
            }),
        row("a claim the page did not keep: MISMATCH, undone, retried", World::new(shop()), expecting(add_shirt(), std::slice::from_ref(&trousers_in_cart)), honest())
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "expected: appears listitem[Trousers L] in cart/list:items — no evidence: nothing matching appeared")
            .tries(2, 2)
            .then(|r, w, _| {
                assert_eq!(statuses(r), [Status::Absent]);
                assert!(!w.page.elements.iter().any(|e| e.label() == "Shirt M"), "the unexpected line is taken out again");
            }),
        row("a stays claim broken by a side effect the judge let pass", World::new(shop()), expecting(add_shirt(), &[shirt_in_cart.clone(), coupon_stays.clone()]), clears_coupon)
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "expected: stays textbox[Coupon] — broken: changed textbox[Coupon] in cart: value '' -> 'SAVE10'")
            .tries(2, 2)
            .then(|r, _, _| assert_eq!(statuses(r), [Status::Held, Status::Broken])),
        row("AMBIGUOUS to the judge, every claim held: MATCH", World::new(shop()), expecting(add_shirt(), std::slice::from_ref(&gift_card)), stranger)
            .want(Some(M), true, None, "every expected claim held: expected: appears listitem[Gift card] in promo — held")
            .then(|r, _, _| assert!(r.reason.contains("(the judge: AMBIGUOUS"), "{}", r.reason)),
        row("a judge MISMATCH with the claim held is undone; the retry holds it", World::new(shop()), expecting(add_shirt(), std::slice::from_ref(&shirt_in_cart)), wrong_then_right)
            .want(Some(M), true, None, "held: appeared listitem[Shirt M]")
            .tries(2, 1),
        row("an unshown claim on a page still working: AMBIGUOUS", busy_world, expecting(add_shirt(), std::slice::from_ref(&trousers_in_cart)), still_spinning)
            .policy(|p| { p.ambiguous = Ambiguous::Accept; p.timing = Timing { timeout_ms: 1_000, ..Timing::default() }; })
            .want(Some(A), true, None, "the page was still changing, so what was expected may be yet to come"),
        row("a navigation claim held", linked(), expecting(link(), &[json!({ "kind": "navigates", "url": "*/shirt.html" })]), to_product())
            .want(Some(M), true, None, "expected: navigates to '*/shirt.html' — held: a new document loaded at http://shop.test/shirt.html")
            .then(|r, w, _| {
                assert!(!w.inputs.contains(&Gesture::GoBack));
                assert_eq!(r.lines, ["navigated to http://shop.test/shirt.html"]);
            }),
        row("a navigation to another address: MISMATCH, back, retried", linked(), expecting(link(), &[json!({ "kind": "navigates", "url": "/checkout" })]), to_product())
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "broken: a new document loaded at http://shop.test/shirt.html, which does not match")
            .tries(2, 2)
            .then(|_, w, _| assert_eq!(w.page.context.epoch, 1, "back on the page it started on")),
        row("a navigation no rule explains, claimed: MATCH", World::new(shop()), expecting(add_shirt(), &[json!({ "kind": "navigates", "url": "http://shop.test/checkout*" })]), hijack)
            .want(Some(M), true, None, "every expected claim held")
            .then(|_, w, _| assert!(!w.inputs.contains(&Gesture::GoBack))),
        row("a goto's address claimed", World::new(shop()), expecting(Step::new(Action::Goto { url: "http://shop.test/shirt.html".into() }), &[json!({ "kind": "navigates", "url": "shirt.html" }), json!({ "kind": "appears", "target": { "role": "heading", "name": "Shirt M" } })]), goto)
            .want(Some(M), true, None, "held: a new document loaded at http://shop.test/shirt.html")
            .then(|r, _, _| assert_eq!(statuses(r), [Status::Held, Status::Held])),
        row("a bad claim: INVALID_EXPECT, nothing sent", World::new(shop()), expecting(add_shirt(), &[json!({ "kind": "text", "text": "  " })]), nothing())
            .want(None, false, Some(ErrorCode::InvalidExpect), "expect[0] (text): text is blank")
            .tries(0, 0)
            .then(|_, w, _| assert!(w.inputs.is_empty() && w.needs.is_empty(), "nothing asked of the page")),
    ]);
}

/// To-do rows: an unnamed checkbox and a Delete button that shows only while its row is
/// hovered, in every row.
fn todos() -> Snapshot {
    let mut page = shop();
    page.elements.clear();
    for (i, title) in ["Walk dog", "Pay rent"].iter().enumerate() {
        let place = format!("listitem[{title}]");
        page.elements.push(item(&format!("li{i}"), title, "main"));
        page.elements.push(Element {
            checked: Some(prufe::core::Tristate::False),
            within: Some(place.clone()),
            ..el(&format!("cb{i}"), Role::Checkbox, "", "main")
        });
        page.elements.push(Element {
            visible: false,
            within: Some(place),
            ..el(&format!("del{i}"), Role::Button, "Delete todo", "main")
        });
    }
    page
}

/// What hovering does on the to-do rows: the row under the pointer shows its Delete button
/// (and reads "<title> Delete todo"), the others hide theirs.
fn hover_reveals(w: &mut World, at: Point) {
    let row = at_point(&w.page, at).map(|e| match e.within {
        Some(place) => place,
        None => format!("listitem[{}]", e.label()),
    });
    for e in &mut w.page.elements {
        if e.role == Role::Button {
            e.visible = e.within == row;
        }
    }
}

fn in_row(role: &str, name: &str, row: &str) -> Target {
    Target {
        within: Some(prufe::core::resolve::Container {
            role: "listitem".into(),
            name: row.into(),
        }),
        ..Target::new(role, name)
    }
}

#[test]
fn rows_of_unnamed_controls() {
    // Clicks that do nothing, but moving onto the row shows its Delete button.
    let swallowed: React = Box::new(|g, w| {
        if let Gesture::MoveTo { at } = g {
            hover_reveals(w, *at);
        }
    });
    let honest_toggle = || -> React {
        Box::new(|g, w| match g {
            Gesture::MoveTo { at } => hover_reveals(w, *at),
            Gesture::Click { at, .. } => {
                if let Some(hit) = at_point(&w.page, *at) {
                    for e in &mut w.page.elements {
                        if e.reference == hit.reference {
                            e.checked = Some(prufe::core::Tristate::True);
                        }
                    }
                }
            }
            _ => {}
        })
    };
    let honest_delete: React = Box::new(|g, w| match g {
        Gesture::MoveTo { at } => hover_reveals(w, *at),
        Gesture::Click { at, .. } => {
            if let Some(place) = at_point(&w.page, *at).and_then(|e| e.within) {
                let title = place.trim_start_matches("listitem[").trim_end_matches(']');
                let title = title.to_owned();
                w.page
                    .elements
                    .retain(|e| e.within.as_deref() != Some(place.as_str()) && e.label() != title);
            }
        }
        _ => {}
    });
    let toggle = Step::new(Action::Click {
        target: in_row("checkbox", "", "Walk dog"),
    });
    let delete = Step::new(Action::Click {
        target: in_row("button", "Delete todo", "Pay rent"),
    });
    #[rustfmt::skip]
    run_rows(vec![
        // The hover reveal happened before the input: it is the baseline, not the effect.
        row("a swallowed click after a hover reveal", World::new(todos()), toggle.clone(), swallowed)
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "no effect")
            .then(|_, w, _| assert_eq!(clicks(w), 1)),
        row("an honest toggle in a row", World::new(todos()), toggle.clone(), honest_toggle())
            .want(Some(M), true, None, "checkbox in listitem[Walk dog]"),
        // The document is replaced while it is observed again after the pointer's arrival:
        // settled and observed again, then the click, never an answer out of step.
        row("a document replaced while observed after the pointer's arrival", World { observe_unavailable: VecDeque::from([false, true]), ..World::new(todos()) }, toggle, honest_toggle())
            .want(Some(M), true, None, "checkbox in listitem[Walk dog]")
            .then(|_, w, _| {
                assert_eq!(clicks(w), 1);
                let observed = w.needs.iter().filter(|n| matches!(n, Need::Observe { .. })).count();
                assert!(observed >= 4, "before, after the arrival (replaced), before again, after: {:?}", w.needs);
            }),
        // Hidden until its row is hovered: the pointer goes onto the row first.
        row("a Delete shown on hover", World::new(todos()), delete.clone(), honest_delete)
            .want(Some(M), true, None, "listitem[Pay rent]")
            .then(|_, w, _| {
                let moves = w.inputs.iter().filter(|g| matches!(g, Gesture::MoveTo { .. })).count();
                assert!(moves >= 2, "onto the row, then onto the button: {:?}", w.inputs);
                assert!(w.page.elements.iter().all(|e| e.label() != "Pay rent"));
            }),
        row("a Delete nothing shows", World::new(todos()), delete, Box::new(|_, _| {}))
            .want(None, false, Some(ErrorCode::TargetNotVisible), "Delete todo"),
    ]);
}

/// A data grid's column headers: each shows its sort and menu buttons only while the pointer
/// is over it, and reads their names into its own then (MUI X, as Chromium names it).
fn grid_headers() -> Snapshot {
    let mut page = shop();
    page.elements.clear();
    page.texts.clear();
    let region = "main/list:Customers";
    for column in ["Name", "Orders"] {
        page.elements.push(el(
            &format!("h-{column}"),
            Role::Columnheader,
            column,
            region,
        ));
        for (id, name) in [
            ("s", format!("Sort {column} in ascending order")),
            ("m", format!("{column} column menu")),
        ] {
            page.elements.push(Element {
                visible: false,
                ..el(&format!("{id}-{column}"), Role::Button, &name, region)
            });
        }
    }
    page
}

/// Hovering a header shows its buttons and lengthens its name; `words` is what the page
/// puts in it (a recycled header puts others).
fn hover_header(w: &mut World, at: Point, words: &str) {
    let Some(hit) = at_point(&w.page, at) else {
        return;
    };
    let column = hit.name.split(' ').next().unwrap_or_default().to_owned();
    for e in &mut w.page.elements {
        if e.reference == format!("h-{column}") {
            e.name = format!("{column} {words}");
        } else if e.role == Role::Button && e.reference.ends_with(&format!("-{column}")) {
            e.visible = true;
        }
    }
}

#[test]
fn a_header_whose_name_grows_by_the_buttons_it_shows_on_hover_is_still_the_target() {
    let sorting = |words: &'static str| -> React {
        Box::new(move |g, w| match g {
            Gesture::MoveTo { at } => hover_header(w, *at, words),
            Gesture::Click { .. } => w
                .page
                .texts
                .push(text("Customers sorted by orders", "main")),
            _ => {}
        })
    };
    let sort = Step::new(Action::Click {
        target: Target::new("columnheader", "Orders"),
    })
    .with_intent("the customers are sorted by orders");
    #[rustfmt::skip]
    run_rows(vec![
        row("a header reads its revealed buttons once hovered", World::new(grid_headers()), sort.clone(), sorting("Sort Orders column menu"))
            .want(Some(M), true, None, "")
            .then(|r, w, _| {
                assert_eq!(clicks(w), 1);
                // Named as it was resolved, before the pointer came.
                assert_eq!(r.target.as_deref(), Some("columnheader[Orders] in main/list:Customers"));
            }),
        // Words no hidden control of the grid carries: the header changed under the pointer.
        row("a header that reads other words once hovered", World::new(grid_headers()), sort, sorting("Refunds"))
            .want(None, false, Some(ErrorCode::TargetNotFound), "columnheader[Orders]")
            .then(|_, w, _| assert_eq!(clicks(w), 0)),
    ]);
}

const BOARD: &str = "region[Board]";

/// A board of three lists without names, told apart by the ids that give their items a
/// region each, and one task to do.
fn board() -> Snapshot {
    let mut page = shop();
    page.elements.clear();
    for id in ["todo", "done", "archive"] {
        let region = format!("{BOARD}/list:{id}");
        page.elements
            .push(el(&format!("ul-{id}"), Role::List, "", &region));
        if id == "todo" {
            page.elements
                .push(item("task", "Water the plants", &region));
        }
    }
    page
}

/// A drop that puts the task in the list `into`, whatever list the pointer let go over.
fn drop_into(into: &'static str) -> React {
    Box::new(move |g, w| {
        if let Gesture::Up { .. } = g {
            let task = w
                .page
                .elements
                .iter()
                .position(|e| e.reference == "task")
                .unwrap();
            let mut moved = w.page.elements.remove(task);
            moved.region = format!("{BOARD}/list:{into}");
            let list = w
                .page
                .elements
                .iter()
                .position(|e| e.reference == format!("ul-{into}"))
                .unwrap();
            w.page.elements.insert(list + 1, moved);
        }
    })
}

#[test]
fn a_list_without_a_name_is_a_destination_by_its_place() {
    let list = |id: &str| Target {
        region: Some(format!("{BOARD}/list:{id}")),
        nth: Some(1),
        ..target("list", "")
    };
    let drag = |to: Target| {
        Step::new(Action::Drag {
            target: Target {
                region: Some(format!("{BOARD}/list:todo")),
                ..target("listitem", "Water the plants")
            },
            to,
        })
    };
    #[rustfmt::skip]
    run_rows(vec![
        row("the task dropped into the list it was dragged to", World::new(board()), drag(list("done")), drop_into("done"))
            .want(Some(M), true, None, "")
            .then(|r, _, _| {
                assert_eq!(r.value.as_deref(), Some("to list 1 in region[Board]/list:done"), "{r:?}");
            }),
        row("the task taken by another list", World::new(board()), drag(list("done")), drop_into("archive"))
            .want(Some(X), false, Some(ErrorCode::IrreversibleAction), "went to region[Board]/list:archive, not into the destination list 1 in region[Board]/list:done"),
        row("a place no longer there", World::new(board()), drag(Target { nth: Some(2), ..list("done") }), drop_into("done"))
            .want(None, false, Some(ErrorCode::TargetNotFound), "only 1 visible element")
            .then(|_, w, _| assert!(!w.inputs.iter().any(|g| matches!(g, Gesture::Down { .. })), "no drag was sent: {:?}", w.inputs)),
    ]);
}

/// A form of two fields, the first focused, and a list of three tasks.
fn form_and_tasks() -> Snapshot {
    let mut page = shop();
    page.elements.clear();
    page.elements.push(Element {
        value: Some(String::new()),
        focused: true,
        ..el("f-name", Role::Textbox, "Name", "main")
    });
    page.elements.push(Element {
        value: Some(String::new()),
        ..el("f-surname", Role::Textbox, "Surname", "main")
    });
    page.elements.push(el("ul", Role::List, "Tasks", "main"));
    for t in ["A", "B", "C"] {
        page.elements.push(item(
            &format!("t-{t}"),
            &format!("Task {t}"),
            "main/list:tasks",
        ));
    }
    page
}

/// What was asked after the step's input: the settles' timeouts, and observations as 0.
fn after_input(w: &World) -> Vec<u64> {
    let input = w
        .needs
        .iter()
        .position(|n| matches!(n, Need::Input { .. }))
        .unwrap();
    w.needs[input + 1..]
        .iter()
        .filter_map(|n| match n {
            Need::Settle { timeout_ms, .. } => Some(*timeout_ms),
            Need::Observe { .. } => Some(0),
            _ => None,
        })
        .collect()
}

/// Did a settle after the input count the fingerprint's claims?
fn claims_counted(w: &World) -> bool {
    w.needs
        .iter()
        .any(|n| matches!(n, Need::Settle { claims: true, .. }))
}

#[test]
fn what_the_diff_does_not_see_moves_the_fingerprint_claims() {
    let press = |key: &str| {
        Step::new(Action::Press {
            key: key.into(),
            target: Some(target("textbox", "Name")),
        })
    };
    let drag = Step::new(Action::Drag {
        target: target("listitem", "Task C"),
        to: target("listitem", "Task A"),
    });
    let focus_on = |page: &mut Snapshot, reference: &str| {
        for e in &mut page.elements {
            e.focused = e.reference == reference;
        }
    };
    let tab: React = Box::new(move |g, w| {
        if matches!(g, Gesture::Press { keys, .. } if keys == &["Tab"]) {
            focus_on(&mut w.page, "f-surname");
        }
    });
    let reorder = task_c_dropped_before_task_a;
    let nothing = || -> React { Box::new(|_, _| {}) };
    let quick = |p: &mut Policy| p.timing.quick_ms = 60;
    let mut searched = World::new(form_and_tasks());
    let mut results = form_and_tasks();
    results.texts.push(text("3 results", "main"));
    searched.later.push_back(results);
    // The focus wanders by itself before the action (an autofocus that keeps moving): the
    // page's claims are background, and a Tab is looked at after one quiet window.
    let mut wandering = World::new(form_and_tasks());
    for on in ["ul", "f-name"] {
        let mut p = form_and_tasks();
        focus_on(&mut p, on);
        wandering.ticks.push_back(p);
    }
    // A click that only moves the focus at once and shows its result later: the focus is no
    // sign that its effect came.
    let mut late = World::new(form_and_tasks());
    let mut shown = form_and_tasks();
    focus_on(&mut shown, "t-A");
    shown.texts.push(text("Task A opened", "main"));
    late.later.push_back(shown);
    let focus_task: React = Box::new(move |g, w| {
        if let Gesture::Click { .. } = g {
            focus_on(&mut w.page, "t-A");
        }
    });
    #[rustfmt::skip]
    run_rows(vec![
        row("Tab moves the focus: the fingerprint's claims leave, then it is looked at", World::new(form_and_tasks()), press("Tab"), tab)
            .want(Some(M), true, None, "focus moved to textbox[Surname]")
            .then(|_, w, _| { assert_eq!(after_input(w), vec![5000, 0], "{:?}", w.needs); assert!(claims_counted(w)); }),
        row("Tab with the shorter window: over when the page says it is quiet", World::new(form_and_tasks()), press("Tab"), Box::new(move |g, w| {
            if matches!(g, Gesture::Press { keys, .. } if keys == &["Tab"]) { focus_on(&mut w.page, "f-surname"); }
        }))
            .policy(quick)
            .want(Some(M), true, None, "focus moved to textbox[Surname]")
            .then(|_, w, _| { assert_eq!(after_input(w), vec![5000, 0], "{:?}", w.needs); assert_eq!(network_reads(w), 2, "before and after the input"); }),
        row("a drag that reorders: the claims leave, then it is looked at", World::new(form_and_tasks()), drag.clone(), reorder())
            .want(Some(M), true, None, "Task C")
            .then(|_, w, _| assert_eq!(after_input(w), vec![5000, 0], "{:?}", w.needs)),
        row("Enter whose results show later: the settle goes on from there, as for a click", searched, press("Enter").with_intent("3 results are shown"), nothing())
            .want(Some(M), true, None, ""),
        row("a drag that does nothing: the deadline, then no effect", World::new(form_and_tasks()), drag.clone(), nothing())
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "no effect")
            .then(|_, w, _| assert_eq!(after_input(w), vec![5000, 0], "{:?}", w.needs)),
        row("a page that moves its focus by itself: its claims are background, Tab is looked at after one quiet window", wandering, press("Tab"), Box::new(move |g, w| {
            if matches!(g, Gesture::Press { keys, .. } if keys == &["Tab"]) { focus_on(&mut w.page, "f-surname"); }
        }))
            .want(Some(M), true, None, "focus moved to textbox[Surname]")
            .then(|r, w, _| {
                assert_eq!(after_input(w), vec![250, 0], "{:?}", w.needs);
                assert!(!claims_counted(w));
                assert!(r.background.is_empty(), "no slot: {:?}", r.background);
            }),
        row("a click that moves the focus at once waits for its effect", late, Step::new(Action::Click { target: target("listitem", "Task A") }).with_intent("Task A opened"), focus_task)
            .want(Some(M), true, None, "")
            .then(|_, w, _| assert!(!claims_counted(w))),
    ]);
}

/// The gestures sent once the button went down, and where it came up.
fn after_down(w: &World) -> (usize, Option<Point>) {
    let down = w
        .inputs
        .iter()
        .position(|g| matches!(g, Gesture::Down { .. }))
        .expect("the button went down");
    let moves = w.inputs[down..]
        .iter()
        .filter(|g| matches!(g, Gesture::MoveTo { .. }))
        .count();
    let up = match w.inputs.last() {
        Some(Gesture::Up { at, .. }) => Some(*at),
        _ => None,
    };
    (moves, up)
}

#[test]
fn a_drag_moves_one_gesture_at_a_time_checks_its_destination_and_always_releases() {
    let page = form_and_tasks();
    let (from, to) = (point_of(&page, "t-C"), point_of(&page, "t-A"));
    let drag = Step::new(Action::Drag {
        target: target("listitem", "Task C"),
        to: target("listitem", "Task A"),
    });
    let expected = |r: &str| {
        page.elements
            .iter()
            .find(|e| e.reference == r)
            .cloned()
            .map(Box::new)
    };
    let drag_at = Step::new(Action::DragAt {
        from,
        to,
        steps: 4,
        expected: expected("t-C"),
        expected_to: expected("t-A"),
        shown: Some("(25, 5) to (5, 5) on obs-1".into()),
    });
    // The drop puts Task C before Task A.
    let reorder = task_c_dropped_before_task_a;
    // The first move with the button down renames the destination.
    let renamed = || -> React {
        Box::new(|g, w| {
            let down = w.inputs.iter().any(|g| matches!(g, Gesture::Down { .. }));
            if down && matches!(g, Gesture::MoveTo { .. }) {
                let a = w
                    .page
                    .elements
                    .iter_mut()
                    .find(|e| e.reference == "t-A")
                    .unwrap();
                a.text = Some("Task Z".into());
            }
        })
    };
    let failing = |after: usize| {
        let mut w = World::new(form_and_tasks());
        w.input_fails_after = Some((after, ErrorCode::BrowserError));
        w
    };
    const ABANDONED: &str =
        "after move 1 of the drag; the button was released and the drag abandoned";
    #[rustfmt::skip]
    run_rows(vec![
        row("a drag: down, ten moves each followed by the destination's record, up over it", World::new(form_and_tasks()), drag.clone(), reorder())
            .want(Some(M), true, None, "Task C")
            .then(move |_, w, _| {
                assert_eq!(after_down(w), (10, Some(to)), "{:?}", w.inputs);
                assert!(matches!(w.inputs[1], Gesture::Down { at, .. } if at == from), "{:?}", w.inputs);
                let checks = w.needs.iter().filter(|n| matches!(n, Need::Describe { reference } if reference == "t-A")).count();
                assert_eq!(checks, 10, "the destination described after every move");
            }),
        row("a destination renamed on the first move", World::new(form_and_tasks()), drag.clone(), renamed())
            .want(None, false, Some(ErrorCode::TargetChanged), ABANDONED)
            .then(move |r, w, _| {
                assert!(r.reason.contains("the drag's destination listitem[Task A] in main/list:tasks now shows listitem[Task Z]"), "{}", r.reason);
                assert_eq!(after_down(w), (1, Some(from)), "released over the start: {:?}", w.inputs);
            }),
        row("a pointer drag whose destination is renamed on the first move", World::new(form_and_tasks()), drag_at.clone(), renamed())
            .want(None, false, Some(ErrorCode::TargetChanged), ABANDONED)
            .then(move |_, w, _| assert_eq!(after_down(w), (1, Some(from)), "released over the start: {:?}", w.inputs)),
        row("a pointer drag whose destination stays", World::new(form_and_tasks()), drag_at, reorder())
            .want(Some(M), true, None, "")
            .then(move |_, w, _| assert_eq!(after_down(w), (4, Some(to)), "{:?}", w.inputs)),
        row("a move that fails: the button comes up before the step ends", failing(3), drag.clone(), reorder())
            .want(None, false, Some(ErrorCode::BrowserError), "could not be sent")
            .then(move |_, w, _| assert_eq!(after_down(w), (1, Some(from)), "released over the start: {:?}", w.inputs)),
        row("a press that fails: released all the same", failing(1), drag, reorder())
            .want(None, false, Some(ErrorCode::BrowserError), "could not be sent")
            .then(move |_, w, _| {
                assert!(matches!(w.inputs.last(), Some(Gesture::Up { at, .. }) if *at == from), "{:?}", w.inputs);
            }),
    ]);
}

/// The drop (the button's release) puts Task C before Task A.
fn task_c_dropped_before_task_a() -> React {
    Box::new(|g, w| {
        if let Gesture::Up { .. } = g {
            let at = |w: &World, r: &str| w.page.elements.iter().position(|e| e.reference == r);
            let c = at(w, "t-C").unwrap();
            let moved = w.page.elements.remove(c);
            let a = at(w, "t-A").unwrap();
            w.page.elements.insert(a, moved);
        }
    })
}

/// The settles that waited for an effect once the undo's first inverse went out (the first
/// input after the drag's button came up): whether each counted the fingerprint's claims,
/// whether its background says the page moves them, and how long it could wait.
fn undo_settles(w: &World) -> Vec<(bool, bool, u64)> {
    let up = w
        .needs
        .iter()
        .position(|n| {
            matches!(
                n,
                Need::Input {
                    gesture: Gesture::Up { .. }
                }
            )
        })
        .expect("the drag's button came up");
    let inverse = up
        + 1
        + w.needs[up + 1..]
            .iter()
            .position(|n| matches!(n, Need::Input { .. }))
            .expect("an inverse went out");
    w.needs[inverse..]
        .iter()
        .filter_map(|n| match n {
            Need::Settle {
                since: Some(_),
                claims,
                background,
                timeout_ms,
                ..
            } => Some((*claims, background.claims, *timeout_ms)),
            _ => None,
        })
        .collect()
}

/// A reorder the page refuses: Task C goes before Task A and an error shows; the declared
/// key (Alt+ArrowDown on Task C), or the Reset order button, puts it back last, which moves
/// the order alone.
fn refused_reorder() -> React {
    let mut dropped = task_c_dropped_before_task_a();
    Box::new(move |g, w| match g {
        Gesture::Up { .. } => {
            dropped(g, w);
            w.page.texts.push(Text {
                kind: TextKind::Alert,
                ..text("Error: the order was not saved", "main")
            });
        }
        Gesture::Press { keys, .. } if keys.iter().any(|k| k == "ArrowDown") => {
            let c = w.page.elements.iter().position(|e| e.reference == "t-C");
            let moved = w.page.elements.remove(c.unwrap());
            w.page.elements.push(moved);
        }
        Gesture::Click { at, .. }
            if at_point(&w.page, *at).is_some_and(|e| e.name == "Reset order") =>
        {
            let c = w.page.elements.iter().position(|e| e.reference == "t-C");
            let moved = w.page.elements.remove(c.unwrap());
            w.page.elements.push(moved);
        }
        _ => {}
    })
}

#[test]
fn an_undo_by_a_declared_key_counts_the_claims_it_moves_back() {
    let drag = Step::new(Action::Drag {
        target: target("listitem", "Task C"),
        to: target("listitem", "Task A"),
    })
    .with_intent("the order is saved")
    .with_inverse(vec![Step::new(Action::Press {
        key: "Alt+ArrowDown".into(),
        target: Some(target("listitem", "Task C")),
    })]);
    let reset = Step::new(Action::Drag {
        target: target("listitem", "Task C"),
        to: target("listitem", "Task A"),
    })
    .with_intent("the order is saved")
    .with_inverse(vec![click("Reset order")]);
    let mut with_reset = World::new(form_and_tasks());
    with_reset
        .page
        .elements
        .push(el("b-reset", Role::Button, "Reset order", "main"));
    let once = |p: &mut Policy| p.max_attempts = 1;
    // The focus wanders by itself before the action: the page moves its claims, which the
    // undo's settles then leave out as the step's own did.
    let mut wandering = World::new(form_and_tasks());
    for on in ["ul", "f-name"] {
        let mut p = form_and_tasks();
        for e in &mut p.elements {
            e.focused = e.reference == on;
        }
        wandering.ticks.push_back(p);
    }
    let order = |w: &World| -> Vec<String> {
        w.page
            .elements
            .iter()
            .filter(|e| e.reference.starts_with("t-"))
            .map(|e| e.reference.clone())
            .collect()
    };
    #[rustfmt::skip]
    run_rows(vec![
        row("a refused reorder taken back by a declared key: the key's settle and the undo's count the claims", World::new(form_and_tasks()), drag.clone(), refused_reorder())
            .policy(once)
            .want(Some(A), false, Some(ErrorCode::VerificationFailed), "")
            .tries(1, 1)
            .then(move |_, w, _| {
                assert_eq!(undo_settles(w), vec![(true, false, 5000), (true, false, 5000)], "{:?}", w.needs);
                assert_eq!(order(w), ["t-A", "t-B", "t-C"]);
            }),
        row("on a page that moves its focus by itself, the undo's settles leave the claims out and glance", wandering, drag, refused_reorder())
            .policy(once)
            .want(Some(A), false, Some(ErrorCode::VerificationFailed), "")
            .tries(1, 1)
            .then(|_, w, _| assert_eq!(undo_settles(w), vec![(false, true, 250), (false, true, 250)], "{:?}", w.needs)),
        row("a declared click moves the focus at once: the undo's settles wait for what it does", with_reset, reset, refused_reorder())
            .policy(once)
            .want(Some(A), false, Some(ErrorCode::VerificationFailed), "")
            .tries(1, 1)
            .then(move |_, w, _| {
                assert_eq!(undo_settles(w), vec![(false, false, 5000), (false, false, 5000)], "{:?}", w.needs);
                assert_eq!(order(w), ["t-A", "t-B", "t-C"]);
            }),
    ]);
}

/// A reorder and nothing else: the drop puts Task C before Task A, and Alt+ArrowDown moves
/// the task it is pressed on one place down; Alt+ArrowUp moves Task C one place up, whatever
/// it is pressed on (the wrong item). No message shows: only the order says what happened.
fn reordered_alone() -> React {
    let mut dropped = task_c_dropped_before_task_a();
    Box::new(move |g, w| {
        let (moved, down) = match g {
            Gesture::Up { .. } => return dropped(g, w),
            Gesture::Press {
                reference: Some(r),
                keys,
            } if keys.iter().any(|k| k == "ArrowDown") => (r.clone(), true),
            Gesture::Press { keys, .. } if keys.iter().any(|k| k == "ArrowUp") => {
                ("t-C".to_owned(), false)
            }
            _ => return,
        };
        let tasks: Vec<usize> = (0..w.page.elements.len())
            .filter(|&i| w.page.elements[i].reference.starts_with("t-"))
            .collect();
        let Some(at) = tasks
            .iter()
            .position(|&i| w.page.elements[i].reference == moved)
        else {
            return;
        };
        let other = match down {
            true => tasks.get(at + 1),
            false => at.checked_sub(1).and_then(|p| tasks.get(p)),
        };
        if let Some(&other) = other {
            w.page.elements.swap(tasks[at], other);
        }
    })
}

/// The order of the tasks on the page.
fn tasks_order(w: &World) -> Vec<String> {
    w.page
        .elements
        .iter()
        .filter(|e| e.reference.starts_with("t-"))
        .map(|e| e.reference.clone())
        .collect()
}

/// The inputs sent after the drag's button came up (the undo's).
fn after_drop(w: &World) -> &[Gesture] {
    let up = w
        .inputs
        .iter()
        .position(|g| matches!(g, Gesture::Up { .. }))
        .expect("the drag's button came up");
    &w.inputs[up + 1..]
}

#[test]
fn a_reorder_alone_is_taken_back_by_the_inverse_the_step_declares() {
    let key_on = |key: &str, task: &str| {
        Step::new(Action::Press {
            key: key.into(),
            target: Some(target("listitem", task)),
        })
    };
    let drag = |inverse: Vec<Step>| {
        Step::new(Action::Drag {
            target: target("listitem", "Task C"),
            to: target("listitem", "Task A"),
        })
        .with_intent("the order is saved")
        .with_inverse(inverse)
    };
    let twice_down = || vec![key_on("Alt+ArrowDown", "Task C"); 2];
    let once = |p: &mut Policy| p.max_attempts = 1;
    // The focus wanders by itself before the action: the fingerprint leaves the page's
    // claims out, and the order is seen by looking.
    let mut wandering = World::new(form_and_tasks());
    for on in ["ul", "f-name"] {
        let mut p = form_and_tasks();
        for e in &mut p.elements {
            e.focused = e.reference == on;
        }
        wandering.ticks.push_back(p);
    }
    // A clock ticks by itself (learnt before the action) and once more with every gesture:
    // the diff holds its tick, the reorder is still the effect alone.
    let clock = |at: &str| {
        let mut p = form_and_tasks();
        p.texts.push(text(&format!("Time 12:00:{at}"), "banner"));
        p
    };
    let mut live = World::new(clock("01"));
    live.ticks.extend([clock("02"), clock("03")]);
    let ticking = || -> React {
        let mut reorder = reordered_alone();
        Box::new(move |g, w| {
            reorder(g, w);
            for t in w
                .page
                .texts
                .iter_mut()
                .filter(|t| t.text.starts_with("Time"))
            {
                t.text = format!("Time 12:00:{}", 10 + w.inputs.len());
            }
        })
    };
    const REORDERED: &str = "listitem[Task C] went from position 3 to 1 in main/list:tasks";
    #[rustfmt::skip]
    run_rows(vec![
        row("a drop that only reorders, taken back by its declared keys: undone, in order again", World::new(form_and_tasks()), drag(twice_down()), reordered_alone())
            .policy(once)
            .want(Some(A), false, Some(ErrorCode::VerificationFailed), "moved listitem[Task C] from position 3 to 1")
            .tries(1, 1)
            .then(|r, w, _| {
                assert_eq!(tasks_order(w), ["t-A", "t-B", "t-C"]);
                // The keys' item is focused first (a press on a target without the focus).
                let keys = after_drop(w).iter().filter(|g| matches!(g, Gesture::Press { .. })).count();
                assert_eq!(keys, 2, "both keys went out: {:?}", w.inputs);
                assert!(r.residue.is_empty(), "{:?}", r.residue);
            }),
        row("undone, the step is tried again, and undone again", World::new(form_and_tasks()), drag(twice_down()), reordered_alone())
            .want(Some(A), false, Some(ErrorCode::VerificationFailed), "")
            .tries(2, 2)
            .then(|_, w, _| assert_eq!(tasks_order(w), ["t-A", "t-B", "t-C"])),
        row("no declared inverse: stopped, naming the reorder, the page untouched", World::new(form_and_tasks()), drag(Vec::new()), reordered_alone())
            .want(Some(A), false, Some(ErrorCode::IrreversibleAction), "")
            .then(|r, w, _| {
                let message = &r.error.as_ref().unwrap().message;
                assert!(message.contains(&format!("reordered the page ({REORDERED})")), "{message}");
                assert!(after_drop(w).is_empty(), "nothing was sent to undo it: {:?}", w.inputs);
                assert_eq!(tasks_order(w), ["t-C", "t-A", "t-B"]);
            }),
        row("a declared inverse that does not restore the order: the undo failed, naming it", World::new(form_and_tasks()), drag(vec![key_on("Alt+ArrowDown", "Task C")]), reordered_alone())
            .want(Some(A), false, Some(ErrorCode::UndoFailed), "")
            .then(|r, w, _| {
                assert_eq!(tasks_order(w), ["t-A", "t-C", "t-B"]);
                assert_eq!(r.residue, ["listitem[Task C] went from position 3 to 2 in main/list:tasks"]);
            }),
        row("on a page that moves its focus by itself: undone, each settle of the undo one quiet window and a look", wandering, drag(twice_down()), reordered_alone())
            .policy(once)
            .want(Some(A), false, Some(ErrorCode::VerificationFailed), "")
            .tries(1, 1)
            .then(|_, w, _| {
                assert_eq!(tasks_order(w), ["t-A", "t-B", "t-C"]);
                assert_eq!(undo_settles(w), vec![(false, true, 250); 3], "{:?}", w.needs);
            }),
        row("a key that moved the wrong item, with its declared inverse: undone", World::new(form_and_tasks()), key_on("Alt+ArrowUp", "Task B").with_inverse(vec![key_on("Alt+ArrowDown", "Task C")]), reordered_alone())
            .policy(once)
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "")
            .tries(1, 1)
            .then(|_, w, _| {
                assert_eq!(tasks_order(w), ["t-A", "t-B", "t-C"]);
                // Each on its item, focused first (a press on a target without the focus).
                let keys: Vec<&Gesture> = w.inputs.iter().filter(|g| matches!(g, Gesture::Press { .. })).collect();
                assert_eq!(keys.len(), 2, "the key, then its inverse: {:?}", w.inputs);
            }),
        row("on a live page whose clock ticked meanwhile: still a reorder alone, undone", live, key_on("Alt+ArrowUp", "Task B").with_inverse(vec![key_on("Alt+ArrowDown", "Task C")]), ticking())
            .policy(once)
            .want(Some(X), false, Some(ErrorCode::VerificationFailed), "the other way from where its arrow points")
            .tries(1, 1)
            .then(|r, w, _| {
                assert!(!r.diff.is_empty(), "the clock's tick is in the diff");
                assert_eq!(tasks_order(w), ["t-A", "t-B", "t-C"]);
            }),
        row("a key that moved the wrong item, with no inverse: stopped, naming the reorder", World::new(form_and_tasks()), key_on("Alt+ArrowUp", "Task B"), reordered_alone())
            .want(Some(X), false, Some(ErrorCode::IrreversibleAction), "")
            .then(|r, w, _| {
                let message = &r.error.as_ref().unwrap().message;
                assert!(message.contains("listitem[Task C] went from position 3 to 2 in main/list:tasks"), "{message}");
                assert_eq!(tasks_order(w), ["t-A", "t-C", "t-B"]);
            }),
    ]);
    // An inverse that cannot be run unverified is refused before anything is sent, the
    // same from every surface.
    let saved = claim(
        serde_json::json!({"kind": "appears", "target": {"role": "status", "name": "Saved"}}),
    );
    let bad_inverses = [
        (
            vec![key_on("Alt+ArrowDown", "Task C")
                .with_inverse(vec![key_on("Alt+ArrowUp", "Task C")])],
            "inverse[0]: an inverse step cannot declare its own inverse",
        ),
        (
            vec![
                key_on("Alt+ArrowDown", "Task C"),
                Step::new(Action::watch()),
            ],
            "inverse[1]: watch cannot be nested inside another watch or an inverse",
        ),
        (
            vec![key_on("Alt+ArrowDown", "Task C").with_expect(vec![saved])],
            "inverse[0]: \"expect\" belongs to a verified step",
        ),
        (
            vec![key_on("Alt+Downward", "Task C")],
            "inverse[0]: unknown key \"Downward\"",
        ),
    ];
    run_rows(
        bad_inverses
            .into_iter()
            .map(|(inverse, message)| {
                row(
                    "a malformed inverse: refused before the page is touched",
                    World::new(form_and_tasks()),
                    key_on("Alt+ArrowUp", "Task B").with_inverse(inverse),
                    reordered_alone(),
                )
                .want(None, false, Some(ErrorCode::InvalidAction), message)
                .tries(0, 0)
                .then(|_, w, _| {
                    assert!(w.needs.is_empty() && w.inputs.is_empty(), "{:?}", w.needs);
                    assert_eq!(tasks_order(w), ["t-A", "t-B", "t-C"]);
                })
            })
            .collect(),
    );
}

/// A coordinate step's screenshot, captured between two fingerprints: again while the page
/// changed meanwhile, three captures at most, stable only when settled and unchanged; asked
/// through the machine module's `points("captured")`, as every driver asks it.
#[test]
fn a_screenshot_is_captured_again_while_the_page_changes_three_times_at_most() {
    let rows: &[(&str, u32, &str, &str, bool, bool, bool)] = &[
        // name, tries, before, after, settled → again, stable
        (
            "unchanged after a settle: kept, stable",
            1,
            "a",
            "a",
            true,
            false,
            true,
        ),
        (
            "unchanged without a settle: kept, not stable",
            1,
            "a",
            "a",
            false,
            false,
            false,
        ),
        (
            "changed on the first capture: again",
            1,
            "a",
            "b",
            true,
            true,
            false,
        ),
        (
            "changed on the second capture: again",
            2,
            "b",
            "c",
            true,
            true,
            false,
        ),
        (
            "changed on the third capture: kept, not stable",
            3,
            "c",
            "d",
            true,
            false,
            false,
        ),
        (
            "unchanged on the third capture: kept, stable",
            3,
            "c",
            "c",
            true,
            false,
            true,
        ),
    ];
    for (name, tries, before, after, settled, again, stable) in rows {
        let args = serde_json::json!({ "tries": tries, "before": before, "after": after, "settled": settled });
        let kept: serde_json::Value = serde_json::from_str(
            &prufe::core::api::points_text("captured", &args.to_string()).unwrap(),
        )
        .unwrap();
        assert_eq!(
            kept,
            serde_json::json!({ "again": again, "stable": stable }),
            "{name}"
        );
    }
    assert_eq!(prufe::core::run::capture::CAPTURE_TRIES, 3);
    let bad = prufe::core::api::points_text("captured", r#"{"tries":1}"#).unwrap_err();
    assert_eq!(bad.code, ErrorCode::InvalidArgument);
}
