"""A printed index of studies by GBR class, as magazines and books print theirs: a summary of the
classes at the top, then a section a class in code order (sorting codes as strings groups equal
material, spec section 1), each study with its diagram, caption, composer and source.

HTML carries its diagrams inline (SVG in the page: it opens with no network); Markdown links to
SVG files written into a folder beside it (``index_files/``).
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

from gbr_tui.core.captions import write_caption
from gbr_tui.core.code import Rule
from gbr_tui.core.describe import plural
from gbr_tui.core.errors import GbrError
from gbr_tui.core.material import men_on_board
from gbr_tui.core.publish.diagram import DiagramStyle, diagram_svg
from gbr_tui.core.publish.studies import Study
from gbr_tui.core.text import printable

#: Of a composer's name or a source, at most this much is printed.
FIELD_CHARACTERS = 200
#: Diagrams in an index are smaller than one printed alone.
INDEX_STYLE = DiagramStyle(size=240)


@dataclass(frozen=True)
class ClassSection:
    """One class of the index: its code, its material and its studies in collection order."""

    code: str
    material: str
    studies: list[Study]

    @property
    def anchor(self) -> str:
        return f"class-{self.code}"


def sections(studies: Iterable[Study]) -> list[ClassSection]:
    """The studies grouped by class, the classes in code order (a stable sort: within a class
    the collection's order)."""
    ordered = sorted(studies, key=lambda study: study.code)
    return [
        ClassSection(code, men_on_board(members[0].board, " v "), members)
        for code, group in groupby(ordered, key=lambda study: study.code)
        for members in [list(group)]
    ]


def caption(study: Study, rule: Rule = Rule.COUNT) -> str:
    """The study's compact caption (``=0323.12g3g1...``), or its code where the position has no
    squares form (not one king a side)."""
    try:
        return write_caption(study.board, "compact", study.stipulation, rule=rule)
    except GbrError:
        return (study.stipulation or "") + study.code


def _field(text: str) -> str:
    return printable(text, FIELD_CHARACTERS)


def html_report(title: str, classes: list[ClassSection], rule: Rule = Rule.COUNT) -> str:
    """The index as one HTML page with its diagrams inline: no script, no network."""
    total = sum(len(section.studies) for section in classes)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(_field(title))}</title>",
        "<style>",
        "body{font-family:Georgia,'DejaVu Serif',serif;margin:2em;color:#111;background:#fff}",
        "ol.summary{columns:15em;column-gap:2em;list-style:none;padding:0;font-size:.9em}",
        "ol.summary li{break-inside:avoid;border-bottom:1px solid #ddd;padding:.1em 0}",
        "ol.summary .count{float:right}",
        ".studies{display:flex;flex-wrap:wrap;gap:1.5em}figure{margin:0;width:240px}",
        "figcaption{font-size:.9em;line-height:1.4}.code{font-family:monospace}",
        "</style></head><body>",
        f"<h1>{html.escape(_field(title))}</h1>",
        f"<p>{plural(total, 'study', 'studies')} in {plural(len(classes), 'class', 'classes')}, by GBR class: "
        "each class, its material and how many.</p>",
        '<ol class="summary">',
    ]
    for section in classes:
        out.append(
            f'<li data-code="{section.code}" data-count="{len(section.studies)}">'
            f'<a class="code" href="#{section.anchor}">{section.code}</a> {html.escape(section.material)}'
            f' <span class="count">{len(section.studies)}</span></li>'
        )
    out.append("</ol>")
    for section in classes:
        out.append(f'<section class="gbr-class" id="{section.anchor}" data-code="{section.code}">')
        out.append(f'<h2><span class="code">{section.code}</span> {html.escape(section.material)}</h2>')
        out.append('<div class="studies">')
        for study in section.studies:
            words = caption(study, rule)
            out.append(f'<figure class="study" data-fen="{html.escape(study.board.fen())}">')
            out.append(diagram_svg(study.board, None, INDEX_STYLE))
            lines = [f'<span class="code">{html.escape(words)}</span>']
            lines += [html.escape(_field(text)) for text in (study.composer, study.source) if text]
            out.append(f"<figcaption>{'<br>'.join(lines)}</figcaption></figure>")
        out.append("</div></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def markdown_report(
    title: str, classes: list[ClassSection], folder: Path, rule: Rule = Rule.COUNT
) -> tuple[str, dict[str, str]]:
    """The index as Markdown, and the SVG diagrams it links to by their names in ``folder``
    (relative to the page): name -> SVG text."""
    total = sum(len(section.studies) for section in classes)
    counted = f"{plural(total, 'study', 'studies')} in {plural(len(classes), 'class', 'classes')}"
    out = [f"# {_markdown(title)}", "", f"{counted}, by GBR class.", ""]
    out += ["| class | material | studies |", "|---|---|---|"]
    out += [f"| [{s.code}](#{s.anchor}) | {s.material} | {len(s.studies)} |" for s in classes]
    diagrams: dict[str, str] = {}
    for section in classes:
        out += ["", f'<a id="{section.anchor}"></a>', "", f"## {section.code} {section.material}", ""]
        for study in section.studies:
            name = f"{len(diagrams) + 1:04d}-{study.code}.svg"
            diagrams[name] = diagram_svg(study.board, None, INDEX_STYLE)
            words = " · ".join(_markdown(text) for text in (study.composer, study.source) if text)
            out += [
                f"![{caption(study, rule)}]({folder.name}/{name})",
                "",
                f"`{caption(study, rule)}` {words}".rstrip(),
                "",
            ]
    return "\n".join(out).rstrip() + "\n", diagrams


def _markdown(text: str) -> str:
    """A field made printable and its Markdown and HTML characters escaped."""
    escaped = html.escape(_field(text))
    return "".join("\\" + char if char in "\\`*_[]#|!" else char for char in escaped)
