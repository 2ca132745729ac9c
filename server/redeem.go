package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/server/ledger"
)

// A cash-out ticket is a bearer instrument: whoever presents its 18 digits is paid. The digits
// are drawn from crypto/rand (10^18 of them), so guessing one is hopeless — as long as guesses
// cost something. Each caller's failed validations are counted; too many in a window and the
// caller is refused for a cool-down that doubles each time it is earned again, and an alarm
// goes to the dealer's console and the log.
//
// Every call that takes a validation number goes through this one throttle (issue 34, attack
// 5), in one of two ways:
//   - a call whose answer says something of any ticket, whoever's it is (RedeemTicket, the
//     cage's LookupTicket and PayTicket), is refused outright during a cool-down
//     (guessAhead), and counts its failures after (guessAfter);
//   - a call on the caller's own tickets (CommitRedeem, CancelRedeem, TicketPrinted,
//     TicketPrintFailed; the dealer's Handpay of a ticket printed at this table and
//     ReleaseTicketHold of a hold at this table, per dealer) answers a ticket that is not the caller's exactly as it answers a
//     number that is no ticket (notTheirs), so it tells nothing of other tickets; it counts
//     both as failures, and during a cool-down refuses both alike (guessAfter) — while the
//     caller's own tickets go through, so a throttled terminal still credits a ticket its
//     acceptor stacked and confirms one it printed.
// The guard is keyed by a scope (a terminal id, dealerScope, cashierScope) and kept in the
// floor's store (ledger.Guesses: schema floor on PostgreSQL), not in a server's memory: a
// cashier's card works at every cage of the floor, so a cashier locked out at T1 is locked
// out at T2 (issue 33, point 3), and a restart of the table server forgets nothing. A
// terminal's or a dealer's scope is its table's (T2 has a T01 of its own): guardScope.
//
// An honest mistype is told "unknown number" (the cage's words for a number that is no ticket);
// every refusal during a lockout says how long it lasts and to call the supervisor.

// AlarmTicketGuessing is the alarm raised when a terminal is throttled for failed validations.
const AlarmTicketGuessing = "ticket-guessing"

// maxRedeemCooldown bounds the growing cool-down.
const maxRedeemCooldown = time.Hour

// floorWidePrefix begins every floor-wide scope: a cashier's (cashierScope), whose card works
// at every cage.
const floorWidePrefix = "cashier:"

// floorWide reports whether a throttling scope (and an alarm naming it) is the floor's rather
// than one table's.
func floorWide(scope string) bool { return strings.HasPrefix(scope, floorWidePrefix) }

// guardScope is where scope's failures are counted in the floor's store: a cashier's as it
// is, anyone else's qualified with this table.
func (t *Table) guardScope(scope string) string {
	if floorWide(scope) {
		return scope
	}
	return t.cfg.TableID + "/" + scope
}

// lockoutReach names where a scope's lockout holds, for its refusal.
func lockoutReach(scope string) string {
	if floorWide(scope) {
		return "at every cage of the floor"
	}
	return "at this table"
}

// redeemRefused refuses a call naming a ticket from a scope in its cool-down. A store that
// cannot be read refuses too: the lockout is not skipped for want of a read.
func (t *Table) redeemRefused(scope string, now time.Time) error {
	until, err := t.led.LockedUntil(context.Background(), t.guardScope(scope))
	if err != nil {
		return ledgerErr(err)
	}
	if !now.Before(until) {
		return nil
	}
	return lockedOut(scope, until.Sub(now))
}

// lockedOut is the refusal during a lockout: how long, and whom to call.
func lockedOut(scope string, left time.Duration) error {
	return status.Errorf(codes.ResourceExhausted, "too many unknown ticket numbers from %s: locked out of ticket validations %s for %s; call the supervisor",
		scope, lockoutReach(scope), left.Round(time.Second))
}

