#!/usr/bin/env bash
# What the open work asks of a lent GPU host, in one call of under 10 minutes (everything under
# $OUT): the host; where an update of the stretch goes (research/profile_update.py, about a
# minute); the thread sweep of benchmarks/throughput.py (about two minutes on 16 cores);
# the self-play step's threads from Rust (STEP_SPLIT, CHUNK_BALANCE: the binaries of
# examples/step_split.rs and examples/chunk_balance.rs built by `cargo build --release
# --examples` beforehand, for a host without a Rust toolchain; under a minute) and, with
# BASELINE (a folder holding another build's `eights` package, such as main's), the two builds'
# self-play rows alternating on all the cores (benchmarks/compare_builds.py, about a minute),
# with ROUNDS=1 the 16 / 1 ratios round by round, the one-thread cell also held on the CPU
# that served the fewest interrupts (benchmarks/thread_rounds.py --pin-one auto, about two
# minutes), all four into threads.txt;
# then the stretch continuing the best candidate so far (INIT, default the width-64 file of the
# second window) for MINUTES, its quick checks, and its gate: the candidate against the
# committed file and against the start on the same 2,000 deals a preset
# (research/net_paired_check.py inside research/stretch.py; STRETCH=0 skips it). Needs the
# repository and an environment where `pip install -e '.[train]'` has been run (no network).
#
#     OUT=/tmp/out bash research/gpu_window.sh                 # about 8 minutes in all
#     OUT=/tmp/out PROFILE=0 SWEEP=0 MINUTES=7 bash research/gpu_window.sh   # the stretch alone
#     OUT=/tmp/out PROFILE=0 STRETCH=0 STEP_SPLIT=runs/bin/step_split bash research/gpu_window.sh
#     OUT=/tmp/out BASELINE=runs/main STEP_SPLIT=runs/bin/step_split \
#         CHUNK_BALANCE=runs/bin/chunk_balance MINUTES=4 bash research/gpu_window.sh
#
# With STEP_SPLIT and CPUS=1, the one-thread cell also runs pinned to each CPU in turn (under a
# minute on 16 cores); host.txt gets `lscpu` and the interrupts each CPU served during the window.
#
# A lent machine sends back only a few files: PACK=1 puts the stretch's folder (its checkpoint
# included, to continue from) into one archive, stretch.tgz, leaving six files under $OUT.
#
# A host without the package's Python dependencies (the lent H200 host of 2026-11-28 had torch
# and numpy but no gymnasium, and no network): WHEELS, a folder of wheels downloaded beforehand
# (`pip download -d runs/wheels --only-binary=:all: --python-version 3.12 gymnasium`), is
# installed from with `--no-index` into a folder put first on PYTHONPATH.
#
# Extra arguments go to research/stretch.py. The committed file is never replaced.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-runs/gpu_window}
PYTHON=${PYTHON:-python}
if [ -n "${WHEELS:-}" ]; then
    SITE=$(mktemp -d)
    "$PYTHON" -m pip install -q --no-index --find-links "$WHEELS" --target "$SITE" gymnasium || echo "WHEELS: install failed"
    export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
fi
DEVICE=${DEVICE:-cuda}
MINUTES=${MINUTES:-4.5}
INIT=${INIT:-research/results/net/stretch_h100_w64/candidate.safetensors}
WIDTH=${WIDTH:-64}
mkdir -p "$OUT"
T0=$(date +%s)
el() { echo "[+$(($(date +%s) - T0)) s] $*" | tee -a "$OUT/host.txt"; }
{
    date -u
    nproc
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv || echo "no nvidia-smi"
    "$PYTHON" -c "import torch, eights; print('torch', torch.__version__, 'cuda', torch.cuda.is_available())"
    lscpu || echo "no lscpu"
} > "$OUT/host.txt" 2>&1
# Interrupts per CPU over the whole window: a CPU that serves most of them runs a thread slower.
cp /proc/interrupts "$OUT/.interrupts0" 2>/dev/null
if [ "${PROFILE:-1}" = 1 ]; then
    el "profile_update"
    timeout 180 "$PYTHON" research/profile_update.py --device "$DEVICE" > "$OUT/profile_update.txt" 2>&1
