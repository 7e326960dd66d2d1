"""A phone in the browser tests: a Chromium that lays pages out at 390 by 844 (an
iPhone 12-14's CSS viewport), and the measure of whether the page fits its width.

Headless Chromium will not make a window narrower than 500 px, so a plain
``--window-size=390,844`` lays pages out at 500: the phone is Chrome's device emulation
(``mobileEmulation``'s ``deviceMetrics``), which sets the layout viewport itself, with
touch and the mobile viewport meta tag honoured as on a phone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PHONE_WIDTH = 390
PHONE_HEIGHT = 844

# The document's width against the screen's (the layout viewport, ``clientWidth``: on a
# phone ``window.innerWidth`` is the visual viewport, which zooms out to the content's
# width when the page is too wide, so it would grow with the fault it should show), and
# when it is wider, the elements that stick out: those whose right edge is past the
# screen and whose parent's is not (the first element that overflows, not every ancestor
# that merely contains it), skipping what sits inside a box that scrolls sideways on its
# own (``overflow-x: auto``: the bracket, a .table-scroll) or is clipped, which does not
# widen the page.
FIT_SCRIPT = """
const doc = document.documentElement;
const width = doc.clientWidth;
const navigation = performance.getEntriesByType('navigation')[0];
const result = {scrollWidth: doc.scrollWidth, innerWidth: window.innerWidth,
                screenWidth: width, offenders: [],
                status: navigation ? navigation.responseStatus : 0,
                viewportMeta: !!document.querySelector('meta[name=viewport]')};
// Boxes that scroll sideways on their own (they do not widen the page, but their
// content is wider than the screen): reported, not failed.
result.scrollers = [];
for (const el of document.querySelectorAll('main *')) {
  const overflow = getComputedStyle(el).overflowX;
  if ((overflow === 'auto' || overflow === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
    result.scrollers.push({element: el.tagName.toLowerCase()
      + (el.getAttribute('class') ? '.' + el.getAttribute('class').trim().split(/\\s+/)[0] : '')
      + (el.firstElementChild ? ' > ' + el.firstElementChild.tagName.toLowerCase()
         + (el.firstElementChild.getAttribute('class')
            ? '.' + el.firstElementChild.getAttribute('class').trim().split(/\\s+/).join('.') : '')
         : ''),
      scrollWidth: el.scrollWidth, clientWidth: el.clientWidth});
  }
}
if (doc.scrollWidth <= width) { return result; }
function clipsSideways(el) {
  const overflow = getComputedStyle(el).overflowX;
  return overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden'
    || overflow === 'clip';
}
function describe(el) {
  let text = el.tagName.toLowerCase();
  if (el.id) { text += '#' + el.id; }
  const classes = (el.getAttribute('class') || '').trim().split(/\\s+/).filter(Boolean);
  if (classes.length) { text += '.' + classes.slice(0, 3).join('.'); }
  const parent = el.parentElement;
  if (parent && parent !== document.body) {
    let up = parent.tagName.toLowerCase();
    if (parent.id) { up += '#' + parent.id; }
    else if (parent.getAttribute('class')) {
      up += '.' + parent.getAttribute('class').trim().split(/\\s+/)[0];
    }
    text = up + ' > ' + text;
  }
  return text;
}
function walk(el, parentRight) {
  const rect = el.getBoundingClientRect();
  const right = rect.right + window.scrollX;
  const visible = rect.width > 0 || rect.height > 0;
  if (visible && right > width + 0.5 && parentRight <= width + 0.5) {
    result.offenders.push({element: describe(el), right: Math.round(right),
                           width: Math.round(rect.width)});
    if (result.offenders.length >= 12) { return; }
  }
  if (el !== doc && el !== document.body && clipsSideways(el)) { return; }
  for (const child of el.children) {
    walk(child, visible ? right : parentRight);
    if (result.offenders.length >= 12) { return; }
  }
}
walk(document.body, 0);
return result;
"""


@dataclass
class Fit:
    """How wide the page laid itself out, against the screen."""

    url: str
    scroll_width: int  # document.documentElement.scrollWidth
    screen_width: int  # the layout viewport: document.documentElement.clientWidth
    inner_width: int  # window.innerWidth
    phone_width: int = PHONE_WIDTH
    status: int = 0  # the HTTP status of the page (0: not known)
    viewport_meta: bool = True
    offenders: list[dict[str, Any]] = field(default_factory=list)
    #: boxes that scroll sideways inside the page (the bracket, a .table-scroll) whose
    #: content is wider than they are: allowed, listed for a person measuring
    scrollers: list[dict[str, Any]] = field(default_factory=list)

    @property
    def fits(self) -> bool:
        # A page without the viewport meta tag is laid out 980 px wide and shrunk: its
        # clientWidth is 980, not the phone's.
        return max(self.scroll_width, self.screen_width, self.inner_width) <= self.phone_width

    @property
    def over(self) -> int:
        """How many CSS pixels too wide (0 when it fits)."""
        widest = max(self.scroll_width, self.screen_width, self.inner_width)
        return max(0, widest - self.phone_width)

    def __str__(self) -> str:
        if self.fits:
            return f"{self.url}: {self.scroll_width} px, fits {self.phone_width}"
        if not self.viewport_meta:
            return (
                f"{self.url}: no <meta name=viewport>, laid out {self.screen_width} px wide "
                f"and shrunk onto a {self.phone_width} px screen"
            )
        named = "; ".join(
            f"{o['element']} (right edge {o['right']}, {o['width']} wide)" for o in self.offenders
        )
        return (
            f"{self.url}: {self.scroll_width} px wide on a {self.phone_width} px screen "
            f"(+{self.over}): {named or 'no single element named'}"
        )


def phone_chromium(
    width: int = PHONE_WIDTH, height: int = PHONE_HEIGHT, pixel_ratio: int = 3
) -> Any:
    """A headless Chromium laying pages out as a ``width`` by ``height`` phone (pixel ratio
    ``pixel_ratio``, touch, the mobile viewport), in English. Quit it when done."""
    import pytest
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    from tests.browser.conftest import CHROMEDRIVER, CHROMIUM

    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        pytest.fail(
            f"browser tests need Chromium and its driver: {', '.join(missing)} missing. "
            "Install the Debian packages: apt-get install chromium chromium-driver.",
            pytrace=False,
        )
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-background-networking",
        "--disable-dev-shm-usage",
        "--lang=en-US",
        "--hide-scrollbars",
    ):
        options.add_argument(argument)
    options.add_experimental_option(
        "mobileEmulation",
        {
            "deviceMetrics": {
                "width": width,
                "height": height,
                "pixelRatio": pixel_ratio,
                "touch": True,
            }
        },
    )
    return webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)


def page_fit(driver: Any, width: int = PHONE_WIDTH) -> Fit:
    """The current page's ``document.documentElement.scrollWidth`` (and
    ``window.innerWidth``, ``clientWidth``) against the phone's ``width``, naming the
    elements that stick out when it is too wide; with the page's HTTP status."""
    measured = driver.execute_script(FIT_SCRIPT)
    return Fit(
        url=driver.current_url,
        scroll_width=int(measured["scrollWidth"]),
        screen_width=int(measured["screenWidth"]),
        inner_width=int(measured["innerWidth"]),
        phone_width=width,
        status=int(measured["status"] or 0),
        viewport_meta=bool(measured["viewportMeta"]),
        offenders=list(measured["offenders"]),
        scrollers=list(measured["scrollers"]),
    )
