"""Structural edits of a Project, as pure functions: each takes a Project and returns a
new one (or raises :class:`CommandError` with a message for the user).

Qt-free on purpose: the views call these, then hand the result to ``doc.apply``.
Angles are radians, lengths and positions model units (y-up), like the model.
"""
from rigeditor.edits.common import (  # noqa: F401 - the package's API
    KINDS, SELECTABLE, CommandError, names_of, unique_name, numbered_name, rename, set_value, delete,
    delete_items,
)
from rigeditor.edits.bones import (  # noqa: F401 - the package's API
    descendants, add_bone, parent_frame_at, add_bone_between, reparent_bone,
    chains_using_bones, delete_bone, delete_bone_message, set_bone_length,
)
from rigeditor.edits.chains import (  # noqa: F401 - the package's API
    default_solver, solvers_for, chain_run, add_chain, set_chain_solver,
    set_solver_settings, delete_chain, delete_target, flip_bend, redeclare_target_space,
)
from rigeditor.edits.spaces import (  # noqa: F401 - the package's API
    add_space, space_children, space_descendants, targets_in_space, remove_space, reparent_space,
)
from rigeditor.edits.art import (  # noqa: F401 - the package's API
    set_placement, show_attachment, bind_slot, rehome_slots, renamed_bone_in_slots, restack_slot,
    delete_slot,
)
from rigeditor.edits.meshes import (  # noqa: F401 - the package's API
    default_bones, make_mesh, recompute_weights, bind_point, vertex_to_image, move_vertex,
    add_vertex, delete_vertex, paint_stroke,
)
