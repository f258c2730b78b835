"""An AI that learns from the game so far gets the views its seat had at every version, and nothing more."""

from __future__ import annotations

from services.jobs import ai_turns


def test_the_history_is_the_seats_view_at_every_version(runtime):
    service = runtime.service
    g = service.create("squirrels", [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy", "ai": "hard"}], seed=3)
    gid = g["id"]
    game = runtime.games.load(gid)
    for _ in range(2):  # the humans play until it is the AI's turn
        seat = game.to_act[0]
        if game.meta["players"][seat].get("ai"):
            break
        service.command(gid, seat, game.legal(seat)[0])
        game = runtime.games.load(gid)
    history = runtime.games.history(gid, 2, game.version)
    assert len(history) == game.version
    for version in (1, game.version // 2, game.version):
        past = runtime.games.at_version(gid, version)
        assert history[version - 1] == past.view(2)
    assert game.to_act == [2]
    assert ai_turns.play(service, gid, 2, game.version, budget=0.05) == "played"
    assert runtime.games.load(gid).version > game.version
