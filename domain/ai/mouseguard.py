"""Mouse Guard AI, from a seat's view only.

The view shows the board, the seat's own hand, the discard pile and the counts of the other hand and the deck.
The unseen cards are therefore known as a multiset (30 minus own hand minus discard); each search iteration
*determinises* them: a random opponent hand of the right size, the rest as the deck in random order.

``easy`` is greedy: it takes a win when it sees one, else the move with the best immediate evaluation (a quarter of
the time a random move). ``normal`` and ``hard`` run single-observer information-set MCTS (SO-ISMCTS: one tree over
move texts, a new determinisation per iteration, UCB weighted by how often a move was available), trying moves in
the order of a quick prior (wins, captures, progress, enemy threats left open) with progressive widening, and
evaluating the leaves. ``hard`` widens much more slowly (1 + √n moves at a node with n visits, against normal's 3 +
3·√n) and explores less: at 0.1 s a move it runs only a couple of hundred iterations (median about 200, some 60–110
before the move generator below), so spreading them over a dozen root moves would leave every move with a few noisy
samples; it also scores leaves with ``_fitted``, a logistic model fitted to the outcomes of about 1,400 recorded
games (a mouse is worth less than the old hand-set weights said, the side to move's progress more than the other
side's), which stops it gambling on the opponent lacking a Stronghold when it is a mouse down; its turns to reach a
corner count three steps a turn for a side holding a Sword (``_turns``). Measurements in ``docs/ai.md``.

Every level generates a position's whole turns with ``mouseguard_moves.Generator``, made for the search: the
same turns as ``turns.turn_options`` (a test compares them on random games and crowded boards), without
validating through exceptions or building event lists, about four times faster; with the prior's corner tables
(``GameRules.spots``, ``turns_to_build`` scanning outwards from a free corner) hard runs about 2.5 times as many
iterations a second as before, and every level decides exactly as it did with the rules' generator.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from itertools import combinations

from domain.ai.mouseguard_moves import CARD, MOVE, PASS, RESCUE, TEXT, WON, Generator, Turn
from domain.mouseguard import turns
from domain.mouseguard.board import (
    CORNERS,
    EMPTY,
    LOCATIONS,
    N_POINTS,
    NEIGHBOURS,
    SQUARES_AROUND,
    WINNING_SQUARES,
    coords,
    geometry,
    name,
    point_sort_key,
)
from domain.mouseguard.cards import CARDS, COPIES, HAND_SIZE
from domain.mouseguard.state import board_from_mice

XY = tuple(coords(p) for p in range(N_POINTS))
EXPLORATION = {"normal": 0.7, "hard": 0.25}
"""UCB exploration by level (the evaluation keeps rewards near the middle of [0, 1])."""
BUDGET_SHARE = 0.95  # answer with a margin before the budget runs out
WIDENING = {"normal": 3, "hard": 1}
"""By level: a node with n visits considers its best w + w·√n moves by ``prior`` (progressive widening)."""


class GameRules:
    """The options of the viewed game, with the geometry they imply."""

    def __init__(self, options: dict):
        self.geo = geometry(options["edge_points"])
        self.gen = Generator(options["edge_points"], options["diplomacy_metric"], options["exit_extra_step"])
        self.metric = options["diplomacy_metric"]
        self.extra_step = options["exit_extra_step"]
        self.rescues_alone = not options.get("rescue_after_move", False)  # (after a move: this AI never rescues)
        self.max_plies = options["max_plies"]
        # MG-19 targets: for each colour, (square, its playable corners).
        self.targets = tuple(tuple((sq, [c for c in CORNERS[sq - N_POINTS] if self.geo.playable[c]])
                                   for sq in (LOCATIONS[s] for s in squares)) for squares in WINNING_SQUARES)
        self.points = tuple(p for p in range(N_POINTS) if self.geo.playable[p])
        self.target_corners = tuple([(sq, c, *XY[c]) for sq, corners in targets for c in corners]
                                    for targets in self.targets)
        # The same corners tabled for speed: (square, corner, squares around the corner, points next to it,
        # Manhattan distance from the corner per point).
        self.spots = tuple(tuple((sq, c, SQUARES_AROUND[c], tuple(m for m in NEIGHBOURS[c] if m >= 0),
                                  tuple(abs(x - px) + abs(y - py) for px, py in XY))
                                 for sq, c, x, y in corners) for corners in self.target_corners)
        # For ``turns_to_build``: (square, corner, squares around it, distance per point, the playable points
        # nearest the corner first).
        self.build_spots = tuple(tuple((sq, c, around, distance,
                                        tuple(sorted(self.points, key=distance.__getitem__)))
                                       for sq, c, around, _, distance in spots) for spots in self.spots)


class Sim:
    """A determinised game, mutable for speed: hands are counts per card type, the deck a list (top = end)."""

    __slots__ = ("board", "captured", "deck", "discard", "hands", "over", "plies", "turn", "winner")

    def __init__(self, board, hands, deck, discard, captured, turn, plies):
        self.board, self.hands, self.deck, self.discard = board, hands, deck, discard
        self.captured, self.turn, self.plies = captured, turn, plies
        self.over, self.winner = False, None

    def copy(self) -> Sim:
        return Sim(self.board, [list(h) for h in self.hands], list(self.deck), list(self.discard),
                   list(self.captured), self.turn, self.plies)


def board_moves(game: GameRules, board: tuple[int, ...], colour: int) -> list[Turn]:
    """The board-level turns of ``colour`` (kind ``MOVE``)."""
    return game.gen.turns(board, colour)  # the same turns as turns.turn_options, made for speed


def available(sim: Sim, moves: list[Turn], rescue_spots: list[int]) -> list[Turn]:
    """The whole turns the side to move may play with its (determinised) hand."""
    hand = sim.hands[sim.turn]
    playable = [m for m in moves if m[CARD] < 0 or hand[m[CARD]] > 0]
    if hand == [1, 1, 1] and sim.captured[sim.turn] > 0:  # rescues first: a mouse back is usually worth it
        playable = [(f"rescue {name(p)}", RESCUE, -1, p, None, False) for p in rescue_spots] + playable
    if not moves and not playable:
        playable = [(f"pass {CARDS[c]}", PASS, c, None, None, False) for c in range(3) if hand[c]]
    return playable


def apply(game: GameRules, sim: Sim, move: Turn, rng: random.Random) -> None:
    """Play ``move`` on ``sim``, then draw up to 3 (reshuffling the discard pile) and pass the turn."""
    _, kind, card, payload, captured, won = move
    colour, hand = sim.turn, sim.hands[sim.turn]
    if kind == MOVE:
        sim.board = payload
        sim.captured[0] += captured[0]
        sim.captured[1] += captured[1]
    elif kind == RESCUE:
        cells = list(sim.board)
        cells[payload] = colour
        sim.board = tuple(cells)
        sim.captured[colour] -= 1
        hand[:] = [0, 0, 0]
        sim.discard += [0, 1, 2]
    if card >= 0:
        hand[card] -= 1
        sim.discard.append(card)
    if won:
        sim.over, sim.winner = True, colour
        return
    while sum(hand) < HAND_SIZE:
        if not sim.deck:
            if not sim.discard:
                break
            sim.deck, sim.discard = sim.discard, []
            rng.shuffle(sim.deck)
        hand[sim.deck.pop()] += 1
    sim.turn, sim.plies = 1 - sim.turn, sim.plies + 1
    if game.max_plies is not None and sim.plies >= game.max_plies:
        sim.over = True


def turns_to_build(game: GameRules, board: tuple[int, ...], colour: int) -> int:
    """Roughly how many turns ``colour`` needs to build in an enemy corner (MG-19 a): steps to a free corner."""
    best = 9
    for square, corner, around, distance, ring in game.build_spots[colour]:
        if board[square] >= 0:
            continue
        occupant = board[corner]
        if occupant == colour:
            best = min(best, 2)  # step off, come back
        elif occupant < 0:
            for s in around:
                if board[s] >= 0:
                    break
            else:  # a free corner: the nearest mouse of ``colour``, scanning outwards from it
                for mouse in ring:
                    if distance[mouse] >= best:
                        break
                    if board[mouse] == colour:
                        best = distance[mouse]
                        break
    return best


def threatens(game: GameRules, board: tuple[int, ...], colour: int) -> bool:
    """Whether ``colour``, holding a Stronghold, could build in an enemy corner next turn (MG-19 a)."""
    for square, corner, around, steppers, _ in game.spots[colour]:
        if board[square] >= 0 or board[corner] >= 0:
            continue
        for s in around:
            if board[s] >= 0:
                break
        else:
            for mouse in steppers:
                if board[mouse] == colour:
                    cells = list(board)
                    cells[mouse], cells[corner] = EMPTY, colour
                    if game.gen.build(cells, colour, corner, square):
                        return True
    return False


def exposed(game: GameRules, board: tuple[int, ...], colour: int) -> int:
    """How many of ``colour``'s mice stand next to a corner the enemy builds from: a Diplomacy swap with one
    of them puts an enemy mouse one step from winning (MG-14, MG-19)."""
    count = 0
    for _, _, _, steppers, _ in game.spots[1 - colour]:
        for mouse in steppers:
            if board[mouse] == colour:
                count += 1
    return count


def evaluate(game: GameRules, sim: Sim, colour: int, hard: bool) -> float:
    """How good ``sim`` is for ``colour``, in [0, 1]: mice, progress to the enemy corners, threats."""
    if sim.over:
        return 0.5 if sim.winner is None else float(sim.winner == colour)
    mover = sim.turn
    if sim.hands[mover][1] and threatens(game, sim.board, mover):
        return 0.95 if mover == colour else 0.05  # the side to move builds in the enemy corner
    if hard:
        return _fitted(game, sim, colour, mover)
    score = 0.0
    for side, sign in ((colour, 1.0), (1 - colour, -1.0)):
        side_score = 1.2 * (4 - sim.captured[side]) + 0.8 / max(turns_to_build(game, sim.board, side), 1)
        score += sign * side_score
    return 1.0 / (1.0 + math.exp(-score))


def _turns(game: GameRules, sim: Sim, side: int) -> int:
    """Turns ``side`` needs to build in an enemy corner: ``turns_to_build`` steps, three a turn with a Sword."""
    steps = max(turns_to_build(game, sim.board, side), 1)
    return 1 + (steps + 1) // 3 if sim.hands[side][0] and steps > 1 else steps


def _fitted(game: GameRules, sim: Sim, colour: int, mover: int) -> float:
    """Hard's leaf value: a logistic model from the side to move's point of view, fitted to game outcomes.

    The weights come from a logistic regression on about 20,000 positions of 1,400 games between greedy players
    (label: the side to move won). Positions where the side to move can build in an enemy corner at once are
    left to ``evaluate``'s own rule."""
    other = 1 - mover
    board = sim.board
    z = (0.74 * (sim.captured[other] - sim.captured[mover])
         + 0.84 / _turns(game, sim, mover) - 0.37 / _turns(game, sim, other)
         - 0.08 * exposed(game, board, mover) + 0.06 * exposed(game, board, other))
    if sim.hands[other][1] and threatens(game, board, other):
        z -= 0.54
    value = 1.0 / (1.0 + math.exp(-z))
    return value if mover == colour else 1.0 - value


