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

    def __new__(cls, template: str, params: Mapping[str, Any]) -> Message:
        self = super().__new__(cls, template % dict(params))
        self.template = template
        self.params = dict(params)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Message, (self.template, self.params))


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


#: The actions every engine names by their event type ("seat 3 cannot raise"), marked so that they are
#: translated; an engine passes ``action_word(kind)`` where its message names the action.
ACTION_WORDS = {
    "ante": gettext_noop("ante"), "blind": gettext_noop("blind"), "bet": gettext_noop("bet"),
    "raise": gettext_noop("raise"), "complete": gettext_noop("complete"), "call": gettext_noop("call"),
    "check": gettext_noop("check"), "fold": gettext_noop("fold"), "show": gettext_noop("show"),
    "muck": gettext_noop("muck"), "deal": gettext_noop("deal"), "expose": gettext_noop("expose"),
    "set": gettext_noop("set"), "burn": gettext_noop("burn"), "taxe": gettext_noop("taxe"),
    "misdeal": gettext_noop("misdeal"), "declare": gettext_noop("declare"),
}


def action_word(kind: object) -> object:
    """The marked word for an action named by its event type (``"raise"``); anything else unchanged."""
    return ACTION_WORDS.get(kind, kind) if isinstance(kind, str) else kind


def or_list(items: Sequence[str]) -> str:
    """``["10.00", "20.00"] -> "10.00 or 20.00"`` as a message, so the word and each item (an
    :class:`Amount` keeps its cents) are translated; one item comes back as it is."""
    if len(items) == 1:
        return items[0]
    return gettext_noop("%(first)s or %(last)s", first=or_list(items[:-1]), last=items[-1])


def _identity(text: str) -> str:
    return text


def render(text: str, *, translate: Callable[[str], str] = _identity,
           amount: Callable[[int], str] | None = None) -> str:
    """Render ``text`` in a language: a :class:`Message` through ``translate`` (template -> translated
    template), its parameters recursively; an :class:`Amount` through ``amount`` (cents -> text).

    A plain ``str`` comes back unchanged. A translation that lost a placeholder falls back to the English
    template (the catalogue test keeps that from happening).
    """
    if isinstance(text, Amount):
        return amount(text.cents) if amount is not None else str.__str__(text)
    if not isinstance(text, Message):
        return str(text)
    params = {k: render(v, translate=translate, amount=amount) if isinstance(v, str) else v
              for k, v in text.params.items()}
    template = translate(text.template)
    if template != text.template and _placeholders(template) != _placeholders(text.template):
        template = text.template
    try:
        return template % params
    except (KeyError, ValueError, TypeError):
        return text.template % params


def _placeholders(template: str) -> set[str]:
    return set(_PLACEHOLDER.findall(template))
