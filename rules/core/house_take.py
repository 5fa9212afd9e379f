"""The house take, one policy for every game (issue 14).

The stud **Taxe** (R8.1-R8.3), the Forty-one **tax** (B.5) and the Capsa **fee** (A.11) are three
configurations of :class:`HouseTake`; each game builds its policy from its own config keys, which keep
their names and meaning (``taxe_percent`` is a percentage as the stud spec writes it, ``tax_rate`` and
``fee_rate`` are fractions).

* **One rate notation**: :attr:`HouseTake.rate` is a ``Decimal`` fraction of the base (``0.05`` = 5 %);
  the stud's percentage is divided by 100 when its policy is built.
* **Every rounding named once**: :data:`ROUNDINGS`; a policy names the one it uses.
* **Pots**: :meth:`HouseTake.from_pots` takes the house's share from a hand's pots, main pot first, by
  one of :data:`FROM_POTS`.

Amounts are integer cents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_FLOOR, ROUND_HALF_UP, Decimal, Inexact, Rounded, getcontext

__all__ = ["FROM_POTS", "ROUNDINGS", "HouseTake"]

#: The roundings of a take (base x rate, to a whole ``step``), by name. ``down`` (towards zero): the stud
#: Taxe in ``percent_with_cap`` mode, rounded down to the chip unit (R8.3), and the Capsa commission,
#: ``floor(net x fee_rate)`` to the cent (A.11). ``floor`` and ``half_up``: the Forty-one
#: ``tax_rounding`` choices, ``floor`` its default (B.5, B.8 #11). Takes are never negative, so ``down``
#: and ``floor`` give the same amounts; each game keeps the name its spec uses.
ROUNDINGS = {"down": ROUND_DOWN, "floor": ROUND_FLOOR, "half_up": ROUND_HALF_UP}

#: How one take is drawn from several pots (:meth:`HouseTake.from_pots`):
#: ``main_pot``: the take on the total, from the main pot only (stud ``taxe_from``, R8.2);
#: ``pro_rata``: the take on the total, shared by the pots in proportion, the rounding remainder from the
#: main pot (stud ``taxe_from``, R8.2); ``per_pot_main_first``: each pot pays the take on its own amount
#: until the cap is used up (Forty-one ``tax_side_pots``, B.5, F-28); ``total_from_main_pot``: the take on
#: the total, from the main pot first and then each side pot in turn (Forty-one ``tax_side_pots``, B.5).
FROM_POTS = ("main_pot", "pro_rata", "per_pot_main_first", "total_from_main_pot")

#: Bounds of :meth:`HouseTake.on`'s integer path: a base x rate numerator below ``_INT_PRODUCT`` and a
#: denominator (step x the rate's power of ten) below ``_INT_DENOMINATOR``. Within them the Decimal
#: computation of a context of at least ``_DECIMAL_PREC`` digits (the default) multiplies exactly and
#: divides within 10**-10 of the exact quotient, while the quotient's distance from a whole number (and,
#: for ``half_up``, from a half) is 0 or at least 1/(2 x denominator) > 5 x 10**-10: the rounding sees the
#: same side, so the integer rounding of the exact quotient gives the same take.
_INT_PRODUCT = 10**18
_INT_DENOMINATOR = 10**9
_DECIMAL_PREC = 28


@dataclass(frozen=True)
class HouseTake:
    """One house take: a ``flat`` amount, or ``rate`` x base rounded by ``rounding`` to a whole ``step``.

    ``rate``: a ``Decimal`` fraction (0.05 = 5 %); ``step``: cents (the chip unit, the tax step, 1 = the
    cent); ``rounding``: a name of :data:`ROUNDINGS`; ``cap``: the most taken (cents), ``None`` for no
    cap; ``flat``: a fixed amount in cents instead of a rate (the stud's flat Taxe, the Capsa fee per
    seat); ``from_pots_rule``: one of :data:`FROM_POTS`.
    """

    rate: Decimal = Decimal(0)
    step: int = 1
    rounding: str = "down"
    cap: int | None = None
    flat: int | None = None
    from_pots_rule: str = "main_pot"

    def __post_init__(self) -> None:
        # rate / step as an exact fraction num / den of ints, for the integer path of :meth:`on` (None: the
        # Decimal path only: a rate that is not a finite non-negative Decimal, a step that is not a
        # positive int, an unknown rounding or a denominator beyond _INT_DENOMINATOR). Not a field: it
        # is derived from the fields, which are frozen.
        fraction = None
        rate, step = self.rate, self.step
        if (type(rate) is Decimal and rate.is_finite() and not rate.is_signed() and type(step) is int and step > 0
                and self.rounding in ROUNDINGS):
            _sign, digits, exp = rate.as_tuple()
            num = int("".join(map(str, digits)))
            den = step
            if exp >= 0:  # type: ignore[operator]
                num *= 10**exp  # type: ignore[operator]
            else:
                den *= 10**-exp  # type: ignore[operator]
            if den < _INT_DENOMINATOR:
                fraction = (num, den, self.rounding == "half_up")
        object.__setattr__(self, "_fraction", fraction)

    def on(self, base: int) -> int:
        """The take on ``base`` cents before the cap: ``flat``, or ``base x rate / step`` rounded by
        ``rounding`` to a whole number, times ``step``. Example: 1800 at 0.05 -> 90; step 50 -> 50.

        Computed in integers when the amounts allow it (``_INT_PRODUCT``: the same take as the Decimal
        computation, the same rounding of the exact quotient), else in ``Decimal``."""
        if self.flat is not None:
            return self.flat
        fraction: tuple[int, int, bool] | None = self._fraction  # type: ignore[attr-defined]
        if fraction is not None and type(base) is int and base >= 0:
            num, den, half_up = fraction
            n = base * num
            if n < _INT_PRODUCT:
                ctx = getcontext()
                if ctx.prec >= _DECIMAL_PREC and not ctx.traps[Inexact] and not ctx.traps[Rounded]:
                    # ``down`` (stud Taxe R8.3, Capsa fee A.11) and ``floor`` (Forty-one B.5): the quotient
                    # rounded towards zero, as it is never negative; ``half_up`` (Forty-one B.5): a half up
                    return ((2 * n + den) // (2 * den) if half_up else n // den) * self.step
        raw = Decimal(base) * self.rate / self.step
        return int(raw.to_integral_value(rounding=ROUNDINGS[self.rounding])) * self.step

    def capped(self, base: int) -> int:
        """:meth:`on` ``base``, at most ``cap``."""
        take = self.on(base)
        return take if self.cap is None else min(take, self.cap)

    def from_pots(self, pots: Sequence[int], bases: Sequence[int] | None = None) -> list[int]:
        """The take from each pot (cents, main pot first) by :attr:`from_pots_rule` (:data:`FROM_POTS`).

        ``pots``: the pot amounts; ``bases``: what each pot is taxed on (default the pots; Forty-one
        leaves the antes out of the main pot's base when ``tax_includes_antes`` is false, B.5). No pot
        pays more than it holds under ``main_pot``, ``pro_rata`` and ``total_from_main_pot``.
        """
        bases = pots if bases is None else bases
        out = [0] * len(pots)
        if not pots:
            return out
        rule = self.from_pots_rule
        if rule == "per_pot_main_first":
            remaining = self.cap
            for k, base in enumerate(bases):
                take = self.on(base)
                if remaining is not None:
                    take = min(take, remaining)
                    remaining -= take
                out[k] = take
            return out
        take = self.capped(sum(bases))
        if not take:
            return out
        if rule == "main_pot":
            out[0] = min(take, pots[0])
        elif rule == "pro_rata":
            total = sum(pots)
            take = min(take, total)
            for k, amount in enumerate(pots):
                out[k] = take * amount // total
            out[0] += take - sum(out)
        else:  # total_from_main_pot
            for k, amount in enumerate(pots):
                out[k] = min(take, amount)
                take -= out[k]
        return out
