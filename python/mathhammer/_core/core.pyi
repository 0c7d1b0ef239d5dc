"""
RNG, dice and chunked sampling
"""
from __future__ import annotations
import numpy
import numpy.typing
import typing
__all__: list[str] = ['CHUNK_SAMPLES', 'd6_histogram', 'request_interrupt', 'usable_cores', 'worker_count']
def d6_histogram(seed: typing.SupportsInt | typing.SupportsIndex, total: typing.SupportsInt | typing.SupportsIndex, chunk_begin: typing.SupportsInt | typing.SupportsIndex, chunk_end: typing.SupportsInt | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint64]:
    """
    Counts of d6 faces 1..6 (index 0..5) from the chunked streams
    """
def request_interrupt() -> None:
    """
    Ask every running C++ computation to stop (each raises KeyboardInterrupt)
    """
def usable_cores() -> int:
    """
    Cores this process may run on: the most workers a run uses
    """
def worker_count(threads: typing.SupportsInt | typing.SupportsIndex, chunks: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    Workers a run of `chunks` chunks uses when `threads` are asked for
    """
CHUNK_SAMPLES: int = 65536
