//! What the machine asks of its driver ([`Need`]) and what the driver answers ([`Answer`]).
//!
//! Every need names one browser operation the driver performs and answers with exactly one
//! answer; the pairs are listed on [`Need`]. A need that fails is answered with
//! [`Answer::Failed`] and the error the operation raised (its code decides what the machine
//! does next: a recycled node is observed again, a covered one ends the step). Both are
//! tagged JSON objects (`{"need":"observe",…}`, `{"answer":"observed",…}`) so a driver in
//! any language reads and writes them without a schema of its own.

use super::hitbox::HitBox;
use super::navigation::Destination;
pub use super::point::Point;
use super::ready::{FrameBox, Refusal, Size};
use super::record::Record;
use crate::core::background::Background;
use crate::core::error::Error;
use crate::core::model::{Element, Snapshot};
use serde::{Deserialize, Serialize};

/// A mouse button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Button {
    #[default]
    Left,
    Middle,
    Right,
}

impl Button {
    /// The name on the wire, the one CDP's `Input.dispatchMouseEvent` takes: `left`,
    /// `middle`, `right`.
    pub fn as_cdp(self) -> &'static str {
        match self {
            Button::Left => "left",
            Button::Middle => "middle",
            Button::Right => "right",
        }
    }

    /// The button's bit in a `buttons` mask (UI Events, `MouseEvent.buttons`).
    // https://w3c.github.io/uievents/#dom-mouseevent-buttons
    pub fn mask(self) -> i64 {
        match self {
            Button::Left => 1,
            Button::Right => 2,
            Button::Middle => 4,
        }
    }
}

