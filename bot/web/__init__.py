"""The web table: the game on a live SVG map in a browser, served by the bot's own aiohttp server
(docs/web.md). `links` signs and checks the private and spectator links, `board` turns a map's
geometry into the page's drawing, `frames` builds what one viewer may see, `server` serves the
page, the moves and the live updates."""
