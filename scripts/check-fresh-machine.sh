#!/usr/bin/env bash
# Proves that scripts/install-system-packages.sh turns a fresh Debian 12 into a machine where
# set-up's own downloads work, by running it in a chroot of a minimal Debian 12 root:
#
#   1. install-system-packages.sh with no packages and emptied apt lists: one line, and it installs
#      and refreshes the lists; a second run prints nothing; emptied lists and day-old lists, with
#      the packages in place, are refreshed (`apt-get download darknet` needs them);
#   2. `python3 -m pip download ai-edge-litert==2.3.0 ...` with Debian's pip (as `swiftvision setup`);
#   3. `apt-get download darknet` (set-up's sample photos), and a photo out of it with its pinned sum;
#   4. `python3 -m venv` (build-models.sh and setup-reference-env.sh), with pip working inside it;
#   5. with --full, build-models.sh, build-general-labels.py and setup-reference-env.sh themselves.
#
# The chroot has no Swift toolchain, so it cannot build SwiftVision or run `make test`: this checks
# the system half of a fresh machine, the Swift half is what `make test` checks on a real one.
#
#   sudo scripts/check-fresh-machine.sh [--full] [--rebuild] [--keep]
#
# --rebuild makes the Debian root anew; --keep leaves the chroot used in place for a look.
# Needs root (debootstrap, mount, chroot) and installs debootstrap on the host if missing.
# Everything it makes lives in $SWIFTVISION_CACHE/fresh-machine (default ~/.cache/swiftvision):
# the pristine root (made once with debootstrap, about 2 minutes), the chroot of each run (a copy
# of it) and the .deb files apt downloads, shared between runs.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${SWIFTVISION_CACHE:-$HOME/.cache/swiftvision}
work=$cache/fresh-machine
base=$work/bookworm-minbase
target=$work/chroot
archives=$work/apt-archives
full=0 rebuild=0 keep=0
for arg; do
    case $arg in
        --full) full=1 ;;
        --rebuild) rebuild=1 ;;
        --keep) keep=1 ;;
        *) echo "usage: $0 [--full] [--rebuild] [--keep]" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" -eq 0 ] || { echo "check-fresh-machine: needs root (debootstrap, mount, chroot)" >&2; exit 2; }

say() { echo "check-fresh-machine: $*" >&2; }

