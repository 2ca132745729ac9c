package demo

// The demo's carded play (SPEC §10, issue 31): with Config.Carded the demo table plays carded,
// and its ledger holds demo player cards a player can try every screen with — registered at
// start as the cage would, each in the state its screen needs. The card in the demo seat's
// reader is Config.Card (DemoCard by default: registered, no limits yet, so the limits screen
// comes first). Another card goes in with the device command "pad card NUMBER 1".

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tablegames/ats/server/precommit"
)

// The demo's player cards.
const (
	DemoCard        = "1000001" // registered, no limits: the limits screen comes first
	DemoCardReached = "1000002" // its loss limit reached: barred for 24 hours
	DemoCardBreak   = "1000003" // three hours of continuous play: on its 15-minute break
	DemoCardBarred  = "1000004" // barred by the operator: refused at the pad
	DemoCardLost    = "1000005" // reported lost: refused at the pad
)

// demoCashier is who registered the demo's cards (a cage records the identity checked).
const demoCashier = "demo cage: identity not checked (demo card)"

// registerCards puts the demo's cards in the table's store at now: each only once, so a demo
// started again on its state directory keeps what its player did with them.
func registerCards(ctx context.Context, s precommit.Store, now time.Time) error {
	for _, c := range []struct {
		id    string
		state precommit.State
		setup func() error
	}{
		{DemoCard, precommit.Registered, nil},
		{DemoCardReached, precommit.Registered, func() error { return lossReached(ctx, s, DemoCardReached, now) }},
		{DemoCardBreak, precommit.Registered, func() error { return onBreak(ctx, s, DemoCardBreak, now) }},
		{DemoCardBarred, precommit.Barred, nil},
		{DemoCardLost, precommit.Lost, nil},
	} {
		if _, err := s.Card(ctx, c.id, now); err == nil {
			continue
		} else if !errors.Is(err, precommit.ErrUnknown) {
			return err
		}
		if c.state != precommit.Registered {
			// Registered first, so the bar or loss is a change of a registered card's state.
			if _, err := s.Register(ctx, c.id, precommit.Registered, demoCashier, now); err != nil {
				return err
			}
		}
		if _, err := s.Register(ctx, c.id, c.state, demoCashier, now); err != nil {
			return err
		}
		if c.setup != nil {
			if err := c.setup(); err != nil {
				return fmt.Errorf("demo card %s: %w", c.id, err)
			}
		}
	}
	return nil
}

// lossReached plays card to its A$20 loss limit just before now: barred for 24 hours.
func lossReached(ctx context.Context, s precommit.Store, card string, now time.Time) error {
	at := now.Add(-time.Minute)
	if _, err := s.SetLimits(ctx, card, precommit.Limits{Loss: 2000, Time: 2 * time.Hour, Bar: precommit.BarDay}, at); err != nil {
		return err
	}
	h := precommit.Hold{Card: card, Table: "DEMO", Terminal: "demo-setup", Round: "demo-loss"}
	if _, err := s.Stake(ctx, h, 2000, at); err != nil {
		return err
	}
	_, err := s.Settle(ctx, h, 2000, 0, at)
	return err
}

// onBreak plays card continuously (a wager every 10 minutes, each returned) for the three
// hours before now, so its next wager at now starts its 15-minute break.
func onBreak(ctx context.Context, s precommit.Store, card string, now time.Time) error {
	from := now.Add(-3 * time.Hour)
	if _, err := s.SetLimits(ctx, card, precommit.Limits{Loss: 50000, Time: 8 * time.Hour, Bar: precommit.BarDay}, from); err != nil {
		return err
	}
	for i := 0; ; i++ {
		at := from.Add(time.Duration(i) * 10 * time.Minute)
		if at.After(now) {
			at = now
		}
		h := precommit.Hold{Card: card, Table: "DEMO", Terminal: "demo-setup", Round: fmt.Sprintf("demo-play-%d", i)}
		_, err := s.Stake(ctx, h, 100, at)
		var r *precommit.Refusal
		if errors.As(err, &r) && r.Reason == "break" {
			return nil // the break is on
		}
		if err != nil {
			return err
		}
		if _, err := s.Settle(ctx, h, 100, 100, at); err != nil {
			return err
		}
		if at.Equal(now) {
			return errors.New("three hours of play brought no break")
		}
	}
}
