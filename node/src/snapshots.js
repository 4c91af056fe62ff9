// @ts-check
// Snapshots taken to Node as deltas. A verified step observes before and after its action,
// and the "before" of a step is mostly the "after" of the last: for each root of a page the
// driver keeps the last snapshot it decoded and asks the engine for a delta against it
// (`prufe.snapshot({ wire: true, base })`, src/core/wire_delta.rs), which moves the rows that
// changed instead of all of them. A root whose engine no longer keeps that snapshot (a new
// document, a frame that navigated) answers with the full form, so nothing here decides when
// a base is still good: the engine does, by its id.
//
// The snapshot handed on shares the objects of unchanged elements with the one kept, which is
// safe because nothing changes them in place: the machine reads an answer as JSON text
// (`prufeRun.next` stringifies it), and the camera only reads.

import { decodeSnapshot, snapshotId } from '../dist/wire.mjs';
import { call } from './page.js';

/** @typedef {import('./page.js').Port} Port */

/** The last snapshot decoded from each root, by the page's port and the root's path. */
const held = /** @type {WeakMap<object, Map<string, Prufe.Snapshot>>} */ (new WeakMap());

/**
 * The snapshot of one root, as a delta against the last one taken from it when its engine
 * still keeps that.
 * @param {object} page the page's port (one per page, whichever root is asked)
 * @param {Port} port the root's port
 * @param {string} path the root's frame path ('' for the top document)
 * @param {string[]} sensitive the root's own refs
 * @returns {Promise<Prufe.Snapshot>}
 */
export async function snapshotOf(page, port, path, sensitive) {
  let roots = held.get(page);
  if (!roots) held.set(page, (roots = new Map()));
  const base = roots.get(path) ?? null;
  // Asked again from the full form after any failure.
  roots.delete(path);
  const options = base ? { sensitive, wire: true, base: snapshotId(base) } : { sensitive, wire: true };
  const snapshot = decodeSnapshot(await call(port, 'snapshot', options), base);
  roots.set(path, snapshot);
  return snapshot;
}
