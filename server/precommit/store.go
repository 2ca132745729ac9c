package precommit

import (
	"context"
	"errors"
	"time"
)

// Hold names the stake one seat's slip of one round keeps back on a card: the unit a slip
// update reserves, a settlement turns into play and a voided round releases.
type Hold struct {
	Card, Table, Terminal, Round string
}

// Key is the hold's name in the store: table/terminal/round.
func (h Hold) Key() string { return h.Table + "/" + h.Terminal + "/" + h.Round }

// Seat is the seat a hold is at ("T1/T01"), as Card.HeldBy names it.
func (h Hold) Seat() string { return h.Table + "/" + h.Terminal }

// Played is a seat's play on its card that the store has not yet seen: the first and the
// latest of the seat's slips covered by an allowance in memory (server/carded.go). A slip
// under a reservation (LedgerStore.ReserveIn) is play the store learns of only at the next
// Allow or at the round's settlement; it is then counted exactly as Card.stake would have
// counted it at First — the limit period and continuous play start there, not at the
// reservation. First is zero when the store saw the first slip itself (an Allow staked it):
// only Last is news then.
type Played struct{ First, Last time.Time }

// ErrUnknown is a card the store has never registered.
var ErrUnknown = errors.New("precommit: card not registered")

// Store is where cards live: the table's ledger (LedgerStore), or a state's pre-commitment
// system. Each call is one transaction; Stake's check and reservation are one, under one lock
// per card floor-wide, which is what makes a limit bind across seats and tables.
type Store interface {
	// Card is a card brought to now (raised limits in force after their cooling-off, a bar
	// lifted); ErrUnknown for a card never registered.
	Card(ctx context.Context, id string, now time.Time) (Card, error)
	// Register sets a card's state (registered, lost, barred), recording who. It does not
	// know persons: the cage registers a card to a person with LedgerStore.RegisterTo and
	// reports it with LedgerStore.Report (identity.go), which keep one person one card.
	Register(ctx context.Context, id string, state State, who string, now time.Time) (Card, error)
	// SetLimits sets a card's limits: lower at once, higher after the cooling-off.
	SetLimits(ctx context.Context, id string, l Limits, now time.Time) (Card, error)
	// Claim holds the card for a seat's session (Hold.Seat): refused (*Refusal) if it is held
	// at another seat, not registered, lost, barred or without limits.
	Claim(ctx context.Context, id, seat string, now time.Time) (Card, error)
	// Release ends the seat's session with the card (its cash-out): another seat may claim it.
	Release(ctx context.Context, id, seat string, now time.Time) error
	// Stake checks that h may keep back amount (its slip's total now) and reserves it, in one
	// transaction: a *Refusal if that would pass a limit.
	Stake(ctx context.Context, h Hold, amount int64, now time.Time) (Card, error)
	// Allow is Stake(need) that also reserves for h everything else the card has left under
	// its loss limit: its allowance, which Allow returns (at least need). The seat's further
	// slips of the round up to the allowance need no call to the store — the card is held at
	// that one seat, so no other seat could have used it. Settle releases what was not staked.
	// played is the seat's play under its allowance of h's round that the store has not seen
	// (Played; zero: none): the store counts it as a stake at its first slip would have.
	Allow(ctx context.Context, h Hold, need int64, played Played, now time.Time) (c Card, allowance int64, err error)
	// Settle releases h's reservation and counts its play: what the settled slip staked (its
	// acknowledged total; 0 for a slip not recognised) and returned. A hold settled or voided
	// once is closed: a second settlement counts nothing, and a stake on it is refused.
	Settle(ctx context.Context, h Hold, staked, returned int64, now time.Time) (Card, error)
	// Void releases h's stake unplayed (a voided round).
	Void(ctx context.Context, h Hold, now time.Time) (Card, error)
}
