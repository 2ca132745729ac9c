package server

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// A cashier's shift closes with the count and sum of what that cashier paid since it opened —
// not another cashier's payments, not what was paid before — recorded and audited once; a
// retried open answers the open shift and a retried close the closed one.
func TestCashierShiftClosesWithWhatTheCashierPaid(t *testing.T) {
	bothStores(t, testCashierShiftClosesWithWhatTheCashierPaid)
}

func testCashierShiftClosesWithWhatTheCashierPaid(t *testing.T, r *rig) {
	t1 := r.terminal("T01")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	c1, c2 := r.cashier("cashier-1"), r.cashier("cashier-2")
	pay := func(c pb.CageServiceClient, key string, cents int64) {
		t.Helper()
		vn := printedTicket(t, t1, key, cents)
		if _, err := c.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: key}); err != nil {
			t.Fatal(err)
		}
	}
	pay(c1, "before", 1000) // paid before the shift: not the shift's

	if cur, err := c1.CurrentShift(ctx, &pb.CurrentShiftRequest{}); err != nil || cur.Open || cur.ShiftId != "" {
		t.Fatalf("no shift open yet: %v %v", cur, err)
	}
	r.clock.Add(time.Second)
	open, err := c1.OpenShift(ctx, &pb.OpenShiftRequest{})
	if err != nil || !open.Open || open.CashierId != "cashier-1" || open.Count != 0 || open.ViaTableId != "T1" {
		t.Fatalf("open: %v %v", open, err)
	}
	if again, err := c1.OpenShift(ctx, &pb.OpenShiftRequest{}); err != nil || again.ShiftId != open.ShiftId {
		t.Fatalf("a retried open: %v %v", again, err)
	}
	pay(c1, "a", 5000)
	pay(c2, "b", 2000) // another cashier's: not this shift's
	pay(c1, "c", 2000)
	if cur, err := c1.CurrentShift(ctx, &pb.CurrentShiftRequest{}); err != nil || !cur.Open || cur.Count != 2 || cur.Amount != 7000 {
		t.Fatalf("the shift so far: %v %v", cur, err)
	}
	if _, err := c2.CloseShift(ctx, &pb.CloseShiftRequest{ShiftId: open.ShiftId}); code(err) != codes.NotFound {
		t.Fatalf("another cashier closed the shift: %v", err)
	}
	closed, err := c1.CloseShift(ctx, &pb.CloseShiftRequest{ShiftId: open.ShiftId})
	if err != nil || closed.Open || closed.Count != 2 || closed.Amount != 7000 || closed.ClosedUnixNanos == 0 {
		t.Fatalf("close: %v %v", closed, err)
	}
	r.clock.Add(time.Second)
	pay(c1, "after", 1000) // after the close: not the shift's
	if again, err := c1.CloseShift(ctx, &pb.CloseShiftRequest{ShiftId: open.ShiftId}); err != nil || again.Count != 2 || again.Amount != 7000 ||
		again.ClosedUnixNanos != closed.ClosedUnixNanos {
		t.Fatalf("a retried close: %v %v", again, err)
	}
	if cur, err := c1.CurrentShift(ctx, &pb.CurrentShiftRequest{}); err != nil || cur.Open {
		t.Fatalf("after the close: %v %v", cur, err)
	}
	for kind, want := range map[string]string{"cage-shift-opened": open.ShiftId, "cage-shift-closed": "2 tickets paid, 70.00"} {
		evs, err := r.led.Events(ctx, kind, 10)
		if err != nil || len(evs) != 1 || evs[0].Actor != "cashier:cashier-1" || !strings.Contains(evs[0].Detail, want) {
			t.Fatalf("%s events: %+v %v", kind, evs, err)
		}
	}
	r.clock.Add(time.Second)
	next, err := c1.OpenShift(ctx, &pb.OpenShiftRequest{})
	if err != nil || next.ShiftId == open.ShiftId || next.Count != 0 || next.Amount != 0 {
		t.Fatalf("the next shift: %v %v", next, err)
	}
}

// Two open shifts of one cashier are refused by the ledger itself, whatever the code above it
// checks (two tables of a floor racing to open one).
func TestSecondOpenShiftRefusedByTheLedger(t *testing.T) {
	bothStores(t, func(t *testing.T, r *rig) {
		now := r.clock.Now()
		err := r.led.Update(ctx, now, func(tx *ledger.Tx) error {
			if err := tx.PutCageShift(ledger.CageShift{ID: "S1", Cashier: "cashier-1", Opened: now, ViaTable: "T1"}); err != nil {
				return err
			}
			return tx.PutCageShift(ledger.CageShift{ID: "S2", Cashier: "cashier-1", Opened: now, ViaTable: "T2"})
		})
		if err == nil {
			t.Fatal("a second open shift of cashier-1 was recorded")
		}
	})
}

// A shift is a cashier's: a dealer's or a supervisor's certificate cannot open or close one.
func TestShiftCallsAreCashiersOnly(t *testing.T) {
	r := newRig(t)
	for _, role := range []string{pki.RoleDealer, pki.RoleSupervisor, pki.RoleTechnician} {
		c := pb.NewCageServiceClient(r.dial(role, "x"))
		if _, err := c.OpenShift(ctx, &pb.OpenShiftRequest{}); code(err) != codes.PermissionDenied {
			t.Errorf("%s opened a shift: %v", role, err)
		}
		if _, err := c.CloseShift(ctx, &pb.CloseShiftRequest{ShiftId: "S1"}); code(err) != codes.PermissionDenied {
			t.Errorf("%s closed a shift: %v", role, err)
		}
	}
}
