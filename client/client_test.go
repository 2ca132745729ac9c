package client

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// realTable is a real table server on TCP loopback with mutual TLS and a SQLite ledger.
type realTable struct {
	t      *testing.T
	pki    *pki.Memory
	db     string
	addr   string
	led    *ledger.Ledger
	tb     *server.Table
	stop   func()
	cancel context.CancelFunc
}

func startTable(t *testing.T, period time.Duration) *realTable {
	m, err := pki.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	tt := &realTable{t: t, pki: m, db: filepath.Join(t.TempDir(), "table.db"), addr: "127.0.0.1:0"}
	tt.start(period)
	t.Cleanup(tt.shutdown)
	return tt
}

func (tt *realTable) start(period time.Duration) {
	led, err := ledger.Open(tt.db)
	if err != nil {
		tt.t.Fatal(err)
	}
	cfg := server.DefaultConfig()
	cfg.Period = period
	tb, err := server.NewTable(context.Background(), cfg, led, time.Now, nil)
	if err != nil {
		tt.t.Fatal(err)
	}
	tlsCfg, err := tt.pki.ServerTLS()
	if err != nil {
		tt.t.Fatal(err)
	}
	addr, stop, err := server.Listen(tb, tlsCfg, tt.addr)
	if err != nil {
		tt.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go tb.Run(ctx)
	tt.addr, tt.led, tt.tb, tt.stop, tt.cancel = addr, led, tb, stop, cancel
}

func (tt *realTable) shutdown() {
	if tt.stop == nil {
		return
	}
	tt.cancel()
	tt.stop()
	tt.led.Close()
	tt.stop = nil
}

func (tt *realTable) dial(id string) *Client {
	tt.t.Helper()
	cfg, err := tt.pki.ClientTLS(pki.RoleTerminal, id)
	if err != nil {
		tt.t.Fatal(err)
	}
	c, err := Dial(Config{Addr: tt.addr, TLS: cfg, BaseBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond})
	if err != nil {
		tt.t.Fatal(err)
	}
	tt.t.Cleanup(func() { c.Close() })
	return c
}

// next waits for the first event of type E.
func next[E table.Event](t *testing.T, c *Client) E {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case ev, ok := <-c.Events():
			if !ok {
				t.Fatal("events closed")
			}
			if e, ok := ev.(E); ok {
				return e
			}
		case <-deadline:
			var zero E
			t.Fatalf("no %T within 5 s", zero)
		}
	}
}

func TestRoundThroughTheClient(t *testing.T) {
	tt := startTable(t, 600*time.Millisecond)
	if _, err := tt.tb.OpenTable("dealer:test", false); err != nil {
		t.Fatal(err)
	}
	clients := []*Client{tt.dial("T1"), tt.dial("T2"), tt.dial("T3")}
	for i, c := range clients {
		snap := next[table.Snapshot](t, c)
		if snap.Config.Layout.Wheel != roulette.SingleZero || snap.Phase != table.PhaseIdle || snap.Limits.AggregateMin != 500 {
			t.Fatalf("snapshot %d: %+v", i, snap)
		}
		if err := c.ReportNoteEscrow(context.Background(), "note-1", 10000, "AUD100"); err != nil {
			t.Fatal(err)
		}
		m, err := c.CreditNote(context.Background(), "note-1", 10000, "AUD100")
		if err != nil || m.Balance != 10000 {
			t.Fatalf("credit: %+v %v", m, err)
		}
		if off, ok := c.ClockError(); !ok || off > 50*time.Millisecond {
			t.Fatalf("clock bound %v %v", off, ok)
		}
	}
	st, err := tt.tb.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	layout := roulette.Layout{Wheel: roulette.SingleZero}
	s17, _ := layout.Inside(roulette.Straight, []roulette.Number{17})
	red, _ := layout.Outside(roulette.Red, 0)
	for i, c := range clients {
		ph := next[table.PhaseChanged](t, c)
		if ph.Phase != table.PhaseWagering || ph.RoundID != st.RoundId {
			t.Fatalf("phase: %+v", ph)
		}
		// The lock comes before the server's deadline, and not long before it.
		lock := c.LockAt(ph.Deadline)
		serverAtLock := lock.Add(time.Until(c.ServerNow()))
		if serverAtLock.After(ph.Deadline) || ph.Deadline.Sub(serverAtLock) > 50*time.Millisecond {
			t.Fatalf("lock %v before the deadline", ph.Deadline.Sub(serverAtLock))
		}
		bets := []table.SlipBet{{Bet: roulette.Bet{Spot: s17}, Amount: int64(100 * (i + 1))}, {Bet: roulette.Bet{Call: roulette.Voisins}, Amount: 100}, {Bet: roulette.Bet{Spot: red}, Amount: 500}}
		ack, err := c.UpdateSlip(context.Background(), ph.RoundID, 1, bets)
		if err != nil {
			t.Fatal(err)
		}
		want := int64(100*(i+1)) + 900 + 500
		if ack.Total != want || ack.Available != 10000-want || len(ack.Bets) != 3 || ack.Bets[1].Bet.Call != roulette.Voisins {
			t.Fatalf("ack: %+v", ack)
		}
	}
	for _, c := range clients {
		next[table.PhaseChanged](t, c) // no more bets, from the server's own deadline
	}
	if _, err := clients[0].UpdateSlip(context.Background(), st.RoundId, 2, nil); status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("a late slip: %v", err)
	}
	if _, err := tt.tb.EnterOutcome("dealer:test", st.RoundId, "17"); err != nil {
		t.Fatal(err)
	}
	for i, c := range clients {
		o := next[table.OutcomeEntered](t, c)
		s := next[table.Settled](t, c)
		stake := int64(100 * (i + 1))
		if o.Outcome.Number != 17 || s.Returned != stake*36 || s.Balance != 10000-stake-1400+stake*36 {
			t.Fatalf("terminal %d settled: %+v", i, s)
		}
	}
}

