"""Fixtures the package tests share (a module may define its own of the same name instead):
the fixture server, one sync Chromium context per module, and a fresh page per test."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from support import chromium_context, fixture_server


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with fixture_server() as url:
        yield url


@pytest.fixture(scope="module")
def context() -> Iterator[Any]:
    with chromium_context() as ctx:
        yield ctx


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    p = context.new_page()
    try:
        yield p
    finally:
        p.close()
