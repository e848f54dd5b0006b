"""Option choices several controllers offer (each controller keeps its own others)."""

from __future__ import annotations

from discord import app_commands

from bot.command_translator import locale_pstr
from engine import available_maps, load_map

MAP_CHOICES = [app_commands.Choice(name=locale_pstr("map", load_map(m).name), value=m) for m in available_maps()]
