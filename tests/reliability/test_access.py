"""Access: seat tokens (random, hashed, compared in constant time, bound to their game and seat), spectators,
no token ever shown again, user text never injected into pages, and the pages' security headers."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

import pytest

from services import tokens as seat_tokens

WEB = Path(__file__).resolve().parents[2] / "web"
XSS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "';alert(1);//", '</title><svg onload=a()>',
       "{{7*7}}", "${alert(1)}"]


def create(api, game="murus", players=None, **extra):
    r = api.post("/api/games", json={"game": game, "players": players or [{"name": "Ana"}, {"name": "Bob"}],
                                     **extra})
    assert r.status_code == 201, r.json
    return r.json


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def everything_in_redis(rt) -> bytes:
    """Every key and value under the runtime's prefix, as bytes (streams, hashes, strings, sets)."""
    client, out = rt.redis, []
    for key in client.scan_iter(match=f"{rt.store.keys.prefix}*"):
        kind = client.type(key).decode()
        if kind == "stream":
            value = client.xrange(key)
        elif kind == "hash":
            value = client.hgetall(key)
        elif kind == "string":
            value = client.get(key)
        elif kind == "zset":
            value = client.zrange(key, 0, -1)
        elif kind == "list":
            value = client.lrange(key, 0, -1)
        else:
            value = client.smembers(key)
        out.append(key + b" " + repr(value).encode())
    return b"\n".join(out)


def test_tokens_are_random_hashed_and_never_stored(rt, api):
    games = [create(api) for _ in range(5)]
    issued = [s["token"] for g in games for s in g["seats"]]
    assert len(set(issued)) == len(issued)
    for token in issued:
        assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8 >= 128
    dump = everything_in_redis(rt)
    for g in games:
        stored = rt.store.seat_hashes(g["id"])
        for seat in g["seats"]:
            assert seat["token"].encode() not in dump
            assert stored[seat["seat"]] == hashlib.sha256(seat["token"].encode()).hexdigest()


def test_tokens_are_compared_in_constant_time_against_every_seat(monkeypatch):
    compared = []
    real = seat_tokens.hmac.compare_digest
    monkeypatch.setattr(seat_tokens.hmac, "compare_digest", lambda a, b: compared.append((a, b)) or real(a, b))
    hashes = {s: seat_tokens.token_hash(f"t{s}") for s in range(4)}
    assert seat_tokens.seat_of("t0", hashes) == 0  # found first, yet every seat is compared: no early exit
    assert len(compared) == 4
    compared.clear()
    assert seat_tokens.seat_of("nope", hashes) is None and len(compared) == 4


def test_a_token_is_bound_to_its_game_and_seat_and_spectators_cannot_act(rt, api):
    a, b = create(api), create(api)
    stranger = a["seats"][0]["token"]
    gid, mine = b["id"], b["seats"][0]["token"]
    before = rt.store.version(gid)
    for method, path, body in [("GET", f"/api/games/{gid}", None), ("GET", f"/api/games/{gid}/events", None),
                               ("POST", f"/api/games/{gid}/commands", {"move": "a1-a3"})]:
        r = api.open(path, method=method, json=body, headers=auth(stranger))
        assert r.status_code == 401 and r.json["error"]["code"] == "unauthorized", (path, r.json)
        assert stranger not in r.get_data(as_text=True)
    spectator = api.post(f"/api/games/{gid}/commands", json={"move": "a1-a3"})
    assert spectator.status_code == 401 and "token" in spectator.json["error"]["message"]
    doc = api.get(f"/api/games/{gid}").json
    assert doc["you"] is None and doc["legal"] == []
    other_seat = api.post(f"/api/games/{gid}/commands", json={"move": "a1-a3"},
                          headers=auth(b["seats"][1]["token"]))
    assert other_seat.status_code == 403  # a real seat, but not the one to act: it cannot play for seat 0
    assert rt.store.version(gid) == before
    assert api.post(f"/api/games/{gid}/commands", json={"move": "a1-a3"}, headers=auth(mine)).status_code == 200


