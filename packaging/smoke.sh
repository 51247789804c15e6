#!/bin/sh
# Smoke test of the built bundle (run by `make package-test`, not by `make test`):
# --version, then --screenshot of every example offscreen; each image must exist and
# not be blank. Prints the bundle's size and each launch-to-first-paint time.
#
#     sh packaging/smoke.sh [BUNDLE_EXECUTABLE]     (default dist/rigeditor/rigeditor)
set -eu

APP=${1:-dist/rigeditor/rigeditor}
PY=${PYTHON:-.venv/bin/python}
EXAMPLES="arm walk door tail dressed_arm dressed_walk"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT INT TERM

export QT_QPA_PLATFORM=offscreen
fail=0

[ -x "$APP" ] || { echo "smoke: no bundle at $APP (run make package)" >&2; exit 2; }

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

for name in $EXAMPLES; do
    # The example files are found in the bundle (read through importlib.resources).
    "$APP" validate "$name" || { echo "smoke: $name: the bundle cannot open the example file" >&2; fail=1; }
    png="$OUT/$name.png"
    start=$("$PY" -c 'import time; print(time.monotonic())')
    if ! "$APP" "$name" --screenshot "$png" > "$OUT/$name.log" 2>&1; then
        echo "smoke: $name: --screenshot failed:" >&2; cat "$OUT/$name.log" >&2
        fail=1; continue
    fi
    end=$("$PY" -c 'import time; print(time.monotonic())')
    # A module the bundle is missing can surface as a logged error rather than an exit
    # status (optional imports, placeholders): any of these in the output is a failure.
    if grep -E -i "Traceback|ModuleNotFoundError|ImportError|unavailable" "$OUT/$name.log" >&2; then
        echo "smoke: $name: something could not load in the bundle" >&2; fail=1
    fi
    # Not blank: a real PNG, and a window's worth of distinct colours (a blank or
    # single-colour window has a handful).
    if ! "$PY" - "$png" "$name" "$start" "$end" <<'PYEOF'
import struct, sys, zlib
png, name, start, end = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
data = open(png, "rb").read()
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
print(f"{name}: {w}x{h}, {len(data) // 1024} kB, {len(colours)} colours, "
      f"launch to first paint {end - start:.2f} s")
if len(colours) < 64 or len(data) < 10_000:
    sys.exit(f"smoke: {name}: the screenshot looks blank")
PYEOF
    then fail=1; fi
done

[ "$fail" -eq 0 ] && echo "smoke: ok" || { echo "smoke: FAILED" >&2; exit 1; }
