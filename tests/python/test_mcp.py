"""`prufe mcp` driven by the official Python MCP SDK, as an agent's client would, without a model.

Over stdio and over streamable HTTP: the tool list and its schemas; a verified click by ref on
the fixture shop (MATCH, the cart line in the answer); the recycling list (MISMATCH naming the
neighbour, undone, the cart empty); a ref from before a navigation, or whose element the page
no longer shows (STALE_REFERENCE); a confirm() accepted when told beforehand; a secret
typed from the secrets file, searched for in every answer, the server's log and its traces;
a key pressed on a ref's element, a key chord and a wheel turned at a point (`--caps vision`),
a reorder from the keyboard or by a drop taken back by its `inverseKey` (one key, or two for
a drop two places off),
waits for a text and for an element; malformed calls (JSON-RPC errors, and the server keeps
serving).

Needs the `prufe` binary (built here with cargo) and the engine bundle (`make bundle`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import http.server
import json
import os
import re
import signal
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
BUNDLE = Path(os.environ.get("PRUFE_BUNDLE", ROOT / "js" / "dist" / "prufe.js")).resolve()
# The binary under test: PRUFE_BIN, else PRUFE_CLI (what `make test` builds and gives every
# driver suite), else built here.
GIVEN_BINARY = os.environ.get("PRUFE_BIN") or os.environ.get("PRUFE_CLI")
PRUFE = Path(GIVEN_BINARY or ROOT / "target" / "debug" / "prufe")

SECRET = "Tr0ub4dor&3-horse-battery"
EXPECTED_TOOLS = {
    "browser_navigate",
    "browser_navigate_back",
    "browser_snapshot",
    "browser_click",
    "browser_type",
    "browser_fill_form",
    "browser_select_option",
    "browser_hover",
    "browser_drag",
    "browser_press_key",
    "browser_file_upload",
    "browser_wait_for",
    "browser_handle_dialog",
    "browser_take_screenshot",
    "browser_tabs",
    "browser_close",
    "browser_watch",
}
VISION_TOOLS = {"browser_mouse_click_xy", "browser_mouse_drag_xy", "browser_mouse_wheel_xy", "browser_keyboard_press"}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


@contextlib.contextmanager
def fixture_server():
    handler = functools.partial(_Quiet, directory=str(FIXTURES))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


_built = False


def prufe_binary() -> Path:
    """Builds `prufe` once per run (a no-op when cargo finds it fresh)."""
    global _built
    assert BUNDLE.is_file(), f"{BUNDLE} is missing: run `make bundle` first"
    if not _built and not GIVEN_BINARY:
        subprocess.run(
            ["cargo", "build", "-q", "-p", "prufe-harness", "--bin", "prufe"], cwd=ROOT, check=True
        )
        _built = True
    assert PRUFE.is_file(), f"{PRUFE} is missing"
    return PRUFE


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


def wire(result) -> str:
    """The whole answer as it travels, for size and secret checks."""
    return json.dumps(result.model_dump(mode="json", by_alias=True, exclude_none=True), ensure_ascii=False)


def observation_of(screenshot) -> int:
    """The number of a `browser_take_screenshot` answer's observation (`obs-N`)."""
    m = re.search(r"Screenshot obs-(\d+) ", text_of(screenshot))
    assert m, text_of(screenshot)
    return int(m.group(1))


def ref_of(snapshot: str, role: str, name: str) -> str:
    m = re.search(rf'- {role} "{re.escape(name)}"[^\n]*\[ref=(e\d+)\]', snapshot)
    assert m, f"no {role} {name!r} with a ref in:\n{snapshot}"
    return m.group(1)


def section(snapshot: str, header: str) -> list[str]:
    """The lines under `- header:` (deeper than it), until the next line at its depth."""
    lines = snapshot.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == f"- {header}:":
            depth = len(line) - len(line.lstrip())
            out = []
            for after in lines[i + 1 :]:
                if len(after) - len(after.lstrip()) <= depth:
                    break
                out.append(after.strip())
            return out
    return []


class Transcript:
    """Every answer of a session, for the secret search."""

    def __init__(self, client: Client):
        self.client = client
        self.answers: list[str] = []

    async def call(self, name: str, arguments: dict | None = None):
        result = await self.client.call_tool(name, arguments or {})
        self.answers.append(wire(result))
        return result


async def check_tools(client: Client, vision: bool) -> None:
    listed = await client.list_tools()
    tools = {t.name: t for t in listed.tools}
    assert EXPECTED_TOOLS <= set(tools), set(tools) ^ EXPECTED_TOOLS
    assert (VISION_TOOLS <= set(tools)) == vision
    for tool in tools.values():
        assert tool.input_schema["type"] == "object", tool.name
        assert tool.annotations is not None and tool.annotations.read_only_hint is not None, tool.name
    click = tools["browser_click"].input_schema["properties"]
    for key in ("target", "ref", "element", "intent", "snapshot"):
        assert key in click, f"browser_click lacks {key}"
    assert "url" in tools["browser_navigate"].input_schema["required"]
    assert set(tools["browser_type"].input_schema["required"]) == {"text"}
    assert tools["browser_snapshot"].annotations.read_only_hint is True
    assert tools["browser_click"].annotations.read_only_hint is False
    assert tools["browser_click"].annotations.destructive_hint is True
    assert "intent" in tools["browser_type"].input_schema["properties"]


