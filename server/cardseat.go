package server

// Carded play at the seat (SPEC §10, issue 31): what the player sees and touches. The card read
// at the seat's reader (PresentCard) is claimed for the seat's session, or refused with its
// reason; a registered card without limits is remembered as presented, so the player can set
// their first limits at the terminal (SetCardLimits) before play; the reality check the player
// acknowledges is journalled with the card (AckRealityCheck). The seat's card state (CardState)
// is in its snapshot and is sent as an event after each change of it: a claim, a refusal,
// limits set, and each settlement once its transaction has committed — never polled.
//
// What the seat is shown is kept per terminal (seatView, under carded.mu): the card as the
// store last returned it, the seat's session (its start and its result: returned − staked at
// this seat since the card was read) and the latest refusal. A snapshot, built under the
// table's lock, reads it and never calls the store.

import (
	"context"
	"errors"
	"time"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/precommit"
)

// DefaultRealityCheck is the reality check's interval when the operator sets none (issue 31:
// 30 minutes).
const DefaultRealityCheck = 30 * time.Minute

// realityCheckOf is the operator's interval: the default for 0, none for a negative one.
func realityCheckOf(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return DefaultRealityCheck
	case d < 0:
		return 0
	}
	return d
}

// seatView is what a seat's player is shown of its card.
type seatView struct {
	card    precommit.Card
	known   bool      // the store has the card registered
	start   time.Time // the session's start: the card read at this seat
	result  int64     // returned − staked at this seat since start (cents)
	refusal *precommit.Refusal
}

// staged is a settlement's count on a seat's card, shown once the settlement has committed.
type staged struct {
	card             precommit.Card
	staked, returned int64
}

// view is the seat's view, made when absent. Under c.mu.
func (c *carded) view(terminal string) *seatView {
	v := c.views[terminal]
	if v == nil {
		v = &seatView{}
		c.views[terminal] = v
	}
	return v
}

// held records card claimed by the seat at now: a new card starts a new session.
func (c *carded) held(terminal string, card precommit.Card, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.view(terminal)
	if v.card.ID != card.ID || v.start.IsZero() {
		v.start, v.result = now, 0
	}
	v.card, v.known, v.refusal = card, true, nil
}

// read records the card as the store returned it (an allowance, limits set).
func (c *carded) read(terminal string, card precommit.Card) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.view(terminal)
	if v.card.ID == card.ID {
		v.card, v.known, v.refusal = card, true, nil
	}
}

// refused records the store's refusal of card at the seat (err not a refusal: nothing to show).
func (c *carded) refused(terminal, id string, card precommit.Card, err error) {
	var r *precommit.Refusal
	if !errors.As(err, &r) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.view(terminal)
	if v.card.ID != id {
		// A card other than the seat's: the seat is shown that card's refusal, not its state.
		v.card, v.known, v.start, v.result = precommit.Card{ID: id}, false, time.Time{}, 0
	}
	if card.ID == id {
		v.card, v.known = card, r.Reason != "unregistered"
	}
	v.refusal = r
}

// dropView forgets the seat's card (its session ended at cash-out).
func (c *carded) dropView(terminal string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.views, terminal)
	delete(c.staged, terminal)
}

// stage keeps a settlement's count on the seat's card until its transaction commits.
func (c *carded) stage(terminal string, card precommit.Card, staked, returned int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.staged[terminal] = staged{card: card, staked: staked, returned: returned}
}

// committed applies the staged counts (ok: the settlement committed; else they are dropped) and
// returns the terminals whose card changed.
func (c *carded) committed(ok bool) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.staged) == 0 {
		return nil
	}
	var terms []string
	for terminal, s := range c.staged {
		if !ok {
			continue
		}
		v := c.view(terminal)
		if v.card.ID == s.card.ID {
			v.card, v.known = s.card, true
			v.result += s.returned - s.staked
			terms = append(terms, terminal)
		}
	}
	clear(c.staged)
	return terms
}

