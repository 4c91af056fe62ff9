"""The AI arbiter: asked only when the deterministic judge says AMBIGUOUS, with redacted data,
and fail-closed: anything but a clean yes is no, and so is no answer within the time bound.

Any object with one async method that takes the question (a dict: ``action``, ``target``,
``intent``, ``observed``, ``reason``, ``stable``) is an arbiter. What it returns goes to the
machine as it is (as JSON), which reads it as every surface does: ``True``, ``"YES"`` or
``(True, detail)`` approve, anything else is no. The question also carries ``chat``, the
OpenAI-compatible request the machine built from it (core ``run::prompt``, the prompt every
surface sends), without a model. :class:`OpenAIJudge` adds its model, POSTs it to any
OpenAI-compatible chat completions endpoint, and hands the machine the reply's body as it
came.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import urllib.error
import urllib.request
from typing import Any, Awaitable, Callable, Optional

from ._errors import PrufeError

#: How long :class:`OpenAIJudge`'s request may take, in seconds, unless told otherwise; the
#: arbiter as a whole is bounded by the machine (``Need::Ask``'s ``timeoutMs``).
DEFAULT_TIMEOUT = 10.0

class Unanswered(Exception):
    """Asking failed, for a reason the machine quotes (an HTTP status, a request that failed)."""


def method_of(arbiter: Any) -> Callable[[dict[str, Any]], Awaitable[Any]]:
    """The arbiter's one async method (or the arbiter itself when it is an async callable)."""
    if inspect.iscoroutinefunction(arbiter):
        return arbiter  # type: ignore[no-any-return]
    methods = [
        getattr(arbiter, name) for name in dir(arbiter)
        if not name.startswith("_") and inspect.iscoroutinefunction(getattr(arbiter, name, None))
    ]
    if len(methods) != 1:
        call = getattr(arbiter, "__call__", None)
        if call is not None and inspect.iscoroutinefunction(call):
            return call  # type: ignore[no-any-return]
        raise TypeError(f"an arbiter needs exactly one public async method; {type(arbiter).__name__} has {len(methods)}")
    return methods[0]  # type: ignore[no-any-return]


async def answer(arbiter: Any, question: dict[str, Any], timeout_ms: int, max_chars: int) -> dict[str, Any]:
    """The machine's answer to its ``ask`` need: what ``arbiter`` returned within
    ``timeout_ms`` (the need's bound), as JSON cut to ``max_chars`` (a chat endpoint's raw
    body as it came), for the machine to read; ``TIMEOUT`` when nothing came by then, and the
    failure when asking failed. The machine words each."""
    try:
        said = await asyncio.wait_for(method_of(arbiter)(question), timeout_ms / 1000)
    except asyncio.TimeoutError:
        return {"answer": "failed", "error": {"code": "TIMEOUT", "message": f"the arbiter did not answer within {timeout_ms} ms"}}
    except Unanswered as error:
        return {"answer": "failed", "error": {"code": "BROWSER_ERROR", "message": str(error)}}
    except Exception as error:  # an arbiter that fails says no
        return {"answer": "failed", "error": {"code": "BROWSER_ERROR", "message": type(error).__name__}}
    text = said.decode("utf-8", "replace") if isinstance(said, bytes) else json.dumps(said, default=repr, ensure_ascii=False)
    return {"answer": "arbiter", "said": text[:max_chars]}


class OpenAIJudge:
    """An arbiter over an OpenAI-compatible ``/v1/chat/completions`` URL."""

    def __init__(self, url: str, *, api_key: Optional[str] = None, model: str = "default", timeout: float = DEFAULT_TIMEOUT) -> None:
        self.url = url
        self._key = api_key
        self.model = model
        self.timeout = timeout

    def __repr__(self) -> str:
        return f"OpenAIJudge({self.url!r}, model={self.model!r}, api_key={'[redacted]' if self._key else None})"

    def request_body(self, question: dict[str, Any]) -> dict[str, Any]:
        """The request for ``question``: the machine's (its ``chat``) with this judge's model."""
        return {"model": self.model, **question["chat"]}

    def _post(self, body: dict[str, Any]) -> bytes:
        headers = {"content-type": "application/json"}
        if self._key:
            headers["authorization"] = f"Bearer {self._key}"
        request = urllib.request.Request(self.url, data=json.dumps(body).encode(), headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310 (the caller's URL)
            data: bytes = response.read()
            return data

    async def judge(self, question: dict[str, Any]) -> bytes:
        """The endpoint's reply body, as it came (the machine reads it)."""
        body = self.request_body(question)
        try:
            return await asyncio.wait_for(asyncio.to_thread(self._post, body), self.timeout)
        except asyncio.TimeoutError:
            raise Unanswered(f"no answer within {int(self.timeout * 1000)} ms") from None
        except urllib.error.HTTPError as error:
            raise Unanswered(f"HTTP {error.code}") from None
        except Exception as error:
            raise Unanswered(f"request failed: {type(error).__name__}") from None