async def shop_click_matches(t: Transcript, base: str) -> dict:
    nav = await t.call("browser_navigate", {"url": f"{base}/shop.html"})
    assert not nav.is_error, text_of(nav)
    snap = await t.call("browser_snapshot")
    tree = text_of(snap)
    assert tree.startswith(f"Page: {base}/shop.html"), tree[:200]
    ref = ref_of(tree, "button", "Add Shirt M")
    click = await t.call("browser_click", {"element": "Add Shirt M button", "target": ref})
    text = text_of(click)
    assert not click.is_error, text
    assert click.structured_content["verdict"] == "MATCH", text
    assert click.structured_content["attempts"] == 1
    assert any("Shirt M" in line and "cart" in line for line in click.structured_content["changes"]), text
    assert text.startswith("MATCH: click on button[Add Shirt M]"), text
    assert "Page snapshot" not in text
    return {"click": len(wire(click)), "snapshot": len(wire(snap)), "click_text": len(text)}


async def gone_identity_is_stale(t: Transcript) -> None:
    """A ref of this document whose element the page no longer shows is refused, not clicked."""
    tree = text_of(await t.call("browser_snapshot"))
    remove = ref_of(tree, "button", "Remove Shirt M")
    removed = await t.call("browser_click", {"target": remove})
    assert removed.structured_content["verdict"] == "MATCH", text_of(removed)
    again = await t.call("browser_click", {"target": remove})
    error = again.structured_content["error"]
    assert error["code"] == "STALE_REFERENCE", error
    assert "no longer shows" in error["message"] and "browser_snapshot" in error["message"], error


async def recycled_click_is_undone(t: Transcript, base: str) -> str:
    await t.call("browser_navigate", {"url": f"{base}/recycled-list.html"})
    tree = text_of(await t.call("browser_snapshot"))
    ref = ref_of(tree, "button", "Add Shirt M")
    click = await t.call("browser_click", {"ref": ref, "intent": "the cart gains a Shirt M"})
    text = text_of(click)
    s = click.structured_content
    assert click.is_error, text
    assert s["verdict"] == "MISMATCH", text
    assert s["error"]["code"] == "VERIFICATION_FAILED", text
    assert "Trousers L" in s["reason"], text
    assert s["undone"] >= 1 and s["undone"] == s["attempts"], text
    assert "undone, the page is back as before the action" in text, text
    after = text_of(await t.call("browser_snapshot"))
    cart = section(after, "cart")
    assert not any(line.startswith("- listitem") for line in cart), after
    assert "Total: 0.00 €" in after, after
    return ref


async def stale_ref_is_refused(t: Transcript, base: str, old_ref: str) -> None:
    await t.call("browser_navigate", {"url": f"{base}/shop.html"})
    click = await t.call("browser_click", {"ref": old_ref})
    assert click.is_error, text_of(click)
    error = click.structured_content["error"]
    assert error["code"] == "STALE_REFERENCE", error
    assert "browser_snapshot" in error["message"], error
    assert "verdict" not in click.structured_content
    # Nothing was clicked: the shop's cart is still empty.
    tree = text_of(await t.call("browser_snapshot"))
    assert not any(line.startswith("- listitem") for line in section(tree, "cart")), tree


async def secret_is_typed_and_never_shown(t: Transcript, base: str) -> None:
    await t.call("browser_navigate", {"url": f"{base}/login.html"})
    tree = text_of(await t.call("browser_snapshot"))
    typed = await t.call(
        "browser_type",
        {"ref": ref_of(tree, "textbox", "Password"), "text": "${SHOP_PASSWORD}", "intent": "the password is entered"},
    )
    assert not typed.is_error, text_of(typed)
    assert typed.structured_content["verdict"] == "MATCH", text_of(typed)
    # The page echoes the password into visible text once asked to show it.
    shown = await t.call("browser_click", {"ref": ref_of(tree, "checkbox", "Show password"), "snapshot": True})
    assert "[redacted]" in text_of(shown), text_of(shown)
    missing = await t.call("browser_type", {"ref": ref_of(tree, "textbox", "Email"), "text": "${NOPE}"})
    assert missing.is_error and "SHOP_PASSWORD" in text_of(missing), text_of(missing)


