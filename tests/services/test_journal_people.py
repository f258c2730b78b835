"""The embedded mode's journal keeps what meeting people makes (issue #44): chat rooms, open challenges and chat
reports come back after a restart, as the README promises, and what was answered, read or lapsed does not."""

from __future__ import annotations

from burrow.runtime import build
from services.config import Settings
from services.people.person import Person


def test_chat_challenges_and_reports_survive_an_embedded_restart(tmp_path):
    settings = Settings(prefix="jp", data_dir=str(tmp_path / "data"))
    first = build(settings)
    gid = first.service.create("murus", [{"name": "Ana"}, {"name": "Ben"}])["id"]
    for name in ("Ana", "Ben", "Cy"):
        first.accounts.store.create(name, [])
    chat = first.people.chat
    hello = chat.post(gid, "players", "Ana", f"seat:{gid}:0", "hello")
    rude = chat.post(gid, "players", "Ben", f"seat:{gid}:1", "something rude")
    chat.post(gid, "spectators", "Cy", "account:cy", "nice move")
    chat.report(gid, "players", rude["id"], "Ana", f"seat:{gid}:0")
    ana, ben, cy = Person("ana", "Ana", "Ana"), Person("ben", "Ben", "Ben"), Person("cy", "Cy", "Cy")
    kept = first.people.challenges.create(ana, "Ben", "murus", {}, None)
    answered = first.people.challenges.create(cy, "Ben", "murus", {}, None)
    first.people.challenges.decline(ben, answered["id"])

    again = build(settings)  # a new in-process Redis, loaded from the journals
    assert again is not first
    players = again.people.chat.read(gid, "players")
    assert [(m["id"], m["from"], m["text"]) for m in players] == [
        (hello["id"], "Ana", "hello"), (rude["id"], "Ben", "something rude")]
    assert [m["text"] for m in again.people.chat.read(gid, "spectators")] == ["nice move"]
    [report] = again.people.chat.unread()
    assert report["message"]["text"] == "something rude" and report["reporter"] == "Ana"
    assert not again.people.chat.report(gid, "players", rude["id"], "Ana", f"seat:{gid}:0")  # still once
    incoming = again.people.challenges.of(ben)["incoming"]
    assert [c["id"] for c in incoming] == [kept["id"]]
    again.people.chat.mark_read(report["id"])
    third = build(settings)
    assert third.people.chat.unread() == [] and len(third.people.chat.reports()) == 1
    after = third.people.chat.post(gid, "players", "Ben", f"seat:{gid}:1", "sorry")
    assert [m["id"] for m in third.people.chat.read(gid, "players")][-1] == after["id"]
