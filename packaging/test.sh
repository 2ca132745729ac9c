#!/usr/bin/env bash
# test.sh runs every test of the project from a fresh Debian machine: it installs what is
# missing (packaging/setup.sh), then checks formatting, vet, staticcheck and govulncheck
# (packaging/lint.sh), runs the unit and integration
# tests with the race detector (a plain `go test ./...` runs the headless Fyne tests too), runs every fuzz target
# briefly, runs the grpcurl walkthrough of docs/guides/running-a-table.md as written, builds the real cgo kiosk binary,
# and checks it draws a window under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/setup.sh

# Each step says when it starts (seconds since the script began), so a slow step shows in the log.
step() { printf '\n==> %s  [%ds]\n' "$*" "$SECONDS"; }

step "gofmt"
# The Go files tracked by git, or every one outside tools/ when this is not a git checkout.
go_files() { git ls-files -z '*.go' 2>/dev/null || find . -name '*.go' -not -path './tools/*' -print0; }
unformatted=$(go_files | xargs -0 gofmt -l)
if [ -n "$unformatted" ]; then
	echo "not gofmt-clean:"; echo "$unformatted"; exit 1
fi

step "go vet"
go vet ./...

step "staticcheck and govulncheck (packaging/lint.sh), beside the race step; its result after it"
# About a minute of CPU that the race step's waiting tests leave free: run together, the two
# take the race step's time. Its output is printed, and a finding fails the run, after it.
lintlog=$(mktemp)
bash packaging/lint.sh >"$lintlog" 2>&1 &
lintpid=$!
trap 'kill "$lintpid" 2>/dev/null || true' EXIT

step "go test -race"
# The PostgreSQL tests (internal/pgtest) skip where PostgreSQL is missing; here setup.sh has
# installed it, so a missing one is a failure rather than a quiet skip.
export ATS_REQUIRE_POSTGRES=1
# Likewise Chromium, which cmd/cagepage's journeys drive headless: missing, they fail.
export ATS_REQUIRE_BROWSER=1
# The harnesses that run whole tables in processes of their own — the crash harness (which
# kills and restarts them), the load generator, the cashier's page in a browser, the demo — run
# without the race detector: they test what survives a kill, a load or a journey, and under
# -race each of their processes runs several times slower (they were a third of this step).
# The code they drive runs under -race in its own packages' tests.
harness='/cmd/crashtest$|/cmd/loadgen$|/cmd/cagepage$|/internal/demo$'
# The kiosk's and the console's screens (ui, console) are mostly goldens and layouts: software
# rendering, several times slower under -race (ui alone was 419 s of this step, the console's a
# third as much) with no goroutine of their own to race. They run without it, and the tests that
# do drive a screen from a live terminal's goroutines — each screen change through the test's
# own Fyne thread (ui/fynethread_test.go), where the race detector catches a widget touched off
# it — run again under -race.
screens='/ui$|/console$'
# The SQLite engine itself (modernc.org/sqlite/lib: SQLite's C translated to Go) is built without
# the race instrumentation: every one of its memory accesses instrumented made each test on a
# ledger or a journal about four times the CPU (server/ledger's seal and concurrency tests: 6.0 s
# of CPU against 1.6 s), and it is not this project's code to race — the table server and the
# terminal reach it only through database/sql, whose locking is instrumented like all of ours.
# Only that package: leaving modernc's libc and allocator uninstrumented too made the detector
# report races in the standard library's TLS (crypto/internal/fips140cache) that are not there.
norace='-gcflags=modernc.org/sqlite/lib=-race=false'
# Four packages at a time, not go's default of one a core: these tests mostly wait — on a
# wagering period, a serial line's poll, a durable commit, a child process — and two at a time
# kept the two cores a fifth busy (server/ledger, app/cashier and app/station: 88 s of CPU in
# 223 s). Four keep them about half busy and took this step from about 590 s to 460 s
# (docs/performance/test-command.md); server (some 200 s alone) is then the step's floor.
go test -p 4 -race "$norace" -count=1 -timeout 20m $(go list ./... | grep -Ev "$harness|$screens")
go test -p 4 -count=1 -timeout 20m $(go list ./... | grep -E "$harness|$screens")
go test -race "$norace" -count=1 -run 'TestFullRoundThroughTheScreen|TestRule004_4_3c_|TestRule001_9_2_|TestRule001_5_1_3_' ./ui

step "staticcheck and govulncheck: the result"
lint=0
wait "$lintpid" || lint=$?
trap - EXIT
cat "$lintlog"
rm -f "$lintlog"
if [ "$lint" -ne 0 ]; then
	echo "packaging/lint.sh failed (exit $lint)"
	exit 1
fi

