package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
)

// springTerms are the terms of the worked tournament: 5 players, 1000 chips each, 3 rounds
// with minimums 100, 100, 200 and a maximum of 500 a round, one undisclosed wager and one pass
// card each, entry 50.00 and 50.00 added: a pool of 5×5000+5000 = 30000, paid 60/30/10 %.
func springTerms() *pb.TournamentTerms {
	return &pb.TournamentTerms{Id: "SPRING-1", Name: "Spring Roulette Cup", Terms: "Terms and conditions as approved.",
		EntryFee: 5000, AddedPrize: 5000, StartingChips: 1000, Rounds: 3, Minimums: []int64{100, 100, 200}, Maximum: 500,
		SecretWagers: 1, PassCards: 1, Prizes: []int64{60, 30, 10}, MinPlayers: 2, MaxPlayers: 8}
}

func even(a int64) *pb.Wager  { return &pb.Wager{Kind: pb.BetKind_BET_KIND_EVEN, Amount: a} }
func odd(a int64) *pb.Wager   { return &pb.Wager{Kind: pb.BetKind_BET_KIND_ODD, Amount: a} }
func red(a int64) *pb.Wager   { return &pb.Wager{Kind: pb.BetKind_BET_KIND_RED, Amount: a} }
func black(a int64) *pb.Wager { return &pb.Wager{Kind: pb.BetKind_BET_KIND_BLACK, Amount: a} }
func low(a int64) *pb.Wager   { return &pb.Wager{Kind: pb.BetKind_BET_KIND_LOW, Amount: a} }

func standingOf(tr *pb.Tournament, id string) *pb.TournamentStanding {
	for _, s := range tr.GetStandings() {
		if s.TerminalId == id {
			return s
		}
	}
	return nil
}

