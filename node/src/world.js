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
//   context (a navigation raced it) forgets it and is sent again, as often as the machine's
//   `resends()` allows.
//
// Roots. The engine in a document walks it and its same-origin frames (their elements carry
// `frame` "0", "0.1", …); a frame of another origin is an opaque `iframe` to it. Every such
// frame is a *root* with an engine of its own, as in the harness (harness/src/observe.rs):
// the top document and every frame whose origin differs from its parent's
// (`prufeRun.frames.sameOrigin`). A frame of another site runs out of process, in a DevTools
// target of its own: `Target.setAutoAttach` on each session attaches it, and its session is
// driven through `Target.sendMessageToTarget` (the non-flat mode, which either library's
// session carries as plain commands and events), with the same install as the page's. A
// root's path is `prufe.frameIndex` of its `<iframe>` in the parent frame's world, dotted for
// nesting. The roots are cached and forgotten on every frame attach, detach or navigation
// and on every target attach or detach, so a page of one root costs one `Page.getFrameTree`
// per navigation and nothing per call.

import { readFileSync } from 'node:fs';
import { goBackOn } from './driver.js';
import { machine } from './machine.js';

/** How many times a call that met a destroyed context is sent again: the machine's bound. */
const RESENDS = (await machine()).resends();

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

const WORK = new URL('../dist/prufe-work.js', import.meta.url);

/** @type {string | null} */
let work = null;

/** The work watch's source (js/src/work.js), run in each document's main world; read once. */
function workSource() {
  if (work === null) work = readFileSync(WORK, 'utf8');
  return work;
}

/**
 * A DevTools session as both libraries give one: `send` and `on`.
 * @typedef {object} Session
 * @property {(method: any, params?: any) => Promise<any>} send
 * @property {(event: any, listener: (params: any) => void) => unknown} on
 */

/**
 * A page as both libraries give one, as far as a port uses it (pointer, keys, history).
 * @typedef {object} LibraryPage
 * @property {{ move(x: number, y: number, options: { steps: number }): Promise<void>,
 *   down(options: { button: any }): Promise<void>, up(options: { button: any }): Promise<void> }} mouse
 * @property {{ down(key: any): Promise<void>, up(key: any): Promise<void> }} keyboard
 * @property {(url: string) => Promise<unknown>} goto
 * @property {() => Promise<unknown>} goBack
 * @property {() => string} url
 */

/**
 * A document the engine is called in: the top one (path `""`) or a frame of another origin.
 * @typedef {{ path: string, frame: string }} Root
 */

/** @typedef {{ id: string, parentId: string | null, url: string, origin: string }} FrameInfo */

/**
 * The session of an out-of-process frame, through its parent's (`Target.sendMessageToTarget`
 * and `Target.receivedMessageFromTarget`).
 * @implements {Session}
 */
class ChildSession {
  /** @param {Session} parent @param {string} sessionId */
  constructor(parent, sessionId) {
    this.parent = parent;
    this.sessionId = sessionId;
    this.lastId = 0;
    /** @type {Map<number, { done: (v: any) => void, fail: (e: Error) => void, method: string }>} */
    this.pending = new Map();
    /** @type {Map<string, ((params: any) => void)[]>} */
    this.listeners = new Map();
    this.closed = false;
  }

  /** @param {string} method @param {object} [params] @returns {Promise<any>} */
  send(method, params = {}) {
    if (this.closed) return Promise.reject(new Error(`${method}: the frame's target is gone (Cannot find context)`));
    const id = ++this.lastId;
    return new Promise((done, fail) => {
      this.pending.set(id, { done, fail, method });
      this.parent.send('Target.sendMessageToTarget', { sessionId: this.sessionId, message: JSON.stringify({ id, method, params }) })
        .catch((/** @type {Error} */ error) => {
          this.pending.delete(id);
          fail(error);
        });
    });
  }

