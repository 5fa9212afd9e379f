"""Capsa Susun configuration (spec A.10 presets, A.12 keys): a frozen, validated dataclass.

Build it with :func:`build_config` from the table's limit profile (a dict of the spec's keys; money as
EUR strings or ``Decimal``, kept here as int cents). ``preset`` (default ``"western_2_4"``) fills the
keys it names (A.10); every key given explicitly overrides the preset. :func:`config_to_dict` writes
every key explicitly, so ``build_config(config_to_dict(c)) == c``.

Pair stakes (A.6): ``pair_stakes`` maps a **seat pair key** to the unit value of that pair, e.g.
``{"1-2": "100.00"}`` with ``unit_value`` ``"10.00"``: seats 1 and 2 play at 100.00 a unit, every
other pair at 10.00. A key is two seat numbers joined by ``-`` in either order (``"2-1"`` is the same
pair); ``"1,2"``, ``[1, 2]`` or ``(1, 2)`` keys (from Python callers) are accepted too.

Royalty tables (A.7): ``royalty_table`` is a table name (``"standard"`` = Table A.7-1, ``"nw"``,
``"dobree"``) or a mapping ``{"front"|"middle"|"back": {hand: units}}`` with hands among
``pair``, ``two_pair``, ``three_of_a_kind``, ``straight``, ``flush``, ``full_house``,
``four_of_a_kind``, ``straight_flush``, ``royal_flush``. A row pays the entry of the **best hand in the
table that it makes or beats** (so a royal flush pays ``straight_flush`` where the table has no royal
entry, and a middle "full house or better" entry also covers quads if quads have no entry).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from typing import Any

from rules.engines.errors import ConfigError
from rules.engines.evaluators.capsa import (
    CATEGORY_NAMES,
    FLUSH_COMPARES,
    NATURALS,
    ROWS,
    SIX_PAIRS_DEFINITIONS,
    WHEEL_RANKS,
    parse_suit_order,
)
from rules.engines.messages import gettext_noop
from rules.engines.money import config_cents, from_cents

METHODS = ("1-1-1", "2-4", "1-6", "1-4", "majority")
OVERALL_RULES = ("two_or_more_rows", "more_rows_than_opponent", "higher_total_incl_royalties")
ROYALTY_MODES = ("row_winner_only", "independent")
FEE_MODES = ("commission", "per_seat", "time")
MAX_LOSS_POLICIES = ("table_stakes_pro_rata", "require_cover")
NATURAL_DECLARATIONS = ("auto", "optional")
NATURAL_PAYOUTS = ("fixed", "scoop_plus_fixed")
NATURAL_VS_NATURAL = ("winner_value", "difference")
ROYALTY_HANDS = (*CATEGORY_NAMES[1:], "royal_flush")

#: Table A.7-1 (WP-derived standard structure), the default ``royalty_table`` [decision].
ROYALTY_TABLES: dict[str, dict[str, dict[str, int]]] = {
    "standard": {
        "front": {"three_of_a_kind": 3},
        "middle": {"full_house": 2, "four_of_a_kind": 8, "straight_flush": 10, "royal_flush": 14},
        "back": {"four_of_a_kind": 4, "straight_flush": 5, "royal_flush": 7},
    },
    "nw": {
        "front": {"three_of_a_kind": 3},
        "middle": {"full_house": 2, "four_of_a_kind": 4, "straight_flush": 5},
        "back": {"four_of_a_kind": 4, "straight_flush": 5},
    },
    "dobree": {
        "front": {"three_of_a_kind": 2},
        "middle": {"full_house": 2, "four_of_a_kind": 6, "straight_flush": 8},
        "back": {"four_of_a_kind": 4, "straight_flush": 6},
    },
    "none": {"front": {}, "middle": {}, "back": {}},
}

DEFAULT_NATURAL_VALUES = {"three_flushes": 3, "three_straights": 3, "six_pairs": 3, "dragon": 13, "clean_dragon": 26}

#: A.10 presets. They never set the house fee (A.11). The western presets leave ``surrender_penalty``
#: at None = half the scoop value (2 under 2-4, 3 under 1-6, A.9), so overriding ``method`` keeps it right.
PRESETS: dict[str, dict[str, Any]] = {
    "western_2_4": {"method": "2-4", "overall_rule": "two_or_more_rows", "wheel_rank": "low", "suit_order": None,
                    "royalty_table": "standard", "royalty_mode": "row_winner_only", "surrender_penalty": None,
                    "naturals_enabled": True},
    "western_1_6": {"method": "1-6", "overall_rule": "two_or_more_rows", "wheel_rank": "low", "suit_order": None,
                    "royalty_table": "standard", "royalty_mode": "row_winner_only", "surrender_penalty": None,
                    "naturals_enabled": True},
    # capsa_susun_id: 1-1-1 with shooting x2 (so the scoop value S is 6 and half of it, 3, is the
    # surrender penalty), suits SHCD, naturals on incl. clean (royal) dragon > dragon.
    "capsa_susun_id": {"method": "1-1-1", "scoop_multiplier": 2, "home_run_multiplier": None, "suit_order": "SHCD",
                       "wheel_rank": "low", "naturals_enabled": True},
    # pusoy_ph: 1-1-1, equal rows allowed, no suit tiebreak. Half the 1-1-1 scoop (1.5) is not a whole
    # unit, so the preset turns surrender off [decision]; a house that allows it sets surrender_penalty.
    "pusoy_ph": {"method": "1-1-1", "allow_equal_rows": True, "suit_order": None, "surrender_enabled": False,
                 "naturals_enabled": True},
}
BANKED_PRESETS = ("malaya_dobree",)


@dataclass(frozen=True)
class CapsaConfig:
    """A validated Capsa config (A.12). Money in int cents; ``fee_rate`` a ``Decimal`` fraction.

    ``pair_stakes`` is a sorted tuple of ``((seat_a, seat_b), cents)`` with ``seat_a < seat_b``;
    ``royalty_table`` a tuple of ``(row, ((hand, units), ...))``; ``natural_values`` a tuple of
    ``(name, units)``. Use :meth:`stake`, :meth:`royalty_for`, :meth:`natural_value` to read them.
    """

    preset: str = "western_2_4"
    max_loss_policy: str = "table_stakes_pro_rata"
    cover_units: int = 10
    method: str = "2-4"
    overall_rule: str = "two_or_more_rows"
    scoop_multiplier: int | None = None
    home_run_multiplier: int | None = None
    wheel_rank: str = "low"
    suit_order: str | None = None
    flush_compare: str = "ranks_then_suit"
    allow_equal_rows: bool = True
    setting_time_limit_s: int | None = None
    unset_on_timeout_is_foul: bool = True
    misdeal_on_exposed_card: bool = True
    royalty_table: tuple[Any, ...] = ()
    royalty_mode: str = "row_winner_only"
    royalties_require_declaration: bool = False
    royalties_multiplied: bool = False
    one_royalty_per_hand: bool = False
    foul_pays_opponent_royalties: bool = True
    surrender_enabled: bool = True
    surrender_penalty: int | None = None
    naturals_enabled: bool = True
    natural_declaration: str = "auto"
    natural_precedence: tuple[str, ...] = NATURALS
    natural_values: tuple[tuple[str, int], ...] = tuple(DEFAULT_NATURAL_VALUES.items())
    six_pairs_definition: str = "strict"
    six_pairs_compare_singleton: bool = False
    natural_payout: str = "fixed"
    natural_vs_natural: str = "winner_value"
    unit_value: int | None = None
    pair_stakes: tuple[tuple[tuple[int, int], int], ...] = ()
    fee_mode: str = "commission"
    fee_rate: Decimal = Decimal("0.05")
    fee_cap_per_deal: int | None = None
    fee_per_seat: int | None = None
    fee_time_amount: int | None = None
    fee_time_period_minutes: int = 30

    # ---- derived values -------------------------------------------------------------------------
    @property
    def scoop_value(self) -> int:
        """S of A.9: the method's score for three rows won, times ``scoop_multiplier`` if set."""
        base = {"1-1-1": 3, "2-4": 4, "1-6": 6, "1-4": 4, "majority": 1}[self.method]
        return base * (self.scoop_multiplier or 1)

    @property
    def effective_surrender_penalty(self) -> int:
        """P of A.9: ``surrender_penalty`` or half the scoop value (validated to be whole)."""
        if self.surrender_penalty is not None:
            return self.surrender_penalty
        return self.scoop_value // 2

    def stake(self, a: int, b: int) -> int:
        """Unit value in cents between seats ``a`` and ``b`` (A.6): ``pair_stakes`` or ``unit_value``.

        Raises :class:`ConfigError` (``unit_value``) when neither is set.
        """
        pair = (min(a, b), max(a, b))
        for key, cents in self.pair_stakes:
            if key == pair:
                return cents
        if self.unit_value is None:
            raise ConfigError("unit_value", gettext_noop("is required (the money value of one unit, A.6)"))
        return self.unit_value

    def royalty_for(self, row: str, hand: str, category: int) -> int:
        """Royalty units of a row whose hand is ``hand`` (category name or ``royal_flush``) (A.7)."""
        table = dict(dict(self.royalty_table).get(row, ()))
        if not table:
            return 0
        order = list(CATEGORY_NAMES) + ["royal_flush"]
        made = order.index(hand) if hand == "royal_flush" else category
        best = None
        for name in table:
            level = order.index(name)
            if level <= made and (best is None or level > order.index(best)):
                best = name
        return table[best] if best is not None else 0

    def natural_value(self, name: str) -> int:
        """V of a natural (A.8)."""
        return dict(self.natural_values)[name]

    @property
    def suit_strength(self) -> dict[int, int] | None:
        return parse_suit_order(self.suit_order)


