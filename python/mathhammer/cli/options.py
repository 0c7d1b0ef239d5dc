"""The options every command shares, declared once: output format, engine options, profiles,
variants, and the options of a fighter (or any profile side) built by one factory.

Nothing here imports a game or numpy: the root command's ``--help`` and ``--version`` stay light.
"""

from __future__ import annotations

import enum
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from typer._click import Context

from mathhammer.errors import InputError
from mathhammer.report.tables import DISPLAY, Display, Probabilities
from mathhammer.core.guard import excerpt

__all__ = [
    "PLOT_SUFFIXES", "EngineOptions", "FormatOption", "Method", "MethodOption", "OptionSpec", "OutputFormat", "ProfilesOption",
    "SamplesOption", "SeedOption", "SideOption", "ThreadsOption", "VariantsOption", "WithOption", "cli_variants",
    "engine_options",
    "engine_parameters", "finish", "option_parameters", "side_options", "take", "with_parameters",
]


class OutputFormat(str, enum.Enum):
    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"


class Method(str, enum.Enum):
    auto = "auto"
    exact = "exact"
    monte_carlo = "monte_carlo"


#: The --help group of the engine options, after each command's game options.
ENGINE_PANEL = "Engine"

FormatOption = Annotated[
    OutputFormat, typer.Option("--format", "-f", help="table (Rich), json, csv or markdown.", case_sensitive=False)
]
MethodOption = Annotated[Method, typer.Option(help="exact, monte_carlo, or auto (exact when it is cheap).",
                                              rich_help_panel=ENGINE_PANEL)]
SamplesOption = Annotated[int, typer.Option(help="Monte Carlo samples (1..10^10).", rich_help_panel=ENGINE_PANEL)]
SeedOption = Annotated[Optional[int], typer.Option(help="Seed for Monte Carlo (same seed, same result).",
                                                   rich_help_panel=ENGINE_PANEL)]
ThreadsOption = Annotated[Optional[int], typer.Option(help="Threads for Monte Carlo (default: all cores).",
                                                      rich_help_panel=ENGINE_PANEL)]
VariantsOption = Annotated[
    Optional[str],
    typer.Option(
        "--variants",
        help="Rule variants: a preset name or 'field=value,field=value' (the game's Variants fields; docs/results.md).",
    ),
]
WithOption = Annotated[
    Optional[list[str]],
    typer.Option("--with", metavar="SWITCH", help="Turn on a named switch of the team libraries, as their [team.switch] "
                 "tables and the import's report name it (repeatable; docs/data.md)."),
]
ProfilesOption = Annotated[
    Optional[Path],
    typer.Option(help="A profile library (.toml/.json, see docs/scenarios.md) whose entries the profile options may name; "
                 "<game>-examples (the default) is the library shipped with mathhammer."),
]


@dataclass(frozen=True)
class EngineOptions:
    """The engine options a command was given, as the engine functions take them."""

    method: str
    samples: int
    seed: int | None
    threads: int | None

    def keywords(self) -> dict[str, Any]:
        return {"method": self.method, "samples": self.samples, "seed": self.seed, "threads": self.threads}


def engine_parameters(method: Method, samples: int) -> list[inspect.Parameter]:
    """``--method --samples --seed --threads`` as keyword parameters with these defaults (every
    engine command takes them; :func:`with_parameters` adds them to a command)."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    return [
        inspect.Parameter("method", keyword, default=method, annotation=MethodOption),
        inspect.Parameter("samples", keyword, default=samples, annotation=SamplesOption),
        inspect.Parameter("seed", keyword, default=None, annotation=SeedOption),
        inspect.Parameter("threads", keyword, default=None, annotation=ThreadsOption),
    ]


def engine_options(given: dict[str, Any]) -> EngineOptions:
    """Take the engine options out of a command's keywords (see :func:`engine_parameters`)."""
    method = given.pop("method")
    return EngineOptions(getattr(method, "value", method), given.pop("samples"), given.pop("seed"), given.pop("threads"))


@dataclass(frozen=True)
class OptionSpec:
    """One option of a group of options declared once (a fighter's, a unit's, a weapon's): ``name``
    (the parameter is ``[<side>_]<name>``, the option ``--[<side>-]<name>``), its type, help and
    default; ``flag`` makes it ``--<name>/--no-<name>`` (``--<side>-<name>/--<side>-no-<name>``);
    ``declarations`` replace the option's spelling where it is another."""

    name: str
    kind: Any
    help: str
    default: Any = None
    flag: bool = False
    declarations: tuple[str, ...] = ()


#: The options of a side (a fighter, a combat side, a melee side) are option specs with a side prefix.
SideOption = OptionSpec


