#!/usr/bin/env python3
"""`make bench`: what one verified click costs an agent through `prufe mcp`, in bytes and time.

On fixtures/shop.html and on a generated page of about 3,000 observable elements (the
click bench's page: 300 blocks of a heading, a list of four items, two buttons, a link and
an input), through the official Python MCP SDK over stdio:

- the bytes of a full `browser_snapshot` answer against the bytes of one verified
  `browser_click` answer (the whole JSON-RPC result, text and structured content; target:
  the click's answer at least 50x smaller on the 3,000-element page);
- the verified click's round trip against a bare click: Playwright's locator click on the
  same page in the same Chromium build, which checks nothing after it (what Playwright MCP's
  browser_click runs before it snapshots the page for the model).

    python3 scripts/mcp_bench.py [--runs 7]      (needs target/release/prufe and the bundle)
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import os
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
BUNDLE = Path(os.environ.get("PRUFE_BUNDLE", ROOT / "js" / "dist" / "prufe.js")).resolve()
PRUFE = Path(os.environ.get("PRUFE_BIN", ROOT / "target" / "release" / "prufe"))
CHROMIUM = os.environ.get("PRUFE_CHROMIUM", "/usr/bin/chromium")


def generated_page(n: int) -> str:
    blocks = "".join(
        f'<section aria-label="Block {i}"><h2>Block {i}</h2>'
        f"<ul><li>Item {i}.1</li><li>Item {i}.2</li><li>Item {i}.3</li><li>Item {i}.4</li></ul>"
        f'<button type="button" data-add="{i}">Add {i}</button> '
        f'<button type="button" aria-pressed="false">Star {i}</button> '
        f'<a href="#item-{i}">Details {i}</a> '
        f'<label>Quantity {i} <input type="number" value="{i % 7}"></label></section>\n'
        for i in range(n // 10)
    )
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench {n}</title></head>'
        f'<body><aside aria-label="Cart"><h2>Cart</h2><ul id="cart"></ul></aside><main>\n{blocks}</main>'
        "<script>document.addEventListener('click', (e) => { const b = e.target.closest('[data-add]'); "
        "if (!b) return; const li = document.createElement('li'); li.textContent = 'Item ' + b.dataset.add; "
        "document.getElementById('cart').append(li); });</script></body></html>"
    )


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(directory: Path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def wire(result) -> int:
    return len(json.dumps(result.model_dump(mode="json", by_alias=True, exclude_none=True), ensure_ascii=False).encode())


def text(result) -> str:
    return "\n".join(b.text for b in result.content if getattr(b, "type", "") == "text")


async def verified(url: str, button: str, intent: str, runs: int) -> dict:
    params = StdioServerParameters(command=str(PRUFE), args=["mcp"], env={"PRUFE_BUNDLE": str(BUNDLE)}, cwd=str(ROOT))
    snapshot_bytes, click_bytes, click_text, times = [], [], [], []
    with open(os.devnull, "w") as quiet:
        async with Client(stdio_client(params, errlog=quiet)) as client:
            for i in range(runs + 1):
                await client.call_tool("browser_navigate", {"url": url})
                snap = await client.call_tool("browser_snapshot", {})
                ref = re.search(rf'- button "{re.escape(button)}"[^\n]*\[ref=(e\d+)\]', text(snap)).group(1)
                started = time.perf_counter()
                click = await client.call_tool("browser_click", {"element": button, "target": ref, "intent": intent})
                ms = (time.perf_counter() - started) * 1000
                assert click.structured_content["verdict"] == "MATCH", text(click)
                if i > 0:  # the first run warms the page, the engine and the pipes
                    snapshot_bytes.append(wire(snap))
                    click_bytes.append(wire(click))
                    click_text.append(len(text(click).encode()))
                    times.append(ms)
    return {
        "snapshot": statistics.median(snapshot_bytes),
        "click": statistics.median(click_bytes),
        "click_text": statistics.median(click_text),
        "ms": statistics.median(times),
    }


def bare(url: str, button: str, runs: int) -> float:
    times = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        for i in range(runs + 1):
            page.goto(url)
            locator = page.get_by_role("button", name=button, exact=True)
            started = time.perf_counter()
            locator.click()
            ms = (time.perf_counter() - started) * 1000
            if i > 0:
                times.append(ms)
        browser.close()
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    assert PRUFE.is_file(), f"{PRUFE} is missing: cargo build --release -p prufe-harness --bin prufe"
    assert BUNDLE.is_file(), f"{BUNDLE} is missing: make bundle"
    with tempfile.TemporaryDirectory(prefix="prufe-mcp-bench-") as tmp:
        Path(tmp, "bench-3000.html").write_text(generated_page(3000))
        with serve(ROOT / "fixtures") as fixtures, serve(Path(tmp)) as generated:
            cases = [
                ("fixtures/shop.html", f"{fixtures}/shop.html", "Add Shirt M", "the cart gains a shirt in size M"),
                ("generated, 3,000 elements", f"{generated}/bench-3000.html", "Add 150", "the cart gains item 150"),
            ]
            print(f"mcp bench: {runs} runs per case, medians; answers in bytes of the JSON-RPC result\n")
            print("| page | browser_snapshot answer | verified browser_click answer (its text) | snapshot / click | verified click ms | bare Playwright click ms |")
            print("|---|---:|---:|---:|---:|---:|")
            ratios = {}
            for label, url, button, intent in cases:
                v = anyio.run(verified, url, button, intent, runs)
                b = bare(url, button, runs)
                ratio = v["snapshot"] / v["click"]
                ratios[label] = ratio
                print(
                    f"| {label} | {v['snapshot']:,.0f} | {v['click']:,.0f} ({v['click_text']:,.0f}) | "
                    f"{ratio:.0f}x | {v['ms']:.0f} | {b:.0f} |"
                )
            at = ratios["generated, 3,000 elements"]
            print(f"\ntarget at 3,000: the click's answer at least 50x smaller than the snapshot's: {at:.0f}x -> {'met' if at >= 50 else 'NOT met'}")


if __name__ == "__main__":
    main()
