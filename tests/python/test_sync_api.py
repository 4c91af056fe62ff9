"""The sync API is generated from the async one (scripts/sync_api.py): the committed file is what
the generator writes, the generator's rules do what it says, and the two APIs offer the same
methods with the same signatures."""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sync_api_generator", ROOT / "scripts" / "sync_api.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_sync_api_is_what_the_generator_writes() -> None:
    generator = _generator()
    wanted = generator.generate(generator.SOURCE.read_text(encoding="utf-8"))
    assert generator.TARGET.read_text(encoding="utf-8") == wanted, "run `python3 scripts/sync_api.py`"
    assert generator.main(["--check"]) == 0


ASYNC_SAMPLE = '''"""Drives Playwright's async API: ``async with p.watch()``, then ``await p.click(x)``."""

from playwright.async_api import Page
from ._io_async import sleep

SCRIPT = "async (a) => { await fetch(a); }"


class Watch:
    """``async with`` it."""

    async def __aenter__(self) -> None:
        await sleep(self.page, 1)  # the async loop runs meanwhile

    async def __aexit__(self, *rest: object) -> None:
        async with self.lock:
            async for item in self.items:
                await item
'''

SYNC_SAMPLE = '''"""Drives Playwright's sync API: ``with p.watch()``, then ``p.click(x)``."""

from playwright.sync_api import Page
from ._io_sync import sleep

SCRIPT = "async (a) => { await fetch(a); }"


class Watch:
    """``with`` it."""

    def __enter__(self) -> None:
        sleep(self.page, 1)  # the async loop runs meanwhile

    def __exit__(self, *rest: object) -> None:
        with self.lock:
            for item in self.items:
                item
'''


def test_the_generator_drops_async_renames_and_rewords_only_docstrings() -> None:
    generator = _generator()
    assert generator.generate(ASYNC_SAMPLE) == generator.HEADER + SYNC_SAMPLE


def test_both_apis_offer_the_same_methods_with_the_same_signatures() -> None:
    from prufe import async_api, sync_api

    assert async_api.__all__ == sync_api.__all__
    for name in ("Prufe", "Watch"):
        a, s = getattr(async_api, name), getattr(sync_api, name)
        public = [m for m in vars(a) if not m.startswith("_") or m == "__init__"]
        assert public == [m for m in vars(s) if not m.startswith("_") or m == "__init__"]
        for method in public:
            one, other = getattr(a, method), getattr(s, method)
            if isinstance(one, property):
                assert one.__doc__ == other.__doc__
                continue
            assert inspect.signature(one) == inspect.signature(other), f"{name}.{method}"
            assert not inspect.iscoroutinefunction(other), f"sync {name}.{method} is a coroutine function"
    assert inspect.iscoroutinefunction(async_api.Prufe.click)
    assert [m for m in vars(async_api.Watch) if m.startswith("__a")] == ["__aenter__", "__aexit__"]
    assert [m for m in vars(sync_api.Watch) if m in ("__enter__", "__exit__")] == ["__enter__", "__exit__"]
