package server

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
)

// Places and prizes as the seeds order them, worked by hand. Pool 10001 (an odd cent), prizes
// 50/30/20 → 5000, 3000, 2000 (floor).
//
//	A 900 playing, B 900 playing: equal, not played off (concluded early) → share 1st: (5000+3000)/2 = 4000 each
//	C out in round 3, residual 0, last wager 300; D out in round 3, residual 0, last wager 100;
//	  E out in round 3, residual 50 → E is placed first of the three (residual chips, 003 §10.10.4),
//	  then C (the larger wager: D with the smaller is deemed out first), then D
//	F out in round 2 → after everyone out in round 3
//	G disqualified → no place, no prize
func TestTournamentPlacesAndPrizes(t *testing.T) {
	tr := &tournament{Terms: table.TournamentTerms{Rounds: 5, Prizes: []int64{50, 30, 20}, EntryFee: 1000, AddedPrize: 3001},
		Played: 3, Status: table.TournamentRunning}
	tr.Players = []*tourPlayer{
		{Terminal: "A", Chips: 900, State: table.PlayerPlaying},
		{Terminal: "B", Chips: 900, State: table.PlayerPlaying},
		{Terminal: "C", Chips: 0, State: table.PlayerEliminated, Out: 3, OutStake: 300},
		{Terminal: "D", Chips: 0, State: table.PlayerEliminated, Out: 3, OutStake: 100},
		{Terminal: "E", Chips: 50, State: table.PlayerEliminated, Out: 3, OutStake: 100},
		{Terminal: "F", Chips: 400, State: table.PlayerEliminated, Out: 2, OutStake: 100},
		{Terminal: "G", Chips: 5000, State: table.PlayerDisqualified, Out: 1},
	}
	if pool, _ := tr.Terms.PrizePool(len(tr.Players)); pool != 10001 {
		t.Fatalf("pool %d", pool)
	}
	if err := tr.finish(); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int64{"A": {1, 4000}, "B": {1, 4000}, "E": {3, 2000}, "C": {4, 0}, "D": {5, 0}, "F": {6, 0}, "G": {0, 0}}
	for _, p := range tr.Players {
		if w := want[p.Terminal]; int64(p.Rank) != w[0] || p.Prize != w[1] {
			t.Errorf("%s: place %d prize %d, want %v", p.Terminal, p.Rank, p.Prize, w)
		}
	}
	// Three tied for 2nd with 3000+2000 between them: 1666, 1667, 1667? The left-over cents go
	// to the first in seat order: 5000/3 = 1666 r 2 → 1667, 1667, 1666.
	tr.Players = []*tourPlayer{{Terminal: "W", Chips: 9, State: table.PlayerPlaying},
		{Terminal: "X", Chips: 5, State: table.PlayerPlaying}, {Terminal: "Y", Chips: 5, State: table.PlayerPlaying},
		{Terminal: "Z", Chips: 5, State: table.PlayerPlaying}}
	tr.Terms.EntryFee, tr.Terms.AddedPrize = 2500, 0 // pool 10000
	if err := tr.finish(); err != nil {
		t.Fatal(err)
	}
	got := []int64{tr.Players[0].Prize, tr.Players[1].Prize, tr.Players[2].Prize, tr.Players[3].Prize}
	if got[0] != 5000 || got[1] != 1667 || got[2] != 1667 || got[3] != 1666 {
		t.Fatalf("shared prizes: %v", got)
	}
}

// The Director cancels a tournament before any round (entry fees refunded, 003 §10.3.4), or
// concludes one early (003 §10.5.5) with the standings as they are; the table is then a cash
// table again and another tournament may be configured, under another id.
func TestTournamentCancelledAndConcludedEarly(t *testing.T) {
	r := newRig(t)
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	w1, w2 := r.watch(t1), r.watch(t2)
	defer w1.cancel()
	defer w2.cancel()
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	terms := springTerms()
	if _, err := r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: terms}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: terms}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a second tournament while one is under way: %v", err)
	}
	if _, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: []string{"T1"}}); code(err) != codes.FailedPrecondition {
		t.Fatalf("fewer players than the terms' minimum: %v", err)
	}
	if _, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: []string{"T1", "T2"}}); err != nil {
		t.Fatal(err)
	}
	tr, err := r.super.CloseTournament(ctx, &pb.CloseTournamentRequest{})
	if err != nil || tr.Status != pb.TournamentStatus_TOURNAMENT_STATUS_CANCELLED || !strings.Contains(tr.Note, "refunded") {
		t.Fatalf("cancelled: %v %v", tr, err)
	}
	if _, err := r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: terms}); code(err) != codes.FailedPrecondition {
		t.Fatalf("an id used again: %v", err)
	}
	terms.Id = "SPRING-2"
	if _, err := r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: terms}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: []string{"T1", "T2"}}); err != nil {
		t.Fatal(err)
	}
	// One round: both wager 100 on red; 32 is red → both 1100, equal.
	st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	for _, c := range []pb.TerminalServiceClient{t1, t2} {
		if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{red(100)}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.super.CloseTournament(ctx, &pb.CloseTournamentRequest{}); code(err) != codes.FailedPrecondition {
		t.Fatalf("closed with a round in play: %v", err)
	}
	r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: st.RoundId})
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "32"}); err != nil {
		t.Fatal(err)
	}
	tr, err = r.super.CloseTournament(ctx, &pb.CloseTournamentRequest{Reason: "the players to progress are determined"})
	if err != nil || tr.Status != pb.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
		t.Fatalf("concluded: %v %v", tr, err)
	}
	// Pool 2 × 5000 + 5000 = 15000; 1st and 2nd shared: (9000 + 4500) / 2 = 6750 each.
	for _, s := range tr.Standings {
		if s.Rank != 1 || s.Chips != 1100 || s.Prize != 6750 {
			t.Fatalf("concluded early: %v", tr.Standings)
		}
	}
	st, _ = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{red(100)}}); code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "chip account") {
		t.Fatalf("after the tournament a seat without money wagered tournament chips: %v", err)
	}
}

