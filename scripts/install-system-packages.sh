#!/usr/bin/env bash
# Installs the Debian packages SwiftVision builds against, when any is missing.
set -euo pipefail

packages=(pkg-config libopencv-dev libopencv-contrib-dev libzxing-dev libtesseract-dev tesseract-ocr-eng tesseract-ocr-osd
          tesseract-ocr python3-venv)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
