"""prufe.compat against ActionPrufe 0.1.0's public API, point by point, in Chromium: each test
runs once on Playwright's sync API and once on its async API (``compat_support``). The pages
are tests/python/pages/compat/, served over http; the points that need the engine's work on
issue 32 (unnamed elements by locator, ``file://`` frames, a file input as the upload's only
feedback) are in test_compat_engine.py."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from compat_support import Api, fixtures, tmp_file

import prufe.compat
from prufe import PrufeError
from prufe.compat import (REDACTED, ActionPrufe, ActionPrufeError, ActionSpec, Change, Diff, IrreversibleAction, Judgement, NodeKey, Observation,
                          Result, Snapshot, UndoFailed, Verdict, VerificationFailed)
from prufe.compat import snapshot as compat_snapshot

base, sync_context, async_world, api = fixtures()


def _button(api: Api, name: str) -> Any:
    return api.page.get_by_role("button", name=name, exact=True)


def _count(api: Api, selector: str) -> int:
    return int(api.w(api.page.locator(selector).count()))


# -- the module's names ------------------------------------------------------------------


def test_the_public_names_signatures_and_submodules_are_actionprufes() -> None:
    from prufe.compat.ai_judge import AIJudge, build_prompt, read_verdict
    from prufe.compat.errors import IrreversibleAction as E1
    from prufe.compat.snapshot import REDACTED as R
    from prufe.compat.types import Result as T
    from prufe.compat.verifier import ActionPrufe as V

    assert (E1, R, T, V) == (IrreversibleAction, REDACTED, Result, ActionPrufe)
    assert REDACTED == "[redactado]" and compat_snapshot.REDACTED is prufe.compat.REDACTED
    assert prufe.compat.__version__ == "0.1.0"
    for name in ("ActionPrufe", "ActionPrufeError", "VerificationFailed", "UndoFailed", "IrreversibleAction", "Result", "Diff", "Change",
                 "Judgement", "Verdict", "NodeKey", "Node", "Snapshot", "Observation", "ActionSpec", "AIJudge", "GeminiJudge", "REDACTED",
                 "build_prompt", "read_verdict"):
        assert name in prufe.compat.__all__ and hasattr(prufe.compat, name), name

    init = inspect.signature(ActionPrufe.__init__).parameters
    assert [(p.name, p.kind.name, p.default) for p in list(init.values())[2:]] == [
        ("ai_judge", "KEYWORD_ONLY", None), ("ambiguous", "KEYWORD_ONLY", "reject"), ("max_attempts", "KEYWORD_ONLY", None),
        ("quiet_ms", "KEYWORD_ONLY", None), ("timeout_ms", "KEYWORD_ONLY", None), ("trace_dir", "KEYWORD_ONLY", None)]
    shapes = {"click": ["target", "intent"], "check": ["target", "intent"], "uncheck": ["target", "intent"], "hover": ["target", "intent"],
              "fill": ["target", "value", "intent", "sensitive"], "select_option": ["target", "label", "intent", "sensitive"],
              "press": ["target", "key", "intent"], "upload": ["target", "path", "intent"], "drag_to": ["source", "destination", "intent"],
              "watch": ["intent"], "settle": []}
    for method, names in shapes.items():
        params = list(inspect.signature(getattr(ActionPrufe, method)).parameters.values())[1:]
        assert [p.name for p in params] == names, method
        for p in params:
            if p.name in ("intent", "sensitive") and method != "watch":
                assert p.kind is p.KEYWORD_ONLY and p.default in (None, False), (method, p.name)
        assert inspect.iscoroutinefunction(getattr(ActionPrufe, method)) == (method != "watch"), method
    assert inspect.signature(ActionPrufe.watch).parameters["intent"].default is None

    # The three outcomes are distinct: an UndoFailed is not a VerificationFailed.
    assert all(issubclass(e, ActionPrufeError) for e in (VerificationFailed, UndoFailed, IrreversibleAction))
    assert not issubclass(UndoFailed, VerificationFailed) and not issubclass(IrreversibleAction, VerificationFailed)
    assert Verdict.MATCH.value == "match" and str(Verdict.AMBIGUOUS) == "ambiguous"
    assert str(NodeKey("button", "Pagar", "caja")) == "button[Pagar] en caja"
    assert isinstance(object(), AIJudge) is False
    assert read_verdict(" Sí. ") and not read_verdict("quizas")
    spec = ActionSpec("fill", NodeKey("textbox", "Clave", "form"), frozenset(), payload="hunter2", sensitive=True)
    prompt = build_prompt(spec, Diff((Change("changed", spec.target, ("", frozenset()), (REDACTED, frozenset())),), False, False))  # type: ignore[arg-type]
    assert "hunter2" not in prompt and REDACTED in prompt
    assert Diff((), False, False).describe() == "no cambio nada" and not Diff((), False, False)


# -- honest actions --------------------------------------------------------------------------


def test_an_honest_click_answers_with_actionprufes_result(api: Api) -> None:
    api.goto("tienda.html")
    ap = api.ap()
    assert isinstance(ap, ActionPrufe)

    result = api.w(ap.click(_button(api, "Anadir Martillo")))

    assert isinstance(result, Result) and result.ok
    assert (result.attempts, result.undone) == (1, 0)
    assert isinstance(result.judgement, Judgement) and result.judgement.verdict is Verdict.MATCH and not result.judgement.escalated
    assert result.spec.kind == "click" and result.spec.intent is None and result.spec.payload is None
    assert result.spec.target == NodeKey("button", "Anadir Martillo", "lista/lista:catalogo")
    assert isinstance(result.diff, Diff) and result.diff and all(isinstance(c, Change) for c in result.diff.changes)
    appeared = result.diff.of_kind("appeared")
    assert NodeKey("listitem", "Martillo Quitar Martillo", "carrito/lista:carrito") in [c.key for c in appeared]
    assert "aparecio listitem[Martillo Quitar Martillo] en carrito/lista:carrito" in result.diff.describe().splitlines()
    assert result.judgement.reason.startswith("atribuido al objetivo: aparecio listitem[Martillo")
    explained = result.explain()
    assert explained.startswith("Accion:    click sobre button[Anadir Martillo] en lista/lista:catalogo\nIntencion: (no declarada)\n"
                                "Veredicto: MATCH — atribuido al objetivo")
    assert "\nIntentos:  1\nObservado:\n  aparecio listitem[Martillo Quitar Martillo]" in explained
    assert _count(api, "#carrito li") == 1


def test_fill_check_select_and_their_reasons(api: Api) -> None:
    api.goto("tienda.html")
    ap = api.ap()

    filled = api.w(ap.fill(api.page.get_by_label("Cupon"), "OTONO10"))
    checked = api.w(ap.check(api.page.get_by_label("Acepto las condiciones")))
    unchecked = api.w(ap.uncheck(api.page.get_by_label("Quiero el boletin")))
    chosen = api.w(ap.select_option(api.page.get_by_label("Envio"), "Express"))

    assert all(r.ok for r in (filled, checked, unchecked, chosen))
    assert filled.judgement.reason == "el campo textbox[Cupon] en pedido contiene 'OTONO10'"
    assert filled.spec.payload == "OTONO10" and "Valor:     'OTONO10'" in filled.explain()
    assert checked.judgement.reason == "cambio checkbox[Acepto las condiciones] en pedido: gano checked"
    assert checked.spec.target_states == frozenset() and "perdio checked" in unchecked.diff.describe()
    assert unchecked.spec.target_states == frozenset({"checked"})
    assert chosen.judgement.reason == "combobox[Envio] en pedido quedo en 'Express'"
    assert "cambio combobox[Envio] en pedido: valor 'Normal' -> 'Express'" in chosen.diff.describe()
    assert api.w(api.page.get_by_label("Cupon").input_value()) == "OTONO10"
    assert api.w(api.page.get_by_label("Acepto las condiciones").is_checked()) is True
    assert api.w(api.page.get_by_label("Quiero el boletin").is_checked()) is False


def test_a_password_is_verified_unread_and_described_with_the_modules_redacted(api: Api) -> None:
    api.goto("tienda.html")
    secret = "pino-Verde-8812"

    result = api.w(api.ap().fill(api.page.get_by_label("Contrasena"), secret))

    assert result.ok
    assert compat_snapshot.REDACTED in result.diff.describe()
    assert "cambio textbox[Contrasena] en pedido: valor '' -> '[redactado]'" in result.diff.describe()
    assert result.judgement.reason == "el campo textbox[Contrasena] en pedido cambio (valor no leido)"
    assert result.spec.sensitive and result.spec.payload == REDACTED
    for text in (result.diff.describe(), result.judgement.reason, result.explain(), repr(result)):
        assert secret not in text and "[redacted]" not in text
    assert api.w(api.page.get_by_label("Contrasena").input_value()) == secret


def test_a_caller_declared_secret_stays_out_of_every_output(api: Api, tmp_path: Path) -> None:
    api.goto("tienda.html")
    iban = "ES7921000813610123456789"

    result = api.w(api.ap(trace_dir=tmp_path).fill(api.page.get_by_label("Numero de cuenta"), iban, sensitive=True))

    assert result.ok and result.spec.sensitive
    assert "Valor:     [redactado]" in result.explain()
    traces = [p.read_text() for p in tmp_path.iterdir()]
    for text in [result.diff.describe(), result.judgement.reason, result.explain(), repr(result), *traces]:
        assert iban not in text
    assert api.w(api.page.get_by_label("Numero de cuenta").input_value()) == iban


def test_upload_hover_and_drag_to(api: Api, tmp_path: Path) -> None:
    api.goto("tienda.html")
    ap = api.ap()
    invoice = tmp_file(tmp_path, "factura-marzo.pdf")

    uploaded = api.w(ap.upload(api.page.get_by_label("Factura"), invoice))
    hovered = api.w(ap.hover(_button(api, "Mas opciones"), intent="se despliega el menu con el historial y las facturas"))
    api.w(api.page.mouse.move(0, 0))
    dragged = api.w(ap.drag_to(api.page.get_by_text("Pintar la valla"), api.page.locator("#hechas")))

    assert uploaded.ok and uploaded.spec.kind == "upload" and uploaded.spec.payload == "factura-marzo.pdf"
    assert "factura-marzo" in uploaded.diff.describe()
    assert hovered.ok and hovered.spec.kind == "hover" and "historial" in hovered.diff.describe().lower()
    assert hovered.judgement.reason == "el efecto coincide con la intencion: 'se despliega el menu con el historial y las facturas'"
    assert dragged.ok and dragged.spec.kind == "drag"
    assert dragged.spec.target == NodeKey("listitem", "Pintar la valla", "tablero/lista:pendientes")
    assert "aparecio listitem[Pintar la valla] en tablero/lista:hechas" in dragged.diff.describe()
    assert _count(api, "#hechas li") == 1


def test_a_click_inside_a_named_frame_is_seen_with_the_frames_prefix(api: Api) -> None:
    api.goto("pasarela.html")
    inside = api.page.frame_locator("iframe[name=pago]")

    result = api.w(api.ap().click(inside.get_by_role("button", name="Pagar con Bizum"), intent="queda listo el pago con Bizum"))

    assert result.ok
    assert result.spec.target == NodeKey("button", "Pagar con Bizum", "marco1:pago/cobro")
    assert "marco1:pago/cobro" in result.diff.describe()
    assert "listo" in result.diff.describe()


# -- failures ----------------------------------------------------------------------------


def test_a_wrong_effect_is_undone_and_raises_verification_failed(api: Api, tmp_path: Path) -> None:
    api.w(api.page.goto(f"{api.base}/es/lista-reciclada.html"))

    with pytest.raises(VerificationFailed) as caught:
        api.w(api.ap(max_attempts=2, trace_dir=tmp_path).click(_button(api, "Anadir Camiseta M")))

    error = caught.value
    assert "no al objetivo" in str(error) and str(error).endswith(" (tras 2 intento/s)")
    assert error.judgement.verdict is Verdict.MISMATCH and error.attempts == 2
    assert error.judgement.reason.startswith("el efecto corresponde a button[Anadir Pantalon L] en lista, no al objetivo button[Anadir Camiseta M]")
    assert error.spec is not None and error.spec.target is not None and error.spec.target.name == "Anadir Camiseta M"
    assert "aparecio listitem[Pantalon L Quitar Pantalon L]" in error.diff.describe()
    explained = error.explain()
    assert "Veredicto: MISMATCH — el efecto corresponde a button[Anadir Pantalon L] en lista" in explained
    assert "Intentos:  2\n" in explained
    assert error.__cause__ is None and isinstance(error, ActionPrufeError) and not isinstance(error, PrufeError)
    assert _count(api, "#cart-items li") == 0
    assert [p.name for p in tmp_path.iterdir()] == ["0001-click-mismatch.json"]


def test_an_undo_that_leaves_something_behind_raises_undo_failed_chained(api: Api) -> None:
    api.goto("deshacer.html")

    with pytest.raises(UndoFailed) as caught:
        api.w(api.ap(max_attempts=1).click(_button(api, "Anadir Camiseta M")))

    error = caught.value
    assert isinstance(error.residue, Diff) and error.residue
    assert "aparecio listitem[Pantalon L] en cesta/lista:cesta" in error.residue.describe().splitlines()
    assert str(error).startswith("se intento deshacer pero quedan efectos sin retirar:\n")
    assert isinstance(error.__cause__, VerificationFailed)
    assert "no al objetivo" in str(error.__cause__) or "rechazado por politica" in str(error.__cause__)


def test_an_unjudgeable_irreversible_action_raises_irreversible_chained_to_why(api: Api) -> None:
    api.goto("borrar.html")
    ap = api.ap(max_attempts=1)

    opened = api.w(ap.click(_button(api, "Borrar el perfil de Lucia")))
    with pytest.raises(IrreversibleAction) as caught:
        api.w(ap.click(_button(api, "Seguir adelante")))

    assert opened.ok
    cause = caught.value.__cause__
    assert isinstance(cause, VerificationFailed)
    assert "ambiguo rechazado por politica" in str(cause)
    assert cause.judgement.verdict is Verdict.MISMATCH and "sin relacion clara con button[Seguir adelante]" in cause.judgement.reason
    assert str(caught.value).startswith("no hay inversa conocida para click sobre button[Seguir adelante]")
    assert "Ya no queda nada" in str(caught.value)
    # The page is left as it is: nothing has an inverse.
    assert api.w(api.page.get_by_text("Ya no queda nada").is_visible())


def test_an_irreversible_action_is_chained_with_the_default_attempts_too(api: Api) -> None:
    api.goto("borrar.html")
    ap = api.ap()
    api.w(ap.click(_button(api, "Borrar el perfil de Lucia")))

    with pytest.raises(IrreversibleAction) as caught:
        api.w(ap.click(_button(api, "Seguir adelante")))

    assert isinstance(caught.value.__cause__, VerificationFailed)
    assert "ambiguo rechazado por politica" in str(caught.value.__cause__)


def test_a_covered_element_is_left_to_playwrights_actionability(api: Api) -> None:
    api.goto("tapada.html")
    api.page.set_default_timeout(1500)

    with pytest.raises(PlaywrightTimeout):
        api.w(api.ap().click(_button(api, "Reservar Sevilla Oviedo")))

    assert _count(api, "#reservas li") == 0


def test_a_locator_matching_two_elements_is_playwrights_strict_mode_error(api: Api) -> None:
    api.goto("tienda.html")
    api.page.set_default_timeout(1500)

    with pytest.raises(PlaywrightError, match="strict mode violation"):
        api.w(api.ap().click(api.page.get_by_role("button").filter(has_text="Anadir")))

    assert _count(api, "#carrito li") == 0


def test_a_hidden_field_times_out_as_playwrights_fill_would(api: Api) -> None:
    api.goto("tienda.html")
    api.page.set_default_timeout(1500)
    api.w(api.page.eval_on_selector("#cupon", "(el) => { el.style.display = 'none'; }"))

    with pytest.raises(PlaywrightTimeout):
        api.w(api.ap().fill(api.page.locator("#cupon"), "OTONO10"))

    assert api.w(api.page.locator("#cupon").input_value()) == ""


# -- policy, arbiter, watch, settle, traces ---------------------------------------------------


def test_ambiguous_accept_approves_and_says_so(api: Api) -> None:
    api.goto("borrar.html")
    ap = api.ap(ambiguous="accept")
    api.w(ap.click(_button(api, "Borrar el perfil de Lucia")))

    result = api.w(ap.click(_button(api, "Seguir adelante")))

    assert result.ok and result.judgement.verdict is Verdict.MATCH
    assert result.judgement.reason.startswith("ambiguo aceptado por politica: ")


class _Judge:
    """An ``AIJudge`` that answers what it is told to, and keeps what it was asked."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self.asked: list[tuple[ActionSpec, Diff]] = []

    async def adjudicate(self, spec: ActionSpec, diff: Diff) -> Judgement:
        self.asked.append((spec, diff))
        return Judgement(self.verdict, f"el juez de prueba dice {self.verdict.value}", escalated=True)


