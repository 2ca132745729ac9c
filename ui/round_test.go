package ui

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/diagrams"
	"github.com/tablegames/ats/internal/testwait"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// roundPeriod is the wagering period of the test's round: long enough for the taps and their
// acknowledgements on a slow, shared machine, short enough to wait for the deadline.
const roundPeriod = 5 * time.Second

// startTable serves a real table on loopback with mutual TLS, as demo.StartTable does, but
// with the dealer dealing by hand (no auto-dealer): the test starts the round and enters the
// outcome. It returns the table and what terminal T01 needs to reach it.
func startTable(t *testing.T, cfg server.Config) (*server.Table, string, *tls.Config) {
	t.Helper()
	led, err := ledger.Open(filepath.Join(t.TempDir(), "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	tbl, err := server.NewTable(ctx, cfg, led, time.Now, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	m, err := pki.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	srvTLS, err := m.ServerTLS()
	if err != nil {
		t.Fatal(err)
	}
	cliTLS, err := m.ClientTLS(pki.RoleTerminal, "T01")
	if err != nil {
		t.Fatal(err)
	}
	addr, stop, err := server.Listen(tbl, srvTLS, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go tbl.Run(ctx) // the deadline closes the wagering period on the table's own clock
	t.Cleanup(func() {
		cancel()
		stop()
		led.Close()
	})
	if _, err := tbl.OpenTable("dealer:test", false); err != nil {
		t.Fatal(err)
	}
	return tbl, addr, cliTLS
}

// terminalOnTable is what the table's ledger says of terminal T01.
func terminalOnTable(t *testing.T, tbl *server.Table) *pb.TerminalStatus {
	t.Helper()
	st, err := tbl.Status()
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range st.Terminals {
		if ts.TerminalId == "T01" {
			return ts
		}
	}
	return &pb.TerminalStatus{}
}

// screenSays is what the screen shows, for a failure message. On the Fyne thread.
func screenSays(s *Screen) string {
	return fmt.Sprintf("status %q, balance %q, bet %q, outcome %q, %q, message %q, chips %v, buy-in offered %+v",
		s.status.Text, s.balance.Text, s.bet.Text, s.outcome.Text, s.won.Text, s.message.Text, feltChips(s), s.last.BuyIn)
}

// A full round driven through the screen against a real table server on loopback: the kiosk's
// station (journal, client over mutual TLS, terminal, cashier, the printer driver on an
// emulated printer), the Diagram A screen following it on its own Fyne thread as in the kiosk.
// The dealer offers a buy-in, which the player accepts on the screen; the dealer opens a round;
// chips tapped onto the felt at spot centres are acknowledged by the table; the deadline locks
// the layout; the dealer enters 17; the screen shows the number, the amount won and the balance
// the table's ledger holds; Cash out prints the ticket and the screen says to take it.
func TestFullRoundThroughTheScreen(t *testing.T) {
	test.NewTempApp(t)
	cfg := server.DefaultConfig()
	cfg.Period, cfg.Warning = roundPeriod, 2*time.Second
	tbl, addr, cliTLS := startTable(t, cfg)

	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	prn := emulator.NewPrinter(emulator.PrinterConfig{Print: 200 * time.Millisecond, Feed: 20 * time.Millisecond})
	pp, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pp.Close() })
	go prn.Serve(ctx, pp.Device)
	st, err := station.Start(ctx, station.Config{ID: "T01", Journal: filepath.Join(t.TempDir(), "terminal-T01.db"),
		Client: client.Config{Addr: addr, TLS: cliTLS}, Printer: pp.Path, PrinterPoll: 25 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	<-st.Recovered()
	if !testwait.For(20*time.Second, func() bool { return st.Terminal.View().Config.Layout.Wheel != 0 }) {
		t.Fatal("the terminal never had the table's snapshot")
	}
	l := st.Terminal.View().Config.Layout

	// The screen, built and followed on the Fyne thread, as main does.
	ui := startFyneThread(t)
	var s *Screen
	var w fyne.Window
	ui.DoAndWait(func() {
		if s, err = NewScreen(st.Terminal, diagrams.DiagramA, l); err != nil {
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
	says := func() string { return screenSays(s) }
	ui.eventually(t, "the table waiting for a round", func() bool { return s.status.Text == "WAITING FOR THE TABLE" }, says)

	// The dealer's buy-in, confirmed by the player on the screen (004 §6.3(c)).
	if _, err := tbl.CreditPlayer("D1", &pb.CreditPlayerRequest{IdempotencyKey: "buy-in-1", TerminalId: "T01", Amount: 50000}); err != nil {
		t.Fatal(err)
	}
	var accept *widget.Button
	ui.eventually(t, "the buy-in to confirm", func() bool {
		for _, o := range s.buyIn.Objects {
			if b, ok := o.(*widget.Button); ok && b.Text == "Accept" {
				accept = b
			}
		}
		return accept != nil
	}, says)
	ui.DoAndWait(func() { test.Tap(accept) })
	// The demo table counts in Australian dollars (server.DefaultConfig): money shows A$.
	ui.eventually(t, "the buy-in credited", func() bool { return s.balance.Text == "A$500.00" && len(s.buyIn.Objects) == 0 }, says)
	if b := terminalOnTable(t, tbl).Balance; b != 50000 {
		t.Fatalf("the table's ledger has %d for T01 after the buy-in", b)
	}

	// The dealer opens the round.
	status, err := tbl.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	round, deadline := status.RoundId, time.Unix(0, status.DeadlineUnixNanos)
	ui.eventually(t, "the round open", func() bool { return s.status.Text == "PLACE YOUR BETS" }, says)

	// Chips tapped onto the felt: 25 on 17, 5 on the split 17/20, 10 on red.
	spot := func(k roulette.Kind, ns ...roulette.Number) roulette.Spot {
		sp, err := l.Inside(k, ns)
		if err != nil {
			t.Fatal(err)
		}
		return sp
	}
	s17, split := spot(roulette.Straight, 17), spot(roulette.Split, 17, 20)
	red, err := l.Outside(roulette.Red, 0)
	if err != nil {
		t.Fatal(err)
	}
	ui.DoAndWait(func() {
		for _, tap := range []struct {
			chip string
			spot roulette.Spot
		}{{"25", s17}, {"5", split}, {"10", red}} {
			test.Tap(findChip(t, s.Content(), tap.chip))
			r, _ := s.geom.Region(tap.spot)
			test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
		}
	})
	want := map[roulette.Spot]string{s17: "25", split: "5", red: "10"}
	// Acknowledged: the chips stand and the amount bet has lost its "…".
	ui.eventually(t, "the chips acknowledged by the table", func() bool {
		chips := feltChips(s)
		return s.bet.Text == "A$40.00" && len(chips) == 3 && chips[s17] == "25" && chips[split] == "5" && chips[red] == "10"
	}, says)
	if time.Now().After(deadline) {
		t.Fatalf("the chips were acknowledged only after the deadline (%v late): the machine is too slow for a %v period", time.Since(deadline), roundPeriod)
	}
	if got := terminalOnTable(t, tbl).SlipTotal; got != 4000 {
		t.Fatalf("the table holds a slip of %d for T01, the screen 40.00", got)
	}

	// The warning, then the deadline locks the layout: a chip tapped now is refused and not drawn.
	if time.Until(deadline) > time.Second { // else a slow machine may see the deadline first
		ui.eventually(t, "the warning", func() bool { return s.status.Text == "CLOSING" }, says)
	}
	ui.eventually(t, "no more bets at the deadline", func() bool { return s.status.Text == "NO MORE BETS" }, says)
	ui.DoAndWait(func() {
		r, _ := s.geom.Region(spot(roulette.Straight, 0))
		test.TapAt(s.felt, s.felt.ToScreen(r.Centre))
	})
	ui.eventually(t, "the late chip refused", func() bool {
		chips := feltChips(s)
		return strings.Contains(s.message.Text, "No more bets") && len(chips) == 3 && chips[s17] == want[s17]
	}, says)
	for i := 0; ; i++ {
		st, err := tbl.Status()
		if err != nil {
			t.Fatal(err)
		}
		if st.Phase == pb.Phase_PHASE_NO_MORE_BETS {
			break
		}
		if i > 500 {
			t.Fatalf("the table never closed the wagering period: %v", st.Phase)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := terminalOnTable(t, tbl).SlipTotal; got != 4000 {
		t.Fatalf("after the deadline the table holds a slip of %d for T01", got)
	}

	// The dealer enters 17: 25 × 36 + 5 × 18 back, the 10 on red lost. The winning chips stay
	// with what they won over their stakes until the next round, beside the round's stake as
	// the amount bet; the losing chip is gone (001 §3.8; issue 32 point 9).
	if _, err := tbl.EnterOutcome("dealer:test", round, "17"); err != nil {
		t.Fatal(err)
	}
	ui.eventually(t, "the result", func() bool {
		chips := feltChips(s)
		return s.status.Text == "RESULT" && s.outcome.Text == "17" && s.won.Text == "WON A$990.00" &&
			s.callout.Text == "BLACK · ODD · 2nd 12 · 1 to 18" && chips[s17] == "25" && chips[split] == "5" && chips[red] == "" &&
			s.felt.won[s17] == 87500 && s.felt.won[split] == 8500 && len(s.felt.won) == 2 && s.bet.Text == "A$40.00"
	}, says)
	onTable := terminalOnTable(t, tbl).Balance
	if onTable != 50000-4000+99000 {
		t.Errorf("the table's ledger has %d for T01", onTable)
	}
	ui.eventually(t, "the settled balance "+amount(onTable), func() bool { return s.balance.Text == s.cash(onTable) }, says)

	// Cash out: the ticket for the whole balance, printed, and the player told to take it.
	ui.DoAndWait(func() {
		test.Tap(findButton(t, s.Content(), "Cash out"))
		test.Tap(findButton(t, w.Canvas().Overlays().Top(), "Cash out")) // confirmed
	})
	ui.eventually(t, "take your ticket", func() bool {
		return s.message.Text == "Please take your ticket" && s.balance.Text == "A$0.00"
	}, says)
	if ts := terminalOnTable(t, tbl); ts.Balance != 0 || ts.AccountOpen {
		t.Errorf("after the cash-out the table has T01 at %d, open %v", ts.Balance, ts.AccountOpen)
	}
	if printed := prn.Printed(); len(printed) != 1 || !printed[0].Complete || !strings.Contains(strings.Join(printed[0].Fields, " "), "1,450.00") {
		t.Errorf("the printer put out %d tickets: %+v", len(printed), printedFields(printed))
	}
}

func printedFields(ts []emulator.PrintedTicket) [][]string {
	var out [][]string
	for _, t := range ts {
		out = append(out, t.Fields)
	}
	return out
}
