#!/usr/bin/env bash
# run-console.sh runs the table seen from both sides (issue 28): a table server, the dealer's
# console (cmd/console) and a player's kiosk (terminal T01) connected to it, side by side. The
# table is dealt from the console: Open the table, Start the round, tap seat T01 and credit a
# buy-in (the kiosk asks the player to accept it), No more bets, Enter the outcome. It runs
# under `bash packaging/run.sh -console` too.
#
# Everything lives in build/console-demo (the PKI of its own CA, the ledger, the logs); delete
# that directory to start again from an empty table. Without a display it runs under Xvfb (one
# screen 3200x1080: the kiosk at 1920x1080 on the left, the console at 1280x800 on its right)
# and keeps a screenshot at build/console-demo/screenshot.png, refreshed every few seconds. On a
# desktop both open in windows. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/setup.sh
demo=build/console-demo
addr=127.0.0.1:${ATS_CONSOLE_PORT:-7443} # another port when 7443 is taken
mkdir -p "$demo"
bash packaging/build-kiosk.sh build/ats
go build -o build/tableserver ./cmd/tableserver
go build -o build/console ./cmd/console
if [ ! -f "$demo/pki/ca.pem" ]; then
	build/tableserver pki init -dir "$demo/pki" -terminals T01,T02 -dealers dealer -supervisors supervisor
fi
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
	# shellcheck source=packaging/xvfb.sh
	source packaging/xvfb.sh
	start_xvfb 3200x1080
	trap 'cleanup; stop_xvfb' EXIT
	echo "no display: running under Xvfb on $DISPLAY; screenshots at $demo/screenshot.png"
	( while sleep 5; do import -window root "png:$demo/screenshot.png.part" 2>/dev/null &&
		mv "$demo/screenshot.png.part" "$demo/screenshot.png" || true; done ) &
	pids+=($!)
fi
# The touchtable rules: buy-in and cash-out at the dealer, which is what the console is for.
build/tableserver -pki "$demo/pki" -db "$demo/table.db" -listen "$addr" -rules touchtable >"$demo/tableserver.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do (exec 3<>"/dev/tcp/${addr%:*}/${addr##*:}") 2>/dev/null && break; sleep 0.2; done
ATS_STATE_DIR="$demo/kiosk" ./build/ats -server "$addr" -pki "$demo/pki" -id T01 -windowed >"$demo/kiosk.log" 2>&1 &
pids+=($!)
build/console -server "$addr" -pki "$demo/pki" -size 1280x800 "$@" >"$demo/console.log" 2>&1 &
console=$!
pids+=("$console")
# Side by side: with no window manager (Xvfb) both windows open at the top left; the console
# moves to the right of the kiosk once it is mapped.
if command -v xdotool >/dev/null; then
	for _ in $(seq 50); do
		w=$(xdotool search --name "ATS dealer console" 2>/dev/null | head -n1) && [ -n "$w" ] && xdotool windowmove "$w" 1920 0 && break
		sleep 0.2
	done
fi
echo "the table on $addr, the kiosk (T01) and the dealer's console; logs in $demo; Ctrl-C stops them"
wait "$console"
