package model

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/internal/backoff"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// tableRig is a real table server on loopback (mutual TLS, gRPC, a SQLite ledger) and a
// console connected to it with a dealer's certificate.
type tableRig struct {
	t     *testing.T
	sups  *server.PINs // supervisor S1's PIN, rigPIN
	pki   *pki.Memory
	table *server.Table
	addr  string
	stop  func()
	con   *Console
	ctx   context.Context
}

// rigPIN is supervisor S1's PIN at the rig's table.
const rigPIN = "482913"

// rigSupervisor is S1 signed in on the console's panel.
var rigSupervisor = Supervisor{Card: "S1", PIN: rigPIN}

func newTableRig(t *testing.T) *tableRig {
	t.Helper()
	return newTableRigWith(t, nil)
}

// newTableRigWith is the rig at a table configured by with (nil: the default table).
func newTableRigWith(t *testing.T, with func(*server.Config)) *tableRig {
	t.Helper()
	led, err := ledger.Open(filepath.Join(t.TempDir(), "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { led.Close() })
	cfg := server.DefaultConfig()
	cfg.Period = time.Minute
	if with != nil {
		with(&cfg)
	}
	tbl, err := server.NewTable(context.Background(), cfg, led, time.Now, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := pki.NewMemory()
	if err != nil {
		t.Fatal(err)
	}
	pinFile := filepath.Join(t.TempDir(), "supervisors")
	if err := server.SetPIN(pinFile, "S1", rigPIN, 1000); err != nil {
		t.Fatal(err)
	}
	sups, err := server.LoadSupervisors(pinFile)
	if err != nil {
		t.Fatal(err)
	}
	r := &tableRig{t: t, pki: m, table: tbl, sups: sups}
	r.listen("127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	r.ctx = ctx
	go tbl.Run(ctx)
	r.con = r.console(pki.RoleDealer, "D1")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); r.con.Run(ctx) }()
	t.Cleanup(func() { cancel(); wg.Wait(); r.con.Close(); r.stop() })
	return r
}

func (r *tableRig) listen(addr string) {
	r.t.Helper()
	srvTLS, err := r.pki.ServerTLS()
	if err != nil {
		r.t.Fatal(err)
	}
	a, stop, err := server.Listen(r.table, srvTLS, addr, server.WithSupervisors(r.sups))
	if err != nil {
		r.t.Fatal(err)
	}
	r.addr, r.stop = a, stop
}

func (r *tableRig) console(role, id string) *Console {
	r.t.Helper()
	tlsCfg, err := r.pki.ClientTLS(role, id)
	if err != nil {
		r.t.Fatal(err)
	}
	c, err := Dial(Config{Addr: r.addr, TLS: tlsCfg, Backoff: backoff.Policy{Base: 20 * time.Millisecond, Max: 200 * time.Millisecond}})
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

// terminal is a seat's terminal: a Watch stream (the seat connected) and its client.
func (r *tableRig) terminal(id string) (pb.TerminalServiceClient, <-chan *pb.TableEvent) {
	r.t.Helper()
	tlsCfg, err := r.pki.ClientTLS(pki.RoleTerminal, id)
	if err != nil {
		r.t.Fatal(err)
	}
	conn, err := grpc.NewClient(r.addr, grpc.WithTransportCredentials(credentials.NewTLS(tlsCfg)))
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { conn.Close() })
	tc := pb.NewTerminalServiceClient(conn)
	stream, err := tc.Watch(r.ctx, &pb.WatchRequest{})
	if err != nil {
		r.t.Fatal(err)
	}
	evs := make(chan *pb.TableEvent, 256)
	go func() {
		for {
			ev, err := stream.Recv()
			if err != nil {
				close(evs)
				return
			}
			evs <- ev
		}
	}()
	return tc, evs
}

// until waits for the console's view to satisfy pred.
func (r *tableRig) until(what string, pred func(View) bool) View {
	r.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		v := r.con.View()
		if pred(v) {
			return v
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("%s: not on the console within 5 s; the view: %+v", what, v)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(Refusal(err))
	}
}

// A whole round dealt from the console's model against a real table: a buy-in the player
// confirms, a call bet placed for the seat, no more bets, the outcome; the console shows each
// step from the stream alone, and the ledger conserves.
func TestConsoleDealsARoundFromTheStream(t *testing.T) {
	r := newTableRig(t)
	ctx := context.Background()
	r.until("the table, closed", func(v View) bool { return v.Up && v.Phase == pb.Phase_PHASE_CLOSED })
	must(t, r.con.OpenTable(ctx))
	r.until("the table open", func(v View) bool { return v.Phase == pb.Phase_PHASE_IDLE })

	tc, evs := r.terminal("T1")
	r.until("T1 connected", func(v View) bool { s, ok := v.Seat("T1"); return ok && s.Connected })
	must(t, r.con.Credit(ctx, "T1", 5000))
	r.until("the buy-in awaiting the player", func(v View) bool { s, _ := v.Seat("T1"); return s.Awaiting == 5000 })
	var offer *pb.BuyInOffered
	for ev := range evs {
		if offer = ev.GetBuyIn(); offer != nil {
			break
		}
	}
	if _, err := tc.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: "c1", BuyInId: offer.BuyInId, Accept: true}); err != nil {
		t.Fatal(err)
	}
	r.until("the buy-in confirmed", func(v View) bool { s, _ := v.Seat("T1"); return s.Awaiting == 0 && s.Balance == 5000 })

	must(t, r.con.StartRound(ctx))
	r.until("the wagering period", func(v View) bool { return v.Phase == pb.Phase_PHASE_WAGERING && !v.Deadline.IsZero() })
	got, why, err := r.con.PlaceNeighbours(ctx, "T1", "17", 100)
	must(t, err)
	if got != 500 {
		t.Fatalf("the call bet: %d accepted (%s)", got, why)
	}
	r.until("the seat's stake", func(v View) bool { s, _ := v.Seat("T1"); return s.Stake == 500 })
	must(t, r.con.Spin(ctx))
	must(t, r.con.NoMoreBets(ctx))
	r.until("no more bets", func(v View) bool { return v.Phase == pb.Phase_PHASE_NO_MORE_BETS })
	must(t, r.con.Outcome(ctx, "17"))
	v := r.until("the result", func(v View) bool { return len(v.History) > 0 && v.History[0] == "17" })
	if s, _ := v.Seat("T1"); s.Balance != 5000-500+100*36 { // 17's piece won, 35 to 1
		t.Fatalf("T1's balance %d after 17 won", s.Balance)
	}
	if !v.Conserved || v.RedLight {
		t.Fatalf("the money: conserved %v, light red %v (%s)", v.Conserved, v.RedLight, v.Fault)
	}
}

