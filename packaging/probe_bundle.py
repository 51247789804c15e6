"""Run the editor-only paths of the bundle that no command reaches (run by smoke.sh).

Make Mesh from Picture (Delaunay, k-d trees, sparse LU and connected components from
scipy) is reachable only from the editor's Mesh menu. This script lays out the bundle's
own modules (the PYZ archive inside the executable, written back as .pyc files) beside
its own _internal/ folder (extensions, shared libraries, data) and runs, in an isolated
interpreter that sees nothing else, the mesh-and-weights step that built the packaged
``skinned_arm``: meshing its packaged picture must give exactly the packaged project.
A module, extension or library the spec left out fails here as an ImportError or OSError.

    python packaging/probe_bundle.py dist/rigeditor/rigeditor

``python`` must be the interpreter that built the bundle (the build venv: its bytecode
and extension ABI); it needs PyInstaller for reading the archive.
"""
from __future__ import annotations

import importlib._bootstrap_external as bootstrap
import marshal
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PyInstaller.archive.readers import CArchiveReader

# Runs inside the isolated interpreter; sys.argv[1] is the laid-out bundle.
MESH_CHECK = r"""
import sys
root = sys.argv[1]
sys.path[:] = [root, root + "/base_library.zip", root + "/python3.11/lib-dynload"]
import numpy as np
from rigeditor.io import dumps_project
from rigeditor.examples.files import example_file, load_example
from rigeditor.io.art.images import read_rgba
from rigeditor.examples.skin import SKIN_DIR, skinned_arm

packaged = example_file("skinned_arm")
alpha = read_rgba(packaged.parent / SKIN_DIR / "arm.png")[..., 3] / 255.0
made = skinned_arm(alpha)  # mesh_ops.mesh_from_image, as Mesh > Make Mesh from Picture
mesh = made.art.slot("arm").find("arm")
if dumps_project(made) != packaged.read_text(encoding="utf-8"):
    sys.exit("probe: meshing the packaged arm in the bundle does not give the packaged skinned_arm")
outside = sorted({m.__name__.split(".")[0] for m in list(sys.modules.values())
                  if getattr(m, "__file__", None) and not m.__file__.startswith(root)
                  and m.__name__.split(".")[0] in ("numpy", "scipy", "PIL", "psd_tools", "rigeditor")})
if outside:
    sys.exit(f"probe: loaded from outside the bundle: {outside}")
print(f"mesh + automatic weights in the bundle: {len(mesh.vertices)} vertices, "
      f"{len(mesh.triangles)} triangles, {len(mesh.bones)} bones (scipy "
      + ", ".join(sorted(m for m in sys.modules if m.startswith("scipy.") and m.count(".") == 1)) + ")")
"""


def lay_out(executable: Path, out: Path) -> None:
    """Write the executable's Python modules as .pyc files into ``out`` and link
    ``_internal/`` beside them (one tree, as the frozen importer sees it)."""
    pkg = CArchiveReader(str(executable))
    for name, entry in pkg.toc.items():
        if entry[-1] == "m":  # modules the bootloader needs before the PYZ (struct...)
            _write(out, name, marshal.loads(pkg.extract(name)), package=False)
        elif entry[-1] == "z":
            pyz = pkg.open_embedded_archive(name)
            for mod, (typecode, *_) in pyz.toc.items():
                code = pyz.extract(mod)
                if code is not None:
                    _write(out, mod, code, package=typecode in (1, 2))
    internal = executable.parent / "_internal"
    for folder, _, files in os.walk(internal):
        target = out / Path(folder).relative_to(internal)
        target.mkdir(parents=True, exist_ok=True)
        for f in files:
            if not (target / f).exists():  # hard links: $ORIGIN must be this tree
                try:
                    os.link(Path(folder, f), target / f)
                except OSError:
                    shutil.copy2(Path(folder, f), target / f)


def _write(out: Path, name: str, code, package: bool) -> None:
    parts = name.split(".")
    path = out.joinpath(*parts, "__init__.pyc") if package else out.joinpath(*parts[:-1], parts[-1] + ".pyc")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bootstrap._code_to_timestamp_pyc(code, 0, 0))


def main() -> int:
    executable = Path(sys.argv[1] if len(sys.argv) > 1 else "dist/rigeditor/rigeditor").resolve()
    # Beside the bundle, so hard links work (same file system).
    with tempfile.TemporaryDirectory(prefix=".probe-", dir=executable.parent.parent) as tmp:
        root = Path(tmp)
        lay_out(executable, root)
        env = {"PATH": os.environ.get("PATH", ""), "LD_LIBRARY_PATH": str(root)}
        done = subprocess.run([sys.executable, "-I", "-S", "-c", MESH_CHECK, str(root)], env=env)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
