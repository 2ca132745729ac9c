package apptest

import (
	"context"
	"sync"
	"time"

	"github.com/tablegames/ats/app/table"
)

// Cards is the fake table's carded play (app.CardLink): it answers each card read with the
// state the test set for it (an unknown card: unregistered), sets limits at once, and records
// the calls.
type Cards struct {
	mu     sync.Mutex
	states map[string]table.CardState
	// Presented are the cards presented, in order; Limits the limits set; Acks the reality
	// checks acknowledged (their shown times).
	presented []string
	limits    []table.CardLimits
	acks      []time.Time
	// AckErr, if set, makes AckRealityCheck fail with it.
	AckErr error
}

// CardLink is a fake link with carded play.
type CardLink struct {
	*Link
	*Cards
}

// WithCards returns l with carded play.
func WithCards(l *Link) *CardLink {
	return &CardLink{Link: l, Cards: &Cards{states: map[string]table.CardState{}}}
}

// SetCard sets the state the table answers for card.
func (c *Cards) SetCard(st table.CardState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.states[st.Card] = st
}

// PresentCard implements app.CardLink.
func (c *Cards) PresentCard(_ context.Context, card string) (table.CardState, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.presented = append(c.presented, card)
	st, ok := c.states[card]
	if !ok {
		st = table.CardState{Card: card, State: "unregistered", Refusal: "unregistered",
			RefusalWords: "Player card " + card + " is not registered: please register it at the cage before play."}
	}
	return st, nil
}

// SetCardLimits implements app.CardLink: the limits take effect at once.
func (c *Cards) SetCardLimits(_ context.Context, card string, l table.CardLimits) (table.CardState, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.limits = append(c.limits, l)
	st := c.states[card]
	st.Card, st.State, st.NeedsLimits, st.Refusal, st.RefusalWords = card, "registered", false, "", ""
	st.Limits, st.LossLeft = l, max(0, l.Loss-st.NetLoss)
	c.states[card] = st
	return st, nil
}

// AckRealityCheck implements app.CardLink.
func (c *Cards) AckRealityCheck(_ context.Context, _ string, shownAt time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.AckErr != nil {
		return c.AckErr
	}
	c.acks = append(c.acks, shownAt)
	return nil
}

// Presented returns the cards presented so far.
func (c *Cards) Presented() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.presented...)
}

// LimitsSet returns the limits set so far.
func (c *Cards) LimitsSet() []table.CardLimits {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]table.CardLimits(nil), c.limits...)
}

// Acks returns the reality checks acknowledged so far (their shown times).
func (c *Cards) Acks() []time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Time(nil), c.acks...)
}
