"""The command line: ``rigeditor [PROJECT]`` opens the editor; subcommands run headless.

    rigeditor [PROJECT] [editor options]       open the editor (the arm example by default)
    rigeditor bake PROJECT -o OUT [--format csv|json|spine|png] [--frames START:END] [--radians]
    rigeditor validate PROJECT
    rigeditor report PROJECT [--json] [--frames START:END]
    rigeditor render PROJECT --frame N -o OUT.png [--size WxH]
    rigeditor import-psd ART.psd -o PROJECT [--force]
    rigeditor import-images DIR -o PROJECT [--force]
    rigeditor --version

Every subcommand evaluates through ``rigeditor.model.evaluate`` and reads the Bake.
Exit status: 0 done; 1 ``report`` found an unexplained residual or an unkeyed elbow
flip, or ``validate`` found a missing or unreadable image (the project itself is
valid); 2 an error, reported on stderr as ``rigeditor: FILE: where: what`` (never a
traceback; RIGEDITOR_DEBUG=1 shows one for internal errors). Outputs are written
atomically or not at all. Only ``render`` and PNG bakes load Qt (offscreen, lazily).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

from rigeditor.core.memory import tune_allocator
from rigeditor import __version__
from rigeditor.io.atomic import export_write
from rigeditor.io.errors import ProjectFileError, SHOWN
from rigeditor.io.export_csv import export_curves_csv
from rigeditor.io.export_json import DEFAULT_TOLERANCE_DEG, export_curves_json
from rigeditor.io.export_spine import export_spine_json
from rigeditor.io.images import alpha_masks, image_problems
from rigeditor.io.progress import Progress
from rigeditor.io.project_file import load_project
from rigeditor.io.report import build_report, format_report
from rigeditor.model import evaluate
from rigeditor.model.cracks import crack_check

COMMANDS = ("bake", "validate", "report", "render", "import-psd", "import-images")
FORMATS = {".csv": "csv", ".json": "json", ".png": "png"}


class _Usage(ProjectFileError):
    """A bad argument, reported like a file problem: ``rigeditor: FILE: --option: what``."""


def main(argv=None) -> int:
    """Run the command line with ``argv`` (default: sys.argv[1:]); returns the exit status."""
    argv = sys.argv[1:] if argv is None else [str(a) for a in argv]
    tune_allocator()
    if not argv or argv[0] not in COMMANDS + ("--version", "-h", "--help"):
        # The editor: everything is passed through (a project, an example name, its options).
        from rigeditor.app.main import run  # lazily: the headless commands never load Qt

        return run(argv)
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version, usage errors (argparse printed them)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    try:
        return args.run(args)
    except ProjectFileError as exc:
        _print_problems(exc, limit=None if args.command == "validate" else SHOWN)
        return 2
    except KeyboardInterrupt:
        print("rigeditor: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: say so in one line, keep the traceback for debugging
        if os.environ.get("RIGEDITOR_DEBUG"):
            raise
        print(f"rigeditor: {args.project}: internal error: {type(exc).__name__}: {exc} "
              "(please report it; RIGEDITOR_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="rigeditor", description="RigEditor. Without a command, opens the editor: "
        "rigeditor [PROJECT] [editor options] (rigeditor PROJECT --help lists them).")
    p.add_argument("--version", action="version", version=f"rigeditor {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    bake = sub.add_parser("bake", help="evaluate and export curves (CSV, JSON), Spine JSON or a PNG plot")
    bake.add_argument("project", metavar="PROJECT")
    bake.add_argument("-o", "--output", required=True, metavar="OUT",
                      help="output file; its extension (.csv, .json, .png) picks the format")
    bake.add_argument("--format", choices=("csv", "json", "spine", "png"),
                      help="override the format (Spine JSON needs --format spine)")
    _frames_option(bake)
    bake.add_argument("--radians", action="store_true", help="angles in radians instead of degrees")
    bake.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE_DEG, metavar="DEG",
                      help=f"JSON key reduction tolerance in degrees (default {DEFAULT_TOLERANCE_DEG})")
    bake.set_defaults(run=_bake)

    val = sub.add_parser("validate", help="check a project file; one line per problem")
    val.add_argument("project", metavar="PROJECT")
    val.set_defaults(run=_validate)

    rep = sub.add_parser("report", help="per chain: residuals and causes, limits, flips, drift; "
                         "exit 1 on an unexplained residual or an unkeyed elbow flip")
    rep.add_argument("project", metavar="PROJECT")
    rep.add_argument("--json", action="store_true", help="print the report as JSON")
    _frames_option(rep)
    rep.set_defaults(run=_report)

    ren = sub.add_parser("render", help="draw the solved pose of one frame to a PNG (no window)")
    ren.add_argument("project", metavar="PROJECT")
    ren.add_argument("--frame", required=True, type=int, metavar="N")
    ren.add_argument("-o", "--output", required=True, metavar="OUT.png")
    ren.add_argument("--size", default="800x600", metavar="WxH", help="image size in pixels (800x600)")
    ren.set_defaults(run=_render)

    for name, what, run in (("import-psd", "ART.psd", _import_psd), ("import-images", "DIR", _import_images)):
        imp = sub.add_parser(name, help=f"a new project from a layered picture ({what}): "
                             "one slot per layer, placed as in the picture")
        imp.add_argument("project", metavar=what)  # named like the others for error lines
        imp.add_argument("-o", "--output", required=True, metavar="PROJECT")
        imp.add_argument("--force", action="store_true", help="replace an existing project (and images)")
        imp.set_defaults(run=run)
    return p


def _frames_option(p) -> None:
    p.add_argument("--frames", metavar="START:END",
                   help="inclusive frame range (default: the project's timeline); either end may be left out")


# ---------------------------------------------------------------------- commands

def _bake(args) -> int:
    out = Path(args.output)
    fmt = args.format or FORMATS.get(out.suffix.lower())
    if fmt is None:
        raise _Usage(out, [f"-o: cannot tell the format from {out.suffix or 'no extension'!r}: "
                           "use .csv, .json or .png, or --format spine"])
    if args.radians and fmt == "spine":
        raise _Usage(out, ["--radians: Spine JSON is always in degrees"])
    progress = Progress()
    try:
        project = load_project(args.project)
        frames = _frames(args.frames, project, args.project)
        progress(0.02, "evaluating")
        bake = evaluate(project, frames)
        stage = progress.stage(0.5, 1.0, f"writing {out.name}")
        if fmt == "csv":
            export_curves_csv(project, bake, out, radians=args.radians, progress=stage)
        elif fmt == "json":
            export_curves_json(project, bake, out, radians=args.radians, tolerance_deg=args.tolerance,
                               progress=stage)
        elif fmt == "spine":
            export_spine_json(project, bake, out, progress=stage, images=Path(args.project).parent)
        else:
            _qt_offscreen()
            from rigeditor.app.plot_export import plot_png

            export_write(out, plot_png(project.name, bake, radians=args.radians))
    finally:
        progress.done()
    return 0


def _validate(args) -> int:
    project = load_project(args.project)
    tl = project.timeline
    counts = ", ".join(_count(n, word) for n, word in (
        (len(project.bones), "bone"), (len(project.chains), "chain"), (len(project.targets), "target"),
        (_key_count(project), "key")))
    counts += f", {_count(len(project.art.slots), 'slot')}" if project.art.slots else ""
    print(f"{args.project}: valid: {counts}, frames {tl.start}-{tl.end} at {tl.fps:g} fps")
    found = image_problems(project, Path(args.project).parent)
    for problem in found:
        print(f"rigeditor: {args.project}: {problem}", file=sys.stderr)
    return 1 if found else 0


def _report(args) -> int:
    project = load_project(args.project)
    bake = evaluate(project, _frames(args.frames, project, args.project))
    cracks = crack_check(project, bake, alpha_masks(project, Path(args.project).parent)) if bake.art else ()
    report = build_report(bake, name=str(args.project), cracks=cracks)
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0 if report["ok"] else 1


def _render(args) -> int:
    out = Path(args.output)
    if out.suffix.lower() != ".png":
        raise _Usage(out, [f"-o: render writes PNG images; use a .png name, got {out.name!r}"])
    size = _size(args.size, args.project)
    project = load_project(args.project)
    tl = project.timeline
    if not tl.start <= args.frame <= tl.end:
        raise _Usage(args.project, [f"--frame: {args.frame} is outside the timeline ({tl.start}-{tl.end})"])
    # The whole timeline is evaluated: smoothing and holds depend on earlier frames.
    bake = evaluate(project)
    _qt_offscreen()
    from rigeditor.app.render import render_png

    export_write(out, render_png(bake, bake.index(args.frame), size=size,
                                 art=(project, Path(args.project).parent)))
    return 0


def _import_psd(args) -> int:
    from rigeditor.io.import_psd import import_psd

    folder = import_psd(args.project, args.output, force=args.force)
    print(f"{args.output}: imported {args.project} (images in {folder})")
    return 0


def _import_images(args) -> int:
    from rigeditor.io.import_images import import_images

    import_images(args.project, args.output, force=args.force)
    print(f"{args.output}: imported the images of {args.project}")
    return 0


# ----------------------------------------------------------------------- helpers

def _frames(text, project, where):
    """The frames to evaluate: the timeline, or ``START:END`` (inclusive) within any range."""
    tl = project.timeline
    if text is None:
        return None
    start, sep, end = text.partition(":")
    try:
        lo = int(start) if start.strip() else tl.start
        hi = int(end) if end.strip() else tl.end
    except ValueError:
        lo = hi = None
    if not sep or lo is None or hi < lo:
        raise _Usage(where, [f"--frames: expected START:END with integers and START <= END, got {text!r}"])
    return np.arange(lo, hi + 1, dtype=float)


def _size(text, where) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    if w.isdigit() and h.isdigit() and 16 <= int(w) <= 8192 and 16 <= int(h) <= 8192:
        return int(w), int(h)
    raise _Usage(where, [f"--size: expected WIDTHxHEIGHT in pixels (16 to 8192), got {text!r}"])


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _key_count(project) -> int:
    channels = [c for s in project.spaces for c in (s.position, s.rotation, s.scale)]
    channels += [b.rotation for b in project.bones] + [t.position for t in project.targets]
    channels += [c for ch in project.chains for c in (ch.bend, ch.softness, ch.mix)]
    return sum(len(c.keys) for c in channels) + sum(len(t.space.keys) for t in project.targets)


def _qt_offscreen() -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _print_problems(exc: ProjectFileError, limit=None) -> None:
    shown = exc.problems if limit is None else exc.problems[:limit]
    for problem in shown:
        print(f"rigeditor: {exc.path}: {problem}", file=sys.stderr)
    more = len(exc.problems) - len(shown)
    if more:
        print(f"rigeditor: {exc.path}: ... and {more} more (rigeditor validate lists them all)",
              file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
