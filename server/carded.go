package server

// Carded play and binding pre-commitment at the table (SPEC §10, issue 31): where the table is
// carded (Config.Carded: Crown's rules, or the operator's -carded) no card, no wager; the seat's
// card is held for its session (claimed at its first slip, released at its cash-out), and every
// slip's total is reserved against the card's limits by server/precommit before the table
// acknowledges it — the check and the reservation one transaction on the card's row, floor-wide
// — so a slip that would take the card past its loss limit, or any wager after its time is up
// or during its bar, is refused with the words the player reads, at whichever seat or table.
//
// Order of a carded slip update (updateSlipSent): the seat's own lock (slipsOf: one slip of a
// seat at a time, which a seat's Slips stream is anyway); the card claimed; the slip priced
// outside the table's lock; its total staked on the card (precommit.Store.Stake, outside the
// table's lock, so one seat's database round trip never holds up another's slip); then stored
// under the table's lock. Should the store fail (the period closed meanwhile, a newer version,
// a credit changed the price) the card's hold is put back to the slip the table acknowledges,
// so a reservation is never less than what the table will settle: a race may refuse a wager
// that would have fitted, never take one that does not. The round's settlement turns each
// hold into play in its own transaction (rounds.go, settle: precommit.LedgerStore.SettleIn);
// a hold whose round settled is closed, so a slip racing the settlement stakes nothing. A
// restart voids the wagering round's holds (recoverHolds), as it voids the round's wagers.

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/precommit"
)

// cardStore is what the table needs of the card store: the Store, and the settlement of a
// round's holds in the round's own ledger transaction (LedgerStore's).
type cardStore interface {
	precommit.Store
	SettleIn(tx *ledger.Tx, h precommit.Hold, staked, returned int64) (precommit.Card, error)
	VoidIn(tx *ledger.Tx, h precommit.Hold) (precommit.Card, error)
}

// carded is the table's carded play: the store, and each seat's lock and claimed card.
type carded struct {
	store cardStore
	mu    sync.Mutex
	seats map[string]*seatCard
}

type seatCard struct {
	mu   sync.Mutex // one carded slip of the seat at a time
	card string     // the card the seat holds for its session ("" none); under mu
}

func (c *carded) seat(terminal string) *seatCard {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.seats[terminal]
	if s == nil {
		s = &seatCard{}
		c.seats[terminal] = s
	}
	return s
}

// tableID names this table in a hold ("T1"; "table" for a table server given no id).
func (t *Table) tableID() string {
	if t.cfg.TableID == "" {
		return "table"
	}
	return t.cfg.TableID
}

func (t *Table) hold(card, terminal, roundID string) precommit.Hold {
	return precommit.Hold{Card: card, Table: t.tableID(), Terminal: terminal, Round: roundID}
}

// cardRefusal turns the store's refusal into the slip's: a player's words, FailedPrecondition.
func cardRefusal(err error) error {
	var r *precommit.Refusal
	if errors.As(err, &r) {
		return failed("%s", r.Words)
	}
	return ledgerErr(err)
}

// claim holds card for the seat's session (the seat's lock held): a card at another seat,
// unregistered, lost, barred or without limits is refused. A seat whose player changes card
// releases the one it held.
func (t *Table) claim(s *seatCard, terminal, card string) error {
	if card == "" || s.card == card {
		return nil
	}
	ctx, now := t.bg(), t.now()
	seat := t.tableID() + "/" + terminal
	if _, err := t.cards.store.Claim(ctx, card, seat, now); err != nil {
		return cardRefusal(err)
	}
	if s.card != "" {
		if err := t.cards.store.Release(ctx, s.card, seat, now); err != nil {
			t.log.Error("carded: releasing the seat's previous card", "terminal", terminal, "card", s.card, "err", err)
		}
	}
	s.card = card
	return nil
}