// stateOf is the seat's card as its player is shown it at now (nil: the seat has no card).
func (c *carded) stateOf(terminal string, now time.Time, s precommit.Settings) *table.CardState {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.views[terminal]
	if v == nil || v.card.ID == "" {
		return nil
	}
	k := v.card
	out := &table.CardState{Card: k.ID, State: string(k.State), At: now,
		Limits:      table.CardLimits{Loss: k.Limits.Loss, Time: k.Limits.Time, Bar: k.Limits.Bar},
		Next:        table.CardLimits{Loss: k.Next.Loss, Time: k.Next.Time, Bar: k.Next.Bar},
		NextFrom:    k.NextFrom,
		PeriodStart: k.PeriodStart, TimeUp: k.TimeUp(),
		BarredUntil: k.BarredUntil, BarredFor: k.BarredFor, BreakUntil: k.BreakUntil, BreakDue: k.BreakDue(s),
		SessionResult: v.result, SessionStart: v.start}
	if !v.known {
		out.State = "unregistered"
	}
	out.NeedsLimits = v.known && k.State == precommit.Registered && !k.Limits.Set()
	// The settled net loss: what the seat holds on the card for its open slip (its allowance)
	// is not the player's loss; the screen counts the chips on its own layout.
	out.NetLoss = k.Staked - k.Returned
	if k.Limits.Set() {
		out.LossLeft = max(0, k.Limits.Loss-out.NetLoss)
	}
	if r := v.refusal; r != nil {
		out.Refusal, out.RefusalUntil, out.RefusalWords = r.Reason, r.Until, r.Words
	}
	return out
}

// cardState is the seat's card for its snapshot and events (nil: none, or not carded).
func (t *Table) cardState(terminal string, now time.Time) *table.CardState {
	if t.cards == nil {
		return nil
	}
	return t.cards.stateOf(terminal, now, t.cfg.Precommit)
}

// tellCardLocked sends the seat its card state. Under t.mu.
func (t *Table) tellCardLocked(now time.Time, terminal string) {
	if s := t.cardState(terminal, now); s != nil {
		t.emit(now, terminal, table.CardStateChanged{State: *s})
	} else if t.cards != nil {
		t.emit(now, terminal, table.CardStateChanged{State: table.CardState{At: now}})
	}
}

// tellCard sends the seat its card state; t.mu not held.
func (t *Table) tellCard(terminal string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tellCardLocked(t.now(), terminal)
}

// tellSettledCards applies a settlement's card counts once it has committed (ok) and tells
// each seat its card. Under t.mu.
func (t *Table) tellSettledCards(now time.Time, ok bool) {
	if t.cards == nil {
		return
	}
	for _, terminal := range t.cards.committed(ok) {
		t.tellCardLocked(now, terminal)
	}
}

// PresentCard is the card read at the seat's reader: held for the seat's session, or refused
// with its reason in the state answered (a card in use at another seat, unregistered, lost,
// barred or barred by its limits); a registered card without limits is presented, for the
// player to set them. card "" (the card taken out) changes nothing: the seat keeps its card
// until its cash-out. The state is also sent on the seat's stream.
func (t *Table) PresentCard(terminal, card string) (table.CardState, error) {
	if t.cards == nil {
		return table.CardState{}, failed("this table does not play carded")
	}
	if card != "" {
		if err := checkCard(card); err != nil {
			return table.CardState{}, invalid("%v", err)
		}
		s := t.cards.seat(terminal)
		s.mu.Lock()
		err := t.claim(s, terminal, t.roundNow(), card)
		if err != nil && s.card != card {
			if r := t.refusalOf(terminal); r != nil && r.Reason == "no limits" {
				s.presented = card
			} else if r == nil {
				s.mu.Unlock()
				return table.CardState{}, err // not a refusal of the card: the store's trouble
			}
		}
		s.mu.Unlock()
	}
	return t.toldCard(terminal), nil
}

// toldCard tells the seat its card state and answers it (an empty state for none).
func (t *Table) toldCard(terminal string) table.CardState {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	t.tellCardLocked(now, terminal)
	if st := t.cardState(terminal, now); st != nil {
		return *st
	}
	return table.CardState{At: now}
}

// roundNow is the current round's id ("" between rounds); t.mu not held.
func (t *Table) roundNow() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur != nil {
		return t.cur.id
	}
	return ""
}

// refusalOf is the seat's latest card refusal, nil for none.
func (t *Table) refusalOf(terminal string) *precommit.Refusal {
	t.cards.mu.Lock()
	defer t.cards.mu.Unlock()
	if v := t.cards.views[terminal]; v != nil {
		return v.refusal
	}
	return nil
}