  /** @param {string} event @param {(params: any) => void} listener */
  on(event, listener) {
    const list = this.listeners.get(event) ?? [];
    list.push(listener);
    this.listeners.set(event, list);
    return this;
  }

  /** @param {string} text a protocol message of this session */
  receive(text) {
    const message = JSON.parse(text);
    if (message.id !== undefined) {
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.error) waiter.fail(new Error(`${waiter.method}: ${message.error.message}`));
      else waiter.done(message.result);
      return;
    }
    for (const listener of this.listeners.get(message.method) ?? []) listener(message.params);
  }

  close() {
    this.closed = true;
    for (const waiter of this.pending.values()) waiter.fail(new Error(`${waiter.method}: the frame's target is gone (Cannot find context)`));
    this.pending.clear();
  }
}

/** Called on an `<iframe>` in its document's prufe world: `prufe.frameIndex`. */
const FRAME_INDEX = 'async function () { await prufe.ready; return prufe.frameIndex(this); }';

/**
 * Called on an `<iframe>` in its document's prufe world: its content box in the document's
 * viewport.
 */
const CONTENT_BOX = `async function () {
  await prufe.ready;
  const r = this.getBoundingClientRect();
  const cs = getComputedStyle(this);
  const px = (name) => parseFloat(cs.getPropertyValue(name)) || 0;
  return {
    x: r.left + px('border-left-width') + px('padding-left'),
    y: r.top + px('border-top-width') + px('padding-top'),
    width: Math.max(0, r.width - px('border-left-width') - px('padding-left') - px('border-right-width') - px('padding-right')),
    height: Math.max(0, r.height - px('border-top-width') - px('padding-top') - px('border-bottom-width') - px('padding-bottom')),
  };
}`;

/** Called on an element: what input at a point of its document's viewport lands on when not on it (`prufe.hitTest`). */
const HIT = 'async function (x, y) { await prufe.ready; return prufe.hitTest(this, x, y); }';

export class World {
  /** @param {Session} session */
  constructor(session) {
    this.session = session;
    /** @type {Map<string, { session: Session, id: number }>} frame id → its prufe context */
    this.contexts = new Map();
    /** @type {Map<string, Session>} frame id → the session of the target it runs in */
    this.frameSessions = new Map();
    /** @type {Map<string, ChildSession>} out-of-process frames' sessions by session id */
    this.children = new Map();
    /** @type {Set<Promise<unknown>>} installs under way */
    this.installing = new Set();
    /** @type {string} */
    this.mainFrame = '';
    /** @type {Root[] | null} */
    this.cached = null;
    /** @type {Map<string, FrameInfo>} the frames the cached roots were found among */
    this.frames = new Map();
    /** Bumped by every event that can change the roots. */
    this.generation = 0;
    /** The JavaScript dialogs closed since the last `takeDialogs`, and how they were answered. */
    /** @type {PrufeRun.Dialog[]} */
    this.dialogs = [];
    /** @type {Map<string, { type: string, message: string }>} frame id → the dialog open in it */
    this.opened = new Map();
    /** Called for every dialog that opens (a library that leaves dialogs open answers it here). */
    /** @type {((params: { type: string, message: string }) => void) | null} */
    this.onDialog = null;
  }

  /**
   * Installs the engine in every document of the page, now and from now on, out-of-process
   * frames included.
   * @param {Session} session
   */
  static async open(session) {
    const world = new World(session);
    // Whoever answers a dialog (the library, the caller's own listener, `onDialog`), its
    // answer is the one the browser reports when it closes.
    session.on('Page.javascriptDialogOpening', (/** @type {any} */ params) => {
      world.opened.set(params.frameId ?? '', { type: String(params.type), message: String(params.message ?? '') });
      world.onDialog?.(params);
    });
    session.on('Page.javascriptDialogClosed', (/** @type {any} */ params) => {
      const key = params.frameId ?? '';
      const dialog = world.opened.get(key);
      if (!dialog) return;
      world.opened.delete(key);
      world.dialogs.push({ ...dialog, accepted: Boolean(params.result) });
    });
    session.on('Page.frameNavigated', (/** @type {any} */ { frame }) => {
      if (!frame.parentId) world.mainFrame = frame.id;
    });
    await world.install(session);
    // The roots now: the main frame's id, and on a page of one root the cache every need reads.
    await world.roots();
    await world.context(world.mainFrame);
    return world;
  }

