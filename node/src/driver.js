// @ts-check
// The driver of the verification machine: it loops the DOM-free machine module
// (dist/prufe-run.mjs, loaded once by machine.js) `next(run, answer)` until the need is `done`,
// answering each need with a browser library and the page's `window.prufe` (js/dist/prufe.js,
// injected before any page script). The driver decides nothing: when to observe, what to
// resolve, whether the effect is the one intended, what to undo and whether to retry are the
// machine's (src/core/run), so every driver of it reaches the same record.
//
// Everything the driver asks of the page is one call of a bundle primitive (`prufe.box`,
// `prufe.hitTest`, `prufe.focusSelect`, …) from a function evaluated in the page; only
// timing (the settle's polling, two animation frames for a stable box) and real input live
// on this side (one root's calls and input in page.js). The browser library is behind a
// small port: the package's own (world.js: the engine in an isolated world, input through
// the library), and three ports over a main-world injection kept for the engine's tests:
// Playwright (`playwrightPort`), Puppeteer (`puppeteerPort`) and the raw DevTools protocol
// (`cdpPort`, pointer input only).
// A port with `frames` (the package's World) may hold several roots (frames of another
// origin, each with an engine of its own); such a page's needs are answered by roots.js, a
// page of one root as here. Type-checked against js/prufe.d.ts and js/prufe-run.d.ts by
// `tsc --noEmit -p js`.

import { machine } from './machine.js';
import { call, Failed, leaving, prepareInPage, readPage, send, sleep } from './page.js';
import { answerAcross, readRoot } from './roots.js';
import { snapshotOf } from './snapshots.js';

/** @typedef {import('./page.js').Port} Port */
/** @typedef {import('./page.js').Frames} Frames */

/**
 * @typedef {object} Options
 * @property {PrufeRun.Policy} [policy]
 * @property {PrufeRun.Seen | null} [seen] the last step's `seen`, for the background
 * @property {(question: PrufeRun.Question) => Promise<unknown>} [arbiter]
 *   decides AMBIGUOUS under `ambiguous: 'arbiter'`; what it returns goes to the machine, which
 *   reads it (only a clean yes approves); without one, the answer is no
 * @property {(run: any) => void} [onJudged] hears the machine's state right after it judged an attempt
 * @property {(need: PrufeRun.Need, answer: PrufeRun.Answer) => void} [trace] sees every pair
 * @property {() => Promise<void>} [act] a watch's watched code, run at its `act` need; what it
 *   throws ends the watch and is thrown as it is
 * @property {PrufeRun.HitBox[]} [boxes] a coordinate step's: the hit boxes of the
 *   observation its points were chosen on, which the element under a point is reconciled with
 * @property {() => Promise<void>} [capture] an observation's (`shot`): takes the picture at
 *   its `capture` need and keeps it
 * @property {{ take: (need: Extract<PrufeRun.Need, { need: 'picture' }>) => Promise<void> }} [camera]
 *   takes and keeps the step's pictures the machine asks for (pictures.js)
 */

/**
 * Verifies one step on the page behind `port`.
 * @param {Port} port
 * @param {PrufeRun.Step} step
 * @param {Options} [options]
 * @returns {Promise<{ record: PrufeRun.Record, seen: PrufeRun.Seen | null }>} the record, and
 *   what to hand the next step as `seen`
 */
export async function verify(port, step, options = {}) {
  return drive(port, (m) => m.start(step, options.policy ?? null, options.seen ?? null), options);
}

/**
 * Drives a run the machine began with `begin` (its `start`, `look`, `wait` or `shot`) to its record.
 * @param {Port} port
 * @param {(m: PrufeRun.Api) => PrufeRun.Turn} begin
 * @param {Options} [options]
 * @returns {Promise<{ record: PrufeRun.Record, seen: PrufeRun.Seen | null, run: PrufeRun.Run }>} and
 *   the run's last state
 */
export async function drive(port, begin, options = {}) {
  const m = await machine();
  const { next } = m;
  const started = new Date();
  let { run, need } = begin(m);
  while (need.need !== 'done') {
    /** @type {PrufeRun.Answer} */
    let answer;
    if (need.need === 'act') {
      if (!options.act) answer = { answer: 'failed', error: { code: 'INVALID_ARGUMENT', message: 'a watch needs the code it watches' } };
      else {
        await options.act();
        answer = { answer: 'acted', steps: 0 };
      }
    } else {
      answer = await answerNeed(port, need, options);
    }
    options.trace?.(need, answer);
    // The machine's state is opaque to drivers; a replay tool reads its attempt's verdict.
    const judged = /** @type {any} */ (run).attempt?.verdict;
    ({ run, need } = next(run, answer));
    if (options.onJudged && /** @type {any} */ (run).attempt?.verdict && !judged) options.onJudged(run);
  }
  const record = { ...need.record, durationMs: Date.now() - started.getTime(), startedAt: started.toISOString() };
  return { record, seen: /** @type {PrufeRun.Seen | null} */ (run.seen ?? null), run };
}