def test_an_ai_judge_decides_only_the_ambiguous_and_its_word_is_the_reason(api: Api) -> None:
    api.goto("borrar.html")
    judge = _Judge(Verdict.MATCH)
    ap = api.ap(ai_judge=judge)

    opened = api.w(ap.click(_button(api, "Borrar el perfil de Lucia")))
    confirmed = api.w(ap.click(_button(api, "Seguir adelante")))

    assert opened.ok and not opened.judgement.escalated
    assert confirmed.ok and confirmed.judgement.escalated
    assert confirmed.judgement.reason == "el juez de prueba dice match"
    assert "(lo desempato el arbitro de IA)" in confirmed.explain()
    assert len(judge.asked) == 1
    spec, diff = judge.asked[0]
    assert spec.kind == "click" and spec.target is not None and spec.target.name == "Seguir adelante"
    assert "Ya no queda nada" in diff.describe()


def test_an_ai_judge_that_says_no_is_a_failure(api: Api) -> None:
    api.goto("borrar.html")
    ap = api.ap(ai_judge=_Judge(Verdict.MISMATCH), max_attempts=1)
    api.w(ap.click(_button(api, "Borrar el perfil de Lucia")))

    with pytest.raises(IrreversibleAction) as caught:
        api.w(ap.click(_button(api, "Seguir adelante")))

    cause = caught.value.__cause__
    assert isinstance(cause, VerificationFailed) and cause.judgement.escalated
    assert cause.judgement.reason == "el juez de prueba dice mismatch"


