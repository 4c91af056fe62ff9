// Eight verified tests that Playwright Test spreads over its workers (../package-workers.test.mjs
// runs them with four workers, then as two shards). Each test notes, as its `prufe` annotation,
// its verdicts and where its engine ran: the worker's browser (its process id) and the
// engine's isolated world in the test's page (the context's `uniqueId`, which Chromium makes
// unique across processes), with the engine's version read there and what the page's own
// world sees of it.
//
// With PRUFE_RENDEZVOUS set, each test waits, once its verifier is made, until tests of two
// workers have been under way at the same moment, so a run that does not spread its tests
// over workers times out here instead of passing in series.
import { expect, test, VerificationFailed } from 'prufe/test';

const RENDEZVOUS = process.env.PRUFE_RENDEZVOUS;

// Every test its own trace directory, under its own output directory: a verifier numbers its
// records from 0001, so verifiers of tests running together must not share one.
test.use({
  prufeOptions: async ({}, use, testInfo) => {
    await use({ traceDir: testInfo.outputPath('prufe-traces') });
  },
});

/**
 * Runs `body` between `enter` and `leave` on the rendezvous server, `enter` answering once
 * tests of two workers have been inside together.
 */
async function inside(workerIndex, body) {
  if (!RENDEZVOUS) return body();
  await test.step('wait until tests of two workers are under way at once', async () => {
    await fetch(`${RENDEZVOUS}/enter?worker=${workerIndex}`).then((r) => r.text());
  });
  try {
    return await body();
  } finally {
    await fetch(`${RENDEZVOUS}/leave?worker=${workerIndex}`).then((r) => r.text());
  }
}

/** Where the test's engine runs: the worker's browser and the engine's world in the page. */
async function whereEngine(page, browser) {
  const browserSession = await browser.newBrowserCDPSession();
  const { processInfo } = await browserSession.send('SystemInfo.getProcessInfo');
  await browserSession.detach();
  const session = await page.context().newCDPSession(page);
  const contexts = [];
  session.on('Runtime.executionContextCreated', ({ context }) => contexts.push(context));
  // The contexts already there are announced before `Runtime.enable` answers.
  await session.send('Runtime.enable');
  const { frameTree } = await session.send('Page.getFrameTree');
  const engine = contexts.find((c) => c.name === 'prufe' && c.auxData?.frameId === frameTree.frame.id);
  const { result } = engine
    ? await session.send('Runtime.evaluate', { expression: 'prufe.version', uniqueContextId: engine.uniqueId, returnByValue: true })
    : { result: { value: null } };
  await session.detach();
  return {
    browserPid: processInfo.find((p) => p.type === 'browser')?.id ?? null,
    engineWorld: engine?.uniqueId ?? null,
    engineVersion: result.value,
    pageSees: await page.evaluate(() => typeof (/** @type {any} */ (window)).prufe),
  };
}

const PRODUCTS = ['Shirt M', 'Trousers L', 'Socks S', 'Jumper XL', 'Cap', 'Shirt M'];

for (const [i, name] of PRODUCTS.entries()) {
  test(`shop ${i + 1}: Add ${name} is verified`, async ({ page, prufe, browser }, testInfo) => {
    await page.goto('/shop.html');
    const verdicts = await inside(testInfo.workerIndex, async () => {
      const added = await prufe.click(page.getByRole('button', { name: `Add ${name}`, exact: true }), { intent: `add ${name} to the cart` });
      await expect(added).toBeVerified();
      await expect(added).toHaveEffect(`appeared listitem[${name} Remove ${name}] in cart/list:cart-items`);
      await expect(page.getByRole('status')).toHaveText(`Added ${name}`);
      return [added.verdict];
    });
    testInfo.annotations.push({ type: 'prufe', description: JSON.stringify({ verdicts, ...(await whereEngine(page, browser)) }) });
  });
}

for (const i of [1, 2]) {
  test(`recycled list ${i}: Add Shirt M is a MISMATCH, undone`, async ({ page, prufe, browser }, testInfo) => {
    await page.goto('/recycled-list.html');
    const verdicts = await inside(testInfo.workerIndex, async () => {
      const step = prufe.click(page.getByRole('button', { name: 'Add Shirt M' }), { intent: 'add Shirt M to the cart' });
      await expect(step).not.toBeVerified();
      await expect(step).toHaveEffect('appeared listitem[Trousers L Remove Trousers L] in cart/list:cart-items');
      const error = await step.then(() => null, (e) => e);
      expect(error).toBeInstanceOf(VerificationFailed);
      // Undone: the cart the wrong row filled is empty again.
      await expect(page.locator('#cart-items li')).toHaveCount(0);
      return [`${error.record.verdict}, ${error.record.undone} undone`];
    });
    testInfo.annotations.push({ type: 'prufe', description: JSON.stringify({ verdicts, ...(await whereEngine(page, browser)) }) });
  });
}
