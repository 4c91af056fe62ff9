"""ActionPrufe 0.1.0's shared types (``actionprufe.types``), filled from prufe's records.

A result is the same value ActionPrufe hands back: ``Result(spec, judgement, diff, attempts,
undone)``, its ``Diff`` a tuple of ``Change`` between ``NodeKey`` identities (role, name,
region), described one change per line in ActionPrufe's Spanish (``aparecio``, ``cambio …:
valor '' -> '[redactado]'``). What fills them is prufe's machine: its observations, its
diff and its verdict (see ``prufe.compat._records``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import FrozenSet, Optional, Tuple

REDACTED = "[redactado]"
"""What stands for a sensitive value everywhere compat writes one: results, reasons,
``explain()``, ``describe()`` and traces (prufe's own ``[redacted]`` is rewritten to it)."""

#: A node's payload: what may change while it stays the same element (value, states).
Payload = Tuple[Optional[str], FrozenSet[str]]


class Verdict(str, Enum):
    """Whether the observed effect is the intended one (values in lower case, as
    ActionPrufe's ``StrEnum``)."""

    MATCH = "match"
    MISMATCH = "mismatch"
    AMBIGUOUS = "ambiguous"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class NodeKey:
    """An element's identity: role, accessible name and region; never its place in the DOM."""

    role: str
    name: str
    region: str

    def __str__(self) -> str:
        return f"{self.role}[{self.name}] en {self.region}"


@dataclass(frozen=True)
class Node:
    """One observed element: its identity and what may change on it."""

    key: NodeKey
    value: Optional[str]
    states: "frozenset[str]"
    sensitive: bool = False

    @property
    def payload(self) -> Payload:
        return (self.value, self.states)


@dataclass(frozen=True)
class Snapshot:
    """The page at one moment, as ``settle()`` returns it. ``settled`` is False when the page
    was still changing at the deadline."""

    url: str
    nodes: "tuple[Node, ...]"
    text_digest: str
    settled: bool


def _shown(value: Optional[str]) -> str:
    return repr(value)


@dataclass(frozen=True)
class Change:
    """One difference: ``kind`` is ``appeared``, ``disappeared`` or ``changed``."""

    kind: str
    key: NodeKey
    before: Optional[Payload] = None
    after: Optional[Payload] = None

    def describe(self) -> str:
        """One line: ``aparecio listitem[Gorra] en carrito``, ``cambio checkbox[…] en form:
        gano checked``."""
        if self.kind == "appeared":
            return f"aparecio {self.key}"
        if self.kind == "disappeared":
            return f"desaparecio {self.key}"
        old_value, old_states = self.before or (None, frozenset())
        new_value, new_states = self.after or (None, frozenset())
        parts = []
        if old_value != new_value:
            parts.append(f"valor {_shown(old_value)} -> {_shown(new_value)}")
        gained, lost = sorted(new_states - old_states), sorted(old_states - new_states)
        if gained:
            parts.append("gano " + ", ".join(gained))
        if lost:
            parts.append("perdio " + ", ".join(lost))
        return f"cambio {self.key}: {'; '.join(parts) or 'sin detalle'}"


@dataclass(frozen=True)
class Diff:
    """What changed between before and after an action. True when anything did."""

    changes: "tuple[Change, ...]"
    url_changed: bool
    text_changed: bool

    def __bool__(self) -> bool:
        return bool(self.changes) or self.url_changed or self.text_changed

    def of_kind(self, kind: str) -> "tuple[Change, ...]":
        return tuple(c for c in self.changes if c.kind == kind)

    def describe(self) -> str:
        """Every change, one per line; ``no cambio nada`` when there is none."""
        lines = [c.describe() for c in self.changes]
        if self.url_changed:
            lines.append("cambio la URL")
        if self.text_changed and not lines:
            lines.append("cambio el texto de la pagina sin cambiar ningun elemento observable")
        return "\n".join(lines) or "no cambio nada"


@dataclass(frozen=True)
class ActionSpec:
    """What was asked: the action (``click``, ``fill``, ``check``, ``uncheck``, ``select``,
    ``press``, ``hover``, ``upload``, ``drag``, ``watch``), its target read before acting,
    what it carried and the declared intent."""

    kind: str
    target: Optional[NodeKey]
    target_states: "frozenset[str]"
    target_value: Optional[str] = None
    payload: Optional[str] = None
    intent: Optional[str] = None
    sensitive: bool = False


@dataclass(frozen=True)
class Judgement:
    """A verdict and its reason. ``escalated`` when the AI arbiter decided it."""

    verdict: Verdict
    reason: str
    escalated: bool = False


def explain(spec: ActionSpec, judgement: Judgement, diff: Diff, attempts: int = 1, undone: int = 0) -> str:
    """The whole report of one action: what was asked and meant, what changed, what was
    decided (ActionPrufe's layout: ``Accion:``, ``Intencion:``, ``Veredicto:``…)."""
    lines = [f"Accion:    {spec.kind} sobre {spec.target or 'objetivo desconocido'}"]
    if spec.payload is not None:
        lines.append(f"Valor:     {REDACTED if spec.sensitive else repr(spec.payload)}")
    lines.append(f"Intencion: {spec.intent or '(no declarada)'}")
    lines.append(f"Veredicto: {judgement.verdict.value.upper()} — {judgement.reason}")
    lines.append(f"Intentos:  {attempts}" + (f", {undone} deshecho/s" if undone else ""))
    if judgement.escalated:
        lines.append("           (lo desempato el arbitro de IA)")
    lines.append("Observado:")
    lines += [f"  {line}" for line in diff.describe().splitlines()]
    return "\n".join(lines)


@dataclass(frozen=True)
class Result:
    """What every verified action returns."""

    spec: ActionSpec
    judgement: Judgement
    diff: Diff
    attempts: int
    undone: int = 0

    @property
    def ok(self) -> bool:
        return self.judgement.verdict is Verdict.MATCH

    def explain(self) -> str:
        return explain(self.spec, self.judgement, self.diff, self.attempts, self.undone)


@dataclass
class Observation:
    """What a ``watch`` block saw; ``result`` is filled in when the block ends."""

    spec: ActionSpec
    result: Optional[Result] = None

    @property
    def ok(self) -> bool:
        return self.result is not None and self.result.ok

    def explain(self) -> str:
        if self.result is None:
            return "todavia no se ha salido del bloque de observacion"
        return self.result.explain()