async def wait_for_holds_or_times_out(t: Transcript, base: str) -> None:
    await t.call("browser_navigate", {"url": f"{base}/real/text-feedback.html?kind=saved&lang=en"})
    tree = text_of(await t.call("browser_snapshot"))
    saved = await t.call("browser_click", {"ref": ref_of(tree, "button", "Save"), "intent": "the nickname is saved"})
    assert not saved.is_error, text_of(saved)
    held = await t.call("browser_wait_for", {"text": "Saved"})
    assert not held.is_error and "text 'Saved' appears" in text_of(held), text_of(held)
    gone = await t.call("browser_wait_for", {"textGone": "Connection lost"})
    assert not gone.is_error and "is gone" in text_of(gone), text_of(gone)
    late = await t.call("browser_wait_for", {"text": "Connection lost", "time": 0.6})
    assert late.is_error, text_of(late)
    error = late.structured_content["error"]
    assert error["code"] == "POSTCONDITION_TIMEOUT", error
    assert "did not hold within 600 ms" in error["message"], error


async def watch_judges_the_steps_together(t: Transcript, base: str) -> None:
    """browser_watch sends a script's steps unverified and judges their one effect, as
    `prufe run`'s watch does: MATCH when it bears the intent out, MISMATCH and not undone when
    it does not; a malformed step is INVALID_SCRIPT and nothing is sent."""
    add_cap = {"action": "click", "target": {"role": "button", "name": "Add Cap"}}
    await t.call("browser_navigate", {"url": f"{base}/shop.html"})
    held = await t.call("browser_watch", {"intent": "the cart gains a cap", "steps": [add_cap]})
    assert held.structured_content["verdict"] == "MATCH", text_of(held)
    assert "1 step performed unverified" in text_of(held), text_of(held)
    await t.call("browser_navigate", {"url": f"{base}/recycled-list.html"})
    shirt = {"action": "click", "target": {"role": "button", "name": "Add Shirt M"}}
    wrong = await t.call("browser_watch", {"intent": "the cart gains a Shirt M", "steps": [shirt]})
    assert wrong.structured_content["verdict"] == "MISMATCH", text_of(wrong)
    assert wrong.structured_content.get("undone") is not True, wrong.structured_content
    tree = text_of(await t.call("browser_snapshot"))
    bad = await t.call("browser_watch", {"intent": "x", "steps": [{"action": "click", "target": {"role": "button"}}]})
    assert bad.structured_content["error"]["code"] == "INVALID_SCRIPT", text_of(bad)
    assert "steps[0]" in bad.structured_content["error"]["message"], text_of(bad)
    assert text_of(await t.call("browser_snapshot")) == tree, "a refused watch sent nothing"


async def keys_wheel_and_element_waits(t: Transcript, base: str) -> None:
    """A key pressed on an element (verified), a chord sent to the focus and a wheel turned at
    a point (recorded, not judged), and a wait for an element by role and name."""
    await t.call("browser_navigate", {"url": f"{base}/keys.html"})
    tree = text_of(await t.call("browser_snapshot"))
    field = ref_of(tree, "textbox", "Text")
    typed = await t.call("browser_type", {"target": field, "text": "hello"})
    assert typed.structured_content["verdict"] == "MATCH", text_of(typed)
    # The chord goes to the focus (the field) and moves it on to the button.
    chord = await t.call("browser_keyboard_press", {"key": "Tab"})
    assert not chord.is_error and "verdict" not in chord.structured_content, text_of(chord)
    assert "Reason: sent; every key released in reverse order; the focus is on button[Target]" in text_of(chord), text_of(chord)
    # The press on the field's ref lands on the field, not on the focused button: the next Tab
    # leaves the field for the button again.
    logged = {"role": "listitem", "name": "keydown Enter ctrl=false shift=false alt=false meta=false"}
    pressed = await t.call(
        "browser_press_key", {"key": "Enter", "target": field, "expect": [{"kind": "appears", "target": logged}]}
    )
    assert pressed.structured_content["verdict"] == "MATCH", text_of(pressed)
    assert text_of(pressed).startswith("MATCH: press on textbox[Text] in main with 'Enter'"), text_of(pressed)
    again = await t.call("browser_keyboard_press", {"key": "Tab"})
    assert "the focus is on button[Target]" in text_of(again), text_of(again)
    unknown = await t.call("browser_keyboard_press", {"key": "Hyper+Q"})
    assert unknown.structured_content["error"]["code"] == "INVALID_ACTION", text_of(unknown)

    await t.call("browser_navigate", {"url": f"{base}/scroll-container.html"})
    unseen = await t.call("browser_mouse_wheel_xy", {"x": 185, "y": 285, "deltaY": 300})
    assert unseen.structured_content["error"]["code"] == "STALE_OBSERVATION", text_of(unseen)
    first = observation_of(await t.call("browser_take_screenshot"))
    wheel = await t.call("browser_mouse_wheel_xy", {"x": 185, "y": 285, "deltaY": 300})
    assert not wheel.is_error, text_of(wheel)
    assert "div#scroller in generic[Rows] scrolled from (0, 0) to (0, 300)" in text_of(wheel), text_of(wheel)
    row = await t.call("browser_wait_for", {"role": "listitem", "name": "Row 20", "time": 3})
    assert not row.is_error and "listitem[Row 20] appears" in text_of(row), text_of(row)
    never = await t.call("browser_wait_for", {"role": "status", "name": "Nothing here", "time": 0.3})
    assert never.structured_content["error"]["code"] == "POSTCONDITION_TIMEOUT", text_of(never)
    nameless = await t.call("browser_wait_for", {"role": "listitem"})
    assert nameless.structured_content["error"]["code"] == "INVALID_ACTION", text_of(nameless)
    # A wait answers in words, with no picture; the ids go on as a script's (the wheel's step
    # and each wait pass one on), so records quote the same ids on every surface.
    assert all(getattr(block, "type", "") == "text" for answer in (row, never) for block in answer.content)
    after = observation_of(await t.call("browser_take_screenshot"))
    assert after == first + 4, (first, after)


