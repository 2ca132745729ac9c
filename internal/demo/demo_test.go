package demo_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/internal/demo"
	"github.com/tablegames/ats/internal/testwait"
)

// The demo plays like a cabinet, headless: the station's real drivers and client reach the
// embedded table and the emulated devices; a note typed as a device command is credited by
// the table, a cash-out prints a ticket the demo saves as a PNG, and Close stops everything —
// a command typed after Close is answered by nobody.
func TestDemoPlaysLikeACabinet(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, st, typing, replies := startDemo(t, ctx, dir, nil)

	if v := st.WaitForTable(ctx, 10*time.Second); v.Config.TableID != "DEMO" || v.Config.WageringPeriod != 30*time.Second {
		t.Fatalf("no snapshot from the demo table: %+v", v.Config)
	}
	d.FirstBuyIn(1, st.MayTakeMoney) // the terminal has credit: no notes go in
	// The acceptor takes notes once the station has recovered and enabled it; until then the
	// emulator refuses the command, as a real one keeps its mouth shut.
	waitFor(t, "a note accepted", func() bool { return typed(t, typing, replies, "note 2000") })
	waitFor(t, "the note credited", func() bool { return st.Terminal.View().Balance == 2000 })

	if err := st.Cashier.CashOut(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the ticket saved", func() bool {
		m, _ := filepath.Glob(filepath.Join(dir, "tickets", "ticket-*.png"))
		return len(m) == 1
	})
	if b := st.Terminal.View().Balance; b != 0 {
		t.Errorf("balance after cash-out: %d", b)
	}

	st.Close()
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	// The stdin reader may outlive Close (a read cannot be interrupted), but it answers nothing.
	if _, err := io.WriteString(typing, "note 2000\n"); err != nil {
		t.Fatal(err)
	}
	typing.Close()
	replies.close()
	if n := replies.late(); n > 0 {
		t.Errorf("%d replies written after Close", n)
	}
}

// A demo asked for a double-zero wheel (the kiosk's -wheel double-zero) deals on one: the
// terminal, through the real client over the demo's TLS, is told the double-zero layout in the
// profile asked for, which is what the kiosk builds its screen from (the double-zero screenshot,
// issue 18). The single-zero default is the other demo test's.
func TestDemoDealsADoubleZeroWheel(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := demo.Start(ctx, demo.Config{StateDir: dir, TerminalID: "T01", Wheel: roulette.DoubleZero, Profile: roulette.Star,
		Period: 5 * time.Second, Spin: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	st, err := station.Start(ctx, station.Config{ID: "T01", Journal: filepath.Join(dir, "terminal-T01.db"),
		Client:   client.Config{Addr: d.Addr, TLS: d.ClientTLS},
		Acceptor: d.Acceptor, Printer: d.Printer, IDPad: d.IDPad, Seat: d.Seat})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	v := st.WaitForTable(ctx, 10*time.Second)
	if l := v.Config.Layout; l.Wheel != roulette.DoubleZero || l.Profile != roulette.Star {
		t.Fatalf("the demo table's layout: %v/%v, want double-zero/star", l.Wheel, l.Profile)
	}
	// The star layout is The Star's table: its rules, and the player card they require (003
	// §3.4), which the demo's seat has in its reader.
	if v.Config.RulesProfile != "star" || !v.Config.PlayerCardRequired {
		t.Fatalf("the star demo's rules %q, card required %v", v.Config.RulesProfile, v.Config.PlayerCardRequired)
	}
	// The Star's table plays Lucky Ball (003 §7), in its Mega version, so the demo shows
	// Diagram L's Lucky Ball display, SUPER and MEGA (issue 32 point 10: it never turned on).
	if !v.Config.LuckyBall || v.Config.LuckyBallVersion != roulette.LuckyMega {
		t.Fatalf("the star demo's Lucky Ball: on %v, version %v", v.Config.LuckyBall, v.Config.LuckyBallVersion)
	}
	// The demo seat's card reaches the terminal: a touch on the felt while the round is open is
	// not refused for want of a card (it may be for want of chips: this demo has no buy-in).
	straight, err := v.Config.Layout.Inside(roulette.Straight, []roulette.Number{roulette.DoubleZeroNumber})
	if err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("no open round to bet on in 20 s")
		}
		if st.Terminal.View().Phase != table.PhaseWagering {
			continue
		}
		_, err := st.Terminal.Place(roulette.Bet{Spot: straight})
		if errors.Is(err, app.ErrNoPlayerCard) {
			t.Fatalf("the star demo's terminal has no player card: %v", err)
		}
		if !errors.Is(err, app.ErrLocked) && !errors.Is(err, app.ErrNotConnected) {
			break
		}
	}
	st.Close()
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	// Its state directory is the double-zero table's: a single-zero demo is refused there,
	// before it starts anything.
	if _, err := demo.Start(ctx, demo.Config{StateDir: dir, TerminalID: "T01"}); err == nil || !strings.Contains(err.Error(), "double-zero star") {
		t.Fatalf("a single-zero demo in the double-zero one's directory: %v", err)
	}
}

