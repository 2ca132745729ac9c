package wheelfollow_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/devices/wheel"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/wheelfollow"
)

const dealer = "dealer:D1"

// rig is a real table on a real SQLite ledger, with a round in its wagering period.
type rig struct {
	t     *testing.T
	tbl   *server.Table
	led   *ledger.Ledger
	f     *wheelfollow.Follower
	round string
}

func newRig(t *testing.T, auto bool) *rig {
	t.Helper()
	led, err := ledger.Open(filepath.Join(t.TempDir(), "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { led.Close() })
	tbl, err := server.NewTable(context.Background(), server.DefaultConfig(), led, time.Now, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.OpenTable(dealer, false); err != nil {
		t.Fatal(err)
	}
	st, err := tbl.StartRound(dealer)
	if err != nil {
		t.Fatal(err)
	}
	return &rig{t: t, tbl: tbl, led: led, round: st.RoundId,
		f: wheelfollow.New(nil, tbl, wheelfollow.Config{AutoOutcome: auto})}
}

func (r *rig) status() *pb.TableStatus {
	r.t.Helper()
	st, err := r.tbl.Status()
	if err != nil {
		r.t.Fatal(err)
	}
	return st
}

// event is the newest audit event of kind.
func (r *rig) event(kind string) ledger.AuditEvent {
	r.t.Helper()
	evs, err := r.led.Events(context.Background(), kind, 1)
	if err != nil || len(evs) == 0 {
		r.t.Fatalf("no %q event in the audit log (%v)", kind, err)
	}
	return evs[0]
}

func read(n roulette.Number) wheel.Read { return wheel.Read{Number: n, OK: true} }

func result(game int, a, b roulette.Number) wheel.Event {
	return wheel.Event{Kind: wheel.Result, Game: game, Reads: [2]wheel.Read{read(a), read(b)}}
}

func TestRule5_1_3WheelBallDropEndsPeriodAtOnceAsTheWheel(t *testing.T) {
	r := newRig(t, false)
	r.f.Handle(wheel.Event{Kind: wheel.Launched, Game: 7, Dir: wheel.Clockwise})
	if st := r.status(); st.Phase != pb.Phase_PHASE_WAGERING {
		t.Fatalf("a launch ended the period: %v", st.Phase)
	}
	before := time.Now()
	r.f.Handle(wheel.Event{Kind: wheel.Dropping, Game: 7, Revs: 9})
	st := r.status()
	if st.Phase != pb.Phase_PHASE_NO_MORE_BETS {
		t.Fatalf("the wheel's ball-drop left the round in %v", st.Phase)
	}
	if d := time.Unix(0, st.DeadlineUnixNanos); d.Before(before) || d.After(time.Now()) {
		t.Errorf("deadline %v is not the moment of the drop (%v…now): the period did not end at once", d, before)
	}
	if e := r.event("ball-dropping"); e.Actor != wheelfollow.Actor || e.Round != r.round {
		t.Errorf("the ball-drop %+v is not recorded as the wheel's", e)
	}
}

func TestWheelDropOfAnotherGameDoesNotEndThePeriod(t *testing.T) {
	r := newRig(t, false)
	r.f.Handle(wheel.Event{Kind: wheel.Launched, Game: 7})
	r.f.Handle(wheel.Event{Kind: wheel.Dropping, Game: 6})
	st := r.status()
	if st.Phase != pb.Phase_PHASE_WAGERING {
		t.Fatalf("a drop of game 6 after a launch of game 7 ended the period: %v", st.Phase)
	}
	if a := r.event("alarm"); !strings.Contains(a.Detail, "game 6") || a.Actor != wheelfollow.Actor {
		t.Errorf("alarm %+v: want the wheel's, naming game 6", a)
	}
}

func TestRule9_2BothSensorsAgreeProposedDealerConfirmsWithOneAction(t *testing.T) {
	r := newRig(t, false)
	r.f.Handle(wheel.Event{Kind: wheel.Launched, Game: 3})
	r.f.Handle(wheel.Event{Kind: wheel.Dropping, Game: 3})
	r.f.Handle(result(3, 17, 17))
	st := r.status()
	if st.Phase != pb.Phase_PHASE_NO_MORE_BETS {
		t.Fatalf("without -wheel-auto-outcome the wheel settled the round: %v", st.Phase)
	}
	if p := st.WheelProposal; p == nil || p.Number != "17" || p.RoundId != r.round || p.Game != 3 {
		t.Fatalf("proposal %v: want 17 of round %s, game 3", p, r.round)
	}
	if e := r.event("wheel-reading"); e.Actor != wheelfollow.Actor || e.Round != r.round {
		t.Errorf("the reading %+v is not recorded as the wheel's", e)
	}
	if _, err := r.tbl.ConfirmWheelOutcome(dealer, r.round, "18"); err == nil {
		t.Fatal("the dealer confirmed 18 when the wheel proposed 17")
	}
	st, err := r.tbl.ConfirmWheelOutcome(dealer, r.round, "")
	if err != nil {
		t.Fatal(err)
	}
	if st.Phase != pb.Phase_PHASE_RESULT || st.History[0].Number != "17" || st.WheelProposal != nil {
		t.Fatalf("after the confirmation: %v, history %v, proposal %v", st.Phase, st.History, st.WheelProposal)
	}
	if e := r.event(server.AuditOutcomeSource); e.Detail != server.OutcomeByWheelConfirm || e.Actor != dealer {
		t.Errorf("outcome source %+v: want %q by %s", e, server.OutcomeByWheelConfirm, dealer)
	}
}

func TestWheelAutoOutcomeEnteredAndAuditedAsTheWheels(t *testing.T) {
	r := newRig(t, true)
	r.f.Handle(wheel.Event{Kind: wheel.Launched, Game: 3})
	r.f.Handle(wheel.Event{Kind: wheel.Dropping, Game: 3})
	r.f.Handle(result(3, 0, 0))
	st := r.status()
	if st.Phase != pb.Phase_PHASE_RESULT || st.History[0].Number != "0" {
		t.Fatalf("-wheel-auto-outcome: %v, history %v", st.Phase, st.History)
	}
	if e := r.event(server.AuditOutcomeSource); e.Detail != server.OutcomeByWheel || e.Actor != wheelfollow.Actor {
		t.Errorf("outcome source %+v: want %q by the wheel", e, server.OutcomeByWheel)
	}
}

// TestRule9_2WheelFaultsProposeNothingDealerDecides: a disagreement, each fault of 004 §8.1,
// a read of a game the table did not see launched: no proposal, an alarm naming it, the
// dealer's confirmation refused, and the dealer's manual entry (recorded as manual) or no
// spin works.
func TestRule9_2WheelFaultsProposeNothingDealerDecides(t *testing.T) {
	fault := func(c wheel.FaultCode) wheel.Event { return wheel.Event{Kind: wheel.Fault, Game: 3, Fault: c, Revs: 2} }
	for _, c := range []struct {
		name   string
		events []wheel.Event
		alarm  string
	}{
		{"disagree", []wheel.Event{result(3, 17, 18), {Kind: wheel.Fault, Game: 3, Fault: wheel.FaultDisagree,
			Reads: [2]wheel.Read{read(17), read(18)}}}, "sensors disagree"},
		{"SW same direction", []wheel.Event{fault(wheel.FaultSameWay), result(3, 5, 5)}, "SW fault"},
		{"RV short spin", []wheel.Event{fault(wheel.FaultShortSpin), result(3, 5, 5)}, "RV fault: the ball dropped after 2 revolutions"},
		{"OW out of wheel", []wheel.Event{fault(wheel.FaultOutOfWheel)}, "OW fault"},
		{"NB no ball", []wheel.Event{fault(wheel.FaultNoBall)}, "NB fault"},
		{"game mismatch", []wheel.Event{result(4, 5, 5)}, "game 4"},
	} {
		for _, noSpin := range []bool{false, true} {
			then := "manual entry"
			if noSpin {
				then = "no spin"
			}
			t.Run(c.name+" then "+then, func(t *testing.T) {
				r := newRig(t, false)
				r.f.Handle(wheel.Event{Kind: wheel.Launched, Game: 3})
				r.f.Handle(wheel.Event{Kind: wheel.Dropping, Game: 3})
				for _, e := range c.events {
					r.f.Handle(e)
				}
				st := r.status()
				if st.WheelProposal != nil {
					t.Fatalf("a proposal after %s: %v", c.name, st.WheelProposal)
				}
				if !strings.Contains(st.WheelFault, c.alarm) {
					t.Errorf("wheel fault %q: want it to say %q", st.WheelFault, c.alarm)
				}
				if len(st.Alarms) == 0 || st.Alarms[0].Kind != server.AlarmWheel || !strings.Contains(st.Alarms[0].Detail, c.alarm) {
					t.Errorf("alarms %v: want the newest a %q alarm naming %q", st.Alarms, server.AlarmWheel, c.alarm)
				}
				if _, err := r.tbl.ConfirmWheelOutcome(dealer, r.round, ""); err == nil {
					t.Fatal("the dealer confirmed an outcome the wheel did not propose")
				}
				if noSpin {
					st, err := r.tbl.NoSpin(dealer, r.round)
					if err != nil {
						t.Fatal(err)
					}
					if st.Phase != pb.Phase_PHASE_NO_MORE_BETS || st.WheelFault != "" {
						t.Errorf("after no spin: %v, wheel fault %q", st.Phase, st.WheelFault)
					}
					return
				}
				st, err := r.tbl.EnterOutcome(dealer, r.round, "26")
				if err != nil {
					t.Fatal(err)
				}
				if st.History[0].Number != "26" {
					t.Errorf("history %v", st.History)
				}
				if e := r.event(server.AuditOutcomeSource); e.Detail != server.OutcomeByDealer || e.Actor != dealer {
					t.Errorf("outcome source %+v: want %q by %s", e, server.OutcomeByDealer, dealer)
				}
			})
		}
	}
}

func TestWheelCannotOverruleItsOwnFault(t *testing.T) {
	r := newRig(t, true)
	r.f.Handle(wheel.Event{Kind: wheel.Launched, Game: 3})
	r.f.Handle(wheel.Event{Kind: wheel.Dropping, Game: 3})
	r.f.Handle(wheel.Event{Kind: wheel.Fault, Game: 3, Fault: wheel.FaultSensorDirty, Sensor: 2})
	if _, err := r.tbl.OutcomeFromWheel(wheelfollow.Actor, r.round, 5); err == nil {
		t.Fatal("the wheel entered an outcome after its own fault of the round")
	}
	if _, err := r.tbl.ProposeOutcome(wheelfollow.Actor, r.round, 5, 3); err == nil {
		t.Fatal("the wheel proposed an outcome after its own fault of the round")
	}
}

// A wheel alarm is never lost for its length: a reason over 300 bytes (a long line error) is
// cut and recorded; an empty one is refused.
func TestWheelAlarmTooLongIsCutNotLost(t *testing.T) {
	r := newRig(t, false)
	if _, err := r.tbl.WheelFault(wheelfollow.Actor, "", strings.Repeat("é", 400)); err != nil {
		t.Fatal(err)
	}
	if a := r.event("alarm"); len(a.Detail) > 320 || !strings.HasSuffix(a.Detail, "…") {
		t.Errorf("alarm of %d bytes: %q", len(a.Detail), a.Detail)
	}
	if _, err := r.tbl.WheelFault(wheelfollow.Actor, "", ""); err == nil {
		t.Error("an alarm naming no fault was recorded")
	}
}

// The Dispute Button is a no spin (000 §10.9.1): the wheel's reading of the disputed spin is
// dropped with it, so once the supervisor clears the fault it cannot be confirmed.
func TestDisputedSpinsWheelReadingCannotBeConfirmed(t *testing.T) {
	r := newRig(t, false)
	r.f.Handle(wheel.Event{Kind: wheel.Launched, Game: 3})
	r.f.Handle(wheel.Event{Kind: wheel.Dropping, Game: 3})
	r.f.Handle(result(3, 17, 17))
	if _, err := r.tbl.Dispute(dealer, r.round, "ball jumped"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.tbl.ClearFault("supervisor:S1", "wheel checked"); err != nil {
		t.Fatal(err)
	}
	st, err := r.tbl.ConfirmWheelOutcome(dealer, r.round, "")
	if err == nil {
		t.Fatalf("the disputed spin's reading was confirmed: history %v", st.History)
	}
	if st := r.status(); st.WheelProposal != nil {
		t.Errorf("a proposal stands after the dispute: %v", st.WheelProposal)
	}
}
