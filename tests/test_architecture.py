"""The import rules of docs/architecture.md, checked over every module of ours (including imports inside
functions): each arrow between our packages points the allowed way, only services/ talks to Redis, and none
imports the tests or the benches; and domain/ holds only what the product uses (the tests' oracles live in
tests/oracles/)."""

from __future__ import annotations

import ast
import graphlib
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OURS = ("burrow", "domain", "services", "web", "workers")
# Which of our packages each package may import (itself included). burrow/, the composition root, may import all.
ALLOWED = {
    "domain": {"domain"},
    "services": {"services", "domain"},
    "web": {"web", "services", "domain"},
    "workers": {"workers", "services", "domain"},
    "burrow": set(OURS),
}
REDIS_CLIENTS = {"redis", "fakeredis"}  # only services/ may import these
OUTSIDE = {"tests", "bench"}  # no package of ours imports these


def modules() -> list[Path]:
    return sorted(p for package in OURS for p in (ROOT / package).rglob("*.py"))


def imported(path: Path) -> list[tuple[int, str]]:
    """(line, top-level name) of every import in the module, at any depth; relative imports resolved."""
    package = path.relative_to(ROOT).parts[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.lineno, package if node.level else (node.module or "").split(".")[0]))
    return out


def violations(path: Path) -> list[str]:
    package = path.relative_to(ROOT).parts[0]
    rel = path.relative_to(ROOT).as_posix()
    bad = []
    for line, name in imported(path):
        if name in OURS and name not in ALLOWED[package]:
            bad.append(f"{rel}:{line}: {package}/ imports {name}/")
        if name in REDIS_CLIENTS and package != "services":
            bad.append(f"{rel}:{line}: {package}/ imports {name} (only services/ talks to Redis)")
        if name in OUTSIDE:
            bad.append(f"{rel}:{line}: {package}/ imports {name}/")
    return bad


def test_every_package_is_checked():
    assert {p.relative_to(ROOT).parts[0] for p in modules()} == set(OURS)
    assert len(modules()) > 50


@pytest.mark.parametrize("package", OURS)
def test_imports_point_the_allowed_way(package):
    found = [v for p in modules() if p.relative_to(ROOT).parts[0] == package for v in violations(p)]
    assert found == [], "\n".join(found)


def test_the_check_catches_a_wrong_arrow(tmp_path, monkeypatch):
    # The checker itself: a domain module importing services, a web module importing workers and redis.
    for package, text in {"domain": "from services.games.commands import Game\nfrom tests.oracles import x\n",
                          "web": "def f():\n    import workers.jobs\n    import redis\n"}.items():
        (tmp_path / package).mkdir()
        (tmp_path / package / "bad.py").write_text(text)
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    assert violations(tmp_path / "domain" / "bad.py") == ["domain/bad.py:1: domain/ imports services/",
                                                          "domain/bad.py:2: domain/ imports tests/"]
    assert violations(tmp_path / "web" / "bad.py") == [
        "web/bad.py:2: web/ imports workers/", "web/bad.py:3: web/ imports redis (only services/ talks to Redis)"]


def test_lua_scripts_are_lua_files():
    """Every Lua script is a ``.lua`` file of services/ (``services/scripts.py`` reads them), none inline."""
    inline = [p.relative_to(ROOT).as_posix() for p in modules() if "redis.call(" in p.read_text(encoding="utf-8")]
    assert inline == [], "move each Lua script to services/lua/<name>.lua; read it with services.scripts.lua(name)"
    scripts = [p for package in OURS for p in (ROOT / package).rglob("*.lua")]
    assert scripts and {p.parent for p in scripts} == {ROOT / "services" / "lua"}


def used_names(tree: ast.AST) -> Counter[str]:
    """How often each name is used in ``tree``: read (``x``, ``m.x``), imported, or named by a string (as
    ``getattr`` takes it)."""
    found: Counter[str] = Counter()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found[node.id] += 1
        elif isinstance(node, ast.Attribute):
            found[node.attr] += 1
        elif isinstance(node, ast.alias):
            found[node.name.rpartition(".")[2]] += 1
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
            found[node.value] += 1
    return found


