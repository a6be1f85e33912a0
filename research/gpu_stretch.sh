#!/usr/bin/env bash
# The stretch of the rules-reading `net` on a lent GPU host, in one call that fits its
# 10-minute limit: what the host is and whether PyTorch sees the GPU, the whole chain on tiny
# tables (seconds), then `research/stretch.py` (PPO from the committed file, export, the fixed
# quick check of the new file and of the committed one, the gate, the curve). Needs only the repository and an environment where
# `pip install -e '.[train]'` has been run (no network). Everything goes under $OUT.
#
#     OUT=/tmp/out bash research/gpu_stretch.sh                      # width 32, 6 minutes of training
#     OUT=/tmp/out MINUTES=3 WIDTHS="32 64" bash research/gpu_stretch.sh  # both widths, 3 minutes each
#     OUT=/tmp/out WIDTHS=64 PROFILE=1 bash research/gpu_stretch.sh \
#         --init research/results/net/stretch_h100_w64/candidate.safetensors  # the width-64 candidate continued
#
# Each width's run goes to $OUT/stretch<width>/ (its log to $OUT/stretch<width>.log); its gate
# (gate.json) is its candidate and the committed file on the same 2,000 deals a preset
# (research/net_paired_check.py: the paired difference with its interval).
# Extra arguments go to research/stretch.py (`--init FILE` continues a candidate); DEVICE=cpu
# runs it without a GPU; PROFILE=1 first profiles an update (research/profile_update.py, about a
# minute, to $OUT/profile_update.txt). The committed file is never replaced: the run prints the
# `cp` command to use when the gate shows the new file stronger.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-runs/gpu_stretch}
MINUTES=${MINUTES:-6}
WIDTHS=${WIDTHS:-32}
DEVICE=${DEVICE:-cuda}
PYTHON=${PYTHON:-python}
mkdir -p "$OUT"
{
    date -u
    nproc
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv || echo "no nvidia-smi"
    "$PYTHON" -c "import torch, eights; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), eights.__file__)"
} 2>&1 | tee "$OUT/host.txt"
if [ "${PROFILE:-0}" = 1 ]; then
    "$PYTHON" research/profile_update.py --device "$DEVICE" > "$OUT/profile_update.txt" 2>&1 \
        || { tail -30 "$OUT/profile_update.txt"; exit 1; }
fi
# Seconds of the whole chain on tiny tables first: a fault shows before the long run.
"$PYTHON" research/stretch.py --out "$OUT/smoke" --minutes 0 --device "$DEVICE" \
    --tables 2:heuristic:8,3:heuristic:6:presets --num-steps 8 --blocks 8 --deals 2 --gate-deals 2 \
    > "$OUT/smoke.log" 2>&1 \
    || { tail -30 "$OUT/smoke.log"; exit 1; }
for width in $WIDTHS; do
    "$PYTHON" research/stretch.py --out "$OUT/stretch$width" --minutes "$MINUTES" --device "$DEVICE" \
        --width "$width" "$@" 2>&1 | tee "$OUT/stretch$width.log"
done
date -u | tee -a "$OUT/host.txt"
