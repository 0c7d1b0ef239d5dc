"""Rewrite the speed tables of README.md, docs/ and benchmarks/README.md from benchmarks/figures.toml.

Every speed figure the project quotes lives once, in benchmarks/figures.toml. A page shows some of
them in a generated block:

    <!-- figures keys="shot_4d_exact shot_8d_exact" columns="what=scenario|value=figure|reference=for comparison" -->
    (the table; rewritten by this script)
    <!-- /figures -->

``keys`` lists the figures, one table row each; ``columns`` the fields to show (what, value,
target, before, reference, bench, method), each with its column heading after ``=``.

A figure's value is either written in figures.toml (``value``) or read from the committed benchmark
baseline (benchmarks/baseline/, the run that ``--benchmark-compare`` compares against): ``stat`` names
the benchmark's statistic (``min``, ``mean``, ``median``: seconds per call) or one of its
``extra_info`` figures, ``unit`` how to print it (``µs``, ``ms``, ``s``, or a rate such as
``M fights/s`` / ``k shots/s`` / ``cells/s``).

    python tools/figures.py          # rewrite every block
    python tools/figures.py --check  # exit 1 and name the pages whose blocks are out of date
"""

from __future__ import annotations

import json
import re
import sys
try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "benchmarks" / "figures.toml"
BASELINE = ROOT / "benchmarks" / "baseline"
FIELDS = ("what", "value", "target", "before", "reference", "bench", "method")
SOURCE_FIELDS = ("stat", "unit", "relative_to")
# extra_info figures whose name starts with a time unit carry that unit; other extra_info figures
# are rates (per second) or plain numbers.
NAMED_TIMES = {"microseconds_": 1e-6, "milliseconds_": 1e-3, "seconds_": 1.0}
TIME_UNITS = {"µs": 1e-6, "ms": 1e-3, "s": 1.0}
RATE_PREFIXES = {"k": 1e3, "M": 1e6}
BLOCK = re.compile(r'(<!-- figures keys="(?P<keys>[^"]*)" columns="(?P<columns>[^"]*)" -->\n)(?P<body>.*?)(<!-- /figures -->)',
                   re.DOTALL)
# A speed figure: something per second, or a time in µs/ms. Written anywhere but in a block, it
# would be a second copy that drifts.
SPEED = re.compile(r"\d[\d,.]*\s?(?:[kM]|thousand|million)?\s?[a-z0-9 ]{0,12}/\s?s\b|\d[\d,.]*\s?(?:µs|ms)\b")


# A line may state a time that is not a measurement (a constant of a model) if it says so.
NOT_MEASURED = "<!-- a constant of the estimate, not a measurement -->"


