package server

import (
	"fmt"
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
// concludes one early (003 §10.5.5) with the standings as they are — only once the players
// who progress are determined (§10.5.5.1): a tie inside the prize places is refused by name;
// the table is then a cash table again and another tournament may be configured, under another id.
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
	// The cancelled tournament's record keeps its pool (2 × 50.00 + 50.00 added) and each seat's
	// entry fee owed back (003 §10.3.4), in the reply, the record and the audit log.
	for _, got := range []*pb.Tournament{tr, func() *pb.Tournament {
		tr, _ := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{Id: "SPRING-1"})
		return tr
	}()} {
		if got.PrizePool != 15000 || len(got.Standings) != 2 || standingOf(got, "T1").Refund != 5000 || standingOf(got, "T2").Refund != 5000 {
			t.Fatalf("the cancelled record: pool %d, standings %v", got.PrizePool, got.Standings)
		}
	}
	if a := r.auditOf("tournament-cancelled"); len(a) != 1 || !strings.Contains(a[0], "entry fees owed back: T1 50.00, T2 50.00 (100.00)") {
		t.Fatalf("audit: %q", a)
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
	// T1 and T2 are tied on 1100 inside the prize places: who takes 1st is not determined, so
	// the Director may not conclude now (003 §10.5.5.1; a tie is played off, §10.10.3). The
	// refusal names them; nothing changes.
	_, err = r.super.CloseTournament(ctx, &pb.CloseTournamentRequest{Reason: "time"})
	if code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "T1, T2") || !strings.Contains(err.Error(), "1100") ||
		!strings.Contains(err.Error(), "10.5.5") {
		t.Fatalf("concluded early with a tie inside the prize places: %v", err)
	}
	if tr, _ := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{}); tr.Status != pb.TournamentStatus_TOURNAMENT_STATUS_RUNNING {
		t.Fatalf("the refused close changed the tournament: %v", tr.Status)
	}
	// Round 2 on 32 (red): T1 red 100 → 1200, T2 black 100 → 1000: the order is determined.
	st, _ = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	r.playTournamentRound(t, st.RoundId, "32", map[pb.TerminalServiceClient]*pb.Wager{t1: red(100), t2: black(100)})
	tr, err = r.super.CloseTournament(ctx, &pb.CloseTournamentRequest{Reason: "the players to progress are determined"})
	if err != nil || tr.Status != pb.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
		t.Fatalf("concluded: %v %v", tr, err)
	}
	// Pool 2 × 5000 + 5000 = 15000: 1st 60 % = 9000, 2nd 30 % = 4500.
	if s1, s2 := standingOf(tr, "T1"), standingOf(tr, "T2"); s1.Rank != 1 || s1.Chips != 1200 || s1.Prize != 9000 ||
		s2.Rank != 2 || s2.Chips != 1000 || s2.Prize != 4500 {
		t.Fatalf("concluded early: %v", tr.Standings)
	}
	st, _ = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{red(100)}}); code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "chip account") {
		t.Fatalf("after the tournament a seat without money wagered tournament chips: %v", err)
	}
}

