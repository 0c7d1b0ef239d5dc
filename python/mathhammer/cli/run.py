"""``mathhammer run [FILE]``: every entry of a scenario file, printed the way each game's command prints it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from mathhammer.cli.commands import epilog
from mathhammer.cli.options import FormatOption, Method, OutputFormat
from mathhammer.cli.output import emit_sections, result_tables
from mathhammer.cli.progress import ProgressGroup
from mathhammer.report.tables import Section

__all__ = ["register"]

def register(app: typer.Typer) -> None:
    """Add ``run`` to the root command."""

    @app.command("run", epilog=epilog("run"))
    def run(
        scenario: Annotated[
            Optional[Path], typer.Argument(help="Scenario file (.toml or .json); none runs the embedded example.")
        ] = None,
        method: Annotated[
            Optional[Method], typer.Option(help="Override every entry's method: exact, monte_carlo or auto.")
        ] = None,
        samples: Annotated[Optional[int], typer.Option(help="Override every entry's Monte Carlo samples.")] = None,
        seed: Annotated[Optional[int], typer.Option(help="Override every entry's Monte Carlo seed.")] = None,
        threads: Annotated[Optional[int], typer.Option(help="Threads for Monte Carlo (default: all cores).")] = None,
        allow_outside: Annotated[bool, typer.Option(
            "--allow-outside", help="Let the scenario's profiles paths leave its folder (absolute paths, '..').")] = False,
        fmt: FormatOption = OutputFormat.table,
    ) -> None:
        """Run every fight, shot, attack, sequence, combat, round or melee of a scenario file and print the results.

        Example scenarios ship with mathhammer: `mathhammer examples` lists them and `mathhammer examples
        --copy examples` writes them out (examples/scenario.toml shows every game; the format is in the
        repository's docs/scenarios.md). A Deathburgh round file runs as one round. A key an entry's
        function does not take is an error listing the allowed keys.
        """
        from importlib import resources

        from mathhammer.files import scenario as scenarios

        overrides: dict[str, Any] = {"method": method.value if method is not None else None, "samples": samples,
                                     "seed": seed, "threads": threads}
        overrides = {key: value for key, value in overrides.items() if value is not None}
        with ProgressGroup() as bars:
            if scenario is None:
                text = resources.files("mathhammer").joinpath("examples/default_scenario.toml").read_text(encoding="utf-8")
                source = "example scenario"
                data = scenarios.parse_scenario_text(text, source)
                outcomes = scenarios.run_scenario(data, source=source, progress=bars.callback, overrides=overrides)
            else:
                source = str(scenario)
                data = scenarios.load_scenario(scenario)
                outcomes = scenarios.run_scenario(data, base=scenario.parent, source=source, progress=bars.callback,
                                                  overrides=overrides, allow_outside=allow_outside)
        sections = [Section(outcome.name, *result_tables("", outcome.result)) for outcome in outcomes]
        payload = {"scenario": source, "title": data.get("title", ""), "overrides": overrides,
                   "outcomes": [o.to_dict() for o in outcomes]}
        emit_sections(fmt, sections, payload)
