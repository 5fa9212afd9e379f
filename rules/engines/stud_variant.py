"""What makes a stud game differ from Seven Card Stud: who brings it in, who acts first, who wins.

The stud engine (:mod:`rules.engines.stud`) deals, bets, takes the Taxe and splits pots the same way
for every stud game; a :class:`StudVariant` names the three places where the games differ. Seven Card
Stud is :data:`SEVEN_CARD_STUD`; Razz and Seven Card Stud Hi-Lo define theirs in their own packages
(``rules/games/razz``, ``rules/games/seven_card_stud_hi_lo``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BOARD_ORDERS", "BRING_INS", "SEVEN_CARD_STUD", "SHOWDOWNS", "StudVariant"]

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


SEVEN_CARD_STUD = StudVariant(game="seven_card_stud", label="Seven Card Stud", phh_variant="F7S")
