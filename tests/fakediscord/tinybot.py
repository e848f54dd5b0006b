"""A tiny throwaway discord.py bot that exercises what the real bot will: a "ttr" command group with
options and autocomplete, buttons, a select, a modal, DMs, a PNG attachment, a deferred reply with a
follow-up, message edits and a thread. Tests drive it through the fake; nothing here is project code.
"""

from __future__ import annotations

import asyncio
import io
import struct
import zlib
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

CITIES = [
    "Atlanta",
    "Boston",
    "Calgary",
    "Chicago",
    "Dallas",
    "Denver",
    "Duluth",
    "El Paso",
    "Helena",
    "Houston",
    "Kansas City",
    "Las Vegas",
    "Little Rock",
    "Los Angeles",
    "Miami",
    "Montreal",
    "Nashville",
    "New Orleans",
    "New York",
    "Oklahoma City",
    "Omaha",
    "Phoenix",
    "Pittsburgh",
    "Portland",
    "Raleigh",
    "Saint Louis",
    "Salt Lake City",
    "San Francisco",
    "Santa Fe",
    "Sault St. Marie",
    "Seattle",
    "Toronto",
    "Vancouver",
    "Washington",
    "Winnipeg",
]
GREETINGS = {"fr": "Bonjour", "de": "Hallo", "nl": "Hallo", "sv-SE": "Hej"}


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A valid PNG of ``width`` x ``height`` red pixels, built by hand (no Pillow needed)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


class DrawView(discord.ui.View):
    def __init__(self, bot: TinyBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Draw", custom_id="ttr:draw", style=discord.ButtonStyle.primary)
    async def draw(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.name} drew a card", view=None)

    @discord.ui.button(label="Hand", custom_id="ttr:hand", style=discord.ButtonStyle.secondary)
    async def hand(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("Your hand: 3 red, 2 blue", ephemeral=True)

    @discord.ui.button(label="Pass", custom_id="ttr:pass")
    async def pass_turn(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"{interaction.user.name} passed")
        await interaction.followup.send("Turn passed", ephemeral=True)

    @discord.ui.button(label="Gone", custom_id="ttr:gone", disabled=True)
    async def gone(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        raise AssertionError("disabled buttons cannot be clicked")

    @discord.ui.select(
        custom_id="ttr:colour",
        placeholder="Pick a colour",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "blue", "green")],
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"You picked {', '.join(select.values)}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Name your game"):
    name = discord.ui.TextInput(label="Game name", custom_id="game_name", max_length=30)
    note = discord.ui.TextInput(label="Note", custom_id="note", style=discord.TextStyle.paragraph, required=False)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Game {self.name.value!r} created. {self.note.value}".strip())


class SettingsModal(discord.ui.Modal, title="Game settings"):
    """A modal built from Label components (a text input and a select), as discord.py 2.6+ allows."""

    def __init__(self) -> None:
        super().__init__()
        self.seats = discord.ui.TextInput(custom_id="seats", default="4", max_length=1)
        self.rules = discord.ui.Select(
            custom_id="rules",
            options=[
                discord.SelectOption(label="Stations", value="stations"),
                discord.SelectOption(label="Tunnels", value="tunnels"),
            ],
            min_values=0,
            max_values=2,
        )
        self.add_item(discord.ui.Label(text="Seats", component=self.seats))
        self.add_item(discord.ui.Label(text="Rules", description="Optional rules", component=self.rules))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{self.seats.value} seats, rules: {', '.join(self.rules.values) or 'none'}"
        )


class TurnLayout(discord.ui.LayoutView):
    """A Components V2 turn card: a container with text, a section with a thumbnail, a gallery, a
    separator, the board as a file, and a row of buttons; Draw edits it in place."""

    def __init__(self, player: discord.abc.User, drawn: int = 0) -> None:
        super().__init__(timeout=None)
        board = "attachment://board.png"
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay(f"## Your turn, {player.mention}"),
                discord.ui.Section(
                    discord.ui.TextDisplay(f"Cards drawn: {drawn}"),
                    discord.ui.TextDisplay("**Draw** or claim"),
                    accessory=discord.ui.Thumbnail(board, description="the board"),
                ),
                discord.ui.MediaGallery(discord.MediaGalleryItem(board)),
                discord.ui.Separator(),
                discord.ui.File(board),
                accent_colour=discord.Colour.green(),
            )
        )
        draw = discord.ui.Button(label="Draw", custom_id="ttr:v2:draw", style=discord.ButtonStyle.primary)
        draw.callback = self.draw  # type: ignore[method-assign]
        self.player, self.drawn = player, drawn
        self.add_item(discord.ui.ActionRow(draw))

    async def draw(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(view=TurnLayout(interaction.user, self.drawn + 1))


class OptionsModal(discord.ui.Modal, title="Game options"):
    """A modal of labelled components: a select, a radio group, a checkbox group and a checkbox."""

    def __init__(self) -> None:
        super().__init__()
        self.map = discord.ui.Select(
            custom_id="map",
            options=[
                discord.SelectOption(label="USA", value="usa"),
                discord.SelectOption(label="Europe", value="europe"),
            ],
        )
        self.speed = discord.ui.RadioGroup(
            custom_id="speed",
            options=[
                discord.RadioGroupOption(label="Fast", value="fast"),
                discord.RadioGroupOption(label="Slow", value="slow", default=True),
            ],
        )
        self.rules = discord.ui.CheckboxGroup(
            custom_id="rules",
            required=False,
            options=[
                discord.CheckboxGroupOption(label="Stations", value="stations"),
                discord.CheckboxGroupOption(label="Tunnels", value="tunnels"),
            ],
        )
        self.ranked = discord.ui.Checkbox(custom_id="ranked")
        self.add_item(discord.ui.Label(text="Map", component=self.map))
        self.add_item(discord.ui.Label(text="Speed", component=self.speed))
        self.add_item(discord.ui.Label(text="Rules", component=self.rules))
        self.add_item(discord.ui.Label(text="Ranked", description="Counts for the league", component=self.ranked))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"map={','.join(self.map.values)} speed={self.speed.value} rules={','.join(self.rules.values) or '-'} "
            f"ranked={self.ranked.value}"
        )


