package station_test

import (
	"strings"
	"testing"

	pb "github.com/tablegames/ats/client/proto/ats/table/v1"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/client"
)

// place puts one chip of chip cents on red and waits for the table to acknowledge the slip.
func (r *rig) place(chip int64) {
	r.t.Helper()
	red, err := r.view().Config.Layout.Outside(roulette.Red, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	want := r.view().SlipTotal + chip
	r.st.Terminal.SelectChip(chip)
	if _, err := r.st.Terminal.Place(roulette.Bet{Spot: red}); err != nil {
		r.t.Fatal(err)
	}
	r.waitView("the slip acknowledged", func(v app.View) bool { return v.Acked && v.SlipTotal == want })
	r.eventually("the server holding the slip", func() bool { return r.server().SlipTotal == want })
}

func (r *rig) closeAccount(key string) (*pb.ClosePlayerAccountResponse, error) {
	return r.demo.Table.ClosePlayerAccount("D1", &pb.ClosePlayerAccountRequest{IdempotencyKey: key, TerminalId: "T01", Reason: "directed-to-leave"})
}

func sum(rs []journal.Record) int64 {
	var n int64
	for _, r := range rs {
		n += r.Amount
	}
	return n
}

// The dealer directs a player to leave (001 §6.5.2): the console closes the account and pays
// the balance at the table. The station shows the balance at zero and the account closed,
// tells the player, and journals a dealer cash-out of exactly what the server paid — once, even
// if the console retries. While the wheel spins the account cannot be closed (the balance is
// not final); during the wagering period closing it withdraws the slip (rule 3.7).
func TestDealerClosesTheAccount(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	r.ready()

	// After the result: the balance the settlement left is paid.
	rid := r.round()
	r.buyIn(5000)
	r.place(500)
	if _, err := r.demo.Table.BallDropping(rid); err != nil {
		t.Fatal(err)
	}
	r.waitView("no more bets", func(v app.View) bool { return v.Phase == client.PhaseNoMoreBets && v.Locked && v.RoundID == rid })
	if _, err := r.closeAccount("close-1"); err == nil || !strings.Contains(err.Error(), "settled") {
		t.Fatalf("closing an account while its wagers are being settled: %v", err)
	}
	if _, err := r.demo.Table.EnterOutcome(rid, "17"); err != nil { // black: the red chip loses
		t.Fatal(err)
	}
	r.waitView("the settlement", func(v app.View) bool { return v.LastWin != nil && v.LastWin.RoundID == rid && v.Balance == 4500 })
	res, err := r.closeAccount("close-1")
	if err != nil || res.Amount != 4500 {
		t.Fatalf("close after the result: %+v %v", res, err)
	}
	v := r.waitView("the account closed", func(v app.View) bool { return !v.AccountOpen && v.Balance == 0 })
	if len(v.Stakes) != 0 || v.Available != 0 || !contains(v.Message, "dealer") || !contains(v.Message, "45.00") {
		t.Fatalf("screen after the dealer closed the account: stakes %v available %d message %q", v.Stakes, v.Available, v.Message)
	}
	// The console retries with the same key: the same answer, nothing paid or journalled again.
	if res, err := r.closeAccount("close-1"); err != nil || res.Amount != 4500 {
		t.Fatalf("retried close: %+v %v", res, err)
	}

	// During the wagering period: the slip is withdrawn and the whole balance paid.
	rid = r.round()
	r.buyIn(2000) // also a barrier: every event before it has been handled
	r.place(500)
	if res, err := r.closeAccount("close-2"); err != nil || res.Amount != 2000 {
		t.Fatalf("close during the wagering period: %+v %v", res, err)
	}
	v = r.waitView("the account closed", func(v app.View) bool { return !v.AccountOpen && v.Balance == 0 })
	if len(v.Stakes) != 0 || v.SlipTotal != 0 || r.server().SlipTotal != 0 {
		t.Fatalf("slip after the close: screen %v (total %d), server %d", v.Stakes, v.SlipTotal, r.server().SlipTotal)
	}
	if _, err := r.demo.Table.BallDropping(rid); err != nil {
		t.Fatal(err)
	}
	if _, err := r.demo.Table.EnterOutcome(rid, "1"); err != nil { // red: the withdrawn chip would have won
		t.Fatal(err)
	}
	r.buyIn(100) // the player may come back; and a barrier again
	if b := r.conserved(); b != 100 {
		t.Fatalf("balance on the ledger %d, want 100", b)
	}
	out := r.records("dealer-cashout")
	if len(out) != 2 || sum(out) != 6500 {
		t.Fatalf("dealer cash-outs journalled: %+v, want 4500 and 2000", out)
	}
	if in := sum(r.records("credited")); in != 7100 {
		t.Fatalf("credited %d, want 7100", in)
	}
}

// Money in stops while the table server is lost (the acceptor is inhibited: a note is handed
// straight back) and while the table is closed, and starts again when they come back.
func TestMoneyInFollowsTheTable(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	r.ready()
	if !r.st.MayTakeMoney() {
		t.Fatal("a connected station at an open table refuses money")
	}
	refused := func(what string) {
		t.Helper()
		r.eventually(what+": the acceptor inhibited", func() bool { return !r.st.MayTakeMoney() && r.acceptorInhibited() })
		back := len(r.acc.Returned())
		if err := r.acc.InsertNote(2000); err == nil {
			t.Fatalf("%s: the acceptor took a note", what)
		}
		if len(r.acc.Returned()) != back+1 {
			t.Fatalf("%s: the note was not handed back", what)
		}
	}

	r.net.cut()
	r.waitView("the link down on the screen", func(v app.View) bool { return !v.Connected })
	refused("table server lost")
	r.net.restore()
	r.ready()
	r.buyIn(2000)

	if _, err := r.demo.Table.CloseTable(); err != nil {
		t.Fatal(err)
	}
	r.waitView("the table closed", func(v app.View) bool { return v.Phase == client.PhaseClosed })
	refused("table closed")
	if _, err := r.demo.Table.OpenTable(false); err != nil {
		t.Fatal(err)
	}
	r.buyIn(500)

	// A note whose credit point is journalled just as the link goes: owed, asked for until the
	// table answers, credited once.
	points := len(r.records("credit-point"))
	r.st.Journal.Observe(func(rec journal.Record) {
		if rec.Kind == "credit-point" {
			r.net.cut()
		}
	})
	if err := r.acc.InsertNote(1000); err != nil {
		t.Fatal(err)
	}
	r.eventually("the credit point", func() bool { return len(r.records("credit-point")) == points+1 })
	r.st.Journal.Observe(nil)
	r.waitView("the link down", func(v app.View) bool { return !v.Connected })
	if b := r.conserved(); b != 2500 {
		t.Fatalf("credited while the table was away: ledger balance %d", b)
	}
	r.net.restore()
	r.waitView("the owed credit", func(v app.View) bool { return v.Connected && v.Balance == 3500 })
	r.noPending()
	if b := r.conserved(); b != 3500 {
		t.Fatalf("ledger balance %d, want 3500", b)
	}
	if n := len(r.records("credited")); n != 3 {
		t.Fatalf("%d credits journalled, want 3", n)
	}
}
