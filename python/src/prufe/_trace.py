"""``trace_dir``: one JSON record per action, the files ``prufe run --trace-dir`` writes
(harness/src/trace.rs), plus ``traces.js`` for the viewer (www/viewer/index.html?load=…).
Every string passes through the same redaction as everything else (``_redact``); a record that cannot be
written is lost with one warning, and the action is not affected. With pictures (``screenshots=``)
``NNNN-….before.jpg`` and ``….after.jpg`` are written beside the record and named by its
``pictures`` field, as the CLI writes them (harness/src/pictures.rs)."""

from __future__ import annotations

import json
import os
import re
import warnings
from pathlib import Path
from typing import Any, Optional

from ._redact import Redactor


def _safe(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "step"


class TraceWriter:
    def __init__(self, directory: "str | os.PathLike[str]") -> None:
        self.dir = Path(directory)
        self.seq = 0
        self.warned = False

    def write(self, entry: Optional[dict[str, Any]], action: str, error_code: Optional[str], error_text: Optional[str], started_at: str, redactor: Redactor, pictures: Optional[dict[str, dict[str, Any]]] = None) -> Optional[Path]:
        """Writes a step's entry: the machine's (``prufeRun.trace``, scrubbed by it) for a step
        that has a record, else the step that ended before it had one (``action``,
        ``error_code``), scrubbed here."""
        self.seq += 1
        if entry:
            body: dict[str, Any] = {**entry["entry"], "step": self.seq}
            name = entry["name"]
        else:
            body = {
                "step": self.seq, "action": action, "target": None, "intent": None, "verdict": None,
                "ok": error_code is None, "error": error_code, "reason": error_text or "",
                "attempts": 0, "undone": 0, "diff": None, "durationMs": 0, "startedAt": started_at,
            }
            name = f"{_safe(action)}-{(error_code or 'done').lower().replace('_', '-')}"
            body = redactor.scrub_value(body)
        stem = f"{self.seq:04d}-{name}"
        path = self.dir / f"{stem}.json"
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            named: dict[str, Any] = {}
            for which in ("before", "after"):
                shot = (pictures or {}).get(which)
                if not shot:
                    continue
                file = f"{stem}.{which}.jpg"
                (self.dir / file).write_bytes(shot["jpeg"])
                named[which] = {"file": file, **{k: v for k, v in shot.items() if k != "jpeg"}}
            if named:
                body["pictures"] = named
            path.write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
            self._write_viewer_script()
        except OSError as error:
            if not self.warned:
                warnings.warn(f"prufe: trace record not written to {self.dir} ({error}); continuing without it", stacklevel=3)
                self.warned = True
            return None
        return path

    def _write_viewer_script(self) -> None:
        traces = []
        for file in sorted(self.dir.glob("[0-9]*.json")):
            try:
                traces.append({"name": file.name, "json": json.loads(file.read_text(encoding="utf-8"))})
            except ValueError:
                traces.append({"name": file.name, "json": None})
        body = json.dumps(traces, ensure_ascii=False).replace("</", "<\\/")
        (self.dir / "traces.js").write_text(
            "// Written by prufe (Python) with trace_dir: the records of this directory for the viewer.\n"
            f"window.loadTraces({body}, {{ title: {json.dumps(self.dir.name)} }});\n",
            encoding="utf-8",
        )
