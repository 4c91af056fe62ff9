"""What ``async_api.Prufe`` and ``sync_api.Prufe`` share: targets, steps, results, errors,
traces and watching, as generators of driver operations (see ``_driver``)."""

from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Union

from . import arbiter as _arbiter
from ._driver import Config, Driver, Failed, Gen, World, now_rfc3339, op, source
from ._coords import Coords
from ._errors import PrufeError, error_for
from ._result import Diff, Result
from ._trace import TraceWriter

log = logging.getLogger("prufe")
log.addHandler(logging.NullHandler())

AMBIGUOUS_POLICIES = ("reject", "accept")
SCREENSHOTS = ("off", "failures", "all")
_VERIFICATION = ("VERIFICATION_FAILED", "UNDO_FAILED", "IRREVERSIBLE_ACTION")


@dataclass(frozen=True)
class Target:
    """A prufe target: what a person would call the element. ``name`` is its accessible name
    (or, for a nameless row, its text); the others narrow the match. Resolved strictly: no
    element is ``TARGET_NOT_FOUND``, two are ``TARGET_AMBIGUOUS``."""

    name: str
    role: Optional[str] = None
    region: Optional[str] = None
    frame: Optional[str] = None
    href: Optional[str] = None
    in_viewport: Optional[bool] = None
    #: The nearest named container (``Container("listitem", "Walk dog")``, or a dict of one),
    #: ``in`` on the wire; with it, ``name`` may be ``""``.
    within: "Optional[Union[Container, dict[str, Any]]]" = None
    #: The element's place, from 1, among the visible elements the rest names (the second
    #: unnamed list of a region); with it, ``name`` may be ``""``.
    nth: Optional[int] = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        for key, value in (("role", self.role), ("region", self.region), ("frame", self.frame), ("href", self.href), ("inViewport", self.in_viewport), ("nth", self.nth)):
            if value is not None:
                out[key] = value
        if self.within is not None:
            out["in"] = self.within.to_json() if isinstance(self.within, Container) else dict(self.within)
        return out


@dataclass(frozen=True)
class Container:
    """A container a target is in: its role and its label (``listitem``, ``Walk dog``)."""

    role: str
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"role": self.role, "name": self.name}


TargetLike = Union[Target, dict[str, Any], Any]


# -- typed expectations ----------------------------------------------------------------
# One class per claim kind of a step's ``expect`` (the machine checks them; a malformed one is
# ``INVALID_EXPECT`` before anything is sent). A dict in the wire form works as well.


def _claim_target(value: Any) -> dict[str, Any]:
    if isinstance(value, Target):
        return value.to_json()
    if isinstance(value, dict):
        return dict(value)
    raise TypeError(f"a claim's target is a prufe Target or a dict of one, not {type(value).__name__}")


@dataclass(frozen=True)
class Appears:
    """An element matching ``target`` appeared (or became visible)."""

    target: Union[Target, dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "appears", "target": _claim_target(self.target)}


@dataclass(frozen=True)
class Disappears:
    """An element matching ``target`` is gone or hidden."""

    target: Union[Target, dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "disappears", "target": _claim_target(self.target)}


@dataclass(frozen=True)
class Changes:
    """``field`` (checked, pressed, selected, expanded, value, disabled, visible, focused) of
    the element changed, from ``from_`` and to ``to`` when given."""

    target: Union[Target, dict[str, Any]]
    field: str
    from_: Optional[Union[bool, str]] = None
    to: Optional[Union[bool, str]] = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "changes", "target": _claim_target(self.target), "field": self.field}
        if self.from_ is not None:
            out["from"] = self.from_
        if self.to is not None:
            out["to"] = self.to
        return out


@dataclass(frozen=True)
class Moves:
    """The element moved: to a list (its id or label) or a region (a prefix), and/or to
    ``position`` (from 1, among the visible elements of its role in its region)."""

    target: Union[Target, dict[str, Any]]
    list: Optional[str] = None
    region: Optional[str] = None
    position: Optional[int] = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "moves", "target": _claim_target(self.target)}
        to = {k: v for k, v in (("list", self.list), ("region", self.region)) if v is not None}
        if to:
            out["to"] = to
        if self.position is not None:
            out["position"] = self.position
        return out