// The server goes away and comes back: the client reports the link down, reconnects with
// backoff, and restarts from a snapshot that carries the balance.
func TestReconnectAfterServerRestart(t *testing.T) {
	tt := startTable(t, time.Second)
	tt.tb.OpenTable("dealer:test", false)
	c := tt.dial("T1")
	next[table.Snapshot](t, c)
	if err := c.ReportNoteEscrow(context.Background(), "n1", 5000, "AUD50"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreditNote(context.Background(), "n1", 5000, "AUD50"); err != nil {
		t.Fatal(err)
	}
	tt.shutdown()
	if down := next[table.Connection](t, c); down.Up {
		t.Fatalf("expected the link down, got %+v", down)
	}
	tt.start(time.Second)
	for up := next[table.Connection](t, c); !up.Up; up = next[table.Connection](t, c) {
		// attempts while the server was still down
	}
	snap := next[table.Snapshot](t, c)
	if snap.Balance != 5000 || !snap.AccountOpen {
		t.Fatalf("snapshot after reconnect: %+v", snap)
	}
	// A retried credit with the same key after the restart moves nothing.
	m, err := c.CreditNote(context.Background(), "n1", 5000, "AUD50")
	if err != nil || !m.Replayed || m.Balance != 5000 {
		t.Fatalf("replay after restart: %+v %v", m, err)
	}
}

// flaky is a fake terminal service that loses the first attempts of CreditNote.
type flaky struct {
	pb.UnimplementedTerminalServiceServer
	mu    sync.Mutex
	fail  int
	keys  []string
	moved int64
}

func (f *flaky) CreditNote(_ context.Context, req *pb.CreditNoteRequest) (*pb.MoneyResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.keys = append(f.keys, req.IdempotencyKey)
	if f.fail > 0 {
		f.fail--
		return nil, status.Error(codes.Unavailable, "link lost")
	}
	f.moved += req.Amount
	return &pb.MoneyResponse{Balance: f.moved, Amount: req.Amount}, nil
}

// RedeemTicket: the terminal is throttled for guessing validation numbers.
func (f *flaky) RedeemTicket(_ context.Context, req *pb.RedeemTicketRequest) (*pb.RedeemTicketResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.keys = append(f.keys, req.IdempotencyKey)
	return nil, status.Error(codes.ResourceExhausted, "too many failed ticket validations")
}

func (f *flaky) CashOut(context.Context, *pb.CashOutRequest) (*pb.CashOutResponse, error) {
	return nil, status.Error(codes.FailedPrecondition, "nothing to cash out")
}

// table.Money calls retry a lost attempt with the same key, and do not retry a refusal.
func TestMoneyRetriesKeepTheKey(t *testing.T) {
	f := &flaky{fail: 2}
	c := dialFake(t, f, Config{BaseBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond})
	m, err := c.CreditNote(context.Background(), "note-7", 2000, "")
	if err != nil || m.Balance != 2000 {
		t.Fatalf("credit: %+v %v", m, err)
	}
	if len(f.keys) != 3 || f.keys[0] != "note-7" || f.keys[1] != "note-7" || f.keys[2] != "note-7" {
		t.Fatalf("attempts: %v", f.keys)
	}
	// A throttled redemption is refused for its cool-down: asked once, not hammered.
	f.keys = nil
	if _, err := c.RedeemTicket(context.Background(), "r", "000000000000000001"); status.Code(err) != codes.ResourceExhausted || !table.Refused(err) {
		t.Fatalf("throttled redeem: %v", err)
	}
	if len(f.keys) != 1 {
		t.Fatalf("throttled redeem asked %d times", len(f.keys))
	}
	if _, err := c.CashOut(context.Background(), "co"); status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("a refusal: %v", err)
	}
}