def speakers(snapshot: str) -> list[str]:
    """The running order of `reorder-refused.html`, as a snapshot lists it."""
    return re.findall(r'- listitem "([^"]+)"', snapshot)


async def reorder_is_taken_back_by_its_inverse_key(t: Transcript, base: str) -> None:
    """A key that moves a row the other way from the intent, and a drop that only reorders,
    are undone by their `inverseKey`; without one the press stops IRREVERSIBLE_ACTION, and an
    unknown inverse key is refused before anything is sent."""
    await t.call("browser_navigate", {"url": f"{base}/reorder-refused.html"})
    tree = text_of(await t.call("browser_snapshot"))
    in_order = ["Aled", "Bryn", "Carys", "Olwen", "Rhys"]
    assert speakers(tree) == in_order, tree
    olwen = ref_of(tree, "listitem", "Olwen")
    carys = ref_of(tree, "listitem", "Carys")
    down = {"key": "Alt+ArrowDown", "target": olwen, "intent": "Olwen moves up one place"}
    unknown = await t.call("browser_press_key", {**down, "inverseKey": "Alt+Upward"})
    assert unknown.structured_content["error"]["code"] == "INVALID_ACTION", text_of(unknown)
    assert "inverse[0]: unknown key" in unknown.structured_content["error"]["message"], text_of(unknown)
    assert speakers(text_of(await t.call("browser_snapshot"))) == in_order, "a refused press sent nothing"
    pressed = await t.call("browser_press_key", {**down, "inverseKey": "Alt+ArrowUp"})
    s = pressed.structured_content
    assert s["verdict"] == "MISMATCH" and s["error"]["code"] == "VERIFICATION_FAILED", text_of(pressed)
    assert s["undone"] >= 1 and s["undone"] == s["attempts"], text_of(pressed)
    assert "undone, the page is back as before the action" in text_of(pressed), text_of(pressed)
    assert speakers(text_of(await t.call("browser_snapshot"))) == in_order
    drop = {"startTarget": olwen, "endTarget": carys, "intent": "the order is saved", "inverseKey": "Alt+ArrowDown"}
    dropped = await t.call("browser_drag", drop)
    assert dropped.structured_content["error"]["code"] == "VERIFICATION_FAILED", text_of(dropped)
    assert dropped.structured_content["undone"] >= 1, text_of(dropped)
    assert speakers(text_of(await t.call("browser_snapshot"))) == in_order
    # A drop two places off is taken back by two keys, pressed in order on the dragged row.
    bryn = ref_of(tree, "listitem", "Bryn")
    two_off = {"startTarget": olwen, "endTarget": bryn, "intent": "the order is saved", "inverseKey": ["Alt+ArrowDown", "Alt+ArrowDown"]}
    dropped = await t.call("browser_drag", two_off)
    assert dropped.structured_content["error"]["code"] == "VERIFICATION_FAILED", text_of(dropped)
    assert dropped.structured_content["undone"] >= 1, text_of(dropped)
    assert "undone, the page is back as before the action" in text_of(dropped), text_of(dropped)
    assert speakers(text_of(await t.call("browser_snapshot"))) == in_order
    stopped = await t.call("browser_press_key", down)
    assert stopped.structured_content["error"]["code"] == "IRREVERSIBLE_ACTION", text_of(stopped)
    assert speakers(text_of(await t.call("browser_snapshot"))) == ["Aled", "Bryn", "Carys", "Rhys", "Olwen"]


async def back_is_verified(t: Transcript, base: str) -> None:
    await t.call("browser_navigate", {"url": f"{base}/shop.html"})
    await t.call("browser_navigate", {"url": f"{base}/login.html"})
    back = await t.call("browser_navigate_back")
    text = text_of(back)
    assert not back.is_error, text
    assert back.structured_content["verdict"] == "MATCH", text
    assert "shop.html" in text, text
    tree = text_of(await t.call("browser_snapshot"))
    assert "Add Shirt M" in tree, tree


