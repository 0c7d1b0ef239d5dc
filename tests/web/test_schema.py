"""Schemathesis over the OpenAPI document (docs/web.md): bounded and derandomized, no request it
generates gets a 500, and every answer matches the schema the document declares."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from casedata import KILLTEAM_TEAMS
from mathhammer.web import Limits, create_app

# a short time limit keeps a generated Monte Carlo request of 10^7 samples from holding the run; the
# Host check on, as `mathhammer serve` runs the app (Schemathesis names its host "testserver"); the
# invented teams loaded, so that the matchup runs too
app = create_app(profiles=[KILLTEAM_TEAMS], limits=Limits(time_limit=0.5), hosts=["testserver"])
schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", app)


@schema.parametrize()
@settings(max_examples=12, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_no_request_breaks_the_server_or_the_schema(case: schemathesis.Case) -> None:
    # every other built-in check runs; a request the schema allows may still be refused with 422: the
    # engine checks ranges (a save of 9+) and names the schema cannot express
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


def test_the_document_declares_every_refusal_an_action_can_get() -> None:
    # what a client must be ready for (docs/web.md, "Errors"): the limits of the server under hostile clients
    paths = schema.raw_schema["paths"]
    actions = [operation for path, item in paths.items() for method, operation in item.items() if method == "post"]
    assert actions
    for operation in actions:
        assert {"400", "408", "413", "422", "431", "503", "504"} <= set(operation["responses"]), operation["summary"]
