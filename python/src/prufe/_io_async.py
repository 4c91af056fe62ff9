"""What the async API does its own way: waiting, and asking the arbiter.

``async_api`` calls these; ``sync_api``, generated from it by ``scripts/sync_api.py``, calls
their namesakes in ``_io_sync``. Everything else the two APIs share, line for line.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Coroutine

from playwright.async_api import Page


async def sleep(page: Page, seconds: float) -> None:
    """Waits ``seconds``; the event loop delivers Playwright's events (new documents) meanwhile."""
    await asyncio.sleep(seconds)


async def ask(fn: Callable[[Any], Coroutine[Any, Any, Any]], arg: Any) -> Any:
    """The arbiter's answer, awaited on the caller's loop."""
    return await fn(arg)