def prior(game: GameRules, move: Turn, colour: int) -> float:
    """A quick guess of how good a board-level move is for its player, to order the search."""
    _, _, card, board, captured, won = move
    if won:
        return 100.0
    guess = 1.5 * (captured[1 - colour] - captured[colour]) + 0.8 / max(turns_to_build(game, board, colour), 1)
    if threatens(game, board, 1 - colour):
        guess -= 3.0
    if threatens(game, board, colour):
        guess += 0.5
    return guess - 0.05 * (card >= 0)  # a card spent for nothing is a small loss


class Node:
    """A node of the ISMCTS tree, reached by a move of ``mover``; ``moves`` are its board-level moves."""

    __slots__ = ("avail", "children", "mover", "moves", "rescue_spots", "reward", "visits")

    def __init__(self, mover: int):
        self.children: dict[str, Node] = {}
        self.visits, self.reward, self.avail, self.mover = 0, 0.0, 0, mover
        self.moves: list[Turn] | None = None
        self.rescue_spots: list[int] = []

    def expand_moves(self, game: GameRules, sim: Sim, ordered: bool) -> None:
        """Generate the board-level moves once (best first by ``prior`` when ``ordered``)."""
        if self.moves is None:
            self.moves = board_moves(game, sim.board, sim.turn)
            if ordered:
                self.moves.sort(key=lambda move: prior(game, move, sim.turn), reverse=True)
            self.rescue_spots = turns.rescue_points(game.geo, sim.board, sim.turn) if game.rescues_alone else []


