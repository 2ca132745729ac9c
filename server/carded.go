package server

// Carded play and binding pre-commitment at the table (SPEC §10, issue 31): where the table is
// carded (Config.Carded: Crown's rules, or the operator's -carded) no card, no wager; the seat's
// card is held for its session (claimed at its first slip, released at its cash-out), and every
// slip's total is within what the seat has reserved on the card against its limits by
// server/precommit before the table acknowledges it — each reservation a transaction on the
// card's row, floor-wide — so a slip that would take the card past its loss limit, or any wager
// after its time is up or during its bar, is refused with the words the player reads, at
// whichever seat or table.
//
// Order of a carded slip update (updateSlipSent): the seat's own lock (one slip of a seat at a
// time, which a seat's Slips stream is anyway); the card claimed; the slip priced outside the
// table's lock; its total checked against the seat's allowance on the card; then stored under
// the table's lock.
//
// The allowance is reserved when the round opens: startRound's own ledger transaction runs
// precommit.LedgerStore.ReserveIn for every seat holding a card (reserveCards; the seats from
// carded.holding, written with seatCard.card, since startRound runs under t.mu and may not take
// a seat's lock), reserving everything the card has left under its loss limit. Nothing wagers
// in a round before it is open, so no slip waits on that transaction, and the seat's first slip
// of the round finds its allowance in memory and makes no store call (at 500 seats, 500 store
// calls in a round's first second were the slip's p99: docs/performance/table-server.md).
// Only a slip beyond it — more than reserved, past its time bounds, or at a seat whose card
// could not take a stake when the round opened (nothing reserved) — asks the store
// (precommit.Store.Allow, one transaction on the card's row, floor-wide), which checks the slip
// as a stake, refuses it in words, or replaces the seat's hold with a new allowance. The card
// plays at that one seat (Claim), so no other seat could have used what the seat holds.
//
// A reservation is not play: it leaves the card's limit period, continuous play and breaks
// alone (a player who places nothing this round has not played). Its time bounds are the
// card's as if play started at the open — earlier than it does, so a slip past them goes to the
// store, which decides exactly. The allowance records the seat's first and latest slip under it
// (allowance.first, played), and the store counts them as Card.stake would have at the first
// slip, at the next Allow or in the round's settlement (precommit.Played).
//
// The round's settlement turns each seat's hold into play in its own transaction (settle:
// precommit.LedgerStore.SettleIn), counting what the slip staked and releasing the rest, and
// releases the holds of seats that placed no slip (releaseAllowances); a settled hold is
// closed, so a slip racing the settlement reserves nothing. A seat that cashes out or is closed
// during the wagering period releases its hold in that transaction (voidCardHold), so its card
// may play at another seat of the floor in the same round. A seat changing card voids a
// reservation no slip used (heldBy; a used one refuses the change until the result), and a
// reservation the open committed for a card the seat has left meanwhile is voided by the open
// (reserved). A restart voids the wagering round's holds, reservations included
// (recoverHolds), as it voids the round's wagers. A player lowering a limit at their seat
// (SetCardLimits) spends the seat's allowance, so the next slip is checked by the store under
// the lower limit at once.

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/precommit"
)

// cardStore is what the table needs of the card store: the Store, and the settlement of a
// round's holds in the round's own ledger transaction (LedgerStore's).
type cardStore interface {
	precommit.Store
	SettleIn(tx *ledger.Tx, h precommit.Hold, staked, returned int64, played precommit.Played) (precommit.Card, error)
	RecountIn(tx *ledger.Tx, h precommit.Hold, staked, returned, wasStaked, wasReturned int64, closedAt time.Time, why string) (precommit.Card, error)
	VoidIn(tx *ledger.Tx, h precommit.Hold, played precommit.Played) (precommit.Card, error)
	ReserveIn(tx *ledger.Tx, h precommit.Hold, now time.Time) (bounds precommit.Card, amount int64, err error)
}

