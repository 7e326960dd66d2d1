"""CSV files the server writes, safe to open in a spreadsheet.

A spreadsheet reads a cell that begins with ``=``, ``+``, ``-`` or ``@`` (and, in some,
a tab or a carriage return before one) as a formula: a player named
``=HYPERLINK("https://evil.example","click")`` would become a live link in the
director's copy of the finishing order, and ``+1+1`` a sum (CSV or formula injection,
https://owasp.org/www-community/attacks/CSV_Injection). Every CSV the server writes goes
through :func:`csv_text`, which prefixes such a **text** cell with a single quote, as
OWASP advises; the spreadsheet then shows the text as typed, quote hidden.

Numbers are data, not text: an ``int``, ``float`` or ``Decimal`` is written as the
number it is, so a points difference of ``-3`` stays the number -3. Callers therefore
pass numbers as numbers; a *string* ``"-3"`` is text like any other and is neutralised.

Pure: no Django, no I/O beyond the string it returns.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable
from decimal import Decimal

#: What a spreadsheet may read as the start of a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | float | Decimal | None


def csv_cell(value: Cell) -> str | int | float | Decimal:
    """One cell as written: a number as is, ``None`` as empty, text neutralised."""
    if value is None:
        return ""
    if isinstance(value, bool):  # a bool is an int to Python, not a number to people
        return str(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    if isinstance(value, Decimal) and value.is_finite():
        return value
    text = str(value)  # text, and numbers that are not one ("-inf", "NaN")
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


#: The UTF-8 byte-order mark: Excel reads a CSV file as UTF-8 only when it starts so
#: (else "Ádám" shows as "ĂdĂˇm"); other readers skip it.
BOM = "\ufeff"


def csv_text(rows: Iterable[Iterable[Cell]], *, bom: bool = False) -> str:
    """The rows as CSV text (``\\n`` line ends, quoted where needed), every cell through
    :func:`csv_cell`; ``bom``: starting with :data:`BOM`, for files people open in Excel."""
    out = io.StringIO()
    if bom:
        out.write(BOM)
    writer = csv.writer(out, lineterminator="\n")
    for row in rows:
        writer.writerow([csv_cell(value) for value in row])
    return out.getvalue()
