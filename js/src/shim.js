/*! prufe __PRUFE_VERSION_TEXT__ | MIT OR Apache-2.0 | checks that every browser action did what it was meant to do */
// The loader of the in-page engine. `js/build.mjs` fills in the wasm-bindgen glue and the
// inlined wasm and writes the one classic script `js/dist/prufe.js`, minified.
//
// The engine's wasm is inlined deflated (RFC 1951), as text inside a comment: every document
// and frame parses this script before its own, and a JS engine scans a comment several times
// faster than a string literal of the same length (half the bytes, half the scan and less to
// hand to each document); the comment is read back through `Function.prototype.toString`,
// which returns a function's source text exactly. The text is seven ASCII characters for six
// bytes (js/inflate/src/text.rs), where base64 spends eight. After the page's first scripts, a
// decoder of a few kilobytes that is wasm itself (js/inflate) reads the text back, and the
// browser's own `DecompressionStream` inflates it into `WebAssembly.compileStreaming`, which
// compiles what has come while the rest is inflated; the same decoder inflates it
// synchronously where that cannot be used.
//
// Contract (docs/DESIGN.md, "window.prufe"):
// - one self-contained classic script: no module syntax, no fetch, no global besides `prufe`;
// - the engine is compiled asynchronously, off the page's main thread, and `prufe.ready`
//   resolves when it is compiled; it is instantiated by the first call. A call that comes
//   before the compile has finished compiles synchronously, once (if the browser refuses a
//   synchronous compile of this size, the call throws `NOT_READY` until `ready` resolves);
// - if WebAssembly is refused (a CSP without 'wasm-unsafe-eval'), `ready` rejects and every
//   call throws `WASM_BLOCKED`; nothing is thrown at injection time;
// - `window.prufe` is installed non-writable and non-configurable, over whatever the page put
//   there; a second injection finds the installed engine and does nothing.
//
// Logic belongs to the Rust engine: this file only loads it, forwards calls and gives every
// thrown value the one error shape (`Error` with `.code`, `.message`, `.candidates`).
(function () {
  'use strict';

  // Pristine references, taken before anything below can be reached by page code.
  var G = typeof globalThis !== 'undefined' ? globalThis : self;
  var ObjectCtor = Object;
  var defineProperty = Object.defineProperty;
  var getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  var freeze = Object.freeze;
  var PromiseCtor = Promise;
  var promiseCatch = Promise.prototype.catch;
  var promiseThen = Promise.prototype.then;
  var ErrorCtor = Error;
  var RangeErrorCtor = RangeError;
  var regexpTest = RegExp.prototype.test;
  var CODE_PATTERN = /^[A-Z][A-Z0-9_]*$/;
  var Uint8ArrayCtor = Uint8Array;
  // The native decoder where the browser has one (Chromium 140+, Firefox 133+, Safari 18.2+):
  // it decodes the inlined wasm in well under a millisecond, where the loop below, run cold,
  // takes several. A page that could replace it could as well replace `WebAssembly.Module`.
  var fromBase64 = typeof Uint8Array.fromBase64 === 'function' ? Uint8Array.fromBase64 : null;
  var JSONRef = typeof JSON !== 'undefined' ? JSON : null;
  // `JSON.parse` reads no `this`: called as a plain function, nothing of the page's is reached.
  var parseJSON = JSONRef && typeof JSONRef.parse === 'function' ? JSONRef.parse : null;
  var symbolFor = typeof Symbol === 'function' ? Symbol.for : null;
  var WasmRef = typeof WebAssembly === 'object' && WebAssembly !== null ? WebAssembly : null;
  var WasmModule = WasmRef ? WasmRef.Module : null;
  var WasmInstance = WasmRef ? WasmRef.Instance : null;
  var memoryGrow = WasmRef && WasmRef.Memory ? WasmRef.Memory.prototype.grow : null;
  var memoryBufferProperty = WasmRef && WasmRef.Memory ? getOwnPropertyDescriptor(WasmRef.Memory.prototype, 'buffer') : null;
  var memoryBuffer = memoryBufferProperty && typeof memoryBufferProperty.get === 'function' ? memoryBufferProperty.get : null;
  // The comment's text into the decoder's memory: the browser's UTF-8 encoder, which writes an
  // ASCII character as its byte, else a loop.
  var TextEncoderCtor = typeof TextEncoder === 'function' ? TextEncoder : null;
  var encodeInto = TextEncoderCtor && typeof TextEncoderCtor.prototype.encodeInto === 'function' ? TextEncoderCtor.prototype.encodeInto : null;
  var charCodeAt = String.prototype.charCodeAt;
  // The browser's own inflate: the deflated bytes read through a `DecompressionStream` into a
  // `Response`, whose bytes are then compiled.
  var ResponseCtor = typeof Response === 'function' ? Response : null;
  var responseBody = ResponseCtor ? getOwnPropertyDescriptor(ResponseCtor.prototype, 'body') : null;
  var responseBytes = ResponseCtor ? ResponseCtor.prototype.arrayBuffer : null;
  var DecompressionCtor = typeof DecompressionStream === 'function' ? DecompressionStream : null;
  var pipeThrough = typeof ReadableStream === 'function' ? ReadableStream.prototype.pipeThrough : null;
  // A task of its own for the decode, the inflate and the start of the compile, after the
  // page's own work: the scheduler's background priority where the browser has it (the
  // parser's and the page's tasks go first), else a message on a channel of the engine's own
  // (never throttled as timers are).
  var schedulerRef = typeof scheduler === 'object' && scheduler !== null ? scheduler : null;
  var postTask = schedulerRef && typeof schedulerRef.postTask === 'function' ? schedulerRef.postTask : null;
  var ChannelCtor = typeof MessageChannel === 'function' ? MessageChannel : null;
  // A timer beside the background task, which a page that never leaves the main thread idle
  // could otherwise hold back for good.
  var setTimer = typeof setTimeout === 'function' ? setTimeout : null;
  var BACKGROUND_BOUND_MS = 50;
  var stringIndexOf = String.prototype.indexOf;
  var stringSlice = String.prototype.slice;
  var functionSource = Function.prototype.toString;
  var wasmCompile = WasmRef ? WasmRef.compile : null;
  var wasmCompileStreaming = WasmRef && typeof WasmRef.compileStreaming === 'function' ? WasmRef.compileStreaming : null;
  var consoleRef = typeof console !== 'undefined' ? console : null;
  var warn = consoleRef && typeof consoleRef.warn === 'function' ? consoleRef.warn : null;

  var VERSION = __PRUFE_VERSION__;
  var BRAND = symbolFor ? symbolFor('prufe.engine') : '__prufeEngine';
  var FALLBACK_KEY = symbolFor ? symbolFor('prufe') : '__prufe';
  // The in-page API, in the order of docs/DESIGN.md. Each is forwarded when the engine exports it.
  var METHODS = ['snapshot', 'fingerprint', 'diff', 'resolve', 'element', 'judge', 'hash', 'describe', 'at', 'focused',
    'quietFor', 'stillFor', 'settle', 'box', 'scrollIntoView', 'prepare', 'hitTest', 'labelInReach', 'focusSelect', 'focus', 'fileInput', 'value', 'select', 'restore', 'destination',
    'frameIndex', 'targetOf', 'identify', 'nodeAt', 'page', 'hitBoxes', 'scrollFrom', 'scrollPosition', 'selection',
    'cover', 'uncover', 'boxes'];

  function report(message) {
    if (warn) {
      try {
        warn.call(consoleRef, 'prufe: ' + message);
      } catch (_) {
        // A console that throws must not stop the engine from loading.
      }
    }
  }

  function isOurs(value) {
    try {
      return value !== null && typeof value === 'object' && getOwnPropertyDescriptor(value, BRAND) !== undefined;
    } catch (_) {
      return false;
    }
  }

  // A second injection into the same world: the engine is already installed, keep it.
  var existing = getOwnPropertyDescriptor(G, 'prufe');
  if (existing && !existing.configurable && 'value' in existing && isOurs(existing.value)) {
    return existing.value;
  }
  var fallbackExisting = getOwnPropertyDescriptor(G, FALLBACK_KEY);
  if (fallbackExisting && isOurs(fallbackExisting.value)) {
    return fallbackExisting.value;
  }

  function makeError(code, message, candidates) {
    var error = new ErrorCtor(message);
    defineProperty(error, 'name', { value: 'PrufeError', writable: true, configurable: true });
    defineProperty(error, 'code', { value: code, writable: true, enumerable: true, configurable: true });
    if (candidates !== undefined && candidates !== null) {
      defineProperty(error, 'candidates', { value: candidates, writable: true, enumerable: true, configurable: true });
    }
    return error;
  }

  function describeValue(value) {
    if (typeof value === 'string') return value;
    try {
      return JSONRef ? JSONRef.stringify(value) : String(value);
    } catch (_) {
      return 'unprintable value';
    }
  }

  // Every thrown value leaves with `.code`: the engine's `{ code, message, candidates }`,
  // an Error it raised, or a trap (a bug in the engine, reported as INTERNAL).
  function normalise(thrown) {
    if (thrown !== null && typeof thrown === 'object') {
      var code = thrown.code;
      if (typeof code === 'string' && regexpTest.call(CODE_PATTERN, code)) {
        if (thrown instanceof ErrorCtor) return thrown;
        var message = typeof thrown.message === 'string' ? thrown.message : code;
        return makeError(code, message, thrown.candidates);
      }
      if (WasmRef && WasmRef.RuntimeError && thrown instanceof WasmRef.RuntimeError) {
        return makeError('INTERNAL', 'the engine stopped on an internal error (' + thrown.message + '); please report it');
      }
      if (thrown instanceof ErrorCtor) {
        return makeError('INTERNAL', thrown.message);
      }
    }
    return makeError('INTERNAL', describeValue(thrown));
  }

  // Base64 without atob (which a page may have replaced) where there is no native decoder.
  function decodeBase64(text) {
    if (fromBase64 !== null) {
      try {
        return fromBase64.call(Uint8ArrayCtor, text);
      } catch (_) {
        // A decoder that refuses valid base64 is not the native one: decode below.
      }
    }
    var table = new Uint8ArrayCtor(128);
    var alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    for (var i = 0; i < 64; i++) table[alphabet.charCodeAt(i)] = i;
    var length = text.length;
    while (length > 0 && text.charCodeAt(length - 1) === 61) length--;
    var bytes = new Uint8ArrayCtor((length * 3) >> 2);
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

  // The wasm-bindgen glue (--target no-modules), kept local. Its top level runs here (it
  // creates a TextDecoder, for instance); if that throws, the engine reports it, not the page.
  var glue = null;
  var glueError = null;
  try {
    // The glue's `WebAssembly` is the one found at injection: the first call instantiates the
    // module through it, when the page may have replaced the global.
    glue = (function (WebAssembly) {
      /*__PRUFE_GLUE__*/
      return wasm_bindgen;
    })(WasmRef === null ? undefined : freeze({ Module: WasmModule, Instance: WasmInstance }));
  } catch (error) {
    glueError = error;
  }
  // The engine's wasm, deflated, as text in the comment; and its size unpacked.
  var PACKED = function () {/*!__PRUFE_WASM_PACKED__*/};
  var WASM_BYTES = __PRUFE_WASM_BYTES__;
  // The decoder (js/inflate): exports `memory`, `text_decode(text, chars, output, size)` and
  // `inflate_raw(input, length, output, size)`. It reads the text back, and inflates
  // synchronously: for a call that comes before the engine is compiled, and in a browser
  // without `DecompressionStream('deflate-raw')`.
  var INFLATE_BASE64 = '__PRUFE_INFLATE_BASE64__';

  function packedText() {
    var source = functionSource.call(PACKED);
    var start = stringIndexOf.call(source, '/*!') + 3;
    var end = stringIndexOf.call(source, '*/', start);
    return stringSlice.call(source, start, end);
  }

  // An instance of the decoder.
  function decoder() {
    return new WasmInstance(new WasmModule(decodeBase64(INFLATE_BASE64)), {}).exports;
  }

  // The decoder's memory, grown to hold `end` bytes at least.
  function grown(memory, end) {
    var size = memoryBuffer.call(memory).byteLength;
    if (end > size) memoryGrow.call(memory, (end - size + 65535) >> 16);
    return memoryBuffer.call(memory);
  }

  // ASCII `text` written into `buffer` from `at` on, a byte a character.
  function writeText(buffer, at, text) {
    var view = new Uint8ArrayCtor(buffer, at, text.length);
    if (encodeInto !== null) {
      try {
        if (encodeInto.call(new TextEncoderCtor(), text, view).written === text.length) return;
      } catch (_) {
        // Not the browser's encoder: the loop below.
      }
    }
    for (var i = 0; i < text.length; i++) view[i] = charCodeAt.call(text, i);
  }

  // The engine's wasm, deflated, read back from the comment into the memory of `inflater` (a
  // decoder's exports) from `at` on, the text itself written after it; returns its length.
  function readPacked(inflater, at) {
    var text = packedText();
    var chars = text.length;
    var length = chars - ((chars + 6) / 7 | 0);
    writeText(grown(inflater.memory, at + length + chars), at + length, text);
    if (inflater.text_decode(at + length, chars, at, length) !== 1) {
      throw makeError('INTERNAL', 'the engine inlined in this script is damaged');
    }
    return length;
  }

  // Inflates the engine's wasm in the memory of an instance of the decoder, grown past what
  // the decoder itself uses to hold the output and, after it, the deflated input; returns a
  // view of the output.
  function unpack() {
    var inflater = decoder();
    var output = memoryBuffer.call(inflater.memory).byteLength;
    var input = output + WASM_BYTES;
    var length = readPacked(inflater, input);
    if (inflater.inflate_raw(input, length, output, WASM_BYTES) !== 1) {
      throw makeError('INTERNAL', 'the engine inlined in this script is damaged');
    }
    return new Uint8ArrayCtor(memoryBuffer.call(inflater.memory), output, WASM_BYTES);
  }

  // The engine's wasm inflated by the browser from the deflated bytes `packed()` gives, as a
  // stream of its bytes; null where the browser has no such inflate.
  function inflateNatively(packed) {
    if (ResponseCtor === null || !responseBody || typeof responseBody.get !== 'function' || typeof responseBytes !== 'function'
      || DecompressionCtor === null || typeof pipeThrough !== 'function') {
      return null;
    }
    var stream;
    try {
      stream = new DecompressionCtor('deflate-raw');
    } catch (_) {
      return null;
    }
    var body = responseBody.get.call(new ResponseCtor(packed()));
    return pipeThrough.call(body, stream);
  }

  // A response of the inflated wasm, as `compileStreaming` takes it. The init dictionaries
  // have no prototype: the constructor reads members they lack (`status`, an iterator), and
  // must find none of the page's.
  function wasmResponse(body) {
    return new ResponseCtor(body, { __proto__: null, headers: { __proto__: null, 'content-type': 'application/wasm' } });
  }

  // Runs `task` once, in a task of its own: at the scheduler's background priority, and at
  // the latest after BACKGROUND_BOUND_MS by a timer; else on a channel's message; else now.
  function later(task) {
    var done = false;
    var once = function () {
      if (done) return;
      done = true;
      task();
    };
    if (postTask !== null) {
      try {
        promiseCatch.call(postTask.call(schedulerRef, once, { priority: 'background' }), function () {});
        if (setTimer !== null) setTimer.call(G, once, BACKGROUND_BOUND_MS);
        return;
      } catch (_) {
        // A scheduler that refuses the task: a channel below.
      }
    }
    if (ChannelCtor !== null) {
      try {
        var channel = new ChannelCtor();
        channel.port1.onmessage = function () {
          channel.port1.onmessage = null;
          once();
        };
        channel.port2.postMessage(null);
        return;
      } catch (_) {
        // A channel that cannot be used: run the task now.
      }
    }
    once();
  }

  // LOADING: compiling off the main thread; COMPILED: the module is there, not yet
  // instantiated; READY: calls run; FAILED: every call throws `failure`.
  var LOADING = 0;
  var COMPILED = 1;
  var READY = 2;
  var FAILED = 3;
  var state = LOADING;
  var failure = null;
  var compiled = null;
  var settle = null;
  var ready = new PromiseCtor(function (resolve, reject) {
    settle = { resolve: resolve, reject: reject };
  });
  // A rejected `ready` nobody awaits must not surface as an unhandled rejection.
  promiseCatch.call(ready, function () {});

  // The snapshot object of a wire string (src/core/wire.rs documents the layout; js/wire.mjs
  // reads it the same way outside the page). The engine writes the wire string and this
  // builds the objects: an eighth of the text to make and parse, and one object literal per
  // element, where JSON of the objects costs a key and a value read from text each.
  //
  // Exactly the objects `JSON.parse` would give for the snapshot's JSON: the same keys in the
  // same order, every one an own data property. So nothing of the page's is reached: objects
  // come from literals and from `JSON.parse` (whose arrays are filled in place, an own
  // property each, never through a setter an array prototype may have); the optional keys
  // after `sensitive` are defined with descriptors that have no prototype.
  var TRISTATE = [null, false, true, 'mixed'];
  var BOOLEAN = [null, false, true, null];

  function own(object, key, value) {
    defineProperty(object, key, { __proto__: null, value: value, writable: true, enumerable: true, configurable: true });
  }

  // An element with a `valueHash` (a sensitive field's): every key defined in order.
  function sensitiveElement(ref, role, name, text, region, within, frame, href, value, valueHash, f) {
    var e = {};
    own(e, 'ref', ref);
    own(e, 'role', role);
    own(e, 'name', name);
    if (text !== null) own(e, 'text', text);
    own(e, 'region', region);
    if (within !== null) own(e, 'within', within);
    own(e, 'frame', frame);
    own(e, 'href', href);
    own(e, 'value', value);
    own(e, 'valueHash', valueHash);
    own(e, 'checked', TRISTATE[(f >> 6) & 3]);
    own(e, 'pressed', TRISTATE[(f >> 8) & 3]);
    own(e, 'selected', BOOLEAN[(f >> 10) & 3]);
    own(e, 'expanded', BOOLEAN[(f >> 12) & 3]);
    own(e, 'disabled', (f & 1) !== 0);
    own(e, 'visible', (f & 2) !== 0);
    own(e, 'inViewport', (f & 4) !== 0);
    own(e, 'focused', (f & 8) !== 0);
    own(e, 'sensitive', (f & 16) !== 0);
    return e;
  }

  // One element row: [ref, role, name, region, flags, text?, href?, value?, level?, within?,
  // valueHash?, frame?], cut after its last field that is there, a missing one before it `0`
  // (`null` for level); `ref` a step from the last numbered ref, `last` (a one-slot array).
  function wireElement(r, strings, tag, last) {
    var n = r.length;
    var f = r[4];
    var ref = r[0];
    if (typeof ref === 'number') {
      last[0] += ref + 1;
      ref = 'e' + last[0] + '-' + tag;
    }
    var role = strings[r[1]];
    var name = r[2];
    var region = strings[r[3]];
    var text = n > 5 && r[5] !== 0 ? r[5] : null;
    var href = n > 6 && r[6] !== 0 ? r[6] : null;
    var value = n > 7 && r[7] !== 0 ? r[7] : null;
    var level = n > 8 ? r[8] : null;
    var within = n > 9 && r[9] !== 0 ? r[9] : null;
    var valueHash = n > 10 && r[10] !== 0 ? r[10] : null;
    var frame = n > 11 ? strings[r[11]] : '';
    var checked = TRISTATE[(f >> 6) & 3];
    var pressed = TRISTATE[(f >> 8) & 3];
    var selected = BOOLEAN[(f >> 10) & 3];
    var expanded = BOOLEAN[(f >> 12) & 3];
    var e;
    if (valueHash !== null) {
      e = sensitiveElement(ref, role, name, text, region, within, frame, href, value, valueHash, f);
    } else if (text === null && within === null) {
      e = { ref: ref, role: role, name: name, region: region, frame: frame, href: href, value: value,
        checked: checked, pressed: pressed, selected: selected, expanded: expanded, disabled: (f & 1) !== 0,
        visible: (f & 2) !== 0, inViewport: (f & 4) !== 0, focused: (f & 8) !== 0, sensitive: (f & 16) !== 0 };
    } else if (within === null) {
      e = { ref: ref, role: role, name: name, text: text, region: region, frame: frame, href: href, value: value,
        checked: checked, pressed: pressed, selected: selected, expanded: expanded, disabled: (f & 1) !== 0,
        visible: (f & 2) !== 0, inViewport: (f & 4) !== 0, focused: (f & 8) !== 0, sensitive: (f & 16) !== 0 };
    } else if (text === null) {
      e = { ref: ref, role: role, name: name, region: region, within: within, frame: frame, href: href, value: value,
        checked: checked, pressed: pressed, selected: selected, expanded: expanded, disabled: (f & 1) !== 0,
        visible: (f & 2) !== 0, inViewport: (f & 4) !== 0, focused: (f & 8) !== 0, sensitive: (f & 16) !== 0 };
    } else {
      e = { ref: ref, role: role, name: name, text: text, region: region, within: within, frame: frame, href: href,
        value: value, checked: checked, pressed: pressed, selected: selected, expanded: expanded,
        disabled: (f & 1) !== 0, visible: (f & 2) !== 0, inViewport: (f & 4) !== 0, focused: (f & 8) !== 0,
        sensitive: (f & 16) !== 0 };
    }
    if (level !== null) own(e, 'level', level);
    if (f & 32) own(e, 'opaque', true);
    if (f & 16384) own(e, 'busy', true);
    if (f & 32768) own(e, 'clickable', true);
    return e;
  }

  function snapshotOf(wire) {
    var w = parseJSON(wire);
    var strings = w.strings;
    var tag = w.tag;
    var elements = w.elements;
    var last = [0];
    for (var i = 0; i < elements.length; i++) elements[i] = wireElement(elements[i], strings, tag, last);
    var texts = w.texts;
    for (var j = 0; j < texts.length; j++) {
      var t = texts[j];
      texts[j] = { kind: t[0], text: t[1], region: strings[t[2]], frame: strings[t[3]] };
    }
    return { context: w.context, hasMore: w.hasMore, elements: elements, texts: texts };
  }

  // `textContent` given up past `max` UTF-16 code units: the text nodes below `node` (CDATA
  // sections are text too), in tree order, through the browser's own walker and getters.
  var DocumentRef = typeof Document === 'function' ? Document : null;
  var createTreeWalker = DocumentRef ? DocumentRef.prototype.createTreeWalker : null;
  var walkerNext = typeof TreeWalker === 'function' ? TreeWalker.prototype.nextNode : null;
  var ownerDocumentProperty = typeof Node === 'function' ? getOwnPropertyDescriptor(Node.prototype, 'ownerDocument') : null;
  var ownerDocumentOf = ownerDocumentProperty ? ownerDocumentProperty.get : null;
  var dataProperty = typeof CharacterData === 'function' ? getOwnPropertyDescriptor(CharacterData.prototype, 'data') : null;
  var dataOf = dataProperty ? dataProperty.get : null;
  var SHOW_TEXT_AND_CDATA = 4 | 8;

  function textWithin(node, max) {
    var walker = createTreeWalker.call(ownerDocumentOf.call(node), node, SHOW_TEXT_AND_CDATA);
    var text = '';
    for (var t = walkerNext.call(walker); t !== null; t = walkerNext.call(walker)) {
      text += dataOf.call(t);
      if (text.length > max) return null;
    }
    return text;
  }

  // Plain-JS helpers the engine calls once where wasm would cross into JS several times.
  var PROBES = {
    // Same rule as the engine's own: the border box intersects [0, w) × [0, h) and has an
    // extent in at least one direction.
    inView: function (element, w, h) {
      var r = element.getBoundingClientRect();
      var t = r.top;
      var b = r.bottom;
      if (!(b > 0 && t < h)) return false;
      var l = r.left;
      var rt = r.right;
      return rt > 0 && l < w && (rt > l || b > t);
    },
    snapshotOf: parseJSON === null ? undefined : snapshotOf,
    textWithin: createTreeWalker && walkerNext && ownerDocumentOf && dataOf ? textWithin : undefined,
  };

  function blocked(cause) {
    var detail = cause && typeof cause.message === 'string' ? cause.message : describeValue(cause);
    fail(cause, 'WASM_BLOCKED', 'WebAssembly could not be instantiated in this page (' + detail + '); '
      + 'the page\'s CSP must allow \'wasm-unsafe-eval\', or the driver must bypass it '
      + '(DevTools Page.setBypassCSP, Playwright bypassCSP: true) before the page loads');
  }

  function fail(cause, code, message) {
    if (state === READY || state === FAILED) return;
    failure = makeError(code, message);
    defineProperty(failure, 'cause', { value: cause, writable: true, configurable: true });
    state = FAILED;
    compiled = null;
    settle.reject(failure);
  }

  // The module is compiled: `ready` resolves; the instance is made by the first call.
  function compiledAs(module) {
    if (state !== LOADING) return;
    compiled = module;
    state = COMPILED;
    settle.resolve(undefined);
  }

  function refused(error) {
    if (state === LOADING) blocked(error);
  }

  // Whether the asynchronous compile has been started.
  var compiling = false;

  function compileLater(wasm) {
    compiling = true;
    promiseThen.call(wasmCompile.call(WasmRef, wasm), compiledAs, refused);
  }

  // The inflated stream read to its end, then compiled.
  function compileInflated(inflated) {
    promiseThen.call(responseBytes.call(new ResponseCtor(inflated)), function (wasm) {
      if (state === LOADING) promiseThen.call(wasmCompile.call(WasmRef, wasm), compiledAs, refused);
    }, refused);
  }

  // The browser's inflate streamed into its compile, which works on its background threads on
  // what has come while the rest is inflated. Where the browser has no `compileStreaming` or
  // refuses it for any reason, the browser's inflate to the end, then `WebAssembly.compile`,
  // whose refusal is the one reported; where it has no such inflate, the decoder's, then the
  // same compile.
  function compileAsynchronously() {
    if (state !== LOADING || compiling) return;
    // The deflated bytes, read back once (a response takes a copy of them).
    var bytes = null;
    var packed = function () {
      if (bytes === null) {
        var inflater = decoder();
        var at = memoryBuffer.call(inflater.memory).byteLength;
        var length = readPacked(inflater, at);
        bytes = new Uint8ArrayCtor(memoryBuffer.call(inflater.memory), at, length);
      }
      return bytes;
    };
    var inflated = inflateNatively(packed);
    if (inflated === null) {
      compileLater(unpack());
      return;
    }
    compiling = true;
    var streamed = null;
    if (wasmCompileStreaming !== null) {
      try {
        streamed = wasmCompileStreaming.call(WasmRef, wasmResponse(inflated));
      } catch (_) {
        // A compile that cannot start streaming: the inflate to the end below.
      }
    }
    if (streamed === null) {
      compileInflated(inflated);
      return;
    }
    promiseThen.call(streamed, compiledAs, function () {
      if (state === LOADING) compileInflated(inflateNatively(packed));
    });
  }

  // At injection the engine only installs its API: the decode, the inflate and the start of
  // the asynchronous compile come in a task of their own, after the page's first scripts.
  function load() {
    if (glueError !== null) {
      blocked(glueError);
      return;
    }
    if (!WasmRef || typeof WasmModule !== 'function' || typeof WasmInstance !== 'function' || memoryGrow === null
      || memoryBuffer === null) {
      blocked(makeError('WASM_BLOCKED', 'WebAssembly is not available'));
      return;
    }
    if (typeof wasmCompile !== 'function') {
      compileNow();
      return;
    }
    later(function () {
      try {
        compileAsynchronously();
      } catch (error) {
        refused(error);
      }
    });
  }

  // A call that comes before the asynchronous compile has finished inflates and compiles
  // synchronously, once. A browser may refuse a large synchronous compile on the main thread
  // (a RangeError): the call then throws NOT_READY while the asynchronous compile goes on.
  function compileNow() {
    var wasm;
    var module;
    try {
      wasm = unpack();
      module = new WasmModule(wasm);
    } catch (error) {
      if (!(error instanceof RangeErrorCtor) || typeof wasmCompile !== 'function') blocked(error);
      else if (!compiling && wasm !== undefined) compileLater(wasm);
      return;
    }
    compiledAs(module);
  }

  function instantiate() {
    var module = compiled;
    compiled = null;
    try {
      glue.initSync({ module: module });
    } catch (error) {
      blocked(error);
      return;
    }
    try {
      if (typeof glue.set_probes === 'function') glue.set_probes(PROBES);
      if (typeof glue.init === 'function') glue.init();
    } catch (error) {
      var cause = normalise(error);
      fail(cause, cause.code, 'the engine failed to start (' + cause.message + '); please report it');
      return;
    }
    state = READY;
  }

  function guard() {
    if (state === READY) return;
    if (state === LOADING) compileNow();
    if (state === COMPILED) instantiate();
    if (state === READY) return;
    if (state === FAILED) throw makeError(failure.code, failure.message);
    throw makeError('NOT_READY', 'the prufe engine is still loading; await prufe.ready first');
  }

  function forward(name) {
    var fn = glue === null ? null : glue[name];
    // Explicit arguments rather than spread or apply: both go through objects a page can patch.
    return function (a, b, c, d) {
      guard();
      try {
        return fn(a, b, c, d);
      } catch (thrown) {
        throw normalise(thrown);
      }
    };
  }

  var api = new ObjectCtor();
  defineProperty(api, 'version', { value: VERSION, enumerable: true });
  defineProperty(api, 'ready', { value: ready, enumerable: true });
  for (var m = 0; m < METHODS.length; m++) {
    // Without glue every method exists and throws the failure; with it, what the engine exports.
    if (glue === null || typeof glue[METHODS[m]] === 'function') {
      defineProperty(api, METHODS[m], { value: forward(METHODS[m]), enumerable: true });
    }
  }
  defineProperty(api, BRAND, { value: VERSION });
  freeze(api);

  try {
    load();
  } catch (error) {
    blocked(error);
  }

  function install() {
    var current = getOwnPropertyDescriptor(G, 'prufe');
    if (!current || current.configurable) {
      try {
        defineProperty(G, 'prufe', { value: api, writable: false, enumerable: false, configurable: false });
        return true;
      } catch (_) {
        // A non-extensible global; handled below.
      }
    }
    return false;
  }

  if (!install()) {
    try {
      defineProperty(G, FALLBACK_KEY, { value: api, writable: false, enumerable: false, configurable: false });
    } catch (_) {
      // Nothing more can be done; the engine is still the completion value of this script.
    }
    report('window.prufe is held by the page and cannot be replaced; the engine is at '
      + 'globalThis[Symbol.for("prufe")] (or inject into an isolated world)');
  }
  return api;
})();
