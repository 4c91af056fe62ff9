// The generated page `make bench` measures on (scripts/bench.mjs), the plain JS walk it
// measures the engine against, and the changes made before each timed call; shared with
// scripts/bench-ab.mjs, which times two builds of the engine side by side on the same page.

/** Each block holds ten observable elements. */
const PER_BLOCK = 10;
/** Walk options that never cut the walk short, so every method sees the whole page. */
export const FULL = { maxElements: 100_000, budgetMs: 600_000 };

/**
 * A page of `n / 10` blocks, each: a named region with a heading, a named list of four
 * items, two buttons, a link and a labelled input. Blocks are spread over a banner,
 * navigation, main, complementary and contentinfo landmarks.
 */
export function benchPage(n) {
  const blocks = Math.max(1, Math.round(n / PER_BLOCK));
  const landmarks = [
    ['header', ''], ['nav', ' aria-label="Primary"'], ['main', ''], ['aside', ' aria-label="Related"'], ['footer', ''],
  ];
  // Most blocks go into main, a few into each of the other landmarks.
  const share = (i) => (i % 10 < 6 ? 2 : [0, 1, 3, 4][i % 4]);
  const parts = landmarks.map(() => []);
  for (let i = 0; i < blocks; i++) {
    parts[share(i)].push(`<section aria-label="Block ${i}">
<h2>Block ${i}</h2>
<ul id="list-${i}"><li>Item ${i}.1</li><li>Item ${i}.2</li><li>Item ${i}.3</li><li>Item ${i}.4</li></ul>
<button type="button">Add ${i}</button> <button type="button" aria-pressed="false">Star ${i}</button>
<a href="#item-${i}">Details ${i}</a> <label>Quantity ${i} <input type="number" value="${i % 7}"></label>
</section>`);
  }
  const body = landmarks.map(([tag, attrs], k) => `<${tag}${attrs}>\n${parts[k].join('\n')}\n</${tag}>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench ${n}</title><style>body.bench-odd .bench-hidden { display: none } [data-bench-hidden] { display: none } section { margin: 4px } html.bench-root section { padding: 1px }</style></head><body>\n${body}\n</body></html>`;
}

/** The plain JS baseline: one TreeWalker over every element, FNV-1a over tag and attributes. */
export function plainWalk() {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  let h = 0x811c9dc5;
  const mix = (s) => {
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  };
  for (let node = walker.currentNode; node; node = walker.nextNode()) {
    const element = /** @type {Element} */ (node);
    mix(element.tagName);
    for (const attribute of element.attributes) {
      mix(attribute.name);
      mix(attribute.value);
    }
  }
  return (h >>> 0).toString(16);
}

/** The change made in the page before a timed call (run in the page through its source):
 * a data attribute no style reads always, so no method can answer from a cache keyed on
 * "nothing changed"; with `style`, a class of the body a rule reads; with `root`, a class of
 * the root element a rule reads (every element's style computed again); with `tree`, a list
 * item added to one list and the oldest added one removed; with `aria`, one button's
 * `aria-pressed` toggled. */
export function change(kind, i) {
  document.body.dataset.benchTick = String(i);
  if (kind === 'style') document.body.classList.toggle('bench-odd');
  if (kind === 'root') document.documentElement.classList.toggle('bench-root');
  if (kind === 'tree') {
    const list = document.getElementById('list-0');
    const item = document.createElement('li');
    item.textContent = `Added ${i}`;
    list.append(item);
    if (list.children.length > 6) list.children[4].remove();
  }
  if (kind === 'aria') {
    const star = document.querySelector('button[aria-pressed]');
    star.setAttribute('aria-pressed', i % 2 ? 'true' : 'false');
  }
}
