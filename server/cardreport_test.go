package server

import (
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
	"github.com/tablegames/ats/server/precommit"
)

// Issue 31 (records and reports): the supervisor's carded play report lists, over a window,
// the card that reached its loss limit, the break enforced on another (once: the refusals
// during it are counted, not listed), and the card barred at the cage, each with its table
// and who did it; a card filter and an empty window work; the dealer may not read it.
func TestSPEC10_CardReportListsLimitsReachedBreaksAndBars(t *testing.T) {
	cfg := func(c *Config) {
		c.Carded, c.Period = true, 2*time.Hour
		c.Precommit = precommit.Settings{BreakAfter: time.Hour, Break: 15 * time.Minute}
	}
	bothStoresWith(t, cfg, func(t *testing.T, r *rig) {
		start := r.clock.Now()
		r.registerCard(t, "C42", limit100)
		r.registerCard(t, "C43", precommit.Limits{Loss: 100000, Time: 10 * time.Hour, Bar: precommit.BarDay})
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 10000, "C42"); err != nil {
			t.Fatal(err)
		}
		r.clock.Add(2 * time.Hour) // the wagering period's end
		r.finish(t, round, "2")    // C42 loses its limit
		c2 := r.terminal("T2")
		if err := r.buyIn(c2, "T2", "n2", 50000); err != nil {
			t.Fatal(err)
		}
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for v := uint64(1); v <= 6; v++ { // a slip every 10 minutes: an hour of continuous play
			if _, err := redSlip(c2, st.RoundId, v, int64(v)*100, "C43"); err != nil {
				t.Fatal(err)
			}
			r.clock.Add(10 * time.Minute)
		}
		refusedSaying(t, errOf(redSlip(c2, st.RoundId, 7, 900, "C43")), "without a break")
		refusedSaying(t, errOf(redSlip(c2, st.RoundId, 8, 900, "C43")), "Time for a break")
		if _, err := r.cashier("K1").RegisterCard(ctx, &pb.RegisterCardRequest{CardId: "C44", Holder: holderJane}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.cashier("K1").ReportCard(ctx, &pb.ReportCardRequest{CardId: "C44", State: "barred", Reason: "self-exclusion"}); err != nil {
			t.Fatal(err)
		}
		rep, err := r.super.CardReport(ctx, &pb.CardReportRequest{FromUnixNanos: start.UnixNano()})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range rep.Entries {
			got = append(got, e.CardId+" "+e.What+" by "+e.Actor)
		}
		want := []string{"C42 loss limit reached by dealer:D1", "C43 break by terminal:T2", "C44 barred at the cage by cashier:K1"}
		if len(got) != len(want) {
			t.Fatalf("entries %q, want %q", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("entries %q, want %q", got, want)
			}
		}
		figures := map[string]*pb.CardReportCard{}
		for _, c := range rep.Cards {
			figures[c.CardId] = c
		}
		if c := figures["C42"]; c == nil || c.LimitsReached != 1 {
			t.Fatalf("C42: %v", c)
		}
		if c := figures["C43"]; c == nil || c.Breaks != 1 || c.Refusals != 2 {
			t.Fatalf("C43: %v", c)
		}
		if c := figures["C44"]; c == nil || c.Bars != 1 {
			t.Fatalf("C44: %v", c)
		}
		one, err := r.super.CardReport(ctx, &pb.CardReportRequest{CardId: "C43"})
		if err != nil || len(one.Entries) != 1 || len(one.Cards) != 1 {
			t.Fatalf("one card: %v %v", one, err)
		}
		none, err := r.super.CardReport(ctx, &pb.CardReportRequest{FromUnixNanos: r.clock.Now().Add(time.Hour).UnixNano()})
		if err != nil || len(none.Entries) != 0 {
			t.Fatalf("an empty window: %v %v", none, err)
		}
		if _, err := pb.NewDealerServiceClient(r.dial(pki.RoleDealer, "D1")).CardReport(ctx, &pb.CardReportRequest{}); code(err) != codes.PermissionDenied {
			t.Fatalf("the dealer's report: %v", err)
		}
	})
}

// The report is floor-wide: a limit reached at T2 is listed by a supervisor asking T1.
func TestSPEC10_CardReportIsFloorWide(t *testing.T) {
	rs := floorRigs(t, 2, cardedTable)
	rs[0].registerCard(t, "C7", limit100)
	c := rs[1].terminal("T01")
	if err := rs[1].buyIn(c, "T01", "b", 50000); err != nil {
		t.Fatal(err)
	}
	st, err := rs[1].dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := redSlip(c, st.RoundId, 1, 10000, "C7"); err != nil {
		t.Fatal(err)
	}
	rs[1].finish(t, st.RoundId, "2")
	rep, err := rs[0].super.CardReport(ctx, &pb.CardReportRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Entries) != 1 || rep.Entries[0].TableId != "T2" || rep.Entries[0].What != "loss limit reached" {
		t.Fatalf("T1's report of T2's limit: %v", rep.Entries)
	}
}
