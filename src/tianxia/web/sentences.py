"""The engine's refusal reasons in Dutch and German.

A refusal's reason is an English sentence the rules build with values in it ("P1 does
not lead in section B: 2 against 3"). `make i18n` finds every such sentence in the
source (the reason given with a rule's number, in `why_illegal` and wherever an
`IllegalActionError` is raised) and writes it to the catalogue as a template, its values
numbered (`{0} does not lead in section {1}: {2} against {3}`) under the rule's number as
context. `translate_reason` matches a reason against the templates of its rule and fills
the translation with the same values; a reason no template matches stays English.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

from tianxia.web.i18n import translations

SRC = Path(__file__).resolve().parents[1]
SOURCES = ["games/*/rules.py", "core/*.py", "play/table.py", "server/live.py"]
_RULE = re.compile(r"^[A-Z]+-\d+(\.\d+)*$")
ANY_RULE = "ANY-0"  # the context of a reason whose rule is computed, not written


def _is_rule(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and bool(_RULE.match(node.value))
    )


def _template(node: ast.AST) -> tuple[str, list[str]] | None:
    """The sentence with its values numbered, and the source of each value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}"), []
    if not isinstance(node, ast.JoinedStr):
        return None
    text, values = "", list[str]()
    for part in node.values:
        if isinstance(part, ast.Constant):
            text += str(part.value).replace("{", "{{").replace("}", "}}")
        elif isinstance(part, ast.FormattedValue):
            text += "{" + str(len(values)) + "}"
            values.append(ast.unparse(part.value))
    return text, values


def extract() -> Iterator[tuple[str, str, list[str], str]]:
    """(rule, template, value sources, where) for every reason in the source."""
    for pattern in SOURCES:
        for path in sorted(SRC.glob(pattern)):
            tree = ast.parse(path.read_text())
            # In a function that says why an action is refused, a returned pair is
            # (rule, reason) even where the rule is looked up rather than written out.
            computed: set[int] = set()
            for fn in ast.walk(tree):
                if isinstance(fn, ast.FunctionDef) and "why" in fn.name:
                    for ret in ast.walk(fn):
                        if (
                            isinstance(ret, ast.Return)
                            and isinstance(ret.value, ast.Tuple)
                            and len(ret.value.elts) == 2
                            and not _is_rule(ret.value.elts[0])
                        ):
                            computed.add(id(ret.value))
            for node in ast.walk(tree):
                pair: list[ast.expr] | None = None
                if isinstance(node, ast.Tuple) and id(node) in computed:
                    found = _template(node.elts[1])
                    if found is not None:
                        yield ANY_RULE, found[0], found[1], f"{path.relative_to(SRC)}:{node.lineno}"
                    continue
                if isinstance(node, ast.Tuple) and len(node.elts) == 2 and _is_rule(node.elts[0]):
                    pair = node.elts
                elif isinstance(node, ast.Call):
                    for i in range(len(node.args) - 1):
                        if _is_rule(node.args[i]):
                            pair = node.args[i : i + 2]
                            break
                if pair is None:
                    continue
                found = _template(pair[1])
                if found is None:
                    continue
                rule = pair[0].value  # type: ignore[attr-defined]
                where = f"{path.relative_to(SRC)}:{getattr(node, 'lineno', 0)}"
                yield rule, found[0], found[1], where


def _pattern(template: str) -> re.Pattern[str]:
    out, pos = "", 0
    for m in re.finditer(r"\{(\d+)\}", template):
        out += re.escape(template[pos : m.start()].replace("{{", "{").replace("}}", "}"))
        out += f"(?P<v{m.group(1)}>.*?)"
        pos = m.end()
    out += re.escape(template[pos:].replace("{{", "{").replace("}}", "}"))
    return re.compile(f"^{out}$", re.DOTALL)


@functools.cache
def _templates() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    from babel.messages.pofile import read_po

    from tianxia.web.i18n import LOCALE

    by_rule: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
    with (LOCALE / "tianxia.pot").open("rb") as f:
        for m in read_po(f):
            if m.context and _RULE.match(m.context) and isinstance(m.id, str):
                by_rule.setdefault(m.context, []).append((m.id, _pattern(m.id)))
    # The template with the most fixed words first: a shorter one could swallow the
    # rest of a longer sentence into its last value.
    for templates in by_rule.values():
        templates.sort(key=lambda t: -len(re.sub(r"\{\d+\}", "", t[0])))
    return by_rule


def translate_reason(rule: str, reason: str, lang: str) -> str:
    """`reason` (a refusal under `rule`) in `lang`, or as it is if no template fits."""
    if lang == "en":
        return reason
    t = translations(lang)
    by_rule = _templates()
    for template, pattern in [*by_rule.get(rule, []), *by_rule.get(ANY_RULE, [])]:
        m = pattern.match(reason)
        if m is None:
            continue
        context = rule if (template, pattern) in by_rule.get(rule, []) else ANY_RULE
        translated = str(t.pgettext(context, template))
        if translated == template:
            return reason
        values = [m.group(f"v{i}") for i in range(len(pattern.groupindex))]
        try:
            return translated.format(*values)
        except (IndexError, KeyError, ValueError):
            return reason
    return reason


def write_template(pot: Path) -> int:
    """Add every reason to the catalogue template `pot`; returns how many."""
    from babel.messages.pofile import read_po, write_po

    with pot.open("rb") as f:
        catalog = read_po(f)
    n = 0
    for rule, template, values, _where in extract():
        comment = "values: " + "; ".join(f"{{{i}}} = {v}" for i, v in enumerate(values))
        catalog.add(template, context=rule, auto_comments=[comment] if values else [])
        n += 1
    with pot.open("wb") as f:
        write_po(f, catalog, width=100, sort_output=True)
    return n


if __name__ == "__main__":
    from tianxia.web.i18n import LOCALE

    print(f"{write_template(LOCALE / 'tianxia.pot')} refusal reasons in the template")