# ------------------------------------------------------------------------------------------------------
# building
# ------------------------------------------------------------------------------------------------------

def _choice(raw: Mapping[str, Any], key: str, options: tuple[Any, ...], default: Any) -> Any:
    value = raw.get(key, default)
    if value not in options:
        raise ConfigError(key, gettext_noop("%(value)s is not allowed; expected one of %(options)s", value=repr(value), options=', '.join(map(str, options))))
    return value


def _bool(raw: Mapping[str, Any], key: str, default: bool) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise ConfigError(key, gettext_noop("%(value)s is not true or false", value=repr(value)))
    return value


#: The largest unit count a config may name (royalties, natural values, penalties, multipliers, cover):
#: far above any published table (A.7, A.8), low enough that units x stake stays a sane amount of money.
MAX_UNITS = 1000
#: The longest setting timer accepted, in seconds (A.5 step 3).
MAX_SETTING_TIME_S = 3600
_WHOLE = re.compile(r"-?[0-9]{1,9}")


def _int(raw: Mapping[str, Any], key: str, default: int | None, *, minimum: int = 0, maximum: int = MAX_UNITS,
         nullable: bool = False) -> int | None:
    value = raw.get(key, default)
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
            value = int(value.strip())
        else:
            shown = value if not isinstance(value, str) or len(value) <= 20 else value[:20] + "..."
            raise ConfigError(key, gettext_noop("%(shown)s is not a whole number", shown=repr(shown)))
    if value < minimum:
        raise ConfigError(key, gettext_noop("%(value)s is below the minimum %(minimum)s", value=value, minimum=minimum))
    if value > maximum:
        raise ConfigError(key, gettext_noop("%(value)s is above the maximum %(maximum)s", value=value, maximum=maximum))
    return value