def option_parameters(options: Sequence[OptionSpec], panel: str, side: str = "", label: str = ""
                      ) -> list[inspect.Parameter]:
    """The keyword parameters of a group of options, in one --help group ``panel``: ``side`` prefixes
    every parameter and option (``a_attacks``, ``--a-attacks``); ``label`` starts each help
    ("Fighter A: ...")."""
    params = []
    for option in options:
        dashed = option.name.replace("_", "-")
        stem = f"{side}-{dashed}" if side else dashed
        negative = f"--{side}-no-{dashed}" if side else f"--no-{dashed}"
        declarations = option.declarations or ((f"--{stem}/{negative}",) if option.flag else (f"--{stem}",))
        text = f"{label}: {option.help}" if label else option.help
        params.append(inspect.Parameter(
            f"{side}_{option.name}" if side else option.name, inspect.Parameter.KEYWORD_ONLY, default=option.default,
            annotation=Annotated[option.kind, typer.Option(*declarations, help=text, rich_help_panel=panel)]))
    return params


def side_options(side: str, options: Sequence[OptionSpec], panel: str, label: str = "") -> list[inspect.Parameter]:
    """The parameters of one side's options (:func:`option_parameters` with the side's prefix)."""
    return option_parameters(options, panel, side, label)


def take(options: dict[str, Any], specs: Sequence[OptionSpec], side: str = "") -> dict[str, Any]:
    """Take a group's values out of a command's keywords, by the specs' names (without the side)."""
    return {spec.name: options.pop(f"{side}_{spec.name}" if side else spec.name) for spec in specs}


