// @ts-check
// The page's requests, as the browser library reports them, for the machine's `Read::Network`.
// This only records: which requests are at work for an input is the machine's rule (core
// `run::requests`), the same for the CLI, Node and Python.
//
// A request is heard of when the library reports it (`request`, in any frame) and ends with
// `requestfinished` or `requestfailed`. Marking an input forgets every request heard of before
// it: none of them can be at work for this input (the machine counts only those heard of since).

/** At most this many requests are kept for one input, the newest. */
const KEPT = 512;

/** The requests of one page since its last input. */
export class Requests {
  /** @type {number | null} when the last input was marked */
  #mark = null;
  /** @type {Map<object, { heard: number, ended: number | null }>} */
  #heard = new Map();
  #now;

  /** @param {() => number} [now] the clock, in ms */
  constructor(now = () => performance.now()) {
    this.#now = now;
  }

  /** An input is about to be sent: requests heard of from now on are its own. */
  mark() {
    this.#mark = this.#now();
    this.#heard.clear();
  }

  /** @param {object} request the library's request */
  started(request) {
    if (this.#heard.has(request)) return;
    if (this.#heard.size >= KEPT) {
      const oldest = this.#heard.keys().next();
      if (!oldest.done) this.#heard.delete(oldest.value);
    }
    this.#heard.set(request, { heard: this.#now(), ended: null });
  }

  /** @param {object} request the library's request */
  ended(request) {
    const r = this.#heard.get(request);
    if (r && r.ended === null) r.ended = this.#now();
  }

  /**
   * The answer to `Read::Network`: since the input, and each request heard of since, in ms
   * before now.
   * @returns {PrufeRun.Answer}
   */
  heard() {
    const now = this.#now();
    const ago = (/** @type {number} */ t) => Math.max(0, now - t);
    return {
      answer: 'network',
      inputMsAgo: this.#mark === null ? null : ago(this.#mark),
      requests: [...this.#heard.values()].map((r) => (r.ended === null ? { heardMsAgo: ago(r.heard) } : { heardMsAgo: ago(r.heard), endedMsAgo: ago(r.ended) })),
    };
  }

  /**
   * A ledger fed by a Playwright or Puppeteer page's request events (both report every
   * frame's requests on the page, out-of-process frames included).
   * @param {{ on(event: 'request' | 'requestfinished' | 'requestfailed', listener: (request: any) => void): unknown }} page
   */
  static of(page) {
    const requests = new Requests();
    page.on('request', (request) => requests.started(request));
    page.on('requestfinished', (request) => requests.ended(request));
    page.on('requestfailed', (request) => requests.ended(request));
    return requests;
  }
}
