"""The cycle collector kept off what the editor holds for good, and the interpreter
lock handed back to the UI thread quickly.

The open editor holds about 200,000 long-lived objects (Qt wrappers, modules, the
project's model, the views' caches). Python's collector walks all of them on each
oldest-generation collection: 70-80 ms on an imported production rig, landing on one
mouse move of a drag every few seconds as a visible stall. Once a project is open and
shown, what exists is moved out of those walks (``gc.freeze``); the next opening lets
the previous project's objects back in and collects them first, so a closed project's
reference cycles are still freed. Objects made while editing stay collectable as usual.

The range worker and the seam reducer run Python on their own threads. A thread that
holds the interpreter lock keeps it for the switch interval (5 ms by default) before a
waiting thread gets it, so a mouse move could wait up to that long at any call into
Qt; the editor asks for 1 ms.
"""
from __future__ import annotations

import gc
import sys

SWITCH_INTERVAL_S = 0.001


def settle() -> None:
    """Collect everything (the previous project's cycles included), then keep what is
    left out of later collections' walks. About one full collection's time (tens of ms
    with a production rig open): call it where a pause goes unnoticed, after an opening."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def follow(doc, schedule) -> None:
    """Settle once now-ish and after each project ``doc`` opens (its path changes on
    New, Open, Recover and Save As). ``schedule(fn)`` runs ``fn`` once the event loop
    is idle again (``QTimer.singleShot(0, fn)``), after the views have drawn it."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    schedule(settle)
    doc.pathChanged.connect(lambda: schedule(settle))