// Terms from anywhere: the table refuses what does not validate, never panics, and what it
// accepts reads back the same.
func FuzzConfigureTournament(f *testing.F) {
	f.Add("CUP", int64(1000), int64(0), int64(1000), int32(3), int64(100), int64(500), int32(1), int32(1), int64(100), int32(2), int32(8), true)
	f.Add("CUP", int64(1000), int64(0), int64(1000), int32(3), int64(100), int64(500), int32(1), int32(1), int64(60), int32(2), int32(8), true)
	f.Add("", int64(-1), int64(-1), int64(0), int32(0), int64(0), int64(-5), int32(-1), int32(9), int64(101), int32(9), int32(2), false)
	f.Add("X", int64(1<<62), int64(1<<62), int64(1<<60), int32(1000), int64(1<<60), int64(0), int32(1000), int32(0), int64(100), int32(0), int32(64), true)
	tbl, _ := openFuzzTable(f)
	n := 0
	f.Fuzz(func(t *testing.T, id string, entry, added, chips int64, rounds int32, minimum, maximum int64, secret, pass int32, prize int64, minP, maxP int32, order bool) {
		n++
		terms := &pb.TournamentTerms{Id: id, Terms: "Terms as approved.", EntryFee: entry, AddedPrize: added, StartingChips: chips, Rounds: rounds,
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
// slip's (001 §9.7.1) and as the kiosk shows it. The void is recorded as what it is — in the
// tournament's record and the audit log — and is not a failure to wager (003 §10.6.4): no pass
// card is used, no one is disqualified. The Director may then grant a pass card, by an explicit
// action recorded with who and when. Worked by hand: T1 red 100 on 32 → 1100; T2's 300 void →
// 1000, still playing with its 1 pass card; granted one → 2.
func TestTournamentTerminalFailureIsVoidNotAPassCard(t *testing.T) {
	bothStores(t, func(t *testing.T, r *rig) {
		t1, t2 := r.terminal("T1"), r.terminal("T2")
		w1, w2 := r.watch(t1), r.watch(t2)
		defer w1.cancel()
		r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
		if _, err := r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: springTerms()}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: []string{"T1", "T2"}}); err != nil {
			t.Fatal(err)
		}
		st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		for c, a := range map[pb.TerminalServiceClient]int64{t1: 100, t2: 300} {
			if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{red(a)}}); err != nil {
				t.Fatal(err)
			}
		}
		w2.cancel() // a two-second drop is enough
		r.waitConnected("T2", false)
		if got := r.auditOf("tournament-wager-void"); len(got) != 1 || !strings.Contains(got[0], "T2") || !strings.Contains(got[0], "300") {
			t.Fatalf("the void wager is not in the audit log: %q", got)
		}
		r.clock.Add(20 * time.Second)
		r.table.Advance(r.clock.Now())
		if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "32"}); err != nil {
			t.Fatal(err)
		}
		tr, _ := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{})
		if s := standingOf(tr, "T1"); s.Chips != 1100 {
			t.Fatalf("T1: %v", s)
		}
		play := tr.Rounds[0].Plays[1]
		if s := standingOf(tr, "T2"); s.Chips != 1000 || s.PassesLeft != 1 || s.State != "playing" || play.Passed || play.Result != table.PlayVoidTerminalLost {
			t.Fatalf("T2 after its terminal was lost: %v %v", s, play)
		}

		// The Director decides: the dealer may not; only a void play; once.
		grant := &pb.GrantPassCardRequest{TerminalId: "T2", Round: 1, Reason: "terminal fault confirmed by the technician"}
		if _, err := r.dealer.GrantPassCard(ctx, grant); code(err) != codes.PermissionDenied {
			t.Fatalf("the dealer granted a pass card: %v", err)
		}
		if _, err := r.super.GrantPassCard(ctx, &pb.GrantPassCardRequest{TerminalId: "T1", Round: 1, Reason: "x"}); code(err) != codes.FailedPrecondition {
			t.Fatalf("a pass card granted for a play that was not void: %v", err)
		}
		tr, err := r.super.GrantPassCard(ctx, grant)
		if err != nil {
			t.Fatal(err)
		}
		play = tr.Rounds[0].Plays[1]
		if s := standingOf(tr, "T2"); s.PassesLeft != 2 || !strings.Contains(play.Decision, "S1") || !strings.Contains(play.Decision, "2026-11-22") ||
			!strings.Contains(play.Decision, "technician") {
			t.Fatalf("granted: %v %v", s, play)
		}
		if _, err := r.super.GrantPassCard(ctx, grant); code(err) != codes.FailedPrecondition {
			t.Fatalf("a second pass card for the same void: %v", err)
		}
		if got := r.auditOf("tournament-pass-granted"); len(got) != 1 || !strings.Contains(got[0], "S1") || !strings.Contains(got[0], "T2") {
			t.Fatalf("the grant is not in the audit log: %q", got)
		}
	})
}

