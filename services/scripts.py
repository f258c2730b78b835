"""The Lua scripts of services/: one ``.lua`` file each in ``services/lua/`` (none inline)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent / "lua"


def lua(name: str) -> str:
    """The text of ``services/lua/<name>.lua``."""
    return (HERE / f"{name}.lua").read_text(encoding="utf-8")
