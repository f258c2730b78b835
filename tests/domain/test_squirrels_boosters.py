"""FS-11: the MH2 card data and the booster generator (exact slots for every pack, rates within tolerance): Set
Boosters of the MH2 list by the real collation (layout and slot rates against the sheet weights), of a player's
own list by rarity; Draft Boosters.

Rates are measured over N packs from fixed seeds; each tolerance is at least 6 standard deviations of the
binomial proportion, so a correct generator fails with probability below 1e-8 whatever the seed.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from domain.squirrels.boosters import (
    SPLIT_WEIGHTS,
    SPLITS,
    draft_booster,
    mh2_collation,
    open_boosters,
    set_booster,
)
from domain.squirrels.cards import RARITIES, CardPoolError, mh2_cards, parse_card_pool

MH2 = mh2_cards()
HOME = tuple(c for c in MH2 if c.number != 1)
BY_NUMBER = {c.number: c for c in MH2}
N = 20_000
HEADER = "number,name,rarity,colors,land,basic,squirrel\n"


def within(count: int, n: int, p: float) -> bool:
    """``count`` successes of ``n`` trials are within 6 standard deviations of rate ``p``."""
    return abs(count / n - p) <= 6 * math.sqrt(p * (1 - p) / n)


@pytest.fixture(scope="module")
def set_packs() -> list[list[dict]]:
    rng = random.Random(20210618)
    return [set_booster(rng, MH2) for _ in range(N)]


@pytest.fixture(scope="module")
def draft_packs() -> list[list[dict]]:
    rng = random.Random(618)
    return [draft_booster(rng, MH2) for _ in range(N)]


def slots(pack: list[dict]) -> list[str]:
    return [c["slot"] for c in pack]


# --- the card data -----------------------------------------------------------------------------------------------

def test_FS_11_card_data_matches_its_readme():
    assert len(MH2) == 313
    main = [c for c in MH2 if c.number <= 303]
    assert Counter(c.rarity for c in main) == {"common": 101, "uncommon": 100, "rare": 78, "mythic": 24}
    assert sorted(c.number for c in MH2 if c.squirrel) == [64, 95, 105, 151, 152, 153, 172, 174, 175, 182, 194,
                                                         211, 286]
    assert sorted(c.number for c in MH2 if c.basic) == list(range(481, 491))
    assert all(c.colors == "" for c in MH2 if c.land) and sum(c.land for c in MH2) == 31
    assert BY_NUMBER[151].name == "Chatterfang, Squirrel General" and BY_NUMBER[212].colors == "RG"


@pytest.mark.parametrize("text, message", [
    ("number,name\n1,x\n", r"rarity, colors, land, basic, squirrel \(the header read: number,name\)"),
    (HEADER + "x,Nut,common,G,0,0,0\n", "line 2, column number"),
    (HEADER + "1,Nut,common,G,0,0,0\n1,Acorn,common,G,0,0,0\n", "appears twice"),
    (HEADER + "1,,common,G,0,0,0\n", "column name"),
    (HEADER + "1,Nut,token,G,0,0,0\n", "column rarity"),
    (HEADER + "1,Nut,common,GX,0,0,0\n", "column colors"),
    (HEADER + "1,Nut,common,G,2,0,0\n", "column land"),
    (HEADER, "no card"),
    (HEADER + f"{2**64},Nut,common,G,0,0,0\n", "line 2, column number: at most 999999"),
    (HEADER + "1000000,Nut,common,G,0,0,0\n", "at most 999999, not 1000000"),
    (HEADER + "-3,Nut,common,G,0,0,0\n", "line 2, column number: not a whole number"),
    (HEADER + "1" * 5000 + ",Nut,common,G,0,0,0\n", "at most 999999"),
])
def test_FS_11_card_pool_errors_name_the_line_and_column(text, message):
    with pytest.raises(CardPoolError, match=message):
        parse_card_pool(text)


def test_FS_11_card_pool_header_with_a_byte_order_mark_spaces_or_capitals_is_read():
    header = "\ufeffNumber, Name ,RARITY,colors,Land,basic, squirrel\n"
    assert parse_card_pool(header + "1,Nut,common,G,0,0,0\n")[0].name == "Nut"


def test_FS_11_card_pool_lands_are_colourless_and_colours_ordered():
    cards = parse_card_pool(HEADER + "1,Grove,rare,G,1,0,0\n2,Charm,common,gw,0,0,0\n")
    assert [c.colors for c in cards] == ["", "WG"]


# --- Set Boosters: the real collation (the MH2 list) ------------------------------------------------------------

COLLATION = mh2_collation()
LAYOUT_TOTAL = COLLATION.cumulative[-1]
LAYOUT_WEIGHTS = [b - a for a, b in zip((0, *COLLATION.cumulative), COLLATION.cumulative)]


def contents(pack: list[dict]) -> dict[str, int]:
    return dict(Counter(c["slot"] for c in pack if c["slot"] != "art"))


def sheet_share(name: str, test) -> float:
    """The share of sheet ``name``'s weight held by printings for which ``test(card, showcase)`` holds."""
    sheet = COLLATION.sheets[name]
    weights = [b - a for a, b in zip((0, *sheet.cumulative), sheet.cumulative)]
    return sum(w for (card, showcase), w in zip(sheet.printings, weights) if test(card, showcase)) / sheet.total


