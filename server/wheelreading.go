package server

import (
	"fmt"
	"strings"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server/ledger"
)

// The wheel's sensors (000 §10.2, SPEC §9.2) propose; the dealer decides. A number both
// sensors read alike is held here as a proposal the dealer's console shows and confirms with
// one action (EnterOutcome with confirm_wheel), or — where the operator lets the wheel enter
// it — entered at once as the wheel's (OutcomeFromWheel). A disagreement or a fault leaves no
// proposal and says why: the dealer enters the number by hand or declares a no spin, and a
// manual entry is possible at all times. Each outcome's audit trail names its source
// (AuditOutcomeSource).

// AlarmWheel is the kind of the alarm raised when the wheel proposes no outcome: a sensor
// disagreement, a fault of 004 §8.1, a read from a spin the table did not see launched.
const AlarmWheel = "wheel"

// AuditOutcomeSource is the audit event written with every outcome, in the same commit: who
// read the number. Its detail is one of the OutcomeBy values.
const AuditOutcomeSource = "outcome-source"

// Where an outcome came from.
const (
	OutcomeByDealer       = "manual"                         // typed by the dealer
	OutcomeByWheel        = "wheel"                          // entered by the wheel (-wheel-auto-outcome)
	OutcomeByWheelConfirm = "wheel, confirmed by the dealer" // the wheel's reading, confirmed
	OutcomeByAutoDealer   = "auto-dealer"                    // drawn by the server's auto-dealer
)

// wheelReading is what the wheel said of one round: a proposal or a fault, never both.
type wheelReading struct {
	round    string
	proposed bool
	number   roulette.Number
	game     int
	fault    string
}

// wheelShowing reports whether the wheel reading concerns the current round while it waits for its outcome: a
// proposal or a fault of an earlier round, or of one settled or declared no spin, is not shown.
func (t *Table) wheelShowing() bool {
	return t.cur != nil && t.wheel.round == t.cur.id && t.cur.phase == table.PhaseNoMoreBets
}

// wheelStatus adds the wheel's proposal or fault to the dealer's status.
func (t *Table) wheelStatus(s *pb.TableStatus) {
	if !t.wheelShowing() {
		return
	}
	if t.wheel.proposed {
		s.WheelProposal = &pb.WheelProposal{RoundId: t.wheel.round, Number: t.wheel.number.String(), Game: int32(t.wheel.game)}
	}
	s.WheelFault = t.wheel.fault
}

// ProposeOutcome records that both of the wheel's sensors read n in the wheel's spin game of
// round roundID, and holds it for the dealer to confirm. Done for actor ("wheel"), recorded
// as the wheel's reading. Refused after a fault of the same round: a fault leaves the dealer
// to decide, and a later read does not overrule it.
func (t *Table) ProposeOutcome(actor, roundID string, n roulette.Number, game int) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		r, err := t.waitingForOutcome(roundID)
		if err != nil {
			return err
		}
		if !t.layout.Wheel.Has(n) {
			return invalid("outcome %v is not on this %v wheel", n, t.layout.Wheel)
		}
		if t.wheel.round == r.id && t.wheel.fault != "" {
			return failed("round %s: the wheel reported %s: no outcome is taken from it", r.id, t.wheel.fault)
		}
		if err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			return tx.Event("wheel-reading", "", r.id, 0, fmt.Sprintf("game %d: both sensors read %v", game, n))
		}); err != nil {
			return ledgerErr(err)
		}
		t.wheel = wheelReading{round: r.id, proposed: true, number: n, game: game}
		return nil
	})
}

// WheelFault records that the wheel proposes no outcome for round roundID ("" for a fault
// outside any round) and why: any proposal is withdrawn, and an alarm names the fault on the
// dealer's console. The dealer's manual entry and no spin stay open.
func (t *Table) WheelFault(actor, roundID, why string) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		if why == "" {
			return invalid("why: the wheel's fault must be named")
		}
		if len(why) > maxWheelFault {
			// Cut, not refused: an alarm is never lost for saying too much.
			why = strings.ToValidUTF8(why[:maxWheelFault], "") + "…"
		}
		round := ""
		if roundID != "" {
			r, err := t.current(roundID)
			if err != nil {
				return err
			}
			round = r.id
		}
		if err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			return tx.Event("alarm", "", round, 0, AlarmWheel+": "+why)
		}); err != nil {
			return ledgerErr(err)
		}
		if round != "" {
			t.wheel = wheelReading{round: round, fault: why}
		}
		return nil
	})
}

