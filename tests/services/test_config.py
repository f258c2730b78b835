"""``Settings``: each setting declared once, read from the environment by its declared type (or its own parser),
a bad value named by its variable, explicit overrides winning; and docs/operations.md's table of settings equal to
the declarations."""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from pathlib import Path

import pytest

from services.config import METRICS_ALLOW, PARSERS, Limits, Settings, declared

ROOT = Path(__file__).resolve().parent.parent.parent
VARIABLES = [f.metadata["env"] for _, f in declared() if f.metadata["env"]]
# Read by the processes themselves (before or beside the settings), documented below the table.
PROCESS_VARIABLES = {"BURROW_WEB_THREADS": "burrow/serving.py", "BURROW_LOG_FORMAT": "burrow/logs.py"}


@pytest.fixture
def env(monkeypatch):
    """Set variables; every declared one starts unset."""
    for variable in VARIABLES:
        monkeypatch.delenv(variable, raising=False)

    def setenv(**values: str) -> None:
        for name, value in values.items():
            monkeypatch.setenv(name, value)

    return setenv


def test_an_empty_environment_gives_the_declared_defaults(env):
    assert Settings.from_env() == Settings()
    assert Settings().limits == Limits(body_bytes=64 * 1024, name_length=40, players=8, open_games_per_client=50,
                                       games_per_minute_per_client=60, accounts_per_hour_per_client=20)


def test_every_setting_is_declared_once_with_its_variable_its_meaning_and_a_parser():
    assert len(VARIABLES) == len(set(VARIABLES)) == 35
    hints = {**typing.get_type_hints(Settings), **typing.get_type_hints(Limits)}
    for name, f in declared():
        assert f.metadata["meaning"] and "\n" not in f.metadata["meaning"], name
        assert f.default is not dataclasses.MISSING, name
        assert f.metadata["parse"] or hints[name.rpartition(".")[2]] in PARSERS, name


def test_each_type_is_parsed_from_its_variable(env):
    env(BURROW_PARTITIONS="4", BURROW_AI_TIME="0.5", BURROW_PREFIX="site", BURROW_PUBLIC_URL="https://x.org",
        BURROW_QUEUES="", RQ_URL="", BURROW_ALLOWED_HOSTS=" a.org, b.org ,", BURROW_METRICS=" Off ",
        BURROW_FAST_PATH="yes", BURROW_CREATE_RATE="0", BURROW_OPEN_GAMES="7", BURROW_SIGNUP_RATE="")
    s = Settings.from_env()
    assert (s.partitions, s.ai_time, s.prefix, s.site_url) == (4, 0.5, "site", "https://x.org")
    assert s.queue_name == "" and s.rq_url is None  # a str takes "" as it is; a str | None takes it for None
    assert s.allowed_hosts == ("a.org", "b.org") and s.metrics is False and s.fast_path is True
    assert s.limits == Limits(games_per_minute_per_client=None, open_games_per_client=7)  # 0: no limit; "": 20


@pytest.mark.parametrize(("value", "fast_path", "metrics"), [
    ("1", True, True), ("TRUE", True, True), ("yes", True, True), ("on", False, True), (" 1", False, True),
    ("", False, True), ("0", False, False), ("false", False, False), ("No", False, False), ("off", False, False),
    (" off ", False, False), ("nonsense", False, True),
])
def test_the_switches_keep_their_spellings(env, value, fast_path, metrics):
    """``BURROW_FAST_PATH`` is on only for 1, true or yes; ``BURROW_METRICS`` is on unless 0, false, no or off."""
    env(BURROW_FAST_PATH=value, BURROW_METRICS=value)
    s = Settings.from_env()
    assert (s.fast_path, s.metrics) == (fast_path, metrics)
    assert Settings.one("metrics") is metrics


def test_the_settings_with_parsers_of_their_own(env):
    env(BURROW_METRICS_ALLOW="10.0.0.0/8, 192.0.2.7", BURROW_PUSH_ALLOW_HOSTS="Push.Example, ,localhost",
        BURROW_MAIL_FROM="")
    s = Settings.from_env()
    assert s.metrics_allow == ("10.0.0.0/8", "192.0.2.7/32")
    assert s.push_allow_hosts == ("push.example", "localhost")
    assert s.mail_from == "Burrow <burrow@localhost>"  # empty: the default
    env(BURROW_METRICS_ALLOW="", BURROW_ALLOWED_HOSTS=" , ", BURROW_MAIL_FROM="Site <site@example.org>")
    s = Settings.from_env()
    assert s.metrics_allow == METRICS_ALLOW and s.allowed_hosts == Settings().allowed_hosts  # empty: the default
    assert s.mail_from == "Site <site@example.org>"
    env(BURROW_METRICS_ALLOW=" , ")
    assert Settings.from_env().metrics_allow == ()  # a list of nothing: nobody