// An outcome the wheel cannot have is refused at the console, in words, and never sent.
func TestConsoleRefusesAnOutcomeTheWheelCannotHave(t *testing.T) {
	r := newTableRig(t)
	r.until("the table", func(v View) bool { return v.Up })
	for _, n := range []string{"00", "37", "-1", "seventeen", ""} {
		err := r.con.Outcome(context.Background(), n)
		if !errors.Is(err, ErrNotOnWheel) {
			t.Errorf("outcome %q on a single-zero wheel: %v", n, err)
		}
	}
}

// A credit over the table's maximum balance: the server's refusal, in words, for the panel.
func TestConsoleCreditOverTheTableMaximumRefusedInWords(t *testing.T) {
	r := newTableRig(t)
	ctx := context.Background()
	r.until("the table", func(v View) bool { return v.Up })
	must(t, r.con.OpenTable(ctx))
	r.terminal("T1")
	err := r.con.Credit(ctx, "T1", 1<<50)
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("a credit of 2^50 cents: %v", err)
	}
	if words := Refusal(err); !strings.Contains(words, "maximum") || !strings.HasPrefix(words, "Refused: ") {
		t.Fatalf("the refusal shown: %q", words)
	}
	if err := r.con.Credit(ctx, "T1", 0); err == nil {
		t.Fatal("a credit of nothing accepted")
	}
}

// A lost server: the console says so, and is back on its own when the server is.
func TestConsoleSaysTheServerIsLostAndReconnects(t *testing.T) {
	r := newTableRig(t)
	r.until("the table", func(v View) bool { return v.Up && v.Lost == "" })
	addr := r.addr
	r.stop()
	v := r.until("the server lost", func(v View) bool { return !v.Up })
	if !strings.Contains(v.Lost, "cannot be reached") {
		t.Fatalf("the console says %q of a lost server", v.Lost)
	}
	r.listen(addr)
	must(t, r.table.RegisterTerminal("T9")) // a change, so the new stream's status is new
	r.until("the server back", func(v View) bool { return v.Up && v.Lost == "" })
}