/**
 * @param {Port} port
 * @param {PrufeRun.Need} need
 * @param {Options} options
 * @returns {Promise<PrufeRun.Answer>}
 */
export async function answerNeed(port, need, options) {
  try {
    // A page of one root (the common case) is answered by its engine alone, as before; the
    // roots are cached, so this costs nothing once they are known.
    // The boxes of the observation a coordinate step was aimed on, as they were handed in.
    if (need.need === 'read' && need.read.kind === 'aimed') return { answer: 'aimed', boxes: options.boxes ?? null };
    if (need.need === 'ask') return await ask(need, options.arbiter);
    if (need.need === 'picture') {
      await options.camera?.take(need);
      return { answer: 'pictured' };
    }
    if (need.need === 'capture') {
      if (!options.capture) throw new Failed({ code: 'INVALID_ARGUMENT', message: 'a capture is asked only by an observation for coordinate steps' });
      await options.capture();
      return { answer: 'captured' };
    }
    // The settle loop of a page of several roots, or of one whose own loop ended with its
    // document, is the machine's (src/core/run/whole.rs): it asks for the waits and the clock.
    if (need.need === 'wait') {
      await sleep(need.ms);
      return { answer: 'waited', now: performance.now() };
    }
    // Requests heard of from here on are the input's own (the harness marks at the same point).
    if (need.need === 'input') port.requests?.mark();
    const roots = port.frames ? await port.frames.roots() : null;
    const across = need.need === 'frame' || need.need === 'hitFrame' || need.need === 'revealFrame'
      || (need.need === 'read' && ['roots', 'focusedIn', 'under', 'hitBoxes', 'snapshot', 'pulse'].includes(need.read.kind));
    if (roots && (roots.length > 1 || across)) return await answerAcross(port, /** @type {Frames} */ (port.frames), need, options);
    switch (need.need) {
      case 'settle':
        return await settle(port, need);
      // A page that cannot answer now fails the need as it came: the machine reads a
      // transient failure as a move and waits through it, or as no observation.
      case 'fingerprint':
        return { answer: 'fingerprint', fingerprint: await call(port, 'fingerprint', leaving(need.background, '')) };
      case 'observe':
        return { answer: 'observed', snapshot: await snapshotOf(port, port, '', need.sensitive) };
      case 'describe':
        return { answer: 'described', element: await call(port, 'describe', need.ref) };
      case 'prepare': {
        const timeoutMs = options.policy?.timing?.timeoutMs ?? (await machine()).defaults().timing.timeoutMs;
        return await port.evaluate(prepareInPage, { ref: need.ref, hitTest: need.hitTest, timeoutMs });
      }
      case 'input':
        return (await send(port, need.gesture)) ?? { answer: 'sent' };
      case 'read':
        return await read(port, need.read);
      default:
        throw new Failed({ code: 'INVALID_ARGUMENT', message: `this driver does not know the need ${JSON.stringify(need)}` });
    }
  } catch (error) {
    if (error instanceof Failed) return { answer: 'failed', error: error.error };
    return { answer: 'failed', error: { code: 'BROWSER_ERROR', message: String(error instanceof Error ? error.message : error) } };
  }
}

/**
 * `Need::Ask`: the caller's arbiter, waited for as long as the need says; what it returned
 * goes to the machine as JSON, cut to the need's `maxChars`, and the machine reads it. No
 * answer by then is `TIMEOUT`, which the machine words and counts as no.
 * @param {Extract<PrufeRun.Need, { need: 'ask' }>} need
 * @param {Options['arbiter']} arbiter
 * @returns {Promise<PrufeRun.Answer>}
 */
async function ask(need, arbiter) {
  if (!arbiter) return { answer: 'noArbiter' };
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((/** @type {(v: typeof LATE) => void} */ done) => { timer = setTimeout(() => done(LATE), need.timeoutMs); });
  try {
    const answer = await Promise.race([arbiter(need.question), late]);
    if (answer === LATE) return { answer: 'failed', error: { code: 'TIMEOUT', message: `the arbiter did not answer within ${need.timeoutMs} ms` } };
    return { answer: 'arbiter', said: String(JSON.stringify(answer ?? null)).slice(0, need.maxChars) };
  } finally {
    clearTimeout(timer);
  }
}

