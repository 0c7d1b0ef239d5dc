"""kt.Fighter.parse reads what str(fighter) writes, and every place that takes a fighter by text
takes that notation: kt.fight and its batch, profile libraries (card = "..."), scenario files and the
command line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer import killteam as kt
from mathhammer.cli import main
from mathhammer.errors import InputError, InputTypeError
from mathhammer.files import scenario

RULES = ["", "Brutal", "Lethal 5+", "Lethal 4+, Rending", "Balanced, Shock", "Piercing 1, Devastating 2",
         "Accurate 1, Severe", "Relentless, Punishing"]
ABILITIES = ["", "Storm Shield", "Dueller", "Feel No Pain 5+", "Storm Shield, Just a Scratch", "Saintly Relics (2D6)",
             "Durable, Hammerhand"]


def _fighters(count: int) -> list[kt.Fighter]:
    rng = random.Random(29)
    out = []
    for _ in range(count):
        normal = rng.randint(0, 6)
        strategy = rng.choice(kt.ALL_STRATEGIES)
        objective = rng.choice([None, *kt.OBJECTIVES]) if strategy == "optimal" else None
        out.append(kt.Fighter(rng.randint(1, 12), rng.randint(2, 6), (normal, normal + rng.randint(0, 3)),
                              rng.randint(1, 40), rng.choice(RULES), rng.choice(ABILITIES), strategy, objective))
    return out


@pytest.mark.parametrize("fighter", _fighters(60), ids=str)
def test_parse_reads_what_str_writes(fighter: kt.Fighter) -> None:
    assert kt.Fighter.parse(str(fighter)) == fighter


def test_a_hand_written_fighter() -> None:
    expected = kt.Fighter(5, 3, (4, 5), 10, rules="Brutal", abilities="Storm Shield", strategy="optimal",
                          objective="kill")
    assert kt.Fighter.parse("5A 3+ 4/5 Brutal; 10W; optimal (kill); Storm Shield") == expected
    # the parts after the card in any order, any case, with spaces
    assert kt.Fighter.parse("5a 3+ 4/5 brutal ;storm shield; OPTIMAL(Kill) ; 10 w") == expected
    # what is left out takes the defaults
    assert kt.Fighter.parse("4A 3+ 3/4") == kt.Fighter(4, 3, (3, 4))
    assert kt.Fighter.parse("4A 3+ 3/4; parry") == kt.Fighter(4, 3, (3, 4), strategy="parry")


@pytest.mark.parametrize("text, field", [
    ("Storm Shield; 12W", "fighter"),  # no card
    ("4A 3+ 3/4 Lethal 9+; 12W", "fighter.rules.lethal"),
    ("13A 3+ 3/4", "fighter.attacks"),
    ("4A 3+ 3/4; 41W", "fighter.wounds"),
    ("4A 3+ 3/4; Storm Sheild", "fighter.abilities"),
    ("4A 3+ 3/4; parry (kill)", "fighter.objective"),  # only an optimal fighter has one
    ("4A 3+ 3/4; 12W; 10W", "fighter"),  # the wounds twice
    ("4A 3+ 3/4; parry; strike", "fighter"),
])
def test_bad_notation_names_the_field(text: str, field: str) -> None:
    with pytest.raises(InputError) as caught:
        kt.Fighter.parse(text)
    assert caught.value.field == field
    with pytest.raises(InputTypeError):
        kt.Fighter.parse(4)  # type: ignore[arg-type]


def test_the_engine_takes_the_notation() -> None:
    a, b = kt.Fighter(4, 3, (3, 4), 10, "Brutal"), kt.Fighter(4, 4, (4, 5), 9, abilities="Storm Shield",
                                                             strategy="parry")
    assert kt.fight(str(a), str(b), rounds=2).to_json() == kt.fight(a, b, rounds=2).to_json()
    batch = kt.fight_batch([str(a), a], str(b))
    assert batch[0].to_json() == batch[1].to_json() == kt.fight(a, b).to_json()
    assert kt.advise(str(a), b, (1, 1), (0, 2)) == kt.advise(a, b, (1, 1), (0, 2))
    with pytest.raises(InputError) as caught:
        kt.fight(a, "4A 3+ 3/4; 0W")
    assert caught.value.field == "b.wounds"
    with pytest.raises(InputError) as caught:
        kt.fight_batch([a, "4A 3+ 3/4; 0W"], b)
    assert caught.value.field == "fighters_a[1].wounds"


def test_libraries_and_scenario_files_take_the_notation(tmp_path: Path) -> None:
    (tmp_path / "fighters.toml").write_text('game = "killteam"\n[fighter.vet]\ncard = "5A 3+ 4/5 Brutal; 10W; parry"\n'
                                            'wounds = 11\n')
    library = mh.load_library(tmp_path / "fighters.toml")
    assert library["fighter"]["vet"] == kt.Fighter(5, 3, (4, 5), 11, "Brutal", strategy="parry")
    (tmp_path / "fight.toml").write_text('profiles = ["fighters.toml"]\n[[killteam.fight]]\na = "vet"\n'
                                         'b = "4A 4+ 3/4 Lethal 5+; 9W; optimal (kill); Storm Shield"\n')
    outcome = scenario.run_scenario_file(tmp_path / "fight.toml")[0]
    expected = kt.fight(library["fighter"]["vet"],
                        kt.Fighter(4, 4, (3, 4), 9, "Lethal 5+", "Storm Shield", "optimal", "kill"))
    assert outcome.result.to_json() == expected.to_json()


def test_the_command_line_takes_the_notation(capsys: pytest.CaptureFixture[str]) -> None:
    fighter = kt.Fighter(4, 3, (3, 4), 11, abilities="Storm Shield", strategy="optimal", objective="kill")
    assert main(["killteam", "compare-fights", "--fighter", str(fighter), "--opponent", "4A 3+ 3/4",
                 "--format", "markdown"]) == 0
    assert f"| {fighter} |" in capsys.readouterr().out
    assert main(["killteam", "compare-fights", "--fighter", "4A 3+ 3/4; 12W; parry (kill)", "--opponent",
                 "4A 3+ 3/4"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: fighter[0]: ") and "only an optimal fighter has an objective" in error