/// The next thing the driver must do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "need",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Need {
    /// Poll the fingerprint every `poll_ms` until it has not changed for `quiet_ms`, at most
    /// `timeout_ms`. With `since` (the fingerprint read right before an action), first wait
    /// for it to leave that value; a page that never leaves it is quiet throughout, so
    /// `stable`. With `stop_on_change`, answer as soon as the fingerprint moves (`changed`,
    /// not `stable`): the machine takes a snapshot to learn what the page changed by itself.
    /// A fingerprint that cannot be read (a document being replaced) counts as a change.
    /// The fingerprint leaves out what is in a slot of `background` (what the page was seen
    /// changing by itself before the action: a clock, a ticker, a carousel's slides), so
    /// the page is quiet over what the judge will look at. Answer: [`Answer::Settled`].
    Settle {
        since: Option<String>,
        poll_ms: u64,
        quiet_ms: u64,
        timeout_ms: u64,
        stop_on_change: bool,
        #[serde(default, skip_serializing_if = "Background::is_empty")]
        background: Background,
        /// After the fingerprint left `since`: a shorter quiet window, taken when the page
        /// says it has shown no sign of change for that long (no mutation, no animation,
        /// `quietFor`); such a settle ends [`Answer::Quick`]. 0: none.
        #[serde(default, skip_serializing_if = "is_zero")]
        quick_ms: u64,
        /// Leaving `since` counts in the fingerprint's claims too (the focus, the order of the
        /// records, the selection: `core::fingerprint::with_claims`), not only in the part the
        /// diff decides: for a step whose effect may be only that (a key, a drag). Elsewhere a
        /// focus that moves with the click is no sign that its effect has come.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        claims: bool,
    },
    /// Read the fingerprint once, leaving out `background` as [`Need::Settle`] does. Answer:
    /// [`Answer::Fingerprint`], or [`Answer::Failed`] with the error as it came when the page
    /// cannot give it (read once: the machine decides what a failure means, and a transient
    /// one is a move of the page it waits through).
    Fingerprint {
        #[serde(default, skip_serializing_if = "Background::is_empty")]
        background: Background,
    },
    /// Take a merged snapshot of the page (every frame), with the refs in `sensitive`
    /// declared sensitive (from now on, for the rest of the tab's life). Answer:
    /// [`Answer::Observed`], or [`Answer::Failed`] with the error as it came (a transient
    /// one, while the document is replaced, is no observation: [`Answer::Unavailable`]). A
    /// driver with several roots may answer [`Answer::Roots`] instead, and the machine asks
    /// each root ([`super::whole`]); so may it for [`Need::Fingerprint`] and [`Need::Settle`].
    Observe { sensitive: Vec<String> },
    /// The live record of a ref (`prufe.describe`). Answer: [`Answer::Described`].
    Describe {
        #[serde(rename = "ref")]
        reference: String,
    },
    /// Make the element behind a ref ready for input, in the root the ref names: a stable,
    /// non-empty box; in view (else scroll it there and answer [`Answer::Scrolled`]); with
    /// `hit_test`, the root document's hit test at its centre lands on it. Answer:
    /// [`Answer::Prepared`] with the point input goes to, or [`Answer::Refused`] saying why
    /// it is not ready; a point in that root's own viewport (the machine moves a frame's to
    /// the top viewport: [`Need::Frame`]). Input on a ref afterwards goes to the node this
    /// prepare found.
    Prepare {
        #[serde(rename = "ref")]
        reference: String,
        hit_test: bool,
    },
    /// Where frame roots show: the `<iframe>` content box, in the top viewport, of the root
    /// at each of `paths` (in their order; one whose `<iframe>` is no longer on the page
    /// left out), and the top viewport's size. Answer: [`Answer::Frame`].
    Frame { paths: Vec<String> },
    /// What input at `at` (a point of the viewport of the root just above the root at
    /// `path`) lands on in that document when not on the `<iframe>` of `path` or inside it
    /// (`prufe.hitTest` called on the `<iframe>`). Answer: [`Answer::Hit`].
    HitFrame { path: String, at: Point },
    /// Scroll the `<iframe>` of the root at `path` into view in every document above it.
    /// Answer: [`Answer::Scrolled`].
    RevealFrame { path: String },
    /// Take a step's picture ([`super::camera`]): every secret covered (`sensitive`, the refs
    /// observed sensitive, and the caller's), the viewport captured, marked with the boxes
    /// of `target`, of the `effect`'s refs and the `point`, and kept as the step's `moment`
    /// picture (a `before` one replaces both). Answer: [`Answer::Pictured`], also when no
    /// picture could be taken.
    Picture {
        moment: Moment,
        #[serde(default)]
        target: Option<String>,
        #[serde(default)]
        effect: Vec<String>,
        #[serde(default)]
        point: Option<Point>,
        #[serde(default)]
        sensitive: Vec<String>,
    },
    /// Capture the top viewport for a coordinate step's observation (the page's secrets
    /// covered, at the size the driver was asked for) and keep the picture: the driver shows
    /// the last one once the observation is done ([`super::Run::shot`]). Answer:
    /// [`Answer::Captured`].
    Capture,
    /// Send a gesture through the browser's input pipeline. Answer: [`Answer::Sent`].
    Input { gesture: Gesture },
    /// Read something back from the page. Answer: the [`Read`]'s own answer.
    Read { read: Read },
    /// A watch: let the watched actions happen now (the watch's own steps, performed
    /// unverified, or the caller's code) and answer once they are done. Answer:
    /// [`Answer::Acted`].
    Act,
    /// Ask the arbiter whether an AMBIGUOUS effect is the one intended, waiting at most
    /// `timeout_ms` ([`ASK_TIMEOUT_MS`]) for it. Answer: [`Answer::Arbiter`] with what it
    /// said, cut to `max_chars` ([`super::arbiter::SAID_MAX_CHARS`]), which the machine
    /// reads; [`Answer::NoArbiter`] when none is configured; an arbiter that has not answered
    /// by then is answered [`Answer::Failed`] with `TIMEOUT`, and one that could not be asked
    /// [`Answer::Failed`] saying why. The machine words each and counts it as no.
    Ask {
        question: Question,
        timeout_ms: u64,
        max_chars: u64,
    },
    /// Wait `ms` (0: not at all) and answer the driver's clock ([`super::whole`]'s settle
    /// loop). Answer: [`Answer::Waited`].
    Wait { ms: u64 },
    /// The step is over: its record, with `error` set when it failed. Further answers are
    /// ignored and the same record is returned.
    Done { record: Box<Record> },
}

