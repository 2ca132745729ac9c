#!/usr/bin/env bash
# setup.sh installs what a fresh Debian machine lacks to build, run and test the terminal:
# the C toolchain and X11/GL headers that Fyne's GLFW driver needs through cgo, ALSA's for
# the terminal's sounds (oto, cgo), Xvfb and
# ImageMagick for the real-window screenshot check, tesseract (English and Chinese) for the
# player journeys that read the screen back, PostgreSQL (the floor's shared ledger: the
# tests start throwaway clusters of their own with its initdb and pg_ctl), Chromium (the
# cage's page is tested in it, headless), and the Go modules
# (main and tools).
# It is idempotent and quiet when everything is already there, so both README commands call it.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev
	libxinerama-dev libxi-dev libxxf86vm-dev xvfb xauth x11-utils imagemagick
	libasound2-dev # internal/sound: oto plays the terminal's cues through ALSA (cgo)
	shellcheck systemd # shellcheck and systemd-analyze: for packaging/check-deb.sh
	tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim # packaging/journeys.sh reads the screen back
	chromium           # cmd/cagepage: the cashier's page tested in a real headless browser
	postgresql)        # internal/pgtest: initdb, pg_ctl and the postgres user
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	# Debian's postgresql starts a cluster of its own when installed, which we do not use.
	# Without systemd (a container) its postinst starts it through invoke-rc.d and fails the
	# whole install if that fails; a policy-rc.d that denies service starts (exit 101, the
	# way Debian's container images do it) keeps it from trying, for this install only.
	policy=/usr/sbin/policy-rc.d
	added_policy=""
	if [ ! -d /run/systemd/system ] && [ ! -e "$policy" ]; then
		printf '#!/bin/sh\n# added by packaging/setup.sh for one apt-get install\nexit 101\n' | $sudo tee "$policy" >/dev/null
		$sudo chmod 755 "$policy"
		added_policy=1
	fi
	status=0
	$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || status=$?
	[ -z "$added_policy" ] || $sudo rm -f "$policy"
	[ "$status" -eq 0 ] || exit "$status"
fi

if ! command -v go >/dev/null 2>&1; then
	echo "setup: Go 1.26 or newer is required (https://go.dev/doc/install)" >&2
	exit 1
fi
go mod download
(cd tools && go mod download)
