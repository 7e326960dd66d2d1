"""axe-core in the browser tests (issue 27): the page open in a Selenium driver checked
against WCAG 2.1 A and AA, and every violation of impact "serious" or "critical" named
with the elements it was found on.

axe-core is an npm package pinned in the repository's ``package.json`` and
``package-lock.json``; ``./dev services`` (and so ``./dev test``) installs it into
``node_modules/`` with ``npm ci``. Its script is injected through Selenium's
``execute_script``: the page's Content-Security-Policy (no script but the site's own
static files) does not apply to what the driver runs, so the site needs no exception.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

AXE_SCRIPT = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

#: WCAG 2.0 and 2.1, levels A and AA: the issue's bar.
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")

#: The impacts that fail a page. "moderate" and "minor" are reported, not failed.
FAILING = ("serious", "critical")

# Runs axe on the whole document and answers a small summary (the full result of a big
# page is megabytes over the driver's wire): per violation its rule, impact, help text
# and, per node, its selector and axe's one-line reason.
RUN_SCRIPT = """
const done = arguments[arguments.length - 1];
const tags = arguments[0];
// axe reads @import-ed style sheets by writing <style> elements, which the site's CSP
// refuses: those refusals are axe's, not the page's, so the CSP log the browser tests
// keep (tests/browser/conftest.py, CSP_WATCH) is put back as it was before the run.
const cspBefore = sessionStorage.getItem('csp-violations');
function restore() {
  if (cspBefore === null) { sessionStorage.removeItem('csp-violations'); }
  else { sessionStorage.setItem('csp-violations', cspBefore); }
}
axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
  .then(function (result) {
    restore();
    done({violations: result.violations.map(function (v) {
      return {id: v.id, impact: v.impact, help: v.help,
              nodes: v.nodes.map(function (n) {
                return {target: n.target.join(' '), impact: n.impact,
                        summary: (n.failureSummary || '').replace(/\\s+/g, ' ').trim(),
                        html: n.html.slice(0, 160)};
              })};
    })});
  })
  .catch(function (error) { restore(); done({error: String(error)}); });
"""


@functools.cache
def axe_source() -> str:
    """The text of axe.min.js (read once per test run)."""
    import pytest

    if not AXE_SCRIPT.exists():
        pytest.fail(
            f"the accessibility checks need axe-core: {AXE_SCRIPT} is missing. "
            "Install it with `npm ci` (or `./dev services`) in the repository.",
            pytrace=False,
        )
    return AXE_SCRIPT.read_text(encoding="utf-8")


@dataclass
class Violation:
    """One axe rule broken on a page, with the elements that break it."""

    rule: str
    impact: str
    help: str
    nodes: list[dict[str, Any]] = field(default_factory=list)

    @property
    def failing(self) -> bool:
        return self.impact in FAILING

    def __str__(self) -> str:
        lines = [f"{self.rule} ({self.impact}): {self.help}, {len(self.nodes)} element(s)"]
        lines.extend(
            f"    {node['target']}: {node['summary'][:240]}  ·  {node['html']}"
            for node in self.nodes[:8]
        )
        if len(self.nodes) > 8:
            lines.append(f"    … and {len(self.nodes) - 8} more")
        return "\n".join(lines)


def axe_violations(driver: Any) -> list[Violation]:
    """Every WCAG 2.1 A/AA violation axe finds on the page open in ``driver``."""
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(axe_source())
    driver.set_script_timeout(60)
    answer = driver.execute_async_script(RUN_SCRIPT, list(WCAG_TAGS))
    if answer.get("error"):
        raise AssertionError(f"axe-core failed on {driver.current_url}: {answer['error']}")
    return [
        Violation(rule=v["id"], impact=v["impact"] or "", help=v["help"], nodes=v["nodes"])
        for v in answer["violations"]
    ]


def serious_violations(driver: Any) -> list[Violation]:
    """The violations of impact serious or critical on the page open in ``driver``."""
    return [v for v in axe_violations(driver) if v.failing]


def assert_accessible(driver: Any, where: str = "") -> None:
    """Fail, listing each one with its elements, when the page open in ``driver`` has a
    serious or critical WCAG 2.1 AA violation."""
    found = serious_violations(driver)
    place = where or driver.current_url
    assert not found, "\n".join(
        [f"axe-core: {len(found)} serious or critical violation(s) on {place}"]
        + [str(v) for v in found]
    )