def test_no_answer_reveals_a_token_after_creation(rt, api, monkeypatch):
    games = [create(api), create(api, game="squirrels", players=[{"name": "Ana"}, {"name": "Bot", "ai": "easy"}]),
             create(api, game="mouseguard"), create(api, game="commando")]
    secrets = [s["token"] for g in games for s in g["seats"] if "token" in s]
    g = games[0]
    played = api.post(f"/api/games/{g['id']}/commands", json={"move": "a1-a3", "command_id": "x"},
                      headers=auth(g["seats"][0]["token"]))
    assert played.status_code == 200
    rt.projector.rebuild()
    urls = ["/", "/api/health", "/api/openapi.json", "/api/games", "/api/games?status=playing"]
    for game in games:
        gid = game["id"]
        urls += [f"/games/{gid}", f"/api/games/{gid}", f"/api/games/{gid}?version=1", f"/api/games/{gid}/events",
                 f"/api/games/{gid}/stream", f"/api/games/{gid}?min_version=99"]
    viewers = [None] + secrets
    for url in urls:
        for token in viewers:
            r = api.get(url, headers=auth(token) if token else {})
            text = r.get_data(as_text=True)
            if r.status_code == 401:
                continue  # another game's token
            assert r.status_code == 200, (url, r.status_code)
            for secret in secrets:
                assert secret not in text, (url, "reveals a token")


def test_user_text_is_never_injected_into_pages(rt, api):
    names = [{"name": payload} for payload in XSS[:4]]
    g = create(api, game="commando", players=names)
    assert [s["name"] for s in g["seats"]] == XSS[:4]
    rt.projector.rebuild()
    as_json = api.get(f"/api/games/{g['id']}")
    assert as_json.mimetype == "application/json" and as_json.headers["X-Content-Type-Options"] == "nosniff"
    for url in ("/", f"/games/{g['id']}"):
        html = api.get(url).get_data(as_text=True)
        for payload in XSS:
            assert payload not in html, (url, payload)
        assert "onerror" not in html and "alert(" not in html
    missing = api.get("/games/" + "%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert "<script>alert(1)</script>" not in missing.get_data(as_text=True)


def test_pages_build_user_text_without_html_parsing_sinks():
    """Browser-free: the page scripts only ever use textContent / setAttribute for text they did not write."""
    sinks = re.compile(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\s*\(|new Function|"
                       r"setTimeout\s*\(\s*['\"`]|setInterval\s*\(\s*['\"`]|\.html\s*\(|srcdoc")
    scripts = sorted((WEB / "static").rglob("*.js"))
    assert scripts
    for path in scripts:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            assert not sinks.search(line), f"{path.name}:{n}: {line.strip()}"
    for template in (WEB / "templates").glob("*.html"):
        text = template.read_text()
        assert "|safe" not in text.replace(" ", "") and "autoescape false" not in text, template.name
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), f"inline script in {template.name}"
        assert not re.search(r"\son[a-z]+\s*=", text), f"inline event handler in {template.name}"
        assert not re.search(r"\sstyle\s*=", text), f"inline style in {template.name}"


@pytest.mark.parametrize("url", ["/", "/games/{gid}", "/games/nosuchgame", "/api/games/{gid}", "/api/health",
                                 "/static/game.js"])
def test_security_headers(api, url):
    g = create(api)
    r = api.get(url.format(gid=g["id"]))
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "no-referrer"
    if r.mimetype == "text/html":
        csp = dict(part.strip().split(" ", 1) for part in r.headers["Content-Security-Policy"].split(";"))
        assert "'unsafe-inline'" not in csp["script-src"] and "'unsafe-eval'" not in csp["script-src"]
        assert csp["script-src"] == "'self'" and csp["object-src"] == "'none'"
        assert csp["frame-ancestors"] == "'none'" and csp["base-uri"] == "'none'"
    if url.startswith("/api/"):
        assert json.loads(r.get_data()) is not None and r.mimetype == "application/json"
