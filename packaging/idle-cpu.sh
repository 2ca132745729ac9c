#!/usr/bin/env bash
# idle-cpu.sh BINARY [SECONDS] [SAMPLES] measures what the kiosk costs the machine while nobody
# touches it (issue 18: <= 5 % of a core during a wagering period with the countdown running).
# It starts the kiosk in demo mode in a real X window under Xvfb (software GL) with a 60 s
# wagering period, waits IDLE_SETTLE seconds (default 8) for the first frame and the period to
# open, then reads the kiosk's utime+stime from /proc/PID/stat over SECONDS (default 20, inside
# the 60 s period) and prints the share of one core. SAMPLES (default 1) repeats the reading back
# to back in the same run; keep SAMPLES*SECONDS + IDLE_SETTLE under 60 so every reading falls in
# the first wagering period. KIOSK_ARGS are given to the kiosk (e.g. -design U); SCREEN_SIZE
# sets the screen (default 1920x1080). The machine's other load shows in the figure: measure on
# an idle machine, and read a spread of runs. With IDLE_FRAMES=1 cmd/kioskprobe counts the
# frames the window draws during the first reading (its -frames): about one a second is the
# countdown's change; more is something redrawn that did not change. With IDLE_THREADS=1 each
# reading is followed by its split over the kiosk's threads (/proc/PID/task/*/stat, grouped by
# thread name: llvmpipe-N are Mesa's software-GL painters, the rest the kiosk's Go and cgo
# threads), to tell the frames' painting from the event loop's waking.
#
#   go build -o /tmp/kiosk . && bash packaging/idle-cpu.sh /tmp/kiosk 20 2
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:?binary}")
secs=${2:-20}
samples=${3:-1}
if [ -n "${IDLE_FRAMES:-}" ]; then
	probe=$(mktemp -d)/kioskprobe
	CGO_ENABLED=0 go build -o "$probe" ./cmd/kioskprobe
fi
source packaging/xvfb.sh
start_xvfb "${SCREEN_SIZE:-1920x1080}"
state=$(mktemp -d)
log=$state/kiosk.log
# shellcheck disable=SC2086 # KIOSK_ARGS is a list of arguments
ATS_STATE_DIR=$state "$bin" -demo-period 60s ${KIOSK_ARGS:-} >"$log" 2>&1 &
app=$!
sleep "${IDLE_SETTLE:-8}"
if ! kill -0 "$app" 2>/dev/null; then echo "the kiosk exited early:"; tail -20 "$log"; exit 1; fi
hz=$(getconf CLK_TCK)
ticks() { awk '{print $14+$15}' "/proc/$app/stat"; }
# threads prints "name ticks" for every thread of the kiosk (the name is between parentheses
# in stat and may hold spaces; the counters are read after the closing one).
threads() {
	for f in /proc/"$app"/task/*/stat; do
		sed -E 's/^[0-9]+ \((.*)\) (.*)$/\1\t\2/' "$f" 2>/dev/null |
			awk -F'\t' '{ split($2, a, " "); n = $1; gsub(/ /, "_", n); print n, a[12] + a[13] }'
	done | awk '{ t[$1] += $2 } END { for (n in t) print n, t[n] }'
}
for i in $(seq "$samples"); do
	counter=""
	if [ -n "${IDLE_FRAMES:-}" ] && [ "$i" = 1 ]; then
		"$probe" -frames "${secs}s" | tail -1 &
		counter=$!
	fi
	[ -n "${IDLE_THREADS:-}" ] && threads >"$state/threads0"
	t0=$(ticks); s0=$(date +%s.%N)
	sleep "$secs"
	t1=$(ticks); s1=$(date +%s.%N)
	[ -n "${IDLE_THREADS:-}" ] && threads >"$state/threads1"
	awk -v t="$((t1 - t0))" -v hz="$hz" -v s0="$s0" -v s1="$s1" -v n="$secs" \
		'BEGIN { printf "idle cpu: %.1f %% of a core over %d s (%d ticks)\n", t / hz / (s1 - s0) * 100, n, t }'
	if [ -n "${IDLE_THREADS:-}" ]; then
		# A thread that ended during the reading is missing from threads1: its ticks are not
		# counted here (they are in the total above, which is the process's).
		awk -v hz="$hz" -v s="$secs" 'NR == FNR { a[$1] = $2; next }
			{ d = $2 - a[$1]; if (d > 0) printf "  %-16s %5.2f %% (%d ticks)\n", $1, d / hz / s * 100, d }' \
			"$state/threads0" "$state/threads1" | sort -k2 -rn
	fi
	if [ -n "$counter" ]; then wait "$counter" || true; fi
done