// maxWheelFault is the longest reason of a wheel alarm kept whole, in bytes.
const maxWheelFault = 300

// OutcomeFromWheel enters n, read alike by both sensors, as the outcome of round roundID
// without the dealer (tableserver -wheel-auto-outcome), recorded as the wheel's.
func (t *Table) OutcomeFromWheel(actor, roundID string, n roulette.Number) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		if err := t.gameMayGoOn(); err != nil {
			return err
		}
		if t.wheelShowing() && t.wheel.fault != "" {
			return failed("round %s: the wheel reported %s: no outcome is taken from it", t.wheel.round, t.wheel.fault)
		}
		if err := t.enterOutcome(now, roundID, n.String(), OutcomeByWheel); err != nil {
			return err
		}
		if t.auto {
			t.nextAuto = now.Add(t.cfg.ResultTime) // the result shows its time, as the auto-dealer's does
		}
		return nil
	})
}

// ConfirmWheelOutcome enters the wheel's proposal for round roundID as its outcome: the
// dealer's one action. number, when not empty, must be the proposal's (what the dealer saw).
func (t *Table) ConfirmWheelOutcome(actor, roundID, number string) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		if err := t.gameMayGoOn(); err != nil {
			return err
		}
		r, err := t.waitingForOutcome(roundID)
		if err != nil {
			return err
		}
		if !t.wheelShowing() || !t.wheel.proposed {
			why := "the wheel has proposed no outcome"
			if t.wheelShowing() && t.wheel.fault != "" {
				why = "the wheel reported " + t.wheel.fault
			}
			return failed("round %s: %s: enter the number by hand or declare a no spin", r.id, why)
		}
		if number != "" {
			n, err := roulette.ParseNumber(number)
			if err != nil || n != t.wheel.number {
				return failed("round %s: the wheel proposed %v, not %q: enter the number by hand to differ", r.id, t.wheel.number, number)
			}
		}
		return t.enterOutcome(now, r.id, t.wheel.number.String(), OutcomeByWheelConfirm)
	})
}

// waitingForOutcome is the current round roundID, refused unless its period has ended and it
// has no outcome yet.
func (t *Table) waitingForOutcome(roundID string) (*round, error) {
	r, err := t.current(roundID)
	if err != nil {
		return nil, err
	}
	if r.phase != table.PhaseNoMoreBets {
		return nil, failed("round %s is not waiting for its outcome (it is %v)", r.id, r.phase)
	}
	return r, nil
}

// CurrentRound is the current round's id and phase ("" and PhaseClosed for none): what the
// wheel follower ties the wheel's spins to. It reads no ledger, so a ball-drop is not delayed.
func (t *Table) CurrentRound() (string, table.Phase) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur == nil {
		return "", table.PhaseClosed
	}
	return t.cur.id, t.cur.phase
}

// RoundDeadline is the current round's wagering deadline (zero: no round). A dealing loop
// that times the ball by the clock reads it here, not from Status: Status totals the ledger
// (the conservation check, alarms, holds), which a loop asking twenty times a second would
// make the kiosk's idle cost (the demo's croupier did: two thirds of its CPU at rest).
func (t *Table) RoundDeadline() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur == nil {
		return time.Time{}
	}
	return t.cur.deadline
}

// CurrentDraw is the current round's Lucky Ball draw (false: no round, or no draw yet). The
// demo's dealer reads it to have the wheel read a colour's number (internal/demo).
func (t *Table) CurrentDraw() (roulette.LuckyBallDraw, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur == nil || t.cur.draw == nil {
		return roulette.LuckyBallDraw{}, false
	}
	return *t.cur.draw, true
}
