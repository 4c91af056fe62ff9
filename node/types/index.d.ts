// Types of the prufe package. The record, step and error shapes are the engine's
// (dist/prufe.d.ts, dist/prufe-run.d.ts: `Prufe.*`, `PrufeRun.*`).

/// <reference path="../dist/prufe.d.ts" />
/// <reference path="../dist/prufe-run.d.ts" />

/** A prufe target: what to act on, by role, name and where it is. */
export interface Target {
  /** Absent: any role. */
  role?: Prufe.Role | string;
  name: string;
  /** `main`, `form[Checkout]`, `cart/list:cart-items`, `frame[0]/form[Payment]`. */
  region?: string;
  /** Frame position path: `"0"`, `"0.1"`. */
  frame?: string;
  href?: string;
  inViewport?: boolean;
  /** The nearest named container (`{ role: 'listitem', name: 'Walk dog' }`); with it, `name` may be `""` or left out. */
  in?: Prufe.Container;
}

/** A typed claim of `expect` (see `PrufeRun.Claim`); targets are prufe targets. */
export type Claim = PrufeRun.Claim;

/** The record of one step: the CLI's record (`prufe run --json`, traces, the viewer). */
export type StepRecord = PrufeRun.Record;
export type Question = PrufeRun.Question;
export type ErrorCode = Prufe.ErrorCode;

export interface Options {
  /** Attempts per step, the first included (default 2). */
  maxAttempts?: number;
  /** How long the page must not change to count as settled, in ms (default 250). */
  quietMs?: number;
  /** The most one settle waits, in ms (default 5000). */
  timeoutMs?: number;
  /** How often a settle reads the page's fingerprint, in ms (default 50). */
  pollMs?: number;
  /**
   * The shorter quiet window, in ms (default 50; 0 turns it off, always `quietMs`): after an effect, a settle ends this long
   * after the page last changed when the page shows no sign of change (no mutation, no
   * animation) and no request it started since the input is under way or ended within it.
   * Timers are not seen: an effect a page delays with `setTimeout` past it is missed.
   */
  quickMs?: number;
  /** What an AMBIGUOUS effect comes to without a judge (default `reject`). */
  ambiguous?: 'reject' | 'accept';
  /**
   * The arbiter of AMBIGUOUS effects; it never overrides MATCH or MISMATCH. Only a clean yes
   * approves: `{ yes: true, detail? }` (the detail is recorded), `true`, or the word `YES`;
   * anything else is no, and so is no answer within 10 s.
   */
  judge?: (question: Question) => Promise<{ yes: boolean; detail?: string } | boolean | string>;
  regions?: string[];
  ignoreRegions?: string[];
  /** One trace record per step, as `prufe run --trace-dir` writes them. */
  traceDir?: string;
  /**
   * With `traceDir`: which steps keep a before and an after JPEG beside their record, every
   * secret covered for the capture (default `failures`; anything else is `INVALID_OPTIONS`).
   */
  screenshots?: 'off' | 'failures' | 'all';
}

export interface StepOptions {
  /** A sentence saying what the step is meant to do, in any language. */
  intent?: string;
  /**
   * Typed claims the effect must bear out (`{ kind: 'appears', target }`, `changes`, `moves`,
   * `stays`, `navigates`, `count`, `text`): MATCH needs every one held, and the record's
   * `expect` says what held or broke each.
   */
  expect?: Claim[];
}

export interface InverseOptions extends StepOptions {
  /** The steps that undo this one (performed unverified when it must be undone). */
  inverse?: PrufeRun.Step[];
}

export interface PointOptions {
  /**
   * The screenshot the point was chosen on (`obs-N`). A point is always checked against the
   * latest screenshot; an older id is `STALE_OBSERVATION`.
   */
  observation?: string;
}

/** A screenshot as an agent that acts by coordinates sees it. */
export interface Shot {
  /** `obs-N`: the observation the next point is chosen on. */
  id: string;
  /** The viewport as PNG, every secret covered. */
  png: Buffer;
  /** The image's size: points are given in these pixels. */
  width: number;
  height: number;
  /** CSS pixels per image pixel: the image point (x, y) is (x · scale.x, y · scale.y) in the viewport. */
  scale: { x: number; y: number };
  /** The page was settled and did not change while it was captured. */
  stable: boolean;
}

/** A verified step: its record and its report. */
export class Result {
  readonly record: StepRecord;
  readonly verdict: Prufe.VerdictKind | null;
  readonly ok: boolean;
  readonly reason: string;
  /** The element acted on, as `role[name] in region`. */
  readonly target: string | null;
  /** What was observed to change. */
  readonly lines: string[];
  readonly attempts: number;
  readonly undone: number;
  /**
   * The screenshot a coordinate step ends with (a wait too, once a screenshot was taken):
   * the next point is chosen on it. Null when the page could not be captured.
   */
  readonly observation?: Shot | null;
  explain(): string;
  summary(): string;
  toJSON(): StepRecord;
}

