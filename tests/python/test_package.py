"""The prufe package beyond parity, in one Chromium (sync API) and one fixture server: no
secret in any output, ActionPrufe's README examples with only the import changed, the AI
arbiter against a local fake endpoint, traces, strict Locator targets, the pytest plugin."""

from __future__ import annotations

import asyncio
import http.server
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest
from playwright.sync_api import Page

from support import CHROMIUM, CHROMIUM_FLAGS, EMAIL, PASSWORD, ROOT, serve

from prufe import OpenAIJudge, PrufeError, Result, VerificationFailed
from prufe.sync_api import Prufe, Target


SECRETS = [PASSWORD, EMAIL, "4111111111111111"]


def _leaks(text: str) -> list[str]:
    return [s for s in SECRETS if s in text]


def test_no_secret_in_any_result_error_explain_log_or_trace(page: Page, base: str, caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    caplog.set_level(logging.DEBUG, logger="prufe")
    traces = tmp_path / "traces"
    outputs: list[str] = []
    page.goto(base + "/login.html")
    p = Prufe(page, trace_dir=traces)
    results: list[Any] = [
        p.fill(page.get_by_label("Email"), EMAIL, sensitive=True),
        p.fill(page.get_by_label("Password", exact=True), PASSWORD),
        p.check(page.get_by_label("Show password")),
    ]
    assert all(r.verdict == "MATCH" for r in results), [r.reason for r in results]
    assert "[redacted]" in results[1].diff.describe()
    # A page that echoes what is typed everywhere it can, and a failure whose text is built
    # from the page.
    page.goto(base + "/hostile/08-secret-echo.html")
    for field, value in (("Password", PASSWORD), ("Card number", "4111111111111111")):
        try:
            results.append(p.fill(page.get_by_label(field, exact=True), value))
        except PrufeError as error:
            outputs += [str(error), repr(error), error.explain()]
            if error.result is not None:
                results.append(error.result)
    try:
        p.fill(Target("Nowhere", role="textbox"), PASSWORD, sensitive=True)
    except PrufeError as error:
        outputs += [str(error), repr(error), error.explain()]
    for r in results:
        outputs += [repr(r), r.explain(), r.diff.describe(), json.dumps(r.record)]
    outputs += [record.getMessage() for record in caplog.records]
    files = sorted(traces.iterdir())
    assert len([f for f in files if f.suffix == ".json"]) >= 5
    outputs += [f.read_text() for f in files]
    assert caplog.records, "the steps were logged"
    leaked = [(s, o[:200]) for o in outputs for s in _leaks(o)]
    assert leaked == []


def test_the_readme_examples_of_actionprufe_run_with_only_the_import_changed(base: str) -> None:
    # The seed's README, in its own words; only `from actionprufe` became `from prufe.compat`.
    example = f'''
import asyncio, tempfile
from playwright.async_api import async_playwright
from prufe.compat import ActionPrufe, VerificationFailed

async def main(page):
    ap = ActionPrufe(page)
    await page.goto("{base}/es/lista-reciclada.html")
    boton = page.get_by_role("button", name="Anadir Camiseta M")
    print("Pido:      pulsar «Anadir Camiseta M»")
    try:
        await ap.click(page.get_by_role("button", name="Anadir Camiseta M"))
    except VerificationFailed as error:
        print("Resultado: VerificationFailed")
        print(error.explain())
    try:
        await ap.click(boton, intent="el carrito suma una camiseta talla M")
    except VerificationFailed as error:
        print(error.explain())
    carrito = await page.locator("#cart-items li").all_inner_texts()
    print("Carrito:  ", carrito)
    async with ap.watch("el carrito suma una camiseta Camiseta M") as visto:
        await page.get_by_role("button", name="Anadir Camiseta M").click()
    if not visto.ok:
        print(visto.explain())
    await page.goto("{base}/login.html")
    result = await ap.fill(page.get_by_label("Password", exact=True), "clave-secreta")
    print(result.diff.describe())

async def run():
    async with async_playwright() as pw:
        context = await pw.chromium.launch_persistent_context(tempfile.mkdtemp(), executable_path={CHROMIUM!r}, args={CHROMIUM_FLAGS!r}, headless=True)
        page = await context.new_page()
        await main(page)
        await context.close()

asyncio.run(run())
'''
    out = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Resultado: VerificationFailed" in text
    assert "Accion:    click sobre button[Anadir Camiseta M] en lista" in text
    assert "Intencion: (no declarada)" in text
    assert "Veredicto: MISMATCH — el efecto corresponde a button[Anadir Pantalon L] en lista, no al objetivo" in text
    assert "Intencion: el carrito suma una camiseta talla M" in text
    assert "Intentos:  2" in text
    assert "Observado:\n  aparecio listitem[Pantalon L Quitar Pantalon L] en carrito" in text
    assert "Carrito:   []" in text
    assert "Accion:    watch sobre objetivo desconocido\nIntencion: el carrito suma una camiseta Camiseta M\nVeredicto: MISMATCH" in text
    assert "cambio textbox[Password] en form[Login]: valor '' -> '[redactado]'" in text
    assert "clave-secreta" not in text


class _FakeChat(http.server.BaseHTTPRequestHandler):
    answers: list[str] = []
    seen: list[dict[str, Any]] = []

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        type(self).seen.append(body)
        answer = type(self).answers.pop(0) if type(self).answers else "NO"
        if answer == "SLOW":
            threading.Event().wait(2)
            answer = "YES"
        data = json.dumps({"choices": [{"message": {"role": "assistant", "content": answer}}]}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except BrokenPipeError:
            pass  # the client gave up waiting, as it should


@pytest.fixture(scope="module")
def chat() -> Iterator[str]:
    with serve(_FakeChat) as origin:
        yield origin + "/v1/chat/completions"


def test_the_arbiter_is_asked_only_for_ambiguous_effects_and_only_a_clean_yes_approves(page: Page, base: str, chat: str) -> None:
    _FakeChat.seen.clear()
    # "Confirm delete" without an intent is AMBIGUOUS: the endpoint decides.
    _FakeChat.answers[:] = ["YES"]
    page.goto(base + "/confirm-dialog.html")
    judge = OpenAIJudge(chat, api_key="k-123", model="m-1")
    asked: list[dict[str, Any]] = []

    class Recorded:
        async def decide(self, question: dict[str, Any]) -> bytes:
            asked.append(question)
            return await judge.judge(question)

    p = Prufe(page, ai_judge=Recorded())
    p.click(page.get_by_role("button", name="Delete account"))
    assert _FakeChat.seen == [], "a MATCH never reaches the arbiter"
    confirmed = p.click(page.get_by_role("button", name="Confirm delete"))
    assert confirmed.verdict == "AMBIGUOUS" and confirmed.ok and confirmed.arbiter == "YES"
    assert len(_FakeChat.seen) == 1
    prompt = _FakeChat.seen[0]["messages"][1]["content"]
    assert "UNTRUSTED JSON" in prompt and "Confirm delete" in prompt
    # The request is the machine's (the question's ``chat``), the judge's model added.
    assert _FakeChat.seen[0] == {"model": "m-1", **asked[0]["chat"]} == judge.request_body(asked[0])
    assert _FakeChat.seen[0]["max_tokens"] == 3 and _FakeChat.seen[0]["messages"][0]["role"] == "system"
    # A proven MISMATCH never reaches it.
    page.goto(base + "/recycled-list.html")
    with pytest.raises(VerificationFailed):
        p.click(page.get_by_role("button", name="Add Shirt M"))
    assert len(_FakeChat.seen) == 1
    # "Probably", a slow answer, an arbiter that fails: all NO.
    for answer, judge in (("Probably yes", OpenAIJudge(chat)), ("SLOW", OpenAIJudge(chat, timeout=0.5))):
        _FakeChat.answers[:] = [answer]
        page.goto(base + "/confirm-dialog.html")
        q = Prufe(page, ai_judge=judge)
        q.click(page.get_by_role("button", name="Delete account"))
        with pytest.raises(PrufeError) as failed:
            q.click(page.get_by_role("button", name="Confirm delete"))
        assert failed.value.code == "IRREVERSIBLE_ACTION"
        assert failed.value.result is not None and (failed.value.result.arbiter or "").startswith("NO")

    class Broken:
        async def decide(self, question: dict[str, Any]) -> bool:
            raise RuntimeError("down")

    from prufe.arbiter import answer

    from concurrent.futures import ThreadPoolExecutor

    # Sync Playwright holds this thread's event loop: the arbiter check runs on another. An
    # arbiter that fails answers the machine its failure, which the machine words as no.
    with ThreadPoolExecutor(1) as pool:
        failed = pool.submit(asyncio.run, answer(Broken(), {}, 10_000, 4096)).result()
        assert failed == {"answer": "failed", "error": {"code": "BROWSER_ERROR", "message": "RuntimeError"}}
    assert "k-123" not in repr(OpenAIJudge(chat, api_key="k-123"))


def test_a_locator_is_resolved_strictly(page: Page, base: str) -> None:
    page.goto(base + "/shop.html")
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<button hidden>Hidden offer</button>')")
    p = Prufe(page)
    for locator, code in (
        (page.get_by_role("button", name="Add"), "TARGET_AMBIGUOUS"),
        (page.get_by_role("button", name="No such button"), "TARGET_NOT_FOUND"),
        (page.get_by_role("button", name="Hidden offer", include_hidden=True), "TARGET_NOT_VISIBLE"),
    ):
        with pytest.raises(PrufeError) as failed:
            p.click(locator)
        assert failed.value.code == code, str(failed.value)
    # Several: the machine's words, with what can be named of them, as in Node.
    with pytest.raises(PrufeError) as several:
        p.click(page.get_by_role("button", name="Add"))
    assert "elements; narrow it down so that it matches one; nothing was done" in several.value.message, str(several.value)
    assert several.value.candidates and all(c["role"] == "button" and c["name"].startswith("Add") for c in several.value.candidates), several.value.candidates
    # A hidden drag destination (a zone shown once a drag starts) is named by its record and
    # the step runs: here the zone never shows, and the machine says so in its own words.
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<section id=\"zone\" aria-label=\"Drop zone\" style=\"visibility:hidden\">Drop here</section>')")
    with pytest.raises(PrufeError) as hidden:
        p.click(page.locator("#zone"))
    assert hidden.value.code == "TARGET_NOT_VISIBLE" and "is hidden (region[Drop zone]" in str(hidden.value), str(hidden.value)
    with pytest.raises(PrufeError) as dropped:
        p.drag_to(page.get_by_role("button", name="Add Socks S"), page.locator("#zone"))
    assert dropped.value.code == "TARGET_NOT_VISIBLE" and dropped.value.message.startswith("no visible element matches region[Drop zone]"), str(dropped.value)
    # A target the machine finds twice: the error carries the step's record, and its report is
    # the machine's, as the CLI and Node print it: the error and the candidates.
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<button>Twin</button><button>Twin</button>')")
    with pytest.raises(PrufeError) as twins:
        p.click(Target("Twin", role="button"))
    assert twins.value.code == "TARGET_AMBIGUOUS", str(twins.value)
    report = twins.value.explain()
    assert "Error:     " in report and "  candidate " in report, report
    assert page.locator("#cart-items li").count() == 0, "nothing was clicked"
    # A prufe target works as well as a Locator.
    done = p.click(Target("Add Socks S", role="button"))
    assert done.verdict == "MATCH" and isinstance(done, Result)


def test_traces_are_the_files_the_cli_writes(page: Page, base: str, tmp_path: Path) -> None:
    page.goto(base + "/recycled-list.html")
    p = Prufe(page, trace_dir=tmp_path)
    with pytest.raises(VerificationFailed):
        p.click(page.get_by_role("button", name="Add Shirt M"))
    page.goto(base + "/shop.html")
    p.click(page.get_by_role("button", name="Add Shirt M"))
    names = sorted(f.name for f in tmp_path.iterdir())
    # The failed step keeps its pictures (screenshots="failures", the default), the passed one none.
    assert names == ["0001-click-mismatch.after.jpg", "0001-click-mismatch.before.jpg", "0001-click-mismatch.json", "0002-click-match.json", "traces.js"]
    record = json.loads((tmp_path / "0001-click-mismatch.json").read_text())
    assert set(record) >= {"step", "action", "target", "intent", "verdict", "ok", "error", "reason", "attempts", "undone", "diff", "durationMs", "startedAt"}
    assert record["error"] == "VERIFICATION_FAILED" and record["undone"] == 2
    assert (tmp_path / "traces.js").read_text().count('"name": "000') == 2


def test_the_pytest_plugin_gives_a_prufe_fixture(tmp_path: Path, base: str) -> None:
    (tmp_path / "test_shop.py").write_text(f'''
import tempfile
import pytest
from playwright.sync_api import sync_playwright

@pytest.fixture
def page():
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(tempfile.mkdtemp(), executable_path={CHROMIUM!r}, args={CHROMIUM_FLAGS!r}, headless=True)
        yield context.new_page()
        context.close()

@pytest.mark.prufe(quiet_ms=200)
def test_add(prufe, page):
    page.goto("{base}/shop.html")
    assert prufe.click(page.get_by_role("button", name="Add Shirt M")).verdict == "MATCH"
''')
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python" / "src")}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)], capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 passed" in out.stdout


def test_without_a_devtools_session_the_engine_runs_in_the_page_world_and_says_so(page: Page, base: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import prufe.sync_api

    # Firefox and WebKit have no CDP session: the fallback, forced here on Chromium.
    monkeypatch.setattr(prufe.sync_api, "_is_chromium", lambda page: False)
    page.goto(base + "/recycled-list.html")
    with pytest.warns(RuntimeWarning, match="page's own world"):
        p = Prufe(page)
    with pytest.raises(VerificationFailed) as failed:
        p.click(page.get_by_role("button", name="Add Shirt M"))
    assert failed.value.result is not None and failed.value.result.undone == 2
    assert page.locator("#cart-items li").count() == 0
    page.goto(base + "/shop.html")
    assert p.upload(page.get_by_label("Receipt"), __file__).verdict == "MATCH"


def test_every_action_of_the_shop_is_verified(page: Page, base: str) -> None:
    page.goto(base + "/shop.html")
    p = Prufe(page)
    steps = [
        p.check(page.get_by_label("Gift wrap")),
        p.uncheck(page.get_by_label("Gift wrap")),
        p.select_option(page.get_by_label("Shipping"), "Express"),
        p.fill(page.get_by_label("Name"), "Ada"),
        p.press(page.get_by_label("Name"), "Tab"),
        p.goto(base + "/late-effect.html"),
    ]
    assert [r.verdict for r in steps] == ["MATCH"] * len(steps), [r.reason for r in steps]
    assert page.url.endswith("/late-effect.html")


def test_a_press_on_a_field_without_the_focus_focuses_it_first(page: Page, base: str) -> None:
    page.goto(base + "/real/keys-widgets.html")
    p = Prufe(page)
    for _ in range(2):
        r = p.press(page.get_by_label("First name"), "Tab")
        assert r.verdict == "MATCH", r.reason
        assert "focus moved to textbox[Last name]" in r.reason
        assert page.evaluate("() => document.activeElement.id") == "last"


def test_a_press_that_moves_a_row_the_wrong_way_is_undone_by_its_declared_inverse(page: Page, base: str) -> None:
    page.goto(base + "/reorder-refused.html")
    p = Prufe(page)
    olwen = Target("Olwen", role="listitem")
    in_order = ["Aled", "Bryn", "Carys", "Olwen", "Rhys"]
    speakers = "() => [...document.querySelectorAll('#speakers > li')].map((li) => li.textContent)"
    up = {"action": {"kind": "press", "key": "Alt+ArrowUp", "target": {"role": "listitem", "name": "Olwen"}}}
    # An unknown key in the inverse is refused before anything is sent.
    with pytest.raises(PrufeError) as refused:
        p.press(olwen, "Alt+ArrowDown", intent="Olwen moves up one place",
                inverse=[{"action": {**up["action"], "key": "Alt+Upward"}}])
    assert refused.value.code == "INVALID_ACTION", refused.value
    assert "inverse[0]: unknown key" in str(refused.value), refused.value
    assert page.evaluate(speakers) == in_order
    # The key moves the row down, the intent says up: refused, taken back by the declared key.
    with pytest.raises(VerificationFailed) as wrong:
        p.press(olwen, "Alt+ArrowDown", intent="Olwen moves up one place", inverse=[up])
    result = wrong.value.result
    assert result is not None and result.verdict == "MISMATCH", wrong.value
    assert result.record["undone"] >= 1 and result.record["undone"] == result.record["attempts"], result.record
    assert page.evaluate(speakers) == in_order


def test_a_native_dialog_is_dismissed_and_recorded_as_every_surface_words_it(page: Page, base: str) -> None:
    page.goto(base + "/hostile/20-native-dialogs.html")
    p = Prufe(page)
    saved = p.click(Target("Save", role="button"), intent="saved")
    assert saved.verdict == "MATCH", saved.reason
    assert saved.dialogs == ['alert "Saved!" dismissed']
    assert 'Dialog:    alert "Saved!" dismissed' in saved.explain()
    # A caller that listens for dialogs answers them; the record says how.
    page.on("dialog", lambda dialog: dialog.accept())
    deleted = p.click(Target("Delete item", role="button"), intent="the item is deleted")
    assert deleted.verdict == "MATCH", deleted.reason
    assert deleted.dialogs == ['confirm "Delete item?" accepted']
    # Each step lists its own dialogs only.
    page.evaluate("document.getElementById('status').textContent = ''")
    assert p.click(Target("Save", role="button"), intent="saved").dialogs == ['alert "Saved!" accepted']


def test_the_defaults_left_out_are_the_machines(page: Page, base: str) -> None:
    from prufe._driver import Config

    page.goto(base + "/shop.html")
    p = Prufe(page)
    assert Config("reject", None, None, None).policy() == {"ambiguous": "reject", "timing": {}}
    assert Config("reject", 0, 300, 900).policy() == {"ambiguous": "reject", "maxAttempts": 1, "timing": {"quietMs": 300, "timeoutMs": 900}}
    assert p.click(Target("Add Shirt M", role="button")).ok
    # The documented defaults (docs/python.md) are what the machine says.
    defaults = p._core.driver.world.defaults
    assert defaults is not None
    assert (defaults["maxAttempts"], defaults["timing"]["quietMs"], defaults["timing"]["timeoutMs"]) == (2, 250, 5000)
    assert p._core.driver.world.timeout_ms == 5000
    assert Prufe(page, timeout_ms=1234)._core.driver.world.timeout_ms == 1234


def test_a_look_learns_what_a_live_page_changes_by_itself_and_a_wait_holds_or_times_out(page: Page, base: str) -> None:
    page.goto(base + "/real/live-shop.html")
    p = Prufe(page)
    look = p.look()
    assert (look.action, look.verdict, look.ok) == ("look", None, True)
    assert look.record.get("background"), look.record
    added = p.click(Target("Add Shirt M", role="button"))
    assert added.verdict == "MATCH", added.reason
    page.goto(base + "/real/text-noise.html?noise=ticker")
    page.get_by_role("button", name="Save").click()
    held = p.wait_for({"kind": "textAppears", "text": "Saved"})
    assert (held.action, held.ok) == ("wait", True)
    with pytest.raises(PrufeError) as timed_out:
        p.wait_for({"kind": "textAppears", "text": "Never shown"}, timeout_ms=600)
    assert timed_out.value.code == "POSTCONDITION_TIMEOUT"
    with pytest.raises(PrufeError) as bad:
        p.wait_for({"kind": "teleported"})
    assert bad.value.code == "INVALID_ARGUMENT"
