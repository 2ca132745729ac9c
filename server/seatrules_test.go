package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// TestClosureOverTheConsole_001_12_7: the closure through the console's gRPC service, on the
// table's own clock. Only the pit boss (supervisor) may announce it; less than 20 minutes ahead
// is refused; every watching terminal is told the time; when it comes no new round starts, and
// the table closes on its clock, telling the terminals the sign is down and the table closed.
func TestClosureOverTheConsole_001_12_7(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T1")
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	if _, err := creditNotes(ctx, t1, "n", 10000); err != nil {
		t.Fatal(err)
	}
	w := r.watch(t1)
	at := r.clock.Now().Add(ClosureNotice)
	if _, err := r.dealer.ScheduleClose(ctx, &pb.ScheduleCloseRequest{CloseAtUnixNanos: at.UnixNano()}); code(err) != codes.PermissionDenied {
		t.Fatalf("the dealer announcing a closure: %v, want PermissionDenied", err)
	}
	if _, err := r.super.ScheduleClose(ctx, &pb.ScheduleCloseRequest{CloseAtUnixNanos: at.Add(-time.Second).UnixNano()}); code(err) != codes.InvalidArgument {
		t.Fatalf("19:59 ahead: %v, want InvalidArgument", err)
	}
	if _, err := r.super.ScheduleClose(ctx, &pb.ScheduleCloseRequest{}); code(err) != codes.InvalidArgument {
		t.Fatalf("no time: %v, want InvalidArgument", err)
	}
	st, err := r.super.ScheduleClose(ctx, &pb.ScheduleCloseRequest{CloseAtUnixNanos: at.UnixNano()})
	if err != nil || st.ClosingAtUnixNanos != at.UnixNano() {
		t.Fatalf("announcing 20 minutes ahead: %v %v", st, err)
	}
	ev := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetClosing() != nil }).GetClosing()
	if ev.CloseAtUnixNanos != at.UnixNano() {
		t.Fatalf("the terminal was told %d, want %d", ev.CloseAtUnixNanos, at.UnixNano())
	}
	if _, err := r.dealer.CloseTable(ctx, &pb.CloseTableRequest{}); code(err) != codes.FailedPrecondition {
		t.Fatalf("closing early with a player present: %v", err)
	}
	// A terminal that connects now reads it from its snapshot.
	t2 := r.terminal("T2")
	w2 := r.watch(t2)
	w2.cancel()

	r.clock.Add(ClosureNotice)
	if _, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{}); code(err) != codes.FailedPrecondition {
		t.Fatalf("a round at the announced time: %v", err)
	}
	r.table.Advance(r.clock.Now())
	if ev := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetClosing() != nil }).GetClosing(); ev.CloseAtUnixNanos != 0 {
		t.Fatalf("the sign not taken down: %v", ev)
	}
	if ph := w.until(t, func(ev *pb.TableEvent) bool { return ev.GetPhase() != nil }).GetPhase(); ph.Phase != pb.Phase_PHASE_CLOSED {
		t.Fatalf("phase after the closure: %v", ph)
	}
	st, err = r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil || st.Phase != pb.Phase_PHASE_CLOSED || st.ClosingAtUnixNanos != 0 || st.Balances != 10000 {
		t.Fatalf("status after the closure: %v %v", st, err)
	}
	log, err := r.table.AuditLog(50)
	if err != nil {
		t.Fatal(err)
	}
	var announced, closed bool
	for _, e := range log {
		announced = announced || (e.Kind == "closure-announced" && e.Actor == "supervisor:S1")
		closed = closed || e.Kind == "table-closed"
	}
	if !announced || !closed {
		t.Fatalf("audit log: announced by the supervisor %v, closed %v", announced, closed)
	}
	r.conserved()
}

