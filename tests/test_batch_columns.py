"""``ResultBatch.summary_arrays()`` of every batch form of every game: the figures of ``summaries()``
as float64 columns, equal bit for bit, and ``to_frame()`` built from them (docs/results.md
"Batches"). Kill Team's exact shots compute theirs column by column (tests/killteam/test_shoot_batch.py
holds a larger family); the other forms gather their items' summaries."""

from __future__ import annotations

import numpy as np
import pytest
from test_seed_rule import BATCHES, MC, SEED


@pytest.mark.parametrize("method", ["exact", "monte_carlo"])
@pytest.mark.parametrize("name", BATCHES)
def test_summary_arrays_are_the_summaries(name: str, method: str) -> None:
    batch_of, _ = BATCHES[name]
    batch = batch_of(**MC, seed=SEED) if method == "monte_carlo" else batch_of(method="exact")
    rows = batch.summaries()
    columns = batch.summary_arrays()
    assert list(columns) == list(rows[0])
    for key, column in columns.items():
        assert column.dtype == np.float64 and column.shape == (len(batch),)
        assert column.view(np.int64).tolist() == np.array([row[key] for row in rows]).view(np.int64).tolist()
    assert batch.to_frame().to_dict(orient="records") == rows
