"""prufe: every browser action checked against what it was meant to do, undone if not.

Use ``prufe.async_api.Prufe`` or ``prufe.sync_api.Prufe`` (Playwright's split);
``prufe.compat.ActionPrufe`` for code written against ActionPrufe.
"""

from ._api import Appears, Changes, Container, Count, Disappears, Moves, Navigates, Stays, Target, Text
from ._errors import IrreversibleAction, PrufeError, UndoFailed, VerificationFailed
from ._result import Diff, Result
from .arbiter import OpenAIJudge

__version__ = "0.1.0"
__all__ = ["Target", "Container", "Appears", "Disappears", "Changes", "Moves", "Stays", "Navigates", "Count", "Text", "Result", "Diff", "PrufeError", "VerificationFailed", "UndoFailed", "IrreversibleAction", "OpenAIJudge"]