def unused_by_the_product() -> list[str]:
    """``path: name`` of each class and function defined at the top of a domain/ module that no module of ours
    uses (its own uses inside itself do not count): code the product never runs, kept for tests or benches."""
    used: Counter[str] = Counter()
    defined = []
    for path in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        used.update(used_names(tree))
        if path.relative_to(ROOT).parts[0] == "domain":
            defined += [(path.relative_to(ROOT).as_posix(), node.name, used_names(node)[node.name])
                        for node in tree.body
                        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    return [f"{rel}: {name}" for rel, name, inside in defined if used[name] == inside]


TEST_FACING = {
    # A move of the rules as a search's move code: ``to_move``'s other direction (the notation both ways).
    "domain/ai/murus_search.py: code_of", "domain/ai/murus_advanced.py: code_of",
    # The features the evaluation weighs, by name: bench/murus_fit.py fits ``WEIGHTS`` over them.
    "domain/ai/murus_search.py: features",
    # The game interface's own checks and registration, which tests/domain/test_conformance.py runs every game
    # through (a game gets the whole suite by registering).
    "domain/base.py: allows", "domain/base.py: decider_problems",
    "domain/registry.py: registered", "domain/registry.py: game_types",
}
"""What domain/ keeps although the product does not use it: parts of its interfaces that tests and benches use."""


def test_the_domain_holds_only_what_the_product_uses():
    """A class or function of domain/ is used by the product (a module of ours), or is one of ``TEST_FACING``:
    references the tests hold the product to, and helpers only tests need, live in tests/."""
    found = [entry for entry in unused_by_the_product() if entry not in TEST_FACING]
    assert found == [], "used by no module of ours (move it to tests/, e.g. tests/oracles/):\n" + "\n".join(found)


def test_the_product_check_finds_a_definition_only_the_tests_use(tmp_path, monkeypatch):
    # Used by web/; used only by a test; used only by itself.
    files = {"domain/search.py": "def fast():\n    pass\n\n\nclass Slow:\n    pass\n\n\ndef spin():\n    spin()\n",
             "web/app.py": "from domain.search import fast\n",
             "tests/test_search.py": "from domain.search import Slow\n"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    for package in ("burrow", "services", "workers"):
        (tmp_path / package).mkdir()
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert unused_by_the_product() == ["domain/search.py: Slow", "domain/search.py: spin"]


def test_the_domain_defines_none_of_the_oracles():
    """The tests' oracles (tests/oracles/: plain, slow references that the product's fast code is held to, such
    as ``PySearch`` for hard's compiled Murus search) are the tests' own: no module of domain/ defines a class or
    function of the same name."""
    oracles = {node.name for path in (ROOT / "tests" / "oracles").glob("*.py")
               for node in ast.parse(path.read_text(encoding="utf-8")).body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_")}
    assert "PySearch" in oracles
    found = [f"{path.relative_to(ROOT).as_posix()}:{node.lineno}: {node.name}" for path in modules()
             if path.relative_to(ROOT).parts[0] == "domain"
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in oracles]
    assert found == [], "\n".join(found)


IMPURE = {"time", "datetime", "os", "socket", "threading", "subprocess", "asyncio", "urllib", "http", "requests",
          "flask", "rq", "redis", "fakeredis", "logging"}
GLOBAL_RANDOM = {"random", "randint", "randrange", "choice", "choices", "shuffle", "sample", "seed", "uniform",
                 "getrandbits"}


def test_the_domain_stays_pure():
    """domain/ has no clock, no I/O beyond its own data files, no threads and no global random: every die, shuffle
    and draw comes from the ``rng`` it is given (and is recorded in an event); the AIs get their clock injected."""
    found = []
    for path in modules():
        if path.relative_to(ROOT).parts[0] != "domain":
            continue
        rel = path.relative_to(ROOT).as_posix()
        found += [f"{rel}:{line}: imports {name}" for line, name in imported(path) if name in IMPURE]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "random"
                    and node.func.attr in GLOBAL_RANDOM):
                found.append(f"{rel}:{node.lineno}: random.{node.func.attr}() (the global generator)")
    assert found == [], "\n".join(found)


def test_key_names_are_made_in_one_place():
    """Redis key names are built by ``Keys`` / ``QueueKeys`` (services/store/streams.py) only: no other module
    formats a string with a key prefix."""
    found = []
    for path in modules():
        rel = path.relative_to(ROOT).as_posix()
        if rel == "services/store/streams.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FormattedValue):
                value = node.value
                name = value.attr if isinstance(value, ast.Attribute) else getattr(value, "id", None)
                if name == "prefix":
                    found.append(f"{rel}:{node.lineno}: a key made from a prefix")
    assert found == [], "\n".join(found)


def test_one_retry_loop_for_writes():
    """Every optimistic write retries through ``services/store/optimistic.py`` (``retry``), and every change to a
    game goes through ``services/games/round.py``: no other module of services/ catches ``ConcurrencyError``
    (the journal's restore replays writes, it does not retry them)."""
    allowed = {"services/store/optimistic.py", "services/games/round.py", "services/store/journal.py"}
    found = []
    for path in modules():
        rel = path.relative_to(ROOT).as_posix()
        if not rel.startswith("services/") or rel in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ExceptHandler) and node.type is not None and "ConcurrencyError" in ast.unparse(
                    node.type):
                found.append(f"{rel}:{node.lineno}: catches ConcurrencyError (retry through the write unit)")
    assert found == [], "\n".join(found)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_imports(path: Path, known: set[str]) -> set[str]:
    """The modules of ours ``path`` imports, anywhere in it (inside functions and ``TYPE_CHECKING`` too: an
    import for a type is an arrow all the same); ``from package import module`` names the module."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.update(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names)
    return (found & known) - {name}


def test_no_import_circle():
    """No module of ours imports, through any chain, a module that imports it back (a circle makes the order of
    imports matter and hides which module is the lower one): the modules form a graph without cycles."""
    paths = {module_name(p): p for p in modules()}
    graph = {name: module_imports(path, set(paths)) for name, path in paths.items()}
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        pytest.fail(f"an import circle: {' → '.join(exc.args[1])}")


def test_the_circle_check_finds_a_circle_of_type_imports(tmp_path, monkeypatch):
    for name, text in {"a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from domain.b import B\n",
                       "b.py": "from domain.a import A\n"}.items():
        (tmp_path / "domain").mkdir(exist_ok=True)
        (tmp_path / "domain" / name).write_text(text)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    paths = {module_name(p): p for p in (tmp_path / "domain").glob("*.py")}
    graph = {name: module_imports(path, set(paths)) for name, path in paths.items()}
    with pytest.raises(graphlib.CycleError):
        graphlib.TopologicalSorter(graph).prepare()


ROOT_BUILT = {"Accounts", "Analyses", "ExpensiveReads"}  # one per process, held by its ``Runtime``
COMPOSITION_ROOT = "burrow/runtime.py"


def constructions(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, class) of every call of a class of ``names`` in ``source``, by its name or as an attribute."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name in names:
                found.append((node.lineno, name))
    return found


def test_the_long_lived_objects_are_built_in_the_composition_root():
    """The accounts, the analyses and the cap on expensive reads are built once, by ``burrow/runtime.py``, and
    reach everything else through the runtime or a constructor: no module global, no per-request building."""
    found = [f"{p.relative_to(ROOT).as_posix()}:{line}: builds {name} (take the runtime's)"
             for p in modules() if p.relative_to(ROOT).as_posix() != COMPOSITION_ROOT
             for line, name in constructions(p.read_text(encoding="utf-8"), ROOT_BUILT)]
    assert found == [], "\n".join(found)
    assert {name for _, name in constructions((ROOT / COMPOSITION_ROOT).read_text(encoding="utf-8"),
                                              ROOT_BUILT)} == ROOT_BUILT


def test_the_construction_check_sees_a_call_by_name_and_by_attribute():
    source = "from services.reads import analysis\nx = analysis.Analyses(g, j)\ny = Accounts(r, k)\n"
    assert constructions(source, ROOT_BUILT) == [(2, "Analyses"), (3, "Accounts")]


# A path a file of the repository names (``services/store/streams.py``, `docs/api.md`): from a top-level folder
# or file of the repository, with an extension. The examples this file builds in temporary trees are its own.
PATH_NAMED = re.compile(r"(?<![\w./<>-])((?:[A-Za-z_][\w-]*/)+[\w.-]+\."
                        r"(?:py|md|js|html|json|ya?ml|toml|lua|css|po|pot|svg|txt|csv|conf|sh))\b")


def named_paths(text: str) -> set[str]:
    """The repository paths ``text`` names (those whose first part is a top-level entry of the repository)."""
    top = {p.name for p in ROOT.iterdir()}
    return {m[1] for m in PATH_NAMED.finditer(text) if m[1].split("/")[0] in top}


def test_every_file_named_exists():
    """Docstrings, comments and docs name files that exist (a module moved leaves no reference behind)."""
    tracked = subprocess.run(["git", "ls-files", "*.py", "*.md", "*.js", "*.html", "*.yml", "*.toml", "*.css"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    missing = sorted(f"{name} names {path}" for name in tracked if name != "tests/test_architecture.py"
                     for path in named_paths((ROOT / name).read_text(errors="replace"))
                     if not (ROOT / path).exists())
    assert not missing, "\n".join(missing)


def test_the_file_check_sees_a_path_and_leaves_a_placeholder():
    assert named_paths("see ``services/store/streams.py`` and docs/api.md, not `bench/<script>.py`") == \
        {"services/store/streams.py", "docs/api.md"}


ROUTE_DECORATORS = {"route", "get", "post", "put", "patch", "delete"}


def foreign_routes(source: str) -> list[tuple[int, str]]:
    """(line, blueprint) of every route the module adds to a blueprint it did not make (one it imported): its
    routes would exist only because the module was imported somewhere."""
    tree = ast.parse(source)
    own = {target.id for node in tree.body if isinstance(node, ast.Assign)
           for target in node.targets if isinstance(target, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for decorator in node.decorator_list:
                made = decorator.func if isinstance(decorator, ast.Call) else None
                if isinstance(made, ast.Attribute) and made.attr in ROUTE_DECORATORS \
                        and isinstance(made.value, ast.Name) and made.value.id not in own:
                    found.append((decorator.lineno, made.value.id))
    return found


def test_each_module_of_routes_adds_them_to_its_own_blueprint():
    found = [f"{p.relative_to(ROOT).as_posix()}:{line}: a route added to {name}, made elsewhere"
             for p in sorted((ROOT / "web").rglob("*.py"))
             for line, name in foreign_routes(p.read_text(encoding="utf-8"))]
    assert found == [], "\n".join(found)


def test_the_route_check_sees_a_route_on_an_imported_blueprint():
    source = ("from web.api import api\nfrom flask import Blueprint\nmine = Blueprint('mine', __name__)\n\n"
              "@mine.get('/a')\ndef a():\n    pass\n\n@api.post('/b')\ndef b():\n    pass\n")
    assert foreign_routes(source) == [(9, "api")]


def test_create_app_registers_every_blueprint_of_web(runtime):
    """``web/app.py`` registers each blueprint the modules of web/ make: none is left out, none joins by import."""
    import importlib

    from flask import Blueprint

    from web.app import create_app

    registered = {id(b) for b in create_app(runtime).blueprints.values()}
    made = {f"web.{p.stem}.{name}": value for p in sorted((ROOT / "web").glob("*.py"))
            for name, value in vars(importlib.import_module(f"web.{p.stem}")).items()
            if isinstance(value, Blueprint)}
    assert len(made) >= 8
    assert [name for name, blueprint in made.items() if id(blueprint) not in registered] == []
