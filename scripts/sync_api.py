#!/usr/bin/env python3
"""Writes the Python package's sync API (``python/src/prufe/sync_api.py``) from its async API
(``async_api.py``), so that every method, signature, default and docstring is written once.

    python3 scripts/sync_api.py           # writes sync_api.py
    python3 scripts/sync_api.py --check   # exits 1 with a diff when sync_api.py is not what it writes

The way unasync derives httpcore's and urllib3's sync code from their async code, it works on
Python's own tokens (``tokenize``), so the layout and the comments stay as written:

- ``async`` (before ``def``, ``with``, ``for``) and ``await`` go;
- names in ``RENAMES`` change: the async context manager's methods, Playwright's module, and
  ``_io_async``, which holds the only two things the APIs do their own way (waiting and asking
  the arbiter), for ``_io_sync``;
- docstrings say sync for async (``async with`` is ``with``, ``await`` goes); no other string
  changes, so JavaScript sent to the page stays as it is.

The result is checked before it is written: it compiles and holds no ``async`` or ``await``.
``make test`` and ``make check`` run ``--check``.
"""

from __future__ import annotations

import ast
import difflib
import io
import re
import sys
import tokenize
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "src" / "prufe"
SOURCE = PACKAGE / "async_api.py"
TARGET = PACKAGE / "sync_api.py"

HEADER = (
    "# Generated from async_api.py by scripts/sync_api.py: edit async_api.py, then run\n"
    "# `python3 scripts/sync_api.py` (`make test` fails while this file is not what it writes).\n"
)

RENAMES = {
    "__aenter__": "__enter__",
    "__aexit__": "__exit__",
    "async_api": "sync_api",
    "_io_async": "_io_sync",
}

#: What docstrings say differently, in order.
WORDING = (
    (re.compile(r"\basync (with|for)\b"), r"\1"),
    (re.compile(r"\bawait "), ""),
    (re.compile(r"\basync_api\b"), "sync_api"),
    (re.compile(r"\basync\b"), "sync"),
)


def _docstrings(source: str) -> set[tuple[int, int]]:
    """Where each docstring starts (line, column)."""
    places = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                places.add((first.lineno, first.col_offset))
    return places


def generate(source: str) -> str:
    """The sync module for the async module ``source``."""
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def offset(place: tuple[int, int]) -> int:
        return starts[place[0] - 1] + place[1]

    docstrings = _docstrings(source)
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    edits: list[tuple[int, int, str]] = []
    for token, following in zip(tokens, tokens[1:]):
        if token.type == tokenize.NAME and token.string in ("async", "await"):
            # The keyword and the space after it.
            edits.append((offset(token.start), offset(following.start), ""))
        elif token.type == tokenize.NAME and token.string in RENAMES:
            edits.append((offset(token.start), offset(token.end), RENAMES[token.string]))
        elif token.type == tokenize.STRING and token.start in docstrings:
            text = token.string
            for pattern, replacement in WORDING:
                text = pattern.sub(replacement, text)
            edits.append((offset(token.start), offset(token.end), text))
    out = source
    for start, end, text in sorted(edits, reverse=True):
        out = out[:start] + text + out[end:]
    out = HEADER + out
    compile(out, str(TARGET), "exec")
    left = [t.string for t in tokenize.generate_tokens(io.StringIO(out).readline) if t.type == tokenize.NAME and t.string in ("async", "await")]
    if left:
        raise ValueError(f"the generated sync API still holds {left}")
    return out


def main(argv: list[str]) -> int:
    wanted = generate(SOURCE.read_text(encoding="utf-8"))
    if "--check" not in argv:
        TARGET.write_text(wanted, encoding="utf-8")
        return 0
    held = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
    if held == wanted:
        return 0
    sys.stdout.writelines(difflib.unified_diff(held.splitlines(keepends=True), wanted.splitlines(keepends=True), "sync_api.py (committed)", "sync_api.py (from async_api.py)"))
    print(f"{TARGET} is not what scripts/sync_api.py writes from async_api.py: run `python3 scripts/sync_api.py`", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