step "the serial tests over tarm/serial, and the device tools cross-compiled for macOS and Windows"
# devices/serialport has two backends (docs/decisions/0001-two-serial-backends.md): the step
# above ran the drivers' pty tests over the poller, Linux's default (and the contract suite over
# both); -tags tarmserial makes tarm/serial the default, so the same tests run over it. tarm is
# the backend on every other system: the drivers, atsctl and devemu must build there without
# cgo (a cross-compile has no C toolchain; on macOS the tarm backend itself needs cgo, and a
# cgo-less build says so when a line is opened).
go test -race "$norace" -count=1 -tags tarmserial ./devices/...
CGO_ENABLED=0 GOOS=darwin go vet ./devices/...
CGO_ENABLED=0 GOOS=windows go vet ./devices/...
CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 go build -o /dev/null ./devices/... ./cmd/atsctl ./cmd/devemu
CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -o /dev/null ./devices/... ./cmd/atsctl ./cmd/devemu

step "the rule-to-test matrix by mutation (the fast set; ATS_MUTATE_ALL=1 for every mutation)"
# Each mutation breaks a money rule and a test the matrix names for it must fail (issue 34). The
# whole list takes longer than this script should (docs/design/rule-to-test-matrix.md); the go test
# step above has just passed every named test unmutated, so the baseline run is skipped.
if [ -n "${ATS_MUTATE_ALL:-}" ]; then
	go run ./cmd/atsctl rules -mutate
else
	go run ./cmd/atsctl rules -mutate -fast -baseline=false
fi

# The fuzz budget is a count of executions, not a duration: with a duration, Go 1.26's fuzz
# coordinator can report "context deadline exceeded" as a failure when the time runs out while
# a worker is mid-input (go.dev/issue/75804, fixed in Go 1.27), and a count has no deadline to
# race. Targets that open a store per input — the table server's a ledger, the terminal's
# journal a SQLite file — cost milliseconds an input: at 10,000 each they took most of six
# minutes (the journal's two alone almost a minute at 10,000), so they run 1,000 here
# (FUZZTIME_STORE) and the parsers 10,000. Set FUZZTIME=1000000x FUZZTIME_STORE=100000x, or
# durations on Go 1.27, for a longer run.
step "fuzz targets (${FUZZTIME:=10000x} each; ${FUZZTIME_STORE:=1000x} each of those that open a ledger or a journal per input)"
# Each package's test binary is built once with the fuzzing instrumentation (two at a time: the
# builds are most of this step on two cores) and run once per target from the package's
# directory (its testdata corpus), rather than one `go test -fuzz` per target, which relinks the
# binary every time: with some 60 targets that was minutes.
fuzzbin=$(mktemp -d)
trap 'rm -rf "$fuzzbin"' EXIT
fuzzpkgs=()
for pkg in $(go list ./...); do
	grep -qs '^func Fuzz' "$(go list -f '{{.Dir}}' "$pkg")"/*_test.go && fuzzpkgs+=("$pkg")
done
printf '%s\n' "${fuzzpkgs[@]}" | xargs -P 2 -I{} sh -c 'go test -c -fuzz=. -o "$1/$(echo "$2" | tr / _).test" "$2"' _ "$fuzzbin" {}
for pkg in "${fuzzpkgs[@]}"; do
	bin="$fuzzbin/${pkg//\//_}.test"
	budget=$FUZZTIME
	case $pkg in */server | */server/ledger | */server/precommit | */app/journal) budget=$FUZZTIME_STORE ;; esac
	for target in $("$bin" -test.list '^Fuzz' | grep '^Fuzz'); do
		echo "fuzz $pkg $target"
		(cd "$(go list -f '{{.Dir}}' "$pkg")" && "$bin" -test.run '^$' -test.fuzz "^${target}\$" -test.fuzztime "$budget" \
			-test.fuzzcachedir "$(go env GOCACHE)/fuzz/$pkg") >/tmp/fuzz.log 2>&1 || { cat /tmp/fuzz.log; exit 1; }
	done
done

step "the guide's table walkthrough (docs/guides/running-a-table.md: tableserver + grpcurl), as written"
bash packaging/readme-walkthrough.sh >/tmp/walkthrough.log 2>&1 || { cat /tmp/walkthrough.log; exit 1; }
tail -1 /tmp/walkthrough.log

step "cgo build of the kiosk"
mkdir -p build
bash packaging/build-kiosk.sh build/ats