def _determinise(root: Sim, me: int, opponent_count: int | None, unseen: list[int], rng: random.Random) -> Sim:
    """A world consistent with what ``me`` knows; with ``opponent_count`` None everything is known (the
    analysis of a finished game): ``root`` itself."""
    sim = root.copy()
    if opponent_count is None:
        return sim
    pool = list(unseen)
    rng.shuffle(pool)
    hand = [0, 0, 0]
    for card in pool[:opponent_count]:
        hand[card] += 1
    sim.hands[1 - me] = hand
    sim.deck = pool[opponent_count:]
    return sim


def _ismcts(game: GameRules, tree: Node, root: Sim, me: int, opponent_count: int | None, unseen: list[int],
            hard: bool, rng: random.Random, deadline: float, clock: Callable[[], float]) -> tuple[str | None, int]:
    """The most visited root move after searching until ``deadline`` (of ``clock``), and the iteration count."""
    last, slowest, iterations = clock(), 0.0, 0
    exploration = EXPLORATION["hard" if hard else "normal"]
    widening = WIDENING["hard" if hard else "normal"]
    while last + slowest < deadline:  # stop when one more iteration might overrun the budget
        sim = _determinise(root, me, opponent_count, unseen, rng)
        node, path = tree, [tree]
        while not sim.over:
            node.expand_moves(game, sim, ordered=True)
            moves = available(sim, node.moves, node.rescue_spots)
            moves = moves[:widening + int(widening * math.sqrt(node.visits))]  # progressive widening
            for m in moves:  # SO-ISMCTS: a child counts the visits where its move was available
                child = node.children.get(m[TEXT])
                if child is not None:
                    child.avail += 1
            untried = [m for m in moves if m[TEXT] not in node.children]
            if untried:
                move = untried[0]
                child = node.children[move[TEXT]] = Node(sim.turn)
                child.avail = 1
                apply(game, sim, move, rng)
                path.append(child)
                break
            move = max(moves, key=lambda m: _ucb(node.children[m[TEXT]], exploration))
            apply(game, sim, move, rng)
            node = node.children[move[TEXT]]
            path.append(node)
        value = evaluate(game, sim, 0, hard)  # from Black's side
        for visited in path:
            visited.visits += 1
            visited.reward += value if visited.mover == 0 else 1.0 - value
        iterations += 1
        now = clock()
        slowest, last = max(slowest, now - last), now
    if not tree.children:
        return None, 0
    best = max(tree.children.items(), key=lambda item: (item[1].visits, item[1].reward))
    return best[0], iterations


