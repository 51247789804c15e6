"""The bone section: name, parent, rest pose (Setup mode), FK rotation, translate and
scale (keyed in Animate mode)."""
from __future__ import annotations

from rigeditor import edits
from rigeditor.app.inspector.fields import DEG


def bone_section(f, name: str) -> None:
    doc, p = f.doc, f.doc.project
    bone = p.bone(name)
    setup = doc.mode == "setup"
    form = f.group(f"Bone · {name}")
    f.name_edit(form, "bone", name)
    below = set(edits.descendants(p, name)) | {name}
    parents = [None] + [b.name for b in p.bones if b.name not in below]
    f.combo(form, "Parent", f"bone.{name}.parent", ["(root: character)"] + parents[1:],
            bone.parent, lambda v: reparent_bone(f, name, v), data=parents)
    rest_tip = "" if setup else "Rest pose: switch to Setup mode to edit"
    chain = p.chain_of_bone(name)
    at_tip = chain is not None and chain.bones.index(name) > 0
    b = lambda: doc.project.bone(name)  # noqa: E731

    def set_len(v):
        try:
            new = edits.set_bone_length(doc.project, name, v)
        except edits.EditError:
            return
        f.apply(f"Set length of {name}", new, None, f"bones.{name}.length")
    f.spin(form, "Length", f"bone.{name}.length", 0.01, 1e5, lambda: b().length, set_len,
           suffix=" u", enabled=setup, tip=rest_tip)

    def set_offset(i, v):
        off = list(b().rest_offset)
        off[i] = v
        f.apply(f"Move {name}", doc.project.with_bone(name, rest_offset=tuple(off)), None,
                f"bones.{name}.rest_offset")
    f.vector(form, "Rest offset", f"bone.{name}.rest_offset", -1e5, 1e5, lambda: b().rest_offset,
             set_offset, enabled=setup and not at_tip)
    f.spin(form, "Rest rotation", f"bone.{name}.rest_rotation", -360.0, 360.0,
           lambda: b().rest_rotation,
           lambda v: f.apply(f"Rotate {name} (rest)", doc.project.with_bone(name, rest_rotation=v),
                             None, f"bones.{name}.rest_rotation"),
           suffix="°", scale=DEG, decimals=1, enabled=setup, tip=rest_tip)
    path = ("bone", name, "rotation")
    f.spin(form, "FK rotation", f"bone.{name}.rotation", -720.0, 720.0,
           lambda: b().rotation.value_at(doc.frame)[0],
           lambda v: f.apply(f"Key rotation of {name}",
                             edits.set_value(doc.project, path, doc.frame, v, key=True), None,
                             f"bones.{name}.rotation@{doc.frame}"),
           suffix="°", scale=DEG, decimals=1, key_path=path, enabled=not setup,
           tip="Animated rotation on top of the rest pose (keys in Animate mode)")
    for attr, label, lo, hi, allowed in (("translate", "Translate", -1e5, 1e5, chain is None or not at_tip),
                                         ("scale", "Scale", -1e3, 1e3, chain is None or chain.solver == "aim")):
        _keyed_vector(f, form, name, attr, label, lo, hi, enabled=not setup and allowed)
    if chain is not None:
        f.select_link(form, "Driven by IK", "chain", chain.name)
    if f.rig_actions is not None:
        f.button(form, "Add child bone…", f"bone.{name}.add_child",
                 lambda: f.rig_actions.add_child_bone(name))


def reparent_bone(f, name, parent) -> None:
    f.command("Reparent", f"Reparent {name} to {parent or 'root'}",
              lambda: edits.reparent_bone(f.doc.project, name, parent))


def _keyed_vector(f, form, name, attr, label, lo, hi, *, enabled) -> None:
    """Two spins keying the bone's ``attr`` (translate, scale) at the current frame.
    A bone an IK chain drives cannot be scaled (and past its first bone, translated)."""
    doc = f.doc
    path = ("bone", name, attr)

    def set_(i, v):
        if attr == "scale" and abs(v) < 1e-6:  # a zero scale collapses the bone: not a pose
            f.refresh_later()
            return
        value = list(getattr(doc.project.bone(name), attr).value_at(doc.frame))
        value[i] = v
        f.apply(f"Key {attr} of {name}", edits.set_value(doc.project, path, doc.frame, value, key=True),
                None, f"bones.{name}.{attr}@{doc.frame}")
    f.vector(form, label, f"bone.{name}.{attr}", lo, hi, lambda: getattr(doc.project.bone(name), attr).value_at(doc.frame),
             set_, key_path=path, enabled=enabled, decimals=3 if attr == "scale" else 2,
             step=0.05 if attr == "scale" else 1.0)
