"""Index grids of small 2-D tables, made once per shape.

Result figures such as P(a tie) or P(both sides Wasted) select cells of a joint table by their row
and column; ``np.indices`` costs more than the selection itself, and the tables of one game come in
few shapes.
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["index_grids"]


@functools.lru_cache(maxsize=1024)
def index_grids(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``np.indices(shape)`` of a 2-D shape (read-only, shared): the row and the column of every cell."""
    rows, columns = np.indices(shape)
    rows.setflags(write=False)
    columns.setflags(write=False)
    return rows, columns
