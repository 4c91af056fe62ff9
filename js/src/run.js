/*! prufe-run __PRUFE_VERSION_TEXT__ | MIT OR Apache-2.0 | the verification loop of one browser step, for drivers */
// The loader of the DOM-free machine module. `js/build.mjs` fills in the wasm-bindgen glue
// and the inlined wasm, and writes it twice:
// - `js/dist/prufe-run.mjs`, an ES module: `import { start, next } from '…/prufe-run.mjs'`;
// - `js/dist/prufe-run.js`, a classic script that defines `globalThis.prufeRun` when it is
//   evaluated (a page of the driver's own, a `vm` context, Playwright's `evaluate`).
//
// Contract (docs/DESIGN.md, "Node and Python drivers"):
// - `start(step, policy?, seen?)` and `next(run, answer)` return `{ run, need }`; every
//   argument is a value or its JSON text; the driver keeps `run` as it is and hands it back;
// - errors are `Error`s named `PrufeError` with `.code`, `.message` and, for ambiguity,
//   `.candidates`, as the page engine throws them;
// - the engine is instantiated synchronously where the platform allows it (Node always);
//   otherwise calls throw `NOT_READY` until `ready` resolves. Nothing is fetched.
//
// Logic belongs to the Rust machine (src/core/run): this file only loads it and converts.
/*__PRUFE_RUN_MODULE__*/(function (install) {
  'use strict';

  var G = typeof globalThis !== 'undefined' ? globalThis : self;
  var JSONRef = JSON;
  var ErrorCtor = Error;
  var RangeErrorCtor = RangeError;
  var WasmRef = typeof WebAssembly === 'object' && WebAssembly !== null ? WebAssembly : null;
  var CODE_PATTERN = /^[A-Z][A-Z0-9_]*$/;
  var VERSION = __PRUFE_VERSION__;
  var BRAND = typeof Symbol === 'function' ? Symbol.for('prufe.run') : '__prufeRun';

  if (install) {
    var existing = Object.getOwnPropertyDescriptor(G, 'prufeRun');
    if (existing && existing.value && Object.getOwnPropertyDescriptor(existing.value, BRAND)) return existing.value;
  }

  function makeError(code, message, candidates) {
    var error = new ErrorCtor(message);
    Object.defineProperty(error, 'name', { value: 'PrufeError', writable: true, configurable: true });
    Object.defineProperty(error, 'code', { value: code, writable: true, enumerable: true, configurable: true });
    if (candidates !== undefined && candidates !== null) {
      Object.defineProperty(error, 'candidates', { value: candidates, writable: true, enumerable: true, configurable: true });
    }
    return error;
  }

  // The machine throws the JSON text of its error; a trap is a bug in the machine.
  function normalise(thrown) {
    if (typeof thrown === 'string') {
      var parsed = null;
      try {
        parsed = JSONRef.parse(thrown);
      } catch (_) {
        parsed = null;
      }
      if (parsed && typeof parsed.code === 'string' && CODE_PATTERN.test(parsed.code)) {
        return makeError(parsed.code, String(parsed.message), parsed.candidates);
      }
      return makeError('INTERNAL', thrown);
    }
    if (WasmRef && WasmRef.RuntimeError && thrown instanceof WasmRef.RuntimeError) {
      return makeError('INTERNAL', 'the machine stopped on an internal error (' + thrown.message + '); please report it');
    }
    return makeError('INTERNAL', thrown instanceof ErrorCtor ? thrown.message : String(thrown));
  }

  function decodeBase64(text) {
    var table = new Uint8Array(128);
    var alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    for (var i = 0; i < 64; i++) table[alphabet.charCodeAt(i)] = i;
    var length = text.length;
    while (length > 0 && text.charCodeAt(length - 1) === 61) length--;
    var bytes = new Uint8Array((length * 3) >> 2);
    var out = 0;
    var acc = 0;
    var bits = 0;
    for (var j = 0; j < length; j++) {
      acc = (acc << 6) | table[text.charCodeAt(j)];
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes[out++] = (acc >> bits) & 255;
      }
    }
    return bytes;
  }

  var glue = (function () {
    /*__PRUFE_GLUE__*/
    return wasm_bindgen;
  })();
  var WASM_BASE64 = '__PRUFE_WASM_BASE64__';

  var failure = null;
  var loaded = false;
  var settle = null;
  var ready = new Promise(function (resolve, reject) {
    settle = { resolve: resolve, reject: reject };
  });
  ready.catch(function () {});

  function instantiate(module) {
    try {
      glue.initSync({ module: module });
    } catch (error) {
      blocked(error);
      return;
    }
    loaded = true;
    settle.resolve(undefined);
  }

  function blocked(cause) {
    var detail = cause && typeof cause.message === 'string' ? cause.message : String(cause);
    failure = makeError('WASM_BLOCKED', 'WebAssembly could not be instantiated here (' + detail + ')');
    settle.reject(failure);
  }

  (function load() {
    if (!WasmRef) {
      blocked(new ErrorCtor('WebAssembly is not available'));
      return;
    }
    var bytes = decodeBase64(WASM_BASE64);
    var module;
    try {
      module = new WasmRef.Module(bytes);
    } catch (error) {
      // A browser's main thread may refuse a large synchronous compile; the asynchronous
      // one has no such limit.
      if (error instanceof RangeErrorCtor) {
        WasmRef.compile(bytes).then(instantiate, blocked);
        return;
      }
      blocked(error);
      return;
    }
    instantiate(module);
  })();

  function text(value) {
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? value : JSONRef.stringify(value);
  }

  function call(fn, args) {
    if (!loaded) {
      if (failure) throw makeError(failure.code, failure.message);
      throw makeError('NOT_READY', 'the prufe machine is still loading; await ready first');
    }
    var result;
    try {
      result = fn.apply(null, args);
    } catch (thrown) {
      throw normalise(thrown);
    }
    return JSONRef.parse(result);
  }

  var api = {};
  Object.defineProperty(api, 'version', { value: VERSION, enumerable: true });
  Object.defineProperty(api, 'ready', { value: ready, enumerable: true });
  Object.defineProperty(api, 'start', {
    enumerable: true,
    value: function start(step, policy, seen) {
      return call(glue.start, [text(step), text(policy), text(seen)]);
    },
  });
  // A run that only settles and observes (what a driver does when it opens a page).
  Object.defineProperty(api, 'look', {
    enumerable: true,
    value: function look(policy, seen) {
      return call(glue.look, [text(policy), text(seen)]);
    },
  });
  // A coordinate step's observation: the screenshot's capture and the hit boxes behind it.
  Object.defineProperty(api, 'shot', {
    enumerable: true,
    value: function shot(policy, settle) {
      return call(glue.shot, [text(policy), text(settle)]);
    },
  });
  // A run that looks until a postcondition holds.
  Object.defineProperty(api, 'wait', {
    enumerable: true,
    value: function wait(until, timeoutMs, policy) {
      return call(glue.wait, [text(until), text(timeoutMs), text(policy)]);
    },
  });
  Object.defineProperty(api, 'next', {
    enumerable: true,
    value: function next(run, answer) {
      return call(glue.next, [text(run), text(answer)]);
    },
  });
  // A frozen object of rules, one function per `op` of the export `fn(op, args)`; arguments are
  // plain values only (a ref is a string, never JSON text).
  // A number JSON cannot carry (NaN, an infinity) goes as its text, and is refused as any
  // value of the wrong type is, rather than read as null: for the rules of a caller's points
  // only (a replacer costs a call per value, and the frames' rules carry whole snapshots).
  function carried(key, value) {
    return typeof value === 'number' && !isFinite(value) ? String(value) : value;
  }
  function rules(name, fn, ops, replacer) {
    var out = {};
    ops.forEach(function (op) {
      Object.defineProperty(out, op, {
        enumerable: true,
        value: function (args) {
          return call(fn, [op, JSONRef.stringify(args === undefined ? null : args, replacer)]);
        },
      });
    });
    Object.defineProperty(api, name, { value: Object.freeze(out), enumerable: true });
  }
  // The rules of a page's roots (src/core/frames.rs) a driver's transport needs: a merged
  // ref's root, a root's records in merged terms, which frames are roots of their own.
  rules('frames', glue.frames, ['route', 'adopt', 'adoptTarget', 'sameOrigin']);
  // The rules of a coordinate step's points (src/core/run/screen.rs).
  rules('points', glue.points, ['aim', 'scale', 'captured', 'maxWidth', 'framing', 'picture', 'marks'], carried);
  // The policy a run follows where the driver leaves a field out: a driver's defaults.
  Object.defineProperty(api, 'defaults', {
    enumerable: true,
    value: function defaults() {
      return call(glue.defaults, []);
    },
  });
  // The record's `dialogs` lines of the JavaScript dialogs a step heard.
  Object.defineProperty(api, 'dialogs', {
    enumerable: true,
    value: function dialogs(heard) {
      return call(glue.dialogs, [JSONRef.stringify(heard === undefined ? null : heard)]);
    },
  });
  // The report of a step's record (`{ record }`) or of an error no step recorded
  // (`{ error }`), as every surface prints it; and a record's one line for a log.
  Object.defineProperty(api, 'explain', {
    enumerable: true,
    value: function explain(what) {
      return call(glue.explain, [JSONRef.stringify(what === undefined ? null : what)]);
    },
  });
  Object.defineProperty(api, 'summary', {
    enumerable: true,
    value: function summary(record) {
      return call(glue.summary, [JSONRef.stringify(record === undefined ? null : record)]);
    },
  });
  // A step's trace entry and its file's name after the number, the same on every surface.
  Object.defineProperty(api, 'trace', {
    enumerable: true,
    value: function trace(args) {
      return call(glue.trace, [JSONRef.stringify(args === undefined ? null : args)]);
    },
  });
  // The target of a browser library's element, from what a package found for it.
  // The error a settle ends on when its deadline comes with no document to read.
  Object.defineProperty(api, 'lost', {
    enumerable: true,
    value: function lost() {
      return call(glue.lost, []);
    },
  });
  // The error codes of a page that could not answer now: asked again, never a step's end.
  Object.defineProperty(api, 'transient', {
    enumerable: true,
    value: function transient() {
      return call(glue.transient, []);
    },
  });
  // How many times a call that met a destroyed execution context is sent again.
  Object.defineProperty(api, 'resends', {
    enumerable: true,
    value: function resends() {
      return call(glue.resends, []);
    },
  });
  Object.defineProperty(api, 'located', {
    enumerable: true,
    value: function located(found) {
      return call(glue.located, [JSONRef.stringify(found === undefined ? null : found)]);
    },
  });
  // Redaction of the caller's secrets: their forms, and any value scrubbed of them.
  Object.defineProperty(api, 'secretForms', {
    enumerable: true,
    value: function secretForms(values) {
      return call(glue.secretForms, [JSONRef.stringify(values === undefined ? null : values)]);
    },
  });
  Object.defineProperty(api, 'scrub', {
    enumerable: true,
    value: function scrub(secrets, value) {
      return call(glue.scrub, [JSONRef.stringify({ secrets: secrets, value: value === undefined ? null : value })]);
    },
  });
  Object.defineProperty(api, BRAND, { value: VERSION });
  Object.freeze(api);

  if (install) {
    Object.defineProperty(G, 'prufeRun', { value: api, writable: false, enumerable: false, configurable: true });
  }
  return api;
})(__PRUFE_RUN_INSTALL__)
