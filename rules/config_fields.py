"""What each game's configuration key means: label, unit, default, allowed values, help, rule number.

Long module: about four fifths of it is the declarative table of every game's keys (one
:class:`ConfigField` per key, grouped by game and section, next to its spec rule), read as one reference
beside the specs and the German catalogue; the code around it (the dataclass and three lookups) is about a
hundred lines. Split per game, each table would import the shared section names and :class:`ConfigField`
from here while this module imported the tables back for its list of games.

Pure Python (no Django): the floor's limit forms and the admin are generated from this description
(DESIGN.md "The config also describes itself"). Defaults and allowed values are **derived** from the
engine config modules (``rules/engines/*_config.py``), so they cannot drift from what the engines
accept; only the words (label, help) and the rule numbers are written here.

Labels, help texts and choice labels are English source strings marked with :func:`gettext_noop`
(a no-op here): Django's ``makemessages`` extracts them, and the edge translates them with
``gettext`` when it renders a form.

Usage::

    for field in config_fields("forty_one"):
        field.key, field.kind, field.unit, field.default, field.choices, field.required, field.rule

``kind`` is one of :data:`KINDS`; money values (``"money"``, ``"money_pair"``) are EUR decimal strings,
as in a limit profile's ``config``.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields, replace
from typing import Any

from rules.engines import capsa_config, forty_one_config, stud_config
from rules.engines.evaluators import capsa as capsa_eval

__all__ = ["ConfigField", "KINDS", "config_fields", "config_field", "gettext_noop", "GAMES_DESCRIBED",
           "values_with_defaults"]


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation without translating it (the name ``makemessages`` looks for)."""
    return message


#: ``money`` (EUR string), ``money_pair`` (two EUR strings: lower/upper), ``per_street`` (one EUR amount
#: or five, streets 3 to 7), ``percent`` (``"5"`` = 5 %), ``fraction`` (``"0.05"`` = 5 %), ``int``,
#: ``bool``, ``choice`` (one of ``choices``), ``text``, ``structured`` (a table or list kept as it is;
#: not edited by the generated forms).
KINDS = ("money", "money_pair", "per_street", "percent", "fraction", "int", "bool", "choice", "text", "structured")