def _money(raw: Mapping[str, Any], key: str, *, required: bool = False) -> int | None:
    value = raw.get(key)
    if value is None:
        if required:
            raise ConfigError(key, gettext_noop("is required"))
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    return config_cents(value, key)


def parse_pair_key(key: Any, *, field: str = "pair_stakes") -> tuple[int, int]:
    """``"1-2"`` / ``"1,2"`` / ``(1, 2)`` -> ``(1, 2)`` (sorted). Raises :class:`ConfigError`."""
    if isinstance(key, str):
        parts = [p.strip() for p in key.replace(",", "-").split("-")]
    elif isinstance(key, (tuple, list, frozenset, set)):
        parts = [str(p).strip() for p in key]
    else:
        parts = []
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
        raise ConfigError(field, gettext_noop("pair key %(key)s must be two seat numbers such as \"1-2\"", key=repr(key)))
    a, b = int(parts[0]), int(parts[1])
    if a == b:
        raise ConfigError(field, gettext_noop("pair key %(key)s names the same seat twice", key=repr(key)))
    return (min(a, b), max(a, b))


def _royalty_table(value: Any) -> tuple[Any, ...]:
    if isinstance(value, str):
        if value not in ROYALTY_TABLES:
            raise ConfigError("royalty_table", gettext_noop("unknown table %(value)s; expected one of %(royalty_tables)s or a mapping row -> hand -> units", value=repr(value), royalty_tables=', '.join(ROYALTY_TABLES)))
        value = ROYALTY_TABLES[value]
    if not isinstance(value, Mapping):
        raise ConfigError("royalty_table", gettext_noop("must be a table name or a mapping row -> {hand: units}"))
    out = []
    for row, entries in value.items():
        if row not in ROWS:
            raise ConfigError("royalty_table", gettext_noop("unknown row %(row)s; rows are front, middle, back", row=repr(row)))
        if not isinstance(entries, Mapping):
            raise ConfigError("royalty_table", gettext_noop("row %(row)s must map hands to units", row=repr(row)))
        items = []
        for hand, units in entries.items():
            if hand not in ROYALTY_HANDS:
                raise ConfigError("royalty_table", gettext_noop("unknown hand %(hand)s in the %(row)s", hand=repr(hand), row=row))
            if row == "front" and hand not in ("pair", "three_of_a_kind"):
                raise ConfigError("royalty_table", gettext_noop("a front of three cards cannot make %(hand)s", hand=hand))
            if isinstance(units, bool) or not isinstance(units, int) or not 0 <= units <= MAX_UNITS:
                raise ConfigError("royalty_table", gettext_noop("%(row)s %(hand)s: %(units)s is not a whole number of units from 0 to %(max_units)s", row=row, hand=hand, units=repr(units), max_units=MAX_UNITS))
            items.append((hand, units))
        out.append((row, tuple(sorted(items, key=lambda hv: ROYALTY_HANDS.index(hv[0])))))
    return tuple(sorted(out, key=lambda rv: ROWS.index(rv[0])))


