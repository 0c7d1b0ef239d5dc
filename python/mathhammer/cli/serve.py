"""``mathhammer serve``: the JSON API and the page (docs/web.md) on uvicorn.

The web layer (FastAPI, uvicorn: the ``serve`` extra) is imported when the command runs, so
``mathhammer --help`` stays fast and works without the extra.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated, Optional

import typer

from mathhammer.cli.commands import epilog
from mathhammer.errors import InputError

__all__ = ["register", "serve_command"]

def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: it may resolve to anything
        return False


def serve_command(
    host: Annotated[str, typer.Option(help="Address to bind (default: loopback only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(min=1, max=64, help="Server processes.")] = 1,
    profiles: Annotated[Optional[list[Path]], typer.Option(
        help="Profile library file, or folder of libraries (as `killteam import` writes), whose names requests "
             "may use; repeat for several.")] = None,
    time_limit: Annotated[float, typer.Option(min=0.1, max=3600, help="Seconds of computation per request.")] = 10.0,
    concurrency: Annotated[Optional[int], typer.Option(
        min=1, max=1024, help="Computations at once per process (default: the cores shared among the workers).")] = None,
    allowed_hosts: Annotated[Optional[list[str]], typer.Option(
        help="Host header a request may name (default: localhost, 127.0.0.1, [::1] and --host); repeat for "
             "several, '*' for any (behind a proxy that checks it).")] = None,
) -> None:
    """Serve the JSON API (/api/v1, OpenAPI at /api/v1/openapi.json) and the calculator page at /."""
    try:
        from mathhammer.web import app as web, limits
        from mathhammer.core.sampling import usable_cores
    except ImportError as error:
        raise InputError("serve", f"needs the serve extra (pip install \"mathhammer[serve]\"): {error}") from None
    paths = [str(p) for p in profiles or []]
    web.load_profiles(paths)  # a bad library is one error line here, not a failure in every worker
    per_process = concurrency or max(1, usable_cores() // workers)
    hosts = allowed_hosts or web.default_hosts(host)
    if not _loopback(host):
        typer.echo(f"warning: binding {host}: the server is reachable from other machines; it has no "
                   "authentication (docs/web.md)", err=True)
        if not allowed_hosts:
            typer.echo(f"warning: only requests naming {', '.join(hosts)} as their Host are answered; give "
                       "--allowed-hosts with the names clients use", err=True)
    typer.echo(f"mathhammer: http://{host}:{port}/ ({workers} worker{'s' if workers != 1 else ''}, "
               f"{per_process} computation{'s' if per_process != 1 else ''} at once each)", err=True)
    web.serve(host, port, workers, paths, limits.Limits(concurrency=per_process, time_limit=time_limit), hosts)


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the root command."""
    app.command("serve", epilog=epilog("serve"))(serve_command)
