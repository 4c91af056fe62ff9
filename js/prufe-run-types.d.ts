// Generated from the Rust types by `make types` (src/types.rs): do not edit.
// The wire shapes of the machine's types: a step, its policy, the needs, the answers and the record
// (js/prufe-run.d.ts declares the module's functions).

/// <reference path="prufe-types.d.ts" />

declare namespace PrufeRun {
  /** A mouse button. */
  type Button = 'left' | 'middle' | 'right';

  /** A size in pixels. */
  interface Size {
    width: number;
    height: number;
  }

  /**
   * The box of an observable element (`prufe.hitBoxes`), in CSS pixels of a viewport: the top
   * one in a screenshot's boxes, a root's own in what that root answers.
   */
  interface HitBox {
    element: Prufe.ElementRecord;
    x: number;
    y: number;
    width: number;
    height: number;
    /** The element was the topmost at the centre of its visible part (not covered). */
    topmost: boolean;
  }

  /**
   * What a screenshot issued: the id a step quotes, the size of the image the caller saw
   * (points are given in its pixels), the capture's size in device pixels before any
   * downscale, the page's pixel ratio, and the hit boxes taken with it.
   */
  interface Screen {
    id: string;
    image: Size;
    capture: Size;
    /** The device pixel ratio; anything not above zero counts as 1. */
    dpr: number;
    boxes?: HitBox[];
  }

  /** A pointer step as the caller chose it: points in image pixels of a screenshot. */
  type Pick =
    | { kind: 'clickAt'; at: Prufe.Point; button?: Button }
    /** `steps`: the moves on the way, an integer from 1 to 200 (10 when left out). */
    | { kind: 'dragAt'; from: Prufe.Point; to: Prufe.Point; steps?: number }
    /** A wheel turn of `dx`, `dy` image pixels, scaled as points are. */
    | { kind: 'scrollAt'; at: Prufe.Point; dx: number; dy: number };

  /** The one error shape. `message` never carries a secret: it is built from redacted data. */
  interface ErrorData {
    code: Prufe.ErrorCode;
    message: string;
    candidates?: Prufe.Candidate[];
  }

  /**
   * What a step does. Semantic actions name their target; `clickAt` and `dragAt` act on a
   * point and carry what the observation showed there.
   */
  type Action =
    | { kind: 'click'; target: Prufe.Target }
    /** A `sensitive` value is typed but never shown; the judge compares its keyed hash. */
    | { kind: 'fill'; target: Prufe.Target; value: string; sensitive?: boolean }
    | { kind: 'check'; target: Prufe.Target }
    | { kind: 'uncheck'; target: Prufe.Target }
    | { kind: 'select'; target: Prufe.Target; option: string }
    | { kind: 'press'; key: string; target?: Prufe.Target | null }
    | { kind: 'hover'; target: Prufe.Target }
    | { kind: 'upload'; target: Prufe.Target; files: string[] }
    | { kind: 'drag'; target: Prufe.Target; to: Prufe.Target }
    | { kind: 'goto'; url: string }
    /**
     * A click on a point (CSS pixels of the top viewport). `expected` is the element the
     * observation showed there (from its hit boxes), `None` when it showed none; `shown`
     * is how the record names the point (`(120, 48) on obs-3`).
     */
    | {
      kind: 'clickAt';
      at: Prufe.Point;
      button?: Button;
      expected?: Prufe.ElementRecord | null;
      shown?: string | null;
    }
    /**
     * Observe while something else acts: the driver's own unverified `steps` (a script's
     * watch), or the caller's code (another client, an agent) when there are none. The
     * machine settles and observes, asks the driver to let the watched actions happen
     * (`super::Need::Act`), settles again and judges what changed against the intent
     * alone. Nothing is undone. The machine never reads `steps`: the driver runs them.
     */
    | { kind: 'watch'; steps?: Step[] }
    /** A pointer drag from one point to another, in `steps` moves. */
    | {
      kind: 'dragAt';
      from: Prufe.Point;
      to: Prufe.Point;
      expected?: Prufe.ElementRecord | null;
      expectedTo?: Prufe.ElementRecord | null;
      shown?: string | null;
      steps?: number;
    }
    /**
     * A key chord (`Control+S`, `Tab`) on whatever has the focus, every key released in
     * reverse order: sent, settled, and the focus read after (where typing goes next). Not
     * judged: a wait states what should follow it.
     */
    | { kind: 'key'; chord: string }
    /**
     * A wheel turn of `dx`, `dy` CSS pixels at a point. `expected` is the element the
     * observation showed there, `shown` how the record names the point. The run checks the
     * point, finds the scroll container under it, and waits until it stops moving; the
     * record says where it stands, and whether it moved.
     */
    | {
      kind: 'scrollAt';
      at: Prufe.Point;
      dx?: number;
      dy?: number;
      expected?: Prufe.ElementRecord | null;
      shown?: string | null;
    }
    /**
     * Text typed where the focus is, into `field` (the field the last click or key left
     * focused; `None`: whatever field has the focus). Nothing is typed when the focus is
     * elsewhere (`FOCUS_LOST`); the field is read back after. A `sensitive` text, or any text
     * typed into a sensitive field, is compared by keyed hash and never shown.
     */
    | { kind: 'typeText'; text: string; field?: Prufe.ElementRecord | null; sensitive?: boolean };

