"""
RNG, dice and chunked sampling
"""
from __future__ import annotations
import numpy
import numpy.typing
import typing
__all__: list[str] = ['CHUNK_SAMPLES', 'chunk_count', 'd6_histogram']
def chunk_count(total: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    Chunks of CHUNK_SAMPLES in a run of `total` samples
    """
def d6_histogram(seed: typing.SupportsInt | typing.SupportsIndex, total: typing.SupportsInt | typing.SupportsIndex, chunk_begin: typing.SupportsInt | typing.SupportsIndex, chunk_end: typing.SupportsInt | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint64]:
    """
    Counts of d6 faces 1..6 (index 0..5) from the chunked streams
    """
CHUNK_SAMPLES: int = 65536
