"""The driver of prufe's verification machine, written once for both Playwright APIs.

The machine (``prufe-run.js``, the same Rust core the CLI links) decides everything: when to
observe, what to resolve, whether the effect is the intended one, what to undo, whether to
retry. It runs inside the page, in the engine's isolated world, next to ``driver.js``, which
answers every need that is a read of the page without leaving it. This module answers the
rest (real input, navigation, the address, the arbiter) and carries the run's state between
calls, so a navigation in the middle of an action loses nothing.

The driver is sans-I/O: its functions are generators that *yield* operations (``Op``) and
receive their results. ``async_api`` runs them on Playwright's async objects and ``sync_api``
on the sync ones, so the two APIs share every line of logic, the way h11 and quinn-proto
leave I/O to their callers.
"""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import resources
from typing import Any, Callable, Generator, Optional, Union

from ._errors import PrufeError
from ._redact import REDACTED, Redactor

#: The isolated world the engine lives in.
WORLD = "prufe"


@dataclass(frozen=True)
class Op:
    """One operation for the runner: ``name`` is a method of the runner's port."""

    name: str
    args: tuple[Any, ...] = ()


Gen = Generator[Op, Any, Any]


def op(name: str, *args: Any) -> Op:
    return Op(name, args)


def _asset(name: str) -> str:
    try:
        return (resources.files("prufe") / name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PrufeError(
            "NOT_READY",
            f"the package file prufe/{name} is missing: build the package with `make python` "
            "(it copies the engine from js/dist)",
        ) from None


_SOURCES: dict[str, str] = {}


def source(name: str) -> str:
    """A shipped JavaScript file, read once."""
    if name not in _SOURCES:
        _SOURCES[name] = _asset(name)
    return _SOURCES[name]


class Gone(Exception):
    """The document the call ran in went away (a navigation); the call may be sent again."""


# Functions evaluated in the engine's world; each first checks that the driver is there.
_GUARD = "async (a) => { if (typeof prufe === 'undefined') return { missing: 'engine' }; if (typeof prufeDriver === 'undefined') return { missing: 'machine' }; return { value: await (%s)(a) }; }"
TURN = _GUARD % "(a) => prufeDriver.turn(a)"
CALL = _GUARD % "(a) => prufeDriver.call(a)"
FOCUS_TYPING = _GUARD % "(ref) => prufeDriver.focusForTyping(ref)"
FOCUS = _GUARD % "(ref) => prufeDriver.focus(ref)"
IDENTIFY = _GUARD % "(a) => prufeDriver.identify(a)"
FILE_INPUT = "function (ref) { return prufeDriver.fileInput(ref); }"

_GONE_WORDS = (
    "Cannot find context",
    "Execution context was destroyed",
    "Inspected target navigated or closed",
    "context with specified id",
    "Target closed",
)


def _is_gone(error: BaseException) -> bool:
    text = str(error)
    return any(word in text for word in _GONE_WORDS)


class World:
    """The engine's world in the page's main frame: an isolated world through a CDP session
    on Chromium, else the main world (``isolated=False``), where the page could see it."""

    def __init__(self, isolated: bool, timeout_ms: int) -> None:
        self.isolated = isolated
        self.timeout_ms = timeout_ms
        self.main_frame = ""
        self.context: Optional[int] = None
        self.started = False

    # CDP events, delivered by the runner's session.
    def on_event(self, name: str, params: dict[str, Any]) -> None:
        if name == "Runtime.executionContextCreated":
            context = params.get("context") or {}
            aux = context.get("auxData") or {}
            if context.get("name") == WORLD and aux.get("frameId") == self.main_frame:
                self.context = int(context["id"])
        elif name == "Runtime.executionContextDestroyed":
            if params.get("executionContextId") == self.context:
                self.context = None
        elif name == "Runtime.executionContextsCleared":
            self.context = None

    def start(self) -> Gen:
        """Registers the engine for every new document and installs it in the current one."""
        if self.started:
            return
        self.started = True
        bundle = source("engine/prufe.js")
        if not self.isolated:
            yield op("add_init_script", bundle)
            yield op("main_evaluate", "(s) => { if (typeof prufe === 'undefined') (0, eval)(s); }", bundle)
            return
        yield op("open_cdp", self.on_event)
        # Scripts for new documents only run with the Page domain on.
        yield op("cdp", "Page.enable", {})
        tree = yield op("cdp", "Page.getFrameTree", {})
        self.main_frame = tree["frameTree"]["frame"]["id"]
        yield op("cdp", "Page.addScriptToEvaluateOnNewDocument", {"source": bundle, "worldName": WORLD, "runImmediately": True})
        yield op("cdp", "Page.setBypassCSP", {"enabled": True})
        # The machine only in top documents, compiled while the page loads: a new document
        # then costs no install on the first step's critical path. A document that lacks it
        # gets it on first use (`call`).
        yield op("cdp", "Page.addScriptToEvaluateOnNewDocument", {"source": "if (globalThis.top === globalThis) {\n" + self._machine() + "\n}", "worldName": WORLD})
        yield op("cdp", "Runtime.enable", {})
        if self.context is None:
            created = yield op("cdp", "Page.createIsolatedWorld", {"frameId": self.main_frame, "worldName": WORLD})
            self.context = int(created["executionContextId"])


    def _context(self) -> Gen:
        deadline = time.monotonic() + max(self.timeout_ms, 1000) * 2 / 1000
        while self.context is None:
            if time.monotonic() >= deadline:
                raise PrufeError("NOT_READY", "the page's new document did not answer in time")
            yield op("sleep", 0.02)
        return self.context

    def _raw(self, fn: str, arg: Any) -> Gen:
        if not self.isolated:
            try:
                return (yield op("main_evaluate", fn, arg))
            except Exception as error:
                if _is_gone(error):
                    raise Gone(str(error)) from None
                raise
        context = yield from self._context()
        try:
            reply = yield op("cdp", "Runtime.callFunctionOn", {
                "functionDeclaration": fn,
                "executionContextId": context,
                "arguments": [{"value": arg}],
                "awaitPromise": True,
                "returnByValue": True,
            })
        except Exception as error:
            if _is_gone(error):
                if self.context == context:
                    self.context = None
                raise Gone(str(error)) from None
            raise
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            text = (details.get("exception") or {}).get("description") or details.get("text", "")
            if _is_gone(Exception(text)):
                raise Gone(text)
            raise PrufeError("BROWSER_ERROR", str(text))
        return reply["result"].get("value")

    def call(self, fn: str, arg: Any) -> Gen:
        """``fn(arg)`` in the engine's world, the machine and the driver installed first."""
        for _ in range(4):
            reply = yield from self._raw(fn, arg)
            if not isinstance(reply, dict) or not reply.get("missing"):
                return reply["value"] if isinstance(reply, dict) else reply
            if reply["missing"] == "engine":
                yield from self._raw("(s) => { (0, eval)(s); }", source("engine/prufe.js"))
                continue
            yield from self._raw("(s) => { if (typeof prufeDriver === 'undefined') (0, eval)(s); }", self._machine())
        raise PrufeError("NOT_READY", "the machine could not be installed in the page")

    @staticmethod
    def _machine() -> str:
        return source("engine/prufe-run.js") + "\n;\n" + source("driver.js")

    def file_input(self, ref: str) -> Gen:
        """The CDP object id of the file input of ``ref`` (isolated world only)."""
        context = yield from self._context()
        reply = yield op("cdp", "Runtime.callFunctionOn", {
            "functionDeclaration": FILE_INPUT, "executionContextId": context,
            "arguments": [{"value": ref}], "returnByValue": False,
        })
        if "exceptionDetails" in reply:
            raise PrufeError("BROWSER_ERROR", str(reply["exceptionDetails"].get("text", "")))
        object_id = reply["result"].get("objectId")
        if not object_id:
            raise PrufeError("TARGET_NOT_FOUND", "no file input is, is inside or is labelled by the target")
        return object_id


#: JPEG quality and the widest a picture is (harness/src/pictures.rs).
QUALITY = 60
MAX_WIDTH = 800.0


def jpeg_size(jpeg: bytes) -> Optional[tuple[int, int]]:
    """Width and height of a JPEG, from its start-of-frame segment."""
    if jpeg[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(jpeg):
        if jpeg[i] != 0xFF:
            return None
        marker = jpeg[i + 1]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(jpeg[i + 7:i + 9], "big"), int.from_bytes(jpeg[i + 5:i + 7], "big")
        i += 2 + int.from_bytes(jpeg[i + 2:i + 4], "big")
    return None


def _answered_here(need: dict[str, Any]) -> bool:
    """Does the driver (not the page half) answer this need?"""
    kind = need["need"]
    return kind in ("input", "ask", "done", "act") or (kind == "read" and need["read"]["kind"] == "address")


class Failed(Exception):
    """A need that could not be met, with the error its answer carries."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.error = {"code": code, "message": message}


MODIFIERS = {"shift": "Shift", "control": "Control", "ctrl": "Control", "alt": "Alt", "meta": "Meta", "cmd": "Meta", "command": "Meta"}


def now_rfc3339() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Config:
    ambiguous: str = "reject"
    max_attempts: int = 2
    quiet_ms: int = 250
    timeout_ms: int = 5000
    has_arbiter: bool = False
    #: Take the pictures of each step (the trace decides which it keeps).
    pictures: bool = False

    def policy(self) -> dict[str, Any]:
        ambiguous = "arbiter" if self.has_arbiter else self.ambiguous
        return {
            "maxAttempts": max(1, self.max_attempts),
            "ambiguous": ambiguous,
            "timing": {"quietMs": self.quiet_ms, "timeoutMs": self.timeout_ms},
        }


class Driver:
    """Runs steps through the machine for one page. Holds what carries between steps: the
    last observation (``seen``), the caller's secrets and the refs declared sensitive."""

    def __init__(self, world: World, config: Config) -> None:
        self.world = world
        self.config = config
        self.redactor = Redactor()
        self.seen: Optional[str] = None
        self.round_trips = 0
        #: The pictures of the step in progress: ``before`` and ``after``, as the harness
        #: takes them (harness/src/pictures.rs).
        self.shots: dict[str, dict[str, Any]] = {}
        self._point: Optional[dict[str, float]] = None

    # -- the machine --------------------------------------------------------------------

    def _turn(self, payload: dict[str, Any]) -> Gen:
        for _ in range(6):
            try:
                return (yield from self.world.call(TURN, payload))
            except Gone:
                # The document was replaced mid-call: the same turn, on the new document.
                yield op("sleep", 0.05)
        raise PrufeError("NAVIGATION_FAILED", "the page kept replacing its document; the step was not finished")

    def verify(self, step: dict[str, Any], ask: Optional[Callable[[dict[str, Any]], Any]] = None) -> Gen:
        """The record of one verified step (scrubbed of the caller's secrets)."""
        yield from self.world.start()
        action = step["action"]
        if action.get("kind") == "fill" and action.get("sensitive"):
            self.redactor.add(action["value"])
        started = time.monotonic()
        started_at = now_rfc3339()
        self.shots, self._point = {}, None
        turn = yield from self._begin(step)
        turn = yield from self._until_done(turn, ask)
        record = self._record(turn, started, started_at)
        if action.get("kind") == "fill" and record.get("value") == REDACTED:
            self.redactor.add(action["value"])
        scrubbed: dict[str, Any] = self.redactor.scrub_value(record)
        return scrubbed

    def watch_begin(self, intent: Optional[str], ask: Optional[Callable[[dict[str, Any]], Any]] = None) -> Gen:
        """Starts a watch: the machine settles and observes, then waits for the watched code."""
        yield from self.world.start()
        self.seen = None
        started, started_at = time.monotonic(), now_rfc3339()
        turn = yield from self._begin({"action": {"kind": "watch"}, "intent": intent})
        turn = yield from self._until_done(turn, ask, stop_at="act")
        return {"turn": turn, "started": started, "startedAt": started_at}

    def watch_end(self, state: dict[str, Any], ask: Optional[Callable[[dict[str, Any]], Any]] = None) -> Gen:
        """The watched code is done: the machine settles, observes and judges."""
        turn = state["turn"]
        if turn["need"]["need"] == "act":
            turn = yield from self._turn({"run": turn["run"], "answer": {"answer": "acted", "steps": 0}, "timeoutMs": self.config.timeout_ms})
        turn = yield from self._until_done(turn, ask)
        scrubbed: dict[str, Any] = self.redactor.scrub_value(self._record(turn, state["started"], state["startedAt"]))
        return scrubbed

    def _begin(self, step: dict[str, Any]) -> Gen:
        seen = json.loads(self.seen) if self.seen else None
        self.round_trips = 1
        return (yield from self._turn({"begin": {"step": step, "policy": self.config.policy(), "seen": seen}, "timeoutMs": self.config.timeout_ms, "pictures": self._pictures_on()}))

    def _pictures_on(self) -> bool:
        return self.config.pictures and self.world.isolated

    def _until_done(self, turn: dict[str, Any], ask: Optional[Callable[[dict[str, Any]], Any]], stop_at: str = "done") -> Gen:
        while True:
            picture = turn.get("picture")
            if picture is not None:
                yield from self._picture(picture, turn["need"])
                turn = {k: v for k, v in turn.items() if k != "picture"}
                if picture.get("after") and not _answered_here(turn["need"]):
                    turn = yield from self._turn({"run": turn["run"], "resume": turn["need"], "timeoutMs": self.config.timeout_ms, "pictures": True})
                    continue
            if turn["need"]["need"] in ("done", stop_at):
                return turn
            answer = yield from self._answer(turn["need"], ask)
            turn = yield from self._turn({"run": turn["run"], "answer": answer, "timeoutMs": self.config.timeout_ms, "pictures": self._pictures_on()})
            self.round_trips += 1

    def _picture(self, picture: dict[str, Any], need: dict[str, Any]) -> Gen:
        """One picture, every secret covered by the engine for the capture (``prufe.cover``);
        none when it cannot be taken covered."""
        which = "after" if picture.get("after") else "before"
        if which == "before":
            gesture = need.get("gesture") or {}
            point = gesture.get("at") or gesture.get("from")
            if point:
                self._point = point
            self.shots = {}
        target = picture.get("target")
        effect: list[str] = list(picture.get("effect") or [])
        refs = ([target] if target else []) + effect
        try:
            boxes = (yield from self.call("boxes", refs)) if refs else []
            covered = yield from self.call("cover", {"sensitive": picture.get("sensitive") or [], "secrets": self.redactor.secrets()})
            try:
                metrics = yield op("cdp", "Page.getLayoutMetrics", {})
                css = metrics["cssVisualViewport"]
                device = (metrics.get("visualViewport") or {}).get("clientWidth") or css["clientWidth"]
                dpr = max(1.0, device / css["clientWidth"]) if css["clientWidth"] else 1.0
                full = css["clientWidth"] * dpr
                scale = MAX_WIDTH / full if full > MAX_WIDTH else 1.0
                shot = yield op("cdp", "Page.captureScreenshot", {
                    "format": "jpeg", "quality": QUALITY, "captureBeyondViewport": False,
                    "clip": {"x": css["pageX"], "y": css["pageY"], "width": css["clientWidth"], "height": css["clientHeight"], "scale": scale},
                })
            finally:
                yield from self.call("uncover")
        except Exception:  # no picture rather than one taken uncovered
            return
        jpeg = base64.b64decode(shot["data"])
        size = jpeg_size(jpeg)
        if size is None:
            return
        k = size[0] / css["clientWidth"]

        def scaled(b: dict[str, float]) -> dict[str, float]:
            return {key: round(b[key] * k, 1) for key in ("x", "y", "width", "height")}

        target_box = boxes[0] if target and boxes and boxes[0] else None
        effect_boxes = [b for b in boxes[1 if target else 0:] if b and b["width"] > 0 and b["height"] > 0]
        self.shots[which] = {
            "jpeg": jpeg, "width": size[0], "height": size[1], "scale": round(k, 4),
            "target": scaled(target_box) if target_box else None,
            "effect": [scaled(b) for b in effect_boxes],
            "point": {"x": round(self._point["x"] * k, 1), "y": round(self._point["y"] * k, 1)} if self._point else None,
            "masked": [scaled(b) for b in covered["boxes"]],
        }

    def _record(self, turn: dict[str, Any], started: float, started_at: str) -> dict[str, Any]:
        record: dict[str, Any] = dict(turn["need"]["record"])
        run = json.loads(turn["run"])
        self.seen = json.dumps(run["seen"]) if run.get("seen") else None
        record["durationMs"] = int((time.monotonic() - started) * 1000)
        record["startedAt"] = started_at
        return record

    def _answer(self, need: dict[str, Any], ask: Optional[Callable[[dict[str, Any]], Any]]) -> Gen:
        try:
            kind = need["need"]
            if kind == "input":
                yield from self._send(need["gesture"])
                return {"answer": "sent"}
            if kind == "read" and need["read"]["kind"] == "address":
                return {"answer": "address", "url": (yield op("url"))}
            if kind == "ask":
                if ask is None:
                    return {"answer": "arbiter", "yes": False, "detail": "no arbiter: an AMBIGUOUS effect is not approved"}
                question = self.redactor.scrub_value(need["question"])
                yes, detail = yield op("ask", ask, question)
                return {"answer": "arbiter", "yes": bool(yes), "detail": self.redactor.scrub(str(detail))}
            raise Failed("INVALID_ARGUMENT", f"this driver does not know the need {kind!r}")
        except Failed as failed:
            return {"answer": "failed", "error": failed.error}
        except PrufeError as error:
            return {"answer": "failed", "error": {"code": error.code, "message": error.message}}
        except Gone as error:
            return {"answer": "failed", "error": {"code": "BROWSER_ERROR", "message": str(error)}}
        except Exception as error:  # the browser library's own errors
            return {"answer": "failed", "error": {"code": "BROWSER_ERROR", "message": self.redactor.scrub(str(error))}}

    def call(self, name: str, *args: Any) -> Gen:
        """One ``window.prufe`` function, an engine error raised as ``Failed``."""
        reply = yield from self.world.call(CALL, {"name": name, "args": list(args)})
        if reply.get("error"):
            raise Failed(reply["error"]["code"], reply["error"]["message"])
        return reply.get("value")

    def _press(self, spec: str) -> Gen:
        parts = spec.split("+")
        key = parts.pop() or "+"
        if key == "+" and parts and parts[-1] == "":
            parts.pop()
        modifiers = [MODIFIERS.get(m.lower(), m) for m in parts]
        for m in modifiers:
            yield op("key_down", m)
        try:
            yield op("key_down", key)
            yield op("key_up", key)
        finally:
            for m in reversed(modifiers):
                yield op("key_up", m)

    def _send(self, gesture: dict[str, Any]) -> Gen:
        kind = gesture["kind"]
        if kind == "click":
            yield op("mouse_move", gesture["at"]["x"], gesture["at"]["y"], 1)
            yield op("mouse_down", gesture["button"])
            yield op("mouse_up", gesture["button"])
        elif kind == "moveTo":
            yield op("mouse_move", gesture["at"]["x"], gesture["at"]["y"], 1)
        elif kind == "drag":
            yield op("mouse_move", gesture["from"]["x"], gesture["from"]["y"], 1)
            yield op("mouse_down", "left")
            yield op("mouse_move", gesture["to"]["x"], gesture["to"]["y"], max(1, int(gesture["steps"])))
            yield op("mouse_up", "left")
        elif kind == "type":
            field = yield from self.world.call(FOCUS_TYPING, gesture["ref"])
            if field.get("error"):
                raise Failed(field["error"]["code"], field["error"]["message"])
            if not field.get("focused") and field.get("point"):
                yield from self._send({"kind": "click", "at": field["point"], "button": "left"})
                field = yield from self.world.call(FOCUS_TYPING, gesture["ref"])
            if not field.get("focused"):
                raise Failed("FOCUS_LOST", "the field did not keep focus; nothing was typed")
            if gesture["text"] == "":
                yield from self._press("Backspace")
            else:
                yield op("insert_text", gesture["text"])
        elif kind == "press":
            if gesture.get("ref") is not None:
                focused = yield from self.world.call(FOCUS, gesture["ref"])
                if focused.get("error"):
                    raise Failed(focused["error"]["code"], focused["error"]["message"])
            yield from self._press(gesture["key"])
        elif kind == "select":
            yield from self.call("select", gesture["ref"], gesture["option"])
        elif kind == "restore":
            yield from self.call("restore", gesture["ref"], gesture["value"])
        elif kind == "setFiles":
            if self.world.isolated:
                object_id = yield from self.world.file_input(gesture["ref"])
                try:
                    yield op("cdp", "DOM.setFileInputFiles", {"files": gesture["files"], "objectId": object_id})
                finally:
                    yield op("cdp", "Runtime.releaseObject", {"objectId": object_id})
            else:
                yield op("main_set_files", gesture["ref"], gesture["files"])
        elif kind == "navigate":
            base = yield op("url")
            from urllib.parse import urljoin

            url = urljoin(base, gesture["url"])
            try:
                yield op("goto", url)
            except Exception as error:
                raise Failed("NAVIGATION_FAILED", f"{url}: {error}") from None
        elif kind == "goBack":
            went = yield op("go_back")
            if not went:
                raise Failed("NAVIGATION_FAILED", "there is no history entry to go back to")
        else:
            raise Failed("INVALID_ARGUMENT", f"this driver does not know the gesture {kind!r}")

    # -- targets ------------------------------------------------------------------------

    def identify(self, path: list[Union[int, str]], sensitive: list[str]) -> Gen:
        """The engine's record of the element at ``path`` (see locator.js)."""
        yield from self.world.start()
        reply = yield from self.world.call(IDENTIFY, {"path": path, "sensitive": sensitive})
        if reply.get("error"):
            raise PrufeError(reply["error"]["code"], reply["error"]["message"])
        element: dict[str, Any] = reply["element"]
        return element