  /**
   * One step: an action, the intent it serves, the typed claims its effect must bear out
   * (`expect`, see `core::expect`), and the steps that undo it where no generic inverse
   * exists (`inverse`: a file chosen, a drop, a key that reorders a list; see
   * `Step::check_inverse` for what an inverse may be).
   */
  interface Step {
    action: Action;
    expect?: Claim[];
    intent?: string | null;
    inverse?: Step[];
  }

  /**
   * A claimed value: `true`/`false`, `"mixed"` for `checked` and `pressed`, a string for
   * `value`.
   */
  type ClaimState = boolean | string;

  /** One typed claim about a step's own effect. Tagged by `kind` on the wire. */
  type Claim =
    /** An element matching `target` appeared (or became visible). */
    | { kind: 'appears'; target: Prufe.Target }
    /** An element matching `target` is gone or hidden. */
    | { kind: 'disappears'; target: Prufe.Target }
    /** A field of the element changed, from and to the values given (each optional). */
    | {
      kind: 'changes';
      target: Prufe.Target;
      field:
        | 'checked' | 'pressed' | 'selected' | 'expanded' | 'value' | 'disabled' | 'visible'
        | 'focused';
      from?: ClaimState | null;
      to?: ClaimState | null;
    }
    /** The element moved: to another list or region, or to a position in its list. */
    | {
      kind: 'moves';
      target: Prufe.Target;
      /** From 1, among the visible elements of its role in its region, after the action. */
      position?: number | null;
      to?: { list?: string | null; region?: string | null } | null;
    }
    /** The element must not change. */
    | { kind: 'stays'; target: Prufe.Target }
    /** The action loaded a new document at an address matching `url` (see the module docs). */
    | { kind: 'navigates'; url: string }
    /** After the action, exactly `n` visible elements match `target`. */
    | { kind: 'count'; target: Prufe.Target; n: number }
    /**
     * A text run appeared (containing `text`, or equal to it with `exact`), in `region` when
     * given.
     */
    | { kind: 'text'; text: string; exact?: boolean; region?: string | null };

  /** One claim and what satisfied or broke it, as the record shows it. */
  interface ClaimOutcome {
    /** The claim as written: `appears listitem[Shirt M] in cart`. */
    claim: string;
    status: 'held' | 'broken' | 'absent';
    /** What the page showed: `appeared listitem[Shirt M] in cart`. */
    evidence: string;
  }

