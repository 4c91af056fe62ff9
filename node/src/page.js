// @ts-check
// One root's answers: what a page's engine (`window.prufe`, js/dist/prufe.js) is asked
// through a port, one bundle primitive per call from a function evaluated in the page, and
// real input through the browser library. The driver (driver.js) answers a page of one root
// with these; roots.js answers a page of several with them, root by root. Nothing here
// decides anything: the machine does (src/core/run).

import { machine } from './machine.js';

/**
 * What the loop needs of a browser library: evaluation in the page's world that holds
 * `prufe`, real input through the browser, navigation. A method the library cannot offer
 * throws; the need is then answered `failed` with `BROWSER_ERROR`.
 * @typedef {object} Port
 * @property {<A, R>(fn: (arg: A) => R | Promise<R>, arg: A) => Promise<R>} evaluate
 * @property {(x: number, y: number, steps?: number) => Promise<void>} move
 * @property {(button: PrufeRun.Button) => Promise<void>} down
 * @property {(button: PrufeRun.Button) => Promise<void>} up
 * @property {(key: string) => Promise<void>} keyDown a single key (`Shift`, `Enter`, `a`)
 * @property {(key: string) => Promise<void>} keyUp
 * @property {(text: string) => Promise<void>} insertText text at the caret, as an IME would
 * @property {(at: PrufeRun.Point, dx: number, dy: number) => Promise<void>} wheel a wheel turn
 *   of `dx`, `dy` CSS pixels with the pointer at `at`
 * @property {(ref: string, files: string[]) => Promise<void>} setFiles on the file input of `ref`
 * @property {(url: string) => Promise<void>} goto an absolute URL, until the document loaded
 * @property {() => Promise<boolean>} goBack false when there is no entry to go back to
 * @property {() => Promise<string>} url the main frame's address
 * @property {() => Promise<string>} [previous] the address of the tab's previous history entry,
 *   empty when there is none
 * @property {import('./requests.js').Requests} [requests] the page's requests, marked at each
 *   input; without it `Read::Network` is answered `unavailable` (the full quiet window is waited)
 * @property {Frames} [frames] the page's roots (the package's World, world.js); without it the
 *   main frame's engine answers every need
 */

/**
 * A page's roots, as world.js keeps them: the top document (path `""`) and every frame of
 * another origin, each with an engine of its own (see roots.js).
 * @typedef {object} Frames
 * @property {() => Promise<{ path: string }[]>} roots top first; cached by the port
 * @property {<A, R>(path: string, fn: (arg: A) => R | Promise<R>, arg: A) => Promise<R>} evaluateIn
 * @property {(path: string, point: PrufeRun.Point) =>
 *   Promise<{ at: PrufeRun.Point, box: { x: number, y: number, width: number, height: number } | null }>} lift
 *   a root's point in the top viewport (see `World.lift`)
 * @property {(path: string, at: PrufeRun.Point) => Promise<string | null>} hitOwner
 *   what covers the root's `<iframe>` in the document above (`Need::HitFrame`)
 * @property {(path: string) => Promise<void>} reveal the root's `<iframe>` scrolled into view
 * @property {() => Promise<{ width: number, height: number }>} viewport the top viewport
 * @property {(ref: string, files: string[], path?: string) => Promise<void>} setFiles
 */

/** A need that could not be met, with the error the answer carries. */
export class Failed extends Error {
  /** @param {PrufeRun.ErrorData} error */
  constructor(error) {
    super(error.message);
    this.error = error;
  }
}

/** Codes of a page that cannot answer right now (a document being replaced): the machine's. */
export const TRANSIENT = new Set((await machine()).transient());

/**
 * In the page: `prufe[name](...args)`; a thrown `PrufeError` comes back as data, since
 * evaluation loses its `.code`.
 * @param {{ name: string, args: unknown[] }} call
 */
export async function callInPage({ name, args }) {
  try {
    await prufe.ready;
    return { value: /** @type {any} */ (prufe)[name](...args) };
  } catch (error) {
    const e = /** @type {{ code?: string, message?: string }} */ (error ?? {});
    return { error: { code: e.code ?? 'BROWSER_ERROR', message: String(e.message ?? error) } };
  }
}

/**
 * One bundle primitive, from Node.
 * @param {Port} port
 * @param {string} name
 * @param {...unknown} args
 * @returns {Promise<any>}
 */
export async function call(port, name, ...args) {
  const result = await port.evaluate(callInPage, { name, args });
  if (result.error) throw new Failed(/** @type {PrufeRun.ErrorData} */ (result.error));
  return result.value;
}

/**
 * The fingerprint's options for a need's `background`: what is in its slots is left out,
 * matched in the merged page's terms from the root at `root`.
 * @param {PrufeRun.Background | undefined} background
 * @param {string} root
 */
export function leaving(background, root) {
  return background ? { background, root } : undefined;
}

/** @param {number} ms */
export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * In the page: `Need::Prepare`, answered by the bundle (`prufe.prepare`), as the Python
 * driver answers it.
 * @param {{ ref: string, hitTest: boolean, timeoutMs: number }} prepare
 * @returns {Promise<PrufeRun.Answer>}
 */
export async function prepareInPage({ ref, hitTest, timeoutMs }) {
  try {
    await prufe.ready;
    return /** @type {PrufeRun.Answer} */ (await prufe.prepare(ref, hitTest, timeoutMs));
  } catch (error) {
    const e = /** @type {{ code?: string, message?: string }} */ (error ?? {});
    return { answer: 'failed', error: { code: /** @type {Prufe.ErrorCode} */ (e.code ?? 'BROWSER_ERROR'), message: String(e.message ?? error) } };
  }
}

