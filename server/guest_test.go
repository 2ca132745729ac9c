package server

import (
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

// guestOf is the dealer's status of a guest account (nil: the status does not list it).
func guestOf(t *testing.T, r *rig, id string) *pb.TerminalStatus {
	t.Helper()
	ts := r.seat(id)
	if ts != nil && !ts.Guest {
		t.Fatalf("%s is in the status but not as a guest: %v", id, ts)
	}
	return ts
}

// TestGuestPlayerBuysInBetsSettlesAndIsPaidOut_000_11_7: a guest player (000 §11.3.1, §11.7.3(b))
// tenders chips; the dealer opens G01 with them (credited at once: no Player Display to confirm
// on), places the bets the guest announces — any bet, not only call bets — and the round settles
// G01 like a seat, once, across a restart of the table after no more bets; the dealer pays the
// guest out in chips. Conserved at every step, on SQLite and PostgreSQL.
func TestGuestPlayerBuysInBetsSettlesAndIsPaidOut_000_11_7(t *testing.T) {
	bothStores(t, testGuestPlayer)
}

func testGuestPlayer(t *testing.T, r *rig) {
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{TerminalId: "G01", Amount: 10000, IdempotencyKey: "g1"}); err != nil {
		t.Fatalf("a guest's buy-in: %v", err)
	}
	g := guestOf(t, r, "G01")
	if g == nil || g.Balance != 10000 || !g.AccountOpen || g.Connected {
		t.Fatalf("G01 after its buy-in: %v", g)
	}
	// The same key again moves nothing.
	if _, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{TerminalId: "G01", Amount: 10000, IdempotencyKey: "g1"}); err != nil || r.balance("G01") != 10000 {
		t.Fatalf("a replayed guest buy-in: %v, balance %d", err, r.balance("G01"))
	}
	r.conserved()
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []*pb.Wager{straight("17", 1000), {Kind: pb.BetKind_BET_KIND_RED, Amount: 500}} {
		if res, err := r.dealer.PlaceWager(ctx, &pb.PlaceWagerRequest{TerminalId: "G01", RoundId: st.RoundId, Wager: w}); err != nil || res.Accepted != w.Amount {
			t.Fatalf("the dealer's %v for G01: %v %v", w.Kind, res, err)
		}
	}
	if got := r.seat("G01").SlipTotal; got != 1500 {
		t.Fatalf("G01's slip in the status: %d", got)
	}
	// The deadline passes; the table goes down before the outcome and comes back.
	r.clock.Add(21 * time.Second)
	r.table.Advance(r.clock.Now())
	r.shutdown()
	r.start()
	if got := r.seat("G01").SlipTotal; got != 1500 {
		t.Fatalf("G01's slip after the restart: %d", got)
	}
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "17"}); err != nil {
		t.Fatal(err)
	}
	// 17 is black: the straight pays 1000×36, red loses.
	const after = 10000 - 1500 + 36000
	if got := r.balance("G01"); got != after {
		t.Fatalf("G01 settled: %d, want %d", got, after)
	}
	r.conserved()
	r.shutdown()
	r.start()
	if got := r.balance("G01"); got != after {
		t.Fatalf("G01 after a second restart: %d, want %d (settled twice?)", got, after)
	}
	if s := r.status(); s.HouseResult != 1500-36000 {
		t.Fatalf("house result %d, want %d", s.HouseResult, 1500-36000)
	}
	// The guest leaves: the dealer pays the balance in chips.
	res, err := r.dealer.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{TerminalId: "G01", IdempotencyKey: "out1"})
	if err != nil || res.Amount != after {
		t.Fatalf("paying the guest out: %v %v", res, err)
	}
	if g := guestOf(t, r, "G01"); g.Balance != 0 || g.AccountOpen {
		t.Fatalf("G01 after paying out: %v", g)
	}
	if s := r.status(); s.MoneyIn != 10000 || s.MoneyOut != after || s.Balances != 0 {
		t.Fatalf("money in %d out %d balances %d", s.MoneyIn, s.MoneyOut, s.Balances)
	}
	r.conserved()
	var kinds []string
	for _, k := range []string{"guest-buy-in", "dealer-wager", "account-closed"} {
		if n := len(r.auditOf(k)); n == 0 {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) > 0 {
		t.Fatalf("not journalled: %v", kinds)
	}
}

