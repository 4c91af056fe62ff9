"""Caller-declared secrets, scrubbed from every string prufe hands back.

The page's own secrets (password fields, card fields, ``data-ap-sensitive``) arrive redacted
from the engine; a value the caller marks ``sensitive=True`` is also replaced wherever it
appears. The rule is the machine's (core ``redact``: ``prufeRun.secretForms`` and
``prufeRun.scrub``), the one the CLI and the npm package follow: which forms of a secret are
scrubbed (the value, its whitespace collapsed, percent-, form- and lowercase-encoded, none
shorter than three characters) and in which order they are replaced (longest first).

Python has no WebAssembly runtime of its own: the machine runs in the page. So

- a record, its report and summary and its trace entry are scrubbed by the machine inside the
  page call that fetches them (``_driver.FINISHED``), with no round trip of their own;
- a secret's forms are asked of the machine once, when the secret is registered
  (``Driver.secret``; a fill into a field that turns out sensitive is registered by that same
  ``FINISHED`` call);
- an error that ended a step before it had a record: its message, report and trace entry by
  the machine in the page call that words them (``_driver.ENDED``); with no page to answer,
  its message is held back when there are secrets it could hold;
- the arbiter's question, which holds the page's text: by the machine in a page call of its
  own (``Driver.scrubbed``, ``prufeRun.scrub``) before the arbiter is asked.

This module keeps the list and decides nothing: it has no replace loop of its own.
"""

from __future__ import annotations


REDACTED = "[redacted]"


class Redactor:
    def __init__(self) -> None:
        self._values: list[str] = []
        self._forms: list[str] = []

    def __repr__(self) -> str:
        return f"Redactor({len(self._values)} secrets)"

    def knows(self, value: str) -> bool:
        return value in self._values

    def values(self) -> list[str]:
        """The caller's secrets as they were given."""
        return list(self._values)

    def learn(self, values: list[str], forms: list[str]) -> None:
        """The secrets ``values`` and their forms, as the machine listed them
        (``prufeRun.secretForms(values)``)."""
        self._values = list(values)
        self._forms = list(forms)

    def secrets(self) -> list[str]:
        """The forms of every secret, in the order they are replaced (what a picture must cover
        wherever the page shows them)."""
        return list(self._forms)
