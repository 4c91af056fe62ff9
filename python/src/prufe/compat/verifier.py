"""``ActionPrufe(page)``: ActionPrufe 0.1.0's public API over prufe's machine.

Every action is prufe's verified step (the machine observes, resolves, acts, judges, undoes,
retries); this module only turns the call into the step and the record into ActionPrufe's
values and errors (``_records``). Three things it does itself, because they are ActionPrufe's
contract rather than decisions about the page:

- **Playwright's actionability stays Playwright's.** When prufe refuses a Playwright Locator
  target before acting (covered, hidden, disabled, missing, matching several), the same
  Playwright checks ActionPrufe's action would have run are run instead, without acting
  (``trial=True``, or the element states ``fill`` waits for): Playwright raises its own
  ``TimeoutError`` (or strict-mode ``Error``) after the page's default timeout, and the page
  is left untouched. Should the checks pass (the overlay went away meanwhile), the verified
  step runs once more.
- **A wrong drop is dragged back**, as ActionPrufe's inverse: prufe is given the step that
  drags the element onto the list it came from (when prufe can name that list).
- **Traces** are ActionPrufe's (``trace_dir``): one JSON file per action,
  ``0001-click-match.json``, redacted like everything else.

``ActionPrufe(page)`` takes an async Playwright page, as ActionPrufe does; given a sync page
it returns a ``SyncActionPrufe``, the same methods without ``await``.
"""

from __future__ import annotations

import json
import logging
import os
from contextlib import asynccontextmanager, contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, AsyncIterator, Iterator, Literal, Mapping, Optional, Union

import playwright.async_api
import playwright.sync_api

from .. import async_api as _async
from .. import sync_api as _sync
from .._api import is_locator
from .._driver import Gen
from .._errors import PrufeError
from . import _records
from .ai_judge import AIJudge, Arbiter
from .errors import IrreversibleAction, UndoFailed, VerificationFailed
from .types import REDACTED, ActionSpec, Judgement, Observation, Result, Snapshot

log = logging.getLogger("prufe.compat")

#: What to do with an AMBIGUOUS effect when no arbiter decides it.
AmbiguousPolicy = Literal["reject", "accept"]

#: prufe's refusals before acting that ActionPrufe leaves to Playwright's actionability.
ACTIONABILITY = ("TARGET_OBSCURED", "TARGET_NOT_VISIBLE", "TARGET_DISABLED", "TARGET_NOT_FOUND", "TARGET_AMBIGUOUS", "TARGET_NOT_STABLE")
#: The element states Playwright waits for before each action without a trial run.
_WAITS = {"fill": ("visible", "enabled", "editable"), "select": ("visible", "enabled"), "press": (), "upload": ()}

#: The position of an ``<iframe>``/``<frame>`` among its document's frames, in document order
#: through open shadow roots: how prufe numbers a frame in its region (``prufe.frameIndex``).
_FRAME_INDEX = """(el) => {
  const out = [];
  const walk = (root, depth) => {
    if (depth > 64) return;
    for (const e of root.querySelectorAll('*')) {
      if (e.localName === 'iframe' || e.localName === 'frame') out.push(e);
      if (e.shadowRoot) walk(e.shadowRoot, depth + 1);
    }
  };
  walk(el.ownerDocument, 0);
  return out.indexOf(el);
}"""


def _clean(name: Optional[str]) -> str:
    return " ".join((name or "").replace("/", "-").replace(":", "-").split())[:140]


def _has_frames(value: Any) -> bool:
    return "frame[" in json.dumps(value, ensure_ascii=False, default=str)


class _Step:
    """One call: what it asked, and (once resolved) the prufe target of its element."""

    def __init__(self, kind: str, payload: Optional[str], intent: Optional[str], sensitive: bool) -> None:
        self.kind = kind
        self.payload = payload
        self.intent = intent
        self.sensitive = sensitive
        self.target: Optional[dict[str, Any]] = None


