package server

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/internal/pgtest"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// fakeClock is the table's clock in tests: time moves only when the test says so.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// rig is a table served over real TCP loopback with real mutual TLS and a real SQLite file.
type rig struct {
	t        testing.TB
	clock    *fakeClock
	pki      *pki.Memory
	dbPath   string // the SQLite ledger, or the PostgreSQL database (postgres://…)
	keyPath  string // the ledger key: "" beside the SQLite file
	led      *ledger.Ledger
	table    *Table
	addr     string
	stop     func()
	dealer   pb.DealerServiceClient
	super    pb.DealerServiceClient // the pit boss: corrections, invalidations, handpays, jackpots
	conns    []*grpc.ClientConn
	config   func(*Config) // changes to the default table, if any
	grpcOpts []Option      // the server's options, if any
}

func newRig(t testing.TB) *rig { return newRigWith(t, nil) }

func newRigWith(t testing.TB, config func(*Config), opts ...Option) *rig {
	t.Helper()
	if os.Getenv("ATS_TEST_STORE") == "postgres" {
		// Every table test on PostgreSQL: ATS_TEST_STORE=postgres go test ./server
		return newPGRig(t, pgtest.DSN(t), filepath.Join(t.TempDir(), "floor.key"), config, opts...)
	}
	m, err := pki.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, clock: &fakeClock{t: time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)}, pki: m,
		dbPath: filepath.Join(t.TempDir(), "table.db"), config: config, grpcOpts: opts}
	r.start()
	t.Cleanup(r.shutdown)
	return r
}