// SetCardLimits sets the limits of the card held at a seat, or presented there without limits,
// as its player asks at the terminal: lower at once — the seat's allowance is dropped, so its
// next slip is checked under them — higher after the cooling-off. card, when given, must be
// that card: a terminal sets the limits of the card in its own reader only. A presented card
// is held by the seat once its limits are set.
func (t *Table) SetCardLimits(terminal, card string, l precommit.Limits) (table.CardState, error) {
	if t.cards == nil {
		return table.CardState{}, failed("this table does not play carded")
	}
	s := t.cards.seat(terminal)
	s.mu.Lock()
	target := s.card
	if target == "" {
		target = s.presented
	}
	switch {
	case target == "":
		s.mu.Unlock()
		return table.CardState{}, failed("no player card is held at this seat: insert your player card")
	case card != "" && card != target:
		s.mu.Unlock()
		return table.CardState{}, failed("player card %s is not the card read at this seat", card)
	}
	c, err := t.cards.store.SetLimits(seatCtx(terminal), target, l, t.now())
	t.cards.spend(terminal)
	if err != nil {
		s.mu.Unlock()
		var r *precommit.Refusal
		if errors.As(err, &r) {
			t.cards.refused(terminal, target, c, err)
			t.tellCard(terminal)
			return table.CardState{}, failed("%s", r.Words)
		}
		return table.CardState{}, invalid("%v", err)
	}
	t.cards.read(terminal, c)
	if s.card == "" {
		if err := t.claim(s, terminal, t.roundNow(), target); err != nil {
			s.mu.Unlock()
			t.tellCard(terminal)
			return table.CardState{}, err
		}
	}
	s.mu.Unlock()
	return t.toldCard(terminal), nil
}

// AckRealityCheck journals the player's acknowledgement of the reality check shown at shownAt
// (server time) for the card the seat holds.
func (t *Table) AckRealityCheck(terminal, card string, shownAt time.Time) error {
	if t.cards == nil {
		return failed("this table does not play carded")
	}
	s := t.cards.seat(terminal)
	s.mu.Lock()
	held := s.card
	s.mu.Unlock()
	switch {
	case held == "":
		return failed("no player card is held at this seat: insert your player card")
	case card != "" && card != held:
		return failed("player card %s is not the card read at this seat", card)
	}
	st := t.cardState(terminal, t.now())
	detail := "reality check acknowledged at " + t.tableID() + "/" + terminal
	if !shownAt.IsZero() {
		detail += ", shown " + shownAt.UTC().Format(time.RFC3339)
	}
	var result int64
	if st != nil {
		detail += ", played " + st.TimePlayed(t.now()).Truncate(time.Second).String()
		result = st.SessionResult
	}
	err := t.led.Update(seatCtx(terminal), t.now(), func(tx *ledger.Tx) error {
		return tx.Event("precommit", terminal, "", result, "card "+held+": "+detail)
	})
	return ledgerErr(err)
}

// ---- the terminal's calls ---------------------------------------------------------------------

func (s *terminalService) PresentCard(ctx context.Context, req *pb.PresentCardRequest) (*pb.CardState, error) {
	st, err := s.t.PresentCard(callerID(ctx), req.GetCard())
	if err != nil {
		return nil, err
	}
	return wire.CardStatePB(st), nil
}

func (s *terminalService) SetCardLimits(ctx context.Context, req *pb.SetCardLimitsRequest) (*pb.CardState, error) {
	l, err := wire.CardLimitsOf(req)
	if err != nil {
		return nil, invalid("%v", err)
	}
	st, err := s.t.SetCardLimits(callerID(ctx), req.GetCard(), precommit.Limits{Loss: l.Loss, Time: l.Time, Bar: l.Bar})
	if err != nil {
		return nil, err
	}
	return wire.CardStatePB(st), nil
}

func (s *terminalService) AckRealityCheck(ctx context.Context, req *pb.AckRealityCheckRequest) (*pb.AckRealityCheckResponse, error) {
	if err := s.t.AckRealityCheck(callerID(ctx), req.GetCard(), wire.Time(max(req.GetShownAtUnixNanos(), 0))); err != nil {
		return nil, err
	}
	return &pb.AckRealityCheckResponse{}, nil
}
