"""The parity suite's players and its one normaliser: every scenario of
tests/parity/scenarios.json played through the `prufe` CLI (`prufe run --script`), the MCP
server (`prufe mcp`, one session per scenario) and the Python package (sync and async API),
each writing its trace records; the npm package's players are tests/js/support/parity-run.mjs.

What is compared is a step's trace record, the one file every surface writes per step in the
same shape (harness/src/trace.rs; node/src/trace.js; python/src/prufe/_trace.py) and the
fullest record the CLI gives (its `--json` line and the MCP server's answer are cut from it):
every field and the file's name, apart from what differs from one run to the next
(`normalise`). Every surface gets its own browser, launched with the same flags and window;
the CLI and the MCP server attach to theirs (`--connect`), so frames of another site run out
of process for them too."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from support import CHROMIUM, CHROMIUM_FLAGS, ROOT

SCENARIO_FILE = ROOT / "tests" / "parity" / "scenarios.json"
SPEC = json.loads(SCENARIO_FILE.read_text())
SCENARIOS: list[dict[str, Any]] = SPEC["scenarios"]
SURFACES: list[str] = SPEC["surfaces"]
LOCATOR_ROLES = set(SPEC["locatorRoles"])
#: One window for every surface's browser, so that layouts (and the points in reasons) agree.
WINDOW = "--window-size=1280,720"
TIMINGS = {"durationMs", "startedAt"}


class Unplayable(Exception):
    """A step the surface has no way to express; the scenario is not played there."""


# -- the normaliser ------------------------------------------------------------------------


def normalise(records: list[dict[str, Any]], ports: dict[int, str]) -> list[dict[str, Any]]:
    """A scenario's trace records without what differs from one run to the next: timings,
    document epochs in a reason, each fixture port (its placeholder instead), each element
    ref's document tag (`e22-asak` is `e22-DOC`) and each keyed hash of a sensitive value (the
    key is the verifier's own: `HASH1`, `HASH2`… in order of appearance, so equal hashes stay
    equal)."""
    hashes: dict[str, str] = {}

    def walk(value: Any, key: str = "") -> Any:
        if isinstance(value, dict):
            return {k: walk(value[k], k) for k in sorted(value) if k not in TIMINGS}
        if isinstance(value, list):
            return [walk(v) for v in value]
        if not isinstance(value, str):
            return value
        if key == "ref":
            return re.sub(r"-[a-z0-9]+$", "-DOC", value)
        if key == "valueHash":
            return hashes.setdefault(value, f"HASH{len(hashes) + 1}")
        for port, name in ports.items():
            value = re.sub(rf"(?<=:){port}\b", name, value)
        return re.sub(r"\(epoch \d+ -> \d+\)", "(epoch N -> N)", value)

    return [walk(r) for r in records]


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def read_traces(directory: Path) -> list[dict[str, Any]]:
    """The records of a trace directory in order, each with its file's name as `file`."""
    if not directory.is_dir():
        return []
    return [{"file": p.name, **json.loads(p.read_text())} for p in sorted(directory.glob("[0-9]*.json"))]


# -- scenarios --------------------------------------------------------------------------


def page_url(base: str, scenario: dict[str, Any]) -> str:
    return base.replace("127.0.0.1", scenario.get("host", "127.0.0.1")) + scenario["page"]


def files_of(step: dict[str, Any], receipt: str) -> list[str]:
    return [receipt if f == "RECEIPT" else f for f in step["files"]]


def script_of(scenario: dict[str, Any], receipt: str) -> list[dict[str, Any]]:
    steps = json.loads(json.dumps(scenario["steps"]))
    for step in steps:
        if "files" in step:
            step["files"] = files_of(step, receipt)
    return steps


# -- a browser for a surface that attaches ----------------------------------------------


