"""Shared by the package tests: the Chromium command line, a fixture server on 127.0.0.1 (and
its second origin), a Chromium context, and the values the tests type."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import tempfile
import threading
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterator

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
PAGES = Path(__file__).resolve().parent / "pages"
CHROMIUM = os.environ.get("PRUFE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
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
    """A file to upload: `prufe-receipt.txt` in the temporary directory."""
    path = Path(tempfile.gettempdir()) / "prufe-receipt.txt"
    path.write_text("paid\n")
    return str(path)


@contextlib.contextmanager
def serve(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """`handler` on 127.0.0.1 in a thread of its own; yields its origin."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def run_async(main: Callable[[], Awaitable[None]], timeout_s: float = 180) -> None:
    """Runs `main` on an event loop of its own, in a thread of its own (the sync API's loop
    holds the test's thread), and re-raises what it raised."""
    import asyncio

    failed: list[BaseException] = []

    def work() -> None:
        try:
            asyncio.run(main())  # type: ignore[arg-type]
        except BaseException as error:  # re-raised in the test's thread
            failed.append(error)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(timeout=timeout_s)
    assert not thread.is_alive(), f"the async steps did not finish within {timeout_s:.0f} s"
    if failed:
        raise failed[0]