/** What the arbiter's timer answers: no arbiter returns it. */
const LATE = Symbol('late');


/**
 * `Need::Settle`, answered in the page in one call (`prufe.settle`). A navigation ends the
 * call with its document: its failure goes to the machine, whose loop goes on over reads
 * from here (src/core/run/whole.rs).
 * @param {Port} port
 * @param {Extract<PrufeRun.Need, { need: 'settle' }>} need
 * @returns {Promise<PrufeRun.Answer>}
 */
export async function settle(port, need) {
  const begun = Date.now();
  const answer = await port.evaluate(settleInPage, need);
  return answer.answer === 'settled' ? { ...answer, waitedMs: Date.now() - begun } : answer;
}

/**
 * In the page: `prufe.settle(need)`; an engine not there yet (a document being replaced)
 * comes back as a failed answer.
 * @param {Extract<PrufeRun.Need, { need: 'settle' }>} need
 * @returns {Promise<PrufeRun.Answer>}
 */
async function settleInPage(need) {
  try {
    await prufe.ready;
    return /** @type {PrufeRun.Answer} */ (await prufe.settle(need));
  } catch (error) {
    const e = /** @type {{ code?: string, message?: string }} */ (error ?? {});
    return { answer: 'failed', error: { code: /** @type {Prufe.ErrorCode} */ (e.code ?? 'BROWSER_ERROR'), message: String(e.message ?? error) } };
  }
}

/**
 * In the page: the file input that is, is inside, or is labelled by the element of a ref.
 * @param {string} ref
 * @returns {HTMLInputElement | null}
 */
export function fileInputInPage(ref) {
  const el = /** @type {HTMLElement} */ (prufe.element(ref));
  const isFile = (/** @type {Element | null | undefined} */ e) => e instanceof HTMLInputElement && e.type === 'file';
  if (isFile(el)) return /** @type {HTMLInputElement} */ (el);
  const inside = el.querySelector('input[type=file]');
  if (isFile(inside)) return /** @type {HTMLInputElement} */ (inside);
  const control = el instanceof HTMLLabelElement ? el.control : null;
  return isFile(control) ? /** @type {HTMLInputElement} */ (control) : null;
}


/**
 * `Need::Read`.
 * @param {Port} port
 * @param {PrufeRun.Read} what
 * @returns {Promise<PrufeRun.Answer>}
 */
async function read(port, what) {
  const whole = await readPage(port, what);
  if (whole) return whole;
  switch (what.kind) {
    case 'value':
      return { answer: 'value', value: await call(port, 'value', what.ref) };
    case 'hash':
      return { answer: 'hash', hash: await call(port, 'hash', what.value) };
    case 'destination':
      return { answer: 'destination', destination: await call(port, 'destination', what.ref) };
    case 'focused':
      return { answer: 'focused', element: await call(port, 'focused') };
    case 'roots':
      return { answer: 'roots', paths: [''] };
    case 'snapshot':
    case 'pulse':
      return /** @type {PrufeRun.Answer} */ (await readRoot(port, port, what));
    case 'under':
      return { answer: 'under', element: await call(port, 'at', what.at.x, what.at.y) };
    case 'hitBoxes':
      return { answer: 'hitBoxes', boxes: await call(port, 'hitBoxes') };
    case 'selection':
      return { answer: 'selection', selection: await call(port, 'selection', what.ref) };
    default:
      throw new Failed({ code: 'INVALID_ARGUMENT', message: `this driver does not know the read ${JSON.stringify(what)}` });
  }
}

/**
 * Playwright for Node. Inject the bundle first: `page.addInitScript({ path: 'js/dist/prufe.js' })`,
 * and the work watch beside it (`js/src/work.js`) for the shorter window to see the page's timers.
 * @param {import('playwright-core').Page} page
 * @returns {Port}
 */
export function playwrightPort(page) {
  return {
    // Arguments and results are plain JSON data here, which Playwright passes as they are.
    evaluate: (fn, arg) => page.evaluate(/** @type {any} */ (fn), arg),
    move: (x, y, steps = 1) => page.mouse.move(x, y, { steps }),
    down: (button) => page.mouse.down({ button }),
    up: (button) => page.mouse.up({ button }),
    keyDown: (key) => page.keyboard.down(key),
    keyUp: (key) => page.keyboard.up(key),
    insertText: (text) => page.keyboard.insertText(text),
    wheel: (_at, dx, dy) => page.mouse.wheel(dx, dy),
    async setFiles(ref, files) {
      const handle = await page.evaluateHandle(fileInputInPage, ref);
      try {
        const input = handle.asElement();
        if (!input) throw new Failed({ code: 'TARGET_NOT_FOUND', message: 'no file input is, is inside or is labelled by the target' });
        await input.setInputFiles(files);
      } finally {
        await handle.dispose();
      }
    },
    goto: async (url) => { await page.goto(url); },
    goBack: () => goBackOn(page),
    url: async () => page.url(),
  };
}

