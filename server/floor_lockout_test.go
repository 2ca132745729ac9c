package server

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// Issue 33, point 3: a stolen cashier card locked out at T1 after five unknown numbers went
// on guessing at T2, whose alarms stayed empty. The count is the floor's: a cashier locked
// out at one table is locked out at every table, told how long and to call the supervisor,
// the alarm shows at every table's console, and an honest mistype before that is told
// "unknown number" (the same words whether or not a ticket was ever printed: no oracle).
func TestFloorCashierLockedOutAtOneTableIsLockedOutAtEvery(t *testing.T) {
	rs := floorRigs(t, 2)
	real := printedTicket(t, rs[0].terminal("T01"), "a", 5000)
	atT1, atT2 := rs[0].cashier("cashier-1"), rs[1].cashier("cashier-1")
	lookup := func(c pb.CageServiceClient, vn string) error {
		_, err := c.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
		return err
	}
	for i := range 5 {
		err := lookup(atT1, fmt.Sprintf("%018d", i))
		if v := refusal(t, err, codes.NotFound); v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_UNKNOWN || !strings.Contains(err.Error(), "unknown number") {
			t.Fatalf("mistype %d: %v", i, err)
		}
	}
	// The sixth at T1 is refused, saying for how long and whom to call.
	err := lookup(atT1, real)
	if code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "30s") || !strings.Contains(err.Error(), "call the supervisor") {
		t.Fatalf("after five unknown numbers at T1: %v", err)
	}
	// At T2, even a real ticket is refused, saying for how long and whom to call.
	err = lookup(atT2, real)
	if code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "30s") || !strings.Contains(err.Error(), "call the supervisor") {
		t.Fatalf("locked out at T1, looked up at T2: %v", err)
	}
	if _, err := atT2.PayTicket(ctx, &pb.PayTicketRequest{ValidationNumber: real, IdempotencyKey: "p"}); code(err) != codes.ResourceExhausted {
		t.Fatalf("locked out at T1, paid at T2: %v", err)
	}
	// Another cashier is not held up.
	if _, err := rs[1].cashier("cashier-2").LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: real}); err != nil {
		t.Fatalf("another cashier at T2: %v", err)
	}
	// The alarm is at both tables' consoles, naming the table that raised it.
	for i, r := range rs {
		as, err := r.super.ListAlarms(ctx, &pb.ListAlarmsRequest{})
		if err != nil || len(as.Alarms) != 1 || as.Alarms[0].Kind != AlarmTicketGuessing || as.Alarms[0].TerminalId != "cashier:cashier-1" ||
			as.Alarms[0].TableId != "T1" {
			t.Fatalf("T%d's alarms: %v %v", i+1, as, err)
		}
	}
	// After the cool-down the cashier may work again, at either table.
	for _, r := range rs {
		r.clock.Add(30 * time.Second)
	}
	if err := lookup(atT2, real); err != nil {
		t.Fatalf("after the cool-down: %v", err)
	}
}

// Guesses spread over the floor's tables count together: three at T1 and two at T2 lock the
// cashier out at both.
func TestFloorCashierGuessesAtTwoTablesCountTogether(t *testing.T) {
	rs := floorRigs(t, 2)
	for i := range 5 {
		c := rs[i%2].cashier("cashier-3")
		if _, err := c.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: fmt.Sprintf("%018d", i)}); code(err) != codes.NotFound {
			t.Fatalf("guess %d: %v", i, err)
		}
	}
	for i, r := range rs {
		if _, err := r.cashier("cashier-3").LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: "000000000000000099"}); code(err) != codes.ResourceExhausted {
			t.Fatalf("five guesses over two tables, then T%d: %v", i+1, err)
		}
	}
}

// A terminal's lockout is its own table's: T1's T01 locked out leaves T2's T01 (another
// cabinet with the same id) free.
func TestFloorTerminalLockoutIsItsTables(t *testing.T) {
	rs := floorRigs(t, 2)
	t1, t2 := rs[0].terminal("T01"), rs[1].terminal("T01")
	for i := range 5 {
		if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: fmt.Sprint("g", i), ValidationNumber: fmt.Sprintf("%018d", i)}); code(err) != codes.NotFound {
			t.Fatalf("guess %d: %v", i, err)
		}
	}
	if _, err := t1.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "g6", ValidationNumber: "000000000000000099"}); code(err) != codes.ResourceExhausted {
		t.Fatalf("T1's T01 not locked out: %v", err)
	}
	if _, err := t2.RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: "x", ValidationNumber: "000000000000000099"}); code(err) != codes.NotFound {
		t.Fatalf("T2's T01 locked out for T1's: %v", err)
	}
	as, err := rs[1].super.ListAlarms(ctx, &pb.ListAlarmsRequest{})
	if err != nil || len(as.Alarms) != 0 {
		t.Fatalf("T1's terminal's alarm shown at T2: %v %v", as, err)
	}
}

