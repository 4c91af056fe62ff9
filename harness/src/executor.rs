//! The executor contract for coordinate-driven agents: the pure half.
//!
//! An agent that sees screenshots proposes `click_at {x, y, observation}`. Before the first
//! input event the whole request is validated: its shape when it is read or built
//! ([`parse_shape`], the constructors of [`Request`]: known action, required fields, no
//! unexpected ones, finite numbers), then, right before it runs, its points against the
//! observed image ([`check_against_observation`]: an outside point is `POINT_OUT_OF_BOUNDS`,
//! never clamped, and the observation must be the latest, `STALE_OBSERVATION`). Points then convert from the model's image to CSS pixels through
//! one function ([`Screen::to_css`], the machine's). Every key and button pressed is recorded in an
//! [`InputLedger`], which yields the releases still owed, in reverse order, whatever way the
//! action ends.
//!
//! A `wait` step carries a [`Postcondition`] (an element appears, a value equals, a text
//! appears in a region or is gone from it), checked here against plain snapshots.
//!
//! The browser half (capturing, hit-testing, dispatching) lives in `coords.rs`; everything
//! here is plain data so it is tested without a browser.

use crate::wire::{self, Object, Seg};
use prufe::core::error::{Error, ErrorCode};
use prufe::core::model::Role;
use prufe::core::run::{chord, screen, step};
use serde::Deserialize;
use serde_json::Value;

/// A point in some coordinate space (CSS pixels of the top viewport, or of a screenshot).
pub use prufe::core::run::Point;

/// What a `screenshot` step issued (the image's size, the capture's, the pixel ratio, the hit
/// boxes behind it), a size, a box, and the element under a point: the machine's, as every
/// driver's (`prufe::core::run::screen`).
pub use prufe::core::run::screen::{identity_at, HitBox, Screen, Size};

/// A mouse button.
pub use prufe::core::run::Button;

/// A key as CDP `Input.dispatchKeyEvent` wants it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// `key` property, e.g. `"Control"`, `"s"`, `"Enter"`.
    pub key: String,
    /// `code` property, e.g. `"ControlLeft"`, `"KeyS"`.
    pub code: String,
    /// Windows virtual key code.
    pub key_code: i64,
    /// Text the key types, if any.
    pub text: Option<String>,
    /// The CDP modifier bit when this key is a modifier.
    pub modifier_bit: i64,
}

// https://chromedevtools.github.io/devtools-protocol/tot/Input/#method-dispatchKeyEvent
// (modifiers: Alt=1, Ctrl=2, Meta=4, Shift=8)
const NAMED_KEYS: &[(&str, &str, i64, Option<&str>, i64)] = &[
    ("Alt", "AltLeft", 18, None, 1),
    ("Control", "ControlLeft", 17, None, 2),
    ("Meta", "MetaLeft", 91, None, 4),
    ("Shift", "ShiftLeft", 16, None, 8),
    ("Enter", "Enter", 13, Some("\r"), 0),
    ("Tab", "Tab", 9, None, 0),
    ("Escape", "Escape", 27, None, 0),
    ("Backspace", "Backspace", 8, None, 0),
    ("Delete", "Delete", 46, None, 0),
    ("Space", "Space", 32, Some(" "), 0),
    ("ArrowUp", "ArrowUp", 38, None, 0),
    ("ArrowDown", "ArrowDown", 40, None, 0),
    ("ArrowLeft", "ArrowLeft", 37, None, 0),
    ("ArrowRight", "ArrowRight", 39, None, 0),
    ("Home", "Home", 36, None, 0),
    ("End", "End", 35, None, 0),
    ("PageUp", "PageUp", 33, None, 0),
    ("PageDown", "PageDown", 34, None, 0),
    ("Insert", "Insert", 45, None, 0),
    ("F1", "F1", 112, None, 0),
    ("F2", "F2", 113, None, 0),
    ("F3", "F3", 114, None, 0),
    ("F4", "F4", 115, None, 0),
    ("F5", "F5", 116, None, 0),
    ("F6", "F6", 117, None, 0),
    ("F7", "F7", 118, None, 0),
    ("F8", "F8", 119, None, 0),
    ("F9", "F9", 120, None, 0),
    ("F10", "F10", 121, None, 0),
    ("F11", "F11", 122, None, 0),
    ("F12", "F12", 123, None, 0),
];

/// One key by its canonical name (`Enter`, `Control`, `a`; the machine's
/// [`chord::key_name`] names it) as CDP sends it: the table above for a named key, a letter or
/// a digit with its code, any other printable character as the text it types.
/// `INVALID_ACTION` for a name the machine's table does not know.
pub fn parse_key(name: &str) -> Result<Key, Error> {
    let name = chord::key_name(name)?;
    if let Some(&(key, code, key_code, text, bit)) = NAMED_KEYS.iter().find(|k| k.0 == name) {
        return Ok(Key {
            // UI Events names the space bar's key " ".
            key: if key == "Space" {
                " ".into()
            } else {
                key.into()
            },
            code: code.into(),
            key_code,
            text: text.map(Into::into),
            modifier_bit: bit,
        });
    }
    let c = name.chars().next().expect("a key name is never empty");
    Ok(if c.is_ascii_alphabetic() {
        let upper = c.to_ascii_uppercase();
        Key {
            key: name.clone(),
            code: format!("Key{upper}"),
            key_code: upper as i64,
            text: Some(name),
            modifier_bit: 0,
        }
    } else if c.is_ascii_digit() {
        Key {
            key: name.clone(),
            code: format!("Digit{c}"),
            key_code: c as i64,
            text: Some(name),
            modifier_bit: 0,
        }
    } else {
        // Any other printable character types itself (`/`, `+`, `é`).
        Key {
            key: name.clone(),
            code: String::new(),
            key_code: 0,
            text: Some(name),
            modifier_bit: 0,
        }
    })
}

