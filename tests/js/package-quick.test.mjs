// The package's shorter quiet window (`quickMs`) under Playwright and Puppeteer: the verifier
// answers the machine's `Read::Network` from the page's request events (node/src/requests.js).
// An honest click on a still page is MATCH through a quick settle (the machine asked about the
// requests and none was under way); a click whose effect comes with the response of a slow
// request is judged on the page after the response, not on the first change it made.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { Requests } from '../../node/src/requests.js';
import { prufe as playwrightPrufe } from '../../node/src/playwright.js';
import { prufe as puppeteerPrufe } from '../../node/src/puppeteer.js';
import { CHROMIUM, CHROMIUM_FLAGS, freshProfile } from './support/env.mjs';

/** How long the server holds the answer to `/slow`. */
const SLOW_MS = 400;

// Save shows "Saving" at once and the saved number when the response to /slow comes; Like
// changes the page at once and starts nothing.
const PAGE = readFileSync(new URL('../../fixtures/slow-save.html', import.meta.url));

let server;
let origin;

/** What every network read of the machine was answered: `{ inputMsAgo, requests }`. */
const asked = [];
const heard = Requests.prototype.heard;

/** A read that heard of a request under way since the input. */
const underWay = (a) => a.inputMsAgo !== null && a.requests.some((r) => r.endedMsAgo === undefined && r.heardMsAgo <= a.inputMsAgo);

