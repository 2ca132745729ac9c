package server

import (
	"context"
	"fmt"
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
// The guard is keyed by a scope (a terminal id, cashierScope): a lockout shared further (the
// floor's) changes where redeemGuard lives, not its callers.

// AlarmTicketGuessing is the alarm raised when a terminal is throttled for failed validations.
const AlarmTicketGuessing = "ticket-guessing"

// maxRedeemCooldown bounds the growing cool-down.
const maxRedeemCooldown = time.Hour

// redeemGuard is one terminal's record of failed ticket validations. It lives in memory: a
// server restart forgets it, which costs an attacker a restart of the table server — not
// something a terminal can cause.
type redeemGuard struct {
	failures []time.Time // within the window, oldest first
	until    time.Time   // RedeemTicket is refused until then
	lockouts int         // cool-downs earned; doubles the next; forgotten after an hour clear
	last     time.Time   // when the last cool-down started
}

// redeemRefused refuses a RedeemTicket from a terminal in its cool-down.
func (t *Table) redeemRefused(terminal string, now time.Time) error {
	g := t.redeem[terminal]
	if g == nil || !now.Before(g.until) {
		return nil
	}
	return status.Errorf(codes.ResourceExhausted, "too many failed ticket validations at %s: ticket redemption refused for %s",
		terminal, g.until.Sub(now).Round(time.Second))
}

// redeemFailed counts a failed validation; at the limit it starts a cool-down and raises the
// alarm.
func (t *Table) redeemFailed(terminal, validation string, now time.Time) {
	g := t.redeem[terminal]
	if g == nil {
		g = &redeemGuard{}
		t.redeem[terminal] = g
	}
	from := now.Add(-t.cfg.RedeemWindow)
	kept := g.failures[:0]
	for _, at := range g.failures {
		if at.After(from) {
			kept = append(kept, at)
		}
	}
	g.failures = append(kept, now)
	if len(g.failures) < t.cfg.RedeemFailures {
		return
	}
	if now.Sub(g.last) > maxRedeemCooldown {
		g.lockouts = 0 // an hour without a lockout: start again from the base cool-down
	}
	cool := t.cfg.RedeemCooldown
	for range g.lockouts {
		if cool *= 2; cool >= maxRedeemCooldown {
			cool = maxRedeemCooldown
			break
		}
	}
	g.lockouts++
	g.last, g.until, g.failures = now, now.Add(cool), nil
	detail := fmt.Sprintf("%d failed ticket validations within %s (the last %q): redemption refused for %s (lockout %d)",
		t.cfg.RedeemFailures, t.cfg.RedeemWindow, validation, cool, g.lockouts)
	t.log.Warn("alarm: ticket validation numbers being guessed", "terminal", terminal, "detail", detail)
	err := t.led.Update(context.Background(), now, func(tx *ledger.Tx) error {
		return tx.Event("alarm", terminal, "", 0, AlarmTicketGuessing+": "+detail)
	})
	if err != nil {
		t.log.Error("recording an alarm", "terminal", terminal, "err", err)
	}
}

// guessAhead refuses a call that names a ticket while scope is in its cool-down.
func (t *Table) guessAhead(scope string) error { return t.redeemRefused(scope, t.now()) }

// guessAfter is what a call that named a ticket answers once it has run: a failed validation
// (redeemFailure) is counted against scope, or, during a cool-down, answered with the
// cool-down's refusal like every other number that is not the caller's.
func (t *Table) guessAfter(scope, validation string, err error) error {
	if err == nil || !redeemFailure(err) {
		return err
	}
	now := t.now()
	if cool := t.redeemRefused(scope, now); cool != nil {
		return cool
	}
	t.redeemFailed(scope, validation, now)
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

// alarms reads the newest alarms from the audit log.
func (t *Table) alarms(limit int) ([]*pb.Alarm, error) {
	evs, err := t.led.Events(context.Background(), "alarm", limit)
	if err != nil {
		return nil, err
	}
	out := make([]*pb.Alarm, 0, len(evs))
	for _, e := range evs {
		kind, detail := e.Detail, ""
		for i := 0; i+1 < len(e.Detail); i++ {
			if e.Detail[i] == ':' && e.Detail[i+1] == ' ' {
				kind, detail = e.Detail[:i], e.Detail[i+2:]
				break
			}
		}
		out = append(out, &pb.Alarm{AtUnixNanos: e.At.UnixNano(), Kind: kind, TerminalId: e.Terminal, Detail: detail})
	}
	return out, nil
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
