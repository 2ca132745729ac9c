package ui

import (
	"fmt"

	appmoney "github.com/tablegames/ats/app/money"

	"github.com/tablegames/ats/app/msg"
	"github.com/tablegames/ats/app/roulette"
)

// say is a message of the terminal's (app/, the cashier) in the player's language: its key
// translated, bets named in the language too. It knows no table, so amounts of money in it are
// bare figures: where the table is known, Screen.say or sayIn says them in its currency.
func say(m msg.Msg) string { return m.Format(T, sayArg) }

// sayErr is what the player is told about a refusal.
func sayErr(err error) string { return say(msg.Of(err)) }

func sayArg(a any) (string, bool) {
	switch v := a.(type) {
	case roulette.Bet:
		return betName(v), true
	case roulette.Spot:
		return spotName(v), true
	case roulette.Kind:
		return T(v.String()), true
	case appmoney.Amount:
		return amount(int64(v)), true
	}
	return "", false
}

// say is m as the player reads it on this screen: amounts of money after the table's currency
// symbol, as the balance and the bet read.
// It starts with a capital, as a sentence does, whatever the message begins with: a bet's name
// ("straight 17: …") or the table's own words in a refusal (issue 32).
func (s *Screen) say(m msg.Msg) string { return capital(sayIn(s.last.Config.Currency, m)) }

// sayIn is m with its amounts of money (money.Amount) in the currency cur; tournament chips
// (money.Decimal) stay bare figures.
func sayIn(cur string, m msg.Msg) string {
	return m.Format(T, func(a any) (string, bool) {
		if v, ok := a.(appmoney.Amount); ok {
			return inCurrency(cur, int64(v)), true
		}
		return sayArg(a)
	})
}

// betName is a bet as the player reads it; in English it is the rules engine's own name.
func betName(b roulette.Bet) string {
	switch {
	case b.Call == roulette.Neighbours:
		spread := b.Spread
		if spread == 0 {
			spread = roulette.DefaultSpread
		}
		return fmt.Sprintf(T("neighbours %v±%d"), b.Centre, spread)
	case b.IsCall():
		return T(b.Call.String())
	}
	return spotName(b.Spot)
}

// spotName is a bet spot as the player reads it (roulette.Spot.String in English).
func spotName(s roulette.Spot) string {
	switch {
	case s.Kind.Inside():
		return T(s.Kind.String()) + " " + s.Mask.String()
	case s.Kind == roulette.Column || s.Kind == roulette.Dozen:
		return fmt.Sprintf("%s %d", T(s.Kind.String()), s.Which())
	case s.Kind == roulette.LuckyBall:
		if c, ok := s.Colour(); ok {
			return T(s.Kind.String()) + " " + T(c.String())
		}
	}
	return T(s.Kind.String())
}
