// The prufe package on frames of another origin, with Playwright and with Puppeteer on
// /usr/bin/chromium (site isolation on, as it ships): the card form of
// fixtures/xorigin/card-frame.html framed by fixtures/hostile/11-cross-origin-iframe.html from
// another port of 127.0.0.1 (another origin, the same site: in the page's process) and from
// 127.0.0.1 under a page at localhost (another site: an out-of-process frame). Targets as
// the library's elements inside the frame and as prufe targets (role and name, `frame`,
// `region`); the card number in no result, error, trace, picture or output; a name that two
// roots share is refused, never guessed.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { prufe as withPlaywright } from '../../node/src/playwright.js';
import { prufe as withPuppeteer } from '../../node/src/puppeteer.js';
import { PrufeError } from '../../node/src/index.js';
import { answerNeed, drive, verify } from '../../node/src/driver.js';
import { World } from '../../node/src/world.js';
import { CHROMIUM, CHROMIUM_FLAGS, freshProfile, serve } from './support/env.mjs';
import { CARD } from './support/scenarios.mjs';

const PAGE = '/hostile/11-cross-origin-iframe.html';

/** A `Pay` button in the top document beside the frame's. */
const TWO_PAY = `<!doctype html><html lang="en"><title>two Pay</title><main>
<button id="top-pay" onclick="document.getElementById('out').textContent='Paid at the top'">Pay</button>
<p role="status" id="out"></p>
<iframe title="Card payment" src="http://127.0.0.1:__XORIGIN_PORT__/xorigin/card-frame.html" style="width:420px;height:230px"></iframe>
</main></html>`;

/** The card frame below the fold, and a veil over it. */
const FAR_FRAME = `<!doctype html><html lang="en"><title>far</title><main>
<div style="height:1600px">Scroll down to pay</div>
<iframe title="Card payment" src="http://127.0.0.1:__XORIGIN_PORT__/xorigin/card-frame.html" style="width:420px;height:230px"></iframe>
<div style="height:600px"></div>
</main></html>`;
const VEILED_FRAME = `<!doctype html><html lang="en"><title>veiled</title><main>
<iframe title="Card payment" src="http://127.0.0.1:__XORIGIN_PORT__/xorigin/card-frame.html" style="width:420px;height:230px;border:0"></iframe>
<div class="veil" style="position:fixed;left:0;top:0;width:100%;height:100%;background:rgba(0,0,0,.2)"></div>
</main></html>`;

/**
 * Two frames deep, each of another origin than its parent: a page, a frame of the other port
 * and, in it, the card frame at the other host. With the page at localhost both frames are
 * of another site than their parent (two out-of-process frames); at 127.0.0.1 only the card.
 */
const NESTED = {
  '/nest-outer.html': `<!doctype html><html lang="en"><title>outer</title><main><h1>Outer</h1>
<iframe title="Middle" src="http://127.0.0.1:__XORIGIN_PORT__/nest-middle.html" style="width:600px;height:400px"></iframe></main></html>`,
  '/nest-middle.html': `<!doctype html><html lang="en"><title>middle</title><body><p>Middle</p>
<iframe title="Card" src="http://localhost:__XORIGIN_PORT__/xorigin/card-frame.html" style="width:440px;height:250px"></iframe></body></html>`,
};

/** A frame whose button opens an alert (Puppeteer leaves it open unless someone answers it). */
const DIALOG = {
  '/dialog-top.html': `<!doctype html><html lang="en"><title>dialog</title><main>
<iframe title="Form" src="http://127.0.0.1:__XORIGIN_PORT__/dialog-frame.html"></iframe></main></html>`,
  '/dialog-frame.html': `<!doctype html><html lang="en"><title>frame</title><body>
<button onclick="alert('Saved in frame'); document.getElementById('out').textContent = 'Saved'">Save</button>
<p role="status" id="out"></p></body></html>`,
};

const MODES = [
  { mode: 'in process', host: '127.0.0.1', outOfProcess: false },
  { mode: 'out of process', host: 'localhost', outOfProcess: true },
];

let server;

before(async () => {
  server = await serve({ pages: { '/two-pay.html': TWO_PAY, '/far-frame.html': FAR_FRAME, '/veiled-frame.html': VEILED_FRAME, ...NESTED, ...DIALOG } });
});

after(async () => {
  await server?.close();
});

