"""A fake Discord server for end-to-end tests: the real discord.py client connects to it on 127.0.0.1.

See docs/fakediscord.md. The pytest fixtures live in `tests.fakediscord.fixtures`.
"""

from tests.fakediscord.api import FakeDiscord
from tests.fakediscord.limits import DiscordError
from tests.fakediscord.state import (
    Attachment,
    Channel,
    Guild,
    Interaction,
    InteractionFailed,
    Message,
    Modal,
    ScriptError,
    User,
)

__all__ = [
    "Attachment",
    "Channel",
    "DiscordError",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "InteractionFailed",
    "Message",
    "Modal",
    "ScriptError",
    "User",
]
