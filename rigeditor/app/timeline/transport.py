"""The timeline's transport: play, pause, step and jump within the loop range, the play
clock (frames drop rather than slow down) and the play action's look. A mixin of
TimelineWidget, which owns the timer, clock, loop range and actions it uses."""
from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import QStyle


class Transport:
    """Needs ``doc``, ``speed``, ``_loop``, ``_timer`` (QTimer), ``_clock``
    (QElapsedTimer), ``play_action``, ``playingChanged`` and ``_draw_loop``."""

    def play(self) -> None:
        """Play the loop range at the project's fps (frames drop rather than slow down)."""
        if self.is_playing():
            return
        lo, hi = self._loop
        if not lo <= self.doc.frame < hi:
            self.doc.set_frame(lo)
        self._play_from = self.doc.frame
        self._clock.start()
        self._timer.start(max(1, int(500.0 / (self.doc.project.timeline.fps * self.speed))))
        self._playing_changed()

    def pause(self) -> None:
        if self.is_playing():
            self._timer.stop()
            self._playing_changed()

    def is_playing(self) -> bool:
        return self._timer.isActive()

    def toggle_play(self) -> None:
        self.pause() if self.is_playing() else self.play()

    def step(self, frames: int) -> None:
        self.pause()
        self.doc.set_frame(self.doc.frame + int(frames))

    def loop_range(self) -> tuple[int, int]:
        return self._loop

    def set_loop_range(self, start: int, end: int) -> None:
        """Loop from ``start`` to ``end`` (inclusive), kept inside the timeline range."""
        tl = self.doc.project.timeline
        start = int(np.clip(int(round(start)), tl.start, tl.end))
        end = int(np.clip(int(round(end)), start, tl.end))
        self._loop = (start, end)
        self._draw_loop()

    def _playing_changed(self):
        playing = self.is_playing()
        self.play_action.setChecked(playing)
        self.play_action.setText("Pause" if playing else "Play")
        self.play_action.setIcon(self.style().standardIcon(QStyle.SP_MediaPause if playing else QStyle.SP_MediaPlay))
        self.playingChanged.emit(playing)

    def _tick(self):
        lo, hi = self._loop
        advanced = int(self._clock.elapsed() * self.doc.project.timeline.fps * self.speed / 1000.0)
        self.doc.set_frame(lo + (self._play_from - lo + advanced) % (hi - lo + 1))

    def _jump(self, end):
        self.pause()
        self.doc.set_frame(self._loop[end])
