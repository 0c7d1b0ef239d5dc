"""The profile libraries' old import path, kept so that ``from mathhammer.library import
load_library`` goes on working: everything here is :mod:`mathhammer.files.library`'s."""

from mathhammer.files.library import *  # noqa: F401,F403
from mathhammer.files.library import __all__ as __all__  # noqa: F401