  /** Polling parameters of a settle, in milliseconds. */
  interface Timing {
    pollMs?: number;
    /**
     * After an action's effect showed: the quiet window taken instead of `quiet_ms` when
     * the page says it has shown no sign of change for this long (no mutation, no
     * animation) and the driver sees no request the page started since the input still
     * under way or just ended. 0: always `quiet_ms`. Only for a driver that answers
     * `Read::Network`.
     */
    quickMs?: number;
    quietMs?: number;
    timeoutMs?: number;
  }

  /** What to do with AMBIGUOUS. */
  type Ambiguous =
    /** Treat it as a failure: undo, retry, stop. In doubt, the action is not approved. */
    | 'reject'
    /** Let it pass. */
    | 'accept'
    /** Ask the arbiter (`Need::Ask`) and do what it says. */
    | 'arbiter';

  /** How a run verifies. */
  interface Policy {
    ambiguous?: Ambiguous;
    /** Leave these regions out of the judgement. */
    ignoreRegions?: string[];
    /** Attempts per step, the first included (at least one). */
    maxAttempts?: number;
    /**
     * The driver keeps the step's pictures: the run asks for them (`run::camera`). Left out
     * of the policy's JSON when false.
     */
    pictures?: boolean;
    /** Judge only these regions (prefixes). */
    regions?: string[];
    /**
     * The forms of every secret the caller registered in the session so far (the
     * module's `secretForms`, a driver's list as it holds it). The run scrubs them, with the
     * step's own, from all it says: the record, an error, the arbiter's question. Never
     * shown; left out of the policy's JSON when empty.
     */
    secrets?: string[];
    timing?: Timing;
  }

  /** A dialog as the DevTools protocol reports it, and how it was answered. */
  interface Dialog {
    /** `alert`, `confirm`, `prompt` or `beforeunload`. */
    type: string;
    message: string;
    /** Accepted (OK) rather than dismissed; a prompt's text is never recorded. */
    accepted: boolean;
  }

  /**
   * The driver's last observation of a document and the fingerprint it was taken at: hand
   * it to the next run (`Run::with_seen`) so that what the page changed by itself since is
   * learnt as background. It carries the background learnt on that document so far: a clock
   * that ticked before one step still ticks before the next, and the next run starts from
   * it instead of waiting for the page to show it again.
   */
  interface Seen {
    fingerprint: string;
    snapshot: Prufe.Snapshot;
    background?: Prufe.Background;
  }

  /** Input the driver sends. */
  type Gesture =
    /** Move, press and release at a point. */
    | { kind: 'click'; at: Prufe.Point; button: Button }
    /**
     * Move the pointer (a hover, the arrival before a press, moving away after a hover, a
     * move of a drag), with whatever buttons are held.
     */
    | { kind: 'moveTo'; at: Prufe.Point }
    /**
     * Move to `at` and press `button` there, and keep it down: a drag's start. The machine
     * always follows it with a `Gesture::Up`, also when a need after it fails.
     */
    | { kind: 'down'; at: Prufe.Point; button: Button }
    /**
     * Move to `at` with the buttons held and release `button` there: a drag's drop, or,
     * over the drag's start, its abandon.
     */
    | { kind: 'up'; at: Prufe.Point; button: Button }
    /**
     * Focus the element behind `ref` and, with `select`, select its content (a field's
     * text, an editable element's contents) so that typing replaces it; answer
     * `Answer::Focus`: whether the focus is then on the element or inside it. The machine
     * decides what follows (a click where a person's would put the focus, `FOCUS_LOST`, the
     * keys of a press).
     */
    | { kind: 'focus'; ref: string; select: boolean }
    /**
     * Press a key or a chord, on the element behind `ref` (focused first) or on whatever
     * has the focus: `keys` down in their order, then up in reverse. The keys by their
     * canonical names, modifiers first and the key they modify last (`Shift+Tab` is
     * `["Shift", "Tab"]`, `Shift++` is `["Shift", "+"]`); the driver splits nothing.
     */
    | { kind: 'press'; ref: string | null; keys: string[] }
    /** Choose the option whose label or value is `option`. */
    | { kind: 'select'; ref: string; option: string }
    /** Put a select back to the value it had. */
    | { kind: 'restore'; ref: string; value: string }
    /** Set the files of a file input. */
    | { kind: 'setFiles'; ref: string; files: string[] }
    /** Navigate the tab and wait until the new document answers. */
    | { kind: 'navigate'; url: string }
    /** Go back in history and wait for the document; fail when there is no entry to go to. */
    | { kind: 'goBack' }
    /** Move the pointer to `at` and turn the wheel by `dx`, `dy` CSS pixels. */
    | { kind: 'wheel'; at: Prufe.Point; dx: number; dy: number }
    /** Insert `text` where the focus is, as an input method commits it (no key events). */
    | { kind: 'insert'; text: string };

