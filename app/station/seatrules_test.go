package station_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
)

// Table and seat rules (issue 17, item 12), each through the real table server and a real
// station (its client over mutual TLS, its terminal, its devices).

// dealRound runs one round at the table as the dealer would: the period opens, the ball drops,
// the outcome is entered.
func (r *rig) dealRound(number string) {
	r.t.Helper()
	st, err := r.demo.Table.StartRound("dealer:test")
	if err != nil {
		r.t.Fatal(err)
	}
	r.waitView("the round open on the terminal", func(v app.View) bool { return v.RoundID == st.RoundId && v.Phase == table.PhaseWagering })
	r.endRound(st.RoundId, number)
}

// endRound ends the period of round and enters its outcome.
func (r *rig) endRound(round, number string) {
	r.t.Helper()
	if _, err := r.demo.Table.BallDropping("dealer:test", round); err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.demo.Table.EnterOutcome("dealer:test", round, number); err != nil {
		r.t.Fatal(err)
	}
	r.waitView("the result on the terminal", func(v app.View) bool { return v.RoundID == round && v.Phase == table.PhaseResult })
}

func (r *rig) auditLogHas(kind, actor string) bool {
	r.t.Helper()
	log, err := r.demo.Table.AuditLog(200)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, e := range log {
		if e.Kind == kind && e.Actor == actor {
			return true
		}
	}
	return false
}

// TestTableClosureNotice_001_12_7: a table with a player present closes only after the sign of
// its closure has been shown for 20 minutes (001 §12.7, 003 §9.9). Before: the dealer's close
// shut the table at once under a seated player, and no terminal ever showed a closure. Now the
// pit boss announces the time at the console, every terminal shows it with the minutes left,
// and the table closes by itself at that time, once the round in play has its result.
func TestTableClosureNotice_001_12_7(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	r.ready()
	r.buyIn(2000)

	if _, err := r.demo.Table.CloseTable("dealer:test"); code(err) != codes.FailedPrecondition {
		t.Fatalf("closing at once with a player present: %v, want FailedPrecondition", err)
	}
	if _, err := r.demo.Table.ScheduleClose("supervisor:test", time.Now().Add(10*time.Minute), false); code(err) != codes.InvalidArgument {
		t.Fatalf("a closure 10 minutes ahead: %v, want InvalidArgument", err)
	}
	at := time.Now().Add(server.ClosureNotice + 30*time.Second).Truncate(time.Second)
	st, err := r.demo.Table.ScheduleClose("supervisor:test", at, false)
	if err != nil {
		t.Fatal(err)
	}
	if st.ClosingAtUnixNanos != at.UnixNano() {
		t.Fatalf("the console's status has the closure at %d, want %d", st.ClosingAtUnixNanos, at.UnixNano())
	}
	if !r.auditLogHas("closure-announced", "supervisor:test") {
		t.Fatal("the announcement is not in the audit log with the pit boss's identity")
	}
	sign := fmt.Sprintf("This table closes at %s: 21 min left", at.Local().Format("15:04"))
	v := r.waitView("the sign of the closure on the terminal", func(v app.View) bool {
		return v.ClosingAt.Equal(at) && v.Closing.String() == sign
	})
	if v.Phase == table.PhaseClosed {
		t.Fatal("the table closed at the announcement")
	}
	// Still before the time: the table deals on, and may not be closed early.
	if _, err := r.demo.Table.CloseTable("dealer:test"); code(err) != codes.FailedPrecondition {
		t.Fatalf("closing before the announced time: %v", err)
	}

	// A terminal that connects later (here: restarts) learns of it from its snapshot.
	r.restart()
	r.waitView("the sign after a restart", func(v app.View) bool { return v.ClosingAt.Equal(at) && v.Closing.String() == sign })

	// The time comes during a round: the round finishes, then the table closes.
	round, err := r.demo.Table.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	r.waitView("the round open", func(v app.View) bool { return v.RoundID == round.RoundId && v.Phase == table.PhaseWagering })
	r.demo.Table.Advance(at.Add(time.Second)) // past the time, with the period still open: it closes the period only
	if s, _ := r.demo.Table.Status(); s.Phase == pb.Phase_PHASE_CLOSED {
		t.Fatal("the table closed in the middle of a round")
	}
	if _, err := r.demo.Table.EnterOutcome("dealer:test", round.RoundId, "7"); err != nil {
		t.Fatal(err)
	}
	r.demo.Table.Advance(at.Add(2 * time.Second))
	v = r.waitView("the table closed as announced", func(v app.View) bool { return v.Phase == table.PhaseClosed })
	r.waitView("the sign taken down", func(v app.View) bool {
		return v.ClosingAt.IsZero() && v.Closing.IsZero()
	})
	if v.Balance != 2000 {
		t.Fatalf("the player's balance after the closure: %d", v.Balance)
	}
	r.conserved()
}