def first_of_each_slot(packs: list[list[dict]]) -> dict[str, list[dict]]:
    """Each pack's first card of every slot: that draw is by the sheet's weights exactly (later ones avoid it)."""
    out: dict[str, list[dict]] = {}
    for pack in packs:
        seen = set()
        for card in pack:
            if card["slot"] not in seen:
                seen.add(card["slot"])
                out.setdefault(card["slot"], []).append(card)
    return out


def test_FS_11_every_set_booster_is_a_layout_filled_from_its_sheets(set_packs):
    layouts = [dict(layout) for layout in COLLATION.layouts]
    printings = {name: {(c.number, sc) for c, sc in sheet.printings} for name, sheet in COLLATION.sheets.items()}
    for pack in set_packs:
        assert len(pack) == 13 and pack[-1]["slot"] == "art" and sum(c["slot"] == "art" for c in pack) == 1
        assert contents(pack) in layouts
        for c in pack[:-1]:
            fact = BY_NUMBER[c["number"]]
            assert (c["name"], c["rarity"], c["colors"], c["squirrel"], c["basic"]) == \
                   (fact.name, fact.rarity, fact.colors, fact.squirrel, fact.basic)
            assert (c["number"], c["showcase"]) in printings[c["slot"]]
            assert c["foil"] is COLLATION.sheets[c["slot"]].foil
        drawn = [(c["slot"], c["number"], c["showcase"]) for c in pack[:-1]]
        assert len(set(drawn)) == 12, "a slot never holds the same printing twice"


def test_FS_11_layouts_come_at_their_weights(set_packs):
    counts = Counter(tuple(sorted(contents(pack).items())) for pack in set_packs)
    for layout, weight in zip(COLLATION.layouts, LAYOUT_WEIGHTS):
        assert within(counts[tuple(sorted(layout.items()))], N, weight / LAYOUT_TOTAL), layout


