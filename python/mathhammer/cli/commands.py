"""The table of commands: every command of ``mathhammer``, declared once, with its examples as data.

From :data:`COMMANDS` come the root ``--help`` and its epilog (the list of every game's actions),
each group's one line in the root ``--help``, each command's examples (its ``--help`` epilog) and
the README's table of commands (``tests/cli/test_command_table.py`` holds the README, the Typer apps
and the game descriptors to it, so a new command cannot be missing). The table is plain data: it
imports no game, no Typer and no Rich, so ``mathhammer --help`` stays light.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "COMMANDS", "EXAMPLE_WIDTH", "Command", "Example", "command", "epilog", "group_help", "readme_table",
    "root_epilog", "subcommands", "wrap_example",
]


@dataclass(frozen=True)
class Example:
    """One example of a command: what follows ``mathhammer`` on the line, and what it shows."""

    line: str
    comment: str = ""


@dataclass(frozen=True)
class Command:
    """One command of ``mathhammer``, by its path (``("killteam", "fight")``; the root is ``()``).

    ``examples`` are its ``--help`` examples, ``heading`` their heading when it says more than
    "Examples:", ``note`` the text after them. ``help`` is a group's one line (the root ``--help``
    lists it); ``arguments`` how the README and the root epilog write a command's arguments
    (``PATH… --out DIR``) and ``summary`` what the root epilog says a root command does.
    """

    path: tuple[str, ...]
    examples: tuple[Example, ...] = ()
    help: str = ""
    arguments: str = ""
    summary: str = ""
    heading: str = ""
    note: str = ""


def _examples(*lines: str | tuple[str, str]) -> tuple[Example, ...]:
    return tuple(Example(line) if isinstance(line, str) else Example(*line) for line in lines)


#: Every command, groups before their commands, in the order the root --help and the README list them.
COMMANDS: tuple[Command, ...] = (
    Command((), _examples("killteam shoot --rules 'Lethal 5+' --save 4 --format json"),
            help="Outcome distributions for tabletop-miniature dice combat, exact or Monte Carlo."),
    # --- Kill Team ---------------------------------------------------------------------------------
    Command(("killteam",), _examples("killteam shoot --rules 'Lethal 5+, Piercing 1' --save 3 --cover 1"),
            help="Kill Team 2024: fights and shots, and matrices comparing them."),
    Command(("killteam", "fight"), _examples(
        "killteam fight --a-attacks 5 --a-damage 4/5 --a-rules \"Brutal, Shock\" --b-abilities \"Storm Shield, Dueller\" "
        "--b-strategy min_damage --rounds 3",
        "killteam fight --a-strategy optimal --a-objective trade --b-strategy strike",
        "killteam fight --profiles examples/killteam/profiles.toml --a-profile assault_intercessor_sergeant "
        "--b-profile ork_boy --format json")),
    Command(("killteam", "shoot"), _examples(
        "killteam shoot --attacks 4 --hit 3 --damage 3/4 --rules \"Lethal 5+, Piercing 1\" --save 3 --cover 1",
        "killteam shoot --rules \"Devastating 2\" --abilities \"Feel No Pain 5+, Durable\" --saves 2-6",
        "killteam shoot --rounds 3 --abilities \"Saintly Relics (2D6)\" --format json",
        "killteam shoot --profiles examples/killteam/profiles.toml --weapon meltagun --target plague_marine",
        ("killteam shoot --profiles examples/killteam/teams --weapon 'Blaze cannon' --target Drifter",
         "a folder of team libraries; a weapon by its own name"),
        ("killteam shoot --rules 'Range 8\", Piercing 1, Silent' --save 4", "a datacard's rules pasted as written"))),
    Command(("killteam", "attack-dice"), _examples(
        "killteam attack-dice --weapon '4A 3+ 3/4 Lethal 5+, Balanced'",
        "killteam attack-dice --weapon '6A 4+ 3/4 Severe' --obscured --format json")),
    Command(("killteam", "advise"), _examples(
        "killteam advise --dice-a 1c2n --dice-b 0c2n",
        "killteam advise --dice-a 1c1n --dice-b 1c1n --a-strategy optimal --a-objective kill --b-wounds 4")),
    Command(("killteam", "compare"), _examples(
        "killteam compare --weapon '4A 3+ 3/4 Lethal 5+' --weapon '4A 3+ 3/4 Piercing 1'",
        "killteam compare --weapon '5A 3+ 4/5' --weapon '4A 2+ 4/5' --saves 3-5 --cover 1 --at-least 1-12",
        "killteam compare --profiles examples/killteam/profiles.toml --weapon meltagun --weapon bolt_rifle")),
    Command(("killteam", "compare-fights"), _examples(
        "killteam compare-fights --fighter '4A 3+ 3/4; 12W' --strategies strike,parry,max_damage "
        "--opponent '5A 4+ 4/5; 10W'",
        "killteam compare-fights --profiles examples/killteam/profiles.toml --fighter assault_intercessor_sergeant "
        "--opponent ork_boy")),
    Command(("killteam", "profiles"), _examples(
        "killteam profiles --format csv",
        ("killteam profiles --profiles examples/killteam/teams", "each team's operatives and weapons, by the names "
                                                                    "the commands take"))),
    Command(("killteam", "import"), _examples(
        "killteam import examples/killteam/data --out teams",
        "killteam import examples/killteam/data --team \"Ember Wardens\" --out teams --format json",
        "killteam import \"examples/killteam/data/Ember patrol.ros\" --out teams --strict",
        "killteam import examples/killteam/data --out teams --report"),
        arguments="PATH… --out DIR"),
    Command(("killteam", "teams"), _examples("killteam teams examples/killteam/data"), arguments="DIR"),
    Command(("killteam", "matchup"), _examples(
        ("killteam matchup --profiles \"examples/killteam/teams/Ember Wardens.toml\" --against "
         "\"examples/killteam/teams/Gloam Pact.toml\"", "for each of their operatives, my best weapon and fight"),
        ("killteam matchup --profiles teams/A.toml --against teams/B.toml --all", "every pairing"),
        "killteam matchup --profiles teams/A.toml --against teams/B.toml --cover 0 --no-fight --plot a_vs_b.png",
        "killteam matchup --profiles teams/A.toml --against teams/B.toml --output a_vs_b.csv",
        "killteam matchup --profiles \"examples/killteam/teams/Ember Wardens.toml\" --against "
        "\"examples/killteam/teams/Gloam Pact.toml\" --with \"Ember Ward\""),
        arguments="--profiles A --against B"),
    Command(("killteam", "meta"), _examples(
        ("killteam meta examples/killteam/teams", "the teams ranked"),
        "killteam meta examples/killteam/teams --out meta.parquet",
        "killteam meta teams --out meta.csv --workers 2",
        "killteam meta teams --out meta.parquet --executor dask://127.0.0.1:8786 --resume"),
        arguments="DIR [--out FILE]"),
    # --- StarCraft ---------------------------------------------------------------------------------
    Command(("starcraft",), _examples(
        "starcraft attack --weapon quad_k12 --firing-models 2 --unit roach",
        ("starcraft attack --attacker marine --unit zergling", "all 6 Marines fire"),
        "starcraft sequence --unit zealot --batch 'c14_rifle firing_models=6' --batch quad_k12"),
            help="StarCraft: Tabletop Miniatures Game attacks and sequences of attacks, exact or Monte Carlo."),
    Command(("starcraft", "attack"), _examples(
        "starcraft attack --weapon quad_k12 --firing-models 2 --unit roach --dodge 1",
        ("starcraft attack --attacker marine --unit zergling", "the whole unit fires its weapon"),
        "starcraft attack --mode hits --hits 4,1 --unit zealot")),
    Command(("starcraft", "sequence"), _examples(
        ("starcraft sequence", "6 Marines, then 2 Marauders, into a Zealot squad"),
        "starcraft sequence --unit roach --batch \"c14_rifle firing_models=6\" --batch \"quad_k12 firing_models=2 dodge=1\"",
        ("starcraft sequence --batch \"- mode=hits hits=4,1\" --batch \"shock_cannon affected_models=3\"", "'-': no weapon")),
        note="A batch is a weapon (a catalogue key or an entry of --profiles) and its sc.attack options as key=value;\n"
             "a unit that brings its weapon (marine, marauder, stalker) may stand in the weapon's place: all its\n"
             "models fire it (\"marine\" is \"c14_rifle firing_models=6\");\n"
             "options that take a table (reaction) are written in a scenario file (mathhammer run)."),
    Command(("starcraft", "compare"), _examples(
        "starcraft compare --weapon c14_rifle --weapon quad_k12 --unit zergling --unit roach --firing-models 4",
        "starcraft compare --profiles examples/starcraft/profiles.toml --weapon c14_rifle --unit zealot --format csv")),
    Command(("starcraft", "profiles"), _examples("starcraft profiles --format csv")),
    # --- Deathburgh --------------------------------------------------------------------------------
    Command(("deathburgh",), _examples("deathburgh combat --attacker 'Old Fellas Leader' --defender 'Bandit Brute'"),
            help="Deathburgh combat: opposed attacks, dodges, criticals worth 2, instant 6! / 1!, both editions."),
    Command(("deathburgh", "combat"), _examples(
        "deathburgh combat --attacker \"Old Fellas Leader\" --attacker-charge --defender \"Bandit Brute\" "
        "--defender-mode defensive --reaction dodge --format json")),
    Command(("deathburgh", "round"), _examples(
        ("deathburgh round", "the example round shipped with mathhammer"),
        "deathburgh round examples/deathburgh/round_scenario.toml --format json"), arguments="[FILE]"),
    Command(("deathburgh", "profiles"), _examples("deathburgh profiles --format csv")),
    # --- Force melee -------------------------------------------------------------------------------
    Command(("force-melee",), _examples("force-melee melee --b-profile walker --a-dice 6"),
            help="Force melee: simultaneous close combat, hits compared, Force decides the damage."),
    Command(("force-melee", "melee"), _examples(
        "force-melee melee --b-profile walker --a-dice 6 --winner-damage excess --format json",
        "force-melee melee --profiles examples/force_melee/profiles.toml --a-profile veterans --b-profile walker",
        "force-melee melee --scenario examples/force_melee/scenario_walker.toml"),
        note="The action may be left out: mathhammer force-melee --a-dice 6 is mathhammer force-melee melee --a-dice 6.\n"
             "Several engaged units: mathhammer force-melee melee-many --help."),
    Command(("force-melee", "melee-many"), _examples(
        ("force-melee melee-many", "two squads charge a Walker, which splits its dice 3 / 1"),
        "force-melee melee-many --side troopers=line_troopers --side walker --engaged troopers:walker",
        "force-melee melee-many --profiles examples/force_melee/profiles.toml --side vets=veterans --side walker "
        "--side militia --engaged vets:walker --engaged militia:walker --assign walker=vets:2,militia:2")),
    Command(("force-melee", "profiles"), _examples("force-melee profiles --format csv")),
    # --- the commands of every game ----------------------------------------------------------------
    Command(("sweep",), _examples(
        "sweep killteam shoot --grid 'hit=3,4 save=2..6 cover=0,1 rules=\"Lethal 5+\"|Balanced'",
        "sweep killteam fight --grid 'a-strategy=strike,parry b-wounds=8..12' --format csv",
        "sweep starcraft attack --unit zealot --grid 'firing-models=1..6 hit-mod=0,1' --output sweep.csv"),
            help="Sweep an action over a grid of its options: one row per cell.",
            arguments="<game> <action> --grid GRID", summary="runs a grid of one"),
    Command(("run",), _examples(
        ("run", "the embedded example: one fight, shot, attack, combat and melee"),
        "run examples/scenario.toml --format json",
        "run examples/scenario.toml --method monte_carlo --samples 200000 --seed 1",
        ("run examples/deathburgh/round_scenario.toml", "a Deathburgh round file")),
            heading="Examples (mathhammer examples --copy examples writes the files used here):",
            arguments="[FILE]", summary="runs a scenario file (the embedded example without one)"),
    Command(("examples",), _examples(
        "examples",
        ("examples --copy examples", "then: mathhammer run examples/scenario.toml")),
            summary="lists (and --copy writes out) the example files"),
    Command(("serve",), _examples(
        ("serve", "http://127.0.0.1:8000: the page and /api/v1"),
        "serve --port 9000 --workers 2 --profiles teams",
        ("serve --host 0.0.0.0 --allowed-hosts dice.example.org", "reachable from other machines")),
            summary="serves the API and the page"),
)


def command(*path: str) -> Command:
    """The table's row of the command at ``path`` (``command("killteam", "fight")``)."""
    for row in COMMANDS:
        if row.path == path:
            return row
    raise KeyError(f"no command 'mathhammer {' '.join(path)}' in mathhammer.cli.commands.COMMANDS")


