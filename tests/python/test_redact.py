"""Caller secrets are scrubbed by the machine (``prufeRun.scrub``, core ``Redactor::scrub``)
in the page, also what leaves Python without a record: the arbiter's question (the machine
is given the session's secrets with the policy) and an error that ended a step before it had
one (``_driver.ENDED``). Python keeps the machine's list of forms and has no replace loop of
its own."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from prufe import PrufeError
from prufe._redact import REDACTED, Redactor
from prufe.sync_api import Prufe, run


def scrubbed(page: Page, secrets: list[str], message: str) -> Any:
    """An error's message as the machine words and scrubs it for Python (``Driver.ended``)."""
    p = Prufe(page)
    for secret in secrets:
        run(p._core.driver.secret(secret), p._port)
    done = run(p._core.driver.ended({"code": "TARGET_NOT_FOUND", "message": message, "candidates": []}, None), p._port)
    assert REDACTED in done["explain"] or not secrets, done
    return done["message"]


def test_a_short_secret_is_not_found_in_the_word_another_became(page: Page, base: str) -> None:
    page.goto(base + "/recycled-list.html")
    assert scrubbed(page, ["hunter2", "act", "dac"], "pw hunter2, act, redacted") == "pw [redacted], [redacted], red[redacted]ed"


def test_longest_first_and_the_machines_forms(page: Page, base: str) -> None:
    page.goto(base + "/recycled-list.html")
    assert scrubbed(page, ["4111 1111", "4111 1111 1111"], "card 4111 1111 1111, then 4111 1111") == f"card {REDACTED}, then {REDACTED}"
    # The machine's forms: the value percent-encoded too.
    assert scrubbed(page, ["a b&c"], "q=a%20b%26c") == f"q={REDACTED}"


def test_an_error_no_page_can_scrub_is_held_back_when_there_are_secrets() -> None:
    from prufe._api import Core

    class Nowhere:
        redactor = Redactor()

        def ended(self, error: Any, ended: Any) -> Any:
            raise PrufeError("NAVIGATION_FAILED", "no page")
            yield

    core = Core.__new__(Core)
    core.driver = Nowhere()  # type: ignore[assignment]
    error = PrufeError("TARGET_NOT_FOUND", "no textbox shows hunter22")

    def ended() -> PrufeError:
        gen = core._ended(error, None, None)
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        raise AssertionError("no page call expected")

    assert ended().message == "no textbox shows hunter22"
    Nowhere.redactor.learn(["hunter22"], ["hunter22"])
    held = ended()
    assert held.code == "TARGET_NOT_FOUND" and "hunter22" not in str(held), held


def test_the_arbiter_is_asked_with_the_sessions_secrets_scrubbed(page: Page, base: str) -> None:
    # A secret of the session (not of this step: the machine is given it with the policy)
    # that the page's notice happens to contain reaches the arbiter as [redacted], in the
    # question and in the machine's prompt built from it.
    asked: list[dict[str, Any]] = []

    class Recorded:
        async def decide(self, question: dict[str, Any]) -> bool:
            asked.append(question)
            return True

    page.goto(base + "/hostile/01-prompt-injection.html")
    p = Prufe(page, ai_judge=Recorded())
    run(p._core.driver.secret("discount banner"), p._port)
    clicked = p.click(page.locator("#inject"))
    assert clicked.verdict == "AMBIGUOUS" and clicked.ok, clicked.reason
    assert len(asked) == 1
    text = str(asked[0])
    assert "discount banner" not in text and REDACTED in asked[0]["chat"]["messages"][1]["content"], text
