"""The slot colour section: the blend mode, the light colour and its alpha, two-colour
tint and the dark colour. In Setup mode they set the setup colour; in Animate mode a
picked colour keys the slot at the current frame (``edits.slot_color``). The swatches
show the colour at the current frame, as evaluated."""
from __future__ import annotations

from PySide6.QtGui import QColor, QIcon, QPixmap

from rigeditor import edits
from rigeditor.model.data.slot_color import BLENDS, DARK, LIGHT


def slot_color_section(f, name: str) -> None:
    doc = f.doc
    setup = doc.mode == "setup"
    form = f.group(f"Colour · {name}")

    def slot():
        return doc.project.art.slot(name)

    def now():
        """(light RGBA, dark RGB) at the current frame."""
        art, s = doc.bake.art if doc.bake is not None else None, slot()
        if art is not None and name in art.slots and art.color is not None:
            k = art.slots.index(name)
            return tuple(map(float, art.color[doc.row, k])), tuple(map(float, art.dark[doc.row, k]))
        return (tuple(getattr(s, c).value_at(doc.frame)[0] for c in LIGHT),
                tuple(getattr(s, c).value_at(doc.frame)[0] for c in DARK))

    def change(label, light=None, dark=None):
        if setup:
            build = lambda: edits.set_slot_color(doc.project, name, light, dark=dark)  # noqa: E731
        else:
            build = lambda: edits.key_slot_color(doc.project, name, doc.frame, light, dark=dark)  # noqa: E731
        f.command("Slot colour", f"{label} {name}" + ("" if setup else f" at frame {doc.frame}"), build)

    f.combo(form, "Blend", f"slot.{name}.blend", [b.capitalize() for b in BLENDS], slot().blend,
            lambda v: f.command("Blend", f"Blend {name}: {v}",
                                lambda: edits.set_slot_color(doc.project, name, blend=v)), data=list(BLENDS))

    def pick_light(_checked=False):
        light, _ = now()
        rgb = f.dialogs.color(f.owner, f"Colour of {name}", light[:3])
        if rgb is not None:
            change("Colour", light=(*map(float, rgb), light[3]))

    light_button = f.button(form, "", f"slot.{name}.color", pick_light, "Colour")
    light_button.setToolTip("Multiplies the slot's pictures (with their own tint)"
                            + ("" if setup else "; keys the colour at this frame"))
    f.spin(form, "Alpha", f"slot.{name}.alpha", 0.0, 100.0, lambda: now()[0][3],
           lambda v: change("Alpha", light=(*now()[0][:3], v)), suffix=" %", scale=100.0, decimals=0)
    f.combo(form, "Two-colour tint", f"slot.{name}.two_color", ["Off", "On (dark colour)"], slot().dark,
            lambda v: f.command("Two-colour tint", f"Two-colour tint {'on' if v else 'off'}: {name}",
                                lambda: edits.set_slot_color(doc.project, name, two_color=v)), data=[False, True])

    def pick_dark(_checked=False):
        _, dark = now()
        rgb = f.dialogs.color(f.owner, f"Dark colour of {name}", dark)
        if rgb is not None:
            change("Dark colour", dark=tuple(map(float, rgb)))

    dark_button = f.button(form, "", f"slot.{name}.dark", pick_dark, "Dark colour")
    dark_button.setToolTip("The colour the picture's darkest parts take on (Spine's two-colour tint)")

    def show():
        light, dark = now()
        for button, rgb in ((light_button, light[:3]), (dark_button, dark)):
            swatch = QPixmap(14, 14)
            swatch.fill(QColor.fromRgbF(*(min(max(c, 0.0), 1.0) for c in rgb)))
            button.setIcon(QIcon(swatch))
            button.setText("#" + "".join(f"{round(min(max(c, 0.0), 1.0) * 255):02x}" for c in rgb))
        dark_button.setEnabled(slot().dark)
    f.on_sync(show)


__all__ = ["slot_color_section"]
