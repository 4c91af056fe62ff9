"""What a verified action did: the machine's record, read as Python."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from ._coords import Shot


@dataclass(frozen=True)
class Diff:
    """What changed on the page between before and after the action (the engine's diff)."""

    lines: list[str]
    appeared: list[dict[str, Any]] = field(default_factory=list)
    disappeared: list[dict[str, Any]] = field(default_factory=list)
    changed: list[dict[str, Any]] = field(default_factory=list)
    moved: list[dict[str, Any]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.lines

    def describe(self) -> str:
        """One change per line: ``appeared listitem[Shirt M] in cart``."""
        return "\n".join(self.lines) if self.lines else "no change"

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> "Diff":
        diff = record.get("diff") or {}
        return cls(
            lines=list(record.get("lines") or diff.get("lines") or []),
            appeared=list(diff.get("appeared") or []),
            disappeared=list(diff.get("disappeared") or []),
            changed=list(diff.get("changed") or []),
            moved=list(diff.get("moved") or []),
        )


@dataclass(frozen=True)
class Result:
    """The record of one step: verdict, reason, diff, attempts and undos. Every string in it
    is redacted."""

    action: str
    verdict: Optional[str]
    ok: bool
    reason: str
    target: Optional[str]
    intent: Optional[str]
    value: Optional[str]
    attributed_to: Optional[str]
    diff: Diff
    attempts: int
    undone: int
    stable: bool
    arbiter: Optional[str]
    error: Optional[dict[str, Any]]
    residue: list[str]
    dialogs: list[str]
    duration_ms: int
    started_at: str
    record: dict[str, Any] = field(repr=False, compare=False)
    #: How each claim of the step's ``expect`` came out, in the order given:
    #: ``{"claim": "appears listitem[Shirt M] in cart", "status": "held" | "broken" | "absent",
    #: "evidence": "appeared listitem[Shirt M] in cart"}``.
    expect: list[dict[str, Any]] = field(default_factory=list)
    #: The report and the one line the machine words for the record (core ``Record::report``).
    texts: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    #: After a coordinate step: the fresh screenshot its next points are chosen on (``None``
    #: when the page could not be captured).
    observation: Optional["Shot"] = field(default=None, repr=False, compare=False)

    @classmethod
    def from_record(cls, record: dict[str, Any], texts: dict[str, str]) -> "Result":
        return cls(
            action=str(record.get("action", "")),
            verdict=record.get("verdict"),
            ok=bool(record.get("ok")),
            reason=str(record.get("reason", "")),
            target=record.get("target"),
            intent=record.get("intent"),
            value=record.get("value"),
            attributed_to=record.get("attributedTo"),
            diff=Diff.from_record(record),
            attempts=int(record.get("attempts", 0)),
            undone=int(record.get("undone", 0)),
            stable=bool(record.get("stable", True)),
            arbiter=record.get("arbiter"),
            error=record.get("error"),
            residue=list(record.get("residue") or []),
            dialogs=list(record.get("dialogs") or []),
            duration_ms=int(record.get("durationMs", 0)),
            started_at=str(record.get("startedAt", "")),
            record=record,
            expect=list(record.get("expect") or []),
            texts=dict(texts),
        )

    @property
    def lines(self) -> list[str]:
        return self.diff.lines

    def action_line(self) -> str:
        """``click on button[Add Shirt M] in list``."""
        line = self.action
        if self.target:
            line += f" on {self.target}"
        if self.value is not None:
            line += f" with '{self.value}'"
        return line

    def summary(self) -> str:
        """One line for a log: action, verdict and reason."""
        return self.texts.get("summary", "")

    def explain(self) -> str:
        """The whole report, as the CLI prints it: action, intent, verdict, claims, attempts,
        dialogs, what was observed, and what the step's error adds."""
        return self.texts.get("explain", "")