// TestClosureCountdownAndCancel_001_12_7: the cancel takes the sign down on the terminal, and
// a cancel without a sign is refused; only the pit boss may announce (the role table).
func TestClosureCountdownAndCancel_001_12_7(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	r.ready()
	at := time.Now().Add(45 * time.Minute)
	if _, err := r.demo.Table.ScheduleClose("supervisor:test", at, false); err != nil {
		t.Fatal(err)
	}
	r.waitView("the sign", func(v app.View) bool { return strings.Contains(v.Closing.String(), "45 min left") })
	if _, err := r.demo.Table.ScheduleClose("supervisor:test", time.Time{}, true); err != nil {
		t.Fatal(err)
	}
	r.waitView("the sign taken down", func(v app.View) bool {
		return v.ClosingAt.IsZero() && v.Closing.IsZero()
	})
	if _, err := r.demo.Table.ScheduleClose("supervisor:test", time.Time{}, true); code(err) != codes.FailedPrecondition {
		t.Fatalf("cancelling no closure: %v", err)
	}
	// No player present: the table may close at once, as before.
	if _, err := r.demo.Table.CloseTable("dealer:test"); err != nil {
		t.Fatal(err)
	}
}

// TestAbstainingSeatMayBeVacated_001_12_8: a seated player who places no wager for three rounds
// in a row, while all other seats are in use, may be required to vacate (001 §12.8, 003
// §9.10). Before: the table kept no count and the console had no way to act on it. Now the
// console's status shows each seat's count and whether it may be vacated; vacate is refused
// before the third round and after a wager; when done the balance is paid at the table (a
// dealer close), the terminal says so, and the books conserve.
func TestAbstainingSeatMayBeVacated_001_12_8(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	r.ready()
	r.buyIn(5000)
	seat := func() *pb.TerminalStatus {
		t.Helper()
		st, err := r.demo.Table.Status()
		if err != nil {
			t.Fatal(err)
		}
		for _, ts := range st.Terminals {
			if ts.TerminalId == "T01" {
				return ts
			}
		}
		t.Fatal("T01 not in the status")
		return nil
	}
	vacate := func() error {
		_, err := r.demo.Table.ClosePlayerAccount("dealer:D1", &pb.ClosePlayerAccountRequest{IdempotencyKey: fmt.Sprint(time.Now().UnixNano()), TerminalId: "T01", Reason: server.ReasonVacated})
		return err
	}
	r.dealRound("1")
	r.dealRound("2")
	if s := seat(); s.Abstained != 2 || s.Vacatable {
		t.Fatalf("after two rounds without a wager: %+v", s)
	}
	if err := vacate(); code(err) != codes.FailedPrecondition {
		t.Fatalf("vacating after two rounds: %v", err)
	}
	// A wager starts the count again.
	st, err := r.demo.Table.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	r.waitView("the round open", func(v app.View) bool { return v.RoundID == st.RoundId && v.Phase == table.PhaseWagering })
	r.place(500)
	r.endRound(st.RoundId, "3")
	if s := seat(); s.Abstained != 0 {
		t.Fatalf("after a round with a wager: abstained %d", s.Abstained)
	}
	for i := range 3 {
		r.dealRound(fmt.Sprint(4 + i))
	}
	s := seat()
	if s.Abstained != 3 || !s.Vacatable {
		t.Fatalf("after three rounds without a wager: %+v", s)
	}
	balance := r.view().Balance
	if err := vacate(); err != nil {
		t.Fatal(err)
	}
	v := r.waitView("the account closed on the terminal", func(v app.View) bool { return !v.AccountOpen && v.Balance == 0 })
	if !strings.Contains(v.Message.Msg.String(), "The dealer closed your account") {
		t.Fatalf("the terminal says %q", v.Message.Msg.String())
	}
	if !r.auditLogHas("account-closed", "dealer:D1") {
		t.Fatal("the vacate is not in the audit log with the dealer's identity")
	}
	if got := r.conserved(); balance != 5500 || got != 0 {
		t.Fatalf("balance before vacating %d (want 5500: the 5.00 on red won on 3), balances after %d (want 0)", balance, got)
	}
	if s := seat(); s.Abstained != 0 || s.Vacatable || s.AccountOpen {
		t.Fatalf("the seat after vacating: %+v", s)
	}
}

