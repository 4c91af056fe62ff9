#!/usr/bin/env python3
"""Verified actions at scale through one `prufe mcp` HTTP server: 1, 2, 4 and 8 MCP sessions at once.

One `prufe mcp --port 0` serves every session; each session is a client of the official
Python MCP SDK over streamable HTTP, with a browser context of its own in the server's one
Chromium. Each session runs the script the other surfaces run in scripts/scale.mjs, through
the MCP tools: `browser_navigate` to fixtures/shop.html (served over HTTP), `browser_snapshot`
for the refs, then `browser_click` on "Add <product>" N times (8 unless --clicks says), then
`browser_navigate` to fixtures/recycled-list.html and `browser_click` on "Add Shirt M", which
must be a MISMATCH, undone.

Prints per level: verified actions per second (every session's shop clicks over the span
from the first click's start to the last one's end), p50 and p95 click time (the MCP round
trip of `browser_click`), memory per session (the peak proportional set size of the server
and every process of its Chromium, over the number of sessions; and the peak less the PSS
of the server and its browser idle before the level, over the sessions: what one more
session costs), and whether every session gave the same verdicts. A first session, not
counted, launches the browser. Then a markdown table, or JSON with --json.

    python3 scripts/scale_mcp.py [--levels 1,2,4,8] [--clicks 8] [--json] [--out FILE]

Uses target/release/prufe when it is built, else target/debug/prufe (PRUFE_BIN overrides).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import http.server
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from mcp import Client

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
BUNDLE = Path(os.environ.get("PRUFE_BUNDLE", ROOT / "js" / "dist" / "prufe.js")).resolve()
PRODUCTS = ["Shirt M", "Trousers L", "Socks S", "Jumper XL", "Cap"]


def binary() -> tuple[Path, str]:
    given = os.environ.get("PRUFE_BIN")
    if given:
        return Path(given), "given"
    for profile in ("release", "debug"):
        path = ROOT / "target" / profile / "prufe"
        if path.is_file():
            return path, profile
    sys.exit("scale_mcp: no prufe binary: cargo build -p prufe-harness --release --bin prufe")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


@contextlib.contextmanager
def fixture_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(FIXTURES)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# ---- processes and memory ---------------------------------------------------------------------


def tree(root: int) -> list[int]:
    """The pids below `root` (itself included), from /proc."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue  # ended while the table was read
        parent = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(parent, []).append(int(name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def pss_mib(pids: list[int]) -> float:
    """Proportional set size of the processes, in MiB (shared pages split between them)."""
    kib = 0
    for pid in pids:
        try:
            m = re.search(r"^Pss:\s+(\d+) kB", Path(f"/proc/{pid}/smaps_rollup").read_text(), re.M)
        except OSError:
            continue
        if m:
            kib += int(m.group(1))
    return kib / 1024


class Sampler:
    """The peak PSS of a process tree, sampled every 250 ms while running."""

    def __init__(self, root: int):
        self.root = root
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, pss_mib(tree(self.root)))
            self._stop.wait(0.25)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, pss_mib(tree(self.root)))


# ---- a session ----------------------------------------------------------------------------------


def text_of(result) -> str:
    return "\n".join(b.text for b in result.content if getattr(b, "type", "") == "text")


def ref_of(snapshot: str, role: str, name: str) -> str:
    m = re.search(rf'- {role} "{re.escape(name)}"[^\n]*\[ref=(e\d+)\]', snapshot)
    if not m:
        raise RuntimeError(f"no {role} {name!r} with a ref in the snapshot:\n{snapshot[:2000]}")
    return m.group(1)


def verdict_of(result) -> str:
    s = result.structured_content or {}
    if s.get("verdict"):
        return f"{s['verdict']}, {s.get('undone', 0)} undone" if s.get("undone") else s["verdict"]
    return (s.get("error") or {}).get("code") or text_of(result).splitlines()[0]


async def session(url: str, base: str, clicks: int) -> list[dict]:
    """One client's script: its clicks' times (monotonic seconds) and verdicts."""
    steps = []
    async with Client(url) as client:
        nav = await client.call_tool("browser_navigate", {"url": f"{base}/shop.html"})
        if nav.is_error:
            raise RuntimeError(text_of(nav))
        tree_text = text_of(await client.call_tool("browser_snapshot", {}))
        for i in range(clicks):
            ref = ref_of(tree_text, "button", f"Add {PRODUCTS[i % len(PRODUCTS)]}")
            start = time.monotonic()
            click = await client.call_tool("browser_click", {"target": ref})
            steps.append({"start": start, "end": time.monotonic(), "verdict": verdict_of(click)})
        await client.call_tool("browser_navigate", {"url": f"{base}/recycled-list.html"})
        tree_text = text_of(await client.call_tool("browser_snapshot", {}))
        start = time.monotonic()
        click = await client.call_tool("browser_click", {"target": ref_of(tree_text, "button", "Add Shirt M")})
        steps.append({"start": start, "end": time.monotonic(), "verdict": verdict_of(click), "recycled": True})
    return steps


async def warm_up(url: str) -> None:
    async with Client(url) as client:
        await client.call_tool("browser_snapshot", {})


