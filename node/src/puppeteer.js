// @ts-check
// prufe for Puppeteer (puppeteer-core or puppeteer, Chrome / Chromium):
//
//   import { prufe } from 'prufe/puppeteer';
//   const v = await prufe(page);
//   await v.click(await page.$('button.add'), { intent: 'the cart gains a shirt' });
//
// The engine runs in an isolated world through a CDP session of its own
// (`page.createCDPSession()`); input goes through `page.mouse` and `page.keyboard`.

import { PrufeError } from './errors.js';
import { Requests } from './requests.js';
import { checkOptions, Verifier } from './verifier.js';
import { World } from './world.js';

/**
 * A verifier of a Puppeteer page.
 * @param {import('puppeteer-core').Page} page
 * @param {import('./verifier.js').Options} [options]
 */
export async function prufe(page, options = {}) {
  checkOptions(options);
  const session = await page.createCDPSession();
  const world = await World.open(session);
  // Puppeteer leaves a dialog open until someone answers it, and input waits for it: with no
  // `dialog` listener of the caller's, it is dismissed, as Playwright and the CLI do.
  world.onDialog = () => {
    if (page.listenerCount('dialog') === 0) session.send('Page.handleJavaScriptDialog', { accept: false }).catch(() => {});
  };
  // The page's requests, every frame's, from now on: they answer the shorter window's question.
  const port = world.port(page, Requests.of(page));
  return new Verifier({ port, world, isElement, elements, owner }, options);
}

/** @param {unknown} t */
function isElement(t) {
  const x = /** @type {any} */ (t);
  return Boolean(x) && typeof x === 'object' && (typeof x.evaluate === 'function' || typeof x.waitHandle === 'function');
}

/**
 * An ElementHandle's element. A Puppeteer Locator is refused: it settles on one of its
 * matches without saying how many there are, so it cannot be resolved strictly (two matches
 * would be a guess, never a typed error).
 * @param {any} t
 * @param {number} _timeoutMs
 */
async function elements(t, _timeoutMs) {
  if (typeof t.waitHandle === 'function') {
    throw new PrufeError('INVALID_TARGET', 'a Puppeteer Locator cannot say how many elements it matches, so prufe cannot resolve it strictly; pass an ElementHandle (`await page.$(selector)`) or a prufe target { role, name }');
  }
  const release = async () => {};
  if (typeof t.asElement === 'function' && !t.asElement()) return { handles: [], count: 0, shown: 'the element handle', release };
  return { handles: [t], count: 1, shown: 'the element handle', release };
}

/**
 * The `<iframe>` of the frame `hops` frames above the element's own; null for the top.
 * @param {import('puppeteer-core').ElementHandle} handle
 * @param {number} hops
 */
async function owner(handle, hops) {
  /** @type {import('puppeteer-core').Frame | null} */
  let frame = handle.frame;
  for (let i = 0; i < hops && frame; i++) frame = frame.parentFrame();
  if (!frame || !frame.parentFrame()) return null;
  return frame.frameElement();
}

export { Verifier, Result } from './verifier.js';
export * from './errors.js';