// A demo closed before any station uses it stops cleanly, buy-in in progress and all: the
// notes wait for an acceptor nobody enables, and Close ends the wait.
func TestDemoClosesWithTheBuyInPending(t *testing.T) {
	d, err := demo.Start(context.Background(), demo.Config{StateDir: t.TempDir(), TerminalID: "T01"})
	if err != nil {
		t.Fatal(err)
	}
	d.FirstBuyIn(0, func() bool { return true })
	done := make(chan error)
	go func() { done <- d.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return")
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// startDemo starts the demo in dir and a station on it (its Config changed by edit, if not
// nil), with the demo's stdin and replies the test's: both are closed when the test ends.
func startDemo(t *testing.T, ctx context.Context, dir string, edit func(*station.Config)) (*demo.Demo, *station.Station, *io.PipeWriter, *lines) {
	t.Helper()
	commands, typing := io.Pipe()
	replies := &lines{c: make(chan string, 64)}
	// The test's own output: a demo goroutine logging after the test returned would fail it.
	d, err := demo.Start(ctx, demo.Config{StateDir: dir, TerminalID: "T01", Period: 30 * time.Second,
		Log: slog.New(slog.NewTextHandler(t.Output(), nil)), Commands: commands, Replies: replies})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() }) // on a failure; Close is idempotent
	cfg := station.Config{ID: "T01", Journal: filepath.Join(dir, "terminal-T01.db"),
		Client:   client.Config{Addr: d.Addr, TLS: d.ClientTLS},
		Acceptor: d.Acceptor, Printer: d.Printer, IDPad: d.IDPad, Seat: d.Seat, AcceptorPoll: 20 * time.Millisecond}
	if edit != nil {
		edit(&cfg)
	}
	st, err := station.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return d, st, typing, replies
}

// typed types a device command on the demo's stdin and reports whether the device took it.
func typed(t *testing.T, typing io.Writer, replies *lines, line string) bool {
	t.Helper()
	if _, err := io.WriteString(typing, line+"\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-replies.c:
		return strings.HasPrefix(r, "ok:")
	case <-time.After(5 * time.Second):
		t.Fatal("no answer to a device command")
		return false
	}
}

// lines is a Replies writer that hands each line to the test and counts what arrives once it
// is closed.
type lines struct {
	c      chan string
	mu     sync.Mutex
	closed bool
	after  int
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		l.after++
		return len(p), nil
	}
	l.c <- strings.TrimSpace(string(p))
	return len(p), nil
}

func (l *lines) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
}

func (l *lines) late() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.after
}

// waitFor checks ok until it holds, or fails the test after 15 s.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	if !testwait.For(15*time.Second, ok) {
		t.Fatalf("never: %s", what)
	}
}

// The dealer on the demo's stdin deals a round to order, end to end through the station's real
// client: with a chip of 5 on 17, "hold", "outcome 17" and "spin" end the wagering at once and
// the wheel reads 17 (a win of 180.00); "correct 20" is the supervisor's correction of the
// result held on the screen (the win taken back); a spin with no round open is refused in words
// on the replies; "deal" opens the next round.
func TestDealerOnStdinDealsACorrectsARound(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, st, typing, replies := startDemo(t, ctx, dir, nil)
	st.WaitForTable(ctx, 10*time.Second)
	waitFor(t, "a note accepted", func() bool { return typed(t, typing, replies, "note 2000") })
	waitFor(t, "the note credited", func() bool { return st.Terminal.View().Balance == 2000 })
	v := st.Terminal.View()
	straight, err := v.Config.Layout.Inside(roulette.Straight, []roulette.Number{17})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a round taking bets", func() bool { return st.Terminal.View().Phase == table.PhaseWagering })
	st.Terminal.SelectChip(500)
	if _, err := st.Terminal.Place(roulette.Bet{Spot: straight}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the slip acknowledged", func() bool { v := st.Terminal.View(); return v.Acked && v.SlipTotal == 500 })
	round := st.Terminal.View().RoundID
	for _, c := range []string{"hold", "outcome 17", "spin"} {
		if !typed(t, typing, replies, c) {
			t.Fatalf("%q refused", c)
		}
	}
	// Wagering ended by the dealer's spin, not the 30 s period.
	waitFor(t, "17 settled: 5.00 on it returns 180.00", func() bool {
		v := st.Terminal.View()
		return v.LastOutcome != nil && v.LastOutcome.RoundID == round && v.LastOutcome.Number == 17 && v.Balance == 2000-500+18000
	})
	answer := func(line string) string {
		t.Helper()
		if _, err := io.WriteString(typing, line+"\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case r := <-replies.c:
			return r
		case <-time.After(5 * time.Second):
			t.Fatalf("no answer to %q", line)
			return ""
		}
	}
	if r := answer("spin"); !strings.HasPrefix(r, "error: spin: no round is taking bets") {
		t.Errorf("a spin with the result held: %q", r)
	}
	if r := answer("outcome 37"); !strings.HasPrefix(r, "error: outcome:") {
		t.Errorf("outcome 37: %q", r)
	}
	if r := answer("correct 20"); !strings.HasPrefix(r, "ok: round "+round+" corrected to 20") {
		t.Fatalf("correct 20: %q", r)
	}
	waitFor(t, "the correction's settlement: the win taken back", func() bool {
		v := st.Terminal.View()
		return v.Balance == 1500 && v.History[0].Number == 20 && v.History[0].Corrected
	})
	if got := st.Terminal.View().Phase; got != table.PhaseResult {
		t.Fatalf("held, the table is %v, want the result", got)
	}
	if !typed(t, typing, replies, "deal") {
		t.Fatal("deal refused")
	}
	waitFor(t, "the next round opened", func() bool {
		v := st.Terminal.View()
		return v.Phase == table.PhaseWagering && v.RoundID != round
	})
}