/// The keys of a chord the machine has read (`Gesture::Press`'s `keys`, [`chord::pressed`]:
/// modifiers first, a letter under Shift already its capital), as CDP sends them (pressed in
/// this order, released in reverse).
pub fn encode_chord(keys: &[String]) -> Result<Vec<Key>, Error> {
    if keys.is_empty() {
        return Err(Error::new(
            ErrorCode::InvalidAction,
            "a chord without a key",
        ));
    }
    keys.iter().map(|k| parse_key(k)).collect()
}

/// Bitmask of the modifiers among `keys`.
pub fn modifier_mask(keys: &[Key]) -> i64 {
    keys.iter().fold(0, |m, k| m | k.modifier_bit)
}

/// Something held down that must be released.
#[derive(Debug, Clone, PartialEq)]
pub enum Held {
    Key(Key),
    Button { button: Button, at: Point },
}

/// Records every key and button pressed, so that whatever way an action ends, everything
/// still held is released in reverse order.
#[derive(Debug, Default)]
pub struct InputLedger {
    held: Vec<Held>,
}

/// What the final release achieved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReleaseReport {
    /// How many held inputs there were to release.
    pub owed: usize,
    /// How many of them failed to release.
    pub failed: usize,
}

impl ReleaseReport {
    pub fn clean(&self) -> bool {
        self.failed == 0
    }
}

impl InputLedger {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a press that was sent.
    pub fn pressed(&mut self, held: Held) {
        self.held.push(held);
    }

    /// Records a release that was sent: removes the latest matching press.
    pub fn released(&mut self, held: &Held) {
        if let Some(i) = self.held.iter().rposition(|h| same_input(h, held)) {
            self.held.remove(i);
        }
    }

    /// Forgets everything held: what held it (a renderer, a browser) is gone.
    pub fn clear(&mut self) {
        self.held.clear();
    }

    /// What is held now, oldest first.
    pub fn held(&self) -> &[Held] {
        &self.held
    }

    /// What is held now, newest first: the order releases go in.
    pub fn newest_first(&self) -> Vec<Held> {
        self.held.iter().rev().cloned().collect()
    }

    /// The CDP `buttons` bitmask of the mouse buttons held now.
    pub fn buttons(&self) -> i64 {
        self.held.iter().fold(0, |m, h| match h {
            Held::Button { button, .. } => m | button.mask(),
            Held::Key(_) => m,
        })
    }

    /// The CDP modifier bitmask of the keys held now.
    pub fn modifiers(&self) -> i64 {
        self.held.iter().fold(0, |m, h| match h {
            Held::Key(k) => m | k.modifier_bit,
            Held::Button { .. } => m,
        })
    }

    /// Releases everything still held, newest first, through `release`, which returns
    /// whether that release was sent. Entries that failed stay recorded.
    pub fn release_all(&mut self, mut release: impl FnMut(&Held) -> bool) -> ReleaseReport {
        let owed = self.held.len();
        let mut failed = Vec::new();
        while let Some(h) = self.held.pop() {
            if !release(&h) {
                failed.push(h);
            }
        }
        let report = ReleaseReport {
            owed,
            failed: failed.len(),
        };
        failed.reverse();
        self.held = failed;
        report
    }
}

fn same_input(a: &Held, b: &Held) -> bool {
    match (a, b) {
        (Held::Key(x), Held::Key(y)) => x.code == y.code,
        (Held::Button { button: x, .. }, Held::Button { button: y, .. }) => x == y,
        _ => false,
    }
}

/// A validated coordinate-driven request. Built only through its constructors
/// ([`Request::click_at`] and the others) or [`parse_shape`], which read an agent's JSON into
/// them: every request holds what the contract allows.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    Screenshot {
        max_width: Option<f64>,
    },
    /// `intent`, when given, is the sentence the click's effect is judged against.
    ClickAt {
        at: Point,
        observation: String,
        button: Button,
        intent: Option<String>,
    },
    DragAt {
        from: Point,
        to: Point,
        observation: String,
        steps: u32,
        intent: Option<String>,
    },
    ScrollAt {
        at: Point,
        dx: f64,
        dy: f64,
        observation: String,
    },
    Type {
        text: String,
        sensitive: bool,
    },
    /// `chord` as given (`Control+S`), a chord the machine's key table reads.
    Key {
        chord: String,
    },
    Wait {
        until: Postcondition,
        timeout_ms: u64,
    },
}