@contextlib.contextmanager
def chromium() -> Iterator[str]:
    """Chromium with the suite's flags and a fresh profile; yields its DevTools WebSocket URL."""
    profile = tempfile.mkdtemp(prefix="prufe-profile-")
    child = subprocess.Popen(
        [CHROMIUM, *CHROMIUM_FLAGS, WINDOW, "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
         f"--user-data-dir={profile}", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        port_file = Path(profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.is_file() and len(port_file.read_text().splitlines()) >= 2):
            assert child.poll() is None, "Chromium exited before it listened"
            assert time.monotonic() < deadline, "Chromium did not listen within 30 s"
            time.sleep(0.05)
        port, path = port_file.read_text().splitlines()[:2]
        yield f"ws://127.0.0.1:{port}{path}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, 15)
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, 9)
            child.wait()
        shutil.rmtree(profile, ignore_errors=True)


# -- the CLI ------------------------------------------------------------------------------


def play_cli(cli: str, ws: str, base: str, scenario: dict[str, Any], receipt: str) -> list[dict[str, Any]]:
    """`prufe run --script` of the scenario in a new tab of the surface's browser."""
    with tempfile.TemporaryDirectory(prefix="prufe-parity-cli-") as work:
        script = Path(work) / "script.json"
        script.write_text(json.dumps(script_of(scenario, receipt)))
        traces = Path(work) / "traces"
        run = subprocess.run(
            [cli, "run", "--json", "--connect", ws, "--trace-dir", str(traces), "--screenshots", "off",
             "--script", str(script), page_url(base, scenario)],
            capture_output=True, text=True, timeout=120,
        )
        if run.returncode not in (0, 1):
            raise AssertionError(f"prufe run exited {run.returncode}: {run.stderr}")
        return read_traces(traces)


# -- the MCP server -----------------------------------------------------------------------


def secrets_of(scenarios: list[dict[str, Any]]) -> dict[str, str]:
    """A name for every value a scenario fills as sensitive (`${NAME}` in the MCP server's typing)."""
    values = [s["value"] for sc in scenarios for s in sc["steps"] if s.get("sensitive")]
    return {v: f"PARITY_SECRET_{i + 1}" for i, v in enumerate(dict.fromkeys(values))}


def ref_in(tree: str, target: dict[str, Any]) -> str:
    """The ref of the snapshot's one element of the target's role and name."""
    found = re.findall(rf'- {re.escape(target["role"])} "{re.escape(target["name"])}"[^\n]*\[ref=(e\d+)\]', tree)
    if len(found) != 1:
        raise Unplayable(f"the snapshot shows {len(found)} {target['role']} named {target['name']!r} with a ref")
    return found[0]


def mcp_calls(step: dict[str, Any], secrets: dict[str, str]) -> tuple[str, Callable[[str], dict[str, Any]]]:
    """The tool a step is and its arguments, given the page's snapshot tree."""
    action = step["action"]
    verified = {"intent": step["intent"]} if step.get("intent") else {}
    target = step.get("target")

    def ref(tree: str) -> str:
        assert target is not None
        return ref_in(tree, target)

    if action == "click":
        return "browser_click", lambda tree: {"target": ref(tree), **verified}
    if action == "fill":
        text = f"${{{secrets[step['value']]}}}" if step.get("sensitive") else step["value"]
        return "browser_type", lambda tree: {"target": ref(tree), "text": text, **verified}
    if action in ("check", "uncheck"):
        kind = "radio" if target and target["role"] == "radio" else "checkbox"
        value = "true" if action == "check" else "false"
        return "browser_fill_form", lambda tree: {"fields": [{"type": kind, "target": ref(tree), "value": value}], **verified}
    if action == "select":
        return "browser_select_option", lambda tree: {"target": ref(tree), "values": [step["option"]], **verified}
    if action == "hover":
        return "browser_hover", lambda tree: {"target": ref(tree), **verified}
    if "inverse" in step:
        verified["inverseKey"] = inverse_key(step)
    if action == "drag":
        to = step["to"]
        return "browser_drag", lambda tree: {"startTarget": ref(tree), "endTarget": ref_in(tree, to), **verified}
    if action == "upload":
        return "browser_file_upload", lambda tree: {"target": ref(tree), "paths": step["files"], **verified}
    if action == "goto":
        return "browser_navigate", lambda tree: {"url": step["url"], **verified}
    if action == "press":
        if target is None:
            return "browser_press_key", lambda tree: {"key": step["key"], **verified}
        return "browser_press_key", lambda tree: {"key": step["key"], "target": ref(tree), **verified}
    if action == "watch":
        return "browser_watch", lambda tree: {"steps": step["steps"], **verified}
    if action == "screenshot":
        return "browser_take_screenshot", lambda tree: {}
    if action == "click_at":
        return "browser_mouse_click_xy", lambda tree: {"x": step["x"], "y": step["y"], **verified}
    if action == "drag_at":
        f, t = step["from"], step["to"]
        return "browser_mouse_drag_xy", lambda tree: {"startX": f["x"], "startY": f["y"], "endX": t["x"], "endY": t["y"], **verified}
    if action == "scroll_at":
        return "browser_mouse_wheel_xy", lambda tree: {"x": step["x"], "y": step["y"], "deltaX": step["dx"], "deltaY": step["dy"]}
    if action == "type":
        return "browser_type", lambda tree: {"text": step["text"], **verified}
    if action == "key":
        return "browser_keyboard_press", lambda tree: {"key": step["chord"]}
    if action == "wait" and "value" not in step["until"]:
        return "browser_wait_for", lambda tree: {**step["until"], "time": step["timeoutMs"] / 1000}
    raise Unplayable(f"no MCP tool sends a `{action}` step of this shape")


def inverse_key(step: dict[str, Any]) -> str:
    """The `inverseKey` of a press or a drag: its inverse as MCP declares one, a key pressed on
    the step's own element."""
    inverse = step["inverse"] if isinstance(step["inverse"], list) else [step["inverse"]]
    if step["action"] not in ("press", "drag") or len(inverse) != 1:
        raise Unplayable("MCP declares an inverse as one key on a press's or a drag's element")
    back = inverse[0]
    if back["action"] != "press" or back.get("target") != step.get("target") or set(back) - {"action", "key", "target"}:
        raise Unplayable("MCP declares an inverse as one key on the step's own element")
    return str(back["key"])


@contextlib.contextmanager
def mcp_server(cli: str, ws: str, traces: Path, secrets: dict[str, str]) -> Iterator[str]:
    """`prufe mcp` over HTTP on the surface's browser; yields its URL."""
    work = Path(tempfile.mkdtemp(prefix="prufe-parity-mcp-"))
    env_file = work / "secrets.env"
    env_file.write_text("".join(f"{name}='{value}'\n" for value, name in secrets.items()))
    log_path = work / "server.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [cli, "mcp", "--port", "0", "--connect", ws, "--caps", "vision", "--secrets", str(env_file),
             "--trace-dir", str(traces), "--screenshots", "off"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, cwd=str(ROOT),
        )
    try:
        deadline = time.monotonic() + 20
        url = None
        while url is None:
            m = re.search(r"listening on (http://\S+/mcp)", log_path.read_text())
            if m:
                url = m.group(1)
                break
            assert server.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)


