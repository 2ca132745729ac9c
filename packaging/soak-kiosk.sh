#!/usr/bin/env bash
# soak-kiosk.sh BINARY [ROUNDS] runs the kiosk in demo mode under Xvfb with a fast auto-dealer
# (1 s wagering period, 300 ms spin and result) until it has shown ROUNDS results (default 100),
# and prints its start-to-first-frame time and its resident memory after each 25 rounds, read
# from the kiosk's own log, and its growth from round 10 to the last. Targets: first frame
# <= 1.5 s (issue 4); resident growth <= 5 MB over 500 rounds after round 10 (issue 18):
#   bash packaging/soak-kiosk.sh build/ats 510
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
grep -E "rounds=(1|10|25|50|75|100|200|300|400|500|$rounds) " "$log" | grep -o "rounds=[0-9]* rss_mb=[0-9]* go_heap_mb=[0-9]* go_sys_mb=[0-9]* gc_cycles=[0-9]*"
# Growth is judged after the warm-up (issue 18: at most 5 MB over 500 rounds after round 10):
# the first rounds fill the caches, the fonts and the GL driver's textures.
if [ "$rounds" -gt 10 ]; then
	at() { grep -E "rounds=$1 " "$log" | grep -o "rss_mb=[0-9]*" | head -1 | cut -d= -f2; }
	r10=$(at 10); rn=$(at "$rounds")
	echo "rss growth from round 10 to round $rounds: $((rn - r10)) MB ($r10 -> $rn MB; target <= 5 MB over 500 rounds)"
fi