// A pit boss may invalidate a tournament round in play (001 §12.3): every wager is returned
// (§12.4), and the round stays in the tournament's record with its wagers, marked invalidated
// and why, and in the audit log; it does not count as a round played, so the next round is
// round 1 again, and no one's pass card or place is touched.
func TestTournamentRoundInvalidatedStaysOnRecord(t *testing.T) {
	bothStores(t, func(t *testing.T, r *rig) {
		t1, t2 := r.terminal("T1"), r.terminal("T2")
		w1, w2 := r.watch(t1), r.watch(t2)
		defer w1.cancel()
		defer w2.cancel()
		r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
		r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: springTerms()})
		if _, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: []string{"T1", "T2"}}); err != nil {
			t.Fatal(err)
		}
		st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if _, err := t1.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{red(300)}}); err != nil {
			t.Fatal(err)
		}
		r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: st.RoundId})
		if _, err := r.super.InvalidateRound(ctx, &pb.InvalidateRoundRequest{RoundId: st.RoundId, Reason: "brawl at the table"}); err != nil {
			t.Fatal(err)
		}
		tr, _ := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{})
		if len(tr.Rounds) != 1 || tr.Rounds[0].Invalidated != "brawl at the table" || tr.Rounds[0].RoundId != st.RoundId || tr.Rounds[0].N != 1 {
			t.Fatalf("the invalidated round left the record: %v", tr.Rounds)
		}
		p1, p2 := tr.Rounds[0].Plays[0], tr.Rounds[0].Plays[1]
		if p1.TerminalId != "T1" || p1.Staked != 300 || p1.Returned != 300 || p1.Chips != 1000 || p1.Wagers == "" ||
			p2.TerminalId != "T2" || p2.Passed || p2.Result != "" {
			t.Fatalf("the invalidated round's plays: %v", tr.Rounds[0].Plays)
		}
		if tr.Played != 0 || tr.Round != 1 {
			t.Fatalf("an invalidated round counted as played: played %d, round %d", tr.Played, tr.Round)
		}
		for _, s := range tr.Standings {
			if s.Chips != 1000 || s.PassesLeft != 1 || s.State != "playing" || s.RoundStake != 0 {
				t.Fatalf("standings moved by an invalidated round: %v", s)
			}
		}
		if got := r.auditOf("tournament-round-invalidated"); len(got) != 1 || !strings.Contains(got[0], "brawl") || !strings.Contains(got[0], "T1 staked 300") {
			t.Fatalf("audit: %q", got)
		}
		// Round 1 again, played for real.
		st, _ = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		r.playTournamentRound(t, st.RoundId, "32", map[pb.TerminalServiceClient]*pb.Wager{t1: red(100), t2: black(100)})
		tr, _ = r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{})
		if tr.Played != 1 || len(tr.Rounds) != 2 || tr.Rounds[1].N != 1 || tr.Rounds[1].Invalidated != "" || standingOf(tr, "T1").Chips != 1100 {
			t.Fatalf("the round after: %v", tr)
		}
	})
}

// playTournamentRound places each seat's wager on round id, closes it and enters outcome.
func (r *rig) playTournamentRound(t *testing.T, id, outcome string, wagers map[pb.TerminalServiceClient]*pb.Wager) {
	t.Helper()
	for c, w := range wagers {
		if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: id, Version: 1, Wagers: []*pb.Wager{w}}); err != nil {
			t.Fatal(err)
		}
	}
	r.dealer.BallDropping(ctx, &pb.RoundRequest{RoundId: id})
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: id, Number: outcome}); err != nil {
		t.Fatal(err)
	}
}