func (r *rig) start() {
	r.t.Helper()
	cfg := DefaultConfig()
	cfg.Period = 20 * time.Second
	if r.config != nil {
		r.config(&cfg)
	}
	led, err := ledger.OpenStore(context.Background(), ledger.StoreConfig{DSN: r.dbPath, TableID: cfg.TableID, KeyPath: r.keyPath})
	if err != nil {
		r.t.Fatal(err)
	}
	var log *slog.Logger // the default logger in tests; benchmarks print only their numbers
	if _, ok := r.t.(*testing.B); ok {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	table, err := NewTable(context.Background(), cfg, led, r.clock.Now, log)
	if err != nil {
		r.t.Fatal(err)
	}
	tlsCfg, err := r.pki.ServerTLS()
	if err != nil {
		r.t.Fatal(err)
	}
	addr := "127.0.0.1:0"
	if r.addr != "" {
		addr = r.addr // a restart comes back on the same address
	}
	a, stop, err := Listen(table, tlsCfg, addr, r.grpcOpts...)
	if err != nil {
		r.t.Fatal(err)
	}
	r.led, r.table, r.addr, r.stop = led, table, a, stop
	r.dealer = pb.NewDealerServiceClient(r.dial(pki.RoleDealer, "D1"))
	r.super = pb.NewDealerServiceClient(r.dial(pki.RoleSupervisor, "S1"))
}

func (r *rig) shutdown() {
	for _, c := range r.conns {
		c.Close()
	}
	r.conns = nil
	if r.stop != nil {
		r.stop()
		r.stop = nil
	}
	if r.led != nil {
		r.led.Close()
		r.led = nil
	}
}

func (r *rig) dialTLS(cfg *tls.Config) *grpc.ClientConn {
	r.t.Helper()
	c, err := grpc.NewClient(r.addr, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
	if err != nil {
		r.t.Fatal(err)
	}
	r.conns = append(r.conns, c)
	return c
}

func (r *rig) dial(role, id string) *grpc.ClientConn {
	r.t.Helper()
	cfg, err := r.pki.ClientTLS(role, id)
	if err != nil {
		r.t.Fatal(err)
	}
	return r.dialTLS(cfg)
}

func (r *rig) terminal(id string) pb.TerminalServiceClient {
	return pb.NewTerminalServiceClient(r.dial(pki.RoleTerminal, id))
}

func (r *rig) conserved() {
	r.t.Helper()
	c, err := r.table.Conservation()
	if err != nil {
		r.t.Fatal(err)
	}
	if !c.Holds() {
		r.t.Fatalf("conservation broken: %v", c)
	}
}

// watcher collects a terminal's Watch events.
type watcher struct {
	cancel context.CancelFunc
	events chan *pb.TableEvent
}

func (r *rig) watch(c pb.TerminalServiceClient) *watcher {
	r.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := c.Watch(ctx, &pb.WatchRequest{})
	if err != nil {
		r.t.Fatal(err)
	}
	w := &watcher{cancel: cancel, events: make(chan *pb.TableEvent, 1024)}
	go func() {
		for {
			ev, err := stream.Recv()
			if err != nil {
				close(w.events)
				return
			}
			w.events <- ev
		}
	}()
	first := w.next(r.t)
	if first.GetSnapshot() == nil {
		r.t.Fatalf("first event is not a snapshot: %v", first)
	}
	return w
}

func (w *watcher) next(t testing.TB) *pb.TableEvent {
	t.Helper()
	select {
	case ev, ok := <-w.events:
		if !ok {
			t.Fatal("watch stream ended")
		}
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5 s")
	}
	return nil
}

// until returns the first event matching pred.
func (w *watcher) until(t testing.TB, pred func(*pb.TableEvent) bool) *pb.TableEvent {
	t.Helper()
	for {
		if ev := w.next(t); pred(ev) {
			return ev
		}
	}
}

func isSettled(ev *pb.TableEvent) bool { return ev.GetSettled() != nil }

// waitConnected waits until the server has registered the terminal's stream (or dropped it).
func (r *rig) waitConnected(id string, want bool) {
	r.t.Helper()
	for i := 0; i < 500; i++ {
		if r.table.Connected(id) == want {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.t.Fatalf("terminal %s connected=%v never happened", id, !want)
}

func code(err error) codes.Code { return status.Code(err) }

func straight(n string, amount int64) *pb.Wager {
	return &pb.Wager{Kind: pb.BetKind_BET_KIND_STRAIGHT, Numbers: []string{n}, Amount: amount}
}

var ctx = context.Background()

func TestAuthentication(t *testing.T) {
	r := newRig(t)
	// No client certificate: the handshake fails and the caller gets nothing.
	noCert, err := pki.ClientTLS(r.pki.CA.PEM, pki.Issued{}, "localhost")
	if err == nil {
		t.Fatalf("client TLS without a certificate built: %v", noCert)
	}
	bare := &tls.Config{RootCAs: mustPool(t, r.pki.CA.PEM), ServerName: "localhost", MinVersion: tls.VersionTLS13}
	anon := pb.NewDealerServiceClient(r.dialTLS(bare))
	if _, err := anon.GetStatus(ctx, &pb.GetStatusRequest{}); err == nil {
		t.Fatal("a caller without a certificate got the table status")
	}
	// A certificate from another CA.
	other, err := pki.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	foreignCfg, err := other.ClientTLS(pki.RoleDealer, "D9")
	if err != nil {
		t.Fatal(err)
	}
	foreignCfg.RootCAs = mustPool(t, r.pki.CA.PEM)
	if _, err := pb.NewDealerServiceClient(r.dialTLS(foreignCfg)).GetStatus(ctx, &pb.GetStatusRequest{}); err == nil {
		t.Fatal("a certificate of another CA was accepted")
	}
	// A terminal may not call the dealer's console, nor a dealer a terminal's money calls.
	asTerminal := pb.NewDealerServiceClient(r.dial(pki.RoleTerminal, "T1"))
	if _, err := asTerminal.OpenTable(ctx, &pb.OpenTableRequest{}); code(err) != codes.PermissionDenied {
		t.Fatalf("terminal opened the table: %v", err)
	}
	asDealer := pb.NewTerminalServiceClient(r.dial(pki.RoleDealer, "D1"))
	if _, err := asDealer.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: "k", Amount: 100, NoteCode: "61"}); code(err) != codes.PermissionDenied {
		t.Fatalf("dealer credited a note as a terminal: %v", err)
	}
	if _, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{}); err != nil {
		t.Fatalf("the dealer cannot see the table: %v", err)
	}
}

func mustPool(t *testing.T, caPEM []byte) *x509.CertPool {
	t.Helper()
	p := x509.NewCertPool()
	if !p.AppendCertsFromPEM(caPEM) {
		t.Fatal("bad CA")
	}
	return p
}

// A full round with three terminals, settled exactly, then corrected once, then invalidated.
func TestFullRoundCorrectionAndInvalidation(t *testing.T) {
	r := newRig(t)
	t1, t2, t3 := r.terminal("T1"), r.terminal("T2"), r.terminal("T3")
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		term   pb.TerminalServiceClient
		amount int64
	}{{t1, 10000}, {t2, 5000}} {
		res, err := creditNote(ctx, c.term, &pb.CreditNoteRequest{IdempotencyKey: "note-1", Amount: c.amount, NoteCode: map[int64]string{10000: "AUD100", 5000: "AUD50"}[c.amount]})
		if err != nil || res.Balance != c.amount || res.Replayed {
			t.Fatalf("credit: %v %v", res, err)
		}
		// The same key again moves nothing: the reply is the stored one.
		res, err = creditNote(ctx, c.term, &pb.CreditNoteRequest{IdempotencyKey: "note-1", Amount: c.amount, NoteCode: map[int64]string{10000: "AUD100", 5000: "AUD50"}[c.amount]})
		if err != nil || res.Balance != c.amount || !res.Replayed {
			t.Fatalf("replayed credit: %v %v", res, err)
		}
	}
	if _, err := creditNote(ctx, t1, &pb.CreditNoteRequest{IdempotencyKey: "note-1", Amount: 999}); code(err) != codes.AlreadyExists {
		t.Fatalf("a key reused for another amount: %v", err)
	}
	r.conserved()
	w1, w2, w3 := r.watch(t1), r.watch(t2), r.watch(t3)
	defer w1.cancel()
	defer w2.cancel()
	defer w3.cancel()

	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	round := st.RoundId
	ph := w1.until(t, func(ev *pb.TableEvent) bool { return ev.GetPhase() != nil }).GetPhase()
	if ph.Phase != pb.Phase_PHASE_WAGERING || ph.RoundId != round || ph.DeadlineUnixNanos != r.clock.Now().Add(20*time.Second).UnixNano() {
		t.Fatalf("phase event: %v", ph)
	}
	// T1: straight 17 (500) and red 1000; the straight limit is 2500, so 3000 is clamped.
	res, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: []*pb.Wager{
		straight("17", 3000), {Kind: pb.BetKind_BET_KIND_RED, Amount: 1000}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Slip.Results[0].Accepted != 2500 || res.Slip.Results[0].Reason != "above-maximum" || res.Balance != 10000-3500 {
		t.Fatalf("slip ack: %v", res)
	}
	res, err = t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 2, Wagers: []*pb.Wager{
		straight("17", 500), {Kind: pb.BetKind_BET_KIND_RED, Amount: 1000}}})
	if err != nil || res.Slip.Total != 1500 || res.Balance != 8500 {
		t.Fatalf("second version: %v %v", res, err)
	}
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 2, Wagers: nil}); code(err) != codes.FailedPrecondition {
		t.Fatalf("an old version replaced the slip: %v", err)
	}
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 3, Wagers: []*pb.Wager{
		{Kind: pb.BetKind_BET_KIND_SPLIT, Numbers: []string{"1", "5"}, Amount: 100}}}); code(err) != codes.InvalidArgument {
		t.Fatalf("a wager on a spot that does not exist: %v", err)
	}
	if _, err := t2.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: []*pb.Wager{
		{Kind: pb.BetKind_BET_KIND_SPLIT, Numbers: []string{"17", "20"}, Amount: 300},
		{Kind: pb.BetKind_BET_KIND_TIER, Amount: 100}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := t3.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: []*pb.Wager{straight("1", 100)}}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a terminal with no account placed a wager: %v", err)
	}

	// The deadline passes: the server's clock decides; a late update is refused.
	r.clock.Add(20 * time.Second)
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 3, Wagers: nil}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a slip update at the deadline was accepted: %v", err)
	}
	r.table.Advance(r.clock.Now())
	w2.until(t, func(ev *pb.TableEvent) bool { return ev.GetPhase().GetPhase() == pb.Phase_PHASE_NO_MORE_BETS })

	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: "17"}); err != nil {
		t.Fatal(err)
	}
	// 17 is black: T1 wins 500×36 = 18000 and loses the 1000 on red.
	s1 := w1.until(t, isSettled).GetSettled()
	if s1.Staked != 1500 || s1.Returned != 18000 || s1.Balance != 10000-1500+18000 || !s1.Recognised {
		t.Fatalf("T1 settled: %v", s1)
	}
	// T2: split 17/20 300×18 = 5400; tier 6 pieces of 100 lose.
	s2 := w2.until(t, isSettled).GetSettled()
	if s2.Staked != 900 || s2.Returned != 5400 || s2.Balance != 5000-900+5400 {
		t.Fatalf("T2 settled: %v", s2)
	}
	r.conserved()
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: "17"}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a second outcome for the round: %v", err)
	}

	// The dealer entered the wrong number: it was 20. Accounts freeze, the round re-settles once.
	if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: round, Number: "20"}); err != nil {
		t.Fatal(err)
	}
	if fr := w1.until(t, func(ev *pb.TableEvent) bool { return ev.GetFrozen() != nil }).GetFrozen(); !fr.Frozen {
		t.Fatalf("not frozen first: %v", fr)
	}
	c1 := w1.until(t, isSettled).GetSettled()
	if !c1.Correction || c1.Returned != 0 || c1.Balance != 10000-1500 {
		t.Fatalf("T1 corrected: %v", c1)
	}
	c2 := w2.until(t, isSettled).GetSettled()
	if c2.Balance != 5000-900+5400 {
		t.Fatalf("T2 corrected: %v", c2)
	}
	if fr := w1.until(t, func(ev *pb.TableEvent) bool { return ev.GetFrozen() != nil }).GetFrozen(); fr.Frozen {
		t.Fatalf("not unfrozen: %v", fr)
	}
	if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: round, Number: "20"}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a correction applied twice: %v", err)
	}
	r.conserved()

	// The pit boss invalidates the round: every wager refunded (001 §12.3–12.4).
	if _, err := r.super.InvalidateRound(ctx, &pb.InvalidateRoundRequest{RoundId: round, Reason: "ball left the wheel"}); err != nil {
		t.Fatal(err)
	}
	v1 := w1.until(t, func(ev *pb.TableEvent) bool { return ev.GetVoided() != nil }).GetVoided()
	v2 := w2.until(t, func(ev *pb.TableEvent) bool { return ev.GetVoided() != nil }).GetVoided()
	if v1.Balance != 10000 || v2.Balance != 5000 {
		t.Fatalf("after invalidation: T1 %v T2 %v", v1, v2)
	}
	r.conserved()
	st, err = r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil || st.HouseResult != 0 || st.Balances != 15000 || st.MoneyIn != 15000 {
		t.Fatalf("status after invalidation: %v %v", st, err)
	}
}

