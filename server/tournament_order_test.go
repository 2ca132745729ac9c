package server

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// TestRule003_10_9_OrderOfWagering plays a tournament whose terms provide an order of wagering
// through the real server over gRPC. Four players T1–T4 (seat order, so "to the left" of T1 is
// T2, …, of T4 is T1), 1000 chips each, minimums 100, 100, 200, one pass card each. Worked by
// hand (17 is black, odd, low):
//
//	round 1, marker T1: T2 out of turn → refused (§10.9.4); T1 red 50 → refused (below the
//	        minimum: a wager in turn is final); T1 red 200 → taken, turn T2; T1 again → refused
//	        (§10.9.5); T2 empty slip → a pass; T3 black 100 → taken, turn T4; T4 never wagers.
//	        17: T1 800, T2 1000 (pass card used), T3 1100, T4 1000 (had the turn and did not
//	        wager: pass card used, 003 §10.6.4/§10.7). The marker moves to T2.
//	round 2, marker T2: T2 black 100 → turn T3; T3 never wagers; the server restarts between
//	        the deadline and the outcome (settled from the ledger). 17: T2 1100; T3 1100 (pass
//	        card used); T4 and T1 "not reached": no penalty, T4 still playing though it has no
//	        pass card, T1 keeps its pass card. The marker moves to T3.
//	round 3, marker T3 (min 200): T3 never wagers and has no pass card → disqualified; T4, T1,
//	        T2 not reached. Final: 1. T2 1100, 2. T4 1000, 3. T1 800; T3 disqualified.
func TestRule003_10_9_OrderOfWagering(t *testing.T) {
	r := newRig(t)
	ids := []string{"T1", "T2", "T3", "T4"}
	terms := map[string]pb.TerminalServiceClient{}
	var w *watcher
	var watchers []*watcher
	connect := func() {
		for _, id := range ids { // a terminal becomes known when it first connects
			terms[id] = r.terminal(id)
			ww := r.watch(terms[id])
			watchers = append(watchers, ww)
			if id == "T4" {
				w = ww
			}
		}
	}
	connect()
	defer func() {
		for _, ww := range watchers {
			ww.cancel()
		}
	}()
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	ts := springTerms()
	ts.Id, ts.OrderOfWagering, ts.MinPlayers = "ORDER-1", true, 2
	if _, err := r.super.ConfigureTournament(ctx, &pb.ConfigureTournamentRequest{Terms: ts}); err != nil {
		t.Fatal(err)
	}
	tr, err := r.super.OpenTournament(ctx, &pb.OpenTournamentRequest{TerminalIds: ids})
	if err != nil || tr.Marker != "T1" || tr.Turn != "" || !tr.Terms.OrderOfWagering {
		t.Fatalf("opened: marker %q turn %q: %v", tr.GetMarker(), tr.GetTurn(), err)
	}
	var round string
	slip := func(id string, v uint64, ws ...*pb.Wager) error {
		_, err := terms[id].UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: v, Wagers: ws})
		return err
	}
	turnIs := func(want string) *pb.Tournament {
		t.Helper()
		return w.until(t, func(ev *pb.TableEvent) bool {
			tr := ev.GetTournament()
			return tr != nil && tr.RoundId == round && tr.Turn == want
		}).GetTournament()
	}
	start := func(marker string) {
		t.Helper()
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		round = st.RoundId
		if tr := turnIs(marker); tr.Marker != marker {
			t.Fatalf("round %s: marker %q, want %q", round, tr.Marker, marker)
		}
	}
	spin := func(n string, played int32, restart bool) *pb.Tournament {
		t.Helper()
		r.clock.Add(20 * time.Second)
		r.table.Advance(r.clock.Now())
		if restart {
			// The server restarts between the deadline and the outcome: the round's slips and
			// the marker come back from the ledger, and so does who was not reached.
			for _, ww := range watchers {
				ww.cancel()
			}
			watchers = nil
			r.shutdown()
			r.start()
			connect()
		}
		if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: n}); err != nil {
			t.Fatal(err)
		}
		tr, err := r.dealer.GetTournament(ctx, &pb.GetTournamentRequest{})
		if err != nil || tr.Played != played {
			t.Fatalf("after round %d: %v %v", played, tr, err)
		}
		return tr
	}
	want := func(tr *pb.Tournament, chips map[string]int64, passes map[string]int32) {
		t.Helper()
		for id, c := range chips {
			if s := standingOf(tr, id); s.Chips != c || s.PassesLeft != passes[id] {
				t.Errorf("round %d, %s: %d chips %d passes, want %d and %d", tr.Played, id, s.Chips, s.PassesLeft, c, passes[id])
			}
		}
	}

	// Round 1.
	start("T1")
	if err := slip("T2", 1, red(100)); code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "wait your turn: T1") {
		t.Fatalf("out of turn: %v", err)
	}
	if err := slip("T1", 1, red(50)); code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "below the round's minimum") {
		t.Fatalf("a final wager below the minimum: %v", err)
	}
	if err := slip("T1", 2, red(200)); err != nil {
		t.Fatal(err)
	}
	if tr := turnIs("T2"); !standingOf(tr, "T1").WageredInTurn || standingOf(tr, "T2").WageredInTurn {
		t.Fatalf("wagered in turn: %v", tr.Standings)
	}
	for _, ws := range [][]*pb.Wager{{red(300)}, nil} { // neither altered nor removed
		if err := slip("T1", 3, ws...); code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "may not be removed or altered") {
			t.Fatalf("altering a wager made in turn (%v): %v", ws, err)
		}
	}
	if err := slip("T2", 1); err != nil { // a pass, with a pass card
		t.Fatal(err)
	}
	turnIs("T3")
	if err := slip("T3", 1, black(100)); err != nil {
		t.Fatal(err)
	}
	turnIs("T4")
	after := spin("17", 1, false)
	want(after, map[string]int64{"T1": 800, "T2": 1000, "T3": 1100, "T4": 1000}, map[string]int32{"T1": 1, "T2": 0, "T3": 1, "T4": 0})
	if after.Marker != "T2" || after.Turn != "" {
		t.Fatalf("after round 1: marker %q turn %q", after.Marker, after.Turn)
	}

	// Round 2: T2 now has no pass card, so its empty slip would be refused; it wagers.
	start("T2")
	if err := slip("T2", 1); code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "no pass card") {
		t.Fatalf("a pass without a pass card: %v", err)
	}
	if err := slip("T2", 2, black(100)); err != nil {
		t.Fatal(err)
	}
	turnIs("T3")
	if err := slip("T4", 1, red(100)); code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "wait your turn: T3") {
		t.Fatalf("out of turn in round 2: %v", err)
	}
	after = spin("17", 2, true)
	want(after, map[string]int64{"T1": 800, "T2": 1100, "T3": 1100, "T4": 1000}, map[string]int32{"T1": 1, "T2": 0, "T3": 0, "T4": 0})
	for _, s := range after.Standings {
		if s.State != "playing" {
			t.Fatalf("after round 2 every player still plays (T4 and T1 were not reached): %v", s)
		}
	}
	results := map[string]string{}
	for _, p := range after.Rounds[1].Plays {
		results[p.TerminalId] = p.Result
		if p.TerminalId == "T3" && !p.Passed {
			t.Fatalf("T3 had the turn and did not wager: its pass card is played: %v", p)
		}
	}
	if results["T4"] != "not reached" || results["T1"] != "not reached" || results["T2"] != "" {
		t.Fatalf("round 2's record: %v", results)
	}
	if after.Marker != "T3" {
		t.Fatalf("marker after round 2: %q", after.Marker)
	}

	// Round 3: T3 has the marker and no pass card, and never wagers.
	start("T3")
	final := spin("17", 3, false)
	if final.Status != pb.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
		t.Fatalf("final: %v", final)
	}
	for id, rank := range map[string]int32{"T2": 1, "T4": 2, "T1": 3, "T3": 0} {
		if s := standingOf(final, id); s.Rank != rank {
			t.Errorf("%s: rank %d, want %d (%v)", id, s.Rank, rank, s)
		}
	}
	if s := standingOf(final, "T3"); s.State != "disqualified" {
		t.Fatalf("T3 had the turn, did not wager, no pass card: %v", s)
	}
}
