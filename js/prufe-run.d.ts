// Type declarations for the machine module js/dist/prufe-run.mjs (and the classic script
// js/dist/prufe-run.js, which defines `globalThis.prufeRun`): the verification loop of one
// step, `start` → need → answer → `next` → … → `done`. The wire shapes mirror src/core/run
// (step, policy, need, record) with camelCase field names; docs/DESIGN.md holds the contract.

/// <reference path="prufe.d.ts" />

declare namespace PrufeRun {
  type Target = Prufe.Target;
  type ElementRecord = Prufe.ElementRecord;
  type Snapshot = Prufe.Snapshot;
  type Point = Prufe.Point;
  type Destination = Prufe.Destination;
  type Button = 'left' | 'middle' | 'right';

  /** The one error shape, as data (an answer's or a record's `error`). */
  interface ErrorData {
    code: Prufe.ErrorCode;
    message: string;
    candidates?: Prufe.Candidate[];
  }

  /** What a step does: a semantic action on a declared target, or a pointer gesture on a point. */
  type Action =
    | { kind: 'click'; target: Target }
    /** A `sensitive` value is typed but never shown; the judge compares its keyed hash. */
    | { kind: 'fill'; target: Target; value: string; sensitive?: boolean }
    | { kind: 'check'; target: Target }
    | { kind: 'uncheck'; target: Target }
    | { kind: 'select'; target: Target; option: string }
    | { kind: 'press'; key: string; target?: Target | null }
    | { kind: 'hover'; target: Target }
    | { kind: 'upload'; target: Target; files: string[] }
    | { kind: 'drag'; target: Target; to: Target }
    | { kind: 'goto'; url: string }
    /** Observe while something else acts (an `act` need), judged by the intent alone; never undone. */
    | { kind: 'watch' }
    | { kind: 'clickAt'; at: Point; button?: Button; expected?: ElementRecord | null; shown?: string | null }
    | {
        kind: 'dragAt'; from: Point; to: Point; steps?: number;
        expected?: ElementRecord | null; expectedTo?: ElementRecord | null; shown?: string | null;
      }
    /** A key chord (`Control+S`) on whatever has the focus; not judged, the focus read after. */
    | { kind: 'key'; chord: string }
    /** A wheel turn of `dx`, `dy` CSS pixels at a point; the record says where the container under it stands. */
    | { kind: 'scrollAt'; at: Point; dx?: number; dy?: number; expected?: ElementRecord | null; shown?: string | null }
    /** Text typed into the focused field (`field`: the one meant), read back; a `sensitive` one by keyed hash. */
    | { kind: 'typeText'; text: string; sensitive?: boolean; field?: ElementRecord | null };

  interface Step {
    action: Action;
    /** A sentence saying what the step is meant to do, in any language. */
    intent?: string | null;
    /**
     * Typed claims the step's effect must bear out, each checked against the diff and the
     * page after the action: MATCH needs every one held; a broken one, or one the settled
     * page does not show, is MISMATCH. A malformed claim is `INVALID_EXPECT`, nothing sent.
     */
    expect?: Claim[];
    /** For `upload` and `drag`: the steps that undo it (performed unverified). */
    inverse?: Step[];
  }

  /** A value a `changes` claim names: a state, `"mixed"`, or a field's text. */
  type ClaimState = boolean | string;

  /** One typed claim of a step's `expect` (tag `kind`; unknown keys are `INVALID_EXPECT`). */
  type Claim =
    /** An element matching `target` appeared (or became visible). */
    | { kind: 'appears'; target: Target }
    /** An element matching `target` is gone or hidden. */
    | { kind: 'disappears'; target: Target }
    /** The field of the element changed, from and to the values given (each optional). */
    | {
        kind: 'changes'; target: Target;
        field: 'checked' | 'pressed' | 'selected' | 'expanded' | 'value' | 'disabled' | 'visible' | 'focused';
        from?: ClaimState; to?: ClaimState;
      }
    /**
     * The element moved: to a list (`list`: its id or label) or a region (a prefix), and/or to
     * `position` (from 1, among the visible elements of its role in its region).
     */
    | { kind: 'moves'; target: Target; to?: { list?: string; region?: string }; position?: number }
    /** No entry of the diff is about the element. */
    | { kind: 'stays'; target: Target }
    /** A new document loaded at an address matching `url`: a glob when it holds `*`, else a substring. */
    | { kind: 'navigates'; url: string }
    /** After the action, exactly `n` visible elements match `target`. */
    | { kind: 'count'; target: Target; n: number }
    /** A text run appeared containing `text` (`exact`: equal to it), in `region` (a prefix) when given. */
    | { kind: 'text'; text: string; region?: string; exact?: boolean };