async def play_mcp(url: str, traces: Path, session: int, base: str, scenario: dict[str, Any], receipt: str,
                   secrets: dict[str, str]) -> list[dict[str, Any]]:
    """One MCP session: the page opened with `browser_navigate`, then each step as its tool
    (a ref from a fresh `browser_snapshot` for each element), until a step fails. The
    opening navigation's record is dropped and the others renumbered from 1, as `prufe run`
    opens its page without a step."""
    from mcp import Client

    steps = script_of(scenario, receipt)
    calls = [mcp_calls(step, secrets) for step in steps]
    async with Client(url) as client:
        opened = await client.call_tool("browser_navigate", {"url": page_url(base, scenario)})
        assert not opened.is_error, opened
        for (tool, arguments), step in zip(calls, steps):
            tree = ""
            if "target" in step or "to" in step:
                snap = await client.call_tool("browser_snapshot", {})
                tree = "\n".join(b.text for b in snap.content if getattr(b, "type", "") == "text")
            answer = await client.call_tool(tool, arguments(tree))
            if answer.is_error or (answer.structured_content or {}).get("ok") is False:
                break
    records = read_traces(traces / f"session-{session}")
    assert records and records[0]["action"] == "goto", records[:1]
    out = []
    for r in records[1:]:
        seq, rest = r["file"].split("-", 1)
        out.append({**r, "file": f"{int(seq) - 1:04d}-{rest}", "step": r["step"] - 1})
    return out