  /** What to read back. */
  type Read =
    /** A field's raw value (for the undo; never logged). Answer: `Answer::Value`. */
    | { kind: 'value'; ref: string }
    /** `prufe.hash(value)` in the field's document. Answer: `Answer::Hash`. */
    | { kind: 'hash'; ref: string; value: string }
    /**
     * Where activating the element would load a new document. Answer:
     * `Answer::Destination`.
     */
    | { kind: 'destination'; ref: string }
    /** The main frame's address. Answer: `Answer::Address`. */
    | { kind: 'address' }
    /**
     * The address of the tab's previous history entry, empty when there is none. Answer:
     * `Answer::Address`.
     */
    | { kind: 'previous' }
    /**
     * The focused observable element of the top document: the `<iframe>` of a frame of
     * another origin when the focus is inside one, which the machine follows
     * (`Read::Roots`, `Read::FocusedIn`). Answer: `Answer::Focused`.
     */
    | { kind: 'focused' }
    /**
     * The paths of the page's roots: the top document (`""`) and every frame of another
     * origin with an engine of its own. Answer: `Answer::Roots`.
     */
    | { kind: 'roots' }
    /**
     * Whether the document of the root at `path` has the focus (`document.hasFocus()`), and
     * its focused observable element, in that root's own terms. Answer:
     * `Answer::FocusedIn`.
     */
    | { kind: 'focusedIn'; path: string }
    /**
     * The observable element under `at`, a point of the viewport of the root at `path`
     * (`prufe.at` there), in that root's own terms: an `<iframe>` of another root is an
     * opaque `iframe` record, which the machine looks into itself (`run::locate`). Answer:
     * `Answer::Under`.
     */
    | { kind: 'under'; path: string; at: Prufe.Point }
    /**
     * The hit boxes of the root at `path` (`prufe.hitBoxes` there), in its own viewport and
     * terms. Answer: `Answer::HitBoxes`.
     */
    | { kind: 'hitBoxes'; path: string }
    /**
     * The hit boxes of the observation the step's points were chosen on, as the driver
     * keeps them (top-viewport CSS pixels, the page's terms). Answer: `Answer::Aimed`.
     */
    | { kind: 'aimed' }
    /**
     * With `at`, the scroll container under that point (the page when none is), kept for
     * the reads without `at`, which say where that one stands now. Answer:
     * `Answer::Position`.
     */
    | { kind: 'scroll'; at: Prufe.Point | null }
    /**
     * Right before typing: the raw value and selection of the field of `ref` when the focus
     * is on it (never logged). Answer: `Answer::Selection`.
     */
    | { kind: 'selection'; ref: string }
    /**
     * What the driver heard of the page's requests since the last input (the machine counts
     * those still at work, `recent_ms` after they ended included: `run::requests`). Answer:
     * `Answer::Network`, or `Answer::Unavailable` from a driver that does not see the
     * page's requests.
     */
    | { kind: 'network'; recentMs: number }
    /**
     * The snapshot of the root at `path` alone (`prufe.snapshot` there), in its own terms,
     * with its refs in `sensitive` (its own) declared sensitive (`super::whole`). Answer:
     * `Answer::Observed`, or `Answer::Failed` as it came.
     */
    | { kind: 'snapshot'; path: string; sensitive: string[] }
    /**
     * The fingerprint of the root at `path` leaving out `background` as seen from that root
     * (`prufe.fingerprint({ background, root: path })` there), then its `quietFor`
     * (`super::whole`). Answer: `Answer::Pulse`, or `Answer::Failed` as it came.
     */
    | { kind: 'pulse'; path: string; background?: Prufe.Background };

