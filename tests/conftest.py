import os
import signal
import sys
from pathlib import Path

# Shared test helpers (tests/casedata.py) are importable from every game's folder.
sys.path.insert(0, str(Path(__file__).parent))

from hypothesis import settings  # noqa: E402

# Hypothesis's deadline per example is wall-clock time, which a machine busy with other work
# exceeds (tests/timing.py): none, everywhere. In CI, hypothesis draws the same examples every run:
# a red build always means a real regression that reproduces. Locally it keeps exploring new
# examples.
settings.register_profile("no_deadline", deadline=None)
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "no_deadline")


# Tests whose code under test is Python only (docs and their commands, CLI text and options,
# rendering, typing, import layers, stubs, profile and data files): the run against the sanitized
# C++ core (tools/sanitize.sh, in CI) leaves them out with -m "not python_only", since they would
# exercise the same C++ calls the engine tests already run under the sanitizers.
PYTHON_ONLY = (
    "cli/", "killteam/data/", "test_citations.py", "test_doc_commands.py", "test_docs_examples.py",
    "test_doctests.py", "test_readme.py", "test_typing.py", "test_layers.py", "test_stubs.py", "test_plots.py",
    "test_renderings.py", "test_library.py", "test_profile_round_trips.py", "test_examples.py", "test_registry.py",
    "test_exports.py", "test_sweep_cli.py", "test_figures.py", "test_packaging.py", "test_writing.py", "web/",
    "killteam/test_exact_seconds.py",  # CPU times: the sanitizers slow them (the fights run elsewhere too)
)


def pytest_configure(config):  # type: ignore[no-untyped-def]
    # Tests send Ctrl-C (SIGINT) to command-line processes they start and expect exit code 130. A
    # shell without job control starts a background command with SIGINT ignored, and every process
    # it starts inherits that (Python then installs no handler): the suite run so would see those
    # processes ignore Ctrl-C. Caught here, SIGINT is back to its default in the processes started.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    config.addinivalue_line("markers", "python_only: reaches no C++ the engine tests do not; the sanitizer pass "
                                       "leaves it out")
    config.addinivalue_line("markers", "dask_cluster: starts a Dask cluster, whose worker processes cannot load the "
                                       "sanitizer-preloaded core; the sanitizer pass leaves it out")


# The largest brute-force families (every case enumerated face by face in plain Python). Under the
# sanitizers, where each C++ call is several times slower, a fixed sample of them runs: every
# BRUTE_SAMPLE-th case in collection order, the same cases every run. The normal pass runs them all.
BRUTE_FAMILIES = ("killteam/test_pipeline_brute.py", "killteam/test_shoot_brute.py", "killteam/test_injured_brute.py",
                  "deathburgh/test_bruteforce.py",
                  # and the random shots each sampled millions of times against their exact distribution
                  "killteam/test_shoot_monte_carlo.py::test_monte_carlo_matches_exact_on_random_shots")
BRUTE_SAMPLE = 4


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    import pytest

    root = Path(__file__).parent
    sanitized = os.environ.get("MATHHAMMER_SANITIZED") == "1"
    kept, left_out, seen = [], [], {}
    for item in items:
        relative = Path(str(item.fspath)).relative_to(root).as_posix()
        if relative.startswith(PYTHON_ONLY):
            item.add_marker(pytest.mark.python_only)
        if "dask_client" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.dask_cluster)
        family = next((f for f in BRUTE_FAMILIES if f == relative or f == f"{relative}::{item.originalname}"), None)
        if sanitized and family is not None:
            seen[family] = seen.get(family, -1) + 1
            if seen[family] % BRUTE_SAMPLE:
                left_out.append(item)
                continue
        kept.append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept
