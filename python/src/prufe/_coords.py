"""The coordinate steps of an agent that acts on screenshots, the CLI's script steps of the
same names (docs/cli.md "Coordinate-driven agents"). A screenshot (covered, as the trace's
pictures are) issues ``obs-N`` and keeps the hit boxes of that moment; the machine checks a
step's points against it before anything is sent and turns them into its action (CSS pixels,
the element the image showed there: ``prufeRun.points.aim``), and every step that sends input
(and a wait, once screenshots are in use) ends with a fresh one, so ids advance as the CLI's
do. Everything else is the machine's too."""

from __future__ import annotations

import base64
import dataclasses
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional

from ._driver import Gen
from ._errors import PrufeError

if TYPE_CHECKING:
    from ._api import Core
    from ._result import Result


@dataclass(frozen=True)
class Shot:
    """A screenshot as the agent receives it: the PNG (every secret covered in black), its
    id to quote, and the size points are given in."""

    id: str
    #: The image's size: points are given in these pixels.
    width: float
    height: float
    #: The capture in device pixels, before any downscale, and the page's pixel ratio.
    capture_width: float
    capture_height: float
    device_pixel_ratio: float
    #: The page was settled and did not change while it was captured.
    stable: bool
    png: bytes = dataclasses.field(repr=False)
    #: What was covered in black (password, payment and one-time-code fields, secrets and
    #: their echoes), as boxes ``{x, y, width, height}`` in image pixels.
    masked: tuple[dict[str, float], ...] = ()
    #: CSS pixels per image pixel, across and down (the machine's ``points.scale``).
    scale: tuple[float, float] = (1.0, 1.0)

    def to_css(self, x: float, y: float) -> tuple[float, float]:
        """A point of the image in CSS pixels of the top viewport, where the steps act."""
        return x * self.scale[0], y * self.scale[1]


