"""Shared by the package tests: the Chromium command line, a fixture server on 127.0.0.1,
the scenarios the CLI also runs, and the fields of a record the machine decides."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
PAGES = Path(__file__).resolve().parent / "pages"
CHROMIUM = os.environ.get("PRUFE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
RECORDED = Path(__file__).resolve().parent / "cli_records.json"
PASSWORD = "correct-horse-7Battery"
EMAIL = "ada.secret@bank.example"
CARD = "4000056655665556"
EXPIRY = "11/31"
XORIGIN_PAGE = "/hostile/11-cross-origin-iframe.html"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    #: The port of the second origin, written into every HTML page for `__XORIGIN_PORT__`.
    xorigin_port = 0

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        path = self.translate_path(self.path)
        if not path.endswith(".html") or not os.path.isfile(path):
            super().do_GET()
            return
        # The cross-origin fixtures name the second origin's port in their markup.
        data = Path(path).read_bytes().replace(b"__XORIGIN_PORT__", str(self.xorigin_port).encode())
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def translate_path(self, path: str) -> str:
        # /es/… is tests/python/pages, everything else fixtures/.
        if path.startswith("/es/"):
            return str(PAGES / path[len("/es/"):].split("?")[0])
        return super().translate_path(path)


@contextlib.contextmanager
def chromium_context() -> Iterator[Any]:
    """A sync Playwright persistent context on Chromium with a fresh profile, closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            tempfile.mkdtemp(prefix="prufe-profile-"), executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True
        )
        try:
            yield ctx
        finally:
            ctx.close()


@contextlib.contextmanager
def fixture_server() -> Iterator[str]:
    """fixtures/ on 127.0.0.1, and again on a second port: the second origin
    (`__XORIGIN_PORT__`). A page loaded from `localhost` frames that origin from another site,
    which Chromium runs out of process."""
    second = type("_Second", (_Quiet,), {})
    servers = []
    for cls in (_Quiet, second):
        handler = functools.partial(cls, directory=str(FIXTURES))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    port, xport = servers[0].server_address[1], servers[1].server_address[1]
    _Quiet.xorigin_port = xport
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


def receipt() -> str:
    path = Path(tempfile.gettempdir()) / "prufe-receipt.txt"
    path.write_text("paid\n")
    return str(path)


@dataclass
class Call:
    """One step of a scenario: a Prufe method and its arguments; locators are built from the
    page by ``make(page)``. ``method == "watch"`` runs ``inner`` plain Playwright clicks."""

    method: str
    make: Callable[[Any], list[Any]] = lambda page: []
    kwargs: dict[str, Any] = field(default_factory=dict)
    inner: Optional[Callable[[Any], Any]] = None


@dataclass
class Scenario:
    name: str
    path: str
    cli: list[dict[str, Any]]
    calls: list[Call]
    #: The host the page is loaded from: `localhost` frames the second origin (127.0.0.1) from
    #: another site, out of process.
    host: str = "127.0.0.1"

    def url(self, base: str) -> str:
        return base.replace("127.0.0.1", self.host) + self.path


def _button(name: str) -> Callable[[Any], list[Any]]:
    return lambda page: [page.get_by_role("button", name=name, exact=True)]


ADD_SHIRT = {"role": "button", "name": "Add Shirt M"}

# The card form of fixtures/xorigin/card-frame.html, framed from the second origin.
PAYMENT_CLI = [
    {"action": "fill", "target": {"role": "textbox", "name": "Card number"}, "value": CARD, "sensitive": True},
    {"action": "fill", "target": {"role": "textbox", "name": "Expiry"}, "value": EXPIRY},
    {"action": "click", "target": {"role": "button", "name": "Pay"}},
]
PAYMENT_CALLS = [
    Call("fill", lambda page: [page.frame_locator("iframe").get_by_label("Card number"), CARD], {"sensitive": True}),
    Call("fill", lambda page: [page.frame_locator("iframe").get_by_label("Expiry"), EXPIRY]),
    Call("click", lambda page: [page.frame_locator("iframe").get_by_role("button", name="Pay")]),
]

