#!/usr/bin/env bash
# Leak check: each task's command runs on one image N times, then 2N times, in one process under
# LeakSanitizer (the toolchain's AddressSanitizer runtime preloaded into the debug build: finding leaks
# needs only its malloc, so LiteRT, OpenCV, Tesseract and zxing-cpp are covered as well as our code).
# A leak in the loop grows with N; a one-off at start-up does not. Prints the bytes definitely leaked
# (LSan's direct leaks) at N and 2N per task and fails when they grow; full reports stay in the log.
# LEAKCHECK_ITERATIONS sets N (default 200); BINARY the swiftvision executable.
set -euo pipefail
shopt -s nullglob

iterations="${LEAKCHECK_ITERATIONS:-200}"
binary="${BINARY:-.build/debug/swiftvision}"
cache="${SWIFTVISION_CACHE:-$HOME/.cache/swiftvision}"
media="$cache/media"
toolchain="$(dirname "$(readlink -f "$(command -v swift)")")/.."
runtime="$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.asan-x86_64.so | head -n 1)"
log="$cache/logs/leakcheck.log"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$log")"
: >"$log"

# Inputs that are not sample photos: both hands cut from bus.jpg (as HandTests does) and a 30-frame clip
# that pans across astronaut.png, for the trackers.
"$cache/venv/bin/python" - "$media" "$work" 2>>"$log" <<'EOF'
import sys, cv2
media, work = sys.argv[1:]
bus = cv2.imread(f"{media}/bus.jpg")
cv2.imwrite(f"{work}/hands.png", bus[420:700, 0:280])
astronaut = cv2.imread(f"{media}/astronaut.png")
writer = cv2.VideoWriter(f"{work}/clip.avi", cv2.VideoWriter_fourcc(*"MJPG"), 30, (320, 240))
for frame in range(30):
    writer.write(astronaut[40:280, 2 * frame:320 + 2 * frame])
writer.release()
EOF

# The bytes LSan reports as directly leaked by `$binary "$@"`; fails unless it prints `expected` JSON lines.
leaked() {
    local expected="$1" lines
    shift
    rm -f "$work"/lsan.*
    lines=$(LD_PRELOAD="$runtime" ASAN_OPTIONS="detect_leaks=1:log_path=$work/lsan:quarantine_size_mb=16" \
        "$binary" "$@" --json 2>>"$log" | wc -l)
    if [ "$lines" -ne "$expected" ]; then
        echo "swiftvision $1 printed $lines JSON lines, expected $expected (see $log)" >&2
        exit 1
    fi
    cat /dev/null "$work"/lsan.* >>"$log"
    awk '/^Direct leak of/ { bytes += $4 } END { print bytes + 0 }' /dev/null "$work"/lsan.*
}

# `count` copies of each of `words`.
repeated() {
    local count="$1"
    shift
    for _ in $(seq "$count"); do printf '%s\n' "$@"; done
}

# One row: the bytes leaked by the command `arguments` followed by `copies`, then twice as many, copies of
# `repeat`, which must print `lines` JSON lines (the number of copies when 0).
# Usage: check NAME LINES COPIES "ARGUMENTS" REPEAT...
check() {
    local name="$1" lines="$2" copies="$3" once twice arguments repeat expected=("$2" "$2")
    IFS=' ' read -r -a arguments <<<"$4"
    shift 4
    [ "$lines" -gt 0 ] || expected=("$copies" $((2 * copies)))
    mapfile -t repeat < <(repeated "$copies" "$@")
    once=$(leaked "${expected[0]}" "${arguments[@]}" "${repeat[@]}")
    mapfile -t repeat < <(repeated $((2 * copies)) "$@")
    twice=$(leaked "${expected[1]}" "${arguments[@]}" "${repeat[@]}")
    printf '%-14s %10s %10s\n' "$name" "$once" "$twice"
    [ "$twice" -le "$once" ] || failed+=("$name")
}

failed=()
echo "Bytes definitely leaked at N=$iterations and 2N, N/10 and N/5 boxes for the trackers (LeakSanitizer; reports in $log)"
printf '%-14s %10s %10s\n' task N 2N
check faces 0 "$iterations" "faces --landmarks" "$media/astronaut.png"
check objects 0 "$iterations" "objects --multiple --classify" "$media/dog.jpg"
check labels 0 "$iterations" "labels" "$media/chelsea.png"
check embeddings 0 "$iterations" "embeddings" "$media/coffee.png"
check segment 0 "$iterations" "segment" "$media/person.jpg"
check pose 0 "$iterations" "pose" "$media/person.jpg"
check hands 0 "$iterations" "hands" "$work/hands.png"
check rectangles 0 "$iterations" "rectangles" "$media/page.png"
check barcodes 0 "$iterations" "barcodes" "$media/pyzbar-qrcode.png"
check text 0 "$iterations" "text" "$media/page.png"
# The trackers: N/10, then N/5, seed boxes (one tracker each) through the clip, one JSON line per frame. Each
# box is 30 calls, and an accurate tracker's 30 frames take about 3.5 s under the sanitizer here: 200 and 400
# boxes kept that row running past half an hour.
boxes=$((iterations >= 10 ? iterations / 10 : 1))
check track-fast 30 "$boxes" "track $work/clip.avi --level fast" --box 100,30,120,140
check track-accurate 30 "$boxes" "track $work/clip.avi --level accurate" --box 100,30,120,140
if [ "${#failed[@]}" -gt 0 ]; then
    echo "Leaks that grow with N: ${failed[*]}" >&2
    exit 1
fi