// redeemFailed counts a failed validation in the floor's store; at the limit it starts a
// cool-down and raises the alarm.
func (t *Table) redeemFailed(scope, validation string, now time.Time) error {
	err := t.led.Update(ledger.WithActor(context.Background(), scope), now, func(tx *ledger.Tx) error {
		g, err := tx.Guesses(t.guardScope(scope))
		if err != nil {
			return err
		}
		from := now.Add(-t.cfg.RedeemWindow)
		kept := g.Failures[:0]
		for _, at := range g.Failures {
			if at.After(from) {
				kept = append(kept, at)
			}
		}
		g.Failures = append(kept, now)
		if len(g.Failures) < t.cfg.RedeemFailures {
			return tx.PutGuesses(g)
		}
		if now.Sub(g.LastLockout) > maxRedeemCooldown {
			g.Lockouts = 0 // an hour without a lockout: start again from the base cool-down
		}
		cool := t.cfg.RedeemCooldown
		for range g.Lockouts {
			if cool *= 2; cool >= maxRedeemCooldown {
				cool = maxRedeemCooldown
				break
			}
		}
		g.Lockouts++
		g.LastLockout, g.LockedUntil, g.Failures = now, now.Add(cool), nil
		if err := tx.PutGuesses(g); err != nil {
			return err
		}
		detail := fmt.Sprintf("%d failed ticket validations within %s (the last %q): refused %s for %s (lockout %d)",
			t.cfg.RedeemFailures, t.cfg.RedeemWindow, validation, lockoutReach(scope), cool, g.Lockouts)
		t.log.Warn("alarm: ticket validation numbers being guessed", "scope", scope, "detail", detail)
		return tx.Event("alarm", scope, "", 0, AlarmTicketGuessing+": "+detail)
	})
	if err != nil {
		t.log.Error("counting a failed ticket validation", "scope", scope, "err", err)
	}
	return err
}

// guessAhead refuses a call that names a ticket while scope is in its cool-down.
func (t *Table) guessAhead(scope string) error { return t.redeemRefused(scope, t.now()) }

// guessAfter is what a call that named a ticket answers once it has run: a failed validation
// (redeemFailure) is counted against scope, or, during a cool-down, answered with the
// cool-down's refusal like every other number that is not the caller's. A failure is answered
// with its own words whatever the count (an answer that changed with the count would make two
// numbers' answers differ for no reason of theirs); the lockout it earns is said, with how
// long and whom to call, by every refusal after.
func (t *Table) guessAfter(scope, validation string, err error) error {
	if err == nil || !redeemFailure(err) {
		return err
	}
	now := t.now()
	if cool := t.redeemRefused(scope, now); cool != nil {
		return cool
	}
	if ferr := t.redeemFailed(scope, validation, now); ferr != nil {
		return ledgerErr(ferr) // not counted: refused rather than answered
	}
	return err
}

// notTheirs is the answer to a validation number that names no ticket of the caller's: the
// same words whether no such ticket exists or it is another's, so the answer tells nothing of
// the ticket (whose is the one thing a guesser wants to know). NotFound: a failed validation.
func notTheirs(validation, whose string) error {
	return status.Errorf(codes.NotFound, "ticket %s is not %s", validation, whose)
}

// ownTicket reads a ticket the caller may act on only if it is theirs (mine): one that is not,
// and a number that is no ticket, are answered alike (notTheirs).
func (t *Table) ownTicket(tx *ledger.Tx, validation, whose string, mine func(ledger.Ticket) bool) (ledger.Ticket, error) {
	tk, err := t.ticket(tx, validation)
	if status.Code(err) == codes.NotFound || (err == nil && !mine(tk)) {
		return ledger.Ticket{}, notTheirs(validation, whose)
	}
	return tk, err
}

// redeemFailure reports whether a RedeemTicket error is a failed validation: a number that is
// no ticket, or no validation number at all. Refusals of real tickets (redeemed, expired,
// held elsewhere) are not guesses.
func redeemFailure(err error) bool {
	c := status.Code(err)
	return c == codes.NotFound || c == codes.InvalidArgument
}

