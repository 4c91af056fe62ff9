"""ActionPrufe 0.1.0's errors (``actionprufe.errors``).

Three outcomes that ask different things of the caller: the action did something else
(``VerificationFailed``, undone), its undo left something behind (``UndoFailed``), or it had
no inverse at all (``IrreversibleAction``). The last two leave the page dirty; both are
raised chained (``__cause__``) to the ``VerificationFailed`` that says why the action failed.
"""

from __future__ import annotations

from typing import Optional

from .types import ActionSpec, Diff, Judgement, explain


class ActionPrufeError(Exception):
    """The root of compat's errors. ``code`` is prufe's error code (``VERIFICATION_FAILED``,
    ``UNDO_FAILED``, ``IRREVERSIBLE_ACTION``), for code that also speaks prufe."""

    code = "ERROR"


class VerificationFailed(ActionPrufeError):
    """The action's effect was not the one intended; its wrong effect was undone."""

    code = "VERIFICATION_FAILED"

    def __init__(self, judgement: Judgement, diff: Diff, attempts: int, spec: Optional[ActionSpec] = None) -> None:
        self.judgement = judgement
        self.diff = diff
        self.attempts = attempts
        self.spec = spec
        super().__init__(f"{judgement.reason} (tras {attempts} intento/s)")

    def explain(self) -> str:
        """The whole report (the message is one line for a log on purpose)."""
        if self.spec is None:
            return f"{self}\n\nObservado:\n{self.diff.describe()}"
        return explain(self.spec, self.judgement, self.diff, self.attempts)


class IrreversibleAction(ActionPrufeError):
    """A wrong effect with no known inverse: the page is left as it is."""

    code = "IRREVERSIBLE_ACTION"


class UndoFailed(ActionPrufeError):
    """The undo ran and the page did not come back: ``residue`` is what is still there."""

    code = "UNDO_FAILED"

    def __init__(self, message: str, residue: Diff) -> None:
        self.residue = residue
        super().__init__(message)
