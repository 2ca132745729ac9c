package app

import (
	"context"
	"slices"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// The bet slip at the touch: every change goes through rule 4.3 here, at once, so the screen
// reacts on the touch; the table checks the same rules again (app/roulette) when the newest
// slip version reaches it. Every refusal is told to the player through the board, so the
// screen shows what the terminal says and decides nothing.

// ErrLocked refuses a change after the period (rule 3.7).
var ErrLocked = msg.Err("No more bets: the wagering period has ended")

// Other refusals of a change to the slip.
var (
	ErrNotConnected   = msg.Err("not connected to the table")
	ErrFrozen         = msg.Err("accounts are frozen while a result is corrected")
	ErrNothingToPlace = msg.Err("nothing to place")
)

// reasonMsg is rule 4.3's reason for a changed wager, as the player is told it.
func reasonMsg(r roulette.Reason) msg.Msg { return msg.New(r.Message()) }

// SelectChip selects the chip value the next touches place.
func (t *Terminal) SelectChip(amount int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.view.Chip = amount
	t.changedLocked()
}

// canChangeLocked is why the player may not change their wagers now, nil if they may. A touch
// found past the lock time locks the layout there and then.
func (t *Terminal) canChangeLocked() error {
	err := t.changeRefusalLocked()
	if err == ErrLocked {
		t.view.Locked = t.view.Phase == table.PhaseWagering || t.view.Locked
	}
	return err
}

// changeRefusalLocked is canChangeLocked without its effect, for what the screen shows before a
// touch (the undisclosed-wager box's reason, tournament.go).
func (t *Terminal) changeRefusalLocked() error {
	switch {
	case t.view.Service.Open:
		return ErrInService // technician mode (technician.go)
	case !t.view.Connected:
		return ErrNotConnected
	case t.view.Frozen:
		return ErrFrozen
	case t.view.Phase != table.PhaseWagering || t.view.Locked || !t.clk.Now().Before(t.link.LockAt(t.view.Deadline)):
		return ErrLocked
	case t.tournamentRefusalLocked() != nil:
		return t.tournamentRefusalLocked()
	case t.turnRefusalLocked() != nil:
		return t.turnRefusalLocked()
	case t.view.Config.IDPadRequired && (t.gate == nil || !t.gate.Touched()):
		return ErrPadNotTouched
	case t.view.Config.PlayerCardRequired && !t.hasCard():
		return ErrNoPlayerCard
	}
	return nil
}

// ErrBuyInPending refuses a further wager while the dealer's buy-in waits for the player's
// confirmation (004 §6.3(c), §6.4(b)); withdrawing stays allowed. The table refuses it too.
var ErrBuyInPending = msg.Err("Confirm the dealer's buy-in first: no further wager until you do")

// buyInPending is ErrBuyInPending with the offer's amount in its words: the player, whose
// message line the offer stands over, reads which buy-in it means (issue 32).
type buyInPending struct{ said *msg.Error }

func (e *buyInPending) Error() string        { return e.said.Error() }
func (e *buyInPending) Is(target error) bool { return target == ErrBuyInPending }
func (e *buyInPending) Unwrap() error        { return e.said }

func errBuyInPending(amount int64) error {
	return &buyInPending{&msg.Error{Msg: msg.New("Confirm the dealer's buy-in of %s first: no further wager until you do", money.Amount(amount))}}
}

// canPlaceLocked is canChangeLocked for a change that may place a further wager (a touch, a
// move, repeat, double, a favourite, remove last — which may put a chip back): refused too
// while a dealer buy-in awaits the player (004 §6.4(b)). Remove and remove all only withdraw.
func (t *Terminal) canPlaceLocked() error {
	if err := t.canChangeLocked(); err != nil {
		return err
	}
	if t.view.BuyIn != nil {
		return errBuyInPending(t.view.BuyIn.Amount)
	}
	return t.cardRefusalLocked() // carded play (card.go): limits first, play stopped, the reality check
}

// Gate is this seat's player-ID pad and card reader (devices/idpad gives one per seat).
type Gate interface {
	Touched() bool
	Card() (string, bool)
}

// Refusals when the table's profile requires the pad or a player card (000 §11.4.2(a), 003 §3.4).
// The pad has one name wherever the player reads of it: "player-ID pad" (issue 32 point 19).
var (
	ErrPadNotTouched = msg.Err("Touch your player-ID pad to bet")
	ErrNoPlayerCard  = msg.Err("insert your player card to bet")
)

func (t *Terminal) hasCard() bool { return t.playerCard() != "" }

// playerCard is the card in the seat's reader, "" for none (or no reader).
func (t *Terminal) playerCard() string {
	if t.gate == nil {
		return ""
	}
	c, ok := t.gate.Card()
	if !ok {
		return ""
	}
	return c
}

// placeLocked applies rule 4.3 to putting `want` on b (per piece for a call bet): b is priced
// after everything else on the layout, spot by spot (SPEC §3.7), so a straight on 17 counts the
// dealer's wagers for the seat and the pieces of the player's call bets that land on 17. It
// returns the amount the screen shows.
func (t *Terminal) placeLocked(b roulette.Bet, want int64) (Feedback, error) {
	layout := t.view.Config.Layout
	pieces, err := b.Pieces(layout)
	if err != nil {
		return Feedback{}, err
	}
	// The other stakes are held as they stand: each was priced when it was placed, and a stake
	// valid only with b's pieces beside it (a street of 0.50 on voisins' street, over the
	// spot's minimum only together) must still count against the table maximum and the spots'
	// totals while b is priced, or b takes room the screen has already given away.
	p := t.pricerLocked(len(t.slip.Stakes()) + len(t.view.DealerStakes))
	for _, s := range t.slip.Stakes() {
		if s.Bet != b {
			if ps, err := s.Bet.Pieces(layout); err == nil {
				p.Hold(ps, s.Amount)
			}
		}
	}
	pr := p.Place(pieces, b.IsCall(), want)
	return Feedback{Accepted: pr.PerPiece, Reason: pr.Why, Message: t.reasonLocked(b, pr.Why, pr.Total)}, nil
}

// pricerLocked starts pricing the seat's slip (app/roulette, pricer.go) with the dealer's wagers
// for the seat held first, as the table holds them: the player cannot change them.
func (t *Terminal) pricerLocked(size int) roulette.Pricer {
	layout := t.view.Config.Layout
	p := t.betLimitsLocked().NewPricer(t.betBalanceLocked(), size)
	for _, d := range t.view.DealerStakes {
		if ps, err := d.Bet.Pieces(layout); err == nil {
			p.Hold(ps, d.Amount)
		}
	}
	return p
}

// reasonLocked is what the player is told when a wager on b was changed for why; stake is the
// whole stake the bet now stands at. A wager reduced (4.3.2) says to what: the player sees the
// chips, and reads the amount they stand for (issue 32). Below the minimum no chip appears, so
// there is no amount to name.
func (t *Terminal) reasonLocked(b roulette.Bet, why roulette.Reason, stake int64) msg.Msg {
	amount := money.Amount(stake)
	switch {
	case why == roulette.ReasonNone:
		return msg.Msg{}
	case why == roulette.ReasonBelowMinimum && t.view.PersonalLimits: // the player's own limits (000 §4.3)
		return msg.New("%v: %s (your own limits)", b, reasonMsg(why))
	case why == roulette.ReasonBelowMinimum:
		return msg.New("%v: %s", b, reasonMsg(why))
	case t.view.PersonalLimits:
		return msg.New("%v: %s: %s (your own limits)", b, reasonMsg(why), amount)
	default:
		return msg.New("%v: %s: %s", b, reasonMsg(why), amount)
	}
}

// Place adds the selected chip to bet b. Below the minimum no chip appears (rule 4.3.1); over
// the maximum or off the unit the stake shows the next lowest permitted amount (4.3.2).
func (t *Terminal) Place(b roulette.Bet) (Feedback, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.canPlaceLocked(); err != nil {
		return Feedback{Message: msg.Of(err)}, t.refuseLocked(err)
	}
	current := t.slip.On(b)
	fb, err := t.placeLocked(b, current+t.view.Chip)
	if err != nil {
		return Feedback{}, err
	}
	if fb.Accepted < current && fb.Reason != roulette.ReasonBelowMinimum {
		// A touch never takes chips away: keep what was there.
		fb.Accepted = current
	}
	if fb.Reason == roulette.ReasonBelowMinimum && current > 0 {
		fb.Accepted = current
	}
	if fb.Accepted != current {
		t.slip.set(b, fb.Accepted)
		t.touchedLocked()
	}
	if fb.Accepted > current {
		t.cueLocked(SoundChip)
	} else {
		t.cueLocked(SoundRefused) // no chip went down: below the minimum, or at a limit already
	}
	t.sayLocked(fb.Message, Answer)
	t.changedLocked()
	return fb, nil
}

// refuseLocked tells the player why a touch changed nothing, and returns err.
func (t *Terminal) refuseLocked(err error) error {
	t.cueLocked(SoundRefused)
	t.sayLocked(msg.Of(err), Answer)
	t.changedLocked()
	return err
}

// Remove takes the whole stake off bet b (a chip dragged off the layout). What stays is priced
// again in order (SPEC §3.7), as the table will price it: a wager that needed b's chips on its
// spot to reach the minimum goes with them, and the player is told.
func (t *Terminal) Remove(b roulette.Bet) error {
	return t.edit(func() bool {
		if t.slip.On(b) == 0 {
			return false
		}
		t.slip.set(b, 0)
		t.repriceLocked()
		return true
	})
}

// repriceLocked prices the slip's stakes again in order and keeps what the pricing accepts, in
// the same undo step as the change that called for it.
func (t *Terminal) repriceLocked() {
	kept, said := t.priceStakesLocked(t.slip.Stakes(), func(s Stake) int64 { return s.Amount })
	t.slip.stakes = kept
	t.sayLocked(said, Answer)
}

// priceStakesLocked prices stakes, each at amount(stake), as the table prices a slip: in order,
// spot by spot, after the dealer's wagers for the seat (SPEC §3.7). It returns the stakes the
// pricing keeps, at what it accepted, and the last reason the player is to be told.
func (t *Terminal) priceStakesLocked(stakes []Stake, amount func(Stake) int64) (kept []Stake, said msg.Msg) {
	layout := t.view.Config.Layout
	p := t.pricerLocked(len(stakes) + len(t.view.DealerStakes))
	for _, s := range stakes {
		pieces, err := s.Bet.Pieces(layout)
		if err != nil {
			continue
		}
		pr := p.Place(pieces, s.Bet.IsCall(), amount(s))
		if pr.PerPiece > 0 {
			kept = append(kept, Stake{Bet: s.Bet, Amount: pr.PerPiece})
		}
		if m := t.reasonLocked(s.Bet, pr.Why, pr.Total); !m.IsZero() {
			said = m
		}
	}
	return kept, said
}

// Move moves the stake from one bet to another (a chip dragged across the layout); the
// destination's limits apply.
func (t *Terminal) Move(from, to roulette.Bet) (Feedback, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.canPlaceLocked(); err != nil {
		return Feedback{Message: msg.Of(err)}, t.refuseLocked(err)
	}
	amount := t.slip.On(from)
	if amount == 0 || from == to {
		return Feedback{Accepted: t.slip.On(to)}, nil
	}
	t.slip.set(from, 0)
	fb, err := t.placeLocked(to, t.slip.On(to)+amount)
	if err != nil || fb.Accepted == 0 {
		t.slip.Undo()
		if err == nil {
			err = &msg.Error{Msg: fb.Message}
		}
		return fb, t.refuseLocked(err)
	}
	t.slip.set(to, fb.Accepted)
	t.slip.undo = t.slip.undo[:len(t.slip.undo)-1] // one move is one undo step
	t.repriceLocked()                              // what from's chips carried goes with them (Remove)
	t.touchedLocked()
	t.cueLocked(SoundChip)
	t.sayLocked(fb.Message, Answer)
	t.changedLocked()
	return fb, nil
}

// Undo is "remove last": as many steps back as the player likes. A step back may put chips
// back, so it is a placement for 004 §6.4(b).
func (t *Terminal) Undo() error { return t.editPlacing(t.slip.Undo) }

// Clear is "remove all".
func (t *Terminal) Clear() error {
	return t.edit(func() bool {
		if len(t.slip.Stakes()) == 0 {
			return false
		}
		t.slip.replace(nil)
		return true
	})
}

// Repeat puts the last settled round's bets back, each through the limits and the balance.
func (t *Terminal) Repeat() error {
	return t.rebuild(func(s Stake) int64 {
		return s.Amount
	}, t.lastRound)
}

// Double doubles every stake, each through the limits and the balance.
func (t *Terminal) Double() error {
	return t.rebuild(func(s Stake) int64 { return 2 * s.Amount }, nil)
}

// rebuild replaces the slip with from (or the current stakes) rescaled by amount, placing each
// through rule 4.3 in order, as one undo step.
func (t *Terminal) rebuild(amount func(Stake) int64, from []Stake) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.canPlaceLocked(); err != nil {
		return t.refuseLocked(err)
	}
	if from == nil {
		from = t.slip.Stakes()
	}
	if len(from) == 0 {
		return t.refuseLocked(ErrNothingToPlace)
	}
	newStakes, said := t.priceStakesLocked(from, amount)
	t.slip.replace(newStakes)
	t.cueLocked(SoundChip) // the chips go down as one
	t.sayLocked(said, Answer)
	t.touchedLocked()
	t.changedLocked()
	return nil
}