// holdLapsed reports whether a ticket's hold has run past the table's hold time. A hold with
// no time was taken before holds had one (an older ledger): it has lapsed.
func (t *Table) holdLapsed(tk ledger.Ticket, now time.Time) bool {
	return tk.State == ledger.TicketRedeeming && (tk.HeldAt.IsZero() || !now.Before(tk.HeldAt.Add(t.cfg.TicketHold)))
}

// alarms reads the newest alarms the table's console shows (ledger.Alarms): its own and the
// floor-wide ones (floorWide) every other table of the floor raised, each with its table and
// its acknowledgement.
func (t *Table) alarms(limit int) ([]*pb.Alarm, error) {
	as, err := t.led.Alarms(context.Background(), floorWidePrefix, limit)
	if err != nil {
		return nil, err
	}
	out := make([]*pb.Alarm, 0, len(as))
	for _, a := range as {
		out = append(out, alarmPB(a))
	}
	return out, nil
}

// alarmPB is an alarm as the console reads it: its detail's leading "kind: " is its kind.
func alarmPB(a ledger.Alarm) *pb.Alarm {
	kind, detail, _ := strings.Cut(a.Detail, ": ")
	p := &pb.Alarm{AtUnixNanos: a.At.UnixNano(), Kind: kind, TerminalId: a.Terminal, Detail: detail,
		TableId: a.Table, Id: ledger.AlarmID(a.Table, a.Seq), AckedBy: a.AckedBy}
	if !a.AckedAt.IsZero() {
		p.AckedAtUnixNanos = a.AckedAt.UnixNano()
	}
	return p
}

// ListAlarms lists the table's alarms, newest first (50 when limit is 0).
func (t *Table) ListAlarms(limit int32) (*pb.ListAlarmsResponse, error) {
	if limit < 0 || limit > 1000 {
		return nil, invalid("limit %d: 0 to 1000", limit)
	}
	if limit == 0 {
		limit = 50
	}
	a, err := t.alarms(int(limit))
	if err != nil {
		return nil, ledgerErr(err)
	}
	return &pb.ListAlarmsResponse{Alarms: a}, nil
}