# -- the Python package -------------------------------------------------------------------


def _call(step: dict[str, Any], receipt: str, target: Any, to: Any) -> tuple[str, list[Any], dict[str, Any]]:
    """The package method of a step, its arguments and keywords."""
    kw: dict[str, Any] = {"intent": step["intent"]} if step.get("intent") else {}
    if "inverse" in step:
        kw["inverse"] = inverse_of(step["inverse"])
    action = step["action"]
    if action in ("click", "check", "uncheck", "hover"):
        return action, [target], kw
    if action == "fill":
        return "fill", [target, step["value"]], {**kw, "sensitive": bool(step.get("sensitive"))}
    if action == "select":
        return "select_option", [target, step["option"]], kw
    if action == "press":
        return "press", [target, step["key"]], kw
    if action == "upload":
        return "upload", [target, files_of(step, receipt)], kw
    if action == "drag":
        return "drag_to", [target, to], kw
    if action == "goto":
        return "goto", [step["url"]], kw
    if action == "wait":
        timeout = {"timeout_ms": step["timeoutMs"]} if "timeoutMs" in step else {}
        return "wait_for", [until_of(step["until"])], timeout
    if action == "screenshot":
        return "screenshot", [], {"max_width": step["maxWidth"]} if "maxWidth" in step else {}
    seen = {"observation": step["observation"]} if "observation" in step else {}
    if action == "click_at":
        return "click_at", [step["x"], step["y"]], {**kw, **seen, **({"button": step["button"]} if "button" in step else {})}
    if action == "drag_at":
        steps = {"steps": step["steps"]} if "steps" in step else {}
        return "drag_at", [(step["from"]["x"], step["from"]["y"]), (step["to"]["x"], step["to"]["y"])], {**kw, **seen, **steps}
    if action == "scroll_at":
        return "scroll_at", [step["x"], step["y"], step.get("dx", 0), step.get("dy", 0)], seen
    if action == "type":
        return "type", [step["text"]], {"sensitive": bool(step.get("sensitive"))}
    if action == "key":
        return "key", [step["chord"]], {}
    raise Unplayable(f"no package method for `{action}`")


def inverse_of(inverse: Any) -> list[dict[str, Any]]:
    """A script's inverse (one step or a list) as the package takes it: the machine's steps,
    ``{"action": {"kind": …, …}, "intent"?: …}``."""
    out = []
    for step in inverse if isinstance(inverse, list) else [inverse]:
        fields = {k: v for k, v in step.items() if k not in ("action", "intent")}
        out.append({"action": {"kind": step["action"], **fields}, **({"intent": step["intent"]} if step.get("intent") else {})})
    return out


def until_of(until: dict[str, Any]) -> dict[str, Any]:
    """A coordinate script's ``until`` as the machine's postcondition, which the package takes."""
    region = until.get("region")
    if "textGone" in until:
        return {"kind": "textGone", "text": until["textGone"], "region": region}
    if "text" in until:
        return {"kind": "textAppears", "text": until["text"], "region": region}
    return {"kind": "appears", "role": until["role"], "name": until["name"], "region": region}


