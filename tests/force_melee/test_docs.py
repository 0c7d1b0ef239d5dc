"""The examples in the force_melee docstrings run and print what they say."""

import doctest

import pytest

from mathhammer import force_melee
from mathhammer.force_melee import engine


@pytest.mark.parametrize("module", [force_melee, engine], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module, raise_on_error=False)
    assert tried > 0 and failures == 0
