"""``actionprufe.snapshot``'s public names: the redaction marker every output of compat uses.

Observing the page is prufe's engine (``prufe.js``, in an isolated world); what it observed
comes back through ``ActionPrufe.settle()`` as a ``Snapshot``.
"""

from .types import REDACTED, Node, NodeKey, Snapshot

#: ActionPrufe's bound on one evaluation in the page, in seconds; prufe bounds each step by
#: ``timeout_ms`` instead.
EVAL_TIMEOUT_S = 10.0

__all__ = ["EVAL_TIMEOUT_S", "REDACTED", "Node", "NodeKey", "Snapshot"]
