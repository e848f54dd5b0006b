"""Images drawn, and AI moves thought, in worker processes, not on the event loop's threads.

A board takes 30–300 ms of CPU in Pillow and Python; in a worker thread it holds the GIL the event
loop needs, so every interaction waits behind it and one process uses one core. Here each image is
drawn by one of a pool of processes (one per core, `RENDER_WORKERS`), shared by every bot in this
process and started by `POOL.start` when the bot starts. A worker gets plain data (the view, the
map's id, the styles, the language) and loads the map and catalogs itself, once. Images are also
kept: `render` answers a call it has answered before (same renderer, same arguments) from a small
cache, so a public image is drawn once however many read it, and a private one again only when
something it shows changed.

An AI seat's move is thought there too (`think`): the strong AI's playouts take up to half a
second of CPU (the expert's a second), which in a thread would hold the loop's GIL as a drawing
does. The worker rebuilds the game from its JSON and asks the AI, which sees only its seat's view.

The workers come from a `forkserver`: a fresh interpreter started before anything else, with the
rendering modules imported once (`set_forkserver_preload`), that forks each worker from itself.
Forking the bot would copy a process that runs threads (aiosqlite's, the loop's executor), which
Python 3.12 warns about and which can leave a lock held in the child for ever. A worker watches the
bot (a pidfd) and exits the moment it is gone, SIGKILL included; an image whose worker died is
drawn in a thread instead, and the next ones in a new pool.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import json
import logging
import multiprocessing
import os
import select
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine import Action, Game
from i18n import Translator
from rendering import PlayerStyle, RenderedImage

log = logging.getLogger(__name__)

#: Renderers by name (`rendering` functions taking view, map, styles and keyword arguments).
RENDERERS = ("render_board", "render_final", "render_hand", "render_player_board", "render_ticket_offer")
#: Images kept (a board is about 110 KB): enough for every reader of the turns in progress.
KEEP = 64
#: Pools that may break (a worker killed, out of memory) before images stay in threads for good.
BREAKS = 3
#: What the forkserver imports once, so that a worker starts with it loaded.
PRELOAD = ["bot.render_pool", "engine", "rendering", "ai"]
#: A worker's lower CPU priority: on a busy machine the bot's loop (every interaction's first
#: answer, due in 3 s) runs before a drawing, which only one message waits for.
NICE = 5
#: The map a worker draws once when it starts (its fonts and layers then ready; other maps on first use).
WARM_MAP = "usa"


def _draw(
    name: str, view: dict, map_id: str, styles: Sequence[PlayerStyle], language: str, city_names: str, kwargs: dict
) -> RenderedImage:
    """In a worker (or a thread): one image."""
    return _renderer(name)(view, _map(map_id), styles, t=_translator(language, city_names), **kwargs)


def _think(level: str, seed: str, state: dict, seat: int) -> Action:
    """In a worker (or a thread): the move the AI `level` makes for `seat` in the game `state`."""
    from ai import ask, make_ai
    from engine import Game

    return ask(make_ai(level, seed=seed), Game.from_json(state), seat)


def _worker_start(bot_pid: int) -> None:
    """In a worker, first: it exits with the bot. A worker holds its own queue's pipe and the
    forkserver's "alive" pipe open, so neither tells it the bot is gone; a thread waits on a pidfd
    of the bot instead (polling where there is none)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the bot, which stops its workers
    with contextlib.suppress(OSError):
        os.nice(NICE)
    threading.Thread(target=_exit_with, args=(bot_pid,), name="exit-with-bot", daemon=True).start()


def _exit_with(pid: int) -> None:
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):  # not Linux, or the bot is gone already
        fd = None
    if fd is not None:
        select.select([fd], [], [])
    else:
        while _alive(pid):
            time.sleep(1)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _warm() -> int:
    """In a worker, when it starts: the renderers, and the default map's fonts and layers (a
    first board costs ~300 ms more than the next). Returns the worker's pid."""
    from engine import Game, GameOptions

    game = Game(_map(WARM_MAP), 2, seed=0, options=GameOptions())
    styles = [PlayerStyle("", (0, 0, 0)), PlayerStyle("", (255, 255, 255))]
    _renderer("render_board")(game.view(None), game.map, styles, t=_translator("en", "printed"))
    return os.getpid()


@functools.cache
def _renderer(name: str):  # type: ignore[no-untyped-def]
    import rendering

    return getattr(rendering, name)


@functools.cache
def _map(map_id: str):  # type: ignore[no-untyped-def]
    from engine import load_map

    return load_map(map_id)


@functools.cache
def _translator(language: str, city_names: str) -> Translator:
    return Translator(language, city_names)