@pytest.mark.parametrize(("variable", "value", "message"), [
    ("BURROW_AI_TIME", "abc", "BURROW_AI_TIME: 'abc' is not a number"),
    ("BURROW_PARTITIONS", "1.5", "BURROW_PARTITIONS: '1.5' is not a whole number"),
    ("BURROW_DIGEST_SECONDS", "", "BURROW_DIGEST_SECONDS: '' is not a whole number"),
    ("BURROW_OPEN_GAMES", "many", "BURROW_OPEN_GAMES: 'many' is not a whole number"),
    ("BURROW_METRICS_ALLOW", "10.0.0.0/8, example.org",
     "BURROW_METRICS_ALLOW: 'example.org' is not an address or a network"),
])
def test_a_bad_value_names_its_variable(env, variable, value, message):
    env(**{variable: value})
    with pytest.raises(ValueError) as raised:
        Settings.from_env()
    assert str(raised.value) == message


def test_explicit_overrides_win_and_none_is_no_override(env):
    env(BURROW_PARTITIONS="4", BURROW_DATA="from-env", REDIS_URL="redis://env/0", BURROW_AI_TIME="oops")
    s = Settings.from_env(partitions=2, data_dir=None, redis_url="redis://flag/0", ai_time=0.1,
                          limits=Limits(players=4))
    assert (s.partitions, s.data_dir, s.redis_url, s.ai_time) == (2, "from-env", "redis://flag/0", 0.1)
    assert s.limits == Limits(players=4)


def test_a_bad_setting_is_one_line_from_the_cli(env, capsys):
    from burrow.cli import main

    env(BURROW_CLAIM_IDLE_MS="soon")
    assert main(["doctor"]) == 2
    said = capsys.readouterr().err.strip()
    assert said == "burrow: bad setting: BURROW_CLAIM_IDLE_MS: 'soon' is not a whole number"


def test_the_settings_handed_to_web_processes_come_back_whole():
    from burrow.serving import settings_to_env

    settings = Settings(redis_url="redis://h/0", allowed_hosts=("a.org",), limits=Limits(players=3,
                                                                                          open_games_per_client=None))
    assert Settings.from_plain(json.loads(settings_to_env(settings))) == settings


# -- the documentation --------------------------------------------------------------------------------------------

def table() -> str:
    """docs/operations.md's table of the declared settings."""
    def shown(value) -> str:
        if value is None:
            return "unset"
        if isinstance(value, bool):
            return "`1`" if value else "`0`"
        if isinstance(value, tuple):
            return f"`{','.join(value)}`" if value else "none"
        return f"`{value}`"

    rows = ["| variable | default | what |", "|---|---|---|"]
    rows += [f"| `{f.metadata['env']}` | {shown(f.default)} | {f.metadata['meaning']} |"
             for _, f in declared() if f.metadata["env"]]
    return "\n".join(rows)


def section(text: str, title: str) -> str:
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_operations_page_lists_every_setting_as_declared():
    """The table is the declarations (run this test to see the table to paste), and every variable the section
    names is a setting or one of the processes' own."""
    settings = section((ROOT / "docs" / "operations.md").read_text(), "Settings")
    assert table() in settings, f"docs/operations.md, \"Settings\", should have:\n{table()}"
    named = set(re.findall(r"\b(?:BURROW_[A-Z_]+|REDIS_URL|RQ_URL)\b", settings))
    assert named == set(VARIABLES) | set(PROCESS_VARIABLES)


def test_every_variable_the_docs_name_is_a_setting_or_a_process_variable():
    for variable, source in PROCESS_VARIABLES.items():
        assert variable in (ROOT / source).read_text(), variable
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        named = set(re.findall(r"\bBURROW_[A-Z_]+\b", page.read_text()))
        assert named <= set(VARIABLES) | set(PROCESS_VARIABLES), (page.name, named - set(VARIABLES))
