#!/usr/bin/env bash
# Installs the Debian packages SwiftVision builds against and that set-up uses, when any is missing,
# and makes sure the package lists can serve `apt-get download darknet` (set-up's sample photos).
#
# Quiet: it prints nothing when there is nothing to do, else one line on stderr; apt's own output
# goes to $SWIFTVISION_CACHE/logs/apt.log, which a failure names.
#
# The lists are refreshed (`apt-get update`) only when a step needs them: they are missing or more
# than a day old, a package to install or darknet has no candidate, or an install failed on them.
set -euo pipefail

packages=(pkg-config libopencv-dev libopencv-contrib-dev libzxing-dev libtesseract-dev tesseract-ocr-eng tesseract-ocr-osd
          tesseract-ocr
          # The shim decodes and encodes JPEG, PNG and WebP itself (codecs.cpp): their headers.
          libpng-dev libjpeg-dev libwebp-dev
          # WordNet 3.0's noun hierarchy: build-general-labels.py derives the general labels from it.
          wordnet-base
          # build-zxing.sh compiles zxing-cpp 3's reader from its source distribution.
          g++
          # `swiftvision setup` runs `python3 -m pip download`; build-models.sh and
          # setup-reference-env.sh run `python3 -m venv`. A plain Debian 12 has neither.
          python3-pip python3-venv
          # Model downloads load libcurl.so.4 with dlopen on the first download (CurlLibrary.swift).
          libcurl4
          # HEIF (iPhone photos) and AVIF: the shim loads libheif.so.1 with dlopen on the first one (heif.cpp).
          libheif1)
# `--tests` adds what only the tests use: a real browser for the web page's test, GStreamer's RTSP
# server (through Debian's python3-gi) for the sources' reconnect test, PostgreSQL 15's server for
# the collections' PostgreSQL store, libheif's own encoder and decoder tools, the truth of the HEIF
# and AVIF decoding test, and the `ffmpeg` and `ffprobe` commands, which write the sound-only MP4 of the
# service's test and say what it holds; `--bench` adds the HTTP load generator of the service's benchmark.
[ "${1:-}" = --tests ] && packages+=(chromium python3-gi gir1.2-gst-rtsp-server-1.0 gstreamer1.0-plugins-good postgresql-15
                                    libheif-examples ffmpeg)
[ "${1:-}" = --bench ] && packages+=(wrk)
missing=()
for package in "${packages[@]}"; do
    [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" = "install ok installed" ] || missing+=("$package")
done

cache="${SWIFTVISION_CACHE:-$HOME/.cache/swiftvision}"
# Set-up gets the sample photos with `apt-get download darknet` unless the package is in its downloads.
needs_darknet=1
compgen -G "$cache/downloads/darknet_*.deb" >/dev/null && needs_darknet=0

[ ${#missing[@]} -eq 0 ] && [ $needs_darknet -eq 0 ] && exit 0

# Whether `apt-get update` ran in the last day and left lists behind. apt keeps the times of list
# files it did not need to replace, but always writes in lists/partial, so that folder dates it.
lists_fresh() {
    local lists=/var/lib/apt/lists
    eval "$(apt-config shell lists Dir::State::lists/d)"
    compgen -G "$lists/*_Packages*" >/dev/null || return 1
    [ -n "$(find "$lists/partial" -maxdepth 0 -mmin -1440 2>/dev/null)" ]
}

# Whether the lists offer a version of each package named.
have_candidates() {
    local package
    for package; do
        LC_ALL=C apt-cache policy "$package" 2>/dev/null | grep '^  Candidate: [^(]' >/dev/null || return 1
    done
}

wanted=("${missing[@]}")
[ $needs_darknet -eq 1 ] && wanted+=(darknet)

needs_refresh=0
lists_fresh && have_candidates "${wanted[@]}" || needs_refresh=1
[ ${#missing[@]} -eq 0 ] && [ $needs_refresh -eq 0 ] && exit 0

log_file="$cache/logs/apt.log"
mkdir -p "${log_file%/*}"
: >"$log_file"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
started=$SECONDS
updated=0

# Runs apt-get as root, non-interactively, with its output in the log.
apt_get() {
    echo "+ apt-get $*" >>"$log_file"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get -y -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=600 "$@" \
        </dev/null >>"$log_file" 2>&1
}

# Names the log, with apt's errors, and stops.
fail() {
    echo "system-packages: $1 after $((SECONDS - started)) s; full log: $log_file" >&2
    grep '^E: ' "$log_file" | tail -n 5 | sed 's/^/  /' >&2 || true
    exit 1
}

refresh() {
    apt_get update || fail "\`apt-get update\` failed"
    updated=1
}

[ $needs_refresh -eq 1 ] && refresh
if [ ${#missing[@]} -gt 0 ]; then
    if ! apt_get install --no-install-recommends "${missing[@]}"; then
        # Lists up to a day old can name versions the mirror no longer has.
        [ $updated -eq 1 ] && fail "\`apt-get install ${missing[*]}\` failed"
        refresh
        apt_get install --no-install-recommends "${missing[@]}" || fail "\`apt-get install ${missing[*]}\` failed"
    fi
fi
if [ $needs_darknet -eq 1 ] && ! have_candidates darknet; then
    fail "the package lists have no darknet (set-up downloads its sample photos)"
fi

steps=()
[ $updated -eq 1 ] && steps+=("refreshed the package lists")
if [ ${#missing[@]} -gt 0 ]; then
    others=$(( $(grep -c '^Setting up ' "$log_file" || true) - ${#missing[@]} ))
    steps+=("installed ${missing[*]}$([ $others -gt 0 ] && echo " (with $others more they need)")")
fi
summary="${steps[0]}"
[ ${#steps[@]} -gt 1 ] && summary+=" and ${steps[1]}"
echo "system-packages: $summary in $((SECONDS - started)) s; log: $log_file" >&2