// A table given to a tournament is used only for it (003 §10.5.2; 001 §11.2.5) and tournament
// chips are not money (003 §10.1.1): while the tournament is played the table takes no note, no
// ticket and no dealer buy-in, and prints no cash-out ticket, each refused with the reason; no
// money moves. Once the tournament is over the table takes money again.
func TestTournamentTableTakesNoMoneyAndPrintsNoTicket(t *testing.T) {
	bothStores(t, func(t *testing.T, r *rig) {
		t1, t2, t9 := r.terminal("T1"), r.terminal("T2"), r.terminal("T9")
		r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
		if _, err := t2.ServerTime(ctx, &pb.ServerTimeRequest{}); err != nil { // known to the table
			t.Fatal(err)
		}
		if _, err := creditNotes(ctx, t1, "n1", 5000); err != nil {
			t.Fatal(err)
		}
		if _, err := creditNotes(ctx, t9, "n9", 2000); err != nil {
			t.Fatal(err)
		}
		out, err := t9.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "co9"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := t9.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: "p9", ValidationNumber: out.Ticket.ValidationNumber}); err != nil {
			t.Fatal(err) // a ticket redeemable anywhere but at the tournament table
		}
		r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: springTerms()})
		if _, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: []string{"T1", "T2"}}); err != nil {
			t.Fatal(err)
		}
		before, err := r.table.Conservation()
		if err != nil {
			t.Fatal(err)
		}
		refused := func(what string, err error) {
			t.Helper()
			if code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), table.TournamentTableRefused) || !strings.Contains(err.Error(), "10.5.2") {
				t.Errorf("%s at a tournament table: %v", what, err)
			}
		}
		_, err = creditNotes(ctx, t2, "n2", 2000)
		refused("a note", err)
		_, err = t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "r2", ValidationNumber: out.Ticket.ValidationNumber})
		refused("a ticket", err)
		_, err = r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "b2", TerminalId: "T2", Amount: 1000})
		refused("a dealer buy-in", err)
		_, err = t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "co1"})
		refused("a cash-out ticket", err)
		if after, err := r.table.Conservation(); err != nil || after != before {
			t.Fatalf("money moved at a tournament table: %v → %v (%v)", before, after, err)
		}
		// Over (cancelled): money again.
		if _, err := r.super.CloseTournament(ctx, &pb.CloseTournamentRequest{}); err != nil {
			t.Fatal(err)
		}
		if _, err := t1.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "co1b"}); err != nil {
			t.Fatal(err)
		}
		if _, err := creditNotes(ctx, t2, "n2b", 2000); err != nil {
			t.Fatal(err)
		}
	})
}

// 001 §12.8 asks a seated player who abstains from wagering three rounds in a row to vacate.
// In tournament rounds nobody abstains in that sense: a seat barred from the tournament is not
// allowed to wager (003 §10.5.2), and a tournament player's missed round is the tournament's
// own business (§10.6.4, a pass card or disqualification). Three tournament rounds make no
// seat vacatable, whether it wagered tournament chips or was barred.
func TestTournamentRoundsCountNoSeatAsAbstaining(t *testing.T) {
	r := newRig(t)
	t1, t2, t3 := r.terminal("T1"), r.terminal("T2"), r.terminal("T3")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	for i, c := range []pb.TerminalServiceClient{t1, t2, t3} {
		if _, err := creditNotes(ctx, c, fmt.Sprintf("n%d", i), 2000); err != nil { // every seat in use
			t.Fatal(err)
		}
	}
	r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: springTerms()})
	if _, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: []string{"T1", "T2"}}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := t3.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{red(200)}}); code(err) != codes.FailedPrecondition {
			t.Fatalf("the barred seat wagered: %v", err)
		}
		r.playTournamentRound(t, st.RoundId, "0", map[pb.TerminalServiceClient]*pb.Wager{t1: red(200), t2: black(200)})
	}
	for _, id := range []string{"T1", "T2", "T3"} {
		if s := r.seat(id); s.Abstained != 0 || s.Vacatable {
			t.Errorf("seat %s after three tournament rounds: abstained %d, vacatable %v", id, s.Abstained, s.Vacatable)
		}
	}
}