def test_watch_judges_what_someone_else_did_and_never_undoes(api: Api) -> None:
    api.goto("tienda.html")
    ap = api.ap()

    seen = api.watch(ap, "el carrito suma unos alicates", lambda: _button(api, "Anadir Alicates").click())
    wrong = api.watch(ap, "el carrito suma unos alicates", lambda: _button(api, "Anadir Serrucho").click())

    assert isinstance(seen, Observation) and seen.ok
    assert seen.spec.kind == "watch" and seen.spec.target is None and seen.spec.intent == "el carrito suma unos alicates"
    assert seen.result is not None and "Alicates" in seen.explain()
    assert seen.explain().startswith("Accion:    watch sobre objetivo desconocido\nIntencion: el carrito suma unos alicates\n")
    assert not wrong.ok and "Serrucho" in wrong.explain()
    assert _count(api, "#carrito li") == 2


def test_settle_returns_a_snapshot_whose_frames_stay_apart(api: Api) -> None:
    api.goto("marcos.html")

    state = api.w(api.ap().settle())

    assert isinstance(state, Snapshot) and state.settled and state.url.endswith("/marcos.html")
    regions = {n.key.region for n in state.nodes if "cobro" in n.key.region}
    assert regions == {"marco1:pago/cobro", "marco2:pago/cobro"}
    buttons = [n for n in state.nodes if n.key.role == "button" and n.key.name == "Pagar con Bizum"]
    assert len(buttons) == 2 and all(n.value is None and n.states == frozenset() for n in buttons)
    assert NodeKey("heading", "Caja", "main") in {n.key for n in state.nodes}