SCENARIOS = [
    Scenario("recycled list", "/recycled-list.html",
             [{"action": "click", "target": ADD_SHIRT, "intent": "add Shirt M to the cart"}],
             [Call("click", _button("Add Shirt M"), {"intent": "add Shirt M to the cart"})]),
    Scenario("overlay", "/overlay.html",
             [{"action": "click", "target": ADD_SHIRT}],
             [Call("click", _button("Add Shirt M"))]),
    Scenario("late effect", "/late-effect.html",
             [{"action": "click", "target": ADD_SHIRT}],
             [Call("click", _button("Add Shirt M"))]),
    Scenario("shadow DOM", "/shadow.html",
             [{"action": "click", "target": ADD_SHIRT},
              {"action": "fill", "target": {"role": "spinbutton", "name": "Quantity"}, "value": "2"}],
             [Call("click", _button("Add Shirt M")),
              Call("fill", lambda page: [page.get_by_label("Quantity"), "2"])]),
    Scenario("iframe payment", "/iframe-payment.html",
             [{"action": "fill", "target": {"role": "textbox", "name": "Card number", "frame": "0"}, "value": "4111111111111111"},
              {"action": "click", "target": {"role": "button", "name": "Pay", "frame": "0"}}],
             [Call("fill", lambda page: [page.frame_locator("iframe").first.get_by_label("Card number"), "4111111111111111"]),
              Call("click", lambda page: [page.frame_locator("iframe").first.get_by_role("button", name="Pay")])]),
    Scenario("confirm dialog", "/confirm-dialog.html",
             [{"action": "click", "target": {"role": "button", "name": "Delete account"}},
              {"action": "click", "target": {"role": "button", "name": "Confirm delete"}}],
             [Call("click", _button("Delete account")), Call("click", _button("Confirm delete"))]),
    Scenario("password and caller-declared secrets", "/login.html",
             [{"action": "fill", "target": {"role": "textbox", "name": "Email"}, "value": EMAIL, "sensitive": True},
              {"action": "fill", "target": {"role": "textbox", "name": "Password"}, "value": PASSWORD},
              {"action": "check", "target": {"role": "checkbox", "name": "Show password"}}],
             [Call("fill", lambda page: [page.get_by_label("Email"), EMAIL], {"sensitive": True}),
              Call("fill", lambda page: [page.get_by_label("Password", exact=True), PASSWORD]),
              Call("check", lambda page: [page.get_by_label("Show password")])]),
    Scenario("hover", "/shop.html",
             [{"action": "hover", "target": {"role": "button", "name": "Account"}}],
             [Call("hover", _button("Account"))]),
    Scenario("upload", "/shop.html",
             [{"action": "upload", "target": {"role": "button", "name": "Receipt"}, "files": ["RECEIPT"]}],
             [Call("upload", lambda page: [page.get_by_label("Receipt"), receipt()])]),
    Scenario("drag", "/shop.html",
             [{"action": "drag", "target": {"role": "listitem", "name": "Write invoice"}, "to": {"role": "list", "name": "Done"}}],
             [Call("drag_to", lambda page: [page.get_by_role("listitem").filter(has_text="Write invoice"), page.locator("#done")])]),
    Scenario("watch accept", "/shop.html",
             [{"action": "watch", "intent": "the cart gains a cap", "steps": [{"action": "click", "target": {"role": "button", "name": "Add Cap"}}]}],
             [Call("watch", kwargs={"intent": "the cart gains a cap"}, inner=lambda page: page.get_by_role("button", name="Add Cap"))]),
    Scenario("watch reject", "/recycled-list.html",
             [{"action": "watch", "intent": "the cart gains a Shirt M", "steps": [{"action": "click", "target": ADD_SHIRT}]}],
             [Call("watch", kwargs={"intent": "the cart gains a Shirt M"}, inner=lambda page: page.get_by_role("button", name="Add Shirt M"))]),
    Scenario("cross-origin payment", XORIGIN_PAGE, PAYMENT_CLI, PAYMENT_CALLS),
    Scenario("cross-origin payment out of process", XORIGIN_PAGE, PAYMENT_CLI, PAYMENT_CALLS, host="localhost"),
    Scenario("cross-origin frame under a veil", "/es/covered-frame.html",
             [{"action": "click", "target": {"role": "button", "name": "Pay"}}],
             [Call("click", lambda page: [page.frame_locator("iframe").get_by_role("button", name="Pay")])], host="localhost"),
]


def decided(outcome: Any) -> dict[str, Any]:
    """The fields the machine decides, as the CLI's --json line (and trace) name them."""
    from prufe import PrufeError, Result

    if isinstance(outcome, Result):
        error = (outcome.error or {}).get("code") if outcome.error else None
        return {"verdict": outcome.verdict, "reason": outcome.reason, "target": outcome.target, "attempts": outcome.attempts,
                "undone": outcome.undone, "error": error, "lines": outcome.lines}
    assert isinstance(outcome, PrufeError), outcome
    if outcome.result is not None:
        return {**decided(outcome.result), "error": outcome.code}
    return {"verdict": None, "reason": str(outcome), "target": None, "attempts": 1, "undone": 0, "error": outcome.code, "lines": []}


def run_cli(cli: str, base: str, scenario: Scenario) -> list[dict[str, Any]]:
    """``prufe run --json`` of the scenario's script; each line with its trace's target."""
    with tempfile.TemporaryDirectory(prefix="prufe-cli-") as work:
        steps = json.loads(json.dumps(scenario.cli).replace('"RECEIPT"', json.dumps(receipt())))
        script = Path(work) / "script.json"
        script.write_text(json.dumps(steps))
        traces = Path(work) / "traces"
        run = subprocess.run([cli, "run", "--json", "--trace-dir", str(traces), "--script", str(script), base + scenario.path],
                             capture_output=True, text=True, timeout=120)
        lines = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
        records = [json.loads(p.read_text()) for p in sorted(traces.glob("[0-9]*.json"))]
        out = []
        for line, record in zip(lines, records):
            out.append({"verdict": line["verdict"], "reason": line["reason"], "target": record.get("target"), "attempts": line["attempts"],
                        "undone": line["undone"], "error": line["error"], "lines": line["diff"]})
        return out


def cli_records(base: str) -> dict[str, list[dict[str, Any]]]:
    """Every scenario's CLI records: live when PRUFE_CLI names a binary, else recorded."""
    cli = os.environ.get("PRUFE_CLI")
    if not cli:
        recorded: dict[str, list[dict[str, Any]]] = json.loads(RECORDED.read_text())
        return recorded
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {s.name: pool.submit(run_cli, cli, base, s) for s in SCENARIOS}
        return {name: future.result() for name, future in runs.items()}


if __name__ == "__main__":
    # PRUFE_CLI=target/debug/prufe python3 tests/python/support.py: records the expectations.
    with fixture_server() as base:
        RECORDED.write_text(json.dumps(cli_records(base), indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {RECORDED}")