async def malformed_calls_are_rpc_errors(t: Transcript) -> None:
    for name, arguments, words in [
        ("browser_fly", {}, "unknown tool"),
        ("browser_navigate", {}, "url"),
        ("browser_click", {"ref": 5}, "invalid type"),
        ("browser_drag", {"startRef": "e1", "endRef": "e2", "inverseKey": []}, "empty list of keys"),
        ("browser_type", {"ref": "e1", "text": "x" * (10 * 1024 * 1024)}, "characters"),
    ]:
        try:
            result = await t.client.call_tool(name, arguments)
        except MCPError as e:
            assert words in str(e), f"{name}: {e}"
        else:
            raise AssertionError(f"{name} answered {text_of(result)[:200]}")
    # Still serving.
    tabs = await t.call("browser_tabs", {"action": "list"})
    assert not tabs.is_error and "(current)" in text_of(tabs), text_of(tabs)


async def dialog_is_accepted_when_told(t: Transcript, base: str) -> None:
    await t.call("browser_navigate", {"url": f"{base}/hostile/20-native-dialogs.html"})
    tree = text_of(await t.call("browser_snapshot"))
    armed = await t.call("browser_handle_dialog", {"accept": True})
    assert not armed.is_error, text_of(armed)
    deleted = await t.call(
        "browser_click", {"ref": ref_of(tree, "button", "Delete item"), "intent": "the item is deleted"}
    )
    text = text_of(deleted)
    assert deleted.structured_content["verdict"] == "MATCH", text
    assert any("Delete item?" in d and "accepted" in d for d in deleted.structured_content["dialogs"]), text


def assert_nowhere(secret: str, answers: list[str], log: str, trace_dir: Path) -> None:
    for i, answer in enumerate(answers):
        assert secret not in answer, f"answer {i} shows the secret: {answer[:300]}"
    assert secret not in log, "the server log shows the secret"
    records = sorted(trace_dir.iterdir())
    assert any(p.name.endswith(".json") and "-fill-" in p.name for p in records), [p.name for p in records]
    assert (trace_dir / "traces.js").is_file()
    for p in records:
        assert secret not in p.read_text(errors="replace"), f"{p.name} shows the secret"


def test_stdio_session():
    binary = prufe_binary()
    with fixture_server() as base, tempfile.TemporaryDirectory(prefix="prufe-mcp-") as tmp:
        tmp = Path(tmp)
        (tmp / "secrets.env").write_text(f"# test account\nSHOP_PASSWORD='{SECRET}'\n")
        traces = tmp / "traces"
        log_path = tmp / "server.log"
        params = StdioServerParameters(
            command=str(binary),
            args=["mcp", "--secrets", str(tmp / "secrets.env"), "--trace-dir", str(traces), "--screenshots", "all"],
            env={"PRUFE_BUNDLE": str(BUNDLE)},
            cwd=str(ROOT),
        )
        sizes: dict = {}

        async def session():
            with open(log_path, "w") as log:
                async with Client(stdio_client(params, errlog=log)) as client:
                    t = Transcript(client)
                    started = time.monotonic()
                    await check_tools(client, vision=False)
                    sizes.update(await shop_click_matches(t, base))
                    await gone_identity_is_stale(t)
                    old_ref = await recycled_click_is_undone(t, base)
                    await stale_ref_is_refused(t, base, old_ref)
                    await secret_is_typed_and_never_shown(t, base)
                    await wait_for_holds_or_times_out(t, base)
                    await back_is_verified(t, base)
                    await watch_judges_the_steps_together(t, base)
                    await reorder_is_taken_back_by_its_inverse_key(t, base)
                    await malformed_calls_are_rpc_errors(t)
                    sizes["seconds"] = round(time.monotonic() - started, 1)
                    return t.answers

        answers = anyio.run(session)
        log = log_path.read_text()
        assert "prufe mcp: browser_click: MATCH" in log, log
        assert_nowhere(SECRET, answers, log, traces)
        # --screenshots all: every traced step keeps its pictures, the wrong effect outlined.
        mismatch = json.loads(next(traces.glob("*-click-mismatch.json")).read_text())
        assert (traces / mismatch["pictures"]["after"]["file"]).read_bytes()[:2] == b"\xff\xd8"
        assert mismatch["pictures"]["after"]["effect"], mismatch["pictures"]
        fill = json.loads(next(traces.glob("*-fill-match.json")).read_text())
        assert fill["pictures"]["after"]["masked"], fill["pictures"]
        for p in traces.glob("*.jpg"):
            assert SECRET.encode() not in p.read_bytes(), p.name
        print(
            f"\nstdio: verified click answer {sizes['click']} bytes ({sizes['click_text']} of text), "
            f"snapshot answer {sizes['snapshot']} bytes, session {sizes['seconds']} s"
        )


