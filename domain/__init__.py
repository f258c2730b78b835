"""Pure game logic for Burrow: one decider per game, no I/O, no clock, no global RNG."""
