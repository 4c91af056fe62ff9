// Shared by the driver tests and the bench: paths, the Chromium command line, a fixture
// server on 127.0.0.1 and a raw DevTools-protocol client. Nothing here reaches the network
// beyond the loopback interface.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const FIXTURES = join(ROOT, 'fixtures');
export const BUNDLE = process.env.PRUFE_BUNDLE ? resolve(process.env.PRUFE_BUNDLE) : join(ROOT, 'js', 'dist', 'prufe.js');
export const CHROMIUM = process.env.PRUFE_CHROMIUM || '/usr/bin/chromium';

/** Flags for every Chromium these tests start: headless and silent towards the network. */
export const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The version `prufe.version` must report: the prufe crate's own. */
export function crateVersion() {
  const manifest = readFileSync(join(ROOT, 'Cargo.toml'), 'utf8');
  const section = manifest.slice(manifest.indexOf('[package]'));
  return section.match(/^version\s*=\s*"([^"]+)"/m)[1];
}

/** The bundle's source; throws a clear message when `make bundle` has not run. */
export function bundleSource() {
  return built(BUNDLE);
}

/** The machine module as a classic script (it defines `globalThis.prufeRun`). */
export const MACHINE_SCRIPT = join(ROOT, 'js', 'dist', 'prufe-run.js');
/** The machine module as an ES module. */
export const MACHINE_MODULE = join(ROOT, 'js', 'dist', 'prufe-run.mjs');

/** A file `make bundle` writes; throws a clear message when it has not run. */
export function built(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new Error(`${path} is missing: run \`make bundle\` first`);
  }
}

/** A fresh, empty Chromium profile directory; `remove()` deletes it. */
export function freshProfile() {
  const dir = mkdtempSync(join(tmpdir(), 'prufe-profile-'));
  const remove = async () => {
    // Chromium's helper processes may still be writing for a moment after the browser exits.
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        rmSync(dir, { recursive: true, force: true });
        return;
      } catch {
        await new Promise((done) => setTimeout(done, 100));
      }
    }
  };
  return { dir, remove };
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves `root` on 127.0.0.1 at a free port. `headers` maps a request path
 * (`/drivers/csp-no-wasm.html`) to extra response headers; `pages` maps a path to generated
 * HTML served from memory. The same files are also served on a second port, another origin
 * (`xorigin`), and `__XORIGIN_PORT__` in every HTML response is that port, as the harness's
 * test server does (fixtures/README.md). `url(path, host)` may name another host of the
 * loopback (`localhost`: another site than 127.0.0.1, so its frames of 127.0.0.1 run out of
 * process).
 */
export async function serve({ root = FIXTURES, headers = {}, pages = {} } = {}) {
  const base = resolve(root);
  let otherPort = 0;
  const handler = (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://127.0.0.1').pathname);
    const extra = headers[path] || {};
    if (path === '/favicon.ico') {
      response.writeHead(204);
      response.end();
      return;
    }
    if (Object.prototype.hasOwnProperty.call(pages, path)) {
      response.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store', ...extra });
      response.end(pages[path].replaceAll('__XORIGIN_PORT__', String(otherPort)));
      return;
    }
    const file = normalize(join(base, path));
    let body;
    try {
      if (!(file === base || file.startsWith(base + sep)) || !statSync(file).isFile()) throw new Error('not a file');
      body = readFileSync(file);
    } catch {
      response.writeHead(404, { 'content-type': TYPES['.txt'] });
      response.end('not found');
      return;
    }
    if (extname(file) === '.html') body = Buffer.from(body.toString('utf8').replaceAll('__XORIGIN_PORT__', String(otherPort)));
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] || 'application/octet-stream',
      'cache-control': 'no-store',
      ...extra,
    });
    response.end(body);
  };
  const servers = [createServer(handler), createServer(handler)];
  for (const server of servers) {
    await new Promise((done, fail) => {
      server.once('error', fail);
      server.listen(0, '127.0.0.1', done);
    });
  }
  otherPort = servers[1].address().port;
  const origin = `http://127.0.0.1:${servers[0].address().port}`;
  return {
    origin,
    xorigin: `http://127.0.0.1:${otherPort}`,
    url: (path, host = '127.0.0.1') => `http://${host}:${servers[0].address().port}${path}`,
    close: () => Promise.all(servers.map((server) => new Promise((done) => {
      server.closeAllConnections?.();
      server.close(() => done());
    }))),
  };
}

