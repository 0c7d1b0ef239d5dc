"""The web face of mathhammer: a JSON API generated from the game registry and a page for players
(docs/web.md). ``create_app()`` returns the ASGI application; ``mathhammer serve`` runs it on uvicorn.

FastAPI, Starlette, Pydantic and uvicorn are imported here only (the ``serve`` extra).
"""

from __future__ import annotations

from mathhammer.web.app import API, create_app, load_profiles
from mathhammer.web.limits import Limits

__all__ = ["API", "Limits", "create_app", "load_profiles"]