func (t *Terminal) edit(change func() bool) error { return t.editWith(t.canChangeLocked, change) }

func (t *Terminal) editPlacing(change func() bool) error { return t.editWith(t.canPlaceLocked, change) }

func (t *Terminal) editWith(can func() error, change func() bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := can(); err != nil {
		return t.refuseLocked(err)
	}
	// What the last touch was told (a Double reduced to the limits) is about a layout this touch
	// changes: its answer leaves the line (issue 32) before the change, which may say what it
	// did in turn (a Remove that takes a wager its chips carried, SPEC §3.7).
	t.board.drop(Answer)
	if change() {
		t.touchedLocked()
		t.changedLocked()
	}
	return nil
}

// touchedLocked marks the slip changed and wakes the sync loop.
func (t *Terminal) touchedLocked() {
	t.version++
	t.view.Acked = false
	if t.orderedLocked() {
		return // under an order of wagering the slip goes once, when the turn ends (EndTurn)
	}
	t.slipDue = true
	t.wakeSyncLocked()
}

// wakeSyncLocked has syncLoop look at what it owes the table.
func (t *Terminal) wakeSyncLocked() {
	select {
	case t.dirty <- struct{}{}:
	default:
	}
}

// syncLoop sends the newest slip version whenever it changes. Versions in between are skipped:
// the server keeps the last version it acknowledged before the deadline, so only the newest
// matters (rule 3.6). A report of technician mode the table is owed goes first (reportService),
// so the table never hears of a slip from a terminal back in play before it hears that it is.
func (t *Terminal) syncLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.dirty:
		}
		t.reportService(ctx)
		t.mu.Lock()
		if !t.slipDue {
			t.mu.Unlock()
			continue
		}
		t.slipDue = false
		round, version := t.view.RoundID, t.version
		stakes := slices.Clone(t.slip.Stakes())
		tour, secret := t.tournamentPlayingLocked(), t.view.Tournament.Secret
		t.mu.Unlock()
		// Every wager goes with the player card in the seat's reader (003 §3.4, §9.1): the
		// table records it with the wager, and refuses the slip without one where the profile
		// requires it.
		card := t.playerCard()
		bets := make([]table.SlipBet, len(stakes))
		for i, s := range stakes {
			bets[i] = table.SlipBet{Bet: s.Bet, Amount: s.Amount, Card: card}
		}
		var ack *table.SlipAck
		var err error
		if ss, ok := t.link.(slipSender); ok && secret {
			ack, err = ss.UpdateSlipSecret(ctx, round, version, bets, true)
		} else {
			ack, err = t.link.UpdateSlip(ctx, round, version, bets)
		}
		t.mu.Lock()
		rec, layout := t.records, t.view.Config.Layout
		t.mu.Unlock()
		if tour {
			rec = nil // tournament chips are not money: not a game of the chip account's records
		}
		if err != nil && ctx.Err() != nil {
			return // closing: the view is no longer told
		}
		if err == nil && rec != nil {
			// Recorded before the screen shows the slip as accepted; if it cannot be, the
			// player is told the wagers are not confirmed on this terminal.
			if rerr := rec.SlipAcked(ctx, layout, *ack); rerr != nil {
				t.log.Error("game records: slip not recorded", "round", round, "version", version, "err", rerr)
				err = &msg.Error{Msg: msg.New("the terminal could not record it: %s", rerr.Error())}
			}
		}
		t.mu.Lock()
		if t.view.RoundID == round && t.version == version {
			if err != nil {
				if t.turnEnded == round {
					t.turnEnded = "" // the table did not take the turn's wager: the player may try again
				}
				said := msg.Of(err)
				if t.view.Config.Carded {
					said = cardWordsMsg(err, t.cards.st) // the card's refusal in the player's language
				}
				t.sayLocked(msg.New("the table did not accept the last change: %s", said), TableNews)
				t.log.Warn("slip update", "round", round, "version", version, "err", err)
			} else {
				t.adoptAckLocked(ack)
			}
			t.changedLocked()
		}
		t.mu.Unlock()
	}
}

