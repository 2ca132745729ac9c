#!/usr/bin/env bash
# run.sh runs the product: the kiosk in demo mode, with the embedded table server, an
# auto-dealer and emulated devices. Extra arguments go to the kiosk (see `go run . -h`).
# Without a display (an SSH session, a container) it runs under Xvfb and keeps a screenshot
# of the screen at build/screenshot.png, refreshed every few seconds. On a desktop it opens the
# kiosk in a window (-windowed): close the window, or Ctrl-C here, to stop it. The packaged
# cabinet runs it full screen and locked (ats-kiosk.service), where no key leaves it.
set -euo pipefail
cd "$(dirname "$0")/.."
# -console: the table server, the dealer's console and a kiosk side by side (run-console.sh).
if [ "${1:-}" = "-console" ]; then
	shift
	exec bash packaging/run-console.sh "$@"
fi
bash packaging/setup.sh
mkdir -p build
bash packaging/build-kiosk.sh build/ats
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
	display=:77
	Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp >/tmp/xvfb-run.log 2>&1 &
	xvfb=$!
	trap 'kill $xvfb 2>/dev/null' EXIT
	sleep 1
	export DISPLAY=$display
	echo "no display: running under Xvfb on $display; screenshots at build/screenshot.png"
	# Written aside and renamed: stopping the kiosk mid-capture never leaves a truncated screenshot.
	( while sleep 5; do import -display "$display" -window root png:build/screenshot.png.part 2>/dev/null &&
		mv build/screenshot.png.part build/screenshot.png || true; done ) &
	shot=$!
	trap 'kill $shot $xvfb 2>/dev/null' EXIT
else
	# A desktop: a window a newcomer can close, not the cabinet's locked full screen.
	set -- -windowed "$@"
	echo "running the kiosk in a window: close it, or press Ctrl-C here, to stop"
fi
exec_status=0
./build/ats "$@" || exec_status=$?
exit $exec_status