step "the kiosk draws under Xvfb (1920x1080 and 1280x800, both wheels, the touch calibration, designs L and U, Chinese)"
# In the POSIX locale a service or a container starts with: English, and no error logged.
env -u LC_ALL -u LC_MESSAGES LANG=C.UTF-8 bash packaging/screenshot.sh build/ats build/screenshot.png
SCREEN_SIZE=1280x800 bash packaging/screenshot.sh build/ats build/screenshot-1280x800.png
# The double-zero wheel (its 0/00 column, the American racetrack), at both sizes.
KIOSK_ARGS="-wheel double-zero" bash packaging/screenshot.sh build/ats build/screenshot-double-zero.png
KIOSK_ARGS="-wheel double-zero" SCREEN_SIZE=1280x800 bash packaging/screenshot.sh build/ats build/screenshot-double-zero-1280x800.png
# Technician mode's touch calibration, on the demo's simulated miscalibrated panel.
KIOSK_ARGS=-technician-demo bash packaging/screenshot.sh build/ats build/screenshot-technician.png
# Each design (SPEC §7: L's period lamps, U's meters), and the screen in Chinese.
KIOSK_ARGS="-design L" bash packaging/screenshot.sh build/ats build/screenshot-design-L.png
KIOSK_ARGS="-design U" bash packaging/screenshot.sh build/ats build/screenshot-design-U.png
LANGUAGE=zh_Hans bash packaging/screenshot.sh build/ats build/screenshot-zh.png

step "the kiosk answers every tap and keeps its countdown while its event loop idles (real window, XTest)"
# Not a measurement (that is tap-probe.sh on a quiet machine): 10 taps on the felt and 3 on
# the chips must each draw within a second, and the untouched window must go on drawing the
# countdown's one frame a second (internal/idleloop parks Fyne's loop between them). The taps are
# 1.3 s apart, longer than the loop runs freely after a touch (1 s): each lands on a parked loop.
PROBE_ARGS="-strict -gap 1300ms" PROBE_FRAMES=5s PROBE_MIN_FPS=0.6 bash packaging/tap-probe.sh build/ats 10 3

step "a player's journeys read back from the real window (XTest taps, tesseract; issues 32 and 31)"
# Each journey taps through a fresh demo kiosk at words it reads and fails when the words a player
# must read (an amount, a prompt, a notice) are missing, split from their line, or stale; its
# screenshots stay in build/journeys/. Steps read the part of the screen their words are in, and
# rounds are driven by the demo's dealer on the kiosk's stdin (docs/guides/demo.md). Here: the
# cash-out prompt, the balance with the chips, the per-spin minimum and the clamp's amount, a
# correction's notice and a tournament's prize in design A in English at 1920x1080; the cash-out
# prompt in design U in Chinese at 1280x800; a Lucky Ball win in design L; carded play's session
# (limits set, the live strip, the reality check) and its stops (a limit reached, a break, a barred
# card) in English and the limits screen in Chinese at 1280x800. The whole matrix (every design,
# both languages, both sizes) is `bash packaging/journeys.sh build/ats`; JOURNEY_ARGS=-pending adds
# the journeys waiting for another fix (each names it).
JOURNEY_SIZES=1920x1080 JOURNEY_ARGS="-designs A -langs en -only cash-out,chips-balance,correction,tournament" bash packaging/journeys.sh build/ats
JOURNEY_SIZES=1280x800 JOURNEY_ARGS="-designs U -langs zh_Hans -only cash-out" bash packaging/journeys.sh build/ats
JOURNEY_SIZES=1920x1080 JOURNEY_ARGS="-designs L -langs en -only lucky" bash packaging/journeys.sh build/ats
JOURNEY_SIZES=1280x800 JOURNEY_ARGS="-designs A -langs en -only carded" bash packaging/journeys.sh build/ats
JOURNEY_SIZES=1280x800 JOURNEY_ARGS="-designs A -langs zh_Hans -only set-limits" bash packaging/journeys.sh build/ats

step "the winning number display read back from its real window (issue 29)"
# The real cmd/wnd full screen under Xvfb beside a table server: a round dealt with the dealer's
# RPCs must show its number large (32 on a single-zero table, 00 on a double-zero one) and the
# jackpot meter's amount, read with tesseract. About a minute at 1920x1080; the 4K set's run
# (WND_SIZES=3840x2160, three minutes on a loaded machine) is `bash packaging/wnd-probe.sh`.
WND_SIZES=1920x1080 bash packaging/wnd-probe.sh

step "the dealer's touch console dealt by tapping its real window (issue 28)"
# The real cmd/console under Xvfb on the dealer's certificate beside a table server and terminal
# T01: a buy-in credited on the seat's pad and accepted, a round with T01's stake, no more bets,
# the outcome on the grid with its confirmation, the supervisor's card and PIN and the correction,
# every step found and checked on the screen with tesseract; then the ledger conserved and T01's
# balance. One round here (under two minutes with its builds on a loaded machine); two rounds is `bash packaging/console-probe.sh`.
CONSOLE_ROUNDS=1 bash packaging/console-probe.sh

step "the cabinet's Debian package (build-deb.sh, check-deb.sh)"
# Builds build/ats_*.deb and checks its contents, modes, units, udev rules, maintainer scripts
# (with dpkg, in a throwaway overlay) and kiosk session script, then runs the packaged table
# server and kiosk.
bash packaging/check-deb.sh

echo
echo "all checks passed"
