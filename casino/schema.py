"""The OpenAPI contract's error answers (issue 20): every operation documents the statuses it can answer
with the one error shape ``{"message", "code", "extra"}`` (casino.errors), added by a drf-spectacular
postprocessing hook so no view can forget them.

Per operation: 400 (bad query or body), 401 (no or expired token; not on the public operations), 403 (the
role may not), 404 (operations with a path parameter: no such object, or not visible to the caller); on
writes (and downloads of a report not built yet) also 409 (a stale sequence number, a reused idempotency key, a state that changed), 413 (body over
the limit), 415 (not JSON); the token operation also 429 (locked out after repeated failures).
"""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA = {
    "type": "object",
    "description": "Every error: a readable message (in the caller's language), a stable code, details.",
    "properties": {
        "message": {"type": "string", "description": "what went wrong, readable by a person"},
        "code": {"type": "string", "description": "stable snake_case code, e.g. not_found, locked_out"},
        "extra": {"type": "object", "additionalProperties": True, "description": "details (fields, state...)"},
    },
    "required": ["message", "code", "extra"],
}

DESCRIPTIONS = {
    "400": "The request cannot be read or is refused (message says why; nothing was written).",
    "401": "No valid credentials: log in (POST /api/v1/auth/token/) and send Authorization: Token ...",
    "403": "Your role may not do this.",
    "404": "No such object (or not visible to you).",
    "409": "Conflict: someone changed it first (stale expected_seq, reused idempotency key, state changed).",
    "413": "The request body is over the size limit.",
    "415": "The body is not JSON (send Content-Type: application/json).",
    "429": "Too many failed logins for this user or address: locked out for a while.",
}
WRITE_METHODS = {"post", "put", "patch", "delete"}
#: Operations anyone may call (no 401/403): health, the schema and docs, the login.
PUBLIC_PREFIXES = ("/api/v1/health/", "/api/v1/schema/", "/api/v1/docs/", "/api/v1/auth/token/")


def _statuses(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    public = path.startswith(PUBLIC_PREFIXES)
    codes = ["400"]
    if not public:
        codes += ["401", "403"]
    if any(p.get("in") == "path" for p in operation.get("parameters", [])) or "{" in path:
        codes.append("404")
    if method in WRITE_METHODS:
        codes += ["409", "413", "415"] if not public else ["413", "415"]
    elif path.endswith("/download/"):
        codes.append("409")  # the file is not built yet
    if path.startswith("/api/v1/auth/token/"):
        codes.append("429")
    return codes


def error_responses(result: dict[str, Any], generator, request, public) -> dict[str, Any]:  # noqa: ARG001
    """drf-spectacular postprocessing hook: the ``Error`` component and the error statuses of every
    operation (an operation's own documented answer for a status is kept)."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if method not in {"get", "post", "put", "patch", "delete", "head", "options"}:
                continue
            responses = operation.setdefault("responses", {})
            for code in _statuses(path, method, operation):
                responses.setdefault(code, {"description": DESCRIPTIONS[code],
                                            "content": {"application/json": {"schema": ref}}})
    return result


def lib_doc_excludes() -> list[type]:
    """``GET_LIB_DOC_EXCLUDES``: drf-spectacular's own list plus our base input serializer, whose docstring
    describes the base, not each endpoint's input."""
    from drf_spectacular.plumbing import get_lib_doc_excludes

    from casino.api_input import StrictInputSerializer

    return [*get_lib_doc_excludes(), StrictInputSerializer]
