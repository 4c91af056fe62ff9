"""The Python package's coordinate steps (``screenshot``, ``click_at``, ``drag_at``,
``scroll_at``, ``type``, ``key``), the CLI's script steps of the same names: a screenshot is
covered and quoted by the next step, every input step ends with a fresh one, a refused point
sends nothing and writes no record, a point that now shows another element clicks nothing,
typing goes only to the field meant, and a sensitive text is in no record, report or trace.
Sync API throughout, and the async API on the same steps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page

from support import CHROMIUM, CHROMIUM_FLAGS, EMAIL, PASSWORD, XORIGIN_PAGE, run_async

from prufe import PrufeError, VerificationFailed
from prufe.sync_api import Prufe, Shot, Target


def centre(page: Page, selector: str, shot: Shot) -> tuple[int, int]:
    """The centre of an element as a point of the screenshot's image."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    k = shot.width / (shot.capture_width / shot.device_pixel_ratio)
    return round((box["x"] + box["width"] / 2) * k), round((box["y"] + box["height"] / 2) * k)


def records(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.glob("[0-9]*.json"))


def test_a_click_at_is_verified_on_what_the_screenshot_showed_and_a_refused_point_sends_nothing(page: Page, base: str, tmp_path: Path) -> None:
    page.goto(base + "/shop.html")
    p = Prufe(page, trace_dir=tmp_path)
    shot = p.screenshot(max_width=640)
    assert (shot.id, shot.width) == ("obs-1", 640.0)
    assert shot.png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(shot.png[16:20], "big") == 640
    assert shot.capture_width > 640 and shot.stable
    x, y = centre(page, "#catalogue li:nth-child(5) button", shot)
    with pytest.raises(PrufeError) as out:
        p.click_at(700, y, observation=shot.id)
    assert out.value.code == "POINT_OUT_OF_BOUNDS" and "640×" in str(out.value), out.value
    with pytest.raises(PrufeError) as out:
        p.click_at(x, y, observation="obs-9")
    assert out.value.code == "STALE_OBSERVATION" and "obs-1" in str(out.value), out.value
    result = p.click_at(x, y, observation=shot.id, intent="the cart gains a cap")
    assert result.verdict == "MATCH", result.explain()
    assert result.target == "button[Add Cap] in main/list:catalogue"
    assert result.value == f"({x}, {y}) on obs-1"
    assert "appeared listitem[Cap Remove Cap] in cart/list:cart-items" in result.lines
    assert result.observation is not None and result.observation.id == "obs-2"
    with pytest.raises(PrufeError) as out:
        p.click_at(x, y, observation="obs-1")
    assert out.value.code == "STALE_OBSERVATION" and "obs-2" in str(out.value), out.value
    # Only the click was recorded; the refused points sent nothing.
    assert records(tmp_path) == ["0001-click_at-match.json"]
    assert page.locator("#cart-items li").count() == 1


def test_a_point_that_now_shows_another_element_clicks_nothing(page: Page, base: str) -> None:
    page.goto(base + "/cookie-banner.html")
    p = Prufe(page)
    shot = p.screenshot()
    x, y = centre(page, "#save", shot)
    page.evaluate("window.armBanner()")
    page.wait_for_function("document.body.dataset.banner === 'shown'")
    with pytest.raises(PrufeError) as out:
        p.click_at(x, y)
    assert out.value.code == "TARGET_CHANGED", out.value
    assert "button[Accept all]" in str(out.value) and "button[Save]" in str(out.value), out.value
    assert page.locator("#status").text_content() == ""
    assert out.value.observation is not None and out.value.observation.id == "obs-2"


def test_a_point_inside_a_frame_of_another_origin_is_the_element_the_screenshot_showed(page: Page, base: str) -> None:
    # The element under the point is looked for inside the frame, and the machine reconciles it
    # with the screenshot's boxes, as it does for the CLI and the npm package.
    page.goto(base + XORIGIN_PAGE)
    page.frame_locator("iframe").locator("button[type=submit]").wait_for()
    p = Prufe(page)
    shot = p.screenshot()
    pay = page.frame_locator("iframe").locator("button[type=submit]").bounding_box()
    assert pay is not None
    k = shot.width / (shot.capture_width / shot.device_pixel_ratio)
    x, y = round((pay["x"] + pay["width"] / 2) * k), round((pay["y"] + pay["height"] / 2) * k)
    result = p.click_at(x, y, intent="the payment is accepted")
    assert result.target == "button[Pay] in frame[0]/form[Card]", result.explain()