  /**
   * The engine in every document of one target (the page, or an out-of-process frame), and
   * the tracking of its contexts, frames and child targets.
   * @param {Session} session
   */
  async install(session) {
    const forget = () => {
      this.generation += 1;
      this.cached = null;
    };
    session.on('Runtime.executionContextCreated', (/** @type {any} */ { context }) => {
      const frameId = context?.auxData?.frameId;
      if (frameId) this.frameSessions.set(frameId, session);
      if (context?.name === WORLD && frameId) this.contexts.set(frameId, { session, id: context.id });
    });
    session.on('Runtime.executionContextDestroyed', (/** @type {any} */ params) => {
      const id = params.executionContextId;
      for (const [frame, c] of this.contexts) if (c.session === session && c.id === id) this.contexts.delete(frame);
    });
    session.on('Runtime.executionContextsCleared', () => {
      for (const [frame, c] of this.contexts) if (c.session === session) this.contexts.delete(frame);
    });
    for (const event of ['Page.frameAttached', 'Page.frameDetached', 'Page.frameNavigated']) session.on(event, forget);
    session.on('Target.attachedToTarget', (/** @type {any} */ { sessionId, targetInfo }) => {
      if (targetInfo?.type !== 'iframe') return;
      const child = new ChildSession(session, sessionId);
      this.children.set(sessionId, child);
      forget();
      const installed = this.install(child).catch(() => {}).finally(() => {
        this.installing.delete(installed);
        forget();
      });
      this.installing.add(installed);
    });
    session.on('Target.detachedFromTarget', (/** @type {any} */ { sessionId }) => {
      const child = this.children.get(sessionId);
      if (!child) return;
      child.close();
      this.children.delete(sessionId);
      for (const [frame, c] of this.contexts) if (c.session === child) this.contexts.delete(frame);
      for (const [frame, s] of this.frameSessions) if (s === child) this.frameSessions.delete(frame);
      forget();
    });
    session.on('Target.receivedMessageFromTarget', (/** @type {any} */ { sessionId, message }) => {
      this.children.get(sessionId)?.receive(message);
    });
    await session.send('Page.enable');
    await session.send('Page.setBypassCSP', { enabled: true });
    await session.send('Page.addScriptToEvaluateOnNewDocument', {
      source: bundleSource(),
      worldName: WORLD,
      runImmediately: true,
    });
    // The page's own timers are seen from its main world only (dist/prufe-work.js).
    await session.send('Page.addScriptToEvaluateOnNewDocument', { source: workSource(), runImmediately: true });
    await session.send('Runtime.enable');
    // Frames of another site, each a target of its own, attach to this session from now on.
    await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    if (session instanceof ChildSession) {
      const { frameTree } = await session.send('Page.getFrameTree');
      this.frameSessions.set(frameTree.frame.id, session);
    }
  }