def subcommands(*path: str) -> tuple[Command, ...]:
    """The rows one level below ``path``, in the table's order (``subcommands()``: the root's)."""
    return tuple(row for row in COMMANDS if row.path[:-1] == path and len(row.path) == len(path) + 1)


def group_help(*path: str) -> str:
    """A group's one line, as the root --help lists it (the root's own: ``group_help()``)."""
    return command(*path).help


#: The widest example line of an epilog (--help at 80 columns, in a panel's margin).
EXAMPLE_WIDTH = 76


def epilog(*path: str) -> str:
    """A command's ``--help`` epilog: its examples (each broken to fit 80 columns), then its note."""
    row = command(*path)
    heading = row.heading or ("Example:" if len(row.examples) == 1 else "Examples:")
    lines = [wrap_example(example, "  ") for example in row.examples]
    text = heading + "\n\n" + "\n\n".join(lines) + "\n"
    return text + ("\n" + row.note + "\n" if row.note else "")


def root_epilog() -> str:
    """The root --help's epilog: every game's actions, what the other commands do, and its example."""
    games, others = [], []
    for row in subcommands():
        actions = subcommands(*row.path)
        if actions:
            games.append(f"{row.path[0]}: {', '.join(action.path[-1] for action in actions)}")
        else:
            others.append(" ".join(part for part in ("mathhammer", row.path[0], row.arguments, row.summary) if part))
    return (f"Every game has one shape, mathhammer <game> <action>. {'; '.join(games)}.\n\n"
            f"{'; '.join(others)}.\n\n{epilog()}")


