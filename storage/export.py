"""A finished game as self-contained JSON (seed, options, full log in notation) that replays
anywhere the engine runs, and the replay of such a file.

    data = await export_game(session=s, game_id=42)
    game = replay_export(data)     # engine.Game, checked against the exported results
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from engine import RULES_VERSION, Game, GameOptions, load_map, parse_action
from storage.database import make_engine, session_factory
from storage.errors import ExportFormatError, ExportRefusedError
from storage.games import action_log, game_seats, get_game
from storage.models import ACTIVE

FORMAT = "ttr-game"
FORMAT_VERSION = 1


async def export_game(*, session: AsyncSession, game_id: int) -> dict[str, Any]:
    """The game as JSON-compatible data. Refuses an active game: its seed reveals the deck."""
    record = await get_game(session=session, game_id=game_id)
    if record.status == ACTIVE:
        raise ExportRefusedError(f"game {game_id} is still being played: its seed would reveal the hidden cards")
    log = await action_log(session=session, game_id=game_id, upto=record.version)
    seats = await game_seats(session=session, game_id=game_id)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game_id": record.id,
        "map": record.map_id,
        "map_sha256": record.map_sha256,
        "rules_version": record.rules_version,
        "seats": record.seats,
        "seed": record.seed,
        "options": record.options,
        "status": record.status,
        "end_reason": record.end_reason,
        "created_at": record.created_at.isoformat(),
        "finished_at": record.finished_at.isoformat() if record.finished_at else None,
        # Discord ids as strings: JSON readers with 53-bit numbers would round them.
        "players": [
            {
                "seat": s.seat,
                "user_id": str(s.user_id) if s.user_id is not None else None,
                "color": s.color,
                "left": s.left,
                "score": s.final_score,
                "rank": s.rank,
                "tickets_completed": s.tickets_completed,
            }
            for s in seats
        ],
        "log": [[seat, text] for seat, text in log],
    }


def replay_export(data: dict[str, Any], *, check_versions: bool = True) -> Game:
    """Rebuild the exported game with the engine; checks map data, rules version and the results."""
    if data.get("format") != FORMAT or data.get("format_version") != FORMAT_VERSION:
        raise ExportFormatError(f"not a {FORMAT} v{FORMAT_VERSION} file")
    try:
        map_data = load_map(data["map"])
    except (KeyError, ValueError, OSError) as exc:
        raise ExportFormatError(f"unknown map {data.get('map')!r}: {exc}") from None
    if check_versions and data["map_sha256"] != map_data.sha256:
        raise ExportFormatError(f"the game was played on other data for map {data['map']!r}")
    if check_versions and data["rules_version"] != RULES_VERSION:
        raise ExportFormatError(f"the game was played under rules version {data['rules_version']}, not {RULES_VERSION}")
    game = Game.new(map_data, data["seats"], data["seed"], GameOptions.from_json(data["options"]))
    for n, (seat, text) in enumerate(data["log"], start=1):
        try:
            game.apply(seat, parse_action(game, seat, text))
        except ValueError as exc:
            raise ExportFormatError(f"action {n} ({text!r}) does not replay: {exc}") from None
    if game.is_over():
        for player in data.get("players", []):
            score = game.final[player["seat"]]
            if player.get("score") is not None and (player["score"], player["rank"]) != (score.total, score.rank):
                raise ExportFormatError(
                    f"seat {player['seat'] + 1}: replay scores {score.total}, the file says {player['score']}"
                )
    return game


async def export_game_from(url: str | None, game_id: int) -> dict[str, Any]:
    """`export_game` on a database by URL (`python -m storage export`)."""
    engine = make_engine(url)
    try:
        async with session_factory(engine)() as session:
            return await export_game(session=session, game_id=game_id)
    finally:
        await engine.dispose()
