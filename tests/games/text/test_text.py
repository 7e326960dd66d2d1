"""games/text: CSV safe to open in a spreadsheet, the fold of a name for searching, and
the SVG markup of the drawings. Pure: no database."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest

from games.text.csvfile import BOM, csv_cell, csv_text
from games.text.fold import fold
from games.text.svgmarkup import attrs, number, text


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (
            '=HYPERLINK("https://evil.example","click")',
            '\'=HYPERLINK("https://evil.example","click")',
        ),
        ("+1+1", "'+1+1"),
        ("-3", "'-3"),  # text that looks like a number is still text
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("Kovács Ádám", "Kovács Ádám"),
        (-3, -3),  # a number stays the number it is
        (Decimal("-2.5"), Decimal("-2.5")),
        (float("-inf"), "'-inf"),  # not a number a spreadsheet knows: text, neutralised
        (True, "True"),
        (None, ""),
    ],
)
def test_a_cell_is_written_as_data_never_as_a_formula(value, written):
    assert csv_cell(value) == written


def test_csv_text_reads_back_as_written_with_the_bom_for_excel():
    rows = [["Name", "Points"], ["=cmd|' /C calc'!A0", -3], ['Anna "the box"', 7]]
    out = csv_text(rows, bom=True)
    assert out.startswith(BOM)
    read = list(csv.reader(io.StringIO(out.removeprefix(BOM))))
    assert read == [["Name", "Points"], ["'=cmd|' /C calc'!A0", "-3"], ['Anna "the box"', "7"]]


@pytest.mark.parametrize(
    ("name", "folded"),
    [
        ("Fekete Ádám", "fekete adam"),
        ("Győző", "gyozo"),
        ("Űrhajós", "urhajos"),
        ("Straße", "strasse"),
        ("ﬁnom", "finom"),
        ("KOVÁCS", "kovacs"),
    ],
)
def test_fold_drops_case_and_accents(name, folded):
    assert fold(name) == folded
    assert fold(folded) == folded  # a folded name folds to itself


def test_svg_numbers_attributes_and_text_are_escaped_and_short():
    assert [number(v) for v in (1.0, 1.25, -0.04, 12.349)] == ["1", "1.2", "0", "12.3"]
    assert attrs(class_="pip", stroke_width=1.5, fill=None) == ' class="pip" stroke-width="1.5"'
    assert attrs(title='a "quoted" <b>') == " title='a \"quoted\" &lt;b&gt;'"
    assert text(1, 2.5, "Anna & <Bence>") == '<text x="1" y="2.5">Anna &amp; &lt;Bence&gt;</text>'