// Rule 9.7: a terminal lost before the deadline has its wagers voided; one lost after the
// deadline is settled from the records.
func TestDisconnectBeforeAndAfterTheDeadline(t *testing.T) {
	r := newRig(t)
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	for _, c := range []pb.TerminalServiceClient{t1, t2} {
		if _, err := creditNotes(ctx, c, "n", 10000); err != nil {
			t.Fatal(err)
		}
	}
	w1, w2 := r.watch(t1), r.watch(t2)
	r.waitConnected("T1", true)
	r.waitConnected("T2", true)
	st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	for _, c := range []pb.TerminalServiceClient{t1, t2} {
		if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{straight("5", 1000)}}); err != nil {
			t.Fatal(err)
		}
	}
	w1.cancel() // T1 is lost before the deadline
	r.waitConnected("T1", false)
	r.clock.Add(21 * time.Second)
	r.table.Advance(r.clock.Now())
	w2.cancel() // T2 is lost after it
	r.waitConnected("T2", false)
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "5"}); err != nil {
		t.Fatal(err)
	}
	status, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	bal := map[string]int64{}
	for _, ts := range status.Terminals {
		bal[ts.TerminalId] = ts.Balance
	}
	if bal["T1"] != 10000 || bal["T2"] != 10000-1000+36000 {
		t.Fatalf("balances %v: T1's wagers must be void, T2's settled", bal)
	}
	r.conserved()
}