timings=()
failures=0
# Runs "$@" as the step named $1, timed; a failed step is counted and the check goes on.
step() {
    local name=$1 status=0 t0 t1 seconds
    shift
    t0=$(date +%s%N)
    "$@" || status=$?
    t1=$(date +%s%N)
    seconds=$(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.1f", ns / 1e9 }')
    if [ $status -eq 0 ]; then
        say "$name: ok in $seconds s"
        timings+=("$(printf '%8s s  %s' "$seconds" "$name")")
    else
        say "$name: FAILED (exit $status) after $seconds s"
        timings+=("$(printf '%8s s  %s  FAILED' "$seconds" "$name")")
        failures=$((failures + 1))
    fi
    return 0
}

# --- the pristine root ----------------------------------------------------------------------------
mounts=()
cleanup() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true
    done
    mounts=()
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Refuses to go on while anything is mounted under $1: deleting it would reach into the mount.
assert_unmounted() {
    if grep -q " $1/" /proc/self/mounts; then
        say "something is still mounted under $1; unmount it first:"
        grep " $1/" /proc/self/mounts | cut -d' ' -f2 >&2
        exit 1
    fi
}

install_debootstrap() {
    while fuser /var/lib/dpkg/lock-frontend >/dev/null 2>&1; do sleep 10; done
    mkdir -p "$work"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=600 debootstrap \
        >"$work/debootstrap-install.log" 2>&1 ||
        { apt-get update >>"$work/debootstrap-install.log" 2>&1 &&
          DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=600 debootstrap \
              >>"$work/debootstrap-install.log" 2>&1; } ||
        { say "could not install debootstrap; see $work/debootstrap-install.log"; return 1; }
}

make_base() {
    assert_unmounted "$base.partial"
    rm -rf "$base.partial" && mkdir -p "$work" || return 1
    # minbase: essential packages and apt, no Python, no ca-certificates; the mirror is debootstrap's
    # default.
    debootstrap --variant=minbase bookworm "$base.partial" >"$work/debootstrap.log" 2>&1 ||
        { say "debootstrap failed; see $work/debootstrap.log"; return 1; }
    # The suites a Debian 12 install has (with updates and security), as the host names them.
    if [ -f /etc/apt/sources.list.d/debian.sources ] && grep -qs '^VERSION_CODENAME=bookworm' /etc/os-release; then
        cp /etc/apt/sources.list.d/debian.sources "$base.partial/etc/apt/sources.list.d/" &&
            rm -f "$base.partial/etc/apt/sources.list" || return 1
    fi
    rm -rf "$base.partial"/var/cache/apt/archives/*.deb
    mv "$base.partial" "$base"
}

command -v debootstrap >/dev/null || step "install debootstrap on the host" install_debootstrap
[ $failures -eq 0 ] || exit 1
assert_unmounted "$target"
if [ $rebuild -eq 1 ] || [ ! -d "$base" ]; then
    rm -rf "$base"
    step "debootstrap a minimal Debian 12 root" make_base
    [ $failures -eq 0 ] || exit 1
else
    say "reusing the Debian 12 root in $base (--rebuild makes it anew)"
fi

# --- the chroot -------------------------------------------------------------------------------------
copy_root() {
    rm -rf "$target" && cp -a "$base" "$target" && cp /etc/resolv.conf "$target/etc/resolv.conf" &&
        mkdir -p "$target/root/swiftvision" "$archives" &&
        cp -a "$repo/scripts" "$repo/tools" "$target/root/swiftvision/"
}

debs_before=$(find "$archives" -maxdepth 1 -name '*.deb' 2>/dev/null | wc -l || true)
step "copy the root into a chroot" copy_root
[ $failures -eq 0 ] || exit 1
[ "$debs_before" -eq 0 ] || say "($debs_before .deb files already in the shared apt cache $archives)"
for fs in proc sys; do
    mount -t "${fs/sys/sysfs}" "$fs" "$target/$fs"
    mounts+=("$target/$fs")
done
for dir in /dev /dev/pts "$archives:/var/cache/apt/archives"; do
    mount --bind "${dir%%:*}" "$target${dir#*:}"
    mounts+=("$target${dir#*:}")
done

chroot_env=(HOME=/root LANG=C.UTF-8 TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
# pip checks TLS against what the chroot trusts; give it what the host trusts, for a host whose
# connections go through a TLS-inspecting proxy.
if cp "${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}" "$target/etc/host-ca-certificates.crt" 2>/dev/null; then
    chroot_env+=(PIP_CERT=/etc/host-ca-certificates.crt)
fi
# Runs the bash script $1 as root in the chroot, in the copy of the repository, with a clean environment.
in_chroot() {
    chroot "$target" /usr/bin/env -i "${chroot_env[@]}" /bin/bash -euo pipefail -c "cd /root/swiftvision; $1"
}

# Runs install-system-packages.sh in the chroot after the shell commands $1; its output must be one
# line matching the regular expression $2, or nothing when $2 is empty.
check_install() {
    local out
    out=$(in_chroot "$1 scripts/install-system-packages.sh" 2>&1) || { printf '    | %s\n' "$out" >&2; return 1; }
    [ -z "$out" ] || printf '    | %s\n' "$out" >&2
    if [ -z "$2" ]; then
        [ -z "$out" ] || { say "expected no output"; return 1; }
    else
        if [ "$(wc -l <<<"$out")" -ne 1 ] || ! grep -Eq "$2" <<<"$out"; then
            say "expected one line matching /$2/"
            return 1
        fi
    fi
}

step "install-system-packages.sh on a fresh root with emptied apt lists" \
    check_install 'rm -rf /var/lib/apt/lists/*;' '^system-packages: refreshed the package lists and installed .*python3-pip'
[ $failures -eq 0 ] || { say "stopping: the install failed (its log is $target/root/.cache/swiftvision/logs/apt.log)"; keep=1; exit 1; }
step "install-system-packages.sh again: nothing to do, no output" check_install '' ''
step "... with the packages in place and the apt lists emptied: refreshed" \
    check_install 'rm -rf /var/lib/apt/lists/*;' '^system-packages: refreshed the package lists in'
step "... with apt lists two days old: refreshed" \
    check_install 'touch -d "2 days ago" /var/lib/apt/lists/partial;' '^system-packages: refreshed the package lists in'

say "python: $(in_chroot 'command -v python3; python3 --version; python3 -m pip --version' 2>&1 | tr '\n' ' ')"
# As AssetInstaller.fetch does; set-up itself asks for several platforms and for the other wheels.
step "python3 -m pip download ai-edge-litert==2.3.0 (as set-up)" in_chroot '
    rm -rf /tmp/x
    python3 -m pip download --quiet --no-deps --only-binary=:all: --dest /tmp/x ai-edge-litert==2.3.0 \
        --python-version 3.11 --platform manylinux_2_27_x86_64 --implementation cp
    ls -s /tmp/x >&2
    python3 - /tmp/x/ai_edge_litert-2.3.0-*.whl <<EOF
import hashlib, sys, zipfile
digest = hashlib.sha256(zipfile.ZipFile(sys.argv[1]).read("ai_edge_litert/libLiteRt.so")).hexdigest()
assert digest == "eec47eb35e2924b3166015887e652a58edc9af823ae38e02bf83bef2548300bb", digest
EOF'
step "apt-get download darknet (as set-up), and dog.jpg out of it" in_chroot '
    mkdir -p /root/.cache/swiftvision/downloads
    cd /root/.cache/swiftvision/downloads
    apt-get download -q darknet 2>&1 | tail -n 1 >&2
    sum=$(dpkg-deb --fsys-tarfile darknet_*.deb | tar -xO ./usr/share/darknet/data/dog.jpg | sha256sum | cut -d" " -f1)
    [ "$sum" = 5a9522051c3cec2bbd2f6323fccba32e8fbf3ddcc2b3e2fd46b04c720bc6f866 ]'
step "install-system-packages.sh with darknet downloaded: no output" check_install '' ''
step "python3 -m venv, and pip install in it" in_chroot '
    rm -rf /tmp/venv
    python3 -m venv /tmp/venv
    /tmp/venv/bin/python -m pip install --quiet --disable-pip-version-check iniconfig==2.3.1
    /tmp/venv/bin/python -c "import iniconfig"'
if [ $full -eq 1 ]; then
    step "scripts/build-models.sh (tools venv, sources, eight models)" in_chroot 'scripts/build-models.sh'
    step "scripts/build-zxing.sh (zxing-cpp 3.1.1 from its sdist)" in_chroot 'scripts/build-zxing.sh'
    step "scripts/build-general-labels.py (timm's class order, WordNet)" in_chroot 'scripts/build-general-labels.py'
    step "scripts/setup-reference-env.sh" in_chroot '
        cp /tmp/x/ai_edge_litert-2.3.0-*.whl /root/.cache/swiftvision/downloads/
        scripts/setup-reference-env.sh'
fi

cleanup
if [ $keep -eq 0 ]; then
    assert_unmounted "$target"
    rm -rf "$target"
else
    say "the chroot is left in $target"
fi
echo "== check-fresh-machine timings (Debian 12 minbase chroot; no Swift in it, so no \`make test\`)"
printf '%s\n' "${timings[@]}"
if [ $failures -gt 0 ]; then
    echo "$failures step(s) failed"
    exit 1
fi
echo "all steps passed"
