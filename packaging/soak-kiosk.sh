#!/usr/bin/env bash
# soak-kiosk.sh BINARY [ROUNDS] runs the kiosk in demo mode under Xvfb with a fast auto-dealer
# (1 s wagering period, 300 ms spin and result) until it has shown ROUNDS results (default 100),
# and prints its start-to-first-frame time and its resident memory after each 25 rounds, read
# from the kiosk's own log. Targets (issue 4): first frame <= 1.5 s, RSS <= 150 MB after 100 rounds.
set -euo pipefail
bin=${1:?binary}
rounds=${2:-100}
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp >/tmp/xvfb-soak.log 2>&1 &
xvfb=$!
app=""
cleanup() { [ -n "$app" ] && kill "$app" 2>/dev/null; kill "$xvfb" 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 50); do xdpyinfo -display "$display" >/dev/null 2>&1 && break; sleep 0.1; done
state=$(mktemp -d)
log=$state/kiosk.log
DISPLAY=$display ATS_STATE_DIR=$state "$bin" -demo-period 1s -demo-spin 300ms >"$log" 2>&1 &
app=$!
deadline=$((SECONDS + rounds * 4 + 60))
while ! grep -q "rounds=$rounds " "$log"; do
	if ! kill -0 "$app" 2>/dev/null; then echo "the kiosk exited:"; tail -20 "$log"; exit 1; fi
	if [ $SECONDS -gt $deadline ]; then echo "no $rounds rounds in time:"; tail -5 "$log"; exit 1; fi
	sleep 2
done
grep -o 'msg="first frame" after=[^ ]*' "$log" | head -1
grep -E "rounds=(1|25|50|75|$rounds) " "$log" | grep -o 'rounds=[0-9]* rss_mb=[0-9]*'
