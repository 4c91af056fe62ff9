// @ts-check
// The machine's needs answered across a page's roots: the top document and every frame of
// another origin, each with an engine of its own (world.js finds them). The driver decides
// nothing here either: what the roots say is composed by the machine (src/core/run), with the
// rules of src/core/frames.rs that the CLI's harness applies too:
//
// - observe, fingerprint and settle of the whole page: the roots named, and each root's
//   snapshot or pulse read alone; the machine merges, joins and runs the settle loop
//   (src/core/run/whole.rs), since no one root's `prufe.settle` sees the others;
// - a ref names its root (`f<path>:<ref>`): describe, prepare, reads and gestures on it go
//   to that root's engine with its own ref, and the elements it answers are adopted into the
//   page's terms;
// - points: an engine answers in its document's viewport; a prepare, the element under a
//   point and its hit boxes are answered in one root, and the machine places them in the top
//   viewport (src/core/run/lift.rs, src/core/run/locate.rs, src/core/run/across.rs); the
//   boxes of a picture are moved here by each `<iframe>` content box's origin;
// - the focus is read in the top document and the machine follows it into the roots
//   (src/core/run/focus.rs).

import { machine } from './machine.js';
import {
  call, Failed, focusInPage, focusSelectInPage, leaving, prepareInPage, pressKey, readPage, send,
} from './page.js';
import { snapshotOf } from './snapshots.js';

/** @typedef {import('./page.js').Port} Port */
/** @typedef {import('./page.js').Frames} Frames */

/**
 * `frames.route` of a merged ref.
 * @param {PrufeRun.Frames} rules @param {string} merged
 */
function route(rules, merged) {
  return rules.route(merged);
}

/**
 * The port of one root: the same input, evaluation in that root's world.
 * @param {Port} port @param {Frames} frames @param {string} path
 * @returns {Port}
 */
function rootPort(port, frames, path) {
  return path === '' ? port : { ...port, evaluate: (fn, arg) => frames.evaluateIn(path, fn, arg) };
}

/**
 * One need, on a page of several roots.
 * @param {Port} port
 * @param {Frames} frames
 * @param {PrufeRun.Need} need
 * @param {{ policy?: PrufeRun.Policy }} options
 * @returns {Promise<PrufeRun.Answer>}
 */
export async function answerAcross(port, frames, need, options) {
  const rules = (await machine()).frames;
  const at = (/** @type {string} */ path) => rootPort(port, frames, path);
  switch (need.need) {
    // A need of the whole page: the machine asks each root (src/core/run/whole.rs).
    case 'settle':
    case 'fingerprint':
    case 'observe':
      return { answer: 'roots', paths: (await frames.roots()).map((r) => r.path) };
    case 'describe': {
      const { path, ref } = route(rules, need.ref);
      return { answer: 'described', element: rules.adopt({ path, element: await call(at(path), 'describe', ref) }) };
    }
    case 'prepare': {
      // In the ref's own root, its point in that root's viewport: the machine moves it to
      // the top viewport and asks the documents above (`frame`, `hitFrame`, `revealFrame`).
      const timeoutMs = options.policy?.timing?.timeoutMs ?? (await machine()).defaults().timing.timeoutMs;
      const { path, ref } = route(rules, need.ref);
      return at(path).evaluate(prepareInPage, { ref, hitTest: need.hitTest, timeoutMs });
    }
    case 'frame':
      return frameBoxes(frames, need.paths);
    case 'hitFrame':
      return { answer: 'hit', by: await frames.hitOwner(need.path, need.at) };
    case 'revealFrame':
      await frames.reveal(need.path);
      return { answer: 'scrolled' };
    case 'input':
      return (await gesture(port, frames, need.gesture)) ?? { answer: 'sent' };
    case 'read':
      return read(port, frames, need.read);
    default:
      throw new Failed({ code: 'INVALID_ARGUMENT', message: `this driver does not know the need ${JSON.stringify(need)}` });
  }
}

/**
 * `Need::Frame`: the `<iframe>` content box of the root at each path, in the top viewport (a
 * frame no longer on the page left out), and the top viewport's size.
 * @param {Frames} frames @param {string[]} paths
 * @returns {Promise<PrufeRun.Answer>}
 */
async function frameBoxes(frames, paths) {
  const chain = [];
  for (const path of paths) {
    const { box } = await frames.lift(path, { x: 0, y: 0 });
    if (box) chain.push({ path, ...box });
  }
  return { answer: 'frame', chain, viewport: await frames.viewport() };
}