/**
 * In the page: focus the element and select its content; whether the focus then is on it
 * or inside it.
 * @param {string} ref
 */
export async function focusSelectInPage(ref) {
  try {
    await prufe.ready;
    return { held: prufe.focusSelect(ref) };
  } catch (error) {
    const e = /** @type {{ code?: string, message?: string }} */ (error ?? {});
    return { error: { code: e.code ?? 'BROWSER_ERROR', message: String(e.message ?? error) } };
  }
}

/**
 * In the page: focus the element of a ref (before a key press on it); `held` when the focus
 * is then on it or inside it.
 * @param {string} ref
 */
export async function focusInPage(ref) {
  try {
    await prufe.ready;
    return { held: prufe.focus(ref) };
  } catch (error) {
    const e = /** @type {{ code?: string, message?: string }} */ (error ?? {});
    return { error: { code: e.code ?? 'BROWSER_ERROR', message: String(e.message ?? error) } };
  }
}

/**
 * A chord as the machine sends it (`Gesture::Press`'s `keys`, modifiers first: `['Shift',
 * 'Tab']`): every key down in order, then up in reverse; a key pressed is released whatever
 * fails. The machine names every key as the browser libraries do (`Enter`, `Control`, `a`).
 * @param {Port} port
 * @param {readonly string[]} keys
 */
export async function pressKey(port, keys) {
  /** @type {string[]} */
  const down = [];
  try {
    for (const key of keys) {
      await port.keyDown(key);
      down.push(key);
    }
  } finally {
    for (const key of down.reverse()) await port.keyUp(key);
  }
}

/**
 * The reads of the page as a whole, the same on a page of one root or several: its address,
 * the previous history entry's, the requests started since the last input, and the scroll container under a point (found in the top
 * document and kept there) and where it stands. Null for any other read.
 * @param {Port} port
 * @param {PrufeRun.Read} what
 * @returns {Promise<PrufeRun.Answer | null>}
 */
export async function readPage(port, what) {
  switch (what.kind) {
    case 'address':
      return { answer: 'address', url: await port.url() };
    case 'previous':
      if (!port.previous) throw new Failed({ code: 'BROWSER_ERROR', message: 'this port cannot read the history' });
      return { answer: 'address', url: await port.previous() };
    case 'network':
      if (!port.requests) return { answer: 'unavailable' };
      return port.requests.heard();
    case 'scroll':
      return {
        answer: 'position',
        position: what.at ? await call(port, 'scrollFrom', what.at.x, what.at.y) : await call(port, 'scrollPosition'),
      };
    default:
      return null;
  }
}

/**
 * `Need::Input`: the gesture, through the browser's input pipeline; the answer of a gesture
 * that has its own (`focus`), else nothing (`sent`).
 * @param {Port} port
 * @param {PrufeRun.Gesture} gesture
 * @returns {Promise<PrufeRun.Answer | void>}
 */
export async function send(port, gesture) {
  switch (gesture.kind) {
    case 'click':
      await port.move(gesture.at.x, gesture.at.y);
      await port.down(gesture.button);
      await port.up(gesture.button);
      return;
    case 'moveTo':
      await port.move(gesture.at.x, gesture.at.y);
      return;
    // A drag, as the machine sends it: the button down, its moves one by one, the button
    // up (also when a move failed: the machine asks for the release before it ends).
    case 'down':
      await port.move(gesture.at.x, gesture.at.y);
      await port.down(gesture.button);
      return;
    case 'up':
      await port.move(gesture.at.x, gesture.at.y);
      await port.up(gesture.button);
      return;
    case 'focus': {
      const focused = await port.evaluate(gesture.select ? focusSelectInPage : focusInPage, gesture.ref);
      if (focused.error) throw new Failed(/** @type {PrufeRun.ErrorData} */ (focused.error));
      return { answer: 'focus', held: focused.held };
    }
    case 'wheel':
      await port.move(gesture.at.x, gesture.at.y);
      await port.wheel(gesture.at, gesture.dx, gesture.dy);
      return;
    case 'insert':
      await port.insertText(gesture.text);
      return;
    case 'press':
      if (gesture.ref !== null) {
        const focused = await port.evaluate(focusInPage, gesture.ref);
        if (focused.error) throw new Failed(/** @type {PrufeRun.ErrorData} */ (focused.error));
      }
      await pressKey(port, gesture.keys);
      return;
    case 'select':
      await call(port, 'select', gesture.ref, gesture.option);
      return;
    case 'restore':
      await call(port, 'restore', gesture.ref, gesture.value);
      return;
    case 'setFiles':
      await port.setFiles(gesture.ref, gesture.files);
      return;
    case 'navigate': {
      const url = new URL(gesture.url, await port.url()).href;
      try {
        await port.goto(url);
      } catch (error) {
        throw new Failed({ code: 'NAVIGATION_FAILED', message: `${url}: ${error instanceof Error ? error.message : error}` });
      }
      return;
    }
    case 'goBack':
      if (!(await port.goBack())) throw new Failed({ code: 'NAVIGATION_FAILED', message: 'there is no history entry to go back to' });
      return;
    default:
      throw new Failed({ code: 'INVALID_ARGUMENT', message: `this driver does not know the gesture ${JSON.stringify(gesture)}` });
  }
}
