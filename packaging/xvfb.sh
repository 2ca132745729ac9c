# xvfb.sh is sourced by the scripts that run the kiosk in a real X window without a display:
# start_xvfb SIZE starts Xvfb on a free display number, exports DISPLAY, waits until it answers,
# and stops it (and the process in $app, if set) on exit.
start_xvfb() {
	local size=${1:-1920x1080}
	DISPLAY=:$((90 + RANDOM % 100))
	export DISPLAY
	Xvfb "$DISPLAY" -screen 0 "${size}x24" -nolisten tcp >"/tmp/xvfb${DISPLAY#:}.log" 2>&1 &
	xvfb=$!
	app=""
	trap 'stop_xvfb' EXIT
	for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && return 0; sleep 0.1; done
	echo "Xvfb did not start on $DISPLAY"; return 1
}

stop_xvfb() {
	[ -n "${app:-}" ] && kill "$app" 2>/dev/null
	kill "$xvfb" 2>/dev/null
	wait 2>/dev/null || true
}
