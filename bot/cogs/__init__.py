"""The controllers: one cog per concern, each an extension loaded by name (bot/client.py)."""