// Tickets: cash-out issues one, it prints, another terminal redeems it once; a failed print is
// hand-paid and can then never be redeemed. Every money call is idempotent.
func TestTicketsAndIdempotentMoneyCalls(t *testing.T) {
	bothStores(t, testTicketsAndIdempotentMoneyCalls)
}

func testTicketsAndIdempotentMoneyCalls(t *testing.T, r *rig) {
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n1", 7500); err != nil {
		t.Fatal(err)
	}
	co, err := t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "co1"})
	if err != nil || co.Ticket.Amount != 7500 || len(co.Ticket.ValidationNumber) != 18 {
		t.Fatalf("cash-out: %v %v", co, err)
	}
	again, err := t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "co1"})
	if err != nil || again.Ticket.ValidationNumber != co.Ticket.ValidationNumber {
		t.Fatalf("a retried cash-out issued another ticket: %v %v", again, err)
	}
	if _, err := t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "co2"}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a second cash-out of an empty account: %v", err)
	}
	r.conserved()
	vn := co.Ticket.ValidationNumber
	// Not redeemable until the terminal confirms it printed: it may yet be reported unprintable.
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r0", ValidationNumber: vn}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a ticket not confirmed printed was redeemed: %v", err)
	}
	if _, err := t1.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: "p1", ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	if res, err := t1.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: "p1", ValidationNumber: vn}); err != nil || !res.Replayed {
		t.Fatalf("replayed printed: %v %v", res, err)
	}
	if _, err := r.super.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: "h0", ValidationNumber: vn}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a printed ticket was hand-paid too: %v", err)
	}
	// T2 redeems it: hold, then commit once stacked.
	rd, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r1", ValidationNumber: vn})
	if err != nil || rd.Amount != 7500 {
		t.Fatalf("redeem: %v %v", rd, err)
	}
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r9", ValidationNumber: vn}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a ticket held by T2 was held by T1 too: %v", err)
	}
	cm, err := t2.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c1", ValidationNumber: vn})
	if err != nil || cm.Balance != 7500 {
		t.Fatalf("commit: %v %v", cm, err)
	}
	if cm, err := t2.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c1", ValidationNumber: vn}); err != nil || !cm.Replayed || cm.Balance != 7500 {
		t.Fatalf("a retried commit: %v %v", cm, err)
	}
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r2", ValidationNumber: vn}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a ticket redeemed twice: %v", err)
	}
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r3", ValidationNumber: "123456789012345678"}); code(err) != codes.NotFound {
		t.Fatalf("an unknown ticket: %v", err)
	}
	r.conserved()

	// A ticket returned by the acceptor goes back to the player, redeemable later.
	co2, err := t2.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "co"})
	if err != nil {
		t.Fatal(err)
	}
	vn2 := co2.Ticket.ValidationNumber
	if _, err := t2.TicketPrintFailed(ctx, &pb.TicketPrintFailedRequest{IdempotencyKey: "f1", ValidationNumber: vn2, Fault: "paper out"}); err != nil {
		t.Fatal(err)
	}
	// A copy that came out of the printer anyway is void: the ticket is paid by hand.
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r5", ValidationNumber: vn2}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a ticket reported unprintable was redeemed before its handpay: %v", err)
	}
	hp, err := r.super.Handpay(ctx, &pb.HandpayRequest{IdempotencyKey: "h1", ValidationNumber: vn2})
	if err != nil || hp.Ticket.State != ledger.TicketHandpaid {
		t.Fatalf("handpay: %v %v", hp, err)
	}
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r4", ValidationNumber: vn2}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a hand-paid ticket was redeemed: %v", err)
	}
	if _, err := t2.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: "p2", ValidationNumber: vn2}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a hand-paid ticket was then printed: %v", err)
	}
	st, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if st.MoneyIn != 7500 || st.MoneyOut != 7500 || st.Balances != 0 || st.OpenTickets != 0 {
		t.Fatalf("after the handpay: %v", st)
	}
	r.conserved()

	// Dealer buy-in: nothing reaches the account until the player confirms (004 §6.3(c)).
	w1 := r.watch(t1)
	defer w1.cancel()
	cp, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "b1", TerminalId: "T1", Amount: 2000})
	if err != nil {
		t.Fatal(err)
	}
	offer := w1.until(t, func(ev *pb.TableEvent) bool { return ev.GetBuyIn() != nil }).GetBuyIn()
	if offer.BuyInId != cp.BuyInId || offer.Amount != 2000 {
		t.Fatalf("offer: %v", offer)
	}
	r.conserved()
	ok, err := t1.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: "y", BuyInId: cp.BuyInId, Accept: true})
	if err != nil || ok.Balance != 2000 {
		t.Fatalf("confirm: %v %v", ok, err)
	}
	if _, err := t1.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: "y2", BuyInId: cp.BuyInId, Accept: true}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a buy-in confirmed twice: %v", err)
	}
	cl, err := r.dealer.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{IdempotencyKey: "x", TerminalId: "T1", Reason: "directed-to-leave"})
	if err != nil || cl.Amount != 2000 {
		t.Fatalf("close: %v %v", cl, err)
	}
	r.conserved()
}

