#!/usr/bin/env bash
# console-probe.sh deals rounds by tapping the dealer's touch console in a real window (issue 28):
# for each screen size in CONSOLE_SIZES (default 1920x1080) it starts an Xvfb of that size and
# runs `kioskprobe console`, which starts a table server (rules touchtable, supervisor S1's PIN
# set), terminal T01 (accepts the dealer's buy-in, stakes 5.00 on 17 each round) and the real
# cmd/console on the dealer's certificate, taps the console's words found by tesseract (open the
# table, credit 50.00 on T01's pad, start, no more bets, the outcome on the grid and its
# confirmation, the supervisor's card and PIN and the correction to 18) and checks the ledger
# conserved and T01's balance. CONSOLE_ROUNDS (default 2) is the rounds dealt. The screenshots
# and logs are kept in build/console-probe/SIZE/.
#
#   bash packaging/console-probe.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
CGO_ENABLED=1 go build -tags no_emoji -o "$bin/console" ./cmd/console
go build -o "$bin/tableserver" ./cmd/tableserver
CGO_ENABLED=0 go build -o "$bin/kioskprobe" ./cmd/kioskprobe
status=0
for size in ${CONSOLE_SIZES:-1920x1080}; do
	echo "-- $size"
	(
		source packaging/xvfb.sh
		start_xvfb "$size"
		"$bin/kioskprobe" console -console "$bin/console" -tableserver "$bin/tableserver" \
			-rounds "${CONSOLE_ROUNDS:-2}" -out "build/console-probe/$size"
	) || status=1
done
rm -rf "$bin"
exit $status
