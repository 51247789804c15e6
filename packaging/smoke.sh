#!/bin/sh
# Smoke test of the built bundle (run by `make package-test`, not by `make test`):
# --version; validate and --screenshot of every example `rigeditor examples` lists,
# offscreen (each image must exist and not be blank); then one command per feature
# that loads a library lazily: import-psd (psd-tools, Pillow), import-images, the
# Spine export and its import, bake and report of the skinned arm, a PNG bake and a
# render (Qt headless), and the editor's mesh-and-weights step (scipy) through
# packaging/probe_bundle.py. Prints the bundle's size and each launch-to-first-paint time.
#
#     sh packaging/smoke.sh [BUNDLE_EXECUTABLE]     (default dist/rigeditor/rigeditor)
set -eu

APP=${1:-dist/rigeditor/rigeditor}
PY=${PYTHON:-.venv/bin/python}
HERE=$(dirname "$0")
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT INT TERM

export QT_QPA_PLATFORM=offscreen
fail=0

# A module the bundle is missing can surface as a logged error rather than an exit
# status (optional imports, placeholders): any of these in the output is a failure.
MISSING="Traceback|ModuleNotFoundError|ImportError|unavailable"

# run NAME COMMAND...: the command must exit 0 and log no missing module; its output
# stays in $OUT/NAME.log. Never stops the script: a failure sets fail=1.
run() {
    name=$1; shift
    if ! "$@" > "$OUT/$name.log" 2>&1; then
        echo "smoke: $name: failed: $*" >&2; cat "$OUT/$name.log" >&2; fail=1; return 0
    fi
    if grep -E -i "$MISSING" "$OUT/$name.log" >&2; then
        echo "smoke: $name: something could not load in the bundle" >&2; fail=1; return 0
    fi
    echo "ok: $name"
}

# expect NAME TEXT: the output of `run NAME ...` contains TEXT.
expect() {
    grep -F -q -- "$2" "$OUT/$1.log" || { echo "smoke: $1: expected \"$2\" in:" >&2; cat "$OUT/$1.log" >&2; fail=1; }
}

# painted PNG NAME MIN_COLOURS [START END]: PNG is a real picture, not blank (a blank
# or single-colour one has a handful of colours); with START END, prints the launch
# to first paint time.
painted() {
    "$PY" - "$@" <<'PYEOF' || fail=1
import struct, sys, zlib
png, name, least = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    data = open(png, "rb").read()
except OSError:
    sys.exit(f"smoke: {name}: no picture written")
if not data.startswith(b"\x89PNG\r\n\x1a\n"):
    sys.exit(f"smoke: {name}: not a PNG")
pos, idat, w = 8, b"", 0
while pos < len(data):
    size, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + size]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + size
if depth != 8 or ctype not in (2, 6):
    sys.exit(f"smoke: {name}: unexpected PNG format (depth {depth}, colour type {ctype})")