  /**
   * The page's roots, top first; cached until a frame or target comes, goes or navigates.
   * @returns {Promise<Root[]>}
   */
  async roots() {
    if (this.cached) return this.cached;
    const generation = this.generation;
    if (this.installing.size) await Promise.allSettled([...this.installing]);
    /** @type {Map<string, FrameInfo>} */
    const frames = new Map();
    const sessions = [this.session, ...this.children.values()];
    const trees = await Promise.all(sessions.map((s) => s.send('Page.getFrameTree').then((r) => r.frameTree, () => null)));
    /** @param {any} tree @param {Session} session */
    const walk = (tree, session) => {
      const f = tree.frame;
      frames.set(f.id, { id: f.id, parentId: f.parentId ?? null, url: f.url + (f.urlFragment ?? ''), origin: f.securityOrigin ?? '' });
      this.frameSessions.set(f.id, session);
      for (const child of tree.childFrames ?? []) walk(child, session);
    };
    trees.forEach((tree, i) => tree && walk(tree, sessions[i]));
    if (trees[0]) this.mainFrame = trees[0].frame.id;
    this.frames = frames;
    /** @type {Root[]} */
    const roots = [{ path: '', frame: this.mainFrame }];
    if (frames.size > 1) {
      const rules = (await machine()).frames;
      /** @type {Map<string, string>} */
      const paths = new Map([[this.mainFrame, '']]);
      for (const f of frames.values()) {
        const parent = f.parentId ? frames.get(f.parentId) : undefined;
        if (!parent || f.id === this.mainFrame) continue;
        if (rules.sameOrigin({ child: { origin: f.origin, url: f.url }, parent: { origin: parent.origin, url: parent.url } })) continue;
        // A frame that vanished meanwhile stays an opaque iframe of its parent.
        const path = await this.framePath(f, frames, paths).catch(() => null);
        if (path !== null) roots.push({ path, frame: f.id });
      }
    }
    if (generation === this.generation) this.cached = roots;
    return roots;
  }

  /**
   * A frame's position path: `prufe.frameIndex` of each `<iframe>` on the way down from the top.
   * @param {FrameInfo} frame @param {Map<string, FrameInfo>} frames @param {Map<string, string>} memo
   * @returns {Promise<string>}
   */
  async framePath(frame, frames, memo) {
    const known = memo.get(frame.id);
    if (known !== undefined) return known;
    const parent = frame.parentId ? frames.get(frame.parentId) : undefined;
    if (!parent) throw new Error('a frame without a parent');
    const above = await this.framePath(parent, frames, memo);
    const index = await this.onOwner(frame.id, FRAME_INDEX, []);
    if (typeof index !== 'number' || index < 0) throw new Error('the frame owner is not in its document');
    const path = above === '' ? String(index) : `${above}.${index}`;
    memo.set(frame.id, path);
    return path;
  }

  /**
   * `fn` called on a frame's `<iframe>` element in its parent frame's prufe world.
   * @param {string} frameId @param {string} fn @param {unknown[]} args
   */
  async onOwner(frameId, fn, args) {
    const parentId = this.frames.get(frameId)?.parentId;
    if (!parentId) throw new Error('the frame is not on the page (or is the top document)');
    const parentSession = this.frameSessions.get(parentId) ?? this.session;
    const { backendNodeId } = await parentSession.send('DOM.getFrameOwner', { frameId });
    const context = await this.context(parentId);
    const { object } = await context.session.send('DOM.resolveNode', { backendNodeId, executionContextId: context.id });
    try {
      const reply = await context.session.send('Runtime.callFunctionOn', {
        functionDeclaration: fn,
        objectId: object.objectId,
        arguments: args.map((value) => ({ value })),
        awaitPromise: true,
        returnByValue: true,
      });
      if (reply.exceptionDetails) throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
      return reply.result.value;
    } finally {
      await context.session.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
    }
  }

  /**
   * A point of a root's viewport in the top viewport: each `<iframe>` content box's origin
   * added on the way up. `box`: the root's `<iframe>` content box, in the top viewport.
   * @param {string} path @param {{ x: number, y: number }} point
   * @returns {Promise<{ at: { x: number, y: number }, box: { x: number, y: number, width: number, height: number } | null }>}
   */
  async lift(path, point) {
    let at = point;
    /** @type {{ x: number, y: number, width: number, height: number } | null} */
    let box = null;
    for (let frame = await this.frameOf(path); frame !== this.mainFrame;) {
      const b = /** @type {{ x: number, y: number, width: number, height: number }} */ (await this.onOwner(frame, CONTENT_BOX, []));
      // The first box is in its parent's viewport; every frame further up moves it as well.
      box = box === null ? b : { x: box.x + b.x, y: box.y + b.y, width: box.width, height: box.height };
      at = { x: at.x + b.x, y: at.y + b.y };
      const parent = this.frames.get(frame)?.parentId;
      if (!parent) break;
      frame = parent;
    }
    return { at, box };
  }

