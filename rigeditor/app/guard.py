"""No Python exception reaches Qt.

An exception escaping a Python override of a Qt virtual (a QUndoCommand's redo or
undo, paint, an event handler, a model's data()) can kill the process. So every class
of the editor that derives from Qt (or pyqtgraph) takes :class:`Guarded` as its first
base: each method that overrides one of Qt's, wherever in the class's mixins it is
written, is wrapped so that an exception goes to ``sys.excepthook`` and the override
returns a neutral value (nothing painted, the event not handled, an empty rectangle).

Slots need no wrapper: PySide hands every exception raised in a slot to
``sys.excepthook`` itself. :func:`install` points that hook at :func:`report`, which
prints the traceback and shows the message on every registered sink (the main
window's status bar). Under pytest-qt the hook is the test's, so a guarded failure
still fails the test that caused it.

Commands are refused *before* they reach the undo stack (``Document.apply``
evaluates first); the guard here is the net under that, for bugs.
"""
from __future__ import annotations

import functools
import inspect
import sys
import traceback
import weakref

_FOREIGN = ("PySide6", "shiboken6", "Shiboken", "pyqtgraph")
_sinks: list[weakref.WeakMethod] = []


def _neutral(name: str):
    """What a failed override returns: Qt's (or pyqtgraph's) "nothing" for the
    virtuals that return something, None for the rest."""
    from PySide6.QtCore import QRectF, QSize
    from PySide6.QtGui import QPainterPath

    factories = {"boundingRect": QRectF, "shape": QPainterPath, "sizeHint": QSize,
                 "minimumSizeHint": QSize, "id": lambda: -1,
                 "tickStrings": list, "logTickStrings": list, "tickSpacing": list}
    factories.update(dict.fromkeys(("event", "eventFilter", "sceneEvent", "viewportEvent",
                                    "mergeWith"), lambda: False))
    return factories.get(name, lambda: None)()


def _guard(fn, name: str):
    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception:  # noqa: BLE001 - nothing may reach Qt
            sys.excepthook(*sys.exc_info())
            return _neutral(name)

    guarded.__guarded__ = True
    return guarded


def _foreign(klass) -> bool:
    return klass.__module__.startswith(_FOREIGN)


@functools.lru_cache(maxsize=None)
def _qt_names(klass) -> frozenset[str]:
    return frozenset(name for name in vars(klass) if not name.startswith("__"))


class Guarded:
    """First base of a Qt subclass: its overrides of Qt methods never raise."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Only names written in our own classes (a handful) are looked up in Qt's
        # (hundreds), so the editor's ~40 classes cost a few milliseconds in all.
        ours = {name for k in cls.__mro__ if not _foreign(k) for name in vars(k) if not name.startswith("__")}
        qt = [_qt_names(k) for k in cls.__mro__ if _foreign(k)]
        for name in (n for n in ours if any(n in names for names in qt)):
            owner = next(k for k in cls.__mro__ if name in vars(k))
            fn = vars(owner)[name]
            if _foreign(owner) or not inspect.isfunction(fn) or getattr(fn, "__guarded__", False):
                continue
            setattr(cls, name, _guard(fn, name))


def guarded_methods(cls) -> list[str]:
    """Names of ``cls``'s methods that the guard wraps (for tests and review)."""
    return sorted(n for n in dir(cls) if getattr(getattr(cls, n, None), "__guarded__", False))


def add_sink(method) -> None:
    """Show reported errors through ``method(message)`` (a bound method; held weakly)."""
    _sinks.append(weakref.WeakMethod(method))


def report(exc_type, exc, tb) -> None:
    """The editor's ``sys.excepthook``: the traceback on stderr, the message on screen."""
    traceback.print_exception(exc_type, exc, tb, file=sys.stderr)
    message = f"Internal error ({exc_type.__name__}): {exc}. The last action was not completed."
    for ref in list(_sinks):
        sink = ref()
        if sink is None:
            _sinks.remove(ref)
            continue
        try:
            sink(message)
        except Exception:  # noqa: BLE001 - a sink on a closed window
            _sinks.remove(ref)


def install() -> None:
    """Route every exception Qt would otherwise meet to :func:`report`."""
    sys.excepthook = report