/** Runs `fn` with everything written to stdout and stderr also collected in `into`. */
async function captureOutput(into, fn) {
  const writes = [process.stdout.write, process.stderr.write];
  const tee = (original) => function (chunk, ...rest) {
    into.push(String(chunk));
    return original.call(this, chunk, ...rest);
  };
  process.stdout.write = tee(writes[0]);
  process.stderr.write = tee(writes[1]);
  try {
    return await fn();
  } finally {
    [process.stdout.write, process.stderr.write] = writes;
  }
}

/** Whether the card frame runs in a DevTools target of its own (an out-of-process frame). */
async function cardFrameIsATarget(send) {
  return (await frameTargets(send)).some((url) => url.includes('/xorigin/card-frame.html'));
}

/** The addresses of the out-of-process frames. */
async function frameTargets(send) {
  const { targetInfos } = await send('Target.getTargets');
  return targetInfos.filter((t) => t.type === 'iframe').map((t) => t.url);
}

const LIBRARIES = [
  {
    name: 'Playwright',
    async launch() {
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
      return { close: () => browser.close(), newPage: () => browser.newPage() };
    },
    verifier: withPlaywright,
    async outOfProcess(page, all = false) {
      const session = await page.context().newCDPSession(page);
      try {
        return all ? await frameTargets((m) => session.send(m)) : await cardFrameIsATarget((m) => session.send(m));
      } finally {
        await session.detach();
      }
    },
    card: (page) => page.frameLocator('iframe').getByRole('textbox', { name: 'Card number' }),
    nestedCard: (page) => page.frameLocator('iframe').frameLocator('iframe').getByRole('textbox', { name: 'Card number' }),
    pay: (page) => page.frameLocator('iframe').getByRole('button', { name: 'Pay' }),
    status: (page) => page.frameLocator('iframe').locator('#status').textContent(),
  },
  {
    name: 'Puppeteer',
    async launch() {
      const profile = freshProfile();
      const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true, userDataDir: profile.dir });
      return { close: async () => { await browser.close(); await profile.remove(); }, newPage: () => browser.newPage() };
    },
    verifier: withPuppeteer,
    async outOfProcess(page, all = false) {
      const session = await page.createCDPSession();
      try {
        return all ? await frameTargets((m) => session.send(m)) : await cardFrameIsATarget((m) => session.send(m));
      } finally {
        await session.detach();
      }
    },
    frame: (page) => page.frames().find((f) => f.url().includes('/xorigin/card-frame.html')),
    async card(page) {
      return this.frame(page).$('#cc-number');
    },
    async nestedCard(page) {
      return this.frame(page).$('#cc-number');
    },
    async pay(page) {
      return this.frame(page).$('button');
    },
    async status(page) {
      return this.frame(page).$eval('#status', (e) => e.textContent);
    },
  },
];

