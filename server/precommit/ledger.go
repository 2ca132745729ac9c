package precommit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tablegames/ats/server/ledger"
)

// LedgerStore is the Store in the table's ledger: a table's SQLite file, or the floor's
// PostgreSQL schema floor, where every table server of the floor reads and locks one row per
// card. Every change is journalled in the table's log (kind "precommit") in its transaction.
type LedgerStore struct {
	L *ledger.Ledger
	S Settings

	allows allowGroup // Allow's calls, committed in groups (allowgroup.go)
}

var _ Store = (*LedgerStore)(nil)

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func timeOf(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func cardOf(r ledger.CardRow) Card {
	return Card{ID: r.Card, State: State(r.State),
		Limits:   Limits{Loss: r.LossLimit, Time: time.Duration(r.TimeLimit), Bar: time.Duration(r.Bar)},
		Next:     Limits{Loss: r.NextLoss, Time: time.Duration(r.NextTime), Bar: time.Duration(r.NextBar)},
		NextFrom: timeOf(r.NextFrom), PeriodStart: timeOf(r.PeriodStart),
		Staked: r.Staked, Returned: r.Returned, Reserved: r.Reserved,
		BarredUntil: timeOf(r.BarredUntil), BarredFor: r.BarredFor, HeldBy: r.HeldBy,
		PlayFrom: timeOf(r.PlayFrom), PlayedAt: timeOf(r.PlayedAt), BreakUntil: timeOf(r.BreakUntil)}
}

func rowOf(c Card, now time.Time) ledger.CardRow {
	return ledger.CardRow{Card: c.ID, State: string(c.State),
		LossLimit: c.Limits.Loss, TimeLimit: int64(c.Limits.Time), Bar: int64(c.Limits.Bar),
		NextLoss: c.Next.Loss, NextTime: int64(c.Next.Time), NextBar: int64(c.Next.Bar),
		NextFrom: nanos(c.NextFrom), PeriodStart: nanos(c.PeriodStart),
		Staked: c.Staked, Returned: c.Returned, Reserved: c.Reserved,
		BarredUntil: nanos(c.BarredUntil), BarredFor: c.BarredFor, HeldBy: c.HeldBy, Changed: now.UnixNano(),
		PlayFrom: nanos(c.PlayFrom), PlayedAt: nanos(c.PlayedAt), BreakUntil: nanos(c.BreakUntil)}
}

// change runs changeIn in a transaction of its own.
func (s *LedgerStore) change(ctx context.Context, id string, now time.Time, create bool,
	fn func(tx *ledger.Tx, c *Card, known bool) (detail string, amount int64, err error)) (Card, error) {
	var out Card
	var refusal *Refusal
	err := s.L.Update(ctx, now, func(tx *ledger.Tx) error {
		var err error
		out, refusal, err = s.changeIn(tx, id, now, create, fn)
		return err
	})
	if err != nil {
		return Card{}, err
	}
	if refusal != nil {
		return out, refusal
	}
	return out, nil
}

// changeIn runs fn on card id brought to now, under its row lock, in tx, and writes it back
// with a journal record of what fn says it did (detail; "" records nothing). A *Refusal fn
// returns is kept with the card's state (a bar the time limit brought, the refusal
// journalled) and returned beside it, for the caller to commit and then refuse.
func (s *LedgerStore) changeIn(tx *ledger.Tx, id string, now time.Time, create bool,
	fn func(tx *ledger.Tx, c *Card, known bool) (detail string, amount int64, err error)) (Card, *Refusal, error) {
	row, known, err := tx.Card(id)
	if err != nil {
		return Card{}, nil, err
	}
	c := Card{ID: id}
	var spans string
	if known {
		c = cardOf(row)
		if spans, err = tx.CardSpans(id); err != nil {
			return Card{}, nil, err
		}
		if c.Spans, err = DecodeSpans(spans); err != nil {
			return Card{}, nil, err
		}
		c.roll(now, s.S.withDefaults())
	}
	detail, amount, err := fn(tx, &c, known)
	var refusal *Refusal
	if errors.As(err, &refusal) {
		detail, amount = "refused ("+refusal.Reason+"): "+refusal.Words, 0
	} else if err != nil {
		return Card{}, nil, err
	}
	if known || (create && refusal == nil) {
		if err := tx.PutCard(rowOf(c, now)); err != nil {
			return Card{}, nil, err
		}
		if now := EncodeSpans(c.Spans); now != spans {
			if err := tx.PutCardSpans(id, now); err != nil {
				return Card{}, nil, err
			}
		}
	}
	if detail != "" {
		if err := tx.Event("precommit", "", "", amount, "card "+id+": "+detail); err != nil {
			return Card{}, nil, err
		}
	}
	return c, refusal, nil
}

// Card implements Store.
func (s *LedgerStore) Card(ctx context.Context, id string, now time.Time) (Card, error) {
	return s.change(ctx, id, now, false, func(_ *ledger.Tx, c *Card, known bool) (string, int64, error) {
		if !known {
			return "", 0, fmt.Errorf("%w: %s", ErrUnknown, id)
		}
		return "", 0, nil
	})
}

// Register implements Store.
func (s *LedgerStore) Register(ctx context.Context, id string, state State, who string, now time.Time) (Card, error) {
	if !state.Valid() {
		return Card{}, fmt.Errorf("precommit: card %s: no state %q", id, state)
	}
	if who == "" {
		return Card{}, fmt.Errorf("precommit: card %s: registered to no one: record the identity checked", id)
	}
	return s.change(ctx, id, now, true, func(_ *ledger.Tx, c *Card, _ bool) (string, int64, error) {
		c.State = state
		if state != Registered {
			c.HeldBy = "" // a lost or barred card holds no seat
		}
		return string(state) + ": " + who, 0, nil
	})
}

// SetLimits implements Store.
func (s *LedgerStore) SetLimits(ctx context.Context, id string, l Limits, now time.Time) (Card, error) {
	set := s.S.withDefaults()
	return s.change(ctx, id, now, false, func(_ *ledger.Tx, c *Card, known bool) (string, int64, error) {
		if r := stateRefusal(*c, known, now); r != nil && r.Reason != "no limits" && r.Reason != "bar" {
			return "", 0, r
		}
		if err := c.setLimits(l, now, set); err != nil {
			return "", 0, err
		}
		d := fmt.Sprintf("limits asked: loss %s, time %v, bar %v; in force: loss %s, time %v, bar %v",
			cents(l.Loss), l.Time, l.Bar, cents(c.Limits.Loss), c.Limits.Time, c.Limits.Bar)
		if !c.NextFrom.IsZero() {
			d += "; the rest from " + c.NextFrom.UTC().Format(time.RFC3339)
		}
		return d, l.Loss, nil
	})
}

// Claim implements Store.
func (s *LedgerStore) Claim(ctx context.Context, id, seat string, now time.Time) (Card, error) {
	return s.change(ctx, id, now, false, func(_ *ledger.Tx, c *Card, known bool) (string, int64, error) {
		if r := stateRefusal(*c, known, now); r != nil {
			return "", 0, r
		}
		if c.HeldBy != "" && c.HeldBy != seat {
			return "", 0, inUse(*c)
		}
		if c.HeldBy == seat {
			return "", 0, nil
		}
		c.HeldBy = seat
		return "held at " + seat, 0, nil
	})
}

// Release implements Store.
func (s *LedgerStore) Release(ctx context.Context, id, seat string, now time.Time) error {
	_, err := s.change(ctx, id, now, false, func(_ *ledger.Tx, c *Card, known bool) (string, int64, error) {
		if !known || c.HeldBy != seat {
			return "", 0, nil
		}
		c.HeldBy = ""
		return "released by " + seat, 0, nil
	})
	return err
}

// holdFor reads what h keeps back, for a stake or an allowance of amount: done when there is
// nothing to decide (a closed hold withdrawn from, or an unknown card's hold lowered), or the
// refusal of a closed round, an unknown card, or a card at another seat.
func holdFor(tx *ledger.Tx, c *Card, known bool, h Hold, amount int64, now time.Time) (old int64, done bool, err error) {
	old, _, err = tx.CardHold(h.Card, h.Key())
	switch {
	case err != nil:
		return 0, true, err
	case old == closed && amount > 0:
		// The round settled (or was voided) while this slip was on its way: it stakes
		// nothing, and nothing of the round is reserved again.
		return 0, true, refuse(*c, "closed", time.Time{}, "This round's wagering has closed.")
	case old == closed || !known && amount <= old:
		return old, true, nil
	case !known:
		return 0, true, stateRefusal(*c, false, now)
	case c.HeldBy != "" && c.HeldBy != h.Seat() && amount > old:
		return 0, true, inUse(*c)
	}
	return old, false, nil
}

// inUse is the refusal of a card held at another seat.
func inUse(c Card) *Refusal {
	return refuse(c, "in use", time.Time{}, "Player card %s is in use at another seat: one card plays at one seat at a time.", c.ID)
}

// Stake implements Store.
func (s *LedgerStore) Stake(ctx context.Context, h Hold, amount int64, now time.Time) (Card, error) {
	return s.change(ctx, h.Card, now, false, func(tx *ledger.Tx, c *Card, known bool) (string, int64, error) {
		old, done, err := holdFor(tx, c, known, h, amount, now)
		if done {
			return "", 0, err
		}
		if r := c.stake(old, amount, now, s.S.withDefaults()); r != nil {
			return "", 0, r
		}
		if amount == old {
			return "", 0, nil
		}
		return "", 0, tx.PutCardHold(h.Card, h.Key(), amount)
	})
}

// Allow implements Store. The calls that arrive while one is committing are committed
// together in the next transaction (allowgroup.go): at a round's first slips every seat asks
// at once, and one durable commit for each was a queue the last seat waited seconds in.
func (s *LedgerStore) Allow(ctx context.Context, h Hold, need int64, played Played, now time.Time) (Card, int64, error) {
	return s.allows.allow(s, &allowCall{ctx: ctx, h: h, need: need, played: played, now: now})
}

// allowOne is Allow in a transaction of its own.
func (s *LedgerStore) allowOne(ctx context.Context, h Hold, need int64, played Played, now time.Time) (Card, int64, error) {
	var (
		c         Card
		refusal   *Refusal
		allowance int64
	)
	err := s.L.Update(ctx, now, func(tx *ledger.Tx) error {
		var err error
		c, refusal, allowance, err = s.allowIn(tx, h, need, played, now)
		return err
	})
	switch {
	case err != nil:
		return Card{}, 0, err
	case refusal != nil:
		return c, 0, refusal
	}
	return c, allowance, nil
}

// allowIn is Allow's check and reservation in tx: the card, or its refusal (kept with the
// card's state, as changeIn keeps it), and the allowance.
func (s *LedgerStore) allowIn(tx *ledger.Tx, h Hold, need int64, played Played, now time.Time) (Card, *Refusal, int64, error) {
	var allowance int64
	c, refusal, err := s.changeIn(tx, h.Card, now, false, func(tx *ledger.Tx, c *Card, known bool) (string, int64, error) {
		old, done, err := holdFor(tx, c, known, h, need, now)
		if done {
			return "", 0, err
		}
		if c.HeldBy != "" && c.HeldBy != h.Seat() { // even for no more than the hold kept
			return "", 0, inUse(*c)
		}
		// An allowance is a new stake however much the hold kept: the hold's old amount is
		// replaced, and the card's state, time and loss are checked as for a fresh stake.
		c.played(played, now, s.S)
		c.Reserved -= old
		if r := c.stake(0, need, now, s.S.withDefaults()); r != nil {
			c.Reserved += old // refused: the hold stands as it was (a time-up bar is kept)
			return "", 0, r
		}
		left := c.LossLeft()
		c.Reserved += left
		allowance = need + left
		return "", 0, tx.PutCardHold(h.Card, h.Key(), allowance)
	})
	if err != nil || refusal != nil {
		return c, refusal, 0, err
	}
	return c, nil, allowance, nil
}

// ReserveIn reserves for h, in tx (the transaction that opens h's round: server/rounds.go
// startRound), everything the card has left under its loss limit — the seat's allowance for
// the round, in place before its first slip, so that slip makes no store call. A reservation
// is not play: the card's limit period, continuous play and breaks are left as they are (a
// player who places nothing this round has not played). It is taken only where a stake could
// be taken now: the card held at h's seat, and a stake of 1 cent taken by Card.stake on a copy
// of the card (state, bar, break, time limit, day's and week's play). Otherwise it reserves
// nothing (0, no error): the seat's first slip then goes to the store as Allow and is refused
// there in words, with whatever the refusal brings (a time limit's bar) recorded.
//
// bounds is that copy after the stake: the card as if play had started at now. Its time limit,
// break due and play time due are the earliest the real ones can be (play starts at the first
// slip, at or after now), so an allowance that ends at them is conservative: a slip past them
// goes to the store, which decides exactly.
func (s *LedgerStore) ReserveIn(tx *ledger.Tx, h Hold, now time.Time) (bounds Card, amount int64, err error) {
	set := s.S.withDefaults()
	_, _, err = s.changeIn(tx, h.Card, now, false, func(tx *ledger.Tx, c *Card, known bool) (string, int64, error) {
		if !known || c.HeldBy != h.Seat() {
			return "", 0, nil // released or taken elsewhere since the round's seats were read
		}
		old, ok, err := tx.CardHold(h.Card, h.Key())
		if err != nil || ok && old != 0 {
			return "", 0, err // the seat's hold of the round exists already: leave it to Allow
		}
		cp := *c
		cp.Spans = append([]Span(nil), c.Spans...)
		if cp.stake(0, 1, now, set) != nil {
			return "", 0, nil
		}
		left := c.LossLeft()
		if left <= 0 {
			return "", 0, nil
		}
		c.Reserved += left
		bounds, amount = cp, left
		return "", 0, tx.PutCardHold(h.Card, h.Key(), left)
	})
	if err != nil {
		return Card{}, 0, err
	}
	return bounds, amount, nil
}

// closed is a hold's amount once its round has settled or been voided: it holds nothing and
// takes no stake again (a slip racing the settlement).
const closed = -1

// Settle implements Store.
func (s *LedgerStore) Settle(ctx context.Context, h Hold, staked, returned int64, now time.Time) (Card, error) {
	var out Card
	err := s.L.Update(ctx, now, func(tx *ledger.Tx) error {
		var err error
		out, err = s.SettleIn(tx, h, staked, returned, Played{})
		return err
	})
	return out, err
}

// SettleIn is Settle in the transaction that settles the round (server/rounds.go), so a
// round's settlement and its cards' play commit together or not at all: a restart between
// the slip and its settlement settles both again, once. played is the seat's play under its
// allowance of the round that the store has not seen (the slips a reservation covered): it is
// counted first, as a stake at its first slip would have counted it.
func (s *LedgerStore) SettleIn(tx *ledger.Tx, h Hold, staked, returned int64, played Played) (Card, error) {
	now := tx.Now()
	if staked < 0 || returned < 0 {
		return Card{}, fmt.Errorf("precommit: hold %s: staked %d, returned %d: below zero", h.Key(), staked, returned)
	}
	c, _, err := s.changeIn(tx, h.Card, now, false, func(tx *ledger.Tx, c *Card, known bool) (string, int64, error) {
		held, ok, err := tx.CardHold(h.Card, h.Key())
		if err != nil || !ok || !known || held == closed {
			return "", 0, err // settled already, or never staked: nothing to count
		}
		barred := c.BarredUntil
		c.played(played, now, s.S)
		c.Reserved -= held
		c.settle(staked, returned, now)
		if err := tx.PutCardHold(h.Card, h.Key(), closed); err != nil {
			return "", 0, err
		}
		d := fmt.Sprintf("%s settled: staked %s returned %s; net loss %s of %s", h.Key(), cents(staked), cents(returned), cents(c.NetLoss()), cents(c.Limits.Loss))
		if barred.IsZero() && !c.BarredUntil.IsZero() {
			d += "; loss limit reached: barred until " + c.BarredUntil.UTC().Format(time.RFC3339)
		}
		return d, staked, nil
	})
	return c, err
}

// Void implements Store.
func (s *LedgerStore) Void(ctx context.Context, h Hold, now time.Time) (Card, error) {
	var out Card
	err := s.L.Update(ctx, now, func(tx *ledger.Tx) error {
		var err error
		out, err = s.VoidIn(tx, h, Played{})
		return err
	})
	return out, err
}

// VoidIn is Void in a transaction of the caller's. played is the seat's play under its
// allowance that the store has not seen (a cash-out voiding slips a reservation covered): the
// wagers are voided, but the player played, and continuous play and the limit period count it.
func (s *LedgerStore) VoidIn(tx *ledger.Tx, h Hold, played Played) (Card, error) {
	now := tx.Now()
	c, _, err := s.changeIn(tx, h.Card, now, false, func(tx *ledger.Tx, c *Card, known bool) (string, int64, error) {
		held, ok, err := tx.CardHold(h.Card, h.Key())
		if err != nil || !ok || !known || held <= 0 { // closed, or released already: nothing held
			return "", 0, err
		}
		c.played(played, now, s.S)
		c.Reserved -= held
		// 0, not closed: the seat may wager in the round again (a cash-out voided its slip and
		// the player bought in again); a void round takes no slip anyway.
		return h.Key() + " void: stake released", held, tx.PutCardHold(h.Card, h.Key(), 0)
	})
	return c, err
}

// RecountIn counts, in tx (the correction's or the invalidation's), what a corrected or
// invalidated round changed of a settled wager's play on its card (issue 31): staked and
// returned are the wager's figures now, wasStaked and wasReturned what its settlement counted.
// closedAt is when the round's wagering closed: a wager of a limit period since ended changes
// nothing of the period in progress (its counts were closed with it). A net loss the change
// takes to the loss limit bars the card from now, as a settlement would — never before: the
// wagers already accepted stand. A bar a settlement brought stands when a correction lowers
// the net loss again. A hold never settled on the card (none, or still open) is not counted.
func (s *LedgerStore) RecountIn(tx *ledger.Tx, h Hold, staked, returned, wasStaked, wasReturned int64, closedAt time.Time, why string) (Card, error) {
	now := tx.Now()
	if staked < 0 || returned < 0 || wasStaked < 0 || wasReturned < 0 {
		return Card{}, fmt.Errorf("precommit: hold %s: a recount below zero", h.Key())
	}
	c, _, err := s.changeIn(tx, h.Card, now, false, func(tx *ledger.Tx, c *Card, known bool) (string, int64, error) {
		held, ok, err := tx.CardHold(h.Card, h.Key())
		if err != nil || !ok || !known || held != closed {
			return "", 0, err
		}
		if c.PeriodStart.IsZero() || c.PeriodStart.After(closedAt) {
			return fmt.Sprintf("%s %s: a wager of an ended limit period; the period in progress is unchanged", h.Key(), why), 0, nil
		}
		barred := c.BarredUntil
		c.Staked += staked - wasStaked
		c.Returned += returned - wasReturned
		c.Staked, c.Returned = max(c.Staked, 0), max(c.Returned, 0)
		c.settle(0, 0, now) // bars from now if the net loss has reached the limit
		d := fmt.Sprintf("%s %s: staked %s returned %s (was %s, %s); net loss %s of %s", h.Key(), why, cents(staked), cents(returned),
			cents(wasStaked), cents(wasReturned), cents(c.NetLoss()), cents(c.Limits.Loss))
		if barred.IsZero() && !c.BarredUntil.IsZero() {
			d += "; loss limit reached: barred until " + c.BarredUntil.UTC().Format(time.RFC3339)
		}
		return d, staked - wasStaked, nil
	})
	return c, err
}
