"""Helpers for the stud engine tests: build a hand from the spec's vector notation (no tests here).

Amounts in the spec are EUR chip units; ``c(5)`` is 500 cents. Seats 1..N with the button on seat N,
so table seat k is the spec's S k.
"""

from __future__ import annotations

from typing import Any

from rules.engines import stud
from rules.engines.cards import CARDS

#: Spec §14 default: split limit 5/10, ante 1, Taxe 0, default config.
BASE = {"lower": "5", "higher": "10", "ante": "1", "taxe_amount": "0"}


def c(eur: float | int) -> int:
    """EUR chip units -> cents."""
    return int(round(eur * 100))


class Hand:
    """A hand driven by the tests: ``h.act(3, "bring_in")``, ``h.act(4, "raise", 10)``."""

    def __init__(self, stacks: list[float] | int, **cfg: Any) -> None:
        if isinstance(stacks, int):
            stacks = [200] * stacks
        self.n = len(stacks)
        self.config = stud.build_config({**BASE, **cfg})
        self.state = stud.new_hand(self.config, {k + 1: c(v) for k, v in enumerate(stacks)}, button=self.n)
        self.used: set[str] = set()

    def ev(self, event: dict[str, Any]) -> Hand:
        self.state = stud.apply(self.state, event)
        return self

    def antes(self) -> Hand:
        for seat in range(1, self.n + 1):
            self.ev({"type": "ante", "seat": seat})
        return self

    def deal(self, cards: dict[int, str]) -> Hand:
        """Deal each seat its cards for the current street (3rd: 'd d u' or just the door with fillers)."""
        for text in cards.values():
            self.used.update(text.split())
        for seat, text in cards.items():
            self.ev({"type": "deal", "seat": seat, "cards": text})
        return self

    def filler(self, k: int) -> str:
        """``k`` unused low-impact cards for down cards the vector does not name."""
        out = []
        for card in CARDS:
            s = str(card)
            if s not in self.used:
                out.append(s)
                self.used.add(s)
                if len(out) == k:
                    break
        return " ".join(out)

    def third(self, doors: dict[int, str]) -> Hand:
        """Deal 3rd street from door cards only; down cards are fillers."""
        for _seat, d in doors.items():
            self.used.add(d)
        return self.deal({seat: f"{self.filler(2)} {d}" for seat, d in doors.items()})

    def act(self, seat: int, kind: str, to: float | None = None) -> Hand:
        event: dict[str, Any] = {"type": kind, "seat": seat}
        if to is not None:
            event["to"] = c(to)
        return self.ev(event)

    def acts(self, *moves: tuple) -> Hand:
        for m in moves:
            self.act(*m)
        return self

    @property
    def view(self) -> dict[str, Any]:
        return stud.view(self.state)

    def legal(self) -> dict[str, dict[str, Any]]:
        return {a["type"]: a for a in stud.legal_actions(self.state)}

    def pot_total(self) -> int:
        return sum(p["amount"] for p in self.view["pots"])

    def stacks(self) -> list[int]:
        return [self.state.stack[self.state.pos[s]] for s in range(1, self.n + 1)]


def show_all(h: Hand) -> Hand:
    """Show every hand in the order the engine asks for (R11.1)."""
    while h.state.phase == "showdown":
        h.act(h.state.to_act_seat, "show")
    return h
