package server

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app/roulette"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// 003 §3.4, §9.1: the card each wager was placed with is written with the slip at the close of
// the period, and is still there when the table restarts and reads the round back.
func TestRule003_9_1_PlayerCardRecordedInTheLedger(t *testing.T) {
	r := newRigWith(t, func(c *Config) { c.PlayerCardRequired = true })
	c, round := openRound(t, r, "T1", 10000)
	card := func(w *pb.Wager) *pb.Wager { w.PlayerCard = "60420042"; return w }
	if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1,
		Wagers: []*pb.Wager{straight("17", 500)}}); status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("a slip without a card: %v", err)
	}
	if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 2,
		Wagers: []*pb.Wager{card(straight("17", 500)), card(&pb.Wager{Kind: pb.BetKind_BET_KIND_RED, Amount: 1000})}}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: round}); err != nil {
		t.Fatal(err)
	}
	r.shutdown()
	r.start()
	sub, snap := r.table.Subscribe("T1")
	r.table.Unsubscribe(sub)
	if snap.Slip == nil || len(snap.Slip.Bets) != 2 {
		t.Fatalf("after the restart the table holds %+v", snap.Slip)
	}
	for i, b := range snap.Slip.Bets {
		if b.Card != "60420042" {
			t.Errorf("wager %d read back with card %q", i, b.Card)
		}
	}
}

// 000 §4.3, 003 §4.6: a player's own aggregate minimum decides whether their round is
// recognised (001 §4.3.3), and a card's limits win over the seat's.
func TestRule000_4_3_PlayerLimitsRecognitionAndPrecedence(t *testing.T) {
	r := newRig(t)
	c, round := openRound(t, r, "T1", 10000)
	seat := roulette.Limits{Default: roulette.Limit{Min: 100, Max: 50000, Unit: 100}, AggregateMin: 5000}
	if _, err := r.table.SetPlayerLimits("dealer:D1", "T1", "", &seat); err != nil {
		t.Fatal(err)
	}
	cardLim := roulette.Limits{Default: roulette.Limit{Min: 100, Max: 300, Unit: 100}}
	if _, err := r.table.SetPlayerLimits("supervisor:S1", "", "60420042", &cardLim); err != nil {
		t.Fatal(err)
	}
	red := func(amount int64, card string) []*pb.Wager {
		return []*pb.Wager{{Kind: pb.BetKind_BET_KIND_RED, Amount: amount, PlayerCard: card}}
	}
	res, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: red(1000, "60420042")})
	if err != nil || res.Slip.Total != 300 {
		t.Fatalf("with the card: %v %v, want 300 (the card's maximum)", res, err)
	}
	res, err = c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 2, Wagers: red(1000, "")})
	if err != nil || res.Slip.Total != 1000 {
		t.Fatalf("without it: %v %v, want 1000 (the seat's limits)", res, err)
	}
	// 10.00 is under the seat's 50.00 aggregate minimum: not recognised, the stake stays.
	if _, err := r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: round}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: "1"}); err != nil {
		t.Fatal(err)
	}
	st, _ := r.table.Status()
	for _, ts := range st.Terminals {
		if ts.TerminalId == "T1" && ts.Balance != 10000 {
			t.Errorf("balance %d: a round under the player's own aggregate minimum was settled", ts.Balance)
		}
	}
	// The dealer's status shows the card last used at the seat and its player's own limits.
	ds, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ts := range ds.Terminals {
		if ts.TerminalId == "T1" && (ts.PlayerLimits.GetDefault().GetMax() != 300 || ts.PlayerCard != "60420042") {
			t.Errorf("status of T1: %+v", ts)
		}
	}
	// Refusals: both or neither of seat and card, an unknown seat, bad limits, a bad card.
	for _, c := range []struct {
		terminal, card string
		l              *roulette.Limits
		want           codes.Code
	}{
		{"T1", "60420042", &seat, codes.InvalidArgument},
		{"", "", &seat, codes.InvalidArgument},
		{"T9", "", &seat, codes.NotFound},
		{"T1", "", &roulette.Limits{Default: roulette.Limit{Min: 500, Max: 100}}, codes.InvalidArgument},
		{"", "60 42", nil, codes.InvalidArgument},
		{"", strings.Repeat("9", 65), nil, codes.InvalidArgument},
	} {
		if _, err := r.table.SetPlayerLimits("dealer:D1", c.terminal, c.card, c.l); status.Code(err) != c.want {
			t.Errorf("%q %q: %v, want %v", c.terminal, c.card, err, c.want)
		}
	}
	// A terminal cannot set limits; the dealer's console can.
	if _, err := pb.NewDealerServiceClient(r.dial("terminal", "T1")).SetPlayerLimits(ctx,
		&pb.SetPlayerLimitsRequest{TerminalId: "T1", Clear: true}); status.Code(err) != codes.PermissionDenied {
		t.Errorf("a terminal set player limits: %v", err)
	}
	if _, err := r.dealer.SetPlayerLimits(ctx, &pb.SetPlayerLimitsRequest{TerminalId: "T1", Clear: true}); err != nil {
		t.Error(err)
	}
}

