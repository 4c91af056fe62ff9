"""What the sync API does its own way: waiting, and asking the arbiter (see ``_io_async``)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Callable, Coroutine

from playwright.sync_api import Page


def sleep(page: Page, seconds: float) -> None:
    """Waits ``seconds`` through Playwright, so that its events (new documents) arrive meanwhile:
    a plain sleep would hold up the loop Playwright's sync API runs on."""
    page.wait_for_timeout(seconds * 1000)


def ask(fn: Callable[[Any], Coroutine[Any, Any, Any]], arg: Any) -> Any:
    """The arbiter's answer, run to its end on an event loop of its own, in a thread of its own
    (the caller's thread holds Playwright's loop)."""
    out: dict[str, Any] = {}

    def work() -> None:
        try:
            out["value"] = asyncio.run(fn(arg))
        except BaseException as error:  # handed back to the caller's thread
            out["error"] = error

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    return out["value"]