def readme_table() -> str:
    """The README's table of commands (between its ``<!-- commands -->`` markers): every group's
    actions with their arguments, then the other commands."""
    rows = ["| command | actions and arguments |", "|---|---|"]
    for row in subcommands():
        actions = subcommands(*row.path)
        if actions:
            cells = ", ".join(f"`{' '.join(part for part in (a.path[-1], a.arguments) if part)}`" for a in actions)
        else:
            cells = f"`{row.arguments}`: {row.summary}" if row.arguments else row.summary
        rows.append(f"| `{row.path[0]}` | {cells} |")
    return "\n".join(rows) + "\n"


def wrap_example(example: Example, indent: str = "") -> str:
    """``mathhammer <line>`` and its comment, as --help prints it: a line that passes
    :data:`EXAMPLE_WIDTH` is broken before an option (outside quotes) and continued with ``\\`` on
    the next line, indented; a comment that does not fit goes on its own line above the command."""
    text = f"mathhammer {example.line}" if example.line else "mathhammer"
    one_line = f"{indent}{text}   # {example.comment}" if example.comment else indent + text
    if len(one_line) <= EXAMPLE_WIDTH:
        return one_line
    out = [f"{indent}# {example.comment}"] if example.comment else []
    pieces = _option_pieces(text)
    current = indent + pieces[0]
    for piece in pieces[1:]:
        if len(current) + 1 + len(piece) + 2 > EXAMPLE_WIDTH:
            out.append(current + " \\")
            current = indent + "    " + piece
        else:
            current += " " + piece
    out.append(current)
    return "\n".join(out)


def _option_pieces(text: str) -> list[str]:
    """A command line cut before each `` --option`` that is not inside quotes."""
    pieces, start, quote = [], 0, ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == " " and text.startswith(" --", i):
            pieces.append(text[start:i].strip())
            start = i + 1
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]
