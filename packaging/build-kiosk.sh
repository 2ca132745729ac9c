#!/usr/bin/env bash
# build-kiosk.sh OUT builds the kiosk binary the way every script ships it: with cgo (Fyne's
# GLFW driver) and the no_emoji tag — a casino screen draws no emoji, and Fyne's colour emoji
# font otherwise costs 4 MB of binary and ~10 MB of heap in every text style it loads.
set -euo pipefail
cd "$(dirname "$0")/.."
CGO_ENABLED=1 go build -tags no_emoji -o "${1:?output path}" .
