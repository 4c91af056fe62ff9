"""``trace_dir``: one JSON record per action, the files ``prufe run --trace-dir`` writes
(harness/src/trace.rs), plus ``traces.js`` for the viewer (www/viewer/index.html?load=…).
Every entry is the machine's (core ``run::trace``), scrubbed by it; a record that cannot be
written is lost with one warning, and the action is not affected. With pictures (``screenshots=``)
``NNNN-….before.jpg`` and ``….after.jpg`` are written beside the record and named by its
``pictures`` field, as the CLI writes them (harness/src/pictures.rs)."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import Any, Optional


class TraceWriter:
    def __init__(self, directory: "str | os.PathLike[str]") -> None:
        self.dir = Path(directory)
        self.seq = 0
        self.warned = False

    def write(self, entry: dict[str, Any], pictures: Optional[dict[str, dict[str, Any]]] = None) -> Optional[Path]:
        """Writes a step's entry, the machine's (``prufeRun.trace``, scrubbed by it) whether or
        not the step had a record, numbered by this writer."""
        self.seq += 1
        body: dict[str, Any] = {**entry["entry"], "step": self.seq}
        name = entry["name"]
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
