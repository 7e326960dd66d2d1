"""Pure text helpers every feature writes with (no Django, standard library only): a CSV
file safe to open in a spreadsheet (``csvfile.py``), the fold of a name for searching
(``fold.py``) and the markup of the SVG drawings (``svgmarkup.py``)."""