def pages() -> list[Path]:
    """The pages that may show figures: README.md, docs/*.md and benchmarks/README.md."""
    return [ROOT / "README.md", ROOT / "benchmarks" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def baseline() -> tuple[Path | None, dict[str, dict[str, object]]]:
    """The newest saved benchmark run under benchmarks/baseline/: its file and its benchmarks by name."""
    runs = sorted(BASELINE.glob("*/*.json"), key=lambda path: path.name)
    if not runs:
        return None, {}
    data = json.loads(runs[-1].read_text(encoding="utf-8"))
    return runs[-1], {bench["fullname"].split("/")[-1]: bench for bench in data["benchmarks"]}


def measured(key: str, figure: dict[str, str], benches: dict[str, dict[str, object]], run: Path | None) -> str:
    """A figure's value read from the baseline run, printed in its unit."""
    bench = benches.get(figure.get("bench", ""))
    if bench is None:
        raise SystemExit(f"{FIGURES.name} [{key}]: the baseline {run.name if run else '(none saved)'} has no "
                         f"benchmark {figure.get('bench')!r}")
    stat, unit = figure["stat"], figure["unit"]
    stats = bench["stats"]
    extra = bench["extra_info"]
    assert isinstance(stats, dict) and isinstance(extra, dict)
    number = float(stats[stat] if stat in ("min", "mean", "median") else extra[stat])
    number *= next((scale for prefix, scale in NAMED_TIMES.items() if stat.startswith(prefix)), 1.0)
    if unit in TIME_UNITS:
        return _significant(number / TIME_UNITS[unit]) + " " + unit
    prefix = unit.split(" ", 1)[0]
    scale = RATE_PREFIXES.get(prefix, 1.0) if " " in unit else 1.0
    return _significant(number / scale) + " " + unit


def _significant(number: float) -> str:
    """Three significant digits, thousands grouped: 0.0213, 4.27, 18,700."""
    if number >= 100:
        return f"{round(number, -len(str(int(number))) + 3):,.0f}"
    return f"{number:.3g}"


def load() -> dict[str, dict[str, str]]:
    figures = tomllib.loads(FIGURES.read_text(encoding="utf-8"))
    run, benches = baseline()
    for key, figure in figures.items():
        unknown = set(figure) - set(FIELDS) - set(SOURCE_FIELDS)
        sources = ("value" in figure) + ("stat" in figure)
        if unknown or "what" not in figure or sources != 1 or ("stat" in figure) != ("unit" in figure):
            raise SystemExit(f"{FIGURES.name} [{key}]: needs what, and either value or stat and unit; allows "
                             f"{', '.join(FIELDS + SOURCE_FIELDS)}"
                             + (f"; unknown: {', '.join(sorted(unknown))}" if unknown else ""))
        if "stat" in figure:
            figure["value"] = measured(key, figure, benches, run)
    for key, figure in figures.items():
        other = figure.get("relative_to")
        if other:
            if other not in figures or "stat" not in figures[other] or "stat" not in figure:
                raise SystemExit(f"{FIGURES.name} [{key}]: relative_to needs two measured figures, got {other!r}")
            ratio = _number(figure["value"]) / _number(figures[other]["value"])
            figure["value"] += f" ({ratio:.2f}×)"
    return figures


def _number(value: str) -> float:
    return float(value.split(" ", 1)[0].replace(",", ""))


def _cell(field: str, figure: dict[str, str]) -> str:
    text = figure.get(field)
    if not text:
        return "—"
    text = text.replace("|", "\\|")
    return f"`{text}`" if field == "bench" else f"**{text}**" if field == "value" else text


def table(keys: list[str], columns: str, figures: dict[str, dict[str, str]], where: str) -> str:
    spec = [part.split("=", 1) if "=" in part else [part, part] for part in columns.split("|")]
    for field, _ in spec:
        if field not in FIELDS:
            raise SystemExit(f"{where}: unknown column {field!r}; allowed {', '.join(FIELDS)}")
    missing = [key for key in keys if key not in figures]
    if missing:
        raise SystemExit(f"{where}: no figure named {', '.join(missing)} in {FIGURES.name}")
    lines = ["| " + " | ".join(title for _, title in spec) + " |", "|" + "---|" * len(spec)]
    lines += ["| " + " | ".join(_cell(field, figures[key]) for field, _ in spec) + " |" for key in keys]
    return "\n".join(lines) + "\n"


def render(text: str, figures: dict[str, dict[str, str]], where: str) -> str:
    def block(match: re.Match[str]) -> str:
        body = table(match["keys"].split(), match["columns"], figures, where)
        return match.group(1) + body + match.group(5)
    return BLOCK.sub(block, text)


def stray_figures(text: str) -> list[str]:
    """Lines outside the generated blocks that state a speed figure."""
    outside = BLOCK.sub("", text)
    return [line for line in outside.splitlines() if SPEED.search(line) and NOT_MEASURED not in line]


def main(argv: list[str]) -> int:
    check = "--check" in argv
    figures = load()
    stale = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        new = render(text, figures, str(page.relative_to(ROOT)))
        if new != text:
            stale.append(str(page.relative_to(ROOT)))
            if not check:
                page.write_text(new, encoding="utf-8")
    if check and stale:
        print("out of date (run python tools/figures.py): " + ", ".join(stale))
        return 1
    if not check and stale:
        print("rewrote " + ", ".join(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
