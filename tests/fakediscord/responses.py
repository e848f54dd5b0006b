"""How the fake's routes read a request and answer: JSON exactly as Discord sends it, 204s, a
request's JSON or multipart body with its files, and the allowed-mentions check every message
route runs."""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import web

from tests.fakediscord.limits import DiscordError, FormErrors
from tests.fakediscord.mentions import validate_allowed_mentions

Files = list[tuple[int, str, bytes, str | None]]  # (upload index, filename, data, content type)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # Discord sends exactly "application/json" (no charset), which is what discord.py checks for.
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={**(headers or {}), "Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    return web.Response(status=204)


async def read_body(request: web.Request) -> tuple[dict[str, Any], Files]:
    """JSON body, or multipart with ``payload_json`` and ``files[n]`` parts (how discord.py uploads)."""
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        files: Files = []
        reader = await request.multipart()
        async for part in reader:
            name = part.name or ""
            data = await part.read(decode=False)
            if name == "payload_json":
                payload = json.loads(data.decode())
            else:
                match = re.fullmatch(r"files\[(\d+)\]|file(\d*)", name)
                index = int(next(g for g in match.groups() if g)) if match and any(match.groups()) else len(files)
                files.append((index, part.filename or f"file{index}", bytes(data), part.headers.get("Content-Type")))
        return payload, files
    if request.can_read_body:
        text = await request.text()
        if text:
            try:
                body = json.loads(text)
            except ValueError:
                raise DiscordError(400, 50109, "The request body contains invalid JSON.") from None
            return body if isinstance(body, dict) else {"__list__": body}, []
    return {}, []


def validate_mentions(payload: dict[str, Any], prefix: tuple) -> None:
    errors = FormErrors(prefix)
    validate_allowed_mentions(payload.get("allowed_mentions"), errors)
    errors.raise_if_any()
