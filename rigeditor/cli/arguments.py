"""The command line's arguments: the parser of every subcommand and the checks of the
values given (frame ranges within the timeline, sample rates, sizes), each refused as
``rigeditor: FILE: --option: what`` (:class:`Usage`)."""
from __future__ import annotations

import argparse
import re

from rigeditor import __version__
from rigeditor.io.curves.write_json import DEFAULT_TOLERANCE_DEG
from rigeditor.io.errors import ProjectFileError
from rigeditor.io.report import DEFAULT_GATES, GATES
from rigeditor.model.evaluation.ranges import outside_timeline


class Usage(ProjectFileError):
    """A bad argument, reported like a file problem: ``rigeditor: FILE: --option: what``."""


PROJECT_HELP = "a project file, or the name of a built-in example (rigeditor examples lists them)"
FRAME_OPTIONS = ("--frames", "--frame")
FRAME_VALUE = re.compile(r"-\d*(:-?\d*)?")


def attach_negative_frames(argv: list[str]) -> list[str]:
    """``--frames -50:-40`` as ``--frames=-50:-40``: argparse takes a value that starts
    with '-' (and is not a plain number) for an option, so the space-separated spelling
    of a range before frame 0 was a usage error while the ``=`` one worked."""
    out, i = [], 0
    while i < len(argv):
        if argv[i] in FRAME_OPTIONS and i + 1 < len(argv) and FRAME_VALUE.fullmatch(argv[i + 1]):
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def build_parser(run: dict) -> argparse.ArgumentParser:
    """The parser; ``run``: the function of each command, by its name."""
    p = argparse.ArgumentParser(
        prog="rigeditor", description="RigEditor. Without a command, opens the editor: "
        "rigeditor [PROJECT] [editor options] (rigeditor PROJECT --help lists them).")
    p.add_argument("--version", action="version", version=f"rigeditor {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    bake = sub.add_parser("bake", help="evaluate and export curves (CSV, JSON), Spine JSON or a PNG plot")
    bake.add_argument("project", metavar="PROJECT", help=PROJECT_HELP)
    bake.add_argument("-o", "--output", required=True, metavar="OUT",
                      help="output file; its extension (.csv, .json, .png) picks the format")
    bake.add_argument("--format", choices=("csv", "json", "spine", "png"),
                      help="override the format (Spine JSON needs --format spine)")
    frames_option(bake)
    bake.add_argument("--animation", action="append", metavar="NAME",
                      help="the animation to bake (repeatable; default: all). Spine JSON holds them "
                           "all in one file; CSV, JSON and PNG write one file per animation, "
                           "OUT_NAME.ext, when there are several")
    bake.add_argument("--radians", action="store_true", help="angles in radians instead of degrees")
    bake.add_argument("--world", action="store_true",
                      help="CSV of every bone's world x, y, rotation, scale x/y and shear per sampled frame")
    bake.add_argument("--fps", type=float, metavar="N",
                      help="sample N times a second (default: the project's fps); samples may fall "
                           "between frames")
    bake.add_argument("--bake-ik", action="store_true",
                      help="Spine JSON: every IK chain baked to rotations, IK mix keyed to 0 (for "
                           "runtimes without IK); by default chains stay live IK constraints")
    bake.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE_DEG, metavar="DEG",
                      help=f"JSON key reduction tolerance in degrees (default {DEFAULT_TOLERANCE_DEG})")
    bake.set_defaults(run=run["bake"])

    val = sub.add_parser("validate", help="check a project file; one line per problem")
    val.add_argument("project", metavar="PROJECT", help=PROJECT_HELP)
    val.set_defaults(run=run["validate"])

    rep = sub.add_parser("report", help="per chain: residuals and causes, limits, flips, drift; per joint: "
                         "cracks and collapse; exit 1 on what --fail-on names")
    rep.add_argument("project", metavar="PROJECT", help=PROJECT_HELP)
    rep.add_argument("--json", action="store_true", help="print the report as JSON")
    frames_option(rep)
    rep.add_argument("--fail-on", default=",".join(DEFAULT_GATES), metavar="CHECKS",
                     help=f"what fails the report (exit 1), comma-separated from {','.join(GATES)}, or none: "
                          "an unexplained residual, an unkeyed elbow flip, a crack open at a joint, a collapsed "
                          f"mesh triangle (default {','.join(DEFAULT_GATES)}; the others are reported only)")
    rep.add_argument("--junit", metavar="OUT.xml",
                     help="also write the result as JUnit XML: a test case per chain and per seam")
    rep.set_defaults(run=run["report"])

    ren = sub.add_parser("render", help="draw the solved pose of one frame to a PNG (no window)")
    ren.add_argument("project", metavar="PROJECT", help=PROJECT_HELP)
    ren.add_argument("--frame", required=True, type=int, metavar="N",
                     help="the frame to draw, within the timeline (all of it is evaluated: smoothing "
                          "and holds depend on earlier frames)")
    ren.add_argument("-o", "--output", required=True, metavar="OUT.png", help="the PNG image to write")
    ren.add_argument("--size", default="800x600", metavar="WxH", help="image size in pixels (800x600)")
    ren.set_defaults(run=run["render"])

    ex = sub.add_parser("examples", help="list the built-in examples (usable wherever a PROJECT is)")
    ex.set_defaults(run=run["examples"])
    for name, what, command, text, arg, output, force in (
            ("import-psd", "ART.psd", run["import-psd"],
             "a new project from a layered Photoshop picture (ART.psd): one slot per visible layer, "
             "placed as in the picture", "the PSD file (a folder of PNGs: use import-images)",
             "the new project file; the layers' pictures go into PROJECT_art/ beside it",
             "replace an existing project (and its PROJECT_art/ pictures)"),
            ("import-images", "DIR", run["import-images"],
             "a new project from a folder of PNG pictures (DIR): one slot per picture, placed by "
             "DIR/layout.json when there is one", "the folder of PNG files (a PSD: use import-psd)",
             "the new project file; it refers to the pictures where they are", "replace an existing project")):
        imp = sub.add_parser(name, help=text, description=text)
        imp.add_argument("project", metavar=what, help=arg)  # named like the others for error lines
        imp.add_argument("-o", "--output", required=True, metavar="PROJECT", help=output)
        imp.add_argument("--force", action="store_true", help=force)
        imp.set_defaults(run=command)
    spine = sub.add_parser("import-spine", help="a new project from a Spine 4.0-4.2 skeleton (JSON + atlas); "
                           "what cannot be imported is listed, one warning per kind")
    spine.add_argument("project", metavar="SKELETON.json", help="the skeleton exported by Spine as JSON")
    spine.add_argument("--atlas", metavar="A.atlas", help="the texture atlas (default: SKELETON.atlas beside it)")
    spine.add_argument("-o", "--output", required=True, metavar="PROJECT",
                       help="the new project file; its pictures go into a folder beside it")
    spine.add_argument("--animation", metavar="NAME",
                       help="the animation to open (default: the first); every animation is imported")
    spine.add_argument("--curves", choices=("authored", "runtime"), default="runtime",
                       help="bezier curves as Spine's runtimes play them (the default: linear keys at the "
                       "corners of the ten pieces a runtime plays; matches a game at any time) or as authored (editable "
                       "curves, up to a few tenths of a degree off what a game shows)")
    spine.add_argument("--force", action="store_true", help="replace an existing project (and images)")
    spine.set_defaults(run=run["import-spine"])
    return p


