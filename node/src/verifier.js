// @ts-check
// The verifier of one page: each method makes one step of the machine's vocabulary, runs it
// through the machine (driver.js) with the engine in its isolated world (world.js) and the
// library's input, and returns the step's record or throws the error it ends with.
//
// Targets. A prufe target (`{ role, name, region, frame, href, inViewport }`) goes to the
// machine as it is. A library element (Playwright `Locator` / `ElementHandle`, Puppeteer
// `ElementHandle` / `Locator`) is turned into one ONCE, before the step: the library finds
// its element in the page (strictly: no element is `TARGET_NOT_FOUND`, two or more are
// `TARGET_AMBIGUOUS`), computes in the element's own document the path to it from its root's
// document (child positions, `s` into an open shadow root, `f` into a same-origin frame's
// document; a frame of another origin is a root of its own, found through the library's
// `<iframe>` element of it), and the root's engine, in its own world, follows that path and describes the element
// it reaches (or the nearest observed element around it): role, name, region, frame. That
// description is the target from then on, resolved like any other by the machine. The path is
// plain data computed by reading the DOM; nothing is written into the page, so page scripts
// see nothing of the handoff. A page that lies about its own DOM to main-world scripts
// (patched `childNodes`) can only make its own locator point elsewhere; the engine describes
// what the path really reaches, and the machine re-resolves that description.
//
// Secrets. A `sensitive` fill's value, and the value of any fill the engine reports
// redacted (password, payment and one-time-code fields), is scrubbed from every string of
// every record, error and trace from then on, with the forms a page is likely to echo it in.
// The forms and the scrubbing are the machine's (`secretForms`, `scrub`: core `redact`, as
// the harness's and the Python package's), so this file holds no rule of its own. Text is
// typed with `Input.insertText` on the verifier's own session, so no value passes through
// the library's API log either.

import { resolve as resolvePath } from 'node:path';
import { answerNeed, drive } from './driver.js';
import { machine } from './machine.js';
import { errorOf, explainRecord, PrufeError, summary } from './errors.js';
import { TraceWriter } from './trace.js';
import { Camera, capturePng, screenshotsOption } from './pictures.js';

/** @typedef {PrufeRun.Record} StepRecord */

// The machine module (errors.js loads it first): the redaction of the caller's secrets.
const rules = await machine();

/**
 * @typedef {object} Options
 * @property {number} [maxAttempts] attempts per step, the first included
 * @property {number} [quietMs] how long the page must not change to count as settled
 * @property {number} [timeoutMs] the most a settle waits
 * @property {number} [pollMs] how often a settle reads the fingerprint
 * @property {number} [quickMs] the shorter quiet window, taken after an effect when the page
 *   shows no sign of change and no request it started since the input is under way or ended
 *   within it (0: always `quietMs`)
 *   (each left out: the machine's default, `defaults()` of the machine module; node/types
 *   documents them)
 * @property {'reject' | 'accept'} [ambiguous] what an AMBIGUOUS effect comes to without a judge
 * @property {(question: PrufeRun.Question) => Promise<{ yes: boolean, detail?: string } | boolean | string>} [judge]
 *   the arbiter asked about an AMBIGUOUS effect; it never overrides MATCH or MISMATCH
 * @property {string[]} [regions] observe only these regions
 * @property {string[]} [ignoreRegions] never observe these regions
 * @property {string} [traceDir] write one trace record per step there, as `prufe run --trace-dir`
 * @property {(run: object) => void} [onJudged] hears the machine's state each time it judged an
 *   attempt (the snapshots it judged, redacted as observed): for replaying the judge offline
 * @property {'off' | 'failures' | 'all'} [screenshots] with `traceDir`: which steps keep a before
 *   and an after picture beside their record, secrets covered (default 'failures')
 */

/**
 * @typedef {object} StepOptions
 * @property {string} [intent] a sentence saying what the step is meant to do
 * @property {PrufeRun.Claim[]} [expect] typed claims the effect must bear out, passed to the
 *   machine as they are (it checks them: `INVALID_EXPECT` before anything is sent)
 */

/**
 * @typedef {object} PointOptions
 * @property {string} [observation] the screenshot the point was chosen on (`obs-N`); a point is
 *   always checked against the latest, and an older id is `STALE_OBSERVATION`
 */

