"""The Python package's pictures (``screenshots=`` next to ``trace_dir``) on
fixtures/trace-pictures.html: a password fill and a click that lands on a recycled row
(MISMATCH) leave a before and an after JPEG beside each record with the boxes the viewer
outlines; the secret is in no file of the trace; a bad value is refused before anything runs."""

from __future__ import annotations

import json
import tempfile
import urllib.parse
from pathlib import Path
from typing import Any, Iterator

import pytest
from playwright.sync_api import sync_playwright

from support import CHROMIUM, CHROMIUM_FLAGS

from prufe import PrufeError, VerificationFailed
from prufe._driver import jpeg_size
from prufe.sync_api import Prufe

SECRET = "hunter2-Secret!"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def _records(directory: Path) -> list[tuple[str, dict[str, Any]]]:
    return [(p.name, json.loads(p.read_text())) for p in sorted(directory.glob("[0-9]*.json"))]


def test_all_keeps_covered_pictures_of_every_step_and_the_secret_in_no_file(browser: Any, base: str, tmp_path: Path) -> None:
    page = browser.new_page()
    page.goto(f"{base}/trace-pictures.html")
    trace = tmp_path / "run"
    p = Prufe(page, trace_dir=trace, screenshots="all")
    p.fill(page.get_by_label("Password"), SECRET)
    with pytest.raises(VerificationFailed):
        p.click(page.get_by_role("button", name="Add Shirt M"))
    page.close()

    records = _records(trace)
    assert [n for n, _ in records] == ["0001-fill-match.json", "0002-click-mismatch.json"]
    for name, record in records:
        for which in ("before", "after"):
            picture = record["pictures"][which]
            assert picture["file"] == name.replace(".json", f".{which}.jpg")
            assert jpeg_size((trace / picture["file"]).read_bytes()) == (picture["width"], picture["height"])
            assert picture["width"] <= 800
            assert picture["target"] and picture["target"]["width"] > 0, (name, which)
            assert len(picture["masked"]) >= 2, (name, which, picture)
    assert records[1][1]["pictures"]["after"]["effect"], "the wrong effect is outlined"
    for file in trace.iterdir():
        data = file.read_bytes()
        for form in (SECRET, SECRET.lower(), urllib.parse.quote(SECRET)):
            assert form.encode() not in data, f"{file.name} holds the secret"


def test_failures_by_default_and_a_bad_value_is_refused(browser: Any, base: str, tmp_path: Path) -> None:
    page = browser.new_page()
    page.goto(f"{base}/trace-pictures.html")
    with pytest.raises(PrufeError) as refused:
        Prufe(page, trace_dir=tmp_path / "bad", screenshots="sometimes")
    assert refused.value.code == "INVALID_OPTIONS"
    assert not (tmp_path / "bad").exists()
    trace = tmp_path / "run"
    p = Prufe(page, trace_dir=trace)
    p.fill(page.get_by_label("Password"), SECRET)
    with pytest.raises(VerificationFailed):
        p.click(page.get_by_role("button", name="Add Shirt M"))
    page.close()
    records = _records(trace)
    assert "pictures" not in records[0][1], "a passed step keeps none"
    assert set(records[1][1]["pictures"]) == {"before", "after"}
    assert len(list(trace.glob("*.jpg"))) == 2
