"""What the browser tests measure of a page's accessibility: axe-core's serious and
critical findings, and the size of every control a thumb has to hit."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

# axe-core's own impact scale; "serious" and "critical" are the ones that keep a person
# from using a page (no name for a control, unreadable contrast, a broken role).
BLOCKING = ("serious", "critical")

# Apple's and WCAG 2.5.5's size for a target a finger hits.
THUMB_PX = 44


def blocking_violations(page: Page, what: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line per
    element (rule, impact, the element, axe's message), prefixed by `what`."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    lines: list[str] = []
    for violation in results.response["violations"]:
        if violation.get("impact") not in BLOCKING:
            continue
        for node in violation["nodes"]:
            messages = [
                item["message"]
                for item in node.get("any", []) + node.get("all", []) + node.get("none", [])
            ]
            html = " ".join(str(node.get("html", "")).split())[:160]
            lines.append(
                f"{what}: {violation['id']} ({violation['impact']}) {html} -- "
                + "; ".join(messages)[:300]
            )
    return lines


# Every visible control a finger may hit: links, buttons, fields, the board's spots
# (not a box that is focusable only so the keyboard can scroll it). A spot's size is
# its enlarged hit area where it has one (the drawing may stay smaller, docs/web.md
# "On a phone").
_SMALL = """(least) => {
  const hits = [];
  const seen = new Set();
  const controls = document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary, '
    + '[role=button], [role=link], [role=checkbox], .spot');
  for (const e of controls) {
    // A box in a label is hit through its label too; a spot through its hit area.
    const control = e.closest('.spot') || e.closest('label') || e;
    if (seen.has(control)) continue;
    seen.add(control);
    const style = getComputedStyle(control);
    if (control.closest('[hidden]') || style.visibility === 'hidden' || style.display === 'none')
      continue;
    const r = control.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    // Moved off the page until it has focus (the skip link): not there for a finger.
    if (r.right <= 0 || r.bottom <= -window.scrollY) continue;
    // A control scrolled out of a sideways-scrolling box is still a control; one in a
    // box of its own that is not shown (a closed details) has no size.
    if (r.width + 0.5 < least || r.height + 0.5 < least) {
      const label = (control.getAttribute('aria-label') || control.textContent || control.id
                     || control.tagName).trim().replace(/\\s+/g, ' ').slice(0, 60);
      hits.push({tag: control.tagName.toLowerCase(), id: control.id,
                 cls: String(control.className.baseVal ?? control.className),
                 label, w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10});
    }
  }
  return hits;
}"""


def small_targets(page: Page, what: str, least: int = THUMB_PX) -> list[str]:
    """Every visible control smaller than `least` CSS px either way, one line each."""
    found: list[dict[str, Any]] = page.evaluate(_SMALL, least)
    return [
        f"{what}: <{f['tag']} id={f['id']!r} class={f['cls']!r}> {f['label']!r} "
        f"is {f['w']}x{f['h']} px"
        for f in found
    ]
