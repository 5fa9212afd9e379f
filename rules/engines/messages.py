"""Translatable engine messages without Django (DESIGN.md "Languages", STYLE.md rule 10).

An engine message is written once, in English, as a ``%(name)s`` template marked with
:func:`gettext_noop`; ``xgettext`` (Django's ``makemessages``) extracts every template by that name into
the project's catalogue. The call binds the template's parameters and returns a :class:`Message`: a
``str`` whose value is the English text (so ``str(error)`` reads exactly as before), which also keeps
the template and the parameters. The edge (``casino/i18n.py``) renders it again in the reader's language
with :func:`render`: the template through the catalogue, nested messages the same way, and every
:class:`Amount` (integer cents) in the language's number format (``40.00`` in English, ``40,00`` in German).

Nothing here imports Django or reads a catalogue: the engines stay pure.

    >>> m = gettext_noop("seat %(seat)s cannot raise: the cap is %(cap)s (R6.2)", seat=3, cap=Amount(4000))
    >>> m
    'seat 3 cannot raise: the cap is 40.00 (R6.2)'
    >>> render(m, translate=lambda t: t.replace("seat %", "Platz %"), amount=lambda c: f"{c // 100},{c % 100:02d}")
    'Platz 3 cannot raise: the cap is 40,00 (R6.2)'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


class Message(str):
    """English text of an engine message that remembers its ``template`` and ``params``.

    ``template`` is the catalogue's msgid (``%(name)s`` placeholders, ``%%`` for a percent sign);
    ``params`` maps each placeholder to its value: an ``int`` (seat, count), a plain ``str`` (a card,
    a seat list: not translated), an :class:`Amount` (cents, formatted per language) or another
    :class:`Message` (a translated fragment such as the action "post an ante").
    """

    template: str
    params: Mapping[str, Any]
    #: The catalogue's ``msgctxt`` when the same English word means two things (``"event type"``: ``bet``).
    context: str | None

    def __new__(cls, template: str, params: Mapping[str, Any], context: str | None = None) -> Message:
        self = super().__new__(cls, template % dict(params))
        self.template = template
        self.params = dict(params)
        self.context = context
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Message, (self.template, self.params, self.context))


class Amount(str):
    """An amount of money in integer ``cents`` whose ``str`` is the English text (``500 -> "5.00"``)."""

    cents: int

    def __new__(cls, cents: int) -> Amount:
        cents = int(cents)
        sign = "-" if cents < 0 else ""
        units, rest = divmod(abs(cents), 100)
        self = super().__new__(cls, f"{sign}{units}.{rest:02d}")
        self.cents = cents
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Amount, (self.cents,))


def gettext_noop(template: str, /, **params: Any) -> Message:
    """Mark ``template`` for the catalogue and bind its ``params``; returns the English :class:`Message`.

    The name is the marker ``xgettext`` extracts by (like Django's ``gettext_noop``, which it does not
    import); nothing is translated here. Raises ``KeyError`` when a placeholder has no parameter.
    """
    return Message(template, params)


def pgettext(context: str, template: str, /, **params: Any) -> Message:
    """Like :func:`gettext_noop`, with the catalogue's ``msgctxt`` ``context`` (``xgettext`` extracts this name
    with its context, as Django's ``pgettext``): the same English word in another sense gets its own
    translation (``pgettext("event type", "bet")`` reads "Setzen", the action word ``bet`` "setzen").
    Nothing is translated here."""
    return Message(template, params, context)


#: The actions every engine names by their event type ("seat 3 cannot raise"), marked so that they are
#: translated; an engine passes ``action_word(kind)`` where its message names the action.
ACTION_WORDS = {
    "ante": gettext_noop("ante"), "blind": gettext_noop("blind"), "bet": gettext_noop("bet"),
    "raise": gettext_noop("raise"), "complete": gettext_noop("complete"), "call": gettext_noop("call"),
    "check": gettext_noop("check"), "fold": gettext_noop("fold"), "show": gettext_noop("show"),
    "muck": gettext_noop("muck"), "deal": gettext_noop("deal"), "expose": gettext_noop("expose"),
    "set": gettext_noop("set"), "burn": gettext_noop("burn"), "taxe": gettext_noop("taxe"),
    "misdeal": gettext_noop("misdeal"), "declare": gettext_noop("declare"),
    "bring_in": gettext_noop("bring it in"), "card_exposed": gettext_noop("record an exposed card"),
    "deal_community": gettext_noop("deal_community"), "declare_natural": gettext_noop("declare a natural"),
    "declare_royalty": gettext_noop("declare a royalty"), "timeout": gettext_noop("time out"),
    "surrender": gettext_noop("surrender"), "play": gettext_noop("play"), "reveal": gettext_noop("reveal"),
}


#: Every event type of the engines as a noun ("the bring_in event", "Ereignis „Bring-in“"): the English text
#: stays the event type the API takes; the catalogue has its name under the context "event type".
EVENT_NAMES = {
    "ante": pgettext("event type", "ante"), "blind": pgettext("event type", "blind"),
    "bet": pgettext("event type", "bet"), "raise": pgettext("event type", "raise"),
    "complete": pgettext("event type", "complete"), "call": pgettext("event type", "call"),
    "check": pgettext("event type", "check"), "fold": pgettext("event type", "fold"),
    "show": pgettext("event type", "show"), "muck": pgettext("event type", "muck"),
    "deal": pgettext("event type", "deal"), "expose": pgettext("event type", "expose"),
    "set": pgettext("event type", "set"), "burn": pgettext("event type", "burn"),
    "taxe": pgettext("event type", "taxe"), "misdeal": pgettext("event type", "misdeal"),
    "declare": pgettext("event type", "declare"), "bring_in": pgettext("event type", "bring_in"),
    "card_exposed": pgettext("event type", "card_exposed"),
    "deal_community": pgettext("event type", "deal_community"),
    "declare_natural": pgettext("event type", "declare_natural"),
    "declare_royalty": pgettext("event type", "declare_royalty"), "timeout": pgettext("event type", "timeout"),
    "surrender": pgettext("event type", "surrender"), "play": pgettext("event type", "play"),
    "reveal": pgettext("event type", "reveal"),
}


def event_name(kind: object) -> object:
    """The marked name of an event type (``"bring_in"`` -> "Bring-in" in German); anything else unchanged."""
    return EVENT_NAMES.get(kind, kind) if isinstance(kind, str) else kind


#: Action phrases an engine names in its own words besides the event types' (``"seat 3 cannot be dealt cards"``).
OTHER_ACTION_WORDS = (gettext_noop("be dealt cards"), gettext_noop("post an ante"),
                      gettext_noop("announce a royalty"))

#: Every marked action phrase by its English text: an action passed as plain text ("declare a natural") is
#: translated all the same, never left English inside a German message (issue 18).
_ACTION_WORDS_BY_TEXT = {str.__str__(word): word for word in (*ACTION_WORDS.values(), *OTHER_ACTION_WORDS)}


def action_word(kind: object) -> object:
    """The marked word for an action named by its event type (``"raise"``) or by its English phrase
    (``"declare a natural"``); a message, and any other value, unchanged."""
    if not isinstance(kind, str) or isinstance(kind, Message):
        return kind
    return ACTION_WORDS.get(kind) or _ACTION_WORDS_BY_TEXT.get(kind, kind)


def retemplate(text: str, replacements: Mapping[str, str]) -> str:
    """``text`` with every (nested) message whose template is a key of ``replacements`` rewritten to the
    value's template, parameters kept: ``"seat 2: 'Zz' is not in this game's deck"`` can become
    ``"seat 2: 'Zz' is not in the 32-card pack"`` and still be translated. Plain text is returned unchanged."""
    if not isinstance(text, Message):
        return text
    params = {k: retemplate(v, replacements) if isinstance(v, str) else v for k, v in text.params.items()}
    return Message(replacements.get(text.template, text.template), params, text.context)


def or_list(items: Sequence[str]) -> str:
    """``["10.00", "20.00"] -> "10.00 or 20.00"``, ``["a", "b", "c"] -> "a, b or c"`` as a message, so the
    word and each item (an :class:`Amount` keeps its cents) are translated; one item comes back as it is."""
    if len(items) == 1:
        return items[0]
    return gettext_noop("%(first)s or %(last)s", first=comma_list(items[:-1]), last=items[-1])


def comma_list(items: Sequence[str]) -> str:
    """``["shift A", "shift B"] -> "shift A, shift B"`` as a message that keeps each item (a :class:`Message`
    is translated, an :class:`Amount` formatted); one item comes back as it is, none as ``""``."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return gettext_noop("%(first)s, %(last)s", first=comma_list(items[:-1]), last=items[-1])


