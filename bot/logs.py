"""Logs on stderr: one JSON object per line (LOG_FORMAT=json, for Docker, journald and log shippers),
or one readable line per record (LOG_FORMAT=text, for a terminal); both carry the game, guild and
user of every action. LOG_FORMAT=auto (the default) picks text when stderr is a terminal, JSON when not."""

from __future__ import annotations

import json
import logging
import sys
from typing import TextIO

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


def _extras(record: logging.LogRecord) -> dict[str, object]:
    """The fields a call added with `extra=` (game_id, guild_id, user_id, error_id, ...)."""
    return {k: v for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_")}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(_extras(record))
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """`12:03:04 INFO  bot.client: ready as TTR Bot in 3 servers (guild_id=1)`, traceback below."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-5s %(name)s: %(message)s", datefmt="%H:%M:%S")

    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 (logging's name)
        line = super().formatMessage(record)
        extras = _extras(record)
        return f"{line} ({', '.join(f'{k}={v}' for k, v in extras.items())})" if extras else line


FORMATTERS = {"json": JsonFormatter, "text": TextFormatter}


def chosen_format(log_format: str, stream: TextIO) -> str:
    """ "auto": readable lines for a person at a terminal, JSON for whatever reads a pipe or a file."""
    if log_format != "auto":
        return log_format
    return "text" if stream.isatty() else "json"


def setup_logging(level: str = "INFO", log_format: str = "auto", stream: TextIO | None = None) -> None:
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    handler.setFormatter(FORMATTERS[chosen_format(log_format, stream)]())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.getLogger("discord").setLevel(max(logging.INFO, root.level))
