# xvfb.sh is sourced by the scripts that run the kiosk in a real X window without a display:
# start_xvfb SIZE starts Xvfb on a free display, exports DISPLAY, waits until it answers, and
# stops it (and the process in $app, if set) on exit.
#
# Xvfb picks the display itself (-displayfd: the first number free of a lock, told back on a
# descriptor). A random number tried before could be one another run's Xvfb already held: ours
# then exited at once, xdpyinfo answered from theirs, and the kiosk drew — and the screenshot
# was taken — on the other run's screen, at its size (seen with five engineers' test runs on
# one machine).
start_xvfb() {
	local size=${1:-1920x1080} dfile
	dfile=$(mktemp)
	Xvfb -displayfd 3 -screen 0 "${size}x24" -nolisten tcp 3>"$dfile" >"/tmp/xvfb-$$.log" 2>&1 &
	xvfb=$!
	app=""
	trap 'stop_xvfb' EXIT
	for _ in $(seq 50); do
		if [ -s "$dfile" ]; then
			DISPLAY=:$(head -n1 "$dfile")
			export DISPLAY
			rm -f "$dfile"
			for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && return 0; sleep 0.1; done
			break
		fi
		kill -0 "$xvfb" 2>/dev/null || break
		sleep 0.1
	done
	rm -f "$dfile"
	echo "Xvfb did not start:"; cat "/tmp/xvfb-$$.log"; return 1
}

stop_xvfb() {
	[ -n "${app:-}" ] && kill "$app" 2>/dev/null
	kill "$xvfb" 2>/dev/null
	wait 2>/dev/null || true
}
