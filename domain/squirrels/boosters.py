"""MH2 booster packs (FS-11), generated from a card list and an rng only.

Set Booster from the MH2 list (the default): the real collation, MTGJSON's ``booster.set`` shipped beside this
module as ``mh2-set-booster.json`` (without the List slot, whose cards are not MH2 cards). A layout is picked by
its weight, then each of its slots draws its count of cards from that slot's sheet, each card by its weight, never
the same printing twice in one slot. Foil sheets give foils; a ``showcase`` entry is a variant printing of the
card (same facts, ``"showcase": true`` in the record). A pack lists its slots in ``SHEET_ORDER``, each card's
``slot`` being its sheet's name, then the art card: 12 Magic cards and 1 art card, whatever the layout.

Set Booster from a player's own list (option ``card_pool``), filled by rarity, in this order: 1 basic land (foil
15%), 6 commons/uncommons (split 5C1U 350, 4C2U 400, 3C3U 125, 2C4U 70, 1C5U 35, 6U 2 out of 982), 1 wildcard
(C 4 : U 3 : R/M 3), 1 rare or mythic (mythic 1 in 7), 1 new-to-Modern reprint (U 2/3, R 0.3, M 1/30), 1 more
common or uncommon, 1 foil of any rarity, 1 art card.

Draft Booster (option ``packs: "draft"``): 10 commons, 3 uncommons, 1 rare or mythic (mythic 1 in 7), 1
new-to-Modern reprint, 1 art card; in 1 pack of 3 a foil of any rarity replaces one common.

Details the rule leaves open for a player's own list and for Draft Boosters, settled here:
- Card pools: the basic slot draws from the basic lands; the common, uncommon, wildcard, rare and extra
  slots from the main set (not basic, not a reprint numbered 262–303); the reprint slot from 262–303; the foil
  slot from every non-basic card (main set and reprints). An art card depicts a main-set card.
- Within a slot rarity comes first (weights above), then a card uniformly among that rarity.
- Inside a pack the common/uncommon run (the 6 C/U and the extra C/U of a Set Booster; the commons and the
  uncommons of a Draft Booster) never repeats a card, as real print sheets avoid it; the other slots are
  independent, so a foil may repeat a non-foil card, as in real packs.
- The extra common-or-uncommon slot is common 2/3, uncommon 1/3 (about the C:U share of the 6-card run); the
  foil slot and a draft foil use the wildcard weights (C 4 : U 3 : R/M 3, mythic 1 in 7 of R/M).
- With a player's own list (option ``card_pool``) a slot whose rarities are missing renormalises its weights
  over the rarities it has; a slot with no candidate at all draws from the whole list; a run that has used up
  its candidates may repeat a card. So any non-empty list yields full packs.

A pack is a list of card records (JSON builtins): ``number, name, rarity, colors, land, basic, squirrel, foil,
slot``; the art card has ``slot: "art"``, ``rarity: "art"`` and the number and name of the card it depicts.
"""

from __future__ import annotations

import functools
import importlib.resources
import itertools
import json
from typing import Any, NamedTuple

from domain.base import Rng
from domain.squirrels.cards import CardFact, mh2_cards

SPLITS = ((5, 1), (4, 2), (3, 3), (2, 4), (1, 5), (0, 6))
SPLIT_WEIGHTS = (350, 400, 125, 70, 35, 2)  # out of 982
BASIC_FOIL_RATE = 0.15
MYTHIC_SHARE = 1 / 7
DRAFT_FOIL_RATE = 1 / 3
RARE_SLOT = {"rare": 1 - MYTHIC_SHARE, "mythic": MYTHIC_SHARE}
WILDCARD = {"common": 0.4, "uncommon": 0.3, "rare": 0.3 * (1 - MYTHIC_SHARE), "mythic": 0.3 * MYTHIC_SHARE}
REPRINT_SLOT = {"uncommon": 2 / 3, "rare": 0.3, "mythic": 1 / 30}
EXTRA_SLOT = {"common": 2 / 3, "uncommon": 1 / 3}
COMMON = {"common": 1.0}
UNCOMMON = {"uncommon": 1.0}
ANY = {"common": 1.0, "uncommon": 1.0, "rare": 1.0, "mythic": 1.0}