// The server restarts mid-round. Before the deadline that is a game-system malfunction: every
// wager is void (001 §9.8.1) and nothing is lost. After it, the acknowledged slips come back from
// SQLite and settle exactly once (§9.8.2).
func TestRestartMidRound(t *testing.T) { bothStores(t, testRestartMidRound) }

func testRestartMidRound(t *testing.T, r *rig) {
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n", 10000); err != nil {
		t.Fatal(err)
	}
	slip := []*pb.Wager{straight("0", 1000), {Kind: pb.BetKind_BET_KIND_VOISINS, Amount: 100}}

	// 1. Down during the wagering period.
	st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: slip}); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(5 * time.Second)
	r.shutdown()
	r.start()
	st, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil || st.Phase != pb.Phase_PHASE_RESULT || st.Terminals[0].SlipTotal != 0 || st.Balances != 10000 {
		t.Fatalf("after a restart in the wagering period: %v %v", st, err)
	}
	r.conserved()

	// 2. Down after the deadline, before the outcome.
	t1 = r.terminal("T1")
	w := r.watch(t1)
	r.waitConnected("T1", true)
	st, _ = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 4, Wagers: slip}); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	r.shutdown()
	w.cancel()
	r.clock.Add(30 * time.Second)
	r.start()
	t1 = r.terminal("T1")
	w = r.watch(t1)
	defer w.cancel()
	st, err = r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil || st.Phase != pb.Phase_PHASE_NO_MORE_BETS || st.Terminals[0].SlipTotal != 1900 {
		t.Fatalf("after a restart after the deadline: %v %v", st, err)
	}
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "0"}); err != nil {
		t.Fatal(err)
	}
	// Straight 0: 1000×36; voisins: street 0/2/3 has 2 units (200×12).
	s := w.until(t, isSettled).GetSettled()
	if s.Staked != 1900 || s.Returned != 36000+2400 || s.Balance != 10000-1900+38400 || s.SlipVersion != 4 {
		t.Fatalf("settled after restart: %v", s)
	}
	r.conserved()
	r.shutdown()
	r.start()
	st, _ = r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if st.Phase != pb.Phase_PHASE_RESULT || st.Balances != 10000-1900+38400 {
		t.Fatalf("after a second restart the round settled again or lost money: %v", st)
	}
	r.conserved()
}

