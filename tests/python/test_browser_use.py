"""browser-use's click through its own registry, replaced by a verified one, on the
recycling list: the action's error says MISMATCH and the cart is as it was.

browser-use pins `mcp==2.1.1`, and the MCP test pins `mcp==2.3.0`, so it cannot share this
interpreter: PRUFE_BROWSER_USE_PYTHON names one that has browser-use and playwright."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from support import ROOT, fixture_server

PYTHON = os.environ.get("PRUFE_BROWSER_USE_PYTHON")
if PYTHON and not os.path.exists(PYTHON):
    PYTHON = None


@pytest.mark.skipif(not PYTHON, reason="set PRUFE_BROWSER_USE_PYTHON to a python with browser-use (its mcp pin conflicts with test_mcp's)")
def test_a_verified_click_through_browser_use_reports_the_mismatch_and_leaves_the_cart() -> None:
    assert PYTHON
    here = Path(__file__).resolve().parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "python" / "src"), str(here)]), "ANONYMIZED_TELEMETRY": "false", "BROWSER_USE_SETUP_LOGGING": "false"}
    with fixture_server() as base:
        out = subprocess.run([PYTHON, str(here / "browser_use_check.py"), base + "/recycled-list.html"], capture_output=True, text=True, timeout=180, env=env)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
    line = json.loads(out.stdout.strip().splitlines()[-1])
    assert "VERIFICATION_FAILED" in (line["error"] or "") and "MISMATCH" in line["error"], line
    assert "Trousers L" in line["error"]
    assert line["cart"] == 0
