package server

import (
	"context"
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/server/ledger"
)

// A correction of a wrong outcome (001 §9.4) or an invalidation (§12.3–12.4) changes what a
// round paid. The difference belongs to the player who played the round, and only to them:
//
//   - If that player's account is still the one at the terminal (same epoch: not closed
//     since), the account takes the difference — but never below zero. What it cannot take is
//     an overpayment.
//   - If the account has been closed since (the player cashed out, or the dealer closed it),
//     the whole difference is theirs, not the next player's: money they owe is an overpayment,
//     money owed to them an underpayment. The account is not touched.
//
// Overpayments and underpayments are recorded for the operator (003 §8.13–8.15: rectify, or
// attempt to, within a reasonable time), listed on the dealer's console, and are terms of the
// conservation identity until resolved.

// adjust moves delta to a terminal's account for round, as the play of epoch, and returns the
// account's balance after and the part of delta the account took. why is recorded with any
// overpayment or underpayment.
func (t *Table) adjust(tx *ledger.Tx, round, terminal string, delta, epoch int64, why string) (balance, applied int64, err error) {
	bal, open, err := tx.Account(terminal)
	if err != nil {
		return 0, 0, err
	}
	if delta == 0 {
		return bal, 0, nil
	}
	cur, err := tx.Epoch(terminal)
	if err != nil {
		return 0, 0, err
	}
	next, write, err := t.adjusted(tx, round, terminal, delta, epoch, ledger.AccountRow{Balance: bal, Open: open, Epoch: cur}, why)
	if err != nil || !write {
		return next, 0, err
	}
	if err := tx.SetAccount(terminal, next, open); err != nil {
		return 0, 0, err
	}
	return next, next - bal, nil
}

// adjusted is adjust on an account already read (a): the balance after, and whether the
// account is to be written with it — false when delta is nothing, or when the account has been
// closed since and the difference is recorded (in tx) as an overpayment or underpayment. The
// settlement of a round reads every account in one statement and writes them in a few
// (ledger.Accounts, SetAccounts) and uses this for each.
func (t *Table) adjusted(tx *ledger.Tx, round, terminal string, delta, epoch int64, a ledger.AccountRow, why string) (int64, bool, error) {
	if delta == 0 {
		return a.Balance, false, nil
	}
	if a.Epoch != epoch {
		kind, amount := ledger.KindUnderpayment, delta
		var tickets []string
		if delta < 0 {
			kind, amount = ledger.KindOverpayment, -delta
			// The overpaid balance left in the cash-out that closed the epoch (issue 33): that
			// ticket is stopped until the overpayment is resolved. An epoch the dealer closed
			// left no ticket, and one from before cash-outs were recorded names none.
			vn, ok, err := tx.Cashout(terminal, epoch)
			if err != nil {
				return 0, false, err
			}
			if ok {
				tickets = []string{vn}
			}
		}
		return a.Balance, false, t.recordOverpayment(tx, round, terminal, kind, amount, why+closedSince, tickets...)
	}
	next, err := money.Add(a.Balance, delta)
	if err != nil {
		return 0, false, fmt.Errorf("account %s: %w", terminal, err)
	}
	if next < 0 {
		if err := t.recordOverpayment(tx, round, terminal, ledger.KindOverpayment, -next, why); err != nil {
			return 0, false, err
		}
		next = 0
	}
	return next, true, nil
}

// closedSince ends the reason of an overpayment found after the account closed.
const closedSince = " (the account has been closed since)"

// recordOverpayment records an overpayment or underpayment found by why, and stops the
// tickets an overpaid balance left in (stopOverpaid).
func (t *Table) recordOverpayment(tx *ledger.Tx, round, terminal, kind string, amount int64, why string, tickets ...string) error {
	now := t.now()
	o := ledger.Overpayment{ID: newID("P"), Terminal: terminal, Round: round, Kind: kind, Amount: amount,
		At: now, State: ledger.OverpaymentOpen, Reason: why, Tickets: tickets}
	if len(tickets) > 0 {
		o.Reason += "; left in ticket " + strings.Join(tickets, ", ")
	}
	if err := tx.PutOverpayment(o); err != nil {
		return err
	}
	if err := t.stopOverpaid(tx, o, changeOf(round, strings.TrimSuffix(why, closedSince)), now); err != nil {
		return err
	}
	t.log.Warn("settlement error for the operator to rectify (003 §8.13)", "kind", kind, "terminal", terminal,
		"round", round, "amount", money.Decimal(amount), "why", why, "id", o.ID)
	return tx.Event(kind, terminal, round, amount, o.ID+": "+why)
}