@dataclass(frozen=True)
class Stays:
    """The element must not change."""

    target: Union[Target, dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {"kind": "stays", "target": _claim_target(self.target)}


@dataclass(frozen=True)
class Navigates:
    """A new document loaded at an address matching ``url``: a glob when it holds ``*`` (any
    run of characters), else a substring."""

    url: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": "navigates", "url": self.url}


@dataclass(frozen=True)
class Count:
    """After the action, exactly ``n`` visible elements match ``target``."""

    target: Union[Target, dict[str, Any]]
    n: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": "count", "target": _claim_target(self.target), "n": self.n}


@dataclass(frozen=True)
class Text:
    """A text run appeared containing ``text`` (``exact``: equal to it), in ``region`` (a
    prefix) when given."""

    text: str
    region: Optional[str] = None
    exact: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "text", "text": self.text}
        if self.region is not None:
            out["region"] = self.region
        if self.exact:
            out["exact"] = True
        return out


Claim = Union[Appears, Disappears, Changes, Moves, Stays, Navigates, Count, Text]
ClaimLike = Union[Claim, dict[str, Any]]


def claims_json(expect: Optional[Sequence[ClaimLike]]) -> Optional[list[dict[str, Any]]]:
    """A step's ``expect`` in the wire form: claim objects as their JSON, dicts as given (a
    ``Target`` inside one as its JSON)."""
    if expect is None:
        return None
    if isinstance(expect, (dict, str)) or not isinstance(expect, Sequence):
        raise PrufeError("INVALID_EXPECT", f"expect is a list of claims, not {type(expect).__name__}")
    out: list[dict[str, Any]] = []
    for claim in expect:
        if isinstance(claim, dict):
            c = dict(claim)
            if isinstance(c.get("target"), Target):
                c["target"] = c["target"].to_json()
            out.append(c)
        elif hasattr(claim, "to_json"):
            out.append(claim.to_json())
        else:
            raise PrufeError("INVALID_EXPECT", f"a claim is a dict or one of Appears, Disappears, Changes, Moves, Stays, Navigates, Count, Text, not {type(claim).__name__}")
    return out


def is_locator(value: Any) -> bool:
    return hasattr(value, "evaluate") and hasattr(value, "count") and hasattr(value, "is_visible")


