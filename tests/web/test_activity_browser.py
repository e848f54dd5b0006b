"""The Activity's handshake in a real browser (chromium, phone-sized): the page runs Discord's
Embedded App SDK inside a frame whose parent stands in for the Discord client (it answers the SDK's
postMessage protocol: the handshake with READY, AUTHORIZE with a code of the fake Discord,
AUTHENTICATE), and the table then plays as the user's own seat. Skipped without chromium/Playwright."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from tests.fakediscord import FakeDiscord
from tests.web.conftest import Site

playwright_api = pytest.importorskip("playwright.async_api", reason="Playwright for Python is not installed")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
if not shutil.which(CHROMIUM):
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)", allow_module_level=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

#: The Discord client's side of the SDK's protocol (opcodes 0 HANDSHAKE, 1 FRAME), as the SDK's
#: source (output/Discord.mjs, schema/) expects it; every message the page sent is kept in `said`.
CLIENT = """<!doctype html><html><body style="margin:0">
<iframe id="activity" src="%(src)s" style="border:0;width:100vw;height:100vh"></iframe>
<script>
const setup = %(setup)s;
window.said = [];
const frame = document.getElementById("activity");
function send(payload) { frame.contentWindow.postMessage([1, payload], "*"); }
function answer(command, data) { send({cmd: command.cmd, nonce: command.nonce, evt: null, data}); }
window.addEventListener("message", (e) => {
  if (e.source !== frame.contentWindow || !Array.isArray(e.data)) return;
  const [opcode, body] = e.data;
  window.said.push({opcode, cmd: body.cmd ?? null, args: body.args ?? null, client_id: body.client_id ?? null});
  if (opcode === 0) {
    send({cmd: "DISPATCH", evt: "READY", nonce: null,
          data: {v: 1, config: {cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production"}}});
  } else if (body.cmd === "AUTHORIZE") {
    answer(body, {code: setup.code});
  } else if (body.cmd === "AUTHENTICATE") {
    answer(body, {access_token: body.args.access_token, user: setup.user, scopes: ["identify"],
                  expires: "2030-01-01T00:00:00.000Z",
                  application: {id: setup.client_id, name: "TTR Bot", description: "", icon: null}});
  } else if (body.cmd) {
    answer(body, null);  // the SDK's log capture and the like
  }
});
</script></body></html>"""


async def test_the_activity_shakes_hands_with_discord_and_plays_the_users_seat(
    activity_site: Site, fake_discord: FakeDiscord
) -> None:
    fake, site = fake_discord, activity_site
    instance = fake.join_activity(fake.alice, fake.general)
    query = (
        f"frame_id=f1&instance_id={instance.id}&platform=mobile&guild_id={fake.guild.id}&channel_id={fake.general.id}"
    )
    setup = {"code": fake.authorize(fake.alice), "client_id": str(fake.application_id), "user": fake.alice.payload()}
    client = CLIENT % {"src": f"/web/activity/?{query}", "setup": json.dumps(setup)}
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = await browser.new_context(**PHONE)
            page = await context.new_page()
            # The stand-in for the Discord client is served at the page's own origin (the SDK accepts
            # messages from its own origin as from Discord's; the entry page may be framed by it).
            await page.route(
                f"{site.url}/discord-client", lambda route: route.fulfill(body=client, content_type="text/html")
            )
            await page.goto(f"{site.url}/discord-client")
            activity = page.frame_locator("#activity")
            await activity.locator("svg.map .car").first.wait_for()
            await activity.locator("#offer input").first.wait_for()
            said = await page.evaluate("() => window.said")
            commands = [s["cmd"] for s in said if s["opcode"] == 1]
            assert said[0]["opcode"] == 0 and said[0]["client_id"] == str(fake.application_id)
            assert commands.index("AUTHORIZE") < commands.index("AUTHENTICATE")
            authorize = next(s["args"] for s in said if s["cmd"] == "AUTHORIZE")
            assert authorize["scope"] == ["identify"] and authorize["response_type"] == "code"
            token = next(s["args"]["access_token"] for s in said if s["cmd"] == "AUTHENTICATE")
            assert fake.access_tokens[token].user is fake.alice  # exchanged by the server, handed back
            inner = next(f for f in page.frames if f.parent_frame is not None)
            assert inner.url.endswith(f"/web/activity/?{query}")  # no pass in any address the page shows

            # Alice's own seat: her ticket offer, kept by tapping, reaches the game.
            alice = (await site.table()).seat_of(fake.alice.id)
            before = (await site.table()).version
            boxes = activity.locator("#offer input")
            for i in range(2):
                await boxes.nth(i).tap()
            await activity.locator("#keep").tap()
            await inner.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=before)
            assert (await site.table()).game.log[-1][0] == alice
        finally:
            await browser.close()
