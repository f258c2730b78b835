"""The installable site's PNG icons (``web/static/icons/``), drawn from the same shapes as ``icon.svg`` (a
burrow: a rounded square, two mounds) with the standard library alone,
so that no image tool is needed to remake them.

    python -m web.icons        # writes icon-192.png, icon-512.png and maskable-512.png (commit them)
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).parent / "static" / "icons"
BROWN, RED, GREEN = (0x3B, 0x2F, 0x23), (0xC8, 0x47, 0x3A), (0x2F, 0x6B, 0x3A)
SAMPLES = 4  # per pixel side: smooth edges


def _inside_ellipse(x: float, y: float, cx: float, cy: float, rx: float, ry: float) -> bool:
    return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.0


def _inside_rounded(x: float, y: float, size: float, radius: float) -> bool:
    nx, ny = min(max(x, radius), size - radius), min(max(y, radius), size - radius)
    return (x - nx) ** 2 + (y - ny) ** 2 <= radius ** 2


def _colour(x: float, y: float, maskable: bool) -> tuple[int, int, int, int]:
    """The colour at (x, y) of the 512-unit drawing; a maskable icon fills its square and keeps its drawing within
    the safe circle (80%)."""
    if maskable:
        x, y = 256 + (x - 256) / 0.8, 256 + (y - 256) / 0.8
    elif not _inside_rounded(x, y, 512, 96):
        return (0, 0, 0, 0)
    if _inside_ellipse(x, y, 256, 224, 160, 96):
        return (*GREEN, 255)
    if _inside_ellipse(x, y, 256, 320, 160, 96):
        return (*RED, 255)
    return (*BROWN, 255)


def draw(size: int, maskable: bool = False) -> bytes:
    """The icon as a PNG of ``size`` × ``size`` pixels (RGBA)."""
    scale = 512 / size
    rows = []
    for py in range(size):
        row = bytearray(b"\x00")  # filter: none
        for px in range(size):
            total = [0, 0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    c = _colour((px + (sx + 0.5) / SAMPLES) * scale, (py + (sy + 0.5) / SAMPLES) * scale, maskable)
                    for i in range(4):
                        total[i] += c[i]
            row += bytes(round(v / SAMPLES ** 2) for v in total)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
            + chunk(b"IEND", b""))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("maskable-512.png", 512, True)):
        (OUT / name).write_bytes(draw(size, maskable))
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
