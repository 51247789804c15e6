"""The one error type of the file layer: which file, and every problem in it."""
from __future__ import annotations

SHOWN = 20
"""How many problems ``str(error)`` lists before summarising the rest."""


class ProjectFileError(Exception):
    """A file RigEditor cannot read or write.

    path: the file concerned (a project, or an output). problems: every problem found,
    each ``"where: what"`` (``chains[2].softness.default: must be between 0 and 0.5,
    got 3``), in file order where there is one.
    """

    def __init__(self, path, problems: list[str]):
        self.path = str(path) if path is not None else "<memory>"
        self.problems = list(problems) or ["unknown problem"]
        super().__init__(self._text())

    def _text(self) -> str:
        shown = self.problems[:SHOWN]
        more = len(self.problems) - len(shown)
        lines = [f"{self.path}: {p}" for p in shown]
        if more:
            lines.append(f"{self.path}: ... and {more} more problem{'s' if more > 1 else ''}")
        return "\n".join(lines)


class ExportError(ProjectFileError):
    """An export that cannot be produced or written (nothing was written)."""
