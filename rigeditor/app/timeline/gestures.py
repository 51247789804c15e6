"""Key picking and mouse gestures of the timeline's rows: click to select or set the
frame, drag keys to retime them (one undo step), drag on empty rows to box-select."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt

from rigeditor.edits.tracks import clamp_delta, move_keys, touched

HIT_PX = 7  # how near (pixels) a click must be to a key to take it


class KeyGestures:
    """Mixed into TimelineWidget, whose rows (``_tracks``), selection (``_selected``,
    ``_set_selection``), rubber band (``_band``) and views it uses."""

    def _key_at(self, pos: QPointF):
        row = int(round(pos.y()))
        if not 0 <= row < len(self._tracks) or not self._tracks[row].frames:
            return None
        t = self._tracks[row]
        frames = np.array(t.frames, float)
        i = int(np.argmin(np.abs(frames - pos.x())))
        if abs(frames[i] - pos.x()) <= HIT_PX * self.track_view.viewPixelSize()[0]:
            return t.path, float(t.frames[i])
        return None

    def _click(self, pos: QPointF, modifiers):
        key = self._key_at(pos)
        add = bool(modifiers & (Qt.ShiftModifier | Qt.ControlModifier))
        if key is None:
            if not add:
                self._set_selection(set())
            self.doc.set_frame(pos.x())
        elif add:
            self._set_selection(self._selected ^ {key})
        else:
            self._set_selection({key})

    def _drag_event(self, ev, pos: QPointF, start: QPointF):
        if ev.isStart():
            key = self._key_at(start)
            add = bool(ev.modifiers() & (Qt.ShiftModifier | Qt.ControlModifier))
            if key is None:
                self._dragging = {"box": start, "base": set(self._selected) if add else set()}
            else:
                if key not in self._selected:
                    self._set_selection((self._selected | {key}) if add else {key})
                self._dragging = {"keys": self.selected_keys(), "project": self.doc.project, "anchor": key[1],
                              "delta": 0, "merge": ("retime keys", self.doc.begin_gesture())}
        d = self._dragging
        if d is None:
            return
        if "box" in d:
            rect = QRectF(d["box"], pos).normalized()
            self._band.setRect(rect)
            self._band.show()
            inside = {(t.path, f) for row, t in enumerate(self._tracks) if rect.top() <= row <= rect.bottom()
                      for f in t.frames if rect.left() <= f <= rect.right()}
            self._set_selection(d["base"] | inside)
        else:
            tl = self.doc.project.timeline
            delta = clamp_delta(d["keys"], int(round(pos.x() - d["anchor"])), tl.start, tl.end)
            if delta != d["delta"]:
                d["delta"] = delta
                # A moved key lands on a whole frame (move_keys snaps), a key between frames too.
                self._selected = {(p, float(round(f + delta)) if delta else f) for p, fs in d["keys"].items()
                                  for f in fs}
                n = sum(map(len, d["keys"].values()))
                self.doc.apply(f"Retime {n} key{'s' * (n != 1)}", move_keys(d["project"], d["keys"], delta),
                               touched=touched(d["keys"]), merge_key=d["merge"])
                self._draw_keys()
        if ev.isFinish():
            self._band.hide()
            if "merge" in d:
                self.doc.end_gesture()
            self._dragging = None
