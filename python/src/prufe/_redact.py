"""Caller-declared secrets, scrubbed from every string prufe hands back.

The page's own secrets (password fields, card fields, ``data-ap-sensitive``) arrive redacted
from the engine; a value the caller marks ``sensitive=True`` is also replaced wherever it
appears, in the forms a page is likely to echo it in, as the CLI's redactor does
(``src/core/redact.rs``).
"""

from __future__ import annotations

import urllib.parse
from typing import Any

REDACTED = "[redacted]"
MIN_ECHO_CHARS = 3


class Redactor:
    def __init__(self) -> None:
        self._secrets: list[str] = []

    def __repr__(self) -> str:
        return f"Redactor({len(self._secrets)} secrets)"

    def add(self, value: str) -> None:
        """Registers a secret and its encodings (percent-encoded, form-encoded, lowercased)."""
        forms = [value, " ".join(value.split())]
        encoded = urllib.parse.quote(value, safe="-_.!~*'()")
        if encoded != value:
            forms += [encoded, encoded.replace("%20", "+"), encoded.lower()]
        for form in forms:
            if len(form) >= MIN_ECHO_CHARS and form not in self._secrets:
                self._secrets.append(form)
        self._secrets.sort(key=len, reverse=True)

    def secrets(self) -> list[str]:
        """The registered secrets and their forms (what a picture must cover wherever the
        page shows them)."""
        return list(self._secrets)

    def scrub(self, text: str) -> str:
        for secret in self._secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        return text

    def scrub_value(self, value: Any) -> Any:
        """Every string of a JSON value scrubbed, keys included."""
        if not self._secrets:
            return value
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, list):
            return [self.scrub_value(item) for item in value]
        if isinstance(value, dict):
            return {self.scrub(str(k)): self.scrub_value(v) for k, v in value.items()}
        return value
