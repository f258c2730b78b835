"""Arena pairings: whoever is free (not playing, not withdrawn) is paired again at once with someone free of a
similar score, not the opponent of their last game while anyone else is free.

A maximum-weight matching of the free players (the cost of a pair: their last opponent, most; then the squared
difference of their arena scores), with at most one left over (an odd count), who waits for the next player to
finish; of the two seats the first goes to whoever has had it less often (then to the higher score)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx

from domain.tournaments.history import History

WAIT = "\x00wait"


def pair(free: Sequence[str], scores: Mapping[str, float], last_opponent: Mapping[str, str],
         history: History) -> tuple[list[tuple[str, str]], list[str]]:
    """The new pairs ``(first seat, second seat)`` among ``free`` (in the order they became free) and who waits."""
    if len(free) < 2:
        return [], list(free)
    order = {p: i for i, p in enumerate(free)}
    nodes = list(free) + ([WAIT] if len(free) % 2 else [])
    spread = int(max(scores.get(p, 0) for p in free) - min(scores.get(p, 0) for p in free)) + 1
    wait_unit = 1  # who waits: the latest to become free (they waited least)
    score_unit = len(nodes) + 1
    repeat_unit = score_unit * (spread * spread * len(nodes) + 1)
    top = repeat_unit * (len(nodes) + 1)
    graph = nx.Graph()
    for i, a in enumerate(nodes):
        for b in nodes[i + 1:]:
            if b == WAIT:
                cost = wait_unit * (len(free) - order[a])
            else:
                cost = score_unit * int(scores.get(a, 0) - scores.get(b, 0)) ** 2
                if last_opponent.get(a) == b or last_opponent.get(b) == a:
                    cost += repeat_unit
            graph.add_edge(a, b, weight=top - cost)
    pairs, waiting = [], []
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        if WAIT in (a, b):
            waiting.append(b if a == WAIT else a)
            continue
        first = min((a, b), key=lambda p: (history.balance(p), -scores.get(p, 0), order[p]))
        pairs.append((first, b if first == a else a))
    pairs.sort(key=lambda t: min(order[p] for p in t))
    return pairs, waiting
