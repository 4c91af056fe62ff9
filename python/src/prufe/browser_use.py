"""browser-use with verified actions: its ``click``, ``input`` and ``select_dropdown``
actions replaced by prufe's, so an effect that is not the intended one is undone and
reported as the action's error (the agent sees ``VERIFICATION_FAILED: … MISMATCH — …``).

    from browser_use import Tools
    from prufe.async_api import Prufe
    from prufe.browser_use import verify_actions

    tools = verify_actions(Tools(), Prufe(page))

``page`` is a Playwright page of the browser browser-use drives (``chromium.connect_over_cdp``
on the session's ``cdp_url``, or a browser Playwright launched with a debugging port that the
session connects to). The element an index names is handed to prufe as a Locator (its XPath
from browser-use's DOM), then identified and resolved strictly like any other.
"""

from typing import Any

from ._errors import PrufeError

ACTIONS = ("click", "input", "select_dropdown")


def verify_actions(tools: Any, prufe: Any) -> Any:
    """Replaces ``tools``' click, input and select actions with verified ones; returns it."""
    from browser_use import BrowserSession
    from browser_use.agent.views import ActionResult
    from browser_use.tools.views import ClickElementActionIndexOnly, InputTextAction, SelectDropdownOptionAction

    actions = tools.registry.registry.actions
    for name in ACTIONS:
        actions.pop(name, None)
    page = prufe.page

    # Annotations are real classes here (no `from __future__ import annotations`): browser-use
    # reads them to inject `browser_session`.
    async def locator(browser_session: Any, index: int) -> Any:
        node = await browser_session.get_element_by_index(index)
        if node is None:
            return None
        return page.locator(f"xpath=/{node.xpath}")

    async def verified(call: Any, browser_session: Any, index: int, *args: Any) -> Any:
        target = await locator(browser_session, index)
        if target is None:
            return ActionResult(error=f"Element index {index} not available - page may have changed. Try refreshing browser state.")
        try:
            result = await call(target, *args)
        except PrufeError as error:
            return ActionResult(error=str(error))
        return ActionResult(extracted_content=result.summary(), long_term_memory=result.summary())

    async def click(params: ClickElementActionIndexOnly, browser_session: BrowserSession) -> Any:
        return await verified(prufe.click, browser_session, params.index)

    async def input(params: InputTextAction, browser_session: BrowserSession) -> Any:  # noqa: A001 (browser-use's name)
        return await verified(prufe.fill, browser_session, params.index, params.text)

    async def select_dropdown(params: SelectDropdownOptionAction, browser_session: BrowserSession) -> Any:
        return await verified(prufe.select_option, browser_session, params.index, params.text)

    register = tools.registry.action
    register("Click element by index (verified: a wrong effect is undone and reported).", param_model=ClickElementActionIndexOnly)(click)
    register("Input text into element by index (verified).", param_model=InputTextAction)(input)
    register("Set the option of a <select> element (verified).", param_model=SelectDropdownOptionAction)(select_dropdown)
    return tools
