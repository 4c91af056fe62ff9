// @ts-check
// A verified click written with the in-page API alone: settle → snapshot → resolve → click →
// settle → snapshot → judge. The two in-page halves are plain functions any driver can
// evaluate (Playwright, Puppeteer, raw CDP, Playwright for Python as strings); only the click
// itself goes through the driver, as real input. The README's driver snippets come from here.
// Type-checked against js/prufe.d.ts by `tsc --noEmit -p js`.

/**
 * In the page: wait until the page is quiet, observe it, resolve `target` to exactly one
 * element and return the point to click. Throws the resolver's typed error (e.g.
 * `TARGET_AMBIGUOUS`) rather than guessing.
 * @param {Prufe.Target} target
 */
export async function observeAndResolve(target) {
  await prufe.ready;
  /** Polls the fingerprint every 50 ms until unchanged for 250 ms (at most 5 s). */
  const settle = async () => {
    let last = prufe.fingerprint();
    let quietSince = performance.now();
    const deadline = quietSince + 5000;
    while (performance.now() < deadline) {
      await new Promise((done) => setTimeout(done, 50));
      const now = prufe.fingerprint();
      if (now !== last) {
        last = now;
        quietSince = performance.now();
      } else if (performance.now() - quietSince >= 250) {
        return true;
      }
    }
    return false;
  };
  await settle();
  const before = prufe.snapshot();
  const { target: element } = prufe.resolve(target, { observation: before });
  const node = prufe.element(element.ref);
  node.scrollIntoView({ block: 'center', inline: 'center' });
  const box = node.getBoundingClientRect();
  return { before, element, x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * In the page, after the click: wait until the page is quiet again, observe, and judge the
 * effect against the target. Returns the verdict (`MATCH`, `MISMATCH` or `AMBIGUOUS`).
 * @param {{ before: Prufe.Snapshot, element: Prufe.ElementRecord, intent?: string }} clicked
 * @returns {Promise<Prufe.Verdict>}
 */
export async function judgeClick({ before, element, intent }) {
  const settle = async () => {
    let last = prufe.fingerprint();
    let quietSince = performance.now();
    const deadline = quietSince + 5000;
    while (performance.now() < deadline) {
      await new Promise((done) => setTimeout(done, 50));
      const now = prufe.fingerprint();
      if (now !== last) {
        last = now;
        quietSince = performance.now();
      } else if (performance.now() - quietSince >= 250) {
        return true;
      }
    }
    return false;
  };
  const stable = await settle();
  const after = prufe.snapshot();
  /** @type {Prufe.Action} */
  const action = { kind: 'click', target: element };
  if (intent) action.intent = intent;
  return prufe.judge(action, before, after, { stable });
}

/**
 * Playwright for Node: the whole verified click. `page` has the bundle injected with
 * `page.addInitScript({ path: 'js/dist/prufe.js' })`.
 * @param {import('playwright-core').Page} page
 * @param {Prufe.Target} target
 */
export async function verifiedClickPlaywright(page, target) {
  const { before, element, x, y } = await page.evaluate(observeAndResolve, target);
  await page.mouse.click(x, y);
  return page.evaluate(judgeClick, { before, element });
}

/**
 * Puppeteer: the same, with the bundle injected by `page.evaluateOnNewDocument(source)`.
 * @param {import('puppeteer-core').Page} page
 * @param {Prufe.Target} target
 */
export async function verifiedClickPuppeteer(page, target) {
  const { before, element, x, y } = await page.evaluate(observeAndResolve, target);
  await page.mouse.click(x, y);
  return page.evaluate(judgeClick, { before, element });
}

/**
 * Raw DevTools protocol: the halves are evaluated in the isolated world the bundle was
 * registered in (`Page.addScriptToEvaluateOnNewDocument` with a `worldName`), the click is
 * dispatched with `Input.dispatchMouseEvent`.
 * @param {(method: string, params?: object) => Promise<any>} send a call on the page's session
 * @param {number} contextId the isolated world's execution context
 * @param {Prufe.Target} target
 * @returns {Promise<Prufe.Verdict>}
 */
export async function verifiedClickCdp(send, contextId, target) {
  /** @param {Function} fn @param {unknown} arg */
  const call = async (fn, arg) => {
    const { result, exceptionDetails } = await send('Runtime.evaluate', {
      expression: `(${fn})(${JSON.stringify(arg)})`,
      contextId,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value;
  };
  const { before, element, x, y } = await call(observeAndResolve, target);
  await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
  for (const type of ['mousePressed', 'mouseReleased']) {
    await send('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1 });
  }
  return call(judgeClick, { before, element });
}