// FuzzPlayerCardSlip: any player card on any wagers, with or without the profile requiring one,
// and any player limits: never a panic; a refusal is InvalidArgument, FailedPrecondition or
// NotFound; what is accepted carries its one card and keeps within the balance.
func FuzzPlayerCardSlip(f *testing.F) {
	f.Add("60420042", "60420042", true, int64(100), int64(1000), int64(100), int64(2500))
	f.Add("", "", true, int64(100), int64(1000), int64(100), int64(2500))
	f.Add("60420042", "PC-1", false, int64(500), int64(0), int64(0), int64(700))
	f.Add("a b", "\x00", false, int64(0), int64(-1), int64(-5), int64(-1))
	tbl, _ := openFuzzTable(f)
	if _, err := reportAndCredit(tbl, "T1", &pb.CreditNoteRequest{IdempotencyKey: "n", Amount: 10000, NoteCode: "AUD100"}); err != nil {
		f.Fatal(err)
	}
	st, err := tbl.StartRound("dealer:test")
	if err != nil {
		f.Fatal(err)
	}
	version := uint64(0)
	f.Fuzz(func(t *testing.T, card1, card2 string, required bool, min, max, unit, amount int64) {
		tbl.mu.Lock()
		tbl.cfg.PlayerCardRequired = required
		tbl.mu.Unlock()
		l := &roulette.Limits{Default: roulette.Limit{Min: min, Max: max, Unit: unit}}
		if _, err := tbl.SetPlayerLimits("dealer:D1", "", card1, l); err != nil {
			if c := status.Code(err); c != codes.InvalidArgument {
				t.Fatalf("SetPlayerLimits %q: %v", card1, err)
			}
		}
		version++
		res, err := tbl.UpdateSlip("T1", st.RoundId, version, slipWagers([]*pb.Wager{
			{Kind: pb.BetKind_BET_KIND_RED, Amount: amount, PlayerCard: card1},
			{Kind: pb.BetKind_BET_KIND_ODD, Amount: amount, PlayerCard: card2}}))
		if err != nil {
			switch status.Code(err) {
			case codes.InvalidArgument, codes.FailedPrecondition, codes.NotFound:
				return
			}
			t.Fatalf("%q %q: %v", card1, card2, err)
		}
		if card1 != card2 || (required && card1 == "") || res.Total > 10000 || res.Total < 0 {
			t.Fatalf("accepted %q/%q (required %v): %+v", card1, card2, required, res)
		}
		for _, b := range res.Bets {
			if b.Card != card1 {
				t.Fatalf("wager recorded with %q, sent %q", b.Card, card1)
			}
		}
	})
}