// A ball-dropping signal ends the period at once (001 §5.1.3); the auto-dealer runs rounds on
// its own and the ledger stays conserved.
func TestBallDroppingAndAutoDealer(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	creditNotes(ctx, t1, "n", 100000)
	w := r.watch(t1)
	defer w.cancel()
	st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	r.clock.Add(3 * time.Second)
	if _, err := r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: st.RoundId}); err != nil {
		t.Fatal(err)
	}
	ph := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetPhase().GetPhase() == pb.Phase_PHASE_NO_MORE_BETS }).GetPhase()
	if !ph.BallDropping || ph.DeadlineUnixNanos != r.clock.Now().UnixNano() {
		t.Fatalf("ball dropping: %v", ph)
	}
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{straight("1", 100)}}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a bet after the ball dropped: %v", err)
	}
	r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "1"})

	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{AutoDealer: true}); err != nil {
		t.Fatal(err)
	}
	version := uint64(0)
	for range 20 {
		r.table.Advance(r.clock.Now())
		if s, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{}); s.Phase == pb.Phase_PHASE_WAGERING {
			version++
			t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: s.RoundId, Version: version, Wagers: []*pb.Wager{
				{Kind: pb.BetKind_BET_KIND_RED, Amount: 500}, straight("0", 100)}})
		}
		r.clock.Add(10 * time.Second)
		r.conserved()
	}
	st, _ = r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if len(st.History) < 4 {
		t.Fatalf("the auto-dealer dealt %d rounds in 200 s", len(st.History))
	}
}

// Every money call, sent twice with the same key (a retry after a lost reply), moves money once
// and answers the same.
func TestEveryMoneyCallIsIdempotent(t *testing.T) {
	r := newRig(t)
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	twice := func(name string, call func() (any, error)) any {
		t.Helper()
		first, err := call()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		before, _ := r.table.Conservation()
		second, err := call()
		if err != nil {
			t.Fatalf("%s retried: %v", name, err)
		}
		after, _ := r.table.Conservation()
		if before != after {
			t.Fatalf("%s retried moved money: %v → %v", name, before, after)
		}
		r.conserved()
		_ = second
		return first
	}
	twice("credit note", func() (any, error) {
		return creditNote(ctx, t1, &pb.CreditNoteRequest{IdempotencyKey: "a", Amount: 5000, NoteCode: "AUD50"})
	})
	co := twice("cash-out", func() (any, error) { return t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "b"}) }).(*pb.CashOutResponse)
	vn := co.Ticket.ValidationNumber
	twice("print failed", func() (any, error) {
		return t1.TicketPrintFailed(ctx, &pb.TicketPrintFailedRequest{IdempotencyKey: "c", ValidationNumber: vn, Fault: "jam"})
	})
	twice("printed (reprint)", func() (any, error) {
		return t1.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: "d", ValidationNumber: vn})
	})
	twice("redeem", func() (any, error) {
		return t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "e", ValidationNumber: vn})
	})
	twice("cancel redeem", func() (any, error) {
		return t2.CancelRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "f", ValidationNumber: vn})
	})
	twice("redeem again", func() (any, error) {
		return t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "g", ValidationNumber: vn})
	})
	twice("commit", func() (any, error) {
		return t2.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "h", ValidationNumber: vn})
	})
	cp := twice("dealer credit", func() (any, error) {
		return r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "i", TerminalId: "T2", Amount: 1000})
	}).(*pb.CreditPlayerResponse)
	twice("confirm buy-in", func() (any, error) {
		return t2.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: "j", BuyInId: cp.BuyInId, Accept: true})
	})
	twice("close account", func() (any, error) {
		return r.dealer.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{IdempotencyKey: "k", TerminalId: "T2"})
	})
	st, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if st.MoneyIn != 6000 || st.MoneyOut != 6000 || st.Balances != 0 {
		t.Fatalf("after every call twice: %v", st)
	}
}