// TestWholeTournamentOverTheWire plays a whole tournament of five players through the real
// server over gRPC on a socket, with the figures worked by hand (single zero; 17 is black, odd,
// low; 0 is none of them; 32 red, even, high; 7 red, odd):
//
//	round 1 (min 100), 17:  T1 red 300 → 700;  T2 black 300 undisclosed → 1300;  T3 low 200 → 1200;
//	                        T4 no wager → pass card, 1000;  T5 red 500 → 500
//	round 2 (min 100), 0:   T1 straight 0 100 → 700−100+3600 = 4200;  T2 even 500 → 800;
//	                        T3 odd 400 → 800;  T4 no wager, no pass card → disqualified (1000);
//	                        T5 straight 32 400 → 100, below round 3's minimum 200 → eliminated
//	round 3 (min 200), 32:  each tries 500, taken as 400: wagers are in units of the round's
//	                        minimum, 200 (003 §10.6.14, "valid to the last complete increment");
//	                        T1 black 400 → 3800;  T2 red 400 → 1200;  T3 even 400 → 1200:
//	                        T2 and T3 tied for 2nd → playoff (003 §10.10.3)
//	playoff (min 200), 7:   T2 red 200 → 1400;  T3 black 200 → 1000: the order is found
//
// Places: 1 T1, 2 T2, 3 T3, 4 T5 (eliminated), T4 disqualified (no place). Pool 5×5000+5000 =
// 30000: prizes 18000, 9000, 3000. A server restart between round 3's deadline and its
// outcome settles round 3 from the ledger. T1's chip account (a note of 50.00 before the
// tournament), the other seat's money and the books do not move.
func TestWholeTournamentOverTheWire(t *testing.T) {
	r := newRig(t)
	ids := []string{"T1", "T2", "T3", "T4", "T5"}
	terms := map[string]pb.TerminalServiceClient{}
	watchers := map[string]*watcher{}
	for _, id := range append(ids, "T9") {
		terms[id] = r.terminal(id)
		watchers[id] = r.watch(terms[id])
	}
	defer func() {
		for _, w := range watchers {
			w.cancel()
		}
	}()
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	// Money at the table before the tournament: T1 and the spectator seat T9 hold chip accounts.
	if _, err := creditNotes(ctx, terms["T1"], "n1", 5000); err != nil {
		t.Fatal(err)
	}
	if _, err := creditNotes(ctx, terms["T9"], "n9", 2000); err != nil {
		t.Fatal(err)
	}
	before, err := r.table.Conservation()
	if err != nil {
		t.Fatal(err)
	}

	// Only the Tournament Director (supervisor) configures; bad terms are refused.
	if _, err := r.dealer.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: springTerms()}); code(err) != codes.PermissionDenied {
		t.Fatalf("the dealer configured a tournament: %v", err)
	}
	bad := springTerms()
	bad.Minimums = []int64{0}
	if _, err := r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: bad}); code(err) != codes.InvalidArgument {
		t.Fatalf("a minimum of 0: %v", err)
	}
	if _, err := r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: springTerms()}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: []string{"T1", "T-GHOST"}}); code(err) != codes.NotFound {
		t.Fatalf("an unknown seat: %v", err)
	}
	tr, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: ids})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Status != pb.TournamentStatus_TOURNAMENT_STATUS_OPEN || tr.PrizePool != 30000 || len(tr.Standings) != 5 {
		t.Fatalf("opened: %v", tr)
	}
	for _, s := range tr.Standings {
		// The same starting bank for all (001 §11.4.3(b)), all equal first.
		if s.Chips != 1000 || s.Rank != 1 || s.SecretsLeft != 1 || s.PassesLeft != 1 {
			t.Fatalf("starting standing: %v", s)
		}
	}
	ev := watchers["T3"].until(t, func(ev *pb.TableEvent) bool { return len(ev.GetTournament().GetStandings()) > 0 }).GetTournament()
	if ev.Status != pb.TournamentStatus_TOURNAMENT_STATUS_OPEN || len(ev.Rounds) != 0 {
		t.Fatalf("terminals told: %v", ev)
	}

	// Round 1.
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	r1 := st.RoundId
	slip := func(id string, v uint64, secret bool, ws ...*pb.Wager) (*pb.UpdateSlipResponse, error) {
		return terms[id].UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: r1, Version: v, Wagers: ws, Secret: secret})
	}
	// The seat not in the tournament may not wager: the table is the tournament's (003 §10.5.2).
	if _, err := slip("T9", 1, false, red(100)); code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "reserved for tournament") {
		t.Fatalf("a non-player's slip: %v", err)
	}
	// Units of the minimum (003 §10.6.14): 150 is taken as 100; more than the maximum a round
	// (500) is cut to it; the answer's balance is tournament chips, not the chip account.
	res, err := slip("T1", 1, false, red(150))
	if err != nil || res.Slip.Results[0].Accepted != 100 || res.Slip.Results[0].Reason != "off-unit" || res.Balance != 900 {
		t.Fatalf("off-unit: %v %v", res, err)
	}
	res, err = slip("T1", 2, false, red(400), black(300))
	if err != nil || res.Slip.Total != 500 || res.Slip.Results[1].Accepted != 100 || res.Balance != 500 {
		t.Fatalf("over the round's maximum: %v %v", res, err)
	}
	if _, err := slip("T1", 3, false, red(300)); err != nil {
		t.Fatal(err)
	}
	if _, err := slip("T2", 1, true, black(300)); err != nil {
		t.Fatal(err)
	}
	if _, err := slip("T3", 1, false, low(200)); err != nil {
		t.Fatal(err)
	}
	if _, err := slip("T5", 1, false, red(500)); err != nil {
		t.Fatal(err)
	}
	// T1 sees T3's wager but not T2's undisclosed one (003 §10.8): only that there is one.
	seen := watchers["T1"].until(t, func(ev *pb.TableEvent) bool {
		tr := ev.GetTournament()
		return tr != nil && standingOf(tr, "T5").GetRoundStake() == 500
	}).GetTournament()
	if s := standingOf(seen, "T2"); !s.Secret || s.RoundStake != 0 {
		t.Fatalf("an undisclosed wager shown to another player: %v", s)
	}
	if s := standingOf(seen, "T3"); s.Secret || s.RoundStake != 200 || seen.Round != 1 {
		t.Fatalf("a disclosed wager: %v (round %d)", s, seen.Round)
	}
	// The Director's console sees it (the supervisor records it: §10.8.2.1).
	full, err := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{})
	if err != nil || standingOf(full, "T2").RoundStake != 300 {
		t.Fatalf("the console's view: %v %v", full, err)
	}
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: r1, Number: "17"}); err != nil {
		t.Fatal(err)
	}
	after1 := watchers["T1"].until(t, func(ev *pb.TableEvent) bool { return ev.GetTournament().GetPlayed() == 1 }).GetTournament()
	for id, want := range map[string]int64{"T1": 700, "T2": 1300, "T3": 1200, "T4": 1000, "T5": 500} {
		if s := standingOf(after1, id); s.Chips != want || s.State != "playing" {
			t.Fatalf("after round 1, %s: %v, want %d chips", id, s, want)
		}
	}
	// Disclosed with the result; the undisclosed wager used, the pass card played.
	if s := standingOf(after1, "T2"); s.RoundStake != 300 || !s.Secret || s.SecretsLeft != 0 || s.Rank != 1 {
		t.Fatalf("T2 after round 1: %v", s)
	}
	if s := standingOf(after1, "T4"); s.PassesLeft != 0 {
		t.Fatalf("T4's pass card: %v", s)
	}

	// Round 2: T2 has no undisclosed wager left.
	st, _ = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if _, err := terms["T2"].UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{even(500)}, Secret: true}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a second undisclosed wager: %v", err)
	}
	if _, err := terms["T1"].UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{straight("0", 100)}}); err != nil {
		t.Fatal(err)
	}
	for id, ws := range map[string][]*pb.Wager{"T2": {even(500)}, "T3": {odd(400)}, "T5": {straight("32", 400)}} {
		if _, err := terms[id].UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: ws}); err != nil {
			t.Fatal(err)
		}
	}
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "0"}); err != nil {
		t.Fatal(err)
	}
	after2, _ := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{})
	for id, want := range map[string]struct {
		chips int64
		state string
	}{"T1": {4200, "playing"}, "T2": {800, "playing"}, "T3": {800, "playing"}, "T4": {1000, "disqualified"}, "T5": {100, "eliminated"}} {
		if s := standingOf(after2, id); s.Chips != want.chips || s.State != want.state {
			t.Fatalf("after round 2, %s: %v, want %v", id, s, want)
		}
	}
	if after2.Round != 3 || after2.Terms.Minimums[2] != 200 {
		t.Fatalf("round 3 next: %v", after2)
	}

	// Round 3, with a restart of the server between the deadline and the outcome.
	st, _ = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	r3 := st.RoundId
	if _, err := terms["T5"].UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: r3, Version: 1, Wagers: []*pb.Wager{red(200)}}); code(err) != codes.FailedPrecondition {
		t.Fatalf("an eliminated player wagered: %v", err)
	}
	for id, ws := range map[string][]*pb.Wager{"T1": {black(500)}, "T2": {red(500)}, "T3": {even(500)}} {
		if _, err := terms[id].UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: r3, Version: 1, Wagers: ws}); err != nil {
			t.Fatal(err)
		}
	}
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	for _, w := range watchers {
		w.cancel()
	}
	r.shutdown()
	r.start()
	for _, id := range append(ids, "T9") {
		terms[id] = r.terminal(id)
		watchers[id] = r.watch(terms[id])
	}
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: r3, Number: "32"}); err != nil {
		t.Fatal(err)
	}
	after3, _ := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{})
	if after3.Status != pb.TournamentStatus_TOURNAMENT_STATUS_PLAYOFF {
		t.Fatalf("no playoff for the tie: %v", after3)
	}
	for id, want := range map[string]int64{"T1": 3800, "T2": 1200, "T3": 1200} {
		if s := standingOf(after3, id); s.Chips != want {
			t.Fatalf("after round 3, %s: %v, want %d", id, s, want)
		}
	}
	if !standingOf(after3, "T2").InPlayoff || !standingOf(after3, "T3").InPlayoff || standingOf(after3, "T1").InPlayoff ||
		standingOf(after3, "T2").Rank != 2 || standingOf(after3, "T3").Rank != 2 {
		t.Fatalf("the playoff's players: %v", after3.Standings)
	}

	// The playoff: only T2 and T3 wager.
	st, _ = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if _, err := terms["T1"].UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{red(200)}}); code(err) != codes.FailedPrecondition {
		t.Fatalf("T1 played the playoff: %v", err)
	}
	for id, ws := range map[string][]*pb.Wager{"T2": {red(200)}, "T3": {black(200)}} {
		if _, err := terms[id].UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: ws}); err != nil {
			t.Fatal(err)
		}
	}
	r.clock.Add(20 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: st.RoundId, Number: "7"}); err != nil {
		t.Fatal(err)
	}
	final, err := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{Id: "SPRING-1"})
	if err != nil || final.Status != pb.TournamentStatus_TOURNAMENT_STATUS_FINISHED || len(final.Rounds) != 4 || !final.Rounds[3].Playoff {
		t.Fatalf("finished: %v %v", final, err)
	}
	want := []struct {
		id    string
		rank  int32
		chips int64
		prize int64
		state string
	}{{"T1", 1, 3800, 18000, "playing"}, {"T2", 2, 1400, 9000, "playing"}, {"T3", 3, 1000, 3000, "playing"},
		{"T5", 4, 100, 0, "eliminated"}, {"T4", 0, 1000, 0, "disqualified"}}
	for i, w := range want {
		s := final.Standings[i]
		if s.TerminalId != w.id || s.Rank != w.rank || s.Chips != w.chips || s.Prize != w.prize || s.State != w.state {
			t.Fatalf("place %d: %v, want %+v", i+1, s, w)
		}
	}
	// The round records: round 2's T1 play and round 1's undisclosed wager, disclosed.
	if p := final.Rounds[1].Plays[0]; p.TerminalId != "T1" || p.Staked != 100 || p.Returned != 3600 || p.Chips != 4200 {
		t.Fatalf("round 2 record of T1: %v", p)
	}
	if p := final.Rounds[0].Plays[1]; p.TerminalId != "T2" || !p.Secret || p.Staked != 300 || p.Returned != 600 {
		t.Fatalf("round 1 record of T2: %v", p)
	}

	// Tournament chips are not money: T1's and T9's chip accounts, every money meter and the
	// books are as they were; no tournament round has a settlement or a slip in the ledger.
	after, err := r.table.Conservation()
	if err != nil || after != before || !after.Holds() {
		t.Fatalf("the books moved: before %+v after %+v (%v)", before, after, err)
	}
	snap := r.snapshotOf("T1")
	if snap.Balance != 5000 {
		t.Fatalf("T1's chip account: %d", snap.Balance)
	}
	if snap.Tournament.GetStatus() != pb.TournamentStatus_TOURNAMENT_STATUS_FINISHED || len(snap.Tournament.Rounds) != 0 {
		t.Fatalf("the snapshot's tournament: %v", snap.Tournament)
	}
	for _, rec := range final.Rounds {
		var n int
		err := r.led.Update(context.Background(), r.clock.Now(), func(tx *ledger.Tx) error {
			s, err := tx.Settlements(rec.RoundId)
			n = len(s)
			return err
		})
		if err != nil || n != 0 {
			t.Fatalf("round %s has %d money settlements (%v)", rec.RoundId, n, err)
		}
	}
	// A tournament round's result is not corrected at the console.
	if _, err := r.super.CorrectOutcome(ctx, &pb.CorrectOutcomeRequest{RoundId: st.RoundId, Number: "8"}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a tournament round corrected: %v", err)
	}

	// After the tournament the table is a cash table again, and the results stay on record,
	// audited with who did what.
	st, _ = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if _, err := terms["T9"].UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: st.RoundId, Version: 1, Wagers: []*pb.Wager{red(1000)}}); err != nil {
		t.Fatalf("cash play after the tournament: %v", err)
	}
	r.shutdown()
	r.start()
	again, err := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{Id: "SPRING-1"})
	if err != nil || len(again.Standings) != 5 || again.Standings[0].Prize != 18000 || again.Standings[0].TerminalId != "T1" {
		t.Fatalf("the results after a restart: %v %v", again, err)
	}
	log, err := r.dealer.GetAuditLog(ctx, &pb.GetAuditLogRequest{Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, e := range log.Entries {
		if strings.HasPrefix(e.Kind, "tournament-") {
			kinds[e.Kind] = e.Actor
		}
	}
	if kinds["tournament-configured"] != "supervisor:S1" || kinds["tournament-opened"] != "supervisor:S1" ||
		kinds["tournament-finished"] != "dealer:D1" || kinds["tournament-settled"] == "" {
		t.Fatalf("audit: %v", kinds)
	}
}