def test_an_error_without_a_record_is_reported_and_traced_in_the_machine_s_words(page: Page, base: str, tmp_path: Path) -> None:
    # The report is the machine's for the error alone (core ``error_lines``), as Node prints it;
    # the trace entry of a step the machine refused before it had a record is the machine's.
    page.goto(base + "/shop.html")
    p = Prufe(page, trace_dir=tmp_path)
    with pytest.raises(PrufeError) as out:
        p.type(5)  # type: ignore[arg-type]
    assert out.value.code == "INVALID_ACTION" and out.value.result is None, out.value
    assert out.value.explain() == f"Error:     {out.value.message}\n"
    # The widest image asked for is the machine's to check, in the words the CLI gives.
    for max_width in (0, float("nan"), float("inf")):
        with pytest.raises(PrufeError) as out:
            p.screenshot(max_width=max_width)
        assert (out.value.code, out.value.message) == ("INVALID_ACTION", '"maxWidth" must be a number of at least 1'), max_width
    shot = p.screenshot()
    # A number JSON cannot carry is refused in the words the npm package gets too.
    with pytest.raises(PrufeError) as out:
        p.click_at(float("nan"), 10, observation=shot.id)
    assert (out.value.code, out.value.message) == ("INVALID_ACTION", 'a pointer step: pick: invalid type: string "NaN", expected f64')
    shot = p.screenshot()
    with pytest.raises(PrufeError) as out:
        p.drag_at((1, 1), (2, 2), observation=shot.id, steps=0)
    assert out.value.explain() == f"Error:     {out.value.message}\n", out.value
    with pytest.raises(PrufeError) as out:
        p.click(page.locator("#no-such-element"))
    assert out.value.code == "TARGET_NOT_FOUND" and out.value.explain() == f"Error:     {out.value.message}\n"
    assert records(tmp_path) == []
    with pytest.raises(PrufeError) as out:
        p.type("a\ud800")
    assert out.value.code == "INVALID_ACTION" and out.value.result is None, out.value
    [name] = records(tmp_path)
    entry = json.loads((tmp_path / name).read_text())
    assert name == f"0001-{entry['action']}-invalid-action.json", name
    assert (entry["step"], entry["error"], entry["ok"], entry["reason"]) == (1, "INVALID_ACTION", False, str(out.value))
    # A text's length is the machine's to check, in the words the CLI gives.
    with pytest.raises(PrufeError) as out:
        p.type("")
    assert (out.value.code, out.value.message) == ("INVALID_ACTION", '"text" must hold 1 to 10000 characters'), out.value
    assert len(records(tmp_path)) == 2


@pytest.mark.parametrize(("host", "address", "region"), [
    ("127.0.0.1", "/iframe-payment.html", "frame[0]/form[Payment]"),
    ("127.0.0.1", XORIGIN_PAGE, "frame[0]/form[Card]"),
    ("localhost", XORIGIN_PAGE, "frame[0]/form[Card]"),
], ids=["same-origin", "cross-origin", "out-of-process"])
def test_the_element_under_a_point_is_looked_for_inside_the_frame_there(page: Page, base: str, host: str, address: str, region: str) -> None:
    # As the CLI and Node look: the hit test of the document the frame holds, not the top
    # document's <iframe>. A button renamed since the screenshot is named as it is now.
    page.goto(base.replace("127.0.0.1", host) + address)
    pay = page.frame_locator("iframe").first.locator("button[type=submit]")
    pay.wait_for()
    p = Prufe(page)
    shot = p.screenshot()
    box = pay.bounding_box()
    assert box is not None
    k = shot.width / (shot.capture_width / shot.device_pixel_ratio)
    x, y = round((box["x"] + box["width"] / 2) * k), round((box["y"] + box["height"] / 2) * k)
    pay.evaluate("(b) => { b.textContent = 'Pay later'; }")
    with pytest.raises(PrufeError) as out:
        p.click_at(x, y)
    assert out.value.code == "TARGET_CHANGED", out.value
    assert f"now shows button[Pay later] in {region}, not button[Pay] in {region}" in str(out.value), out.value
    shot = p.screenshot()
    result = p.click_at(x, y, observation=shot.id, intent="the payment is accepted")
    assert result.target == f"button[Pay later] in {region}", result.explain()