// AckAlarm records that actor has seen to alarm id ("T1:42"): one of this table's, or a
// floor-wide one of another table's (what ListAlarms shows here). An alarm acknowledged
// already keeps its first acknowledgement. The acknowledgement is an audit event too.
func (t *Table) AckAlarm(actor string, req *pb.AckAlarmRequest) (*pb.Alarm, error) {
	table, num, ok := strings.Cut(req.AlarmId, ":")
	seq, err := strconv.ParseInt(num, 10, 64)
	if !ok || table == "" || err != nil || seq <= 0 {
		return nil, invalid("alarm %q: an alarm id is its table and number, as ListAlarms shows it (\"T1:42\")", req.AlarmId)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	err = t.led.Update(ledger.WithActor(context.Background(), actor), t.now(), func(tx *ledger.Tx) error {
		subject, raised, err := tx.AlarmAt(table, seq)
		if err != nil {
			return err
		}
		// Another table's alarm is this console's only when it is floor-wide (alarms).
		if !raised || (table != t.cfg.TableID && !floorWide(subject)) {
			return status.Errorf(codes.NotFound, "no alarm %s: see the alarm list for the ids", req.AlarmId)
		}
		by, at, first, err := tx.AckAlarm(req.AlarmId, actor)
		if err != nil || !first {
			return err
		}
		return tx.Event("alarm-acknowledged", "", "", 0, fmt.Sprintf("alarm %s acknowledged by %s at %s", req.AlarmId, by, at.UTC().Format(time.RFC3339)))
	})
	if err != nil {
		return nil, ledgerErr(err)
	}
	as, err := t.alarms(1000)
	if err != nil {
		return nil, ledgerErr(err)
	}
	for _, a := range as {
		if a.Id == req.AlarmId {
			return a, nil
		}
	}
	// Acknowledged, but older than the thousand newest this console lists: said so.
	return nil, status.Errorf(codes.NotFound, "alarm %s was acknowledged; it is older than the alarms this console lists", req.AlarmId)
}

// ticketHolds lists the held tickets for the dealer's status.
func (t *Table) ticketHolds() ([]*pb.TicketHold, error) {
	held, err := t.led.HeldTickets(context.Background())
	var out []*pb.TicketHold
	for _, tk := range held {
		if tk.HolderTable != "" && tk.HolderTable != t.cfg.TableID {
			continue // held at another table of the floor: its dealer's to see and release
		}
		h := &pb.TicketHold{ValidationNumber: tk.Validation, TerminalId: tk.Holder, Amount: tk.Amount, HolderTableId: t.cfg.TableID}
		if !tk.HeldAt.IsZero() {
			h.HeldAtUnixNanos, h.LapsesAtUnixNanos = tk.HeldAt.UnixNano(), tk.HeldAt.Add(t.cfg.TicketHold).UnixNano()
		}
		out = append(out, h)
	}
	return out, err
}

// ReleaseTicketHold ends a terminal's hold on a ticket at the dealer's (or supervisor's) word,
// recording who: the ticket is redeemable again. The terminal that held it keeps the right to
// commit it (its acceptor may have stacked it meanwhile) until another terminal takes a hold.
func (t *Table) ReleaseTicketHold(actor string, req *pb.ReleaseTicketHoldRequest) (*pb.ReleaseTicketHoldResponse, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	res, _, err := moneyCall(t, dealerScope(actor), req.IdempotencyKey, "release "+req.ValidationNumber, func() *pb.ReleaseTicketHoldResponse { return &pb.ReleaseTicketHoldResponse{} },
		func(tx *ledger.Tx, now time.Time) (*pb.ReleaseTicketHoldResponse, func(), error) {
			// Only a hold at this table is its dealer's to release; any other ticket is answered
			// as a number that is no ticket (notTheirs).
			tk, err := t.ownTicket(tx, req.ValidationNumber, "held at this table", func(tk ledger.Ticket) bool {
				return tk.State == ledger.TicketRedeeming && (tk.HolderTable == "" || tk.HolderTable == t.cfg.TableID)
			})
			if err != nil {
				return nil, nil, err
			}
			from := tk.Holder
			tk.State, tk.HeldAt = ledger.TicketPrinted, time.Time{} // Holder kept: see releaseHold
			if err := tx.PutTicket(tk); err != nil {
				return nil, nil, err
			}
			detail := fmt.Sprintf("%s: hold of %s released by %s: %s", tk.Validation, from, actor, req.Reason)
			t.log.Info("ticket hold released", "ticket", tk.Validation, "terminal", from, "by", actor, "reason", req.Reason)
			return &pb.ReleaseTicketHoldResponse{Ticket: wire.TicketPB(ticketOf(tk, t.cfg.Venue)), ReleasedFrom: from}, nil,
				tx.Event("ticket-hold-released", from, "", tk.Amount, detail)
		})
	return res, t.guessAfter(dealerScope(actor), req.ValidationNumber, err)
}

// moneyInCapped refuses a money-in that would take a balance above the table's maximum.
func (t *Table) moneyInCapped(terminal string, balance, amount int64) (int64, error) {
	next, err := money.Add(balance, amount)
	if err != nil {
		return 0, invalid("amount %d: %v", amount, err)
	}
	if next > t.cfg.MaxBalance {
		return 0, failed("%s would take the balance of %s to %s, above the table's maximum balance of %s",
			money.Decimal(amount), terminal, money.Decimal(next), money.Decimal(t.cfg.MaxBalance))
	}
	return next, nil
}
