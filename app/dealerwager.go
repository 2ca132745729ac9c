package app

import (
	"context"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
)

// Dealer-placed wagers (002 §3.2B): the player declares a call bet orally and the dealer places
// it for the seat at the console. The table keeps it on the seat's slip and settles it with the
// player's own wagers; the terminal shows it apart, marked as the dealer's, and never sends it
// back as the player's own (the table refuses a terminal's wager that claims a dealer).

// ReasonDealerOnly is the table's reason for a call bet of the player's own that it voided: at
// a table whose racetrack wagers are declared orally, only the dealer places them (002 §3.2B).
// It is the server's word (server.ReasonDealerOnly), repeated here as app does not import it.
const ReasonDealerOnly = "racetrack-dealer-only"

// DealerStake is a wager the dealer placed for the seat: the bet, the amount per piece the table
// accepted, and who placed it.
type DealerStake struct {
	Stake
	PlacedBy string
}

// dealerTotal is the money the dealer's wagers put on the slip.
func dealerTotal(ds []DealerStake, l roulette.Layout) int64 {
	var n int64
	for _, d := range ds {
		n += d.Amount * units(d.Bet, l)
	}
	return n
}

// splitAck separates an acknowledged slip into the player's own stakes and the dealer's.
func splitAck(ack *table.SlipAck, l roulette.Layout) (own []Stake, dealer []DealerStake) {
	for i, b := range ack.Bets {
		amount := b.Amount
		if i < len(ack.Results) {
			amount = ack.Results[i].Accepted / max(units(b.Bet, l), 1)
		}
		if amount <= 0 {
			continue
		}
		if b.PlacedBy != "" {
			dealer = append(dealer, DealerStake{Stake: Stake{Bet: b.Bet, Amount: amount}, PlacedBy: b.PlacedBy})
		} else {
			own = append(own, Stake{Bet: b.Bet, Amount: amount})
		}
	}
	return own, dealer
}

// onDealerWagerLocked takes the seat's slip after the dealer placed a wager on it.
func (t *Terminal) onDealerWagerLocked(e table.DealerWagerPlaced) {
	if e.Slip.RoundID != t.view.RoundID {
		return
	}
	layout := t.view.Config.Layout
	_, dealer := splitAck(&e.Slip, layout)
	known := len(t.view.DealerStakes)
	t.view.DealerStakes = dealer
	for _, d := range dealer[min(known, len(dealer)):] {
		t.sayLocked(msg.New("The dealer placed %s for you: %s", d.Bet, money.Amount(d.Amount*units(d.Bet, layout))), TableNews)
	}
}

// withDealer is the player's stakes and the dealer's, as one list for the result.
func withDealer(own []Stake, dealer []DealerStake) []Stake {
	if len(dealer) == 0 {
		return own
	}
	out := make([]Stake, 0, len(own)+len(dealer))
	out = append(out, own...)
	for _, d := range dealer {
		out = append(out, d.Stake)
	}
	return out
}

// CallDealer is the player's call from the screen: a claim that an outcome is wrong or that part
// of the game malfunctioned, which the dealer must consider (001 §9.5, 000 §10.9.4). The table
// raises it on the dealer console; the player is told it went, or why not.
func (t *Terminal) CallDealer(ctx context.Context) error {
	err := t.link.CallDealer(ctx, "")
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		t.sayLocked(msg.New("The dealer could not be called: %s", msg.Of(err)), Answer)
	} else {
		t.sayLocked(msg.New("The dealer has been called and will come to you"), Answer)
	}
	t.changedLocked()
	return err
}

// refusedLocked takes the seat's slip after the casino supervisor refused wagers on it before
// no more bets (003 §9.12): the chips on the layout become exactly the table's slip, so the
// refused ones are gone from the screen, and the player is told the supervisor refused them and
// why. As for carried winners (carriedLocked), the terminal's next change is a newer version
// than the table's, and a change sent before the table's word arrived — which the table refuses
// as stale — is not told as a refusal: the table's slip stands. The undo history goes too, so
// undo cannot put a refused wager back without the player placing it again.
func (t *Terminal) refusedLocked(e table.WagerRefused) {
	if e.Slip.RoundID != t.view.RoundID {
		return // a round already gone: the snapshot of the new one says what stands
	}
	t.cueLocked(SoundRefused)
	layout := t.view.Config.Layout
	before := dealerTotal(t.view.DealerStakes, layout)
	for _, s := range t.slip.Stakes() {
		before += s.Amount * units(s.Bet, layout)
	}
	own, dealer := splitAck(&e.Slip, layout)
	t.slip.reset(own)
	t.view.DealerStakes = dealer
	if t.version >= e.Slip.Version {
		t.version++
	} else {
		t.version = e.Slip.Version
	}
	t.view.Acked = true
	removed := max(before-e.Slip.Total, 0)
	if len(e.Refused) == 1 {
		t.sayLocked(msg.New("The casino supervisor refused your wager on %s (%s) and removed it: %s",
			e.Refused[0].Bet, money.Amount(removed), e.Reason), TableNews)
	} else {
		t.sayLocked(msg.New("The casino supervisor refused %d of your wagers (%s) and removed them: %s",
			len(e.Refused), money.Amount(removed), e.Reason), TableNews)
	}
}
