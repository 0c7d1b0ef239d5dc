"""`mathhammer starcraft compare`: each weapon against each unit, one batch each."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from mathhammer._cli_common import (
    FormatOption,
    Method,
    MethodOption,
    OutputFormat,
    ProfilesOption,
    SamplesOption,
    SeedOption,
    Table,
    ThreadsOption,
    VariantsOption,
    cli_variants,
    emit,
    note_plot,
    run_conditions,
)
from mathhammer.library import default_library, load_game_library, resolve_profile
from mathhammer.starcraft.compare import compare
from mathhammer.starcraft.engine import DEFAULT_SAMPLES
from mathhammer.starcraft.profiles import Variants

EPILOG = """Examples:

  mathhammer starcraft compare --weapon c14_rifle --weapon quad_k12 --unit zergling --unit roach --firing-models 4

  mathhammer starcraft compare --profiles examples/starcraft/profiles.toml --weapon c14_rifle --unit zealot --format csv
"""


def register(app: typer.Typer) -> None:
    """Add compare to the starcraft group."""

    @app.command("compare", epilog=EPILOG)
    def compare_command(
        weapon: Annotated[list[str], typer.Option(help="A weapon (repeatable): a catalogue key such as c14_rifle, or an entry of --profiles.")],
        unit: Annotated[list[str], typer.Option(help="A target unit (repeatable): a catalogue key such as zergling, or an entry of --profiles.")],
        firing_models: Annotated[int, typer.Option(help="Models firing each weapon, 0..60.")] = 1,
        profiles: ProfilesOption = None,
        method: MethodOption = Method.auto,
        samples: SamplesOption = DEFAULT_SAMPLES,
        seed: SeedOption = None,
        threads: ThreadsOption = None,
        variants: VariantsOption = None,
        fmt: FormatOption = OutputFormat.table,
    ) -> None:
        """Each weapon against each unit: mean damage, mean casualties, destroyed chance."""
        library = load_game_library(profiles, "starcraft") if profiles is not None else default_library("starcraft")
        weapons = [resolve_profile("starcraft", "weapon", w, library, f"weapon[{i}]") for i, w in enumerate(weapon)]
        units = [resolve_profile("starcraft", "unit", u, library, f"unit[{i}]") for i, u in enumerate(unit)]
        comparison = compare(weapons, units, firing_models=firing_models, method=method.value, samples=samples,
                             seed=seed, threads=threads, variants=cli_variants(Variants, variants, {}))
        fired = f"{firing_models} firing model{'s' if firing_models != 1 else ''} per weapon"
        heading = ", ".join([fired, *run_conditions(comparison.results[0][0])])
        header = ["weapon \\ unit", *comparison.units]
        # numbers, not text: the destroyed chance prints as a percentage like every other table's
        figures = (("damage", f"Mean damage: {heading}"), ("casualties", "Mean casualties"),
                   ("destroyed", "Destroyed chance P(unit destroyed)"))
        tables = [Table(title, header, [[name, *map(float, getattr(comparison, attribute)[i])]
                                        for i, name in enumerate(comparison.weapons)])
                  for attribute, title in figures]
        payload = {"weapons": list(comparison.weapons), "units": list(comparison.units),
                   "firing_models": firing_models, "rows": comparison.to_frame().to_dict(orient="records")}

        def draw() -> Any:
            from mathhammer._cli_plots import starcraft_comparison

            return starcraft_comparison(comparison, f"StarCraft: mean damage by target ({heading})")

        note_plot(draw)
        emit(fmt, tables, payload, [fired])
