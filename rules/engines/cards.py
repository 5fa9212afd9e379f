"""Cards, ranks, suits and decks for the three games (rules README "Card notation").

A :class:`Card` is an ``int`` from 0 to 51: ``rank_index * 4 + suit_index`` with ranks ``2..A`` as
0..12 and suits ``c d h s`` as 0..3 (the same numbering phevaluator uses, so no translation is
needed underneath). Cards are interned: ``parse_card("As") is parse_card("A♠")``.

Decks: :data:`DECK_52` (stud, Capsa) and :data:`PIQUET_32` (Forty-one, 7 to A), the latter also in
double-German suits (Eichel, Laub, Herz, Schellen; Unter, Ober, König, Ass) via
:func:`german_name` / :func:`parse_german_card`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rules.engines.errors import DuplicateCard, InvalidCard
from rules.engines.messages import gettext_noop

#: What a croupier may type for a card dealt face down and not seen; recorded as ``??`` (every game).
UNKNOWN_TOKENS = frozenset({"??", "XX", "xx", "##"})

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s", "♧": "c", "♢": "d", "♡": "h", "♤": "s"}
SUIT_TO_SYMBOL = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RANK_NAMES = {
    "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven", "8": "Eight",
    "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace",
}
RANK_PLURALS = {r: ("Sixes" if r == "6" else n + "s") for r, n in RANK_NAMES.items()}

#: Double-German suits and their French equivalents (rules README: Eichel ≈ ♣, Laub/Grün ≈ ♠,
#: Herz = ♥, Schellen ≈ ♦).
GERMAN_SUITS = {"c": "Eichel", "s": "Laub", "h": "Herz", "d": "Schellen"}
GERMAN_RANKS = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "Unter", "Q": "Ober", "K": "König", "A": "Ass"}
_GERMAN_SUIT_PARSE = {"eichel": "c", "laub": "s", "grün": "s", "gruen": "s", "herz": "h", "schellen": "d"}
_GERMAN_RANK_PARSE = {
    "7": "7", "8": "8", "9": "9", "10": "T", "unter": "J", "ober": "Q", "könig": "K", "koenig": "K",
    "ass": "A", "daus": "A",
}


class Card(int):
    """One playing card; an ``int`` 0..51 (``rank_index * 4 + suit_index``).

    ``rank`` is 2..14 (ace 14), ``rank_char`` one of ``23456789TJQKA``, ``suit`` one of ``cdhs``.
    ``str(card)`` is canonical (``"As"``). Build cards with :func:`parse_card` or :data:`CARDS`.
    """

    __slots__ = ()

    @property
    def rank_index(self) -> int:
        """0 (deuce) to 12 (ace)."""
        return int(self) >> 2

    @property
    def rank(self) -> int:
        """2 to 14 (ace high)."""
        return (int(self) >> 2) + 2

    @property
    def rank_char(self) -> str:
        return RANKS[int(self) >> 2]

    @property
    def suit_index(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades (also the stud bring-in order c < d < h < s)."""
        return int(self) & 3

    @property
    def suit(self) -> str:
        return SUITS[int(self) & 3]

    def __str__(self) -> str:
        return RANKS[int(self) >> 2] + SUITS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card({self!s})"

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, ``"A♠"`` (as the Capsa and Forty-one specs write it)."""
        return self.rank_char + SUIT_TO_SYMBOL[self.suit]


#: All 52 cards, interned, indexed by their int value.
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
#: ``str(card)`` of every card, indexed by its int value.
_CARD_TEXT: tuple[str, ...] = tuple(str(c) for c in CARDS)
#: The 52-card deck for stud and Capsa (R1.1, A.2).
DECK_52: frozenset[Card] = frozenset(CARDS)
#: The 32-card piquet pack for Forty-one: 7, 8, 9, 10, J, Q, K, A in four suits (B.2).
PIQUET_32: frozenset[Card] = frozenset(c for c in CARDS if c.rank >= 7)

_TOKEN = re.compile(r"(10|[2-9TJQKA])([cdhs♣♦♥♠♧♢♡♤])", re.IGNORECASE)


def make_card(rank_char: str, suit: str) -> Card:
    """Return the interned card for a rank character (``23456789TJQKA``) and suit (``cdhs``)."""
    return CARDS[RANKS.index(rank_char) * 4 + SUITS.index(suit)]


def parse_card(token: str, *, deck: frozenset[Card] | None = None) -> Card:
    """Parse one card token: ``As``, ``as``, ``AS``, ``Td``, ``10d``, ``T♦``, ``10♦``.

    If ``deck`` is given the card must belong to it (e.g. :data:`PIQUET_32`).
    Raises :class:`InvalidCard` naming the bad token.
    """
    if not isinstance(token, str):
        raise InvalidCard(gettext_noop("%(token)s is not a card", token=repr(token)), extra={"token": repr(token)})
    text = token.strip()
    m = _TOKEN.fullmatch(text)
    if m is None:
        raise InvalidCard(
            gettext_noop("'%(token)s' is not a card: write rank then suit, e.g. As, Td, 10d or A♠", token=token),
            extra={"token": token},
        )
    rank, suit = m.group(1).upper(), m.group(2)
    rank = "T" if rank == "10" else rank
    suit = SUIT_SYMBOLS.get(suit, suit.lower())
    card = make_card(rank, suit)
    if deck is not None and card not in deck:
        raise InvalidCard(gettext_noop("'%(token)s' is not in this game's deck", token=token), extra={"token": token})
    return card


def _fast_tokens() -> dict[str, Card]:
    """Every plain token the regex accepts (rank then suit, any case, ``10`` or ``T``, suit symbols)."""
    table: dict[str, Card] = {}
    for card in CARDS:
        ranks = ["T", "t", "10"] if card.rank_char == "T" else [card.rank_char, card.rank_char.lower()]
        suits = [card.suit, card.suit.upper(), *(sym for sym, s in SUIT_SYMBOLS.items() if s == card.suit)]
        for r in ranks:
            for s in suits:
                table[r + s] = card
    return table


#: Token -> card for the tokens :data:`_TOKEN` matches in full (the fast path of :func:`parse_cards`).
_FAST_TOKENS: dict[str, Card] = _fast_tokens()
#: Successful parses of text: (text, deck, allow_duplicates) -> cards. Pure and immutable, so safe to share;
#: cleared when it grows past :data:`_PARSE_CACHE_SIZE` entries.
_PARSE_CACHE: dict[tuple[str, frozenset[Card] | None, bool], tuple[Card, ...]] = {}
_PARSE_CACHE_SIZE = 200_000


def parse_cards(
    text: str | Iterable[str],
    *,
    deck: frozenset[Card] | None = None,
    allow_duplicates: bool = False,
) -> list[Card]:
    """Parse several cards: ``"As Td"``, ``"As,Td"``, ``"AsTd"`` (PHH style) or a list of tokens.

    Returns the cards in the order given. Raises :class:`InvalidCard` naming the bad token, and
    :class:`DuplicateCard` if a card appears twice (unless ``allow_duplicates``).
    """
    if type(text) is str:
        key = (text, deck, allow_duplicates)
        cached = _PARSE_CACHE.get(key)
        if cached is not None:
            return list(cached)
        if "," not in text:
            # fast path: whitespace-separated canonical tokens; anything unusual takes the full path below
            fast = _FAST_TOKENS
            tokens = text.split()
            if all(t in fast for t in tokens):
                cards = [fast[t] for t in tokens]
                if (deck is None or all(c in deck for c in cards)) and (
                        allow_duplicates or len(set(cards)) == len(cards)):
                    if len(_PARSE_CACHE) >= _PARSE_CACHE_SIZE:
                        _PARSE_CACHE.clear()
                    _PARSE_CACHE[key] = tuple(cards)
                    return cards
    return _parse_cards_slow(text, deck=deck, allow_duplicates=allow_duplicates)


def _parse_cards_slow(
    text: str | Iterable[str],
    *,
    deck: frozenset[Card] | None,
    allow_duplicates: bool,
) -> list[Card]:
    """The full parser behind :func:`parse_cards` (every form, every error message)."""
    if isinstance(text, str):
        stripped = text.strip()
        tokens = [t for t in re.split(r"[\s,]+", stripped) if t] if stripped else []
        expanded: list[str] = []
        for tok in tokens:
            if _TOKEN.fullmatch(tok):
                expanded.append(tok)
                continue
            pos = 0
            pieces: list[str] | None = []
            while pos < len(tok):
                m = _TOKEN.match(tok, pos)
                if m is None:
                    pieces = None
                    break
                assert pieces is not None
                pieces.append(m.group(0))
                pos = m.end()
            if not pieces:
                raise InvalidCard(
                    gettext_noop("'%(tok)s' is not a card: write rank then suit, e.g. As, Td, 10d or A♠", tok=tok),
                    extra={"token": tok},
                )
            expanded.extend(pieces)
        tokens = expanded
    else:
        tokens = list(text)
    cards = [t if isinstance(t, Card) else parse_card(t, deck=deck) for t in tokens]
    if deck is not None:
        for c in cards:
            if c not in deck:
                raise InvalidCard(gettext_noop("'%(c)s' is not in this game's deck", c=c), extra={"token": str(c)})
    if not allow_duplicates:
        check_no_duplicates(cards)
    return cards


def check_no_duplicates(cards: Iterable[Card], *, where: str = "") -> None:
    """Raise :class:`DuplicateCard` naming the first card that appears twice."""
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            suffix = f" {where}" if where else ""
            raise DuplicateCard(gettext_noop("card %(c)s appears twice%(suffix)s", c=c, suffix=suffix), extra={"card": str(c)})
        seen.add(c)


def format_cards(cards: Iterable[int]) -> str:
    """Canonical text for cards: ``"As Td"``."""
    text = _CARD_TEXT
    return " ".join([text[c] if type(c) is Card and 0 <= c < 52 else str(c) for c in cards])


def german_name(card: Card) -> str:
    """The double-German name of a piquet card: ``Qc -> "Eichel Ober"``, ``Th -> "Herz 10"``.

    Raises :class:`InvalidCard` for a card not in the 32-card pack (B.2).
    """
    if card not in PIQUET_32:
        raise InvalidCard(gettext_noop("'%(card)s' is not in the 32-card pack", card=card), extra={"token": str(card)})
    return f"{GERMAN_SUITS[card.suit]} {GERMAN_RANKS[card.rank_char]}"


def parse_german_card(text: str) -> Card:
    """Parse a double-German card name, ``"Eichel Ober"``, ``"Laub 10"``, ``"Herz-Ass"`` (case-free).

    Raises :class:`InvalidCard` naming the bad token.
    """
    parts = [p for p in re.split(r"[\s\-_]+", text.strip().lower()) if p]
    if len(parts) == 2 and parts[0] in _GERMAN_SUIT_PARSE and parts[1] in _GERMAN_RANK_PARSE:
        return make_card(_GERMAN_RANK_PARSE[parts[1]], _GERMAN_SUIT_PARSE[parts[0]])
    raise InvalidCard(
        gettext_noop("'%(text)s' is not a German-suited card: write suit then rank, e.g. 'Eichel Ober' or 'Herz 10'", text=text),
        extra={"token": text},
    )
