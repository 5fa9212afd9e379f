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
from django.utils.formats import number_format
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


class UnitInput(forms.TextInput):
    """A text box with its unit written after it (``%``, ``raises``, ``seconds``) and the allowed range as
    ``min``/``max`` hints; ``inputmode`` decimal or numeric so a tablet shows the number keys. A text box,
    not a number box: a number box loses the German decimal comma."""

    template_name = "tables/widgets/unit_input.html"

    def __init__(self, *, unit: str, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs)
        self.unit = unit

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["unit"] = self.unit
        return context


class PercentField(forms.Field):
    """A percentage typed as the person's language writes it (``5``, ``5,5`` or ``5.5``, a trailing ``%``
    allowed), from ``minimum`` to ``maximum`` percent with at most two decimals. ``fraction=True`` keys
    (the engine keeps ``0.05`` for 5 %) are shown and typed as percent too. Cleans to the percentage as a
    :class:`~decimal.Decimal`; every error names the field, the range and the unit."""

    def __init__(self, *, name: str, fraction: bool = False, minimum: Decimal = Decimal("0"),
                 maximum: Decimal = Decimal("100"), **kw) -> None:
        self.name, self.fraction, self.minimum, self.maximum = name, fraction, minimum, maximum
        attrs = {"inputmode": "decimal", "autocomplete": "off", "data-min": str(minimum), "data-max": str(maximum),
                 "class": "unit-number"}
        super().__init__(widget=UnitInput(unit="%", attrs=attrs), **kw)

    def prepare_value(self, value: Any) -> Any:
        """The initial percentage (a :class:`~decimal.Decimal`, see ``_initial``) the language's way (``5,5``);
        typed text is shown back as it was typed."""
        if not isinstance(value, Decimal):
            return value
        number = value.quantize(Decimal("0.01")).normalize()
        return number_format(number if number != number.to_integral() else number.to_integral(), use_l10n=True)

    def to_python(self, value: Any) -> Decimal | None:
        text = str(value or "").strip().removesuffix("%").strip()
        if not text:
            return None
        text = text.replace(" ", "")
        if _german():
            text = text.replace(".", "").replace(",", ".") if "," in text else text
        elif "," in text and "." not in text:
            text = text.replace(",", ".")
        try:
            number = Decimal(text)
        except (ArithmeticError, ValueError):
            number = None
        if number is None or not number.is_finite():
            raise forms.ValidationError(_("%(label)s: %(value)s is not a percentage; give a number from "
                                          "%(min)s to %(max)s %%.") % self._words(str(value)), code="invalid")
        if not self.minimum <= number <= self.maximum:
            raise forms.ValidationError(_("%(label)s: %(value)s %% is outside %(min)s to %(max)s %%.")
                                        % self._words(str(value).strip().removesuffix("%").strip()), code="range")
        if number != number.quantize(Decimal("0.01")):
            raise forms.ValidationError(_("%(label)s: give at most two decimals (%(value)s %%).")
                                        % self._words(str(value).strip().removesuffix("%").strip()), code="decimals")
        return number

    def _words(self, value: str) -> dict[str, str]:
        return {"label": self.name, "value": value, "min": number_format(self.minimum, use_l10n=True),
                "max": number_format(self.maximum, use_l10n=True)}


def _bounded_int_field(cf: ConfigField, **common) -> forms.IntegerField:
    """A whole number within the bounds of the config description (``minimum``/``maximum``), its unit
    written after the box, the bounds as ``min``/``max``; out-of-range errors name the label, the bounds
    and the unit (e.g. "Raises per round: from 0 to 100 raises")."""
    unit = _(cf.unit) if cf.unit else ""
    words = {"label": _(cf.label), "min": cf.minimum, "max": cf.maximum, "unit": unit}
    allowed = ""
    if cf.minimum is not None and cf.maximum is not None:
        bounds = _("%(label)s: from %(min)s to %(max)s %(unit)s.") % words
        allowed = _("Allowed: %(min)s to %(max)s %(unit)s.") % words
    elif cf.minimum is not None:
        bounds = _("%(label)s: at least %(min)s %(unit)s.") % words
    else:
        bounds = _("%(label)s: at most %(max)s %(unit)s.") % words
    attrs = {"inputmode": "numeric", "autocomplete": "off", "class": "unit-number"}
    if cf.minimum is not None:
        attrs["min"] = str(cf.minimum)
    if cf.maximum is not None:
        attrs["max"] = str(cf.maximum)
    if allowed:
        common["help_text"] = f"{common['help_text']} {allowed}"
    return forms.IntegerField(min_value=cf.minimum, max_value=cf.maximum, widget=UnitInput(unit=unit, attrs=attrs),
                              error_messages={"invalid": _("%(label)s: give a whole number.") % words,
                                              "min_value": bounds, "max_value": bounds},
                              **common)


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
    if cf.kind in ("percent", "fraction"):  # shown in percent: "0.05" (fraction) and "5" (percent) -> 5
        try:
            number = Decimal(str(value))
        except ArithmeticError:
            return value
        return number * 100 if cf.kind == "fraction" else number
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
            # typed as percent in both cases; the description bounds percentages to 0..100 (fractions 0..1)
            common["label"] = _(cf.label)  # the unit is written after the box
            if cf.kind == "fraction":
                common["help_text"] = f"{common['help_text']} " + _("Typed here in percent (5 means 5 percent).")
            return PercentField(name=_(cf.label), fraction=cf.kind == "fraction", **common)
        if cf.kind == "int":
            common["label"] = _(cf.label)  # the unit is written after the box
            return _bounded_int_field(cf, **common)
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
        if cf.kind == "fraction":  # typed as percent, kept as the engine's fraction: 5 -> "0.05"
            return str((value / 100).normalize())
        if cf.kind in ("money", "percent"):
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
