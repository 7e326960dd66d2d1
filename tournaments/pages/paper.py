"""Paper: a flight's printable PDFs, rendered by WeasyPrint from the page templates, and
the QR code (segno, inline SVG) that opens the flight's public page on a phone.

* :func:`flight_draw_pdf` - the draw sheet: every part of a bracket on its own page,
  the whole part on one page (A4 or A3 landscape, ``?size=a3``; readable up to 32
  players on A4), or the pairings and results of every round of a Swiss / round robin;
* :func:`flight_round_pdf` - one round (``?part=`` for a bracket's part): the pairings
  list, then a score sheet per match (table, players, match length, clock, a line per
  game, the final score, signatures);
* :func:`flight_standings_pdf` - the standings (Swiss, round robin) or the finishing
  order (brackets).

Each sheet carries the QR code to the flight's page, as the wall does
(:func:`games.codes.qr_code`).

What is printed is what the page shows: the flight is read through the public page's own
functions (:func:`tournaments.pages.public._flight_or_404` and the selectors behind it),
so a visitor gets no more on paper than on the screen (drafts, unpublished rounds).

WeasyPrint needs Pango (a system library, ``./dev services`` installs it): it is imported
on the first PDF, not at start-up, and where it cannot load the views answer a 503 page
saying so (:class:`PaperUnavailable`); the rest of the site runs without it. The
renderer fetches nothing (it reads ``data:`` URLs only): the stylesheet is read from the
static files, the drawings are inline SVG and the QR code a ``data:`` PNG.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from games.codes import qr_code
from games.play.presets import preset_label
from tournaments import bridge, selectors
from tournaments.pages import public
from tournaments.pages.common import part_title
from tournaments.pages.wall import flight_url

#: Paper sizes of the draw sheet (``?size=``), landscape, and the height left for one
#: part's drawing under the sheet's heading (the page less its margins and the heading).
SIZES: Mapping[str, tuple[str, str]] = {"a4": ("A4", "158mm"), "a3": ("A3", "245mm")}
STYLESHEET = "tournaments/paper.css"
#: Game lines on a score sheet: one per game of the longest match, within these bounds.
MIN_GAME_LINES, MAX_GAME_LINES = 5, 25


class PaperUnavailable(Exception):
    """WeasyPrint cannot be loaded here (not installed, or Pango missing)."""


def _weasyprint() -> Any:
    try:
        import weasyprint
    except (ImportError, OSError) as exc:  # OSError: Pango or its fonts missing
        raise PaperUnavailable(str(exc)) from exc
    return weasyprint


def render_pdf(html: str, *, base_url: str, page_css: str = "") -> bytes:
    """``html`` as PDF with the paper stylesheet and ``page_css`` (``@page`` rules)."""
    weasyprint = _weasyprint()
    sheets = [weasyprint.CSS(filename=finders.find(STYLESHEET))]
    if page_css:
        sheets.append(weasyprint.CSS(string=page_css))
    # Only data: URLs (the QR code's image) are read; nothing is fetched from anywhere.
    fetcher = weasyprint.URLFetcher(allowed_protocols={"data"})
    document = weasyprint.HTML(string=html, base_url=base_url, url_fetcher=fetcher)
    pdf: bytes = document.write_pdf(stylesheets=sheets)
    return pdf


def _pdf_response(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    *,
    filename: str,
    page_css: str = "",
) -> HttpResponse:
    try:
        _weasyprint()
    except PaperUnavailable:
        return render(
            request,
            "tournaments/paper/unavailable.html",
            {"event": context["event"], "flight": context["flight"]},
            status=503,
        )
    html = render_to_string(template, context, request=request)
    data = render_pdf(html, base_url=request.build_absolute_uri("/"), page_css=page_css)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _common(request: HttpRequest, page: selectors.BracketPage) -> dict[str, Any]:
    url = flight_url(request, page.flight)
    return {
        "event": page.event,
        "flight": page.flight,
        "flight_url": url,
        # One PNG for every sheet: WeasyPrint decodes it once and embeds it once, where
        # an inline SVG is drawn again on each sheet (bench/paper.py).
        "qr_image": qr_code(url).png_data_uri(scale=6, border=2),
        # The URL in pieces a line can break between (no word-break: WeasyPrint is slow).
        "flight_url_lines": [url[i : i + 40] for i in range(0, len(url), 40)],
        "printed_at": timezone.now(),
    }


def _no_href(_match: Any) -> str:
    return ""


def _clock_name(preset: str) -> str:
    return preset_label(preset)


def flight_draw_pdf(request: HttpRequest, slug: str, flight_id: int) -> HttpResponse:
    """The draw sheet: each bracket part whole on one landscape page (``?size=a3``), or
    a Swiss / round robin's rounds."""
    page = public._flight_or_404(slug, flight_id, request.user)
    flight = page.flight
    size = request.GET.get("size", "a4")
    paper, drawing_height = SIZES.get(size, SIZES["a4"])
    context = _common(request, page)
    titles: dict[tuple[str, int], str] = {}
    if flight.is_bracket and flight.bracket:
        parts, titles, _order = public._brackets(page, href=_no_href, min_scale=0)
        context["parts"] = parts
    context["rounds"] = [] if context.get("parts") else public._rounds(page, titles)
    context["paper"] = paper
    page_css = (
        f"@page {{ size: {paper} landscape; }}"
        f" .draw-part svg.bracket {{ height: {drawing_height}; }}"
    )
    return _pdf_response(
        request,
        "tournaments/paper/draw_sheet.html",
        context,
        filename=f"{page.event.slug}-{flight.pk}-draw-{size if size in SIZES else 'a4'}.pdf",
        page_css=page_css,
    )


