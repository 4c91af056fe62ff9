"""`_driver.Settling`, the settle loop the Python driver polls across the roots of a page with
frames of other origins, against the cases of `core::run::quiet`'s own tests
(src/core/run/quiet.rs): the same answers at the same times on a fake clock."""

from __future__ import annotations

from typing import Any, Callable, Optional

import pytest

from prufe._driver import Settling


def _need(since: Optional[str], quiet: int, timeout: int, stop: bool) -> dict[str, Any]:
    return {"need": "settle", "since": since, "pollMs": 50, "quietMs": quiet, "timeoutMs": timeout, "stopOnChange": stop}


def _run(need: dict[str, Any], page: Callable[[float], Optional[str]], quiet: Callable[[float], float]) -> tuple[tuple[str, bool, bool, int], int]:
    settling, tick = Settling.start(need, 0.0, page(0.0), quiet(0.0))
    now, reads = 0.0, 1
    while not isinstance(tick, dict):
        now += tick
        reads += 1
        assert reads < 1000, "the settle never ends"
        tick = settling.read(now, page(now), quiet(now))
    assert tick["answer"] == "settled"
    return (tick["fingerprint"], tick["stable"], tick["changed"], tick["waitedMs"]), reads


def _navigating(t: float) -> Optional[str]:
    return "old" if t < 100 else None if t < 300 else "new"


CASES = [
    # name, need, page, quietFor, answer
    ("quiet for the window: at once", _need(None, 250, 5000, False), lambda t: "a", lambda t: 400.0, ("a", True, False, 0)),
    ("after the action the page's word waits", _need("a", 250, 1000, False), lambda t: "a", lambda t: 400.0, ("a", True, False, 1000)),
    ("no word: the window of polls", _need(None, 250, 5000, False), lambda t: "a", lambda t: 0.0, ("a", True, False, 250)),
    ("a change seen at 150 ms", _need(None, 250, 5000, False), lambda t: "a" if t < 120 else "b", lambda t: 0.0, ("b", True, True, 400)),
    ("a late effect, then quiet", _need("before", 250, 5000, False), lambda t: "before" if t < 700 else "after", lambda t: 0.0, ("after", True, True, 950)),
    ("word on the read that saw a change", _need(None, 250, 5000, False), lambda t: "a" if t < 100 else "b",
     lambda t: 0.0 if t < 100 else 10_000.0, ("b", True, True, 150)),
    ("busy at the deadline", _need(None, 250, 1000, False), lambda t: str(int(t // 100)), lambda t: 0.0, (str(10), False, True, 1000)),
    ("stop on change", _need(None, 250, 5000, True), lambda t: "a" if t < 120 else "b", lambda t: 0.0, ("b", False, True, 150)),
    ("already moved from since", _need("a", 250, 5000, True), lambda t: "b", lambda t: 0.0, ("b", False, True, 0)),
    ("unreachable throughout", _need(None, 250, 600, False), lambda t: None, lambda t: 1000.0, ("", False, False, 600)),
    ("unreachable after the action", _need("old", 250, 600, False), lambda t: None, lambda t: 0.0, ("", False, True, 600)),
    ("a navigation", _need("old", 250, 5000, False), _navigating, lambda t: 0.0, ("new", True, True, 550)),
    ("a document that went away", _need("same", 250, 1000, False), lambda t: None if 100 <= t < 200 else "same", lambda t: 0.0, ("same", True, True, 450)),
]


@pytest.mark.parametrize("need,page,quiet,answer", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_settling_answers_as_core_does(need: dict[str, Any], page: Any, quiet: Any, answer: tuple[str, bool, bool, int]) -> None:
    got, _ = _run(need, page, quiet)
    assert got == answer
