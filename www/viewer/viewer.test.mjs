// The trace viewer in real headless Chromium: `node --test www/viewer/`.
// Loads the sample through ?sample, through window.loadTraces and through both file pickers,
// checks the rendered steps, verdicts and diff, that page-derived text is never parsed as
// HTML, and that nothing but the viewer's own files is requested. Leaves a screenshot in
// tests/out/viewer.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");

// The CLI under test: PRUFE_CLI (what `make test` built for every driver suite), else built
// here. Building it again beside `cargo test`'s build would compile the dependencies a second
// time, with the features of a build that has no dev-dependencies.
function prufeBinary(execFileSync) {
  if (process.env.PRUFE_CLI) return resolve(root, process.env.PRUFE_CLI);
  execFileSync("cargo", ["build", "-q", "-p", "prufe-harness", "--bin", "prufe"], { cwd: root, stdio: "inherit" });
  return join(root, "target/debug/prufe");
}
const viewerUrl = pathToFileURL(join(here, "index.html")).href;
const sampleDir = join(here, "sample");
const sampleFiles = readdirSync(sampleDir).filter((n) => n.endsWith(".json")).sort();

let browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.PRUFE_CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});
after(async () => { await browser?.close(); });

async function open(query = "") {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests = [];
  const errors = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(viewerUrl + query);
  return { page, requests, errors };
}

async function renderedSteps(page) {
  return page.$$eval("#steps > li", (items) => items.map((li) => ({
    step: li.dataset.step,
    verdict: li.dataset.verdict,
    className: li.className,
    title: li.querySelector("h2").textContent,
    attempts: li.querySelector(".attempts").textContent,
    undone: li.querySelector(".undone").textContent,
    regions: [...li.querySelectorAll(".region h3")].map((h) => h.textContent),
  })));
}

test("the sample renders as three steps with verdict colours", async () => {
  const { page, requests, errors } = await open("?sample");
  await page.waitForSelector("#steps > li");
  const steps = await renderedSteps(page);
  assert.deepEqual(steps.map((s) => [s.step, s.verdict]), [["1", "MATCH"], ["2", "MATCH"], ["3", "MISMATCH"]]);
  assert.match(steps[0].className, /v-match/);
  assert.match(steps[2].className, /v-mismatch/);
  assert.equal(steps[2].title, "clickbutton[Add Shirt M] in list");
  assert.equal(steps[2].attempts, "2");
  assert.equal(steps[2].undone, "1");
  assert.deepEqual(steps[2].regions, ["cart"]);
  const appeared = await page.$$eval("#step-3 .col.appeared li", (l) => l.map((x) => x.textContent));
  assert.deepEqual(appeared, ["listitem[Trousers L Remove Trousers L]", "button[Remove Trousers L]"]);
  const password = await page.$$eval("#step-2 .changes tbody tr", (rows) => rows.map((r) =>
    [...r.children].map((c) => c.textContent)));
  assert.deepEqual(password, [["textbox[Password]", "value", "''", "[redacted]"]]);
  const colours = await page.$$eval(".timeline a", (l) => l.map((a) => getComputedStyle(a).backgroundColor));
  assert.equal(colours[0], "rgb(30, 125, 79)");
  assert.equal(colours[2], "rgb(192, 52, 43)");
  assert.match(await page.textContent("#summary"), /first failure: #3 click/);
  assert.deepEqual(errors, []);
  const foreign = requests.filter((u) => !u.startsWith("file://"));
  assert.deepEqual(foreign, [], "the viewer fetched something that is not a local file");
  mkdirSync(join(root, "tests/out"), { recursive: true });
  await page.setViewportSize({ width: 1280, height: 1150 });
  await page.screenshot({ path: join(root, "tests/out/viewer.png") });
  await page.close();
});

test("window.loadTraces accepts strings, objects, JSON lines and reports bad files", async () => {
  const { page, errors } = await open();
  const cliLines = [
    JSON.stringify({ step: 1, action: "click", ok: true, verdict: "MATCH", error: null, attempts: 1, undone: 0, reason: "r", diff: ["appeared listitem[Shirt M] in cart"] }),
    JSON.stringify({ step: 2, action: "click", ok: false, verdict: null, error: "TARGET_OBSCURED", attempts: 1, undone: 0, reason: "covered", diff: [] }),
  ].join("\n");
  const result = await page.evaluate((lines) => window.loadTraces([
    { name: "run.jsonl", json: lines },
    { name: "0003-watch-ambiguous.json", json: { action: "watch", intent: null, verdict: "AMBIGUOUS", ok: false, error: null, reason: "no intent", diff: { appeared: [], disappeared: [], changed: [], moved: [], textsAppeared: [{ kind: "paragraph", text: "Hello", region: "main", frame: "" }], textsDisappeared: [], lines: [] } } },
    { name: "broken.json", json: "{ not json" },
  ]), cliLines);
  assert.deepEqual(result, { steps: 3, problems: 1 });
  const steps = await renderedSteps(page);
  assert.deepEqual(steps.map((s) => [s.step, s.verdict]), [["1", "MATCH"], ["2", "ERROR"], ["3", "AMBIGUOUS"]]);
  assert.match(steps[1].className, /v-error/);
  assert.match(steps[2].className, /v-ambiguous/);
  assert.deepEqual(steps[0].regions, ["cart"], "lines-only diffs are grouped by the region in the line");
  assert.match(await page.textContent("#problem-list"), /broken\.json: not JSON/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("page-derived text is shown as text, never parsed as markup", async () => {
  const { page } = await open();
  const hostile = "<img src=x onerror=\"window.__owned=1\">";
  await page.evaluate((name) => window.loadTraces([{ name: "0001-click-mismatch.json", json: {
    step: 1, action: "click", target: { role: "button", name, region: name }, intent: name,
    verdict: "MISMATCH", ok: false, error: "VERIFICATION_FAILED", reason: name, attempts: 1, undone: 0,
    diff: { appeared: [{ ref: "e1", role: "button", name, region: name, frame: "", value: name }], disappeared: [], changed: [], moved: [], textsAppeared: [], textsDisappeared: [], lines: [name] },
  } }]), hostile);
  await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => window.__owned), undefined);
  assert.equal(await page.$$eval("#steps img", (l) => l.length), 0);
  assert.match(await page.textContent("#steps"), /<img src=x onerror/);
  await page.close();
});

test("the folder picker and the file picker load a trace directory", async () => {
  const { page } = await open();
  const files = sampleFiles.map((n) => ({ name: n, mimeType: "application/json", buffer: readFileSync(join(sampleDir, n)) }));
  await page.setInputFiles("#pick-files", files.slice().reverse());
  await page.waitForFunction(() => document.body.dataset.steps === "3");
  assert.deepEqual((await renderedSteps(page)).map((s) => s.verdict), ["MATCH", "MATCH", "MISMATCH"]);
  await page.setInputFiles("#pick-dir", sampleDir);
  await page.waitForFunction(() => document.getElementById("run-title").textContent === "sample");
  assert.equal(await page.getAttribute("body", "data-steps"), "3");
  await page.close();
});

test("dropping files loads them", async () => {
  const { page } = await open();
  const json = readFileSync(join(sampleDir, sampleFiles[2]), "utf8");
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], "0003-click-mismatch.json", { type: "application/json" }));
    document.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, json);
  await page.waitForFunction(() => document.body.dataset.steps === "1");
  assert.deepEqual((await renderedSteps(page)).map((s) => s.verdict), ["MISMATCH"]);
  await page.close();
});