/**
 * A screenshot as a coordinate step's caller sees it.
 * @typedef {object} Shot
 * @property {string} id `obs-N`, the observation points are chosen on
 * @property {Buffer} png the viewport, every secret covered
 * @property {number} width the image's size: points are given in these pixels
 * @property {number} height
 * @property {{ x: number, y: number }} scale CSS pixels per image pixel: the image point (x, y) is
 *   (x · scale.x, y · scale.y) in the page's viewport
 * @property {boolean} stable the page was settled and did not change while it was captured
 */

/** The result of a verified step: its record, and `explain()`. */
export class Result {
  /** @param {StepRecord} record */
  constructor(record) {
    /** @type {StepRecord} */
    this.record = record;
    this.verdict = record.verdict;
    this.ok = record.ok;
    this.reason = record.reason;
    this.target = record.target;
    this.lines = record.lines;
    this.attempts = record.attempts;
    this.undone = record.undone;
    /** @type {Shot | null | undefined} the observation a coordinate step ends with */
    this.observation = undefined;
  }

  /** The readable report, as `prufe run` prints it. */
  explain() {
    return explainRecord(this.record);
  }

  summary() {
    return summary(this.record);
  }

  toJSON() {
    return this.record;
  }
}

/**
 * What a library adapter gives the verifier.
 * @typedef {object} Adapter
 * @property {import('./driver.js').Port} port
 * @property {import('./world.js').World} world
 * @property {(target: unknown) => boolean} isElement a library element or locator
 * @property {(target: any, timeoutMs: number) => Promise<{ handles: any[], count: number, shown: string, release: () => Promise<void> }>} elements
 *   what the element or locator matches: element handles of the first few, how many there
 *   are, how to name it in a message, and how to release the handles made for it
 * @property {(handle: any, hops: number) => Promise<any | null>} owner the `<iframe>` element
 *   (a handle in its parent frame) of the document `hops` frames above the handle's own, null
 *   for the top document
 */

/** @typedef {(number | 's' | 'f')[]} Path */
/** @typedef {{ root: string, path: Path }} Place an element's root and the path to it from the root's document */

/**
 * Refuses bad options before anything is asked of the browser.
 * @param {Options} options
 */
export function checkOptions(options) {
  screenshotsOption(options.screenshots);
}

const TARGET_KEYS = new Set(['role', 'name', 'region', 'frame', 'href', 'inViewport', 'in', 'nth']);

export class Verifier {
  /** @type {Adapter} */
  #adapter;
  /** @type {Options} */
  #options;
  /** @type {PrufeRun.Seen | null} */
  #seen = null;
  /** @type {string[]} the caller's secrets as given */
  #values = [];
  /** @type {string[]} their forms (`secretForms`), longest first */
  #secrets = [];
  /** @type {TraceWriter | null} */
  #trace;
  #step = 0;
  /** @type {'off' | 'failures' | 'all'} */
  #screenshots;
  /** @type {Camera | null} the pictures of the step in progress */
  #camera = null;
  /** @type {PrufeRun.Screen | null} the latest screenshot's */
  #observed = null;
  #issued = 0;
  /** @type {number | null} */
  #maxWidth = null;
  /** @type {Prufe.ElementRecord | null} the field `type` is meant for: focused by the last click or key */
  #intended = null;

  /**
   * @param {Adapter} adapter
   * @param {Options} [options]
   */
  constructor(adapter, options = {}) {
    this.#adapter = adapter;
    this.#options = { ...options };
    this.#screenshots = screenshotsOption(options.screenshots);
    this.#trace = options.traceDir ? new TraceWriter(options.traceDir) : null;
  }

  /** The verification policy of every step (the CLI's flags). */
  get policy() {
    const o = this.#options;
    /** @type {PrufeRun.Timing} */
    const timing = {};
    if (o.pollMs !== undefined) timing.pollMs = o.pollMs;
    if (o.quietMs !== undefined) timing.quietMs = o.quietMs;
    if (o.timeoutMs !== undefined) timing.timeoutMs = o.timeoutMs;
    if (o.quickMs !== undefined) timing.quickMs = o.quickMs;
    /** @type {PrufeRun.Policy} */
    const policy = { timing };
    if (o.maxAttempts !== undefined) policy.maxAttempts = o.maxAttempts;
    policy.ambiguous = o.judge ? 'arbiter' : (o.ambiguous ?? 'reject');
    if (o.regions) policy.regions = o.regions;
    if (o.ignoreRegions) policy.ignoreRegions = o.ignoreRegions;
    return policy;
  }

  /** The policy a run is started with: the session's secrets with it, for the machine to scrub. */
  get #runPolicy() {
    const policy = this.policy;
    if (this.#secrets.length > 0) policy.secrets = this.#secrets;
    return policy;
  }

