package server

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/table"
)

// Issue 34, attack 4: on a table with a 100.00 maximum balance one terminal put three 70.00
// tickets on hold at once (each accepted while its balance was 0) and committed all three:
// 210.00. A terminal's acceptor has one ticket in escrow at a time, and its balance plus what
// it holds never exceeds the maximum.

// capTable is a table whose maximum balance is 100.00.
func capTable(c *Config) { c.MaxBalance = 10000 }

// holdRefused checks a RedeemTicket was refused as final with the reason that begins why.
func holdRefused(t *testing.T, what string, err error, why string) {
	t.Helper()
	if code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), why) {
		t.Fatalf("%s: %v, want FailedPrecondition %q", what, err, why)
	}
}

func TestThreeTicketHoldsCannotTakeABalancePastTheMaximum(t *testing.T) {
	bothStoresWith(t, capTable, testThreeTicketHoldsCannotTakeABalancePastTheMaximum)
}

func testThreeTicketHoldsCannotTakeABalancePastTheMaximum(t *testing.T, r *rig) {
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	var vns []string
	for _, id := range []string{"T2", "T3", "T4"} {
		vns = append(vns, printedTicket(t, r.terminal(id), "t-"+id, 7000))
	}
	t1 := r.terminal("T1")
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h0", ValidationNumber: vns[0]}); err != nil {
		t.Fatalf("the first ticket: %v", err)
	}
	// The attack: two more tickets while the first is still in the acceptor's escrow.
	for i, vn := range vns[1:] {
		_, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h" + vn, ValidationNumber: vn})
		holdRefused(t, "a second ticket while one is held", err, table.TicketAlreadyInEscrow)
		if _, err := t1.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c" + vn, ValidationNumber: vn}); err == nil {
			t.Fatalf("ticket %d, never held, was committed", i+2)
		}
	}
	// The same ticket asked again (a retry with a new key) is no second ticket.
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h0-again", ValidationNumber: vns[0]}); err != nil {
		t.Fatalf("the held ticket asked for again: %v", err)
	}
	if res, err := t1.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c0", ValidationNumber: vns[0]}); err != nil || res.Balance != 7000 {
		t.Fatalf("commit of the held ticket: %v %v", res, err)
	}
	// With 70.00 on the account the next 70.00 ticket would make 140.00.
	_, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h1-after", ValidationNumber: vns[1]})
	holdRefused(t, "a ticket above the maximum", err, table.TicketAboveMaximum)
	for i, vn := range vns[1:] {
		if _, err := t1.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c2" + vn, ValidationNumber: vn}); err == nil {
			t.Fatalf("ticket %d, never held, was committed", i+2)
		}
	}
	if b := r.balance("T1"); b != 7000 {
		t.Fatalf("balance %d, want 70.00 (the maximum is 100.00)", b)
	}
	// The refused tickets are still their bearer's money: another terminal takes one.
	if res, err := r.terminal("T5").RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h", ValidationNumber: vns[1]}); err != nil || res.Amount != 7000 {
		t.Fatalf("a refused ticket at another terminal: %v %v", res, err)
	}
	r.conserved()
}

// A hold the dealer released is still the former holder's to commit (its acceptor may have
// stacked the ticket), so it still counts against that terminal's maximum.
func TestAReleasedTicketHoldStillCountsTowardTheMaximum(t *testing.T) {
	bothStoresWith(t, capTable, testAReleasedTicketHoldStillCountsTowardTheMaximum)
}

func testAReleasedTicketHoldStillCountsTowardTheMaximum(t *testing.T, r *rig) {
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	big := printedTicket(t, r.terminal("T2"), "big", 7000)
	mid := printedTicket(t, r.terminal("T3"), "mid", 4000)
	small := printedTicket(t, r.terminal("T4"), "small", 2000)
	t1 := r.terminal("T1")
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h-big", ValidationNumber: big}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.ReleaseTicketHold(ctx, &pb.ReleaseTicketHoldRequest{IdempotencyKey: "rel", ValidationNumber: big, Reason: "acceptor jammed"}); err != nil {
		t.Fatal(err)
	}
	// 70.00 T1 may still commit and 40.00 more would be 110.00.
	_, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h-mid", ValidationNumber: mid})
	holdRefused(t, "a ticket above the maximum with a released hold", err, table.TicketAboveMaximum)
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "h-small", ValidationNumber: small}); err != nil {
		t.Fatalf("20.00 more fits (90.00): %v", err)
	}
	for _, vn := range []string{small, big, mid} {
		t1.CommitRedeem(ctx, &pb.TicketRequest{IdempotencyKey: "c-" + vn, ValidationNumber: vn})
	}
	if b := r.balance("T1"); b != 9000 {
		t.Fatalf("balance %d, want 90.00 (the maximum is 100.00)", b)
	}
	r.conserved()
}
