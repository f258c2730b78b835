"""The command side: games' states (cached state + stream tail), creating games, commands, seats, the table
around every game."""
