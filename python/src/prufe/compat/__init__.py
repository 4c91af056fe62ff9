"""A drop-in for ActionPrufe 0.1.0: change ``from actionprufe import …`` to
``from prufe.compat import …`` (and ``actionprufe.snapshot`` to ``prufe.compat.snapshot``,
likewise ``types``, ``errors``, ``verifier``, ``ai_judge``) and nothing else.

``ActionPrufe(page, *, ai_judge=None, ambiguous="reject", max_attempts=None, quiet_ms=None,
timeout_ms=None, trace_dir=None)`` (``None``: the machine's default, as ActionPrufe's) verifies each action with prufe's machine and answers with
ActionPrufe's values (``Result(spec, judgement, diff, attempts, undone)``), errors
(``VerificationFailed``, ``UndoFailed`` and ``IrreversibleAction``, the last two chained to
the ``VerificationFailed``) and Spanish wording (``aparecio … en carrito``, ``ambiguo
rechazado por politica: …``, ``REDACTED`` = ``[redactado]``). The verdicts are prufe's; the
docs/python.md, "From ActionPrufe", says what differs.
"""

from .._errors import PrufeError
from .ai_judge import AIJudge, GeminiJudge, build_prompt, read_verdict
from .errors import ActionPrufeError, IrreversibleAction, UndoFailed, VerificationFailed
from .types import REDACTED, ActionSpec, Change, Diff, Judgement, Node, NodeKey, Observation, Result, Snapshot, Verdict
from .verifier import ActionPrufe, SyncActionPrufe

__version__ = "0.1.0"

__all__ = [
    "AIJudge", "ActionPrufe", "ActionPrufeError", "ActionSpec", "Change", "Diff", "GeminiJudge", "IrreversibleAction",
    "Judgement", "REDACTED", "Node", "NodeKey", "Observation", "Result", "Snapshot", "SyncActionPrufe", "UndoFailed",
    "Verdict", "VerificationFailed", "build_prompt", "read_verdict", "PrufeError",
]