/**
 * In a root's world: its fingerprint (leaving out a need's background) and how long it has
 * been quiet, in one call; the engine's error as data, since evaluation loses its `.code`.
 * @param {Prufe.FingerprintOptions | null} options
 * @returns {Promise<{ fingerprint: string, quiet: number, error?: undefined } | { error: PrufeRun.ErrorData }>}
 */
async function pulseInPage(options) {
  try {
    await prufe.ready;
    return { fingerprint: prufe.fingerprint(options ?? undefined), quiet: prufe.quietFor() };
  } catch (error) {
    const e = /** @type {{ code?: string, message?: string }} */ (error ?? {});
    return { error: { code: /** @type {Prufe.ErrorCode} */ (e.code ?? 'BROWSER_ERROR'), message: String(e.message ?? error) } };
  }
}

/**
 * The reads of one root alone for a need of the whole page, which the machine composes
 * (src/core/run/whole.rs): its snapshot (wire form, a delta where it can be: snapshots.js)
 * and its pulse. Null for another read.
 * @param {Port} page the page's port (snapshots are kept per page and root)
 * @param {Port} port the root's
 * @param {PrufeRun.Read} what
 * @returns {Promise<PrufeRun.Answer | null>}
 */
export async function readRoot(page, port, what) {
  switch (what.kind) {
    case 'snapshot':
      return { answer: 'observed', snapshot: await snapshotOf(page, port, what.path, what.sensitive) };
    case 'pulse': {
      const p = await port.evaluate(pulseInPage, leaving(what.background, what.path) ?? null);
      if (p.error) throw new Failed(p.error);
      return { answer: 'pulse', fingerprint: p.fingerprint, quietFor: p.quiet };
    }
    default:
      return null;
  }
}

/** In a root's world: whether the focus is in its document (or a frame of it). */
async function hasFocusInPage() {
  return document.hasFocus();
}

/**
 * `Need::Read`, routed by its ref (a hash by the ref of the field it is for: keys are per
 * document).
 * @param {Port} port @param {Frames} frames @param {PrufeRun.Read} what
 * @returns {Promise<PrufeRun.Answer>}
 */
async function read(port, frames, what) {
  const rules = (await machine()).frames;
  const whole = await readPage(port, what);
  if (whole) return whole;
  switch (what.kind) {
    case 'value': {
      const { path, ref } = route(rules, what.ref);
      return { answer: 'value', value: await call(rootPort(port, frames, path), 'value', ref) };
    }
    case 'hash': {
      const { path } = route(rules, what.ref);
      return { answer: 'hash', hash: await call(rootPort(port, frames, path), 'hash', what.value) };
    }
    case 'destination': {
      const { path, ref } = route(rules, what.ref);
      return { answer: 'destination', destination: await call(rootPort(port, frames, path), 'destination', ref) };
    }
    // The top document's focus; the machine follows it into the frames (`roots`,
    // `focusedIn`: src/core/run/focus.rs).
    case 'focused':
      return { answer: 'focused', element: await call(port, 'focused') };
    case 'roots':
      return { answer: 'roots', paths: (await frames.roots()).map((r) => r.path) };
    case 'focusedIn': {
      const at = rootPort(port, frames, what.path);
      return { answer: 'focusedIn', has: await at.evaluate(hasFocusInPage, null), element: await call(at, 'focused') };
    }
    // In one root, in its own viewport and terms: the machine looks into the frames under a
    // point and moves and adopts the boxes (src/core/run/locate.rs).
    case 'under':
      return { answer: 'under', element: await call(rootPort(port, frames, what.path), 'at', what.at.x, what.at.y) };
    case 'hitBoxes':
      return { answer: 'hitBoxes', boxes: await call(rootPort(port, frames, what.path), 'hitBoxes') };
    case 'snapshot':
    case 'pulse':
      return /** @type {PrufeRun.Answer} */ (await readRoot(port, rootPort(port, frames, what.path), what));
    case 'selection': {
      const { path, ref } = route(rules, what.ref);
      return { answer: 'selection', selection: await call(rootPort(port, frames, path), 'selection', ref) };
    }
    default:
      throw new Failed({ code: 'INVALID_ARGUMENT', message: `this driver does not know the read ${JSON.stringify(what)}` });
  }
}

