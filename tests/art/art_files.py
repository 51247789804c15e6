"""Pictures for the artwork tests, painted here (the tests read nothing outside the repository)."""
from __future__ import annotations

from pathlib import Path

import numpy as np


def paint_png(path: Path, width: int, height: int, seed: int = 0, margin: int = 0) -> np.ndarray:
    """Write an RGBA PNG: an opaque rounded blob with ``margin`` transparent pixels
    around it; returns the pixels (height, width, 4)."""
    from PIL import Image

    rng = np.random.default_rng(seed)
    px = np.zeros((height, width, 4), dtype=np.uint8)
    px[margin:height - margin, margin:width - margin, :3] = rng.integers(40, 220, 3)
    px[margin:height - margin, margin:width - margin, 3] = 255
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(px, "RGBA").save(path)
    return px