  /** What the arbiter is asked. Every string in it is redacted. */
  interface Question {
    action: string;
    target: string | null;
    intent: string | null;
    /** The diff lines of the effect. */
    observed: string[];
    /** Why the judge could not decide. */
    reason: string;
    stable: boolean;
    /**
     * The OpenAI-compatible chat request the machine asks with (`prompt`), built from the
     * fields above: an arbiter that asks a model adds the model's name and POSTs it.
     */
    chat: {
      temperature: number;
      max_tokens: number;
      messages: {
        /** `system` or `user`. */
        role: string;
        content: string;
      }[];
    };
  }

  /** The record of one step. Every string in it is redacted. */
  interface Record {
    /** `click`, `fill`, …, `click_at`, `drag_at`. */
    action: string;
    /** The element acted on, as `role[label] in region`. */
    target: string | null;
    intent: string | null;
    /**
     * What the action carried: a fill value (`[redacted]` when sensitive), an option, a key,
     * a URL, a destination, file names, a point.
     */
    value: string | null;
    /** `None` when the step stopped before a verdict (nothing was judged). */
    verdict: Prufe.VerdictKind | null;
    /** MATCH, or AMBIGUOUS approved by the arbiter or the policy. */
    ok: boolean;
    /** Why the step failed, in the one error shape; `None` when it passed. */
    error: ErrorData | null;
    reason: string;
    /** The element whose name explains the effect, when the judge found one. */
    attributedTo: string | null;
    /** What to show as the effect: the diff's lines, or for a navigation the new address. */
    lines: string[];
    /** The core diff of the last attempt. */
    diff: Prufe.Diff;
    attempts: number;
    undone: number;
    /** The page settled before and after the action. */
    stable: boolean;
    /** The arbiter's answer, when it was asked. */
    arbiter: string | null;
    /** The driver's. */
    durationMs: number;
    /** Where the page was changing by itself before the action (`text in banner`). */
    background?: string[];
    /** JavaScript dialogs that opened during the step (the driver's). */
    dialogs?: string[];
    /** How each of the step's typed claims (`expect`) came out, in the order given. */
    expect?: ClaimOutcome[];
    /** What of a wrong effect was still there after its undo (`UNDO_FAILED`). */
    residue?: string[];
    /** The driver's, RFC 3339. */
    startedAt?: string;
  }