def _carried(value: Any) -> Any:
    """A number as JSON carries it to the machine: one that is not finite goes as its text, as
    JavaScript writes it (the npm package sends the same), which the machine refuses as any
    value of the wrong type, in the same words."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return value


def _point(x: Any, y: Any) -> dict[str, Any]:
    """A point as JSON carries it (``_carried``)."""
    return {"x": _carried(x), "y": _carried(y)}


def _png_size(png: bytes) -> Optional[tuple[int, int]]:
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        return None
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


class Coords:
    """The coordinate state of one page: the latest screenshot and its hit boxes, the ids
    issued, and the field typing goes to (the one the last click or key left focused)."""

    def __init__(self, core: "Core") -> None:
        self.core = core
        self.issued = 0
        self.latest: Optional[Shot] = None
        #: The latest screenshot as the machine reads it (``PrufeRun.Screen``: id, sizes,
        #: pixel ratio, hit boxes).
        self._screen: Optional[dict[str, Any]] = None
        #: The hit boxes of the screenshot the next step's points were aimed on.
        self._aimed: Optional[list[dict[str, Any]]] = None
        self.max_width: Optional[float] = None
        self._framing: dict[str, Any] = {}
        self.intended: Optional[dict[str, Any]] = None

    # -- screenshots ----------------------------------------------------------------------

    def screenshot(self, max_width: Optional[float]) -> Gen:
        yield from self.core.driver.world.start()
        # The machine's check, in its words (a number JSON cannot carry goes as its text).
        self.max_width = yield from self.core.driver.world.points_rule("maxWidth", _carried(max_width))
        shot: Shot = yield from self._observe(settle=True)
        return shot

    def _observe(self, settle: bool) -> Gen:
        """The machine's observation (``prufeRun.shot``): settled first when asked, the
        viewport captured covered (here) with every root's hit boxes behind it, again while
        the page changed meanwhile; then the next id is issued."""
        driver = self.core.driver
        self.latest, self._screen = None, None
        taken: dict[str, Any] = {}

        def capture() -> Gen:
            yield from driver.world.roots()
            shot, css, _, covered = yield from driver.covered_capture(self._params, [], [])
            taken.update(shot=shot, css=css, covered=covered)

        boxes, stable = yield from driver.shot(settle, capture)
        shot, css, covered = taken["shot"], taken["css"], taken["covered"]
        png = base64.b64decode(shot["data"])
        size = _png_size(png)
        if size is None:
            raise PrufeError("BROWSER_ERROR", "the browser returned no PNG screenshot")
        framing = self._framing
        full = (framing["full"]["width"], framing["full"]["height"])
        scaled = framing["clip"] is not None
        self.issued += 1
        k = size[0] / css["clientWidth"]
        masked = tuple({key: round(b[key] * k, 1) for key in ("x", "y", "width", "height")} for b in covered["boxes"])
        screen = {"id": f"obs-{self.issued}", "image": {"width": float(size[0]), "height": float(size[1])},
                  "capture": {"width": full[0], "height": full[1]} if scaled else {"width": float(size[0]), "height": float(size[1])},
                  "dpr": framing["dpr"]}
        scale = yield from driver.world.points_rule("scale", screen)
        self.latest = Shot(id=screen["id"], width=float(size[0]), height=float(size[1]),
                           capture_width=screen["capture"]["width"], capture_height=screen["capture"]["height"],
                           device_pixel_ratio=framing["dpr"], stable=stable, png=png, masked=masked,
                           scale=(scale["x"], scale["y"]))
        self._screen = {**screen, "boxes": boxes}
        return self.latest

    def _params(self, css: dict[str, Any], _device_width: Optional[float]) -> Gen:
        """The capture's parameters: the machine's framing of the viewport (``points.framing``)
        with the page's own pixel ratio, kept for the screenshot it makes."""
        # The page's own pixel ratio, as the CLI and the npm package count it (one that is not
        # a number above zero the machine counts as 1).
        page = yield from self.core.driver.call("page")
        ratio = page.get("devicePixelRatio") if isinstance(page, dict) else None
        view = {"pageX": css["pageX"], "pageY": css["pageY"], "clientWidth": css["clientWidth"],
                "clientHeight": css["clientHeight"], "dpr": ratio if isinstance(ratio, (int, float)) and math.isfinite(ratio) else 0}
        self._framing = yield from self.core.driver.world.points_rule("framing", {"view": view, "maxWidth": self.max_width})
        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": False}
        if self._framing["clip"] is not None:
            params["clip"] = self._framing["clip"]
        return params

    def _fresh(self) -> Gen:
        """The screenshot that ends a step; ``None`` when the page cannot be captured (and no
        earlier one stays quotable)."""
        try:
            shot: Optional[Shot] = yield from self._observe(settle=False)
        except Exception:
            self.latest = None
            return None
        return shot

    # -- points -----------------------------------------------------------------------------

    def _aim(self, observation: Optional[str], pick: dict[str, Any]) -> Gen:
        """The machine's action for ``pick`` (image pixels) on the latest screenshot, the one
        ``observation`` names; once it is made, the next step needs a new screenshot."""
        yield from self.core.driver.world.start()
        action = yield from self.core.driver.world.points_rule("aim", {"screen": self._screen, "observation": observation, "pick": pick})
        self._aimed = self._screen["boxes"] if self._screen is not None else None
        self.latest = self._screen = None
        return action

    # -- steps ------------------------------------------------------------------------------

    def click_at(self, x: float, y: float, observation: Optional[str], button: str, intent: Optional[str]) -> Gen:
        action = yield from self._aim(observation, {"kind": "clickAt", "at": _point(x, y), "button": button})
        result: Result = yield from self._step(action, intent, focus=True)
        return result

    def drag_at(self, from_: tuple[float, float], to: tuple[float, float], observation: Optional[str], steps: int, intent: Optional[str]) -> Gen:
        action = yield from self._aim(observation, {"kind": "dragAt", "from": _point(*from_), "to": _point(*to), "steps": _carried(steps)})
        result: Result = yield from self._step(action, intent)
        return result

    def scroll_at(self, x: float, y: float, dx: float, dy: float, observation: Optional[str]) -> Gen:
        action = yield from self._aim(observation, {"kind": "scrollAt", "at": _point(x, y), "dx": _carried(dx), "dy": _carried(dy)})
        result: Result = yield from self._step(action, None)
        return result

    def type(self, text: str, sensitive: bool) -> Gen:
        # Its length is the machine's to check (``step::check_type_text``).
        if not isinstance(text, str):
            raise PrufeError("INVALID_ACTION", '"text" must be a string')
        self.latest = None
        action = {"kind": "typeText", "text": text, "sensitive": sensitive, "field": self.intended}
        result: Result = yield from self._step(action, None, focus=True, keep_focus=True)
        return result

    def key(self, chord: str) -> Gen:
        if not isinstance(chord, str):
            raise PrufeError("INVALID_ACTION", "a key chord is a string such as \"Control+S\"")
        self.latest = None
        result: Result = yield from self._step({"kind": "key", "chord": chord}, None, focus=True)
        return result

    def wait(self, run: Gen) -> Gen:
        """A wait (``run``), which ends with a fresh screenshot once screenshots are in use."""
        if not self.issued:
            result: Result = yield from run
            return result
        self.latest = None
        return (yield from self._ended(run))

    def _step(self, action: dict[str, Any], intent: Optional[str], focus: bool = False, keep_focus: bool = False) -> Gen:
        """One coordinate step verified by the machine (nothing carried from an earlier look),
        then the fresh screenshot; with ``focus``, typing then goes where the machine says the
        focus is (``keep_focus``: unless it says nowhere)."""
        yield from self.core.driver.world.start()
        self.core.driver.seen = None
        self.core.driver.focused = None

        def moved() -> None:
            if focus and not (keep_focus and self.core.driver.focused is None):
                self.intended = self.core.driver.focused

        # The boxes of the screenshot the points were aimed on, for this step only.
        self.core.driver.boxes, self._aimed = self._aimed, None
        try:
            return (yield from self._ended(self.core.act(action, intent), moved))
        finally:
            self.core.driver.boxes = None

    def _ended(self, run: Gen, then: Optional[Callable[[], None]] = None) -> Gen:
        try:
            result: Result = yield from run
        except PrufeError as error:
            # What the machine's record says, when the step got as far as one.
            if then is not None and (error.result is not None or getattr(error, "record", None) is not None):
                then()
            error.observation = yield from self._fresh()
            raise
        if then is not None:
            then()
        shot = yield from self._fresh()
        return dataclasses.replace(result, observation=shot)