test("sample/traces.js matches the JSON files it was packed from", () => {
  const packed = readFileSync(join(sampleDir, "traces.js"), "utf8");
  const start = packed.indexOf("window.loadTraces(") + "window.loadTraces(".length;
  const end = packed.lastIndexOf(", { title:");
  const list = JSON.parse(packed.slice(start, end));
  assert.deepEqual(list.map((f) => f.name), sampleFiles);
  for (const f of list) assert.deepEqual(f.json, JSON.parse(readFileSync(join(sampleDir, f.name), "utf8")), f.name);
});

// A run traced by the harness itself: `prufe run` on the recycling list, where the click on
// "Add Shirt M" lands on a recycled row. The viewer must show the MISMATCH, both attempts and
// both undos, and what appeared in the cart.
test("a MISMATCH + undo run written by prufe run --trace-dir renders", async () => {
  const { execFileSync } = await import("node:child_process");
  const { mkdtempSync, writeFileSync, existsSync } = await import("node:fs");
  const { createServer } = await import("node:http");
  const { tmpdir } = await import("node:os");
  const binary = prufeBinary(execFileSync);
  assert.ok(existsSync(binary), "the prufe binary was built");
  const fixtures = join(root, "fixtures");
  const server = createServer((req, res) => {
    const path = join(fixtures, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!path.startsWith(fixtures) || !existsSync(path)) { res.writeHead(404).end(); return; }
    res.writeHead(200, { "content-type": path.endsWith(".html") ? "text/html" : "text/plain" }).end(readFileSync(path));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const dir = mkdtempSync(join(tmpdir(), "prufe-trace-"));
  const script = join(dir, "script.json");
  writeFileSync(script, JSON.stringify([{ action: "click", target: { role: "button", name: "Add Shirt M" } }]));
  const traceDir = join(dir, "recycled-run");
  // Asynchronously: the fixture server answers from this process's event loop.
  const { execFile } = await import("node:child_process");
  const { status, stderr } = await new Promise((done) => {
    execFile(binary, ["run", `http://127.0.0.1:${server.address().port}/recycled-list.html`, "--script", script, "--trace-dir", traceDir],
      (error, _stdout, stderr) => done({ status: error ? error.code : 0, stderr: String(stderr) }));
  });
  server.close();
  assert.equal(status, 1, "the verified click fails: " + stderr);
  const link = stderr.match(/trace viewer: (\S+)/);
  assert.ok(link, "prufe run prints the viewer link: " + stderr);

  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(link[1]);
  await page.waitForSelector("#steps > li");
  const steps = await renderedSteps(page);
  assert.equal(steps.length, 1);
  assert.equal(steps[0].verdict, "MISMATCH");
  assert.match(steps[0].className, /v-mismatch/);
  assert.equal(steps[0].attempts, "2");
  assert.equal(steps[0].undone, "2");
  const text = await page.textContent("#step-1");
  assert.match(text, /Add Shirt M/);
  assert.match(text, /Trousers L/, "the neighbour the effect belongs to is shown");
  mkdirSync(join(root, "tests/out"), { recursive: true });
  await page.screenshot({ path: join(root, "tests/out/viewer-mismatch.png"), fullPage: true });
  await page.close();
});

// Pictures: `prufe run --screenshots all` on a page with a password field (its value echoed
// by the page), a card number marked data-ap-sensitive and a recycling list. The viewer
// shows both pictures of the MISMATCH with the target and the effect outlined; every box
// the engine covered is one flat dark colour in the saved JPEG (checked inside, a few pixels
// in from the edge, where JPEG ringing is), while the target, a button with its label, is not;
// and no file of the trace holds the secret.
test("a run with pictures: both shown, target and effect outlined, secrets flat, in no file", async () => {
  const { execFileSync, execFile } = await import("node:child_process");
  const { mkdtempSync, writeFileSync, existsSync } = await import("node:fs");
  const { createServer } = await import("node:http");
  const { tmpdir } = await import("node:os");
  const binary = prufeBinary(execFileSync);
  const fixtures = join(root, "fixtures");
  const server = createServer((req, res) => {
    const path = join(fixtures, decodeURIComponent(new URL(req.url, "http://x").pathname));
    if (!path.startsWith(fixtures) || !existsSync(path)) { res.writeHead(404).end(); return; }
    res.writeHead(200, { "content-type": path.endsWith(".html") ? "text/html" : "text/plain" }).end(readFileSync(path));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const secret = "hunter2-Secret!";
  const dir = mkdtempSync(join(tmpdir(), "prufe-pictures-"));
  const script = join(dir, "script.json");
  writeFileSync(script, JSON.stringify([
    { action: "fill", target: { role: "textbox", name: "Password" }, value: secret },
    { action: "click", target: { role: "button", name: "Add Shirt M" } },
  ]));
  const traceDir = join(dir, "run");
  const { status, stderr, stdout } = await new Promise((done) => {
    execFile(binary, ["run", `http://127.0.0.1:${server.address().port}/trace-pictures.html`, "--script", script,
      "--trace-dir", traceDir, "--screenshots", "all"],
    (error, stdout, stderr) => done({ status: error ? error.code : 0, stdout: String(stdout), stderr: String(stderr) }));
  });
  server.close();
  assert.equal(status, 1, "the click is a MISMATCH: " + stderr);
  const files = readdirSync(traceDir).sort();
  const records = files.filter((n) => n.endsWith(".json")).map((n) => [n, JSON.parse(readFileSync(join(traceDir, n), "utf8"))]);
  assert.deepEqual(records.map(([n]) => n), ["0001-fill-match.json", "0002-click-mismatch.json"]);
  assert.equal(files.filter((n) => n.endsWith(".jpg")).length, 4);

  // The secret is in no file of the trace, the pictures included, and not in the output.
  for (const name of files) {
    const bytes = readFileSync(join(traceDir, name));
    for (const form of [secret, secret.toLowerCase(), encodeURIComponent(secret)]) {
      assert.equal(bytes.indexOf(Buffer.from(form)), -1, `${name} holds the secret`);
    }
  }
  assert.ok(!stdout.includes(secret) && !stderr.includes(secret));

  // The viewer, from the link prufe run prints.
  const link = stderr.match(/trace viewer: (\S+)/);
  assert.ok(link, stderr);
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(link[1]);
  await page.waitForSelector("#step-2 .pictures");
  await page.waitForFunction(() => [...document.querySelectorAll(".shot img")].every((i) => i.complete && i.naturalWidth > 0));
  const shown = await page.$$eval("#steps > li", (items) => items.map((li) => ({
    verdict: li.dataset.verdict,
    shots: [...li.querySelectorAll("figure.shot")].map((f) => ({
      which: f.classList.contains("before") ? "before" : "after",
      loaded: f.querySelector("img").naturalWidth,
      targets: f.querySelectorAll(".mark.target").length,
      effects: f.querySelectorAll(".mark.effect").length,
      masked: f.querySelectorAll(".mark.masked").length,
      points: f.querySelectorAll(".mark.point").length,
      // The outline sits where the record says, in the image's own pixels.
      target: (() => { const r = f.querySelector(".mark.target"); return r ? ["x", "y", "width", "height"].map((k) => Number(r.getAttribute(k))) : null; })(),
    })),
  })));
  assert.deepEqual(errors, []);
  assert.equal(shown[1].verdict, "MISMATCH");
  assert.deepEqual(shown[1].shots.map((s) => s.which), ["before", "after"]);
  const mismatch = records[1][1].pictures;
  for (const s of shown[1].shots) {
    assert.ok(s.loaded > 0, `${s.which} picture loaded`);
    assert.equal(s.targets, 1, `${s.which}: the target is outlined`);
    assert.equal(s.points, 1, `${s.which}: the point clicked is marked`);
    const t = mismatch[s.which].target;
    assert.deepEqual(s.target, [t.x, t.y, t.width, t.height]);
  }
  assert.ok(shown[1].shots[1].effects >= 1, "the effect is outlined after");
  assert.equal(shown[1].shots[1].effects, mismatch.after.effect.length);
  assert.ok(shown[0].shots.every((s) => s.masked >= 2), "the fill's covered boxes are shown");
  mkdirSync(join(root, "tests/out"), { recursive: true });
  await page.locator("#step-2").screenshot({ path: join(root, "tests/out/viewer-pictures.png") });

  // Pixels: decoded by Chromium from the saved JPEG bytes (a data: URL, so the canvas is
  // readable), each covered box's interior measured with a 3-pixel inset.
  const stats = await page.evaluate(async (pictures) => {
    async function load(b64) {
      const img = new Image();
      img.src = "data:image/jpeg;base64," + b64;
      await img.decode();
      const c = document.createElement("canvas");
      c.width = img.naturalWidth; c.height = img.naturalHeight;
      const g = c.getContext("2d");
      g.drawImage(img, 0, 0);
      return g;
    }
    function measure(g, b, inset) {
      const x = Math.ceil(b.x + inset), y = Math.ceil(b.y + inset);
      const w = Math.floor(b.x + b.width - inset) - x, h = Math.floor(b.y + b.height - inset) - y;
      if (w < 1 || h < 1) return null;
      const d = g.getImageData(x, y, w, h).data;
      let min = 255, max = 0, sum = 0;
      for (let i = 0; i < d.length; i += 4) {
        for (let k = 0; k < 3; k += 1) { min = Math.min(min, d[i + k]); max = Math.max(max, d[i + k]); sum += d[i + k]; }
      }
      return { spread: max - min, mean: sum / (d.length / 4 * 3), pixels: w * h };
    }
    const out = [];
    for (const p of pictures) {
      const g = await load(p.b64);
      out.push({
        name: p.name,
        masked: p.masked.map((b) => measure(g, b, 3)).filter(Boolean),
        target: p.target ? measure(g, p.target, 3) : null,
      });
    }
    return out;
  }, records.flatMap(([n, r]) => ["before", "after"].map((w) => ({
    name: `${n} ${w}`,
    b64: readFileSync(join(traceDir, r.pictures[w].file)).toString("base64"),
    masked: r.pictures[w].masked,
    target: n.includes("click") ? r.pictures[w].target : null,
  }))));
  for (const s of stats) {
    assert.ok(s.masked.length >= 2, `${s.name}: covered boxes measured`);
    for (const m of s.masked) {
      assert.ok(m.spread <= 24 && m.mean <= 32, `${s.name}: a covered box is not one flat dark colour: ${JSON.stringify(m)}`);
    }
    if (s.target) assert.ok(s.target.spread > 60, `${s.name}: the check sees a label when there is one: ${JSON.stringify(s.target)}`);
  }

  // The same folder opened with the folder picker: the pictures come from the picked files.
  const picked = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await picked.goto(viewerUrl);
  await picked.setInputFiles("#pick-dir", traceDir);
  await picked.waitForFunction(() => document.body.dataset.steps === "2");
  await picked.waitForFunction(() => {
    const imgs = [...document.querySelectorAll(".shot img")];
    return imgs.length === 4 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  });
  const sources = await picked.$$eval(".shot img", (l) => l.map((i) => i.src.slice(0, 5)));
  assert.deepEqual(sources, ["blob:", "blob:", "blob:", "blob:"]);
  await picked.close();
  await page.close();
});
