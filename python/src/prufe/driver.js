// The page half of the Python driver, evaluated once per document in the world that holds
// `prufe` (an isolated world on Chromium), next to the machine module (`prufeRun`). It answers
// the needs that are reads of the page without leaving it, so that one call from Python runs
// the machine from one input to the next: `turn(run, answer)` feeds the answer, then keeps
// answering fingerprint, settle, observe, describe, prepare, the machine's waits and the reads
// that are `prufe` calls (on a page of several roots, those of this document), and returns
// `{ run, need }` at the first need only Python can meet (input, a read of another root, the
// address, the page's requests, the arbiter, done). Every answer is the one
// node/src/driver.js gives (prepare is the bundle's own, `prufe.prepare`, for both); nothing
// here decides anything: the machine does. A navigation kills a call half-way; the
// driver keeps the run it sent and sends the same turn again to the new document (every need
// answered here is a read, so answering it again is answering it on the new page).
(() => {
  if (globalThis.prufeDriver) return;
  const asError = (error) => {
    const e = error ?? {};
    return { code: e.code ?? 'BROWSER_ERROR', message: String(e.message ?? error) };
  };

  /**
   * Does `need` involve a root other than this document (a page whose frames of other origins
   * have engines of their own)? Those needs go back to Python, which asks every root.
   */
  const route = (ref) => prufeRun.frames.route(ref);

  function elsewhere(need) {
    switch (need.need) {
      case 'describe':
      case 'prepare':
        return route(need.ref).path !== '';
      case 'read':
        if ('path' in need.read) return need.read.path !== '';
        return need.read.ref != null && route(need.read.ref).path !== '';
      default:
        return false;
    }
  }

  /** Every ref a need names, routed to its root: `{ ref: { path, ref } }`. */
  function routes(need) {
    const refs = [need.ref, need.read?.ref, need.gesture?.ref, ...(need.sensitive ?? [])];
    const out = {};
    for (const ref of refs) if (typeof ref === 'string') out[ref] = route(ref);
    return out;
  }

  /** The answer Python gave from another root: an element record adopted into merged terms. */
  function completed(given, adopt) {
    if (adopt != null && 'element' in given) {
      return { ...given, element: prufeRun.frames.adopt({ path: adopt, element: given.element }) };
    }
    return given;
  }

  /**
   * The answer to `need` from inside the page, or null when only the driver can meet it. On a
   * page of several roots (`roots`), a need of the whole page is answered with their paths:
   * the machine asks each root alone and composes (src/core/run/whole.rs).
   */
  async function answer(need, timeoutMs, roots) {
    try {
      switch (need.need) {
        case 'settle':
          return roots ? { answer: 'roots', paths: roots } : await prufe.settle(need);
        case 'fingerprint':
          return roots ? { answer: 'roots', paths: roots } : { answer: 'fingerprint', fingerprint: prufe.fingerprint(leaving(need.background, '')) };
        case 'observe':
          return roots ? { answer: 'roots', paths: roots } : { answer: 'observed', snapshot: prufe.snapshot({ sensitive: need.sensitive }) };
        case 'wait':
          // The driver's clock: the wall's, the same in the next document when a navigation
          // ends this one and the turn is sent again there.
          await new Promise((done) => setTimeout(done, need.ms));
          return { answer: 'waited', now: Date.now() };
        case 'describe':
          return { answer: 'described', element: prufe.describe(need.ref) };
        case 'prepare':
          return await prufe.prepare(need.ref, need.hitTest, timeoutMs);
        case 'read':
          switch (need.read.kind) {
            case 'value': return { answer: 'value', value: prufe.value(need.read.ref) };
            case 'hash': return { answer: 'hash', hash: prufe.hash(need.read.value) };
            case 'destination': return { answer: 'destination', destination: prufe.destination(need.read.ref) };
            case 'focused': return { answer: 'focused', element: prufe.focused() };
            case 'scroll': {
              const at = need.read.at;
              return { answer: 'position', position: at ? prufe.scrollFrom(at.x, at.y) : prufe.scrollPosition() };
            }
            case 'selection': return { answer: 'selection', selection: prufe.selection(need.read.ref) };
            // This document's, in its own terms: the machine looks into frames of other
            // origins itself (src/core/run/locate.rs).
            case 'under': return { answer: 'under', element: prufe.at(need.read.at.x, need.read.at.y) };
            case 'hitBoxes': return { answer: 'hitBoxes', boxes: prufe.hitBoxes() };
            // This document alone, for a need of the whole page.
            case 'snapshot': return { answer: 'observed', snapshot: prufe.snapshot({ sensitive: need.read.sensitive }) };
            case 'pulse': return { answer: 'pulse', fingerprint: prufe.fingerprint(leaving(need.read.background, '')), quietFor: prufe.quietFor() };
            default: return null;
          }
        default:
          return null;
      }
    } catch (error) {
      return { answer: 'failed', error: asError(error) };
    }
  }

  /**
   * Feeds `answer` to the run (or starts it from `begin`), then answers what the page can.
   * `run` and the returned run are JSON text: the driver keeps them as they are. With `roots` (the paths of a page's roots, more than one)
   * the needs that involve other roots go back to Python with their refs routed (`routes`);
   * `adopt` is the path of the root Python answered from (see `completed`).
   */
  async function turn({ run, answer: given, begin, timeoutMs, roots, adopt }) {
    await prufe.ready;
    await prufeRun.ready;
    const many = Array.isArray(roots) && roots.length > 1;
    let turned;
    if (begin) {
      // A step the machine refuses to start (INVALID_ACTION, INVALID_EXPECT): its typed error.
      try {
        if (begin.look) turned = prufeRun.look(begin.policy, begin.seen);
        else if (begin.wait) turned = prufeRun.wait(begin.wait.until, begin.wait.timeoutMs, begin.policy);
        else if (begin.shot) turned = prufeRun.shot(begin.policy, begin.shot.settle);
        else turned = prufeRun.start(begin.step, begin.policy, begin.seen);
      } catch (error) {
        return { refused: asError(error) };
      }
    }
    else {
      let reply = given;
      try {
        reply = completed(given, adopt);
      } catch (error) {
        reply = { answer: 'failed', error: asError(error) };
      }
      turned = prufeRun.next(run, reply);
    }
    let needs = 0;
    for (;;) {
      const { need } = turned;
      if (need.need === 'done') break;
      const phase = turned.run?.phase?.phase;
      if (many && elsewhere(need)) {
        return { run: JSON.stringify(turned.run), need, needs, phase, routes: routes(need) };
      }
      const reply = await answer(need, timeoutMs, many ? roots : null);
      if (reply === null) break;
      needs += 1;
      turned = prufeRun.next(turned.run, reply);
    }
    const out = { run: JSON.stringify(turned.run), need: turned.need, needs, phase: turned.run?.phase?.phase };
    if (many) out.routes = routes(turned.need);
    return out;
  }

  /** One rule of `prufeRun.frames` on each of `args` (this world must hold the machine). */
  async function frames({ op, args }) {
    try {
      await prufeRun.ready;
      return { value: args.map((a) => prufeRun.frames[op](a)) };
    } catch (error) {
      return { error: asError(error) };
    }
  }

  /** One rule of `prufeRun.points` (a coordinate step's points; this world must hold the machine). */
  async function points({ op, args }) {
    try {
      await prufeRun.ready;
      return { value: prufeRun.points[op](args) };
    } catch (error) {
      return { error: asError(error) };
    }
  }

  /**
   * The fingerprint's options: what is in a slot of the need's `background` is left out,
   * matched in the merged page's terms from the root at `root`.
   */
  function leaving(background, root) {
    return background ? { background, root } : undefined;
  }

  /**
   * A root's pulse: its fingerprint, then its `quietFor`, in that order, leaving out
   * `background` (the need's) as seen from the root at `root`.
   */
  async function pulse({ background, root }) {
    try {
      await prufe.ready;
      const fingerprint = prufe.fingerprint(leaving(background, root));
      return { fingerprint, quietFor: prufe.quietFor() };
    } catch (error) {
      return { error: asError(error) };
    }
  }

  /** Whether this document holds the page's focus, and its focused element. */
  async function focusHere() {
    try {
      await prufe.ready;
      return { has: document.hasFocus(), element: prufe.focused() };
    } catch (error) {
      return { error: asError(error) };
    }
  }

  /** A root's snapshot alone, its failure as data. */
  async function snapshotHere({ sensitive }) {
    try {
      await prufe.ready;
      return { snapshot: prufe.snapshot({ sensitive }) };
    } catch (error) {
      return { error: asError(error) };
    }
  }

  /** `prufe[name](...args)`, a thrown error as data. */
  async function call({ name, args }) {
    try {
      await prufe.ready;
      return { value: prufe[name](...args) };
    } catch (error) {
      return { error: asError(error) };
    }
  }

  /** Focus the element and select its content; whether the focus then is on it or inside it. */
  async function focusSelect(ref) {
    try {
      await prufe.ready;
      return { held: prufe.focusSelect(ref) };
    } catch (error) {
      return { error: asError(error) };
    }
  }

  async function focus(ref) {
    try {
      await prufe.ready;
      return { held: prufe.focus(ref) };
    } catch (error) {
      return { error: asError(error) };
    }
  }

  /** The file input that is, is inside, or is labelled by the element of a ref (or null). */
  function fileInput(ref) {
    const el = prufe.element(ref);
    const isFile = (e) => e instanceof HTMLInputElement && e.type === 'file';
    if (isFile(el)) return el;
    const inside = el.querySelector('input[type=file]');
    if (isFile(inside)) return inside;
    const control = el instanceof HTMLLabelElement ? el.control : null;
    return isFile(control) ? control : null;
  }

  /** The engine's identification of a library's node (`prufe.identify`), its error as a value. */
  async function identify({ path, sensitive }) {
    try {
      await prufe.ready;
      return prufe.identify(path, { sensitive });
    } catch (error) {
      return { error: asError(error) };
    }
  }

  Object.defineProperty(globalThis, 'prufeDriver', {
    value: Object.freeze({ turn, call, focusSelect, focus, fileInput, identify, frames, points, pulse, focusHere, snapshotHere }),
  });
})();
