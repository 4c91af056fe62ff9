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
- an error that ended a step before it had a record: its message here, its report and trace
  entry by the machine in the page call that words them (``_driver.ENDED``);
- what leaves Python without passing through a page call (an error raised before the page
  answers, the arbiter's question and answer) is scrubbed here with the machine's list, in the machine's order, by the same replace loop as core
  ``Redactor::scrub``. This module decides nothing about the forms.
"""

from __future__ import annotations

from typing import Any

REDACTED = "[redacted]"
# What a secret is replaced by while the others are looked for (core ``redact::HELD``).
HELD = "\uffff"


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

    def scrub(self, text: str) -> str:
        held = False
        for form in self._forms:
            if form in text:
                text = text.replace(form, HELD)
                held = True
        return text.replace(HELD, REDACTED) if held else text

    def scrub_value(self, value: Any) -> Any:
        """Every string of a JSON value scrubbed, keys included."""
        if not self._forms:
            return value
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, list):
            return [self.scrub_value(item) for item in value]
        if isinstance(value, dict):
            return {self.scrub(str(k)): self.scrub_value(v) for k, v in value.items()}
        return value