// TestDisputeButtonAndLights_000_10_9: the Dispute Button on the dealer console (000 §10.9.1)
// makes the spin a no spin and alerts the Game Supervisor; the console's light is red until the
// fault is rectified, and the game does not continue meanwhile (§10.9.2): no outcome, no new
// round, the auto-dealer waits. The supervisor's clear turns it green and the game goes on; the
// wagers of the disputed spin stay for the valid spin and settle once. Before: neither existed.
func TestDisputeButtonAndLights_000_10_9(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	r.ready()
	r.buyIn(5000)
	st, err := r.demo.Table.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	r.waitView("the round open", func(v app.View) bool { return v.RoundID == st.RoundId && v.Phase == table.PhaseWagering })
	r.place(1000)

	if _, err := r.demo.Table.Dispute("dealer:D1", st.RoundId, "ball left the wheel"); err != nil {
		t.Fatal(err)
	}
	r.waitView("betting ended on the terminal", func(v app.View) bool { return v.Phase == table.PhaseNoMoreBets && v.Locked })
	s, err := r.demo.Table.Status()
	if err != nil {
		t.Fatal(err)
	}
	if !s.RedLight || !strings.Contains(s.Fault, "ball left the wheel") {
		t.Fatalf("after the dispute button: red %v fault %q", s.RedLight, s.Fault)
	}
	alarms, err := r.demo.Table.ListAlarms(5)
	if err != nil || len(alarms.Alarms) == 0 || alarms.Alarms[0].Kind != server.AlarmDispute {
		t.Fatalf("the supervisor's alarm: %v %v", alarms, err)
	}
	if !r.auditLogHas("fault", "dealer:D1") {
		t.Fatal("the dispute is not in the audit log with the dealer's identity")
	}
	if _, err := r.demo.Table.EnterOutcome("dealer:test", st.RoundId, "5"); code(err) != codes.FailedPrecondition {
		t.Fatalf("an outcome while the light is red: %v", err)
	}
	if _, err := r.demo.Table.ClearFault("supervisor:test", "wheel checked"); err != nil {
		t.Fatal(err)
	}
	if s, _ := r.demo.Table.Status(); s.RedLight {
		t.Fatalf("after the clear: fault %q", s.Fault)
	}
	if !r.auditLogHas("fault-cleared", "supervisor:test") {
		t.Fatal("the clear is not in the audit log with the supervisor's identity")
	}
	// The re-spin: red wins, the 10.00 on red is paid once.
	if _, err := r.demo.Table.EnterOutcome("dealer:test", st.RoundId, "1"); err != nil {
		t.Fatal(err)
	}
	r.waitView("the valid spin settled", func(v app.View) bool { return v.Balance == 6000 })

	// A second dispute: red again, and no new round starts until it is cleared.
	st, err = r.demo.Table.StartRound("dealer:test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.demo.Table.Dispute("dealer:D1", st.RoundId, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := r.demo.Table.StartRound("dealer:test"); code(err) != codes.FailedPrecondition {
		t.Fatalf("a new round while red: %v", err)
	}
	r.conserved()
}

// TestPlayerCallsTheDealerFromTheScreen_001_9_5: the station's terminal calls the dealer (the
// help screen's button): the dealer console's alarms show the call from this seat, and the
// player is told the dealer is coming. Before: a player had no way to raise a claim from the
// terminal.
func TestPlayerCallsTheDealerFromTheScreen_001_9_5(t *testing.T) {
	r := newRig(t, rigOptions{manual: true})
	r.ready()
	if err := r.st.Terminal.CallDealer(t.Context()); err != nil {
		t.Fatal(err)
	}
	r.waitView("the player told", func(v app.View) bool {
		return v.Message.Msg.Key == "The dealer has been called and will come to you"
	})
	alarms, err := r.demo.Table.ListAlarms(5)
	if err != nil || len(alarms.Alarms) == 0 || alarms.Alarms[0].Kind != server.AlarmPlayerCall || alarms.Alarms[0].TerminalId != "T01" {
		t.Fatalf("the dealer console's alarms: %v %v", alarms, err)
	}
	if !r.auditLogHas("alarm", "terminal:T01") {
		t.Fatal("the call is not in the audit log with the terminal")
	}
}