// A table has twelve guest accounts, G01 to G12 (000 §11.3.1): all twelve open; a thirteenth
// (or G00) is refused with the reason, not taken as an unknown terminal.
func TestTwelveGuestsAndNoMore_000_11_3_1(t *testing.T) {
	r := newRig(t)
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	for _, id := range GuestIDs() {
		if _, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{TerminalId: id, Amount: 500, IdempotencyKey: "in-" + id}); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
	n := 0
	for _, ts := range r.status().Terminals {
		if ts.Guest {
			n++
		}
	}
	if n != MaxGuests {
		t.Fatalf("%d guests in the status, want %d", n, MaxGuests)
	}
	for _, id := range []string{"G13", "G00", "G99"} {
		if _, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{TerminalId: id, Amount: 500, IdempotencyKey: "in-" + id}); code(err) != codes.InvalidArgument {
			t.Errorf("%s: %v, want InvalidArgument", id, err)
		}
	}
	r.conserved()
}

// Attack: a terminal certificate issued with a guest's id ("G01"), to watch, wager from or
// cash out the guest's account as if it were its own seat. Refused at every call; the guest's
// account is untouched.
func TestNoTerminalCertificateActsAsAGuest(t *testing.T) {
	r := newRig(t)
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{TerminalId: "G01", Amount: 5000, IdempotencyKey: "g"}); err != nil {
		t.Fatal(err)
	}
	fake := r.terminal("G01")
	if _, err := fake.ServerTime(ctx, &pb.ServerTimeRequest{}); code(err) != codes.PermissionDenied {
		t.Errorf("a terminal certificate G01: %v", err)
	}
	if _, err := fake.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "c"}); code(err) != codes.PermissionDenied {
		t.Errorf("a terminal certificate G01 cashing out: %v", err)
	}
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fake.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{straight("1", 100)}}); code(err) != codes.PermissionDenied {
		t.Errorf("a terminal certificate G01 wagering: %v", err)
	}
	// A dealer's or supervisor's certificate named G01 is no terminal: they are served as what
	// they are.
	if _, err := pb.NewDealerServiceClient(r.dial(pki.RoleDealer, "G01")).GetStatus(ctx, &pb.GetStatusRequest{}); err != nil {
		t.Errorf("a dealer named G01: %v", err)
	}
	if g := r.seat("G01"); g.Balance != 5000 || g.SlipTotal != 0 || g.Connected {
		t.Fatalf("G01 after the attempts: %v", g)
	}
	r.conserved()
}

// A guest's account is not a seat: it is never asked to vacate (001 §12.8), and a guest
// account standing closed does not make the table look as if a seat were free.
func TestAGuestIsNotASeat_001_12_8(t *testing.T) {
	r := newRig(t)
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	t1 := r.terminal("T1")
	if _, err := creditNotes(ctx, t1, "n", 10000); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b"} { // G02 opened and closed: a closed guest account
		if k == "a" {
			if _, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{TerminalId: "G02", Amount: 500, IdempotencyKey: k}); err != nil {
				t.Fatal(err)
			}
		} else if _, err := r.dealer.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{TerminalId: "G02", IdempotencyKey: k}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{TerminalId: "G01", Amount: 500, IdempotencyKey: "g1"}); err != nil {
		t.Fatal(err)
	}
	for range AbstainRounds {
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		r.clock.Add(21 * time.Second)
		r.table.Advance(r.clock.Now())
		if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "5"}); err != nil {
			t.Fatal(err)
		}
	}
	if !r.seat("T1").Vacatable {
		t.Errorf("T1 abstained %d rounds, the only seat in use, but is not vacatable: a guest account counted as a free seat", AbstainRounds)
	}
	if r.seat("G01").Vacatable {
		t.Errorf("a guest account asked to vacate")
	}
	if _, err := r.dealer.ClosePlayerAccount(ctx, &pb.ClosePlayerAccountRequest{TerminalId: "G01", Reason: ReasonVacated, IdempotencyKey: "v"}); code(err) != codes.FailedPrecondition {
		t.Errorf("a guest vacated: %v", err)
	}
}

// A tournament seats terminals: a guest account entered is refused (its undisclosed wagers
// and standings are a Player Display's, 000 §12), not taken as a seat.
func TestAGuestIsNotSeatedInATournament(t *testing.T) {
	r := newRig(t)
	r.terminal("T1").ServerTime(ctx, &pb.ServerTimeRequest{})
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: springTerms()}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: []string{"T1", "G01"}}); code(err) != codes.InvalidArgument {
		t.Fatalf("a guest seated in a tournament: %v", err)
	}
}
