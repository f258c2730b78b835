"""The actions the Squirrels AI's searches choose among: every distinct plain move, and the few digs that matter.

While the seat to move still has its dig (FS-7), there are hundreds of digs: the searches consider digs before
the move that bring a valuable card into the squirrel's line and collect it (the best ``DIG_BEFORE_KEPT`` by
immediate gain, from the ``DIG_SOURCES`` most valuable cards), and digs after the move that settle the end
(FS-8): take the last card out of the new line (the game ends) or bring the cheapest card in (it goes on).
"""

from __future__ import annotations

from domain.ai.squirrels.table import EMPTY, LINES, MOVE_CELLS, RAYS, Action, Dig, Move, Sim, Simulator, load

DIG_BEFORE_KEPT = 4  # dig-before actions kept per node, the best by immediate gain
DIG_SOURCES = 6  # most valuable food cards considered as dig sources


class Rules(Simulator):
    """The game on a ``Sim`` (``Simulator``) and the actions a search considers there."""

    def actions(self, sim: Sim) -> list[Action]:
        """Every distinct plain move, then (if the seat may dig) the digs that matter."""
        moves = self.moves(sim)
        found = self.plain_actions(sim, moves)
        if self.can_dig(sim):
            found += self._digs_before(sim) + self._digs_after(sim, moves)
        return found

    def plain_actions(self, sim: Sim, moves: list[Move] | None = None) -> list[Action]:
        """The actions without a dig, one per distinct move (``moves``, if already found)."""
        return [(None, d, letter, cells, None) for d, letter, cells in moves or self.moves(sim)]

    def _digs_before(self, sim: Sim) -> list[Action]:
        grid, value = sim.grid, self.cards.value
        sources = sorted((i for i in range(25) if grid[i] >= 0), key=lambda i: -value[grid[i]])[:DIG_SOURCES]
        scored = []
        for d in range(4):
            for to in RAYS[sim.sq][d]:
                if grid[to] != EMPTY:
                    continue
                for frm in sources:
                    grid[to], grid[frm] = grid[frm], EMPTY
                    for move in self.moves(sim, (d,)):
                        if to in move[MOVE_CELLS]:
                            scored.append((self.gain(sim, move[MOVE_CELLS]), ((frm, to), *move, None)))
                    grid[frm], grid[to] = grid[to], EMPTY
        scored.sort(key=lambda pair: -pair[0])
        return [action for _, action in scored[:DIG_BEFORE_KEPT]]

    def _digs_after(self, sim: Sim, moves: list[Move]) -> list[Action]:
        found = []
        for d, letter, cells in moves:
            after = sim.copy()
            self.collect(after, cells)
            settling = self._settling_dig(after)
            if settling:
                found.append((None, d, letter, cells, settling[1]))
        return found

    def _settling_dig(self, sim: Sim) -> tuple[bool, Dig] | None:
        """After a move, the dig that settles whether the game ends (FS-8): with one food card left in the
        squirrel's line, taking it out ends the game (``True``); with none, bringing the cheapest card in goes on
        (``False``). None if the line holds more, or no cell allows it."""
        grid, line = sim.grid, LINES[sim.sq]
        in_line = [i for i in line if grid[i] >= 0]
        if len(in_line) == 1:
            to = next((i for i in range(25) if grid[i] == EMPTY and i not in line), None)
            return None if to is None else (True, (in_line[0], to))
        if not in_line:
            outside = [i for i in range(25) if grid[i] >= 0]
            holes = [i for i in line if grid[i] == EMPTY]
            if outside and holes:
                return False, (min(outside, key=lambda i: self.cards.value[grid[i]]), holes[0])
        return None

    def closing_dig(self, sim: Sim) -> Dig | None:
        """After the mover collected: the settling dig (``_settling_dig``) if it settles the end in the mover's
        favour — ending a game it leads, or going on with one it would not win."""
        settling = self._settling_dig(sim)
        if settling is None:
            return None
        points = self.points(sim)
        leads = points[sim.turn] > max(p for seat, p in enumerate(points) if seat != sim.turn)
        ends, dig = settling
        return dig if ends == leads else None


def rebuild(view: dict) -> tuple[Rules, Sim]:
    """The rules and the table a view shows."""
    cards, sim, seats, needs_one, max_plies = load(view)
    return Rules(cards, seats, needs_one, max_plies), sim