// carded is the table's carded play: the store, each seat's lock and claimed card, and each
// seat's allowance of its round.
type carded struct {
	store   cardStore
	mu      sync.Mutex // guards the maps; taken alone or under t.mu, never the other way
	seats   map[string]*seatCard
	allowed map[string]allowance // by terminal
	// holding is the card each seat holds (seatCard.card), by terminal, for the round's open
	// to read under t.mu: it may not take a seat's own lock there (a slip takes the seat's
	// lock, then t.mu). Written with seatCard.card (heldBy).
	holding map[string]string
	views   map[string]*seatView // by terminal: what the seat's player is shown (cardseat.go)
	staged  map[string]staged    // by terminal: a settlement's card counts, shown once committed
}

type seatCard struct {
	mu   sync.Mutex // one carded slip of the seat at a time
	card string     // the card the seat holds for its session ("" none); under mu
	// presented is a registered card read at the seat that has no limits yet: the seat may set
	// its first limits (SetCardLimits) and then holds it. Under mu.
	presented string
}

// allowance is what a seat's card reserved for its slips of a round (Store.Allow, or the
// round's open: LedgerStore.ReserveIn), and the card's time and bar as read then.
type allowance struct {
	round, card  string
	amount       int64
	timeUp, bars time.Time // when the time limit or a break ends play; a bar's or break's end (zero: none)
	// reserved: taken at the round's open, before any slip: not play until a slip uses it.
	reserved bool
	// first and played are the seat's first and latest slips under it that the store has not
	// seen, told to it at the next Allow or the round's settlement (precommit.Played). first
	// is set only under a reservation: an Allow saw its own slip.
	first, played time.Time
}

// used reports whether the seat has played under a: an Allow (its slip staked it) or a slip
// under a reservation. An unused reservation is no play: it does not hold the seat's card.
func (a allowance) used() bool { return !a.reserved || !a.first.IsZero() }

// unseen is the seat's play under a that the store has not seen.
func (a allowance) unseen() precommit.Played {
	return precommit.Played{First: a.first, Last: a.played}
}