  /** How one claim came out: `held`, `broken`, or `absent` (no evidence either way). */
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
    quietMs?: number;
    timeoutMs?: number;
  }

  interface Policy {
    /** Attempts per step, the first included (default 2). */
    maxAttempts?: number;
    /** What AMBIGUOUS comes to: `reject` (default), `accept`, or `arbiter` (an `ask` need). */
    ambiguous?: 'reject' | 'accept' | 'arbiter';
    timing?: Timing;
    regions?: string[];
    ignoreRegions?: string[];
  }

  /** The policy with every field filled in: what `defaults()` returns. */
  interface Defaults {
    maxAttempts: number;
    ambiguous: 'reject' | 'accept' | 'arbiter';
    timing: Required<Timing>;
    regions: string[];
    ignoreRegions: string[];
  }

  /** A JavaScript dialog as the DevTools protocol reports it, and how it was answered. */
  interface Dialog {
    /** `alert`, `confirm`, `prompt` or `beforeunload`. */
    type: string;
    message: string;
    accepted: boolean;
  }

  /** The driver's last observation of the document, handed to the next step's run. */
  interface Seen {
    fingerprint: string;
    snapshot: Snapshot;
    /** What the page was seen changing by itself on this document so far. */
    background?: Background;
  }

  type Gesture =
    | { kind: 'click'; at: Point; button: Button }
    | { kind: 'moveTo'; at: Point }
    | { kind: 'drag'; from: Point; to: Point; steps: number }
    /** Focus the field, select its content, type `text` in its place; `FOCUS_LOST` when it does not keep focus. */
    | { kind: 'type'; ref: string; text: string }
    /** A key (`Enter`, `Shift+Tab`) on `ref` (focused first) or on whatever has the focus. */
    | { kind: 'press'; ref: string | null; key: string }
    | { kind: 'select'; ref: string; option: string }
    | { kind: 'restore'; ref: string; value: string }
    | { kind: 'setFiles'; ref: string; files: string[] }
    | { kind: 'navigate'; url: string }
    | { kind: 'goBack' }
    /** Move the pointer to `at` and turn the wheel by `dx`, `dy` CSS pixels. */
    | { kind: 'wheel'; at: Point; dx: number; dy: number }
    /** Insert `text` where the focus is, as an input method commits it. */
    | { kind: 'insert'; text: string };

  type Read =
    | { kind: 'value'; ref: string }
    | { kind: 'hash'; ref: string; value: string }
    | { kind: 'destination'; ref: string }
    | { kind: 'address' }
    /** The tab's previous history entry's address ('' when none); answered with `address`. */
    | { kind: 'previous' }
    | { kind: 'focused' }
    /** With `at`, the scroll container under it (kept); without, where that one stands now; answered with `position`. */
    | { kind: 'scroll'; at?: Point | null }
    /** The raw value and selection of the field of `ref` when it has the focus; answered with `selection`. */
    | { kind: 'selection'; ref: string };

  /** Where a scroll container stands (CSS pixels), and the page with it. */
  interface ScrollPosition {
    container?: string;
    left: number;
    top: number;
    pageLeft: number;
    pageTop: number;
  }

  /** What the arbiter is asked about an AMBIGUOUS effect. Every string in it is redacted. */
  interface Question {
    action: string;
    target: string | null;
    intent: string | null;
    observed: string[];
    reason: string;
    stable: boolean;
  }

  /** The record of one step, in the one shape traces, `--json` lines and drivers read. */
  interface Record {
    action: string;
    /** The element acted on, as `role[label] in region`. */
    target: string | null;
    intent: string | null;
    value: string | null;
    /** null when the step stopped before a verdict. */
    verdict: Prufe.VerdictKind | null;
    ok: boolean;
    error: ErrorData | null;
    reason: string;
    /** How each claim of the step's `expect` came out, in the order given. */
    expect?: ClaimOutcome[];
    attributedTo: string | null;
    lines: string[];
    diff: Prufe.Diff;
    residue?: string[];
    attempts: number;
    undone: number;
    stable: boolean;
    arbiter: string | null;
    background?: string[];
    /** The driver's. */
    dialogs?: string[];
    /** The driver's. */
    durationMs: number;
    /** The driver's, RFC 3339. */
    startedAt?: string;
  }

  /** What the driver must do next. Each is answered with exactly one `Answer`. */
  /**
   * What the page was seen changing by itself before the action (core::background): a
   * fingerprint leaves out what is in these slots, in the merged page's terms.
   */
  interface Background {
    texts: { frame: string; region: string; kind: string; shape?: string }[];
    elements: { frame: string; region: string; role: string; shape?: string }[];
  }

  type Need =
    /**
     * Poll the fingerprint every `pollMs` until it has not changed for `quietMs`, at most
     * `timeoutMs`. With `since`, first wait for it to leave that value (a page that never
     * does is stable). With `stopOnChange`, answer as soon as it moves. An unreadable
     * fingerprint counts as a change. Answer: `settled`.
     */
    | { need: 'settle'; since: string | null; pollMs: number; quietMs: number; timeoutMs: number; stopOnChange: boolean; background?: Background }
    /** Answer: `fingerprint`. */
    | { need: 'fingerprint'; background?: Background }
    /** A snapshot with these refs declared sensitive. Answer: `observed`, or `unavailable`. */
    | { need: 'observe'; sensitive: string[] }
    /** `prufe.describe(ref)`. Answer: `described`. */
    | { need: 'describe'; ref: string }
    /** Stable non-empty box, in view (else scroll: `scrolled`), hit test when asked. Answer: `prepared`, or `refused`. */
    | { need: 'prepare'; ref: string; hitTest: boolean }
    /** `prufe.at(x, y)`. Answer: `under`. */
    | { need: 'locate'; at: Point }
    /** Answer: `sent`. */
    | { need: 'input'; gesture: Gesture }
    /** Answer: the read's own (`value`, `hash`, `destination`, `address`, `focused`). */
    | { need: 'read'; read: Read }
    /** A watch: let the watched actions happen now (its own steps, or the caller's code). Answer: `acted`. */
    | { need: 'act' }
    /** Answer: `arbiter`. */
    | { need: 'ask'; question: Question }
    | { need: 'done'; record: Record };

  /** Why an element is not ready for input (`core::run::ready::Refusal`). */
  type Refusal =
    | { kind: 'emptyBox' }
    | { kind: 'noVisibleArea' }
    | { kind: 'keptMoving'; timeoutMs: number }
    /** Input at `point` (top viewport) lands on `by`. */
    | { kind: 'covered'; by: string; point: Point };

  type Answer =
    | { answer: 'start' }
    | { answer: 'settled'; fingerprint: string; stable: boolean; changed: boolean; waitedMs: number }
    | { answer: 'fingerprint'; fingerprint: string }
    | { answer: 'observed'; snapshot: Snapshot }
    | { answer: 'unavailable' }
    | { answer: 'described'; element: ElementRecord | null }
    | { answer: 'prepared'; point: Point }
    | { answer: 'scrolled' }
    /** Not ready for input; the machine words the error with its own name for the target. */
    | { answer: 'refused'; refusal: Refusal }
    | { answer: 'under'; element: ElementRecord | null }
    | { answer: 'sent' }
    | { answer: 'value'; value: string | null }
    | { answer: 'hash'; hash: string }
    | { answer: 'destination'; destination: Destination | null }
    | { answer: 'address'; url: string }
    | { answer: 'focused'; element: ElementRecord | null }
    /** null: no container is kept (a new document). */
    | { answer: 'position'; position: ScrollPosition | null }
    /** null: the focus is not on the field. */
    | { answer: 'selection'; selection: { value: string | null; start: number | null; end: number | null } | null }
    | { answer: 'arbiter'; yes: boolean; detail: string }
    /** The watched actions are done; `steps` is how many steps the driver performed (0 for the caller's code). */
    | { answer: 'acted'; steps?: number }
    /** The need could not be met; the code decides what the machine does next. */
    | { answer: 'failed'; error: ErrorData };

  /** The run's state: opaque JSON, kept by the driver and handed back as it is. */
  interface Run {
    readonly [field: string]: unknown;
  }

  interface Turn {
    run: Run;
    need: Need;
  }

  /** A frame as a driver knows it, for `frames.sameOrigin`. */
  interface Origin {
    /** The security origin (`null`, empty or `://` when opaque). */
    origin: string;
    url: string;
  }

  /**
   * The rules that merge a page's roots (src/core/frames.rs): the top document, and every
   * frame whose origin differs from its parent's, each observed by an engine of its own.
   * A root's path is its frame position path (`prufe.frameIndex` of its `<iframe>` in the
   * parent, dotted for nesting); its refs become `f<path>:<ref>`.
   */
  interface Frames {
    /** A merged ref → the root's path and that root engine's own ref. */
    route(ref: string): { path: string; ref: string };
    mergedRef(local: { path: string; ref: string }): string;
    /** One snapshot of the page; the top (path `""`) first; `null` is a root that could not answer. */
    merge(parts: Array<{ path: string; snapshot: Snapshot | null }>): Snapshot;
    /** A root engine's element record in merged terms (ref, frame, region). */
    adopt(local: { path: string; element: ElementRecord | null }): ElementRecord | null;
    /** A target a root's engine took (`prufe.targetOf`) in merged terms (region, frame). */
    adoptTarget(local: { path: string; target: Target }): Target;
    /** The page's fingerprint; the top first; `null` is a root that could not answer. */
    join(parts: Array<{ path: string; fingerprint: string | null }>): string;
    /** Whether the parent's engine walks the child (else the child is a root of its own). */
    sameOrigin(frames: { child: Origin; parent: Origin }): boolean;
    /** The path of the root enclosing `path` among `paths`; `null` for the top. */
    parent(of: { paths: string[]; path: string }): string | null;
    /** A step's region filters as the root at `path` sees them; `null` leaves nothing of it. */
    filters(of: { path: string; filters: { regions?: string[]; ignoreRegions?: string[] } }):
      { regions: string[]; ignoreRegions: string[] } | null;
  }

  /** A condition a wait looks for (`src/core/until.rs`). */
  type Postcondition =
    | { kind: 'appears'; role: string; name: string; region?: string | null }
    | { kind: 'valueEquals'; role: string; name: string; region?: string | null; value: string; sensitive: boolean }
    | { kind: 'textAppears'; text: string; region?: string | null }
    | { kind: 'textGone'; text: string; region?: string | null };

  /** One step of the settle loop (`src/core/run/quiet.rs`); keep `settling` as it is. */
  type Settled =
    | { settling: unknown; wait: number }
    | { settling: unknown; done: Answer };

  interface Api {
    /** The rules that merge a page's roots. */
    readonly frames: Frames;
    /**
     * The settle loop, for a driver that reads a page of several roots itself: start with
     * the settle need and the first reads (`fingerprint` null while unreadable, `quietFor`
     * the least of the roots'), then after each `wait` ms read again and pass `settling`
     * back, until `done` holds the answer for the machine.
     */
    settling(reads: { need: Need; now: number; fingerprint: string | null; quietFor: number }
      | { settling: unknown; now: number; fingerprint: string | null; quietFor: number }): Settled;
    /**
     * The policy a run follows where the driver leaves a field out (`maxAttempts`,
     * `timing.quietMs`, `timing.timeoutMs`, …): the defaults a driver documents, read here
     * rather than written again. A new object on every call.
     */
    defaults(): Defaults;
    /**
     * The record's `dialogs` lines of the JavaScript dialogs a step heard, in the order they
     * opened: `alert "Saved!" dismissed`, the message capped, at most 20 lines.
     */
    dialogs(heard: Dialog[]): string[];
    /**
     * The report every surface prints: of a step's record (`Action:`, `Intent:`, `Verdict:`,
     * …, then what its error adds), or of an error no step recorded (`Error:` and candidates).
     */
    explain(what: { record: Record } | { error: { code: string; message: string; candidates?: unknown[] } }): string;
    /** A record's one line for a log: `click on button[Pay]: MISMATCH — …`. */
    summary(record: Record): string;
    /** The machine version (the prufe crate version). */
    readonly version: string;
    /** Resolves once the machine can answer (at once wherever a synchronous compile is allowed). */
    readonly ready: Promise<void>;
    /** A verified run of `step` and its first need. Each argument may also be its JSON text. */
    start(step: Step | string, policy?: Policy | string | null, seen?: Seen | string | null): Turn;
    /**
     * A run that only settles and observes, handed the last step's `seen` and handing on the
     * next: what a driver runs when it opens a page. Its record's action is `look`.
     */
    look(policy?: Policy | string | null, seen?: Seen | string | null): Turn;
    /**
     * A run that looks until `until` holds, at most `timeoutMs` of the driver's time (the
     * policy's timeout when null); `POSTCONDITION_TIMEOUT` in its record when it never does.
     */
    wait(until: Postcondition | string, timeoutMs?: number | null, policy?: Policy | string | null): Turn;
    /** The run after `answer`, and its next need. Throws a `PrufeError` (`INVALID_ARGUMENT`) for a malformed one. */
    next(run: Run | string, answer: Answer | string): Turn;
  }
}

/** The machine, where js/dist/prufe-run.js was evaluated as a classic script. */
declare var prufeRun: PrufeRun.Api;
