"""Every docstring example in the package runs against the package as imported and prints what it
says (numpy 2 prints scalars as np.float64(...), so examples print plain Python values)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import mathhammer
import pytest

MODULES = sorted(m.name for m in pkgutil.walk_packages(mathhammer.__path__, "mathhammer.") if m.name != "mathhammer._core")
MODULES.insert(0, "mathhammer")

# Modules known to hold examples: a change that stops collecting them fails here, not silently.
WITH_EXAMPLES = {
    "mathhammer.deathburgh.engine", "mathhammer.force_melee", "mathhammer.force_melee.engine", "mathhammer.killteam",
    "mathhammer.killteam.advice", "mathhammer.killteam.fighting", "mathhammer.killteam.versus", "mathhammer.killteam.shooting", "mathhammer.starcraft",
}


def run(name: str) -> doctest.TestResults:
    return doctest.testmod(importlib.import_module(name), raise_on_error=False, report=True)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = run(name)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
    assert (result.attempted > 0) == (name in WITH_EXAMPLES), f"{name}: {result.attempted} examples"


def test_every_module_is_collected():
    assert WITH_EXAMPLES <= set(MODULES)
    assert len(MODULES) >= 30
