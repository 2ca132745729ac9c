#!/usr/bin/env bash
# journeys.sh BINARY walks a player's journeys through the demo kiosk's real window and reads the
# screen back as a player does (issue 32): for each screen size in JOURNEY_SIZES (default
# "1920x1080 1280x800") it starts an Xvfb of that size and runs `kioskprobe journey`, which starts
# the kiosk binary for each design and language, taps with XTest at words it reads (tesseract),
# takes a screenshot after each step and fails when the words a player must read are not there,
# not on one line, or stale. The screenshots are kept in build/journeys/. JOURNEY_ARGS are given to
# the probe (e.g. -only cash-out -designs A -langs en, or -pending for the journeys waiting for
# the app side of issue 32).
#
#   bash packaging/build-kiosk.sh build/ats && bash packaging/journeys.sh build/ats
set -euo pipefail
bin=${1:?binary}
cd "$(dirname "$0")/.."
probe=$(mktemp -d)/kioskprobe
CGO_ENABLED=0 go build -o "$probe" ./cmd/kioskprobe
status=0
for size in ${JOURNEY_SIZES:-1920x1080 1280x800}; do
	echo "-- $size"
	(
		source packaging/xvfb.sh
		start_xvfb "$size"
		# shellcheck disable=SC2086 # JOURNEY_ARGS is a list of arguments
		"$probe" journey -kiosk "$bin" -out build/journeys ${JOURNEY_ARGS:-}
	) || status=1
done
exit $status
