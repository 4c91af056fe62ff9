"""Typed expectations (``expect=``) with the Python package, sync API, on
fixtures/drivers/expect.html: claims as dataclasses or dicts, held, broken or without
evidence as the result's ``expect`` says, and a malformed claim refused before anything is
clicked."""

from __future__ import annotations

import tempfile
from typing import Any, Iterator

import pytest
from playwright.sync_api import Page, sync_playwright

from support import CHROMIUM, CHROMIUM_FLAGS, fixture_server

from prufe import PrufeError
from prufe.sync_api import Appears, Changes, Count, Moves, Navigates, Prufe, Stays, Target, Text

SHIRT = Target("Shirt M", role="listitem")
WRAP = Target("Gift wrap", role="checkbox")


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    with fixture_server() as base, sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(tempfile.mkdtemp(prefix="prufe-profile-"), executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            p = ctx.new_page()
            p.goto(base + "/drivers/expect.html")
            yield p
        finally:
            ctx.close()


def statuses(record: dict[str, Any]) -> list[str]:
    return [o["status"] for o in record.get("expect", [])]


def test_claims_hold_break_or_lack_evidence(page: Page) -> None:
    p = Prufe(page, max_attempts=1)
    add = page.get_by_role("button", name="Add Shirt M")

    held = p.click(add, expect=[Appears(SHIRT), Text("Added Shirt M"), Count(SHIRT, 1), Stays(WRAP)])
    assert held.verdict == "MATCH", held.reason
    assert [o["status"] for o in held.expect] == ["held"] * 4
    assert "expected: appears listitem[Shirt M] — held: appeared listitem[Shirt M]" in held.reason
    assert "Expected:  appears listitem[Shirt M] — held" in held.explain()

    with pytest.raises(PrufeError) as second:
        p.click(add, expect=[Count(SHIRT, 1), {"kind": "disappears", "target": {"role": "listitem", "name": "Shirt M"}},
                             Changes(WRAP, "checked"), Navigates("*page=2")])
    assert second.value.code == "IRREVERSIBLE_ACTION", second.value
    # The machine's words, as the CLI and Node say them.
    assert second.value.message == second.value.result.record["error"]["message"], second.value
    assert "prufe stopped: declare an inverse" in str(second.value), second.value
    result = second.value.result
    assert result is not None and result.verdict == "MISMATCH"
    assert statuses(result.record) == ["broken", "broken", "absent", "absent"]
    assert "broken: 2 matches, not 1" in result.reason

    checked = p.check(page.get_by_role("checkbox", name="Gift wrap"), expect=[Changes(WRAP, "checked", from_=False, to=True)])
    assert statuses(checked.record) == ["held"]

    moved = p.click(page.get_by_role("button", name="Move Write tests"),
                    expect=[Moves(Target("Write tests", role="listitem"), list="done", position=1)])
    assert moved.verdict == "MATCH" and statuses(moved.record) == ["held"], moved.reason

    navigated = p.click(page.get_by_role("link", name="Next page"),
                        expect=[Navigates("*page=2"), Appears(Target("Expectations page 2", role="heading"))])
    assert navigated.verdict == "MATCH" and statuses(navigated.record) == ["held", "held"], navigated.reason

    with pytest.raises(PrufeError) as elsewhere:
        p.click(page.get_by_role("link", name="Next page"), expect=[Navigates("*page=3")])
    assert elsewhere.value.code == "VERIFICATION_FAILED"
    assert elsewhere.value.result is not None and statuses(elsewhere.value.result.record) == ["broken"]


def test_a_malformed_claim_is_invalid_expect_and_nothing_is_clicked(page: Page) -> None:
    p = Prufe(page)
    add = page.get_by_role("button", name="Add Shirt M")
    before = page.get_by_role("listitem").filter(has_text="Shirt M").count()
    for expect in ([{"kind": "vanishes", "target": {"name": "x"}}], [Changes(WRAP, "checked", to="yes")], "appears"):
        with pytest.raises(PrufeError) as error:
            p.click(add, expect=expect)  # type: ignore[arg-type]
        assert error.value.code == "INVALID_EXPECT", error.value
    assert page.get_by_role("listitem").filter(has_text="Shirt M").count() == before