  /** The next thing the driver must do. */
  type Need =
    /**
     * Poll the fingerprint every `poll_ms` until it has not changed for `quiet_ms`, at most
     * `timeout_ms`. With `since` (the fingerprint read right before an action), first wait
     * for it to leave that value; a page that never leaves it is quiet throughout, so
     * `stable`. With `stop_on_change`, answer as soon as the fingerprint moves (`changed`,
     * not `stable`): the machine takes a snapshot to learn what the page changed by itself.
     * A fingerprint that cannot be read (a document being replaced) counts as a change.
     * The fingerprint leaves out what is in a slot of `background` (what the page was seen
     * changing by itself before the action: a clock, a ticker, a carousel's slides), so
     * the page is quiet over what the judge will look at. Answer: `Answer::Settled`.
     */
    | {
      need: 'settle';
      since: string | null;
      pollMs: number;
      quietMs: number;
      timeoutMs: number;
      stopOnChange: boolean;
      background?: Prufe.Background;
      /**
       * Leaving `since` counts in the fingerprint's claims too (the focus, the order of the
       * records, the selection: `core::fingerprint::with_claims`), not only in the part the
       * diff decides: for a step whose effect may be only that (a key, a drag). Elsewhere a
       * focus that moves with the click is no sign that its effect has come.
       */
      claims?: boolean;
      /**
       * After the fingerprint left `since`: a shorter quiet window, taken when the page
       * says it has shown no sign of change for that long (no mutation, no animation,
       * `quietFor`); such a settle ends `Answer::Quick`. 0: none.
       */
      quickMs?: number;
    }
    /**
     * Read the fingerprint once, leaving out `background` as `Need::Settle` does. Answer:
     * `Answer::Fingerprint`, or `Answer::Failed` with the error as it came when the page
     * cannot give it (read once: the machine decides what a failure means, and a transient
     * one is a move of the page it waits through).
     */
    | { need: 'fingerprint'; background?: Prufe.Background }
    /**
     * Take a merged snapshot of the page (every frame), with the refs in `sensitive`
     * declared sensitive (from now on, for the rest of the tab's life). Answer:
     * `Answer::Observed`, or `Answer::Failed` with the error as it came (a transient
     * one, while the document is replaced, is no observation: `Answer::Unavailable`). A
     * driver with several roots may answer `Answer::Roots` instead, and the machine asks
     * each root (`super::whole`); so may it for `Need::Fingerprint` and `Need::Settle`.
     */
    | { need: 'observe'; sensitive: string[] }
    /** The live record of a ref (`prufe.describe`). Answer: `Answer::Described`. */
    | { need: 'describe'; ref: string }
    /**
     * Make the element behind a ref ready for input, in the root the ref names: a stable,
     * non-empty box; in view (else scroll it there and answer `Answer::Scrolled`); with
     * `hit_test`, the root document's hit test at its centre lands on it. Answer:
     * `Answer::Prepared` with the point input goes to, or `Answer::Refused` saying why
     * it is not ready; a point in that root's own viewport (the machine moves a frame's to
     * the top viewport: `Need::Frame`). Input on a ref afterwards goes to the node this
     * prepare found.
     */
    | { need: 'prepare'; ref: string; hitTest: boolean }
    /**
     * Where frame roots show: the `<iframe>` content box, in the top viewport, of the root
     * at each of `paths` (in their order; one whose `<iframe>` is no longer on the page
     * left out), and the top viewport's size. Answer: `Answer::Frame`.
     */
    | { need: 'frame'; paths: string[] }
    /**
     * What input at `at` (a point of the viewport of the root just above the root at
     * `path`) lands on in that document when not on the `<iframe>` of `path` or inside it
     * (`prufe.hitTest` called on the `<iframe>`). Answer: `Answer::Hit`.
     */
    | { need: 'hitFrame'; path: string; at: Prufe.Point }
    /**
     * Scroll the `<iframe>` of the root at `path` into view in every document above it.
     * Answer: `Answer::Scrolled`.
     */
    | { need: 'revealFrame'; path: string }
    /**
     * Take a step's picture (`super::camera`): every secret covered (`sensitive`, the refs
     * observed sensitive, and the caller's), the viewport captured, marked with the boxes
     * of `target`, of the `effect`'s refs and the `point`, and kept as the step's `moment`
     * picture (a `before` one replaces both). Answer: `Answer::Pictured`, also when no
     * picture could be taken.
     */
    | {
      need: 'picture';
      moment: 'before' | 'after';
      target: string | null;
      effect: string[];
      point: Prufe.Point | null;
      sensitive: string[];
    }
    /**
     * Capture the top viewport for a coordinate step's observation (the page's secrets
     * covered, at the size the driver was asked for) and keep the picture: the driver shows
     * the last one once the observation is done (`super::Run::shot`). Answer:
     * `Answer::Captured`.
     */
    | { need: 'capture' }
    /** Send a gesture through the browser's input pipeline. Answer: `Answer::Sent`. */
    | { need: 'input'; gesture: Gesture }
    /** Read something back from the page. Answer: the `Read`'s own answer. */
    | { need: 'read'; read: Read }
    /**
     * A watch: let the watched actions happen now (the watch's own steps, performed
     * unverified, or the caller's code) and answer once they are done. Answer:
     * `Answer::Acted`.
     */
    | { need: 'act' }
    /**
     * Ask the arbiter whether an AMBIGUOUS effect is the one intended, waiting at most
     * `timeout_ms` (`ASK_TIMEOUT_MS`) for it. Answer: `Answer::Arbiter` with what it
     * said, cut to `max_chars` (`super::arbiter::SAID_MAX_CHARS`), which the machine
     * reads; `Answer::NoArbiter` when none is configured; an arbiter that has not answered
     * by then is answered `Answer::Failed` with `TIMEOUT`, and one that could not be asked
     * `Answer::Failed` saying why. The machine words each and counts it as no.
     */
    | { need: 'ask'; question: Question; timeoutMs: number; maxChars: number }
    /**
     * Wait `ms` (0: not at all) and answer the driver's clock (`super::whole`'s settle
     * loop). Answer: `Answer::Waited`.
     */
    | { need: 'wait'; ms: number }
    /**
     * The step is over: its record, with `error` set when it failed. Further answers are
     * ignored and the same record is returned.
     */
    | { need: 'done'; record: Record };