def play_sync(context: Any, base: str, scenario: dict[str, Any], receipt: str, traces: Path) -> list[dict[str, Any]]:
    from prufe import PrufeError
    from prufe.sync_api import Prufe

    page = context.new_page()
    try:
        page.goto(page_url(base, scenario))
        p = Prufe(page, trace_dir=traces, screenshots="off")

        def element(t: Optional[dict[str, Any]]) -> Any:
            if t is None or t.get("role") not in LOCATOR_ROLES:
                return t
            for frame in page.frames:
                locator = frame.get_by_role(t["role"], name=t["name"], exact=True)
                if locator.count() > 0:
                    return locator
            return t

        def locate(t: dict[str, Any]) -> Any:
            found = element(t)
            return page.get_by_role(t["role"], name=t["name"], exact=True) if isinstance(found, dict) else found

        for step in scenario["steps"]:
            if step["action"] == "watch":
                with p.watch(step["intent"]) as seen:
                    for inner in step["steps"]:
                        locate(inner["target"]).click()
                if not seen.ok:
                    break
                continue
            method, args, kw = _call(step, receipt, element(step.get("target")), element(step.get("to")))
            try:
                getattr(p, method)(*args, **kw)
            except PrufeError:
                break
    finally:
        page.close()
    return read_traces(traces)


async def play_async(context: Any, base: str, scenario: dict[str, Any], receipt: str, traces: Path) -> list[dict[str, Any]]:
    from prufe import PrufeError
    from prufe.async_api import Prufe

    page = await context.new_page()
    try:
        await page.goto(page_url(base, scenario))
        p = Prufe(page, trace_dir=traces, screenshots="off")

        async def element(t: Optional[dict[str, Any]]) -> Any:
            if t is None or t.get("role") not in LOCATOR_ROLES:
                return t
            for frame in page.frames:
                locator = frame.get_by_role(t["role"], name=t["name"], exact=True)
                if await locator.count() > 0:
                    return locator
            return t

        async def locate(t: dict[str, Any]) -> Any:
            found = await element(t)
            return page.get_by_role(t["role"], name=t["name"], exact=True) if isinstance(found, dict) else found

        for step in scenario["steps"]:
            if step["action"] == "watch":
                async with p.watch(step["intent"]) as seen:
                    for inner in step["steps"]:
                        await (await locate(inner["target"])).click()
                if not seen.ok:
                    break
                continue
            method, args, kw = _call(step, receipt, await element(step.get("target")), await element(step.get("to")))
            try:
                await getattr(p, method)(*args, **kw)
            except PrufeError:
                break
    finally:
        await page.close()
    return read_traces(traces)


def python_context_args() -> dict[str, Any]:
    return {"executable_path": CHROMIUM, "args": [*CHROMIUM_FLAGS, WINDOW], "headless": True, "no_viewport": True}


def run_sync_surface(base: str, receipt: str) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {}
    with sync_playwright() as pw, tempfile.TemporaryDirectory(prefix="prufe-parity-py-") as work:
        context = pw.chromium.launch_persistent_context(str(Path(work) / "profile"), **python_context_args())
        try:
            for i, scenario in enumerate(SCENARIOS):
                out[scenario["name"]] = outcome(lambda: play_sync(context, base, scenario, receipt, Path(work) / f"traces-{i}"))
        finally:
            context.close()
    return out


def run_async_surface(base: str, receipt: str) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    async def main() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with async_playwright() as pw:
            with tempfile.TemporaryDirectory(prefix="prufe-parity-py-") as work:
                context = await pw.chromium.launch_persistent_context(str(Path(work) / "profile"), **python_context_args())
                try:
                    for i, scenario in enumerate(SCENARIOS):
                        try:
                            out[scenario["name"]] = {"records": await play_async(context, base, scenario, receipt, Path(work) / f"traces-{i}")}
                        except Unplayable as why:
                            out[scenario["name"]] = {"cannot": str(why)}
                finally:
                    await context.close()
        return out

    return asyncio.run(main())