impl Request {
    /// The wire name of the action.
    pub fn kind(&self) -> &'static str {
        match self {
            Request::Screenshot { .. } => "screenshot",
            Request::ClickAt { .. } => "click_at",
            Request::DragAt { .. } => "drag_at",
            Request::ScrollAt { .. } => "scroll_at",
            Request::Type { .. } => "type",
            Request::Key { .. } => "key",
            Request::Wait { .. } => "wait",
        }
    }

    /// A `screenshot`, downscaled to `max_width` (at least 1) when given.
    pub fn screenshot(max_width: Option<f64>) -> Result<Request, Error> {
        Ok(Request::Screenshot {
            max_width: screen::check_max_width(max_width)?,
        })
    }

    /// A `click_at` the point `at` of the image `observation`.
    pub fn click_at(
        at: Point,
        observation: String,
        button: Button,
        intent: Option<String>,
    ) -> Result<Request, Error> {
        Ok(Request::ClickAt {
            at: finite_point(at)?,
            observation: observation_id(Some(observation))?,
            button,
            intent: checked_intent(intent)?,
        })
    }

    /// A `drag_at` from `from` to `to` of the image `observation`, in `steps` moves (10 when
    /// not given).
    pub fn drag_at(
        from: Point,
        to: Point,
        observation: String,
        steps: Option<u64>,
        intent: Option<String>,
    ) -> Result<Request, Error> {
        Ok(Request::DragAt {
            from: finite_point(from)?,
            to: finite_point(to)?,
            observation: observation_id(Some(observation))?,
            steps: match steps {
                None => 10,
                Some(n) => step::check_drag_steps(n as f64)?,
            },
            intent: checked_intent(intent)?,
        })
    }

    /// A `scroll_at` the point `at` of the image `observation`, by `dx`, `dy` image pixels.
    pub fn scroll_at(at: Point, dx: f64, dy: f64, observation: String) -> Result<Request, Error> {
        Ok(Request::ScrollAt {
            at: finite_point(at)?,
            dx: finite(Some(dx), "dx")?,
            dy: finite(Some(dy), "dy")?,
            observation: observation_id(Some(observation))?,
        })
    }

    /// A `type` of `text` (1 to [`step::MAX_TYPE_CHARS`] characters) into the focused field.
    pub fn type_text(text: String, sensitive: bool) -> Result<Request, Error> {
        step::check_type_text(&text)?;
        Ok(Request::Type { text, sensitive })
    }

    /// A `key` chord such as `Control+S`, read by the machine's key table (every key it
    /// reads, the input encodes: `parse_key`).
    pub fn key(chord: String) -> Result<Request, Error> {
        chord::keys(&chord)?;
        Ok(Request::Key { chord })
    }

    /// A `wait` until `until` holds, for at most `timeout_ms` (required: every wait has a
    /// deadline).
    pub fn wait(until: Option<Until>, timeout_ms: Option<u64>) -> Result<Request, Error> {
        let timeout_ms = match timeout_ms {
            Some(n) if (1..=MAX_WAIT_MS).contains(&n) => n,
            Some(_) => {
                return Err(invalid(format!(
                    "\"timeoutMs\" must be an integer from 1 to {MAX_WAIT_MS}"
                )))
            }
            None => {
                return Err(invalid(
                    "\"wait\" needs \"timeoutMs\": every wait has a deadline",
                ))
            }
        };
        Ok(Request::Wait {
            until: postcondition(until)?,
            timeout_ms,
        })
    }
}

pub use prufe::core::until::{in_region, Postcondition};

/// The longest deadline a `wait` may ask for, in milliseconds.
pub const MAX_WAIT_MS: u64 = 600_000;
/// The longest intent sentence accepted, in characters.
pub const MAX_INTENT_CHARS: usize = 2_000;

/// Reads an agent's request (a step of a `prufe run` script) and validates everything about
/// it that does not depend on the page: the action, its fields and their types. The points
/// are checked against the latest observation ([`check_against_observation`]) right before
/// the step runs, since a script's observation does not exist before the run.
///
/// The request is read with serde into [`WireRequest`], then checked once, by the
/// constructors of [`Request`]: a key the action does not take is `INVALID_FIELDS`, anything
/// else wrong `INVALID_ACTION`.
pub fn parse_shape(value: &Value) -> Result<Request, Error> {
    let read = wire::read::<Object<WireRequest>>(value).map_err(|e| {
        let field = wire::field(&e.path);
        if field.is_empty() {
            invalid(format!("a step is a JSON object: {}", e.message))
        } else {
            invalid(format!("\"{field}\": {}", e.message))
        }
    })?;
    let w = read.value.0;
    let kind = w
        .action
        .ok_or_else(|| invalid("missing \"action\" (a string)"))?;
    let allowed = kind.allowed();
    let given = [
        ("maxWidth", w.max_width.is_some()),
        ("x", w.x.is_some()),
        ("y", w.y.is_some()),
        ("observation", w.observation.is_some()),
        ("button", w.button.is_some()),
        ("intent", w.intent.is_some()),
        ("from", w.from.is_some()),
        ("to", w.to.is_some()),
        ("steps", w.steps.is_some()),
        ("dx", w.dx.is_some()),
        ("dy", w.dy.is_some()),
        ("text", w.text.is_some()),
        ("sensitive", w.sensitive.is_some()),
        ("chord", w.chord.is_some()),
        ("until", w.until.is_some()),
        ("timeoutMs", w.timeout_ms.is_some()),
    ];
    if let Some((key, _)) = given
        .iter()
        .find(|(k, present)| *present && !allowed.contains(k))
    {
        return Err(unexpected(key, allowed));
    }
    if let Some(path) = read.ignored.first() {
        let within = match path.first() {
            Some(Seg::Key(k)) if path.len() > 1 && (k == "from" || k == "to") => POINT_FIELDS,
            Some(Seg::Key(k)) if path.len() > 1 && k == "until" => UNTIL_FIELDS,
            _ => allowed,
        };
        return Err(unexpected(&wire::field(path), within));
    }
    match kind {
        RequestKind::Screenshot => Request::screenshot(w.max_width),
        RequestKind::ClickAt => Request::click_at(
            point(w.x, w.y)?,
            observation_id(w.observation)?,
            w.button.unwrap_or_default(),
            w.intent,
        ),
        RequestKind::DragAt => Request::drag_at(
            nested_point(w.from, "from")?,
            nested_point(w.to, "to")?,
            observation_id(w.observation)?,
            w.steps,
            w.intent,
        ),
        RequestKind::ScrollAt => Request::scroll_at(
            point(w.x, w.y)?,
            finite(w.dx, "dx")?,
            finite(w.dy, "dy")?,
            observation_id(w.observation)?,
        ),
        RequestKind::Type => Request::type_text(
            w.text
                .ok_or_else(|| invalid("\"type\" needs \"text\" (a string)"))?,
            w.sensitive.unwrap_or(false),
        ),
        RequestKind::Key => {
            Request::key(w.chord.ok_or_else(|| {
                invalid("\"key\" needs \"chord\" (a string such as \"Control+S\")")
            })?)
        }
        RequestKind::Wait => Request::wait(w.until.map(|u| u.0), w.timeout_ms),
    }
}

