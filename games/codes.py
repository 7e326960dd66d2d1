"""Short codes people type from a phone, and the QR codes that carry a link to scan.

Shared by the apps (``games`` is the core both depend on): a tournament event's check-in
code (:mod:`tournaments.services.desk`) and a chouette session's join code
(:mod:`chouette.services.joining`) are both :func:`new_code` in :data:`CODE_ALPHABET`, read with
:func:`clean_code` and compared with :func:`same_code`; the tournament wall and the
chouette scoreboard draw their QR codes with :func:`qr_svg`.
"""

from __future__ import annotations

import secrets

import segno
from django.utils.safestring import SafeString, mark_safe

#: The letters of a code: no look-alikes (no I, L, O, 0, 1).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def new_code(length: int) -> str:
    """A fresh random code of ``length`` letters (31**6: some 887 million of 6)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def clean_code(code: object) -> str:
    """A typed code as stored: capitals, without spaces and dashes."""
    return "".join(ch for ch in str(code or "").upper() if ch not in " -\t")


def same_code(typed: object, stored: str) -> bool:
    """Whether the typed code is the stored one (in constant time)."""
    return secrets.compare_digest(clean_code(typed).encode(), stored.encode())


def qr_code(url: str) -> segno.QRCode:
    """The QR code of ``url`` (error correction M: still read on a creased sheet)."""
    return segno.make(url, error="m", micro=False)


def qr_svg(url: str) -> SafeString:
    """The QR code of ``url`` as inline SVG markup: a ``viewBox`` and one path, no size
    (CSS sizes it) and no ``style`` or script (the Content-Security-Policy)."""
    svg = qr_code(url).svg_inline(omitsize=True, svgclass="qr", lineclass="qr-line", border=2)
    return mark_safe(svg)  # noqa: S308 - segno's geometry only: the URL is not in the markup
