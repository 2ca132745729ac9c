package cashier_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/client"
	"github.com/tablegames/ats/devices/emulator"
	"github.com/tablegames/ats/devices/noteacceptor"
	"github.com/tablegames/ats/devices/printer"
	"github.com/tablegames/ats/devices/serialport"
	"github.com/tablegames/ats/internal/demo"
	"github.com/tablegames/ats/internal/netcut"
	"github.com/tablegames/ats/internal/testwait"
	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/clock"
	"github.com/tablegames/ats/app/clock/clocktest"
	"github.com/tablegames/ats/server"
)

// rig is one terminal's money hardware and its table: a real table server on loopback, the
// real client, a journal file, and both device drivers over pseudo-terminals to the emulators.
type rig struct {
	dir      string
	currency string // the table's, as the station gives the cashier (its Config.Currency)
	demo     *demo.Table
	cli      *client.Client
	j        *journal.Journal
	acc      *emulator.NoteAcceptor
	prn      *emulator.Printer
	c        *cashier.Cashier
	drv      *noteacceptor.Acceptor
	stop     func()
	link     *netcut.Proxy // the terminal's link to the table, when newRigCut made it cuttable
	// clk is the cashier's clock when newRigOn gave it a fake one: its waits (print retries,
	// release retries) then move only when the test advances it. nil: the machine's clock.
	clk *clocktest.Fake
}

func onPTY(t *testing.T, ctx context.Context, serve func(context.Context, *serialport.PTY)) *serialport.PTY {
	p, err := serialport.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	go serve(ctx, p)
	return p
}

func newRig(t *testing.T) *rig { return newRigCut(t, false) }

// newRigCut is newRig, with the terminal's link to the table through a proxy that can cut it
// (r.link) when cuttable.
func newRigCut(t *testing.T, cuttable bool) *rig { return newRigConfig(t, cuttable, nil) }

// newRigConfig is newRigCut at a table changed by config.
func newRigConfig(t *testing.T, cuttable bool, config func(*server.Config)) *rig {
	t.Helper()
	return newRigWith(t, cuttable, config, nil)
}

// newRigOn is newRigCut with the cashier's waits on the fake clock clk.
func newRigOn(t *testing.T, cuttable bool, clk *clocktest.Fake) *rig {
	t.Helper()
	return newRigWith(t, cuttable, nil, clk)
}

func newRigWith(t *testing.T, cuttable bool, config func(*server.Config), clk *clocktest.Fake) *rig {
	t.Helper()
	dir := t.TempDir()
	cfg := server.DefaultConfig()
	cfg.Period = 30 * time.Second
	if config != nil {
		config(&cfg)
	}
	tbl, err := demo.StartTable(dir, "T01", cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tbl.Close() })
	addr := tbl.Addr
	var link *netcut.Proxy
	if cuttable {
		if link, err = netcut.New(tbl.Addr); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(link.Close)
		addr = link.Addr()
	}
	cli, err := client.Dial(client.Config{Addr: addr, TLS: tbl.ClientTLS})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	r := &rig{dir: dir, demo: tbl, cli: cli, link: link, clk: clk, currency: cfg.Currency}
	r.acc = emulator.NewNoteAcceptor(emulator.NoteAcceptorConfig{Init: 30 * time.Millisecond, Accept: 30 * time.Millisecond, Stack: 60 * time.Millisecond, Reject: 30 * time.Millisecond})
	r.prn = emulator.NewPrinter(emulator.PrinterConfig{Print: 300 * time.Millisecond, Feed: 20 * time.Millisecond})
	r.start(t)
	return r
}

