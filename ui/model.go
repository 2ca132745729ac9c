package ui

import (
	"context"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
)

// Model is the terminal as the screen sees it, and all the screen depends on: one view, told
// on every change, and every action a player can take. *app.Terminal is the real one.
//
// The screen draws the view and calls the actions; it decides nothing. Which message the
// player reads (View.Message), which period state holds (View.Period), what a refusal says:
// all are the model's. An action's refusal comes back in the view as well as the error, so the
// screen never writes a message of its own.
type Model interface {
	View() app.View
	// OnChange registers the function told each new view, in order.
	OnChange(func(app.View))
	// Remaining is the wagering time left on the table's clock, for the countdown.
	Remaining() time.Duration

	SelectChip(amount int64)
	Place(b roulette.Bet) (app.Feedback, error)
	Move(from, to roulette.Bet) (app.Feedback, error)
	Remove(b roulette.Bet) error
	Undo() error
	Clear() error
	Repeat() error
	Double() error
	// Explain is touch and hold: what the spot pays and its limits, as a hint.
	Explain(b roulette.Bet)
	SaveFavourite() error
	PlaceFavourite(f app.Favourite) error

	ConfirmBuyIn(ctx context.Context, accept bool) error
	// CashOut prints the ticket (or says why not); it does not wait for the printer.
	CashOut()
	GameRecords(ctx context.Context, rounds, tickets int) (app.GameRecords, error)
	// SetSecret marks this round's tournament wagers undisclosed (003 §10.8).
	SetSecret(on bool) error
	// EndTurn ends the player's turn under an order of wagering (003 §10.9): the wagers on the
	// layout go to the table as final, or with none a pass card is played.
	EndTurn() error
	// CallDealer raises the player's call on the dealer console: a claim or a fault (001 §9.5).
	CallDealer(ctx context.Context) error
	// SetMuted is the player's mute of the terminal's sounds (the Sound button).
	SetMuted(on bool)
}

var _ Model = (*app.Terminal)(nil)
