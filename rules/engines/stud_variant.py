"""What makes a stud game differ from Seven Card Stud: who brings it in, who acts first, who wins.

The stud engine (:mod:`rules.engines.stud`) deals, bets, takes the Taxe and splits pots the same way
for every stud game; a :class:`StudVariant` names the three places where the games differ. Seven Card
Stud is :data:`SEVEN_CARD_STUD`, Razz :data:`RAZZ`, Seven Card Stud Hi-Lo :data:`SEVEN_CARD_STUD_HI_LO`; each game's
package (``rules/games/<game>``) makes its registry entry of it. The variants are listed here, below the
registry, so that the PHH reader finds them without importing the registry (no import loop).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.engines.messages import gettext_noop

__all__ = ["BOARD_ORDERS", "BRING_INS", "RAZZ", "SEVEN_CARD_STUD", "SEVEN_CARD_STUD_HI_LO", "SHOWDOWNS",
           "STUD_VARIANTS", "StudVariant"]

#: ``low_card``: the lowest up card brings it in, ace high, clubs lowest (R4.1).
#: ``high_card``: the highest up card brings it in, ace low, spades highest (Razz RZ4.1).
BRING_INS = ("low_card", "high_card")
#: ``high``: the best high board acts first on 4th-7th street (R5.1); ``low``: the best low board
#: (Razz RZ5.1).
BOARD_ORDERS = ("high", "low")
#: ``high``: best high hand (R11.2); ``low``: best ace-to-five low (RZ2.2); ``high_low_8``: each pot
#: split between the best high and the best eight-or-better low (HL2.1-HL2.4).
SHOWDOWNS = ("high", "low", "high_low_8")


@dataclass(frozen=True, slots=True)
class StudVariant:
    """One stud game. ``game`` is its registry name, ``phh_variant`` its PHH code (``F7S``, ``FR``,
    ``F7S/8``); ``open_pair`` says whether the open-pair option (R6.4) exists in the game."""

    game: str
    label: str
    phh_variant: str
    bring_in: str = "low_card"
    boards: str = "high"
    showdown: str = "high"
    open_pair: bool = True

    def __post_init__(self) -> None:
        if self.bring_in not in BRING_INS or self.boards not in BOARD_ORDERS or self.showdown not in SHOWDOWNS:
            raise ValueError(f"stud variant {self.game}: unknown bring_in, boards or showdown")


SEVEN_CARD_STUD = StudVariant(game="seven_card_stud", label=gettext_noop("Seven Card Stud"), phh_variant="F7S")
#: Razz (``rules/games/razz``): high card brings in, best low board first, ace-to-five low wins.
RAZZ = StudVariant(game="razz", label=gettext_noop("Razz"), phh_variant="FR", bring_in="high_card", boards="low", showdown="low",
                   open_pair=False)
#: Seven Card Stud Hi-Lo, eight or better (``rules/games/seven_card_stud_hi_lo``): split pots.
SEVEN_CARD_STUD_HI_LO = StudVariant(game="seven_card_stud_hi_lo", label=gettext_noop("Seven Card Stud Hi-Lo"), phh_variant="F7S/8",
                                    showdown="high_low_8", open_pair=False)
#: Every stud game the stud engine deals (the PHH reader's variants); each is one registry entry.
STUD_VARIANTS: tuple[StudVariant, ...] = (SEVEN_CARD_STUD, RAZZ, SEVEN_CARD_STUD_HI_LO)