/// A coordinate request as an agent writes it. `null` counts as absent; keys no field takes
/// are collected (see `wire`) and answered with `INVALID_FIELDS`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireRequest {
    action: Option<RequestKind>,
    max_width: Option<f64>,
    x: Option<f64>,
    y: Option<f64>,
    observation: Option<String>,
    button: Option<Button>,
    intent: Option<String>,
    from: Option<Object<WirePoint>>,
    to: Option<Object<WirePoint>>,
    steps: Option<u64>,
    dx: Option<f64>,
    dy: Option<f64>,
    text: Option<String>,
    sensitive: Option<bool>,
    chord: Option<String>,
    until: Option<Object<Until>>,
    timeout_ms: Option<u64>,
}

/// `from` and `to` of a drag. Not [`Point`] itself: that one refuses an unknown key as a
/// type error, and here it is `INVALID_FIELDS`.
#[derive(Deserialize)]
struct WirePoint {
    x: Option<f64>,
    y: Option<f64>,
}

const POINT_FIELDS: &[&str] = &["x", "y"];

/// The `until` of a wait as an agent writes it: which of its shapes it is follows from the
/// fields given ([`Request::wait`] checks them).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Until {
    pub role: Option<String>,
    pub name: Option<String>,
    pub region: Option<String>,
    pub value: Option<String>,
    pub sensitive: Option<bool>,
    pub text: Option<String>,
    pub text_gone: Option<String>,
}

const UNTIL_FIELDS: &[&str] = &[
    "role",
    "name",
    "region",
    "value",
    "sensitive",
    "text",
    "textGone",
];

/// The actions of the contract, read from their wire names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum RequestKind {
    Screenshot,
    ClickAt,
    DragAt,
    ScrollAt,
    Type,
    Key,
    Wait,
}

const REQUEST_KINDS: &str = "screenshot, click_at, drag_at, scroll_at, type, key, wait";

impl TryFrom<String> for RequestKind {
    type Error = String;
    fn try_from(name: String) -> Result<RequestKind, String> {
        Ok(match name.as_str() {
            "screenshot" => RequestKind::Screenshot,
            "click_at" => RequestKind::ClickAt,
            "drag_at" => RequestKind::DragAt,
            "scroll_at" => RequestKind::ScrollAt,
            "type" => RequestKind::Type,
            "key" => RequestKind::Key,
            "wait" => RequestKind::Wait,
            other => {
                return Err(format!(
                    "unknown action {:?}: expected one of {REQUEST_KINDS}",
                    quote_short(other),
                ))
            }
        })
    }
}

impl RequestKind {
    /// Every key the action takes, `action` included.
    fn allowed(self) -> &'static [&'static str] {
        match self {
            RequestKind::Screenshot => &["action", "maxWidth"],
            RequestKind::ClickAt => &["action", "x", "y", "observation", "button", "intent"],
            RequestKind::DragAt => &["action", "from", "to", "observation", "steps", "intent"],
            RequestKind::ScrollAt => &["action", "x", "y", "dx", "dy", "observation"],
            RequestKind::Type => &["action", "text", "sensitive"],
            RequestKind::Key => &["action", "chord"],
            RequestKind::Wait => &["action", "until", "timeoutMs"],
        }
    }
}

/// The check made right before a request runs: its observation is the latest
/// (`STALE_OBSERVATION`) and every point lies inside that image (`POINT_OUT_OF_BOUNDS`).
pub fn check_against_observation(request: &Request, latest: Option<&Screen>) -> Result<(), Error> {
    let (id, points): (&str, Vec<Point>) = match request {
        Request::ClickAt {
            at, observation, ..
        } => (observation, vec![*at]),
        Request::DragAt {
            from,
            to,
            observation,
            ..
        } => (observation, vec![*from, *to]),
        Request::ScrollAt {
            at, observation, ..
        } => (observation, vec![*at]),
        _ => return Ok(()),
    };
    screen::check(latest, Some(id), &points).map(|_| ())
}