// releaseCard ends the seat's session with its card (cash-out, the dealer's close).
func (t *Table) releaseCard(terminal string) {
	if t.cards == nil {
		return
	}
	s := t.cards.seat(terminal)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.card == "" {
		return
	}
	if err := t.cards.store.Release(t.bg(), s.card, t.tableID()+"/"+terminal, t.now()); err != nil {
		t.log.Error("carded: releasing the card at cash-out", "terminal", terminal, "card", s.card, "err", err)
		return
	}
	s.card = ""
}

// stakeCard reserves amount (the slip's total) of card for the seat's slip of the round.
func (t *Table) stakeCard(card, terminal, roundID string, amount int64) error {
	if _, err := t.cards.store.Stake(t.bg(), t.hold(card, terminal, roundID), amount, t.now()); err != nil {
		return cardRefusal(err)
	}
	return nil
}

// unstake puts the seat's hold back to the slip the table acknowledges after a slip that was
// staked was not stored. Under t.mu: it reads the acknowledged slip. A failure leaves the hold
// larger than the slip — refusing too much, never too little — and is logged.
func (t *Table) unstake(card, terminal, roundID string) {
	var acked int64
	if r, err := t.current(roundID); err == nil {
		if sl := r.slip(terminal); sl != nil {
			acked = sl.total
		}
	}
	if err := t.stakeCard(card, terminal, roundID, acked); err != nil {
		t.log.Error("carded: putting a card's hold back to the acknowledged slip", "terminal", terminal, "card", card, "err", err)
	}
}

// settleCards counts a settled slip's play on its card, in the settlement's transaction. A
// correction (prior) re-settles play already counted: the card's count stands.
func (t *Table) settleCards(tx *ledger.Tx, roundID, terminal string, sl *slip, staked, returned int64) error {
	if t.cards == nil || sl == nil {
		return nil
	}
	card := sl.card()
	if card == "" {
		return nil
	}
	_, err := t.cards.store.SettleIn(tx, t.hold(card, terminal, roundID), staked, returned)
	return err
}

// recoverHolds voids, after a restart, every hold of this table's seats that keeps a stake
// back for a slip the table no longer has: the wagering round's, voided by the restart (its
// slips were never written). A hold of a closed round awaiting its outcome stands: that round
// settles it.
func (t *Table) recoverHolds(ctx context.Context) error {
	if t.cards == nil {
		return nil
	}
	return t.led.Update(ctx, t.now(), func(tx *ledger.Tx) error {
		cards, holds, _, err := tx.OpenCardHolds(t.tableID() + "/")
		if err != nil {
			return err
		}
		for i, key := range holds {
			parts := strings.SplitN(key, "/", 3)
			if len(parts) != 3 {
				continue
			}
			terminal, roundID := parts[1], parts[2]
			if r := t.cur; r != nil && r.id == roundID && r.status != "void" && r.slip(terminal) != nil {
				continue
			}
			if _, err := t.cards.store.VoidIn(tx, t.hold(cards[i], terminal, roundID)); err != nil {
				return err
			}
		}
		return nil
	})
}

// newCarded is the table's carded play on store, or on the table's ledger when store is nil.
func newCarded(store precommit.Store, led *ledger.Ledger, s precommit.Settings) (*carded, error) {
	if store == nil {
		store = &precommit.LedgerStore{L: led, S: s}
	}
	cs, ok := store.(cardStore)
	if !ok {
		// A store of its own (a state's system) would settle outside the round's transaction;
		// until one is plugged in, say so rather than settle it half.
		return nil, errors.New("server: carded play needs a card store that settles in the round's transaction (precommit.LedgerStore)")
	}
	return &carded{store: cs, seats: map[string]*seatCard{}}, nil
}

// voidCardHold releases, in tx, the stake the seat's slip of the round holds on its card: the
// slip is voided (a cash-out during the wagering period). Under t.mu.
func (t *Table) voidCardHold(tx *ledger.Tx, roundID, terminal string) error {
	if t.cards == nil {
		return nil
	}
	r, err := t.current(roundID)
	if err != nil {
		return nil
	}
	sl := r.slip(terminal)
	if sl == nil || sl.card() == "" {
		return nil
	}
	_, err = t.cards.store.VoidIn(tx, t.hold(sl.card(), terminal, roundID))
	return err
}
