"""A bare Playwright click against a verified prufe click on fixtures/shop.html (Python,
async API, the machine in the page's isolated world): medians over N clicks each, and the
calls into the page a verified click takes. `python3 scripts/python_click_bench.py [N]`."""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "python"))

from playwright.async_api import async_playwright  # noqa: E402

from prufe.async_api import Prufe, Target  # noqa: E402
from support import CHROMIUM, CHROMIUM_FLAGS, fixture_server  # noqa: E402


async def main(n: int) -> None:
    with fixture_server() as base:
        async with async_playwright() as pw:
            context = await pw.chromium.launch_persistent_context(tempfile.mkdtemp(prefix="prufe-profile-"), executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
            page = await context.new_page()
            p = Prufe(page)
            bare, fresh, again, trips = [], [], [], []
            for i in range(n + 1):
                await page.goto(base + "/shop.html")
                started = time.perf_counter()
                await page.get_by_role("button", name="Add Shirt M").click()
                b = time.perf_counter() - started
                await page.goto(base + "/shop.html")
                started = time.perf_counter()
                first = await p.click(page.get_by_role("button", name="Add Shirt M"), intent="add Shirt M to the cart")
                f = time.perf_counter() - started
                started = time.perf_counter()
                second = await p.click(Target("Add Socks S", role="button"))
                a = time.perf_counter() - started
                assert first.verdict == second.verdict == "MATCH" and first.attempts == second.attempts == 1, (first.reason, second.reason)
                if i > 0:  # the first run warms the browser and the connection
                    bare.append(b)
                    fresh.append(f)
                    again.append(a)
                    trips.append(p.round_trips)
            await context.close()
    ms = lambda xs: f"{statistics.median(xs) * 1000:.0f} ms"  # noqa: E731
    print(f"shop.html, {n} clicks each, quiet window 250 ms")
    print(f"bare Playwright click (locator.click): median {ms(bare)}")
    print(f"verified click, first on a new document (Locator, the machine installed): median {ms(fresh)}")
    print(f"verified click, next on the same document (prufe target): median {ms(again)}, {statistics.median(trips):.0f} calls into the page")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 15))
