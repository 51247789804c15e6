"""The inspector: every editable field of the selection, with units, and the live
read-outs of the selected chain at the current frame.

Widgets never write the Project: each edit builds a new Project and goes through
``doc.apply`` with a merge key per field, so repeated edits of one field are one undo
step. Units at the edge: degrees, % of chain length, frames, seconds, Hz, model units
(tolerance); radians and fractions inside. Spin boxes only ever hand on finite numbers.

Animatable values follow the mode: in Animate mode an edit keys the value at the
current frame; in Setup mode it changes the default (a value that already has keys is
keyed, as its default would never show). Chain settings (bend, softness, mix) key only
once they have keys (the key button ◆ starts keying them). Rest-pose fields (length,
offset, rest rotation) are Setup-mode fields.

Modules: ``fields`` (widgets and the Form sections build into), ``readouts`` (live
values, shared with the status bar), one module per section (``bone``, ``chain``,
``limits``, ``target``, ``space``, ``project``) and ``widget`` (the Inspector).
"""
from rigeditor.app.inspector.fields import DEG, Form, IntField, KeyButton, SpinField
from rigeditor.app.inspector.readouts import (
    chain_readout, current_chain, joints_at_limit, reach_state,
)
from rigeditor.app.inspector.target import KEEP_WORLD, REDECLARE
from rigeditor.app.inspector.widget import Inspector

__all__ = ["Inspector", "SpinField", "IntField", "KeyButton", "Form", "DEG", "reach_state",
           "current_chain", "chain_readout", "joints_at_limit", "KEEP_WORLD", "REDECLARE"]
