"""One parity test over every scenario the CLI runs, async and sync: each Python result's
decided fields equal the CLI's record for the same page (live with PRUFE_CLI, else the
expectations recorded in cli_records.json by `PRUFE_CLI=… python3 tests/python/support.py`).
One browser per API, one fixture server and one set of CLI records per session."""

from __future__ import annotations

import asyncio
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.async_api import async_playwright
from playwright.sync_api import sync_playwright

from support import CHROMIUM, CHROMIUM_FLAGS, SCENARIOS, Scenario, cli_records, decided, fixture_server

@pytest.fixture(scope="session")
def base() -> Any:
    with fixture_server() as url:
        yield url


class _Later:
    """The CLI's records, computed in the background while the Python side runs."""

    def __init__(self, base: str) -> None:
        self._pool = ThreadPoolExecutor(1)
        self._future = self._pool.submit(cli_records, base)

    def __getitem__(self, name: str) -> list[dict[str, Any]]:
        return self._future.result()[name]


@pytest.fixture(scope="session")
def cli(base: str) -> Any:
    later = _Later(base)
    yield later
    later._pool.shutdown(wait=True)


def compare(scenario: Scenario, outcomes: list[Any], cli: Any) -> None:
    expected = cli[scenario.name]
    assert len(outcomes) == len(expected), (scenario.name, outcomes)
    for i, (outcome, want) in enumerate(zip(outcomes, expected)):
        got = decided(outcome)
        assert got == want, f"{scenario.name} step {i + 1}"


async def play_async(page: Any, scenario: Scenario, base: str) -> list[Any]:
    from prufe import PrufeError
    from prufe.async_api import Prufe

    await page.goto(scenario.url(base))
    p = Prufe(page)
    outcomes: list[Any] = []
    for call in scenario.calls:
        if call.method == "watch":
            async with p.watch(call.kwargs["intent"]) as seen:
                assert call.inner is not None
                await call.inner(page).click()
            outcomes.append(seen.result)
            continue
        try:
            outcomes.append(await getattr(p, call.method)(*call.make(page), **call.kwargs))
        except PrufeError as error:
            outcomes.append(error)
            break
    return outcomes


def play_sync(page: Any, scenario: Scenario, base: str) -> list[Any]:
    from prufe import PrufeError
    from prufe.sync_api import Prufe

    page.goto(scenario.url(base))
    p = Prufe(page)
    outcomes: list[Any] = []
    for call in scenario.calls:
        if call.method == "watch":
            with p.watch(call.kwargs["intent"]) as seen:
                assert call.inner is not None
                call.inner(page).click()
            outcomes.append(seen.result)
            continue
        try:
            outcomes.append(getattr(p, call.method)(*call.make(page), **call.kwargs))
        except PrufeError as error:
            outcomes.append(error)
            break
    return outcomes


def test_async_api_matches_the_cli_on_every_scenario(base: str, cli: Any) -> None:
    async def main() -> dict[str, list[Any]]:
        results: dict[str, list[Any]] = {}
        async with async_playwright() as pw:
            context = await pw.chromium.launch_persistent_context(tempfile.mkdtemp(prefix="prufe-profile-"), executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
            try:
                for scenario in SCENARIOS:
                    page = await context.new_page()
                    results[scenario.name] = await play_async(page, scenario, base)
                    await page.close()
            finally:
                await context.close()
        return results

    results = asyncio.run(main())
    for scenario in SCENARIOS:
        compare(scenario, results[scenario.name], cli)


def test_sync_api_matches_the_cli_on_every_scenario(base: str, cli: Any) -> None:
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(tempfile.mkdtemp(prefix="prufe-profile-"), executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            for scenario in SCENARIOS:
                page = context.new_page()
                outcomes = play_sync(page, scenario, base)
                page.close()
                compare(scenario, outcomes, cli)
        finally:
            context.close()