fn checked_intent(intent: Option<String>) -> Result<Option<String>, Error> {
    match intent {
        None => Ok(None),
        Some(s) if !s.trim().is_empty() && s.chars().count() <= MAX_INTENT_CHARS => Ok(Some(s)),
        Some(_) => Err(invalid(format!(
            "\"intent\" must be a sentence of 1 to {MAX_INTENT_CHARS} characters"
        ))),
    }
}

fn postcondition(until: Option<Until>) -> Result<Postcondition, Error> {
    const SHAPES: &str = "{\"role\", \"name\", \"region\"?}, {\"role\", \"name\", \"region\"?, \"value\", \"sensitive\"?}, {\"text\", \"region\"?} or {\"textGone\", \"region\"?}";
    const LIMIT: usize = prufe::core::model::limits::MAX_TEXT_CHARS;
    let u = until.ok_or_else(|| invalid(format!("\"wait\" needs \"until\": one of {SHAPES}")))?;
    let text = |key: &str, v: Option<String>| -> Result<String, Error> {
        match v {
            Some(s) if !s.trim().is_empty() && s.chars().count() <= LIMIT => Ok(s),
            _ => Err(invalid(format!(
                "\"until.{key}\" must be a non-empty string of at most {LIMIT} characters"
            ))),
        }
    };
    let region = u.region.map(|r| text("region", Some(r))).transpose()?;
    let given = [
        ("role", u.role.is_some()),
        ("name", u.name.is_some()),
        ("value", u.value.is_some()),
        ("sensitive", u.sensitive.is_some()),
        ("text", u.text.is_some()),
        ("textGone", u.text_gone.is_some()),
    ];
    let only = |allowed: &[&str]| match given.iter().find(|(k, p)| *p && !allowed.contains(k)) {
        Some((key, _)) => Err(unexpected(key, allowed)),
        None => Ok(()),
    };
    if u.text.is_some() {
        only(&["text", "region"])?;
        return Ok(Postcondition::TextAppears {
            text: text("text", u.text)?,
            region,
        });
    }
    if u.text_gone.is_some() {
        only(&["textGone", "region"])?;
        return Ok(Postcondition::TextGone {
            text: text("textGone", u.text_gone)?,
            region,
        });
    }
    let role_name = text("role", u.role)?;
    let role = Role::parse(&role_name)
        .filter(|r| *r != Role::Unknown)
        .ok_or_else(|| {
            invalid(format!(
                "\"until.role\" {:?} is not an ARIA role",
                quote_short(&role_name)
            ))
        })?;
    let name = text("name", u.name)?;
    match u.value {
        Some(value) => {
            only(&["role", "name", "region", "value", "sensitive"])?;
            if value.chars().count() > LIMIT {
                return Err(invalid("\"until.value\" must be a string"));
            }
            Ok(Postcondition::ValueEquals {
                role,
                name,
                region,
                value,
                sensitive: u.sensitive.unwrap_or(false),
            })
        }
        None => {
            only(&["role", "name", "region"])?;
            Ok(Postcondition::Appears { role, name, region })
        }
    }
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidAction, message)
}

/// A short, quoted-safe preview of untrusted text for messages.
pub fn quote_short(s: &str) -> String {
    prufe::core::text::cap(s, 60).into_owned()
}

fn unexpected(key: &str, allowed: &[&str]) -> Error {
    Error::new(
        ErrorCode::InvalidFields,
        format!(
            "unexpected field {:?}; allowed: {}",
            quote_short(key),
            allowed.join(", ")
        ),
    )
}

fn finite(v: Option<f64>, key: &str) -> Result<f64, Error> {
    match v {
        Some(f) if f.is_finite() => Ok(f),
        Some(_) => Err(invalid(format!("\"{key}\" must be a finite number"))),
        None => Err(invalid(format!("missing \"{key}\""))),
    }
}

fn point(x: Option<f64>, y: Option<f64>) -> Result<Point, Error> {
    Ok(Point {
        x: finite(x, "x")?,
        y: finite(y, "y")?,
    })
}

fn finite_point(p: Point) -> Result<Point, Error> {
    point(Some(p.x), Some(p.y))
}

fn nested_point(p: Option<Object<WirePoint>>, key: &str) -> Result<Point, Error> {
    let Object(p) = p.ok_or_else(|| {
        invalid(format!(
            "\"{key}\" must be an object {{\"x\": …, \"y\": …}}"
        ))
    })?;
    point(p.x, p.y)
}