async def level(url: str, base: str, n: int, clicks: int) -> list[list[dict]]:
    return list(await asyncio.gather(*(session(url, base, clicks) for _ in range(n))))


# ---- the server and the levels ------------------------------------------------------------------


def start_server(path: Path, log_path: Path) -> tuple[subprocess.Popen, str]:
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [str(path), "mcp", "--port", "0"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            env={**os.environ, "PRUFE_BUNDLE": str(BUNDLE)},
            cwd=str(ROOT),
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        m = re.search(r"listening on (http://\S+/mcp)", log_path.read_text())
        if m:
            return server, m.group(1)
        if server.poll() is not None:
            sys.exit(f"scale_mcp: the server exited: {log_path.read_text()}")
        time.sleep(0.05)
    server.kill()
    sys.exit("scale_mcp: the server named no address within 30 s")


def percentile(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, -(-len(s) * p // 100) - 1))]


def runs(sequence: list[str]) -> str:
    """MATCH · MATCH · MISMATCH as MATCH ×2 · MISMATCH."""
    out: list[list] = []
    for v in sequence:
        if out and out[-1][0] == v:
            out[-1][1] += 1
        else:
            out.append([v, 1])
    return " · ".join(f"{v} ×{k}" if k > 1 else v for v, k in out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", default="1,2,4,8")
    parser.add_argument("--clicks", type=int, default=8)
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--out", help="also write the table to this file")
    args = parser.parse_args()
    levels = [int(n) for n in args.levels.split(",")]
    path, profile = binary()
    if not BUNDLE.is_file():
        sys.exit(f"scale_mcp: {BUNDLE} is missing: run `make bundle` first")
    rows = []
    sequences: set[str] = set()
    with fixture_server() as base, tempfile.TemporaryDirectory(prefix="prufe-scale-mcp-") as tmp:
        log_path = Path(tmp) / "server.log"
        server, url = start_server(path, log_path)
        try:
            # The browser is launched by a first session, not counted: every level then
            # starts from the server and its browser with no context open.
            asyncio.run(warm_up(url))
            for n in levels:
                if not args.json:
                    print(f"scale_mcp: {n} session{'s' if n > 1 else ''} at once...", flush=True)
                idle = pss_mib(tree(server.pid))
                with Sampler(server.pid) as sampler:
                    sessions = asyncio.run(level(url, base, n, args.clicks))
                timed = [s for steps in sessions for s in steps if not s.get("recycled")]
                times = [(s["end"] - s["start"]) * 1000 for s in timed]
                span = max(s["end"] for s in timed) - min(s["start"] for s in timed)
                verdicts = [[s["verdict"] for s in steps] for steps in sessions]
                distinct = {" · ".join(v) for v in verdicts}
                sequences |= distinct
                rows.append(
                    {
                        "sessions": n,
                        "actions_per_s": round(len(timed) / span, 2),
                        "p50_ms": round(percentile(times, 50)),
                        "p95_ms": round(percentile(times, 95)),
                        "mib_per_session": round(sampler.peak / n, 1),
                        "mib_per_added_session": round(max(0.0, sampler.peak - idle) / n, 1),
                        "idle_mib": round(idle, 1),
                        "peak_mib": round(sampler.peak, 1),
                        "verdicts_identical": len(distinct) == 1,
                        "verdicts": runs(verdicts[0]),
                    }
                )
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
        log = log_path.read_text()
    ended = len(re.findall(r"session \d+: ended, its browser context closed", log))
    report = {
        "binary": profile,
        "clicks_per_session": args.clicks,
        "cores": os.cpu_count(),
        "load_average": round(os.getloadavg()[0], 1),
        "levels": rows,
        "same_verdicts_everywhere": len(sequences) == 1,
        "sessions_ended_with_their_context_closed": ended,
        "sessions_started": sum(levels) + 1,
    }
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    lines: list[str] = []
    out = lines.append
    out("")
    out(
        f"prufe mcp scale — one server ({profile} build), {args.clicks} verified clicks on fixtures/shop.html "
        f"then the recycling list's 'Add Shirt M' per session, all sessions at once; "
        f"{os.cpu_count()} cores, load average {report['load_average']} at the end"
    )
    out("")
    out(
        "| sessions | actions/s (all sessions) | p50 click ms | p95 click ms | MiB per session (peak PSS / sessions) "
        "| MiB per added session ((peak − idle) / sessions) | verdicts |"
    )
    out("|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        same = "same in every session" if r["verdicts_identical"] else "DIFFERENT between sessions"
        out(
            f"| {r['sessions']} | {r['actions_per_s']:.1f} | {r['p50_ms']} | {r['p95_ms']} | "
            f"{r['mib_per_session']:.0f} | {r['mib_per_added_session']:.0f} | {same} |"
        )
    out("")
    out(
        ("the same verdicts in every session at every level: " if len(sequences) == 1 else f"{len(sequences)} different verdict sequences: ")
        + " / ".join(runs(s.split(" · ")) for s in sorted(sequences))
    )
    out(f"{ended} of {report['sessions_started']} sessions (the warm-up's included) ended with their browser context closed")

    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        Path(args.out).write_text(text.lstrip("\n"))


if __name__ == "__main__":
    main()