def semicolon_list(items: Sequence[str]) -> str:
    """``["a", "b", "c"] -> "a; b; c"`` as a message that keeps each item (translated, amounts formatted)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return gettext_noop("%(first)s; %(last)s", first=semicolon_list(items[:-1]), last=items[-1])


def _identity(text: str) -> str:
    return text


def render(text: str, *, translate: Callable[[str], str] = _identity,
           amount: Callable[[int], str] | None = None, value: Callable[[Any], Any] | None = None) -> str:
    """Render ``text`` in a language: a :class:`Message` through ``translate`` (template -> translated
    template), its parameters recursively; an :class:`Amount` through ``amount`` (cents -> text); any other
    parameter that is not text (a date, a datetime) through ``value`` (e.g. the language's date format).

    A plain ``str`` comes back unchanged. A translation that lost a placeholder falls back to the English
    template (the catalogue test keeps that from happening).
    """
    if isinstance(text, Amount):
        return amount(text.cents) if amount is not None else str.__str__(text)
    if not isinstance(text, Message):
        return str(text)
    params = {k: render(v, translate=translate, amount=amount, value=value) if isinstance(v, str)
              else (value(v) if value is not None else v)
              for k, v in text.params.items()}
    if text.context:
        key = f"{text.context}\x04{text.template}"  # gettext's own encoding of msgctxt + msgid
        template = translate(key)
        template = text.template if template == key else template
    else:
        template = translate(text.template)
    if template != text.template and _placeholders(template) != _placeholders(text.template):
        template = text.template
    try:
        return template % params
    except (KeyError, ValueError, TypeError):
        return text.template % params


def _placeholders(template: str) -> set[str]:
    return set(_PLACEHOLDER.findall(template))


#: What :func:`message_data` makes of a value: JSON-able data that :func:`message_from_data` reads back.
MessageData = Any


def message_data(value: Any) -> MessageData:
    """``value`` (a :class:`Message`, an :class:`Amount`, a date, plain text or a number) as JSON-able data
    to store, e.g. in a ``JSONField``: a message ``{"msgid", "params"[, "msgctxt"]}`` (its parameters the
    same way, recursively), an amount ``{"cents": n}``, a date ``{"date": "2026-05-04"}``; plain text,
    numbers, booleans and None as they are. :func:`message_from_data` gives the value back, so a stored
    text is rendered again in any reader's language. Raises ``TypeError`` for anything else."""
    if isinstance(value, Message):
        out: dict[str, Any] = {"msgid": value.template,
                               "params": {key: message_data(v) for key, v in value.params.items()}}
        if value.context:
            out["msgctxt"] = value.context
        return out
    if isinstance(value, Amount):
        return {"cents": value.cents}
    if isinstance(value, str | int | float | bool) or value is None:
        return str.__str__(value) if isinstance(value, str) else value
    if hasattr(value, "isoformat") and hasattr(value, "toordinal") and not hasattr(value, "hour"):
        return {"date": value.isoformat()}
    raise TypeError(f"a message parameter cannot be stored: {value!r}")


def message_from_data(data: MessageData, *, date: Callable[[str], Any] | None = None) -> Any:
    """The value :func:`message_data` stored: a :class:`Message`, an :class:`Amount`, a date (``date`` turns
    the stored ISO text into one, e.g. ``datetime.date.fromisoformat``: the engines read no clock; without
    it the ISO text), or the plain value. Data that is none of these shapes (a dict of another form) comes
    back as text."""
    if isinstance(data, dict):
        if "msgid" in data and isinstance(data.get("params", {}), dict):
            params = {key: message_from_data(v, date=date) for key, v in (data.get("params") or {}).items()}
            try:
                return Message(str(data["msgid"]), params, data.get("msgctxt") or None)
            except (KeyError, ValueError, TypeError):
                return str(data["msgid"])
        if set(data) == {"cents"} and isinstance(data["cents"], int):
            return Amount(data["cents"])
        if set(data) == {"date"}:
            text = str(data["date"])
            if date is None:
                return text
            try:
                return date(text)
            except ValueError:
                return text
        return str(data)
    return data
