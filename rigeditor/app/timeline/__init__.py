"""The timeline dock: the dope sheet (widget, its graphics items and gestures), key
editing, and the animation list."""
from rigeditor.app.timeline.widget import TimelineWidget

__all__ = ["TimelineWidget"]
