#!/usr/bin/env bash
# readme-walkthrough.sh runs the guide's "Running a table by hand" commands
# (docs/guides/running-a-table.md, linked from the README) exactly as they are written there, so
# the walkthrough a newcomer pastes keeps working: the first block starts the table server, the
# second drives one full round with grpcurl. It runs them in a scratch copy of
# the working tree (the commands write pki/ and table.db where they run) and checks what each
# step answers. Port 7443 on loopback must be free, as the guide assumes.
set -euo pipefail
shopt -s extglob
root=$(cd "$(dirname "$0")/.." && pwd)

guide=docs/guides/running-a-table.md

# The two ```sh blocks after the guide's title, before its next section.
blocks=$(awk '
	/^# Running a table by hand/ { on = 1; next }
	on && /^## / { exit }
	on && /^```sh/ { n++; inblock = 1; next }
	on && /^```/ { inblock = 0; next }
	on && inblock { print n "\t" $0 }
' "$root/$guide")
start=$(printf '%s\n' "$blocks" | awk -F'\t' '$1 == 1 { sub(/^1\t/, ""); print }')
round=$(printf '%s\n' "$blocks" | awk -F'\t' '$1 == 2 { sub(/^2\t/, ""); print }')
if [ -z "$start" ] || [ -z "$round" ]; then
	echo "$guide: the two sh blocks of \"Running a table by hand\" are missing" >&2
	exit 1
fi

work=$(mktemp -d)
server_pid=
cleanup() {
	if [ -n "$server_pid" ]; then
		# go run's child is the server; stop both.
		pkill -TERM -P "$server_pid" 2>/dev/null || true
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT
(cd "$root" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -xf - -C "$work"
cd "$work"

# Block 1: every line but the backgrounded server runs as written; the server line runs in the
# background so this script can stop it.
while IFS= read -r line; do
	[ -z "$line" ] && continue
	echo "\$ $line"
	if [[ "$line" == *"&" ]]; then
		eval "${line%&} >server.log 2>&1 &"
		server_pid=$!
	else
		eval "$line"
	fi
done <<<"$start"
[ -n "$server_pid" ] || { echo "$guide: block 1 starts no server in the background" >&2; exit 1; }

# Block 2, line by line, with what each answer must hold.
expect() { # expect OUTPUT PATTERN WHAT
	if ! grep -q -- "$2" <<<"$1"; then
		echo "$guide walkthrough: $3: expected $2 in:" >&2
		echo "$1" >&2
		exit 1
	fi
}
ready=
while IFS= read -r line; do
	[ -z "$line" ] && continue
	echo "\$ $line"
	case "$line" in
	[A-Za-z_]*([A-Za-z0-9_])=*)
		eval "$line" # a variable the next lines use
		continue
		;;
	*" list"*)
		# The server may still be compiling: the first call waits for it.
		for _ in $(seq 1 180); do
			if out=$(eval "$line" 2>&1); then ready=1; break; fi
			kill -0 "$server_pid" 2>/dev/null || { cat server.log; exit 1; }
			sleep 1
		done
		[ -n "$ready" ] || { echo "table server did not answer in 180 s" >&2; cat server.log; exit 1; }
		expect "$out" "ats.table.v1.DealerService" "list"
		;;
	*TerminalService/Watch*)
		# Watch streams until Ctrl-C: the snapshot is the first message.
		out=$(eval "timeout 10 $line" 2>&1 || true)
		expect "$out" '"balance": "25600"' "Watch snapshot after the round"
		;;
	*)
		out=$(eval "$line" 2>&1) || { echo "$out" >&2; exit 1; }
		case "$line" in
		*StartRound*) expect "$out" "R000001" "StartRound" ;;
		*UpdateSlip*) expect "$out" '"balance"' "UpdateSlip" ;;
		*TerminalService/Slips*) expect "$out" '"code": 9' "Slips answers a refusal in the stream" ;;
		*CreditNote*) expect "$out" '"balance": "5000"' "CreditNote" ;;
		*RegisterCard*) expect "$out" '"state": "registered"' "RegisterCard registers the player's card at the cage" ;;
		*PresentCard*) expect "$out" '"needsLimits": true' "PresentCard: a card without limits asks for them" ;;
		*SetCardLimits*) expect "$out" '"lossLimit": "20000"' "SetCardLimits sets the card's limits before play" ;;
		*GetAuditLog*) expect "$out" '"actor": "dealer:dealer"' "GetAuditLog names who did each action" ;;
		esac
		;;
	esac
	echo "$out" | head -c 400
	echo
done <<<"$round"
echo "$guide walkthrough: one full round by hand, balance 25600 as the guide says"