/// Input the driver sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Gesture {
    /// Move, press and release at a point.
    Click {
        at: Point,
        #[serde(default)]
        button: Button,
    },
    /// Move the pointer (a hover, the arrival before a press, moving away after a hover, a
    /// move of a drag), with whatever buttons are held.
    MoveTo { at: Point },
    /// Move to `at` and press `button` there, and keep it down: a drag's start. The machine
    /// always follows it with a [`Gesture::Up`], also when a need after it fails.
    Down {
        at: Point,
        #[serde(default)]
        button: Button,
    },
    /// Move to `at` with the buttons held and release `button` there: a drag's drop, or,
    /// over the drag's start, its abandon.
    Up {
        at: Point,
        #[serde(default)]
        button: Button,
    },
    /// Focus the element behind `ref` and, with `select`, select its content (a field's
    /// text, an editable element's contents) so that typing replaces it; answer
    /// [`Answer::Focus`]: whether the focus is then on the element or inside it. The machine
    /// decides what follows (a click where a person's would put the focus, `FOCUS_LOST`, the
    /// keys of a press).
    Focus {
        #[serde(rename = "ref")]
        reference: String,
        select: bool,
    },
    /// Press a key or a chord, on the element behind `ref` (focused first) or on whatever
    /// has the focus: `keys` down in their order, then up in reverse. The keys by their
    /// canonical names, modifiers first and the key they modify last (`Shift+Tab` is
    /// `["Shift", "Tab"]`, `Shift++` is `["Shift", "+"]`); the driver splits nothing.
    Press {
        #[serde(rename = "ref")]
        reference: Option<String>,
        keys: Vec<String>,
    },
    /// Choose the option whose label or value is `option`.
    Select {
        #[serde(rename = "ref")]
        reference: String,
        option: String,
    },
    /// Put a select back to the value it had.
    Restore {
        #[serde(rename = "ref")]
        reference: String,
        value: String,
    },
    /// Set the files of a file input.
    SetFiles {
        #[serde(rename = "ref")]
        reference: String,
        files: Vec<String>,
    },
    /// Navigate the tab and wait until the new document answers.
    Navigate { url: String },
    /// Go back in history and wait for the document; fail when there is no entry to go to.
    GoBack,
    /// Move the pointer to `at` and turn the wheel by `dx`, `dy` CSS pixels.
    Wheel { at: Point, dx: f64, dy: f64 },
    /// Insert `text` where the focus is, as an input method commits it (no key events).
    Insert { text: String },
}

/// Which of a step's pictures: before its input, or of its effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Moment {
    Before,
    After,
}

/// What to read back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Read {
    /// A field's raw value (for the undo; never logged). Answer: [`Answer::Value`].
    Value {
        #[serde(rename = "ref")]
        reference: String,
    },
    /// `prufe.hash(value)` in the field's document. Answer: [`Answer::Hash`].
    Hash {
        #[serde(rename = "ref")]
        reference: String,
        value: String,
    },
    /// Where activating the element would load a new document. Answer:
    /// [`Answer::Destination`].
    Destination {
        #[serde(rename = "ref")]
        reference: String,
    },
    /// The main frame's address. Answer: [`Answer::Address`].
    Address,
    /// The address of the tab's previous history entry, empty when there is none. Answer:
    /// [`Answer::Address`].
    Previous,
    /// The focused observable element of the top document: the `<iframe>` of a frame of
    /// another origin when the focus is inside one, which the machine follows
    /// ([`Read::Roots`], [`Read::FocusedIn`]). Answer: [`Answer::Focused`].
    Focused,
    /// The paths of the page's roots: the top document (`""`) and every frame of another
    /// origin with an engine of its own. Answer: [`Answer::Roots`].
    Roots,
    /// Whether the document of the root at `path` has the focus (`document.hasFocus()`), and
    /// its focused observable element, in that root's own terms. Answer:
    /// [`Answer::FocusedIn`].
    FocusedIn { path: String },
    /// The observable element under `at`, a point of the viewport of the root at `path`
    /// (`prufe.at` there), in that root's own terms: an `<iframe>` of another root is an
    /// opaque `iframe` record, which the machine looks into itself (`run::locate`). Answer:
    /// [`Answer::Under`].
    Under { path: String, at: Point },
    /// The hit boxes of the root at `path` (`prufe.hitBoxes` there), in its own viewport and
    /// terms. Answer: [`Answer::HitBoxes`].
    HitBoxes { path: String },
    /// The hit boxes of the observation the step's points were chosen on, as the driver
    /// keeps them (top-viewport CSS pixels, the page's terms). Answer: [`Answer::Aimed`].
    Aimed,
    /// With `at`, the scroll container under that point (the page when none is), kept for
    /// the reads without `at`, which say where that one stands now. Answer:
    /// [`Answer::Position`].
    Scroll {
        #[serde(default)]
        at: Option<Point>,
    },
    /// Right before typing: the raw value and selection of the field of `ref` when the focus
    /// is on it (never logged). Answer: [`Answer::Selection`].
    Selection {
        #[serde(rename = "ref")]
        reference: String,
    },
    /// What the driver heard of the page's requests since the last input (the machine counts
    /// those still at work, `recent_ms` after they ended included: `run::requests`). Answer:
    /// [`Answer::Network`], or [`Answer::Unavailable`] from a driver that does not see the
    /// page's requests.
    Network { recent_ms: u64 },
    /// The snapshot of the root at `path` alone (`prufe.snapshot` there), in its own terms,
    /// with its refs in `sensitive` (its own) declared sensitive ([`super::whole`]). Answer:
    /// [`Answer::Observed`], or [`Answer::Failed`] as it came.
    Snapshot {
        path: String,
        sensitive: Vec<String>,
    },
    /// The fingerprint of the root at `path` leaving out `background` as seen from that root
    /// (`prufe.fingerprint({ background, root: path })` there), then its `quietFor`
    /// ([`super::whole`]). Answer: [`Answer::Pulse`], or [`Answer::Failed`] as it came.
    Pulse {
        path: String,
        #[serde(default, skip_serializing_if = "Background::is_empty")]
        background: Background,
    },
}

