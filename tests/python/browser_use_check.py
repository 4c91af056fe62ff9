"""Run by test_browser_use.py under an interpreter that has browser-use: a verified click
through browser-use's own registry on the recycling list reports the error and leaves the
cart as it was. Prints one JSON line."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import tempfile

from playwright.async_api import async_playwright

from support import CHROMIUM, CHROMIUM_FLAGS


async def main(url: str) -> None:
    from browser_use import BrowserSession, Tools

    from prufe.async_api import Prufe
    from prufe.browser_use import verify_actions

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    async with async_playwright() as pw:
        context = await pw.chromium.launch_persistent_context(
            tempfile.mkdtemp(prefix="prufe-profile-"), executable_path=CHROMIUM, headless=True,
            args=[*CHROMIUM_FLAGS, f"--remote-debugging-port={port}", "--remote-debugging-address=127.0.0.1"])
        page = context.pages[0] if context.pages else await context.new_page()
        await page.goto(url)
        session = BrowserSession(cdp_url=f"http://127.0.0.1:{port}")
        await session.start()
        try:
            tools = verify_actions(Tools(), Prufe(page))
            await session.get_browser_state_summary()
            index = next(i for i, node in (await session.get_selector_map()).items()
                         if node.node_name.lower() == "button" and node.get_all_children_text().strip() == "Add Shirt M")
            result = await tools.registry.execute_action("click", {"index": index}, browser_session=session)
            cart = await page.locator("#cart-items li").count()
            print(json.dumps({"error": result.error, "content": result.extracted_content, "cart": cart}))
        finally:
            await session.kill()
            await context.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
