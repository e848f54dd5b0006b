"""Play Ticket to Ride in a terminal against AI seats, or hot-seat (`python -m cli --help`)."""

from cli.app import Controller, main, play

__all__ = ["Controller", "main", "play"]
