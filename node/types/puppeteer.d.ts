import type { ElementHandle, Locator, Page } from 'puppeteer-core';
import type { Options, Verifier } from './index.js';

export * from './index.js';
/** A verifier of a Puppeteer page. */
export function prufe(page: Page, options?: Options): Promise<Verifier<ElementHandle<Element> | Locator<Element>>>;