before(async () => {
  server = createServer((request, response) => {
    if (request.url === '/slow') {
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
        response.end('42');
      }, SLOW_MS);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(PAGE);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${server.address().port}`;
  Requests.prototype.heard = function spied() {
    const answer = heard.call(this);
    asked.push(answer);
    return answer;
  };
});

after(async () => {
  Requests.prototype.heard = heard;
  server?.closeAllConnections?.();
  await new Promise((done) => server.close(() => done()));
});

const LIBRARIES = {
  async Playwright() {
    const profile = freshProfile();
    const browser = await chromium.launchPersistentContext(profile.dir, { executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
    return {
      async open() {
        const page = await browser.newPage();
        await page.goto(`${origin}/`);
        return { page, button: (name) => page.getByRole('button', { name, exact: true }) };
      },
      prufe: playwrightPrufe,
      close: async () => { await browser.close(); await profile.remove(); },
    };
  },
  async Puppeteer() {
    const profile = freshProfile();
    const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true, userDataDir: profile.dir });
    return {
      async open() {
        const page = await browser.newPage();
        await page.goto(`${origin}/`);
        return { page, button: (name) => page.$(`::-p-aria([name=${JSON.stringify(name)}][role="button"])`) };
      },
      prufe: puppeteerPrufe,
      close: async () => { await browser.close(); await profile.remove(); },
    };
  },
};

for (const [name, launch] of Object.entries(LIBRARIES)) {
  describe(`${name}: the shorter window`, () => {
    let lib;
    before(async () => { lib = await launch(); });
    after(async () => { await lib?.close(); });

    test('an honest click on a still page is MATCH through a quick settle', async (t) => {
      const { page, button } = await lib.open();
      t.after(() => page.close());
      const v = await lib.prufe(page, { quickMs: 50 });
      assert.equal(v.policy.timing.quickMs, 50);
      asked.length = 0;
      const result = await v.click(await button('Like'), { intent: 'like the order' });
      assert.equal(result.verdict, 'MATCH', result.explain());
      assert.ok(result.record.lines.includes("appeared text 'Liked' in main"), result.explain());
      // The settle after the click ended on the shorter window: only then is the network read,
      // and no request was at work.
      assert.ok(asked.length > 0 && !asked.some(underWay), JSON.stringify(asked));
    });

    test('a click whose effect comes with a slow response is judged on the page after it', async (t) => {
      const { page, button } = await lib.open();
      t.after(() => page.close());
      // A full window longer than the request: the response comes within it, once the
      // requests say the page is not done.
      const v = await lib.prufe(page, { quickMs: 50, quietMs: 2 * SLOW_MS });
      asked.length = 0;
      const result = await v.click(await button('Save'), { intent: 'save the order' });
      assert.equal(result.verdict, 'MATCH', result.explain());
      assert.ok(result.record.lines.includes("appeared text 'Saved as order 42' in main"), result.explain());
      assert.ok(!result.record.lines.some((l) => l.includes('Saving')), result.explain());
      // The shorter window ended on "Saving" while the request was under way.
      assert.ok(asked.some(underWay), JSON.stringify(asked));
    });

    test('a click whose effect comes from a timer it set is judged on the page after the timer', async (t) => {
      const { page, button } = await lib.open();
      t.after(() => page.close());
      const v = await lib.prufe(page, { quickMs: 50 });
      const result = await v.click(await button('Archive'), { intent: 'archive the order' });
      assert.equal(result.verdict, 'MATCH', result.explain());
      // The page's work watch (js/src/work.js) told the engine its 150 ms timer was still
      // to run: the shorter window did not end on "Archiving".
      assert.ok(result.record.lines.includes("appeared text 'Archived' in main"), result.explain());
      assert.ok(!result.record.lines.some((l) => l.includes('Archiving')), result.explain());
    });
  });
}

describe('the work watch', () => {
  test('passes timeouts on unchanged and answers while one an input set off is still to run', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
    try {
      const page = await browser.newPage();
      await page.addInitScript({ path: new URL('../../js/src/work.js', import.meta.url).pathname });
      // What the engine asks: does the watch answer `prufe:work` at once?
      await page.addInitScript(() => {
        window.askWork = () => {
          let working = false;
          const heard = () => { working = true; };
          document.addEventListener('prufe:work', heard);
          document.dispatchEvent(new Event('prufe:ask'));
          document.removeEventListener('prufe:work', heard);
          return working;
        };
      });
      await page.goto(`${origin}/`);
      // A second run in the same window does nothing.
      await page.addScriptTag({ path: new URL('../../js/src/work.js', import.meta.url).pathname });
      const ask = () => page.evaluate(() => window.askWork());
      // Before any input nothing is followed: the page's own loops are not work.
      await page.evaluate(() => { window.early = setTimeout(() => {}, 100); });
      assert.equal(await ask(), false, 'a timeout set before any input');
      await page.mouse.click(5, 5);
      const ran = await page.evaluate(() => new Promise((done) => {
        const seen = [];
        const idle = () => seen.push('idle');
        document.addEventListener('prufe:idle', idle);
        const self = { name: 'self' };
        const asked = window.askWork;
        const id = setTimeout(function (a, b) { seen.push([this === window, a, b, asked()]); }, 40, 'a', 2);
        seen.push(['id', typeof id === 'number', asked()]);
        const cleared = setTimeout(() => seen.push('never'), 60);
        clearTimeout(cleared);
        const long = setTimeout(() => {}, 5000);
        setTimeout('window.fromString = 1', 10);
        setTimeout(() => {
          clearTimeout(long);
          seen.push(['after', asked(), window.fromString, self.name]);
          done(seen);
        }, 120);
      }));
      assert.deepEqual(ran, [
        ['id', true, true],
        // While its own function runs, the timeout is still to run; the one set for later too.
        [true, 'a', 2, true],
        // Asked inside the last followed timeout's own function: still working; then idle.
        ['after', true, 1, 'self'],
        'idle',
      ]);
      assert.equal(await ask(), false, 'nothing is left to run');
    } finally {
      await browser.close();
    }
  });
});

describe('the request ledger', () => {
  test('records what was heard of since the input, for the machine to count', () => {
    let now = 0;
    const r = new Requests(() => now);
    const poll = {};
    const save = {};
    const frame = {};
    r.started(poll);
    now = 1;
    assert.deepEqual(r.heard(), { answer: 'network', inputMsAgo: null, requests: [{ heardMsAgo: 1 }] }, 'no input yet');
    now = 10;
    r.mark();
    now = 12;
    r.started(save);
    r.started(save);
    now = 13;
    r.started(frame);
    now = 50;
    r.ended(save);
    r.ended(poll);
    now = 60;
    r.ended(frame);
    r.ended(frame);
    now = 70;
    assert.deepEqual(r.heard(), {
      answer: 'network',
      inputMsAgo: 60,
      requests: [{ heardMsAgo: 58, endedMsAgo: 20 }, { heardMsAgo: 57, endedMsAgo: 10 }],
    }, 'the long poll heard of before the input is forgotten; each request once, its first end');
    r.mark();
    assert.deepEqual(r.heard().requests, [], 'a new input starts over');
  });
});