// Slips from many terminals are written in shared commits; a ball-dropping close racing them
// must settle exactly what each terminal had acknowledged, and a restart must find the same.
func TestConcurrentSlipsRacingTheClose(t *testing.T) {
	// The terminals send slips flat out, over their call rate, to race the close: not cut off
	// for it (cutoff.go), which TestAbusiveTerminalIsCutOffAndOthersServed tests.
	r := newRigWith(t, nil, WithCutoff(0))
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	const n = 20
	terms := make([]pb.TerminalServiceClient, n)
	for i := range terms {
		id := fmt.Sprintf("T%02d", i)
		terms[i] = r.terminal(id)
		if err := r.buyIn(terms[i], id, "n", 1_000_000); err != nil {
			t.Fatal(err)
		}
		r.watch(terms[i])
		r.waitConnected(id, true)
	}
	st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	acked := make([]int64, n)
	var wg sync.WaitGroup
	for i, c := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := 1; v <= 400; v++ {
				res, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: uint64(v),
					Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_RED, Amount: int64(100 * v)}}})
				if code(err) == codes.FailedPrecondition {
					return // the period has ended
				}
				if code(err) == codes.ResourceExhausted {
					continue // over the terminal's call rate: this version was not taken, a later one is
				}
				if err != nil {
					t.Error(err)
					return
				}
				acked[i] = res.Slip.Total
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	if _, err := r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: st.RoundId}); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	check := func(when string) {
		t.Helper()
		st, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, ts := range st.Terminals {
			var i int
			fmt.Sscanf(ts.TerminalId, "T%02d", &i)
			if ts.SlipTotal != acked[i] {
				t.Errorf("%s: %s slip total %d, acknowledged %d", when, ts.TerminalId, ts.SlipTotal, acked[i])
			}
		}
	}
	check("after the close")
	r.shutdown()
	r.start()
	check("after a restart")
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "1"}); err != nil {
		t.Fatal(err)
	}
	var staked int64
	for _, a := range acked {
		if a >= DefaultConfig().Limits.AggregateMin { // smaller slips are not recognised (rule 4.3.3)
			staked += a
		}
	}
	st2, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if st2.Balances != n*1_000_000+staked { // 1 is red: every recognised slip wins even money
		t.Fatalf("balances %d after settling %d staked", st2.Balances, staked)
	}
	r.conserved()
}

// A round voided by the pit boss while waiting for the outcome (after a no-spin, say) is over:
// every watching terminal is told its phase moved on to the result, as after an outcome, so
// none keeps showing NO MORE BETS. A no-spin itself leaves the round waiting for a valid spin.
func TestInvalidateFromNoMoreBetsEndsTheRound(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T1")
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := creditNotes(ctx, t1, "n", 10000); err != nil {
		t.Fatal(err)
	}
	w1 := r.watch(t1)
	defer w1.cancel()
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	round := st.RoundId
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: []*pb.Wager{straight("5", 1000)}}); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	isPhase := func(ev *pb.TableEvent) bool { return ev.GetPhase() != nil }
	for ph := w1.until(t, isPhase).GetPhase(); ph.Phase != pb.Phase_PHASE_NO_MORE_BETS; ph = w1.until(t, isPhase).GetPhase() {
	}

	if _, err := r.dealer.NoSpin(ctx, &pb.RoundRequest{RoundId: round}); err != nil {
		t.Fatal(err)
	}
	if st, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{}); err != nil || st.Phase != pb.Phase_PHASE_NO_MORE_BETS {
		t.Fatalf("after a no-spin the round waits for a valid spin: %v %v", st.GetPhase(), err)
	}
	if _, err := r.super.InvalidateRound(ctx, &pb.InvalidateRoundRequest{RoundId: round, Reason: "no valid spin"}); err != nil {
		t.Fatal(err)
	}
	v := w1.until(t, func(ev *pb.TableEvent) bool { return ev.GetVoided() != nil }).GetVoided()
	if v.RoundId != round || v.Balance != 10000 {
		t.Fatalf("voided: %v", v)
	}
	// The next phase event (none came for the no-spin) says the round is over.
	ph := w1.until(t, isPhase).GetPhase()
	if ph.Phase != pb.Phase_PHASE_RESULT || ph.RoundId != round {
		t.Fatalf("phase after the invalidation: %v", ph)
	}
	st, err = r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil || st.Phase != pb.Phase_PHASE_RESULT || st.Balances != 10000 || st.HouseResult != 0 {
		t.Fatalf("status after the invalidation: %v %v", st, err)
	}
	r.conserved()
	// The table goes on: the next round opens.
	if _, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{}); err != nil {
		t.Fatal(err)
	}
	if ph := w1.until(t, isPhase).GetPhase(); ph.Phase != pb.Phase_PHASE_WAGERING || ph.RoundId == round {
		t.Fatalf("next round: %v", ph)
	}
}

// snapshotOf is the snapshot a terminal's Watch starts with.
func (r *rig) snapshotOf(id string) *pb.Snapshot {
	r.t.Helper()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := r.terminal(id).Watch(wctx, &pb.WatchRequest{})
	if err != nil {
		r.t.Fatal(err)
	}
	ev, err := stream.Recv()
	if err != nil || ev.GetSnapshot() == nil {
		r.t.Fatalf("watch: %v %v", ev, err)
	}
	return ev.GetSnapshot()
}