class _Common:
    """What the async and the sync ActionPrufe share: options, steps, translation, traces."""

    _inner: Any

    def _setup(self, page: Any, ai_judge: Optional[AIJudge], ambiguous: str, max_attempts: Optional[int], quiet_ms: Optional[int], timeout_ms: Optional[int],
               trace_dir: "Optional[Union[str, os.PathLike[str]]]") -> dict[str, Any]:
        self._page = page
        self._arbiter = Arbiter(ai_judge) if ai_judge is not None else None
        self._ambiguous = ambiguous
        self._max_attempts = max(1, max_attempts) if max_attempts is not None else None
        self._quiet_ms = quiet_ms
        self._timeout_ms = timeout_ms
        self._trace_dir = Path(trace_dir) if trace_dir is not None else None
        self._traced = 0
        return {"ai_judge": self._arbiter, "ambiguous": ambiguous, "max_attempts": self._max_attempts, "quiet_ms": quiet_ms,
                "timeout_ms": timeout_ms, "screenshots": "off"}

    # -- the step -------------------------------------------------------------------------

    def _gen(self, step: _Step, target: Any, to: Any, fields: dict[str, Any]) -> Gen:
        core = self._inner._core
        yield from core.driver.world.start()
        action: dict[str, Any] = {"kind": step.kind}
        step.target = yield from core.target(target)
        action["target"] = step.target
        inverse = None
        if to is not None:
            action["to"] = yield from core.target(to, place=True)
            inverse = yield from self._drag_back(target, step.target)
        action.update({k: v for k, v in fields.items() if v is not None})
        if self._arbiter is not None:
            self._arbiter.said = None
        result = yield from core.act(action, step.intent, inverse)
        return result.record

    def _drag_back(self, source: Any, moved: dict[str, Any]) -> Gen:
        """ActionPrufe's inverse of a drop: the dragged element back onto the list it came from
        (by its role and name, wherever it landed); ``None`` when that list is not one prufe
        can name, and a wrong drop then has no inverse."""
        if not is_locator(source) or not moved.get("name") or moved.get("in") or moved.get("nth") is not None:
            return None
        origin = source.locator("xpath=ancestor::*[self::ul or self::ol or @role='list'][1]")
        try:
            home = yield from self._inner._core.target(origin, place=True)
        except Exception:  # no list prufe can name: the drop has no inverse
            return None
        return [{"action": {"kind": "drag", "target": {"role": moved["role"], "name": moved["name"]}, "to": home}}]

    @staticmethod
    def _before_acting(error: PrufeError) -> bool:
        """Refused before anything was sent to the page (nothing to undo, safe to run again)."""
        record = getattr(error, "record", None)
        return error.code in ACTIONABILITY and (record is None or (record.get("verdict") is None and not record.get("undone")))

    # -- records as ActionPrufe's values --------------------------------------------------------

    def _spec(self, step: _Step, record: Mapping[str, Any], frames: _records.Frames) -> ActionSpec:
        target = _records.key(step.target, frames) if step.target else _records.target_key(record.get("target"), frames)
        sensitive = step.sensitive or record.get("value") == _records.PRUFE_REDACTED
        states: frozenset[str] = frozenset()
        value: Optional[str] = None
        diff = record.get("diff") or {}
        for change in list(diff.get("changed") or []) + list(diff.get("moved") or []):
            before = change.get("before") or {}
            if target is not None and _records.key(before, frames) == target:
                states, value = _records.states(before), before.get("value")
                break
        payload = REDACTED if sensitive and step.payload is not None else step.payload
        return ActionSpec(kind=step.kind, target=target, target_states=states, target_value=_records.unredacted(value) if value is not None else None,
                          payload=payload, intent=step.intent, sensitive=sensitive)

    def _result(self, step: _Step, record: Mapping[str, Any], frames: _records.Frames) -> Result:
        spec = self._spec(step, record, frames)
        translated = _records.Translated(record, frames)
        judgement = _records.judgement(record, translated, spec)
        if record.get("arbiter") is not None and self._arbiter is not None and self._arbiter.said is not None:
            said = self._arbiter.said
            judgement = Judgement(said.verdict, said.reason, escalated=True)
        result = Result(spec=spec, judgement=judgement, diff=translated.diff, attempts=int(record.get("attempts") or 1),
                        undone=int(record.get("undone") or 0))
        self._trace(result)
        return result

    def _failure(self, step: _Step, error: PrufeError, frames: _records.Frames) -> BaseException:
        """The ActionPrufe error of a failed verification, chained as ActionPrufe chains it."""
        assert error.result is not None
        record = error.result.record
        result = self._result(step, record, frames)
        failure = VerificationFailed(result.judgement, result.diff, result.attempts, result.spec)
        if error.code == "UNDO_FAILED":
            left = _records.residue(list(record.get("residue") or []), frames)
            undo = UndoFailed(f"se intento deshacer pero quedan efectos sin retirar:\n{left.describe()}", left)
            undo.__cause__ = failure
            return undo
        if error.code == "IRREVERSIBLE_ACTION":
            irreversible = IrreversibleAction(
                f"no hay inversa conocida para {step.kind} sobre {result.spec.target}; efectos sin deshacer:\n{result.diff.describe()}")
            irreversible.__cause__ = failure
            return irreversible
        return failure

    def _trace(self, result: Result) -> None:
        """ActionPrufe's trace of one action; a trace that cannot be written loses the record,
        never the action."""
        if self._trace_dir is None:
            return
        self._traced += 1
        spec, target = result.spec, result.spec.target
        record = {
            "momento": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "accion": spec.kind,
            "objetivo": {"rol": target.role if target else None, "nombre": target.name if target else None, "region": target.region if target else None},
            "valor": REDACTED if spec.sensitive else spec.payload,
            "intencion": spec.intent,
            "intento": result.attempts,
            "veredicto": result.judgement.verdict.value,
            "motivo": result.judgement.reason,
            "desempatado_por_ia": result.judgement.escalated,
            "url_cambio": result.diff.url_changed,
            "cambios": [{"tipo": c.kind, "rol": c.key.role, "nombre": c.key.name, "region": c.key.region,
                         "antes": c.before[0] if c.before else None, "despues": c.after[0] if c.after else None} for c in result.diff.changes],
        }
        try:
            self._trace_dir.mkdir(parents=True, exist_ok=True)
            path = self._trace_dir / f"{self._traced:04d}-{spec.kind}-{record['veredicto']}.json"
            path.write_text(json.dumps(record, indent=2, ensure_ascii=False), encoding="utf-8")
        except OSError as error:
            log.warning("the trace could not be written to %s: %s", self._trace_dir, error)

    def _settled(self, state: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
        run = json.loads(state["turn"]["run"])
        attempt = run.get("attempt") or {}
        return attempt.get("before") or {}, bool(attempt.get("stableBefore"))


class ActionPrufe(_Common):
    """Verified Playwright actions on one page: each returns a ``Result`` when its effect is
    the intended one, and raises ``VerificationFailed`` (undone), ``UndoFailed`` or
    ``IrreversibleAction`` when it is not."""

    def __new__(cls, page: Any, **options: Any) -> "ActionPrufe":
        if cls is ActionPrufe and isinstance(page, playwright.sync_api.Page):
            return super().__new__(SyncActionPrufe)
        return super().__new__(cls)

    def __init__(
        self,
        page: playwright.async_api.Page,
        *,
        ai_judge: Optional[AIJudge] = None,
        ambiguous: AmbiguousPolicy = "reject",
        max_attempts: Optional[int] = None,
        quiet_ms: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        trace_dir: "Optional[Union[str, os.PathLike[str]]]" = None,
    ) -> None:
        options = self._setup(page, ai_judge, ambiguous, max_attempts, quiet_ms, timeout_ms, trace_dir)
        self._inner = _async.Prufe(page, **options)

    async def _frames(self, value: Any) -> dict[str, str]:
        if not _has_frames(value):
            return {}
        page = self._page
        paths: dict[Any, str] = {page.main_frame: ""}
        names: dict[str, str] = {}

        async def path_of(frame: Any) -> str:
            if frame not in paths:
                parent = frame.parent_frame
                above = await path_of(parent) if parent is not None else ""
                element = await frame.frame_element()
                try:
                    index = await element.evaluate(_FRAME_INDEX)
                finally:
                    await element.dispose()
                paths[frame] = f"{above}.{index}" if above else str(index)
            return paths[frame]

        for position, frame in enumerate(page.frames):
            if frame is page.main_frame:
                continue
            try:
                names[await path_of(frame)] = f"marco{position}:{_clean(frame.name) or 'iframe'}"
            except playwright.async_api.Error:  # a frame that went away meanwhile
                continue
        return names

    async def _playwright_checks(self, kind: str, target: Any, to: Any) -> None:
        """What Playwright would check before this action, without acting: raises its own
        TimeoutError (or strict-mode Error) when the element is not actionable."""
        if kind in ("click", "check", "uncheck", "hover"):
            await getattr(target, kind)(trial=True)
        elif kind == "drag":
            await target.drag_to(to, trial=True)
        else:
            handle = await target.element_handle()
            try:
                for state in _WAITS.get(kind, ()):
                    await handle.wait_for_element_state(state)
            finally:
                await handle.dispose()

    async def _act(self, kind: str, target: Any, *, to: Any = None, intent: Optional[str] = None, payload: Optional[str] = None,
                   sensitive: bool = False, fields: Optional[dict[str, Any]] = None) -> Result:
        for again in (False, True):
            step = _Step(kind, payload, intent, sensitive)
            try:
                record = await _async.run(self._gen(step, target, to, fields or {}), self._inner._port)
            except PrufeError as error:
                if error.code in ("VERIFICATION_FAILED", "UNDO_FAILED", "IRREVERSIBLE_ACTION") and error.result is not None:
                    failure = self._failure(step, error, await self._frames(error.result.record))
                    raise failure from failure.__cause__
                if not again and self._before_acting(error) and is_locator(target) and (to is None or is_locator(to)):
                    await self._playwright_checks(kind, target, to)
                    continue
                raise
            return self._result(step, record, await self._frames(record))
        raise AssertionError("unreachable")

    async def click(self, target: playwright.async_api.Locator, *, intent: Optional[str] = None) -> Result:
        """Clicks, and checks that the effect belongs to that element."""
        return await self._act("click", target, intent=intent)

    async def check(self, target: playwright.async_api.Locator, *, intent: Optional[str] = None) -> Result:
        """Checks a box, and checks that it (and only it) became checked."""
        return await self._act("check", target, intent=intent)

    async def uncheck(self, target: playwright.async_api.Locator, *, intent: Optional[str] = None) -> Result:
        return await self._act("uncheck", target, intent=intent)

    async def fill(self, target: playwright.async_api.Locator, value: str, *, intent: Optional[str] = None, sensitive: bool = False) -> Result:
        """Types ``value`` into the field; ``sensitive=True`` keeps it out of every output."""
        return await self._act("fill", target, intent=intent, payload=value, sensitive=sensitive,
                               fields={"value": value, "sensitive": True if sensitive else None})

    async def select_option(self, target: playwright.async_api.Locator, label: str, *, intent: Optional[str] = None, sensitive: bool = False) -> Result:
        return await self._act("select", target, intent=intent, payload=label, sensitive=sensitive, fields={"option": label})

    async def press(self, target: playwright.async_api.Locator, key: str, *, intent: Optional[str] = None) -> Result:
        return await self._act("press", target, intent=intent, payload=key, fields={"key": key})

    async def hover(self, target: playwright.async_api.Locator, *, intent: Optional[str] = None) -> Result:
        return await self._act("hover", target, intent=intent)

    async def upload(self, target: playwright.async_api.Locator, path: "Union[str, os.PathLike[str]]", *, intent: Optional[str] = None) -> Result:
        file = Path(path)
        return await self._act("upload", target, intent=intent, payload=file.name, fields={"files": [os.path.abspath(file)]})

    async def drag_to(self, source: playwright.async_api.Locator, destination: playwright.async_api.Locator, *, intent: Optional[str] = None) -> Result:
        """Drags ``source`` onto ``destination``; what is verified is that *that* element moved."""
        return await self._act("drag", source, to=destination, intent=intent)

    @asynccontextmanager
    async def watch(self, intent: Optional[str] = None) -> AsyncIterator[Observation]:
        """Observes what someone else does inside the block: never acts, undoes or raises on a
        verdict; ``observation.result`` is filled in when the block ends."""
        core, port = self._inner._core, self._inner._port
        step = _Step("watch", None, intent, False)
        observation = Observation(spec=ActionSpec(kind="watch", target=None, target_states=frozenset(), intent=intent))
        state = await _async.run(core.watch_begin(intent), port)
        yield observation
        if self._arbiter is not None:
            self._arbiter.said = None
        seen = await _async.run(core.watch_end(state, intent), port)
        observation.result = self._result(step, seen.record, await self._frames(seen.record))

    async def settle(self) -> Snapshot:
        """Waits until the page stops changing and returns what it shows (``settled`` is False
        when it was still changing at ``timeout_ms``)."""
        state = await _async.run(self._inner._core.watch_begin(None), self._inner._port)
        observed, settled = self._settled(state)
        return _records.snapshot(observed, self._page.url, settled, await self._frames(observed))


class SyncActionPrufe(ActionPrufe):
    """``ActionPrufe`` on a sync Playwright page: the same methods, without ``await``."""

    def __init__(
        self,
        page: playwright.sync_api.Page,
        *,
        ai_judge: Optional[AIJudge] = None,
        ambiguous: AmbiguousPolicy = "reject",
        max_attempts: Optional[int] = None,
        quiet_ms: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        trace_dir: "Optional[Union[str, os.PathLike[str]]]" = None,
    ) -> None:
        options = self._setup(page, ai_judge, ambiguous, max_attempts, quiet_ms, timeout_ms, trace_dir)
        self._inner = _sync.Prufe(page, **options)

    def _frames(self, value: Any) -> dict[str, str]:  # type: ignore[override]
        if not _has_frames(value):
            return {}
        page = self._page
        paths: dict[Any, str] = {page.main_frame: ""}
        names: dict[str, str] = {}

        def path_of(frame: Any) -> str:
            if frame not in paths:
                parent = frame.parent_frame
                above = path_of(parent) if parent is not None else ""
                element = frame.frame_element()
                try:
                    index = element.evaluate(_FRAME_INDEX)
                finally:
                    element.dispose()
                paths[frame] = f"{above}.{index}" if above else str(index)
            return paths[frame]

        for position, frame in enumerate(page.frames):
            if frame is page.main_frame:
                continue
            try:
                names[path_of(frame)] = f"marco{position}:{_clean(frame.name) or 'iframe'}"
            except playwright.sync_api.Error:
                continue
        return names

    def _playwright_checks(self, kind: str, target: Any, to: Any) -> None:  # type: ignore[override]
        if kind in ("click", "check", "uncheck", "hover"):
            getattr(target, kind)(trial=True)
        elif kind == "drag":
            target.drag_to(to, trial=True)
        else:
            handle = target.element_handle()
            try:
                for state in _WAITS.get(kind, ()):
                    handle.wait_for_element_state(state)
            finally:
                handle.dispose()

    def _act(self, kind: str, target: Any, *, to: Any = None, intent: Optional[str] = None, payload: Optional[str] = None,  # type: ignore[override]
             sensitive: bool = False, fields: Optional[dict[str, Any]] = None) -> Result:
        for again in (False, True):
            step = _Step(kind, payload, intent, sensitive)
            try:
                record = _sync.run(self._gen(step, target, to, fields or {}), self._inner._port)
            except PrufeError as error:
                if error.code in ("VERIFICATION_FAILED", "UNDO_FAILED", "IRREVERSIBLE_ACTION") and error.result is not None:
                    failure = self._failure(step, error, self._frames(error.result.record))
                    raise failure from failure.__cause__
                if not again and self._before_acting(error) and is_locator(target) and (to is None or is_locator(to)):
                    self._playwright_checks(kind, target, to)
                    continue
                raise
            return self._result(step, record, self._frames(record))
        raise AssertionError("unreachable")

    def click(self, target: playwright.sync_api.Locator, *, intent: Optional[str] = None) -> Result:  # type: ignore[override]
        return self._act("click", target, intent=intent)

    def check(self, target: playwright.sync_api.Locator, *, intent: Optional[str] = None) -> Result:  # type: ignore[override]
        return self._act("check", target, intent=intent)

    def uncheck(self, target: playwright.sync_api.Locator, *, intent: Optional[str] = None) -> Result:  # type: ignore[override]
        return self._act("uncheck", target, intent=intent)

    def fill(self, target: playwright.sync_api.Locator, value: str, *, intent: Optional[str] = None, sensitive: bool = False) -> Result:  # type: ignore[override]
        return self._act("fill", target, intent=intent, payload=value, sensitive=sensitive,
                         fields={"value": value, "sensitive": True if sensitive else None})

    def select_option(self, target: playwright.sync_api.Locator, label: str, *, intent: Optional[str] = None, sensitive: bool = False) -> Result:  # type: ignore[override]
        return self._act("select", target, intent=intent, payload=label, sensitive=sensitive, fields={"option": label})

    def press(self, target: playwright.sync_api.Locator, key: str, *, intent: Optional[str] = None) -> Result:  # type: ignore[override]
        return self._act("press", target, intent=intent, payload=key, fields={"key": key})

    def hover(self, target: playwright.sync_api.Locator, *, intent: Optional[str] = None) -> Result:  # type: ignore[override]
        return self._act("hover", target, intent=intent)

    def upload(self, target: playwright.sync_api.Locator, path: "Union[str, os.PathLike[str]]", *, intent: Optional[str] = None) -> Result:  # type: ignore[override]
        file = Path(path)
        return self._act("upload", target, intent=intent, payload=file.name, fields={"files": [os.path.abspath(file)]})

    def drag_to(self, source: playwright.sync_api.Locator, destination: playwright.sync_api.Locator, *, intent: Optional[str] = None) -> Result:  # type: ignore[override]
        return self._act("drag", source, to=destination, intent=intent)

    @contextmanager
    def watch(self, intent: Optional[str] = None) -> Iterator[Observation]:  # type: ignore[override]
        core, port = self._inner._core, self._inner._port
        step = _Step("watch", None, intent, False)
        observation = Observation(spec=ActionSpec(kind="watch", target=None, target_states=frozenset(), intent=intent))
        state = _sync.run(core.watch_begin(intent), port)
        yield observation
        if self._arbiter is not None:
            self._arbiter.said = None
        seen = _sync.run(core.watch_end(state, intent), port)
        observation.result = self._result(step, seen.record, self._frames(seen.record))

    def settle(self) -> Snapshot:  # type: ignore[override]
        state = _sync.run(self._inner._core.watch_begin(None), self._inner._port)
        observed, settled = self._settled(state)
        return _records.snapshot(observed, self._page.url, settled, self._frames(observed))


__all__ = ["ActionPrufe", "SyncActionPrufe", "AmbiguousPolicy"]
