"""The Python package's shorter quiet window (``quick_ms``), sync and async: the verifier
answers the machine's ``Read::Network`` from the page's request events (``_driver.Requests``).
An honest click on a still page is MATCH through a quick settle (the machine asked about the
requests and none was under way); a click whose effect comes with the response of a slow
request is judged on the page after the response, not on the first change it made."""

from __future__ import annotations

import http.server
import threading
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Iterator

import pytest
from playwright.sync_api import Page

from support import CHROMIUM, CHROMIUM_FLAGS, ROOT, run_async, serve

from prufe import PrufeError
from prufe._driver import Requests
from prufe.sync_api import Prufe

#: How long the server holds the answer to ``/slow``.
SLOW_MS = 400

# Save shows "Saving" at once and the saved number when the response to /slow comes; Like
# changes the page at once and starts nothing.
PAGE = (ROOT / "fixtures" / "slow-save.html").read_bytes()


class _Slow(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/slow":
            # The server's own pace, not the test's: the request is under way this long.
            threading.Event().wait(SLOW_MS / 1000)
            body, kind = b"42", "text/plain"
        else:
            body, kind = PAGE, "text/html; charset=utf-8"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    with serve(_Slow) as url:
        yield url


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every answer the machine's network reads got: ``{inputMsAgo, requests}``."""
    seen: list[dict[str, Any]] = []
    heard = Requests.heard

    def spied(self: Requests) -> dict[str, Any]:
        answer = heard(self)
        seen.append(answer)
        return answer

    monkeypatch.setattr(Requests, "heard", spied)
    return seen


def under_way(answer: dict[str, Any]) -> bool:
    """A read that heard of a request under way since the input."""
    since = answer["inputMsAgo"]
    return since is not None and any("endedMsAgo" not in r and r["heardMsAgo"] <= since for r in answer["requests"])


def test_an_honest_click_on_a_still_page_is_match_through_a_quick_settle(page: Page, origin: str, asked: list[dict[str, Any]]) -> None:
    page.goto(origin + "/")
    p = Prufe(page, quick_ms=50)
    result = p.click(page.get_by_role("button", name="Like"), intent="like the order")
    assert result.verdict == "MATCH", result.explain()
    assert "appeared text 'Liked' in main" in result.lines, result.explain()
    # The settle after the click ended on the shorter window: only then is the network read,
    # and no request was at work.
    assert asked and not any(under_way(a) for a in asked), asked


def test_the_shorter_window_is_the_default_and_zero_turns_it_off(page: Page, origin: str, asked: list[dict[str, Any]]) -> None:
    page.goto(origin + "/")
    # Left out: the machine's default window (50 ms), so the requests are listened to.
    result = Prufe(page).click(page.get_by_role("button", name="Like"), intent="like the order")
    assert result.verdict == "MATCH", result.explain()
    assert asked, "the default settle ended on the shorter window and read the network"
    asked.clear()
    page.goto(origin + "/")
    result = Prufe(page, quick_ms=0).click(page.get_by_role("button", name="Like"), intent="like the order")
    assert result.verdict == "MATCH", result.explain()
    assert not asked, "with 0 the full window is waited: the network is never read"


def test_a_click_whose_effect_comes_with_a_slow_response_is_judged_on_the_page_after_it(page: Page, origin: str,
                                                                                       asked: list[dict[str, Any]]) -> None:
    page.goto(origin + "/")
    # A full window longer than the request: the response comes within it, once the requests
    # say the page is not done.
    p = Prufe(page, quick_ms=50, quiet_ms=2 * SLOW_MS)
    result = p.click(page.get_by_role("button", name="Save"), intent="save the order")
    assert result.verdict == "MATCH", result.explain()
    assert "appeared text 'Saved as order 42' in main" in result.lines, result.explain()
    assert not any("Saving" in line for line in result.lines), result.explain()
    # The shorter window ended on "Saving" while the request was under way.
    assert any(under_way(a) for a in asked), asked


def test_a_click_whose_effect_comes_from_a_timer_it_set_is_judged_on_the_page_after_the_timer(page: Page, origin: str) -> None:
    page.goto(origin + "/")
    p = Prufe(page, quick_ms=50)
    result = p.click(page.get_by_role("button", name="Archive"), intent="archive the order")
    assert result.verdict == "MATCH", result.explain()
    # The page's work watch told the engine its 150 ms timer was still to run: the shorter
    # window did not end on "Archiving".
    assert "appeared text 'Archived' in main" in result.lines, result.explain()
    assert not any("Archiving" in line for line in result.lines), result.explain()


def test_quick_ms_must_be_a_whole_number(page: Page) -> None:
    with pytest.raises(PrufeError) as out:
        Prufe(page, quick_ms=-5)
    assert out.value.code == "INVALID_OPTIONS"


@asynccontextmanager
async def async_page(origin: str) -> AsyncIterator[Any]:
    """An async Playwright page of its own Chromium, at the shop of `origin`."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            page = await browser.new_page()
            await page.goto(origin + "/")
            yield page
        finally:
            await browser.close()


def test_the_async_api_waits_for_the_slow_response_too(origin: str, asked: list[dict[str, Any]]) -> None:
    from prufe.async_api import Prufe as AsyncPrufe

    async def main() -> None:
        async with async_page(origin) as page:
            p = AsyncPrufe(page, quick_ms=50, quiet_ms=2 * SLOW_MS)
            liked = await p.click(page.get_by_role("button", name="Like"), intent="like the order")
            assert liked.verdict == "MATCH", liked.explain()
            assert asked and not any(under_way(a) for a in asked), asked
            saved = await p.click(page.get_by_role("button", name="Save"), intent="save the order")
            assert saved.verdict == "MATCH", saved.explain()
            assert "appeared text 'Saved as order 42' in main" in saved.lines, saved.explain()
            assert any(under_way(a) for a in asked), asked

    run_async(main)


def test_an_async_verifier_made_off_its_page_s_loop_listens_from_the_loop_at_its_first_step(origin: str, asked: list[dict[str, Any]],
                                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from prufe.async_api import Prufe as AsyncPrufe

    # The thread each ledger's listeners were added from.
    added: list[int] = []
    of = Requests.of.__func__  # type: ignore[attr-defined]

    def spied(cls: type[Requests], page: Any) -> Requests:
        added.append(threading.get_ident())
        ledger: Requests = of(cls, page)
        return ledger

    monkeypatch.setattr(Requests, "of", classmethod(spied))

    async def main() -> None:
        async with async_page(origin) as page:
            # Made in another thread than the page's loop: nothing is added to the page there.
            p = await asyncio.get_running_loop().run_in_executor(None, lambda: AsyncPrufe(page, quick_ms=50, quiet_ms=2 * SLOW_MS))
            assert added == [], "no listener is added where the verifier is made"
            saved = await p.click(page.get_by_role("button", name="Save"), intent="save the order")
            assert added == [threading.get_ident()], "added once, on the page's loop"
            assert saved.verdict == "MATCH", saved.explain()
            assert "appeared text 'Saved as order 42' in main" in saved.lines, saved.explain()
            assert any(under_way(a) for a in asked), asked
            liked = await p.click(page.get_by_role("button", name="Like"), intent="like the order")
            assert liked.verdict == "MATCH" and len(added) == 1, (liked.explain(), added)

    run_async(main)


def test_the_ledger_records_what_was_heard_of_since_the_input_for_the_machine_to_count() -> None:
    now = [0.0]
    r = Requests(lambda: now[0] / 1000)
    poll, save, frame = object(), object(), object()

    def at(ms: float) -> None:
        now[0] = ms

    r.started(poll)
    at(1)
    assert r.heard() == {"answer": "network", "inputMsAgo": None, "requests": [{"heardMsAgo": 1.0}]}, "no input yet"
    at(10)
    r.mark()
    at(12)
    r.started(save)
    r.started(save)
    at(13)
    r.started(frame)
    at(50)
    r.ended(save)
    r.ended(poll)
    at(60)
    r.ended(frame)
    r.ended(frame)
    at(70)
    # The long poll heard of before the input is forgotten; each request once, its first end.
    answer = r.heard()
    answer["inputMsAgo"] = round(answer["inputMsAgo"], 6)
    answer["requests"] = [{k: round(v, 6) for k, v in q.items()} for q in answer["requests"]]
    assert answer == {
        "answer": "network",
        "inputMsAgo": 60.0,
        "requests": [{"heardMsAgo": 58.0, "endedMsAgo": 20.0}, {"heardMsAgo": 57.0, "endedMsAgo": 10.0}],
    }
    r.mark()
    assert r.heard()["requests"] == [], "a new input starts over"
