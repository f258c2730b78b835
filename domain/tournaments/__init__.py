"""Tournaments, pure: pairing rules (Swiss, round robin, arena, tables of many), scoring and tie-breaks, and the
tournament's events folded into its state (a decider like a game's). Nothing here reads a clock or Redis: the
service (``services/tournaments/``) gives the time and stores the events."""