def _ucb(child: Node, exploration: float) -> float:
    return child.reward / child.visits + exploration * math.sqrt(math.log(child.avail) / child.visits)


def _greedy(game: GameRules, sim: Sim, me: int, rng: random.Random) -> str:
    node = Node(1 - me)
    node.expand_moves(game, sim, ordered=False)
    moves = available(sim, node.moves, node.rescue_spots)
    if rng.random() < 0.25 and not any(m[WON] for m in moves):
        return rng.choice(moves)[TEXT]
    scored = []
    for move in moves:
        trial = sim.copy()
        apply(game, trial, move, rng)
        scored.append((evaluate(game, trial, me, False), rng.random(), move[TEXT]))
    return max(scored)[2]


def _placement(view: dict, level: str, rng: random.Random) -> str:
    """MG-4: easy places at random; normal and hard favour the front row and spread over the columns.

    Uses the board geometry only: no card is dealt before the placements are revealed, so the hand is empty."""
    geo = geometry(view["options"]["edge_points"])
    colour = 0 if view["colour"] == "black" else 1
    spots = geo.setup_points[colour]
    front = max(geo.setup_rows[colour]) if colour == 0 else min(geo.setup_rows[colour])
    sets = list(combinations(spots, 4))
    if level != "easy":
        def score(points: tuple[int, ...]) -> float:
            columns = len({coords(p)[0] for p in points})
            return columns + 0.5 * sum(coords(p)[1] == front for p in points) + rng.random()
        sets.sort(key=score, reverse=True)
        sets = sets[:5]
    chosen = sorted(rng.choice(sets), key=point_sort_key)
    return "place " + " ".join(name(p) for p in chosen)


