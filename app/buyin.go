package app

import (
	"context"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/internal/backoff"
)

// The dealer buy-in (004 §6.3(c)): the dealer credits from the console, and the player confirms
// it on the screen before it counts.

// buyInKey is the idempotency key of the answer to buy-in id: derived from the id alone, so a
// second touch, a retry and a restart all send the same one.
func buyInKey(id string) string { return "buy-in-" + id }

// ConfirmBuyIn answers a dealer buy-in offer. An acceptance is journalled (with the key the
// table is asked with) before the table is asked, and the table's answer after: money the table
// credits is never missing from the terminal's records, nor counted twice.
// A failure is told to the player, as money news.
func (t *Terminal) ConfirmBuyIn(ctx context.Context, accept bool) error {
	err := t.confirmBuyIn(ctx, accept)
	if err != nil && ctx.Err() == nil {
		t.mu.Lock()
		t.sayLocked(msg.Of(err), MoneyNews)
		t.changedLocked()
		t.mu.Unlock()
	}
	return err
}

func (t *Terminal) confirmBuyIn(ctx context.Context, accept bool) error {
	t.mu.Lock()
	b, rec := t.view.BuyIn, t.records
	t.mu.Unlock()
	if b == nil {
		return msg.Err("no buy-in to confirm")
	}
	if !accept {
		// Declining moves no money: there is nothing to journal.
		if _, err := t.link.ConfirmBuyIn(ctx, buyInKey(b.ID), b.ID, false); err != nil {
			return err
		}
		t.buyInAnswered(b.ID)
		return nil
	}
	a := table.AcceptedBuyIn{ID: b.ID, Key: buyInKey(b.ID), Amount: b.Amount}
	if rec != nil {
		if err := rec.BuyInAccepted(ctx, a); err != nil {
			t.log.Error("game records: dealer buy-in acceptance not recorded", "buy-in", b.ID, "err", err)
			return msg.Err("the terminal could not record the buy-in: %s", err.Error())
		}
	}
	return t.finishBuyIn(ctx, rec, a)
}

// finishBuyIn asks the table to credit an accepted buy-in and records its answer. An error
// that is not the table's refusal leaves the buy-in open, to be asked again with the same key.
func (t *Terminal) finishBuyIn(ctx context.Context, rec Recorder, a table.AcceptedBuyIn) error {
	m, err := t.link.ConfirmBuyIn(ctx, a.Key, a.ID, true)
	if err != nil && !table.Refused(err) {
		return err
	}
	if rec != nil {
		credited, why := m.Amount, ""
		if err != nil {
			credited, why = 0, err.Error()
		}
		if rerr := rec.BuyInDone(ctx, a, credited, why); rerr != nil {
			// The table has answered; the journal still holds the acceptance open, so the next
			// start asks again with the same key, gets the same answer and records it then.
			t.log.Error("game records: dealer buy-in outcome not recorded", "buy-in", a.ID, "err", rerr)
		}
	}
	credited := m.Amount
	if credited == 0 && !m.Replayed {
		credited = a.Amount // a table that answers without the amount credited what it offered
	}
	if err == nil && credited > 0 {
		// The player's answer is done: the line says what it did (issue 32), as a note's
		// credit does, not the refusal of a touch made while the offer stood.
		t.mu.Lock()
		t.sayLocked(msg.New("Credited %s", money.Amount(credited)), MoneyNews)
		t.mu.Unlock()
	}
	t.buyInAnswered(a.ID)
	return err
}

// buyInAnswered takes the offer off the screen once the table has its answer, for good.
func (t *Terminal) buyInAnswered(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.answered[id] = true
	if t.view.BuyIn != nil && t.view.BuyIn.ID == id {
		t.view.BuyIn = nil
		t.board.drop(Answer) // "confirm the dealer's buy-in first" is answered
		t.greetLocked()
		t.changedLocked()
	}
}

// recoverBuyIns finishes the buy-ins the player accepted before the terminal went down and
// whose answer from the table was never recorded (open): each is asked for again with its own
// key, until the table answers or ctx ends.
func (t *Terminal) recoverBuyIns(ctx context.Context, open []table.AcceptedBuyIn) {
	for _, a := range open {
		// The table's answer, a refusal included, is recorded by finishBuyIn.
		backoff.Policy{Clock: t.clk}.Retry(ctx, func(ctx context.Context) error {
			err := t.finishBuyIn(ctx, t.records, a)
			if err != nil && !table.Refused(err) {
				t.log.Warn("dealer buy-in accepted before the restart: the table has not answered yet", "buy-in", a.ID, "err", err)
			}
			return err
		}, func(err error) bool { return err == nil || table.Refused(err) || ctx.Err() != nil })
		if ctx.Err() != nil {
			return
		}
	}
}
