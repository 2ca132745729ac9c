#!/usr/bin/env bash
# soak-kiosk.sh BINARY [ROUNDS] runs the kiosk in demo mode under Xvfb with a fast auto-dealer
# (1 s wagering period, 300 ms spin and result) until it has shown ROUNDS results (default 100),
# and prints its start-to-first-frame time and its resident memory after each 25 rounds, read
# from the kiosk's own log, and its growth from round 10 to the last. Targets: first frame
# <= 1.5 s (issue 4); resident growth <= 5 MB over 500 rounds after round 10 (issue 18):
#   bash packaging/soak-kiosk.sh build/ats 510
# Each line splits the resident set: go_heap_mb (live and garbage), go_inuse_mb (its spans),
# go_free_mb (free pages the Go runtime keeps), anon_mb and file_mb (anonymous and file-backed
# pages), c_mb (anonymous pages Go did not map: Mesa, GLFW, X). With SOAK_PROFILES=DIR the kiosk
# serves its profiles on loopback (-pprof) and the script saves DIR/heap-10.pb.gz and
# DIR/heap-ROUNDS.pb.gz (each after a collection) for `go tool pprof -base DIR/heap-10.pb.gz
# DIR/heap-ROUNDS.pb.gz`: what the Go heap gained between them.
set -euo pipefail
bin=${1:?binary}
rounds=${2:-100}
source "$(dirname "$0")/xvfb.sh"
start_xvfb 1920x1080
state=$(mktemp -d)
log=$state/kiosk.log
args=()
if [ -n "${SOAK_PROFILES:-}" ]; then
	mkdir -p "$SOAK_PROFILES"
	port=$((20000 + RANDOM % 20000))
	args=(-pprof "127.0.0.1:$port")
fi
# heap N saves the heap profile at round N (with SOAK_PROFILES).
heap() {
	[ -n "${SOAK_PROFILES:-}" ] || return 0
	curl -sf -o "$SOAK_PROFILES/heap-$1.pb.gz" "http://127.0.0.1:$port/debug/pprof/heap?gc=1" ||
		echo "no heap profile at round $1"
}
ATS_STATE_DIR=$state "$bin" -demo-period 1s -demo-spin 300ms "${args[@]}" >"$log" 2>&1 &
app=$!
took10=
deadline=$((SECONDS + rounds * 4 + 60))
while ! grep -q "rounds=$rounds " "$log"; do
	if ! kill -0 "$app" 2>/dev/null; then echo "the kiosk exited:"; tail -20 "$log"; exit 1; fi
	if [ $SECONDS -gt $deadline ]; then echo "no $rounds rounds in time:"; tail -5 "$log"; exit 1; fi
	if [ -z "$took10" ] && grep -q "rounds=10 " "$log"; then heap 10; took10=1; fi
	sleep 2
done
heap "$rounds"
grep -o 'msg="first frame" after=[^ ]*' "$log" | head -1
grep -E "rounds=(1|10|25|50|75|100|200|300|400|500|$rounds) " "$log" | grep -o "rounds=[0-9]* rss_mb=.*"
# Growth is judged after the warm-up (issue 18: at most 5 MB over 500 rounds after round 10):
# the first rounds fill the caches, the fonts and the GL driver's textures.
if [ "$rounds" -gt 10 ]; then
	at() { grep -E "rounds=$1 " "$log" | grep -o "rss_mb=[0-9]*" | head -1 | cut -d= -f2; }
	r10=$(at 10); rn=$(at "$rounds")
	echo "rss growth from round 10 to round $rounds: $((rn - r10)) MB ($r10 -> $rn MB; target <= 5 MB over 500 rounds)"
fi