// A supervisor's action goes with the card and PIN as metadata on the dealer's connection:
// until the table server checks them (the server's half of issue 28) it refuses the call, and
// the console says so in words; on a supervisor's certificate the same action is done.
func TestConsoleSupervisorActionRefusedInWordsWithoutTheRightPIN(t *testing.T) {
	r := newTableRig(t)
	ctx := context.Background()
	r.until("the table", func(v View) bool { return v.Up })
	if err := r.con.ClearFault(ctx, Supervisor{}, "x"); err == nil || !strings.Contains(err.Error(), "card and PIN") {
		t.Fatalf("a supervisor action with no card: %v", err)
	}
	must(t, r.con.OpenTable(ctx))
	must(t, r.con.StartRound(ctx))
	r.until("the round", func(v View) bool { return v.Phase == pb.Phase_PHASE_WAGERING })
	must(t, r.con.Dispute(ctx, "the ball left the wheel"))
	r.until("the red light", func(v View) bool { return v.RedLight })
	err := r.con.ClearFault(ctx, Supervisor{Card: "S1", PIN: "000000"}, "rectified")
	if err == nil || !strings.HasPrefix(Refusal(err), "Refused: ") {
		t.Fatalf("a supervisor action with a wrong PIN: %v (%q)", err, Refusal(err))
	}
	must(t, r.con.ClearFault(ctx, rigSupervisor, "rectified"))
	r.until("the green light", func(v View) bool { return !v.RedLight })
}

// A guest is what the table says it is (TerminalStatus.guest), not what its id looks like: a
// terminal a casino named G05 is a player with a Player Display, and a guest account is a guest
// whatever it is called. A seat taken for a guest would be offered chips it must not be paid
// in; a guest taken for a seat, bets it could never place.
func TestConsoleGuestIsTheTablesWordNotTheIdsPrefix(t *testing.T) {
	v := ViewOf(&pb.TableStatus{Terminals: []*pb.TerminalStatus{
		{TerminalId: "G05", Connected: true},
		{TerminalId: "GUEST-A", Guest: true},
		{TerminalId: "T01", Connected: true},
	}})
	want := map[string]bool{"G05": false, "GUEST-A": true, "T01": false}
	for id, guest := range want {
		s, ok := v.Seat(id)
		if !ok || s.Guest != guest {
			t.Errorf("seat %s: guest %v (found %v), want %v", id, s.Guest, ok, guest)
		}
	}
	if last := v.Seats[len(v.Seats)-1]; last.ID != "GUEST-A" {
		t.Errorf("the guests are not after the terminals: %+v", v.Seats)
	}
}

// A guest player (000 §11.3.1, §11.7) dealt from the console against a real table: the chips
// tendered are credited at once (no screen to confirm on), the bets the guest announces are
// placed by the dealer (an even-money bet and a dozen, no call bet among them), settled, and the
// balance paid out in chips closes the account; the ledger conserves throughout.
func TestConsoleGuestBoughtInBetAndPaidOutInChips(t *testing.T) {
	r := newTableRig(t)
	ctx := context.Background()
	r.until("the table, closed", func(v View) bool { return v.Up && v.Phase == pb.Phase_PHASE_CLOSED })
	must(t, r.con.OpenTable(ctx))
	must(t, r.con.Credit(ctx, "G01", 10000))
	r.until("the guest's chips credited at once", func(v View) bool {
		s, ok := v.Seat("G01")
		return ok && s.Guest && s.Balance == 10000 && s.Awaiting == 0
	})
	must(t, r.con.StartRound(ctx))
	r.until("the wagering period", func(v View) bool { return v.Phase == pb.Phase_PHASE_WAGERING })
	for _, w := range []*pb.Wager{{Kind: pb.BetKind_BET_KIND_RED, Amount: 1000}, {Kind: pb.BetKind_BET_KIND_DOZEN, Which: 2, Amount: 500}} {
		got, why, err := r.con.PlaceWager(ctx, "G01", w)
		must(t, err)
		if got != w.Amount {
			t.Fatalf("the guest's %v: %d accepted (%s)", w.Kind, got, why)
		}
	}
	r.until("the guest's stake", func(v View) bool { s, _ := v.Seat("G01"); return s.Stake == 1500 })
	must(t, r.con.NoMoreBets(ctx))
	must(t, r.con.Outcome(ctx, "14")) // red, second dozen: both win
	v := r.until("the result", func(v View) bool { return len(v.History) > 0 && v.History[0] == "14" })
	if s, _ := v.Seat("G01"); s.Balance != 10000+1000+500*2 {
		t.Fatalf("G01's balance %d after red and the second dozen won", s.Balance)
	}
	paid, err := r.con.CloseAccount(ctx, "G01", "dealer")
	must(t, err)
	if paid != 12000 {
		t.Fatalf("G01 paid %d in chips, want 12000", paid)
	}
	v = r.until("the account closed", func(v View) bool { s, _ := v.Seat("G01"); return !s.Open })
	if !v.Conserved {
		t.Fatal("the ledger does not conserve after the guest's play")
	}
}

