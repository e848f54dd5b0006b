"""The Activity's first load: the figure in docs/web.md ("Figures").

    python benchmarks/activity_bench.py             # 5 loads (after one that warms the server)
    python benchmarks/activity_bench.py --loads 20

Serves the web table with its Activity (bot/web/activity.py) over a real GameService on SQLite,
with the fake Discord of tests/fakediscord as Discord's API, and opens the Activity in Debian's
chromium (phone viewport, a new browser context each time) inside the stand-in for the Discord
client's frame of tests/web/test_activity_browser.py: the time from navigation to the table's first
frame drawn covers the SDK's handshake, `authorize`, the server's code exchange (token,
/users/@me, the Activity instance), `authenticate`, the map's drawing and the first frame. No
network: it is what the page and the server add, not Discord's proxy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.async_api import async_playwright  # noqa: E402

from tests.fakediscord import FakeDiscord  # noqa: E402
from tests.web.conftest import serve  # noqa: E402
from tests.web.test_activity_browser import CHROMIUM, CLIENT, PHONE  # noqa: E402


def answering(html: str):
    async def fulfil(route) -> None:
        await route.fulfill(body=html, content_type="text/html")

    return fulfil


async def main(args: argparse.Namespace) -> None:
    fake = FakeDiscord().add_default_world()
    await fake.start()
    try:
        with fake.patch_discord(), tempfile.TemporaryDirectory() as folder:
            activity = {"client_id": fake.application_id, "client_secret": fake.client_secret, "bot_token": fake.token}
            users = (fake.alice.id, fake.bob.id)
            async for site in serve(Path(folder), channel_id=fake.general.id, users=users, activity=activity):
                instance = fake.join_activity(fake.alice, fake.general)
                took = []
                async with async_playwright() as p:
                    browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                    for _ in range(args.loads + 1):
                        setup = {
                            "code": fake.authorize(fake.alice),
                            "client_id": str(fake.application_id),
                            "user": fake.alice.payload(),
                        }
                        client = CLIENT % {
                            "src": f"/web/activity/?frame_id=f&instance_id={instance.id}&platform=mobile",
                            "setup": json.dumps(setup),
                        }
                        context = await browser.new_context(**PHONE)
                        page = await context.new_page()
                        await page.route(f"{site.url}/discord-client", answering(client))
                        began = time.perf_counter()
                        await page.goto(f"{site.url}/discord-client")
                        await page.frame_locator("#activity").locator("#offer input").first.wait_for()
                        took.append((time.perf_counter() - began) * 1000)
                        await context.close()
                    await browser.close()
                took = took[1:]  # the first one warms the server (the map's drawing, the catalogs)
                print(
                    f"the Activity's first load in chromium: median {statistics.median(took):.0f} ms, "
                    f"max {max(took):.0f} ms over {len(took)} loads"
                )
    finally:
        await fake.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5)
    asyncio.run(main(parser.parse_args()))
