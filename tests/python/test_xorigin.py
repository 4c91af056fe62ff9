"""Verified actions inside a frame of another origin (fixtures/hostile/11-cross-origin-iframe.html
framing fixtures/xorigin/card-frame.html from the second port), the frame in process
(127.0.0.1, another port) and out of process (the page from localhost, another site), async
and sync: each way of naming the targets gives the CLI's records for the same page, and the
card values are in no result, error, explanation, log record or trace file (and covered in
its pictures). Also: a name in two roots is refused, a key press and a watch reach the frame,
and select and upload act in it."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest
from playwright.async_api import async_playwright
from playwright.sync_api import sync_playwright

from parity import SCENARIOS, chromium, play_cli
from support import CARD, CHROMIUM, CHROMIUM_FLAGS, EXPIRY, XORIGIN_PAGE

from prufe import PrufeError, Target

HOSTS = {"in process": "127.0.0.1", "out of process": "localhost"}
#: The parity suite's scenarios of this page: fill the card, fill the expiry, pay with INTENT.
RECORDS = {"127.0.0.1": "cross-origin payment", "localhost": "cross-origin payment out of process"}
INTENT = "the payment is accepted"


def _frame(page: Any) -> Any:
    return page.frame_locator("iframe")


# Each way of naming the three targets: Playwright locators inside the frame, and prufe targets.
TARGETS: dict[str, Callable[[Any], list[Any]]] = {
    "locators": lambda page: [_frame(page).get_by_label("Card number"), _frame(page).get_by_label("Expiry"),
                              _frame(page).get_by_role("button", name="Pay")],
    "role and name": lambda page: [Target("Card number", role="textbox"), Target("Expiry", role="textbox"), Target("Pay", role="button")],
    "frame 0": lambda page: [Target("Card number", role="textbox", frame="0"), {"role": "textbox", "name": "Expiry", "frame": "0"},
                             Target("Pay", role="button", frame="0")],
    "region": lambda page: [Target("Card number", region="frame[0]/form[Card]"), Target("Expiry", role="textbox", region="frame[0]/form[Card]"),
                            Target("Pay", role="button", region="frame[0]/form[Card]")],
}


def decided(outcome: Any) -> dict[str, Any]:
    """The fields the machine decides, of a Result, a PrufeError or a CLI trace record."""
    from prufe import PrufeError, Result

    if isinstance(outcome, dict):
        return {"verdict": outcome["verdict"], "reason": outcome["reason"], "target": outcome["target"], "attempts": outcome["attempts"],
                "undone": outcome["undone"], "error": outcome["error"], "lines": (outcome["diff"] or {}).get("lines", [])}
    if isinstance(outcome, Result):
        error = (outcome.error or {}).get("code") if outcome.error else None
        return {"verdict": outcome.verdict, "reason": outcome.reason, "target": outcome.target, "attempts": outcome.attempts,
                "undone": outcome.undone, "error": error, "lines": outcome.lines}
    assert isinstance(outcome, PrufeError), outcome
    if outcome.result is not None:
        return {**decided(outcome.result), "error": outcome.code}
    return {"verdict": None, "reason": str(outcome), "target": None, "attempts": 0, "undone": 0, "error": outcome.code, "lines": []}


@pytest.fixture(scope="module")
def expected(base: str) -> dict[str, list[dict[str, Any]]]:
    """What `prufe run` decides on each way of loading the page (the parity suite's scenarios)."""
    cli = os.environ.get("PRUFE_CLI") or str(Path(__file__).resolve().parents[2] / "target" / "debug" / "prufe")
    scenarios = [s for s in SCENARIOS if s["name"] in RECORDS.values()]
    for s in scenarios:
        assert [(st["action"], st.get("value"), st.get("intent")) for st in s["steps"]] == [
            ("fill", CARD, None), ("fill", EXPIRY, None), ("click", None, INTENT)], s["name"]
    with chromium() as ws:
        return {s["name"]: [decided(r) for r in play_cli(cli, ws, base, s, "")] for s in scenarios}


def _secrets_absent(text: str) -> None:
    for secret in (CARD, EXPIRY, CARD[-4:] + CARD[:4]):
        assert secret not in text, f"a card value leaked: {text[:200]}"


def _out_of_process(session: Any) -> bool:
    return any(t["type"] == "iframe" for t in session.send("Target.getTargets", {})["targetInfos"])


def _wait_for_frame(page: Any) -> None:
    _frame(page).get_by_role("button", name="Pay").wait_for()


@pytest.mark.parametrize("host", list(HOSTS.values()), ids=list(HOSTS))
def test_sync_api_fills_and_pays_in_the_frame_as_the_cli_does(base: str, expected: Any, host: str, tmp_path: Path, caplog: Any) -> None:
    from prufe.sync_api import Prufe

    caplog.set_level(logging.DEBUG, logger="prufe")
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(tempfile.mkdtemp(prefix="prufe-profile-"), executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            for way, make in TARGETS.items():
                page = context.new_page()
                page.goto(base.replace("127.0.0.1", host) + XORIGIN_PAGE)
                _wait_for_frame(page)
                session = context.new_cdp_session(page)
                assert _out_of_process(session) == (host == "localhost"), "the frame runs where the test says"
                session.detach()
                trace = tmp_path / way.replace(" ", "-")
                p = Prufe(page, trace_dir=trace, screenshots="all")
                card, expiry, pay = make(page)
                outcomes: list[Any] = []
                texts: list[str] = []
                for call in (lambda: p.fill(card, CARD, sensitive=True), lambda: p.fill(expiry, EXPIRY), lambda: p.click(pay, intent=INTENT)):
                    try:
                        result = call()
                    except PrufeError as error:
                        outcomes.append(error)
                        texts.append(str(error))
                        break
                    outcomes.append(result)
                    texts += [repr(result), result.explain(), json.dumps(decided(result))]
                assert [decided(o) for o in outcomes] == expected[RECORDS[host]], way
                assert page.frame_locator("iframe").get_by_role("status").inner_text() == "Payment accepted"
                for text in texts:
                    _secrets_absent(text)
                files = sorted(trace.iterdir())
                assert any(f.suffix == ".jpg" for f in files), "pictures were taken"
                # The card number is covered where the frame shows it: below and right of the
                # <iframe>'s top-left corner (25, 135 CSS pixels), not at the top document's origin.
                fill = json.loads(trace.joinpath("0001-fill-match.json").read_text())
                after = fill["pictures"]["after"]
                assert any(b["x"] > 25 * after["scale"] and b["y"] > 135 * after["scale"] for b in after["masked"]), after
                assert after["target"]["y"] > 135 * after["scale"], after
                for file in files:
                    if file.suffix != ".jpg":
                        _secrets_absent(file.read_text())
                page.close()
        finally:
            context.close()
    for record in caplog.records:
        _secrets_absent(record.getMessage())


@pytest.mark.parametrize("host", list(HOSTS.values()), ids=list(HOSTS))
def test_async_api_fills_and_pays_in_the_frame_as_the_cli_does(base: str, expected: Any, host: str) -> None:
    from prufe.async_api import Prufe

    async def main() -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        async with async_playwright() as pw:
            context = await pw.chromium.launch_persistent_context(tempfile.mkdtemp(prefix="prufe-profile-"), executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
            try:
                for way, make in TARGETS.items():
                    page = await context.new_page()
                    await page.goto(base.replace("127.0.0.1", host) + XORIGIN_PAGE)
                    await _frame(page).get_by_role("button", name="Pay").wait_for()
                    p = Prufe(page)
                    card, expiry, pay = make(page)
                    outcomes: list[Any] = []
                    try:
                        outcomes.append(await p.fill(card, CARD, sensitive=True))
                        outcomes.append(await p.fill(expiry, EXPIRY))
                        outcomes.append(await p.click(pay, intent=INTENT))
                    except PrufeError as error:
                        outcomes.append(error)
                    out[way] = outcomes
                    await page.close()
            finally:
                await context.close()
        return out

    for way, outcomes in asyncio.run(main()).items():
        assert [decided(o) for o in outcomes] == expected[RECORDS[host]], way
        for o in outcomes:
            _secrets_absent(str(o) if isinstance(o, PrufeError) else o.explain())


@pytest.mark.parametrize("host", list(HOSTS.values()), ids=list(HOSTS))
def test_a_name_in_two_roots_is_refused_never_guessed(base: str, host: str) -> None:
    from prufe.sync_api import Prufe

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(base.replace("127.0.0.1", host) + "/es/two-pay.html")
            _wait_for_frame(page)
            p = Prufe(page)
            with pytest.raises(PrufeError) as refused:
                p.click(Target("Pay", role="button"))
            assert refused.value.code == "TARGET_AMBIGUOUS", refused.value
            assert page.locator("#note").inner_text() == ""
            assert _frame(page).get_by_role("status").inner_text() == ""
            # Named with its frame, the same click is the frame's.
            assert p.click(Target("Pay", role="button", frame="0")).verdict == "MATCH"
        finally:
            browser.close()


@pytest.mark.parametrize("host", list(HOSTS.values()), ids=list(HOSTS))
def test_a_frame_below_the_fold_is_scrolled_to_and_a_veiled_frame_is_obscured(base: str, host: str) -> None:
    from prufe.sync_api import Prufe

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(base.replace("127.0.0.1", host) + "/frames/far-frame.html")
            _wait_for_frame(page)
            assert Prufe(page).click(Target("Pay", role="button", frame="0"), intent=INTENT).verdict == "MATCH"
            assert page.evaluate("scrollY") > 0, "the top document scrolled to the frame"
            page.goto(base.replace("127.0.0.1", host) + "/es/covered-frame.html")
            _wait_for_frame(page)
            with pytest.raises(PrufeError) as covered:
                Prufe(page, timeout_ms=2000).click(Target("Pay", role="button", frame="0"))
            assert covered.value.code == "TARGET_OBSCURED", covered.value
            # Worded by the machine, the point in the top viewport, as through every driver.
            assert re.fullmatch(r"button\[Pay\] in frame\[0\]\S* is covered by div#veil at \(\d+, \d+\); nothing was clicked",
                                covered.value.message), covered.value.message
            assert _frame(page).get_by_role("status").inner_text() == "", "nothing was clicked"
        finally:
            browser.close()


def test_a_watch_and_a_key_press_in_an_out_of_process_frame(base: str) -> None:
    from prufe.sync_api import Prufe

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(base.replace("127.0.0.1", "localhost") + XORIGIN_PAGE)
            _wait_for_frame(page)
            p = Prufe(page)
            # The keyboard is the page's: Chromium sends the key to the frame that has the focus.
            pressed = p.press(Target("Card number", role="textbox"), "Enter", intent="the payment is accepted")
            assert (pressed.verdict, pressed.lines) == ("MATCH", ["appeared text 'Payment accepted' in frame[0]"])
            page.reload()
            _wait_for_frame(page)
            with p.watch("the payment is accepted") as seen:
                _frame(page).get_by_role("button", name="Pay").click()
            assert seen.ok and seen.verdict == "MATCH", seen.reason
        finally:
            browser.close()


@pytest.mark.parametrize("host", list(HOSTS.values()), ids=list(HOSTS))
def test_select_and_upload_in_a_cross_origin_frame(base: str, host: str) -> None:
    from prufe.sync_api import Prufe
    from support import receipt

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(base.replace("127.0.0.1", host) + "/es/xorigin-top.html")
            status = _frame(page).get_by_role("status")
            _frame(page).get_by_label("Delivery").wait_for()
            p = Prufe(page)
            chosen = p.select_option(_frame(page).get_by_label("Delivery"), "Express")
            assert chosen.verdict == "MATCH" and chosen.target == "combobox[Delivery] in frame[0]/form[Options]", chosen.reason
            assert status.inner_text() == "Delivery: Express"
            uploaded = p.upload(Target("Receipt", frame="0"), receipt(), intent="the receipt is attached")
            assert uploaded.verdict == "MATCH", uploaded.reason
            assert status.inner_text() == "Receipt: prufe-receipt.txt"
        finally:
            browser.close()
