"""Sequences: an attachment shown as a run of pictures, frame by frame (pure data, no Qt, no files).

A :class:`Sequence` on an image or mesh attachment (``ImageAttachment.sequence``) lists
its pictures (``paths``, relative to the project file, one per sequence frame; the
attachment's own ``path`` is the setup frame's) with Spine's numbering (``start``,
``digits``: frame i's region is the base name plus ``start + i``, zero-padded) and the
frame the setup pose shows (``setup``, 0-based).

A slot's ``sequence`` track (a stepped channel, like its attachment track) keys which
frame shows: each key's value is :func:`key_text` of (mode, index, delay, attachment)
and applies while the slot shows that attachment, from the key on. Before the first
key, or while another attachment shows, the setup frame shows. Modes as Spine's:

- ``hold``: frame ``index``;
- ``once`` / ``loop`` / ``pingpong``: from ``index``, one frame every ``delay``
  (timeline frames, > 0), stopping at the last / wrapping / going back and forth;
- ``onceReverse`` / ``loopReverse`` / ``pingpongReverse``: the same, counted from the
  last frame backwards.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MODES = ("hold", "once", "loop", "pingpong", "onceReverse", "loopReverse", "pingpongReverse")


@dataclass(frozen=True)
class Sequence:
    """paths: one picture per frame (count = len(paths) >= 1). start >= 0, digits in
    0..9: Spine's region numbering. setup: the frame shown at setup, 0..count-1."""

    paths: tuple[str, ...]
    start: int = 1
    digits: int = 0
    setup: int = 0

    @property
    def count(self) -> int:
        return len(self.paths)


@dataclass(frozen=True)
class SequenceKey:
    """One key's value: ``mode`` (one of MODES), the first frame ``index`` (>= 0),
    ``delay`` (timeline frames per sequence frame, >= 0), for ``attachment`` (a name)."""

    mode: str
    index: int
    delay: float
    attachment: str


def key_text(key: SequenceKey) -> str:
    """The stepped track's value of ``key``: "mode index delay attachment"."""
    return f"{key.mode} {key.index} {key.delay:.17g} {key.attachment}"


def parse_key(text: str) -> SequenceKey:
    """The SequenceKey of a track value (ValueError naming what is wrong)."""
    parts = text.split(" ", 3)
    if len(parts) != 4:
        raise ValueError(f"a sequence key reads 'mode index delay attachment', got {text!r}")
    mode, index, delay, attachment = parts
    if mode not in MODES:
        raise ValueError(f"unknown sequence mode {mode!r} (one of {', '.join(MODES)})")
    try:
        i, d = int(index), float(delay)
    except ValueError:
        raise ValueError(f"a sequence key's index and delay must be numbers, got {index!r}, {delay!r}") from None
    if i < 0 or not np.isfinite(d) or d < 0 or not attachment:
        raise ValueError(f"a sequence key needs index >= 0, a finite delay >= 0 and an attachment, got {text!r}")
    return SequenceKey(mode, i, d, attachment)


def frame_index(key: SequenceKey, count: int, elapsed) -> np.ndarray:
    """(N,) the sequence frame shown ``elapsed`` (N,) timeline frames after ``key``, of
    ``count`` frames (Spine's modes; the last frame at most)."""
    index = np.full(np.shape(elapsed), key.index, dtype=np.int64)
    if key.mode != "hold" and key.delay > 0:
        # The runtimes add 1e-5 before truncating so a time on a frame's start shows it.
        index = index + np.floor(np.asarray(elapsed, float) / key.delay + 0.00001).astype(np.int64)
    n = 2 * count - 2
    if key.mode == "once":
        index = np.minimum(count - 1, index)
    elif key.mode == "loop":
        index = index % count
    elif key.mode == "pingpong":
        index = np.zeros_like(index) if n == 0 else index % n
        index = np.where(index >= count, n - index, index)
    elif key.mode == "onceReverse":
        index = np.maximum(count - 1 - index, 0)
    elif key.mode == "loopReverse":
        index = count - 1 - index % count
    elif key.mode == "pingpongReverse":
        index = np.zeros_like(index) if n == 0 else (index + count - 1) % n
        index = np.where(index >= count, n - index, index)
    return np.minimum(index, count - 1)


def picture_paths(a) -> tuple[str, ...]:
    """Every picture attachment ``a`` may show: its sequence's frames, else its path."""
    seq = getattr(a, "sequence", None)
    return seq.paths if seq is not None else (a.path,)


__all__ = ["MODES", "Sequence", "SequenceKey", "key_text", "parse_key", "frame_index", "picture_paths"]
