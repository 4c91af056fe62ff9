import type { ElementHandle, Locator, Page } from 'playwright-core';
import type { Options, Verifier } from './index.js';

export * from './index.js';
/** A verifier of a Playwright page (Chromium: it needs a CDP session). */
export function prufe(page: Page, options?: Options): Promise<Verifier<Locator | ElementHandle>>;