// start opens the journal and the drivers (again, after a simulated crash) and recovers.
// offline opens the stopped terminal's journal for fn, as a tool beside the terminal would, and
// closes it after: the terminal's own start takes the journal's one writer lock.
func (r *rig) offline(t *testing.T, fn func(j *journal.Journal)) {
	t.Helper()
	j, err := journal.Open(filepath.Join(r.dir, "terminal.db"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	fn(j)
}

// reportEscrow tells the table of a note in escrow, as Escrow does before the note is stacked
// (for journals a test writes by hand).
func (r *rig) reportEscrow(t *testing.T, key string, cents int64) {
	t.Helper()
	code, _, _ := strings.Cut(strings.TrimPrefix(key, "note:"), ":")
	if err := r.cli.ReportNoteEscrow(context.Background(), key, cents, code); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) start(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	j, err := journal.Open(filepath.Join(r.dir, "terminal.db"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	ap := onPTY(t, ctx, func(ctx context.Context, p *serialport.PTY) { r.acc.Serve(ctx, p.Device) })
	pp := onPTY(t, ctx, func(ctx context.Context, p *serialport.PTY) { r.prn.Serve(ctx, p.Device) })
	aport, err := serialport.Open(noteacceptor.Line(ap.Path))
	if err != nil {
		t.Fatal(err)
	}
	pport, err := serialport.Open(printer.Line(pp.Path))
	if err != nil {
		t.Fatal(err)
	}
	r.j = j
	r.c = cashier.New(j, r.cli, printer.New(pport, printer.Config{Poll: 30 * time.Millisecond}), cashier.Config{Asset: "A1", PrintRetries: 2, RetryEvery: 50 * time.Millisecond, CancelWait: 300 * time.Millisecond, Log: testLog, Clock: r.cashierClock(),
		Currency: func() string { return r.currency }})
	if err := r.c.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	w := &watch{Cashier: r.c, enabled: make(chan struct{})}
	r.drv = noteacceptor.New(aport, w, noteacceptor.Config{Poll: 20 * time.Millisecond, Log: testLog})
	r.drv.SetInhibit(false)
	ran := make(chan struct{})
	go func() { r.drv.Run(ctx); close(ran) }()
	stopped := false
	r.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		<-ran
		r.c.Wait()
		aport.Close()
		pport.Close()
		ap.Close()
		pp.Close()
		j.Close()
	}
	t.Cleanup(r.stop)
	select { // enabled by this driver, after its reset
	case <-w.enabled:
	case <-time.After(10 * time.Second):
		t.Fatal("the acceptor was never enabled")
	}
}

// cashierClock is the clock the cashier is given: the fake one, or nil for the machine's (a
// nil *clocktest.Fake must not become a non-nil clock.Clock).
func (r *rig) cashierClock() clock.Clock {
	if r.clk == nil {
		return nil
	}
	return r.clk
}

// waiting waits until the cashier has a wait set on the fake clock (and nothing else is set).
func (r *rig) waiting(t *testing.T, what string) {
	t.Helper()
	r.eventually(t, what+": a wait set on the cashier's clock", func() bool { return r.clk.Pending() == 1 })
}

func (r *rig) eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	if !testwait.For(10*time.Second, ok) {
		st, data := r.acc.Status()
		t.Fatalf("%s: not within 10 s (status %+v; acceptor %02X % X, returned %v)", what, r.c.Status(), st, data, r.acc.Returned())
	}
}

func (r *rig) balance(t *testing.T) int64 {
	t.Helper()
	c, err := r.demo.Table.Conservation()
	if err != nil {
		t.Fatal(err)
	}
	if !c.Holds() {
		t.Fatalf("the table's ledger does not conserve: %v", c)
	}
	return c.Balances // the only account at this table
}

func (r *rig) noPending(t *testing.T) {
	t.Helper()
	r.eventually(t, "no open flows", func() bool {
		fs, err := r.j.Pending(context.Background())
		return err == nil && len(fs) == 0
	})
}

// A note in, cashed out on a ticket, the ticket in again: the money goes round once, and the
// same ticket a second time is refused and handed back.
func TestNoteCashOutTicketIn(t *testing.T) {
	r := newRig(t)
	if err := r.acc.InsertNote(2000); err != nil {
		t.Fatal(err)
	}
	r.eventually(t, "note credited", func() bool { return r.balance(t) == 2000 })
	r.noPending(t)

	if err := r.c.CashOut(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !r.c.Status().TakeTicket || r.balance(t) != 0 {
		t.Fatalf("after cash-out: %+v, balance %d", r.c.Status(), r.balance(t))
	}
	printed := r.prn.Printed()
	// The ticket writes money as the screen does, in the table's currency (issue 32 point 11:
	// "$460.00" on the ticket, "A$460.00" on the screen, at an AUD table).
	if len(printed) != 1 || printed[0].Fields[7] != "A$20.00" || printed[0].Fields[8] != "TWENTY DOLLARS AND ZERO CENTS" {
		t.Fatalf("printed %+v", printed)
	}
	validation := printed[0].Fields[6]

	if err := r.acc.InsertTicket(validation); err != nil {
		t.Fatal(err)
	}
	r.eventually(t, "ticket credited", func() bool { return r.balance(t) == 2000 })
	r.noPending(t)
	returned := len(r.acc.Returned())
	if err := r.acc.InsertTicket(validation); err != nil {
		t.Fatal(err)
	}
	r.eventually(t, "replayed ticket handed back", func() bool { return len(r.acc.Returned()) == returned+1 })
	if !strings.Contains(r.c.Status().Message.String(), "refused") {
		t.Fatalf("message %q", r.c.Status().Message)
	}
	r.noPending(t)
	if b := r.balance(t); b != 2000 {
		t.Fatalf("balance %d after a replayed ticket, want 2000", b)
	}
	if box := r.acc.Cashbox(); len(box) != 2 {
		t.Fatalf("cash box %v, want the note and the ticket", box)
	}
}

// A printer that cannot print sends the ticket to handpay, and prints nothing.
func TestPrinterFaultGoesToHandpay(t *testing.T) {
	r := newRig(t)
	r.acc.InsertNote(500)
	r.eventually(t, "note credited", func() bool { return r.balance(t) == 500 })
	r.prn.Command("paper-out")
	if err := r.c.CashOut(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := r.c.Status()
	if !st.Handpay || st.TakeTicket || !strings.Contains(st.Fault.String(), "paper out") {
		t.Fatalf("status %+v", st)
	}
	if n := len(r.prn.Printed()); n != 0 {
		t.Fatalf("%d tickets printed", n)
	}
	r.noPending(t)
}

// A printer fault that clears between attempts: the same ticket is printed, once. The wait
// between attempts is RetryEvery on the cashier's clock: the fault is cleared while the clock
// stands still, the next attempt comes when it has moved RetryEvery and not a nanosecond sooner.
func TestReprintAfterFault(t *testing.T) {
	r := newRigOn(t, false, clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
	r.acc.InsertNote(500)
	r.eventually(t, "note credited", func() bool { return r.balance(t) == 500 })
	r.prn.Command("head-up")
	out := make(chan error, 1)
	go func() { out <- r.c.CashOut(context.Background()) }()
	r.waiting(t, "the first attempt failed")
	if st := r.c.Status(); st.Fault.String() == "" || st.TakeTicket || st.Handpay {
		t.Fatalf("after the failed attempt: status %+v", st)
	}
	r.prn.Command("clear")
	r.clk.Advance(50*time.Millisecond - time.Nanosecond) // RetryEvery, less a nanosecond
	if p, n := r.clk.Pending(), len(r.prn.Printed()); p != 1 || n != 0 {
		t.Fatalf("a nanosecond before RetryEvery: %d waits set, %d tickets printed; want 1, 0", p, n)
	}
	r.clk.Advance(time.Nanosecond)
	select {
	case err := <-out:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no second attempt within 10 s of the clock reaching RetryEvery")
	}
	if st := r.c.Status(); !st.TakeTicket || st.Handpay {
		t.Fatalf("status %+v", st)
	}
	if n := len(r.prn.Printed()); n != 1 {
		t.Fatalf("%d tickets printed", n)
	}
}

// The terminal dies after the credit point was journalled but before the server heard of it:
// on restart the credit is made, once.
func TestCrashAfterCreditPoint(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	// Play the money path up to the credit point by hand, then "crash" (stop without settling).
	r.stop()
	key := "note:65:deadbeefdeadbeef"
	r.offline(t, func(j *journal.Journal) {
		j.Append(ctx, journal.Record{Kind: "note-escrow", Key: key, Amount: 2000, Flow: cashier.Stacking})
		j.Append(ctx, journal.Record{Kind: "credit-point", Key: key, Flow: cashier.CreditDue})
	})
	r.reportEscrow(t, key, 2000) // as Escrow did, before the note was stacked
	r.start(t)
	r.noPending(t)
	if b := r.balance(t); b != 2000 {
		t.Fatalf("balance %d after recovery, want 2000", b)
	}
	// Recovering again (a second crash) changes nothing.
	r.stop()
	r.start(t)
	if b := r.balance(t); b != 2000 {
		t.Fatalf("balance %d after a second recovery, want 2000", b)
	}
}

// Power cut to the acceptor mid-stack: the note reaches the cash box during the power-up and
// is credited once, from the journal.
func TestAcceptorPowerCycleMidStack(t *testing.T) {
	r := newRig(t)
	r.acc.InsertNote(1000)
	r.eventually(t, "stacking", func() bool { st, _ := r.acc.Status(); return st == 0x14 })
	r.acc.PowerCycle()
	r.eventually(t, "credited after power-up", func() bool { return r.balance(t) == 1000 })
	r.noPending(t)
	r.eventually(t, "acceptor enabled again", func() bool { st, _ := r.acc.Status(); return st == 0x11 })
	r.acc.InsertNote(100)
	r.eventually(t, "next note", func() bool { return r.balance(t) == 1100 })
	// The balance can come back before the driver's ACK of VEND VALID reaches the emulator,
	// which counts the note in its box at that ACK: wait for the box, never read it at once.
	r.eventually(t, "the cash box at 1100, as credited", func() bool { return r.acc.CashboxCents() == 1100 })
}

// The terminal dies while the server holds a ticket for it (redemption asked, no credit point):
// on restart the hold is cancelled, and the ticket buys in later exactly once.
func TestCrashDuringRedemption(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	r.acc.InsertNote(1000)
	r.eventually(t, "note credited", func() bool { return r.balance(t) == 1000 })
	if err := r.c.CashOut(ctx); err != nil {
		t.Fatal(err)
	}
	validation := r.prn.Printed()[0].Fields[6]
	r.stop()
	// What the cashier had done when the power went: journalled the escrow, asked the server
	// to hold the ticket.
	key := "ticket:" + validation + ":0123456789abcdef"
	r.offline(t, func(j *journal.Journal) {
		if _, err := j.Append(ctx, journal.Record{Kind: "ticket-escrow", Key: key, Flow: cashier.Redeeming}); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := r.cli.RedeemTicket(ctx, key+"/redeem", validation); err != nil {
		t.Fatal(err)
	}
	r.start(t)
	r.noPending(t)
	if b := r.balance(t); b != 0 {
		t.Fatalf("balance %d after recovery, want 0 (nothing credited)", b)
	}
	if err := r.acc.InsertTicket(validation); err != nil {
		t.Fatal(err)
	}
	r.eventually(t, "ticket credited after the hold was cancelled", func() bool { return r.balance(t) == 1000 })
	r.noPending(t)
}

// Attack 3 (issue 13), the terminal's side: a ticket given back to the player whose release
// (CancelRedeem) the table never heard, because it was unreachable. Before, the cashier logged
// the failure and marked the flow reversed, and the table kept the hold. Now the flow stays
// open (Cancelling) and the release is asked for until the table answers; only then is the
// flow closed, and the ticket buys in again exactly once.
func TestCancelRedeemIsRetriedUntilTheTableAnswers(t *testing.T) {
	r := newRigOn(t, true, clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
	ctx := context.Background()
	r.acc.InsertNote(1000)
	r.eventually(t, "note credited", func() bool { return r.balance(t) == 1000 })
	if err := r.c.CashOut(ctx); err != nil {
		t.Fatal(err)
	}
	validation := r.prn.Printed()[0].Fields[6]
	r.stop()
	key := "ticket:" + validation + ":0123456789abcdef"
	r.offline(t, func(j *journal.Journal) {
		if _, err := j.Append(ctx, journal.Record{Kind: "ticket-escrow", Key: key, Flow: cashier.Redeeming}); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := r.cli.RedeemTicket(ctx, key+"/redeem", validation); err != nil {
		t.Fatal(err)
	}
	// The table is unreachable while the restarted terminal gives the ticket back.
	r.link.Cut()
	r.start(t)
	f, ok, err := r.j.FlowOf(ctx, key)
	if err != nil || !ok || f.State != cashier.Cancelling {
		t.Fatalf("flow %+v %v %v: want it open as %s while the table is unreachable", f, ok, err, cashier.Cancelling)
	}
	held := func() bool {
		st, err := r.demo.Table.Status()
		return err == nil && len(st.TicketHolds) == 1
	}
	if !held() {
		t.Fatal("the table should still hold the ticket")
	}
	// Several background attempts fail meanwhile, each followed by a wait on the clock.
	for range 3 {
		r.waiting(t, "a release attempt failed")
		r.clk.Advance(5 * time.Second) // the backoff's ceiling: the next attempt is made
	}
	r.waiting(t, "a release attempt failed")
	if f, _, _ := r.j.FlowOf(ctx, key); f.State != cashier.Cancelling {
		t.Fatalf("flow closed as %s without the table's answer", f.State)
	}
	r.link.Restore()
	// The link takes a moment to come back: each failed attempt waits on the clock again.
	r.eventually(t, "the release answered", func() bool {
		if r.clk.Pending() == 1 {
			r.clk.Advance(5 * time.Second)
		}
		f, _, _ := r.j.FlowOf(ctx, key)
		return f.State != cashier.Cancelling
	})
	r.noPending(t)
	if held() {
		t.Fatal("the flow closed but the table still holds the ticket")
	}
	if rs, _ := r.j.Last(ctx, "ticket-released", 5); len(rs) != 1 || rs[0].Key != key {
		t.Fatalf("release records %+v", rs)
	}
	if err := r.acc.InsertTicket(validation); err != nil {
		t.Fatal(err)
	}
	r.eventually(t, "ticket credited after the hold was released", func() bool { return r.balance(t) == 1000 })
	r.noPending(t)
}

var testLog = slog.New(slog.DiscardHandler)

// watch passes the acceptor's events to the cashier and tells the test when it is enabled.
type watch struct {
	*cashier.Cashier
	once    sync.Once
	enabled chan struct{}
}

func (w *watch) Event(ev noteacceptor.Event) {
	w.Cashier.Event(ev)
	if ev.Kind == noteacceptor.Enabled {
		w.once.Do(func() { close(w.enabled) })
	}
}

// The terminal died after journalling a credit point but before acknowledging the acceptor, so
// after the restart the acceptor reports the same VEND VALID again. It is that note, counted
// once: not an older escrow that never reached the stacker, and not an unrecorded note.
func TestRepeatedCreditPointAfterRestart(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	r.stop()
	older, newest := "note:63:0000000000000001", "note:65:0000000000000002"
	r.offline(t, func(j *journal.Journal) {
		j.Append(ctx, journal.Record{Kind: "note-escrow", Key: older, Amount: 500, Flow: cashier.Stacking})
		j.Append(ctx, journal.Record{Kind: "note-escrow", Key: newest, Amount: 2000, Flow: cashier.Stacking})
		j.Append(ctx, journal.Record{Kind: "credit-point", Key: newest, Flow: cashier.CreditDue})
	})
	r.reportEscrow(t, older, 500)
	r.reportEscrow(t, newest, 2000)
	r.start(t)
	r.eventually(t, "the owed credit", func() bool { return r.balance(t) == 2000 })
	if err := r.c.Credit(noteacceptor.Escrow{Recovered: true}); err != nil {
		t.Fatal(err)
	}
	r.c.Wait()
	if b := r.balance(t); b != 2000 {
		t.Fatalf("balance %d after the repeated VEND VALID, want 2000", b)
	}
	rs, err := r.j.Last(ctx, "credit-point-repeated", 5)
	if err != nil || len(rs) != 1 || rs[0].Key != newest {
		t.Fatalf("repeat records %+v %v", rs, err)
	}
	if rs, _ := r.j.Last(ctx, "unrecorded-credit-point", 5); len(rs) != 0 {
		t.Fatalf("counted as an unrecorded note: %+v", rs)
	}
}

// A table given to a tournament is used only for it (003 §10.5.2) and tournament chips are
// not money (§10.1.1): a note is handed back and Cash-Out prints no ticket, and the player is
// told why in their own language (the reason is a message of its own, translated, not the
// table's English words). The money already on the account stays there, whole.
func TestTournamentTableReturnsNotesAndPrintsNoTicket(t *testing.T) {
	r := newRig(t)
	if err := r.acc.InsertNote(2000); err != nil {
		t.Fatal(err)
	}
	r.eventually(t, "note credited", func() bool { return r.balance(t) == 2000 })
	r.noPending(t)
	// The demo's auto-dealer off, its round in play finished: a tournament opens between rounds.
	tbl := r.demo.Table
	if _, err := tbl.OpenTable("supervisor:TD", false); err != nil {
		t.Fatal(err)
	}
	if st, err := tbl.Status(); err != nil {
		t.Fatal(err)
	} else if st.RoundId != "" {
		tbl.BallDropping("dealer:D", st.RoundId)
		tbl.EnterOutcome("dealer:D", st.RoundId, "17")
	}
	terms := table.TournamentTerms{ID: "CUP", Terms: "T&C", StartingChips: 1000, Rounds: 1, Minimums: []int64{100}, Prizes: []int64{100}}
	if _, err := r.demo.Table.ConfigureTournament("supervisor:TD", terms); err != nil {
		t.Fatal(err)
	}
	if _, err := r.demo.Table.OpenTournament("supervisor:TD", []string{"T01"}); err != nil {
		t.Fatal(err)
	}
	translated := func() string { return r.c.Status().Message.Format(strings.ToUpper, nil) }

	returned := len(r.acc.Returned())
	if err := r.acc.InsertNote(5000); err != nil {
		t.Fatal(err)
	}
	r.eventually(t, "note handed back", func() bool { return len(r.acc.Returned()) == returned+1 })
	if m := translated(); !strings.Contains(m, "NOTE RETURNED") || !strings.Contains(m, "RESERVED FOR THE TOURNAMENT") {
		t.Fatalf("told %q", m)
	}
	r.noPending(t)

	if err := r.c.CashOut(context.Background()); err == nil {
		t.Fatal("a ticket cash-out at a tournament table")
	}
	if m := translated(); !strings.Contains(m, "CASH-OUT REFUSED") || !strings.Contains(m, "RESERVED FOR THE TOURNAMENT") {
		t.Fatalf("told %q", m)
	}
	if p := r.prn.Printed(); len(p) != 0 || r.balance(t) != 2000 {
		t.Fatalf("printed %v, balance %d", p, r.balance(t))
	}
	r.noPending(t)
}

// Issue 34, attack 4, the terminal's side: a ticket the table will not hold because the
// balance and the ticket would pass the table's maximum goes back to the player, who is told
// why in words the screen translates; nothing is credited and no flow is left open.
func TestATicketAboveTheMaximumBalanceIsReturnedAndThePlayerToldWhy(t *testing.T) {
	r := newRigConfig(t, false, func(c *server.Config) { c.MaxBalance = 10000 })
	validation := r.cashedOut(t, 5000)
	r.acc.InsertNote(5000)
	r.eventually(t, "note credited", func() bool { return r.balance(t) == 5000 })
	r.acc.InsertNote(2000)
	r.eventually(t, "note credited", func() bool { return r.balance(t) == 7000 })
	r.ticketHandedBack(t, validation, "Ticket returned: it would take your balance above the table's maximum")
	if b := r.balance(t); b != 7000 {
		t.Fatalf("balance %d, want 70.00: the ticket was not credited", b)
	}
}

// Issue 34, attack 5, the terminal's side: every call that names a ticket counts toward the
// table's guessing throttle, CancelRedeem too. A ticket the table refused was never held, so
// the cashier asks no release for it: an honest player whose ticket is refused again and again
// (here one already redeemed, five times) does not get the terminal locked out as a guesser.
func TestRefusedTicketsDoNotLockTheTerminalOutAsAGuesser(t *testing.T) {
	r := newRig(t)
	spent := r.cashedOut(t, 1000)
	if err := r.acc.InsertTicket(spent); err != nil {
		t.Fatal(err)
	}
	r.eventually(t, "ticket credited", func() bool { return r.balance(t) == 1000 })
	r.noPending(t)
	for i := range 5 {
		returned := len(r.acc.Returned())
		if err := r.acc.InsertTicket(spent); err != nil {
			t.Fatal(err)
		}
		r.eventually(t, "the redeemed ticket handed back", func() bool { return len(r.acc.Returned()) == returned+1 })
		r.noPending(t)
		if m := r.c.Status().Message.String(); !strings.Contains(m, "already been redeemed") {
			t.Fatalf("refusal %d: the player is told %q", i+1, m)
		}
	}
	fresh := r.cashedOut(t, 0)
	if err := r.acc.InsertTicket(fresh); err != nil {
		t.Fatal(err)
	}
	r.eventually(t, "a good ticket credited after five refusals", func() bool { return r.balance(t) == 1000 })
	r.noPending(t)
}

// cashedOut puts a note of cents in (none when 0), cashes the balance out and returns the
// printed ticket's validation number.
func (r *rig) cashedOut(t *testing.T, cents int64) string {
	t.Helper()
	if cents > 0 {
		before := r.balance(t)
		if err := r.acc.InsertNote(cents); err != nil {
			t.Fatal(err)
		}
		r.eventually(t, "note credited", func() bool { return r.balance(t) == before+cents })
	}
	if err := r.c.CashOut(context.Background()); err != nil {
		t.Fatal(err)
	}
	printed := r.prn.Printed()
	return printed[len(printed)-1].Fields[6]
}

// Issue 33 point 1, the terminal's side: a ticket on the floor's stop list (a supervisor
// stopped it) is handed back and the player is told, in words they read, to see a casino
// supervisor; nothing is credited.
func TestAStoppedTicketIsReturnedAndThePlayerToldToSeeASupervisor(t *testing.T) {
	r := newRig(t)
	validation := r.cashedOut(t, 5000)
	if _, err := r.demo.Table.StopTicket("supervisor:S1", &pb.StopTicketRequest{ValidationNumber: validation, Reason: "reported stolen", IdempotencyKey: "s"}); err != nil {
		t.Fatal(err)
	}
	r.ticketHandedBack(t, validation, "Ticket returned: it is held — please see a casino supervisor")
	if b := r.balance(t); b != 0 {
		t.Fatalf("balance %d: a stopped ticket was credited", b)
	}
}

// After a technician's accept test ends, a note still on its way is returned, not credited,
// for AcceptTestGrace on the cashier's clock — a nanosecond short of it too — and from then
// on notes are credited again.
func TestAcceptTestGraceRunsOnTheCashierClock(t *testing.T) {
	r := newRigOn(t, false, clocktest.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
	end, err := r.c.StartAcceptTest(func(noteacceptor.Escrow) {})
	if err != nil {
		t.Fatal(err)
	}
	end()
	r.acc.InsertNote(500)
	r.eventually(t, "the note returned in the grace", func() bool { return len(r.acc.Returned()) == 1 })
	r.clk.Advance(cashier.AcceptTestGrace - time.Nanosecond)
	r.acc.InsertNote(500)
	r.eventually(t, "the note returned a nanosecond before the grace ends", func() bool { return len(r.acc.Returned()) == 2 })
	if b := r.balance(t); b != 0 {
		t.Fatalf("balance %d in the grace, want 0", b)
	}
	r.clk.Advance(time.Nanosecond)
	r.acc.InsertNote(500)
	r.eventually(t, "the note credited after the grace", func() bool { return r.balance(t) == 500 })
	if n := len(r.acc.Returned()); n != 2 {
		t.Fatalf("%d notes returned, want the 2 of the grace", n)
	}
}

// ticketHandedBack inserts ticket validation with nothing pending, and checks it comes back out
// of the acceptor with the player told want.
func (r *rig) ticketHandedBack(t *testing.T, validation, want string) {
	t.Helper()
	r.noPending(t)
	returned := len(r.acc.Returned())
	if err := r.acc.InsertTicket(validation); err != nil {
		t.Fatal(err)
	}
	r.eventually(t, "the ticket handed back", func() bool { return len(r.acc.Returned()) == returned+1 })
	r.noPending(t)
	if m := r.c.Status().Message; m.Key != want {
		t.Fatalf("the player is told %q, want %q", m, want)
	}
}
