"""Pose tools for the Animate menu: copy and paste the selected bones' pose at the
playhead, mirror it across left/right names, reset it to the setup pose. Each edit
is one undoable command (``model.pose_tools`` builds the projects)."""
from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence

from rigeditor.edits import pose_tools

_POSE: list = [None]  # the copied pose, kept across frames, animations and projects


class PoseActions:
    """copy_action, paste_action, mirror_action, reset_action (window-wide keys)."""

    def __init__(self, doc, parent, status):
        self.doc, self._status = doc, status

        def act(text, key, slot, tip):
            a = QAction(text, parent)
            a.setShortcut(QKeySequence(key))
            a.setStatusTip(tip)
            a.triggered.connect(lambda _checked=False: slot())
            return a

        self.copy_action = act("Copy pose", "Ctrl+Shift+C", self.copy, "Copy the selected bones' pose at this frame")
        self.paste_action = act("Paste pose", "Ctrl+Shift+V", self.paste, "Key the copied pose at this frame")
        self.mirror_action = act("Mirror pose", "Ctrl+Shift+M", self.mirror,
                                 "Swap the pose of the selected bones with their other side (_l/_r, Left/Right)")
        self.reset_action = act("Reset to setup pose", "Ctrl+Shift+R", self.reset,
                                "Key the selected bones in their setup pose at this frame")

    def actions(self) -> list[QAction]:
        return [self.copy_action, self.paste_action, self.mirror_action, self.reset_action]

    def _bones(self) -> list[str]:
        bones = self.doc.selected("bone")
        if not bones:
            self._status("Select bones for the pose tools")
        return bones

    def copy(self) -> None:
        bones = self._bones()
        if bones:
            _POSE[0] = pose_tools.copy_pose(self.doc.project, bones, self.doc.frame)
            self._status(f"Copied the pose of {len(bones)} bone{'s' * (len(bones) != 1)}")

    def paste(self) -> None:
        if not _POSE[0]:
            self._status("No pose copied")
            return
        frame = self.doc.frame
        project = pose_tools.paste_pose(self.doc.project, _POSE[0], frame)
        self.doc.apply(f"Paste pose at frame {frame}", project, touched={f"bone:{b}" for b in _POSE[0]})

    def mirror(self) -> None:
        bones = self._bones()
        if bones:
            frame = self.doc.frame
            project = pose_tools.mirror_pose(self.doc.project, bones, frame)
            if project is self.doc.project:
                self._status("No bone of the selection has an other side (_l/_r, Left/Right)")
                return
            self.doc.apply(f"Mirror pose at frame {frame}", project)

    def reset(self) -> None:
        bones = self._bones()
        if bones:
            frame = self.doc.frame
            self.doc.apply(f"Reset {len(bones)} bone{'s' * (len(bones) != 1)} to the setup pose at frame {frame}",
                           pose_tools.reset_pose(self.doc.project, bones, frame), touched={f"bone:{b}" for b in bones})
