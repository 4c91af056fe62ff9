"""The pytest plugin (entry point ``pytest11``): a ``prufe`` fixture over pytest-playwright's
``page`` fixture (sync API), so a test writes ``prufe.click(page.get_by_role(...))``."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def prufe(request: pytest.FixtureRequest) -> Any:
    """A :class:`prufe.sync_api.Prufe` on the test's ``page`` (pytest-playwright's, or any
    fixture named ``page``). Options come from ``@pytest.mark.prufe(quiet_ms=…, …)``."""
    from .sync_api import Prufe

    page = request.getfixturevalue("page")
    marker = request.node.get_closest_marker("prufe")
    options: dict[str, Any] = dict(marker.kwargs) if marker else {}
    return Prufe(page, **options)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "prufe(**options): options of the prufe fixture's Prufe (quiet_ms, timeout_ms, ambiguous, …)")
