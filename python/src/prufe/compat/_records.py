"""prufe's records read as ActionPrufe's values, in its Spanish.

The machine's record of a step (its structured diff, verdict, reason, attempts, undos) is the
only input: nothing here looks at the page. What is rewritten is the wording — element
descriptions (``role[name] en region``), change lines, reasons, the redaction marker — and
two parts of the region grammar ActionPrufe's users read: a frame's prefix is
``marco<position in page.frames>:<frame name>/`` (prufe's ``frame[<path>]/``), and the list
suffix is ``/lista:<id>`` (prufe's ``/list:<id>``). An element at the document level is in
region ``document``.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Mapping, Optional

from .types import REDACTED, ActionSpec, Change, Diff, Judgement, Node, NodeKey, Payload, Snapshot, Verdict

#: prufe's redaction marker (``prufe._redact.REDACTED``), rewritten to compat's.
PRUFE_REDACTED = "[redacted]"

#: prufe's text kinds as the roles ActionPrufe gives such text (a paragraph is ``paragraph``,
#: a ``data-ap-watch`` element ``watched``); any other run of text is ``text``.
_TEXT_ROLES = {"paragraph": "paragraph", "status": "status", "alert": "alert", "log": "log", "watch": "watched"}
_STATES = ("checked", "selected", "pressed", "expanded", "disabled")
_FRAME = re.compile(r"frame\[([0-9]+(?:\.[0-9]+)*)\]")
_LIST = re.compile(r"(^|/)list:")

Frames = Mapping[str, str]


def unredacted(text: str) -> str:
    return text.replace(PRUFE_REDACTED, REDACTED)


def region(text: Optional[str], frames: Frames) -> str:
    """A prufe region in ActionPrufe's grammar: ``frame[1]/form[Pago]/list:hechas`` →
    ``marco2:pago/form[Pago]/lista:hechas``; ``""`` → ``document``."""
    text = text or ""
    prefix = ""
    m = _FRAME.match(text)
    if m:
        prefix = frames.get(m.group(1), f"marco:{m.group(1)}") + "/"
        text = text[m.end():].lstrip("/")
    return prefix + (_LIST.sub(r"\1lista:", unredacted(text)) or "document")


def _in_text(text: str, frames: Frames) -> str:
    """Regions inside running text (a reason): frame prefixes, list suffixes, `` in ``."""
    text = _FRAME.sub(lambda m: frames.get(m.group(1), f"marco:{m.group(1)}"), unredacted(text))
    text = re.sub(r"(\] in \S*?)/list:", r"\1/lista:", text)
    return re.sub(r"\] in ", "] en ", text)


def _flag(value: Any) -> bool:
    return value is True or value == "mixed" or value == "true"


def states(element: Mapping[str, Any]) -> "frozenset[str]":
    return frozenset(s for s in _STATES if _flag(element.get(s)))


def _value(element: Mapping[str, Any]) -> Optional[str]:
    value = element.get("value")
    return unredacted(str(value)) if value is not None else None


def key(element: Mapping[str, Any], frames: Frames) -> NodeKey:
    name = element.get("name") or element.get("text") or ""
    return NodeKey(str(element.get("role") or "generic"), unredacted(str(name)), region(element.get("region"), frames))


def _payload(element: Mapping[str, Any]) -> Payload:
    return (_value(element), states(element))


def _observed(element: Mapping[str, Any]) -> bool:
    """ActionPrufe observes an element that has a name or a value."""
    return bool(element.get("name") or element.get("text")) or element.get("value") is not None


def _text_key(text: Mapping[str, Any], frames: Frames) -> NodeKey:
    role = _TEXT_ROLES.get(str(text.get("kind") or "").lower(), "text")
    return NodeKey(role, unredacted(str(text.get("text") or "")), region(text.get("region"), frames))


class Translated:
    """One record's diff as ``Change``s, and each prufe diff line in Spanish (for reasons
    that quote a line)."""

    def __init__(self, record: Mapping[str, Any], frames: Frames) -> None:
        diff = record.get("diff") or {}
        self.frames = frames
        self.changes: list[Change] = []
        self.lines: dict[str, str] = {}
        said: list[str] = []

        def add(change: Change, observed: bool = True) -> str:
            if observed:
                self.changes.append(change)
            return change.describe()

        for e in diff.get("appeared") or []:
            said.append(add(Change("appeared", key(e, frames), after=_payload(e)), _observed(e)))
        for e in diff.get("disappeared") or []:
            said.append(add(Change("disappeared", key(e, frames), before=_payload(e)), _observed(e)))
        for c in diff.get("changed") or []:
            before, after = c.get("before") or {}, c.get("after") or {}
            seen = _observed(before) or _observed(after)
            was, now = before.get("visible", True), after.get("visible", True)
            if was and not now:
                said.append(add(Change("disappeared", key(before, frames), before=_payload(before)), seen))
            elif now and not was:
                said.append(add(Change("appeared", key(after, frames), after=_payload(after)), seen))
            elif key(before, frames) != key(after, frames):
                said.append(add(Change("disappeared", key(before, frames), before=_payload(before)), seen)
                            + "; " + add(Change("appeared", key(after, frames), after=_payload(after)), seen))
            else:
                # A change of what ActionPrufe does not observe (focus, place in view) is none.
                changed = _payload(before) != _payload(after)
                said.append(add(Change("changed", key(after, frames), _payload(before), _payload(after)), seen and changed))
        for m in diff.get("moved") or []:
            before, after = m.get("before") or {}, m.get("after") or {}
            said.append(add(Change("disappeared", key(before, frames), before=_payload(before)))
                        + "; " + add(Change("appeared", key(after, frames), after=_payload(after))))
        for t in diff.get("textsAppeared") or []:
            said.append(add(Change("appeared", _text_key(t, frames), after=(None, frozenset()))))
        for t in diff.get("textsDisappeared") or []:
            said.append(add(Change("disappeared", _text_key(t, frames), before=(None, frozenset()))))
        for line, spanish in zip(diff.get("lines") or [], said):
            self.lines[unredacted(line)] = spanish
        navigated = any(str(line).startswith("navigated to ") for line in record.get("lines") or [])
        texts = bool(diff.get("textsAppeared") or diff.get("textsDisappeared"))
        self.diff = Diff(tuple(self.changes), url_changed=navigated, text_changed=texts or bool(self.changes))

    def line(self, text: str) -> str:
        """A prufe diff line (or several, ``; ``-joined) in Spanish."""
        text = unredacted(text)
        if text in self.lines:
            return self.lines[text]
        parsed = parse_line(text, self.frames)
        if parsed:
            return "; ".join(c.describe() for c in parsed)
        if text.startswith("navigated to "):
            return "cambio la URL: " + text[len("navigated to "):]
        return _in_text(text, self.frames)


# -- lines (a residue is lines only) -----------------------------------------------------

_ELEMENT = r"(?:text '(?P<text>.*)'|(?P<role>[a-z][\w-]*)\[(?P<name>.*?)\])(?: in (?P<region>.+?))?"
_APPEARED = re.compile(rf"^(?P<kind>appeared|disappeared) {_ELEMENT}$", re.S)
_CHANGED = re.compile(r"^changed (?P<role>[a-z][\w-]*)\[(?P<name>.*?)\](?: in (?P<region>.+?))?: (?P<fields>.*)$", re.S)
_MOVED = re.compile(r"^moved (?P<role>[a-z][\w-]*)\[(?P<name>.*)\] from (?P<old>.+) to (?P<new>.+)$", re.S)
_FIELD = re.compile(r"(?:^|, )(?P<field>[a-zA-Z]+) (?P<before>'.*?'|\S+) -> (?P<after>'.*?'|\S+)(?=, [a-zA-Z]+ |$)", re.S)


def _field_value(text: str) -> Optional[str]:
    if text == "null":
        return None
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == "'" else text


def parse_line(line: str, frames: Frames) -> list[Change]:
    """A prufe diff line as ActionPrufe changes (two for a move); ``[]`` when it is not one."""
    m = _APPEARED.match(line)
    if m:
        if m.group("text") is not None:
            k = NodeKey("text", m.group("text"), region(m.group("region"), frames))
        else:
            k = NodeKey(m.group("role"), m.group("name"), region(m.group("region"), frames))
        empty: Payload = (None, frozenset())
        return [Change("appeared", k, after=empty) if m.group("kind") == "appeared" else Change("disappeared", k, before=empty)]
    m = _CHANGED.match(line)
    if m:
        k = NodeKey(m.group("role"), m.group("name"), region(m.group("region"), frames))
        old_value = new_value = None
        old_states: set[str] = set()
        new_states: set[str] = set()
        for f in _FIELD.finditer(m.group("fields")):
            name, b, a = f.group("field"), _field_value(f.group("before")), _field_value(f.group("after"))
            if name == "value":
                old_value, new_value = b, a
            elif name in _STATES:
                if _flag(b):
                    old_states.add(name)
                if _flag(a):
                    new_states.add(name)
        return [Change("changed", k, (old_value, frozenset(old_states)), (new_value, frozenset(new_states)))]
    m = _MOVED.match(line)
    if m:
        empty = (None, frozenset())
        return [Change("disappeared", NodeKey(m.group("role"), m.group("name"), region(m.group("old"), frames)), before=empty),
                Change("appeared", NodeKey(m.group("role"), m.group("name"), region(m.group("new"), frames)), after=empty)]
    return []


def residue(lines: list[str], frames: Frames) -> Diff:
    changes: list[Change] = []
    navigated = False
    for line in lines:
        line = unredacted(line)
        changes += parse_line(line, frames)
        navigated = navigated or line.startswith("navigated to ")
    return Diff(tuple(changes), url_changed=navigated, text_changed=False)


# -- targets -----------------------------------------------------------------------------


def target_key(text: Optional[str], frames: Frames) -> Optional[NodeKey]:
    """``button[Add] in main/list:x`` (a record's target) as a ``NodeKey``."""
    if not text:
        return None
    text = unredacted(text)
    m = re.match(r"^([a-z][\w-]*)\[(.*)$", text, re.S)
    if not m:
        return NodeKey(text, "", "document")
    role, rest = m.group(1), m.group(2)
    cut = rest.rfind("] in ")
    if cut >= 0:
        return NodeKey(role, rest[:cut], region(rest[cut + len("] in "):], frames))
    return NodeKey(role, rest[:-1] if rest.endswith("]") else rest, "document")


# -- reasons -----------------------------------------------------------------------------


def _after_of(t: Translated, target: Optional[NodeKey]) -> Optional[str]:
    for change in t.changes:
        if change.kind == "changed" and change.key == target and change.after is not None:
            return change.after[0]
    return None


def reason(text: str, t: Translated, spec: ActionSpec) -> str:
    """prufe's reason for a verdict, in ActionPrufe's words where it has words for it."""
    text = unredacted(text)
    target = str(spec.target) if spec.target is not None else "None"
    effects = len(t.diff.of_kind("appeared")) + len(t.diff.of_kind("changed"))
    shown = REDACTED if spec.sensitive else repr(spec.payload or "")

    def value_reason() -> str:
        after = _after_of(t, spec.target)
        if spec.sensitive or after == REDACTED:
            return f"el campo {target} cambio (valor no leido)"
        return f"el campo {target} contiene {after!r}"

    rules: list[tuple[str, Any]] = [
        (r"^the effect belongs to (.+?), not to the target(?:: .*)?$",
         lambda m: f"el efecto corresponde a {_in_text(m.group(1), t.frames)}, no al objetivo {target}"),
        (r"^the effect carries the target's name: (.*)$", lambda m: f"atribuido al objetivo: {t.line(m.group(1))}"),
        (r"^the target holds the requested value(?: as the page formats it)?: .*$", lambda m: value_reason()),
        (r"^the target's value changed, but not to the requested one: .*$",
         lambda m: f"se escribio en {target} pero quedo {_after_of(t, spec.target)!r} en vez de {shown}"),
        (r"^the value of (.+?) changed instead of the target's(?:: .*)?$",
         lambda m: f"el texto entro en {_in_text(m.group(1), t.frames)} en vez de en el objetivo {target}"),
        (r"^the target shows the requested option: .*$", lambda m: f"{target} quedo en {_after_of(t, spec.target)!r}"),
        (r"^the target shows another option than the requested one: .*$",
         lambda m: f"{target} quedo en {_after_of(t, spec.target)!r} en vez de {spec.payload!r}"),
        (r"^(?:the target is now \w+|the target's own state changed|the requested option is selected): (.*)$",
         lambda m: t.line(m.group(1))),
        (r"^the intent (?:explains the effect|holds)(?:: .*)?$", lambda m: f"el efecto coincide con la intencion: {spec.intent!r}"),
        (r"^the intent explains none of the observed changes \((.*)\)$",
         lambda m: f"la intencion no explica ninguno de los cambios observados ({t.line(m.group(1))})"),
        (r"^no element's name explains the effect.*$", lambda m: f"la pagina cambio ({effects} efectos) sin relacion clara con {target}"),
        (r"^the page changed \((\d+) differences?\).*$", lambda m: f"la pagina cambio ({m.group(1)} efectos) sin relacion clara con {target}"),
        (r"^(?:the page did not change|no (?:observable )?effect).*$", lambda m: "la accion no produjo ningun efecto observable"),
        (r"^(?:the page is still busy|the settle never ends).*$",
         lambda m: "la pagina seguia mutando al agotarse la espera y no se observo efecto"),
        (r"^the target's (?:state|value) did not change.*$", lambda m: f"hubo cambios pero ninguno conmuta el estado de {target}"),
        (r"^the target was already (\w+).*$", lambda m: f"el objetivo ya estaba {m.group(1)}: la accion no produjo ningun efecto observable"),
        (r"^a new document loaded at (\S+?),? .*$|^a new document loaded at (\S+)$",
         lambda m: f"se cargo un documento nuevo en {m.group(1) or m.group(2)}"),
        (r"^the page reports a failure: (.*?)(?: \(declare an intent.*\))?$", lambda m: f"la pagina informa de un fallo: {t.line(m.group(1))}"),
    ]
    for pattern, spanish in rules:
        m = re.match(pattern, text, re.S)
        if m:
            return str(spanish(m))
    for line, words in sorted(t.lines.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(line, words)
    return _in_text(text, t.frames)


def judgement(record: Mapping[str, Any], t: Translated, spec: ActionSpec) -> Judgement:
    """The verdict as ActionPrufe states it: an AMBIGUOUS effect is decided by the arbiter
    (``escalated``) or the policy (``ambiguo rechazado por politica: …``)."""
    verdict, ok = record.get("verdict"), bool(record.get("ok"))
    why = reason(str(record.get("reason") or ""), t, spec)
    if record.get("arbiter") is not None:
        if ok:
            return Judgement(Verdict.MATCH, "el arbitro de IA confirmo el efecto", escalated=True)
        return Judgement(Verdict.MISMATCH, "el arbitro de IA no confirmo el efecto", escalated=True)
    if verdict == "AMBIGUOUS":
        if ok:
            return Judgement(Verdict.MATCH, f"ambiguo aceptado por politica: {why}")
        return Judgement(Verdict.MISMATCH, f"ambiguo rechazado por politica: {why}")
    if verdict == "MATCH" and ok:
        return Judgement(Verdict.MATCH, why)
    if verdict is None:
        return Judgement(Verdict.AMBIGUOUS, why)
    return Judgement(Verdict.MISMATCH, why)


# -- snapshots ---------------------------------------------------------------------------


def snapshot(observed: Mapping[str, Any], url: str, settled: bool, frames: Frames) -> Snapshot:
    """prufe's merged observation of the page (every frame's too) as an ActionPrufe
    ``Snapshot``: its visible elements with a name or a value, then its runs of text."""
    nodes = [
        Node(key(e, frames), _value(e), states(e), bool(e.get("sensitive")))
        for e in observed.get("elements") or []
        if (e.get("visible", True) or e.get("role") == "option") and _observed(e)
    ]
    nodes += [Node(_text_key(t, frames), None, frozenset()) for t in observed.get("texts") or []]
    text = "\n".join(n.key.name for n in nodes if n.value is None)
    digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]
    return Snapshot(url=url, nodes=tuple(nodes), text_digest=f"{digest}:{len(text)}", settled=settled)