fi
if [ "${SWEEP:-1}" = 1 ]; then
    el "thread sweep"
    timeout 180 "$PYTHON" benchmarks/throughput.py --thread-sweep --seconds 1 --rounds 2 --json "$OUT/thread_sweep.json" > "$OUT/thread_sweep.txt" 2>&1
fi
if [ -n "${STEP_SPLIT:-}" ]; then
    el "step split"
    timeout 90 "$STEP_SPLIT" "$(nproc)" 3 0.5 >> "$OUT/threads.txt" 2>&1
fi
if [ -n "${STEP_SPLIT:-}" ] && [ "${CPUS:-0}" = 1 ] && command -v taskset > /dev/null; then
    # The one-thread cell pinned to each CPU in turn, twice: whether the slow one-thread cells
    # of these hosts come from particular CPUs (the ones serving the interrupts) or from the
    # moment.
    el "one thread on each CPU"
    for pass in 1 2; do
        for ((c = 0; c < $(nproc); c++)); do
            r=$(taskset -c "$c" timeout 20 "$STEP_SPLIT" 1 1 0.3 4096 | awk -F'|' '$3 ~ /^ *1 *$/ { print $6 }')
            echo "pass $pass cpu $c: crew $r"
        done
    done >> "$OUT/threads.txt" 2>&1
fi
if [ -n "${CHUNK_BALANCE:-}" ]; then
    el "chunk balance"
    { timeout 60 "$CHUNK_BALANCE" 4096 400; timeout 60 "$CHUNK_BALANCE" 16384 200; } >> "$OUT/threads.txt" 2>&1
fi
if [ "${ROUNDS:-0}" = 1 ]; then
    el "thread rounds"
    timeout 200 "$PYTHON" benchmarks/thread_rounds.py --rounds 8 --seconds 0.8 --pin-one auto >> "$OUT/threads.txt" 2>&1
fi
if [ -n "${BASELINE:-}" ]; then
    el "builds compared: $BASELINE against this tree"
    timeout 150 "$PYTHON" benchmarks/compare_builds.py "$BASELINE" python --threads "$(nproc)" --rows self-play \
        --multi-only --rounds 3 --seconds 0.7 >> "$OUT/threads.txt" 2>&1
fi
if [ "${STRETCH:-1}" = 1 ]; then
    el "stretch from $INIT, width $WIDTH, $MINUTES minutes"
    timeout $(awk "BEGIN { print int(60 * $MINUTES + 180) }") "$PYTHON" research/stretch.py --out "$OUT/stretch" \
        --minutes "$MINUTES" --device "$DEVICE" --width "$WIDTH" --init "$INIT" "$@" > "$OUT/stretch.log" 2>&1
    tail -8 "$OUT/stretch.log"
fi
el "done"
if [ -f "$OUT/.interrupts0" ]; then
    { echo "interrupts per CPU during the window (the largest sources):"
      "$PYTHON" - "$OUT/.interrupts0" <<'PY'
import sys
def read(path):
    rows = {}
    with open(path) as f:
        cpus = len(f.readline().split())
        for line in f:
            parts = line.split()
            if not parts:
                continue
            counts = [int(x) for x in parts[1:1 + cpus] if x.isdigit()]
            if len(counts) == cpus:
                rows[parts[0].rstrip(":") + " " + " ".join(parts[1 + cpus:])[:40]] = counts
    return rows
a, b = read(sys.argv[1]), read("/proc/interrupts")
delta = {k: [y - x for x, y in zip(a[k], b[k])] for k in a if k in b}
total = [sum(c) for c in zip(*delta.values())] if delta else []
print("all:", " ".join(map(str, total)))
for k, v in sorted(delta.items(), key=lambda kv: -sum(kv[1]))[:8]:
    print(f"{k}: {' '.join(map(str, v))}")
PY
    } >> "$OUT/host.txt" 2>&1
    rm -f "$OUT/.interrupts0"
fi
if [ "${PACK:-0}" = 1 ] && [ -d "$OUT/stretch" ]; then
    tar czf "$OUT/stretch.tgz" -C "$OUT" stretch && rm -rf "$OUT/stretch"
fi
