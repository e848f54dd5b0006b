"""The game in words, in the reader's language: what happened, hands and tickets, refusals and
rules summaries. Shared by the Discord bot and the terminal game, so neither imports the other."""
