"""What test suites written for pages on disk ask of the Python package (fixtures/disco/,
opened from file:// as such suites open their fixtures): a list without a name given as a CSS
locator, as a drag's destination and as the target; a frame of a file:// page; an upload
whose only feedback is the file input itself. Sync API, and the drop zone with the async API."""

from __future__ import annotations

import asyncio
import json
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator

import pytest
from playwright.async_api import async_playwright
from playwright.sync_api import Page

from support import CHROMIUM, CHROMIUM_FLAGS, FIXTURES

from prufe import PrufeError
from prufe.sync_api import Prufe, Target

DISCO = FIXTURES / "disco"


def url(name: str, query: str = "") -> str:
    return (DISCO / name).as_uri() + query


@pytest.fixture(scope="module")
def files() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="prufe-disco-") as d:
        for name in ("justificante-agosto.pdf", "playa.jpg", "monte.jpg", "nomina-marzo.pdf"):
            (Path(d) / name).write_bytes(b"%PDF-1.4\n")
        yield Path(d)


def record_of(error: PrufeError) -> dict[str, Any]:
    assert error.result is not None, error
    return error.result.record


def test_an_unnamed_list_by_its_id_is_a_drop_zone(page: Page) -> None:
    page.goto(url("tablero.html"))
    result = Prufe(page).drag_to(page.get_by_text("Regar las plantas"), page.locator("#hechas"), intent="Regar las plantas pasa a hechas")
    assert result.verdict == "MATCH", result.reason
    assert result.value == "to list 1 in region[Tablero]/list:hechas"
    assert any("list:hechas" in line for line in result.lines), result.lines
    assert page.locator("#hechas li").all_inner_texts() == ["Regar las plantas"]


def test_the_wrong_list_taking_the_drop_is_caught(page: Page) -> None:
    page.goto(url("tablero.html", "?falla"))
    with pytest.raises(PrufeError) as refused:
        Prufe(page).drag_to(page.get_by_text("Regar las plantas"), page.locator("#hechas"))
    record = record_of(refused.value)
    assert record["verdict"] == "MISMATCH", record["reason"]
    assert "went to region[Tablero]/list:archivo, not into the destination list 1 in region[Tablero]/list:hechas" in record["reason"]
    assert page.locator("#hechas li").count() == 0


def test_an_unlabelled_field_by_its_id_is_a_target(page: Page) -> None:
    page.goto(url("tablero.html"))
    result = Prufe(page).fill(page.locator("#nota"), "llamar al fontanero")
    assert result.verdict == "MATCH", result.reason
    assert result.target == "textbox 1 in main"
    assert page.locator("#nota").input_value() == "llamar al fontanero"


def test_a_place_gone_before_dispatch_is_refused(page: Page) -> None:
    page.goto(url("tablero.html"))
    gone = Target("", role="list", region="region[Tablero]/list:hechas", nth=2)
    with pytest.raises(PrufeError) as refused:
        Prufe(page).drag_to(page.get_by_text("Regar las plantas"), gone)
    assert refused.value.code == "TARGET_NOT_FOUND", refused.value
    assert "list 2 in region[Tablero]/list:hechas" in str(refused.value)
    assert page.locator("#pendientes li").count() == 2


def test_a_click_in_a_frame_of_a_file_page(page: Page) -> None:
    page.goto(url("pago.html"))
    frame = page.frame_locator("iframe[name=pago]")
    frame.get_by_role("button", name="Pagar con tarjeta").wait_for()
    result = Prufe(page).click(frame.get_by_role("button", name="Pagar con tarjeta"), intent="queda preparado el pago con tarjeta")
    assert result.verdict == "MATCH", result.reason
    assert result.target == "button[Pagar con tarjeta] in frame[0]/region[Pago]"
    assert any("Pago con tarjeta preparado" in line and "frame[0]/region[Pago]" in line for line in result.lines), result.lines
    assert frame.locator("#estado").inner_text() == "Pago con tarjeta preparado"


def test_an_upload_shown_only_in_the_input(page: Page, files: Path) -> None:
    page.goto(url("adjunto.html"))
    result = Prufe(page).upload(page.get_by_label("Justificante"), str(files / "justificante-agosto.pdf"))
    assert result.verdict == "MATCH", result.reason
    assert any("'justificante-agosto.pdf'" in line for line in result.lines), result.lines
    assert "fakepath" not in json.dumps(result.record)


def test_an_upload_of_several_files_names_them_all(page: Page, files: Path) -> None:
    page.goto(url("adjunto.html"))
    prufe = Prufe(page)
    result = prufe.upload(page.get_by_label("Fotos"), [str(files / "playa.jpg"), str(files / "monte.jpg")])
    assert result.verdict == "MATCH", result.reason
    assert any("'playa.jpg, monte.jpg'" in line for line in result.lines), result.lines


def test_a_file_name_in_a_sensitive_part_stays_secret(page: Page, files: Path) -> None:
    page.goto(url("adjunto.html"))
    try:
        result = Prufe(page).upload(page.get_by_label("Nómina"), str(files / "nomina-marzo.pdf"))
        record = result.record
    except PrufeError as error:
        record = record_of(error)
    assert "nomina-marzo" not in json.dumps(record), record
    assert page.get_by_label("Nómina").evaluate("input => input.files[0].name") == "nomina-marzo.pdf"


def test_async_drop_zone_and_frame() -> None:
    from prufe.async_api import Prufe as AsyncPrufe

    async def run() -> None:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
            try:
                page = await browser.new_page()
                await page.goto(url("tablero.html"))
                dropped = await AsyncPrufe(page).drag_to(page.get_by_text("Pagar el alquiler"), page.locator("#hechas"))
                assert dropped.verdict == "MATCH", dropped.reason
                assert await page.locator("#hechas li").all_inner_texts() == ["Pagar el alquiler"]
                await page.goto(url("pago.html"))
                frame = page.frame_locator("iframe[name=pago]")
                await frame.get_by_role("button", name="Pagar con tarjeta").wait_for()
                paid = await AsyncPrufe(page).click(frame.get_by_role("button", name="Pagar con tarjeta"))
                assert paid.verdict == "MATCH", paid.reason
                assert paid.target == "button[Pagar con tarjeta] in frame[0]/region[Pago]"
            finally:
                await browser.close()

    # The sync API's Playwright runs an event loop in this thread: the async one gets its own.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result(timeout=120)