// An account closed at the dealer's console is in its terminal's snapshot from then on — with
// an id that does not change, across a server restart — so a terminal that was down when it
// was closed learns of it; the live event carries the same id. The console retrying the close
// adds none.
func TestDealerClosesInTheSnapshot(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n1", 4000); err != nil {
		t.Fatal(err)
	}
	w := r.watch(t1)
	defer w.cancel()
	for range 2 { // the console retries: one close
		if res, err := r.dealer.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{IdempotencyKey: "c1", TerminalId: "T1"}); err != nil || res.Amount != 4000 {
			t.Fatalf("close: %v %v", res, err)
		}
	}
	live := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetAccountClosed() != nil }).GetAccountClosed()
	if live.CloseId == "" || live.Amount != 4000 || live.Ticket != nil || live.AtUnixNanos != r.clock.Now().UnixNano() {
		t.Fatalf("live close: %v", live)
	}
	if s := r.snapshotOf("T1"); len(s.DealerCloses) != 1 || s.DealerCloses[0].CloseId != live.CloseId || s.DealerCloses[0].Amount != 4000 {
		t.Fatalf("snapshot's dealer closes: %v", s.DealerCloses)
	}
	if s := r.snapshotOf("T2"); len(s.DealerCloses) != 0 {
		t.Fatalf("another terminal's snapshot lists T1's close: %v", s.DealerCloses)
	}
	if _, err := creditNotes(ctx, t1, "n2", 1500); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(time.Minute)
	if _, err := r.dealer.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{IdempotencyKey: "c2", TerminalId: "T1", Reason: "directed-to-leave"}); err != nil {
		t.Fatal(err)
	}
	w.cancel()
	r.shutdown()
	r.start()
	s := r.snapshotOf("T1")
	if len(s.DealerCloses) != 2 || s.DealerCloses[0].Amount != 1500 || s.DealerCloses[0].Reason != "directed-to-leave" ||
		s.DealerCloses[1].CloseId != live.CloseId || s.DealerCloses[1].Amount != 4000 {
		t.Fatalf("dealer closes after a restart, newest first: %v", s.DealerCloses)
	}
	r.conserved()
}

// A close the terminal acknowledges (it has recorded it) leaves its snapshots, and stays gone
// after a server restart: a terminal starting on a new journal is not told of closes an earlier
// journal recorded. Unacknowledged ones are still told. Acknowledging twice is harmless; a
// close of another terminal, or none, is refused.
func TestAcknowledgedDealerClosesLeaveTheSnapshot(t *testing.T) {
	r := newRig(t)
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	var ids []string
	for i, amount := range []int64{4000, 1500} {
		if _, err := creditNotes(ctx, t1, fmt.Sprint("n", i), amount); err != nil {
			t.Fatal(err)
		}
		r.clock.Add(time.Minute)
		if _, err := r.dealer.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{IdempotencyKey: fmt.Sprint("c", i), TerminalId: "T1"}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.snapshotOf("T1").DealerCloses[0].CloseId)
	}
	for range 2 {
		if _, err := t1.AckDealerClose(ctx, &pb.AckDealerCloseRequest{CloseId: ids[0]}); err != nil {
			t.Fatalf("ack: %v", err)
		}
	}
	for _, tc := range []struct {
		who  pb.TerminalServiceClient
		id   string
		code codes.Code
	}{
		{t2, ids[1], codes.NotFound},
		{t1, "C-none", codes.NotFound},
		{t1, "", codes.InvalidArgument},
	} {
		if _, err := tc.who.AckDealerClose(ctx, &pb.AckDealerCloseRequest{CloseId: tc.id}); status.Code(err) != tc.code {
			t.Fatalf("ack %q: %v, want %v", tc.id, err, tc.code)
		}
	}
	check := func(when string) {
		t.Helper()
		if s := r.snapshotOf("T1"); len(s.DealerCloses) != 1 || s.DealerCloses[0].CloseId != ids[1] || s.DealerCloses[0].Amount != 1500 {
			t.Fatalf("%s: snapshot's dealer closes %v, want only %s", when, s.DealerCloses, ids[1])
		}
	}
	check("acknowledged")
	r.shutdown()
	r.start()
	check("after a restart")
	if _, err := r.terminal("T1").AckDealerClose(ctx, &pb.AckDealerCloseRequest{CloseId: ids[1]}); err != nil {
		t.Fatal(err)
	}
	if s := r.snapshotOf("T1"); len(s.DealerCloses) != 0 {
		t.Fatalf("all acknowledged, snapshot still tells %v", s.DealerCloses)
	}
	r.conserved()
}

// creditNote reports a note in escrow, as a terminal does before it has the note stacked, then
// asks for its credit. The report's own refusals are left for CreditNote to give.
func creditNote(ctx context.Context, c pb.TerminalServiceClient, req *pb.CreditNoteRequest) (*pb.MoneyResponse, error) {
	c.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: req.IdempotencyKey, Amount: req.Amount, NoteCode: req.NoteCode})
	return c.CreditNote(ctx, req)
}
