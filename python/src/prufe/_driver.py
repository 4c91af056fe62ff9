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


#: What the machine says once per process (``World.machine_defaults``).
_MACHINE: dict[str, Any] = {"defaults": None, "transient": None, "lost": None, "resends": 0}


#: How many installs a call may need before it runs: the engine, then the machine and driver.
_INSTALLS = 2


class Gone(Exception):
    """The document the call ran in went away (a navigation); the call may be sent again."""


# Functions evaluated in the engine's world; each first checks that the driver is there (and,
# for a turn, the machine: only top documents hold it).
_GUARD = "async (a) => { if (typeof prufe === 'undefined') return { missing: 'engine' }; if (typeof prufeDriver === 'undefined') return { missing: 'driver' }; return { value: await (%s)(a) }; }"
_GUARD_RUN = "async (a) => { if (typeof prufe === 'undefined') return { missing: 'engine' }; if (typeof prufeRun === 'undefined' || typeof prufeDriver === 'undefined') return { missing: 'machine' }; return { value: await (%s)(a) }; }"
TURN = _GUARD_RUN % "(a) => prufeDriver.turn(a)"
FRAMES = _GUARD_RUN % "(a) => prufeDriver.frames(a)"
POINTS = _GUARD_RUN % "(a) => prufeDriver.points(a)"
MACHINE_FACTS = _GUARD_RUN % "() => ({ defaults: prufeRun.defaults(), transient: prufeRun.transient(), lost: prufeRun.lost(), resends: prufeRun.resends() })"
# The record finished by the machine: its dialogs' lines, report, summary and trace entry, all
# scrubbed of the caller's secrets (their forms listed anew when ``values`` is given).
FINISHED = _GUARD_RUN % ("(a) => { const secrets = a.values === null ? a.secrets : prufeRun.secretForms(a.values);"
                         " const record = { ...a.record, dialogs: a.heard.length > 0 ? prufeRun.dialogs(a.heard) : [] };"
                         " const done = { record, explain: prufeRun.explain({ record }), summary: prufeRun.summary(record),"
                         " trace: prufeRun.trace({ step: 0, record }) };"
                         " return { secrets, done: secrets.length > 0 ? prufeRun.scrub(secrets, done) : done }; }")
# The report and trace entry of a step that ended before it had a record: the machine's
# (``explain`` of the error, ``trace`` of the ended step), scrubbed of the caller's secrets.
ENDED = _GUARD_RUN % ("(a) => { const done = { message: a.error.message, explain: prufeRun.explain({ error: a.error }),"
                      " trace: a.ended === null ? null : prufeRun.trace({ step: 0, ended: a.ended }) };"
                      " return a.secrets.length > 0 ? prufeRun.scrub(a.secrets, done) : done; }")
SECRET_FORMS = _GUARD_RUN % "(values) => prufeRun.secretForms(values)"
LOCATED = _GUARD_RUN % "(found) => prufeRun.located(found)"
CALL = _GUARD % "(a) => prufeDriver.call(a)"
FOCUS_SELECT = _GUARD % "(ref) => prufeDriver.focusSelect(ref)"
FOCUS = _GUARD % "(ref) => prufeDriver.focus(ref)"
IDENTIFY = _GUARD % "(a) => prufeDriver.identify(a)"
PULSE = _GUARD % "(a) => prufeDriver.pulse(a)"
FOCUS_HERE = _GUARD % "() => prufeDriver.focusHere()"
SNAPSHOT = _GUARD % "(a) => prufeDriver.snapshotHere(a)"
FILE_INPUT = "function (ref) { return prufeDriver.fileInput(ref); }"
NODE_AT = "async function (path) { await globalThis.prufe.ready; return globalThis.prufe.nodeAt(path); }"
FRAME_INDEX = "function () { return globalThis.prufe.frameIndex(this); }"
HIT = "function (x, y) { return globalThis.prufe.hitTest(this, x, y); }"

_GONE_WORDS = (
    "Cannot find context",
    "Execution context was destroyed",
    "Inspected target navigated or closed",
    "context with specified id",
    "Target closed",
    "No frame with given id",
    "Frame with the given id was not found",
    "Session closed",
    "has been closed",
    "No node with given id",
)


def _is_gone(error: BaseException) -> bool:
    text = str(error)
    return any(word in text for word in _GONE_WORDS)


@dataclass(frozen=True)
class Root:
    """A document the engine is called in: the top one (``path`` ``""``) or a frame whose
    origin differs from its parent's. ``session`` is the CDP session its frame lives in:
    ``""`` for the page's, else that of an out-of-process frame."""

    path: str
    frame: str
    session: str


@dataclass
class _Frame:
    id: str
    parent: Optional[str]
    origin: str
    url: str
    session: str


TOP = Root("", "", "")


