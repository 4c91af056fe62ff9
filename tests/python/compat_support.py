"""prufe.compat's tests run each test body twice: on Playwright's sync API and on its async
API. The async Playwright lives on an event loop in a thread of its own; ``api.w(x)`` awaits
``x`` there (and returns ``x`` itself on the sync API), so one body reads the same for both."""

from __future__ import annotations

import asyncio
import inspect
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from playwright.async_api import async_playwright
from playwright.sync_api import sync_playwright

from support import CHROMIUM, CHROMIUM_FLAGS, PAGES, fixture_server

from prufe.compat import ActionPrufe, Observation

COMPAT_PAGES = PAGES / "compat"


class AsyncWorld:
    """An event loop in a thread, and an async Chromium context on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.playwright: Any = self.run(async_playwright().start())
        self.context: Any = self.run(self.playwright.chromium.launch_persistent_context(
            tempfile.mkdtemp(prefix="prufe-compat-"), executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True))

    def run(self, awaitable: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(_awaited(awaitable), self.loop).result(timeout=180)

    def close(self) -> None:
        try:
            self.run(self.context.close())
            self.run(self.playwright.stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


class Api:
    """One test's page on one Playwright API."""

    def __init__(self, flavour: str, page: Any, base: str, world: "AsyncWorld | None") -> None:
        self.flavour = flavour
        self.page = page
        self.base = base
        self._world = world

    @property
    def is_async(self) -> bool:
        return self._world is not None

    def w(self, value: Any) -> Any:
        """``value`` awaited on the async API; itself on the sync one."""
        if self._world is not None and inspect.isawaitable(value):
            return self._world.run(value)
        return value

    def goto(self, name: str) -> None:
        """A page of tests/python/pages/compat over http."""
        self.w(self.page.goto(f"{self.base}/es/compat/{name}"))

    def goto_file(self, name: str) -> None:
        """The same page opened from disk (``file://``)."""
        self.w(self.page.goto((COMPAT_PAGES / name).as_uri()))

    def ap(self, **options: Any) -> Any:
        return ActionPrufe(self.page, **options)

    def watch(self, ap: Any, intent: "str | None", act: Callable[[], Any]) -> Observation:
        """``with ap.watch(intent) as seen: act()`` (``async with`` … ``await act()``)."""
        if self._world is None:
            with ap.watch(intent) as seen:
                act()
            return seen  # type: ignore[no-any-return]

        async def watched() -> Observation:
            async with ap.watch(intent) as seen:
                await act()
            return seen  # type: ignore[no-any-return]

        return self._world.run(watched())  # type: ignore[no-any-return]


def fixtures() -> tuple[Callable[..., Any], ...]:
    """The module's fixtures: ``base``, ``sync_context``, ``async_world`` and ``api`` (each test
    once per Playwright API)."""

    @pytest.fixture(scope="module")
    def base() -> Iterator[str]:
        with fixture_server() as url:
            yield url

    @pytest.fixture(scope="module")
    def sync_context() -> Iterator[Any]:
        with sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(tempfile.mkdtemp(prefix="prufe-compat-"), executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
            try:
                yield ctx
            finally:
                ctx.close()

    @pytest.fixture(scope="module")
    def async_world() -> Iterator[AsyncWorld]:
        world = AsyncWorld()
        try:
            yield world
        finally:
            world.close()

    @pytest.fixture(params=["sync", "async"])
    def api(request: pytest.FixtureRequest, base: str) -> Iterator[Api]:
        if request.param == "sync":
            context = request.getfixturevalue("sync_context")
            page = context.new_page()
            try:
                yield Api("sync", page, base, None)
            finally:
                page.close()
            return
        world: AsyncWorld = request.getfixturevalue("async_world")
        page = world.run(world.context.new_page())
        try:
            yield Api("async", page, base, world)
        finally:
            world.run(page.close())

    return base, sync_context, async_world, api


def tmp_file(directory: Path, name: str, data: bytes = b"%PDF-1.4\n") -> Path:
    path = directory / name
    path.write_bytes(data)
    return path
