package station_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/app/table"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/server"
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
	if _, err := r.demo.Table.BallDropping("dealer:test", rid); err != nil {
		t.Fatal(err)
	}
	r.waitView("no more bets", func(v app.View) bool { return v.Phase == table.PhaseNoMoreBets && v.Locked && v.RoundID == rid })
	if _, err := r.closeAccount("close-1"); err == nil || !strings.Contains(err.Error(), "settled") {
		t.Fatalf("closing an account while its wagers are being settled: %v", err)
	}
	if _, err := r.demo.Table.EnterOutcome("dealer:test", rid, "17"); err != nil { // black: the red chip loses
		t.Fatal(err)
	}
	r.waitView("the settlement", func(v app.View) bool { return v.LastWin != nil && v.LastWin.RoundID == rid && v.Balance == 4500 })
	res, err := r.closeAccount("close-1")
	if err != nil || res.Amount != 4500 {
		t.Fatalf("close after the result: %+v %v", res, err)
	}
	v := r.waitView("the account closed", func(v app.View) bool { return !v.AccountOpen && v.Balance == 0 })
	if len(v.Stakes) != 0 || v.Available != 0 || !contains(v.Message.String(), "dealer") || !contains(v.Message.String(), "45.00") {
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
	if _, err := r.demo.Table.BallDropping("dealer:test", rid); err != nil {
		t.Fatal(err)
	}
	if _, err := r.demo.Table.EnterOutcome("dealer:test", rid, "1"); err != nil { // red: the withdrawn chip would have won
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

	r.net.Cut()
	r.waitView("the link down on the screen", func(v app.View) bool { return !v.Connected })
	refused("table server lost")
	r.net.Restore()
	r.ready()
	r.buyIn(2000)

	// A player is present, so the table closes only as announced, 20 minutes ahead (001 §12.7):
	// the table's clock is moved past the announced time.
	at := time.Now().Add(server.ClosureNotice + time.Second)
	if _, err := r.demo.Table.ScheduleClose("supervisor:test", at, false); err != nil {
		t.Fatal(err)
	}
	r.demo.Table.Advance(at.Add(time.Second))
	r.waitView("the table closed", func(v app.View) bool { return v.Phase == table.PhaseClosed })
	refused("table closed")
	if _, err := r.demo.Table.OpenTable("dealer:test", false); err != nil {
		t.Fatal(err)
	}
	r.buyIn(500)

	// A note whose credit point is journalled just as the link goes: owed, asked for until the
	// table answers, credited once.
	points := len(r.records("credit-point"))
	r.st.Journal.Observe(func(rec journal.Record) {
		if rec.Kind == "credit-point" {
			r.net.Cut()
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
	r.net.Restore()
	r.waitView("the owed credit", func(v app.View) bool { return v.Connected && v.Balance == 3500 })
	r.noPending()
	if b := r.conserved(); b != 3500 {
		t.Fatalf("ledger balance %d, want 3500", b)
	}
	if n := len(r.records("credited")); n != 3 {
		t.Fatalf("%d credits journalled, want 3", n)
	}
}

// A printer fault is told to the player before any cash-out is tried, and stops money in until
// it clears: a player must not buy in at a terminal that cannot print their ticket.
func TestPrinterFaultStopsMoney(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.ready()
	for _, tc := range []struct{ command, told, clear string }{
		{"paper-out", "paper out", "paper"},
		{"head-up", "head up", "clear"},
		{"jam", "jam", "clear"},
		{"chassis-open", "chassis open", "clear"},
	} {
		t.Run(tc.command, func(t *testing.T) {
			r.t = t
			if _, err := r.prn.Command(tc.command); err != nil {
				t.Fatal(err)
			}
			r.eventually("the fault told", func() bool { return contains(r.st.Cashier.Status().Fault.String(), tc.told) })
			r.eventually("money stopped", func() bool { return !r.st.MayTakeMoney() && r.acceptorInhibited() })
			if err := r.acc.InsertNote(1000); err == nil {
				t.Fatal("a note taken while the printer is at fault")
			}
			if _, err := r.prn.Command(tc.clear); err != nil {
				t.Fatal(err)
			}
			r.eventually("the fault cleared", func() bool { return r.st.Cashier.Status().Fault.IsZero() && r.st.MayTakeMoney() })
			r.buyIn(1000)
		})
	}
}

// A printer known to be at fault refuses Cash out before any money moves: the balance stays on
// the account, the screen says why, and Cash out is offered again once the printer can print.
// (Before, the account was debited and the player watched the retries for 14 s before hearing
// of a handpay: the money looked gone.)
func TestCashOutRefusedWhilePrinterDown(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.ready()
	r.buyIn(2000)
	r.waitView("Cash out offered", func(v app.View) bool { return v.CanCashOut })
	if _, err := r.prn.Command("paper-out"); err != nil {
		t.Fatal(err)
	}
	r.waitView("the printer fault seen", func(v app.View) bool { return v.Money.PrinterDown && !v.CanCashOut })
	if err := r.st.Cashier.CashOut(context.Background()); !errors.Is(err, cashier.ErrPrinterDown) {
		t.Fatalf("cash-out with the printer down: %v", err)
	}
	v := r.view()
	if v.Balance != 2000 || !v.AccountOpen || len(r.records("cashout-requested")) != 0 {
		t.Fatalf("money moved: balance %d open %v requests %d", v.Balance, v.AccountOpen, len(r.records("cashout-requested")))
	}
	r.st.Terminal.CashOut() // the screen's button, were it touched: refused and told
	r.waitView("the refusal told", func(v app.View) bool { return contains(v.Message.String(), "balance stays") })
	if _, err := r.prn.Command("paper"); err != nil { // paper loaded: the fault clears
		t.Fatal(err)
	}
	r.waitView("Cash out offered again", func(v app.View) bool { return v.CanCashOut })
}

// A loaded terminal looks at its printer late: the whole ticket (busy, validation, out, top of
// form) comes and goes between two of the driver's polls. The cash-out is one paper ticket,
// confirmed to the table — never the same validation number printed again because the driver
// took a finished job for one that never started (seen under load as two tickets #0001).
func TestCashOutPrintedBetweenTwoPollsIsOneTicket(t *testing.T) {
	r := newRig(t, rigOptions{printerPoll: 400 * time.Millisecond, printer: func(c *emulator.PrinterConfig) {
		c.Start, c.Print, c.Feed = time.Millisecond, 20*time.Millisecond, time.Millisecond
	}})
	r.ready()
	r.buyIn(2000)
	if err := r.st.Cashier.CashOut(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := r.st.Cashier.Status(); !st.TakeTicket || st.Handpay || !st.Fault.IsZero() {
		t.Fatalf("cashier status %+v", st)
	}
	if printed := r.prn.Printed(); len(printed) != 1 || !printed[0].Complete {
		t.Fatalf("the printer put out %d tickets for one cash-out", len(printed))
	}
	if n, m := len(r.records("ticket-printed")), len(r.records("ticket-confirmed")); n != 1 || m != 1 {
		t.Fatalf("journal: %d printed, %d confirmed", n, m)
	}
	r.noPending()
}

// The ticket cannot be printed: the cash-out goes to handpay (the player is told an attendant
// pays), the dealer pays it at the console once, and the ticket — should a copy have come out —
// never redeems.
func TestHandpayAtTheDealerConsole(t *testing.T) {
	// The fault is put there unseen by the idle check, so the print itself finds it (one seen
	// before refuses the cash-out: TestCashOutRefusedWhilePrinterDown).
	r := newRig(t, rigOptions{printerCheck: time.Hour})
	r.ready()
	r.buyIn(2000)
	if _, err := r.prn.Command("paper-out"); err != nil {
		t.Fatal(err)
	}
	if err := r.st.Cashier.CashOut(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := r.st.Cashier.Status()
	if !st.Handpay || st.TakeTicket || !contains(st.Message.String(), "by hand") || !contains(st.Message.String(), "20.00") {
		t.Fatalf("cashier status %+v", st)
	}
	if n := len(r.prn.Printed()); n != 0 {
		t.Fatalf("%d tickets came out of a printer without paper", n)
	}
	r.waitView("the account closed", func(v app.View) bool { return !v.AccountOpen && v.Balance == 0 })
	issued, hp := r.records("ticket-issued"), r.records("handpay")
	if len(issued) != 1 || len(hp) != 1 || hp[0].Amount != 2000 || len(r.records("ticket-confirmed")) != 0 {
		t.Fatalf("journal: issued %+v, handpay %+v", issued, hp)
	}
	validation := string(issued[0].Body)
	r.noPending()

	res, err := r.demo.Table.Handpay("D1", &pb.HandpayRequest{IdempotencyKey: "hp-1", ValidationNumber: validation})
	if err != nil || res.Ticket.GetAmount() != 2000 || res.Ticket.GetState() != "handpaid" {
		t.Fatalf("handpay at the console: %+v %v", res, err)
	}
	if _, err := r.demo.Table.Handpay("D1", &pb.HandpayRequest{IdempotencyKey: "hp-1", ValidationNumber: validation}); err != nil {
		t.Fatalf("the console retrying the same handpay: %v", err)
	}
	if _, err := r.demo.Table.Handpay("D2", &pb.HandpayRequest{IdempotencyKey: "hp-2", ValidationNumber: validation}); err == nil {
		t.Fatal("a ticket hand-paid twice")
	}

	// Paper back in; the player tries the ticket's barcode anyway.
	if _, err := r.prn.Command("paper"); err != nil {
		t.Fatal(err)
	}
	r.st.Cashier.CheckPrinter() // the station's idle check, which this rig runs only at start
	r.eventually("the acceptor taking money again", func() bool { return r.st.MayTakeMoney() && r.acceptorEnabled() })
	back := len(r.acc.Returned())
	if err := r.acc.InsertTicket(validation); err != nil {
		t.Fatal(err)
	}
	r.eventually("the hand-paid ticket handed back", func() bool { return len(r.acc.Returned()) == back+1 })
	if !contains(r.st.Cashier.Status().Message.String(), "refused") {
		t.Fatalf("message %q", r.st.Cashier.Status().Message)
	}
	r.noPending()
	c, err := r.demo.Table.Conservation()
	if err != nil || !c.Holds() || c.Balances != 0 || c.OpenTickets != 0 || c.MoneyOut != 2000 {
		t.Fatalf("ledger after the handpay: %v %v", c, err)
	}
}

// The terminal went down in the middle of a cash-out, its ticket issued by the server and
// maybe printed. Start-up recovery carries it on with the same validation number: reprinted
// (it redeems once), or — if the printer cannot — paid by hand, and then a copy that came out
// before the crash is void. Never both. Once the printer said printed, it is not printed again.
func TestCashOutRecoveredAfterRestart(t *testing.T) {
	for _, tc := range []struct {
		name        string
		printed     bool   // the crash came after the printer said printed
		printer     string // the printer's state at the restart
		wantPrinted int
		handpay     bool
	}{
		{"reprinted", false, "", 1, false},
		{"hand-paid", false, "paper-out", 0, true},
		{"printed, not yet confirmed", true, "", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, rigOptions{})
			r.ready()
			r.buyIn(5000)
			r.stop()

			// What the cashier had done when the terminal went: journalled the request, had the
			// server issue the ticket, journalled it (and perhaps that it printed).
			ctx := context.Background()
			j, err := journal.Open(filepath.Join(r.dir, "terminal.db"), nil)
			if err != nil {
				t.Fatal(err)
			}
			key := "cashout:-:00000000000000c1"
			if _, err := j.Append(ctx, journal.Record{Kind: "cashout-requested", Key: key, Flow: cashier.Requested}); err != nil {
				t.Fatal(err)
			}
			cli, err := client.Dial(client.Config{Addr: r.demo.Addr, TLS: r.demo.ClientTLS})
			if err != nil {
				t.Fatal(err)
			}
			tk, err := cli.CashOut(ctx, key)
			cli.Close()
			if err != nil || tk.Amount != 5000 {
				t.Fatalf("cash-out on the server: %+v %v", tk, err)
			}
			if _, err := j.Append(ctx, journal.Record{Kind: "ticket-issued", Key: key, Amount: tk.Amount, Flow: cashier.Printing,
				Body: []byte(tk.Validation)}); err != nil {
				t.Fatal(err)
			}
			if tc.printed {
				if _, err := j.Append(ctx, journal.Record{Kind: "ticket-printed", Key: key, Amount: tk.Amount, Flow: cashier.Confirming}); err != nil {
					t.Fatal(err)
				}
			}
			j.Close()
			if tc.printer != "" {
				r.prn.Command(tc.printer)
			}

			r.start() // returns once start-up recovery has finished
			r.noPending()
			printed := r.prn.Printed()
			if len(printed) != tc.wantPrinted || (len(printed) == 1 && printed[0].Fields[6] != tk.Validation) {
				t.Fatalf("printed %d tickets, want %d with validation %s", len(printed), tc.wantPrinted, tk.Validation)
			}
			st := r.st.Cashier.Status()
			if st.Handpay != tc.handpay || len(r.records("handpay")) != map[bool]int{true: 1}[tc.handpay] ||
				len(r.records("ticket-confirmed")) != map[bool]int{false: 1}[tc.handpay] {
				t.Fatalf("status %+v; handpays %v, confirmed %v", st, r.records("handpay"), r.records("ticket-confirmed"))
			}
			if tc.printer != "" {
				r.prn.Command("paper")
			}

			// The ticket (reprinted, or a copy from before the crash) goes into the acceptor,
			// twice.
			want := int64(5000)
			if tc.handpay {
				want = 0
			}
			r.ready()
			for range 2 {
				back := len(r.acc.Returned())
				if err := r.acc.InsertTicket(tk.Validation); err != nil {
					t.Fatal(err)
				}
				r.eventually("the ticket credited or handed back", func() bool {
					return len(r.acc.Returned()) == back+1 || r.view().Balance == want && want > 0 && len(r.acc.Returned()) == back
				})
				r.noPending()
			}
			if b := r.conserved(); b != want || r.view().Balance != want {
				t.Fatalf("balance %d (screen %d), want %d", b, r.view().Balance, want)
			}
		})
	}
}

// Issue 32 point 12: after "paper-out" the README's recovery is "clear"; it answered "faults
// cleared" and the terminal kept "paper out" with Cash out off (only an undocumented "paper"
// recovered). Clear brings the printer back and Cash out is offered again.
func TestPrinterClearAfterPaperOutOffersCashOutAgain(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.ready()
	r.buyIn(2000)
	r.waitView("Cash out offered", func(v app.View) bool { return v.CanCashOut })
	if _, err := r.prn.Command("paper-out"); err != nil {
		t.Fatal(err)
	}
	r.waitView("the printer fault seen", func(v app.View) bool { return v.Money.PrinterDown && !v.CanCashOut })
	if _, err := r.prn.Command("clear"); err != nil {
		t.Fatal(err)
	}
	r.waitView("Cash out offered again", func(v app.View) bool { return v.CanCashOut && !v.Money.PrinterDown })
}