def choose(view: dict, seat: int, level: str, rng: random.Random, budget: float,
           clock: Callable[[], float]) -> str:
    """The command the ``level`` AI plays at ``seat`` from ``view``, thinking at most ``budget`` seconds."""
    return search(view, seat, level, rng, budget, clock)[0]


def search(view: dict, seat: int, level: str, rng: random.Random, budget: float,
           clock: Callable[[], float]) -> tuple[str, int]:
    """``choose`` with the number of search iterations it ran (0 when it did not search)."""
    deadline = clock() + budget * BUDGET_SHARE
    if seat not in view["to_act"] or view.get("you") != seat:
        raise ValueError(f"seat {seat} has nothing to play in this view")
    if view["phase"] == "setup":
        return _placement(view, level, rng), 0
    game = GameRules(view["options"])
    me = 0 if view["colour"] == "black" else 1
    counts = dict.fromkeys(CARDS, COPIES)
    for card in view["hand"] + view["discard"]:
        counts[card] -= 1
    unseen = [CARDS.index(card) for card, n in counts.items() for _ in range(n)]
    opponent_count = view["hand_counts"]["white" if me == 0 else "black"]
    hands = [[0, 0, 0], [0, 0, 0]]
    for card in view["hand"]:
        hands[me][CARDS.index(card)] += 1
    root = Sim(board_from_mice(view["mice"]), hands, [], [CARDS.index(c) for c in view["discard"]],
               [view["captured"]["black"], view["captured"]["white"]], me, view["plies"])
    probe = _determinise(root, me, opponent_count, unseen, rng)
    if level == "easy":
        return _greedy(game, probe, me, rng), 0
    tree = Node(1 - me)
    tree.expand_moves(game, probe, ordered=True)
    moves = available(probe, tree.moves, tree.rescue_spots)  # the own hand is known: the same in every world
    winning = [m[TEXT] for m in moves if m[WON]]
    if winning or len(moves) == 1:
        return (winning or [moves[0][TEXT]])[0], 0
    best, iterations = _ismcts(game, tree, root, me, opponent_count, unseen, level == "hard", rng, deadline,
                               clock)
    return best or moves[0][TEXT], iterations

