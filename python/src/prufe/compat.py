"""A drop-in for ActionPrufe: change ``from actionprufe import …`` to
``from prufe.compat import …`` and nothing else.

``ActionPrufe(page, ai_judge=…, ambiguous=…, max_attempts=…, quiet_ms=…, timeout_ms=…,
trace_dir=…)`` is ``prufe.async_api.Prufe`` (``prufe.sync_api`` for a sync page), and its
results, errors and ``explain()`` speak ActionPrufe's Spanish: ``Accion:``, ``Veredicto:``,
``aparecio … en carrito``, ``[redactado]``. Only the wording is translated; the verdicts are
prufe's.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from ._errors import IrreversibleAction as _Irreversible
from ._errors import PrufeError as _PrufeError
from ._errors import UndoFailed as _UndoFailed
from ._errors import VerificationFailed as _VerificationFailed
from ._result import Diff as _Diff
from ._result import Result as _Result

__all__ = ["ActionPrufe", "VerificationFailed", "UndoFailed", "IrreversibleAction", "PrufeError", "Result"]

_LINE = [
    (re.compile(r"^appeared (.*)$"), r"aparecio \1"),
    (re.compile(r"^disappeared (.*)$"), r"desaparecio \1"),
    (re.compile(r"^changed (.*)$"), r"cambio \1"),
    (re.compile(r"^moved (.*) from (.*) to (.*)$"), r"se movio \1 de \2 a \3"),
]
_WORDS = [
    (re.compile(r"\[redacted\]"), "[redactado]"),
    (re.compile(r": value '"), ": valor '"),
    (re.compile(r"^text '"), "texto '"),
    (re.compile(r"\] in (\S.*?)(?=: |$)"), r"] en \1"),
]
_REASONS = [
    (re.compile(r"^the effect belongs to (.*?), not to the target(?:: .*)?$"), r"el efecto corresponde a \1, no al objetivo"),
    (re.compile(r"^the effect carries the target's name.*$"), "el efecto lleva el nombre del objetivo"),
    (re.compile(r"^no (observable )?effect.*$"), "sin efecto observable"),
]


def _line(text: str) -> str:
    for pattern, spanish in _LINE:
        text = pattern.sub(spanish, text)
    text = re.sub(r"^(aparecio|desaparecio|cambio) text '", r"\1 texto '", text)
    for pattern, spanish in _WORDS:
        text = pattern.sub(spanish, text)
    return text


def _target(text: Optional[str]) -> str:
    if not text:
        return "(ninguno)"
    return re.sub(r"\] in (\S.*?)(?=: |,|$)", r"] en \1", text).replace("[redacted]", "[redactado]")


def _reason(text: str) -> str:
    for pattern, spanish in _REASONS:
        if pattern.match(text):
            return _target(pattern.sub(spanish, text))
    return text.replace("[redacted]", "[redactado]")


class Diff(_Diff):
    def describe(self) -> str:
        return "\n".join(_line(line) for line in self.lines) if self.lines else "sin cambios"


def _explain(result: _Result) -> str:
    action = result.action + (f" sobre {_target(result.target)}" if result.target else "")
    if result.value is not None:
        action += f" con '{result.value.replace('[redacted]', '[redactado]')}'"
    out = [f"Accion:    {action}", f"Intencion: {result.intent or '(no declarada)'}"]
    out.append(f"Veredicto: {result.verdict or '(ninguno)'} — {_reason(result.reason)}")
    if not result.stable:
        out.append("Pagina:    aun cambiando al agotarse el tiempo (inestable)")
    out.append(f"Intentos:  {result.attempts}" + (f", {result.undone} deshecho/s" if result.undone else ""))
    if result.lines:
        out.append("Observado:")
        out += [f"  {_line(line)}" for line in result.lines]
    else:
        out.append("Observado: sin cambios")
    return "\n".join(out) + "\n"


class Result(_Result):
    """prufe's Result, explained in ActionPrufe's words."""

    @property
    def diff_es(self) -> Diff:
        return Diff(self.diff.lines, self.diff.appeared, self.diff.disappeared, self.diff.changed, self.diff.moved)

    def explain(self) -> str:
        return _explain(self)


def _spanish(result: Optional[_Result]) -> Optional[Result]:
    if result is None:
        return None
    fields = {name: getattr(result, name) for name in result.__dataclass_fields__}
    fields["diff"] = Diff(result.diff.lines, result.diff.appeared, result.diff.disappeared, result.diff.changed, result.diff.moved)
    return Result(**fields)


PrufeError = _PrufeError


class VerificationFailed(_VerificationFailed):
    def __str__(self) -> str:
        if self.result is not None:
            return _explain(self.result).split("\n")[2].removeprefix("Veredicto: ")
        return super().__str__()


class UndoFailed(_UndoFailed, VerificationFailed):
    pass


class IrreversibleAction(_Irreversible):
    pass


def _translated(error: _PrufeError) -> _PrufeError:
    kinds: dict[type, type] = {_UndoFailed: UndoFailed, _Irreversible: IrreversibleAction, _VerificationFailed: VerificationFailed}
    kind = next((k for base, k in kinds.items() if isinstance(error, base)), None)
    if kind is None:
        return error
    clean: _PrufeError = kind(error.code, error.message, result=_spanish(error.result), candidates=error.candidates)
    if error.__cause__ is not None and isinstance(error.__cause__, _PrufeError):
        clean.__cause__ = _translated(error.__cause__)
    return clean


class _Seen:
    """What a watch saw, explained in ActionPrufe's words."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def explain(self) -> str:
        result = _spanish(self._inner.result)
        return result.explain() if result is not None else self._inner.explain()


class _Watch:
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def __aenter__(self) -> _Seen:
        return _Seen(await self._inner.__aenter__())

    async def __aexit__(self, *exc: Any) -> None:
        await self._inner.__aexit__(*exc)

    def __enter__(self) -> _Seen:
        return _Seen(self._inner.__enter__())

    def __exit__(self, *exc: Any) -> None:
        self._inner.__exit__(*exc)


class _Wrapper:
    def __init__(self, inner: Any, is_async: bool) -> None:
        self._inner = inner
        self._async = is_async

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._inner, name)
        if name == "watch":
            return lambda intent=None: _Watch(method(intent))
        if not callable(method):
            return method
        if self._async:
            async def call_async(*args: Any, **kwargs: Any) -> Any:
                try:
                    return _spanish(await method(*args, **kwargs))
                except _PrufeError as error:
                    raise _translated(error) from error.__cause__
            return call_async

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return _spanish(method(*args, **kwargs))
            except _PrufeError as error:
                raise _translated(error) from error.__cause__
        return call


def ActionPrufe(page: Any, **options: Any) -> Any:  # noqa: N802 (ActionPrufe's name)
    """ActionPrufe's constructor: a verifier on ``page`` (async or sync Playwright)."""
    import playwright.async_api

    if isinstance(page, playwright.async_api.Page):
        from .async_api import Prufe as AsyncPrufe

        return _Wrapper(AsyncPrufe(page, **options), True)
    from .sync_api import Prufe as SyncPrufe

    return _Wrapper(SyncPrufe(page, **options), False)