class Core:
    """One page's verifier, independent of the Playwright API flavour."""

    def __init__(
        self,
        *,
        isolated: bool,
        ai_judge: Any,
        ambiguous: str,
        max_attempts: Optional[int],
        quiet_ms: Optional[int],
        timeout_ms: Optional[int],
        trace_dir: "Optional[str | os.PathLike[str]]",
        screenshots: str = "failures",
        quick_ms: Optional[int] = None,
    ) -> None:
        if screenshots not in SCREENSHOTS:
            raise PrufeError("INVALID_OPTIONS", f"screenshots must be 'off', 'failures' or 'all', not {screenshots!r}")
        if ambiguous not in AMBIGUOUS_POLICIES:
            raise ValueError(f"ambiguous must be 'reject' or 'accept', not {ambiguous!r}")
        if ai_judge is not None:
            _arbiter.method_of(ai_judge)
        if quick_ms is not None and (isinstance(quick_ms, bool) or not isinstance(quick_ms, int) or quick_ms < 0):
            raise PrufeError("INVALID_OPTIONS", f"quick_ms must be a whole number of milliseconds, not {quick_ms!r}")
        config = Config(ambiguous=ambiguous, max_attempts=max_attempts, quiet_ms=quiet_ms, timeout_ms=timeout_ms, has_arbiter=ai_judge is not None,
                        pictures=trace_dir is not None and screenshots != "off", quick_ms=quick_ms)
        self.screenshots = screenshots
        self.driver = Driver(World(isolated, timeout_ms), config)
        self.coords = Coords(self)
        self.ai_judge = ai_judge
        self.trace = TraceWriter(trace_dir) if trace_dir is not None else None
        self.sensitive: list[str] = []
        if not isolated:
            warnings.warn(
                "prufe: this browser has no DevTools protocol session, so the engine runs in the "
                "page's own world, where the page can see it and interfere; use Chromium for isolation",
                RuntimeWarning,
                stacklevel=4,
            )

    @property
    def redactor(self) -> Any:
        return self.driver.redactor

    # -- targets ------------------------------------------------------------------------

    def _identify(self, locator: Any) -> Gen:
        """The engine's record of a Locator's one element and the target naming it (``None``
        when hidden); ``LookupError`` when no path reaches it."""
        located = yield op("locator_path", locator, source("locator.js"))
        if not (isinstance(located, dict) and isinstance(located.get("path"), list)):
            # None, or what a page that patches its own builtins makes of the answer: either
            # way no path to the element.
            raise LookupError("no path to the element")
        chain = [located["path"]]
        if located.get("crossed"):
            # Inside a frame of another origin: its <iframe>'s path in each parent too.
            chain = yield op("locator_chain", locator, source("locator.js"))
        if not chain:
            raise LookupError("no path to the element")
        found: tuple[dict[str, Any], Optional[dict[str, Any]]] = yield from self.driver.identify(chain[-1], self.sensitive, chain[:-1])
        return found

    def target(self, value: TargetLike, place: bool = False) -> Gen:
        """The prufe target of ``value``: a Target, a dict of one, or a Playwright Locator,
        turned into the identity the engine observes for its element (once)."""
        if isinstance(value, Target):
            return value.to_json()
        if isinstance(value, dict):
            return dict(value)
        if not is_locator(value):
            raise TypeError(f"a target is a Playwright Locator or a prufe Target, not {type(value).__name__}")
        count = yield op("locator_count", value)
        found: dict[str, Any] = {"shown": str(value), "count": count, "place": place}
        if count == 1:
            try:
                found["element"], found["target"] = yield from self._identify(value)
            except PrufeError as error:
                found["error"] = {"code": error.code, "message": error.message}
            except LookupError:
                pass
        elif count > 1:
            # What can be named of the first ten, for the error's candidates.
            found["candidates"] = []
            for i in range(min(count, 10)):
                try:
                    element, _ = yield from self._identify(value.nth(i))
                except (PrufeError, LookupError):
                    continue
                name = element.get("name") or element.get("text") or ""
                found["candidates"].append({"ref": element["ref"], "role": element["role"], "name": name, "region": element.get("region", "")})
        # The machine decides: no match, several, gone, hidden (a destination hidden until the
        # drag starts is named by its record), else the engine's target.
        decided = yield from self.driver.located(found)
        if "error" in decided:
            raise PrufeError(decided["error"]["code"], decided["error"]["message"], candidates=decided["error"].get("candidates"))
        target: dict[str, Any] = decided["target"]
        return target

    # -- steps --------------------------------------------------------------------------

    def act(self, action: dict[str, Any], intent: Optional[str], inverse: Optional[list[dict[str, Any]]] = None,
            expect: Optional[list[dict[str, Any]]] = None) -> Gen:
        """Verifies one step; returns its Result or raises its error."""
        step: dict[str, Any] = {"action": action, "intent": intent}
        if inverse:
            step["inverse"] = inverse
        if expect:
            step["expect"] = expect
        started_at = now_rfc3339()
        try:
            record = yield from self.driver.verify(step, self._ask if self.ai_judge is not None else None)
        except PrufeError as error:
            raise (yield from self._ended(error, action["kind"], started_at)) from None
        return self._finish(record)

    def plain(self, kind: str, begin: dict[str, Any], until: Optional[dict[str, Any]] = None) -> Gen:
        """A run that acts on nothing (a look, a wait); returns its Result or raises its error."""
        if isinstance(until, dict) and until.get("sensitive") and isinstance(until.get("value"), str):
            yield from self.driver.secret(until["value"])
        started_at = now_rfc3339()
        try:
            record = yield from self.driver.plain(begin)
        except PrufeError as error:
            raise (yield from self._ended(error, kind, started_at)) from None
        return self._finish(record)

    async def _ask(self, need: dict[str, Any]) -> dict[str, Any]:
        return await _arbiter.answer(self.ai_judge, need["question"], int(need["timeoutMs"]), int(need["maxChars"]))

    def worded(self, run: Gen) -> Gen:
        """``run``; an error it raises without a record carries the machine's report."""
        try:
            return (yield from run)
        except PrufeError as error:
            if error.result is not None or error.report is not None:
                raise
            raise (yield from self._ended(error, None, None)) from None

    def _ended(self, error: PrufeError, kind: Optional[str], started_at: Optional[str]) -> Gen:
        """``error``, which ended a step before it had a record, scrubbed of the caller's secrets,
        with the machine's report (``explain``); with ``kind``, the step's trace entry written
        (the machine's). Without a page to ask, the report is the code alone, the message too
        when there is no secret it could hold, and the entry is lost."""
        ended = {"action": kind, "code": error.code, "reason": str(error), "startedAt": started_at} if kind is not None else None
        try:
            done = yield from self.driver.ended({"code": error.code, "message": error.message, "candidates": error.candidates}, ended)
        except Exception:
            held = bool(self.redactor.secrets())
            message = "the message is held back: no page could scrub it of the caller's secrets" if held else error.message
            clean = error_for(error.code, message, error.result, error.candidates)
            clean.observation = error.observation
            return clean
        clean = error_for(error.code, str(done["message"]), error.result, error.candidates)
        clean.observation = error.observation
        clean.report = str(done["explain"])
        if done["trace"] is not None:
            self._trace(done["trace"], ok=False)
        return clean

    def _trace(self, entry: dict[str, Any], ok: bool) -> None:
        if self.trace is not None:
            keep = self.screenshots == "all" or (self.screenshots == "failures" and not ok)
            self.trace.write(entry, self.driver.shots if keep else None)
            self.driver.shots = {}

    def _finish(self, record: dict[str, Any]) -> Result:
        result = Result.from_record(record, self.driver.texts)
        error = record.get("error")
        if not error:
            log.info("%s", result.summary())
            self._trace(self.driver.entry, bool(record.get("ok")))
            return result
        code = str(error.get("code"))
        if code in _VERIFICATION:
            # The machine's words, as every surface says them.
            failure = error_for(code, str(error.get("message", "")), result)
            log.warning("%s", failure)
            self._trace(self.driver.entry, ok=False)
            raise failure
        # With its record: ``explain()`` is the machine's report, as the CLI and Node print it.
        failure = error_for(code, str(error.get("message", "")), result, error.get("candidates"))
        failure.record = record  # type: ignore[attr-defined]
        log.warning("%s", failure)
        self._trace(self.driver.entry, ok=False)
        raise failure

    # -- watching -----------------------------------------------------------------------

    def watch_begin(self, intent: Optional[str]) -> Gen:
        try:
            state: dict[str, Any] = yield from self.driver.watch_begin(intent, self._ask if self.ai_judge is not None else None)
        except PrufeError as error:
            raise (yield from self._ended(error, "watch", now_rfc3339())) from None
        if "record" in state:
            # The watch ended before it could watch (the page could not be observed).
            self._finish(state["record"])
        return state

    def watch_end(self, state: dict[str, Any], intent: Optional[str]) -> Gen:
        """The watch's Result; a verdict never raises (read ``ok``), any other failure does."""
        try:
            record = yield from self.driver.watch_end(state, self._ask if self.ai_judge is not None else None)
        except PrufeError as error:
            raise (yield from self._ended(error, "watch", state["startedAt"])) from None
        failed = record.get("error")
        if failed and failed.get("code") != "VERIFICATION_FAILED":
            return self._finish(record)
        self._trace(self.driver.entry, bool(record.get("ok")))
        return Result.from_record(record, self.driver.texts)