// TestSnapshotCarriesTheClosure: a terminal that connects after the announcement is told the
// time in its first snapshot.
func TestSnapshotCarriesTheClosure(t *testing.T) {
	r := newRig(t)
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	at := r.clock.Now().Add(30 * time.Minute)
	if _, err := r.super.ScheduleClose(ctx, &pb.ScheduleCloseRequest{CloseAtUnixNanos: at.UnixNano()}); err != nil {
		t.Fatal(err)
	}
	ctx2, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := r.terminal("T3").Watch(ctx2, &pb.WatchRequest{})
	if err != nil {
		t.Fatal(err)
	}
	first, err := stream.Recv()
	if err != nil || first.GetSnapshot().GetClosingAtUnixNanos() != at.UnixNano() {
		t.Fatalf("first snapshot: %v %v", first, err)
	}
}

// TestRedLightSurvivesARestart_000_10_9_2: the light the dispute button turned red stays red
// across a restart of the table server until the supervisor clears it; the dealer cannot clear
// it; the auto-dealer does not deal while it is red.
func TestRedLightSurvivesARestart_000_10_9_2(t *testing.T) {
	r := newRig(t)
	r.dealer.OpenTable(ctx, &pb.OpenTableRequest{})
	st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.Dispute(ctx, &pb.DisputeRequest{RoundId: st.RoundId, Note: "foreign object"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.dealer.Dispute(ctx, &pb.DisputeRequest{RoundId: st.RoundId, Note: string(make([]byte, 501))}); code(err) != codes.InvalidArgument {
		t.Fatalf("an oversized note: %v", err)
	}
	r.shutdown()
	r.start()
	st, err = r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	if err != nil || !st.RedLight || !strings.Contains(st.Fault, "foreign object") {
		t.Fatalf("after a restart: red %v fault %q %v", st.GetRedLight(), st.GetFault(), err)
	}
	if _, err := r.dealer.ClearFault(ctx, &pb.ClearFaultRequest{Note: "x"}); code(err) != codes.PermissionDenied {
		t.Fatalf("the dealer clearing the fault: %v", err)
	}
	// The auto-dealer waits while the light is red.
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{AutoDealer: true}); err != nil {
		t.Fatal(err)
	}
	before, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{})
	r.clock.Add(time.Minute)
	r.table.Advance(r.clock.Now())
	if after, _ := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{}); after.RoundId != before.RoundId {
		t.Fatalf("the auto-dealer dealt %s while the light was red", after.RoundId)
	}
	if _, err := r.super.ClearFault(ctx, &pb.ClearFaultRequest{Note: "object removed"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.super.ClearFault(ctx, &pb.ClearFaultRequest{}); code(err) != codes.FailedPrecondition {
		t.Fatalf("clearing a green light: %v", err)
	}
	r.shutdown()
	r.start()
	if st, err := r.dealer.GetStatus(ctx, &pb.GetStatusRequest{}); err != nil || st.RedLight {
		t.Fatalf("after the clear and a restart: %v %v", st, err)
	}
}

// FuzzTableSeatRequests drives the closure, dispute, clear, vacate and player-call requests (the
// ones item 12 added) with any time, note, round and seat, in any order (op picks the call), with time
// moving: never a panic, every refusal InvalidArgument, FailedPrecondition or NotFound, a
// closure never announced less than 20 minutes ahead, and the books always conserve.
func FuzzTableSeatRequests(f *testing.F) {
	f.Add(uint8(0), int64(20*60), "", "T1")
	f.Add(uint8(0), int64(60), "", "T1")
	f.Add(uint8(1), int64(0), "ball out", "")
	f.Add(uint8(2), int64(0), "fixed", "")
	f.Add(uint8(3), int64(0), "", "T1")
	f.Add(uint8(4), int64(0), "", "\xff")
	f.Add(uint8(5), int64(-1), "", "")
	f.Add(uint8(6), int64(0), "wrong result", "T1")
	f.Add(uint8(6), int64(0), "\xff", "T1")
	tbl, clock, _ := fuzzTable(f)
	ok := map[codes.Code]bool{codes.OK: true, codes.InvalidArgument: true, codes.FailedPrecondition: true, codes.NotFound: true}
	f.Fuzz(func(t *testing.T, op uint8, secs int64, note, seat string) {
		now := clock.Now()
		var err error
		switch op % 7 {
		case 0:
			at := now.Add(time.Duration(max(min(secs, 1<<31), -(1<<31))) * time.Second)
			var st *pb.TableStatus
			st, err = tbl.ScheduleClose("supervisor:S1", at, false)
			if err == nil && time.Unix(0, st.ClosingAtUnixNanos).Before(now.Add(ClosureNotice)) {
				t.Fatalf("a closure announced for %v at %v", time.Unix(0, st.ClosingAtUnixNanos), now)
			}
		case 1:
			st, _ := tbl.Status()
			round := st.RoundId
			if seat != "" {
				round = seat
			}
			_, err = tbl.Dispute("dealer:D1", round, note)
		case 2:
			_, err = tbl.ClearFault("supervisor:S1", note)
		case 3:
			_, err = tbl.ClosePlayerAccount("dealer:D1", &pb.ClosePlayerAccountRequest{IdempotencyKey: note + "/v", TerminalId: seat, Reason: ReasonVacated})
		case 4:
			_, err = tbl.ScheduleClose("supervisor:S1", time.Time{}, true)
		case 6:
			_, err = tbl.CallDealer(seat, note)
		case 5:
			clock.Add(time.Duration(min(max(secs, 0), 3600)) * time.Second)
			tbl.Advance(clock.Now())
			if _, serr := tbl.StartRound("dealer:D1"); serr != nil && !ok[status.Code(serr)] {
				t.Fatalf("start: %v", serr)
			}
		}
		if err != nil && !ok[status.Code(err)] {
			t.Fatalf("op %d %d %q %q: %v", op%7, secs, note, seat, err)
		}
		checkBooks(t, tbl)
	})
}

// TestPlayerCallsTheDealer_001_9_5: the player's call from the screen (001 §9.5, 000 §10.9.4)
// raises an alarm on the dealer console, in the audit log with the terminal as its actor; a
// second press within a minute raises nothing new; a malformed reason is refused; only a
// terminal may call it.
func TestPlayerCallsTheDealer_001_9_5(t *testing.T) {
	r := newRig(t)
	t1 := r.terminal("T1")
	res, err := t1.CallDealer(ctx, &pb.CallDealerRequest{Reason: "the screen shows 17, the wheel 18"})
	if err != nil || res.Repeated {
		t.Fatalf("the call: %v %v", res, err)
	}
	alarms, err := r.dealer.ListAlarms(ctx, &pb.ListAlarmsRequest{})
	if err != nil || len(alarms.Alarms) != 1 || alarms.Alarms[0].Kind != AlarmPlayerCall || alarms.Alarms[0].TerminalId != "T1" ||
		!strings.Contains(alarms.Alarms[0].Detail, "the wheel 18") {
		t.Fatalf("the dealer's alarms: %v %v", alarms, err)
	}
	if res, err := t1.CallDealer(ctx, &pb.CallDealerRequest{}); err != nil || !res.Repeated {
		t.Fatalf("a second press: %v %v", res, err)
	}
	r.clock.Add(61 * time.Second)
	if res, err := t1.CallDealer(ctx, &pb.CallDealerRequest{}); err != nil || res.Repeated {
		t.Fatalf("a call a minute later: %v %v", res, err)
	}
	if alarms, _ := r.dealer.ListAlarms(ctx, &pb.ListAlarmsRequest{}); len(alarms.GetAlarms()) != 2 {
		t.Fatalf("alarms after two calls a minute apart: %v", alarms)
	}
	for _, bad := range []string{strings.Repeat("x", 201), "nul\x00", "two\nlines"} {
		if _, err := t1.CallDealer(ctx, &pb.CallDealerRequest{Reason: bad}); code(err) != codes.InvalidArgument {
			t.Errorf("reason %q: %v", bad, err)
		}
	}
	if _, err := pb.NewTerminalServiceClient(r.dial("dealer", "D2")).CallDealer(ctx, &pb.CallDealerRequest{}); code(err) != codes.PermissionDenied {
		t.Fatalf("a dealer certificate calling as a player: %v", err)
	}
	log, err := r.table.AuditLog(20)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range log {
		found = found || (e.Kind == "alarm" && e.Actor == "terminal:T1")
	}
	if !found {
		t.Fatal("the call is not in the audit log with the terminal as actor")
	}
}
