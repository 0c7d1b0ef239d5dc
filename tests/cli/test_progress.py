"""Every command that can run Monte Carlo hands a progress callback to the engine, and a bar appears
on a terminal once a run takes longer than the delay (here 0 s, with Rich's Progress recorded)."""

from __future__ import annotations

import sys

import pytest
import rich.progress
from cli_cases import COMMANDS, MC_COMMANDS, MONTE_CARLO, run

from mathhammer.cli import progress as _cli_common


class RecordedProgress:
    """Stands in for rich.progress.Progress and records the tasks and their last completed count."""

    made: list[RecordedProgress] = []

    def __init__(self, *columns, **options) -> None:
        self.tasks: dict[int, list] = {}
        self.started = self.stopped = False
        assert options.get("transient") is True
        RecordedProgress.made.append(self)

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.stopped = True

    def add_task(self, description: str, total: int) -> int:
        self.tasks[len(self.tasks)] = [description, total, 0]
        return len(self.tasks) - 1

    def update(self, task: int, completed: int) -> None:
        self.tasks[task][2] = completed


def _on_a_terminal(monkeypatch) -> list[RecordedProgress]:
    """Pretend stderr is a terminal (patched in the test itself: pytest puts its capture back between
    the set-up and the call) and record Rich's progress bars."""
    RecordedProgress.made = []
    monkeypatch.setattr(rich.progress, "Progress", RecordedProgress)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    return RecordedProgress.made


@pytest.mark.parametrize("name", MC_COMMANDS)
def test_monte_carlo_shows_a_progress_bar_on_a_terminal(capsys, monkeypatch, name):
    terminal = _on_a_terminal(monkeypatch)
    monkeypatch.setattr(_cli_common, "PROGRESS_DELAY", 0.0)
    code, _, err = run(capsys, [*COMMANDS[name], *MONTE_CARLO])
    assert code == 0, err
    assert len(terminal) == 1 and terminal[0].started and terminal[0].stopped
    tasks = list(terminal[0].tasks.values())
    assert tasks and all(total == 20_000 and done == total for _, total, done in tasks)


def test_no_bar_off_a_terminal_or_before_the_delay(capsys, monkeypatch):
    made = _on_a_terminal(monkeypatch)
    assert run(capsys, [*COMMANDS["killteam fight"], *MONTE_CARLO])[0] == 0  # 20,000 fights: well under 1 s
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    monkeypatch.setattr(_cli_common, "PROGRESS_DELAY", 0.0)
    assert run(capsys, [*COMMANDS["killteam fight"], *MONTE_CARLO])[0] == 0
    assert made == []


def test_the_callback_is_there_even_without_a_bar():
    # a run given a callback works in batches, so Ctrl-C is honoured between them
    with _cli_common.progress_bar("run", enabled=False) as progress:
        assert callable(progress)
        progress(1, 2)