def frames_option(p) -> None:
    p.add_argument("--frames", metavar="START:END",
                   help="inclusive frame range within the timeline (default: all of it); either end may be "
                        "left out (the timeline's), either may be negative (--frames -50:-40)")


def frame_range(text, project, where, animation=None) -> tuple[int, int]:
    """(first, last) frames to write: the timeline, or ``START:END`` (inclusive; an end
    left out is the timeline's) within it. They come out as the same rows of a bake of
    the whole timeline."""
    tl = project.timeline
    if text is None:
        return tl.start, tl.end
    start, sep, end = text.partition(":")
    try:
        lo = int(start) if start.strip() else tl.start
        hi = int(end) if end.strip() else tl.end
    except ValueError:
        lo = hi = None
    if not sep or lo is None or (start.strip() and end.strip() and hi < lo):
        raise Usage(where, [f"--frames: expected START:END with integers and START <= END, got {text!r}"])
    within_timeline("--frames", text, lo, hi, tl, where, animation)  # "50:" on 0-48 is outside
    return lo, hi


def within_timeline(option, given, lo, hi, tl, where, animation=None) -> None:
    """Frames given on the command line lie within the timeline (``outside_timeline``)."""
    whose = f"animation {animation!r}'s timeline" if animation else "the timeline"
    problem = outside_timeline(tl, lo, hi, option, given, whose)
    if problem:
        raise Usage(where, [problem])


MAX_SAMPLE_FPS = 10000.0
"""Most samples a second ``bake --fps`` takes."""


def sample_step(project, fps, where) -> float:
    """Frames between samples at ``fps`` samples a second (1 at the project's rate).
    Target smoothing and move_root root smoothing filter per project frame, so a
    project that uses them is baked at its own rate only."""
    rate = project.timeline.fps
    if fps is None or fps == rate:
        return 1.0
    filtered = [c.name for c in project.chains
                if c.smoothing.kind != "none" or (c.strategy.kind == "move_root" and c.strategy.root_time_constant > 0)]
    if filtered:
        raise Usage(where, [f"--fps: chain {filtered[0]!r} smooths per frame at {rate:g} fps, so the project "
                             f"is baked at its own rate only (drop --fps or its smoothing)"])
    return rate / fps


def image_size(text, where) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    if w.isdigit() and h.isdigit() and 16 <= int(w) <= 8192 and 16 <= int(h) <= 8192:
        return int(w), int(h)
    raise Usage(where, [f"--size: expected WIDTHxHEIGHT in pixels (16 to 8192), got {text!r}"])
