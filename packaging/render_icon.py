"""Render the application icon's SVG to its 256-pixel PNG (offscreen, no display needed).

    python packaging/render_icon.py [SIZE]

Reads resources/icons/rigeditor.svg, writes resources/icons/rigeditor.png.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"


def render(svg: Path, png: Path, size: int = 256) -> None:
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"render_icon: {svg}: not a valid SVG")
    image = QImage(size, size, QImage.Format_ARGB32_Premultiplied)
    image.fill(Qt.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.Antialiasing)
    painter.setRenderHint(QPainter.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    if not image.save(str(png), "PNG"):
        raise SystemExit(f"render_icon: could not write {png}")


def main() -> int:
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])  # noqa: F841 - fonts, image I/O
    render(ICONS / "rigeditor.svg", ICONS / "rigeditor.png", size)
    print(f"wrote {ICONS / 'rigeditor.png'} ({size}x{size})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
