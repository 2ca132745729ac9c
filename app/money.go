package app

import (
	"context"
	"errors"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/recall"
)

// Money on the screen: Cash out, what the money devices say, and the game records. The cashier
// (app/cashier) runs the money paths; the station tells the terminal its status
// (MoneyChanged), and the terminal chooses how the player hears of it, like everything else.

// Cashier is cash-out as the screen asks for it: app/cashier.Cashier on a terminal.
type Cashier interface {
	// CashOut prints a ticket for the whole balance and closes the account (001 §6.6.1(b)).
	CashOut(ctx context.Context) error
}

// DealerCashOutAsker is a link that can ask the dealer to pay the balance out in chips
// (client.Client): Cash out at a table that pays only at the dealer (004 §6.6, 000 §11.7.6).
type DealerCashOutAsker interface {
	RequestDealerCashOut(ctx context.Context) (int64, error)
}

// ErrCashOutBusy is the cashier's answer while a cash-out is already under way: not news.
var ErrCashOutBusy = errors.New("a cash-out is already under way")

// ErrCashOutRefused is the cashier's refusal it has already told the player: not news again.
var ErrCashOutRefused = errors.New("cash-out refused")

// MoneyStatus is what the money devices are doing, for the screen.
type MoneyStatus struct {
	Cashier    bool    // the terminal has a cashier (a printer): Cash out can print
	Message    msg.Msg // the latest money event (credited, take your ticket, …)
	Fault      msg.Msg // the device faults stopping money in or out; zero when none
	CashingOut bool
	TakeTicket bool // a ticket was printed: take it
	Handpay    bool // the ticket could not be printed: an attendant pays by hand
	Said       int  // messages said so far: the same words said again (a second "Credited 100.00") are news
	// PrinterDown: the printer cannot print now, so Cash out is refused before money moves.
	PrinterDown bool
}

func (s MoneyStatus) same(o MoneyStatus) bool {
	return s.Cashier == o.Cashier && s.Message.Equal(o.Message) && s.Fault.Equal(o.Fault) && s.CashingOut == o.CashingOut &&
		s.TakeTicket == o.TakeTicket && s.Handpay == o.Handpay && s.Said == o.Said && s.PrinterDown == o.PrinterDown
}

// MoneyChanged is the cashier's new status. Its news is told as money news once per change;
// a fault stands on the message line until it clears.
func (t *Terminal) MoneyChanged(s MoneyStatus) {
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.money
	if s.same(old) {
		return // a device poll that changed nothing: no new view, no repaint
	}
	t.money = s
	if !s.Message.IsZero() && (!s.Message.Equal(old.Message) || s.Said != old.Said) {
		t.sayLocked(s.Message, MoneyNews)
	}
	t.board.set("money-devices", s.Fault, MoneyNews)
	t.changedLocked()
}

// CashOut prints the player's ticket through the cashier, off the caller's goroutine (the
// screen never waits on a printer); what becomes of it comes back as MoneyChanged.
//
// Where the rules pay the balance out in chips at the dealer (004 §6.6, 000 §11.7.6) no ticket
// is printed (the table would refuse it): the player is told to ask the dealer, who closes the
// account at the console and pays the chips (the screen then says so, AccountClosed).
func (t *Terminal) CashOut() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.view.Config.DealerCashOnly {
		t.sayLocked(msg.New("Cash out at the dealer: the dealer is called to pay your balance of %s in chips at the table", money.Amount(t.view.Balance)), Answer)
		t.changedLocked()
		asker, ok := t.link.(DealerCashOutAsker)
		if !ok {
			return
		}
		ctx := t.ctx
		t.goLocked(func() {
			// The dealer's status shows the request until the dealer pays and closes the
			// account; the screen learns of that from the table (AccountClosed).
			if _, err := asker.RequestDealerCashOut(ctx); err != nil && ctx.Err() == nil {
				t.mu.Lock()
				t.sayLocked(msg.New("the dealer could not be told: %s", msg.Of(err)), MoneyNews)
				t.changedLocked()
				t.mu.Unlock()
			}
		})
		return
	}
	if t.cashier == nil {
		t.sayLocked(msg.New("Cash-out prints a ticket at the printer."), Answer)
		t.changedLocked()
		return
	}
	t.sayLocked(msg.New("Printing your ticket"), MoneyNews)
	t.changedLocked()
	ctx := t.ctx
	t.goLocked(func() {
		if err := t.cashier.CashOut(ctx); err != nil && !errors.Is(err, ErrCashOutBusy) && !errors.Is(err, ErrCashOutRefused) && ctx.Err() == nil {
			t.mu.Lock()
			t.sayLocked(msg.Of(err), MoneyNews)
			t.changedLocked()
			t.mu.Unlock()
		}
	})
}

// Recall reads the game records back (recall.Reader on a terminal).
type Recall interface {
	Rounds(ctx context.Context, n int) ([]recall.Round, error)
	Tickets(ctx context.Context, n int) (printed, accepted []recall.Ticket, err error)
}

// GameRecords is the last-game recall and the last tickets, for the screen.
type GameRecords struct {
	Rounds            []recall.Round
	Printed, Accepted []recall.Ticket
}

// ErrNoRecords: the terminal has no game records to read.
var ErrNoRecords = msg.Err("no game records on this terminal")

// GameRecords reads the last rounds and tickets from the records.
func (t *Terminal) GameRecords(ctx context.Context, rounds, tickets int) (GameRecords, error) {
	if t.recall == nil {
		t.mu.Lock()
		defer t.mu.Unlock()
		return GameRecords{}, t.refuseLocked(ErrNoRecords)
	}
	var g GameRecords
	var err error
	if g.Rounds, err = t.recall.Rounds(ctx, rounds); err == nil {
		g.Printed, g.Accepted, err = t.recall.Tickets(ctx, tickets)
	}
	if err != nil {
		t.mu.Lock()
		t.sayLocked(msg.New("Game records cannot be read: %s", err.Error()), Answer)
		t.changedLocked()
		t.mu.Unlock()
	}
	return g, err
}