def test_a_drag_at_moves_the_card_to_the_list_under_the_pointer(page: Page, base: str) -> None:
    page.goto(base + "/shop.html")
    p = Prufe(page)
    shot = p.screenshot()
    result = p.drag_at(centre(page, "#task-invoice", shot), centre(page, "#done", shot))
    assert result.verdict == "MATCH", result.explain()
    assert "moved listitem[Write invoice] from main/list:todo to main/list:done" in result.lines
    assert page.locator("#done #task-invoice").count() == 1


def test_a_drag_whose_destination_leaves_the_page_is_abandoned_with_the_button_released(page: Page, base: str) -> None:
    # fixtures/drag-invalid.html removes the Sprint list on the third pointermove of a drag.
    page.goto(base + "/drag-invalid.html")
    p = Prufe(page)
    shot = p.screenshot()
    with pytest.raises(PrufeError) as out:
        p.drag_at(centre(page, "#card-a", shot), centre(page, "#sprint", shot), steps=10)
    assert out.value.code == "TARGET_CHANGED", out.value
    assert "left the page after move 3 of the drag; the button was released and the drag abandoned" in str(out.value), out.value
    log = page.evaluate("window.dragEvents")
    assert log[0] == "pointerdown Card A", log
    assert [e for e in log if e.startswith("pointerup")] == ["pointerup buttons=0"], "released once, before the step ended"
    assert "drop cancelled: no destination" in log, log
    assert page.locator("#backlog #card-a").count() == 1
    # The same rule for a drag between targets.
    page.goto(base + "/drag-invalid.html")
    with pytest.raises(PrufeError) as out:
        Prufe(page).drag_to(Target(role="listitem", name="Card A"), Target(role="list", name="Sprint"))
    assert out.value.code == "TARGET_CHANGED", out.value
    assert "the drag's destination list[Sprint]" in str(out.value) and "after move 3 of the drag" in str(out.value), out.value
    assert [e for e in page.evaluate("window.dragEvents") if e.startswith("pointerup")] == ["pointerup buttons=0"]


def test_type_goes_to_the_field_clicked_and_a_key_moves_it(page: Page, base: str) -> None:
    page.goto(base + "/shop.html")
    p = Prufe(page)
    shot = p.screenshot()
    clicked = p.click_at(*centre(page, "#name", shot))
    assert clicked.verdict == "MATCH" and "took the focus" in clicked.reason, clicked.explain()
    typed = p.type("Ada")
    assert (typed.verdict, typed.value, typed.target) == ("MATCH", "Ada", "textbox[Name] in form[Checkout]"), typed.explain()
    assert typed.observation is not None and typed.observation.id == "obs-3"
    key = p.key("Tab")
    assert key.ok and key.reason.endswith("the focus is on combobox[Shipping] in form[Checkout]"), key.reason
    assert page.input_value("#name") == "Ada"


def test_a_key_is_pressed_by_its_name_however_it_is_written(page: Page, base: str) -> None:
    page.goto(base + "/shop.html")
    p = Prufe(page)
    shot = p.screenshot()
    p.click_at(*centre(page, "#name", shot))
    tab = p.key("tab")
    assert tab.value == "Tab" and tab.reason.endswith("the focus is on combobox[Shipping] in form[Checkout]"), tab.reason
    back = p.key("shift+tab")
    assert back.value == "Shift+Tab" and back.reason.endswith("the focus is on textbox[Name] in form[Checkout]"), back.reason
    with pytest.raises(PrufeError) as out:
        p.key("Hyper+a")
    assert out.value.code == "INVALID_ACTION" and 'unknown key "Hyper"' in str(out.value), out.value
    pressed = p.press(Target("Name", role="textbox"), "return", intent="'Order placed' appears")
    assert pressed.verdict == "MATCH" and pressed.value == "Enter", pressed.explain()
    page.evaluate("document.getElementById('status').textContent = ''")
    enter = p.key("enter")
    assert enter.value == "Enter", enter.reason
    assert page.text_content("#status") == "Order placed"