// covers reports whether a slip of round needing need, on card, at now, is within a.
func (a allowance) covers(round, card string, need int64, now time.Time) bool {
	return a.round == round && a.card == card && need <= a.amount &&
		(a.timeUp.IsZero() || now.Before(a.timeUp)) && !now.Before(a.bars)
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

// played notes a slip of the seat under its allowance at now: play the store has not seen,
// which continuous play (the breaks) counts to.
func (c *carded) played(terminal string, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.allowed[terminal]; ok {
		if a.reserved && a.first.IsZero() {
			a.first = now
		}
		a.played = now
		c.allowed[terminal] = a
	}
}

// allowanceOf is the seat's allowance (ok false: none).
func (c *carded) allowanceOf(terminal string) (allowance, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.allowed[terminal]
	return a, ok
}

// spend makes the seat's allowance cover no further stake, so its next slip is checked by the
// store (a limit lowered at the seat). A reservation stays, covering nothing, for the round's
// settlement to release: its hold is still on the card.
func (c *carded) spend(terminal string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.allowed[terminal]
	switch {
	case !ok:
	case a.reserved:
		a.amount = 0
		c.allowed[terminal] = a
	default:
		delete(c.allowed, terminal)
	}
}

func (c *carded) setAllowance(terminal string, a *allowance) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a == nil {
		delete(c.allowed, terminal)
	} else {
		c.allowed[terminal] = *a
	}
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
func (t *Table) claim(s *seatCard, terminal, roundID, card string) error {
	if card == "" || s.card == card {
		return nil
	}
	if a, ok := t.cards.allowanceOf(terminal); ok && a.card == s.card && a.round == roundID && a.used() {
		// The seat's card has play reserved in this round: released now, it could be taken
		// to another seat while its stakes here are not yet counted. A reservation no slip
		// used is no play: it is voided when the seat takes the new card (heldBy).
		return failed("Player card %s is playing this round at this seat: change card after the result.", s.card)
	}
	ctx, now := seatCtx(terminal), t.now()
	seat := t.tableID() + "/" + terminal
	c, err := t.cards.store.Claim(ctx, card, seat, now)
	if err != nil {
		t.cards.refused(terminal, card, c, err)
		return cardRefusal(err)
	}
	// The previous card's unused reservation is voided before the card is released: released
	// first, another seat could take it while its limit is still kept back here.
	t.heldBy(terminal, card)
	if s.card != "" {
		if err := t.cards.store.Release(ctx, s.card, seat, now); err != nil {
			t.log.Error("carded: releasing the seat's previous card", "terminal", terminal, "card", s.card, "err", err)
		}
	}
	s.card, s.presented = card, ""
	t.cards.held(terminal, c, now)
	return nil
}

// heldBy records that the seat now holds card ("" none: its session ended), for the round's
// open to reserve on (reserveCards), and voids a reservation of the seat on another card that
// no slip used: the seat's card changed, or it left, while a round was opening or open, and
// nothing else would release that reservation before the round's settlement — while the card
// it keeps back may be taken to another seat of the floor at once. The seat's lock held.
func (t *Table) heldBy(terminal, card string) {
	c := t.cards
	c.mu.Lock()
	if card == "" {
		delete(c.holding, terminal)
	} else {
		c.holding[terminal] = card
	}
	a, ok := c.allowed[terminal]
	stale := ok && a.card != card && !a.used()
	if stale {
		delete(c.allowed, terminal)
	}
	c.mu.Unlock()
	if stale {
		if _, err := c.store.Void(seatCtx(terminal), t.hold(a.card, terminal, a.round), t.now()); err != nil {
			t.log.Error("carded: releasing a reservation of the seat's previous card", "terminal", terminal, "card", a.card, "round", a.round, "err", err)
		}
	}
}

// seatCtx is the context of a card store call the seat's terminal made (its slip, its
// limits): the journal names the terminal, not whoever else the table is acting for (t.bg is
// the table's actor under its lock; these calls are made outside it).
func seatCtx(terminal string) context.Context {
	return ledger.WithActor(context.Background(), "terminal:"+terminal)
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
	s.card, s.presented = "", ""
	t.heldBy(terminal, "")
	t.cards.dropView(terminal)
	t.tellCard(terminal) // the seat has no card now
}

// allowCard checks that the seat's slip of the round, needing need on card, is within the
// seat's allowance, and takes a new one from the store when it is not (the seat's first slip
// of the round, a slip needing more, the time limit reached).
func (t *Table) allowCard(card, terminal, roundID string, need int64) error {
	now := t.now()
	a, ok := t.cards.allowanceOf(terminal)
	if need == 0 || ok && a.covers(roundID, card, need, now) {
		if ok && need > 0 {
			t.cards.played(terminal, now)
		}
		return nil
	}
	var played precommit.Played
	mine := ok && a.card == card && a.round == roundID
	if mine {
		// The seat's play of this round the store has not seen (an allowance of an earlier
		// round was told at that round's settlement).
		played = a.unseen()
	}
	c, amount, err := t.cards.store.Allow(seatCtx(terminal), t.hold(card, terminal, roundID), need, played, now)
	if err != nil {
		switch {
		case mine && a.reserved:
			// The round's reservation still holds on the card (a refused Allow leaves the
			// hold as it was): kept, covering nothing more, for the settlement to release or
			// a card change to void. A refusal was written with the play it was told.
			if errors.Is(err, precommit.ErrRefused) {
				a.first = time.Time{}
			}
			a.amount = 0
			t.cards.setAllowance(terminal, &a)
		default:
			t.cards.setAllowance(terminal, nil)
		}
		t.cards.refused(terminal, card, c, err)
		return cardRefusal(err)
	}
	t.cards.read(terminal, c)
	t.cards.setAllowance(terminal, allowanceOn(c, roundID, card, amount, now, t.cfg.Precommit))
	return nil
}

// allowanceOn is the allowance of amount on card for roundID, covering slips until the time
// bounds of c (the card as the store decided it at now) and not before its bar's or break's
// end.
func allowanceOn(c precommit.Card, roundID, card string, amount int64, now time.Time, set precommit.Settings) *allowance {
	// The allowance covers slips until the first of the time limit and the break due, and
	// not before the later of a bar's and a break's end.
	until := c.TimeUp()
	if due := c.BreakDue(set); !due.IsZero() && (until.IsZero() || due.Before(until)) {
		until = due
	}
	// …and until the day's or the week's play could reach its limit (playtime.go).
	if due := c.PlayTimeDue(now, set); until.IsZero() || due.Before(until) {
		until = due
	}
	bars := c.BarredUntil
	if c.BreakUntil.After(bars) {
		bars = c.BreakUntil
	}
	return &allowance{round: roundID, card: card, amount: amount, timeUp: until, bars: bars}
}

// reservation is a seat's allowance reserved in the transaction opening a round.
type reservation struct {
	terminal string
	a        *allowance
}

// reserveCards reserves, in tx (startRound's, opening roundID at now), the allowance of every
// seat holding a card: the seat's first slip of the round then finds it in memory and makes
// no store call (at 500 seats, 500 of them at a round's first second were the slip's p99).
// Nothing wagers in the round yet, so no slip waits for this transaction. A card that could
// not take a stake now reserves nothing, and its seat's first slip asks the store as before.
// The allowances take effect once tx has committed (reserved). Under t.mu.
func (t *Table) reserveCards(tx *ledger.Tx, roundID string, now time.Time) ([]reservation, error) {
	if t.cards == nil {
		return nil, nil
	}
	t.cards.mu.Lock()
	seats := make([]reservation, 0, len(t.cards.holding))
	for terminal, card := range t.cards.holding {
		seats = append(seats, reservation{terminal: terminal, a: &allowance{card: card}})
	}
	t.cards.mu.Unlock()
	// The cards' rows in one order, so two tables opening rounds on one floor's PostgreSQL
	// lock them the same way round rather than deadlock.
	slices.SortFunc(seats, func(a, b reservation) int {
		return cmp.Or(strings.Compare(a.a.card, b.a.card), strings.Compare(a.terminal, b.terminal))
	})
	out := seats[:0]
	for _, s := range seats {
		bounds, amount, err := t.cards.store.ReserveIn(tx, t.hold(s.a.card, s.terminal, roundID), now)
		if err != nil {
			return nil, err
		}
		if amount > 0 {
			a := allowanceOn(bounds, roundID, s.a.card, amount, now, t.cfg.Precommit)
			a.reserved = true
			out = append(out, reservation{terminal: s.terminal, a: a})
		}
	}
	return out, nil
}

// reserved puts the round's committed reservations in place. A seat whose card changed or
// was released while the round's transaction committed (heldBy ran before this) has its
// reservation voided: it keeps back a card the seat no longer holds. Under t.mu.
func (t *Table) reserved(rs []reservation) {
	if len(rs) == 0 {
		return
	}
	var stale []reservation
	t.cards.mu.Lock()
	for _, r := range rs {
		if t.cards.holding[r.terminal] != r.a.card {
			stale = append(stale, r)
			continue
		}
		t.cards.allowed[r.terminal] = *r.a
	}
	t.cards.mu.Unlock()
	for _, r := range stale {
		if _, err := t.cards.store.Void(t.bg(), t.hold(r.a.card, r.terminal, r.a.round), t.now()); err != nil {
			t.log.Error("carded: releasing a reservation of a card the seat no longer holds", "terminal", r.terminal, "card", r.a.card, "round", r.a.round, "err", err)
		}
	}
}

// dropLateHold releases what the seat's allowance of roundID keeps back on card, when a slip of
// the seat was refused and the round is past its settlement (or was voided): the allowance was
// then taken after the settlement released the holds it knew of — a slip priced while the round
// took bets whose store call committed after the round had settled — and nothing else would
// release it (until a restart's recoverHolds): the rest of the card's loss limit would stay
// reserved, every later slip refused as past a limit the player had not reached. A round still
// taking bets or awaiting its outcome is left to its settlement, which releases the seat's
// allowance as idle or counts its slip.
func (t *Table) dropLateHold(card, terminal, roundID string) {
	a, ok := t.cards.allowanceOf(terminal)
	if !ok || a.round != roundID || a.card != card {
		return
	}
	t.mu.Lock()
	r := t.cur
	live := r != nil && r.id == roundID && (r.phase == table.PhaseWagering || r.phase == table.PhaseNoMoreBets)
	t.mu.Unlock()
	if live {
		return
	}
	t.cards.setAllowance(terminal, nil)
	if _, err := t.cards.store.Void(seatCtx(terminal), t.hold(card, terminal, roundID), t.now()); err != nil {
		t.log.Error("carded: releasing an allowance taken after its round settled", "terminal", terminal, "card", card, "round", roundID, "err", err)
	}
}

// settleCards counts a settled slip's play on its card, in the settlement's transaction. A
// correction or an invalidation counts the difference instead (recountCards).
func (t *Table) settleCards(tx *ledger.Tx, roundID, terminal string, sl *slip, staked, returned int64) error {
	if t.cards == nil || sl == nil {
		return nil
	}
	card := sl.card()
	a, ok := t.cards.allowanceOf(terminal)
	ok = ok && a.round == roundID
	if card == "" {
		// A slip withdrawn to nothing names no card: the seat's allowance of the round does.
		if !ok {
			return nil
		}
		card = a.card
	}
	var played precommit.Played
	if ok && a.card == card {
		played = a.unseen() // the slips a reservation covered are play from the first of them
	}
	c, err := t.cards.store.SettleIn(tx, t.hold(card, terminal, roundID), staked, returned, played)
	if err == nil {
		t.cards.stage(terminal, c, staked, returned)
	}
	return err
}

// releaseAllowances releases, in the settlement's transaction, the holds of the seats that
// took an allowance for the round and have no slip in it. Under t.mu.
func (t *Table) releaseAllowances(tx *ledger.Tx, r *round) error {
	if t.cards == nil {
		return nil
	}
	t.cards.mu.Lock()
	var idle []allowance
	var terms []string
	for id, a := range t.cards.allowed {
		if a.round == r.id && r.slip(id) == nil {
			idle, terms = append(idle, a), append(terms, id)
		}
	}
	t.cards.mu.Unlock()
	for i, a := range idle {
		if _, err := t.cards.store.VoidIn(tx, t.hold(a.card, terms[i], r.id), a.unseen()); err != nil {
			return err
		}
	}
	return nil
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
			if _, err := t.cards.store.VoidIn(tx, t.hold(cards[i], terminal, roundID), precommit.Played{}); err != nil {
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
	return &carded{store: cs, seats: map[string]*seatCard{}, allowed: map[string]allowance{}, holding: map[string]string{},
		views: map[string]*seatView{}, staged: map[string]staged{}}, nil
}

// voidCardHold releases, in tx, what the seat holds on its card for the round: its slip is
// voided (a cash-out or the dealer's close during the wagering period). roundID "" is the
// round taking wagers, if any: a seat leaving with no slip still releases the reservation its
// card had for the round, at once, so the card may play at another seat of the floor in the
// same round. Under t.mu.
func (t *Table) voidCardHold(tx *ledger.Tx, roundID, terminal string) error {
	if t.cards == nil {
		return nil
	}
	if roundID == "" {
		if t.cur == nil || t.cur.phase != table.PhaseWagering {
			return nil
		}
		roundID = t.cur.id
	}
	card := ""
	var played precommit.Played
	if a, ok := t.cards.allowanceOf(terminal); ok && a.round == roundID {
		card, played = a.card, a.unseen()
	} else if r, err := t.current(roundID); err == nil && r.slip(terminal) != nil {
		card = r.slip(terminal).card()
	}
	if card == "" {
		return nil
	}
	t.cards.setAllowance(terminal, nil)
	_, err := t.cards.store.VoidIn(tx, t.hold(card, terminal, roundID), played)
	return err
}

// recountCards counts on the slip's card, in tx, what a correction or an invalidation of
// round r changed of the slip's settled play (was: its settlement as first counted; staked
// and returned: as it stands now, 0 and 0 for an invalidated round): the card's net loss
// follows the round's result as it is now, and a loss it takes to the limit bars the card from
// now on (precommit.LedgerStore.RecountIn).
func (t *Table) recountCards(tx *ledger.Tx, r *round, terminal string, sl *slip, was ledger.Settlement, staked, returned int64, why string) error {
	if t.cards == nil || sl == nil || sl.card() == "" {
		return nil
	}
	if staked == was.Staked && returned == was.Returned {
		return nil
	}
	closedAt := r.deadline
	if closedAt.IsZero() {
		closedAt = tx.Now()
	}
	_, err := t.cards.store.RecountIn(tx, t.hold(sl.card(), terminal, r.id), staked, returned, was.Staked, was.Returned, closedAt, why)
	return err
}