class _Slot:
    """The candidates of one kind of slot, grouped by rarity."""

    def __init__(self, candidates: list[CardFact]):
        self.candidates = candidates
        self.by_rarity: dict[str, list[CardFact]] = {}
        for card in candidates:
            self.by_rarity.setdefault(card.rarity, []).append(card)


class _Pools:
    def __init__(self, cards: tuple[CardFact, ...]):
        self.everything = list(cards)
        self.basic = _Slot([c for c in cards if c.basic])
        self.main = _Slot([c for c in cards if not c.basic and not c.reprint])
        self.reprint = _Slot([c for c in cards if not c.basic and c.reprint])
        self.nonbasic = _Slot([c for c in cards if not c.basic])


@functools.lru_cache(maxsize=8)
def _pools(cards: tuple[CardFact, ...]) -> _Pools:
    return _Pools(cards)


def _fresh(group: list[CardFact], taken: set[int]) -> list[CardFact]:
    return [c for c in group if c.number not in taken] if taken else group


def _has_fresh(group: list[CardFact], taken: set[int]) -> bool:
    return len(group) > len(taken) or any(c.number not in taken for c in group)


def _pick(rng: Rng, group: list[CardFact], taken: set[int]) -> CardFact:
    # Numbers are unique, so a group larger than `taken` still holds a fresh card: rejection ends quickly.
    if len(group) > len(taken):
        while True:
            card = rng.choice(group)
            if card.number not in taken:
                return card
    return rng.choice(_fresh(group, taken))


def _draw(rng: Rng, slot: _Slot, weights: dict[str, float], pools: _Pools,
          taken: set[int] | None = None) -> CardFact:
    """One card of ``slot``: a rarity by ``weights`` among those with a fresh card, then a card of it."""
    taken = taken if taken is not None else set()
    live = [(r, w) for r, w in weights.items() if w > 0 and _has_fresh(slot.by_rarity.get(r, []), taken)]
    if live:
        rarity = live[0][0] if len(live) == 1 else rng.choices([r for r, _ in live], [w for _, w in live])[0]
        card = _pick(rng, slot.by_rarity[rarity], taken)
    else:
        # Fallbacks for a home-made list: any fresh candidate, then any candidate, then any card at all.
        group = _fresh(slot.candidates, taken) or slot.candidates or pools.everything
        card = rng.choice(group)
    taken.add(card.number)
    return card


def _record(card: CardFact, slot: str, foil: bool = False) -> dict[str, Any]:
    return {"number": card.number, "name": card.name, "rarity": card.rarity, "colors": card.colors,
            "land": card.land, "basic": card.basic, "squirrel": card.squirrel, "foil": foil, "slot": slot}


def _art_card(rng: Rng, pools: _Pools) -> dict[str, Any]:
    shown = rng.choice(pools.main.candidates or pools.everything)
    return {**_record(shown, "art"), "rarity": "art", "colors": "", "land": False, "basic": False}


SHEET_ORDER = ("basic", "foilBasic", "common", "uncommon", "commonUncommonShowcase", "wildcard",
               "rareMythicWithShowcase", "reprintToModern", "foilWithShowcase")
"""The slots of a collated Set Booster, in pack order (each layout uses some of them)."""


class Sheet(NamedTuple):
    """One print sheet: its printings (card, showcase) and their cumulative weights."""

    name: str
    foil: bool
    printings: tuple[tuple[CardFact, bool], ...]
    cumulative: tuple[int, ...]

    @property
    def total(self) -> int:
        return self.cumulative[-1]


class Collation(NamedTuple):
    """Pack layouts (slot → count) with cumulative weights, and the sheets by name."""

    layouts: tuple[dict[str, int], ...]
    cumulative: tuple[int, ...]
    sheets: dict[str, Sheet]


