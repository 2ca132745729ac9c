package server

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/precommit"
)

func isCardState(ev *pb.TableEvent) bool { return ev.GetCardState() != nil }

// firstSnapshot is the snapshot a new Watch stream of c opens with.
func firstSnapshot(t *testing.T, c pb.TerminalServiceClient) *pb.Snapshot {
	t.Helper()
	stream, err := c.Watch(ctx, &pb.WatchRequest{})
	if err != nil {
		t.Fatal(err)
	}
	first, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	return first.GetSnapshot()
}

// SPEC §10 (issue 31: real-time updates): the seat's card state is pushed on its stream after
// each settlement — the settled net loss, what is left of the loss limit, the session's result —
// and after each change, never polled; a new stream's snapshot carries it.
func TestSPEC10_CardStatePushedAfterSettlementAndInSnapshot(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "4242", limit100)
		c := r.terminal("T1")
		w := r.watch(c)
		if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
			t.Fatal(err)
		}
		if err := r.buyIn(c, "T1", "n", 50000); err != nil {
			t.Fatal(err)
		}
		st, err := c.PresentCard(ctx, &pb.PresentCardRequest{Card: "4242"})
		if err != nil {
			t.Fatal(err)
		}
		if st.Card != "4242" || st.NeedsLimits || st.LossLimit != 10000 || st.LossLeft != 10000 || st.Bar != pb.BarPeriod_BAR_PERIOD_DAY ||
			st.TimeLimitSeconds != 3*3600 || st.Refusal != "" || st.SessionStartUnixNanos == 0 {
			t.Fatalf("card presented: %v", st)
		}
		if ev := w.until(t, isCardState).GetCardState(); ev.Card != "4242" {
			t.Fatalf("presented card on the stream: %v", ev)
		}
		round, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := redSlip(c, round.RoundId, 1, 3000, "4242"); err != nil {
			t.Fatal(err)
		}
		r.finish(t, round.RoundId, "2") // black: 30.00 lost
		w.until(t, isSettled)
		got := w.until(t, isCardState).GetCardState()
		if got.NetLoss != 3000 || got.LossLeft != 7000 || got.SessionResult != -3000 || got.PeriodStartUnixNanos == 0 || got.TimeUpUnixNanos == 0 {
			t.Fatalf("after a 30.00 loss: %v", got)
		}
		round, err = r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := redSlip(c, round.RoundId, 1, 1000, "4242"); err != nil {
			t.Fatal(err)
		}
		r.finish(t, round.RoundId, "1") // red: 10.00 back and 10.00 won
		w.until(t, isSettled)
		got = w.until(t, isCardState).GetCardState()
		if got.NetLoss != 2000 || got.LossLeft != 8000 || got.SessionResult != -2000 {
			t.Fatalf("after a 10.00 win: %v", got)
		}
		if sc := firstSnapshot(t, r.terminal("T1")).GetCard(); sc.GetCard() != "4242" || sc.GetSessionResult() != -2000 || sc.GetLossLeft() != 8000 {
			t.Fatalf("a new stream's snapshot: %v", sc)
		}
	})
}

// SPEC §10 (issue 31: refused at the pad): a card in use at another seat, unregistered, lost or
// barred is refused when it is read, with its reason and words the player can read; the seat
// holds no card for it. Store trouble is not a card refusal.
func TestSPEC10_CardRefusedAtThePadWithItsReason(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		c1, c2 := r.terminal("T1"), r.terminal("T2")
		w2 := r.watch(c2)
		st, err := c1.PresentCard(ctx, &pb.PresentCardRequest{Card: "777"})
		if err != nil || st.Refusal != "unregistered" || st.State != "unregistered" || !strings.Contains(st.RefusalWords, "not registered") {
			t.Fatalf("an unregistered card: %v %v", st, err)
		}
		r.registerCard(t, "4242", limit100)
		if st, err := c1.PresentCard(ctx, &pb.PresentCardRequest{Card: "4242"}); err != nil || st.Refusal != "" || st.Card != "4242" {
			t.Fatalf("a registered card: %v %v", st, err)
		}
		st, err = c2.PresentCard(ctx, &pb.PresentCardRequest{Card: "4242"})
		if err != nil || st.Refusal != "in use" || !strings.Contains(st.RefusalWords, "in use at another seat") {
			t.Fatalf("the card at a second seat: %v %v", st, err)
		}
		if ev := w2.until(t, isCardState).GetCardState(); ev.Refusal != "in use" {
			t.Fatalf("the refusal on the second seat's stream: %v", ev)
		}
		for card, state := range map[string]precommit.State{"5001": precommit.Lost, "5002": precommit.Barred} {
			r.registerCard(t, card, limit100)
			if _, err := r.cards().Register(ctx, card, state, "cashier C1: reported", r.clock.Now()); err != nil {
				t.Fatal(err)
			}
			st, err := c2.PresentCard(ctx, &pb.PresentCardRequest{Card: card})
			if err != nil || st.Refusal != string(state) || st.State != string(state) {
				t.Fatalf("a %s card: %v %v", state, st, err)
			}
		}
		if _, err := c2.PresentCard(ctx, &pb.PresentCardRequest{Card: "12 ab;"}); code(err) != codes.InvalidArgument {
			t.Fatalf("a card number of spaces and semicolons: %v", err)
		}
		// The first seat still holds its card; the second holds none.
		if _, err := c2.SetCardLimits(ctx, &pb.SetCardLimitsRequest{LossLimit: 100, TimeLimitSeconds: 60, Bar: pb.BarPeriod_BAR_PERIOD_DAY}); code(err) != codes.FailedPrecondition {
			t.Fatalf("limits at a seat whose cards were all refused: %v", err)
		}
	})
}

