// Type declarations for the machine module js/dist/prufe-run.mjs (and the classic script
// js/dist/prufe-run.js, which defines `globalThis.prufeRun`): the verification loop of one
// step, `start` → need → answer → `next` → … → `done`; docs/DESIGN.md holds the contract.
// The step, the policy, the needs, the answers and the record are declared in
// prufe-run-types.d.ts, generated from the Rust types of src/core/run; here are the module's
// functions.

/// <reference path="prufe.d.ts" />
/// <reference path="prufe-run-types.d.ts" />

declare namespace PrufeRun {
  /** A box in CSS pixels of the top viewport, or in an image's pixels. */
  type Rect = { x: number; y: number; width: number; height: number };

  type Target = Prufe.Target;
  type ElementRecord = Prufe.ElementRecord;
  type Snapshot = Prufe.Snapshot;
  type Point = Prufe.Point;
  type Destination = Prufe.Destination;
  type Background = Prufe.Background;
  type Refusal = Prufe.Refusal;

  /** The policy with every field filled in: what `defaults()` returns. */
  interface Defaults {
    maxAttempts: number;
    ambiguous: Ambiguous;
    timing: Required<Timing>;
    regions: string[];
    ignoreRegions: string[];
  }

  /**
   * The run's state: opaque JSON, kept by the driver and handed back as it is; a finished
   * `shot` run carries what it observed in `shot`.
   */
  interface Run {
    readonly [field: string]: unknown;
    readonly shot?: { boxes: HitBox[]; stable: boolean };
  }

  interface Turn {
    run: Run;
    need: Need;
  }

  /**
   * The rules of a page's roots a driver's transport needs (src/core/frames.rs): the top
   * document, and every frame whose origin differs from its parent's, each observed by an
   * engine of its own; the machine merges what they say itself (src/core/run/whole.rs).
   * A root's path is its frame position path (`prufe.frameIndex` of its `<iframe>` in the
   * parent, dotted for nesting); its refs become `f<path>:<ref>`.
   */
  interface Frames {
    /** A merged ref → the root's path and that root engine's own ref. */
    route(ref: string): { path: string; ref: string };
    /** A root engine's element record in merged terms (ref, frame, region). */
    adopt(local: { path: string; element: ElementRecord | null }): ElementRecord | null;
    /** A target a root's engine took (`prufe.targetOf`) in merged terms (region, frame). */
    adoptTarget(local: { path: string; target: Target }): Target;
    /** Whether the parent's engine walks the child (else the child is a root of its own). */
    sameOrigin(frames: { child: Origin; parent: Origin }): boolean;
  }

  /**
   * The rules of a coordinate step's points (src/core/run/screen.rs), on the screenshot they
   * were chosen on.
   */
  interface Points {
    /**
     * The machine's action for `pick` (image pixels): the observation quoted must be the
     * latest screenshot (left out: the latest), every point inside its image; points become
     * CSS pixels, with the elements the boxes show under them. Throws `STALE_OBSERVATION`,
     * `POINT_OUT_OF_BOUNDS` or `INVALID_ACTION`.
     */
    aim(args: { screen: Screen | null; observation?: string | null; pick: Pick }): Action;
    /** CSS pixels per image pixel. */
    scale(screen: Screen): Prufe.Point;
    /**
     * After a screenshot's capture taken between two fingerprints (`tries` from 1): capture
     * `again` while the page changed meanwhile (three captures at most); the last is kept,
     * `stable` when the page had settled and did not change during it.
     */
    captured(args: { tries: number; before: string; after: string; settled: boolean }): { again: boolean; stable: boolean };
    /** The widest image asked for, given back; `INVALID_ACTION` unless a number of at least 1 or null. */
    maxWidth(maxWidth: number | null): number | null;
    /**
     * How a screenshot of the visual viewport (CSS pixels, `Page.getLayoutMetrics`) is taken:
     * the capture's size in device pixels, the pixel ratio counted, and the clip that downscales
     * it to `maxWidth` (null: the capture is the image).
     */
    framing(args: { view: { pageX: number; pageY: number; clientWidth: number; clientHeight: number; dpr: number }; maxWidth: number | null }):
      { full: { width: number; height: number }; dpr: number; clip: { x: number; y: number; width: number; height: number; scale: number } | null };
    /**
     * How a step's picture is taken, as `Page.captureScreenshot`'s parameters: the visual
     * viewport (CSS pixels) as a JPEG at most 800 pixels wide, the pixel ratio counted from
     * `deviceWidth` (`visualViewport.clientWidth` of the layout metrics).
     */
    picture(args: { view: { pageX: number; pageY: number; clientWidth: number; clientHeight: number }; deviceWidth: number | null }):
      { format: 'jpeg'; quality: number; captureBeyondViewport: false; clip: { x: number; y: number; width: number; height: number; scale: number } };
    /**
     * What a step's picture marks, measured in the page (CSS pixels of the top viewport), in
     * the image's pixels to a tenth: the target's box, the effect's boxes with an area, the
     * point input went to, the covered boxes; `scale` is image pixels per CSS pixel.
     */
    marks(args: {
      imageWidth: number; cssWidth: number; target: Rect | null; effect: (Rect | null)[];
      point: { x: number; y: number } | null; masked: Rect[];
    }): { scale: number; target: Rect | null; effect: Rect[]; point: { x: number; y: number } | null; masked: Rect[] };
  }