@pytest.mark.parametrize("name", sorted(COLLATION.sheets))
def test_FS_11_each_slot_draws_rarities_basics_reprints_and_showcases_at_its_sheet_weights(set_packs, name):
    cards = first_of_each_slot(set_packs)[name]
    n = len(cards)
    per_pack = sum(w for layout, w in zip(COLLATION.layouts, LAYOUT_WEIGHTS) if name in layout) / LAYOUT_TOTAL
    assert within(n, N, per_pack)
    tests = {f"rarity {r}": lambda card, sc, r=r: card.rarity == r and not card.basic for r in RARITIES}
    tests |= {"basic": lambda card, sc: card.basic, "reprint": lambda card, sc: card.reprint,
              "showcase": lambda card, sc: sc}
    for what, test in tests.items():
        p = sheet_share(name, test)
        seen = sum(test(BY_NUMBER[c["number"]], c["showcase"]) for c in cards)
        if p in (0.0, 1.0):
            assert seen == p * n, (name, what)
        else:
            assert within(seen, n, p), (name, what, seen / n, p)


def test_FS_11_foil_slot_and_reprints_as_the_data_readme_says(set_packs):
    foils = first_of_each_slot(set_packs)["foilWithShowcase"]
    share = Counter("basic" if c["basic"] else c["rarity"] for c in foils)
    assert within(share["common"] + share["basic"], N, 0.6) and within(share["basic"], N, 0.0541)
    assert within(share["uncommon"], N, 0.2511) and within(share["rare"], N, 0.129)
    assert within(share["mythic"], N, 0.0199)
    reprints = {c["slot"] for pack in set_packs for c in pack if 262 <= c["number"] <= 303}
    assert reprints >= {"uncommon", "wildcard", "rareMythicWithShowcase", "foilWithShowcase", "reprintToModern"}


def test_FS_11_every_card_of_the_sheets_can_appear(set_packs):
    seen = {c["number"] for pack in set_packs for c in pack}
    assert seen == {card.number for sheet in COLLATION.sheets.values() for card, _ in sheet.printings}
    assert seen >= set(range(1, 304))


# --- Set Boosters from a player's own list: by rarity ------------------------------------------------------------

@pytest.fixture(scope="module")
def home_packs() -> list[list[dict]]:
    """A list of one's own: the MH2 cards but one (any list but the shipped one is filled by rarity)."""
    rng = random.Random(20210618)
    return [set_booster(rng, HOME) for _ in range(N)]


def test_FS_11_home_list_set_booster_slots_are_exact_for_every_pack(home_packs):
    main = range(2, 262)
    for pack in home_packs:
        kinds = Counter(slots(pack))
        assert len(pack) == 13 and kinds["art"] == 1 and pack[-1]["slot"] == "art"
        assert kinds["common"] + kinds["uncommon"] == 6 and (kinds["common"], kinds["uncommon"]) in SPLITS
        assert all(kinds[s] == 1 for s in ("basic", "wildcard", "rare", "reprint", "extra", "foil"))
        for c in pack[:-1]:
            fact = BY_NUMBER[c["number"]]
            assert (c["name"], c["rarity"], c["colors"], c["squirrel"]) == \
                   (fact.name, fact.rarity, fact.colors, fact.squirrel)
            slot = c["slot"]
            assert c["foil"] is (slot == "foil") or slot == "basic"
            if slot == "basic":
                assert fact.basic
            elif slot == "reprint":
                assert 262 <= c["number"] <= 303 and c["rarity"] != "common"
            elif slot == "foil":
                assert not fact.basic
            else:
                assert c["number"] in main
            if slot in ("common", "uncommon"):
                assert c["rarity"] == slot
            if slot == "extra":
                assert c["rarity"] in ("common", "uncommon")
            if slot == "rare":
                assert c["rarity"] in ("rare", "mythic")
        run = [c["number"] for c in pack if c["slot"] in ("common", "uncommon", "extra")]
        assert len(set(run)) == 7, "a common/uncommon run never repeats a card"


def test_FS_11_home_list_basic_land_foil_15_percent(home_packs):
    foils = sum(pack[0]["foil"] for pack in home_packs)
    assert within(foils, N, 0.15)
    assert {pack[0]["number"] for pack in home_packs} == set(range(481, 491))