// Two tables counting one cashier's guesses at the same moment count every one: five unknown
// numbers typed at once at T1 and T2 lock the cashier out (a count read and written back by
// each table unlocked would lose some).
func TestFloorConcurrentGuessesAtTwoTablesAreAllCounted(t *testing.T) {
	rs := floorRigs(t, 2)
	cs := []pb.CageServiceClient{rs[0].cashier("cashier-4"), rs[1].cashier("cashier-4")}
	var wg sync.WaitGroup
	errs := make(chan error, 5)
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := cs[i%2].LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: fmt.Sprintf("%018d", 100+i)})
			if code(err) != codes.NotFound {
				errs <- fmt.Errorf("guess %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i, c := range cs {
		if _, err := c.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: "000000000000000099"}); code(err) != codes.ResourceExhausted {
			t.Fatalf("five guesses at once over two tables, then T%d: %v", i+1, err)
		}
	}
}

// The supervisor at T2 acknowledges the lockout alarm T1 raised; both tables' lists show who
// and when. A table's own alarm of another table is not T2's to see or acknowledge.
func TestFloorAlarmAcknowledgedAtAnyTable(t *testing.T) {
	rs := floorRigs(t, 2)
	for i := range 5 {
		if _, err := rs[0].cashier("cashier-1").LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: fmt.Sprintf("%018d", i)}); code(err) != codes.NotFound {
			t.Fatal(err)
		}
	}
	as, err := rs[1].super.ListAlarms(ctx, &pb.ListAlarmsRequest{})
	if err != nil || len(as.Alarms) != 1 || !strings.HasPrefix(as.Alarms[0].Id, "T1:") {
		t.Fatalf("T2's alarms: %v %v", as, err)
	}
	id := as.Alarms[0].Id
	if _, err := rs[1].dealer.AckAlarm(ctx, &pb.AckAlarmRequest{AlarmId: id}); code(err) != codes.PermissionDenied {
		t.Fatalf("a dealer acknowledged: %v", err)
	}
	a, err := rs[1].super.AckAlarm(ctx, &pb.AckAlarmRequest{AlarmId: id})
	if err != nil || a.AckedBy != "supervisor:S1" || a.AckedAtUnixNanos != rs[1].clock.Now().UnixNano() || a.TableId != "T1" {
		t.Fatalf("acknowledged at T2: %v %v", a, err)
	}
	for i, r := range rs {
		as, err := r.super.ListAlarms(ctx, &pb.ListAlarmsRequest{})
		if err != nil || len(as.Alarms) != 1 || as.Alarms[0].AckedBy != "supervisor:S1" {
			t.Fatalf("T%d's alarms after: %v %v", i+1, as, err)
		}
	}
	// T1's terminal's alarm (a table's own) is not shown at T2, nor acknowledged from there.
	for i := range 5 {
		if _, err := rs[0].terminal("T01").RedeemTicket(ctx, &pb.RedeemTicketRequest{IdempotencyKey: fmt.Sprint("g", i), ValidationNumber: fmt.Sprintf("%018d", 50+i)}); code(err) != codes.NotFound {
			t.Fatal(err)
		}
	}
	own, err := rs[0].super.ListAlarms(ctx, &pb.ListAlarmsRequest{})
	if err != nil || len(own.Alarms) != 2 || own.Alarms[0].TerminalId != "T01" {
		t.Fatalf("T1's alarms: %v %v", own, err)
	}
	if _, err := rs[1].super.AckAlarm(ctx, &pb.AckAlarmRequest{AlarmId: own.Alarms[0].Id}); code(err) != codes.NotFound {
		t.Fatalf("T2 acknowledged T1's own alarm: %v", err)
	}
	if own, err = rs[0].super.ListAlarms(ctx, &pb.ListAlarmsRequest{}); err != nil || own.Alarms[0].AckedBy != "" {
		t.Fatalf("T1's own alarm acknowledged from T2: %v %v", own, err)
	}
	// T1's newest alarm is its terminal's: T2's shortest list still shows the cashier's.
	if last, err := rs[1].super.ListAlarms(ctx, &pb.ListAlarmsRequest{Limit: 1}); err != nil || len(last.Alarms) != 1 || last.Alarms[0].Id != id {
		t.Fatalf("T2's newest alarm: %v %v", last, err)
	}
	if _, err := rs[1].super.AckAlarm(ctx, &pb.AckAlarmRequest{AlarmId: "T7:1"}); code(err) != codes.NotFound {
		t.Fatalf("an alarm of no table: %v", err)
	}
}
