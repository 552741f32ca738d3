"""Write docs/api.md, the reference of the names ``priffe_records`` exports, from their docstrings.

The page is made, not written: the docstrings are the one place the API is
described, and tests/test_docs_examples.py fails when the committed page is
not what this script makes now.

    python docs/make_api.py          # rewrite docs/api.md
    python docs/make_api.py --check  # exit 1 when docs/api.md is out of date
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

import priffe_records
from priffe_records.rules.priffe.options import PRESETS

PAGE = Path(__file__).with_name("api.md")
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")

INTRO = """# API reference

What `import priffe_records` gives (its `__all__`), made from the docstrings by
`docs/make_api.py`; do not edit by hand. The format is in `docs/format.md`, the
rules in `docs/rules-decisions.md`, the replay model in `docs/replay.md`.

```python
import priffe_records as pr
from priffe_records.rules.priffe.options import PRESETS  # Priffe's own rule variants

record = next(pr.read("examples/partie-uppsala.ppn"))
print(record["Event"], "Deal" in record)   # a record reads like a table of tags
print(str(record).splitlines()[1])         # str() is the record as PPN
findings = pr.validate(pr.read("examples/partie-uppsala.ppn"), options=PRESETS["sv"])
print(sum(f.severity is pr.Severity.ERROR for f in findings), "errors")
print(len(list(pr.read_headers("examples/partie-uppsala.ppn"))), "records")
```
"""


def _signature(obj: object) -> str:
    """``(a, *, b=...)`` with object addresses taken out, so the page is the same every run."""
    try:
        sig = inspect.signature(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return ""
    params = [p.replace(annotation=_shown(p.annotation), default=(
        p.default if p.default is inspect.Parameter.empty else _Shown(_default(p.default))))
        for p in sig.parameters.values()]
    text = str(sig.replace(parameters=params, return_annotation=_shown(sig.return_annotation)))
    return _ADDRESS.sub("", text)


def _shown(annotation: object) -> object:
    """An annotation as written (they are strings here: ``from __future__ import annotations``)."""
    return _Shown(annotation) if isinstance(annotation, str) else annotation


class _Shown:
    """A default value shown as the code names it (``PRESETS["sv"]``), not as its repr."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _default(value: object) -> str:
    for key, preset in PRESETS.items():
        if value is preset:
            return f'PRESETS["{key}"]'
    return repr(value).replace("'", '"')


def _doc(obj: object) -> str:
    return inspect.cleandoc(obj.__doc__ or "").strip()


def _methods(cls: type) -> list[str]:
    """The class's own public methods and properties that say what they do."""
    out: list[str] = []
    for name, member in vars(cls).items():
        if name.startswith("_") and name not in ("__getitem__", "__contains__", "__str__"):
            continue
        target = member.fget if isinstance(member, property) else member
        if isinstance(target, (staticmethod, classmethod)):
            target = target.__func__
        if not callable(target) or not _doc(target):
            continue
        sig = "" if isinstance(member, property) else _signature(target)
        out.append(f"* `{name}{sig}` — {_doc(target).splitlines()[0]}")
    return out


def _entry(name: str) -> str:
    obj = getattr(priffe_records, name)
    if not callable(obj):
        kind = type(obj).__name__
        return f"## `{name}`\n\n{kind}; see its type's entry.\n" if name != "__version__" \
            else f"## `__version__`\n\n`{obj!r}`\n"
    head = f"## `{name}{_signature(obj)}`" if not inspect.isclass(obj) else f"## class `{name}`"
    parts = [head, _doc(obj) or "(no docstring)"]
    if inspect.isclass(obj):
        methods = _methods(obj)
        if methods:
            parts.append("\n".join(methods))
    return "\n\n".join(parts) + "\n"


def render() -> str:
    """The page's text for the package as it is imported now."""
    names = sorted(priffe_records.__all__, key=str.casefold)
    return INTRO + "\n" + "\n".join(_entry(n) for n in names)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE} is out of date: run python docs/make_api.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