class World:
    """The engine's worlds in the page: an isolated world per root through CDP sessions on
    Chromium (the page's, and one per out-of-process frame), else the main world of the top
    document (``isolated=False``), where the page could see it and frames of other origins
    stay opaque."""

    def __init__(self, isolated: bool, timeout_ms: Optional[int]) -> None:
        self.isolated = isolated
        #: The caller's timeout; ``None`` for the machine's (``defaults``).
        self.given_timeout_ms = timeout_ms
        #: The policy the machine follows where a field is left out, read from it at start.
        self.defaults: Optional[dict[str, Any]] = None
        #: The JavaScript dialogs closed since they were last taken, and how they were answered
        #: (whoever answered: Playwright dismisses them unless the caller listens for them).
        self.dialogs: list[dict[str, Any]] = []
        self._opened: dict[tuple[str, str], dict[str, Any]] = {}
        self.main_frame = ""
        self.context: Optional[int] = None
        #: The engine's context of each (session, frame).
        self.contexts: dict[tuple[str, str], int] = {}
        self.started = False
        self.sessions: list[str] = [""]
        self._frames: dict[str, _Frame] = {}
        self._roots: list[Root] = [TOP]
        #: The frames changed since the roots were found.
        self._dirty = True
        self._paths: dict[str, str] = {}

    # CDP events, delivered by the runner's sessions.
    def on_event(self, session: str, name: str, params: dict[str, Any]) -> None:
        if name == "Runtime.executionContextCreated":
            context = params.get("context") or {}
            aux = context.get("auxData") or {}
            if context.get("name") == WORLD and aux.get("frameId"):
                self.contexts[(session, aux["frameId"])] = int(context["id"])
                if session == "" and aux.get("frameId") == self.main_frame:
                    self.context = int(context["id"])
        elif name == "Runtime.executionContextDestroyed":
            gone = params.get("executionContextId")
            for key, value in list(self.contexts.items()):
                if key[0] == session and value == gone:
                    del self.contexts[key]
            if session == "" and gone == self.context:
                self.context = None
        elif name == "Runtime.executionContextsCleared":
            for key in [k for k in self.contexts if k[0] == session]:
                del self.contexts[key]
            if session == "":
                self.context = None
        elif name in ("Page.frameAttached", "Page.frameDetached", "Page.frameNavigated"):
            self._dirty = True
        elif name == "Page.javascriptDialogOpening":
            self._opened[(session, str(params.get("frameId", "")))] = {"type": str(params.get("type", "")), "message": str(params.get("message", ""))}
        elif name == "Page.javascriptDialogClosed":
            dialog = self._opened.pop((session, str(params.get("frameId", ""))), None)
            if dialog is not None:
                self.dialogs.append({**dialog, "accepted": bool(params.get("result"))})

    @property
    def timeout_ms(self) -> int:
        """The caller's timeout, else the machine's default (known once ``start`` ran)."""
        if self.given_timeout_ms is not None:
            return self.given_timeout_ms
        assert self.defaults is not None, "the machine's defaults are read at start"
        return int(self.defaults["timing"]["timeoutMs"])

    @property
    def poll_ms(self) -> int:
        """How often a wait of the driver looks again: the machine's (known once ``start`` ran)."""
        assert self.defaults is not None, "the machine's defaults are read at start"
        return int(self.defaults["timing"]["pollMs"])

    def start(self) -> Gen:
        """Registers the engine for every new document and installs it in the current one, and
        reads the machine's defaults."""
        if self.started:
            return
        self.started = True
        yield from self._install()
        if self.defaults is None:
            self.defaults = yield from self.machine_defaults()

    def machine_defaults(self) -> Gen:
        """The machine's default policy (``prufeRun.defaults()``), read once per process with
        the codes of a page that cannot answer now (``prufeRun.transient()``), the error of a
        settle whose page did not come back (``prufeRun.lost()``) and how many times a call is
        sent again when a navigation took what it needs meanwhile (``prufeRun.resends()``)."""
        if _MACHINE["defaults"] is None:
            facts = yield from self.call(MACHINE_FACTS, None)
            _MACHINE["transient"] = tuple(facts["transient"])
            _MACHINE["lost"] = facts["lost"]
            _MACHINE["resends"] = int(facts["resends"])
            _MACHINE["defaults"] = facts["defaults"]
        return _MACHINE["defaults"]

    @staticmethod
    def transient(code: str) -> bool:
        """Is ``code`` one of a page that cannot answer now (a document being replaced), which
        is asked again rather than end the step on? The machine's list, read at start."""
        assert _MACHINE["transient"] is not None, "the machine's codes are read at start"
        return code in _MACHINE["transient"]

    def _install(self) -> Gen:
        bundle = source("engine/prufe.js")
        if not self.isolated:
            for script in (bundle, source("engine/prufe-work.js")):
                yield op("add_init_script", script)
            yield op("main_evaluate", "(s) => { if (typeof prufe === 'undefined') (0, eval)(s); }", bundle)
            yield op("main_evaluate", "(s) => (0, eval)(s)", source("engine/prufe-work.js"))
            return
        yield op("open_cdp", self.on_event)
        tree = yield from self._prepare_session("", machine=True)
        self.main_frame = tree["frame"]["id"]
        if self.context is None:
            self.context = self.contexts.get(("", self.main_frame))
        if self.context is None:
            created = yield op("cdp", "Page.createIsolatedWorld", {"frameId": self.main_frame, "worldName": WORLD})
            self.context = int(created["executionContextId"])
            self.contexts[("", self.main_frame)] = self.context

    def _prepare_session(self, session: str, machine: bool) -> Gen:
        """The engine (and the page half of the driver) registered for every new document of a
        session's frames and run in the loaded ones; its frame tree."""
        bundle = source("engine/prufe.js")
        # Scripts for new documents only run with the Page domain on.
        yield op("cdp", "Page.enable", {}, session)
        tree = yield op("cdp", "Page.getFrameTree", {}, session)
        yield op("cdp", "Page.addScriptToEvaluateOnNewDocument", {"source": bundle, "worldName": WORLD, "runImmediately": True}, session)
        # The page's own timers are seen from its main world only (engine/prufe-work.js).
        yield op("cdp", "Page.addScriptToEvaluateOnNewDocument", {"source": source("engine/prufe-work.js"), "runImmediately": True}, session)
        yield op("cdp", "Page.setBypassCSP", {"enabled": True}, session)
        if machine:
            # The machine only in top documents, compiled while the page loads: a new
            # document then costs no install on the first step's critical path. A document
            # that lacks it gets it on first use (`call`).
            yield op("cdp", "Page.addScriptToEvaluateOnNewDocument", {"source": "if (globalThis.top === globalThis) {\n" + source("engine/prufe-run.js") + "\n}", "worldName": WORLD}, session)
        yield op("cdp", "Page.addScriptToEvaluateOnNewDocument", {"source": source("driver.js"), "worldName": WORLD, "runImmediately": True}, session)
        yield op("cdp", "Runtime.enable", {}, session)
        frame_tree: dict[str, Any] = tree["frameTree"]
        return frame_tree

    # -- roots --------------------------------------------------------------------------

    def roots(self) -> Gen:
        """The page's roots, top first: found again only after its frames changed."""
        if not self.isolated or not self._dirty:
            return self._roots
        self._dirty = False
        try:
            self._roots = yield from self._find_roots()
        except Exception as error:
            # Looked for again next time.
            self._dirty = True
            if isinstance(error, (Gone, PrufeError)) or not _is_gone(error):
                raise
            # A frame went away meanwhile: the roots known so far, this once.
        return self._roots

    def _find_roots(self) -> Gen:
        frames: dict[str, _Frame] = {}

        def walk(node: dict[str, Any], session: str) -> None:
            f = node["frame"]
            frames[f["id"]] = _Frame(f["id"], f.get("parentId"), f.get("securityOrigin", ""), f.get("url", ""), session)
            for child in node.get("childFrames") or []:
                walk(child, session)

        tree = yield op("cdp", "Page.getFrameTree", {}, "")
        walk(tree["frameTree"], "")
        for session in list(self.sessions[1:]):
            try:
                sub = yield op("cdp", "Page.getFrameTree", {}, session)
            except Exception as error:
                if not _is_gone(error):
                    raise
                self.sessions.remove(session)
                yield op("close_session", session)
                continue
            walk(sub["frameTree"], session)
        # Frames of other processes have sessions of their own; Playwright knows them all,
        # so a frame it counts beyond these trees is one to open a session for.
        opened = yield op("frame_sessions", len(frames), self.on_event)
        for session in opened:
            sub = yield from self._prepare_session(session, machine=False)
            self.sessions.append(session)
            walk(sub, session)
        self._frames = frames
        top = frames.get(self.main_frame)
        if top is None or len(frames) == 1:
            return [TOP]
        children = [f for f in frames.values() if f.parent and f.parent in frames]
        if not children:
            return [TOP]
        pairs = [{"child": {"origin": f.origin, "url": f.url}, "parent": {"origin": frames[f.parent].origin, "url": frames[f.parent].url}} for f in children if f.parent]
        same = yield from self.frames_rule("sameOrigin", pairs)
        roots = [TOP]
        self._paths = {self.main_frame: ""}
        for f, alike in zip(children, same):
            if alike:
                continue
            try:
                path = yield from self._path(f.id)
            except (PrufeError, Gone):
                continue
            roots.append(Root(path, f.id, f.session))
        return roots

    def _path(self, frame: str) -> Gen:
        """A frame's position path: its ``<iframe>``'s ``prufe.frameIndex`` in its parent's
        world, dotted for nesting (harness/src/observe.rs ``frame_path``)."""
        if frame in self._paths:
            return self._paths[frame]
        f = self._frames[frame]
        if not f.parent or f.parent not in self._frames:
            raise PrufeError("BROWSER_ERROR", "frame without a parent")
        parent_path = yield from self._path(f.parent)
        owner = yield from self.owner(frame)
        handle = yield from self._resolve(self._frames[f.parent].session, f.parent, owner)
        index = yield from self._call_on(self._frames[f.parent].session, handle, FRAME_INDEX, [])
        if not isinstance(index, int) or index < 0:
            raise PrufeError("BROWSER_ERROR", "frame owner not found in its document")
        path = f"{parent_path}.{index}" if parent_path else str(index)
        self._paths[frame] = path
        return path

    def owner(self, frame: str) -> Gen:
        """The backend node id of a frame's ``<iframe>``, in its parent's session."""
        f = self._frames[frame]
        parent = self._frames.get(f.parent or "")
        session = parent.session if parent else ""
        reply = yield op("cdp", "DOM.getFrameOwner", {"frameId": frame}, session)
        backend = reply.get("backendNodeId")
        if not backend:
            raise PrufeError("STALE_REFERENCE", "the frame has no owner element")
        return int(backend)

    def owner_origin(self, root: Root) -> Gen:
        """The top-left of a root's ``<iframe>`` content box in top-viewport pixels."""
        x, y, _, _ = yield from self.owner_box(root)
        return x, y

    def owner_box(self, root: Root) -> Gen:
        """A root's ``<iframe>`` content box in top-viewport pixels: x, y, width, height."""
        x = y = 0.0
        size: Optional[tuple[float, float]] = None
        frame = root.frame
        while frame and frame != self.main_frame:
            f = self._frames[frame]
            parent = self._frames.get(f.parent or "")
            if parent is None:
                raise PrufeError("STALE_REFERENCE", "the frame is no longer on the page")
            backend = yield from self.owner(frame)
            model = yield op("cdp", "DOM.getBoxModel", {"backendNodeId": backend}, parent.session)
            quad = (model.get("model") or {}).get("content") or []
            if len(quad) != 8:
                raise PrufeError("TARGET_NOT_VISIBLE", "the frame holding the element has no box")
            x += min(quad[0::2])
            y += min(quad[1::2])
            if size is None:
                size = (max(quad[0::2]) - min(quad[0::2]), max(quad[1::2]) - min(quad[1::2]))
            # Quads are in the viewport of their session's local root: go on from there.
            frame = self._session_root(parent.session)
        return (x, y) + (size or (0.0, 0.0))

    def _session_root(self, session: str) -> str:
        if session == "":
            return self.main_frame
        for f in self._frames.values():
            if f.session == session and (not f.parent or self._frames.get(f.parent, f).session != session):
                return f.id
        return self.main_frame

    def root_of(self, path: str) -> Root:
        for r in self._roots:
            if r.path == path:
                return r
        raise PrufeError("STALE_REFERENCE", f"frame {path!r} is no longer on the page")

    def root_of_frame(self, frame: str) -> Optional[Root]:
        for r in self._roots:
            if r.frame == frame or (r.path == "" and frame == self.main_frame):
                return r
        return None

    def frames_rule(self, name: str, args: list[Any]) -> Gen:
        """``prufeRun.frames[name]`` of each argument, in the top document's world."""
        reply = yield from self.call(FRAMES, {"op": name, "args": args}, TOP)
        if reply.get("error"):
            raise PrufeError(reply["error"]["code"], reply["error"]["message"])
        values: list[Any] = reply["value"]
        return values

    def points_rule(self, name: str, args: Any) -> Gen:
        """``prufeRun.points[name]`` of ``args`` (a coordinate step's points), in the top
        document's world."""
        reply = yield from self.call(POINTS, {"op": name, "args": args}, TOP)
        if reply.get("error"):
            raise PrufeError(reply["error"]["code"], reply["error"]["message"])
        return reply["value"]

    # -- calls --------------------------------------------------------------------------

    def _context(self, root: Root = TOP) -> Gen:
        if root.path == "":
            if self.context is None:
                # A new document whose world has not been seen yet: made now, as for a frame
                # (a document being replaced fails the call as it came; the machine decides
                # what that means and how long it waits).
                self.context = yield from self.frame_context("", self.main_frame)
            return self.context
        context = yield from self.frame_context(root.session, root.frame)
        return context

    def frame_context(self, session: str, frame: str) -> Gen:
        """The engine's world in a frame, created when its document has none yet."""
        known = self.contexts.get((session, frame))
        if known is not None:
            return known
        try:
            created = yield op("cdp", "Page.createIsolatedWorld", {"frameId": frame, "worldName": WORLD}, session)
        except Exception as error:
            raise Gone(str(error)) from None
        context = int(created["executionContextId"])
        self.contexts.setdefault((session, frame), context)
        return self.contexts[(session, frame)]

    def _raw(self, fn: str, arg: Any, root: Root = TOP) -> Gen:
        if not self.isolated:
            try:
                return (yield op("main_evaluate", fn, arg))
            except Exception as error:
                if _is_gone(error):
                    raise Gone(str(error)) from None
                raise
        context = yield from self._context(root)
        try:
            reply = yield op("cdp", "Runtime.callFunctionOn", {
                "functionDeclaration": fn,
                "executionContextId": context,
                "arguments": [{"value": arg}],
                "awaitPromise": True,
                "returnByValue": True,
            }, root.session)
        except Exception as error:
            if _is_gone(error):
                self._forget(root, context)
                raise Gone(str(error)) from None
            raise
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            text = (details.get("exception") or {}).get("description") or details.get("text", "")
            if _is_gone(Exception(text)):
                raise Gone(text)
            raise PrufeError("BROWSER_ERROR", str(text))
        return reply["result"].get("value")

    def _forget(self, root: Root, context: int) -> None:
        if root.path == "":
            if self.context == context:
                self.context = None
            return
        if self.contexts.get((root.session, root.frame)) == context:
            del self.contexts[(root.session, root.frame)]
            self._dirty = True

    def call(self, fn: str, arg: Any, root: Root = TOP) -> Gen:
        """``fn(arg)`` in the engine's world of ``root``, the engine and the driver (and in the
        top document the machine) installed first: each missing piece once (the engine; then
        the machine and the driver), and the call sent again as often as the machine allows
        (``prufeRun.resends()``) when a navigation took them meanwhile."""
        for _ in range(_INSTALLS + 1 + _MACHINE["resends"]):
            reply = yield from self._raw(fn, arg, root)
            if not isinstance(reply, dict) or not reply.get("missing"):
                return reply["value"] if isinstance(reply, dict) else reply
            if reply["missing"] == "engine":
                yield from self._raw("(s) => { (0, eval)(s); }", source("engine/prufe.js"), root)
                continue
            if reply["missing"] == "machine":
                yield from self._raw("(s) => { if (typeof prufeRun === 'undefined') (0, eval)(s); }", source("engine/prufe-run.js"), root)
            yield from self._raw("(s) => { if (typeof prufeDriver === 'undefined') (0, eval)(s); }", source("driver.js"), root)
        raise PrufeError("NOT_READY", "the machine could not be installed in the page")

    def _resolve(self, session: str, frame: str, backend: int) -> Gen:
        """A node of ``frame`` as an object of the engine's world there."""
        context = yield from self.frame_context(session, frame) if frame != self.main_frame else self._context(TOP)
        reply = yield op("cdp", "DOM.resolveNode", {"backendNodeId": backend, "executionContextId": context}, session)
        object_id: str = reply["object"]["objectId"]
        return object_id

    def _call_on(self, session: str, object_id: str, fn: str, args: list[Any]) -> Gen:
        try:
            reply = yield op("cdp", "Runtime.callFunctionOn", {
                "functionDeclaration": fn, "objectId": object_id,
                "arguments": [{"value": a} for a in args], "returnByValue": True,
            }, session)
        finally:
            yield op("cdp", "Runtime.releaseObject", {"objectId": object_id}, session)
        if "exceptionDetails" in reply:
            raise PrufeError("BROWSER_ERROR", str(reply["exceptionDetails"].get("text", "")))
        return reply["result"].get("value")

    def hit_owner(self, inner: Root, x: float, y: float) -> Gen:
        """What covers ``inner``'s ``<iframe>`` in the document above it at (x, y) of that
        document's viewport; ``None`` when input there reaches the frame."""
        backend = yield from self.owner(inner.frame)
        parent = self._frames[self._frames[inner.frame].parent or ""]
        handle = yield from self._resolve(parent.session, parent.id, backend)
        by = yield from self._call_on(parent.session, handle, HIT, [x, y])
        return by if isinstance(by, str) else None

    def scroll_owner(self, root: Root) -> Gen:
        """Scrolls every ancestor document so that ``root``'s ``<iframe>`` shows."""
        frame = root.frame
        while frame and frame != self.main_frame:
            f = self._frames[frame]
            parent = self._frames.get(f.parent or "")
            if parent is None:
                return
            backend = yield from self.owner(frame)
            yield op("cdp", "DOM.scrollIntoViewIfNeeded", {"backendNodeId": backend}, parent.session)
            frame = self._session_root(parent.session)

    def frame_of_node(self, root: Root, path: list[Union[int, str]]) -> Gen:
        """The frame id of the ``<iframe>`` at ``path`` in ``root``'s document."""
        context = yield from self._context(root)
        reply = yield op("cdp", "Runtime.callFunctionOn", {
            "functionDeclaration": NODE_AT, "executionContextId": context,
            "arguments": [{"value": path}], "returnByValue": False, "awaitPromise": True,
        }, root.session)
        object_id = (reply.get("result") or {}).get("objectId")
        if not object_id:
            raise PrufeError("TARGET_NOT_FOUND", "the frame of the locator's element is gone")
        try:
            node = yield op("cdp", "DOM.describeNode", {"objectId": object_id}, root.session)
        finally:
            yield op("cdp", "Runtime.releaseObject", {"objectId": object_id}, root.session)
        frame = (node.get("node") or {}).get("frameId")
        if not frame:
            raise PrufeError("TARGET_NOT_FOUND", "the locator's element is in no frame prufe can reach")
        return str(frame)

    def file_input(self, ref: str, root: Root = TOP) -> Gen:
        """The CDP object id of the file input of ``ref`` (isolated world only)."""
        context = yield from self._context(root)
        reply = yield op("cdp", "Runtime.callFunctionOn", {
            "functionDeclaration": FILE_INPUT, "executionContextId": context,
            "arguments": [{"value": ref}], "returnByValue": False,
        }, root.session)
        if "exceptionDetails" in reply:
            raise PrufeError("BROWSER_ERROR", str(reply["exceptionDetails"].get("text", "")))
        object_id = reply["result"].get("objectId")
        if not object_id:
            raise PrufeError("TARGET_NOT_FOUND", "no file input is, is inside or is labelled by the target")
        return object_id


