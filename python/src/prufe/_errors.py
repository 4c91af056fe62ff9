"""One error type with the engine's typed code, and the three failures of a verified action.

``PrufeError.code`` is the SCREAMING_SNAKE_CASE code every prufe driver reports
(``TARGET_AMBIGUOUS``, ``TARGET_NOT_FOUND``, ``VERIFICATION_FAILED``…): branch on it, never on
the message. The message is one line for a log; ``explain()`` gives the whole report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from ._result import Result


class PrufeError(Exception):
    """An action prufe could not verify, or did not perform. Nothing in it is secret."""

    code: str

    def __init__(
        self,
        code: str,
        message: str,
        *,
        result: Optional["Result"] = None,
        candidates: Optional[list[dict[str, Any]]] = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.result = result
        self.candidates = candidates or []
        #: After a coordinate step that failed: the fresh screenshot (see ``Result.observation``).
        self.observation: Any = None
        #: Without a record: the report the machine words for the error alone (core
        #: ``error_lines``), as the CLI and Node print it.
        self.report: Optional[str] = None

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def explain(self) -> str:
        """The whole report: the action's when there is one, else the machine's for the error
        (the code and message alone when the page could not be asked)."""
        if self.result is not None:
            return self.result.explain()
        return self.report if self.report is not None else str(self) + "\n"


class VerificationFailed(PrufeError):
    """The effect was not the one intended (MISMATCH, or AMBIGUOUS not approved); undone."""


class UndoFailed(PrufeError):
    """The undo ran, but part of the wrong effect is still on the page (``residue``)."""

    @property
    def residue(self) -> list[str]:
        return list(self.result.residue) if self.result is not None else []


class IrreversibleAction(PrufeError):
    """The wrong effect has no inverse; ``__cause__`` is the verification failure."""


def error_for(code: str, message: str, result: Optional["Result"], candidates: Optional[list[dict[str, Any]]] = None) -> PrufeError:
    """The error of a step that ended with ``code``."""
    if code == "VERIFICATION_FAILED":
        return VerificationFailed(code, message, result=result)
    if code == "UNDO_FAILED":
        return UndoFailed(code, message, result=result)
    if code == "IRREVERSIBLE_ACTION":
        error = IrreversibleAction(code, message, result=result)
        error.__cause__ = VerificationFailed("VERIFICATION_FAILED", message, result=result)
        return error
    return PrufeError(code, message, result=result, candidates=candidates)