  /**
   * The policy of a step's run: with a camera, the machine asks for the step's pictures.
   * @param {Camera | undefined} camera
   */
  #pictured(camera) {
    return camera ? { ...this.#runPolicy, pictures: true } : this.#runPolicy;
  }

  /** @param {unknown} target @param {StepOptions} [options] */
  click(target, options) {
    return this.#verified(async () => ({ kind: 'click', target: await this.#target(target) }), options);
  }

  /** @param {unknown} target @param {StepOptions} [options] */
  check(target, options) {
    return this.#verified(async () => ({ kind: 'check', target: await this.#target(target) }), options);
  }

  /** @param {unknown} target @param {StepOptions} [options] */
  uncheck(target, options) {
    return this.#verified(async () => ({ kind: 'uncheck', target: await this.#target(target) }), options);
  }

  /**
   * Types `value` in place of the field's content. With `sensitive`, the value appears in no
   * record, error or trace (the judge compares its keyed hash).
   * @param {unknown} target @param {string} value @param {StepOptions & { sensitive?: boolean }} [options]
   */
  fill(target, value, options = {}) {
    if (typeof value !== 'string') throw new PrufeError('INVALID_ARGUMENT', 'fill: the value must be a string');
    if (options.sensitive) this.#addSecret(value);
    return this.#verified(async () => ({
      kind: 'fill', target: await this.#target(target), value, sensitive: Boolean(options.sensitive),
    }), options, value);
  }

  /** @param {unknown} target @param {string} option a label or value @param {StepOptions} [options] */
  selectOption(target, option, options) {
    return this.#verified(async () => ({ kind: 'select', target: await this.#target(target), option }), options);
  }

  /**
   * A key (`Enter`, `Shift+Tab`) on `target` (focused first), or on whatever has the focus
   * when `target` is null. `inverse` declares the steps that take back a key nothing generic
   * undoes (`Alt+ArrowDown` that moves a row of a list): without one, such a wrong effect
   * stops with IRREVERSIBLE_ACTION.
   * @param {unknown} target @param {string} key
   * @param {StepOptions & { inverse?: PrufeRun.Step[] }} [options]
   */
  press(target, key, options) {
    return this.#verified(async () => ({
      kind: 'press', key, target: target === null || target === undefined ? null : await this.#target(target),
    }), options);
  }

  /** @param {unknown} target @param {StepOptions} [options] */
  hover(target, options) {
    return this.#verified(async () => ({ kind: 'hover', target: await this.#target(target) }), options);
  }

  /**
   * @param {unknown} target the file input, or an element holding or labelling one
   * @param {string | string[]} files paths, relative to the working directory
   * @param {StepOptions & { inverse?: PrufeRun.Step[] }} [options]
   */
  setInputFiles(target, files, options = {}) {
    const list = (Array.isArray(files) ? files : [files]).map((f) => resolvePath(f));
    return this.#verified(async () => ({ kind: 'upload', target: await this.#target(target), files: list }), options);
  }

  /**
   * Drags `source` onto `to`.
   * @param {unknown} source @param {unknown} to @param {StepOptions & { inverse?: PrufeRun.Step[] }} [options]
   */
  dragTo(source, to, options) {
    return this.#verified(async () => ({ kind: 'drag', target: await this.#target(source), to: await this.#target(to, true) }), options);
  }

  /** @param {string} url absolute, or relative to the page's address @param {StepOptions} [options] */
  goto(url, options) {
    return this.#verified(async () => ({ kind: 'goto', url }), options);
  }

  /**
   * Observes the page while `fn` acts on it (unverified, with the library or anything else),
   * then judges what changed against `intent` alone. Nothing is undone.
   * @param {string | null} intent
   * @param {() => unknown} fn
   * @param {{ expect?: PrufeRun.Claim[] }} [options]
   */
  watch(intent, fn, options = {}) {
    return this.#called(() => this.#watch(intent, fn, options.expect));
  }

  /** @param {string | null} intent @param {() => unknown} fn @param {PrufeRun.Claim[]} [expect] */
  async #watch(intent, fn, expect) {
    /** @type {PrufeRun.Step} */
    const step = { action: { kind: 'watch' }, intent: intent ?? null };
    if (expect) step.expect = expect;
    this.#seen = null;
    return this.#run((m) => m.start(step, this.#runPolicy, null), {
      arbiter: this.#arbiter(),
      act: async () => {
        await fn();
      },
    });
  }

  /**
   * Settles and observes without acting, as a step does before its action: what the page
   * changes by itself (a clock, a ticker, a carousel) is learnt here, so the next step
   * starts from it instead of learning it first. Call it after opening a page with the
   * library's own navigation; a verified `goto` looks by itself. Its record's action is
   * `look`; `stable` says whether the page settled before the timeout.
   * @returns {Promise<Result>}
   */
  look() {
    const seen = this.#seen;
    return this.#called(() => this.#run((m) => m.look(this.#runPolicy, seen), {}, { keepSeen: true }));
  }

  /**
   * Looks until `until` holds: again each time the page moves, and at least every 500 ms;
   * `POSTCONDITION_TIMEOUT` when `timeoutMs` (default: the verifier's timeout) passes first.
   * A `valueEquals` with `sensitive` is compared by the page's keyed hash, never shown.
   * @param {PrufeRun.Postcondition} until
   * @param {{ timeoutMs?: number }} [options]
   * @returns {Promise<Result>}
   */
  waitFor(until, options = {}) {
    if (until && typeof until === 'object' && 'sensitive' in until && until.sensitive && typeof until.value === 'string') {
      this.#addSecret(until.value);
    }
    const wait = () => this.#run((m) => m.wait(until, options.timeoutMs ?? null, this.#runPolicy), {}, { keepSeen: true });
    if (this.#issued === 0) return this.#called(wait);
    // After a screenshot, a wait ends with a fresh one, as every coordinate step does.
    this.#observed = null;
    return this.#called(() => this.#observing(wait));
  }

  /**
   * The viewport as an agent that acts by coordinates sees it, every secret covered, with the
   * hit boxes of the observable elements taken at the same moment (the CLI's `screenshot`):
   * the next `clickAt`, `dragAt` or `scrollAt` chooses its points on this image. Settles first.
   * Each coordinate step ends with a fresh observation (its result's `observation`), so a
   * point chosen on an earlier image is `STALE_OBSERVATION`.
   * @param {{ maxWidth?: number }} [options] downscale the image to at most this many pixels wide
   * @returns {Promise<Shot>}
   */
  screenshot(options = {}) {
    return this.#called(async () => {
      try {
        this.#maxWidth = (await machine()).points.maxWidth(options.maxWidth ?? null);
      } catch (error) {
        throw asPrufeError(error);
      }
      this.#seen = null;
      return this.#observe(true).catch((error) => {
        throw this.#scrub(asPrufeError(error));
      });
    });
  }

  /**
   * A click at a point of the latest screenshot, verified with the element the image showed
   * there as the target: `TARGET_CHANGED` with nothing pressed when the point now shows
   * another; a click whose only effect is the focus a field takes is MATCH.
   * @param {number} x @param {number} y image pixels
   * @param {StepOptions & PointOptions & { button?: PrufeRun.Button }} [options]
   */
  clickAt(x, y, options = {}) {
    return this.#called(() => this.#pointer(options, { kind: 'clickAt', at: { x, y }, button: options.button ?? 'left' }));
  }

  /**
   * A pointer drag between two points of the latest screenshot (pointer events: a sortable
   * list, a board), verified with the element under `from` as the target.
   * @param {PrufeRun.Point} from @param {PrufeRun.Point} to image pixels
   * @param {StepOptions & PointOptions & { steps?: number }} [options] `steps`: moves on the way (1 to 200, default 10)
   */
  dragAt(from, to, options = {}) {
    return this.#called(() => this.#pointer(options, { kind: 'dragAt', from, to, steps: options.steps ?? 10 }));
  }

  /**
   * A wheel turn at a point of the latest screenshot, `dx`, `dy` in image pixels: the container
   * under the pointer, where it stood before and after it stopped moving (the record's
   * reason). Not judged: a `waitFor` states what should follow.
   * @param {number} x @param {number} y @param {number} dx @param {number} dy
   * @param {PointOptions} [options]
   */
  scrollAt(x, y, dx, dy, options = {}) {
    return this.#called(() => this.#pointer({ observation: options.observation }, { kind: 'scrollAt', at: { x, y }, dx, dy }));
  }

  /**
   * Text typed where the focus is, into the field the last click or key left focused
   * (`FOCUS_LOST` and nothing typed when the focus is elsewhere), then read back. With
   * `sensitive`, or in a field the engine reports sensitive, the text appears in no record,
   * error or trace (it is compared by keyed hash).
   * @param {string} text @param {{ sensitive?: boolean }} [options]
   */
  type(text, options = {}) {
    return this.#called(() => {
      // Its length is the machine's to check (`step::check_type_text`).
      if (typeof text !== 'string') throw new PrufeError('INVALID_ACTION', '"text" must be a string');
      const sensitive = Boolean(options.sensitive);
      if (sensitive) this.#addSecret(text);
      return this.#coordinate({ kind: 'typeText', text, sensitive, field: this.#intended }, {}, {
        onRecord: (record) => {
          if (record.value === '[redacted]') this.#addSecret(text);
        },
        onRun: (focus) => {
          if (focus) this.#intended = focus;
        },
      });
    });
  }

  /**
   * A key chord (`Tab`, `Control+S`) on whatever has the focus, every key released in
   * reverse order; typing then goes where the focus is. Not judged: a `waitFor` states what
   * should follow.
   * @param {string} chord
   */
  key(chord) {
    return this.#called(() => {
      if (typeof chord !== 'string') throw new PrufeError('INVALID_ACTION', 'a key chord is a string such as "Control+S"');
      return this.#coordinate({ kind: 'key', chord }, {}, { onRun: (focus) => { this.#intended = focus; } });
    });
  }

  /**
   * `step`, run for a public method: a `PrufeError` it throws gets the caller's stack.
   * @template T
   * @param {() => Promise<T>} step
   * @returns {Promise<T>}
   */
  async #called(step) {
    // Where the caller called from: the lines before it are this method's and the public one's.
    const called = new Error();
    try {
      return await step();
    } catch (error) {
      throw fromCaller(error, called, 3);
    }
  }

  /**
   * A step on points of the latest screenshot: the machine's action for them (checked against
   * it and turned into CSS pixels before anything is sent), run with the observation's boxes.
   * @param {StepOptions & PointOptions} options
   * @param {PrufeRun.Pick} pick image pixels
   */
  async #pointer(options, pick) {
    const screen = this.#observed;
    /** @type {PrufeRun.Action} */
    let made;
    try {
      made = (await machine()).points.aim({ screen, observation: options.observation ?? null, pick });
    } catch (error) {
      throw asPrufeError(error);
    }
    const clicks = made.kind === 'clickAt';
    return this.#coordinate(made, options, {
      boxes: screen?.boxes,
      camera: made.kind !== 'scrollAt',
      onRun: clicks ? (focus) => { this.#intended = focus; } : undefined,
    });
  }

  /**
   * One coordinate step: run without the last step's `seen` (nothing hands on from it, as in
   * the CLI), ended with a fresh observation, on its result or on the error it throws.
   * @param {PrufeRun.Action} action
   * @param {StepOptions} options
   * @param {{ boxes?: PrufeRun.HitBox[], camera?: boolean, onRecord?: (record: StepRecord) => void,
   *   onRun?: (focus: Prufe.ElementRecord | null) => void }} how
   */
  async #coordinate(action, options, how) {
    this.#observed = null;
    /** @type {PrufeRun.Step} */
    const step = { action, intent: options.intent ?? null };
    if (options.expect) step.expect = options.expect;
    return this.#observing(async () => {
      this.#seen = null;
      try {
        const camera = how.camera ? this.#newCamera() : undefined;
        return await this.#run((m) => m.start(step, this.#pictured(camera), null), {
          arbiter: this.#arbiter(), boxes: how.boxes, camera,
        }, { onRecord: how.onRecord, onRun: (run) => how.onRun?.(/** @type {any} */ (run).attempt?.focus ?? null) });
      } finally {
        this.#seen = null;
      }
    });
  }

  /**
   * `step`, then a fresh observation (null when the page cannot be captured, so that no
   * earlier one stays quotable), on its result or on its error as `observation`.
   * @param {() => Promise<Result>} step
   */
  async #observing(step) {
    let result;
    try {
      result = await step();
    } catch (error) {
      const shot = await this.#observe(false).catch(() => null);
      if (error instanceof PrufeError) /** @type {any} */ (error).observation = shot;
      throw error;
    }
    result.observation = await this.#observe(false).catch(() => null);
    return result;
  }

  /**
   * Captures the viewport and the hit boxes behind it (the machine's observation), and issues
   * the next `obs-N`: settled first with `settle`, then taken again (up to three times) until
   * the page did not change during the capture.
   * @param {boolean} settle
   * @returns {Promise<Shot>}
   */
  async #observe(settle) {
    this.#observed = null;
    const { port, world } = this.#adapter;
    const points = (await machine()).points;
    /** @type {Awaited<ReturnType<typeof capturePng>> | undefined} */
    let captured;
    // The machine's observation (`shot`): settled first, captured again while the page
    // changed meanwhile, every root's boxes gathered in the top viewport.
    const { record, run } = await drive(port, (m) => m.shot(this.policy, settle), {
      policy: this.policy,
      capture: async () => { captured = await capturePng(port, world.session, this.#secrets, this.#maxWidth); },
    });
    if (record.error) throw new PrufeError(record.error.code, record.error.message);
    const c = /** @type {Awaited<ReturnType<typeof capturePng>> | undefined} */ (captured);
    if (!run.shot || !c) throw new PrufeError('INTERNAL', 'the observation ended without a picture');
    const { boxes, stable } = run.shot;
    this.#issued += 1;
    const id = `obs-${this.#issued}`;
    const scale = points.scale({ id, image: c.image, capture: c.capture, dpr: c.dpr });
    this.#observed = { id, image: c.image, capture: c.capture, dpr: c.dpr, boxes };
    return { id, png: c.png, width: c.image.width, height: c.image.height, scale, stable };
  }

  /**
   * Drives one run of the machine, begun by `begin`, to its result: the dialogs it heard,
   * the `seen` it hands on (with `keepSeen`, a run that hands none keeps the last: a look,
   * a wait), its trace, and its error thrown. `onRecord` sees the record first.
   * @param {(m: PrufeRun.Api) => PrufeRun.Turn} begin
   * @param {import('./driver.js').Options} [driving]
   * @param {{ keepSeen?: boolean, onRecord?: (record: StepRecord) => void, onRun?: (run: PrufeRun.Run) => void }} [options]
   *   `onRun` sees the run's last state
   */
  async #run(begin, driving = {}, { keepSeen = false, onRecord, onRun } = {}) {
    this.#step += 1;
    const { port, world } = this.#adapter;
    await world.takeDialogs();
    let result;
    try {
      result = await drive(port, begin, { policy: this.policy, ...driving });
    } catch (error) {
      throw this.#scrub(asPrufeError(error));
    }
    const { record, seen, run } = result;
    if (seen || !keepSeen) this.#seen = seen;
    onRun?.(run);
    onRecord?.(record);
    record.dialogs = await world.takeDialogs();
    return this.#finish(record);
  }

  /** The caller's judge of AMBIGUOUS effects, asked the machine's question (scrubbed by it). */
  #arbiter() {
    return this.#options.judge;
  }

  /**
   * One verified step.
   * @param {() => Promise<PrufeRun.Action>} action
   * @param {StepOptions & { inverse?: PrufeRun.Step[] }} [options]
   * @param {string} [value] a fill's value, a secret when the field turns out sensitive
   */
  async #verified(action, options = {}, value) {
    // Where the caller called from, for the stack of what this step throws.
    const called = new Error();
    try {
      return await this.#verifiedStep(action, options, value);
    } catch (error) {
      throw fromCaller(error, called, 3);
    }
  }

  /**
   * @param {() => Promise<PrufeRun.Action>} action
   * @param {StepOptions & { inverse?: PrufeRun.Step[] }} options
   * @param {string} [value]
   */
  async #verifiedStep(action, options, value) {
    /** @type {PrufeRun.Step} */
    let step;
    try {
      step = { action: await action(), intent: options.intent ?? null };
      if (options.inverse) step.inverse = options.inverse;
      if (options.expect) step.expect = options.expect;
    } catch (error) {
      this.#step += 1;
      throw this.#scrub(asPrufeError(error));
    }
    const seen = this.#seen;
    const camera = this.#newCamera();
    return this.#run((m) => m.start(step, this.#pictured(camera), seen), {
      arbiter: this.#arbiter(),
      camera,
      onJudged: this.#options.onJudged,
    }, {
      // A fill whose field turned out sensitive: its value is a secret from now on.
      onRecord: (record) => {
        if (value !== undefined && record.value === '[redacted]') this.#addSecret(value);
      },
    });
  }

  /** A camera for the next step, when the trace keeps pictures. */
  #newCamera() {
    this.#camera = this.#trace && this.#screenshots !== 'off'
      ? new Camera(this.#adapter.port, this.#adapter.world.session, () => this.#secrets)
      : null;
    return this.#camera ?? undefined;
  }

  /** @param {StepRecord} raw */
  #finish(raw) {
    const record = this.#scrub(raw);
    const keep = this.#screenshots === 'all' || (this.#screenshots === 'failures' && !record.ok);
    this.#trace?.write(this.#step, record, keep ? this.#camera?.pictures : undefined);
    this.#camera = null;
    const error = errorOf(record);
    if (error) throw error;
    return new Result(record);
  }

  /**
   * A prufe target as it is, or the target of a library element's one element.
   * @param {unknown} target
   * @param {boolean} [place] the step's destination, which may be hidden until a drag starts
   * @returns {Promise<PrufeRun.Target>}
   */
  async #target(target, place = false) {
    if (this.#adapter.isElement(target)) return this.#identify(target, place);
    const t = /** @type {any} */ (target);
    // With `in` (the container) or `nth` (its place), a name of its own is optional.
    const named = t && typeof t === 'object' && (typeof t.name === 'string' || (t.name === undefined && (t.in || t.nth)));
    if (!named) {
      throw new PrufeError('INVALID_TARGET', 'a target is a Locator, an ElementHandle, or { role, name, region?, frame?, href?, inViewport?, in?, nth? }');
    }
    for (const key of Object.keys(target)) {
      if (!TARGET_KEYS.has(key)) throw new PrufeError('INVALID_TARGET', `unknown target field ${JSON.stringify(key)} (allowed: ${[...TARGET_KEYS].join(', ')})`);
    }
    return /** @type {PrufeRun.Target} */ (t.name === undefined ? { ...t, name: '' } : target);
  }

  /**
   * The target of a library element's one element; the machine decides it (`located`) from
   * how many it matches, the engine's record of the one and the target naming it.
   * @param {unknown} element @param {boolean} place
   */
  async #identify(element, place) {
    const timeoutMs = this.#options.timeoutMs ?? (await machine()).defaults().timing.timeoutMs;
    const { handles, count, shown, release } = await this.#adapter.elements(element, timeoutMs);
    try {
      /** @type {Parameters<typeof rules.located>[0]} */
      const found = { shown, count, place };
      if (count > 1) {
        found.candidates = [];
        for (const handle of handles.slice(0, 10)) {
          const at = await this.#place(handle).catch(() => null);
          const e = (at ? await this.#identity(at).catch(() => null) : null)?.element;
          if (e) found.candidates.push({ ref: e.ref, role: e.role, name: e.name || e.text || '', region: e.region });
        }
      } else if (count === 1) {
        const at = await this.#place(handles[0]);
        if (at) Object.assign(found, await this.#identity(at));
      }
      const decided = rules.located(found);
      if ('error' in decided) throw new PrufeError(decided.error.code, decided.error.message, { candidates: decided.error.candidates });
      return decided.target;
    } finally {
      await release();
    }
  }

  /**
   * Where a library element is: the root whose document holds it and the path to it there.
   * In the element's own document (the library's world) the path runs up to the first
   * document whose frame element it cannot read: the top, or a frame of another origin. For
   * the latter, the library names that frame's `<iframe>`, whose own place gives the root's
   * path: the parent root's path, the same-origin frames on the way and the `<iframe>`'s
   * position (`prufe.frameIndex`), as world.js numbers roots. Null when a frame on the way is
   * gone.
   * @param {any} handle
   * @returns {Promise<Place | null>}
   */
  async #place(handle) {
    const { path, hops, top } = await handle.evaluate(pathInPage);
    if (!path) return null;
    if (top) return { root: '', path };
    const owner = await this.#adapter.owner(handle, hops);
    if (!owner) return null;
    try {
      const outer = await this.#place(owner);
      if (!outer) return null;
      const indices = await this.#adapter.world.evaluateIn(outer.root, framePathInPage, outer.path);
      if (!indices) return null;
      return { root: [...(outer.root ? [outer.root] : []), ...indices].join('.'), path };
    } finally {
      await owner.dispose?.();
    }
  }

  /**
   * The engine's description of the element at a place, in the page's terms.
   * @param {Place} place
   */
  async #identity(place) {
    const found = await this.#adapter.world.evaluateIn(place.root, identityInPage, place.path);
    if (!found.element || place.root === '') return found;
    const { frames } = await machine();
    return {
      element: /** @type {Prufe.ElementRecord} */ (frames.adopt({ path: place.root, element: found.element })),
      target: found.target ? frames.adoptTarget({ path: place.root, target: found.target }) : null,
    };
  }

  /**
   * A caller's secret, registered once; its forms are the machine's (`secretForms`).
   * @param {string} value
   */
  #addSecret(value) {
    if (this.#values.includes(value)) return;
    this.#values.push(value);
    this.#secrets = rules.secretForms(this.#values);
  }

  /**
   * `value` with every secret replaced by `[redacted]` in every string (keys included), by
   * the machine (`scrub`); of an error, its message, stack, record and candidates.
   * @template T
   * @param {T} value
   * @returns {T}
   */
  #scrub(value) {
    if (this.#secrets.length === 0) return value;
    if (value instanceof Error) {
      const e = /** @type {any} */ (value);
      const parts = { message: e.message, stack: e.stack ?? null, record: e.record ?? null, candidates: e.candidates ?? null };
      const clean = rules.scrub(this.#secrets, parts);
      for (const [key, part] of Object.entries(clean)) if (e[key] !== undefined && e[key] !== null) e[key] = part;
      return value;
    }
    return rules.scrub(this.#secrets, value);
  }
}

/**
 * A PrufeError's stack as the caller's: its message, then where the step was called from
 * (a test runner shows the caller's line, not the package's).
 * @param {unknown} error
 * @param {Error} called created on entry to the public method
 * @param {number} skip the lines of `called.stack` before the caller's frame
 */
function fromCaller(error, called, skip) {
  if (error instanceof PrufeError && called.stack) {
    const frames = called.stack.split('\n').slice(skip);
    error.stack = `${error.name}: ${error.message}\n${frames.join('\n')}`;
  }
  return error;
}

/** @param {unknown} error @returns {PrufeError} */
function asPrufeError(error) {
  if (error instanceof PrufeError) return error;
  const e = /** @type {{ code?: string, message?: string }} */ (error ?? {});
  const code = typeof e.code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(e.code) ? e.code : 'BROWSER_ERROR';
  return new PrufeError(code, String(e.message ?? error));
}

/**
 * In the page (the engine's world): the engine's identification of the node at `path`
 * (`prufe.identify`: the observed element it is, is inside or holds, and the target naming
 * it), its typed error as a value.
 * @param {Path} path
 * @returns {Promise<{ element?: Prufe.ElementRecord, target?: PrufeRun.Target | null, error?: { code: string, message: string } }>}
 */
async function identityInPage(path) {
  try {
    await prufe.ready;
    const { element, target } = prufe.identify(path);
    return { element, target };
  } catch (error) {
    const e = /** @type {{ code?: string, message?: string }} */ (error ?? {});
    return { error: { code: e.code ?? 'BROWSER_ERROR', message: String(e.message ?? error) } };
  }
}

/**
 * In a root's world: the frame position path, below the root, of the `<iframe>` at the end of
 * `path` (`prufe.nodeAt`): `prufe.frameIndex` of each same-origin frame on the way, then of
 * the `<iframe>`; null when it is not there.
 * @param {Path} path
 * @returns {Promise<string[] | null>}
 */
async function framePathInPage(path) {
  await prufe.ready;
  const indices = [];
  for (let i = 0; i <= path.length; i++) {
    if (i < path.length && path[i] !== 'f') continue;
    const node = prufe.nodeAt(path.slice(0, i));
    const index = node && node.nodeType === 1 ? prufe.frameIndex(/** @type {Element} */ (node)) : -1;
    if (index < 0) return null;
    indices.push(String(index));
  }
  return indices;
}

/**
 * In the element's own document, through the library (the page's main world): the path to
 * the element from the first document above it whose frame element cannot be read (the top
 * document, `top`, or a frame of another origin), and how many frames it went up through.
 * Only reads the DOM.
 * @param {Node} el
 * @returns {{ path: Path | null, hops: number, top: boolean }}
 */
export function pathInPage(el) {
  /** @type {Path} */
  const steps = [];
  let hops = 0;
  /** @type {any} */
  let node = el;
  for (;;) {
    const parent = node.parentNode;
    if (parent) {
      steps.push(Array.prototype.indexOf.call(parent.childNodes, node));
      node = parent;
    } else if (node.host) {
      steps.push('s');
      node = node.host;
    } else if (node.nodeType === 9) {
      const view = node.defaultView;
      if (!view || view === view.top) return { path: steps.reverse(), hops, top: true };
      let frame = null;
      try {
        frame = view.frameElement;
      } catch {
        frame = null;
      }
      if (!frame) return { path: steps.reverse(), hops, top: false };
      steps.push('f');
      hops += 1;
      node = frame;
    } else {
      // A node out of any document: nowhere the engine can follow.
      return { path: null, hops, top: false };
    }
  }
}
