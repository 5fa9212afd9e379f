"""Template filters of the croupier's screen: cents shown as EUR amounts."""

from __future__ import annotations

from django import template

from casino.money import format_money
from casino.templatetags.money import money_signed
from rules.engines.money import format_cents

register = template.Library()


@register.filter
def eur(cents) -> str:
    """``1050`` -> ``"10.50"`` (cents as a plain EUR amount; empty for None)."""
    if cents is None or cents == "":
        return ""
    return format_cents(int(cents))


@register.filter
def eur_signed(cents) -> str:
    """``1050`` -> ``"+10.50"``, ``-200`` -> ``"-2.00"``, ``0`` -> ``"0.00"``."""
    value = int(cents or 0)
    return ("+" if value > 0 else "") + format_cents(value)


@register.filter
def times(n) -> range:
    """``range(n)`` for repeating a mark ``n`` times."""
    return range(int(n or 0))


@register.simple_tag
def capsa_slots(entered, seat, row, size) -> list[dict]:
    """The ``size`` card slots of one Capsa row of ``seat`` (form field ``<row>_<seat>``), filled with the
    cards entered before (``entered``: ``{seat: {row: "As Kd ..."}}``, after a Check)."""
    cards = ((entered or {}).get(seat) or {}).get(row, "").split()
    cards = (cards + [""] * size)[:size]
    return [{"face": "up", "value": c, "name": f"{row}_{seat}", "fixed": False} for c in cards]


@register.simple_tag
def card_slot(slot, name: str, down_label: str, up_label: str):
    """One card slot of a card form: a tappable box showing the card, with its hidden form field ``name``.
    ``slot`` has ``face`` (up/down), ``value`` (preset card or empty) and ``fixed`` (preset, not entered)."""
    from django.utils.html import format_html

    face = slot["face"] if isinstance(slot, dict) else slot.face
    value = slot["value"] if isinstance(slot, dict) else slot.value
    fixed = slot["fixed"] if isinstance(slot, dict) else slot.fixed
    classes = " ".join(c for c in ("slot", face, "filled" if value else "", "fixed" if fixed else "") if c)
    return format_html('<span class="{}" role="button" tabindex="0" data-slot title="{}"><input type="hidden" '
                       'name="{}" value="{}"><span class="face">{}</span></span>', classes,
                       down_label if face == "down" else up_label, name, value, value or "·")


@register.simple_tag
def seat_boxes(view, status: str):
    """The seats of the felt, one box each: number, marks (button, forehand, bring-in), whose turn, stack,
    down cards and up cards, what it has in this round, folded / all in in words, notes, net at the end.

    Rendered here rather than by a template loop: the table screen re-renders it on every tap (issue 15
    bench), and a loop of a dozen lookups per seat in the template language costs several milliseconds."""
    from django.utils.html import format_html, format_html_join, mark_safe
    from django.utils.translation import gettext as _

    down_title, to_act, this_round = _("down card"), _("to act"), _("in this round")
    folded, all_in, net = _("folded"), _("all in"), _("net")
    boxes = []
    hand_open = status == "open"
    for s in view.seats:
        turn = bool(s.to_act and hand_open)
        head = format_html('<div class="seat-head"><strong>{}</strong>{}{}</div>', _("Seat %(n)s") % {"n": s.seat},
                           format_html_join("", ' <span class="mark">{}</span>', ((m,) for m in s.marks)),
                           format_html(' <span class="badge turn">{}</span>', to_act) if turn else "")
        cards = format_html_join("", '<span class="pc down" title="{}">▮</span>', ((down_title,) for _i in range(s.down_count)))
        cards += format_html_join("", '<span class="pc{}">{}{}</span>',
                                  ((" red" if c["red"] else "", c["rank"], c["suit"]) for c in s.up_cards))
        parts = [head, format_html('<div class="stack num">{}</div>', format_money(s.stack)),
                 format_html('<div class="cards-row">{}</div>', cards)]
        if s.street_bet:
            parts.append(format_html('<div class="bet">{} <span class="num">{}</span></div>', this_round,
                                     format_money(s.street_bet)))
        if s.folded:
            parts.append(format_html('<div class="state">{}</div>', folded))
        elif s.all_in:
            parts.append(format_html('<div class="state allin">{}</div>', all_in))
        parts += [format_html('<div class="note">{}</div>', n) for n in s.notes]
        if s.net is not None:
            parts.append(format_html('<div class="net num">{} {}</div>', net, money_signed(s.net)))
        classes = "seat" + (" to-act" if turn else "") + (" folded" if s.folded else "")
        boxes.append(format_html('<div class="{}" data-seat="{}">{}</div>', classes, s.seat, mark_safe("".join(parts))))
    return mark_safe("".join(boxes))
