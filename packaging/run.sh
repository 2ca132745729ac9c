#!/usr/bin/env bash
# run.sh runs the product: the kiosk in demo mode, with the embedded table server, an
# auto-dealer and emulated devices. Extra arguments go to the kiosk (see `go run . -h`).
# Without a display (an SSH session, a container) it runs under Xvfb and keeps a screenshot
# of the screen at build/screenshot.png, refreshed every few seconds. On a desktop it opens the
# kiosk in a window (-windowed): close the window, or Ctrl-C here, to stop it. The packaged
# cabinet runs it full screen and locked (ats-kiosk.service), where no key leaves it.
#
# With -wnd first (bash packaging/run.sh -wnd [kiosk arguments]) the table's winning number
# display runs beside the kiosk (cmd/wnd, in a 1280x720 window; without a display, on a second
# Xvfb, screenshots at build/wnd-screenshot.png), following the demo table with the display
# certificate the demo leaves in its state directory (ATS_STATE_DIR, here build/demo-wnd unless
# set; notes/wnd.md).
set -euo pipefail
wnd=""
if [ "${1:-}" = "-wnd" ]; then
	wnd=1
	shift
	export ATS_STATE_DIR=${ATS_STATE_DIR:-$PWD/build/demo-wnd}
fi
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
if [ -z "$wnd" ]; then
	./build/ats "$@" || exec_status=$?
	exit $exec_status
fi
CGO_ENABLED=1 go build -tags no_emoji -o build/wnd ./cmd/wnd
rm -f "$ATS_STATE_DIR/wnd/addr"
./build/ats "$@" &
kiosk=$!
for _ in $(seq 100); do [ -s "$ATS_STATE_DIR/wnd/addr" ] && break; sleep 0.2; done
wnd_display=${DISPLAY:-}
if [ -n "${xvfb:-}" ]; then
	# The kiosk has the first Xvfb to itself; the display gets its own screen.
	wnd_display=:78
	Xvfb "$wnd_display" -screen 0 1920x1080x24 -nolisten tcp >/tmp/xvfb-run-wnd.log 2>&1 &
	xvfb_wnd=$!
	sleep 1
	( while sleep 5; do import -display "$wnd_display" -window root png:build/wnd-screenshot.png.part 2>/dev/null &&
		mv build/wnd-screenshot.png.part build/wnd-screenshot.png || true; done ) &
	shot_wnd=$!
	trap 'kill $shot $xvfb $shot_wnd $xvfb_wnd 2>/dev/null' EXIT
	echo "the winning number display on $wnd_display; screenshots at build/wnd-screenshot.png"
fi
DISPLAY=$wnd_display ./build/wnd -windowed -size 1280x720 -server "$(cat "$ATS_STATE_DIR/wnd/addr")" \
	-pki "$ATS_STATE_DIR/wnd" -id wnd-1 &
wnd_pid=$!
wait $kiosk || exec_status=$?
kill $wnd_pid 2>/dev/null || true
exit $exec_status
