"""Every looked-up name answers a typo with the name it misspells."""

from __future__ import annotations

import pytest
from cli_cases import run


@pytest.mark.parametrize(("args", "expected"), [
    (["killteam", "shoot", "--weapon", "bolt_rilfe"], "error: weapon: unknown weapon 'bolt_rilfe' (did you mean 'bolt_rifle'?)"),
    (["killteam", "fight", "--a-profile", "ork_by"], "error: a.profile: unknown fighter 'ork_by' (did you mean 'ork_boy'?)"),
    (["killteam", "shoot", "--target", "kommado"], "(did you mean 'kommando'?)"),
    (["killteam", "fight", "--a-strategy", "strik"], "(did you mean 'strike'?)"),
    (["killteam", "shoot", "--rules", "Lethl 5+"], "(did you mean 'Lethal x+'?)"),
    (["starcraft", "attack", "--unit", "zerglin"], "error: unit: unknown unit 'zerglin' (did you mean 'zergling'?)"),
    (["starcraft", "attack", "--weapon", "quad_k21"], "(did you mean 'quad_k12'?)"),
    (["deathburgh", "combat", "--attacker", "Old Fellas Leadr"], "(did you mean 'Old Fellas Leader'?)"),
    (["sweep", "killteam", "shoot", "--grid", "sve=3,4"], "(did you mean 'save'?)"),
])
def test_a_typo_names_what_it_misspells(capsys: pytest.CaptureFixture[str], args: list[str], expected: str) -> None:
    code, _, err = run(capsys, args)
    assert code == 2 and expected in err and err.count("\n") == 1, err
