#!/usr/bin/env bash
# soak-kiosk.sh BINARY [ROUNDS] runs the kiosk in demo mode under Xvfb with a fast auto-dealer
# (1 s wagering period, 300 ms spin and result) until it has shown ROUNDS results (default 100),
# and prints its start-to-first-frame time and its resident memory after each 25 rounds, read
# from the kiosk's own log. Targets (issue 4): first frame <= 1.5 s, RSS <= 150 MB after 100 rounds.
set -euo pipefail
bin=${1:?binary}
rounds=${2:-100}
source "$(dirname "$0")/xvfb.sh"
start_xvfb 1920x1080
state=$(mktemp -d)
log=$state/kiosk.log
ATS_STATE_DIR=$state "$bin" -demo-period 1s -demo-spin 300ms >"$log" 2>&1 &
app=$!
deadline=$((SECONDS + rounds * 4 + 60))
while ! grep -q "rounds=$rounds " "$log"; do
	if ! kill -0 "$app" 2>/dev/null; then echo "the kiosk exited:"; tail -20 "$log"; exit 1; fi
	if [ $SECONDS -gt $deadline ]; then echo "no $rounds rounds in time:"; tail -5 "$log"; exit 1; fi
	sleep 2
done
grep -o 'msg="first frame" after=[^ ]*' "$log" | head -1
grep -E "rounds=(1|25|50|75|$rounds) " "$log" | grep -o "rounds=[0-9]* rss_mb=[0-9]* go_heap_mb=[0-9]* go_sys_mb=[0-9]*"
