"""Swiss pairings of two seats by maximum-weight matching (networkx's blossom algorithm), not greedily.

Every possible pair (and, for an odd count, every player with the bye) is an edge whose weight is a large constant
minus a cost; a maximum-cardinality maximum-weight matching then minimises the total cost. The cost is a sum of
terms of decreasing weight, each term's weight larger than the most every lighter term can add up to, so the
priorities are strict:

1. no rematch while a pairing without it exists (each earlier meeting costs the most);
2. nobody gets a second bye while someone without one can take it;
3. score groups: the squared difference of the two scores (in half points), so players meet their own score group
   and a floater goes to the nearest group; the bye counts as a player below the lowest score, so it goes to the
   lowest score that can take it;
4. seats: a pair whose two players are both due the same seat (both have had the first seat more often, or both
   less) costs one;
5. of equal choices, the bye goes to the later seed (joined later).

Seats: of the two, the one who has had the first seat less often gets it; on a tie the one who had the second seat
last time, then the higher score, then the earlier seed (joined first).
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from domain.tournaments.history import History

BYE = "\x00bye"  # the bye's node in the graph (no username can be it)


def pair(players: Sequence[str], history: History) -> list[tuple[str, ...]]:
    """The tables of the next round for ``players`` (in seed order): pairs ``(first seat, second seat)`` and,
    for an odd count, one bye ``(player,)``; the highest scores first."""
    if len(players) < 2:
        return [tuple(players)] if players else []
    seed = {p: i for i, p in enumerate(players)}
    score2 = {p: round(2 * history.scores[p]) for p in players}
    low = min(score2.values()) - 1
    nodes = list(players) + ([BYE] if len(players) % 2 else [])
    spread = max(score2.values()) - low
    seed_unit = 1
    colour_unit = seed_unit * (len(nodes) + 1)
    score_unit = colour_unit * (len(nodes) // 2 + 1)
    bye_unit = score_unit * (spread * spread * (len(nodes) // 2) + 1)
    rounds = max(history.byes.values(), default=0) + max(history.met.values(), default=0) + 1
    rematch_unit = bye_unit * (rounds + 1)  # more than any bye term (one bye per round) and every lighter term
    top = rematch_unit * (rounds + 1) * (len(nodes) // 2 + 1)  # above every cost: every weight positive
    graph = nx.Graph()
    for i, a in enumerate(nodes):
        for b in nodes[i + 1:]:
            if b == BYE:
                cost = (bye_unit * history.byes[a] + score_unit * (score2[a] - low) ** 2
                        + seed_unit * (len(players) - seed[a]))
            else:
                cost = rematch_unit * history.met[frozenset((a, b))] + score_unit * (score2[a] - score2[b]) ** 2
                ba, bb = history.balance(a), history.balance(b)
                if (ba > 0 and bb > 0) or (ba < 0 and bb < 0):
                    cost += colour_unit
            graph.add_edge(a, b, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    tables: list[tuple[str, ...]] = []
    for a, b in matching:
        if BYE in (a, b):
            tables.append((b if a == BYE else a,))
        else:
            tables.append(_seated(a, b, history, score2, seed))
    tables.sort(key=lambda t: (len(t) == 1, -max(score2[p] for p in t), min(seed[p] for p in t)))
    return tables


def _seated(a: str, b: str, history: History, score2: dict, seed: dict) -> tuple[str, str]:
    """``(first seat, second seat)`` for ``a`` and ``b``: see the module's rules."""
    def due_first(p: str) -> tuple:
        return (history.balance(p), -history.last_seat.get(p, 0), -score2[p], seed[p])
    return (a, b) if due_first(a) <= due_first(b) else (b, a)
