"""The Lua scripts of services/: one ``.lua`` file each, beside the modules that run them (none inline)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).parent


def lua(name: str) -> str:
    """The text of ``services/<name>.lua``."""
    return (HERE / f"{name}.lua").read_text(encoding="utf-8")