fn observation_id(id: Option<String>) -> Result<String, Error> {
    match id {
        Some(s) if !s.is_empty() && s.len() <= 64 => Ok(s),
        _ => Err(invalid("missing \"observation\": quote the id of the screenshot the point was chosen on (e.g. \"obs-3\")")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A 1280×800 image of a 2560×1600 capture.
    fn obs() -> Screen {
        serde_json::from_value(
            json!({"id": "obs-12", "image": {"width": 1280, "height": 800},
            "capture": {"width": 2560, "height": 1600}, "dpr": 2}),
        )
        .expect("a screen")
    }

    /// What the executor checks before a request read from `v` runs.
    fn parse_request(v: &Value, latest: Option<&Screen>) -> Result<Request, Error> {
        let request = parse_shape(v)?;
        check_against_observation(&request, latest)?;
        Ok(request)
    }

    #[test]
    fn validation_cases() {
        let o = obs();
        let code = |v: Value| parse_request(&v, Some(&o)).unwrap_err().code;
        for (name, v, want) in [
            (
                "outside x",
                json!({"action":"click_at","x":1412,"y":230,"observation":"obs-12"}),
                ErrorCode::PointOutOfBounds,
            ),
            (
                "negative",
                json!({"action":"click_at","x":-1,"y":230,"observation":"obs-12"}),
                ErrorCode::PointOutOfBounds,
            ),
            (
                "edge",
                json!({"action":"click_at","x":1280,"y":0,"observation":"obs-12"}),
                ErrorCode::PointOutOfBounds,
            ),
            (
                "stale",
                json!({"action":"click_at","x":412,"y":230,"observation":"obs-11"}),
                ErrorCode::StaleObservation,
            ),
            (
                "no observation",
                json!({"action":"click_at","x":412,"y":230}),
                ErrorCode::InvalidAction,
            ),
            (
                "no x",
                json!({"action":"click_at","y":230,"observation":"obs-12"}),
                ErrorCode::InvalidAction,
            ),
            (
                "string x",
                json!({"action":"click_at","x":"412","y":230,"observation":"obs-12"}),
                ErrorCode::InvalidAction,
            ),
            (
                "extra field",
                json!({"action":"click_at","x":1,"y":2,"observation":"obs-12","cmd":"rm -rf /"}),
                ErrorCode::InvalidFields,
            ),
            (
                "shell in screenshot",
                json!({"action":"screenshot","command":"ls"}),
                ErrorCode::InvalidFields,
            ),
            (
                "unknown action",
                json!({"action":"teleport"}),
                ErrorCode::InvalidAction,
            ),
            ("not an object", json!([1, 2]), ErrorCode::InvalidAction),
            (
                "drag out",
                json!({"action":"drag_at","from":{"x":1,"y":1},"to":{"x":1,"y":900},"observation":"obs-12"}),
                ErrorCode::PointOutOfBounds,
            ),
            (
                "drag extra",
                json!({"action":"drag_at","from":{"x":1,"y":1,"z":0},"to":{"x":1,"y":9},"observation":"obs-12"}),
                ErrorCode::InvalidFields,
            ),
            (
                "drag steps 0",
                json!({"action":"drag_at","from":{"x":1,"y":1},"to":{"x":1,"y":9},"observation":"obs-12","steps":0}),
                ErrorCode::InvalidAction,
            ),
            (
                "scroll no dy",
                json!({"action":"scroll_at","x":1,"y":1,"dx":0,"observation":"obs-12"}),
                ErrorCode::InvalidAction,
            ),
            (
                "empty text",
                json!({"action":"type","text":""}),
                ErrorCode::InvalidAction,
            ),
            (
                "bad chord",
                json!({"action":"key","chord":"Control+"}),
                ErrorCode::InvalidAction,
            ),
            (
                "two mains",
                json!({"action":"key","chord":"a+b"}),
                ErrorCode::InvalidAction,
            ),
            (
                "bad button",
                json!({"action":"click_at","x":1,"y":1,"observation":"obs-12","button":1}),
                ErrorCode::InvalidAction,
            ),
        ] {
            assert_eq!(code(v), want, "{name}");
        }
        assert!(
            parse_request(
                &json!({"action":"click_at","x":412,"y":230,"observation":"obs-12"}),
                None
            )
            .unwrap_err()
            .code
                == ErrorCode::StaleObservation
        );
    }

    #[test]
    fn messages_name_the_field_and_what_is_allowed() {
        let message = |v: Value| parse_shape(&v).unwrap_err().to_string();
        for (v, want) in [
            (
                json!({"action":"click_at","x":1,"y":2,"observation":"obs-12","cmd":"rm -rf /"}),
                "unexpected field \"cmd\"; allowed: action, x, y, observation, button, intent",
            ),
            (
                json!({"action":"type","text":"a","chord":"a"}),
                "unexpected field \"chord\"; allowed: action, text, sensitive",
            ),
            (
                json!({"action":"drag_at","from":{"x":1,"y":1,"z":0},"to":{"x":1,"y":9},"observation":"obs-12"}),
                "unexpected field \"from.z\"; allowed: x, y",
            ),
            (
                json!({"action":"wait","until":{"text":"x","role":"button"},"timeoutMs":10}),
                "unexpected field \"role\"; allowed: text, region",
            ),
            (
                json!({"action":"click_at","x":"412","y":230,"observation":"obs-12"}),
                "\"x\": invalid type: string \"412\", expected f64",
            ),
            (
                json!({"action":"click_at","x":1,"y":1,"observation":"obs-12","button":"up"}),
                "\"button\": unknown variant `up`, expected one of `left`, `middle`, `right`",
            ),
            (
                json!({"action":"teleport"}),
                "\"action\": unknown action \"teleport\": expected one of screenshot, click_at",
            ),
            (json!({"x":1}), "missing \"action\""),
            (
                json!([{"action":"screenshot"}]),
                "a step is a JSON object: invalid type: sequence",
            ),
            (
                json!({"action":"drag_at","from":[1,1],"to":{"x":1,"y":9},"observation":"obs-12"}),
                "\"from\": invalid type: sequence, expected a JSON object",
            ),
        ] {
            let got = message(v.clone());
            assert!(got.contains(want), "{v}\n  got: {got}\n  want: {want}");
        }
        // `null` counts as absent, as everywhere in the contract.
        assert_eq!(
            parse_shape(&json!({"action":"click_at","x":1,"y":2,"observation":"obs-12","button":null,"intent":null}))
                .unwrap()
                .kind(),
            "click_at"
        );
        match parse_shape(
            &json!({"action":"click_at","x":1,"y":2,"observation":"o","button":"right"}),
        )
        .unwrap()
        {
            Request::ClickAt { button, .. } => assert_eq!(button, Button::Right),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn valid_requests() {
        let o = obs();
        assert_eq!(
            parse_request(
                &json!({"action":"click_at","x":412,"y":230,"observation":"obs-12"}),
                Some(&o)
            )
            .unwrap(),
            Request::ClickAt {
                at: Point { x: 412.0, y: 230.0 },
                observation: "obs-12".into(),
                button: Button::Left,
                intent: None
            }
        );
        assert!(matches!(
            parse_request(&json!({"action":"screenshot","maxWidth":1280}), None).unwrap(),
            Request::Screenshot { max_width: Some(_) }
        ));
        assert!(matches!(
            parse_request(
                &json!({"action":"type","text":"Jaipur Kites won by 6 wickets."}),
                None
            )
            .unwrap(),
            Request::Type { .. }
        ));
        match parse_request(&json!({"action":"key","chord":"Control+S"}), None).unwrap() {
            Request::Key { chord } => assert_eq!(chord, "Control+S"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn built_requests_are_checked_as_read_ones() {
        let at = Point { x: 1.0, y: 2.0 };
        let o = || "obs-12".to_owned();
        let code = |r: Result<Request, Error>| r.unwrap_err().code;
        for (name, built) in [
            (
                "blank intent",
                Request::click_at(at, o(), Button::Left, Some(" ".into())),
            ),
            (
                "no observation",
                Request::click_at(at, String::new(), Button::Left, None),
            ),
            (
                "infinite x",
                Request::click_at(
                    Point {
                        x: f64::INFINITY,
                        y: 1.0,
                    },
                    o(),
                    Button::Left,
                    None,
                ),
            ),
            ("drag steps 0", Request::drag_at(at, at, o(), Some(0), None)),
            ("scroll NaN", Request::scroll_at(at, f64::NAN, 0.0, o())),
            ("empty text", Request::type_text(String::new(), false)),
            ("bad chord", Request::key("Control+".into())),
            (
                "wait no deadline",
                Request::wait(Some(Until::default()), None),
            ),
            (
                "wait no condition",
                Request::wait(Some(Until::default()), Some(10)),
            ),
            ("tiny screenshot", Request::screenshot(Some(0.5))),
        ] {
            assert_eq!(code(built), ErrorCode::InvalidAction, "{name}");
        }
        let wait = Until {
            text_gone: Some("Saving".into()),
            region: Some("main".into()),
            ..Until::default()
        };
        assert_eq!(
            Request::wait(Some(wait), Some(500)).unwrap(),
            parse_shape(&json!({"action":"wait","until":{"textGone":"Saving","region":"main"},"timeoutMs":500}))
                .unwrap()
        );
        assert_eq!(
            Request::drag_at(at, at, o(), None, None).unwrap(),
            parse_shape(&json!({"action":"drag_at","from":{"x":1,"y":2},"to":{"x":1,"y":2},"observation":"obs-12"}))
                .unwrap(),
            "ten moves unless told"
        );
    }

    #[test]
    fn ledger_releases_in_reverse_and_reports_failures() {
        let mut ledger = InputLedger::new();
        let ctrl = parse_key("Control").unwrap();
        let s = parse_key("s").unwrap();
        ledger.pressed(Held::Key(ctrl.clone()));
        ledger.pressed(Held::Key(s.clone()));
        ledger.pressed(Held::Button {
            button: Button::Left,
            at: Point { x: 1.0, y: 1.0 },
        });
        assert_eq!(ledger.modifiers(), 2);
        let mut order = Vec::new();
        let report = ledger.release_all(|h| {
            order.push(h.clone());
            true
        });
        assert_eq!(report, ReleaseReport { owed: 3, failed: 0 });
        assert!(matches!(order[0], Held::Button { .. }));
        assert_eq!(order[2], Held::Key(ctrl.clone()));
        assert!(ledger.held().is_empty());

        ledger.pressed(Held::Key(ctrl.clone()));
        ledger.pressed(Held::Button {
            button: Button::Left,
            at: Point { x: 0.0, y: 0.0 },
        });
        let report = ledger.release_all(|h| !matches!(h, Held::Button { .. }));
        assert_eq!(report, ReleaseReport { owed: 2, failed: 1 });
        assert!(!report.clean());
        assert_eq!(ledger.held().len(), 1, "a failed release stays owed");

        let mut ledger = InputLedger::new();
        ledger.pressed(Held::Key(s.clone()));
        ledger.released(&Held::Key(s));
        assert_eq!(ledger.release_all(|_| true).owed, 0);
    }

    #[test]
    fn every_key_the_machine_names_is_in_the_input_table() {
        for name in chord::NAMED {
            assert!(NAMED_KEYS.iter().any(|k| k.0 == *name), "{name}");
            assert!(!parse_key(name).unwrap().code.is_empty(), "{name}");
        }
    }

    #[test]
    fn chords_press_modifiers_first() {
        let chord = |spec: &str| encode_chord(&chord::pressed(&chord::canonical(spec)?));
        let keys = chord("ctrl+shift+K").unwrap();
        assert_eq!(
            keys.iter().map(|k| k.key.as_str()).collect::<Vec<_>>(),
            ["Control", "Shift", "K"]
        );
        assert_eq!(modifier_mask(&keys), 10);
        assert_eq!(chord("Enter").unwrap()[0].text.as_deref(), Some("\r"));
        assert!(chord("Control+Nope").is_err());
        assert!(encode_chord(&[]).is_err());
    }

    #[test]
    fn intents_and_waits_validate() {
        let o = obs();
        match parse_request(&json!({"action":"click_at","x":1,"y":2,"observation":"obs-12","intent":"the note is saved"}), Some(&o)).unwrap() {
            Request::ClickAt { intent, .. } => assert_eq!(intent.as_deref(), Some("the note is saved")),
            other => panic!("{other:?}"),
        }
        let code = |v: Value| parse_request(&v, Some(&o)).unwrap_err().code;
        for (name, v, want) in [
            (
                "blank intent",
                json!({"action":"click_at","x":1,"y":2,"observation":"obs-12","intent":" "}),
                ErrorCode::InvalidAction,
            ),
            (
                "intent on type",
                json!({"action":"type","text":"a","intent":"x"}),
                ErrorCode::InvalidFields,
            ),
            (
                "wait without deadline",
                json!({"action":"wait","until":{"role":"status","name":"Saved"}}),
                ErrorCode::InvalidAction,
            ),
            (
                "wait zero deadline",
                json!({"action":"wait","until":{"role":"status","name":"Saved"},"timeoutMs":0}),
                ErrorCode::InvalidAction,
            ),
            (
                "wait over deadline",
                json!({"action":"wait","until":{"text":"Saved"},"timeoutMs":MAX_WAIT_MS + 1}),
                ErrorCode::InvalidAction,
            ),
            (
                "wait without until",
                json!({"action":"wait","timeoutMs":10}),
                ErrorCode::InvalidAction,
            ),
            (
                "wait bad role",
                json!({"action":"wait","until":{"role":"thing","name":"x"},"timeoutMs":10}),
                ErrorCode::InvalidAction,
            ),
            (
                "wait no name",
                json!({"action":"wait","until":{"role":"button"},"timeoutMs":10}),
                ErrorCode::InvalidAction,
            ),
            (
                "wait extra",
                json!({"action":"wait","until":{"text":"x","role":"button"},"timeoutMs":10}),
                ErrorCode::InvalidFields,
            ),
            (
                "wait text and text gone",
                json!({"action":"wait","until":{"text":"x","textGone":"y"},"timeoutMs":10}),
                ErrorCode::InvalidFields,
            ),
            (
                "wait empty text gone",
                json!({"action":"wait","until":{"textGone":" "},"timeoutMs":10}),
                ErrorCode::InvalidAction,
            ),
            (
                "wait value number",
                json!({"action":"wait","until":{"role":"textbox","name":"T","value":3},"timeoutMs":10}),
                ErrorCode::InvalidAction,
            ),
            (
                "wait shell",
                json!({"action":"wait","until":{"text":"x"},"timeoutMs":10,"cmd":"ls"}),
                ErrorCode::InvalidFields,
            ),
        ] {
            assert_eq!(code(v), want, "{name}");
        }
        let wait = |until: Value| match parse_request(
            &json!({"action":"wait","until":until,"timeoutMs":500}),
            None,
        )
        .unwrap()
        {
            Request::Wait { until, timeout_ms } => {
                assert_eq!(timeout_ms, 500);
                until
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(
            wait(json!({"role":"heading","name":"BB-042"})),
            Postcondition::Appears {
                role: Role::Heading,
                name: "BB-042".into(),
                region: None
            }
        );
        assert!(matches!(
            wait(json!({"role":"textbox","name":"Title","value":"BB-042","sensitive":true})),
            Postcondition::ValueEquals {
                sensitive: true,
                ..
            }
        ));
        assert!(matches!(
            wait(json!({"text":"Saved","region":"main"})),
            Postcondition::TextAppears { .. }
        ));
        assert_eq!(
            wait(json!({"textGone":"Connection lost"})),
            Postcondition::TextGone {
                text: "Connection lost".into(),
                region: None
            }
        );
    }

    #[test]
    fn ledger_reports_held_buttons_and_release_order() {
        let mut ledger = InputLedger::new();
        let shift = parse_key("Shift").unwrap();
        ledger.pressed(Held::Key(shift.clone()));
        ledger.pressed(Held::Button {
            button: Button::Left,
            at: Point { x: 1.0, y: 2.0 },
        });
        ledger.pressed(Held::Button {
            button: Button::Right,
            at: Point { x: 1.0, y: 2.0 },
        });
        assert_eq!(ledger.buttons(), 3);
        assert_eq!(ledger.modifiers(), 8);
        let order = ledger.newest_first();
        assert!(matches!(
            order[0],
            Held::Button {
                button: Button::Right,
                ..
            }
        ));
        assert_eq!(order[2], Held::Key(shift));
        assert_eq!(ledger.held().len(), 3, "listing the order releases nothing");
    }
}