def test_settle_on_a_page_that_never_stops_says_so(api: Api) -> None:
    api.w(api.page.goto(f"{api.base}/ticker.html"))

    state = api.w(api.ap(quiet_ms=300, timeout_ms=900).settle())

    assert isinstance(state, Snapshot) and state.settled is False


def test_trace_dir_writes_one_redacted_json_per_action(api: Api, tmp_path: Path) -> None:
    api.goto("tienda.html")
    traces = tmp_path / "trazas"
    ap = api.ap(trace_dir=traces)

    api.w(ap.click(_button(api, "Anadir Martillo")))
    api.w(ap.fill(api.page.get_by_label("Contrasena"), "otra-clave-77"))

    files = sorted(p.name for p in traces.iterdir())
    assert files == ["0001-click-match.json", "0002-fill-match.json"]
    record = json.loads((traces / files[1]).read_text())
    assert record["accion"] == "fill" and record["veredicto"] == "match" and record["valor"] == REDACTED
    assert record["objetivo"] == {"rol": "textbox", "nombre": "Contrasena", "region": "pedido"}
    assert record["cambios"][0]["despues"] == REDACTED
    assert "otra-clave-77" not in (traces / files[1]).read_text()


def test_press_is_verified_against_its_intent(api: Api) -> None:
    api.goto("tienda.html")
    ap = api.ap()
    api.w(ap.fill(api.page.get_by_label("Buscar"), "taladro"))

    result = api.w(ap.press(api.page.get_by_label("Buscar"), "Enter", intent="aparecen los resultados de la busqueda"))

    assert result.ok and result.spec.kind == "press" and result.spec.payload == "Enter"
    assert "Valor:     'Enter'" in result.explain()
    assert "Resultados de la busqueda: taladro" in result.diff.describe()