def test_http_session():
    binary = prufe_binary()
    with fixture_server() as base, tempfile.TemporaryDirectory(prefix="prufe-mcp-http-") as tmp:
        log_path = Path(tmp) / "server.log"
        with open(log_path, "w") as log:
            server = subprocess.Popen(
                [str(binary), "mcp", "--port", "0", "--caps", "vision"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                env={**os.environ, "PRUFE_BUNDLE": str(BUNDLE)},
                cwd=str(ROOT),
            )
        try:
            url = None
            deadline = time.monotonic() + 20
            while url is None and time.monotonic() < deadline:
                m = re.search(r"listening on (http://\S+/mcp)", log_path.read_text())
                if m:
                    url = m.group(1)
                else:
                    assert server.poll() is None, log_path.read_text()
                    time.sleep(0.05)
            assert url and url.startswith("http://127.0.0.1:"), log_path.read_text()

            async def session():
                async with Client(url) as client:
                    t = Transcript(client)
                    await check_tools(client, vision=True)
                    await shop_click_matches(t, base)
                    old_ref = await recycled_click_is_undone(t, base)
                    await stale_ref_is_refused(t, base, old_ref)
                    await dialog_is_accepted_when_told(t, base)
                    await keys_wheel_and_element_waits(t, base)
                    shot = await t.call("browser_take_screenshot")
                    assert not shot.is_error, text_of(shot)
                    assert any(getattr(b, "type", "") == "image" for b in shot.content)
                    try:
                        await client.call_tool("browser_fly", {})
                    except MCPError as e:
                        assert "unknown tool" in str(e)
                    else:
                        raise AssertionError("an unknown tool answered")
                    tabs = await t.call("browser_tabs", {"action": "list"})
                    assert "(current)" in text_of(tabs)

            anyio.run(session)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                code = server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                raise
        assert code == 128 + signal.SIGTERM, (code, log_path.read_text())


# ---- several clients of one HTTP server at once ---------------------------------------------


def start_http_server(binary: Path, args: list[str], log_path: Path) -> tuple[subprocess.Popen, str]:
    """`prufe mcp --port 0 ARGS`, and the URL it says it listens on."""
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [str(binary), "mcp", "--port", "0", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            env={**os.environ, "PRUFE_BUNDLE": str(BUNDLE)},
            cwd=str(ROOT),
        )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        m = re.search(r"listening on (http://\S+/mcp)", log_path.read_text())
        if m:
            return server, m.group(1)
        assert server.poll() is None, log_path.read_text()
        time.sleep(0.05)
    server.kill()
    raise AssertionError(f"no address on stderr: {log_path.read_text()}")


def stop_http_server(server: subprocess.Popen, log_path: Path) -> None:
    server.send_signal(signal.SIGTERM)
    try:
        code = server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        raise
    assert code == 128 + signal.SIGTERM, (code, log_path.read_text())


def devtools_of(server_pid: int) -> str:
    """The DevTools address of the Chromium the server launched (its child with a profile)."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2 :].split()[1]) != server_pid:
            continue
        for arg in cmdline:
            if arg.startswith(b"--user-data-dir="):
                port = (Path(arg.split(b"=", 1)[1].decode()) / "DevToolsActivePort").read_text().split()[0]
                return f"http://127.0.0.1:{port}"
    raise AssertionError(f"no Chromium under the server (pid {server_pid})")


def page_urls(devtools: str) -> list[str]:
    """The address of every tab of the browser, whatever its browser context."""
    with urllib.request.urlopen(f"{devtools}/json/list", timeout=10) as r:
        return sorted(t["url"] for t in json.load(r) if t["type"] == "page")


def refs_in(snapshot: str) -> list[int]:
    return [int(n) for n in re.findall(r"\[ref=e(\d+)\]", snapshot)]


def test_http_concurrent_sessions():
    """Three clients of one server at once, each on its own page in its own browser context."""
    binary = prufe_binary()
    typed_secret = "B-only-p4ss-9Kq"  # typed into B's password field: B's session learns it
    with fixture_server() as base, tempfile.TemporaryDirectory(prefix="prufe-mcp-many-") as tmp:
        tmp = Path(tmp)
        (tmp / "secrets.env").write_text(f"SHOP_PASSWORD='{SECRET}'\n")
        traces = tmp / "traces"
        log_path = tmp / "server.log"
        server, url = start_http_server(
            binary, ["--secrets", str(tmp / "secrets.env"), "--trace-dir", str(traces)], log_path
        )
        pages = {"A": f"{base}/shop.html", "B": f"{base}/login.html", "C": f"{base}/recycled-list.html"}
        try:

            async def scenario() -> dict:
                # Sessions tie a client's calls to its context: a client pinned to the
                # sessionless revision is told which revisions the server speaks.
                try:
                    async with Client(url, mode="2026-07-28") as sessionless:
                        await sessionless.call_tool("browser_snapshot", {})
                except BaseException as e:  # in exception groups, from the client's task groups
                    errors, todo = [], [e]
                    while todo:
                        x = todo.pop()
                        todo.extend(getattr(x, "exceptions", []))
                        errors.append(x)
                    assert any(isinstance(x, MCPError) and x.code == -32022 for x in errors), repr(e)
                else:
                    raise AssertionError("a client without a session was served")
                started = time.monotonic()
                clients = {k: Client(url) for k in "ABC"}
                open_clients = []
                try:
                    # Entered C, B, A: A's client, closed first, is the innermost.
                    for k in "CBA":
                        await clients[k].__aenter__()
                        open_clients.append(k)
                    t = {k: Transcript(clients[k]) for k in "ABC"}

                    async def opened(k: str) -> str:
                        nav = await t[k].call("browser_navigate", {"url": pages[k]})
                        assert not nav.is_error, text_of(nav)
                        tree = text_of(await t[k].call("browser_snapshot"))
                        assert tree.startswith(f"Page: {pages[k]}\n"), (k, tree[:200])
                        return tree

                    trees = dict(zip("ABC", await asyncio.gather(*(opened(k) for k in "ABC"))))
                    assert "Corner shop" in trees["A"] or "Catalogue" in trees["A"], trees["A"][:300]
                    assert "Sign in" in trees["B"] and "Catalogue" not in trees["B"], trees["B"][:300]
                    assert "New arrivals" in trees["C"] and "Sign in" not in trees["C"], trees["C"][:300]
                    devtools = devtools_of(server.pid)
                    assert set(pages.values()) <= set(page_urls(devtools)), page_urls(devtools)
                    tabs_before = len(page_urls(devtools))

                    async def shop_a() -> None:
                        for product in ("Shirt M", "Trousers L", "Socks S"):
                            tree = text_of(await t["A"].call("browser_snapshot"))
                            click = await t["A"].call("browser_click", {"target": ref_of(tree, "button", f"Add {product}")})
                            assert click.structured_content["verdict"] == "MATCH", text_of(click)

                    async def login_b() -> None:
                        tree = trees["B"]
                        typed = await t["B"].call(
                            "browser_type", {"target": ref_of(tree, "textbox", "Password"), "text": typed_secret}
                        )
                        assert typed.structured_content["verdict"] == "MATCH", text_of(typed)
                        shown = await t["B"].call(
                            "browser_click", {"target": ref_of(tree, "checkbox", "Show password"), "snapshot": True}
                        )
                        assert "[redacted]" in text_of(shown) and typed_secret not in wire(shown), text_of(shown)
                        filed = await t["B"].call(
                            "browser_type", {"target": ref_of(tree, "textbox", "Email"), "text": "${SHOP_PASSWORD}"}
                        )
                        assert filed.structured_content["verdict"] == "MATCH", text_of(filed)

                    async def recycled_c() -> None:
                        click = await t["C"].call(
                            "browser_click", {"target": ref_of(trees["C"], "button", "Add Shirt M")}
                        )
                        s = click.structured_content
                        assert s["verdict"] == "MISMATCH" and s["undone"] == s["attempts"] >= 1, text_of(click)
                        assert "Trousers L" in s["reason"], text_of(click)

                    await asyncio.gather(shop_a(), login_b(), recycled_c())

                    # A slow call of one client holds up no other: while A waits 5 s, B's and
                    # C's calls come and go.
                    waiting = asyncio.ensure_future(t["A"].call("browser_wait_for", {"time": 5}))
                    for _ in range(3):
                        for k in "BC":
                            snap = await t[k].call("browser_snapshot")
                            assert text_of(snap).startswith(f"Page: {pages[k]}\n"), text_of(snap)[:200]
                    assert not waiting.done(), "B's and C's calls waited for A's"
                    assert not (await waiting).is_error

                    # Each client's answers speak of its own page only.
                    for k, transcript in t.items():
                        for answer in transcript.answers:
                            for other, address in pages.items():
                                if other != k:
                                    assert address not in answer, f"{k}'s answer names {other}'s page: {answer[:300]}"
                    cart_a = section(text_of(await t["A"].call("browser_snapshot")), "cart")
                    assert sum(line.startswith("- listitem") for line in cart_a) == 3, cart_a
                    cart_c = section(text_of(await t["C"].call("browser_snapshot")), "cart")
                    assert not any(line.startswith("- listitem") for line in cart_c), cart_c

                    # A ref of A's is none of B's: refused, typed, and A's page is untouched.
                    a_tree = text_of(await t["A"].call("browser_snapshot"))
                    foreign = f"e{max(refs_in(a_tree))}"
                    assert max(refs_in(a_tree)) > max(refs_in(text_of(await t["B"].call("browser_snapshot"))))
                    refused = await t["B"].call("browser_click", {"target": foreign})
                    assert refused.is_error, text_of(refused)
                    assert refused.structured_content["error"]["code"] == "INVALID_TARGET", text_of(refused)
                    assert "verdict" not in refused.structured_content
                    assert text_of(await t["A"].call("browser_snapshot")) == a_tree

                    # A disconnects (its client sends DELETE): its context and tab are gone,
                    # B and C go on.
                    answers = {k: list(tr.answers) for k, tr in t.items()}
                    open_clients.remove("A")
                    await clients["A"].__aexit__(None, None, None)
                    deadline = time.monotonic() + 20
                    while pages["A"] in page_urls(devtools):
                        assert time.monotonic() < deadline, page_urls(devtools)
                        await asyncio.sleep(0.05)
                    assert len(page_urls(devtools)) == tabs_before - 1, page_urls(devtools)
                    # The server logs the session's end once its context is closed, which the
                    # browser may report first: wait for the line, not for the tab alone.
                    while not re.search(r"session \d+: ended, its browser context closed", log_path.read_text()):
                        assert time.monotonic() < deadline, log_path.read_text()
                        await asyncio.sleep(0.05)
                    for k in "BC":
                        snap = await t[k].call("browser_snapshot")
                        assert text_of(snap).startswith(f"Page: {pages[k]}\n"), text_of(snap)[:200]
                    nav = await t["C"].call("browser_navigate", {"url": pages["A"]})
                    assert not nav.is_error, text_of(nav)
                    tree = text_of(await t["C"].call("browser_snapshot"))
                    click = await t["C"].call("browser_click", {"target": ref_of(tree, "button", "Add Cap")})
                    assert click.structured_content["verdict"] == "MATCH", text_of(click)
                    assert pages["A"] in page_urls(devtools)
                    for k in "BC":
                        answers[k] = list(t[k].answers)
                finally:
                    for k in reversed(open_clients):
                        await clients[k].__aexit__(None, None, None)
                answers["seconds"] = round(time.monotonic() - started, 1)
                return answers

            answers = asyncio.run(scenario())
            # Every session ended and took its context along: the browser is left with the
            # tab it was launched with.
            log = log_path.read_text()
            deadline = time.monotonic() + 20
            while len(re.findall(r"session \d+: ended", log)) < 3:
                assert time.monotonic() < deadline, log
                time.sleep(0.05)
                log = log_path.read_text()
            assert page_urls(devtools_of(server.pid)) == ["about:blank"]
        finally:
            stop_http_server(server, log_path)
        log = log_path.read_text()
        for k in "ABC":
            assert not any(typed_secret in answer for answer in answers[k] if k != "B"), k
            assert not any(SECRET in answer for answer in answers[k]), k
        assert typed_secret not in log and SECRET not in log
        # A trace directory per session, each with its own client's records only (C went
        # on to the shop after A left).
        sessions = sorted(p for p in traces.iterdir() if p.is_dir())
        assert [p.name for p in sessions] == ["session-1", "session-2", "session-3"], sessions
        expected = {"A": {"A"}, "B": {"B"}, "C": {"C", "A"}}
        seen = set()
        for d in sessions:
            records = sorted(d.glob("*.json"))
            assert (d / "traces.js").is_file() and records, d
            texts = [p.read_text() for p in records]
            first = next(k for k, address in pages.items() if address in texts[0])
            named = {k for k, address in pages.items() if any(address in text for text in texts)}
            assert named == expected[first], (d.name, first, named)
            assert not any(typed_secret in text or SECRET in text for text in texts), d
            seen.add(first)
        assert seen == set(pages), seen
        print(f"\nhttp, three clients at once: {answers['seconds']} s")


def test_http_session_left_without_delete_expires():
    """A client that goes away without ending its session: the session idles out, its context goes."""
    binary = prufe_binary()
    with fixture_server() as base, tempfile.TemporaryDirectory(prefix="prufe-mcp-idle-") as tmp:
        log_path = Path(tmp) / "server.log"
        # Longer than any call here (the first one launches the browser).
        server, url = start_http_server(binary, ["--session-idle", "8"], log_path)
        try:

            async def leave() -> None:
                async with Client(streamable_http_client(url, terminate_on_close=False)) as client:
                    nav = await client.call_tool("browser_navigate", {"url": f"{base}/shop.html"})
                    assert not nav.is_error, text_of(nav)

            asyncio.run(leave())
            devtools = devtools_of(server.pid)
            assert f"{base}/shop.html" in page_urls(devtools), page_urls(devtools)
            left = time.monotonic()
            deadline = left + 40
            while "session 1: ended, its browser context closed" not in log_path.read_text():
                assert time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.1)
            idled = time.monotonic() - left
            assert idled > 4, f"the session ended {idled:.1f} s after its client left: before its idle time"
            assert page_urls(devtools) == ["about:blank"], page_urls(devtools)
        finally:
            stop_http_server(server, log_path)


if __name__ == "__main__":
    test_stdio_session()
    test_http_session()
    test_http_concurrent_sessions()
    test_http_session_left_without_delete_expires()
    print("ok")