/**
 * `Need::Input`: a gesture on a ref goes to that ref's root; pointer gestures come in top
 * viewport points and go through the page's input as they are. The answer of a gesture that
 * has its own (`focus`), else nothing (`sent`).
 * @param {Port} port @param {Frames} frames @param {PrufeRun.Gesture} g
 * @returns {Promise<PrufeRun.Answer | void>}
 */
async function gesture(port, frames, g) {
  const rules = (await machine()).frames;
  switch (g.kind) {
    case 'focus': {
      const { path, ref } = route(rules, g.ref);
      const focused = await rootPort(port, frames, path).evaluate(g.select ? focusSelectInPage : focusInPage, ref);
      if (focused.error) throw new Failed(/** @type {PrufeRun.ErrorData} */ (focused.error));
      return { answer: 'focus', held: focused.held };
    }
    case 'press': {
      if (g.ref !== null) {
        const { path, ref } = route(rules, g.ref);
        const focused = await rootPort(port, frames, path).evaluate(focusInPage, ref);
        if (focused.error) throw new Failed(/** @type {PrufeRun.ErrorData} */ (focused.error));
      }
      await pressKey(port, g.keys);
      return;
    }
    case 'select':
    case 'restore': {
      const { path, ref } = route(rules, g.ref);
      await call(rootPort(port, frames, path), g.kind, ref, g.kind === 'select' ? g.option : g.value);
      return;
    }
    case 'setFiles': {
      const { path, ref } = route(rules, g.ref);
      await frames.setFiles(ref, g.files, path);
      return;
    }
    default:
      return await send(port, g);
  }
}

/**
 * Boxes of merged refs in the top viewport (pictures.js); null for one that is gone.
 * @param {Port} port @param {string[]} refs
 * @returns {Promise<({ x: number, y: number, width: number, height: number } | null)[]>}
 */
export async function boxesAcross(port, refs) {
  const frames = port.frames;
  const roots = frames ? await frames.roots() : null;
  if (!frames || !roots || roots.length === 1) return refs.length ? call(port, 'boxes', refs) : [];
  const rules = (await machine()).frames;
  const routed = refs.map((r) => route(rules, r));
  /** @type {({ x: number, y: number, width: number, height: number } | null)[]} */
  const out = refs.map(() => null);
  for (const path of new Set(routed.map((r) => r.path))) {
    const mine = routed.flatMap((r, i) => (r.path === path ? [i] : []));
    const boxes = await call(rootPort(port, frames, path), 'boxes', mine.map((i) => routed[i].ref)).catch(() => []);
    const origin = path === '' ? { x: 0, y: 0 } : (await frames.lift(path, { x: 0, y: 0 })).at;
    mine.forEach((i, k) => {
      const b = boxes[k];
      out[i] = b ? { ...b, x: b.x + origin.x, y: b.y + origin.y } : null;
    });
  }
  return out;
}

/**
 * Every secret covered in every root for a capture (`prufe.cover`), the boxes in the top
 * viewport; `uncover` ends it. A root that cannot cover fails the capture.
 * @param {Port} port @param {{ sensitive: string[], secrets: string[] }} options merged refs
 * @returns {Promise<{ boxes: { x: number, y: number, width: number, height: number }[] }>}
 */
export async function coverAcross(port, options) {
  const frames = port.frames;
  const roots = frames ? await frames.roots() : null;
  if (!frames || !roots || roots.length === 1) return call(port, 'cover', options);
  const rules = (await machine()).frames;
  const boxes = [];
  for (const { path } of roots) {
    const sensitive = options.sensitive.map((r) => route(rules, r)).filter((r) => r.path === path).map((r) => r.ref);
    const covered = await call(rootPort(port, frames, path), 'cover', { sensitive, secrets: options.secrets });
    const origin = path === '' ? { x: 0, y: 0 } : (await frames.lift(path, { x: 0, y: 0 })).at;
    for (const b of covered.boxes) boxes.push({ ...b, x: b.x + origin.x, y: b.y + origin.y });
  }
  return { boxes };
}

/** @param {Port} port */
export async function uncoverAcross(port) {
  const frames = port.frames;
  const roots = frames ? await frames.roots() : [{ path: '' }];
  for (const { path } of roots) {
    await call(frames ? rootPort(port, frames, path) : port, 'uncover').catch(() => {});
  }
}