  /**
   * What input at `at`, a point of the viewport of the document holding the `<iframe>` of
   * the root at `path`, lands on when not on that `<iframe>` (`Need::HitFrame`).
   * @param {string} path @param {{ x: number, y: number }} at
   * @returns {Promise<string | null>}
   */
  async hitOwner(path, at) {
    const frame = await this.frameOf(path);
    const roots = new Set((await this.roots()).map((r) => r.frame));
    // A same-origin frame between is part of the document above: input must reach its
    // `<iframe>` too, the point moved into its viewport on the way down.
    const levels = [frame];
    for (let f = this.frames.get(frame)?.parentId; f && f !== this.mainFrame && !roots.has(f); f = this.frames.get(f)?.parentId) {
      levels.unshift(f);
    }
    let here = at;
    for (const [i, level] of levels.entries()) {
      const by = await this.onOwner(level, HIT, [here.x, here.y]);
      if (typeof by === 'string') return by;
      // Into the next level's viewport; the frame's own level needs no box.
      if (i === levels.length - 1) break;
      const b = await this.onOwner(level, CONTENT_BOX, []);
      here = { x: here.x - b.x, y: here.y - b.y };
    }
    return null;
  }

  /**
   * The `<iframe>` of the root at `path` scrolled into view in every document above it
   * (`Need::RevealFrame`).
   * @param {string} path
   */
  async reveal(path) {
    for (let frame = await this.frameOf(path); frame !== this.mainFrame;) {
      const parentId = this.frames.get(frame)?.parentId;
      if (!parentId) break;
      const session = this.frameSessions.get(parentId) ?? this.session;
      const { backendNodeId } = await session.send('DOM.getFrameOwner', { frameId: frame });
      await session.send('DOM.scrollIntoViewIfNeeded', { backendNodeId });
      frame = parentId;
    }
  }

  /** The top viewport's size in CSS pixels, scroll bars left out. */
  async viewport() {
    const m = await this.session.send('Page.getLayoutMetrics');
    const v = m.cssLayoutViewport ?? m.layoutViewport;
    return { width: v.clientWidth, height: v.clientHeight };
  }

