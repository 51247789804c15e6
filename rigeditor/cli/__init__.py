"""The command line: ``rigeditor [PROJECT]`` opens the editor; subcommands run headless.

    rigeditor [PROJECT] [editor options]       open the editor (the arm example by default)
    rigeditor bake PROJECT -o OUT [--format csv|json|spine|png] [--frames START:END] [--radians]
                   [--world] [--fps N]
    rigeditor validate PROJECT
    rigeditor report PROJECT [--json] [--frames START:END] [--fail-on CHECKS] [--junit OUT.xml]
    rigeditor render PROJECT --frame N -o OUT.png [--size WxH]
    rigeditor examples                         list the built-in examples
    rigeditor import-psd ART.psd -o PROJECT [--force]
    rigeditor import-images DIR -o PROJECT [--force]
    rigeditor import-spine SKELETON.json [--atlas A.atlas] -o PROJECT [--animation NAME]
                           [--curves authored|runtime] [--force]
    rigeditor --version

PROJECT is a project file, or the name of a built-in example (``arm``, ``dressed_walk``)
when no such file exists; picture paths are relative to the file's folder (an
example's: its packaged folder).

Every subcommand evaluates through ``rigeditor.model.evaluation.evaluate`` and reads the Bake.
Exit status: 0 done; 1 ``report`` found what ``--fail-on`` names (by default an
unexplained residual or an unkeyed elbow flip), or ``validate`` found a missing or
unreadable image (the project itself is valid); 2 an error, reported on stderr as
``rigeditor: FILE: where: what`` (never a traceback; RIGEDITOR_DEBUG=1 shows one for
internal errors); 141 when stdout closed early (``| head``), quietly, as Unix tools do.
Outputs are written atomically or not at all. Frames given (``--frames``, ``--frame``)
lie within the timeline. Only ``render`` and PNG bakes load Qt (offscreen, lazily).

Here: ``main`` and the commands. ``arguments``: the parser and the checks of the values
given; ``process``: signals, a closed stdout and the problem lines.
"""
from __future__ import annotations

import gc
import json
import math
import os
import re
import signal
import sys
from pathlib import Path

import numpy as np

from rigeditor.core.memory import available_bytes, tune_allocator
from rigeditor.cli.arguments import (
    MAX_SAMPLE_FPS, Usage, attach_negative_frames, build_parser, frame_range, image_size, sample_step, within_timeline,
)
from rigeditor.cli.process import Terminated, after_writing, closed_stdout, print_problems, signals_unwind
from rigeditor import edits
from rigeditor.io.atomic import export_write, write_files
from rigeditor.io.errors import ExportError, ProjectFileError, SHOWN
from rigeditor.io.curves.write_csv import curves_csv
from rigeditor.io.curves.write_json import curves_json
from rigeditor.io.spine.write import animation_label, spine_files
from rigeditor.io.art.images import alpha_masks, image_problems
from rigeditor.io.art.layers import unique_names
from rigeditor.io.curves.world_csv import world_csv
from rigeditor.io.progress import Progress
from rigeditor.examples.files import ALL_DESCRIPTIONS, resolve_project
from rigeditor.io.report import GATES, build_report, format_report
from rigeditor.model import evaluate
from rigeditor.model.data import clips
from rigeditor.model.diagnostics.cracks import crack_check
from rigeditor.model.evaluation.ranges import bake_rows, evaluation_span, memory_fit

COMMANDS = ("bake", "validate", "report", "render", "examples", "import-psd", "import-images", "import-spine")
FORMATS = {".csv": "csv", ".json": "json", ".png": "png"}


