// The web table inside Discord, as an Activity (bot/web/activity.py). Discord's Embedded App SDK
// talks to the Discord client around the page: `ready`, then `authorize` gives an OAuth2 code,
// which the bot's server exchanges for who the user is and their pass to this channel's game
// (their seat, or a spectator's), then `authenticate` with the access token it returned. The table
// is then the same as a link's page (main.ts), started from that pass, kept in memory only.

import { DiscordSDK } from "@discord/embedded-app-sdk";

interface ActivityBoot { client_id: string; words: Record<string, string> }

const boot: ActivityBoot = JSON.parse(document.getElementById("activity-boot")!.textContent!);
const note = document.getElementById("activity")!;

async function start(): Promise<void> {
  const sdk = new DiscordSDK(boot.client_id);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: boot.client_id, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  const answer = await fetch("/web/activity/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance: sdk.instanceId }),
  });
  const session = await answer.json();
  if (!answer.ok) {
    note.textContent = session.message ?? boot.words.discord;
    return;
  }
  await sdk.commands.authenticate({ access_token: session.access_token });
  const data = document.createElement("script");
  data.id = "boot";
  data.type = "application/json";
  data.textContent = JSON.stringify(session.boot);
  document.body.replaceChildren(data);
  await import("./main"); // the table: it reads its start-up data from #boot
}

start().catch(() => (note.textContent = boot.words.discord));
