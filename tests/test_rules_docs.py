"""``docs/rules/`` defines every rule number the code cites, and every configuration key (issue 13).

A rule is defined by an anchor whose id is its number, followed by the number in bold or as a heading
(``- <a id="R6.2"></a>**R6.2** ...``, ``## <a id="B.4"></a>B.4 ...``): see ``docs/rules/README.md``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from rules.config_fields import GAMES_DESCRIBED, config_fields

ROOT = Path(settings.BASE_DIR)
DOCS = ROOT / "docs" / "rules"
#: Where the code cites rules: messages, docstrings and comments of these apps (Python and templates).
CITING = ("rules", "tables", "accounting", "casino")
#: A cited rule number: stud R.., Razz RZ.., Hi-Lo HL.. (R6.2, RZ4.1, R10), Forty-one B.. (B.4a), Capsa A..
#: (A.12), dealer rotation H1/H2/S1/S2. Section marks ("§13") and test-vector names are not rules.
CITED = re.compile(r"(?<![\w.])(?:(?:RZ|HL|R)\d{1,2}(?:\.\d{1,2})?|[AB]\.\d{1,2}[ab]?|[HS][12])(?![\w]|\.\d)")
ANCHOR = re.compile(r'<a id="([^"]+)"></a>(\*\*)?([^*\n]*)')
#: The page that lists a game's configuration keys (Razz and Hi-Lo share the stud keys).
CONFIG_PAGES = {"razz": ("razz.md", "seven_card_stud.md"),
                "seven_card_stud_hi_lo": ("seven_card_stud_hi_lo.md", "seven_card_stud.md")}


def _cited() -> dict[str, list[str]]:
    """Every rule number cited in the code -> the first few places that cite it."""
    found: dict[str, list[str]] = {}
    for app in CITING:
        for path in sorted((ROOT / app).rglob("*")):
            if path.suffix not in (".py", ".html") or "migrations" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for rule in CITED.findall(line):
                    found.setdefault(rule, []).append(f"{path.relative_to(ROOT)}:{number}")
    return found


def _defined() -> dict[str, str]:
    """Every rule number defined in docs/rules/ -> its page; a number defined twice fails."""
    defined: dict[str, str] = {}
    for page in sorted(DOCS.glob("*.md")):
        if page.name == "README.md":  # the index (its example anchor is in a code block)
            continue
        for rule, bold, rest in ANCHOR.findall(page.read_text(encoding="utf-8")):
            assert rule not in defined, f"{rule} is defined twice: {defined[rule]} and {page.name}"
            assert (bold and rest == rule) or rest.startswith(f"{rule} "), \
                f"{page.name}: the anchor {rule} must be followed by **{rule}** or the heading '{rule} ...'"
            defined[rule] = page.name
    return defined


def test_the_code_cites_rules_and_the_pattern_finds_them():
    cited = _cited()
    assert {"R6.2", "R11.2", "B.4a", "B.5", "A.2", "A.12", "H2"} <= set(cited)


def test_every_rule_number_the_code_cites_is_defined_in_docs_rules():
    defined = _defined()
    missing = {rule: places[:3] for rule, places in _cited().items() if rule not in defined}
    assert missing == {}, "cited in the code but not defined in docs/rules/: " + "; ".join(
        f"{rule} ({', '.join(places)})" for rule, places in sorted(missing.items()))


@pytest.mark.parametrize("game", GAMES_DESCRIBED)
def test_every_configuration_key_is_described_on_its_games_page(game):
    pages = CONFIG_PAGES.get(game, (f"{game}.md",))
    text = "".join((DOCS / page).read_text(encoding="utf-8") for page in pages)
    missing = [f.key for f in config_fields(game) if f"`{f.key}`" not in text]
    assert missing == [], f"{game}: configuration keys not on {pages}: {missing}"


def test_the_index_links_every_page():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    assert [p.name for p in sorted(DOCS.glob("*.md")) if p.name != "README.md" and f"]({p.name})" not in index] == []


#: The German translations of the rule pages (issue 18), served for a German page language.
DOCS_DE = DOCS / "de"
CODE = re.compile(r"`[^`\n]+`")
TABLE_ROW = re.compile(r"^\|.*\|$", re.M)


def _german_pages() -> list[Path]:
    return sorted(DOCS_DE.glob("*.md"))


def test_every_german_page_translates_an_english_page_and_the_main_games_are_german():
    assert [p.name for p in _german_pages() if not (DOCS / p.name).is_file()] == []
    assert {"seven_card_stud.md", "forty_one.md", "capsa_susun.md"} <= {p.name for p in _german_pages()}


@pytest.mark.parametrize("german", _german_pages(), ids=lambda p: p.name)
def test_a_german_page_has_the_english_rule_numbers_code_names_and_tables(german):
    """The English page is the implemented rule: its translation keeps every anchor (in order, with the
    number after it), every code span (configuration keys, values, code names) and every table row, so the
    two cannot drift apart silently."""
    english_text = (DOCS / german.name).read_text(encoding="utf-8")
    german_text = german.read_text(encoding="utf-8")
    anchors = [(rule, bold, rest.split(" ")[0]) for rule, bold, rest in ANCHOR.findall(english_text)]
    assert [(rule, bold, rest.split(" ")[0]) for rule, bold, rest in ANCHOR.findall(german_text)] == anchors
    assert sorted(CODE.findall(german_text)) == sorted(CODE.findall(english_text))
    assert sorted(CITED.findall(german_text)) == sorted(CITED.findall(english_text))  # the cross-references
    assert len(TABLE_ROW.findall(german_text)) == len(TABLE_ROW.findall(english_text))
    assert re.findall(r"^#+ ", german_text, re.M) == re.findall(r"^#+ ", english_text, re.M)
    assert german_text != english_text


@pytest.mark.parametrize("german", _german_pages(), ids=lambda p: p.name)
def test_a_german_pages_headings_are_the_catalogues_german_headings(german):
    """The page chrome (title, page links) translates the English headings through the catalogue
    (``casino.rules_pages.HEADINGS``); the German page says the same words."""
    from django.utils import translation

    from casino.rules_pages import heading_text

    def headings(text: str) -> list[str]:
        text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)  # an example in a code block is no heading
        return [re.sub(r'<a id="[^"]+"></a>', "", line.lstrip("#").strip())
                for line in text.splitlines() if re.match(r"^#{1,2} ", line)]

    english = headings((DOCS / german.name).read_text(encoding="utf-8"))
    with translation.override("de-at"):
        assert headings(german.read_text(encoding="utf-8")) == [heading_text(h) for h in english]


# --- test vectors (break-test finding 6) ------------------------------------------------------------------------

TESTS = ROOT / "tests" / "rules"
#: A vector's id: stud A1 .. F5, Forty-one F-01 .. F-29 (and F-21d), Capsa Susun C-01 .. C-31 (C-23a .. C-23d).
VECTOR_ID = r"(?:[A-F]\d{1,2}|[FC]-\d{2}[a-d]?)"
VECTOR_ROW = re.compile(rf"^\| ({VECTOR_ID}) \|")
VECTOR_PARAGRAPH = re.compile(rf"^\*\*({VECTOR_ID})[.\s]")
TEST_REF = re.compile(r"`(test_\w+\.py)::(test_\w+)`")
#: The pages that carry the specification's vectors, and how many (its sections 14, B.10 and A.13).
VECTOR_PAGES = {"seven_card_stud.md": 48, "forty_one.md": 30, "capsa_susun.md": 34}
VECTOR_PAGE_PATHS = [folder / name for name in VECTOR_PAGES for folder in (DOCS, DOCS / "de")]


def _vectors(text: str) -> dict[str, list[tuple[str, str]]]:
    """The vector ids of a page's test-vector section (``## ... Test vectors`` / ``Testfälle``) and the tests each
    names: a table row's references, or a paragraph vector's (``**F-21. ...``) up to the next vector, bold label
    or heading."""
    section = re.search(r"^## .*(?:Test vectors|Testfälle)\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert section, "no test-vector section"
    out: dict[str, list[tuple[str, str]]] = {}
    current = None
    for line in section.group(1).splitlines():
        if row := VECTOR_ROW.match(line):
            out[row.group(1)] = TEST_REF.findall(line)
            current = None
            continue
        if paragraph := VECTOR_PARAGRAPH.match(line):
            current = paragraph.group(1)
            out[current] = []
        elif line.startswith("#") or (line.startswith("**") and line.endswith("**")):
            current = None
        if current:
            out[current] += TEST_REF.findall(line)
    return out


def _test_text(file: str, name: str) -> str | None:
    """A test function's source (decorators included) and the module constants it uses, or None if it is not there."""
    import ast

    path = TESTS / file
    if not path.is_file():
        return None
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    constants = {node.targets[0].id: "\n".join(lines[node.lineno - 1:node.end_lineno]) for node in tree.body
                 if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            text = "\n".join(lines[start - 1:node.end_lineno])
            return "\n".join([text, *(v for k, v in constants.items() if re.search(rf"\b{k}\b", text))])
    return None


def _replays(vector: str, name: str, text: str) -> bool:
    """The test names the vector: its id in the test (``"F-21"``, ``D6``) or in the test's name (``test_d6_...``)."""
    token = vector.lower().replace("-", "")
    return bool(re.search(rf"(?<![\w-]){re.escape(vector)}(?!\w)", text) or re.search(rf"(^|_){token}(_|$)", name))


@pytest.mark.parametrize("page", VECTOR_PAGE_PATHS, ids=lambda p: str(p.relative_to(DOCS)))
def test_every_test_vector_in_the_docs_names_a_test_that_replays_it(page):
    vectors = _vectors(page.read_text(encoding="utf-8"))
    assert len(vectors) == VECTOR_PAGES[page.name], sorted(vectors)
    unnamed = [v for v, refs in vectors.items() if not refs]
    missing = [f"{v}: {f}::{n}" for v, refs in vectors.items() for f, n in refs if _test_text(f, n) is None]
    unrelated = [f"{v}: {f}::{n}" for v, refs in vectors.items() for f, n in refs
                 if (text := _test_text(f, n)) is not None and not _replays(v, n, text)]
    assert (unnamed, missing, unrelated) == ([], [], [])


@pytest.mark.parametrize("name", list(VECTOR_PAGES))
def test_a_german_page_carries_the_same_vectors_and_tests(name):
    english, german = (_vectors((folder / name).read_text(encoding="utf-8")) for folder in (DOCS, DOCS / "de"))
    assert german == english
