package server

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
)

// Table and seat rules (issue 17, item 12): the closure of a table with players present
// (001 §12.7, 003 §9.9), the seat that abstains (001 §12.8, 003 §9.10), and the dealer
// console's Dispute Button and red/green lights (000 §10.9.1–10.9.2).
//
// The notice, the abstention counts and the fault are held in memory, each on the safe side of
// a restart: a restarted table has no closure announced (closing it with players present then
// needs a new notice of 20 minutes, never less), counts no seat as abstaining (nobody is asked
// to vacate early), and — the one that must not be lost — comes up with its light red if the
// audit log's last fault was never cleared (restoreFault).

// ClosureNotice is how long before a table with players present closes the sign of its closure
// must have been shown (001 §12.7, 003 §9.9).
const ClosureNotice = 20 * time.Minute

// AbstainRounds is how many rounds in a row a seated player may abstain from wagering before
// they may be required to vacate the seat, while all other seats are in use (001 §12.8).
const AbstainRounds = 3

// ScheduleClose puts up (or, with cancel, takes down) the sign of the table's closure. The time
// must be at least ClosureNotice away: the sign is shown for that long at the least.
func (t *Table) ScheduleClose(actor string, at time.Time, cancel bool) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		if cancel {
			if t.closingAt.IsZero() {
				return failed("no closure is announced")
			}
			t.closingAt = time.Time{}
			t.emit(now, "", table.TableClosing{})
			return ledgerErr(t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
				return tx.Event("closure-cancelled", "", "", 0, "")
			}))
		}
		if !t.open {
			return failed("the table is closed")
		}
		if at.Before(now.Add(ClosureNotice)) {
			return invalid("closure at %s is %v from now: the sign must be shown for at least %v (001 §12.7)",
				at.Format(time.RFC3339), at.Sub(now).Round(time.Second), ClosureNotice)
		}
		if at.After(now.Add(24 * time.Hour)) {
			return invalid("closure at %s is more than a day away", at.Format(time.RFC3339))
		}
		if err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			return tx.Event("closure-announced", "", "", 0, at.UTC().Format(time.RFC3339))
		}); err != nil {
			return ledgerErr(err)
		}
		t.closingAt = at
		t.emit(now, "", table.TableClosing{At: at})
		return nil
	})
}

// playersPresent reports whether any seat has an open chip account.
func (t *Table) playersPresent() bool {
	for _, a := range t.accounts {
		if a.open {
			return true
		}
	}
	return false
}

// closureDue reports whether the announced closure has come.
func (t *Table) closureDue(now time.Time) bool {
	return !t.closingAt.IsZero() && !now.Before(t.closingAt)
}

// mayCloseNow checks that the table may close now: with no player present at once, with players
// only once an announced closure has come (001 §12.7).
func (t *Table) mayCloseNow(now time.Time) error {
	if !t.playersPresent() || t.closureDue(now) {
		return nil
	}
	if t.closingAt.IsZero() {
		return failed("players are present: announce the closure at least %v ahead (dealer closing)", ClosureNotice)
	}
	return failed("players are present: the table closes as announced at %s, not before", t.closingAt.Format(time.RFC3339))
}

// closeAsAnnounced closes the table once its announced time has come and the round in play has
// its result. It runs on the table's clock (Advance).
func (t *Table) closeAsAnnounced(now time.Time) {
	if !t.open || !t.closureDue(now) {
		return
	}
	if ph := t.phase(); ph == table.PhaseWagering || ph == table.PhaseNoMoreBets {
		return // the round in play finishes first
	}
	if err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		return tx.Event("table-closed", "", "", 0, "closed as announced")
	}); err != nil {
		t.log.Error("closing the table as announced", "err", err)
		return
	}
	t.open, t.auto, t.closingAt = false, false, time.Time{}
	t.emit(now, "", table.TableClosing{})
	t.broadcastPhase(now, false)
}

// countAbstentions runs as a wagering period closes: each open account with no wager in it has
// abstained once more; one with a wager starts again at zero. A tournament round counts no
// one: a seat barred from the tournament is not allowed to wager (003 §10.5.2), so it does not
// abstain, and a tournament player's missed round is the tournament's to judge (§10.6.4).
func (t *Table) countAbstentions(r *round) {
	if t.tournamentRound(r) {
		return
	}
	for id, a := range t.accounts {
		if !a.open {
			delete(t.abstained, id)
			continue
		}
		if sl := r.slips[id]; sl != nil && sl.total > 0 {
			delete(t.abstained, id)
		} else {
			t.abstained[id]++
		}
	}
}

// seats is every seat the table knows: each terminal that has had an account or connected.
func (t *Table) seats() []string {
	ids := map[string]bool{}
	for id := range t.accounts {
		if !IsGuest(id) { // a guest's account is no seat (guest.go)
			ids[id] = true
		}
	}
	for id := range t.subs {
		ids[id] = true
	}
	return sortedKeys(ids)
}

