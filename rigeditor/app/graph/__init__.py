"""The curve editor (graph editor) of the Curves dock."""
from rigeditor.app.graph.editor import GraphEditor

__all__ = ["GraphEditor"]
