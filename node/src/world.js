// @ts-check
// The engine in an isolated world of the page, reached through a DevTools session of its own.
//
// The bundle (dist/prufe.js) runs in a world named "prufe", not in the page's main world: the
// page shares the DOM with it but not the JavaScript globals, so a page that replaces
// `window.prufe`, `JSON.stringify` or `Element.prototype.getAttribute` changes nothing the
// engine sees, and the page cannot see the engine at all. This is the harness's scheme
// (harness/src/inject.rs), over the library's CDP session:
//
// - `Page.addScriptToEvaluateOnNewDocument { worldName: "prufe", runImmediately: true }`
//   installs the bundle before any page script in every new document of every frame, and
//   `Page.createIsolatedWorld` covers the document already loaded when the verifier is made
//   (Chromium keeps one world per frame and name, so both paths meet in the same world);
// - `Page.setBypassCSP` lets the inlined wasm compile on a page whose CSP forbids it;
// - contexts are tracked from `Runtime.executionContextCreated` (name "prufe",
//   `auxData.frameId`) and dropped on `executionContextDestroyed` / `…Cleared`; a frame with
//   no known context asks `Page.createIsolatedWorld` again; a call that meets a destroyed
//   context (a navigation raced it) forgets it and retries once.
//
// Same-origin frames are walked by the top document's engine itself (their elements carry
// `frame` "0", "0.1", …), so every call goes to the main frame's world.

import { readFileSync } from 'node:fs';

/** The isolated world's name, as the harness names it. */
export const WORLD = 'prufe';

const BUNDLE = new URL('../dist/prufe.js', import.meta.url);

/** @type {string | null} */
let source = null;

/** The bundle's source, read once per process. */
export function bundleSource() {
  if (source === null) {
    try {
      source = readFileSync(BUNDLE, 'utf8');
    } catch {
      throw new Error(`${BUNDLE.pathname} is missing: run \`make node\` (or \`node node/build.mjs\` after \`make bundle\`)`);
    }
  }
  return source;
}

/**
 * A DevTools session as both libraries give one: `send` and `on`.
 * @typedef {object} Session
 * @property {(method: any, params?: any) => Promise<any>} send
 * @property {(event: any, listener: (params: any) => void) => unknown} on
 */

export class World {
  /** @param {Session} session */
  constructor(session) {
    this.session = session;
    /** @type {Map<string, number>} frame id → context id of the prufe world */
    this.contexts = new Map();
    /** @type {string} */
    this.mainFrame = '';
    /** Messages of JavaScript dialogs opened since the last `takeDialogs`. */
    /** @type {string[]} */
    this.dialogs = [];
    /** Called for every dialog that opens (a library that leaves dialogs open answers it here). */
    /** @type {((params: { type: string, message: string }) => void) | null} */
    this.onDialog = null;
  }

  /**
   * Installs the engine in every document of the page, now and from now on.
   * @param {Session} session
   */
  static async open(session) {
    const world = new World(session);
    session.on('Runtime.executionContextCreated', (/** @type {any} */ { context }) => {
      const frameId = context?.auxData?.frameId;
      if (context?.name === WORLD && frameId) world.contexts.set(frameId, context.id);
    });
    session.on('Runtime.executionContextDestroyed', (/** @type {any} */ params) => {
      const id = params.executionContextId;
      for (const [frame, context] of world.contexts) if (context === id) world.contexts.delete(frame);
    });
    session.on('Runtime.executionContextsCleared', () => world.contexts.clear());
    session.on('Page.javascriptDialogOpening', (/** @type {any} */ params) => {
      world.dialogs.push(`${params.type}: ${params.message}`);
      world.onDialog?.(params);
    });
    session.on('Page.frameNavigated', (/** @type {any} */ { frame }) => {
      if (!frame.parentId) world.mainFrame = frame.id;
    });
    await session.send('Page.enable');
    await session.send('Page.setBypassCSP', { enabled: true });
    const { frameTree } = await session.send('Page.getFrameTree');
    world.mainFrame = frameTree.frame.id;
    await session.send('Page.addScriptToEvaluateOnNewDocument', {
      source: bundleSource(),
      worldName: WORLD,
      runImmediately: true,
    });
    await session.send('Runtime.enable');
    await world.context();
    return world;
  }

