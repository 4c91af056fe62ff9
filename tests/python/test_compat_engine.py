"""prufe.compat on the targets real ActionPrufe suites write, which need the engine's side of
issue 32: an unnamed element given as a Playwright locator (a ``<ul>`` drop zone by its CSS
id), frames of a page opened from ``file://``, and an upload whose only feedback is the file
input itself. Each test runs on Playwright's sync and async APIs (``compat_support``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from compat_support import Api, fixtures, tmp_file

from prufe.compat import NodeKey, Snapshot, Verdict, VerificationFailed

base, sync_context, async_world, api = fixtures()


def _count(api: Api, selector: str) -> int:
    return int(api.w(api.page.locator(selector).count()))


def test_an_unnamed_list_given_by_its_css_id_is_a_drop_zone(api: Api) -> None:
    api.goto("tareas.html")

    result = api.w(api.ap().drag_to(api.page.get_by_text("Regar las plantas"), api.page.locator("#hechas")))

    assert result.ok and result.spec.kind == "drag"
    assert result.spec.target is not None and result.spec.target.name == "Regar las plantas"
    assert "aparecio listitem[Regar las plantas] en " in result.diff.describe()
    assert "lista:hechas" in result.diff.describe()
    assert _count(api, "#hechas li") == 1 and _count(api, "#pendientes li") == 1


@pytest.mark.parametrize("lists", ["", "&nombradas"], ids=["unnamed lists", "named lists"])
def test_a_drop_into_the_wrong_list_is_caught_and_dragged_back(api: Api, lists: str) -> None:
    api.w(api.page.goto(f"{api.base}/es/compat/tareas.html?torcida{lists}"))

    with pytest.raises(VerificationFailed) as caught:
        api.w(api.ap(max_attempts=1).drag_to(api.page.get_by_text("Regar las plantas"), api.page.locator("#hechas")))

    failure = caught.value
    assert failure.judgement.verdict is Verdict.MISMATCH and failure.__cause__ is None
    assert "lista:archivo" in failure.diff.describe()
    # ActionPrufe's inverse of a drop: the task is back in the list it came from.
    assert _count(api, "#pendientes li") == 2 and _count(api, "#archivo li") == 0


def test_a_click_in_a_named_frame_of_a_file_page(api: Api) -> None:
    api.goto_file("pasarela.html")
    inside = api.page.frame_locator("iframe[name=pago]")

    result = api.w(api.ap().click(inside.get_by_role("button", name="Pagar con Bizum"), intent="queda listo el pago con Bizum"))

    assert result.ok
    assert result.spec.target == NodeKey("button", "Pagar con Bizum", "marco1:pago/cobro")
    assert "marco1:pago/cobro" in result.diff.describe() and "listo" in result.diff.describe()


def test_settle_sees_both_frames_of_a_file_page_apart(api: Api) -> None:
    api.goto_file("marcos.html")

    state = api.w(api.ap().settle())

    assert isinstance(state, Snapshot) and state.settled
    assert {n.key.region for n in state.nodes if "cobro" in n.key.region} == {"marco1:pago/cobro", "marco2:pago/cobro"}


def test_an_upload_whose_only_feedback_is_the_input(api: Api, tmp_path: Path) -> None:
    api.goto_file("adjunto.html")
    receipt = tmp_file(tmp_path, "justificante-abril.pdf")

    result = api.w(api.ap().upload(api.page.get_by_label("Justificante"), receipt))

    assert result.ok and result.spec.payload == "justificante-abril.pdf"
    assert "justificante-abril" in result.diff.describe()
    assert "fakepath" not in result.diff.describe()
