"""Spine 4.x: the reader (skeleton JSON and atlas -> Project) and the writer (Bake -> JSON, atlas) side by side."""
