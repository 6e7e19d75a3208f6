"""The OpenAPI document says what the API accepts and answers, refusals included.

Schemathesis generates requests from the document (valid ones, invalid ones, methods
the document does not list, sequences of calls) and runs every check it has against
the app in-process on a fresh SQLite file: no server error, every status, header and
body as documented, valid requests accepted, invalid ones refused, 405 with ``Allow``.
The plain tests below pin the cases a first run found.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi import APIRouter, FastAPI, Response
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

from sudoku_arena.core.registry import registered_games
from sudoku_arena.server import ServerConfig, create_app
from sudoku_arena.server.app import ArenaApp
from sudoku_arena.server.errors import install

#: Schemathesis' default answers to a request that matches the document, plus 422 for
#: ``POST /api/matches`` (and seeks and challenges): whether a game takes these options
#: and seats (a grid that is a Sudoku, as many seats as players, a bot the game has) is
#: the engine's to say, beyond what a JSON schema can; the document lists that 422.
_ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
CONFIG = schemathesis.Config.from_dict(
    {
        "seed": 20240601,  # Schemathesis' own draws, the same each run
        "operations": [
            {
                "include-name": name,
                "checks": {"positive_data_acceptance": {"expected-statuses": [*_ACCEPTED, 422]}},
            }
            # seeks and challenges name a game's options and player count the same way
            for name in ("POST /api/matches", "POST /api/seeks", "POST /api/challenges")
        ],
    }
)
# The document needs no database: any app built by create_app serves the same one.
schema = schemathesis.openapi.from_dict(create_app().openapi(), config=CONFIG)


@pytest.fixture
def app(sqlite_url: str) -> ArenaApp:
    """A server on a fresh SQLite file (Schemathesis runs its lifespan)."""
    return create_app(ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0))


#: Reproducible (the same requests each run) and bounded.
BOUNDED = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    database=None,
    # One server per test, shared by the requests generated in it.
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)


@schema.parametrize()
@BOUNDED
def test_the_api_keeps_its_openapi_contract(case: Any, app: ArenaApp) -> None:
    """Each operation on its own: its examples, the edges of every field (the coverage
    phase, which also sends the methods the document does not list) and random
    requests, valid and not."""
    case.call_and_validate(app=app)


def test_the_api_keeps_its_contract_across_calls(app: ArenaApp) -> None:
    """Sequences of calls where a later request uses an earlier answer (a new game's
    id), as Schemathesis infers them from the document."""

    class OnThisServer(schema.as_state_machine()):
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"app": app}

    OnThisServer.run(settings=settings(BOUNDED, max_examples=25, stateful_step_count=6))


# -- the cases a first run found --------------------------------------------------------------


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    app = create_app(ServerConfig(database_url=sqlite_url, bot_workers=0, bot_delay=0.0))
    with TestClient(app) as c:
        yield c


def test_the_document_is_served_and_lists_the_games_and_the_error_shape(
    client: TestClient,
) -> None:
    doc = client.get("/api/openapi.json").json()
    ids = [s.id for s in registered_games()]
    rules = doc["paths"]["/api/games/{game}/rules"]["get"]
    assert rules["parameters"][0]["schema"]["enum"] == ids
    listing = {p["name"]: p["schema"] for p in doc["paths"]["/api/matches"]["get"]["parameters"]}
    assert listing["page"]["minimum"] == 1 and listing["per_page"]["maximum"] == 100
    refused = rules["responses"]["422"]["content"]["application/json"]["schema"]
    assert refused == {"$ref": "#/components/schemas/ErrorResponse"}
    # FastAPI's own 422 body is never sent, so it is never promised.
    assert "HTTPValidationError" not in doc["components"]["schemas"]


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("TRACE", "/api/games", "GET"),
        ("DELETE", "/api/matches", "GET, POST"),  # two routes share the path
        ("PUT", "/api/matches/abc/actions", "POST"),
        ("POST", "/api/docs-assets/swagger-ui.css", "GET, HEAD"),  # static files
        ("POST", "/rules/citadel", "GET"),  # a person's page: answered with a page
        ("POST", "/api/matches/abc/print", "GET"),  # a route of an included router
    ],
)
def test_405_names_the_allowed_methods(
    client: TestClient, method: str, path: str, allow: str
) -> None:
    r = client.request(method, path)
    assert r.status_code == 405
    assert r.headers["allow"] == allow
    if path.startswith("/api/"):
        err = r.json()["error"]
        assert err["code"] == "method_not_allowed" and allow in err["message"]


def test_405_counts_the_routes_of_an_included_router() -> None:
    """FastAPI keeps an included router as one route without ``methods``: its methods
    join the app's own on a path they share."""
    app = FastAPI()
    router = APIRouter()

    @app.get("/x")
    async def read() -> None: ...

    @router.delete("/x")
    async def remove() -> None: ...

    @router.put("/y")
    async def put() -> None: ...

    app.include_router(router)
    install(app, lambda title, text, status, headers: Response(text, status, dict(headers)))
    with TestClient(app) as c:
        assert c.post("/x").headers["allow"] == "DELETE, GET"
        r = c.get("/y")  # a path only the router has
        assert r.status_code == 405 and r.headers["allow"] == "PUT"


@pytest.mark.parametrize(
    ("path", "status", "code", "words"),
    [
        ("/api/games/0/rules", 422, "unknown_game", "known games: cat-sudoku"),
        ("/api/matches?game=", 422, "unknown_game", "no game called ''"),
        ("/api/matches?page=0", 400, "bad_request", "page: Input should be greater than"),
        ("/api/matches?per_page=101", 400, "bad_request", "per_page"),
        ("/api/matches?status=paused", 400, "bad_request", "'active' or 'finished'"),
        ("/api/matches/abc/replay/-1", 400, "bad_request", "ply"),
    ],
)
def test_refusals_are_documented_and_clear(
    client: TestClient, path: str, status: int, code: str, words: str
) -> None:
    r = client.get(path)
    assert r.status_code == status
    err = r.json()["error"]
    assert err["code"] == code and words in err["message"]
    doc = client.get("/api/openapi.json").json()
    template = "/api/games/{game}/rules" if "/rules" in path else "/api/matches"
    if "/replay/" in path:
        template = "/api/matches/{game_id}/replay/{ply}"
    assert str(status) in doc["paths"][template]["get"]["responses"]
