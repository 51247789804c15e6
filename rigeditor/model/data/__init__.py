"""The project's data: plain, immutable dataclasses (rig, spaces, timeline, clips, attachments, meshes)."""