/**
 * Back one entry in `page`'s history (Playwright's or Puppeteer's page); whether it went
 * anywhere: a response, or at least a new address (a same-document entry has no response).
 * @param {{ url(): string, goBack(): Promise<unknown> }} page
 * @returns {Promise<boolean>}
 */
export async function goBackOn(page) {
  const before = page.url();
  const response = await page.goBack();
  return response !== null || page.url() !== before;
}

/**
 * Puppeteer. Inject the bundle first: `page.evaluateOnNewDocument(source)`.
 * @param {import('puppeteer-core').Page} page
 * @returns {Port}
 */
export function puppeteerPort(page) {
  const key = (/** @type {string} */ k) => /** @type {import('puppeteer-core').KeyInput} */ (k);
  return {
    evaluate: (fn, arg) => /** @type {Promise<any>} */ (page.evaluate(/** @type {any} */ (fn), arg)),
    move: (x, y, steps = 1) => page.mouse.move(x, y, { steps }),
    down: (button) => page.mouse.down({ button }),
    up: (button) => page.mouse.up({ button }),
    keyDown: (k) => page.keyboard.down(key(k)),
    keyUp: (k) => page.keyboard.up(key(k)),
    insertText: (text) => page.keyboard.sendCharacter(text),
    wheel: (_at, dx, dy) => page.mouse.wheel({ deltaX: dx, deltaY: dy }),
    async setFiles(ref, files) {
      const handle = await page.evaluateHandle(fileInputInPage, ref);
      try {
        const input = handle.asElement();
        if (!input) throw new Failed({ code: 'TARGET_NOT_FOUND', message: 'no file input is, is inside or is labelled by the target' });
        await /** @type {import('puppeteer-core').ElementHandle<HTMLInputElement>} */ (input).uploadFile(...files);
      } finally {
        await handle.dispose();
      }
    },
    goto: async (url) => { await page.goto(url); },
    goBack: () => goBackOn(page),
    url: async () => page.url(),
  };
}

/**
 * The raw DevTools protocol, evaluating in the world the bundle was registered in. Pointer
 * input only (click, hover, drag, pointer undo); keys, text, files and navigation fail with
 * `BROWSER_ERROR`, which ends the step.
 * @param {(method: string, params?: object) => Promise<any>} send a call on the page's session
 * @param {() => number} context the current execution context of the bundle's world
 * @returns {Port}
 */
export function cdpPort(send, context) {
  let buttons = 0;
  const BIT = { left: 1, right: 2, middle: 4 };
  const at = { x: 0, y: 0 };
  /** @param {string} type @param {object} extra */
  const mouse = (type, extra = {}) => send('Input.dispatchMouseEvent', { type, x: at.x, y: at.y, buttons, pointerType: 'mouse', ...extra });
  const unsupported = (/** @type {string} */ what) => async () => {
    throw new Error(`${what} is not implemented by this DevTools port`);
  };
  return {
    async evaluate(fn, arg) {
      const { result, exceptionDetails } = await send('Runtime.evaluate', {
        expression: `(${fn})(${JSON.stringify(arg)})`,
        contextId: context(),
        awaitPromise: true,
        returnByValue: true,
      });
      if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
      return result.value;
    },
    async move(x, y, steps = 1) {
      const from = { ...at };
      for (let i = 1; i <= steps; i++) {
        at.x = from.x + ((x - from.x) * i) / steps;
        at.y = from.y + ((y - from.y) * i) / steps;
        await mouse('mouseMoved', { button: buttons ? 'left' : 'none' });
      }
    },
    async down(button) {
      buttons |= BIT[button];
      await mouse('mousePressed', { button, clickCount: 1 });
    },
    async up(button) {
      buttons &= ~BIT[button];
      await mouse('mouseReleased', { button, clickCount: 1 });
    },
    keyDown: unsupported('a key press'),
    keyUp: unsupported('a key press'),
    insertText: (text) => send('Input.insertText', { text }),
    wheel: (p, dx, dy) => send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: p.x, y: p.y, deltaX: dx, deltaY: dy, buttons, pointerType: 'mouse' }),
    setFiles: unsupported('setting files'),
    goto: unsupported('navigation'),
    goBack: unsupported('going back'),
    async url() {
      return this.evaluate(() => location.href, null);
    },
  };
}