  /** The main frame's prufe context, created when there is none yet. */
  async context() {
    const known = this.contexts.get(this.mainFrame);
    if (known !== undefined) return known;
    const frame = this.mainFrame;
    const { executionContextId } = await this.session.send('Page.createIsolatedWorld', {
      frameId: frame,
      worldName: WORLD,
      grantUniveralAccess: false,
    });
    if (!this.contexts.has(frame)) this.contexts.set(frame, executionContextId);
    // A world created here has no bundle yet when the document predates the init script.
    await this.session.send('Runtime.evaluate', {
      expression: `typeof prufe === 'undefined' ? (0, eval)(${JSON.stringify(bundleSource())}) : undefined`,
      contextId: executionContextId,
    }).catch(() => {});
    return this.contexts.get(frame) ?? executionContextId;
  }

  /**
   * `fn(arg)` in the engine's world of the main frame; JSON in, JSON out.
   * @template A, R
   * @param {(arg: A) => R | Promise<R>} fn
   * @param {A} arg
   * @returns {Promise<R>}
   */
  async evaluate(fn, arg) {
    const { result } = await this.run(`(${fn})(${JSON.stringify(arg) ?? 'undefined'})`, true);
    return result.value;
  }

  /**
   * An expression in the engine's world; retried once in a new context when its context was
   * destroyed meanwhile.
   * @param {string} expression
   * @param {boolean} returnByValue
   */
  async run(expression, returnByValue) {
    for (let attempt = 0; ; attempt++) {
      const contextId = await this.context();
      try {
        const reply = await this.session.send('Runtime.evaluate', { expression, contextId, awaitPromise: true, returnByValue });
        if (reply.exceptionDetails) {
          throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
        }
        return reply;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (attempt === 0 && /context|Execution context was destroyed|Cannot find/i.test(message)) {
          for (const [frame, context] of this.contexts) if (context === contextId) this.contexts.delete(frame);
          continue;
        }
        throw error;
      }
    }
  }

  /**
   * Sets the files of the file input that is, is inside, or is labelled by the element of
   * `ref` (`DOM.setFileInputFiles` on the engine's own handle of it).
   * @param {string} ref
   * @param {string[]} files absolute paths
   */
  async setFiles(ref, files) {
    const expression = `(() => { const ref = ${JSON.stringify(ref)}; return (${fileInput})(ref); })()`;
    const { result } = await this.run(expression, false);
    if (!result.objectId) {
      const error = new Error('no file input is, is inside or is labelled by the target');
      throw Object.assign(error, { code: 'TARGET_NOT_FOUND' });
    }
    try {
      await this.session.send('DOM.setFileInputFiles', { files, objectId: result.objectId });
    } finally {
      await this.session.send('Runtime.releaseObject', { objectId: result.objectId }).catch(() => {});
    }
  }

  /**
   * Text at the caret, as an IME would (`Input.insertText`, what the libraries' own
   * `insertText` / `sendCharacter` send), so that a value never passes through the
   * library's API log.
   * @param {string} text
   */
  insertText(text) {
    return this.session.send('Input.insertText', { text });
  }

  /** Dialog messages since the last call. */
  takeDialogs() {
    const out = this.dialogs;
    this.dialogs = [];
    return out;
  }
}

/**
 * In the page: the file input of a ref (see `fileInputInPage` in driver.js), or null.
 * @param {string} ref
 */
function fileInput(ref) {
  const el = /** @type {HTMLElement} */ (prufe.element(ref));
  const isFile = (/** @type {Element | null | undefined} */ e) => e instanceof HTMLInputElement && e.type === 'file';
  if (isFile(el)) return el;
  const inside = el.querySelector('input[type=file]');
  if (isFile(inside)) return inside;
  const control = el instanceof HTMLLabelElement ? el.control : null;
  return isFile(control) ? control : null;
}
