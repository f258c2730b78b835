"""Every value docs/rules.md §4 fixes or proposes ([S] settled, [P] our completion), by name."""

from __future__ import annotations

DIE_FACES = (0, 1, 2, 3, 4, 5)
"""MC-3, MC-P2: one die with a face 0."""

START_MONEY = 3
"""MC-P3: banknotes each agent starts with (option ``start_money``)."""

START_MAPS = 1
"""MC-P6: maps each agent starts with (option ``start_maps``); a map cannot be bought (MC-7)."""

MAP_STEPS = (1, 2, 3, 4, 5)
"""MC-P6: the moves a map allows instead of rolling."""

WALL_FEE = 1
"""MC-5: crossing the red wall costs 1 banknote (MC-P3: pay or stop before it)."""

BANKNOTES_PER_NUMBERED_SQUARE = 1
"""MC-6: passing over or landing on a numbered square."""

ACCESSORY_PRICE = 1
"""MC-P4 (option ``accessory_price``)."""

WEAPON_PRICE = 2
"""MC-P4 (option ``weapon_price``)."""

ACCESSORY_LIMIT = 3
"""MC-P4: accessories an agent may hold (option ``accessory_limit``)."""

WEAPON_BONUS = 1
"""MC-9: each committed weapon adds 1 to the fight total."""

FINE = 2
"""MC-8b, MC-P3: what a challenge loser pays to avoid the green path (option ``fine``)."""

OBSTACLE_STEPS_BACK = 2
"""MC-P5: Obstacle, "go back 2"."""

TRAP_FEE = 1
"""MC-P5: Trap, "pay 1" (an agent with nothing pays nothing: money never goes negative)."""

LUCKY_FIND_GAIN = 1
"""MC-P5: Lucky find, "+1"."""

CAUTION_DECK = {"obstacle": 4, "ambush": 3, "trap": 2, "lucky_find": 1}
"""MC-P5: the caution deck, by card name (the names of the position format)."""

CARD_NAMES = tuple(sorted(CAUTION_DECK))

FULL_DECK = tuple(card for card, count in CAUTION_DECK.items() for _ in range(count))
"""The ten caution cards in a fixed order (shuffled by ``deck_shuffled`` events)."""