def build_config(raw: Mapping[str, Any] | None, *, require_unit_value: bool = True) -> CapsaConfig:
    """Build and validate a :class:`CapsaConfig` from the spec's keys (A.12) and a ``preset`` (A.10).

    ``unit_value`` is required (EUR string) unless ``require_unit_value=False`` (the showdown tool,
    which reports units and adds money only when stakes are given). Raises :class:`ConfigError` whose
    ``field`` names the bad key: unknown key, value outside its options, a surrender penalty needed
    but missing (A.9), a fee amount missing for its mode (A.11), the banked ``malaya_dobree`` preset.
    """
    if raw is not None and not isinstance(raw, Mapping):
        raise ConfigError("config", gettext_noop("must be an object of Capsa Susun keys (A.12)"))
    raw = dict(raw or {})
    known = {f.name for f in fields(CapsaConfig)}
    for key in raw:
        if key not in known:
            raise ConfigError(str(key), gettext_noop("is not a Capsa Susun config key (A.12)"))
    preset = raw.get("preset", "western_2_4")
    if preset in BANKED_PRESETS:
        raise ConfigError("preset", gettext_noop("%(preset)s is a house-banked game and is out of scope (A.10)", preset=preset))
    if preset not in PRESETS:
        raise ConfigError("preset", gettext_noop("unknown preset %(preset)s; expected one of %(presets)s", preset=repr(preset), presets=', '.join(PRESETS)))
    merged = {**PRESETS[preset], **raw}

    method = _choice(merged, "method", METHODS, "2-4")
    scoop_multiplier = _int(merged, "scoop_multiplier", None, minimum=1, nullable=True)
    home_run_multiplier = _int(merged, "home_run_multiplier", None, minimum=1, nullable=True)
    suit_order = merged.get("suit_order")
    if suit_order is not None:
        try:
            parse_suit_order(suit_order)
        except ValueError as exc:
            raise ConfigError("suit_order", str(exc)) from None
        suit_order = str(suit_order).upper()
    flush_compare = _choice(merged, "flush_compare", FLUSH_COMPARES, "ranks_then_suit")
    if flush_compare == "suit_first" and suit_order is None:
        raise ConfigError("flush_compare", gettext_noop("suit_first needs a suit_order such as 'SHCD' (A.3)"))

    precedence = merged.get("natural_precedence", NATURALS)
    if not isinstance(precedence, list | tuple) or not all(isinstance(n, str) for n in precedence):
        raise ConfigError("natural_precedence", gettext_noop("must be a list of natural names, lowest first"))
    precedence = tuple(precedence)
    for name in precedence:
        if name not in NATURALS:
            raise ConfigError("natural_precedence", gettext_noop("unknown natural %(name)s; known: %(naturals)s", name=repr(name), naturals=', '.join(NATURALS)))
    if len(set(precedence)) != len(precedence):
        raise ConfigError("natural_precedence", gettext_noop("names a natural twice"))
    values_raw = merged.get("natural_values", DEFAULT_NATURAL_VALUES)
    if not isinstance(values_raw, Mapping):
        raise ConfigError("natural_values", gettext_noop("must map natural names to units"))
    values = {**DEFAULT_NATURAL_VALUES, **dict(values_raw)}
    for name, units in values.items():
        if name not in NATURALS:
            raise ConfigError("natural_values", gettext_noop("unknown natural %(name)s", name=repr(name)))
        if isinstance(units, bool) or not isinstance(units, int) or not 0 <= units <= MAX_UNITS:
            raise ConfigError("natural_values", gettext_noop("%(name)s: %(units)s is not a whole number of units from 0 to %(max_units)s", name=name, units=repr(units), max_units=MAX_UNITS))

    pair_raw = merged.get("pair_stakes") or {}
    if not isinstance(pair_raw, Mapping):
        raise ConfigError("pair_stakes", gettext_noop("must map seat pairs such as \"1-2\" to a unit value"))
    pairs: dict[tuple[int, int], int] = {}
    for key, amount in pair_raw.items():
        pair = parse_pair_key(key)
        if pair in pairs:
            raise ConfigError("pair_stakes", gettext_noop("the pair %(pair)s-%(pair2)s is given twice", pair=pair[0], pair2=pair[1]))
        cents = _money({"pair_stakes": amount}, "pair_stakes")
        if not cents:
            raise ConfigError("pair_stakes", gettext_noop("the pair %(pair)s-%(pair2)s needs a positive unit value", pair=pair[0], pair2=pair[1]))
        pairs[pair] = cents

    unit_value = _money(merged, "unit_value", required=require_unit_value)
    if unit_value == 0:
        raise ConfigError("unit_value", gettext_noop("must be positive"))

    fee_rate_raw = merged.get("fee_rate", "0.05")
    if isinstance(fee_rate_raw, float) or isinstance(fee_rate_raw, bool):
        raise ConfigError("fee_rate", gettext_noop("send the rate as a decimal string such as \"0.05\""))
    try:
        fee_rate = Decimal(str(fee_rate_raw))
    except InvalidOperation:
        raise ConfigError("fee_rate", gettext_noop("%(fee_rate_raw)s is not a number", fee_rate_raw=repr(fee_rate_raw))) from None
    if not fee_rate.is_finite() or not (0 <= fee_rate < 1):
        raise ConfigError("fee_rate", gettext_noop("must be a fraction from 0 to below 1, e.g. 0.05"))
    fee_mode = _choice(merged, "fee_mode", FEE_MODES, "commission")

    config = CapsaConfig(
        preset=preset,
        max_loss_policy=_choice(merged, "max_loss_policy", MAX_LOSS_POLICIES, "table_stakes_pro_rata"),
        cover_units=_int(merged, "cover_units", 10, minimum=1) or 10,
        method=method,
        overall_rule=_choice(merged, "overall_rule", OVERALL_RULES, "two_or_more_rows"),
        scoop_multiplier=scoop_multiplier,
        home_run_multiplier=home_run_multiplier,
        wheel_rank=_choice(merged, "wheel_rank", WHEEL_RANKS, "low"),
        suit_order=suit_order,
        flush_compare=flush_compare,
        allow_equal_rows=_bool(merged, "allow_equal_rows", True),
        setting_time_limit_s=_int(merged, "setting_time_limit_s", None, minimum=1, maximum=MAX_SETTING_TIME_S,
                                  nullable=True),
        unset_on_timeout_is_foul=_bool(merged, "unset_on_timeout_is_foul", True),
        misdeal_on_exposed_card=_bool(merged, "misdeal_on_exposed_card", True),
        royalty_table=_royalty_table(merged.get("royalty_table", "standard")),
        royalty_mode=_choice(merged, "royalty_mode", ROYALTY_MODES, "row_winner_only"),
        royalties_require_declaration=_bool(merged, "royalties_require_declaration", False),
        royalties_multiplied=_bool(merged, "royalties_multiplied", False),
        one_royalty_per_hand=_bool(merged, "one_royalty_per_hand", False),
        foul_pays_opponent_royalties=_bool(merged, "foul_pays_opponent_royalties", True),
        surrender_enabled=_bool(merged, "surrender_enabled", True),
        surrender_penalty=_int(merged, "surrender_penalty", None, minimum=0, nullable=True),
        naturals_enabled=_bool(merged, "naturals_enabled", True),
        natural_declaration=_choice(merged, "natural_declaration", NATURAL_DECLARATIONS, "auto"),
        natural_precedence=precedence,
        natural_values=tuple((n, values[n]) for n in NATURALS),
        six_pairs_definition=_choice(merged, "six_pairs_definition", SIX_PAIRS_DEFINITIONS, "strict"),
        six_pairs_compare_singleton=_bool(merged, "six_pairs_compare_singleton", False),
        natural_payout=_choice(merged, "natural_payout", NATURAL_PAYOUTS, "fixed"),
        natural_vs_natural=_choice(merged, "natural_vs_natural", NATURAL_VS_NATURAL, "winner_value"),
        unit_value=unit_value,
        pair_stakes=tuple(sorted(pairs.items())),
        fee_mode=fee_mode,
        fee_rate=fee_rate,
        fee_cap_per_deal=_money(merged, "fee_cap_per_deal"),
        fee_per_seat=_money(merged, "fee_per_seat", required=fee_mode == "per_seat"),
        fee_time_amount=_money(merged, "fee_time_amount", required=fee_mode == "time"),
        fee_time_period_minutes=_int(merged, "fee_time_period_minutes", 30, minimum=1, maximum=24 * 60) or 30,
    )
    if config.surrender_enabled and config.surrender_penalty is None and config.scoop_value % 2:
        raise ConfigError("surrender_penalty", gettext_noop("half the scoop value of method %(method)s (%(scoop_value)s/2) is not a whole unit; set surrender_penalty (A.9)", method=method, scoop_value=config.scoop_value))
    return config


def config_to_dict(config: CapsaConfig) -> dict[str, Any]:
    """The JSON-able raw form of ``config`` with every key explicit (money as EUR strings)."""
    out: dict[str, Any] = {}
    for f in fields(CapsaConfig):
        value = getattr(config, f.name)
        if f.name in ("unit_value", "fee_cap_per_deal", "fee_per_seat", "fee_time_amount"):
            value = None if value is None else str(from_cents(value))
        elif f.name == "pair_stakes":
            value = {f"{a}-{b}": str(from_cents(c)) for (a, b), c in value}
        elif f.name == "royalty_table":
            value = {row: dict(entries) for row, entries in value}
        elif f.name == "natural_values":
            value = dict(value)
        elif f.name == "natural_precedence":
            value = list(value)
        elif f.name == "fee_rate":
            value = str(value)
        out[f.name] = value
    return out