def test_FS_11_home_list_common_uncommon_split_out_of_982(home_packs):
    splits = Counter(sum(c["slot"] == "uncommon" for c in pack) for pack in home_packs)
    for (_, uncommons), weight in zip(SPLITS, SPLIT_WEIGHTS):
        assert within(splits[uncommons], N, weight / 982), (uncommons, splits[uncommons])


def test_FS_11_home_list_rare_slot_mythic_one_in_seven(home_packs):
    mythics = sum(c["rarity"] == "mythic" for pack in home_packs for c in pack if c["slot"] == "rare")
    assert within(mythics, N, 1 / 7)


def test_FS_11_home_list_reprint_slot_rarities(home_packs):
    rarities = Counter(c["rarity"] for pack in home_packs for c in pack if c["slot"] == "reprint")
    assert within(rarities["uncommon"], N, 2 / 3)
    assert within(rarities["rare"], N, 0.3)
    assert within(rarities["mythic"], N, 1 / 30)


def test_FS_11_home_list_wildcard_four_three_three(home_packs):
    rarities = Counter(c["rarity"] for pack in home_packs for c in pack if c["slot"] == "wildcard")
    assert within(rarities["common"], N, 0.4) and within(rarities["uncommon"], N, 0.3)
    assert within(rarities["rare"] + rarities["mythic"], N, 0.3)
    assert within(rarities["mythic"], N, 0.3 / 7)


# --- Draft Boosters ----------------------------------------------------------------------------------------------

def test_FS_11_draft_booster_slots_are_exact_for_every_pack(draft_packs):
    for pack in draft_packs:
        kinds = Counter(slots(pack))
        foil = kinds["foil"]
        assert foil in (0, 1) and len(pack) == 16 and pack[-1]["slot"] == "art"
        assert kinds["common"] == 10 - foil and kinds["uncommon"] == 3
        assert kinds["rare"] == 1 and kinds["reprint"] == 1
        assert all(c["rarity"] == c["slot"] for c in pack if c["slot"] in ("common", "uncommon"))
        assert all(c["foil"] is (c["slot"] == "foil") for c in pack)
        run = [c["number"] for c in pack if c["slot"] in ("common", "uncommon")]
        assert len(set(run)) == len(run) == 13 - foil


def test_FS_11_draft_foil_in_one_pack_of_three_and_mythic_one_in_seven(draft_packs):
    assert within(sum(any(c["foil"] for c in pack) for pack in draft_packs), N, 1 / 3)
    mythics = sum(c["rarity"] == "mythic" for pack in draft_packs for c in pack if c["slot"] == "rare")
    assert within(mythics, N, 1 / 7)


# --- any card list -----------------------------------------------------------------------------------------------

def test_FS_11_same_seed_same_packs():
    assert open_boosters(random.Random(7), MH2) == open_boosters(random.Random(7), MH2)
    assert open_boosters(random.Random(7), MH2, "draft") != open_boosters(random.Random(8), MH2, "draft")


@pytest.mark.parametrize("rows", [
    "1,Nut,rare,G,0,0,0\n2,Acorn,mythic,,0,0,1\n3,Seed,rare,W,0,0,0\n",    # only rares and mythics
    "1,Nut,common,G,0,0,0\n2,Acorn,common,,0,0,1\n",                        # too few commons for a run
    "270,Old Nut,uncommon,U,0,0,0\n",                                       # a single reprint
    "481,Plains,common,,1,1,0\n",                                           # a single basic land
])
@pytest.mark.parametrize("kind", ["set", "draft"])
def test_FS_11_any_non_empty_card_list_yields_full_packs(rows, kind):
    pool = parse_card_pool(HEADER + rows)
    numbers = {c.number for c in pool}
    rng = random.Random(3)
    for _ in range(50):
        for pack in open_boosters(rng, pool, kind):
            magic = [c for c in pack if c["slot"] != "art"]
            assert len(magic) == (12 if kind == "set" else 15)
            assert {c["number"] for c in pack} <= numbers
