package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/diagrams"
	"github.com/tablegames/ats/internal/testwait"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
)

// Issue 17 item 7, "the player is told": what the table did is on the screen, through the real
// table server on loopback (mutual TLS, its SQLite ledger), the kiosk's station and the Diagram
// A screen on its own Fyne thread, as in TestFullRoundThroughTheScreen.

// toldRig is a screen on a real table with a dealer buy-in of 100.00 accepted.
type toldRig struct {
	tbl  *server.Table
	st   *station.Station
	s    *Screen
	ui   *fyneThread
	says func() string
}

func newToldRig(t *testing.T) *toldRig {
	t.Helper()
	test.NewTempApp(t)
	cfg := server.DefaultConfig()
	cfg.Period, cfg.Warning = 20*time.Second, 2*time.Second
	tbl, addr, cliTLS := startTable(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	st, err := station.Start(ctx, station.Config{ID: "T01", Journal: filepath.Join(t.TempDir(), "terminal-T01.db"),
		Client: client.Config{Addr: addr, TLS: cliTLS}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	<-st.Recovered()
	if !testwait.For(20*time.Second, func() bool { return st.Terminal.View().Config.Layout.Wheel != 0 }) {
		t.Fatal("the terminal never had the table's snapshot")
	}
	ui := startFyneThread(t)
	var s *Screen
	var w fyne.Window
	ui.DoAndWait(func() {
		if s, err = NewScreen(st.Terminal, diagrams.DiagramA, st.Terminal.View().Config.Layout); err != nil {
			return
		}
		s.do = ui.Do
		w = test.NewWindow(s.Content())
		w.Resize(fyne.NewSize(1920, 1080))
		s.Follow(ctx)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ui.DoAndWait(w.Close) })
	r := &toldRig{tbl: tbl, st: st, s: s, ui: ui}
	r.says = func() string { return screenSays(s) + ", countdown " + s.countdown.Text }
	if _, err := tbl.CreditPlayer("D1", &pb.CreditPlayerRequest{IdempotencyKey: "buy-in-1", TerminalId: "T01", Amount: 10000}); err != nil {
		t.Fatal(err)
	}
	if !testwait.For(10*time.Second, func() bool { return st.Terminal.View().BuyIn != nil }) {
		t.Fatal("the buy-in was never offered")
	}
	if err := st.Terminal.ConfirmBuyIn(ctx, true); err != nil {
		t.Fatal(err)
	}
	ui.eventually(t, "the buy-in credited", func() bool { return s.balance.Text == s.cash(10000) }, r.says)
	return r
}

// bet puts chip cents on red through the terminal and waits for the table's acknowledgement.
func (r *toldRig) bet(t *testing.T, chip int64) {
	t.Helper()
	v := r.st.Terminal.View()
	red, err := v.Config.Layout.Outside(roulette.Red, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := v.SlipTotal + chip
	r.st.Terminal.SelectChip(chip)
	if _, err := r.st.Terminal.Place(roulette.Bet{Spot: red}); err != nil {
		t.Fatal(err)
	}
	if !testwait.For(10*time.Second, func() bool { v := r.st.Terminal.View(); return v.Acked && v.SlipTotal == want }) {
		t.Fatalf("the slip of %d was never acknowledged", want)
	}
}

func (r *toldRig) start(t *testing.T) string {
	t.Helper()
	st, err := r.tbl.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	r.ui.eventually(t, "the round open", func() bool { return r.s.status.Text == "PLACE YOUR BETS" }, r.says)
	return st.RoundId
}

// 004 §4.3(c), 001 §4.3.3: wagers totalling less than the aggregate minimum (5.00) are not
// recognised for the spin: returned, not settled, and the screen says so. Before: the balance
// came back without a word, as if the spin had been lost and refunded by chance.
func TestRule004_4_3c_BelowAggregateMinimumNotRecognisedOnScreen(t *testing.T) {
	r := newToldRig(t)
	round := r.start(t)
	r.bet(t, 100) // 1.00 on red, under the 5.00 aggregate minimum
	if _, err := r.tbl.BallDropping("dealer:test", round); err != nil {
		t.Fatal(err)
	}
	if _, err := r.tbl.EnterOutcome("dealer:test", round, "1"); err != nil { // red: it would have won
		t.Fatal(err)
	}
	r.ui.eventually(t, "not recognised on the screen", func() bool {
		return strings.Contains(r.s.message.Text, "not recognised") && strings.Contains(r.s.message.Text, "5.00") &&
			r.s.balance.Text == r.s.cash(10000)
	}, r.says)
	if b := terminalOnTable(t, r.tbl).Balance; b != 10000 {
		t.Fatalf("the table's ledger has %d", b)
	}
}

// 001 §9.1–9.2, 003 §8.1–8.9: the dealer announces a no spin; every terminal announces it and
// the wagers stand for the valid spin. Before: the table recorded it and told no terminal.
func TestRule001_9_2_NoSpinAnnouncedOnScreen(t *testing.T) {
	r := newToldRig(t)
	round := r.start(t)
	r.bet(t, 500)
	if _, err := r.tbl.BallDropping("dealer:test", round); err != nil {
		t.Fatal(err)
	}
	if _, err := r.tbl.NoSpin("dealer:test", round); err != nil {
		t.Fatal(err)
	}
	r.ui.eventually(t, "the no spin announced", func() bool {
		return strings.Contains(r.s.message.Text, "No spin") && r.s.bet.Text == r.s.cash(500)
	}, r.says)
	if got := terminalOnTable(t, r.tbl).SlipTotal; got != 500 {
		t.Fatalf("after the no spin the table holds a slip of %d", got)
	}
}

// 001 §5.1.3: the wheel sensor sees the ball about to drop before the period's end; the time
// for wagering is reduced to zero and the countdown shows 0. Before: the countdown vanished.
func TestRule001_5_1_3_CountdownShowsZeroWhenTheBallDropsEarly(t *testing.T) {
	r := newToldRig(t)
	round := r.start(t)
	r.ui.eventually(t, "the countdown running", func() bool { c := r.s.countdown.Text; return c != "" && c != "0" }, r.says)
	if _, err := r.tbl.BallDropping("dealer:test", round); err != nil {
		t.Fatal(err)
	}
	r.ui.eventually(t, "the countdown at 0", func() bool {
		return r.s.countdown.Text == "0" && r.s.status.Text == "NO MORE BETS"
	}, r.says)
	if rem := r.st.Terminal.Remaining(); rem != 0 {
		t.Fatalf("the terminal has %v of wagering left after the ball dropped", rem)
	}
}
