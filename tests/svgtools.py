"""Reading our own SVG drawings in tests (board, rating chart): parse, find by class."""

from __future__ import annotations

import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def parse_svg(svg: str) -> ET.Element:
    """Parse our own output (trusted, no entities): ElementTree is enough here."""
    return ET.fromstring(svg)  # noqa: S314


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def find_all(root: ET.Element, cls: str, tag: str = "*") -> list[ET.Element]:
    return [el for el in root.iter(f"{NS}{tag}" if tag != "*" else tag) if cls in classes(el)]


def find_one(root: ET.Element, cls: str, tag: str = "*") -> ET.Element:
    found = find_all(root, cls, tag)
    assert len(found) == 1, f"{len(found)} elements of class {cls}"
    return found[0]
