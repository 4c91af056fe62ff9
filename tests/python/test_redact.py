"""The Python copy of the machine's replace loop (``prufe._redact``), for what leaves Python
without a page call: the same text as core ``Redactor::scrub`` for the same list of forms."""

from __future__ import annotations

from prufe._redact import REDACTED, Redactor


def redactor(forms: list[str]) -> Redactor:
    r = Redactor()
    r.learn(forms, forms)
    return r


def test_a_short_secret_is_not_found_in_the_word_another_became() -> None:
    # The machine's order for these forms (longest first, then alphabetical), as
    # ``prufeRun.secretForms(["hunter2", "act", "dac"])`` lists them.
    r = redactor(["hunter2", "act", "dac"])
    assert r.scrub("pw hunter2, act, redacted") == "pw [redacted], [redacted], red[redacted]ed"


def test_longest_first_and_untouched_text() -> None:
    r = redactor(["4111 1111 1111", "4111 1111"])
    assert r.scrub("card 4111 1111 1111, then 4111 1111") == f"card {REDACTED}, then {REDACTED}"
    assert r.scrub("nothing here") == "nothing here"
    assert r.scrub_value({"4111 1111": ["x 4111 1111 y", 3]}) == {REDACTED: [f"x {REDACTED} y", 3]}
