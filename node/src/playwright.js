// @ts-check
// prufe for Playwright (playwright-core or playwright, Chromium):
//
//   import { prufe } from 'prufe/playwright';
//   const v = await prufe(page, { traceDir: 'traces' });
//   await v.click(page.getByRole('button', { name: 'Add Shirt M' }), { intent: 'the cart gains a shirt' });
//
// The engine runs in an isolated world through a CDP session of the page's context
// (`context.newCDPSession(page)`); input goes through `page.mouse` and `page.keyboard`.

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
  const port = world.port(page);
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
    const count = await t.count();
    for (let i = 0; i < Math.min(count, count > 1 ? 10 : 1); i++) {
      const handle = await t.nth(i).elementHandle({ timeout: timeoutMs }).catch(() => null);
      if (handle) made.push(handle);
    }
    return { handles: made, count: made.length === 0 ? 0 : count, shown, release };
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
