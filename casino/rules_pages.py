"""The house rules (``docs/rules/*.md``) served as HTML pages, so a rule number in an error can be followed.

URL scheme: ``/rules/`` (the index, ``docs/rules/README.md``) and ``/rules/<page>/`` for
``docs/rules/<page>.md``, e.g. ``/rules/seven_card_stud/#R6.2``: every rule is an anchor whose id is its
number (``docs/rules/README.md``). :func:`rules_url` builds that link for a rule number. The Markdown is
rendered on the server with Python-Markdown (pinned in ``requirements.txt``); links between the pages
(``razz.md``) become links between the served pages. Signed-in staff only, like every staff page.

German (issue 18): a page whose German translation ``docs/rules/de/<page>.md`` exists is served in German when
the page language is German (same rule numbers, anchors, configuration keys and tables as the English, which
stays the implemented rule; ``tests/test_rules_docs.py`` keeps the two in step); without it the English is
served with a note saying so.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, gettext_noop

#: The folder of the rule pages (in the repository).
RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"
#: The German translations, same file names (a subfolder, so ``docs/rules/*.md`` stays the English set).
RULES_DIR_DE = RULES_DIR / "de"
INDEX = "README"
_PAGE_LINK = re.compile(r'href="([a-z0-9_]+)\.md(#[^"]*)?"')
_TITLE = re.compile(r"^# (.+)$", re.M)
#: Which page defines the rules of a prefix (the croupier screen links ``rules_url("R6.2")``).
_PREFIX_PAGES = (("RZ", "razz"), ("HL", "seven_card_stud_hi_lo"), ("R", "seven_card_stud"), ("B.", "forty_one"),
                 ("A.", "capsa_susun"), ("H", "dealer_rotation"), ("S", "dealer_rotation"))


#: The headings of the rule pages (``#`` and ``##``, without the anchor and the rule number), marked for the
#: catalogue: the pages show them in the reader's language; the rule text itself is English (the page says so).
HEADINGS = [
    gettext_noop("The house rules as this service implements them"), gettext_noop("How a rule is written (the anchor format)"),
    gettext_noop("How a hand runs"), gettext_noop("Capsa Susun: the house rules as this service deals them"), gettext_noop("Scope"),
    gettext_noop("Deck, players, rows"), gettext_noop("Ranking the rows"), gettext_noop("A valid setting, and a foul"), gettext_noop("How a deal runs"),
    gettext_noop("Scoring each pair"), gettext_noop("Royalties"), gettext_noop("Naturals"), gettext_noop("Surrender"), gettext_noop("Presets"), gettext_noop("House fee"),
    gettext_noop("Configuration"), gettext_noop("Test vectors"), gettext_noop("Dealer rotation: the rules every rotation plan keeps"),
    gettext_noop("Hard rules (a plan that breaks one is refused, naming the dealer and the slot)"),
    gettext_noop("Soft rules (the planner's preferences, in this order)"),
    gettext_noop("Forty-one (Einundvierzig): the house rules as this service deals them"), gettext_noop("Deck, card values, players"),
    gettext_noop("Combinations, highest first"), gettext_noop("Table stakes, short stacks, all-in, side pots"), gettext_noop("Irregularities"),
    gettext_noop("Casino tax"), gettext_noop("The 41 bonus"), gettext_noop("Traditional variants (options, not the casino default)"),
    gettext_noop("Where the house sheet is silent: the house's decisions"), gettext_noop("Razz: the rules as the engine deals them"),
    gettext_noop("Table and deal"), gettext_noop("Hand ranking"), gettext_noop("Betting"), gettext_noop("Bring-in"), gettext_noop("Acting order and showdown order"),
    gettext_noop("Seven Card Stud: the house rules as this service deals them"), gettext_noop("Table, deck and deal"),
    gettext_noop("Limits, ante, table stakes"), gettext_noop("Third street: the bring-in"), gettext_noop("Who acts first from 4th street"),
    gettext_noop("Split-limit betting"), gettext_noop("Spread-limit betting"), gettext_noop("The Taxe (house fee)"), gettext_noop("Running out of cards"),
    gettext_noop("All-in and side pots"), gettext_noop("Showdown, split pots, odd chips"),
    gettext_noop("Seven Card Stud Hi-Lo, eight or better: the rules as the engine deals them"), gettext_noop("Showdown and split pots"),
]
_HEADING = re.compile(r"<h([12])([^>]*)>((?:<a id=\"[^\"]+\"></a>)?)((?:[A-Z]+\.?\d+(?:\.\d+)?[a-z]?|\d+\.)\s+)?(.*?)</h\1>")
_NUMBER = re.compile(r"^((?:[A-Z]+\.?\d+(?:\.\d+)?[a-z]?|\d+\.)\s+)?(.*)$")


def heading_text(text: str) -> str:
    """A rule page heading (``"R6 Split-limit betting"``) in the active language, its rule number kept
    (``"R6 Betting im Split-Limit"``); a heading not in :data:`HEADINGS` as written."""
    number, words = _NUMBER.match(text).groups()  # type: ignore[union-attr]
    return (number or "") + (gettext(words) if words in HEADINGS else words)


def _headings_translated(html: str) -> str:
    language = get_language() or "en"
    if language.startswith("en"):
        return html

    def heading(match: re.Match) -> str:
        level, attrs, anchor, number, words = match.groups()
        if words not in HEADINGS or gettext(words) == words:
            return match.group(0)
        return f'<h{level}{attrs} lang="{language}">{anchor}{number or ""}{gettext(words)}</h{level}>'

    return _HEADING.sub(heading, html)


def rules_pages() -> list[str]:
    """The names of the rule pages (``docs/rules/*.md`` without the index), sorted."""
    return sorted(p.stem for p in RULES_DIR.glob("*.md") if p.stem != INDEX)


def rules_url(rule: str) -> str:
    """The served URL of a rule number, e.g. ``"R6.2"`` -> ``"/rules/seven_card_stud/#R6.2"``; the index for
    an unknown prefix."""
    for prefix, page in _PREFIX_PAGES:
        if rule.startswith(prefix):
            return f"{reverse('rules_page', args=[page])}#{rule}"
    return reverse("rules_index")


@lru_cache(maxsize=64)
def _render(path: Path, mtime: float) -> tuple[str, str]:
    name = path.stem
    text = path.read_text(encoding="utf-8")
    title = _TITLE.search(text)
    html = markdown.markdown(text, extensions=["tables", "fenced_code"], output_format="html")

    def link(match: re.Match) -> str:
        target = match.group(1)
        url = reverse("rules_index") if target == INDEX else reverse("rules_page", args=[target])
        return f'href="{url}{match.group(2) or ""}"'

    return (title.group(1) if title else name), _PAGE_LINK.sub(link, html)


def rules_page_render(name: str) -> tuple[str, str]:
    """``(title, html)`` of ``docs/rules/<name>.md``; raises ``Http404`` for a page that does not exist."""
    if name != INDEX and name not in rules_pages():
        raise Http404(name)
    path = RULES_DIR / f"{name}.md"
    return _render(path, path.stat().st_mtime)


def rules_page_german(name: str) -> tuple[str, str] | None:
    """``(title, html)`` of the German translation ``docs/rules/de/<name>.md``, or ``None`` when there is
    none (the caller then serves the English, :func:`rules_page_render`)."""
    path = RULES_DIR_DE / f"{name}.md"
    if not path.is_file():
        return None
    return _render(path, path.stat().st_mtime)


@login_required
def rules_index(request):
    """``GET /rules/``: the index of the house rules."""
    return _page(request, INDEX)


@login_required
def rules_page(request, page: str):
    """``GET /rules/<page>/``: one game's rules (404 for an unknown page; the index is ``/rules/``)."""
    if page == INDEX:
        raise Http404(page)
    return _page(request, page)


def _page(request, name: str):
    title, body = rules_page_render(name)
    language = get_language() or "en"
    german = rules_page_german(name) if language.startswith("de") else None
    if german is not None:
        body, body_language = german[1], language
    else:
        body, body_language = _headings_translated(body), "en"
    # Each page's short name for the page links: its title up to the colon ("Seven Card Stud").
    pages = [(page, heading_text(rules_page_render(page)[0]).split(":")[0]) for page in rules_pages()]
    return render(request, "rules_page.html", {"title": heading_text(title),
                                               "body": mark_safe(body),  # noqa: S308 (our own docs)
                                               "body_language": body_language,
                                               "body_is_translated": german is not None,
                                               "pages": pages, "current": name})
