// What every document pays for the engine, one sample at a time: shared by scripts/bench.mjs,
// which takes medians over many fresh pages, and scripts/bench-ab.mjs --inject, which
// alternates two bundles sample by sample so that the load of a shared machine falls on both
// alike.

/** How long the page's first script watches its main thread for the longest task. */
export const STALL_WINDOW_MS = 100;

/** The pages the samples load: `/first-script.html`, whose first script notes when it ran,
 * then the longest gap between the messages it posts itself for STALL_WINDOW_MS (the longest
 * task of anyone else on the main thread); `/inject.html`, a page with no script. */
export function injectionPages() {
  const watch = `(function () { var c = new MessageChannel(), last = performance.now(), end = last + ${STALL_WINDOW_MS}, max = 0;`
    + ' c.port1.onmessage = function () { var t = performance.now(); if (t - last > max) max = t - last; last = t;'
    + ' if (t < end) c.port2.postMessage(0); else globalThis.__benchStall = max; }; c.port2.postMessage(0); })();';
  return {
    '/first-script.html': `<!doctype html><html lang="en"><head><script>globalThis.__benchFirstScript = performance.now(); ${watch}</script><meta charset="utf-8"><title>First script</title></head><body><main><h1>First script</h1><button type="button">Go</button></main></body></html>`,
    '/inject.html': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Inject</title></head><body><main><h1>Inject</h1><button type="button">Go</button></main></body></html>',
  };
}

/**
 * Injection to `ready` in a fresh browser context (its own renderer, so nothing an earlier page
 * compiled is reused): three init scripts (`Page.addScriptToEvaluateOnNewDocument`), run in
 * order: one notes `performance.now()`, the next is the bundle (so its parse and compile are
 * inside the interval), the last notes how long the bundle's own script took (its parse and
 * run: the page's main thread held before the page's scripts) and awaits `prufe.ready`.
 * Returns both, in milliseconds.
 */
export async function injectOnce(browser, server, bundle) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    for (const content of [
      'globalThis.__benchInjected = performance.now();',
      bundle,
      'globalThis.__benchRun = performance.now() - globalThis.__benchInjected; globalThis.__benchReady = prufe.ready.then(() => performance.now() - globalThis.__benchInjected);',
    ]) await page.addInitScript({ content });
    await page.goto(server.url('/inject.html'));
    const [ready, run] = await page.evaluate(async () => [await globalThis.__benchReady, globalThis.__benchRun]);
    return { ready, run };
  } finally {
    await context.close();
  }
}

/** The time from the response's first byte to the page's first script, and the longest task in
 * the STALL_WINDOW_MS after it, once `page` has loaded `/first-script.html`. */
async function firstScript(page) {
  await page.waitForFunction(() => globalThis.__benchStall !== undefined);
  const [first, stall] = await page.evaluate(() => [globalThis.__benchFirstScript - performance.getEntriesByType('navigation')[0].responseStart, globalThis.__benchStall]);
  return { first, stall };
}

/** The page's first script and the longest task after it, the page loaded in a fresh browser
 * context (the first document of a renderer) with `bundle` injected at document start, or with
 * nothing injected when `bundle` is null. Milliseconds. */
export async function coldOnce(browser, server, bundle) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (bundle !== null) await page.addInitScript({ content: bundle });
    await page.goto(server.url('/first-script.html'));
    return await firstScript(page);
  } finally {
    await context.close();
  }
}

/** A tab that loads `/first-script.html` again and again with `bundle` (or nothing, when null)
 * injected: what the second and later documents of a session pay. `load(tag)` returns what
 * coldOnce returns; `close()` ends the tab's context. */
export async function warmTab(browser, server, bundle) {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (bundle !== null) await page.addInitScript({ content: bundle });
  return {
    load: async (tag) => {
      await page.goto(server.url(`/first-script.html?${tag}`));
      return firstScript(page);
    },
    close: () => context.close(),
  };
}
