"""The central scene: the rig drawn from the Bake at the current frame, target and
bone drags that edit through the Document, and the solver's overlays."""
from rigeditor.app.scene.view import SceneView

OVERLAY_NAMES = SceneView.OVERLAY_NAMES

__all__ = ["SceneView", "OVERLAY_NAMES"]