def main(argv=None) -> int:
    """Run the command line with ``argv`` (default: sys.argv[1:]); returns the exit status."""
    argv = sys.argv[1:] if argv is None else [str(a) for a in argv]
    tune_allocator()
    if not argv or argv[0] not in COMMANDS + ("--version", "-h", "--help"):
        # The editor: everything is passed through (a project, an example name, its options).
        from rigeditor.app.main import run  # lazily: the headless commands never load Qt

        return run(argv)
    # A command runs once and exits: what the imports built is kept out of the cycle
    # collector's walks, and it runs ten times less often (an import of a many-skin
    # rig builds a million small lists; 15-20 % of its time went to collections).
    gc.freeze()
    gc.set_threshold(7000, 10, 10)
    try:
        args = _parser().parse_args(attach_negative_frames(argv))
    except SystemExit as exc:  # --help, --version, usage errors (argparse printed them)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    try:
        with signals_unwind():
            status = args.run(args)
            sys.stdout.flush()  # here, so a closed pipe is caught below and not at exit
            return status
    except BrokenPipeError:
        return closed_stdout()
    except ProjectFileError as exc:
        print_problems(exc, limit=None if args.command == "validate" else SHOWN)
        return 2
    except KeyboardInterrupt:
        print(f"rigeditor: interrupted{after_writing(args)}", file=sys.stderr)
        return 130
    except Terminated:
        print(f"rigeditor: terminated{after_writing(args)}", file=sys.stderr)
        return 128 + signal.SIGTERM
    except MemoryError:
        print(f"rigeditor: {args.project}: out of memory (nothing was written; "
              "bake fewer frames with --frames)", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: say so in one line, keep the traceback for debugging
        if os.environ.get("RIGEDITOR_DEBUG"):
            raise
        print(f"rigeditor: {getattr(args, 'project', args.command)}: internal error: {type(exc).__name__}: {exc} "
              "(please report it; RIGEDITOR_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 2


def _parser():
    return build_parser({"bake": _bake, "validate": _validate, "report": _report, "render": _render,
                         "examples": _examples, "import-psd": _import_psd, "import-images": _import_images,
                         "import-spine": _import_spine})


# ---------------------------------------------------------------------- commands

def _bake(args) -> int:
    out = Path(args.output)
    _refuse_overwriting_the_project(out, args.project)
    fmt = args.format or FORMATS.get(out.suffix.lower())
    if fmt is None:
        raise Usage(out, [f"-o: cannot tell the format from {out.suffix or 'no extension'!r}: "
                           "use .csv, .json or .png, or --format spine"])
    if args.radians and fmt == "spine":
        raise Usage(out, ["--radians: Spine JSON is always in degrees"])
    if args.bake_ik and fmt != "spine":
        raise Usage(out, [f"--bake-ik: only a Spine export has IK constraints, not {fmt}"])
    if args.world and fmt != "csv":
        raise Usage(out, [f"--world: world poses are written as CSV, not {fmt}"])
    if args.world and args.radians:
        raise Usage(out, ["--radians: world poses are written in degrees"])
    if args.fps is not None and not (math.isfinite(args.fps) and 0 < args.fps <= MAX_SAMPLE_FPS):
        raise Usage(out, [f"--fps: expected a number of samples a second in (0, {MAX_SAMPLE_FPS:g}], "
                           f"got {args.fps:g}"])
    if args.fps is not None and fmt == "spine":
        raise Usage(out, ["--fps: a Spine export keys the project's frames; bake it at the project's fps"])
    progress = Progress()
    try:
        whole, images = resolve_project(args.project)
        names = _animations(args.animation, whole, args.project)
        baked = []
        for i, name in enumerate(names):
            project = edits.switch_animation(whole, name)
            first, last = frame_range(args.frames, project, args.project, name if len(names) > 1 else None)
            step = sample_step(project, args.fps, args.project)
            _check_memory(project, first, last, args.project, fmt, step=step)
            progress(0.02 + 0.48 * i / len(names), f"evaluating {name}" if len(names) > 1 else "evaluating")
            label = animation_label(whole, name)
            baked.append((label, project, _evaluate_rows(project, first, last, step)))
        stage = progress.stage(0.5, 1.0, f"writing {out.name}")
        # Every output is prepared, checked against the project, then all are written
        # together or none is (a failure at the second file kept the first).
        project_file = {Path(args.project): "the project file"} if Path(args.project).is_file() else {}
        if fmt == "spine":
            (label, project, bake), *more = baked
            notes = []
            files = spine_files(project, bake, out, animation=label, more=more, progress=stage,
                                images=images, protect=project_file, bake_ik=args.bake_ik, notes=notes)
            for line in notes:
                print(f"rigeditor: {out}: warning: {line}", file=sys.stderr)
        else:
            files = {}
            # Two names may read alike as file names ("run/fast", "run_fast"): each gets its own file.
            parts = unique_names([_file_part(n) for n in names], ignore_case=True)
            for part, (_, project, bake) in zip(parts, baked):
                target = out if len(names) == 1 else out.with_name(f"{out.stem}_{part}{out.suffix}")
                _refuse_overwriting_the_project(target, args.project)
                files[target] = _curves(fmt, project, bake, target, args, stage)
        write_files(files, make_folders=True)
        args.written = list(files)
    finally:
        progress.done()
    return 0


def _curves(fmt, project, bake, target, args, progress) -> bytes:
    """The bytes of one curves file (CSV, JSON) or plot (PNG) of ``bake``."""
    if fmt == "png":
        _qt_offscreen()
        from rigeditor.app.plot_export import plot_png

        return plot_png(project.name, bake, radians=args.radians)
    try:
        if fmt == "csv" and args.world:
            return world_csv(bake)
        if fmt == "csv":
            return curves_csv(bake, radians=args.radians, progress=progress)
        from rigeditor.model.evaluation.events import fired_data, fired_events

        return curves_json(project.name, bake, radians=args.radians, tolerance_deg=args.tolerance,
                           progress=progress, events=fired_data(fired_events(project, bake.frames), bake.fps))
    except ExportError as exc:
        raise ExportError(target, exc.problems) from None


def _animations(wanted, project, where) -> list[str]:
    """The animations to bake: ``--animation`` names (each must exist), else all."""
    known = clips.names(project)
    if not wanted:
        return known
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise Usage(where, [f"--animation: no animation named {n!r} (the project has: {', '.join(known)})"
                             for n in unknown])
    return list(dict.fromkeys(wanted))


def _file_part(name: str) -> str:
    """An animation name as part of a file name (path separators and the like become _)."""
    return re.sub(r"[^\w.-]+", "_", name).strip(".") or "animation"


def _validate(args) -> int:
    notes: list[str] = []
    project, images = resolve_project(args.project, notes)
    tl = project.timeline
    counts = ", ".join(_count(n, word) for n, word in (
        (len(project.bones), "bone"), (len(project.chains), "chain"), (len(project.targets), "target"),
        (_key_count(project), "key")))
    counts += f", {_count(len(project.art.slots), 'slot')}" if project.art.slots else ""
    print(f"{args.project}: valid: {counts}, frames {tl.start}-{tl.end} at {tl.fps:g} fps")
    for note in notes:  # what converting an older file changed (saving writes the new layout)
        print(f"{args.project}: note: {note}")
    found = image_problems(project, images)
    for problem in found:
        print(f"rigeditor: {args.project}: {problem}", file=sys.stderr)
    return 1 if found else 0


def _report(args) -> int:
    gates = _gates(args.fail_on, args.project)
    junit = Path(args.junit) if args.junit else None
    if junit is not None:
        _refuse_overwriting_the_project(junit, args.project, "--junit")
    project, images = resolve_project(args.project)
    first, last = frame_range(args.frames, project, args.project)
    _check_memory(project, first, last, args.project, "evaluate")
    bake = _evaluate_rows(project, first, last)
    cracks = crack_check(project, bake, alpha_masks(project, images)) if bake.art else ()
    report = build_report(bake, name=str(args.project), cracks=cracks, fail_on=gates)
    if junit is not None:
        from rigeditor.io.report_junit import junit_xml

        export_write(junit, junit_xml(report))
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0 if report["ok"] else 1


def _gates(text: str, where) -> tuple[str, ...]:
    """``--fail-on residual,crack`` -> ("residual", "crack"); "none" -> ()."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if names == ["none"]:
        return ()
    unknown = [n for n in names if n not in GATES]
    if unknown or not names:
        raise Usage(where, [f"--fail-on: expected a comma-separated list of {', '.join(GATES)} (or none), "
                             f"got {text!r}"])
    return tuple(names)


def _examples(args) -> int:
    width = max(map(len, ALL_DESCRIPTIONS))
    for name, text in ALL_DESCRIPTIONS.items():
        print(f"{name:<{width}}  {text}")
    return 0


def _render(args) -> int:
    out = Path(args.output)
    if out.suffix.lower() != ".png":
        raise Usage(out, [f"-o: render writes PNG images; use a .png name, got {out.name!r}"])
    size = image_size(args.size, args.project)
    project, images = resolve_project(args.project)
    tl = project.timeline
    within_timeline("--frame", args.frame, args.frame, args.frame, tl, args.project)
    # The whole timeline is evaluated: smoothing and holds depend on earlier frames.
    _check_memory(project, tl.start, tl.end, args.project, "png",
                  "render evaluates the whole timeline: shorten it")
    bake = evaluate(project)
    _qt_offscreen()
    from rigeditor.app.render import render_png

    export_write(out, render_png(bake, bake.index(args.frame), size=size,
                                 project=project, images=images))
    args.written = [out]
    return 0


def _import_psd(args) -> int:
    from rigeditor.io.art.psd import import_psd

    folder = import_psd(args.project, args.output, force=args.force)
    print(f"{args.output}: imported {args.project} (images in {folder})")
    return 0


def _import_images(args) -> int:
    from rigeditor.io.art.png_folder import import_images

    import_images(args.project, args.output, force=args.force)
    print(f"{args.output}: imported the images of {args.project}")
    return 0


def _import_spine(args) -> int:
    from rigeditor.io.spine.read import import_spine

    result = import_spine(args.project, args.output, atlas=args.atlas, animation=args.animation, force=args.force,
                          curves=args.curves)
    for line in result.warnings:
        print(f"rigeditor: {args.project}: warning: {line}", file=sys.stderr)
    names = [a.name for a in result.project.animations]
    what = (f"animations: {', '.join(names)}; {result.animation!r} open" if len(names) > 1
            else f"animation {result.animation!r}" if result.animation else "setup pose")
    print(f"{args.output}: imported {args.project} ({what}, {len(result.project.bones)} bones, "
          f"{len(result.project.chains)} chains, {len(result.images)} pictures)")
    return 0


# ----------------------------------------------------------------------- helpers

def _evaluate_rows(project, first: int, last: int, step: float = 1.0):
    """Frames ``first..last`` of the project, every ``step`` frames from ``first``, as
    the same rows of its whole bake (sampled on the same grid from the span's start)."""
    lo, hi = evaluation_span(project, first, last)
    if step == 1.0:
        bake = evaluate(project, np.arange(lo, hi + 1, dtype=float))
        return bake if (lo, hi) == (first, last) else bake_rows(bake, first - lo, last - lo + 1)
    before, count = math.ceil((first - lo) / step - 1e-9), math.floor((last - first) / step + 1e-9) + 1
    after = math.floor((hi - first) / step + 1e-9) + 1
    frames = first + step * np.arange(-before, after, dtype=float)
    bake = evaluate(project, frames)
    return bake if (before, after) == (0, count) else bake_rows(bake, before, before + count)


def _check_memory(project, first: int, last: int, where, output: str, way_out: str | None = None,
                  step: float = 1.0) -> None:
    """Refuse, before allocating, a bake that would not fit in the memory available
    (samples every ``step`` frames)."""
    fit = memory_fit(project, first, last, output, available_bytes(), step=step)
    if fit.ok:
        return
    if way_out is None:
        way_out = (f"bake fewer frames, e.g. --frames {first}:{fit.fits_to}" if fit.fits_to is not None else
                   "bake an earlier part of the timeline with --frames")
    raise Usage(where, [f"memory: {fit.text('to evaluate and write')}; {way_out}"])


def _refuse_overwriting_the_project(out: Path, project, option: str = "-o") -> None:
    """An output never goes over its own project file (the same file by any name)."""
    try:
        same = out.exists() and os.path.samefile(out, project)
    except OSError:
        same = False
    if same or out.resolve() == Path(project).resolve():
        raise Usage(out, [f"{option}: this is the project file {str(project)!r}; "
                           "choose another output name (writing it would overwrite the project)"])


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _key_count(project) -> int:
    channels = [c for s in project.spaces for c in (s.position, s.rotation, s.scale)]
    channels += [b.rotation for b in project.bones] + [t.position for t in project.targets]
    channels += [c for ch in project.chains for c in (ch.bend, ch.softness, ch.mix)]
    return sum(len(c.keys) for c in channels) + sum(len(t.space.keys) for t in project.targets)


def _qt_offscreen() -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