PREPARE = _GUARD % "(a) => prufe.prepare(a.ref, a.hitTest, a.timeoutMs)"



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


#: At most this many requests are kept for one input, the newest.
_KEPT = 512


class Requests:
    """The page's requests, as Playwright reports them (``request``, ``requestfinished``,
    ``requestfailed``: every frame's), for the machine's ``Read::Network``. This only records:
    which requests are at work for an input is the machine's rule (core ``run::requests``), the
    same for the CLI, Node and Python.

    Marking an input forgets every request heard of before it: none of them can be at work
    for this input (the machine counts only those heard of since)."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        #: When the last input was marked.
        self._mark: Optional[float] = None
        #: Request → [when it was heard of, when it ended], in the order heard of.
        self._heard: dict[Any, list[Optional[float]]] = {}

    def mark(self) -> None:
        """An input is about to be sent: requests heard of from now on are its own."""
        self._mark = self._now()
        self._heard = {}

    def started(self, request: Any) -> None:
        if request in self._heard:
            return
        if len(self._heard) >= _KEPT:
            del self._heard[next(iter(self._heard))]
        self._heard[request] = [self._now(), None]

    def ended(self, request: Any) -> None:
        times = self._heard.get(request)
        if times is not None and times[1] is None:
            times[1] = self._now()

    def heard(self) -> dict[str, Any]:
        """The answer to ``Read::Network``: since the input, and each request heard of since,
        in ms before now."""
        now = self._now()

        def ago(t: float) -> float:
            return max(0.0, now - t) * 1000

        requests = []
        for heard, ended in self._heard.values():
            assert heard is not None
            entry = {"heardMsAgo": ago(heard)}
            if ended is not None:
                entry["endedMsAgo"] = ago(ended)
            requests.append(entry)
        return {"answer": "network", "inputMsAgo": None if self._mark is None else ago(self._mark), "requests": requests}

    @classmethod
    def of(cls, page: Any) -> "Requests":
        """A ledger fed by a Playwright page's request events (sync or async API alike)."""
        requests = cls()
        page.on("request", requests.started)
        page.on("requestfinished", requests.ended)
        page.on("requestfailed", requests.ended)
        return requests


