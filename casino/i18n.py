"""The edge of the translations: engine and service messages in the reader's language (issue 18).

The engines and services write English ``gettext_noop(template, **params)`` messages
(:mod:`rules.engines.messages`); the API's error handler and the pages render them here through the
project's catalogue (``locale/``) in the active language, amounts in that language's number format
(``40,00`` in German, ``40.00`` in English). The active language comes from :mod:`casino.language`.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import ROUND_DOWN, Decimal
from typing import Any

from django.utils import timezone, translation
from django.utils.formats import date_format, get_format_modules, number_format
from django.utils.translation import gettext, gettext_lazy

from rules.engines.messages import Amount, Message, comma_list, gettext_noop, or_list, render

__all__ = ["Amount", "Message", "gettext_noop", "or_list", "comma_list", "format_amount", "message_text", "local_datetime_text",
           "local_date_text", "local_datetime_zone_text", "house_format", "format_bytes", "audit_data_text", "choice_word", "status_word",
           "messages_rendered", "audit_subject_text", "audit_status_text",
           "audit_action_text", "stored_text", "label_context", "APPROVED_BY"]


def format_amount(cents: int) -> str:
    """Integer ``cents`` as the active language writes money: ``4000 -> "40,00"`` (de), ``"40.00"`` (en).

    No thousands grouping (a croupier reads ``1234,00``, as the engines write ``1234.00``); exact, no rounding.
    """
    return number_format(Decimal(int(cents)).scaleb(-2), decimal_pos=2, use_l10n=True, force_grouping=False)


def message_text(text: str) -> str:
    """``text`` (a :class:`Message`, an :class:`Amount` or plain text) in the active language.

    A message's template is looked up in the catalogue (``gettext``), its parameters rendered the same way
    (nested messages translated, amounts formatted by :func:`format_amount`); plain text is returned as is.
    """
    return render(text, translate=gettext, amount=format_amount, value=_value_text)


def messages_rendered(data: Any) -> Any:
    """``data`` (JSON-able: dicts, lists, text) with every :class:`Message` in it rendered by
    :func:`message_text` (e.g. a showdown's hand descriptions); keys and plain text unchanged."""
    if isinstance(data, Message | Amount):
        return message_text(data)
    if isinstance(data, dict):
        return {key: messages_rendered(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [messages_rendered(value) for value in data]
    return data


def _value_text(value: Any) -> Any:
    """A message parameter that is not text: a datetime in the card room's time zone and the language's
    format, a date in the language's short date format (``03.12.2026``), a ``Decimal`` (a share, not money:
    money is an :class:`Amount`) with the language's decimal mark (``2,5``); anything else unchanged."""
    if isinstance(value, dt.datetime):
        return local_datetime_text(value)
    if isinstance(value, dt.date):
        return local_date_text(value)
    if isinstance(value, Decimal):
        return number_format(value, use_l10n=True)
    return value


def local_date_text(value: dt.date | None) -> str:
    """A date (a gaming day) in the active language's short format (``casino/formats``): ``03.12.2026`` (de),
    ``3 Dec 2026`` (en); ``""`` for None."""
    if value is None:
        return ""
    return date_format(value, "SHORT_DATE_FORMAT")


def house_format(name: str) -> str | None:
    """The house's own format ``name`` (e.g. ``SPREADSHEET_DATE_FORMAT``) for the active language, read from
    the formats modules of ``FORMAT_MODULE_PATH`` (``casino/formats/<language>/formats.py``), or None when no
    module of the language names it. Django's ``get_format`` answers only its own names."""
    for module in get_format_modules(translation.get_language()):
        value = getattr(module, name, None)
        if value is not None:
            return str(value)
    return None


#: What a byte count is shown in: 1 MB = 1024 x 1024 bytes (Django's own "2.5 MB" default of 2,621,440 bytes).
_MEGABYTE = 1024 * 1024
_KILOBYTE = 1024


def format_bytes(count: int) -> str:
    """A size limit in bytes as a person reads it in the active language: ``2621440 -> "2,5 MB"`` (de),
    ``"2.5 MB"`` (en); ``"512 KB"``, ``"100 Bytes"``/``"100 bytes"`` below. At most two decimals, rounded
    down (rule: a limit is never shown larger than it is, so "at most 2.5 MB" stays true)."""
    count = int(count)
    for size, unit in ((_MEGABYTE, "MB"), (_KILOBYTE, "KB")):
        if count >= size:
            value = (Decimal(count) / size).quantize(Decimal("0.01"), rounding=ROUND_DOWN).normalize()
            places = max(0, -value.as_tuple().exponent)
            return f"{number_format(value, decimal_pos=places, use_l10n=True, force_grouping=True)} {unit}"
    return gettext("%(count)s bytes") % {"count": number_format(count, use_l10n=True, force_grouping=True)}

def choice_word(model: Any, value: Any, *, field: str = "status") -> Any:
    """The label of ``value`` among the choices of ``model``'s ``field`` (a model class or instance) as a
    message, so the edge shows it in the reader's language (``"closed"`` -> ``"geschlossen"``); a value that
    is not one of the choices comes back unchanged.

    The label's English text (its catalogue msgid) becomes the template of a :class:`Message` with no
    parameters, so ``str()`` of the message that carries it stays English.
    """
    try:
        choices = model._meta.get_field(field).flatchoices
    except (AttributeError, LookupError):
        return value
    for key, label in choices:
        if key == value:
            with translation.override(None):
                english = str(label)
            return Message(english.replace("%", "%%"), {}, label_context(label))
    return value


def label_context(label: Any) -> str | None:
    """The ``msgctxt`` of a lazy label made by ``pgettext_lazy(context, text)`` (a table is "geschlossen",
    a gaming day "abgeschlossen": issue 18), read from the lazy object's pickling form; None otherwise."""
    try:
        reduced = label.__reduce__()
        func, args = reduced[1][0], reduced[1][1]
    except (AttributeError, IndexError, TypeError):
        return None
    if getattr(func, "__name__", "") in ("pgettext", "npgettext") and args and isinstance(args[0], str):
        return args[0]
    return None


def status_word(obj: Any, value: Any = None, *, field: str = "status") -> Any:
    """``obj``'s status (or ``value``, a status of its model) as a translatable word: :func:`choice_word`."""
    return choice_word(obj, getattr(obj, field, None) if value is None else value, field=field)


def local_datetime_text(value: dt.datetime | None) -> str:
    """An aware datetime in the card room's time zone (``TIME_ZONE``) and the active language's format
    (``01.12.2026 14:05`` in German, ``1 Dec 2026 14:05`` in English: ``casino/formats``); ``""`` for None."""
    if value is None:
        return ""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return date_format(value, "SHORT_DATETIME_FORMAT")


def local_datetime_zone_text(value: dt.datetime | None) -> str:
    """:func:`local_datetime_text` with the zone's abbreviation, for a text read beside other days or printed
    (a gaming day's period, the signed report): ``30.11.2026 06:00 CET`` (de), ``30 Nov 2026 06:00 CET`` (en),
    ``CEST`` in summer; ``""`` for None."""
    if value is None:
        return ""
    local = timezone.localtime(value, timezone.get_default_timezone()) if timezone.is_aware(value) else value
    return f"{date_format(local, 'SHORT_DATETIME_FORMAT')} {local.tzname() or ''}".rstrip()

def _as_datetime(text: str) -> dt.datetime | None:
    if len(text) < 19 or text[4:5] != "-" or "T" not in text:
        return None
    try:
        value = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return value if timezone.is_aware(value) else None


def _audit_model(subject: str) -> Any:
    from django.apps import apps

    try:
        return apps.get_model(subject)
    except (LookupError, ValueError):
        return None


#: What an audit row's ``action`` code means, in words a person reads (the codes stay in the database).
AUDIT_ACTIONS = {
    "status_change": gettext_lazy("status changed"), "created": gettext_lazy("created"),
    "updated": gettext_lazy("updated"), "takeover": gettext_lazy("taken over"),
    "slots_edited": gettext_lazy("slots edited"), "session_opened": gettext_lazy("session opened"),
    "session_closed": gettext_lazy("session closed"), "requested": gettext_lazy("requested"),
    "past_slots_not_assigned": gettext_lazy("past slots not assigned"), "moved": gettext_lazy("moved"),
    "login_unlocked": gettext_lazy("login unlocked"), "login_locked_out": gettext_lazy("login locked out"),
    "listed": gettext_lazy("listed"), "limits_changed": gettext_lazy("limits changed"),
    "limit_version_created": gettext_lazy("limit version created"),
    "journal_entry_reverse": gettext_lazy("journal entry reversed"), "hand_open": gettext_lazy("hand opened"),
    "hand_close": gettext_lazy("hand closed"), "generated": gettext_lazy("generated"),
    "gaming_day_reopened": gettext_lazy("gaming day reopened"), "gaming_day_closed": gettext_lazy("gaming day closed"),
    "floor_call_opened": gettext_lazy("floor call opened"), "ended": gettext_lazy("ended"),
    "duty_corrected": gettext_lazy("duty corrected"), "drop_counted": gettext_lazy("drop counted"),
    "drop_confirmed": gettext_lazy("drop count confirmed"), "tronc_counted": gettext_lazy("tronc counted"),
    "tronc_confirmed": gettext_lazy("tronc count confirmed"), "approval_requested": gettext_lazy("approval requested"),
}


def audit_action_text(action: str) -> str:
    """An audit row's ``action`` code in the active language (``"hand_close"`` -> "Hand geschlossen"); a code
    not listed in :data:`AUDIT_ACTIONS` as stored."""
    label = AUDIT_ACTIONS.get(action)
    if label is None and action.endswith("_change"):
        return gettext("%(field)s changed") % {"field": action[: -len("_change")]}
    return str(label) if label is not None else action


def audit_subject_text(subject: str) -> str:
    """An audit row's ``subject`` (``"tables.table"``) as the model's name in the active language ("Tisch")."""
    model = _audit_model(subject)
    return str(model._meta.verbose_name) if model is not None else subject


def audit_status_text(subject: str, action: str, status: str) -> str:
    """A status stored in an audit row (``"closed"``) as its label in the active language ("abgeschlossen"):
    the choices of the subject's field that the action changed (``"<field>_change"``, else ``status``)."""
    if not status:
        return ""
    model = _audit_model(subject)
    field = action[: -len("_change")] if action.endswith("_change") else "status"
    word = choice_word(model, status, field=field) if model is not None else status
    if word == status and field != "status" and model is not None:
        word = choice_word(model, status)
    return message_text(word) if isinstance(word, str) else str(word)


def audit_data_text(data: Any) -> str:
    """An audit row's ``data`` for a person: ``key: value`` pairs, stored ISO timestamps (UTC) shown in the
    card room's time zone and the active language's format, amounts and the rest as stored."""
    if not data:
        return ""
    if not isinstance(data, dict):
        return str(data)

    def show(value: Any) -> str:
        if isinstance(value, str) and (moment := _as_datetime(value)) is not None:
            return local_datetime_text(moment)
        if isinstance(value, list):
            return ", ".join(show(v) for v in value)
        if isinstance(value, dict):
            return "{" + audit_data_text(value) + "}"
        return str(value)

    return "; ".join(f"{key}: {show(value)}" for key, value in data.items())


#: What the services append to a person's note when a second person approves it (the stored English).
APPROVED_BY = gettext_noop("%(note)s (approved by %(user)s)", note="", user="").template

#: Stored English texts that the service writes itself (audit reasons, notes it adds), each a catalogue
#: msgid translated when shown: a whole text (:data:`STORED_WORDS`) or a pattern whose named groups are the
#: parameters (:data:`STORED_PATTERNS`). Text a person typed matches none and is shown as typed.
STORED_WORDS = frozenset({
    gettext_noop("table opened"), gettext_noop("table closed"), gettext_noop("repeated failed logins"),
    gettext_noop("no-show"), gettext_noop("demo floor"), gettext_noop("demo limits (examples to change)"),
    gettext_noop("demo dealer"), gettext_noop("demo rotation"), gettext_noop("demo: recorded hands"),
    gettext_noop("demo evening: simulated hands"), gettext_noop("demo: the previous gaming day for the accountants"),
    gettext_noop("demo: recorded WSOP 2023 stud hands (US rules)"),
})
STORED_PATTERNS = (
    (re.compile(r"(?P<note>.*) \(approved by (?P<user>[\w.@+-]+)\)", re.S), APPROVED_BY),
    (re.compile(r"called to (?P<table>.+)", re.S), gettext_noop("called to %(table)s", table="").template),
    (re.compile(r"seated at (?P<table>.+) seat (?P<seat>[0-9]+)", re.S),
     gettext_noop("seated at %(table)s seat %(seat)s", table="", seat="").template),
    (re.compile(r"players' request #(?P<id>[0-9]+) approved", re.S),
     gettext_noop("players' request #%(id)s approved", id="").template),
    (re.compile(r"players' request #(?P<id>[0-9]+) approved: (?P<note>.*)", re.S),
     gettext_noop("players' request #%(id)s approved: %(note)s", id="", note="").template),
    (re.compile(r"imported from PHH (?P<name>.+)", re.S), gettext_noop("imported from PHH %(name)s", name="").template),
)


def stored_text(text: str) -> str:
    """A stored text in the active language: a text the service wrote itself (an audit reason such as
    "table opened", a note's "(approved by anna)", "imported from PHH 00-02-07.phh") through the catalogue,
    anything a person typed as it is. Old rows need no migration: the stored English is the msgid."""
    if not text:
        return ""
    if text in STORED_WORDS:
        return gettext(text)
    for pattern, template in STORED_PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            params = {key: stored_text(value) if key == "note" else value for key, value in match.groupdict().items()}
            return message_text(Message(template, params))
    return text
