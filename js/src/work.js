/*! prufe work watch | MIT OR Apache-2.0 */
// The page's own work that an input set off and that has not shown yet, as far as its timers
// tell. The engine lives in a world of its own, whose timers are not the page's, so a driver
// runs this small script in each document's main world (next to the engine's world):
// harness/src/inject.rs, node/src/world.js, python/src/prufe/_driver.py.
//
// A timeout of at most SHORT_MS that the page sets within AFTER_INPUT_MS of a user's input (a
// trusted pointer, key or input event) is that input's work still to come: React Aria
// announces a picked date 100 ms after the pick, a search box filters after its debounce, a
// menu closes on the next tick. The engine's cache (src/dom/cache.rs) asks the document
// `prufe:ask`, and hears `prufe:work` at once while such a timeout is still to run; it hears
// `prufe:idle` when the last has run or been cleared. It counts no quiet while one is to run,
// and quiet from the end. Asking, rather than being told when work starts, holds across the
// engine's caches, which come and go with the page's changes. A timeout set again
// and again (a page's own loop) is only followed for AFTER_INPUT_MS after an input: past
// that, the page is quiet or not by what it shows.
//
// Nothing else of the page's changes: a followed timeout runs its function with the same
// `this` and arguments, its id is the browser's, and `clearTimeout` clears it as before. A
// timeout given a string, or a delay that is not a number, is passed on untouched. A second
// run in the same window does nothing.
(function () {
  'use strict';
  var G = typeof window === 'object' && window !== null ? window : null;
  if (G === null || typeof G.setTimeout !== 'function' || typeof document !== 'object') return;
  var MARK = typeof Symbol === 'function' ? Symbol.for('prufe.work') : '__prufeWork';
  var nativeSet = G.setTimeout;
  if (nativeSet[MARK] === true) return;
  var nativeClear = G.clearTimeout;
  var apply = Reflect.apply;
  var slice = Array.prototype.slice;
  var defineProperty = Object.defineProperty;
  var perf = G.performance;
  var perfNow = perf.now;
  var addListener = EventTarget.prototype.addEventListener;
  var dispatch = EventTarget.prototype.dispatchEvent;
  var EventCtor = Event;
  var trusted = Object.getOwnPropertyDescriptor(Event.prototype, 'isTrusted');
  var isTrusted = trusted && typeof trusted.get === 'function' ? trusted.get : null;
  var doc = document;

  var SHORT_MS = 250;
  var AFTER_INPUT_MS = 1000;
  var INPUTS = ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'keydown', 'keyup', 'input', 'change',
    'drop', 'dragend', 'touchend'];

  var lastInput = -Infinity;
  // The ids of the followed timeouts still to run, and how many.
  var pending = Object.create(null);
  var count = 0;

  function now() {
    return apply(perfNow, perf, []);
  }

  function tell(kind) {
    try {
      apply(dispatch, doc, [new EventCtor(kind)]);
    } catch (_) {
      // A document that cannot be told keeps the engine on what the page shows.
    }
  }

  function ended(id) {
    if (pending[id] !== true) return;
    delete pending[id];
    count -= 1;
    if (count === 0) tell('prufe:idle');
  }

  function onInput(event) {
    // Inside the window's own capture listener: a page's events, sent by its code, are not
    // the user's.
    if (isTrusted === null || apply(isTrusted, event, [])) lastInput = now();
  }
  for (var i = 0; i < INPUTS.length; i++) {
    apply(addListener, G, [INPUTS[i], onInput, { capture: true, passive: true }]);
  }
  apply(addListener, doc, ['prufe:ask', function () {
    if (count > 0) tell('prufe:work');
  }]);

  function setTimeout(handler, timeout) {
    if (typeof handler !== 'function' || !(timeout === undefined || (typeof timeout === 'number' && timeout <= SHORT_MS))
      || now() - lastInput > AFTER_INPUT_MS) {
      return apply(nativeSet, this, arguments);
    }
    var call = apply(slice, arguments, [0]);
    var rest = apply(slice, arguments, [2]);
    var id;
    call[0] = function () {
      try {
        return apply(handler, this, rest);
      } finally {
        ended(id);
      }
    };
    id = apply(nativeSet, this, call);
    if (typeof id === 'number' && pending[id] !== true) {
      pending[id] = true;
      count += 1;
    }
    return id;
  }

  function clearTimeout(id) {
    if (count > 0 && typeof id === 'number') ended(id);
    return apply(nativeClear, this, arguments);
  }

  defineProperty(setTimeout, MARK, { value: true });
  G.setTimeout = setTimeout;
  G.clearTimeout = clearTimeout;
})();