class UploadModal(discord.ui.Modal, title="Upload a map"):
    """A modal with a file upload (up to two files)."""

    def __init__(self) -> None:
        super().__init__()
        self.files = discord.ui.FileUpload(custom_id="files", max_values=2)
        self.add_item(discord.ui.Label(text="Map files", component=self.files))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        blobs = [await attachment.read() for attachment in self.files.values]
        names = ", ".join(f"{a.filename} ({len(b)} bytes)" for a, b in zip(self.files.values, blobs))
        await interaction.response.send_message(f"Got {names}")


class InviteView(discord.ui.View):
    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="ttr:invite", max_values=3)
    async def invite(self, interaction: discord.Interaction, select: discord.ui.UserSelect) -> None:
        names = sorted(user.name for user in select.values)
        await interaction.response.send_message(f"Invited {', '.join(names)}")


class TinyBot(commands.Bot):
    """The throwaway bot. ``errors`` collects every exception its handlers raised (e.g. HTTP 400s)."""

    def __init__(self, *, guild_id: int | None = None, intents: discord.Intents | None = None, **options: Any) -> None:
        super().__init__(command_prefix="!", intents=intents or discord.Intents.default(), **options)
        self.guild_id = guild_id
        self.errors: list[BaseException] = []
        self.error_event = asyncio.Event()
        self.gate = asyncio.Event()  # tests set it to let /ttr slow answer
        self.extra_setup: list[Any] = []
        self.launched: list[str | None] = []  # the Activity instances /ttr play launched
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]

    def record(self, exc: BaseException) -> None:
        self.errors.append(getattr(exc, "original", exc))
        self.error_event.set()

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        self.record(error)

    async def on_error(self, event: str, *args: Any, **kwargs: Any) -> None:
        import sys

        self.record(sys.exc_info()[1] or RuntimeError(event))

    async def setup_hook(self) -> None:
        self.tree.add_command(build_ttr_group(self))
        self.add_view(DrawView(self))
        for hook in self.extra_setup:
            hook(self)
        if self.guild_id:
            guild = discord.Object(self.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        await self.tree.sync()


class ShardedTinyBot(TinyBot, commands.AutoShardedBot):
    """The tiny bot as an `AutoShardedBot` (pass ``shard_ids=[...]``, ``shard_count=N``)."""


def build_ttr_group(bot: TinyBot) -> app_commands.Group:
    ttr = app_commands.Group(name="ttr", description="Ticket to Ride")

    @ttr.command(name="new", description="Start a game")
    @app_commands.describe(map="The map to play", players="How many seats")
    @app_commands.choices(
        map=[app_commands.Choice(name="USA", value="usa"), app_commands.Choice(name="Europe", value="europe")]
    )
    async def new(
        interaction: discord.Interaction, map: app_commands.Choice[str], players: app_commands.Range[int, 2, 5] = 4
    ) -> None:
        greeting = GREETINGS.get(str(interaction.locale), "Hello")
        await interaction.response.send_message(
            f"{greeting} {interaction.user.name}: new {map.name} game for {players}", view=DrawView(bot)
        )

    async def city_complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c.lower()) for c in CITIES if current.lower() in c.lower()][:25]

    @ttr.command(name="claim", description="Claim a route")
    @app_commands.autocomplete(start=city_complete)
    async def claim(
        interaction: discord.Interaction, start: str, end: str, colour: str | None = None, private: bool = False
    ) -> None:
        await interaction.response.send_message(f"Claimed {start}-{end} {colour or 'grey'}", ephemeral=private)

    @ttr.command(name="everything", description="Autocomplete that answers too many choices")
    async def everything(interaction: discord.Interaction, city: str) -> None:
        await interaction.response.send_message(city)

    @everything.autocomplete("city")
    async def too_many(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in CITIES]  # 35 > 25

    @ttr.command(name="peek", description="The Draw/Hand/Pass buttons on a reply only you see")
    async def peek(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Your private table", view=DrawView(bot), ephemeral=True)

    @ttr.command(name="play", description="Open the Activity")
    async def play(interaction: discord.Interaction) -> None:
        response = await interaction.response.launch_activity()
        bot.launched.append(response.activity_id)

    @ttr.command(name="board", description="Show the board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("The board", file=discord.File(io.BytesIO(tiny_png()), filename="board.png"))

    @ttr.command(name="hand", description="Send your hand by DM")
    async def hand(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("Your hand: 2 locomotives")
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"I cannot DM you ({exc.code})", ephemeral=True)
            return
        await interaction.response.send_message("Check your DMs", ephemeral=True)

    @ttr.command(name="name", description="Name the game")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @ttr.command(name="settings", description="Game settings in a modal with labels")
    async def settings(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(SettingsModal())

    @ttr.command(name="challenge", description="Challenge someone in a channel")
    async def challenge(
        interaction: discord.Interaction, opponent: discord.Member, where: discord.TextChannel, stake: float = 1.5
    ) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} challenges {opponent.display_name} in #{where.name} for {stake}",
            view=InviteView(),
        )

    @ttr.command(name="oops", description="Reply, read the reply back, then delete it")
    async def oops(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("wrong answer")
        original = await interaction.original_response()
        assert original.content == "wrong answer"
        await interaction.delete_original_response()
        await interaction.followup.send(f"deleted {original.id}")

    @ttr.command(name="slow", description="Answers when the test says so")
    async def slow(interaction: discord.Interaction) -> None:
        await bot.gate.wait()
        await interaction.response.send_message("finally")

    @ttr.command(name="think", description="Defer, edit the reply, then follow up")
    async def think(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        await interaction.edit_original_response(content="Thought about it")
        await bot.gate.wait()
        extra = await interaction.followup.send("And one more thing", ephemeral=True, wait=True)
        await extra.edit(content="And one more thing!")

    @ttr.command(name="thread", description="Open a thread for a game")
    async def thread(interaction: discord.Interaction, title: str) -> None:
        await interaction.response.send_message(f"Opening {title}")
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        created = await channel.create_thread(name=title, type=discord.ChannelType.public_thread)
        await created.send(f"Game thread for {interaction.user.name}")

    @ttr.command(name="post", description="Post, edit and react in the channel")
    async def post(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        message = await channel.send(text)
        await message.edit(content=text.upper())
        await message.add_reaction("\N{WHITE HEAVY CHECK MARK}")

    @ttr.command(name="card", description="Answer with a picture of a card")
    async def card(interaction: discord.Interaction) -> None:
        picture = discord.File(io.BytesIO(tiny_png()), filename="card.png")
        await interaction.response.send_message("Your card", file=picture)

    @ttr.command(name="scores", description="Scores as an embed, then again in a follow-up")
    async def scores(interaction: discord.Interaction) -> None:
        table = discord.Embed(title="Scores", description="alice 12, bob 9")
        await interaction.response.send_message("Scores:", embed=table)
        await interaction.followup.send("Again:", embed=table)

    @ttr.command(name="turn", description="A Components V2 turn card with the board")
    async def turn(interaction: discord.Interaction) -> None:
        board = discord.File(io.BytesIO(tiny_png()), filename="board.png")
        await interaction.response.send_message(view=TurnLayout(interaction.user), file=board)

    @ttr.command(name="mycard", description="A private Components V2 card after thinking")
    async def mycard(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        board = discord.File(io.BytesIO(tiny_png()), filename="board.png")
        await interaction.followup.send(view=TurnLayout(interaction.user), file=board, ephemeral=True)

    @ttr.command(name="options", description="Game options in a modal with a radio group and checkboxes")
    async def options(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(OptionsModal())

    @ttr.command(name="upload", description="Upload map files in a modal")
    async def upload(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(UploadModal())

    @ttr.command(name="perms", description="What may the bot do here?")
    async def perms(interaction: discord.Interaction) -> None:
        def flags(p: discord.Permissions) -> str:
            names = ("send_messages", "attach_files", "create_public_threads")
            return " ".join(f"{name}={int(getattr(p, name))}" for name in names)

        text = f"app: {flags(interaction.app_permissions)}"
        channel = interaction.channel
        if interaction.guild is not None and isinstance(channel, discord.abc.GuildChannel):
            text += f"\nchannel: {flags(channel.permissions_for(interaction.guild.me))}"
        await interaction.response.send_message(text)

    @ttr.command(name="say", description="Reply with this many characters (to test limits)")
    async def say(interaction: discord.Interaction, length: int) -> None:
        await interaction.response.send_message("x" * length)

    return ttr