func overpaymentPB(o ledger.Overpayment) *pb.Overpayment {
	out := &pb.Overpayment{Id: o.ID, TerminalId: o.Terminal, RoundId: o.Round, Kind: o.Kind, Amount: o.Amount,
		AtUnixNanos: o.At.UnixNano(), State: o.State, Reason: o.Reason, ResolvedBy: o.ResolvedBy, Note: o.Note, Tickets: o.Tickets}
	if !o.ResolvedAt.IsZero() {
		out.ResolvedAtUnixNanos = o.ResolvedAt.UnixNano()
	}
	return out
}

// ListOverpayments lists the overpayments and underpayments, oldest first.
func (t *Table) ListOverpayments(openOnly bool) (*pb.ListOverpaymentsResponse, error) {
	os, err := t.led.Overpayments(context.Background(), openOnly)
	if err != nil {
		return nil, ledgerErr(err)
	}
	res := &pb.ListOverpaymentsResponse{}
	for _, o := range os {
		res.Overpayments = append(res.Overpayments, overpaymentPB(o))
	}
	return res, nil
}

// ResolveOverpayment closes an open overpayment or underpayment, recording who did it: an
// overpayment recovered from the player is money in; an underpayment paid to the player is
// money out; one written off moves to the house result. The identity holds throughout.
func (t *Table) ResolveOverpayment(actor string, req *pb.ResolveOverpaymentRequest) (*pb.Overpayment, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.actAs(actor)()
	if req.Id == "" {
		return nil, invalid("an overpayment id is required")
	}
	request := fmt.Sprintf("resolve %s %s", req.Id, req.Resolution)
	res, _, err := moneyCall(t, dealerScope(actor), req.IdempotencyKey, request, func() *pb.Overpayment { return &pb.Overpayment{} },
		func(tx *ledger.Tx, now time.Time) (*pb.Overpayment, func(), error) {
			o, ok, err := tx.Overpayment(req.Id)
			if err != nil {
				return nil, nil, err
			}
			if !ok {
				return nil, nil, status.Errorf(codes.NotFound, "no overpayment %s", req.Id)
			}
			if o.State != ledger.OverpaymentOpen {
				return nil, nil, failed("%s %s is already %s (by %s)", o.Kind, o.ID, o.State, o.ResolvedBy)
			}
			switch {
			case req.Resolution == ledger.OverpaymentRecovered && o.Kind == ledger.KindOverpayment:
				_, err = tx.AddMeter(ledger.MeterMoneyIn, o.Amount)
			case req.Resolution == ledger.OverpaymentPaid && o.Kind == ledger.KindUnderpayment:
				_, err = tx.AddMeter(ledger.MeterMoneyOut, o.Amount)
			case req.Resolution == ledger.OverpaymentWrittenOff && o.Kind == ledger.KindOverpayment:
				// Not recovered: the house bears it, as if the wrong win had stood.
				_, err = tx.AddMeter(ledger.MeterHouseResult, -o.Amount)
			case req.Resolution == ledger.OverpaymentWrittenOff && o.Kind == ledger.KindUnderpayment:
				// The player never claimed it: the house keeps it.
				_, err = tx.AddMeter(ledger.MeterHouseResult, o.Amount)
			default:
				return nil, nil, invalid("resolution %q of an %s: recovered (overpayment), paid (underpayment) or written-off", req.Resolution, o.Kind)
			}
			if err != nil {
				return nil, nil, err
			}
			o.State, o.ResolvedBy, o.ResolvedAt, o.Note = req.Resolution, actor, now, req.Note
			if err := tx.PutOverpayment(o); err != nil {
				return nil, nil, err
			}
			if err := t.releaseOverpaid(tx, o, actor, req.Note, now); err != nil {
				return nil, nil, err
			}
			return overpaymentPB(o), nil, tx.Event(o.Kind+"-"+o.State, o.Terminal, o.Round, o.Amount, o.ID+" by "+actor+": "+req.Note)
		})
	return res, err
}

func keysOf[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}
