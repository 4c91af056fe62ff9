"""One parity suite: every scenario of tests/parity/scenarios.json played through every
surface (the `prufe` CLI, the MCP server, the npm package with Playwright and with Puppeteer,
the Python package sync and async), each surface's trace records equal to the CLI's byte for
byte as canonical JSON, timings and ports aside (tests/python/parity.py). What a surface
cannot play, and where its records are known to differ, the scenario file says, with why; the
test fails when either list is not exactly what happened, so neither can go stale."""

from __future__ import annotations

import difflib
import json
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import support
from parity import (SCENARIOS, SURFACES, canonical, normalise, run_async_surface, run_cli_surface, run_mcp_surface,
                    run_node_surface, run_sync_surface)

CLI = os.environ.get("PRUFE_CLI") or str(support.ROOT / "target" / "debug" / "prufe")


def compact_diff(want: Any, got: Any, surface: str) -> str:
    a = json.dumps(want, indent=1, sort_keys=True, ensure_ascii=False).splitlines()
    b = json.dumps(got, indent=1, sort_keys=True, ensure_ascii=False).splitlines()
    return "\n".join(difflib.unified_diff(a, b, "cli", surface, n=1, lineterm=""))


def play_everywhere(base: str, receipt: str) -> dict[str, dict[str, Any]]:
    """Each surface's outcome of each scenario; three surfaces at a time, one browser each, the
    slowest started first."""
    players = {
        "python-sync": lambda: run_sync_surface(base, receipt),
        "python-async": lambda: run_async_surface(base, receipt),
        "mcp": lambda: run_mcp_surface(CLI, base, receipt),
        "cli": lambda: run_cli_surface(CLI, base, receipt),
        "playwright": lambda: run_node_surface("playwright", base, receipt),
        "puppeteer": lambda: run_node_surface("puppeteer", base, receipt),
    }
    assert set(players) == set(SURFACES), set(players) ^ set(SURFACES)
    with ThreadPoolExecutor(3) as pool:
        running = {name: pool.submit(play) for name, play in players.items()}
        return {name: future.result() for name, future in running.items()}


def findings(played: dict[str, dict[str, Any]], ports: dict[int, str]) -> list[str]:
    """What does not match the scenario file: a surface whose records differ from the CLI's, or
    that cannot play a scenario, unlisted; a listed exception that did not happen."""
    cannot, differs, report = set(), set(), []
    for scenario in SCENARIOS:
        name = scenario["name"]
        reference = played["cli"][name]
        assert "records" in reference, f"{name}: the CLI cannot play it: {reference}"
        want = normalise(reference["records"], ports)
        assert want, f"{name}: the CLI wrote no record"
        for surface in (s for s in SURFACES if s != "cli"):
            outcome = played[surface][name]
            if "cannot" in outcome:
                cannot.add((name, surface))
                if surface not in scenario.get("cannot", {}):
                    report.append(f"{name} / {surface}: cannot be played: {outcome['cannot']}")
                continue
            got = normalise(outcome["records"], ports)
            if canonical(got) != canonical(want):
                differs.add((name, surface))
                if surface not in scenario.get("differs", {}):
                    report.append(f"{name} / {surface}: records differ from the CLI's\n{compact_diff(want, got, surface)}")
    declared_cannot = {(s["name"], surface) for s in SCENARIOS for surface in s.get("cannot", {})}
    declared_differs = {(s["name"], surface) for s in SCENARIOS for surface in s.get("differs", {})}
    report += [f"{n} / {s}: listed under `cannot` but played" for n, s in sorted(declared_cannot - cannot)]
    report += [f"{n} / {s}: listed under `differs` but gives the CLI's records" for n, s in sorted(declared_differs - differs)]
    return report


def test_every_surface_writes_the_cli_records() -> None:
    assert Path(CLI).is_file(), f"{CLI} is missing: cargo build -p prufe-harness"
    with support.fixture_server() as base, tempfile.TemporaryDirectory(prefix="prufe-parity-") as work:
        receipt = Path(work) / "receipt.txt"
        receipt.write_text("paid\n")
        ports = {int(base.rsplit(":", 1)[1]): "PORT", support._Quiet.xorigin_port: "XPORT"}
        played = play_everywhere(base, str(receipt))
    report = findings(played, ports)
    assert not report, "\n\n".join(report)