  /** The driver's answer to the last need. */
  type Answer =
    /** The first call: nothing asked yet. */
    | { answer: 'start' }
    | {
      answer: 'settled';
      /** The last fingerprint read. */
      fingerprint: string;
      stable: boolean;
      /** The fingerprint left its first value (or `since`). */
      changed: boolean;
      waitedMs: number;
    }
    /**
     * A settle with `quick_ms` that ended on it: the fingerprint left `since` and the
     * page then said it had shown no sign of change for `quick_ms` (stable and changed).
     */
    | { answer: 'quick'; fingerprint: string; waitedMs: number }
    | { answer: 'fingerprint'; fingerprint: string }
    | { answer: 'observed'; snapshot: Prufe.Snapshot }
    /** No observation could be taken: the document is being replaced. */
    | { answer: 'unavailable' }
    /** `None`: the node is gone. */
    | { answer: 'described'; element?: Prufe.ElementRecord | null }
    | { answer: 'prepared'; point: Prufe.Point }
    /** The element was out of view and has been scrolled: observe again. */
    | { answer: 'scrolled' }
    /**
     * The element is not ready for input; the machine words the error
     * (`Refusal::error`).
     */
    | { answer: 'refused'; refusal: Prufe.Refusal }
    | { answer: 'under'; element?: Prufe.ElementRecord | null }
    /** `Read::HitBoxes`. */
    | { answer: 'hitBoxes'; boxes: HitBox[] }
    /** `Read::Aimed`: `None` when the step was not aimed on an observation. */
    | { answer: 'aimed'; boxes?: HitBox[] | null }
    /** `Need::Frame`'s boxes, in the order asked, and the top viewport. */
    | {
      answer: 'frame';
      chain: {
        /** The root's path (`0`, `0.1`). */
        path: string;
        /** The content box, in top-viewport CSS pixels. */
        x: number;
        y: number;
        width: number;
        height: number;
      }[];
      viewport: { width: number; height: number };
    }
    /** `None`: input there reaches the frame; else what it lands on (`tag#id.class "text"`). */
    | { answer: 'hit'; by?: string | null }
    | { answer: 'sent' }
    /** `Need::Capture`: the picture is taken and kept. */
    | { answer: 'captured' }
    /** `Need::Picture`: taken and kept, or not taken. */
    | { answer: 'pictured' }
    /**
     * What `Gesture::Focus` left: the focus on the element or inside it (`held`), or
     * elsewhere (the page moved it, or the element takes no focus from a script).
     */
    | { answer: 'focus'; held: boolean }
    /** `None`: the element has no value. */
    | { answer: 'value'; value?: string | null }
    | { answer: 'hash'; hash: string }
    | { answer: 'destination'; destination?: Prufe.Destination | null }
    | { answer: 'address'; url: string }
    | { answer: 'focused'; element?: Prufe.ElementRecord | null }
    /** `Read::Roots`: the top first. */
    | { answer: 'roots'; paths: string[] }
    /** `Read::FocusedIn`. */
    | { answer: 'focusedIn'; has: boolean; element?: Prufe.ElementRecord | null }
    /** `None`: no container is kept (the document was replaced). */
    | {
      answer: 'position';
      position?: {
        left: number;
        top: number;
        pageLeft: number;
        pageTop: number;
        /**
         * What the container is, for a person: `the page`, or `div#list in list[Results]`;
         * given when it is found (`Read::Scroll` with `at`).
         */
        container?: string | null;
      } | null;
    }
    /** `None`: the focus is not on the field. */
    | {
      answer: 'selection';
      selection?: {
        end?: number | null;
        start?: number | null;
        /** `None`: the element has no value to read back. */
        value?: string | null;
      } | null;
    }
    /**
     * What `Read::Network` asks, as the driver recorded it, in ms before this answer:
     * since the last input was sent (`None` before the first), and each request heard of
     * since then.
     */
    | {
      answer: 'network';
      requests: {
        /** How long ago the driver first heard of it. */
        heardMsAgo: number;
        /** How long ago it ended (finished or failed); `None` while under way. */
        endedMsAgo?: number | null;
      }[];
      inputMsAgo?: number | null;
    }
    /**
     * What the arbiter said, as it said it: an OpenAI-compatible chat completion's body,
     * or the JSON of what a caller's arbiter returned (`"YES"`, `true`, `{ "yes", "detail" }`,
     * `[yes, detail]`), at most the need's `max_chars`. The machine reads it
     * (`super::arbiter::read`): only a clean yes approves.
     */
    | { answer: 'arbiter'; said: string }
    /** No arbiter is configured: the machine words it and counts it as no. */
    | { answer: 'noArbiter' }
    /**
     * The watched actions are done; `steps` is how many steps the driver performed for
     * them (0 when the caller's code acted).
     */
    | { answer: 'acted'; steps?: number }
    /**
     * `Read::Pulse`: the root's fingerprint and how long it has shown no sign of change
     * (ms).
     */
    | { answer: 'pulse'; fingerprint: string; quietFor: number }
    /**
     * `Need::Wait`: the driver's clock once waited, in ms from any origin it keeps for the
     * tab (never going back).
     */
    | { answer: 'waited'; now: number }
    /** The need could not be met. */
    | { answer: 'failed'; error: ErrorData };

  /** What a `wait` waits for. */
  type Postcondition =
    /** A visible element with this role and label appears (in `region`, when given). */
    | { kind: 'appears'; role: Prufe.Role; name: string; region?: string | null }
    /**
     * A visible element with this role and label shows `value`. A `sensitive` value is
     * compared by the page's keyed hash and never printed.
     */
    | {
      kind: 'valueEquals';
      role: Prufe.Role;
      name: string;
      value: string;
      sensitive: boolean;
      region?: string | null;
    }
    /**
     * A text (a status line, a paragraph, an element's label) containing `text` appears (in
     * `region`, when given).
     */
    | { kind: 'textAppears'; text: string; region?: string | null }
    /**
     * No text and no visible element's label containing `text` is left (in `region`, when
     * given).
     */
    | { kind: 'textGone'; text: string; region?: string | null };

  /** What a driver knows of a frame: its security origin and its address. */
  interface Origin {
    /** The security origin (`null`, empty or `://` when opaque). */
    origin?: string;
    url?: string;
  }
}
