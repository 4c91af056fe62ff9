# Generated from async_api.py by scripts/sync_api.py: edit async_api.py, then run
# `python3 scripts/sync_api.py` (`make test` fails while this file is not what it writes).
"""prufe for Playwright's sync API.

    from prufe.sync_api import Prufe, VerificationFailed

    p = Prufe(page)
    p.click(page.get_by_role("button", name="Add Shirt M"))
"""

from __future__ import annotations

import os
from types import TracebackType
from typing import Any, Optional, Sequence, Union

from playwright.sync_api import Page

from ._api import (Appears, Changes, ClaimLike, Container, Core, Count, Disappears, Moves, Navigates, Stays, Target, TargetLike, Text,
                   Watched, build, files_of)
from ._coords import Shot
from ._driver import Gen, Op, Requests
from ._errors import IrreversibleAction, PrufeError, UndoFailed, VerificationFailed
from ._io_sync import ask, sleep
from ._result import Diff, Result

__all__ = ["Prufe", "Target", "Container", "Appears", "Disappears", "Changes", "Moves", "Stays", "Navigates", "Count", "Text", "Result", "Diff", "Shot", "PrufeError", "VerificationFailed", "UndoFailed", "IrreversibleAction", "Watch"]


_EVENTS = (
    "Runtime.executionContextCreated", "Runtime.executionContextDestroyed", "Runtime.executionContextsCleared",
    "Page.frameAttached", "Page.frameDetached", "Page.frameNavigated",
    "Page.javascriptDialogOpening", "Page.javascriptDialogClosed",
)


def _listen(session: Any, key: str, on_event: Any) -> None:
    for event in _EVENTS:
        session.on(event, lambda params, event=event: on_event(key, event, params or {}))


class _Port:
    """Performs the driver's operations with Playwright's sync objects."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.session: Any = None
        #: CDP sessions of out-of-process frames, by key, and the key of each frame's.
        self.frames: dict[str, Any] = {}
        self.keys: dict[Any, str] = {}

    def do(self, o: Op) -> Any:
        page, a = self.page, o.args
        name = o.name
        if name == "cdp":
            session = self.session if len(a) < 3 or not a[2] else self.frames[a[2]]
            return session.send(a[0], a[1])
        if name == "sleep":
            sleep(page, a[0])
            return None
        if name == "mouse_move":
            page.mouse.move(a[0], a[1], steps=a[2])
            return None
        if name == "mouse_down":
            page.mouse.down(button=a[0])
            return None
        if name == "mouse_up":
            page.mouse.up(button=a[0])
            return None
        if name == "mouse_wheel":
            page.mouse.wheel(a[0], a[1])
            return None
        if name == "key_down":
            page.keyboard.down(a[0])
            return None
        if name == "key_up":
            page.keyboard.up(a[0])
            return None
        if name == "insert_text":
            page.keyboard.insert_text(a[0])
            return None
        if name == "url":
            return page.url
        if name == "goto":
            page.goto(a[0])
            return None
        if name == "go_back":
            before = page.url
            response = page.go_back()
            return response is not None or page.url != before
        if name == "ask":
            return ask(a[0], a[1])
        if name == "locator_count":
            return a[0].count()
        if name == "locator_path":
            return a[0].evaluate(a[1])
        if name == "listen_requests":
            return Requests.of(page)
        if name == "open_cdp":
            self.session = page.context.new_cdp_session(page)
            _listen(self.session, "", a[0])
            return None
        if name == "frame_sessions":
            return self._frame_sessions(a[0], a[1])
        if name == "close_session":
            session = self.frames.pop(a[0], None)
            self.keys = {f: k for f, k in self.keys.items() if k != a[0]}
            if session is not None:
                try:
                    session.detach()
                except Exception:  # already gone with its frame
                    pass
            return None
        if name == "locator_chain":
            return self._locator_chain(a[0], a[1])
        if name == "add_init_script":
            page.add_init_script(script=a[0])
            return None
        if name == "main_evaluate":
            return page.evaluate(a[0], a[1])
        if name == "main_set_files":
            handle = page.evaluate_handle("(ref) => prufeDriver.fileInput(ref)", a[0])
            element = handle.as_element()
            if element is None:
                raise PrufeError("TARGET_NOT_FOUND", "no file input is, is inside or is labelled by the target")
            element.set_input_files(a[1])
            handle.dispose()
            return None
        raise AssertionError(f"unknown operation {name}")

    def _frame_sessions(self, known: int, on_event: Any) -> list[str]:
        """Sessions for the frames that have none yet, when Playwright counts more frames
        than the sessions' trees hold (the rest run out of process)."""
        frames = self.page.frames
        if len(frames) <= known:
            return []
        opened: list[str] = []
        for frame in frames[1:]:
            if frame in self.keys:
                continue
            try:
                session = self.page.context.new_cdp_session(frame)
            except Exception:  # a frame of the page's own process: no session of its own
                continue
            key = f"s{len(self.keys) + len(opened) + 1}-{id(session)}"
            self.keys[frame] = key
            self.frames[key] = session
            _listen(session, key, on_event)
            opened.append(key)
        return opened

    def _locator_chain(self, locator: Any, script: str) -> Any:
        """The locator's element as paths, root by root from the top (see ``Core.target``)."""
        handle = locator.element_handle()
        chain: list[Any] = []
        try:
            while True:
                located = handle.evaluate(script)
                if located is None:
                    return None
                chain.insert(0, located["path"])
                if not located["crossed"]:
                    return chain
                frame = handle.owner_frame()
                for _ in range(sum(1 for step in located["path"] if step == "f")):
                    frame = frame.parent_frame if frame is not None else None
                if frame is None:
                    return None
                owner = frame.frame_element()
                handle.dispose()
                handle = owner
        finally:
            handle.dispose()