bpp = 4 if ctype == 6 else 3
raw, stride, colours, prev = zlib.decompress(idat), w * bpp, set(), bytearray(w * bpp)
for y in range(h):  # undo the PNG row filters
    f, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = row[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: row[i] = (row[i] + a) & 255
        elif f == 2: row[i] = (row[i] + b) & 255
        elif f == 3: row[i] = (row[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        colours.update(bytes(row[i:i + 3]) for i in range(0, stride, bpp * 4))
    prev = row
timing = ""
if len(sys.argv) > 5:
    timing = f", launch to first paint {float(sys.argv[5]) - float(sys.argv[4]):.2f} s"
print(f"{name}: {w}x{h}, {len(data) // 1024} kB, {len(colours)} colours{timing}")
if len(colours) < least:
    sys.exit(f"smoke: {name}: the picture looks blank ({len(colours)} colours)")
PYEOF
}

[ -x "$APP" ] || { echo "smoke: no bundle at $APP (run make package)" >&2; exit 2; }
# Absolute paths: the feature checks run in $OUT.
absolute() { case "$1" in */*) echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" ;; *) echo "$1" ;; esac; }
APP=$(absolute "$APP"); PY=$(absolute "$PY"); HERE=$(cd "$HERE" && pwd)

version=$("$APP" --version) || { echo "smoke: $APP --version failed" >&2; exit 1; }
case "$version" in
    "rigeditor "[0-9]*) ;;
    *) echo "smoke: unexpected --version output: $version" >&2; exit 1 ;;
esac
case "$version" in
    *+source*) echo "smoke: --version has no package metadata: $version" >&2; exit 1 ;;
esac
echo "version: $version"
echo "bundle size: $(du -sh "$(dirname "$APP")" | cut -f1)"

# Every example the bundle lists (read through importlib.resources from the bundle).
run examples "$APP" examples
EXAMPLES=$(cut -d' ' -f1 "$OUT/examples.log")
[ -n "$EXAMPLES" ] || { echo "smoke: rigeditor examples listed nothing" >&2; fail=1; }
for name in $EXAMPLES; do
    "$APP" validate "$name" || { echo "smoke: $name: the bundle cannot open the example file" >&2; fail=1; }
    png="$OUT/$name.png"
    start=$("$PY" -c 'import time; print(time.monotonic())')
    run "$name" "$APP" "$name" --screenshot "$png"
    end=$("$PY" -c 'import time; print(time.monotonic())')
    [ -f "$png" ] && { [ "$(wc -c < "$png")" -ge 10000 ] || { echo "smoke: $name: screenshot too small" >&2; fail=1; }; }
    painted "$png" "$name" 64 "$start" "$end"
done

# The features that load libraries lazily, one command each, on files made here.
cd "$OUT"
"$PY" - <<'PYEOF' || { echo "smoke: could not write the test pictures" >&2; fail=1; }
import os
import numpy as np
from PIL import Image
from psd_tools import PSDImage
from psd_tools.api.layers import Group, PixelLayer
from psd_tools.constants import Compression

def blob(seed, w, h):
    px = np.zeros((h, w, 4), np.uint8)
    px[2:h - 2, 3:w - 3] = np.append(np.random.default_rng(seed).integers(0, 255, 3), 255)
    return Image.fromarray(px, "RGBA")

psd = PSDImage.new("RGBA", (200, 150))
arm = Group.new(psd, "arm")
# Every compression a PSD layer can use: raw, RLE (psd-tools' extension), both ZIPs.
for k, (parent, name, left, top, comp) in enumerate([
        (psd, "body", 20, 10, Compression.RAW), (arm, "upper", 90, 60, Compression.RLE),
        (arm, "hand", 140, 62, Compression.ZIP), (psd, "hat", 30, 0, Compression.ZIP_WITH_PREDICTION)]):
    parent.append(PixelLayer.frompil(blob(k, 40 + 5 * k, 30), psd, name, top=top, left=left, compression=comp))
psd.save("art.psd")
os.makedirs("pictures")
for k, name in enumerate(("torso", "head", "arm")):
    blob(10 + k, 30 + 10 * k, 40).save(f"pictures/{name}.png")
PYEOF
run import-psd "$APP" import-psd art.psd -o psd/art.rigproj
run psd-validate "$APP" validate psd/art.rigproj
expect psd-validate "4 slots"
run psd-render "$APP" render psd/art.rigproj --frame 0 -o psd.png
painted psd.png psd-render 5
mkdir images
run import-images "$APP" import-images pictures -o images/images.rigproj
run images-validate "$APP" validate images/images.rigproj
expect images-validate "3 slots"

# Spine: the export (atlas pages through Pillow) is the source tree's, byte for byte,
# and imports back.
mkdir spine source
run export-spine "$APP" bake dressed_walk -o spine/walk.json --format spine
"$PY" -m rigeditor.cli bake dressed_walk -o source/walk.json --format spine > /dev/null \
    || { echo "smoke: export-spine: the source tree's export failed" >&2; fail=1; }
for f in walk.json walk.atlas walk.png; do
    cmp -s "spine/$f" "source/$f" || { echo "smoke: export-spine: $f differs from the source tree's" >&2; fail=1; }
done
run import-spine "$APP" import-spine spine/walk.json -o back/walk.rigproj
run spine-validate "$APP" validate back/walk.rigproj
expect spine-validate "8 bones, 3 chains, 3 targets"

# Skinning: bake and report of the skinned arm, a PNG plot and a render of its mesh.
run bake-csv "$APP" bake skinned_arm -o skinned.csv
run bake-png "$APP" bake skinned_arm -o skinned.png
painted skinned.png bake-png 16
run report "$APP" report skinned_arm
expect report "collapse arm/arm at joint forearm"
run report-cracks "$APP" report rigid_arm --junit report.xml
expect report-cracks "crack upper_arm|forearm"
grep -q '<testcase classname="report.cracks"' report.xml || { echo "smoke: report-cracks: no JUnit test case" >&2; fail=1; }
run render "$APP" render skinned_arm --frame 24 -o skinned_24.png
painted skinned_24.png render 64
cd - > /dev/null

# Make Mesh from Picture (scipy) is reached only from the editor: probe_bundle.py runs
# it on the bundle's own modules and libraries.
run mesh "$PY" "$HERE/probe_bundle.py" "$APP"
cat "$OUT/mesh.log"
[ "$fail" -eq 0 ] && echo "smoke: ok" || { echo "smoke: FAILED" >&2; exit 1; }
