package server

import (
	"testing"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// 004 §6.3(c), SPEC §5.2: a dealer buy-in is money in the chip account only once the player has
// confirmed it on the terminal: the dealer's offer alone credits nothing, a declined offer
// credits nothing, and an accepted one is credited exactly once.
func TestRule004_6_3c_DealerBuyInCreditedOnlyWhenConfirmed(t *testing.T) {
	r := newRig(t)
	term := r.terminal("T1")
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := term.ServerTime(ctx, &pb.ServerTimeRequest{}); err != nil {
		t.Fatal(err)
	}
	balance := func() int64 {
		t.Helper()
		st, err := r.table.Status()
		if err != nil {
			t.Fatal(err)
		}
		for _, ts := range st.Terminals {
			if ts.TerminalId == "T1" {
				return ts.Balance
			}
		}
		return 0
	}
	offer := func(key string) string {
		t.Helper()
		b, err := r.dealer.CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: key, TerminalId: "T1", Amount: 5000})
		if err != nil {
			t.Fatal(err)
		}
		return b.BuyInId
	}
	declined := offer("offer-1")
	if got := balance(); got != 0 {
		t.Fatalf("the dealer's offer alone credited %d", got)
	}
	res, err := term.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: "answer-1", BuyInId: declined, Accept: false})
	if err != nil || res.Balance != 0 || balance() != 0 {
		t.Fatalf("declined: %v %v, balance %d; want nothing credited", res, err, balance())
	}
	accepted := offer("offer-2")
	res, err = term.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: "answer-2", BuyInId: accepted, Accept: true})
	if err != nil || res.Balance != 5000 || balance() != 5000 {
		t.Fatalf("accepted: %v %v, balance %d; want 50.00", res, err, balance())
	}
	for _, id := range []string{accepted, declined} {
		if _, err := term.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: "again-" + id, BuyInId: id, Accept: true}); err == nil {
			t.Errorf("buy-in %s answered twice", id)
		}
	}
	if got := balance(); got != 5000 {
		t.Fatalf("after answering again: balance %d, want 50.00 once", got)
	}
	r.conserved()
}