class Failed(Exception):
    """A need that could not be met, with the error its answer carries."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.error = {"code": code, "message": message}


def now_rfc3339() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Config:
    """The caller's options. ``None`` is the machine's default (its ``defaults()``), never
    written again here nor in the public signatures."""

    ambiguous: str
    max_attempts: Optional[int]
    quiet_ms: Optional[int]
    timeout_ms: Optional[int]
    has_arbiter: bool = False
    #: The shorter quiet window (``Timing::quick_ms``); ``None`` is the machine's default (50 ms).
    quick_ms: Optional[int] = None
    #: Take the pictures of each step (the trace decides which it keeps).
    pictures: bool = False

    def policy(self) -> dict[str, Any]:
        """The run's policy: what the caller gave; the machine fills in what is left out."""
        ambiguous = "arbiter" if self.has_arbiter else self.ambiguous
        timing = {k: v for k, v in (("quietMs", self.quiet_ms), ("timeoutMs", self.timeout_ms), ("quickMs", self.quick_ms)) if v is not None}
        policy: dict[str, Any] = {"ambiguous": ambiguous, "timing": timing}
        if self.max_attempts is not None:
            policy["maxAttempts"] = max(1, self.max_attempts)
        return policy


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
        #: The last record's report and summary, worded by the machine (``_finished``).
        self.texts: dict[str, str] = {}
        #: The last record's trace entry and its file's name (``prufeRun.trace``), scrubbed when written.
        self.entry: dict[str, Any] = {}
        self.focused: Optional[dict[str, Any]] = None
        #: The page's requests (``Read::Network``); without them the answer is
        #: ``unavailable`` and the full quiet window is waited.
        self.requests: Optional[Requests] = None
        #: The hit boxes of the screenshot a coordinate step's points were chosen on, while
        #: the step runs: the machine reconciles the element under a point with them.
        self.boxes: Optional[list[dict[str, Any]]] = None
        #: Takes an observation's picture at its ``capture`` need (``shot``).
        self.capturing: Optional[Callable[[], Gen]] = None

    # -- the machine --------------------------------------------------------------------

    def _turn(self, payload: dict[str, Any]) -> Gen:
        return (yield from self._again(TURN, payload, routed=True))

    def verify(self, step: dict[str, Any], ask: Optional[Callable[[dict[str, Any]], Any]] = None) -> Gen:
        """The record of one verified step (scrubbed of the caller's secrets)."""
        yield from self.world.start()
        action = step["action"]
        # The text a fill or typing sends: a secret when marked so, or when the record shows
        # it redacted (a sensitive field).
        text = action.get("value") if action.get("kind") == "fill" else action.get("text") if action.get("kind") == "typeText" else None
        if text is not None and action.get("sensitive"):
            yield from self.secret(text)
        started = time.monotonic()
        started_at = now_rfc3339()
        self.shots = {}
        self.world.dialogs = []
        turn = yield from self._begin(step)
        turn = yield from self._until_done(turn, ask)
        record = self._record(turn, started, started_at)
        secret = text if text is not None and record.get("value") == REDACTED else None
        return (yield from self._finished(record, secret))

    def plain(self, begin: dict[str, Any]) -> Gen:
        """The record of a run that acts on nothing: a look (``{"look": True}``) or a wait
        (``{"wait": {"until": …, "timeoutMs": …}}``); what it observed last is handed on."""
        yield from self.world.start()
        started = time.monotonic()
        started_at = now_rfc3339()
        self.shots = {}
        self.world.dialogs = []
        kept = self.seen
        turn = yield from self._begin(None, begin)
        turn = yield from self._until_done(turn, None)
        record = self._record(turn, started, started_at)
        if self.seen is None:
            self.seen = kept
        return (yield from self._finished(record))

    def shot(self, settle: bool, capture: Callable[[], Gen]) -> Gen:
        """An observation for coordinate steps, the machine's (``prufeRun.shot``): settled
        first with ``settle``; ``capture`` takes the picture at each ``capture`` need and keeps
        it. Returns every root's hit boxes in top-viewport pixels, and whether the page was
        stable; the machine's error is raised."""
        yield from self.world.start()
        self.capturing = capture
        try:
            turn = yield from self._begin(None, {"shot": {"settle": settle}})
            turn = yield from self._until_done(turn, None)
        finally:
            self.capturing = None
        error = turn["need"]["record"].get("error")
        if error:
            raise PrufeError(error["code"], error["message"])
        shot = json.loads(turn["run"]).get("shot") or {}
        return shot.get("boxes") or [], bool(shot.get("stable"))

    def watch_begin(self, intent: Optional[str], ask: Optional[Callable[[dict[str, Any]], Any]] = None) -> Gen:
        """Starts a watch: the machine settles and observes, then waits for the watched code."""
        yield from self.world.start()
        self.seen = None
        self.world.dialogs = []
        started, started_at = time.monotonic(), now_rfc3339()
        turn = yield from self._begin({"action": {"kind": "watch"}, "intent": intent})
        turn = yield from self._until_done(turn, ask, stop_at="act")
        state = {"turn": turn, "started": started, "startedAt": started_at}
        if turn["need"]["need"] == "done":
            # The watch ended before it could watch (the page could not be observed).
            state["record"] = yield from self._finished(self._record(turn, started, started_at))
        return state

    def watch_end(self, state: dict[str, Any], ask: Optional[Callable[[dict[str, Any]], Any]] = None) -> Gen:
        """The watched code is done: the machine settles, observes and judges."""
        turn = state["turn"]
        if turn["need"]["need"] == "act":
            turn = yield from self._turn({"run": turn["run"], "answer": {"answer": "acted", "steps": 0}, "timeoutMs": self.world.timeout_ms})
        turn = yield from self._until_done(turn, ask)
        record = self._record(turn, state["started"], state["startedAt"])
        return (yield from self._finished(record))

    def secret(self, value: str) -> Gen:
        """Registers a caller's secret: its forms are the machine's (``prufeRun.secretForms``),
        asked once per secret."""
        if self.redactor.knows(value):
            return
        yield from self.world.start()
        values = self.redactor.values() + [value]
        forms = yield from self._again(SECRET_FORMS, values)
        self.redactor.learn(values, forms)

    def _finished(self, record: dict[str, Any], secret: Optional[str] = None) -> Gen:
        """The record with the lines of the dialogs closed during the step; its report and
        summary (``self.texts``) and its trace entry (``self.entry``). All are the machine's
        (``prufeRun.dialogs``, ``explain``, ``summary``, ``trace``), scrubbed of the caller's
        secrets by it (``prufeRun.scrub``; ``secret`` registered first), in one call."""
        heard, self.world.dialogs = self.world.dialogs, []
        values = self.redactor.values() + [secret] if secret is not None and not self.redactor.knows(secret) else None
        finished = yield from self._again(
            FINISHED, {"record": record, "heard": heard, "secrets": self.redactor.secrets(), "values": values})
        if values is not None:
            self.redactor.learn(values, finished["secrets"])
        done = finished["done"]
        self.texts = {"explain": done["explain"], "summary": done["summary"]}
        self.entry = done["trace"]
        scrubbed: dict[str, Any] = done["record"]
        return scrubbed

    def ended(self, error: dict[str, Any], ended: Optional[dict[str, Any]]) -> Gen:
        """The message and report of ``error``, which ended a step before it had a record, and
        the trace entry of that step (``ended``: action, code, reason, startedAt), worded by
        the machine and scrubbed of the caller's secrets by it, in one call."""
        yield from self.world.start()
        done: dict[str, Any] = yield from self._again(
            ENDED, {"error": error, "ended": ended, "secrets": self.redactor.secrets()})
        return done

    def _again(self, fn: str, arg: Any, routed: bool = False) -> Gen:
        """``fn(arg)`` in the top document (``routed``: with the roots' paths when the page has
        several), sent again to the next document while it is replaced meanwhile: every
        ``pollMs`` of the machine's timing, up to the step's timeout from the first loss, then
        the machine's error for a document that did not come back (``prufeRun.lost()``, as a
        settle ends on)."""
        deadline: Optional[float] = None
        while True:
            try:
                sent = arg
                if routed:
                    roots = yield from self.world.roots()
                    if len(roots) > 1:
                        sent = {**arg, "roots": [r.path for r in roots]}
                return (yield from self.world.call(fn, sent))
            except Gone:
                now = time.monotonic()
                if deadline is None:
                    deadline = now + self.world.timeout_ms / 1000
                elif now >= deadline:
                    raise PrufeError(_MACHINE["lost"]["code"], _MACHINE["lost"]["message"]) from None
                yield op("sleep", self.world.poll_ms / 1000)

    def _begin(self, step: Optional[dict[str, Any]], other: Optional[dict[str, Any]] = None) -> Gen:
        """Starts a run of ``step``, or the run ``other`` names (a look, a wait)."""
        quick = self.config.quick_ms if self.config.quick_ms is not None else (self.world.defaults or {}).get("timing", {}).get("quickMs", 0)
        if quick and self.requests is None:
            # Only the shorter window (the caller's, or the machine's default) asks about
            # requests; the listeners are added by the port at the first step, on the page's
            # own loop (not where the verifier was made).
            self.requests = yield op("listen_requests")
        seen = json.loads(self.seen) if self.seen else None
        self.round_trips = 1
        # The session's secrets go with the policy: the machine scrubs its record, errors and
        # the arbiter's question of them.
        policy = self.config.policy()
        if self.redactor.secrets():
            policy["secrets"] = self.redactor.secrets()
        if step is not None and self._pictures_on():
            # The machine asks for the step's pictures (core ``run::camera``).
            policy["pictures"] = True
        begin = {"step": step, "policy": policy, "seen": seen, **(other or {})}
        turn = yield from self._turn({"begin": begin, "timeoutMs": self.world.timeout_ms})
        if turn.get("refused"):
            raise PrufeError(turn["refused"]["code"], turn["refused"]["message"])
        return turn

    def _pictures_on(self) -> bool:
        return self.config.pictures and self.world.isolated

    def _until_done(self, turn: dict[str, Any], ask: Optional[Callable[[dict[str, Any]], Any]], stop_at: str = "done") -> Gen:
        while True:
            if turn["need"]["need"] in ("done", stop_at):
                return turn
            extra: dict[str, Any] = {}
            answer = yield from self._answer(turn["need"], ask, turn.get("routes"), extra)
            payload = {"run": turn["run"], "answer": answer, "timeoutMs": self.world.timeout_ms, **extra}
            turn = yield from self._turn(payload)
            self.round_trips += 1

    def _picture(self, need: dict[str, Any]) -> Gen:
        """``Need::Picture``: the picture the machine asked for, every secret covered by the
        engine for the capture (``prufe.cover``), kept as the step's ``moment`` one (a before
        picture replaces both); none when it cannot be taken covered."""
        which = need["moment"]
        if which == "before":
            self.shots = {}
        target = need.get("target")
        effect: list[str] = list(need.get("effect") or [])
        refs = ([target] if target else []) + effect

        def params(css: dict[str, Any], device_width: Optional[float]) -> Gen:
            # The machine's parameters of a step's picture (``points.picture``).
            view = {k: css[k] for k in ("pageX", "pageY", "clientWidth", "clientHeight")}
            made: dict[str, Any] = yield from self.world.points_rule("picture", {"view": view, "deviceWidth": device_width})
            return made

        try:
            shot, css, boxes, covered = yield from self.covered_capture(params, refs, need.get("sensitive") or [])
        except Exception:  # no picture rather than one taken uncovered
            return
        jpeg = base64.b64decode(shot["data"])
        size = jpeg_size(jpeg)
        if size is None:
            return
        # In the image's pixels, as the machine marks them (``points.marks``).
        measured = {"imageWidth": size[0], "cssWidth": css["clientWidth"],
                    "target": (boxes[0] if boxes else None) if target else None, "effect": boxes[1 if target else 0:],
                    "point": need.get("point"), "masked": covered["boxes"]}
        marks: dict[str, Any] = yield from self.world.points_rule("marks", measured)
        self.shots[which] = {"jpeg": jpeg, "width": size[0], "height": size[1], **marks}

    def covered_capture(self, params: Callable[[dict[str, Any], Optional[float]], Gen], refs: list[str], sensitive: list[str]) -> Gen:
        """One ``Page.captureScreenshot`` (what the generator ``params(visual viewport in CSS
        pixels, its width in device pixels)`` returns, both from the layout metrics as they
        come: the machine decides from them) taken while the engine covers every secret of every root
        (``prufe.cover``; a root that cannot cover means no capture: the error is raised), with
        the boxes of ``refs`` and of what was covered in top-viewport pixels; uncovered after,
        whatever happens."""
        roots = self.world._roots
        covered_roots: list[Root] = []
        try:
            if len(roots) == 1:
                boxes = (yield from self.call("boxes", refs)) if refs else []
                covered_roots.append(TOP)
                covered = yield from self.call("cover", {"sensitive": sensitive, "secrets": self.redactor.secrets()})
            else:
                boxes, covered = yield from self._cover_roots(roots, refs, sensitive, covered_roots)
            metrics = yield op("cdp", "Page.getLayoutMetrics", {})
            css = metrics["cssVisualViewport"]
            made = yield from params(css, (metrics.get("visualViewport") or {}).get("clientWidth"))
            shot = yield op("cdp", "Page.captureScreenshot", made)
        finally:
            for root in covered_roots:
                try:
                    yield from self.call("uncover", root=root)
                except Exception:  # the other roots are still uncovered
                    pass
        return shot, css, boxes, covered

    def _cover_roots(self, roots: list[Root], refs: list[str], sensitive: list[str], covered_roots: list[Root]) -> Gen:
        """Every root's secrets covered (a root that cannot cover means no picture), and the
        boxes of ``refs`` and of what was covered, in top-viewport pixels."""
        routed = (yield from self.world.frames_rule("route", refs + sensitive)) if refs or sensitive else []
        where = dict(zip(refs + sensitive, routed))
        boxes: list[Optional[dict[str, float]]] = [None] * len(refs)
        masked: list[dict[str, float]] = []
        for root in roots:
            ox, oy = (yield from self.world.owner_origin(root)) if root.path else (0.0, 0.0)

            def moved(b: dict[str, float]) -> dict[str, float]:
                return {**b, "x": b["x"] + ox, "y": b["y"] + oy}

            mine = [i for i, ref in enumerate(refs) if where[ref]["path"] == root.path]
            if mine:
                found = yield from self.call("boxes", [where[refs[i]]["ref"] for i in mine], root=root)
                for i, b in zip(mine, found):
                    boxes[i] = moved(b) if b else None
            covered_roots.append(root)
            own = [where[ref]["ref"] for ref in sensitive if where[ref]["path"] == root.path]
            cover = yield from self.call("cover", {"sensitive": own, "secrets": self.redactor.secrets()}, root=root)
            masked += [moved(b) for b in cover["boxes"]]
        return boxes, {"boxes": masked}

    def _record(self, turn: dict[str, Any], started: float, started_at: str) -> dict[str, Any]:
        record: dict[str, Any] = dict(turn["need"]["record"])
        run = json.loads(turn["run"])
        self.seen = json.dumps(run["seen"]) if run.get("seen") else None
        #: Where typing goes next (core ``Run::focused``): the element focused after a pointer
        #: click or a key, the field typed into.
        self.focused = (run.get("attempt") or {}).get("focus")
        record["durationMs"] = int((time.monotonic() - started) * 1000)
        record["startedAt"] = started_at
        return record

    def _answer(self, need: dict[str, Any], ask: Optional[Callable[[dict[str, Any]], Any]],
                routes: Optional[dict[str, dict[str, str]]] = None, extra: Optional[dict[str, Any]] = None) -> Gen:
        try:
            kind = need["need"]
            if routes is not None and extra is not None and kind not in ("input", "ask"):
                answer = yield from self._across(need, routes, extra)
                if answer is not None:
                    return answer
            if kind == "input":
                # Requests heard of from here on are the input's own (the harness marks here too).
                if self.requests is not None:
                    self.requests.mark()
                answer = yield from self._send(need["gesture"], routes or {})
                return answer or {"answer": "sent"}
            if kind == "picture":
                yield from self._picture(need)
                return {"answer": "pictured"}
            if kind == "capture":
                if self.capturing is None:
                    raise Failed("INVALID_ARGUMENT", "a capture is asked only by an observation for coordinate steps")
                yield from self.capturing()
                return {"answer": "captured"}
            if kind == "read" and need["read"]["kind"] == "aimed":
                # The boxes of the observation a coordinate step was aimed on, as handed in.
                return {"answer": "aimed", "boxes": self.boxes}
            if kind == "read" and need["read"]["kind"] == "roots":
                # The machine follows the focus into the roots (src/core/run/focus.rs).
                return {"answer": "roots", "paths": [r.path for r in (self.world._roots if routes is not None else [TOP])]}
            if kind == "read" and need["read"]["kind"] == "focusedIn":
                here = yield from self.world.call(FOCUS_HERE, None, self.world.root_of(need["read"]["path"]))
                if here.get("error"):
                    raise PrufeError(here["error"]["code"], here["error"]["message"])
                return {"answer": "focusedIn", "has": bool(here.get("has")), "element": here.get("element")}
            if kind == "read" and need["read"]["kind"] == "address":
                return {"answer": "address", "url": (yield op("url"))}
            if kind == "read" and need["read"]["kind"] == "network":
                if self.requests is None:
                    return {"answer": "unavailable"}
                return self.requests.heard()
            if kind == "ask":
                if ask is None:
                    return {"answer": "noArbiter"}
                # The question as the machine scrubbed it (of the session's secrets, given
                # with the policy). Within the machine's bound; it reads and words what comes
                # back.
                asked: dict[str, Any] = yield op("ask", ask, need)
                return asked
            raise Failed("INVALID_ARGUMENT", f"this driver does not know the need {kind!r}")
        except Failed as failed:
            return {"answer": "failed", "error": failed.error}
        except PrufeError as error:
            return {"answer": "failed", "error": {"code": error.code, "message": error.message}}
        except Gone as error:
            return {"answer": "failed", "error": {"code": "BROWSER_ERROR", "message": str(error)}}
        except Exception as error:  # the browser library's own errors (the record is scrubbed when finished)
            return {"answer": "failed", "error": {"code": "BROWSER_ERROR", "message": str(error)}}

    # -- a page of several roots ------------------------------------------------------

    def _where(self, routes: dict[str, dict[str, str]], ref: str) -> tuple[Root, str]:
        """The root a merged ref routes to, and its ref there."""
        route = routes.get(ref) or {"path": "", "ref": ref}
        return self.world.root_of(route["path"]), route["ref"]

    def _across(self, need: dict[str, Any], routes: dict[str, dict[str, str]], extra: dict[str, Any]) -> Gen:
        """The answer to a need that involves roots other than the top document's (the turn
        handed it back), or None for the usual answer."""
        kind = need["need"]
        if kind == "describe":
            root, there = self._where(routes, need["ref"])
            element = yield from self.call("describe", there, root=root)
            extra["adopt"] = root.path
            return {"answer": "described", "element": element}
        if kind == "prepare":
            # In the ref's own root, its point in that root's viewport: the machine moves it
            # to the top viewport and asks the documents above (``frame``, ``hitFrame``,
            # ``revealFrame``).
            root, there = self._where(routes, need["ref"])
            prepared: dict[str, Any] = yield from self.world.call(PREPARE, {"ref": there, "hitTest": need["hitTest"], "timeoutMs": self.world.timeout_ms}, root)
            return prepared
        if kind == "frame":
            return (yield from self._frame(need["paths"]))
        if kind == "hitFrame":
            by = yield from self.world.hit_owner(self.world.root_of(need["path"]), need["at"]["x"], need["at"]["y"])
            return {"answer": "hit", "by": by}
        if kind == "revealFrame":
            yield from self.world.scroll_owner(self.world.root_of(need["path"]))
            return {"answer": "scrolled"}
        if kind == "read":
            read = need["read"]
            if read["kind"] == "under":
                # One root's, in its own terms: the machine looks into the frames itself.
                element = yield from self.call("at", read["at"]["x"], read["at"]["y"], root=self.world.root_of(read["path"]))
                return {"answer": "under", "element": element}
            if read["kind"] == "hitBoxes":
                return {"answer": "hitBoxes", "boxes": (yield from self.call("hitBoxes", root=self.world.root_of(read["path"])))}
            # One root alone, for a need of the whole page the machine composes
            # (src/core/run/whole.rs).
            if read["kind"] == "snapshot":
                reply = yield from self._in_root(SNAPSHOT, {"sensitive": read["sensitive"]}, read["path"])
                return {"answer": "observed", "snapshot": reply["snapshot"]}
            if read["kind"] == "pulse":
                reply = yield from self._in_root(PULSE, {"background": read.get("background"), "root": read["path"]}, read["path"])
                return {"answer": "pulse", "fingerprint": reply["fingerprint"], "quietFor": reply["quietFor"]}
            if read.get("ref") is None:
                return None
            root, there = self._where(routes, read["ref"])
            if read["kind"] == "value":
                return {"answer": "value", "value": (yield from self.call("value", there, root=root))}
            if read["kind"] == "hash":
                return {"answer": "hash", "hash": (yield from self.call("hash", read["value"], root=root))}
            if read["kind"] == "destination":
                return {"answer": "destination", "destination": (yield from self.call("destination", there, root=root))}
            if read["kind"] == "selection":
                return {"answer": "selection", "selection": (yield from self.call("selection", there, root=root))}
        return None

    def _in_root(self, fn: str, arg: Any, path: str) -> Gen:
        """``fn(arg)`` of the page half in the root at ``path``, its error raised as it came."""
        reply: dict[str, Any] = yield from self.world.call(fn, arg, self.world.root_of(path))
        if reply.get("error"):
            raise Failed(reply["error"]["code"], reply["error"]["message"])
        return reply

    def _frame(self, paths: list[str]) -> Gen:
        """``Need::Frame``: the ``<iframe>`` content box, in the top viewport, of the root at
        each of ``paths`` (one no longer on the page left out), and the top viewport's size."""
        chain: list[dict[str, Any]] = []
        for path in paths:
            try:
                x, y, width, height = yield from self.world.owner_box(self.world.root_of(path))
            except (Gone, PrufeError, Failed):
                continue
            chain.append({"path": path, "x": x, "y": y, "width": width, "height": height})
        metrics = yield op("cdp", "Page.getLayoutMetrics", {})
        view = metrics.get("cssLayoutViewport") or metrics["layoutViewport"]
        return {"answer": "frame", "chain": chain, "viewport": {"width": view["clientWidth"], "height": view["clientHeight"]}}

    def call(self, name: str, *args: Any, root: Root = TOP) -> Gen:
        """One ``window.prufe`` function, an engine error raised as ``Failed``."""
        reply = yield from self.world.call(CALL, {"name": name, "args": list(args)}, root)
        if reply.get("error"):
            raise Failed(reply["error"]["code"], reply["error"]["message"])
        return reply.get("value")

    def _press(self, keys: list[str]) -> Gen:
        """A chord as the machine sends it (``Gesture::Press``'s ``keys``, modifiers first:
        ``["Shift", "Tab"]``): every key down in order, then up in reverse; a key pressed is
        released whatever fails. The machine names every key as Playwright does (``Enter``,
        ``Control``, ``a``)."""
        down: list[str] = []
        try:
            for key in keys:
                yield op("key_down", key)
                down.append(key)
        finally:
            for key in reversed(down):
                yield op("key_up", key)

    def _insert(self, text: str) -> Gen:
        """Text where the focus is, as an input method commits it: ``Input.insertText`` on the
        package's own session, so the text is in no log of the browser library's."""
        if self.world.isolated:
            yield op("cdp", "Input.insertText", {"text": text})
        else:
            yield op("insert_text", text)

    def _send(self, gesture: dict[str, Any], routes: Optional[dict[str, dict[str, str]]] = None) -> Gen:
        """``Need::Input``: the gesture; the answer of a gesture that has its own (``focus``),
        else ``None`` (``sent``)."""
        kind = gesture["kind"]
        root, there = self._where(routes or {}, gesture["ref"]) if gesture.get("ref") is not None else (TOP, "")
        if kind == "click":
            yield op("mouse_move", gesture["at"]["x"], gesture["at"]["y"], 1)
            yield op("mouse_down", gesture["button"])
            yield op("mouse_up", gesture["button"])
        elif kind == "moveTo":
            yield op("mouse_move", gesture["at"]["x"], gesture["at"]["y"], 1)
        elif kind in ("down", "up"):
            # A drag, as the machine sends it: the button down, its moves one by one, the
            # button up (also when a move failed: the machine asks for the release first).
            yield op("mouse_move", gesture["at"]["x"], gesture["at"]["y"], 1)
            yield op("mouse_down" if kind == "down" else "mouse_up", gesture["button"])
        elif kind == "focus":
            focused = yield from self.world.call(FOCUS_SELECT if gesture["select"] else FOCUS, there, root)
            if focused.get("error"):
                raise Failed(focused["error"]["code"], focused["error"]["message"])
            return {"answer": "focus", "held": bool(focused.get("held"))}
        elif kind == "insert":
            yield from self._insert(gesture["text"])
        elif kind == "wheel":
            yield op("mouse_move", gesture["at"]["x"], gesture["at"]["y"], 1)
            yield op("mouse_wheel", gesture["dx"], gesture["dy"])
        elif kind == "press":
            if gesture.get("ref") is not None:
                focused = yield from self.world.call(FOCUS, there, root)
                if focused.get("error"):
                    raise Failed(focused["error"]["code"], focused["error"]["message"])
            yield from self._press(gesture["keys"])
        elif kind == "select":
            yield from self.call("select", there, gesture["option"], root=root)
        elif kind == "restore":
            yield from self.call("restore", there, gesture["value"], root=root)
        elif kind == "setFiles":
            if self.world.isolated:
                object_id = yield from self.world.file_input(there, root)
                try:
                    yield op("cdp", "DOM.setFileInputFiles", {"files": gesture["files"], "objectId": object_id}, root.session)
                finally:
                    yield op("cdp", "Runtime.releaseObject", {"objectId": object_id}, root.session)
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

    def located(self, found: dict[str, Any]) -> Gen:
        """The machine's target of a library's element from what was found for it
        (``prufeRun.located``): ``{"target": …}`` or ``{"error": …}``."""
        yield from self.world.start()
        decided: dict[str, Any] = yield from self.world.call(LOCATED, found, TOP)
        return decided

    def identify(self, path: list[Union[int, str]], sensitive: list[str], frames: Optional[list[list[Union[int, str]]]] = None) -> Gen:
        """The engine's record of the element at ``path`` (see locator.js) and the target that
        names it (core ``resolve::target_of``: by its role and label, its row, or its place
        among unnamed twins; ``None`` when hidden), in the page's terms. ``frames`` are the
        paths, root by root from the top, of the ``<iframe>``s of other origins the element is
        inside; ``path`` then starts at the innermost one's document."""
        yield from self.world.start()
        if frames and not self.world.isolated:
            raise PrufeError("TARGET_NOT_FOUND", "the locator's element is in a frame of another origin, which prufe reaches on Chromium only")
        root = TOP
        for owner in frames or []:
            yield from self.world.roots()
            frame = yield from self.world.frame_of_node(root, owner)
            inner = self.world.root_of_frame(frame)
            if inner is None:
                raise PrufeError("TARGET_NOT_FOUND", "the locator's element is in a frame prufe does not observe (yet); try again once it has loaded")
            root = inner
        reply = yield from self.world.call(IDENTIFY, {"path": path, "sensitive": sensitive}, root)
        if reply.get("error"):
            raise PrufeError(reply["error"]["code"], reply["error"]["message"])
        element: dict[str, Any] = reply["element"]
        target: Optional[dict[str, Any]] = reply.get("target")
        if root.path:
            element = (yield from self.world.frames_rule("adopt", [{"path": root.path, "element": element}]))[0]
            if target is not None:
                target = (yield from self.world.frames_rule("adoptTarget", [{"path": root.path, "target": target}]))[0]
        return element, target

