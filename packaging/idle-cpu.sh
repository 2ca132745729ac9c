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
# After play (issue 18: "the same after any amount of play"): IDLE_TAPS=N has cmd/kioskprobe
# tap N of the felt's numbers (cycling 1..36, XTest, each waited for on the window's pixels) and
# IDLE_CHIP_TAPS=M then M chips of the tray, after the settle and before the readings; the
# readings then start IDLE_SETTLE seconds later, in the same period. The period is
# IDLE_PERIOD (default 60s, as without taps; give it room for the taps, e.g. 150s for 300). With
# IDLE_ROUNDS=K the readings wait instead until the kiosk has shown K results since the
# taps (its log's round lines) and the next period has opened (IDLE_SETTLE seconds after it):
# the screen after rounds of play, chips cleared. A fresh reading (no IDLE_TAPS) is unchanged.
#
# IDLE_PROFILE=FILE saves a CPU profile of the kiosk (Go's, from its loopback -pprof, which the
# script turns on) over one more SECONDS after the readings, so the profile's own cost is in no
# reading: `go tool pprof -top FILE`. IDLE_PERF=FILE likewise records `perf record -g` of the
# whole process (Mesa's C side too) over one more SECONDS: `perf report -i FILE --sort sym`.
# IDLE_STAT=EVENTS counts perf events (e.g. uprobes put on the binary's GL calls with
# `perf probe -x BINARY`) over one more SECONDS: `perf stat -e EVENTS`.
#
#   go build -o /tmp/kiosk . && bash packaging/idle-cpu.sh /tmp/kiosk 20 2
#   IDLE_TAPS=300 IDLE_PERIOD=150s bash packaging/idle-cpu.sh /tmp/kiosk 15 3
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:?binary}")
secs=${2:-20}
samples=${3:-1}
if [ -n "${IDLE_FRAMES:-}${IDLE_TAPS:-}" ]; then
	probe=$(mktemp -d)/kioskprobe
	CGO_ENABLED=0 go build -o "$probe" ./cmd/kioskprobe
fi
source packaging/xvfb.sh
start_xvfb "${SCREEN_SIZE:-1920x1080}"
state=$(mktemp -d)
log=$state/kiosk.log
pprof=()
if [ -n "${IDLE_PROFILE:-}" ]; then
	port=$((20000 + RANDOM % 20000))
	pprof=(-pprof "127.0.0.1:$port")
fi
# shellcheck disable=SC2086 # KIOSK_ARGS is a list of arguments
ATS_STATE_DIR=$state "$bin" -demo-period "${IDLE_PERIOD:-60s}" "${pprof[@]}" ${KIOSK_ARGS:-} >"$log" 2>&1 &
app=$!
sleep "${IDLE_SETTLE:-8}"
if ! kill -0 "$app" 2>/dev/null; then echo "the kiosk exited early:"; tail -20 "$log"; exit 1; fi
if [ -n "${IDLE_TAPS:-}" ]; then
	# The probe's figures are not this script's: only say how the taps went.
	rounds0=$(grep -c ' rounds=' "$log" || true)
	"$probe" -taps "$IDLE_TAPS" -chip-taps "${IDLE_CHIP_TAPS:-0}" -gap "${IDLE_TAP_GAP:-60ms}" | sed 's/^/taps: /'
	if [ -n "${IDLE_ROUNDS:-}" ]; then
		until [ "$(grep -c ' rounds=' "$log" || true)" -ge $((rounds0 + IDLE_ROUNDS)) ]; do
			kill -0 "$app" 2>/dev/null || { echo "the kiosk exited:"; tail -20 "$log"; exit 1; }
			sleep 1
		done
		echo "after $IDLE_ROUNDS rounds: $(grep ' rounds=' "$log" | tail -1 | grep -o 'rounds=[0-9]* rss_mb=[0-9]*')"
	fi
	sleep "${IDLE_SETTLE:-8}"
fi
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
if [ -n "${IDLE_PROFILE:-}" ]; then
	curl -sf -o "$IDLE_PROFILE" "http://127.0.0.1:$port/debug/pprof/profile?seconds=$secs" &&
		echo "profile over $secs s: $IDLE_PROFILE" || echo "no profile"
fi
if [ -n "${IDLE_PERF:-}" ]; then
	perf record -q -g -p "$app" -o "$IDLE_PERF" -- sleep "$secs" >/dev/null 2>&1 &&
		echo "perf over $secs s: $IDLE_PERF" || echo "no perf record"
fi
if [ -n "${IDLE_STAT:-}" ]; then
	perf stat -e "$IDLE_STAT" -p "$app" -- sleep "$secs" 2>&1 | grep -v '^$'
fi