# What keys.html logs for the chords the machine sends key by key: Shift with `+`, Control and
# Shift with a letter (which types the capital, as a keyboard does), a key alone.
CHORD_EVENTS = [
    "keydown Shift ctrl=false shift=true alt=false meta=false",
    "keydown + ctrl=false shift=true alt=false meta=false",
    "keyup + ctrl=false shift=true alt=false meta=false",
    "keyup Shift ctrl=false shift=false alt=false meta=false",
    "keydown Control ctrl=true shift=false alt=false meta=false",
    "keydown Shift ctrl=true shift=true alt=false meta=false",
    "keydown K ctrl=true shift=true alt=false meta=false",
    "keyup K ctrl=true shift=true alt=false meta=false",
    "keyup Shift ctrl=true shift=false alt=false meta=false",
    "keyup Control ctrl=false shift=false alt=false meta=false",
    "keydown Enter ctrl=false shift=false alt=false meta=false",
    "keyup Enter ctrl=false shift=false alt=false meta=false",
]


def test_a_chord_is_pressed_as_the_machine_splits_it(page: Page, base: str) -> None:
    page.goto(base + "/keys.html")
    p = Prufe(page)
    sent = [p.key(chord) for chord in ("Shift++", "ctrl+shift+k", "enter")]
    assert [k.value for k in sent] == ["Shift++", "Control+Shift+k", "Enter"], [k.reason for k in sent]
    assert page.evaluate("window.keyEvents") == CHORD_EVENTS


def test_a_record_scrubbed_of_a_secret_keeps_its_keys_in_their_order(page: Page, base: str) -> None:
    page.goto(base + "/keys.html")
    plain = Prufe(page).key("Tab")
    page.goto(base + "/keys.html")
    p = Prufe(page)
    assert p.fill(Target("Text", role="textbox"), PASSWORD, sensitive=True).ok
    guarded = p.key("Tab")
    assert len(plain.record) > 5, plain.record
    assert list(guarded.record) == list(plain.record)
    assert list(guarded.record["diff"]) == list(plain.record["diff"])


def test_the_driver_presses_the_keys_it_is_given_and_splits_no_chord() -> None:
    from prufe._driver import Config, Driver, World

    def ops(gesture: dict[str, object]) -> list[tuple[object, ...]]:
        driver = Driver(World(False, None), Config("reject", None, None, None))
        return [(o.name, *o.args) for o in driver._send(gesture)]

    assert ops({"kind": "press", "ref": None, "keys": ["Shift", "+"]}) == [
        ("key_down", "Shift"), ("key_down", "+"), ("key_up", "+"), ("key_up", "Shift")]
    assert ops({"kind": "press", "ref": None, "keys": ["Control", "Shift", "k"]}) == [
        ("key_down", "Control"), ("key_down", "Shift"), ("key_down", "k"),
        ("key_up", "k"), ("key_up", "Shift"), ("key_up", "Control")]
    assert ops({"kind": "press", "ref": None, "keys": ["Enter"]}) == [("key_down", "Enter"), ("key_up", "Enter")]


def test_typing_after_the_focus_was_taken_away_types_nothing(page: Page, base: str) -> None:
    page.goto(base + "/focus-thief.html")
    p = Prufe(page)
    shot = p.screenshot()
    # The click lands on Search; the dialog it opens 100 ms later is an effect nobody asked for.
    with pytest.raises(PrufeError):
        p.click_at(*centre(page, "#search", shot))
    page.wait_for_function("document.activeElement && document.activeElement.id === 'nl-email'")
    with pytest.raises(PrufeError) as out:
        p.type("Jaipur Kites")
    assert out.value.code == "FOCUS_LOST" and "Search" in str(out.value) and "Email" in str(out.value), out.value
    assert page.evaluate("Array.from(document.querySelectorAll('input')).map((i) => i.value).join('')") == ""