// SPEC §10 (limits set before play): a registered card without limits is read at the seat with
// needs_limits; no wager until they are set; the player sets them at the terminal and plays;
// a looser limit waits for the cooling-off, a stricter one binds the next slip at once.
func TestSPEC10_FirstLimitsSetAtTheTerminalThenLooserWaitsStricterBinds(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		if _, err := r.cards().Register(ctx, "4242", precommit.Registered, "cashier C1: passport X1", r.clock.Now()); err != nil {
			t.Fatal(err)
		}
		c, round := openRound(t, r, "T1", 50000)
		st, err := c.PresentCard(ctx, &pb.PresentCardRequest{Card: "4242"})
		if err != nil || !st.NeedsLimits || st.Refusal != "no limits" {
			t.Fatalf("a card without limits: %v %v", st, err)
		}
		refusedSaying(t, errOf(redSlip(c, round, 1, 500, "4242")), "set your loss limit")
		for _, bad := range []*pb.SetCardLimitsRequest{
			{Card: "4242", LossLimit: 0, TimeLimitSeconds: 3600, Bar: pb.BarPeriod_BAR_PERIOD_DAY},
			{Card: "4242", LossLimit: 5000, TimeLimitSeconds: 0, Bar: pb.BarPeriod_BAR_PERIOD_DAY},
			{Card: "4242", LossLimit: 5000, TimeLimitSeconds: 3600},
			{Card: "4242", LossLimit: 5000, TimeLimitSeconds: 3600, Bar: 9},
		} {
			if _, err := c.SetCardLimits(ctx, bad); code(err) != codes.InvalidArgument {
				t.Fatalf("limits %v: %v", bad, err)
			}
		}
		if _, err := c.SetCardLimits(ctx, &pb.SetCardLimitsRequest{Card: "9999", LossLimit: 5000, TimeLimitSeconds: 3600, Bar: pb.BarPeriod_BAR_PERIOD_DAY}); code(err) != codes.FailedPrecondition {
			t.Fatalf("limits for a card not read at the seat: %v", err)
		}
		st, err = c.SetCardLimits(ctx, &pb.SetCardLimitsRequest{Card: "4242", LossLimit: 5000, TimeLimitSeconds: 3600, Bar: pb.BarPeriod_BAR_PERIOD_WEEK})
		if err != nil || st.NeedsLimits || st.LossLimit != 5000 || st.Bar != pb.BarPeriod_BAR_PERIOD_WEEK || st.Refusal != "" {
			t.Fatalf("first limits: %v %v", st, err)
		}
		if _, err := redSlip(c, round, 2, 4000, "4242"); err != nil {
			t.Fatalf("a wager under the limits just set: %v", err)
		}
		st, err = c.SetCardLimits(ctx, &pb.SetCardLimitsRequest{Card: "4242", LossLimit: 20000, TimeLimitSeconds: 3600, Bar: pb.BarPeriod_BAR_PERIOD_WEEK})
		if err != nil || st.LossLimit != 5000 || st.NextLossLimit != 20000 ||
			st.NextFromUnixNanos != r.clock.Now().Add(24*time.Hour).UnixNano() {
			t.Fatalf("a looser loss limit: %v %v", st, err)
		}
		refusedSaying(t, errOf(redSlip(c, round, 3, 6000, "4242")), "past your loss limit")
		if _, err := c.SetCardLimits(ctx, &pb.SetCardLimitsRequest{LossLimit: 4500, TimeLimitSeconds: 3600, Bar: pb.BarPeriod_BAR_PERIOD_WEEK}); err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c, round, 4, 4600, "4242")), "past your loss limit: A$45.00")
	})
}

// Issue 31 (the reality check): the player's acknowledgement is journalled with the card, the
// time played and the session's result; without a card held it is refused.
func TestSPEC10_RealityCheckAcknowledgedIsJournalled(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		r.registerCard(t, "4242", limit100)
		c := r.terminal("T1")
		if _, err := c.AckRealityCheck(ctx, &pb.AckRealityCheckRequest{Card: "4242"}); code(err) != codes.FailedPrecondition {
			t.Fatalf("a reality check with no card held: %v", err)
		}
		if _, err := c.PresentCard(ctx, &pb.PresentCardRequest{Card: "4242"}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AckRealityCheck(ctx, &pb.AckRealityCheckRequest{Card: "4242", ShownAtUnixNanos: r.clock.Now().UnixNano()}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(r.auditOf("precommit"), "\n"); !strings.Contains(got, "card 4242: reality check acknowledged at") {
			t.Fatalf("journal:\n%s", got)
		}
	})
}

// The table's config tells a carded terminal the reality check's interval (30 minutes by
// default) and the helpline; an uncarded table's says neither.
func TestSPEC10_ConfigCarriesRealityCheckAndHelpline(t *testing.T) {
	r := newRigWith(t, func(c *Config) { c.Carded, c.Helpline = true, "Gambler's Help 1800 858 858" })
	cfg := firstSnapshot(t, r.terminal("T1")).GetConfig()
	if !cfg.Carded || cfg.RealityCheckSeconds != 1800 || cfg.Helpline != "Gambler's Help 1800 858 858" {
		t.Fatalf("carded config: %v", cfg)
	}
	plain := newRig(t)
	if cfg := firstSnapshot(t, plain.terminal("T1")).GetConfig(); cfg.Carded || cfg.RealityCheckSeconds != 0 {
		t.Fatalf("uncarded config: %v", cfg)
	}
}