def _round_sheets(page: selectors.BracketPage, part: str, number: int) -> dict[str, Any]:
    flight = page.flight
    rows = page.parts.get(part, {}).get(number)
    if not rows:
        raise Http404
    titles: dict[tuple[str, int], str] = {}
    if flight.is_bracket and flight.bracket:
        _parts, titles, _order = public._brackets(page, href=_no_href, min_scale=0)
    (info,) = [
        r for r in public._rounds(page, titles) if (r["part"], r["number"]) == (part, number)
    ]
    settings = info["settings"]
    preset = settings.clock_preset if settings is not None else flight.clock_preset
    sheets = []
    for m in rows:
        if m.status in (m.Status.BYE, m.Status.WALKOVER):
            continue  # nothing to play
        length = m.match_length
        lines = min(max(2 * length - 1, MIN_GAME_LINES), MAX_GAME_LINES)
        sheets.append({"match": m, "length": length, "lines": range(1, lines + 1)})
    return {
        "round": info,
        "round_title": (f"{info['part_title']}: " if info["part_title"] else "") + info["title"],
        "clock": _clock_name(preset),
        "matches": rows,
        "sheets": sheets,
    }


def flight_round_pdf(request: HttpRequest, slug: str, flight_id: int, number: int) -> HttpResponse:
    """One round's pairings and a score sheet per match (``?part=`` of a bracket)."""
    page = public._flight_or_404(slug, flight_id, request.user)
    part = request.GET.get("part", "")
    context = _common(request, page) | _round_sheets(page, part, number)
    return _pdf_response(
        request,
        "tournaments/paper/round_sheets.html",
        context,
        filename=f"{page.event.slug}-{page.flight.pk}-{part or 'round'}-{number}.pdf",
    )


def flight_standings_pdf(request: HttpRequest, slug: str, flight_id: int) -> HttpResponse:
    """The standings of a Swiss / round robin, or a bracket's finishing order."""
    page = public._flight_or_404(slug, flight_id, request.user)
    flight = page.flight
    context = _common(request, page)
    if flight.is_bracket:
        order: dict[str, list[dict[str, Any]]] = {}
        if flight.bracket:
            _parts, _titles, order = public._brackets(page, href=_no_href, min_scale=0)
        context["order"] = [
            {"ranking": r, "title": part_title(r), "places": places} for r, places in order.items()
        ]
    else:
        context["standings"] = public._standings(page)
        context["tiebreaks"] = [
            public.TIEBREAK_LABELS.get(t, t) for t in bridge.tiebreak_order(flight)
        ]
    context["title"] = _("Standings")
    return _pdf_response(
        request,
        "tournaments/paper/standings.html",
        context,
        filename=f"{page.event.slug}-{flight.pk}-standings.pdf",
    )