@dataclass(frozen=True)
class ConfigField:
    """One configuration key of one game.

    ``default``: the raw (JSON) value the engine assumes when the key is absent; ``None`` with
    ``required=True`` means the house must set it (no default in code). ``required_when``: the key is
    required only while another key has one of these values, e.g. ``(("taxe_mode", ("flat",)),)``.
    ``shown_when``: the key matters only under these values (forms may hide it otherwise).
    ``minimum``/``maximum`` bound ``int`` keys (inclusive). ``choice_labels`` maps each allowed value
    to a marked label. ``rule``: the spec rule, e.g. ``"R6.2"``, ``"B.5"``.
    """

    key: str
    kind: str
    label: str
    help: str
    rule: str
    unit: str = ""
    default: Any = None
    required: bool = False
    choices: tuple[Any, ...] = ()
    choice_labels: tuple[tuple[Any, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    required_when: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    shown_when: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    section: str = ""
    advanced: bool = False

    def label_of(self, value: Any) -> str:
        """The (untranslated, marked) label of one allowed value; the value itself if it has none."""
        return str(dict(self.choice_labels).get(value, str(value)))

    def is_required(self, values: dict[str, Any]) -> bool:
        """Whether the key must be given, for the raw ``values`` of the other keys (defaults filled in,
        see :func:`values_with_defaults`)."""
        return self.required or any(values.get(other) in allowed for other, allowed in self.required_when)

    def is_shown(self, values: dict[str, Any]) -> bool:
        """Whether the key matters for the raw ``values`` of the other keys (always without ``shown_when``)."""
        return all(values.get(other) in allowed for other, allowed in self.shown_when)


# Sections (marked once, used by all games).
S_LIMITS = gettext_noop("Limits and forced bets")
S_BETTING = gettext_noop("Betting")
S_TAX = gettext_noop("Tax and fees")
S_SHOWDOWN = gettext_noop("Showing down and ranking")
S_DEALING = gettext_noop("Dealing")
S_SCORING = gettext_noop("Scoring")

_ON = gettext_noop("on")
_UNITS = gettext_noop("units")
_OFF = gettext_noop("off")


# --------------------------------------------------------------------------------------------------
# Seven Card Stud (spec §13)
# --------------------------------------------------------------------------------------------------

def _stud() -> tuple[ConfigField, ...]:
    c = stud_config.CHOICES
    b = stud_config.BOOLEANS

    def choice(key: str, label: str, help_: str, rule: str, labels: tuple[str, ...], section: str,
               **kw: Any) -> ConfigField:
        return ConfigField(key=key, kind="choice", label=label, help=help_, rule=rule, default=c[key][0],
                           choices=c[key], choice_labels=tuple(zip(c[key], labels)), section=section, **kw)

    def boolean(key: str, label: str, help_: str, rule: str, section: str, **kw: Any) -> ConfigField:
        return ConfigField(key=key, kind="bool", label=label, help=help_, rule=rule, default=b[key],
                           section=section, **kw)

    split = (("limit_type", ("split",)),)
    spread = (("limit_type", ("spread",)),)
    return (
        choice("limit_type", gettext_noop("Limit type"),
               gettext_noop("Split limit: fixed bets, the lower limit on 3rd and 4th street, the higher from 5th. "
                            "Spread limit: any bet between a minimum and a maximum."),
               "R3.1", (gettext_noop("split limit"), gettext_noop("spread limit")), S_LIMITS),
        ConfigField(key="lower", kind="money", label=gettext_noop("Lower limit"), unit="EUR",
                    help=gettext_noop("Bet and raise size on 3rd and 4th street (L)."), rule="R3.1",
                    required_when=split, shown_when=split, section=S_LIMITS),
        ConfigField(key="higher", kind="money", label=gettext_noop("Higher limit"), unit="EUR",
                    help=gettext_noop("Bet and raise size from 5th street on (H); at least the lower limit."),
                    rule="R3.1", required_when=split, shown_when=split, section=S_LIMITS),
        ConfigField(key="spread_min", kind="per_street", label=gettext_noop("Spread minimum"), unit="EUR",
                    help=gettext_noop("Smallest bet or raise; one amount, or five for streets 3 to 7."),
                    rule="R7.1", required_when=spread, shown_when=spread, section=S_LIMITS),
        ConfigField(key="spread_max", kind="per_street", label=gettext_noop("Spread maximum"), unit="EUR",
                    help=gettext_noop("Largest bet or raise; one amount, or five for streets 3 to 7."),
                    rule="R7.1", required_when=spread, shown_when=spread, section=S_LIMITS),
        ConfigField(key="ante", kind="money", label=gettext_noop("Ante"), unit="EUR", required=True,
                    help=gettext_noop("Paid by every player before the deal; set per limit level."), rule="R3.3",
                    section=S_LIMITS),
        boolean("ante_trimming", gettext_noop("Trim unequal antes"),
                gettext_noop("A short ante makes the others' antes above it a side pot."), "R10.4", S_LIMITS,
                advanced=True),
        choice("bring_in_mode", gettext_noop("Bring-in"),
               gettext_noop("Full bet: the bring-in equals the lower limit and opens the betting. Partial: a "
                            "smaller bring-in that may be completed to the lower limit."),
               "R4.2", (gettext_noop("full bet (house)"), gettext_noop("partial, with completion")), S_LIMITS),
        ConfigField(key="bring_in", kind="money", label=gettext_noop("Bring-in amount"), unit="EUR",
                    help=gettext_noop("Only for a partial bring-in: more than 0 and less than the lower limit."),
                    rule="R4.6", required_when=(("bring_in_mode", ("partial_with_completion",)),),
                    shown_when=(("bring_in_mode", ("partial_with_completion",)),), section=S_LIMITS),
        boolean("bring_in_may_fold", gettext_noop("Bring-in may fold"),
                gettext_noop("Whether the player with the low card may fold instead of bringing in."), "R4.2",
                S_BETTING, advanced=True),
        choice("short_bring_in", gettext_noop("Short bring-in"),
               gettext_noop("What the others must do when the bring-in is all-in for less."), "R10.3",
               (gettext_noop("complete to the lower limit"), gettext_noop("half-bet rule")), S_BETTING,
               advanced=True),
        boolean("spread_bring_in_may_exceed_min", gettext_noop("Spread bring-in above minimum"),
                gettext_noop("Under spread limit, whether the bring-in may be more than the minimum."), "R7.4",
                S_BETTING, advanced=True, shown_when=spread),
        ConfigField(key="raise_cap", kind="int", label=gettext_noop("Raises per round"), unit=gettext_noop("raises"),
                    help=gettext_noop("Raises allowed after the bet in one betting round."), rule="R6.2",
                    default=3, minimum=0, maximum=100, section=S_BETTING),
        boolean("uncap_heads_up", gettext_noop("No cap heads-up"),
                gettext_noop("Remove the raise cap when only two players are left."), "R6.2", S_BETTING,
                advanced=True),
        choice("open_pair_option", gettext_noop("Open pair on 4th street"),
               gettext_noop("On: an open pair on 4th street allows a bet of the higher limit."), "R6.4",
               (_ON, _OFF), S_BETTING),
        choice("open_pair_scope", gettext_noop("Who may bet the higher limit"),
               gettext_noop("Any player once a pair shows, or only the player showing it."), "R6.4",
               (gettext_noop("any player"), gettext_noop("the paired player only")), S_BETTING, advanced=True),
        choice("open_pair_check", gettext_noop("When the open pair counts"),
               gettext_noop("At the deal of 4th street, or while the pair is showing."), "R6.4",
               (gettext_noop("at the deal"), gettext_noop("while showing")), S_BETTING, advanced=True),
        choice("high_board_tiebreak", gettext_noop("Equal high boards"),
               gettext_noop("Who acts first when two boards are equal: the first by position, or by suit."),
               "R5.3", (gettext_noop("by position"), gettext_noop("by suit")), S_SHOWDOWN, advanced=True),
        boolean("board_counts_straights_flushes", gettext_noop("Boards count straights and flushes"),
                gettext_noop("Whether four up cards to a straight or flush count when ranking boards."), "R5.2",
                S_SHOWDOWN, advanced=True),
        choice("allin_high_board_opener", gettext_noop("High board all-in"),
               gettext_noop("Who opens when the high board is all-in."), "R5.4",
               (gettext_noop("next clockwise"), gettext_noop("next highest board")), S_BETTING, advanced=True),
        choice("short_allin_rule", gettext_noop("Short all-in"),
               gettext_noop("An all-in raise of at least half a bet reopens the betting (half-bet), or only a "
                            "full bet does."), "R6.5", (gettext_noop("half bet"), gettext_noop("full bet")),
               S_BETTING, advanced=True),
        choice("spread_min_raise", gettext_noop("Spread minimum raise"),
               gettext_noop("Under spread limit: any raise from the table minimum, or at least the previous "
                            "increment."), "R7.2", (gettext_noop("table minimum"), gettext_noop("previous increment")),
               S_BETTING, advanced=True, shown_when=spread),
        boolean("spread_short_allin_reopens", gettext_noop("Short all-in reopens (spread)"),
                gettext_noop("Under spread limit, whether a short all-in raise reopens the betting."), "R7.5",
                S_BETTING, advanced=True, shown_when=spread),
        choice("taxe_mode", gettext_noop("Taxe"),
               gettext_noop("A flat Taxe per hand, or a percentage of the pot up to a cap."), "R8.3",
               (gettext_noop("flat"), gettext_noop("percent with cap")), S_TAX),
        ConfigField(key="taxe_amount", kind="money", label=gettext_noop("Taxe amount"), unit="EUR",
                    help=gettext_noop("The flat Taxe taken from the pot on 4th street; set per limit level."),
                    rule="R8.3", required_when=(("taxe_mode", ("flat",)),), shown_when=(("taxe_mode", ("flat",)),),
                    section=S_TAX),
        ConfigField(key="taxe_percent", kind="percent", label=gettext_noop("Taxe percentage"), unit="%",
                    help=gettext_noop("Percentage of the pot, from 0 to 100."), rule="R8.3",
                    required_when=(("taxe_mode", ("percent_with_cap",)),),
                    shown_when=(("taxe_mode", ("percent_with_cap",)),), section=S_TAX),
        ConfigField(key="taxe_cap", kind="money", label=gettext_noop("Taxe cap"), unit="EUR",
                    help=gettext_noop("The most Taxe one hand pays."), rule="R8.3",
                    required_when=(("taxe_mode", ("percent_with_cap",)),),
                    shown_when=(("taxe_mode", ("percent_with_cap",)),), section=S_TAX),
        choice("taxe_from", gettext_noop("Taxe taken from"),
               gettext_noop("From the main pot, or pro rata from every pot."), "R8.3",
               (gettext_noop("the main pot"), gettext_noop("pro rata")), S_TAX, advanced=True),
        boolean("burn_before_first_deal", gettext_noop("Burn before the first deal"),
                gettext_noop("Burn a card before the first cards are dealt."), "R1.3", S_DEALING, advanced=True),
        choice("out_of_cards_policy", gettext_noop("Out of cards"),
               gettext_noop("When the deck runs out on 7th street: one community card, or reshuffle the burns."),
               "R9.3", (gettext_noop("community card"), gettext_noop("reshuffle (RRoP)")), S_DEALING, advanced=True),
        boolean("use_last_card", gettext_noop("Deal the last card"),
                gettext_noop("Whether the last card of the deck may be dealt."), "R9.2", S_DEALING, advanced=True),
        choice("odd_chip_rule", gettext_noop("Odd chip"),
               gettext_noop("Who gets the odd chip of a split pot."), "R11.3",
               (gettext_noop("high card by suit"), gettext_noop("first left of the dealer")), S_SHOWDOWN,
               advanced=True),
        ConfigField(key="chip_unit", kind="money", label=gettext_noop("Smallest chip"), unit="EUR", default="1.00",
                    help=gettext_noop("The smallest chip in play; odd amounts are split in this unit."), rule="R11.3",
                    section=S_LIMITS, advanced=True),
    )


# --------------------------------------------------------------------------------------------------
# Forty-one (spec B.9)
# --------------------------------------------------------------------------------------------------

def _forty_one() -> tuple[ConfigField, ...]:
    defaults: dict[str, Any] = {f.name: (f.default if f.default is not MISSING else None)
                                for f in fields(forty_one_config.FortyOneConfig)}
    ch = forty_one_config._CHOICES

    def choice(key: str, label: str, help_: str, rule: str, labels: tuple[str, ...], section: str,
               **kw: Any) -> ConfigField:
        return ConfigField(key=key, kind="choice", label=label, help=help_, rule=rule, default=defaults[key],
                           choices=ch[key], choice_labels=tuple(zip(ch[key], labels)), section=section, **kw)

    def boolean(key: str, label: str, help_: str, rule: str, section: str, **kw: Any) -> ConfigField:
        return ConfigField(key=key, kind="bool", label=label, help=help_, rule=rule, default=defaults[key],
                           section=section, **kw)

    return (
        ConfigField(key="limits", kind="money_pair", label=gettext_noop("Limits (lower / upper)"), unit="EUR",
                    required=True, help=gettext_noop("The two bet sizes of the table, e.g. 5.00 / 10.00."),
                    rule="B.2", section=S_LIMITS),
        ConfigField(key="ante", kind="money", label=gettext_noop("Ante"), unit="EUR", required=True,
                    help=gettext_noop("Paid by every player before the deal; set per limit level."), rule="B.4",
                    section=S_LIMITS),
        choice("deck", gettext_noop("Deck"), gettext_noop("French (32 cards) or double German cards."), "B.2",
               (gettext_noop("French"), gettext_noop("double German")), S_DEALING, advanced=True),
        ConfigField(key="min_players", kind="int", label=gettext_noop("Fewest players"), unit=gettext_noop("players"),
                    default=defaults["min_players"], minimum=2, maximum=forty_one_config.MAX_SEATS,
                    help=gettext_noop("A hand needs at least this many players."), rule="B.2", section=S_DEALING,
                    advanced=True),
        ConfigField(key="max_players", kind="int", label=gettext_noop("Most players"), unit=gettext_noop("players"),
                    default=defaults["max_players"], minimum=2, maximum=forty_one_config.MAX_SEATS,
                    help=gettext_noop("At most 7: 7 players x 4 cards of 32."), rule="B.2", section=S_DEALING,
                    advanced=True),
        boolean("forehand_post_live", gettext_noop("Forehand's post is live"),
                gettext_noop("Whether the forehand's post counts towards a call (live) or is dead money."), "B.4",
                S_BETTING, advanced=True),
        choice("short_forehand_blind", gettext_noop("Short forehand post"),
               gettext_noop("When the forehand posts less than a full bet: the others call the full bet or the "
                            "short amount."), "B.4a", (gettext_noop("call the full bet"), gettext_noop("call short")),
               S_BETTING, advanced=True),
        choice("short_allin_rule", gettext_noop("Short all-in"),
               gettext_noop("An all-in raise of at least half a bet reopens the betting (half-bet), or only a "
                            "full bet does."), "B.4a", (gettext_noop("half bet"), gettext_noop("full bet")), S_BETTING,
               advanced=True),
        ConfigField(key="round_bet_sizes", kind="structured", label=gettext_noop("Bet sizes per round"),
                    default=list(defaults["round_bet_sizes"]),
                    help=gettext_noop("Which limit each of the two betting rounds uses."), rule="B.4",
                    section=S_BETTING, advanced=True),
        boolean("round2_check_allowed", gettext_noop("Check in round 2"),
                gettext_noop("Whether players may check in the second betting round."), "B.4", S_BETTING,
                advanced=True),
        choice("round2_first_to_act", gettext_noop("First to act in round 2"),
               gettext_noop("Who acts first in the second betting round."), "B.4",
               (gettext_noop("left of the forehand"),), S_BETTING, advanced=True),
        choice("exposure_order", gettext_noop("Showing the hands"),
               gettext_noop("All players show at once, or in turn."), "B.4",
               (gettext_noop("all at once"), gettext_noop("in turn")), S_SHOWDOWN, advanced=True),
        ConfigField(key="max_raises_per_round", kind="int", label=gettext_noop("Raises per round"),
                    unit=gettext_noop("raises"), default=defaults["max_raises_per_round"], minimum=0, maximum=100,
                    help=gettext_noop("Raises allowed in one betting round."), rule="B.4", section=S_BETTING),
        ConfigField(key="raise_cap_heads_up", kind="int", label=gettext_noop("Raises heads-up"),
                    unit=gettext_noop("raises"), default=defaults["raise_cap_heads_up"], minimum=0, maximum=100,
                    nullable=True, help=gettext_noop("Raises allowed with two players left; empty = no cap."),
                    rule="B.4", section=S_BETTING, advanced=True),
        boolean("uncap_after_cap", gettext_noop("Uncap after the cap"),
                gettext_noop("Whether the cap is lifted once it has been reached."), "B.4", S_BETTING, advanced=True),
        choice("close_mode", gettext_noop("Closing the round"),
               gettext_noop("Standard, or the player right of the raiser closes."), "B.4",
               (gettext_noop("standard"), gettext_noop("raise right")), S_BETTING, advanced=True),
        choice("points_mode", gettext_noop("Points"),
               gettext_noop("Count points by rank or suit (casino), or by suit only."), "B.7",
               (gettext_noop("rank or suit"), gettext_noop("suit only")), S_SHOWDOWN, advanced=True),
        ConfigField(key="category_order", kind="structured", label=gettext_noop("Order of hands"),
                    default=list(defaults["category_order"]),
                    help=gettext_noop("The ranking of the hand categories, best first."), rule="B.7",
                    section=S_SHOWDOWN, advanced=True),
        choice("flush_tiebreak", gettext_noop("Equal flushes"),
               gettext_noop("How two equal four-of-a-suit hands are split: by position, or highest card first."),
               "B.7", (gettext_noop("by position"), gettext_noop("highest card, then position")), S_SHOWDOWN,
               advanced=True),
        ConfigField(key="tax_rate", kind="fraction", label=gettext_noop("Tax rate"), unit="",
                    default=str(defaults["tax_rate"]),
                    help=gettext_noop("Share of each pot taken as tax, as a fraction: 0.05 = 5 %."), rule="B.5",
                    section=S_TAX),
        ConfigField(key="tax_cap", kind="money", label=gettext_noop("Tax cap"), unit="EUR", required=True,
                    help=gettext_noop("The most tax one game pays; set per limit level."), rule="B.5", section=S_TAX),
        ConfigField(key="tax_step", kind="money", label=gettext_noop("Tax step"), unit="EUR", default="0.01",
                    help=gettext_noop("The tax is rounded to a whole number of this amount."), rule="B.5",
                    section=S_TAX, advanced=True),
        choice("tax_rounding", gettext_noop("Tax rounding"),
               gettext_noop("Round the tax down to the step, or half up."), "B.5",
               (gettext_noop("down"), gettext_noop("half up")), S_TAX, advanced=True),
        boolean("tax_uncontested_pots", gettext_noop("Tax uncontested pots"),
                gettext_noop("Whether a pot won without a showdown pays tax."), "B.5", S_TAX, advanced=True),
        boolean("tax_includes_antes", gettext_noop("Tax includes antes"),
                gettext_noop("Whether the antes count towards the taxed pot."), "B.5", S_TAX, advanced=True),
        choice("tax_side_pots", gettext_noop("Tax on side pots"),
               gettext_noop("Each pot pays its own tax (main first) up to the cap, or the total from the main pot."),
               "B.5", (gettext_noop("per pot, main first"), gettext_noop("total, from the main pot")), S_TAX,
               advanced=True),
        ConfigField(key="bonus_41_amount", kind="money", label=gettext_noop("41 bonus"), unit="EUR", required=True,
                    help=gettext_noop("Paid by the house for a 41; set per limit level."), rule="B.6",
                    section=S_SCORING),
        choice("bonus_41_requires", gettext_noop("41 bonus paid when"),
               gettext_noop("Whenever a 41 is shown, only at the showdown, or only when it wins the pot."), "B.6",
               (gettext_noop("shown at any time"), gettext_noop("shown at the showdown"), gettext_noop("it wins the pot")),
               S_SCORING, advanced=True),
        choice("bonus_41_multiple_holders", gettext_noop("Several 41s"),
               gettext_noop("Every holder gets the bonus, or only the pot winner."), "B.6",
               (gettext_noop("every holder"), gettext_noop("the pot winner only")), S_SCORING, advanced=True),
    )


# --------------------------------------------------------------------------------------------------
# Capsa Susun (spec A.12)
# --------------------------------------------------------------------------------------------------

def _capsa() -> tuple[ConfigField, ...]:
    cc = capsa_config
    defaults: dict[str, Any] = {f.name: (f.default if f.default is not MISSING else None) for f in fields(cc.CapsaConfig)}
    preset = cc.PRESETS[defaults["preset"]]

    def default(key: str) -> Any:
        return preset.get(key, defaults[key])

    def choice(key: str, options: Any, label: str, help_: str, rule: str, labels: tuple[str, ...], section: str,
               **kw: Any) -> ConfigField:
        return ConfigField(key=key, kind="choice", label=label, help=help_, rule=rule, default=default(key),
                           choices=tuple(options), choice_labels=tuple(zip(options, labels)), section=section, **kw)

    def boolean(key: str, label: str, help_: str, rule: str, section: str, **kw: Any) -> ConfigField:
        return ConfigField(key=key, kind="bool", label=label, help=help_, rule=rule, default=default(key),
                           section=section, **kw)

    def integer(key: str, label: str, help_: str, rule: str, section: str, unit: str = _UNITS, minimum: int = 0,
                maximum: int = cc.MAX_UNITS, **kw: Any) -> ConfigField:
        return ConfigField(key=key, kind="int", label=label, help=help_, rule=rule, default=default(key), unit=unit,
                           minimum=minimum, maximum=maximum, section=section, **kw)

    commission = (("fee_mode", ("commission",)),)
    return (
        choice("preset", tuple(cc.PRESETS), gettext_noop("Rule set"),
               gettext_noop("A named set of rules; every key set below overrides it."), "A.10",
               (gettext_noop("western 2-4"), gettext_noop("western 1-6"), gettext_noop("Capsa Susun (Indonesia)"),
                gettext_noop("Pusoy (Philippines)")), S_SCORING),
        ConfigField(key="unit_value", kind="money", label=gettext_noop("Unit value"), unit="EUR", required=True,
                    help=gettext_noop("Money value of one scoring unit."), rule="A.6", section=S_LIMITS),
        ConfigField(key="pair_stakes", kind="structured", label=gettext_noop("Stakes per pair of seats"),
                    default={}, help=gettext_noop("A different unit value for some pairs of seats."), rule="A.6",
                    section=S_LIMITS, advanced=True),
        choice("method", cc.METHODS, gettext_noop("Scoring method"),
               gettext_noop("Units paid per row won and for a scoop."), "A.6",
               ("1-1-1", "2-4", "1-6", "1-4", gettext_noop("majority")), S_SCORING),
        choice("overall_rule", cc.OVERALL_RULES, gettext_noop("Overall winner"),
               gettext_noop("Who wins the overall unit between two players."), "A.6",
               (gettext_noop("two or more rows"), gettext_noop("more rows than the opponent"),
                gettext_noop("higher total incl. royalties")), S_SCORING, advanced=True),
        integer("scoop_multiplier", gettext_noop("Scoop multiplier"),
                gettext_noop("Multiplies a scoop (all three rows); empty = none."), "A.6", S_SCORING, unit="",
                minimum=1, nullable=True, advanced=True),
        integer("home_run_multiplier", gettext_noop("Home-run multiplier"),
                gettext_noop("Multiplies a scoop of every opponent; empty = none."), "A.6", S_SCORING, unit="",
                minimum=1, nullable=True, advanced=True),
        choice("max_loss_policy", cc.MAX_LOSS_POLICIES, gettext_noop("Most a player can lose"),
               gettext_noop("Table stakes (paid pro rata), or every player must cover a number of units."), "A.6",
               (gettext_noop("table stakes, pro rata"), gettext_noop("require cover")), S_LIMITS, advanced=True),
        integer("cover_units", gettext_noop("Cover"), gettext_noop("Units a player must cover under 'require cover'."),
                "A.6", S_LIMITS, minimum=1, advanced=True, shown_when=(("max_loss_policy", ("require_cover",)),)),
        choice("wheel_rank", capsa_eval.WHEEL_RANKS, gettext_noop("A-2-3-4-5 straight"),
               gettext_noop("The lowest straight, or the second highest."), "A.3",
               (gettext_noop("lowest"), gettext_noop("second highest")), S_SHOWDOWN, advanced=True),
        ConfigField(key="suit_order", kind="text", label=gettext_noop("Suit order"), default=default("suit_order"),
                    nullable=True, help=gettext_noop("Suits from highest, e.g. SHCD; empty = suits never break ties."),
                    rule="A.3", section=S_SHOWDOWN, advanced=True),
        choice("flush_compare", capsa_eval.FLUSH_COMPARES, gettext_noop("Comparing flushes"),
               gettext_noop("By ranks then suit, or suit first (needs a suit order)."), "A.3",
               (gettext_noop("ranks, then suit"), gettext_noop("suit first")), S_SHOWDOWN, advanced=True),
        boolean("allow_equal_rows", gettext_noop("Equal rows allowed"),
                gettext_noop("Whether a row may equal the row behind it."), "A.4", S_SHOWDOWN, advanced=True),
        integer("setting_time_limit_s", gettext_noop("Time to set the hand"),
                gettext_noop("Seconds allowed to set the 13 cards; empty = no timer."), "A.5", S_DEALING,
                unit=gettext_noop("seconds"), minimum=1, maximum=cc.MAX_SETTING_TIME_S, nullable=True, advanced=True),
        boolean("unset_on_timeout_is_foul", gettext_noop("Unset hand at time-out fouls"),
                gettext_noop("Whether a hand not set in time is a foul."), "A.4", S_DEALING, advanced=True),
        boolean("misdeal_on_exposed_card", gettext_noop("Exposed card is a misdeal"),
                gettext_noop("Whether a card exposed in the deal makes a misdeal."), "A.5", S_DEALING, advanced=True),
        ConfigField(key="royalty_table", kind="choice", label=gettext_noop("Royalty table"),
                    default=default("royalty_table"), choices=tuple(cc.ROYALTY_TABLES),
                    choice_labels=tuple(zip(cc.ROYALTY_TABLES, (gettext_noop("standard (A.7-1)"), "NW", "Dobree",
                                                                gettext_noop("none")))),
                    help=gettext_noop("Bonus units for strong rows."), rule="A.7", section=S_SCORING, advanced=True),
        choice("royalty_mode", cc.ROYALTY_MODES, gettext_noop("Royalties paid"),
               gettext_noop("Only to the row's winner, or independently of the row."), "A.7",
               (gettext_noop("row winner only"), gettext_noop("independently")), S_SCORING, advanced=True),
        boolean("royalties_require_declaration", gettext_noop("Royalties must be declared"),
                gettext_noop("Whether a royalty counts only when declared."), "A.5", S_SCORING, advanced=True),
        boolean("royalties_multiplied", gettext_noop("Royalties multiplied"),
                gettext_noop("Whether scoop multipliers also multiply royalties."), "A.7", S_SCORING, advanced=True),
        boolean("one_royalty_per_hand", gettext_noop("One royalty per hand"),
                gettext_noop("Whether only the best royalty of a hand is paid."), "A.7", S_SCORING, advanced=True),
        boolean("foul_pays_opponent_royalties", gettext_noop("Foul pays royalties"),
                gettext_noop("Whether a fouled hand pays the opponents' royalties."), "A.4", S_SCORING, advanced=True),
        boolean("surrender_enabled", gettext_noop("Surrender"),
                gettext_noop("Whether a player may surrender for a penalty."), "A.9", S_SCORING),
        integer("surrender_penalty", gettext_noop("Surrender penalty"),
                gettext_noop("Units paid to each opponent; empty = half the scoop value."), "A.9", S_SCORING,
                nullable=True, shown_when=(("surrender_enabled", (True,)),), advanced=True),
        boolean("naturals_enabled", gettext_noop("Naturals"),
                gettext_noop("Whether naturals (three flushes, dragon ...) are paid."), "A.8", S_SCORING),
        choice("natural_declaration", cc.NATURAL_DECLARATIONS, gettext_noop("Declaring a natural"),
               gettext_noop("Recognised automatically, or only when the player declares it."), "A.5",
               (gettext_noop("automatic"), gettext_noop("optional")), S_SCORING, advanced=True),
        ConfigField(key="natural_precedence", kind="structured", label=gettext_noop("Order of naturals"),
                    default=list(defaults["natural_precedence"]), help=gettext_noop("Naturals from lowest to highest."),
                    rule="A.8", section=S_SCORING, advanced=True),
        ConfigField(key="natural_values", kind="structured", label=gettext_noop("Natural values"),
                    default=dict(defaults["natural_values"]), help=gettext_noop("Units paid for each natural."),
                    rule="A.8", section=S_SCORING, advanced=True),
        choice("six_pairs_definition", capsa_eval.SIX_PAIRS_DEFINITIONS, gettext_noop("Six pairs"),
               gettext_noop("Strictly six pairs, or counted pairs (trips count)."), "A.8",
               (gettext_noop("strict"), gettext_noop("pair count")), S_SCORING, advanced=True),
        boolean("six_pairs_compare_singleton", gettext_noop("Six pairs: compare the odd card"),
                gettext_noop("Whether two six-pairs naturals compare their odd card."), "A.8", S_SCORING,
                advanced=True),
        choice("natural_payout", cc.NATURAL_PAYOUTS, gettext_noop("Natural pays"),
               gettext_noop("A fixed value, or the scoop value plus the fixed value."), "A.8",
               (gettext_noop("fixed"), gettext_noop("scoop plus fixed")), S_SCORING, advanced=True),
        choice("natural_vs_natural", cc.NATURAL_VS_NATURAL, gettext_noop("Natural against natural"),
               gettext_noop("The winner's value, or the difference of the two."), "A.8",
               (gettext_noop("winner's value"), gettext_noop("difference")), S_SCORING, advanced=True),
        choice("fee_mode", cc.FEE_MODES, gettext_noop("House fee"),
               gettext_noop("A commission on winnings, a fee per seat and deal, or a time charge."), "A.11",
               (gettext_noop("commission"), gettext_noop("per seat"), gettext_noop("time")), S_TAX),
        ConfigField(key="fee_rate", kind="fraction", label=gettext_noop("Commission rate"),
                    default=str(defaults["fee_rate"]),
                    help=gettext_noop("Share of each win taken as commission, as a fraction: 0.05 = 5 %."),
                    rule="A.11", shown_when=commission, section=S_TAX),
        ConfigField(key="fee_cap_per_deal", kind="money", label=gettext_noop("Commission cap per deal"), unit="EUR",
                    help=gettext_noop("The most one player pays for one deal; empty = no cap."), rule="A.11",
                    nullable=True, shown_when=commission, section=S_TAX),
        ConfigField(key="fee_per_seat", kind="money", label=gettext_noop("Fee per seat"), unit="EUR",
                    help=gettext_noop("Paid by every seat for every deal."), rule="A.11",
                    required_when=(("fee_mode", ("per_seat",)),), shown_when=(("fee_mode", ("per_seat",)),),
                    section=S_TAX),
        ConfigField(key="fee_time_amount", kind="money", label=gettext_noop("Time charge"), unit="EUR",
                    help=gettext_noop("Paid by every seat for every period."), rule="A.11",
                    required_when=(("fee_mode", ("time",)),), shown_when=(("fee_mode", ("time",)),), section=S_TAX),
        integer("fee_time_period_minutes", gettext_noop("Time charge period"),
                gettext_noop("Length of one charged period."), "A.11", S_TAX, unit=gettext_noop("minutes"), minimum=1,
                maximum=24 * 60, shown_when=(("fee_mode", ("time",)),)),
    )


def _stud_without_open_pair() -> tuple[ConfigField, ...]:
    """Razz and Seven Card Stud Hi-Lo: the stud keys, with the open-pair option fixed to off (RZ3.1, HL3.1)."""
    out = []
    for field in _stud():
        if field.key == "open_pair_option":
            field = replace(field, default="off", choices=("off",), choice_labels=(("off", _OFF),), rule="RZ3.1",
                            help=gettext_noop("This game has no open-pair rule: always off."))
        out.append(field)
    return tuple(out)


_BUILDERS = {"seven_card_stud": _stud, "razz": _stud_without_open_pair,
             "seven_card_stud_hi_lo": _stud_without_open_pair, "forty_one": _forty_one, "capsa_susun": _capsa}
#: The games described here (the engine registry's list).
GAMES_DESCRIBED = tuple(_BUILDERS)
_CACHE: dict[str, tuple[ConfigField, ...]] = {}


def config_fields(game: str) -> tuple[ConfigField, ...]:
    """Every configuration key of ``game`` in form order. Raises ``KeyError`` for an unknown game."""
    if game not in _CACHE:
        _CACHE[game] = _BUILDERS[game]()
    return _CACHE[game]


def config_field(game: str, key: str) -> ConfigField:
    """The description of one key; ``KeyError`` if ``game`` has no such key."""
    for field in config_fields(game):
        if field.key == key:
            return field
    raise KeyError(key)


def values_with_defaults(game: str, values: dict[str, Any]) -> dict[str, Any]:
    """``values`` (raw config keys) completed with the described default of every key not given."""
    out = {f.key: f.default for f in config_fields(game)}
    out.update(values)
    return out