// adoptAckLocked takes the server's accepted amounts: the server is authoritative, and if it
// accepted less (limits changed under the player) the screen must show what will settle.
func (t *Terminal) adoptAckLocked(ack *table.SlipAck) {
	stakes, dealer := splitAck(ack, t.view.Config.Layout)
	t.view.DealerStakes = dealer
	if !slices.Equal(stakes, t.slip.Stakes()) {
		t.slip.stakes = stakes
		why := msg.New("the table adjusted your wagers to its limits")
		for _, r := range ack.Results {
			if r.Reason == ReasonDealerOnly {
				// 002 §3.2B: at this table the dealer places racetrack wagers.
				why = msg.New("Racetrack bets are declared to the dealer, who places them")
			}
		}
		t.sayLocked(why, TableNews)
	}
	t.view.Acked = true
}

// minimumLocked keeps the warning that the wagers on the layout are under the table's
// minimum for a spin standing while the period is open (001 §4.3.3, 004 §4.3(c)): said while
// there is time to add to them, not only once they are not recognised (issue 32). Derived
// from the view on every change, so every way the slip changes — a touch, an undo, the table's
// adjustment, a limit change — keeps it true; gone once the slip reaches the minimum, is
// empty, or the period has ended (the settlement then says what became of the wagers).
func (t *Terminal) minimumLocked() {
	var m msg.Msg
	layout := t.view.Config.Layout
	minimum := t.betLimitsLocked().AggregateMin
	total := t.slip.Total(layout) + dealerTotal(t.view.DealerStakes, layout)
	if t.view.Phase == table.PhaseWagering && !t.view.Locked && total > 0 && total < minimum {
		m = msg.New("Your wagers of %s are below the table minimum of %s a spin: add to them or they will not be recognised",
			money.Amount(total), money.Amount(minimum))
	}
	t.board.set("minimum", m, TableNews)
}

// Explain is touch and hold on a spot: what it pays and its own limits (rule 4.1–4.2), told to
// the player as a hint.
func (t *Terminal) Explain(b roulette.Bet) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if b.IsCall() {
		return
	}
	lim := t.betLimitsLocked().For(b.Spot.Kind)
	t.sayLocked(msg.New("%s: pays %d to 1; minimum %s, maximum %s, in steps of %s", b.Spot, b.Spot.Kind.Odds(),
		money.Amount(lim.Min), money.Amount(lim.Max), money.Amount(lim.Unit)), Hint)
	t.changedLocked()
}

// SaveFavourite keeps the slip on the layout as a favourite (View.Favourites).
func (t *Terminal) SaveFavourite() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	f, err := t.favs.Save(t.snapshotLocked())
	if err != nil {
		return t.refuseLocked(err)
	}
	t.sayLocked(msg.New("Saved as a favourite: %s", money.Amount(f.Total)), Answer)
	t.changedLocked()
	return nil
}
