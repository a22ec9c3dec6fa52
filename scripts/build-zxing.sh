#!/usr/bin/env bash
# Builds zxing-cpp 3.1.1's reader, with its C API, into $SWIFTVISION_CACHE/lib/libZXing-swiftvision.so,
# the barcode reader SwiftVision loads with dlopen (Debian's zxing-cpp 1.4 is the fallback when it is absent).
#
# 1. $CACHE/downloads: the source distribution from PyPI (`pip download`), checked against its pinned SHA-256.
# 2. Its core/ sources, readers only, compiled with g++ (two at a time) at -O3, as the CMake Release build of
#    zxing-cpp's Python wheel (-O2 read 15-25% slower), with the Version.h that CMake would generate written
#    here. The process also links Debian's libZXing.so.2 (the same C++ namespace), so the library exports
#    only the C API (`ZXing_*`): hidden visibility, a version script and -Bsymbolic.
# One line of output; the compiler's output goes to $CACHE/logs/build-zxing.log. A second run does nothing
# and needs no network.
set -euo pipefail

VERSION=3.1.1
SHA256=1051a521b21a9fe206702ad4186aeb195154e3e1badcd99576d030723f36382b
CACHE=${SWIFTVISION_CACHE:-$HOME/.cache/swiftvision}
ARCHIVE=$CACHE/downloads/zxing_cpp-$VERSION.tar.gz
LIBRARY=$CACHE/lib/libZXing-swiftvision.so
STAMP=$CACHE/lib/.libZXing-swiftvision.stamp
LOG=$CACHE/logs/build-zxing.log
JOBS=${ZXING_BUILD_JOBS:-2}

sha_of() { sha256sum "$1" | cut -d' ' -f1; }
# What the library is built from: the archive and this script.
stamp() { echo "$VERSION $SHA256 $(sha_of "${BASH_SOURCE[0]}")"; }

mkdir -p "$CACHE/downloads" "$CACHE/lib" "$CACHE/logs"
exec 9>"$CACHE/.build-zxing.lock"
flock 9

if [[ -f $LIBRARY && -f $STAMP && $(cat "$STAMP") == "$(stamp)" ]]; then
    echo "zxing-cpp $VERSION: up to date"
    exit 0
fi

start=$SECONDS
work=$(mktemp -d "$CACHE/.build-zxing.XXXXXX")
trap 'rm -rf "$work"' EXIT
: >"$LOG"

if [[ ! -f $ARCHIVE || $(sha_of "$ARCHIVE") != "$SHA256" ]]; then
    python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary zxing-cpp \
        -d "$work" "zxing-cpp==$VERSION" >>"$LOG" 2>&1
    got=$(sha_of "$work/zxing_cpp-$VERSION.tar.gz")
    [[ $got == "$SHA256" ]] || { echo "zxing-cpp $VERSION: sha256 $got, pinned $SHA256" >&2; exit 1; }
    mv -f "$work/zxing_cpp-$VERSION.tar.gz" "$ARCHIVE"
fi

tar -xzf "$ARCHIVE" -C "$work"
source=$work/zxing_cpp-$VERSION/core/src
mkdir -p "$work/generated" "$work/objects"
# core/Version.h.in as CMake fills it for a reader-only build with the experimental API (as the Python wheel).
cat >"$work/generated/Version.h" <<EOF
#pragma once
#define ZXING_READERS
#define ZXING_ENABLE_1D 1
#define ZXING_ENABLE_AZTEC 1
#define ZXING_ENABLE_DATAMATRIX 1
#define ZXING_ENABLE_MAXICODE 1
#define ZXING_ENABLE_PDF417 1
#define ZXING_ENABLE_QRCODE 1
#define ZXING_EXPERIMENTAL_API
#define ZXING_VERSION_MAJOR ${VERSION%%.*}
#define ZXING_VERSION_MINOR $(echo "$VERSION" | cut -d. -f2)
#define ZXING_VERSION_PATCH ${VERSION##*.}
#define ZXING_VERSION_SUFFIX ""
#define ZXING_VERSION_STR "$VERSION"
EOF
echo '{ global: ZXing_*; local: *; };' >"$work/exports.map"

# The reader sources: everything but the writers and encoders (CMake's ZXING_WRITERS_OLD lists) and libzint.
(cd "$source" && find . \( -name '*.cpp' -o -name '*.c' \) ! -path './libzint/*' |
    grep -Ev '(Writer|Encoder|AZToken|DMSymbolInfo|QRMaskUtil|QRMatrixUtil)[^/]*\.cpp$' | sort) >"$work/sources"

export source work
# shellcheck disable=SC2016  # expanded by the inner shell
xargs -P "$JOBS" -I{} sh -c '
    file={}; object="$work/objects/$(echo "${file#./}" | tr / _).o"
    case $file in
        *.c) exec gcc -c -O3 -fPIC -fvisibility=hidden -DNDEBUG -I"$source" "$source/$file" -o "$object" ;;
        ./ZXingC.cpp) visibility="" ;;
        *) visibility=-fvisibility=hidden ;;
    esac
    exec g++ -c -std=c++20 -O3 -fPIC $visibility -fvisibility-inlines-hidden -DNDEBUG -DZXING_INTERNAL \
        -fmacro-prefix-map="$source/=" -I"$work/generated" -I"$source" "$source/$file" -o "$object"
' <"$work/sources" >>"$LOG" 2>&1 || { echo "zxing-cpp $VERSION: compiling failed, see $LOG" >&2; exit 1; }

g++ -shared -o "$work/libZXing-swiftvision.so" "$work"/objects/*.o -pthread -Wl,-Bsymbolic \
    -Wl,--version-script="$work/exports.map" -Wl,-soname,libZXing-swiftvision.so >>"$LOG" 2>&1 ||
    { echo "zxing-cpp $VERSION: linking failed, see $LOG" >&2; exit 1; }
if nm -D --defined-only "$work/libZXing-swiftvision.so" | awk '$2 ~ /[TDBVWR]/ && $3 !~ /^ZXing_/' | grep -q .; then
    echo "zxing-cpp $VERSION: the library exports more than the C API, see nm -D" >&2
    exit 1
fi
mv -f "$work/libZXing-swiftvision.so" "$LIBRARY"
stamp >"$STAMP"
echo "zxing-cpp $VERSION: built in $((SECONDS - start)) s"
