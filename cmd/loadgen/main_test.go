package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/internal/pgtest"
)

// TestMain lets the test binary be the abusive terminal's process of -abuse-process and the
// terminal process of -terminal-procs, as the loadgen binary is (both run os.Executable).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == terminalChildFlag {
		if err := terminalChild(os.Args[2:], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if len(os.Args) > 1 && os.Args[1] == "-abuse-child" {
		fs := flag.NewFlagSet("abuser", flag.ExitOnError)
		fs.Bool("abuse-child", false, "")
		addr, certs, id := fs.String("abuse-addr", "", ""), fs.String("abuse-certs", "", ""), fs.String("abuse-id", "", "")
		var o abuseOpts
		fs.Float64Var(&o.rate, "abuse-rate", 0, "")
		fs.BoolVar(&o.redial, "abuse-redial", false, "")
		fs.Parse(os.Args[1:])
		if err := abuseChild(*addr, *certs, *id, o, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(pgtest.Main(m)) // the floor test's PostgreSQL cluster stops with the tests
}

// A short run of the load tool works end to end on loopback: terminals connect over mutual TLS,
// buy in, send slips through a wagering period, every one is settled, a short auto-dealt soak
// runs, and the ledger is conserved with no errors. It checks the report's figures are there
// and sane, not their values (those are measured on an idle machine, see docs/performance/table-server.md).
func TestShortRun(t *testing.T) {
	var out bytes.Buffer
	o := options{terminals: 5, rate: 20, period: 1500 * time.Millisecond, rounds: 1, soak: 3,
		soakPeriod: 300 * time.Millisecond, jitter: 2 * time.Millisecond}
	if err := run(o, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	report := out.String()
	for _, line := range []string{"slip round-trip:", "outcome to settled balance:", "lock before the server deadline:"} {
		m := regexp.MustCompile(regexp.QuoteMeta(line) + ` +n=(\d+) `).FindStringSubmatch(report)
		if m == nil {
			t.Fatalf("no %q figures in\n%s", line, report)
		}
		if n, _ := strconv.Atoi(m[1]); n < 5 {
			t.Errorf("%s only %d samples", line, n)
		}
	}
	// With jitter on every link the lock still comes before the server's deadline (the
	// figure is how early: never negative).
	m := regexp.MustCompile(`lock before the server deadline: +n=\d+ min=(\S+) `).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("no lock figure in\n%s", report)
	}
	if early, err := time.ParseDuration(m[1]); err != nil || early <= 0 {
		t.Errorf("a terminal locked %s before the deadline (%v): after it", m[1], err)
	}
	for _, want := range []string{"soak: 3 auto-dealt rounds with 5 terminals", "conserved: true", "errors: 0"} {
		if !bytes.Contains(out.Bytes(), []byte(want)) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}

// With an abusive terminal flooding the table — in this process, or in its own — the measured
// terminals are all served (no errors) and the abuser is cut off by the server and told so.
// The figures are not checked here: they are measured on an idle machine (docs/performance/table-server.md).
func TestShortRunWithAnAbuser(t *testing.T) {
	for _, process := range []bool{false, true} {
		t.Run(fmt.Sprintf("process=%v", process), func(t *testing.T) {
			var out bytes.Buffer
			// The server's call rate is lowered (10 a second, burst 20; the measured terminals
			// send 4 slips a second), and so are the refusals it forgives (10 collected, 2 a
			// second forgiven, for 50 and 10), so that an abuser slowed by the race detector or
			// a busy machine (some 20 slips a second at a load of 20) still earns its cut-off
			// well within the period.
			o := options{terminals: 3, rate: 4, period: 2 * time.Second, rounds: 1, abuse: 1, abuseProcess: process,
				callRate: 10, callBurst: 20, strikes: 10, strikeRate: 2}
			if err := run(o, &out); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			// Told it is over its rate (ResourceExhausted), or cut off: on a quiet machine the
			// abuser is cut off within the period, but at a load of 20 on two cores it sends so
			// few slips that it may only be refused. The cut-off itself is proven with the
			// server's clock in server's TestAbusiveTerminalIsCutOffAndOthersServed and TestSlipsStreamCutOff; here, that the harness's
			// abuser meets the refusal and the measured terminals are served all the same.
			m := regexp.MustCompile(`abusive terminal X001: (\d+) slips sent, (\d+) refused .*(cut-off|ResourceExhausted)×(\d+)`).FindStringSubmatch(out.String())
			if m == nil {
				t.Fatalf("the abuser was never told it was over its rate:\n%s", out.String())
			}
			if !bytes.Contains(out.Bytes(), []byte("errors: 0")) {
				t.Errorf("report:\n%s", out.String())
			}
		})
	}
}

// With the measured terminals in processes of their own (-terminal-procs), every terminal of
// every process is measured and settled: the report has a slip, a lock and a settlement figure
// for each, the terminal processes' CPU apart from this one's, and the ledger is conserved with
// no errors.
func TestShortRunInTerminalProcesses(t *testing.T) {
	var out bytes.Buffer
	o := options{terminals: 5, rate: 10, period: 1500 * time.Millisecond, rounds: 2, terminalProcs: 2, slowReport: true}
	if err := run(o, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	report := out.String()
	// -slow-report: every slip of the terminal processes comes back with its send time, so the
	// report's count is the slip figure's.
	slips := regexp.MustCompile(`slip round-trip: +n=(\d+) `).FindStringSubmatch(report)
	slow := regexp.MustCompile(`slowest 1% of slips \((\d+) of (\d+),`).FindStringSubmatch(report)
	if slips == nil || slow == nil || slow[2] != slips[1] {
		t.Errorf("the slow-slip report does not count every slip (%v, %v):\n%s", slips, slow, report)
	}
	// 5 terminals × 2 rounds each settle, and each locks once a round.
	for line, atLeast := range map[string]int{"slip round-trip:": 10, "outcome to settled balance:": 10, "lock before the server deadline:": 10} {
		m := regexp.MustCompile(regexp.QuoteMeta(line) + ` +n=(\d+) min=(\S+) `).FindStringSubmatch(report)
		if m == nil {
			t.Fatalf("no %q figures in\n%s", line, report)
		}
		if n, _ := strconv.Atoi(m[1]); n < atLeast {
			t.Errorf("%s only %d samples, want at least %d", line, n, atLeast)
		}
		if d, err := time.ParseDuration(m[2]); err != nil || d <= 0 {
			t.Errorf("%s min %s (%v): not a positive time", line, m[2], err)
		}
	}
	for _, want := range []string{"5 terminals (in 2 terminal processes)", "cpu of the terminal processes", "conserved: true", "errors: 0"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if err := run(options{terminals: 2, rate: 10, period: time.Second, rounds: 1, soak: 1, terminalProcs: 1}, &out); err == nil {
		t.Error("-soak with -terminal-procs was not refused")
	}
}

// A floor: three table servers on one PostgreSQL database, every table's round at once, then
// ten tickets printed at T1, each raced for by terminals of the two other tables at the same
// moment. Every ticket is paid exactly once (the other attempt refused), each table's ledger
// and the floor's are conserved, and there are no errors.
func TestShortFloorWithCrossTableRedemptions(t *testing.T) {
	dsn := pgtest.DSN(t)
	var out bytes.Buffer
	o := options{terminals: 8, rate: 5, period: 1500 * time.Millisecond, rounds: 1, tables: 3, redemptions: 8, db: dsn}
	if err := run(o, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	report := out.String()
	for _, want := range []string{"a floor of 3 tables × 8 terminals", "8 paid, 8 refused, 0 paid twice",
		"ledger of the floor: ", "(conserved: true)", "errors: 0"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if n := strings.Count(report, "conserved: true"); n != 4 { // T1, T2, T3 and the floor
		t.Errorf("%d of 4 ledgers conserved:\n%s", n, report)
	}
	m := regexp.MustCompile(`outcome to settled balance: +n=(\d+) `).FindStringSubmatch(report)
	if m == nil || m[1] != "24" {
		t.Errorf("want 24 settlements (3 tables × 8 terminals):\n%s", report)
	}
	// A floor needs the one database; tickets cross tables only on a floor of three or more.
	for _, bad := range []options{{terminals: 2, rate: 5, period: time.Second, rounds: 1, tables: 2},
		{terminals: 2, rate: 5, period: time.Second, rounds: 1, redemptions: 2},
		{terminals: 4, rate: 5, period: time.Second, rounds: 1, tables: 3, redemptions: 8, db: dsn}} {
		if err := run(bad, &out); err == nil {
			t.Errorf("%+v was not refused", bad)
		}
	}
}

// The terminal process reads its parent's round lines: any line either parses to a round whose
// line is that very line, or is refused with an error, never a panic; a well-formed line of any
// round id and positive deadline parses back to them.
func FuzzRoundLine(f *testing.F) {
	f.Add("ROUND R000001 1764000000000000000")
	f.Add("ROUND  R1 5")
	f.Add("ROUND R1 -5")
	f.Add("ROUND R1 99999999999999999999")
	f.Add("")
	f.Fuzz(func(t *testing.T, line string) {
		id, deadline, err := parseRoundLine(line)
		if err != nil {
			return
		}
		if back := roundLine(id, deadline); back != line {
			t.Fatalf("%q parsed to %q %v, written back as %q", line, id, deadline, back)
		}
	})
}

func TestRoundLineRoundTrips(t *testing.T) {
	at := time.Unix(0, 1764000000123456789)
	id, deadline, err := parseRoundLine(roundLine("R000042", at))
	if err != nil || id != "R000042" || !deadline.Equal(at) {
		t.Fatalf("round line read back as %q %v %v", id, deadline, err)
	}
	for _, bad := range []string{"ROUND R1", "ROUND R1 0", "ROUND R1 x", "round R1 5", "ROUND R1 5 6", "ROUND  R1 5"} {
		if _, _, err := parseRoundLine(bad); err == nil {
			t.Errorf("%q was read as a round line", bad)
		}
	}
}

// -wheel: the emulated wheel's ball-drop, over a pty through the real driver and the table's
// follower, ends each measured period half-way: every terminal hears it (one sample each a
// round), no slip it refused counts as an error, and the number read by both sensors is
// confirmed and settles every terminal.
func TestShortRunEndedByTheWheelsBallDrop(t *testing.T) {
	var out bytes.Buffer
	o := options{terminals: 5, rate: 20, period: 2 * time.Second, rounds: 2, wheel: true}
	if err := run(o, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	report := out.String()
	for _, c := range []struct {
		line string
		n    int
	}{{"ball-drop to terminal locked:", 10}, {"ball-drop to every terminal locked (the last of each round):", 2}, {"outcome to settled balance:", 10}} {
		m := regexp.MustCompile(regexp.QuoteMeta(c.line) + ` +n=(\d+) `).FindStringSubmatch(report)
		if m == nil || m[1] != strconv.Itoa(c.n) {
			t.Fatalf("%q: want n=%d in\n%s", c.line, c.n, report)
		}
	}
	if err := run(options{terminals: 1, rate: 1, period: time.Second, rounds: 1, wheel: true, terminalProcs: 1}, &out); err == nil {
		t.Fatal("-wheel with -terminal-procs was not refused")
	}
}

// -console (issue 28): rounds dealt from the dealer's console, each action timed to every
// terminal having heard it, and the ledger conserved.
func TestShortRunDealtFromTheConsole(t *testing.T) {
	var out bytes.Buffer
	o := options{terminals: 5, rate: 1, period: 30 * time.Second, console: 2}
	if err := run(o, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	report := out.String()
	for _, line := range []string{"start the round", "no more bets", "outcome"} {
		m := regexp.MustCompile(regexp.QuoteMeta("console: "+line) + ` +every terminal: n=(\d+) `).FindStringSubmatch(report)
		if m == nil {
			t.Fatalf("no %q figures in\n%s", line, report)
		}
		if n, _ := strconv.Atoi(m[1]); n != 10 {
			t.Errorf("%s: %d samples, want 10 (2 rounds × 5 terminals)", line, n)
		}
	}
	if !strings.Contains(report, "the ledger conserved: true") {
		t.Errorf("report lacks the conservation:\n%s", report)
	}
}

// Issue 31: a carded run, its terminals in this process and in processes of their own. Each
// terminal presents its card on connecting, as the kiosk does when the player inserts it (a
// card the seat could not hold fails the run), every slip is staked on it, and each round's
// open time is reported: the open reserves every seat's allowance on its card.
func TestShortRunCardedSeatsPresentTheirCards(t *testing.T) {
	for _, procs := range []int{0, 2} {
		t.Run(fmt.Sprintf("terminal-procs=%d", procs), func(t *testing.T) {
			var out bytes.Buffer
			o := options{terminals: 4, rate: 10, period: 1500 * time.Millisecond, rounds: 2, terminalProcs: procs, carded: true}
			if err := run(o, &out); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			report := out.String()
			if !regexp.MustCompile(`round 2 \(R\d+\) opened in \S+, outcome`).MatchString(report) ||
				!regexp.MustCompile(`round open \(StartRound\): +n=2 `).MatchString(report) {
				t.Errorf("no round open figures:\n%s", report)
			}
			m := regexp.MustCompile(`slip round-trip: +n=(\d+) `).FindStringSubmatch(report)
			if m == nil {
				t.Fatalf("no slip figures:\n%s", report)
			}
			if n, _ := strconv.Atoi(m[1]); n < 8 {
				t.Errorf("only %d carded slips", n)
			}
		})
	}
}
