// @ts-check
// Pictures in traces, as the harness takes them (harness/src/pictures.rs), when the machine
// asks for them (core run::camera): a JPEG of the viewport right before the step's own input
// and one after each observation of its effect (the last is the page the verdict was judged
// on, before any undo), every secret covered by
// the engine for the capture (`prufe.cover` / `prufe.uncover`, src/dom/cover.rs), with the
// target, the effect's elements and the point input went to in image pixels. On a page of
// several roots every root's engine covers its own secrets, and boxes from a frame of another
// origin are moved by its `<iframe>`'s place in the top viewport (roots.js).

import { boxesAcross, coverAcross, uncoverAcross } from './roots.js';
import { PrufeError } from './errors.js';
import { machine } from './machine.js';
import { call } from './page.js';

const WHEN = ['off', 'failures', 'all'];

/**
 * `screenshots` as an option: 'off', 'failures' (the default) or 'all'.
 * @param {unknown} value
 * @returns {'off' | 'failures' | 'all'}
 */
export function screenshotsOption(value) {
  if (value === undefined) return 'failures';
  if (typeof value === 'string' && WHEN.includes(value)) return /** @type {'off' | 'failures' | 'all'} */ (value);
  throw new PrufeError('INVALID_OPTIONS', `screenshots must be 'off', 'failures' or 'all', not ${JSON.stringify(value)}`);
}

/**
 * @typedef {{ x: number, y: number, width: number, height: number }} Rect
 * @typedef {{ jpeg: Buffer, width: number, height: number, scale: number, target: Rect | null,
 *   effect: Rect[], point: { x: number, y: number } | null, masked: Rect[] }} Shot
 * @typedef {{ before?: Shot, after?: Shot }} Pictures
 */

/** Width and height of a JPEG, from its start-of-frame segment. @param {Buffer} j */
export function jpegSize(j) {
  if (j.length < 4 || j[0] !== 0xff || j[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < j.length) {
    if (j[i] !== 0xff) return null;
    const marker = j[i + 1];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: j.readUInt16BE(i + 5), width: j.readUInt16BE(i + 7) };
    }
    i += 2 + j.readUInt16BE(i + 2);
  }
  return null;
}

/** Width and height of a PNG, from its IHDR chunk. @param {Buffer} p */
export function pngSize(p) {
  if (p.length < 24 || p.readUInt32BE(0) !== 0x89504e47 || p.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: p.readUInt32BE(16), height: p.readUInt32BE(20) };
}

/**
 * The viewport as a coordinate step's caller sees it (as harness/src/coords/page.rs captures
 * it): a PNG of the viewport, downscaled to at most `maxWidth` pixels wide, taken while every
 * secret is covered; the image's size, the capture's in device pixels, the pixel ratio.
 * @param {import('./driver.js').Port} port
 * @param {{ send: (method: string, params?: object) => Promise<any> }} session
 * @param {string[]} secrets
 * @param {number | null} maxWidth
 */
export async function capturePng(port, session, secrets, maxWidth) {
  let data;
  let full;
  let dpr;
  let clip;
  try {
    await coverAcross(port, { sensitive: [], secrets });
    const m = await session.send('Page.getLayoutMetrics');
    const css = m.cssVisualViewport ?? m.visualViewport;
    const ratio = (await call(port, 'page')).devicePixelRatio;
    // A ratio JSON cannot carry goes as 0, which the machine counts as 1.
    const view = { pageX: css.pageX, pageY: css.pageY, clientWidth: css.clientWidth, clientHeight: css.clientHeight, dpr: Number.isFinite(ratio) ? ratio : 0 };
    ({ full, dpr, clip } = (await machine()).points.framing({ view, maxWidth }));
    /** @type {Record<string, unknown>} */
    const params = { format: 'png', captureBeyondViewport: false };
    if (clip) params.clip = clip;
    ({ data } = await session.send('Page.captureScreenshot', params));
  } finally {
    await uncoverAcross(port);
  }
  const png = Buffer.from(data, 'base64');
  const image = pngSize(png);
  if (!image) throw new PrufeError('BROWSER_ERROR', 'the browser returned no PNG screenshot');
  return { png, image, capture: clip ? full : image, dpr };
}

/**
 * The pictures of one step, as the machine asks for them (`Need::Picture`, core
 * `run::camera`): when, of which target, which refs are the effect, where input went.
 */
export class Camera {
  /**
   * @param {import('./driver.js').Port} port
   * @param {{ send: (method: string, params?: object) => Promise<any> }} session
   * @param {() => string[]} secrets the caller's secrets now
   */
  constructor(port, session, secrets) {
    this.port = port;
    this.session = session;
    this.secrets = secrets;
    /** @type {Pictures} */
    this.pictures = {};
  }

  /**
   * Takes the picture the machine asked for and keeps it; a before picture replaces both.
   * @param {Extract<PrufeRun.Need, { need: 'picture' }>} need
   */
  async take(need) {
    const shot = await this.shot(need);
    if (need.moment === 'before') this.pictures = { before: shot ?? undefined };
    else if (shot) this.pictures.after = shot;
  }

  /**
   * One covered capture; null when it could not be taken (never half covered).
   * @param {Extract<PrufeRun.Need, { need: 'picture' }>} need
   * @returns {Promise<Shot | null>}
   */
  async shot(need) {
    try {
      const target = need.target ?? null;
      const refs = [...(target ? [target] : []), ...(need.effect ?? [])];
      /** @type {(Rect | null)[]} */
      const boxes = await boxesAcross(this.port, refs);
      let data;
      let css;
      let covered;
      try {
        covered = await coverAcross(this.port, { sensitive: need.sensitive ?? [], secrets: this.secrets() });
        const m = await this.session.send('Page.getLayoutMetrics');
        css = m.cssVisualViewport;
        const params = (await machine()).points.picture({ view: css, deviceWidth: m.visualViewport?.clientWidth ?? null });
        ({ data } = await this.session.send('Page.captureScreenshot', params));
      } finally {
        await uncoverAcross(this.port);
      }
      const jpeg = Buffer.from(data, 'base64');
      const size = jpegSize(jpeg);
      if (!size) return null;
      // In the image's pixels, as the machine marks them (`points.marks`).
      const marks = (await machine()).points.marks({
        imageWidth: size.width, cssWidth: css.clientWidth,
        target: target ? boxes[0] : null, effect: boxes.slice(target ? 1 : 0),
        point: need.point ?? null, masked: covered.boxes,
      });
      return { jpeg, width: size.width, height: size.height, ...marks };
    } catch {
      return null;
    }
  }
}
