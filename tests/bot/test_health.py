"""/healthz and /metrics of a running TTRBot (HEALTH_PORT), read while players use it."""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.error
import urllib.request
from datetime import timedelta

import sqlalchemy as sa
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.logs import JsonFormatter, TextFormatter
from storage.models import Announcement, utcnow
from tests.bot.driver import Driver


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def samples(body: str) -> dict[tuple[str, tuple], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(body)
        for s in family.samples
    }


async def test_health_and_metrics_follow_what_happens(fake_discord, make_bot, monkeypatch) -> None:
    fake = fake_discord
    bot = await make_bot(health_port=0)
    base = f"http://127.0.0.1:{bot.health.port}"

    status, body = await asyncio.to_thread(get, base + "/healthz")
    health = json.loads(body)
    assert status == 200 and health["gateway"]["connected"] and health["database"]["reachable"]
    await fake.wait_until(lambda: bot.health.active_games is not None, what="the first count of games")
    before = samples((await asyncio.to_thread(get, base + "/metrics"))[1])
    assert before[("ttr_active_games", ())] == 0 and before[("ttr_servers", ())] == 1
    commands = ("ttr_interactions_total", (("type", "command"),))

    reply = await fake.slash(fake.alice, fake.general, "ttr-host new", map="usa", players=3)
    if reply.kind == "deferred":
        await reply.wait_resolved()
    await fake.slash(fake.bob, fake.general, "ttr join")
    timed = ("ttr_interaction_seconds_count", (("outcome", "ok"), ("type", "command")))
    # The completion listener runs just after the reply: wait for it, then read what Prometheus reads.
    await fake.wait_until(lambda: samples(_exposition()).get(timed, 0) - before.get(timed, 0) == 2)
    status, body = await asyncio.to_thread(get, base + "/metrics")
    after = samples(body)
    assert after[commands] - before.get(commands, 0) == 2
    assert after[timed] - before.get(timed, 0) == 2
    health = json.loads((await asyncio.to_thread(get, base + "/healthz"))[1])
    assert health["database"]["seconds_since_last_write"] is not None  # the lobby was written

    # The game starts (no move), then a player's move and an AI's: counted by cause.
    moves = {cause: ("ttr_moves_total", (("cause", cause),)) for cause in ("player", "ai")}
    bot.get_cog("AISeats").delay = 0
    board_file = bot.messenger.board_file

    async def slow_board(*args, **kwargs):  # type: ignore[no-untyped-def]
        await asyncio.sleep(0.25)  # a board that takes a quarter of a second to draw
        return await board_file(*args, **kwargs)

    monkeypatch.setattr(bot.messenger, "board_file", slow_board)
    monkeypatch.setattr(bot.messenger, "board_due", lambda table: True)  # every turn message has its board
    turn_seconds = ("ttr_turn_message_seconds_sum", ())
    await (await fake.slash(fake.alice, fake.general, "ttr-host start", ai_players=1)).wait_resolved()
    table = await bot.service.table_in_channel(fake.general.id)
    driver = Driver(fake, bot, fake.general, [fake.alice, fake.bob])
    driver.game_id = table.id
    await fake.wait_until(lambda: samples(_exposition()).get(moves["ai"], 0) > before.get(moves["ai"], 0))
    await driver.act(0, driver.game.default_action(0))
    await driver.act(1, driver.game.default_action(1))  # the last ticket choice: the first turn's message
    after = samples(_exposition())
    assert after[moves["player"]] - before.get(moves["player"], 0) == 2
    assert after[moves["ai"]] - before.get(moves["ai"], 0) >= 1  # its starting tickets
    # The first turn's message came with its board: its time counts the drawing.
    await fake.wait_until(lambda: samples(_exposition()).get(turn_seconds, 0) > before.get(turn_seconds, 0))
    assert samples(_exposition())[turn_seconds] - before.get(turn_seconds, 0) >= 0.25
    async with bot.storage.sessions() as session:  # a row left unposted, written a minute ago
        await session.execute(
            sa.insert(Announcement).values(
                game_id=table.id, version=10**6, cause="admin", created_at=utcnow() - timedelta(minutes=1)
            )
        )
        await session.commit()
    await bot.health._count_games()
    gauges = samples((await asyncio.to_thread(get, base + "/metrics"))[1])
    async with bot.storage.sessions() as session:
        waiting = (
            await session.execute(sa.select(sa.func.count()).where(Announcement.announced_at.is_(None)))
        ).scalar_one()
    assert gauges[("ttr_active_games", ())] == 1 and gauges[("ttr_outbox_backlog", ())] == waiting >= 1
    assert 60 <= gauges[("ttr_outbox_oldest_seconds", ())] < 90

    await bot.storage.engine.dispose()
    bot.storage.engine.sync_engine.pool._creator = _refuse  # the database goes away
    status, body = await asyncio.to_thread(get, base + "/healthz")
    assert status == 503 and json.loads(body)["database"]["reachable"] is False


def _refuse():  # type: ignore[no-untyped-def]
    raise OSError("database gone")


def test_errors_are_counted_by_kind_from_the_log() -> None:
    counter = metrics.ErrorCounter()
    logger = logging.getLogger("tests.health")
    logger.addHandler(counter)
    key = ("ttr_errors_by_kind_total", (("kind", "ZeroDivisionError"),))
    total = ("ttr_errors_total", ())
    before = samples(_exposition())
    before, before_total = before.get(key, 0), before[total]
    try:
        try:
            raise ZeroDivisionError("a failing handler")
        except ZeroDivisionError:
            logger.exception("failed")
        logger.warning("not an error")
    finally:
        logger.removeHandler(counter)
    after = samples(_exposition())
    assert (after[key] - before, after[total] - before_total) == (1, 1)


def _exposition() -> str:
    from prometheus_client import CollectorRegistry, generate_latest

    registry = CollectorRegistry()
    for collector in metrics.COLLECTORS:
        registry.register(collector)
    return generate_latest(registry).decode()


def test_text_logs_are_one_readable_line_with_the_ids() -> None:
    record = logging.LogRecord("bot.turns", logging.INFO, __file__, 1, "turn posted in %s", ("general",), None)
    record.game_id = 7
    line = TextFormatter().format(record)
    assert line.endswith("INFO  bot.turns: turn posted in general (game_id=7)") and "\n" not in line
    assert json.loads(JsonFormatter().format(record))["game_id"] == 7


def test_logs_are_readable_in_a_terminal_and_json_elsewhere_unless_asked() -> None:
    import io

    from bot.logs import setup_logging
    from bot.settings import Settings

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert Settings(_env_file=None).log_format == "auto"
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        for stream, log_format, readable in [
            (Terminal(), "auto", True),
            (io.StringIO(), "auto", False),
            (Terminal(), "json", False),
            (io.StringIO(), "text", True),
        ]:
            setup_logging("INFO", log_format, stream)
            logging.getLogger("bot.turns").info("turn posted", extra={"game_id": 7})
            line = stream.getvalue().strip()
            if readable:
                assert line.endswith("INFO  bot.turns: turn posted (game_id=7)"), line
            else:
                assert json.loads(line)["game_id"] == 7
    finally:
        root.handlers[:], root.level = handlers, level