def with_parameters(before: Sequence[inspect.Parameter] = (), after: Sequence[inspect.Parameter] = ()
                    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Give a command the parameters ``before`` its own and ``after`` them (Typer reads
    ``__signature__``); the command takes them as ``**options``."""
    def install(function: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(function, eval_str=True)
        own = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in signature.parameters.values()
               if p.kind is not inspect.Parameter.VAR_KEYWORD]
        every = [*before, *own, *after]
        names = [p.name for p in every]
        if len(set(names)) != len(names):
            raise TypeError(f"{function.__name__}: a parameter is declared twice: {names}")
        function.__signature__ = signature.replace(parameters=every)  # type: ignore[attr-defined]
        function.__annotations__ = {p.name: p.annotation for p in every}
        return function

    return install


def cli_variants(variants_cls: Any, text: str | None, switches: dict[str, Any],
                 option_names: dict[str, str] | None = None) -> Any:
    """The game's Variants from ``--variants`` or from its per-switch options.

    ``switches`` maps a Variants field to its option's value (None = the option was not given);
    ``option_names`` the fields whose option is not ``--<field with dashes>``. Giving a switch both
    ways is refused rather than letting one silently win.
    """
    given = {name: value for name, value in switches.items() if value is not None}
    if text is not None and given:
        name = next(iter(given))
        option = (option_names or {}).get(name, "--" + name.replace("_", "-"))
        raise InputError("--variants", f"{option} is also given; set each switch once, with {option} or inside --variants")
    if text is not None:
        return variants_cls.resolve(text, "--variants")
    try:
        return variants_cls.from_dict(given, "")
    except InputError as error:  # name the option the user typed
        name = error.field.split(".")[-1]
        option = (option_names or {}).get(name, "--" + name.replace("_", "-"))
        raise InputError(option, str(error)[len(error.field) + 2:]) from None


# --- the options every command gets: --digits, --probabilities, --plot, --table ---------------------

#: The file types ``--plot`` writes.
PLOT_SUFFIXES = (".png", ".svg")


def check_plot(ctx: Any, param: Any, value: Any) -> Any:
    """--plot FILE: a .png or .svg, and matplotlib installed; checked before anything is computed."""
    if value is None:
        return value
    from importlib.util import find_spec

    path = Path(value)
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise InputError("--plot", f"{excerpt(value)}: give a file ending in {' or '.join(PLOT_SUFFIXES)}")
    if find_spec("matplotlib") is None:
        raise InputError("--plot", "plotting needs matplotlib: pip install 'mathhammer[plot]'")
    ctx.meta["mathhammer.plot"] = path
    return value


def _keep_display(ctx: Any, param: Any, value: Any) -> Any:
    """Record --digits / --probabilities where the printers find them (report.tables.DISPLAY)."""
    shown = DISPLAY.get()
    if param.name == "digits" and value is not None:
        shown = Display(int(value), shown.probabilities)
    elif param.name == "probabilities" and value is not None:
        shown = Display(shown.digits, Probabilities(getattr(value, "value", value)))
    DISPLAY.set(shown)
    return value


def _display_params() -> list[Any]:
    """--digits, --probabilities and --plot as typer builds them (on a throwaway command), for every command."""
    probe = typer.Typer()

    @probe.command()
    def _probe(
        digits: Annotated[Optional[int], typer.Option(
            min=0, max=8, show_default=False, metavar="N",
            help="Decimals of the probabilities the table prints (default: 2 for percent, 4 for fraction).")] = None,
        probabilities: Annotated[Probabilities, typer.Option(
            help="Probabilities in the table as percent (12.34%) or fraction (0.1234).", case_sensitive=False)]
        = Probabilities.percent,
        plot: Annotated[Optional[str], typer.Option(
            metavar="FILE", help="Also draw the result into FILE.png or FILE.svg (needs matplotlib).", is_eager=True)]
        = None,
        table: Annotated[Optional[str], typer.Option(
            metavar="NAME", help="Print only the table NAME (its title's first words: damage, summary, ...); "
            "--format csv writes one table, the first unless named here.")] = None,
    ) -> None:
        """Only here to build the options."""

    params = list(typer.main.get_command(probe).params)
    for param in params:
        param.expose_value = False
        param.callback = {"plot": check_plot, "table": _keep_table}.get(param.name, _keep_display)
    return params


def _keep_table(ctx: Any, param: Any, value: Any) -> Any:
    """Record --table where the output finds it (mathhammer.cli.output.emit)."""
    if value is not None:
        ctx.meta["mathhammer.table"] = value
    return value


#: Commands that print no result table (``serve`` runs a server).
PRINTS_NO_RESULT = ("serve",)


def add_display_options(command: Any) -> None:
    """Give every command that prints results --digits, --probabilities, --plot and --table (how the
    table shows probabilities, a picture of the result, one table)."""
    if hasattr(command, "commands"):
        for sub in command.commands.values():
            add_display_options(sub)
    elif command.name not in PRINTS_NO_RESULT and not any(p.name == "digits" for p in command.params):
        command.params.extend(_display_params())


def hide_flag_metavars(command: Any) -> None:
    """Show on/off flags (``--obscured``, ``--help``) in the help without a ``<bool>`` value: they take none."""
    help_option = command.get_help_option(Context(command))
    for param in [*command.params, *([help_option] if help_option is not None else [])]:
        if getattr(param, "is_flag", False):
            param.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        hide_flag_metavars(sub)


#: The options that say how the output looks, in the last panel of every command's --help.
OUTPUT_OPTIONS = ("fmt", "digits", "probabilities", "plot", "table", "output")
OUTPUT_PANEL = "Output"
#: Typer's shell-completion options stay with --help.
SHELL_OPTIONS = ("install_completion", "show_completion")
#: The panel of a command's own options (cover, rounds, ...) when it has panels of game inputs (Weapon,
#: Target, ...): after them, so that --help reads the game first, then the situation, the engine, the output.
OTHER_PANEL = "Other options"
def arrange_help(command: Any) -> None:
    """--help that reads at 80 columns: the game's panels first and the output options last, and
    short metavars for options with a fixed set of values (the help text names the values). The
    examples are the command table's (mathhammer.cli.commands), already broken to fit."""
    for sub in getattr(command, "commands", {}).values():
        arrange_help(sub)
    params = [p for p in getattr(command, "params", []) if getattr(p, "param_type_name", "") == "option"]
    game_panels = {getattr(p, "rich_help_panel", None) for p in params} - {None, "Engine", "Sweep", OUTPUT_PANEL}
    for param in params:
        if param.name in OUTPUT_OPTIONS:
            param.rich_help_panel = OUTPUT_PANEL
        elif game_panels and getattr(param, "rich_help_panel", None) is None and param.name not in SHELL_OPTIONS:
            param.rich_help_panel = OTHER_PANEL
        kind = getattr(param, "type_descriptor", None)  # typer's own view of the option's type
        if kind is not None and getattr(kind, "is_choice", False) and param.metavar is None:
            param.metavar = param.name.upper() if param.name != "fmt" else "FORMAT"
            choices = [getattr(c, "value", str(c)) for c in kind.choices]
            if param.help and not all(c in param.help for c in choices):
                param.help = f"{param.help} One of: {', '.join(choices)}."
    # panels are listed in the order of their first option: the game's inputs, the situation, the
    # engine, the sweep, the output
    order = {None: 0, OTHER_PANEL: 1, "Engine": 2, "Sweep": 3, OUTPUT_PANEL: 4}
    if hasattr(command, "params"):
        command.params.sort(key=lambda p: order.get(getattr(p, "rich_help_panel", None), 0))


def finish(command: Any) -> None:
    """What every command built from a Typer app gets: the display options, plain flags and --help
    arranged to read at 80 columns."""
    add_display_options(command)
    hide_flag_metavars(command)
    arrange_help(command)