/**
 * Starts Chromium with `--remote-debugging-port=0` and a fresh profile; resolves to
 * `{ wsEndpoint, close }` once DevTools listens. `close()` always ends the process.
 */
export async function launchChromium(extraFlags = []) {
  const profile = freshProfile();
  const child = spawn(CHROMIUM, [
    ...CHROMIUM_FLAGS,
    '--remote-debugging-port=0',
    '--remote-debugging-address=127.0.0.1',
    `--user-data-dir=${profile.dir}`,
    ...extraFlags,
    'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let exited = false;
  const gone = new Promise((done) => child.once('exit', () => { exited = true; done(); }));
  // Chromium runs in its own process group, so closing ends its helper processes too.
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // Already gone.
    }
  };
  const close = async () => {
    if (!exited) {
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 5000);
      await gone;
      clearTimeout(timer);
    }
    signal('SIGKILL');
    await profile.remove();
  };
  try {
    const wsEndpoint = await new Promise((done, fail) => {
      let output = '';
      const timer = setTimeout(() => fail(new Error(`Chromium did not start in 30 s:\n${output}`)), 30_000);
      child.stderr.on('data', (chunk) => {
        output += chunk;
        const match = output.match(/DevTools listening on (ws:\/\/\S+)/);
        if (match) {
          clearTimeout(timer);
          done(match[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`Chromium exited with ${code}:\n${output}`));
      });
    });
    child.stderr.resume();
    return { wsEndpoint, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A minimal DevTools-protocol client over one WebSocket (flat sessions). `send` resolves to
 * the result or rejects with the protocol error; `on(method, fn)` listens to events.
 */
export async function connectCdp(wsEndpoint) {
  const socket = new WebSocket(wsEndpoint, { perMessageDeflate: false, maxPayload: 512 * 1024 * 1024 });
  await new Promise((done, fail) => {
    socket.once('open', done);
    socket.once('error', fail);
  });
  let nextId = 0;
  const pending = new Map();
  const listeners = new Map();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.id !== undefined) {
      const waiter = pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.error) waiter.fail(new Error(`${waiter.method}: ${message.error.message}`));
      else waiter.done(message.result);
      return;
    }
    for (const fn of listeners.get(message.method) || []) fn(message.params, message.sessionId);
  });
  socket.on('close', () => {
    for (const waiter of pending.values()) waiter.fail(new Error(`${waiter.method}: connection closed`));
    pending.clear();
  });
  return {
    send(method, params = {}, sessionId = undefined) {
      const id = ++nextId;
      const message = { id, method, params };
      if (sessionId) message.sessionId = sessionId;
      return new Promise((done, fail) => {
        pending.set(id, { done, fail, method });
        socket.send(JSON.stringify(message));
      });
    },
    on(method, fn) {
      if (!listeners.has(method)) listeners.set(method, []);
      listeners.get(method).push(fn);
      return () => listeners.set(method, listeners.get(method).filter((f) => f !== fn));
    },
    waitFor(method, predicate = () => true, timeoutMs = 15_000) {
      return new Promise((done, fail) => {
        const timer = setTimeout(() => { off(); fail(new Error(`no ${method} within ${timeoutMs} ms`)); }, timeoutMs);
        const off = this.on(method, (params, sessionId) => {
          if (predicate(params, sessionId)) {
            clearTimeout(timer);
            off();
            done(params);
          }
        });
      });
    },
    close() {
      socket.close();
    },
  };
}
