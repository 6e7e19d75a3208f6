"""The OpenAPI document as the server serves it (``/api/openapi.json``).

Routes say what they accept with Pydantic types and FastAPI parameters (enums, ranges)
and list the refusals they answer with :func:`documented`. :func:`as_served` then
corrects the two places where FastAPI's document would not say what this server does:

* FastAPI adds a 422 with its own body to every route with parameters; this server
  answers a request that does not match with 400 in its own error shape, so that 422
  is dropped (routes that do answer 422 list it themselves).
* The document is OpenAPI 3.0 (the Swagger UI at ``/api/docs`` reads 3.0 only), but
  Pydantic writes JSON Schema 2020-12: "more than x" becomes 3.0's ``minimum: x,
  exclusiveMinimum: true`` (3.0 readers refuse ``exclusiveMinimum: x``), and a single
  allowed value ``const: v`` becomes ``enum: [v]`` (3.0 readers ignore ``const``, and
  would take any value).
"""

from __future__ import annotations

from sudoku_arena.core.types import JsonDict
from sudoku_arena.server.models import ErrorResponse

#: What each documented status means, with the codes it may carry.
_MEANING = {
    400: "The request does not match this document (bad_json, bad_request: the "
    "message names the field and what is allowed), or a refused field (seed_refused, "
    "bad_client_seed).",
    401: "Not signed in (sign_in_required), or a wrong user name or password (bad_credentials).",
    403: "A seat's token is missing or wrong (bad_token), or the seat may not do that "
    "(forbidden, private, coach_off: no hints in that game, coach_not_agreed: not every "
    "person in the game has agreed to the coach yet, seat_of_another_account: the seat "
    "belongs to another account than the one signed in), or a signed-in browser's change "
    "without its X-CSRF-Token (csrf_failed).",
    404: "There is no game with that id (not_found), or no such ply.",
    409: "The game's state does not allow it now (stale, not_your_turn, game_over, "
    "not_over, read_only, seat_elsewhere, seat_taken, full, already_seated, "
    "not_asked: that seat is not asked to agree to the coach, name_taken: that user "
    "name has an account).",
    413: "The request body is too large (too_large).",
    422: "Well formed but refused by the rules: an unknown game (unknown_game), "
    "options or seats the game does not offer (invalid), an illegal action (illegal, "
    "notation, bad_seat). The message says what is allowed.",
    429: "Too many requests of this kind from this address or for this account "
    "(too_many_requests): Retry-After says in how many seconds to try again.",
    503: "The game is set aside or could not be saved (unavailable): nothing changed.",
}


def documented(*statuses: int) -> dict[int | str, dict[str, object]]:
    """The ``responses=`` of a route that refuses with these statuses."""
    return {s: {"model": ErrorResponse, "description": _MEANING[s]} for s in statuses}


def as_served(document: JsonDict) -> JsonDict:
    """FastAPI's ``document``, corrected in place (see the module's docstring)."""
    for path in document.get("paths", {}).values():
        for operation in path.values():
            responses = operation.get("responses", {})
            answer = responses.get("422", {}).get("content", {}).get("application/json", {})
            if answer.get("schema", {}).get("$ref", "").endswith("/HTTPValidationError"):
                del responses["422"]
    models = document.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        models.pop(name, None)
    _as_3_0(document)
    return document


def _as_3_0(node: object) -> None:
    """Rewrite the JSON Schema 2020-12 keywords OpenAPI 3.0 lacks under ``node``."""
    if isinstance(node, list):
        for item in node:
            _as_3_0(item)
        return
    if not isinstance(node, dict):
        return
    for exclusive, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        value = node.get(exclusive)
        if isinstance(value, int | float) and not isinstance(value, bool):
            node[bound] = value
            node[exclusive] = True
    # A scalar: a property named "const" maps to a schema (a dict) instead.
    if isinstance(node.get("const"), str | int | float | bool):
        node["enum"] = [node.pop("const")]
    for child in node.values():
        _as_3_0(child)