// vacatable reports whether the seat's player may be required to vacate it (001 §12.8): they
// have abstained AbstainRounds rounds in a row while every other seat is in use (an open
// account). It says why not otherwise.
func (t *Table) vacatable(terminal string) (bool, string) {
	if IsGuest(terminal) {
		return false, fmt.Sprintf("%s is a guest account, not a seat: a guest leaves when they choose (000 §11.7.7)", terminal)
	}
	a := t.accounts[terminal]
	if a == nil || !a.open {
		return false, fmt.Sprintf("seat %s has no player", terminal)
	}
	if n := t.abstained[terminal]; n < AbstainRounds {
		return false, fmt.Sprintf("seat %s has abstained %d rounds in a row, not %d", terminal, n, AbstainRounds)
	}
	for _, id := range t.seats() {
		if o := t.accounts[id]; id != terminal && (o == nil || !o.open) {
			return false, fmt.Sprintf("seat %s is free: a player is asked to vacate only while all other seats are in use", id)
		}
	}
	return true, ""
}

// Dispute is the dealer console's Dispute Button (000 §10.9.1): the spin is a no spin (its
// wagers stay for a valid spin, 001 §9.2), the Game Supervisor is alerted, and the console's
// light turns red: the game does not go on until the supervisor clears the fault (§10.9.2).
func (t *Table) Dispute(actor, roundID, note string) (*pb.TableStatus, error) {
	if len(note) > 500 {
		return nil, invalid("note: at most 500 bytes")
	}
	return t.do(actor, func(now time.Time) error {
		r, err := t.current(roundID)
		if err != nil {
			return err
		}
		if r.phase == table.PhaseWagering {
			// A spin is disputed once the ball is rolling; the period ends now (if the table's
			// clock has not ended it already) so no wager is placed on a disputed spin.
			if err := t.closeWagering(now, now.Before(r.deadline)); err != nil {
				return err
			}
		} else if r.phase != table.PhaseNoMoreBets {
			return failed("round %s is %v: the dispute button is for the spin in play", r.id, r.phase)
		}
		fault := "dispute on " + r.id
		if note != "" {
			fault += ": " + note
		}
		if err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			if err := tx.Event("no-spin", "", r.id, 0, "dispute button"); err != nil {
				return err
			}
			if err := tx.Event("fault", "", r.id, 0, fault); err != nil {
				return err
			}
			return tx.Event("alarm", "", r.id, 0, AlarmDispute+": "+fault+" — notify the game supervisor")
		}); err != nil {
			return ledgerErr(err)
		}
		t.fault = fault
		t.wheel = wheelReading{} // a no spin: the wheel's reading of it is no outcome (wheelreading.go)
		return nil
	})
}

// AlarmDispute is the alarm the dispute button raises for the Game Supervisor.
const AlarmDispute = "dispute"

// ClearFault turns the light green again: the fault is rectified and the game may re-commence
// (000 §10.9.2). The supervisor's, recorded with what was done.
func (t *Table) ClearFault(actor, note string) (*pb.TableStatus, error) {
	if len(note) > 500 {
		return nil, invalid("note: at most 500 bytes")
	}
	return t.do(actor, func(now time.Time) error {
		if t.fault == "" {
			return failed("the light is green: no fault to clear")
		}
		if err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			return tx.Event("fault-cleared", "", "", 0, t.fault+"; "+note)
		}); err != nil {
			return ledgerErr(err)
		}
		t.fault = ""
		return nil
	})
}

// gameMayGoOn refuses the next step of the game while the light is red.
func (t *Table) gameMayGoOn() error {
	if t.fault != "" {
		return failed("the console's light is red (%s): the game waits until the supervisor clears the fault", t.fault)
	}
	return nil
}

// ReasonVacated is the close reason of a seat vacated after three rounds of abstaining.
const ReasonVacated = "vacated"

// restoreFault reads back, at start, a fault the dispute button raised and no supervisor
// cleared: a restart must not turn the light green by itself.
func (t *Table) restoreFault(ctx context.Context) error {
	faults, err := t.led.Events(ctx, "fault", 1)
	if err != nil || len(faults) == 0 {
		return err
	}
	cleared, err := t.led.Events(ctx, "fault-cleared", 1)
	if err != nil {
		return err
	}
	if len(cleared) == 0 || cleared[0].Seq < faults[0].Seq {
		t.fault = faults[0].Detail
	}
	return nil
}

// AlarmPlayerCall is the alarm a player's call from the screen raises on the dealer console.
const AlarmPlayerCall = "player-call"

// playerCallQuiet is how long after a terminal's call a further call raises no new alarm: a
// player pressing again is still the same call, and must not flood the console.
const playerCallQuiet = time.Minute

// CallDealer raises a player's call on the dealer console: a claim that an outcome is wrong or
// that the game malfunctioned, which the dealer must consider (001 §9.5, 000 §10.9.4). The
// alarm is in the audit log with the terminal as its actor.
func (t *Table) CallDealer(terminal, reason string) (*pb.CallDealerResponse, error) {
	if len(reason) > 200 || !utf8.ValidString(reason) || strings.ContainsAny(reason, "\x00\n\r") {
		return nil, invalid("reason: at most 200 bytes of UTF-8 text on one line")
	}
	if err := t.knownTerminal(terminal); err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs("terminal:" + terminal)()
	now := t.now()
	if last, ok := t.calls[terminal]; ok && now.Sub(last) < playerCallQuiet {
		return &pb.CallDealerResponse{Repeated: true}, nil
	}
	detail := AlarmPlayerCall + ": the player at " + terminal + " calls the dealer"
	if reason != "" {
		detail += ": " + reason
	}
	if err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
		return tx.Event("alarm", terminal, "", 0, detail)
	}); err != nil {
		return nil, ledgerErr(err)
	}
	t.calls[terminal] = now
	return &pb.CallDealerResponse{}, nil
}