class Watched:
    """What ``watch()`` saw; filled in when its block ends. Never raises on a verdict."""

    def __init__(self, intent: Optional[str]) -> None:
        self.intent = intent
        self.result: Optional[Result] = None

    def _require(self) -> Result:
        if self.result is None:
            raise RuntimeError("the watch has not ended yet")
        return self.result

    @property
    def ok(self) -> bool:
        return self._require().ok

    @property
    def verdict(self) -> Optional[str]:
        return self._require().verdict

    @property
    def reason(self) -> str:
        return self._require().reason

    @property
    def diff(self) -> Diff:
        return self._require().diff

    def explain(self) -> str:
        return self._require().explain()


def build(core: Core, kind: str, target: Any = None, *, intent: Optional[str] = None, to: Any = None,
          inverse: Optional[list[dict[str, Any]]] = None, expect: Optional[Sequence[ClaimLike]] = None, **fields: Any) -> Gen:
    """The step of one public method, its targets turned into prufe targets, verified."""
    claims = claims_json(expect)
    yield from core.driver.world.start()
    action: dict[str, Any] = {"kind": kind}
    if target is not None:
        action["target"] = yield from core.target(target)
    if to is not None:
        action["to"] = yield from core.target(to, place=True)
    action.update({k: v for k, v in fields.items() if v is not None})
    result: Result = yield from core.act(action, intent, inverse, claims)
    return result


def files_of(paths: "Union[str, os.PathLike[str], list[Union[str, os.PathLike[str]]]]") -> list[str]:
    items = paths if isinstance(paths, list) else [paths]
    return [os.path.abspath(os.fspath(p)) for p in items]