for (const lib of LIBRARIES) {
  describe(`prufe with ${lib.name} in frames of another origin`, () => {
    let browser;
    before(async () => {
      browser = await lib.launch();
    });
    after(async () => {
      await browser?.close();
    });

    /** A new page at `path` on `host`, its card frame loaded. */
    const open = async (t, path, host) => {
      const page = await browser.newPage();
      t.after(() => page.close());
      await page.goto(server.url(path, host), { waitUntil: 'load' });
      return page;
    };

    for (const { mode, host, outOfProcess } of MODES) {
      test(`cross-origin payment, ${mode}: a library element, frame and region targets, all MATCH, the card number nowhere`, async (t) => {
        const page = await open(t, PAGE, host);
        assert.equal(await lib.outOfProcess(page), outOfProcess, `the card frame runs ${mode}`);
        const traces = mkdtempSync(join(tmpdir(), 'prufe-traces-'));
        t.after(() => rmSync(traces, { recursive: true, force: true }));
        const v = await lib.verifier(page, { traceDir: traces, screenshots: 'all' });
        const output = [];
        const results = await captureOutput(output, async () => [
          await v.fill(await lib.card(page), CARD, { sensitive: true }),
          await v.fill({ role: 'textbox', name: 'Expiry', frame: '0' }, '12/29'),
          await v.click({ role: 'button', name: 'Pay', region: 'frame[0]/form[Card]' }, { intent: 'the payment is accepted' }),
        ]);
        assert.deepEqual(results.map((r) => r.verdict), ['MATCH', 'MATCH', 'MATCH'], results.map((r) => r.reason).join('\n'));
        assert.deepEqual(results.map((r) => r.target), [
          'textbox[Card number] in frame[0]/form[Card]',
          'textbox[Expiry] in frame[0]/form[Card]',
          'button[Pay] in frame[0]/form[Card]',
        ]);
        assert.equal(results[0].record.value, '[redacted]');
        assert.deepEqual(results[2].lines, ["appeared text 'Payment accepted' in frame[0]"]);
        assert.equal(await lib.status(page), 'Payment accepted');
        const written = readdirSync(traces);
        const everything = [
          JSON.stringify(results.map((r) => r.record)),
          ...results.map((r) => r.explain()),
          ...written.filter((f) => !f.endsWith('.jpg')).map((f) => readFileSync(join(traces, f), 'utf8')),
          output.join(''),
        ].join('\n');
        assert.ok(!everything.includes(CARD), 'the card number appears in no output');
        // The fields' covers, moved into the top viewport: inside the frame's box.
        const frameBox = await page.evaluate(() => {
          const r = document.querySelector('iframe').getBoundingClientRect();
          return { x: r.x, y: r.y, right: r.right, bottom: r.bottom };
        });
        const first = JSON.parse(readFileSync(join(traces, written.filter((f) => f.endsWith('.json') && /^0001/.test(f))[0]), 'utf8'));
        const shot = first.pictures?.after;
        assert.ok(shot, 'the fill kept an after picture');
        const k = shot.scale;
        assert.ok(shot.masked.length >= 1, 'the card field is covered in the picture');
        for (const m of shot.masked) {
          assert.ok(m.x >= frameBox.x * k - 1 && m.y >= frameBox.y * k - 1 && m.x < frameBox.right * k && m.y < frameBox.bottom * k, `${JSON.stringify(m)} lies in the frame ${JSON.stringify(frameBox)}`);
        }
        assert.ok(shot.target && shot.target.x >= frameBox.x * k - 1, `the target's box is moved into the frame: ${JSON.stringify(shot.target)}`);
      });

      test(`coordinate steps in the frame, ${mode}: a click focuses the card field, typing it is redacted, the Pay click is judged`, async (t) => {
        const page = await open(t, PAGE, host);
        assert.equal(await lib.outOfProcess(page), outOfProcess);
        const v = await lib.verifier(page);
        /** The centre of a library element in the image of `shot`. */
        const at = async (element, shot) => {
          const b = await element.boundingBox();
          return { x: Math.round((b.x + b.width / 2) / shot.scale.x), y: Math.round((b.y + b.height / 2) / shot.scale.y) };
        };
        const shot = await v.screenshot();
        const field = await at(await lib.card(page), shot);
        const output = [];
        const results = await captureOutput(output, async () => {
          const focused = await v.clickAt(field.x, field.y);
          const typed = await v.type(CARD);
          const next = await v.screenshot();
          const pay = await at(await lib.pay(page), next);
          return [focused, typed, await v.clickAt(pay.x, pay.y, { intent: 'the payment is accepted' })];
        });
        assert.deepEqual(results.map((r) => r.verdict), ['MATCH', 'MATCH', 'MATCH'], results.map((r) => r.reason).join('\n'));
        assert.deepEqual(results.map((r) => r.target), [
          'textbox[Card number] in frame[0]/form[Card]',
          'textbox[Card number] in frame[0]/form[Card]',
          'button[Pay] in frame[0]/form[Card]',
        ]);
        assert.equal(results[1].record.value, '[redacted]', 'a payment field is sensitive by itself');
        assert.equal(await lib.status(page), 'Payment accepted');
        const everything = [JSON.stringify(results.map((r) => r.record)), ...results.map((r) => r.explain()), output.join('')].join('\n');
        assert.ok(!everything.includes(CARD), 'the card number appears in no output');
      });

      test(`a name the top and the frame share is refused, ${mode}; the frame's element is told apart`, async (t) => {
        const page = await open(t, '/two-pay.html', host);
        assert.equal(await lib.outOfProcess(page), outOfProcess);
        const v = await lib.verifier(page, { timeoutMs: 2000 });
        const error = await v.click({ role: 'button', name: 'Pay' }).then(() => null, (e) => e);
        assert.ok(error instanceof PrufeError, String(error));
        assert.equal(error.code, 'TARGET_AMBIGUOUS', error.message);
        assert.equal(await page.evaluate(() => document.getElementById('out').textContent), '', 'nothing was clicked at the top');
        assert.equal(await lib.status(page), '', 'nothing was clicked in the frame');
        const r = await v.click(await lib.pay(page), { intent: 'the payment is accepted' });
        assert.equal(r.verdict, 'MATCH', r.reason);
        assert.equal(r.target, 'button[Pay] in frame[0]/form[Card]');
        assert.equal(await page.evaluate(() => document.getElementById('out').textContent), '');
      });

      if (lib.name === 'Playwright') {
        test(`a point over the frame is located in the frame's root (clickAt), ${mode}; a key with no target goes to the frame's focus`, async (t) => {
          const page = await open(t, PAGE, host);
          const session = await page.context().newCDPSession(page);
          const world = await World.open(session);
          /** The package's port, for a step of the machine's coordinate vocabulary. */
          const port = world.port(page);
          // A look: the machine observes the page root by root and merges (src/core/run/whole.rs).
          const { seen } = await drive(port, (m) => m.look(null, null));
          const pay = seen?.snapshot.elements.find((e) => e.role === 'button' && e.name === 'Pay');
          assert.equal(pay?.region, 'frame[0]/form[Card]');
          assert.match(pay.ref, /^f0:/);
          const box = await page.frameLocator('iframe').getByRole('button', { name: 'Pay' }).boundingBox();
          const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
          // The top document shows the frame's `<iframe>` there; the machine looks into it
          // (a TARGET_CHANGED otherwise: the step expects Pay).
          const top = await answerNeed(port, { need: 'read', read: { kind: 'under', path: '', at } }, {});
          assert.equal(top.answer === 'under' && top.element?.role, 'iframe');
          assert.equal(top.answer === 'under' && top.element?.opaque, true);
          const { record } = await verify(port, { action: { kind: 'clickAt', at, expected: pay }, intent: 'the payment is accepted' });
          assert.equal(record.verdict, 'MATCH', record.reason);
          assert.equal(await lib.status(page), 'Payment accepted');

          const other = await open(t, PAGE, host);
          const v = await lib.verifier(other);
          await v.fill({ role: 'textbox', name: 'Expiry' }, '12/29');
          const r = await v.press(null, 'Enter', { intent: 'the payment is accepted' });
          assert.equal(r.verdict, 'MATCH', r.reason);
          assert.equal(await lib.status(other), 'Payment accepted');
        });
      }

      test(`frames two deep, each of another origin than its parent, the page at ${host}: paths 0 and 0.0`, async (t) => {
        const page = await open(t, '/nest-outer.html', host);
        const targets = await lib.outOfProcess(page, true);
        assert.equal(targets.length, outOfProcess ? 2 : 1, targets.join(', '));
        const v = await lib.verifier(page);
        const filled = await v.fill(await lib.nestedCard(page), CARD);
        assert.equal(filled.verdict, 'MATCH', filled.reason);
        assert.equal(filled.target, 'textbox[Card number] in frame[0.0]/form[Card]');
        assert.equal(filled.record.value, '[redacted]');
        const paid = await v.click({ role: 'button', name: 'Pay', frame: '0.0' }, { intent: 'the payment is accepted' });
        assert.equal(paid.verdict, 'MATCH', paid.reason);
        assert.deepEqual(paid.lines, ["appeared text 'Payment accepted' in frame[0.0]"]);
        assert.ok(!JSON.stringify([filled.record, paid.record]).includes(CARD));
      });

      test(`a dialog the frame opens is dismissed and reported with the step, ${mode}`, async (t) => {
        const page = await open(t, '/dialog-top.html', host);
        const v = await lib.verifier(page, { timeoutMs: 3000 });
        const r = await v.click({ role: 'button', name: 'Save' }, { intent: 'saved' });
        assert.equal(r.verdict, 'MATCH', r.reason);
        assert.deepEqual(r.record.dialogs, ['alert "Saved in frame" dismissed']);
      });

      test(`a frame below the fold is scrolled into view; a frame under a veil is TARGET_OBSCURED, ${mode}`, async (t) => {
        const far = await open(t, '/far-frame.html', host);
        const v = await lib.verifier(far);
        const r = await v.click({ role: 'button', name: 'Pay', frame: '0' }, { intent: 'the payment is accepted' });
        assert.equal(r.verdict, 'MATCH', r.reason);
        assert.ok(await far.evaluate(() => scrollY) > 0, 'the top document scrolled to the frame');
        assert.equal(await lib.status(far), 'Payment accepted');
        const veiled = await open(t, '/veiled-frame.html', host);
        const w = await lib.verifier(veiled, { timeoutMs: 2000 });
        const error = await w.click({ role: 'button', name: 'Pay', frame: '0' }).then(() => null, (e) => e);
        assert.ok(error instanceof PrufeError, String(error));
        assert.equal(error.code, 'TARGET_OBSCURED', error.message);
        // Worded by the machine: the target named as the merged page names it, as every driver does.
        assert.match(error.message, /^button\[Pay\] in frame\[0\]\S* is covered by div\.veil at \(\d+, \d+\); nothing was clicked$/);
        assert.equal(await lib.status(veiled), '', 'nothing was clicked');
      });
    }
  });
}