/// Where a scroll container stands, and the page with it (CSS pixels).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScrollPosition {
    /// What the container is, for a person: `the page`, or `div#list in list[Results]`;
    /// given when it is found ([`Read::Scroll`] with `at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<String>,
    pub left: f64,
    pub top: f64,
    pub page_left: f64,
    pub page_top: f64,
}

impl ScrollPosition {
    /// The same place, whatever the container is called.
    pub fn same_place(&self, other: &ScrollPosition) -> bool {
        (self.left, self.top, self.page_left, self.page_top)
            == (other.left, other.top, other.page_left, other.page_top)
    }
}

/// A focused field's raw value and selection (UTF-16 offsets, as the page counts them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Selection {
    /// `None`: the element has no value to read back.
    #[serde(default)]
    pub value: Option<String>,
    #[serde(default)]
    pub start: Option<u32>,
    #[serde(default)]
    pub end: Option<u32>,
}

/// How long the arbiter may take to answer a [`Need::Ask`], end to end, on every surface.
pub const ASK_TIMEOUT_MS: u64 = 10_000;

/// What the arbiter is asked. Every string in it is redacted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Question {
    pub action: String,
    pub target: Option<String>,
    pub intent: Option<String>,
    /// The diff lines of the effect.
    pub observed: Vec<String>,
    /// Why the judge could not decide.
    pub reason: String,
    pub stable: bool,
    /// The OpenAI-compatible chat request the machine asks with (`prompt`), built from the
    /// fields above: an arbiter that asks a model adds the model's name and POSTs it.
    pub chat: Chat,
}

/// An OpenAI-compatible chat completions request without its `model`, in that API's own
/// field names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Chat {
    pub temperature: u32,
    pub max_tokens: u32,
    pub messages: Vec<ChatMessage>,
}

/// One message of a [`Chat`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ChatMessage {
    /// `system` or `user`.
    pub role: String,
    pub content: String,
}