@functools.cache
def mh2_collation() -> Collation:
    """The real MH2 Set Booster collation shipped beside this module, its cards from ``mh2_cards()``."""
    text = importlib.resources.files(__package__).joinpath("mh2-set-booster.json").read_text(encoding="utf-8")
    data = json.loads(text)
    by_number = {card.number: card for card in mh2_cards()}
    sheets = {}
    for name, sheet in data["sheets"].items():
        printings = tuple((by_number[c["number"]], bool(c["showcase"])) for c in sheet["cards"])
        sheets[name] = Sheet(name, bool(sheet["foil"]), printings,
                             tuple(itertools.accumulate(c["weight"] for c in sheet["cards"])))
    layouts = tuple(dict(layout["contents"]) for layout in data["layouts"])
    if not set(sheets) == set(SHEET_ORDER) >= {slot for layout in layouts for slot in layout}:
        raise ValueError("mh2-set-booster.json: sheets other than SHEET_ORDER")
    return Collation(layouts, tuple(itertools.accumulate(layout["weight"] for layout in data["layouts"])), sheets)


def collated_set_booster(rng: Rng) -> list[dict[str, Any]]:
    """One MH2 Set Booster by the real collation: 12 Magic cards in ``SHEET_ORDER``, then the art card."""
    collation = mh2_collation()
    layout = rng.choices(collation.layouts, cum_weights=collation.cumulative)[0]
    pack = []
    for name in SHEET_ORDER:
        sheet, drawn = collation.sheets[name], set()
        while len(drawn) < layout.get(name, 0):
            card, showcase = rng.choices(sheet.printings, cum_weights=sheet.cumulative)[0]
            if (card.number, showcase) in drawn:
                continue  # never the same printing twice in one slot's draw
            drawn.add((card.number, showcase))
            pack.append({**_record(card, name, sheet.foil), "showcase": showcase})
    pack.append(_art_card(rng, _pools(mh2_cards())))
    return pack


def set_booster(rng: Rng, cards: tuple[CardFact, ...]) -> list[dict[str, Any]]:
    """One MH2 Set Booster: 12 Magic cards then the art card; by the real collation for the MH2 list, by rarity
    for a player's own list."""
    if cards is mh2_cards() or cards == mh2_cards():
        return collated_set_booster(rng)
    pools = _pools(cards)
    pack = [_record(_draw(rng, pools.basic, ANY, pools), "basic", rng.random() < BASIC_FOIL_RATE)]
    commons, uncommons = rng.choices(SPLITS, SPLIT_WEIGHTS)[0]
    run: set[int] = set()
    pack += [_record(_draw(rng, pools.main, COMMON, pools, run), "common") for _ in range(commons)]
    pack += [_record(_draw(rng, pools.main, UNCOMMON, pools, run), "uncommon") for _ in range(uncommons)]
    pack.append(_record(_draw(rng, pools.main, WILDCARD, pools), "wildcard"))
    pack.append(_record(_draw(rng, pools.main, RARE_SLOT, pools), "rare"))
    pack.append(_record(_draw(rng, pools.reprint, REPRINT_SLOT, pools), "reprint"))
    pack.append(_record(_draw(rng, pools.main, EXTRA_SLOT, pools, run), "extra"))
    pack.append(_record(_draw(rng, pools.nonbasic, WILDCARD, pools), "foil", True))
    pack.append(_art_card(rng, pools))
    return pack


def draft_booster(rng: Rng, cards: tuple[CardFact, ...]) -> list[dict[str, Any]]:
    """One MH2 Draft Booster: 15 Magic cards then the art card."""
    pools = _pools(cards)
    has_foil = rng.random() < DRAFT_FOIL_RATE
    run: set[int] = set()
    pack = [_record(_draw(rng, pools.main, COMMON, pools, run), "common") for _ in range(10 - has_foil)]
    pack += [_record(_draw(rng, pools.main, UNCOMMON, pools, run), "uncommon") for _ in range(3)]
    pack.append(_record(_draw(rng, pools.main, RARE_SLOT, pools), "rare"))
    pack.append(_record(_draw(rng, pools.reprint, REPRINT_SLOT, pools), "reprint"))
    if has_foil:
        pack.append(_record(_draw(rng, pools.nonbasic, WILDCARD, pools), "foil", True))
    pack.append(_art_card(rng, pools))
    return pack


def open_boosters(rng: Rng, cards: tuple[CardFact, ...], kind: str = "set", count: int = 2) -> list[list[dict]]:
    """``count`` packs of ``kind`` ("set" or "draft")."""
    make = set_booster if kind == "set" else draft_booster
    return [make(rng, cards) for _ in range(count)]
