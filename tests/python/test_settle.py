"""The Python driver through a document that goes away (python/src/prufe/_driver.py
``Driver._again``): the machine lives in the page, so while there is no document the driver
only sends its turn again, and at the step's timeout without one it raises the machine's
error (``prufeRun.lost()``), not one of its own after a bound of its own. The page is a
stand-in whose document never comes back; the driver's clock is the runner's, advanced by its
sleeps."""

from __future__ import annotations

import time
from typing import Any

import pytest

from prufe import _driver
from prufe._driver import Driver, Gen, Gone, Root
from prufe._errors import PrufeError

LOST = {"code": "NOT_READY", "message": "the machine's word for a page that did not come back"}


class Clock:
    def __init__(self) -> None:
        self.ms = 0.0

    def monotonic(self) -> float:
        return self.ms / 1000


class GoneWorld:
    """A page whose top document went away and does not come back."""

    def __init__(self) -> None:
        self.reads = 0

    def roots(self) -> Gen:
        return [Root(path="", frame="top", session="")]
        yield

    def call(self, fn: str, arg: Any, root: Any = None) -> Gen:
        self.reads += 1
        raise Gone("Cannot find context with specified id")
        yield

    @staticmethod
    def transient(code: str) -> bool:
        return code == "NOT_READY"


def test_a_call_whose_document_keeps_going_away_ends_on_the_machines_error_at_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    # A turn (or a record's finishing) sent again to each next document, every pollMs, and at
    # the step's timeout from the first loss the machine's error, as a settle ends on.
    clock = Clock()
    monkeypatch.setattr(time, "monotonic", clock.monotonic)
    monkeypatch.setitem(_driver._MACHINE, "lost", LOST)

    class World(GoneWorld):
        timeout_ms = 1500
        poll_ms = 50

    driver = Driver.__new__(Driver)
    world = World()
    driver.world = world  # type: ignore[assignment]
    run = driver._again("turn", {"run": "{}"}, routed=True)
    with pytest.raises(PrufeError) as raised:
        op = next(run)
        while True:
            assert op.name == "sleep", op
            assert op.args[0] == 0.05, "every pollMs"
            clock.ms += op.args[0] * 1000
            op = run.send(None)
    assert (raised.value.code, raised.value.message) == (LOST["code"], LOST["message"])
    assert 1500 <= clock.ms < 1500 + 50, f"at the timeout, not after: {clock.ms}"
    assert world.reads > 20
