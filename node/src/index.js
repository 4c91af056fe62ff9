// @ts-check
// prufe: verified browser actions for Playwright and Puppeteer.
//
//   import { prufe } from 'prufe';
//   const v = await prufe(page);               // a Playwright or a Puppeteer page
//   await v.click({ role: 'button', name: 'Add Shirt M' }, { intent: 'the cart gains a shirt' });
//
// `prufe/playwright` and `prufe/puppeteer` are the same for one library; `prufe/test` is the
// Playwright Test fixture.

import { prufe as forPlaywright } from './playwright.js';
import { prufe as forPuppeteer } from './puppeteer.js';

/**
 * A verifier of a Playwright or a Puppeteer page (Chromium).
 * @param {any} page
 * @param {import('./verifier.js').Options} [options]
 */
export function prufe(page, options) {
  if (page && typeof page.createCDPSession === 'function') return forPuppeteer(page, options);
  if (page && typeof page.context === 'function' && page.mouse) return forPlaywright(page, options);
  throw new TypeError('prufe(page): not a Playwright or Puppeteer page');
}

export default prufe;
export { Verifier, Result } from './verifier.js';
export * from './errors.js';