// The supervisor refuses a seat's wagers from the panel (003 §9.12) with their card and PIN on
// the dealer's certificate: the slip's money goes back to the seat's balance, the seat's stake
// shows nothing, and the ledger conserves.
func TestConsoleSupervisorRefusesASeatsWager(t *testing.T) {
	r := newTableRig(t)
	ctx := context.Background()
	r.until("the table", func(v View) bool { return v.Up })
	must(t, r.con.OpenTable(ctx))
	must(t, r.con.Credit(ctx, "G01", 10000))
	must(t, r.con.StartRound(ctx))
	r.until("the wagering period", func(v View) bool { return v.Phase == pb.Phase_PHASE_WAGERING })
	_, _, err := r.con.PlaceWager(ctx, "G01", &pb.Wager{Kind: pb.BetKind_BET_KIND_RED, Amount: 1000})
	must(t, err)
	r.until("the stake", func(v View) bool { s, _ := v.Seat("G01"); return s.Stake == 1000 })
	if _, err := r.con.RefuseWager(ctx, Supervisor{Card: "S1", PIN: "000000"}, "G01", "refused"); err == nil {
		t.Fatal("a wager refused with a wrong PIN")
	}
	refused, err := r.con.RefuseWager(ctx, rigSupervisor, "G01", "refused at the dealer's console")
	must(t, err)
	if refused != 1000 {
		t.Fatalf("refused %d, want the slip's 1000", refused)
	}
	v := r.until("the stake gone", func(v View) bool { s, _ := v.Seat("G01"); return s.Stake == 0 })
	if s, _ := v.Seat("G01"); s.Balance != 10000 || !v.Conserved {
		t.Fatalf("after the refusal: balance %d, conserved %v", s.Balance, v.Conserved)
	}
}

// The supervisor sets the table's limits and a seat's own limits from the panel: the table's
// minimum and maximum change and nothing else of its limit sign (each bet's own limits, the
// table maximum stay), and the seat shows its own limits.
func TestConsoleSupervisorSetsTableAndSeatLimits(t *testing.T) {
	r := newTableRig(t)
	ctx := context.Background()
	before := r.until("the table's limits", func(v View) bool { return v.Up && v.Limits != nil })
	perBet := len(before.Limits.PerBet)
	// A lower maximum is in force at once (a higher minimum waits for its notice, rule 4.1).
	must(t, r.con.SetTableLimits(ctx, rigSupervisor, before.Limits.GetDefault().GetMin(), 40000))
	v := r.until("the new limits", func(v View) bool { return v.Limits.GetDefault().GetMax() == 40000 })
	if len(v.Limits.PerBet) != perBet || v.Limits.TableMax != before.Limits.TableMax || v.Limits.GetDefault().GetUnit() != before.Limits.GetDefault().GetUnit() {
		t.Fatalf("the rest of the limit sign changed: %v, was %v", v.Limits, before.Limits)
	}
	if err := r.con.SetTableLimits(ctx, rigSupervisor, 50000, 200); err == nil {
		t.Fatal("a minimum over the maximum was accepted")
	}
	r.terminal("T1")
	r.until("T1 connected", func(v View) bool { s, ok := v.Seat("T1"); return ok && s.Connected })
	must(t, r.con.SetSeatLimits(ctx, rigSupervisor, "T1", 500, 20000))
	r.until("T1's own limits", func(v View) bool { s, _ := v.Seat("T1"); return s.Limits == "5.00–200.00" })
}
