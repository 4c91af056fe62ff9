// @ts-check
// Points of coordinate steps, the driver's side (as the CLI's harness/src/coords.rs and
// harness/src/executor.rs): an observation is a screenshot and the hit boxes of the observable
// elements behind it; a point chosen on its image must be on the latest observation and inside
// its image (`STALE_OBSERVATION`, `POINT_OUT_OF_BOUNDS`, before anything is sent), and becomes
// CSS pixels through the capture's scale and the pixel ratio. What the image showed there goes
// to the machine as `expected`; the machine decides what a change under the point means.

import { PrufeError } from './errors.js';
import { hitBoxesAcross } from './roots.js';

/** @typedef {Prufe.HitBox} HitBox */

/**
 * What a screenshot issued: its id, the image's size, the capture's in device pixels, the
 * pixel ratio, and the hit boxes (top-viewport CSS pixels) taken with it.
 * @typedef {{ id: string, image: { width: number, height: number }, capture: { width: number, height: number },
 *   dpr: number, boxes: HitBox[] }} Observation
 */

/**
 * An image point in CSS pixels of the top viewport.
 * @param {Observation} o @param {PrufeRun.Point} p
 * @returns {PrufeRun.Point}
 */
export function toCss(o, p) {
  return { x: (p.x * o.capture.width) / o.image.width / o.dpr, y: (p.y * o.capture.height) / o.image.height / o.dpr };
}

/**
 * The points of a step checked against the latest observation, as the CLI checks a request.
 * @param {Observation | null} latest
 * @param {string | undefined} quoted the observation the caller chose the points on (the latest when left out)
 * @param {PrufeRun.Point[]} points
 * @returns {Observation}
 */
export function checkPoints(latest, quoted, points) {
  const shown = (/** @type {string} */ id) => JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id);
  if (!latest) {
    throw new PrufeError('STALE_OBSERVATION', `observation ${shown(quoted ?? '')} is unknown: take a screenshot first`);
  }
  if (quoted !== undefined && quoted !== latest.id) {
    throw new PrufeError('STALE_OBSERVATION', `observation ${shown(quoted)} is not the latest (${latest.id}): take a screenshot and choose again`);
  }
  for (const p of points) {
    if (!p || !Number.isFinite(p.x) || !Number.isFinite(p.y)) throw new PrufeError('INVALID_ACTION', 'a point is { x, y }, two finite numbers of image pixels');
    if (!(p.x >= 0 && p.y >= 0 && p.x < latest.image.width && p.y < latest.image.height)) {
      throw new PrufeError('POINT_OUT_OF_BOUNDS', `point (${p.x}, ${p.y}) is outside the ${latest.image.width}×${latest.image.height} image of ${latest.id}: choose a point inside it`);
    }
  }
  return latest;
}

/** @param {HitBox} b @param {PrufeRun.Point} p */
const contains = (b, p) => p.x >= b.x && p.y >= b.y && p.x < b.x + b.width && p.y < b.y + b.height;

/**
 * The element the boxes show at `p`: the smallest uncovered box holding it (harness
 * `executor::identity_at`).
 * @param {HitBox[]} boxes @param {PrufeRun.Point} p
 * @returns {Prufe.ElementRecord | null}
 */
export function identityAt(boxes, p) {
  let best = null;
  for (const b of boxes) {
    if (!b.topmost || b.width <= 0 || b.height <= 0 || !contains(b, p)) continue;
    if (!best || b.width * b.height < best.width * best.height) best = b;
  }
  return best ? best.element : null;
}

/** An element's identity (core `Identity::of`): role, label, region, and its container when unlabelled. @param {Prufe.ElementRecord} e */
function identity(e) {
  const label = e.name || e.text || '';
  return JSON.stringify([e.role, label, e.region, label ? null : e.within ?? null]);
}

/** @param {Prufe.ElementRecord | null} a @param {Prufe.ElementRecord | null} b */
function sameIdentity(a, b) {
  return a === null || b === null ? a === b : identity(a) === identity(b);
}

/**
 * The element under `at` now, reconciled with the observation's boxes (harness
 * `coords::pointer::Pointer::locate`): the hit test and the boxes may disagree on an unchanged
 * page (an element whose centre is covered, a frame element snapshots do not list); the boxes'
 * element is then the answer, unless the boxes give another answer now or the element under
 * the point appeared there since.
 * @param {import('./page.js').Port} port @param {PrufeRun.Point} at
 * @param {Prufe.ElementRecord | null} now what the hit test found
 * @param {HitBox[]} boxes the observation's
 * @returns {Promise<Prufe.ElementRecord | null>}
 */
export async function reconciled(port, at, now, boxes) {
  const expected = identityAt(boxes, at);
  if (sameIdentity(expected, now)) return now;
  const boxesNow = await hitBoxesAcross(port);
  const under = (/** @type {HitBox[]} */ bs, /** @type {Prufe.ElementRecord} */ e) => bs.some((b) => contains(b, at) && identity(b.element) === identity(e));
  const appeared = now !== null && under(boxesNow, now) && !under(boxes, now);
  const modelled = identityAt(boxesNow, at);
  return !appeared && sameIdentity(expected, modelled) ? modelled : now;
}