  interface Api {
    /** The rules of a page's roots a driver needs. */
    readonly frames: Frames;
    /** The rules of a coordinate step's points. */
    readonly points: Points;
    /**
     * The error a settle ends on when its deadline comes with no document to read, for a
     * driver that cannot run the loop without a document.
     */
    lost(): ErrorData;
    /**
     * The policy a run follows where the driver leaves a field out (`maxAttempts`,
     * `timing.quietMs`, `timing.timeoutMs`, …): the defaults a driver documents, read here
     * rather than written again. A new object on every call.
     */
    defaults(): Defaults;
    /**
     * The error codes of a page that could not answer now and may a moment later (a
     * document being replaced, an engine not there yet, a call that timed out): a driver
     * asks again, or answers the machine that the page is unavailable, and never ends a step
     * on one. A new array on every call.
     */
    transient(): Prufe.ErrorCode[];
    /**
     * How many times a call that met a destroyed execution context (a navigation raced it)
     * is sent again, to the document's new one: a transport's own matter, one bound for
     * every driver.
     */
    resends(): number;
    /**
     * The record's `dialogs` lines of the JavaScript dialogs a step heard, in the order they
     * opened: `alert "Saved!" dismissed`, the message capped, at most 20 lines.
     */
    dialogs(heard: Dialog[]): string[];
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
     * A coordinate step's observation, settled first with `settle`: the fingerprint, a
     * `capture` (the driver takes the picture and keeps it), every root's hit boxes, the
     * fingerprint again, captured again while the page changed (three times at most). Its
     * record's action is `screenshot`; once done without an error, the run's `shot` holds the
     * boxes, in top-viewport CSS pixels, and whether the page was stable.
     */
    shot(policy?: Policy | string | null, settle?: boolean | null): Turn;
    /**
     * A run that looks until `until` holds, at most `timeoutMs` of the driver's time (the
     * policy's timeout when null); `POSTCONDITION_TIMEOUT` in its record when it never does.
     */
    wait(until: Postcondition | string, timeoutMs?: number | null, policy?: Policy | string | null): Turn;
    /**
     * The report every surface prints: of a step's record (`Action:`, `Intent:`, `Verdict:`,
     * …, then what its error adds), or of an error no step recorded (`Error:` and candidates).
     */
    explain(what: { record: Record } | { error: { code: string; message: string; candidates?: unknown[] } }): string;
    /**
     * A step's trace entry (what `--trace-dir` writes) and its file's name after the number
     * (`click-match` of `0003-click-match.json`): of its record, or of a step that ended
     * before it had one.
     */
    trace(args: { step: number; record: Record } | {
      step: number;
      ended: { action: string; code?: string | null; reason?: string; durationMs?: number; startedAt?: string };
    }): { name: string; entry: { [key: string]: unknown } };
    /**
     * The target of a browser library's element (a Locator or ElementHandle) from what a
     * package found for it: how many elements it matches, the engine's record of the one and
     * the target naming it (none when hidden), or why it has no record. `place`: the step's
     * destination, which may be hidden until a drag starts (named by its record then).
     */
    located(found: {
      shown: string;
      count: number;
      place?: boolean;
      element?: ElementRecord | null;
      target?: Target | null;
      error?: ErrorData | null;
      candidates?: Prufe.Candidate[];
    }): { target: Target } | { error: ErrorData };
    /**
     * Every form of the caller's secrets `values` that is scrubbed (the value, its whitespace
     * collapsed, percent-, form- and lowercase-encoded; none shorter than 3 characters), each
     * once, in the order `scrub` replaces them: the list a driver keeps, hands to `scrub` and
     * to the engine's `cover({ secrets })`.
     */
    secretForms(values: string[]): string[];
    /**
     * `value` (any JSON value) with every one of `secrets` (from `secretForms`) replaced by
     * `[redacted]` in every string, object keys included.
     */
    scrub<T>(secrets: string[], value: T): T;
    /** A record's one line for a log: `click on button[Pay]: MISMATCH — …`. */
    summary(record: Record): string;
    /** The run after `answer`, and its next need. Throws a `PrufeError` (`INVALID_ARGUMENT`) for a malformed one. */
    next(run: Run | string, answer: Answer | string): Turn;
  }
}

/** The machine, where js/dist/prufe-run.js was evaluated as a classic script. */
declare var prufeRun: PrufeRun.Api;
