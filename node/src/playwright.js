// @ts-check
// prufe for Playwright (playwright-core or playwright, Chromium):
//
//   import { prufe } from 'prufe/playwright';
//   const v = await prufe(page, { traceDir: 'traces' });
//   await v.click(page.getByRole('button', { name: 'Add Shirt M' }), { intent: 'the cart gains a shirt' });
//
// The engine runs in an isolated world through a CDP session of the page's context
// (`context.newCDPSession(page)`); input goes through `page.mouse` and `page.keyboard`.

import { Requests } from './requests.js';
import { checkOptions, Verifier } from './verifier.js';
import { World } from './world.js';

/**
 * A verifier of a Playwright page (Chromium only: it needs a CDP session).
 * @param {import('playwright-core').Page} page
 * @param {import('./verifier.js').Options} [options]
 */
export async function prufe(page, options = {}) {
  checkOptions(options);
  const session = await page.context().newCDPSession(page);
  const world = await World.open(session);
  // The page's requests, every frame's, from now on: they answer the shorter window's question.
  const port = world.port(page, Requests.of(page));
  return new Verifier({ port, world, isElement, elements, owner }, options);
}

/** @param {unknown} t */
function isElement(t) {
  return Boolean(t) && typeof t === 'object' && typeof (/** @type {any} */ (t).evaluate) === 'function';
}

/**
 * A Locator's matches (strictly: all of them are counted), or an ElementHandle's element.
 * @param {any} t
 * @param {number} timeoutMs
 */
async function elements(t, timeoutMs) {
  const shown = String(t);
  /** @type {any[]} */
  const made = [];
  const release = async () => {
    for (const h of made) await h.dispose().catch(() => {});
  };
  if (typeof t.count === 'function' && typeof t.nth === 'function') {
    // A locator may match an element that is still to come, as Playwright's actions wait.
    await t.first().waitFor({ state: 'attached', timeout: timeoutMs }).catch(() => {});
    // One query gives the count and the handles together: nothing waits on a timeout after
    // the count, so a slow machine cannot turn a match into "no element".
    /** @type {any[]} */
    const all = await t.elementHandles();
    const keep = all.length > 1 ? 10 : 1;
    for (const [i, handle] of all.entries()) {
      if (i < keep) made.push(handle);
      else await handle.dispose().catch(() => {});
    }
    return { handles: made, count: all.length, shown, release };
  }
  const element = typeof t.asElement === 'function' ? t.asElement() : null;
  if (!element) return { handles: [], count: 0, shown, release };
  return { handles: [element], count: 1, shown, release };
}

/**
 * The `<iframe>` of the frame `hops` frames above the element's own; null for the top.
 * @param {import('playwright-core').ElementHandle} handle
 * @param {number} hops
 */
async function owner(handle, hops) {
  let frame = await handle.ownerFrame();
  for (let i = 0; i < hops && frame; i++) frame = frame.parentFrame();
  if (!frame || !frame.parentFrame()) return null;
  return frame.frameElement();
}

export { Verifier, Result } from './verifier.js';
export * from './errors.js';
