"""The errors the web app answers with: :class:`ApiError` carries an HTTP status and a
message for the person or script that sent the request.  Every refusal of the app is one
of these (a 4xx with ``{"error": message}``); nothing else reaches a client."""

from __future__ import annotations

__all__ = ["ApiError", "bad_request", "conflict", "forbidden", "not_found", "too_large", "too_many"]


class ApiError(Exception):
    """A request the app refuses: ``status`` (an HTTP status, 4xx) and ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def bad_request(message: str) -> ApiError:
    """400: a malformed request, an illegal move, invalid rules or bot names."""
    return ApiError(400, message)


def forbidden(message: str) -> ApiError:
    """403: a path outside the records folder."""
    return ApiError(403, message)


def not_found(message: str) -> ApiError:
    """404: an unknown (or expired) game or replay, a missing record file."""
    return ApiError(404, message)


def conflict(message: str) -> ApiError:
    """409: a well-formed request the game's state does not allow now (not your turn, the
    game is over or has moved on)."""
    return ApiError(409, message)


def too_large(message: str) -> ApiError:
    """413: a request body or an upload over its size limit."""
    return ApiError(413, message)


def too_many(message: str) -> ApiError:
    """429: the server holds as many games as it may."""
    return ApiError(429, message)