def run(gen: Gen, port: _Port) -> Any:
    """Drives a generator of operations to its end."""
    value: Any = None
    error: Optional[BaseException] = None
    while True:
        try:
            o = gen.throw(error) if error is not None else gen.send(value)
        except StopIteration as stop:
            return stop.value
        error = None
        try:
            value = port.do(o)
        except BaseException as e:  # handed to the generator, which decides
            value, error = None, e


def _is_chromium(page: Page) -> bool:
    try:
        return page.context.browser is None or page.context.browser.browser_type.name == "chromium"
    except Exception:
        return False


class Watch:
    """``with p.watch(intent) as seen:`` — observes what happens inside the block."""

    def __init__(self, owner: "Prufe", intent: Optional[str]) -> None:
        self._owner = owner
        self._seen = Watched(intent)
        self._state: Optional[dict[str, Any]] = None

    def __enter__(self) -> Watched:
        self._state = run(self._owner._core.worded(self._owner._core.watch_begin(self._seen.intent)), self._owner._port)
        return self._seen

    def __exit__(self, kind: Optional[type[BaseException]], value: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        if self._state is not None and kind is None:
            self._seen.result = self._owner._do(self._owner._core.watch_end(self._state, self._seen.intent))


class Prufe:
    """Verified actions on one Playwright page (sync API). Each returns a :class:`Result`
    when the effect is the one intended, and raises :class:`VerificationFailed` (undone),
    :class:`UndoFailed` or :class:`IrreversibleAction` when it is not, or a
    :class:`PrufeError` with its code when nothing could be done.

    ``max_attempts``, ``quiet_ms`` and ``timeout_ms`` left ``None`` are the machine's defaults
    (its ``defaults()``, the CLI's). ``quick_ms`` is the shorter quiet window (50 ms by default, 0 turns it off):
    after an effect, a settle ends that long after the page last changed when the page shows
    no sign of change and no request it started since the input is under way or ended within
    it (the page's ``request`` events, heard from its first step on); a timer is not
    seen. A JavaScript dialog that opens during a step is answered
    by Playwright (dismissed, unless the caller listens for ``dialog``) and listed in the
    step's ``dialogs``."""

    def __init__(
        self,
        page: Page,
        *,
        ai_judge: Any = None,
        ambiguous: str = "reject",
        max_attempts: Optional[int] = None,
        quiet_ms: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        trace_dir: "Optional[Union[str, os.PathLike[str]]]" = None,
        screenshots: str = "failures",
        quick_ms: Optional[int] = None,
    ) -> None:
        self.page = page
        self._port = _Port(page)
        self._core = Core(isolated=_is_chromium(page), ai_judge=ai_judge, ambiguous=ambiguous, max_attempts=max_attempts,
                          quiet_ms=quiet_ms, timeout_ms=timeout_ms, trace_dir=trace_dir,
                          screenshots=screenshots, quick_ms=quick_ms)

    @property
    def round_trips(self) -> int:
        """Calls into the page the last verified step took."""
        return self._core.driver.round_trips

    def _do(self, gen: Gen) -> Result:
        """Runs one step's operations; an error without a record carries the machine's report."""
        result: Result = run(self._core.worded(gen), self._port)
        return result

    def click(self, target: TargetLike, *, intent: Optional[str] = None, expect: Optional[Sequence[ClaimLike]] = None) -> Result:
        return self._do(build(self._core, "click", target, intent=intent, expect=expect))

    def check(self, target: TargetLike, *, intent: Optional[str] = None, expect: Optional[Sequence[ClaimLike]] = None) -> Result:
        return self._do(build(self._core, "check", target, intent=intent, expect=expect))

    def uncheck(self, target: TargetLike, *, intent: Optional[str] = None, expect: Optional[Sequence[ClaimLike]] = None) -> Result:
        return self._do(build(self._core, "uncheck", target, intent=intent, expect=expect))

    def fill(self, target: TargetLike, value: str, *, intent: Optional[str] = None, expect: Optional[Sequence[ClaimLike]] = None, sensitive: bool = False) -> Result:
        return self._do(build(self._core, "fill", target, intent=intent, expect=expect, value=value, sensitive=sensitive or None))

    def select_option(self, target: TargetLike, label: str, *, intent: Optional[str] = None, expect: Optional[Sequence[ClaimLike]] = None) -> Result:
        return self._do(build(self._core, "select", target, intent=intent, expect=expect, option=label))

    def press(self, target: Optional[TargetLike], key: str, *, intent: Optional[str] = None, expect: Optional[Sequence[ClaimLike]] = None,
                    inverse: Optional[list[dict[str, Any]]] = None) -> Result:
        return self._do(build(self._core, "press", target, intent=intent, expect=expect, inverse=inverse, key=key))

    def hover(self, target: TargetLike, *, intent: Optional[str] = None, expect: Optional[Sequence[ClaimLike]] = None) -> Result:
        return self._do(build(self._core, "hover", target, intent=intent, expect=expect))

    def upload(self, target: TargetLike, path: "Union[str, os.PathLike[str], list[Union[str, os.PathLike[str]]]]", *,
                     intent: Optional[str] = None, expect: Optional[Sequence[ClaimLike]] = None, inverse: Optional[list[dict[str, Any]]] = None) -> Result:
        return self._do(build(self._core, "upload", target, intent=intent, expect=expect, inverse=inverse, files=files_of(path)))

    def drag_to(self, source: TargetLike, destination: TargetLike, *, intent: Optional[str] = None, expect: Optional[Sequence[ClaimLike]] = None,
                      inverse: Optional[list[dict[str, Any]]] = None) -> Result:
        return self._do(build(self._core, "drag", source, to=destination, intent=intent, expect=expect, inverse=inverse))

    def goto(self, url: str, *, intent: Optional[str] = None, expect: Optional[Sequence[ClaimLike]] = None) -> Result:
        return self._do(build(self._core, "goto", intent=intent, expect=expect, url=url))

    def look(self) -> Result:
        """Settles and observes without acting: what the page changes by itself (a clock, a
        ticker, a carousel) is learnt, so the next step starts from it. Call it after opening
        a page with Playwright's own ``goto``; a verified ``goto`` looks by itself."""
        return self._do(self._core.plain("look", {"look": True}))

    def wait_for(self, until: dict[str, Any], *, timeout_ms: Optional[int] = None) -> Result:
        """Looks until ``until`` holds (``{"kind": "textAppears", "text": "Saved"}``; also
        ``appears``, ``valueEquals``, ``textGone``), again each time the page moves and at least
        every 500 ms; raises ``POSTCONDITION_TIMEOUT`` when ``timeout_ms`` (default: the
        verifier's timeout) passes first."""
        return self._do(self._core.coords.wait(self._core.plain("wait", {"wait": {"until": until, "timeoutMs": timeout_ms}}, until)))

    # -- coordinate steps: an agent that acts on screenshots (docs/python.md) --------------

    def screenshot(self, *, max_width: Optional[float] = None) -> Shot:
        """Settles, then captures the viewport with every secret covered in black (downscaled
        to at most ``max_width`` pixels wide) and the elements under every point of it; its
        ``id`` (``obs-N``) is the one the next coordinate step's points are chosen on."""
        shot: Shot = run(self._core.worded(self._core.coords.screenshot(max_width)), self._port)
        return shot

    def click_at(self, x: float, y: float, *, observation: Optional[str] = None, button: str = "left", intent: Optional[str] = None) -> Result:
        """Clicks the point (x, y) of the latest screenshot (``observation``, when given, must
        be its id), verified like ``click`` with the element the screenshot showed there as
        the target; ``TARGET_CHANGED`` with nothing clicked when the point now shows another.
        Ends with a fresh screenshot (``Result.observation``, or the error's)."""
        return self._do(self._core.coords.click_at(x, y, observation, button, intent))

    def drag_at(self, from_: tuple[float, float], to: tuple[float, float], *, observation: Optional[str] = None, steps: int = 10,
                      intent: Optional[str] = None) -> Result:
        """Drags with the pointer from one point of the latest screenshot to another in
        ``steps`` moves, verified like ``drag_to``."""
        return self._do(self._core.coords.drag_at(from_, to, observation, steps, intent))

    def scroll_at(self, x: float, y: float, dx: float = 0, dy: float = 0, *, observation: Optional[str] = None) -> Result:
        """Turns the wheel by (dx, dy) image pixels at a point of the latest screenshot; the
        result names the container under the pointer and where it stood before and after it
        stopped moving. Not judged: ``wait_for`` states what should follow."""
        return self._do(self._core.coords.scroll_at(x, y, dx, dy, observation))

    def type(self, text: str, *, sensitive: bool = False) -> Result:
        """Types ``text`` into the field the last ``click_at`` or ``key`` left focused, read back
        after (by keyed hash when ``sensitive`` or the field is); ``FOCUS_LOST`` with nothing
        typed when the focus is elsewhere."""
        return self._do(self._core.coords.type(text, sensitive))

    def key(self, chord: str) -> Result:
        """Sends a key chord (``Control+S``, ``Tab``) to whatever has the focus, every key
        released in reverse order; typing then goes where the focus went. Not judged."""
        return self._do(self._core.coords.key(chord))

    def watch(self, intent: Optional[str] = None) -> Watch:
        """Observes whatever acts on the page inside the block and judges it against
        ``intent``; never acts, undoes or raises on a verdict: read ``seen.ok``."""
        return Watch(self, intent)