def outcome(play: Callable[[], list[dict[str, Any]]]) -> dict[str, Any]:
    """`{records}` of a scenario played, or `{cannot: why}`."""
    try:
        return {"records": play()}
    except Unplayable as why:
        return {"cannot": str(why)}


def run_cli_surface(cli: str, base: str, receipt: str) -> dict[str, Any]:
    with chromium() as ws:
        return {s["name"]: outcome(lambda s=s: play_cli(cli, ws, base, s, receipt)) for s in SCENARIOS}


def run_mcp_surface(cli: str, base: str, receipt: str) -> dict[str, Any]:
    secrets = secrets_of(SCENARIOS)
    with chromium() as ws, tempfile.TemporaryDirectory(prefix="prufe-parity-mcp-traces-") as work:
        traces = Path(work)
        with mcp_server(cli, ws, traces, secrets) as url:
            out: dict[str, Any] = {}
            session = 0
            for scenario in SCENARIOS:
                try:
                    # A scenario that cannot be played opens no session.
                    for step in scenario["steps"]:
                        mcp_calls(step, secrets)
                except Unplayable as why:
                    out[scenario["name"]] = {"cannot": str(why)}
                    continue
                session += 1
                n = session
                out[scenario["name"]] = outcome(lambda s=scenario, n=n: asyncio.run(play_mcp(url, traces, n, base, s, receipt, secrets)))
            return out


def run_node_surface(lib: str, base: str, receipt: str) -> dict[str, Any]:
    """tests/js/support/parity-run.mjs with `lib` (playwright or puppeteer)."""
    with tempfile.TemporaryDirectory(prefix="prufe-parity-node-") as work:
        out = Path(work) / "out.json"
        run = subprocess.run(
            ["node", str(ROOT / "tests" / "js" / "support" / "parity-run.mjs"), "--lib", lib, "--base", base,
             "--receipt", receipt, f"--window={WINDOW}", "--out", str(out)],
            capture_output=True, text=True, timeout=600, cwd=str(ROOT),
        )
        assert run.returncode == 0, f"parity-run.mjs --lib {lib} exited {run.returncode}:\n{run.stderr}"
        result: dict[str, Any] = json.loads(out.read_text())
        return result


if __name__ == "__main__":
    # python3 tests/python/parity.py SURFACE… : each surface's normalised records of every
    # scenario, into target/parity/SURFACE.json, with the time each surface took.
    import sys

    import support

    cli = os.environ.get("PRUFE_CLI") or str(ROOT / "target" / "debug" / "prufe")
    players: dict[str, Callable[[str, str], dict[str, Any]]] = {
        "cli": lambda base, receipt: run_cli_surface(cli, base, receipt),
        "mcp": lambda base, receipt: run_mcp_surface(cli, base, receipt),
        "playwright": lambda base, receipt: run_node_surface("playwright", base, receipt),
        "puppeteer": lambda base, receipt: run_node_surface("puppeteer", base, receipt),
        "python-sync": run_sync_surface,
        "python-async": run_async_surface,
    }
    dump = ROOT / "target" / "parity"
    dump.mkdir(parents=True, exist_ok=True)
    with support.fixture_server() as base, tempfile.TemporaryDirectory(prefix="prufe-parity-") as work:
        receipt = Path(work) / "receipt.txt"
        receipt.write_text("paid\n")
        ports = {int(base.rsplit(":", 1)[1]): "PORT", support._Quiet.xorigin_port: "XPORT"}
        for surface in sys.argv[1:] or SURFACES:
            started = time.monotonic()
            played = players[surface](base, str(receipt))
            for played_one in played.values():
                if "records" in played_one:
                    played_one["records"] = normalise(played_one["records"], ports)
            (dump / f"{surface}.json").write_text(json.dumps(played, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
            print(f"{surface}: {time.monotonic() - started:.1f} s", flush=True)
