#!/usr/bin/env bash
# wnd-probe.sh checks the winning number display in a real window (issue 29): for each screen
# size in WND_SIZES (default "1920x1080 3840x2160") it starts an Xvfb of that size and runs
# `kioskprobe wnd`, which starts a table server and the real cmd/wnd full screen, deals a round
# with the dealer's RPCs on a single-zero table with a jackpot, on a double-zero one, and on one
# whose jackpot hits at terminal T01's stake (a dealer buy-in T01 accepts, a slip on 17), and
# reads the screen back with tesseract: the number dealt large in the latest number's box (00 on
# the double-zero wheel), the jackpot meter's amount, and at the hit the winning jackpot message
# ("Jackpot of A$12,345.72 won at terminal T01"). The screenshots are kept in
# build/wnd-probe/SIZE/.
#
#   bash packaging/wnd-probe.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
CGO_ENABLED=1 go build -tags no_emoji -o "$bin/wnd" ./cmd/wnd
go build -o "$bin/tableserver" ./cmd/tableserver
CGO_ENABLED=0 go build -o "$bin/kioskprobe" ./cmd/kioskprobe
status=0
for size in ${WND_SIZES:-1920x1080 3840x2160}; do
	echo "-- $size"
	(
		source packaging/xvfb.sh
		start_xvfb "$size"
		"$bin/kioskprobe" wnd -wnd "$bin/wnd" -tableserver "$bin/tableserver" -out "build/wnd-probe/$size"
	) || status=1
done
rm -rf "$bin"
exit $status