// A player who loses every chip in the last scheduled round is out, not "playing" with 0 chips
// (issue 33 point 9): eliminated in that round and placed after those with chips (003
// §10.10.4). Worked by hand, 1 round, 500 chips each, 32 (red): T1 red 100 → 600; T2 black
// 500 → 0, eliminated in round 1, 2nd.
func TestTournamentPlayerWithNoChipsLeftIsNotPlaying(t *testing.T) {
	r := newRig(t)
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	r.known(t1, t2)
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	terms := springTerms()
	terms.StartingChips, terms.Rounds, terms.Minimums = 500, 1, []int64{100}
	if _, err := r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: terms}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: []string{"T1", "T2"}}); err != nil {
		t.Fatal(err)
	}
	st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	r.playTournamentRound(t, st.RoundId, "32", map[pb.TerminalServiceClient]*pb.Wager{t1: red(100), t2: black(500)})
	tr, _ := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{})
	if tr.Status != pb.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
		t.Fatalf("status %v", tr.Status)
	}
	if s := standingOf(tr, "T2"); s.Chips != 0 || s.State != table.PlayerEliminated || s.EliminatedRound != 1 || s.Rank != 2 {
		t.Fatalf("T2 with no chips left: %v", s)
	}
	if s := standingOf(tr, "T1"); s.State != table.PlayerPlaying || s.Rank != 1 || s.Prize == 0 {
		t.Fatalf("T1: %v", s)
	}
	if p := tr.Rounds[0].Plays[1]; p.Result != table.PlayerEliminated {
		t.Fatalf("the round's record of T2: %v", p)
	}
}

// A tied player who loses every chip in a playoff leaves it placed within the tied group —
// below the other tied player, above a player who finished the schedule behind them — and is
// not listed as playing. Worked by hand, 1 round, 500 chips, prizes 50/30/20, on 32:
// T1 red 100 → 600, T2 red 100 → 600, T3 black 100 → 400: T1 and T2 tied for 1st → playoff;
// playoff on 32: T1 red 100 → 700, T2 black 600 → 0. Places T1, T2, T3.
func TestTournamentPlayoffBustIsPlacedInItsGroup(t *testing.T) {
	r := newRig(t)
	t1, t2, t3 := r.terminal("T1"), r.terminal("T2"), r.terminal("T3")
	r.known(t1, t2, t3)
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	terms := springTerms()
	terms.StartingChips, terms.Rounds, terms.Minimums, terms.Maximum, terms.Prizes = 500, 1, []int64{100}, 0, []int64{50, 30, 20}
	if _, err := r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: terms}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: []string{"T1", "T2", "T3"}}); err != nil {
		t.Fatal(err)
	}
	st, _ := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	r.playTournamentRound(t, st.RoundId, "32", map[pb.TerminalServiceClient]*pb.Wager{t1: red(100), t2: red(100), t3: black(100)})
	st, _ = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	r.playTournamentRound(t, st.RoundId, "32", map[pb.TerminalServiceClient]*pb.Wager{t1: red(100), t2: black(600)})
	tr, _ := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{})
	if tr.Status != pb.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
		t.Fatalf("status %v", tr.Status)
	}
	for id, want := range map[string][2]any{"T1": {int32(1), table.PlayerPlaying}, "T2": {int32(2), table.PlayerEliminated}, "T3": {int32(3), table.PlayerPlaying}} {
		if s := standingOf(tr, id); s.Rank != want[0] || s.State != want[1] {
			t.Errorf("%s: place %d %s, want %v", id, s.Rank, s.State, want)
		}
	}
}

// known makes the terminals known to the table, as their first call does.
func (r *rig) known(terms ...pb.TerminalServiceClient) {
	r.t.Helper()
	for _, c := range terms {
		if _, err := c.ServerTime(ctx, &pb.ServerTimeRequest{}); err != nil {
			r.t.Fatal(err)
		}
	}
}