def test_a_sensitive_text_is_in_no_record_report_or_trace(page: Page, base: str, tmp_path: Path) -> None:
    page.goto(base + "/login.html")
    p = Prufe(page, trace_dir=tmp_path, screenshots="all")
    shot = p.screenshot()
    p.click_at(*centre(page, "#email", shot))
    email = p.type(EMAIL, sensitive=True)
    assert email.verdict == "MATCH" and email.value == "[redacted]", email.explain()
    shot = p.screenshot()
    p.click_at(*centre(page, "#password", shot))
    # A password field makes the text a secret without being told.
    password = p.type(PASSWORD)
    assert password.verdict == "MATCH" and password.value == "[redacted]", password.explain()
    assert page.input_value("#password") == PASSWORD
    # The next screenshot covers the password field and the echoes of the secrets.
    shot = p.screenshot()
    field = page.locator("#password").bounding_box()
    assert field is not None
    assert any(b["x"] <= field["x"] + 2 and b["y"] <= field["y"] + 2 and b["x"] + b["width"] >= field["x"] + field["width"] - 2
               for b in shot.masked), shot.masked
    texts = [json.dumps(r.record) + r.explain() + r.summary() for r in (email, password)]
    texts += [f.read_bytes().decode("latin-1") for f in tmp_path.iterdir()]
    assert len(records(tmp_path)) == 4
    for text in texts:
        assert EMAIL not in text and PASSWORD not in text


def test_a_scroll_at_scrolls_the_container_under_the_pointer_and_a_wait_states_what_follows(page: Page, base: str) -> None:
    page.goto(base + "/scroll-container.html")
    p = Prufe(page)
    shot = p.screenshot()
    scrolled = p.scroll_at(*centre(page, "#scroller", shot), dy=300)
    assert scrolled.ok and scrolled.verdict is None, scrolled.explain()
    assert scrolled.reason == "div#scroller in generic[Rows] scrolled from (0, 0) to (0, 300)", scrolled.reason
    assert page.evaluate("window.scrollY") == 0
    held = p.wait_for({"kind": "appears", "role": "listitem", "name": "Row 20"}, timeout_ms=3000)
    assert held.ok and held.observation is not None and held.observation.id == "obs-3"
    with pytest.raises(VerificationFailed):
        # A row that does nothing when clicked: no effect, and the record says so.
        p.click_at(*centre(page, "#scroller", held.observation))


def test_the_async_api_takes_the_same_steps_and_a_chord_leaves_no_modifier_held(base: str) -> None:
    from playwright.async_api import async_playwright

    from prufe.async_api import Prufe as AsyncPrufe

    async def main() -> None:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
            try:
                page = await browser.new_page()
                await page.goto(base + "/keys.html")
                p = AsyncPrufe(page)
                assert (await p.screenshot()).id == "obs-1"
                key = await p.key("Control+S")
                assert key.ok and key.observation is not None, key.explain()
                assert await page.evaluate("window.keyEvents") == [
                    "keydown Control ctrl=true shift=false alt=false meta=false",
                    "keydown S ctrl=true shift=false alt=false meta=false",
                    "keyup S ctrl=true shift=false alt=false meta=false",
                    "keyup Control ctrl=false shift=false alt=false meta=false",
                ]
                shot = key.observation
                box = await page.locator("#target").bounding_box()
                assert box is not None
                k = shot.width / (shot.capture_width / shot.device_pixel_ratio)
                clicked = await p.click_at((box["x"] + box["width"] / 2) * k, (box["y"] + box["height"] / 2) * k,
                                           observation=shot.id, intent="a click is logged in the event log")
                assert clicked.verdict == "MATCH" and clicked.target == "button[Target] in main", clicked.explain()
                events = await page.evaluate("window.keyEvents")
                assert [e for e in events if e.startswith("click")] == ["click ctrl=false shift=false alt=false meta=false"]
                await page.goto(base + "/login.html")
                shot = await p.screenshot()
                assert shot.id == "obs-4"
                box = await page.locator("#password").bounding_box()
                assert box is not None
                await p.click_at((box["x"] + box["width"] / 2) * k, (box["y"] + box["height"] / 2) * k)
                typed = await p.type(PASSWORD)
                assert typed.value == "[redacted]" and PASSWORD not in json.dumps(typed.record) + typed.explain()
                with pytest.raises(PrufeError) as out:
                    await p.scroll_at(10, 10, dy=100, observation="obs-1")
                assert out.value.code == "STALE_OBSERVATION"
            finally:
                await browser.close()

    run_async(main)
