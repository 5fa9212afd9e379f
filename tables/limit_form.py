"""The limit form: a Django form generated from the engine's config description (rules/config_fields.py).

One field per described key (label, unit, default, allowed values, help and rule number, all
translated at render time); every error is reported at once, in words: missing keys, bad values, keys
required by the chosen mode, and then what the engine itself refuses (tried key by key). Used on the
floor pages (limit change, players' requests) and in the admin (limit versions). ``form.config`` is
the raw config (money as EUR strings) for :func:`tables.services.floor.limit_profile_create`.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from casino.errors import ApplicationError
from casino.forms import MoneyField
from casino.i18n import message_text
from casino.money import MoneyInputError, format_money, parse_money_input
from rules.config_fields import ConfigField, config_fields, values_with_defaults

#: How many engine refusals are collected (each found one is replaced by its default and tried again).
ENGINE_PASSES = 8
_YES_NO = (("true", gettext_lazy("yes")), ("false", gettext_lazy("no")))


def _money_field(**kw) -> MoneyField:
    """An EUR amount typed as the person's language writes it (``1.234,50``), in a text box: a number box
    loses the German comma."""
    return MoneyField(min_value=Decimal("0"), **kw)


def _german() -> bool:
    return (get_language() or "").lower().startswith("de")


def _label(cf: ConfigField) -> str:
    unit = _(cf.unit) if cf.unit else ""
    return f"{_(cf.label)} ({unit})" if unit else _(cf.label)


def _help(cf: ConfigField) -> str:
    return f"{_(cf.help)} [{cf.rule}]"


def _initial(cf: ConfigField, value: Any) -> Any:
    if value is None:
        return None
    if cf.kind == "bool":
        return "true" if value else "false"
    if cf.kind == "per_street":
        return " ".join(format_money(v, grouping=False) for v in (value if isinstance(value, list | tuple) else [value]))
    return value


def _per_street(text: str) -> str | list[str]:
    """One amount or five (streets 3 to 7) typed the language's way, apart by spaces or ``;`` (in English
    also ``", "``: a comma inside a German amount is its decimal comma), as EUR strings ``"1.00"``.
    Raises :class:`casino.money.MoneyInputError`."""
    parts = [p for p in re.split(r"[\s;]+", text.replace(", ", " ") if not _german() else text) if p]
    amounts = [f"{parse_money_input(p):.2f}" for p in parts]
    return amounts[0] if len(amounts) == 1 else amounts


class LimitConfigForm(forms.Form):
    """The limits of one game. ``game``: the table's game; ``initial_config``: the version in force (or
    none: the described defaults); ``advanced``: also show the keys marked advanced (otherwise they keep
    the value of ``initial_config``)."""

    limit_label = forms.CharField(label=gettext_lazy("Limit name"), max_length=64, required=False,
                                  help_text=gettext_lazy("How the limit is shown, e.g. 10/20; empty = from the limits."))
    reason = forms.CharField(label=gettext_lazy("Why"), max_length=200, required=False)

    def __init__(self, *args, game: str, initial_config: dict[str, Any] | None = None, advanced: bool = False,
                 **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.base = dict(initial_config or {})
        self.described = {cf.key: cf for cf in config_fields(game)}
        start = values_with_defaults(game, self.base)
        self.edited: list[ConfigField] = []
        for cf in config_fields(game):
            if cf.kind == "structured" or (cf.advanced and not advanced):
                continue
            self.edited.append(cf)
            value = start.get(cf.key)
            if cf.kind == "money_pair":
                pair = list(value or [None, None])
                for i, part in enumerate((_("lower"), _("upper"))):
                    self.fields[f"{cf.key}__{i}"] = _money_field(required=False, label=f"{_(cf.label)}: {part} (EUR)",
                                                                 initial=pair[i] if len(pair) > i else None)
                continue
            self.fields[cf.key] = self._field(cf, _initial(cf, value))
        for name, f in self.fields.items():
            if f.help_text:
                f.widget.attrs.setdefault("aria-describedby", f"{self.add_prefix(name)}-help")

    def _field(self, cf: ConfigField, initial: Any) -> forms.Field:
        common = {"label": _label(cf), "help_text": _help(cf), "initial": initial, "required": False}
        if cf.kind in ("money",):
            return _money_field(**common)
        if cf.kind in ("percent", "fraction"):
            return forms.DecimalField(min_value=Decimal("0"), max_digits=8, decimal_places=4, **common)
        if cf.kind == "int":
            return forms.IntegerField(min_value=cf.minimum, max_value=cf.maximum, **common)
        if cf.kind == "bool":
            return forms.ChoiceField(choices=_YES_NO, widget=forms.RadioSelect, **common)
        if cf.kind == "choice":
            return forms.ChoiceField(choices=[(v, _(cf.label_of(v))) for v in cf.choices], **common)
        return forms.CharField(max_length=120, **common)

    def bound_groups(self) -> list[tuple[str, list]]:
        """The visible fields grouped by their described section, in order: ``[(section, [(bound field,
        shown_when JSON)])]``; the page's script hides a field while the keys it depends on say it does not
        apply (e.g. the Taxe cap under a flat Taxe)."""
        import json

        groups: dict[str, list] = {}
        for cf in self.edited:
            names = [f"{cf.key}__0", f"{cf.key}__1"] if cf.kind == "money_pair" else [cf.key]
            when = json.dumps({self.add_prefix(k): [str(v).lower() if isinstance(v, bool) else str(v) for v in vals]
                               for k, vals in cf.shown_when}) if cf.shown_when else ""
            for name in names:
                groups.setdefault(_(cf.section) if cf.section else "", []).append((self[name], when))
        return list(groups.items())

    # ---- cleaning ----------------------------------------------------------------------------------

    def _raw_value(self, cf: ConfigField, data: dict[str, Any]) -> Any:
        if cf.kind == "money_pair":
            lo, hi = data.get(f"{cf.key}__0"), data.get(f"{cf.key}__1")
            return None if lo is None and hi is None else [str(lo) if lo is not None else None,
                                                            str(hi) if hi is not None else None]
        value = data.get(cf.key)
        if value in (None, ""):
            return None
        if cf.kind == "bool":
            return value == "true"
        if cf.kind in ("money", "percent", "fraction"):
            return str(value.normalize()) if cf.kind != "money" else f"{value:.2f}"
        if cf.kind == "per_street":
            return _per_street(str(value))
        if cf.kind == "choice":
            return next((c for c in cf.choices if str(c) == value), value)
        return value

    def clean(self):
        data = super().clean()
        config = {k: v for k, v in self.base.items()}
        for cf in self.edited:
            try:
                config[cf.key] = self._raw_value(cf, data)
            except MoneyInputError as exc:
                self._error_on(cf, exc.message)
                config[cf.key] = None
        filled = values_with_defaults(self.game, {k: v for k, v in config.items() if v is not None})
        for cf in self.edited:  # a key that does not apply under the chosen mode is not sent to the engine
            if not cf.is_shown(filled):
                config[cf.key] = None
        for cf in self.edited:  # keys the chosen mode requires, all at once
            value = config.get(cf.key)
            missing = value is None or (cf.kind == "money_pair" and None in value)
            typed_wrong = any(name in self.errors for name in (cf.key, f"{cf.key}__0", f"{cf.key}__1"))
            if missing and cf.is_required(filled) and cf.default is None and not typed_wrong:
                self._error_on(cf, _("%(label)s is required here.") % {"label": _(cf.label)})
        if self.errors:
            return data
        config = {k: v for k, v in config.items() if v is not None}
        self.config = self._engine_check(config)
        return data

    def _error_on(self, cf: ConfigField | None, message: str) -> None:
        if cf is None:
            self.add_error(None, message)
        elif cf.kind == "money_pair":
            self.add_error(f"{cf.key}__0", message)
        elif cf.key in self.fields:
            self.add_error(cf.key, message)
        else:
            self.add_error(None, f"{_(cf.label)}: {message}")

    def _engine_check(self, config: dict[str, Any]) -> dict[str, Any]:
        """Ask the engine; on a refusal, note it on its key, put the key's default in and ask again, so that
        independent problems are all reported in one go."""
        from tables.services.floor import limit_config_validate

        trial = dict(config)
        seen: set[str] = set()
        for _pass in range(ENGINE_PASSES):
            try:
                normalised, _built = limit_config_validate(game=self.game, config=trial)
            except ApplicationError as err:
                key = err.extra.get("key") or ""
                cf = self.described.get(key)
                text = message_text(err.message)
                reason = text.split(f"{key}: ", 1)[-1] if key else text
                self._error_on(cf, _("%(label)s: %(reason)s") % {"label": _(cf.label) if cf else key, "reason": reason})
                if cf is None or key in seen or cf.default is None:
                    break
                seen.add(key)
                trial[key] = cf.default
                continue
            if not seen:
                return config
            break
        return config
