package server

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// 003 §9.12: "A casino supervisor may refuse, on reasonable grounds, any wager made by a player
// prior to the call of no more bets, and in so doing may cause the wager(s) to be removed from
// the layout." Over real gRPC: the dealer may not; the supervisor must give grounds and name
// wagers the slip holds; the refused wager leaves the slip (a newer version, which the seat's
// stream is told with the grounds and who refused it), the terminal's stale update is refused,
// the audit log records the supervisor, no refusal is taken after no more bets, and the round
// settles without the refused wager.
func TestRule003_9_12_SupervisorRefusesAWager(t *testing.T) {
	r := newRig(t)
	c := r.terminal("T1")
	w := r.watch(c)
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	if err := r.buyIn(c, "T1", "n", 10000); err != nil {
		t.Fatal(err)
	}
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	round := st.RoundId
	ack, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1,
		Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_RED, Amount: 500}, straight("17", 100), straight("5", 200)}})
	if err != nil || ack.Slip.Total != 800 {
		t.Fatalf("the player's slip: %v %v", ack, err)
	}
	refuse := func(d pb.DealerServiceClient, reason string, all bool, idx ...uint32) (*pb.RefuseWagerResponse, error) {
		return d.RefuseWager(ctx, &pb.RefuseWagerRequest{TerminalId: "T1", RoundId: round, Reason: reason, All: all, Indexes: idx})
	}
	if _, err := refuse(r.dealer, "late", false, 1); code(err) != codes.PermissionDenied {
		t.Fatalf("the dealer refused a wager: %v, want PermissionDenied (the supervisor's alone)", err)
	}
	for name, bad := range map[string]*pb.RefuseWagerRequest{
		"no grounds":        {TerminalId: "T1", RoundId: round, Indexes: []uint32{1}},
		"no wager named":    {TerminalId: "T1", RoundId: round, Reason: "late"},
		"indexes and all":   {TerminalId: "T1", RoundId: round, Reason: "late", Indexes: []uint32{1}, All: true},
		"twice the same":    {TerminalId: "T1", RoundId: round, Reason: "late", Indexes: []uint32{1, 1}},
		"beyond the slip":   {TerminalId: "T1", RoundId: round, Reason: "late", Indexes: []uint32{3}},
		"control in reason": {TerminalId: "T1", RoundId: round, Reason: "late\n", Indexes: []uint32{1}},
	} {
		if _, err := r.super.RefuseWager(ctx, bad); code(err) != codes.InvalidArgument {
			t.Errorf("%s: %v, want InvalidArgument", name, err)
		}
	}
	if _, err := r.super.RefuseWager(ctx, &pb.RefuseWagerRequest{TerminalId: "T9", RoundId: round, Reason: "x", All: true}); code(err) != codes.NotFound {
		t.Errorf("an unknown seat: %v", err)
	}
	res, err := refuse(r.super, "past-posting suspected", false, 1)
	if err != nil || res.Refused != 100 || res.Slip.Total != 700 || res.Slip.Version != 2 || len(res.Slip.Wagers) != 2 ||
		res.Slip.Wagers[0].Kind != pb.BetKind_BET_KIND_RED || res.Slip.Wagers[1].Numbers[0] != "5" {
		t.Fatalf("refusing the straight on 17: %v %v", res, err)
	}
	ev := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetWagerRefused() != nil }).GetWagerRefused()
	if ev.Reason != "past-posting suspected" || ev.By != "supervisor:S1" || ev.Slip.Version != 2 || ev.Slip.Total != 700 ||
		len(ev.Refused) != 1 || ev.Refused[0].Numbers[0] != "17" {
		t.Fatalf("the seat was told %v", ev)
	}
	// The terminal's update sent before it heard is stale: the table's slip stands.
	if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 2,
		Wagers: []*pb.Wager{{Kind: pb.BetKind_BET_KIND_RED, Amount: 500}, straight("17", 100), straight("5", 200)}}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a stale update putting the refused wager back: %v", err)
	}
	if s, _ := r.table.Status(); s.Terminals[0].SlipTotal != 700 {
		t.Fatalf("slip total %d after the refusal, want 700", s.Terminals[0].SlipTotal)
	}
	log, err := r.super.GetAuditLog(ctx, &pb.GetAuditLogRequest{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range log.Entries {
		if e.Kind == "wager-refused" {
			found = true
			if e.Actor != "supervisor:S1" || e.TerminalId != "T1" || e.RoundId != round || e.Amount != 100 ||
				!strings.Contains(e.Detail, "past-posting suspected") || !strings.Contains(e.Detail, `"17"`) {
				t.Errorf("audit entry %v", e)
			}
		}
	}
	if !found {
		t.Fatal("the refusal is not in the audit log")
	}
	// After no more bets the slip is what settles: no refusal.
	r.clock.Add(21 * time.Second)
	r.table.Advance(r.clock.Now())
	if _, err := refuse(r.super, "too late", true); code(err) != codes.FailedPrecondition {
		t.Fatalf("a refusal after no more bets: %v, want FailedPrecondition", err)
	}
	// 17 wins: the refused straight pays nothing; red and 5 lose. 100.00 - 7.00.
	if _, err := r.dealer.EnterOutcome(ctx, &pb.EnterOutcomeRequest{RoundId: round, Number: "17"}); err != nil {
		t.Fatal(err)
	}
	s, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil || s.Balances != 10000-700 {
		t.Fatalf("after the settlement: balances %d, want %d (%v)", s.GetBalances(), 10000-700, err)
	}
	r.conserved()
}

// Refusing all: every wager leaves the slip, the dealer's placed ones too, and the seat can
// place again afterwards with a newer version.
func TestRule003_9_12_SupervisorRefusesAll(t *testing.T) {
	r := newRig(t)
	c, round := openRound(t, r, "T1", 10000)
	if _, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 1, Wagers: []*pb.Wager{straight("17", 100), straight("5", 200)}}); err != nil {
		t.Fatal(err)
	}
	res, err := r.super.RefuseWager(ctx, &pb.RefuseWagerRequest{TerminalId: "T1", RoundId: round, Reason: "collusion suspected", All: true})
	if err != nil || res.Refused != 300 || res.Slip.Total != 0 || len(res.Slip.Wagers) != 0 || res.Slip.Version != 2 {
		t.Fatalf("refusing all: %v %v", res, err)
	}
	if _, err := r.super.RefuseWager(ctx, &pb.RefuseWagerRequest{TerminalId: "T1", RoundId: round, Reason: "again", All: true}); code(err) != codes.FailedPrecondition {
		t.Fatalf("refusing an empty slip: %v", err)
	}
	ack, err := c.UpdateSlip(ctx, &pb.UpdateSlipRequest{RoundId: round, Version: 3, Wagers: []*pb.Wager{straight("8", 100)}})
	if err != nil || ack.Slip.Total != 100 {
		t.Fatalf("a new wager after the refusal: %v %v", ack, err)
	}
}