class RenderPool:
    """Until `start` (and with RENDER_WORKERS=0) every image is drawn in a thread; the cache
    works either way."""

    def __init__(self) -> None:
        self.workers = 0  # 0: threads only
        self._executor: ProcessPoolExecutor | None = None
        self._warming: list[Future[int]] = []
        self._opening = False
        self._images: OrderedDict[str, RenderedImage] = OrderedDict()
        self._drawing: dict[str, asyncio.Future[RenderedImage]] = {}
        self.breaks = 0
        self.drawn = self.reused = self.in_threads = 0

    def start(self, workers: int | None = None) -> None:
        """Start `workers` processes (None: one per core; 0: none, threads draw). Once per
        process: the bots of one process share the pool. Returns at once: the forkserver and the
        workers start in a thread, and images drawn until they are ready are drawn in threads."""
        if self.workers or self._opening or workers == 0:
            return
        self.workers = workers or os.cpu_count() or 1
        self._open()

    def _open(self) -> None:
        self._opening = True
        threading.Thread(target=self._open_pool, name="render-pool-start", daemon=True).start()

    def _open_pool(self) -> None:
        try:
            method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
            context = multiprocessing.get_context(method)
            if method == "forkserver":
                context.set_forkserver_preload(PRELOAD)
            executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_worker_start, initargs=(os.getpid(),)
            )
            warming = [executor.submit(_warm) for _ in range(self.workers)]
            self._warming = warming
            self._executor = executor  # last: `ready` looks at it first
        except Exception:  # noqa: BLE001  (no processes here: threads draw, as with RENDER_WORKERS=0)
            log.exception("the image workers did not start; images are drawn in threads")
        finally:
            self._opening = False

    @property
    def ready(self) -> bool:
        """Whether the workers have started (until then an image is drawn in a thread)."""
        return self._executor is not None and all(f.done() for f in self._warming)

    def pids(self) -> list[int]:
        """The workers' process ids (once ready)."""
        return [f.result() for f in self._warming if f.done() and not f.exception()]

    async def render(
        self, name: str, view: dict, map_id: str, styles: Sequence[PlayerStyle], t: Translator, **kwargs: object
    ) -> RenderedImage:
        """`rendering.<name>(view, map, styles, t=t, **kwargs)`, drawn in a worker process (or
        kept from an equal call; two equal calls at once draw it once)."""
        assert name in RENDERERS, name
        styles = list(styles)
        key = json.dumps(
            [name, view, map_id, [(s.name, s.color) for s in styles], t.language, t.city_names, kwargs],
            sort_keys=True,
            default=list,
        )
        image = self._images.get(key)
        if image is not None:
            self._images.move_to_end(key)
            self.reused += 1
            return image
        pending = self._drawing.get(key)
        if pending is not None:
            self.reused += 1
            return await asyncio.shield(pending)
        future = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            image = await self._run(
                functools.partial(_draw, name, view, map_id, styles, t.language, t.city_names, kwargs)
            )
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: a failure nobody else awaited is not logged as lost
            raise
        finally:
            del self._drawing[key]
        future.set_result(image)
        self.drawn += 1
        self._images[key] = image
        while len(self._images) > KEEP:
            self._images.popitem(last=False)
        return image

    async def think(self, level: str, seed: str, game: Game, seat: int) -> Action:
        """`ai.ask(make_ai(level, seed), game, seat)`, thought in a worker process (never kept:
        a seeded AI gives the same move for the same game anyway)."""
        return await self._run(functools.partial(_think, level, seed, game.to_json(), seat))

    async def _run(self, call: functools.partial) -> Any:
        executor = self._executor
        if executor is not None and self.ready:
            try:
                return await asyncio.get_running_loop().run_in_executor(executor, call)
            except BrokenProcessPool:  # a worker died (killed, out of memory): this image in a thread
                self._broken(executor)
        self.in_threads += 1
        return await asyncio.to_thread(call)

    def _broken(self, executor: ProcessPoolExecutor) -> None:
        """A new pool for the next images (once, however many images the broken one failed)."""
        if self._executor is not executor:
            return
        self._executor, self._warming = None, []
        executor.shutdown(wait=False, cancel_futures=True)
        self.breaks += 1
        if self.breaks < BREAKS:
            log.warning("an image worker died; starting new ones", extra={"breaks": self.breaks})
            self._open()
        else:
            log.error("image workers died %d times; images are drawn in threads from now on", self.breaks)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


#: The process's pool: every bot in it draws here (tests run many bots in one process).
POOL = RenderPool()
atexit.register(POOL.close)