/** What every function of the package throws. */
export class PrufeError extends Error {
  readonly code: ErrorCode;
  /** The step's record, when the step ran far enough to have one. */
  readonly record: StepRecord | null;
  readonly candidates?: Prufe.Candidate[];
  /** The screenshot a coordinate step that failed ends with, when it ran so far. */
  readonly observation?: Shot | null;
  explain(): string;
}
/** The effect was not the intended one (or not proven to be); it was undone. */
export class VerificationFailed extends PrufeError {
  readonly code: 'VERIFICATION_FAILED';
  readonly record: StepRecord;
}
/** Undoing a wrong effect left something behind. */
export class UndoFailed extends PrufeError {
  readonly code: 'UNDO_FAILED';
  readonly record: StepRecord;
  readonly residue: string[];
}
/** The effect was not proven right and no inverse applies: stopped, nothing undone. */
export class IrreversibleAction extends PrufeError {
  readonly code: 'IRREVERSIBLE_ACTION';
  readonly record: StepRecord;
}

/**
 * A verifier of one page. `E` is the library's element type (a Playwright Locator or
 * ElementHandle, a Puppeteer ElementHandle): it is described once, then resolved
 * strictly like a prufe target.
 */
export class Verifier<E = never> {
  readonly policy: PrufeRun.Policy;
  click(target: Target | E, options?: StepOptions): Promise<Result>;
  check(target: Target | E, options?: StepOptions): Promise<Result>;
  uncheck(target: Target | E, options?: StepOptions): Promise<Result>;
  /** With `sensitive`, the value appears in no record, error or trace. */
  fill(target: Target | E, value: string, options?: StepOptions & { sensitive?: boolean }): Promise<Result>;
  selectOption(target: Target | E, option: string, options?: StepOptions): Promise<Result>;
  /** A key (`Enter`, `Shift+Tab`) on the target, or on the focused element when it is null. */
  press(target: Target | E | null, key: string, options?: StepOptions): Promise<Result>;
  hover(target: Target | E, options?: StepOptions): Promise<Result>;
  setInputFiles(target: Target | E, files: string | string[], options?: InverseOptions): Promise<Result>;
  dragTo(source: Target | E, to: Target | E, options?: InverseOptions): Promise<Result>;
  goto(url: string, options?: StepOptions): Promise<Result>;
  /** Observes while `fn` acts, then judges the change against `intent` alone; undoes nothing. */
  watch(intent: string | null, fn: () => unknown, options?: { expect?: Claim[] }): Promise<Result>;
  /**
   * Settles and observes without acting: what the page changes by itself (a clock, a
   * ticker, a carousel) is learnt, so the next step starts from it. The record's action is
   * `look`. A verified `goto` looks by itself.
   */
  look(): Promise<Result>;
  /**
   * Looks until `until` holds (again each time the page moves, at least every 500 ms);
   * `POSTCONDITION_TIMEOUT` after `timeoutMs` (default: the verifier's timeout).
   */
  waitFor(until: PrufeRun.Postcondition, options?: { timeoutMs?: number }): Promise<Result>;

  // Coordinate steps, for agents that see screenshots (the CLI's `screenshot`, `click_at`,
  // `drag_at`, `scroll_at`, `type` and `key`). Points are image pixels of the latest screenshot:
  // outside it `POINT_OUT_OF_BOUNDS`, on an older one `STALE_OBSERVATION`, both before any input.

  /** Settles, then captures the viewport and the elements under every point of it. */
  screenshot(options?: { maxWidth?: number }): Promise<Shot>;
  /**
   * A click judged on the element the screenshot showed at the point; `TARGET_CHANGED`,
   * nothing pressed, when the point now shows another.
   */
  clickAt(x: number, y: number, options?: StepOptions & PointOptions & { button?: PrufeRun.Button }): Promise<Result>;
  /** A pointer drag (pointer events), judged on the element under `from`; `steps` 1 to 200 (10). */
  dragAt(from: Prufe.Point, to: Prufe.Point, options?: StepOptions & PointOptions & { steps?: number }): Promise<Result>;
  /** A wheel turn of `dx`, `dy` image pixels; the reason says where the container stands. Not judged. */
  scrollAt(x: number, y: number, dx: number, dy: number, options?: PointOptions): Promise<Result>;
  /**
   * Text into the field the last click or key focused (`FOCUS_LOST` when the focus is
   * elsewhere), read back; with `sensitive`, or in a sensitive field, it appears in no output.
   */
  type(text: string, options?: { sensitive?: boolean }): Promise<Result>;
  /** A key chord (`Tab`, `Control+S`) on whatever has the focus. Not judged. */
  key(chord: string): Promise<Result>;
}

/** A verifier of a Playwright or a Puppeteer page (Chromium). */
export function prufe(page: object, options?: Options): Promise<Verifier<object>>;
export default prufe;
