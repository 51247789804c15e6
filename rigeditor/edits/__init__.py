"""Every edit of a Project, as plain functions: the scripting API.

Each edit takes a Project (immutable) and returns a new one, or raises
:class:`EditError` with a message written for the user; no Qt, no files. The editor
wraps each call in one undo command (``rigeditor.app.project_command``); scripts call
them directly (docs/scripting.md). Angles are radians, lengths and positions model
units (y up), frames whole numbers, like the model.

One module a thing edited: ``names`` (unique and numbered names), ``items`` (any item
by kind: rename, set or key a value, delete), ``bones``, ``chains`` (IK chains and
their targets), ``spaces`` (scene objects), ``tracks`` (keyed tracks), ``keys``
(selections of keys: retime, scale, copy, interpolation, handles), ``posing`` and ``pose_tools`` (keying a target, turning a bone,
switching a target's space; copying, mirroring and resetting poses), ``animations``,
``art`` and ``art_bind`` (slots and pictures), ``meshes`` and ``mesh_ops`` (meshes and
their weights). The names below are the public API.
"""
from rigeditor.edits.errors import EditError
from rigeditor.edits.names import KINDS, SELECTABLE, names_of, numbered_name, unique_name
from rigeditor.edits.items import delete, delete_items, rename, set_default, set_value
from rigeditor.edits.bones import (
    add_bone, add_bone_between, chains_using_bones, delete_bone, delete_bone_message, descendants,
    parent_frame_at, reparent_bone, set_bone_length,
)
from rigeditor.edits.chains import (
    add_chain, chain_run, default_solver, delete_chain, delete_target, flip_bend, redeclare_target_space,
    set_chain_solver, set_solver_settings, set_spine_scale, solvers_for,
)
from rigeditor.edits.transforms import add_transform, delete_transform, set_mix, set_transform
from rigeditor.edits.paths import add_path, delete_path, set_path, set_path_value
from rigeditor.edits.physics import add_physics, delete_physics, set_physics, set_physics_value
from rigeditor.edits.spaces import (
    add_space, remove_space, reparent_space, space_children, space_descendants, targets_in_space,
)
from rigeditor.edits.tracks import delete_keys, key_item, keyed_tracks, move_keys, set_key
from rigeditor.edits.keys import copy_keys, paste_keys, retime, scale_keys, set_handle, set_interpolation
from rigeditor.edits.posing import set_target_key, switch_target_space, turn_bone
from rigeditor.edits.pose_tools import copy_pose, mirror_pose, paste_pose, reset_pose
from rigeditor.edits.animations import (
    add as add_animation, delete as delete_animation, duplicate as duplicate_animation,
    rename as rename_animation, switch as switch_animation,
)
from rigeditor.edits.art import (
    bind_slot, delete_slot, rehome_slots, renamed_bone_in_slots, restack_slot, set_placement,
    show_attachment,
)
from rigeditor.edits.skins import set_active_skins
from rigeditor.edits.deform import delete_deform_key, key_vertex, set_deform_key
from rigeditor.edits.slot_color import key_slot_color, set_slot_color
from rigeditor.edits.events import (
    add_event, add_event_key, delete_event, delete_event_key, move_event_key, set_event, set_event_key,
)
from rigeditor.edits.meshes import (
    add_vertex, bind_point, default_bones, delete_vertex, make_mesh, move_vertex, paint_stroke,
    recompute_weights, vertex_to_image,
)

__all__ = [
    "EditError",
    "key_slot_color", "set_slot_color",
    "add_event", "add_event_key", "delete_event", "delete_event_key", "move_event_key", "set_event",
    "set_event_key",
    # names and deletion
    "add_transform", "delete_transform", "set_mix", "set_transform",
    "add_path", "delete_path", "set_path", "set_path_value",
    "add_physics", "delete_physics", "set_physics", "set_physics_value",
    "KINDS", "SELECTABLE", "names_of", "numbered_name", "rename", "unique_name", "delete", "delete_items",
    # the rig
    "add_bone", "add_bone_between", "chains_using_bones", "delete_bone", "delete_bone_message",
    "descendants", "parent_frame_at", "reparent_bone", "set_bone_length",
    "add_chain", "chain_run", "default_solver", "delete_chain", "delete_target", "flip_bend",
    "redeclare_target_space", "set_chain_solver", "set_solver_settings", "set_spine_scale", "solvers_for",
    "add_space", "remove_space", "reparent_space", "space_children", "space_descendants",
    "targets_in_space",
    # values, keys and poses
    "delete_keys", "key_item", "keyed_tracks", "move_keys", "set_key", "set_default", "set_value",
    "copy_keys", "paste_keys", "retime", "scale_keys", "set_handle", "set_interpolation",
    "set_target_key", "switch_target_space", "turn_bone",
    "copy_pose", "mirror_pose", "paste_pose", "reset_pose",
    "add_animation", "delete_animation", "duplicate_animation", "rename_animation", "switch_animation",
    # artwork and meshes
    "bind_slot", "delete_slot", "rehome_slots", "renamed_bone_in_slots", "restack_slot", "set_placement",
    "show_attachment", "set_active_skins",
    "add_vertex", "bind_point", "default_bones", "delete_vertex", "make_mesh", "move_vertex",
    "paint_stroke", "recompute_weights", "vertex_to_image",
    "delete_deform_key", "key_vertex", "set_deform_key",
]
