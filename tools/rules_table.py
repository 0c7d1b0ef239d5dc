"""Writes the rules tables of docs/rules/killteam.md §9 from Kill Team's rules tables (the rows of
``kt.WeaponRules`` and ``kt.Abilities``, killteam/notation.py). tests/killteam/test_rules_table.py
fails while the page differs from what this writes.

    PYTHONPATH=python python tools/rules_table.py          # rewrite the block in place
    PYTHONPATH=python python tools/rules_table.py --check  # exit 1 when the page is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mathhammer.killteam.notation import rules_page_tables
from mathhammer.killteam.profiles import Abilities, WeaponRules

PAGE = Path(__file__).resolve().parent.parent / "docs/rules/killteam.md"
BEGIN = "<!-- rules tables: written by tools/rules_table.py from the rows of kt.WeaponRules and kt.Abilities -->"
END = "<!-- end of the rules tables -->"


def block() -> str:
    """The generated block, markers included."""
    return f"{BEGIN}\n\n{rules_page_tables(WeaponRules.TABLE, Abilities.TABLE, WeaponRules.KEPT)}\n\n{END}"


def page_with_block(text: str) -> str:
    """The page with its block replaced by the generated one."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + block() + text[end:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the page differs, write nothing")
    args = parser.parse_args()
    text = PAGE.read_text(encoding="utf-8")
    wanted = page_with_block(text)
    if args.check:
        return 0 if wanted == text else 1
    PAGE.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
