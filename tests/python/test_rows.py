"""Rows of unnamed controls with the Python package, sync API, on the React to-do list of
fixtures/apps: a locator on a row's unnamed checkbox is a target (known by its row), the
honest toggle is MATCH, and the toggle forwarded to the next row is caught at its step."""

from __future__ import annotations

import tempfile
from typing import Iterator

import pytest
from playwright.sync_api import BrowserContext, sync_playwright

from support import CHROMIUM, CHROMIUM_FLAGS, fixture_server

from prufe import PrufeError
from prufe.sync_api import Container, Prufe, Target


@pytest.fixture(scope="module")
def browser() -> Iterator[tuple[BrowserContext, str]]:
    with fixture_server() as base, sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(tempfile.mkdtemp(prefix="prufe-profile-"), executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            yield ctx, base
        finally:
            ctx.close()


def test_a_locator_on_an_unnamed_checkbox_is_known_by_its_row(browser: tuple[BrowserContext, str]) -> None:
    ctx, base = browser
    page = ctx.new_page()
    try:
        page.goto(base + "/apps/todo-react.html")
        toggle = page.locator("li", has_text="Walk dog").locator("input.toggle")
        toggle.wait_for()
        result = Prufe(page, max_attempts=1).click(toggle, intent="Walk dog is marked as done")
        assert result.verdict == "MATCH", result.reason
        assert "checkbox in listitem[Walk dog]" in result.reason
        assert toggle.is_checked()
    finally:
        page.close()


def test_the_next_rows_checkbox_is_the_next_rows_effect(browser: tuple[BrowserContext, str]) -> None:
    ctx, base = browser
    page = ctx.new_page()
    try:
        page.goto(base + "/apps/todo-react.html?fault=forward")
        page.locator("li", has_text="Walk dog").wait_for()
        target = Target("", role="checkbox", within=Container("listitem", "Walk dog"))
        with pytest.raises(PrufeError) as refused:
            Prufe(page, max_attempts=1).click(target)
        result = refused.value.result
        assert result is not None and result.verdict == "MISMATCH", refused.value
        assert "Pay rent" in result.reason
    finally:
        page.close()