  /**
   * The prufe context of a frame (the main frame by default), created when there is none yet.
   * @param {string} [frame]
   */
  async context(frame = this.mainFrame) {
    const known = this.contexts.get(frame);
    if (known !== undefined) return known;
    const session = this.frameSessions.get(frame) ?? this.session;
    const { executionContextId } = await session.send('Page.createIsolatedWorld', {
      frameId: frame,
      worldName: WORLD,
      grantUniveralAccess: false,
    });
    if (!this.contexts.has(frame)) this.contexts.set(frame, { session, id: executionContextId });
    // A world created here has no bundle yet when the document predates the init script.
    await session.send('Runtime.evaluate', {
      expression: `typeof prufe === 'undefined' ? (0, eval)(${JSON.stringify(bundleSource())}) : undefined`,
      contextId: executionContextId,
    }).catch(() => {});
    return this.contexts.get(frame) ?? { session, id: executionContextId };
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
   * `fn(arg)` in the engine's world of the root at `path`.
   * @template A, R
   * @param {string} path
   * @param {(arg: A) => R | Promise<R>} fn
   * @param {A} arg
   * @returns {Promise<R>}
   */
  async evaluateIn(path, fn, arg) {
    if (path === '') return this.evaluate(fn, arg);
    const { result } = await this.run(`(${fn})(${JSON.stringify(arg) ?? 'undefined'})`, true, await this.frameOf(path));
    return result.value;
  }

  /** @param {string} path */
  async frameOf(path) {
    const root = (await this.roots()).find((r) => r.path === path);
    if (!root) throw Object.assign(new Error(`frame ${JSON.stringify(path)} is no longer on the page`), { code: 'STALE_REFERENCE' });
    return root.frame;
  }

  /**
   * An expression in the engine's world of a frame (the main frame by default); sent again in
   * the new context when its context was destroyed meanwhile, as often as the machine's
   * `resends()` allows (a transport's matter: the call never reached a page).
   * @param {string} expression
   * @param {boolean} returnByValue
   * @param {string} [frame]
   */
  async run(expression, returnByValue, frame) {
    for (let attempt = 0; ; attempt++) {
      const context = await this.context(frame ?? this.mainFrame);
      try {
        const reply = await context.session.send('Runtime.evaluate', { expression, contextId: context.id, awaitPromise: true, returnByValue });
        if (reply.exceptionDetails) {
          throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
        }
        return { ...reply, session: context.session };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (attempt < RESENDS && /context|Execution context was destroyed|Cannot find/i.test(message)) {
          for (const [f, c] of this.contexts) if (c === context) this.contexts.delete(f);
          continue;
        }
        throw error;
      }
    }
  }

  /**
   * Sets the files of the file input that is, is inside, or is labelled by the element of
   * `ref` (`DOM.setFileInputFiles` on the engine's own handle of it), in the root at `path`.
   * @param {string} ref
   * @param {string[]} files absolute paths
   * @param {string} [path]
   */
  async setFiles(ref, files, path = '') {
    const expression = `(() => { const ref = ${JSON.stringify(ref)}; return (${fileInput})(ref); })()`;
    const { result, session } = await this.run(expression, false, path === '' ? undefined : await this.frameOf(path));
    if (!result.objectId) {
      const error = new Error('no file input is, is inside or is labelled by the target');
      throw Object.assign(error, { code: 'TARGET_NOT_FOUND' });
    }
    try {
      await session.send('DOM.setFileInputFiles', { files, objectId: result.objectId });
    } finally {
      await session.send('Runtime.releaseObject', { objectId: result.objectId }).catch(() => {});
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

  /**
   * The port of a Playwright or Puppeteer page whose engine runs in this world: the engine,
   * text and files through this world's session, pointer, keys and history through the page.
   * @param {LibraryPage} page
   * @param {import('./requests.js').Requests} [requests] the page's requests (`Read::Network`)
   * @returns {import('./driver.js').Port}
   */
  port(page, requests) {
    return {
      requests,
      evaluate: (fn, arg) => this.evaluate(fn, arg),
      move: (x, y, steps = 1) => page.mouse.move(x, y, { steps }),
      down: (button) => page.mouse.down({ button }),
      up: (button) => page.mouse.up({ button }),
      keyDown: (key) => page.keyboard.down(key),
      keyUp: (key) => page.keyboard.up(key),
      insertText: async (text) => { await this.insertText(text); },
      wheel: async (at, dx, dy) => {
        await this.session.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: at.x, y: at.y, deltaX: dx, deltaY: dy, pointerType: 'mouse' });
      },
      setFiles: (ref, files) => this.setFiles(ref, files),
      goto: async (url) => { await page.goto(url); },
      goBack: () => goBackOn(page),
      url: async () => page.url(),
      previous: async () => {
        const { currentIndex, entries } = await this.session.send('Page.getNavigationHistory');
        return entries[currentIndex - 1]?.url ?? '';
      },
      frames: this,
    };
  }

  /**
   * The record's lines of the dialogs closed since the last call, worded by the machine.
   * @returns {Promise<string[]>}
   */
  async takeDialogs() {
    const heard = this.dialogs;
    this.dialogs = [];
    return heard.length === 0 ? [] : (await machine()).dialogs(heard);
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