/// The driver's answer to the last need.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "answer",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Answer {
    /// The first call: nothing asked yet.
    Start,
    Settled {
        /// The last fingerprint read.
        fingerprint: String,
        stable: bool,
        /// The fingerprint left its first value (or `since`).
        changed: bool,
        waited_ms: u64,
    },
    /// A settle with `quick_ms` that ended on it: the fingerprint left `since` and the
    /// page then said it had shown no sign of change for `quick_ms` (stable and changed).
    Quick {
        fingerprint: String,
        waited_ms: u64,
    },
    Fingerprint {
        fingerprint: String,
    },
    Observed {
        snapshot: Snapshot,
    },
    /// No observation could be taken: the document is being replaced.
    Unavailable,
    /// `None`: the node is gone.
    Described {
        element: Option<Element>,
    },
    Prepared {
        point: Point,
    },
    /// The element was out of view and has been scrolled: observe again.
    Scrolled,
    /// The element is not ready for input; the machine words the error
    /// ([`Refusal::error`]).
    Refused {
        refusal: Refusal,
    },
    Under {
        element: Option<Element>,
    },
    /// [`Read::HitBoxes`].
    HitBoxes {
        boxes: Vec<HitBox>,
    },
    /// [`Read::Aimed`]: `None` when the step was not aimed on an observation.
    Aimed {
        boxes: Option<Vec<HitBox>>,
    },
    /// [`Need::Frame`]'s boxes, in the order asked, and the top viewport.
    Frame {
        chain: Vec<FrameBox>,
        viewport: Size,
    },
    /// `None`: input there reaches the frame; else what it lands on (`tag#id.class "text"`).
    Hit {
        by: Option<String>,
    },
    Sent,
    /// [`Need::Capture`]: the picture is taken and kept.
    Captured,
    /// [`Need::Picture`]: taken and kept, or not taken.
    Pictured,
    /// What [`Gesture::Focus`] left: the focus on the element or inside it (`held`), or
    /// elsewhere (the page moved it, or the element takes no focus from a script).
    Focus {
        held: bool,
    },
    /// `None`: the element has no value.
    Value {
        value: Option<String>,
    },
    Hash {
        hash: String,
    },
    Destination {
        destination: Option<Destination>,
    },
    Address {
        url: String,
    },
    Focused {
        element: Option<Element>,
    },
    /// [`Read::Roots`]: the top first.
    Roots {
        paths: Vec<String>,
    },
    /// [`Read::FocusedIn`].
    FocusedIn {
        has: bool,
        element: Option<Element>,
    },
    /// `None`: no container is kept (the document was replaced).
    Position {
        position: Option<ScrollPosition>,
    },
    /// `None`: the focus is not on the field.
    Selection {
        selection: Option<Selection>,
    },
    /// What [`Read::Network`] asks, as the driver recorded it, in ms before this answer:
    /// since the last input was sent (`None` before the first), and each request heard of
    /// since then.
    Network {
        input_ms_ago: Option<f64>,
        requests: Vec<super::requests::Heard>,
    },
    /// What the arbiter said, as it said it: an OpenAI-compatible chat completion's body,
    /// or the JSON of what a caller's arbiter returned (`"YES"`, `true`, `{ "yes", "detail" }`,
    /// `[yes, detail]`), at most the need's `max_chars`. The machine reads it
    /// ([`super::arbiter::read`]): only a clean yes approves.
    Arbiter {
        said: String,
    },
    /// No arbiter is configured: the machine words it and counts it as no.
    NoArbiter,
    /// The watched actions are done; `steps` is how many steps the driver performed for
    /// them (0 when the caller's code acted).
    Acted {
        #[serde(default)]
        steps: u32,
    },
    /// [`Read::Pulse`]: the root's fingerprint and how long it has shown no sign of change
    /// (ms).
    Pulse {
        fingerprint: String,
        quiet_for: f64,
    },
    /// [`Need::Wait`]: the driver's clock once waited, in ms from any origin it keeps for the
    /// tab (never going back).
    Waited {
        now: f64,
    },
    /// The need could not be met.
    Failed {
        error: Error,
    },
}

impl Answer {
    /// The wire name, for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Answer::Start => "start",
            Answer::Settled { .. } => "settled",
            Answer::Quick { .. } => "quick",
            Answer::Fingerprint { .. } => "fingerprint",
            Answer::Observed { .. } => "observed",
            Answer::Unavailable => "unavailable",
            Answer::Described { .. } => "described",
            Answer::Prepared { .. } => "prepared",
            Answer::Scrolled => "scrolled",
            Answer::Refused { .. } => "refused",
            Answer::Under { .. } => "under",
            Answer::HitBoxes { .. } => "hitBoxes",
            Answer::Aimed { .. } => "aimed",
            Answer::Frame { .. } => "frame",
            Answer::Hit { .. } => "hit",
            Answer::Sent => "sent",
            Answer::Captured => "captured",
            Answer::Pictured => "pictured",
            Answer::Focus { .. } => "focus",
            Answer::Value { .. } => "value",
            Answer::Hash { .. } => "hash",
            Answer::Destination { .. } => "destination",
            Answer::Address { .. } => "address",
            Answer::Focused { .. } => "focused",
            Answer::Roots { .. } => "roots",
            Answer::FocusedIn { .. } => "focusedIn",
            Answer::Position { .. } => "position",
            Answer::Selection { .. } => "selection",
            Answer::Network { .. } => "network",
            Answer::Arbiter { .. } => "arbiter",
            Answer::NoArbiter => "noArbiter",
            Answer::Acted { .. } => "acted",
            Answer::Pulse { .. } => "pulse",
            Answer::Waited { .. } => "waited",
            Answer::Failed { .. } => "failed",
        }
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