// Terms from anywhere: the table refuses what does not validate, never panics, and what it
// accepts reads back the same.
func FuzzConfigureTournament(f *testing.F) {
	f.Add("CUP", int64(1000), int64(0), int64(1000), int32(3), int64(100), int64(500), int32(1), int32(1), int64(60), int32(2), int32(8), true)
	f.Add("", int64(-1), int64(-1), int64(0), int32(0), int64(0), int64(-5), int32(-1), int32(9), int64(101), int32(9), int32(2), false)
	f.Add("X", int64(1<<62), int64(1<<62), int64(1<<60), int32(1000), int64(1<<60), int64(0), int32(1000), int32(0), int64(100), int32(0), int32(64), true)
	tbl, _ := openFuzzTable(f)
	n := 0
	f.Fuzz(func(t *testing.T, id string, entry, added, chips int64, rounds int32, minimum, maximum int64, secret, pass int32, prize int64, minP, maxP int32, order bool) {
		n++
		terms := &pb.TournamentTerms{Id: id, EntryFee: entry, AddedPrize: added, StartingChips: chips, Rounds: rounds,
			Minimums: []int64{minimum}, Maximum: maximum, SecretWagers: secret, PassCards: pass, Prizes: []int64{prize},
			MinPlayers: minP, MaxPlayers: maxP, OrderOfWagering: order}
		// The conversion both ways keeps every term, the order of wagering among them.
		if back := wire.TournamentTermsPB(wire.TournamentTermsOf(terms)); !proto.Equal(back, terms) {
			t.Fatalf("terms round trip: %v → %v", terms, back)
		}
		tr, err := tbl.ConfigureTournament("supervisor:fuzz", wire.TournamentTermsOf(terms))
		if err != nil {
			return
		}
		if verr := tr.Terms.Validate(); verr != nil {
			t.Fatalf("accepted terms that do not validate: %v", verr)
		}
		if tr.Terms.StartingChips != chips || tr.Terms.Minimum(1) != minimum || tr.Terms.OrderOfWagering != order || tr.Marker != "" || tr.Turn != "" {
			t.Fatalf("terms changed: %+v", tr.Terms)
		}
		// Free the table for the next input.
		if _, err := tbl.CloseTournament("supervisor:fuzz", ""); err != nil {
			t.Fatal(err)
		}
	})
}

// A tournament player's terminal lost before the deadline: their wagers are void, as a cash
// slip's (001 §9.7.1) and as the kiosk shows it, so the round is one without a wager: their
// pass card is played. Worked by hand: T1 red 100 on 32 → 1100; T2's 300 void → 1000, pass used.
func TestTournamentWagersVoidWhenTheTerminalIsLost(t *testing.T) {
	r := newRig(t)
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	w1, w2 := r.watch(t1), r.watch(t2)
	defer w1.cancel()
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: springTerms()})
	if _, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: []string{"T1", "T2"}}); err != nil {
		t.Fatal(err)
	}
	st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	for c, a := range map[pb.TerminalServiceClient]int64{t1: 100, t2: 300} {
		if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{red(a)}}); err != nil {
			t.Fatal(err)
		}
	}
	w2.cancel()
	r.waitConnected("T2", false)
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "32"}); err != nil {
		t.Fatal(err)
	}
	tr, _ := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{})
	if s := standingOf(tr, "T1"); s.Chips != 1100 {
		t.Fatalf("T1: %v", s)
	}
	if s := standingOf(tr, "T2"); s.Chips != 1000 || s.PassesLeft != 0 || s.State != "playing" || !tr.Rounds[0].Plays[1].Passed {
		t.Fatalf("T2 after its terminal was lost: %v %v", s, tr.Rounds[0].Plays)
	}
}
