"""The slot section: the bone it rides (binding keeps the picture in place), the
attachment shown (keyed, stepped, in Animate mode) and the shown picture's placement
in the bone's frame and its tint (Setup mode); the slot's name (unique, renamed in
the draw-order keys too)."""
from __future__ import annotations

from PySide6.QtGui import QColor, QIcon, QPixmap

from rigeditor import edits
from rigeditor.app.inspector.fields import DEG
from rigeditor.model.data.attachments import NONE
from rigeditor.model.data.skins import names_of, shown_skin


def slot_section(f, name: str) -> None:
    doc, p = f.doc, f.doc.project
    slot = p.art.slot(name)
    setup = doc.mode == "setup"
    form = f.group(f"Slot · {name}")
    f.name_edit(form, "slot", name)
    bones = [None] + [b.name for b in p.bones]
    f.combo(form, "Bone", f"slot.{name}.bone", ["(none: character)"] + bones[1:], slot.bone,
            lambda v: f.command("Bind", f"Bind {name} to {v or 'character'}",
                                lambda: edits.bind_slot(doc.project, name, v, doc.bake, doc.row)),
            data=bones)
    names = [NONE] + names_of(slot.attachments)  # each name once, whichever skins have it
    shown = slot.attachment.value_at(doc.frame)
    f.combo(form, "Attachment", f"slot.{name}.attachment", ["(none)"] + names[1:], shown,
            lambda v: f.command("Attachment", f"Show {v or 'nothing'} in {name}",
                                lambda: edits.show_attachment(doc.project, name, v, doc.frame,
                                                                 animate=not setup)),
            data=names)

    for text, step in (("Send backward", -1), ("Bring forward", +1)):
        f.button(form, text, f"slot.{name}.{'back' if step < 0 else 'front'}",
                 lambda _c=False, step=step: f.command(
                     "Draw order", f"{text_of(step)} {name}",
                     lambda: edits.restack_slot(doc.project, name, step, doc.frame, animate=not setup)),
                 "Draw order" if step < 0 else "")

    def follow_frame():
        # Another frame shows another picture: the section is rebuilt for it.
        s = doc.project.art.slot(name) if name in [x.name for x in doc.project.art.slots] else None
        if s is not None and s.attachment.value_at(doc.frame) != shown:
            f.refresh_later()
    f.on_sync(follow_frame)
    if shown == NONE:
        return
    skin = shown_skin(slot.attachments, shown, p.art.active_skins)  # the one the active skins show
    a = slot.find(shown, skin)
    tip = "" if setup else "Placement in the bone: switch to Setup mode to edit"

    def att():
        s = doc.project.art.slot(name)
        return s.find(shown, skin) if shown in [x.name for x in s.attachments] else a

    def place(label, **changes):
        try:
            new = edits.set_placement(doc.project, name, shown, **changes)
        except edits.EditError:
            f.refresh_later()
            return
        f.apply(f"{label} {shown}", new, None, f"slots.{name}.{shown}.{label}")

    def set_offset(i, v):
        xy = [att().x, att().y]
        xy[i] = v
        place("Move", x=xy[0], y=xy[1])

    f.vector(form, "Offset", f"slot.{name}.offset", -1e5, 1e5, lambda: (att().x, att().y), set_offset,
             enabled=setup)
    f.spin(form, "Rotation", f"slot.{name}.rotation", -360.0, 360.0, lambda: att().rotation,
           lambda v: place("Rotate", rotation=v), suffix="°", scale=DEG, decimals=1, enabled=setup, tip=tip)

    def set_scale(i, v):
        sc = list(att().scale)
        sc[i] = v
        place("Scale", scale=tuple(sc))

    f.vector(form, "Scale", f"slot.{name}.scale", -100.0, 100.0, lambda: att().scale, set_scale,
             enabled=setup, decimals=3)
    f.spin(form, "Opacity", f"slot.{name}.opacity", 0.0, 100.0, lambda: att().opacity,
           lambda v: place("Fade", opacity=v), suffix=" %", scale=100.0, decimals=0, enabled=setup, tip=tip)

    def pick_tint(_checked=False):
        tint = att().tint
        rgb = f.dialogs.color(f.owner, f"Tint of {shown}", tint[:3])
        if rgb is not None:  # one undo step per colour picked
            f.command("Tint", f"Tint {shown}", lambda: edits.set_placement(
                doc.project, name, shown, tint=(*(float(c) for c in rgb), tint[3])))

    button = f.button(form, "", f"slot.{name}.tint", pick_tint, "Tint")
    button.setEnabled(setup)
    button.setToolTip(tip or "Multiply the picture's colours (white: as painted)")

    def show_tint():
        r, g, b = (min(max(c, 0.0), 1.0) for c in att().tint[:3])
        swatch = QPixmap(14, 14)
        swatch.fill(QColor.fromRgbF(r, g, b))
        button.setIcon(QIcon(swatch))
        button.setText("white (as painted)" if (r, g, b) == (1.0, 1.0, 1.0) else
                       f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    f.on_sync(show_tint)


def text_of(step: int) -> str:
    return "Bring forward" if step > 0 else "Send backward"
