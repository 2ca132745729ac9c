package server

import (
	"fmt"
	"time"

	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
)

// The player at a seat: their player card and their own limits.
//
// Player card (003 §3.4, §9.1): where the table's profile requires one (Config.PlayerCardRequired)
// a player "must have a valid Player Card at the commencement of play and must only participate
// in the game with the use of their own Player Card", and a wager placed otherwise is invalid.
// The terminal sends the card in its reader with every wager; the server refuses a slip whose
// wagers carry none, carry one that is no card number, or carry two different cards (one slip is
// one player's), and records the card with every wager it stores (acceptedBet.Card, in the
// ledger's slip). The screen refuses the touch too (app/betting.go), but it is the server's
// refusal that holds.
//
// Per-player limits (000 §4.3, 003 §4.6): minimum and maximum wagers that differ from the table's
// limit sign may be agreed for an individual player — for a seat, or for a player card wherever
// it plays — by the dealer or the supervisor (SetPlayerLimits, audited with who did it). They
// replace the table's limits for that player: the server prices the player's slips by them and
// recognises the round's total by their aggregate minimum; the seat is told them (the snapshot's
// PlayerLimits and the PlayerLimitsChanged event), and shows the distinctive marker and its own
// limit sign. A card's limits win over the seat's. They are held in memory like the table's own
// limits (which come from the configuration and the console): after a restart the dealer sets
// them again, and the audit log keeps every change.

// maxCardLen bounds a player card number: a card reader gives a few dozen characters.
const maxCardLen = 64

// checkCard checks a player card number as the wire carries it: 1 to 64 letters, digits, '-'
// or '_' (what a card reader gives; nothing that could forge a log line or a JSON field).
func checkCard(card string) error {
	if card == "" || len(card) > maxCardLen {
		return fmt.Errorf("player card %q: must be 1 to %d characters", card, maxCardLen)
	}
	for _, c := range []byte(card) {
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-' || c == '_') {
			return fmt.Errorf("player card %q: only letters, digits, '-' and '_'", card)
		}
	}
	return nil
}

// slipCard is the one player card of a slip's wagers, checked (003 §3.4, §9.1): "" for a slip
// of no wagers, or on a table that requires no card and was sent none.
func (t *Table) slipCard(wagers []SlipWager) (string, error) {
	card := ""
	for i, w := range wagers {
		if w.Card == "" {
			if t.cfg.PlayerCardRequired {
				return "", failed("wager %d: this table requires a player card and none was sent (003 §3.4, §9.1): insert your player card", i)
			}
			if card != "" {
				return "", invalid("wager %d: placed without the player card %s of the slip's other wagers (003 §9.1)", i, card)
			}
			continue
		}
		if err := checkCard(w.Card); err != nil {
			return "", invalid("wager %d: %v", i, err)
		}
		if i > 0 && card != w.Card {
			return "", invalid("wager %d: placed with another player card than the slip's other wagers: a player wagers only with their own card (003 §9.1)", i)
		}
		card = w.Card
	}
	return card, nil
}

// limitsFor are the limits a slip of this seat, placed with this card, is priced and recognised
// by: the card's own, else the seat's own, else the table's. Under t.mu.
func (t *Table) limitsFor(terminal, card string) roulette.Limits {
	if l, ok := t.cardLimits[card]; ok && card != "" {
		return l
	}
	if l, ok := t.seatLimits[terminal]; ok {
		return l
	}
	return t.limits
}

// personal is the seat's own limits as its screen shows them (the card last used there, else
// the seat), nil when it plays to the table's sign. Under t.mu.
func (t *Table) personal(terminal string) *roulette.Limits {
	if c := t.cardAt[terminal]; c != "" {
		if l, ok := t.cardLimits[c]; ok {
			return &l
		}
	}
	if l, ok := t.seatLimits[terminal]; ok {
		return &l
	}
	return nil
}

// seenCard notes the card a seat's slip was placed with; if that changes the seat's own limits,
// the seat is told. Under t.mu.
func (t *Table) seenCard(now time.Time, terminal, card string) {
	if card == "" || t.cardAt[terminal] == card {
		return
	}
	_, hadOwn := t.cardLimits[t.cardAt[terminal]]
	t.cardAt[terminal] = card
	if _, own := t.cardLimits[card]; own || hadOwn {
		t.emit(now, terminal, table.PlayerLimitsChanged{Limits: t.personal(terminal)})
	}
}

// card is the player card a slip's wagers were placed with ("" for none).
func (sl *slip) card() string {
	for _, b := range sl.bets {
		if b.Card != "" {
			return b.Card
		}
	}
	return ""
}

// SetPlayerLimits sets (l non-nil) or clears a player's own limits (000 §4.3, 003 §4.6), for a
// seat (terminal) or a player card (card): exactly one of the two. They apply to the player's
// next slip update; the seat is told at once, and the change is written to the audit log with
// who made it.
func (t *Table) SetPlayerLimits(actor, terminal, card string, l *roulette.Limits) (*pb.TableStatus, error) {
	return t.do(actor, func(now time.Time) error {
		switch {
		case (terminal == "") == (card == ""):
			return invalid("name exactly one of a seat (terminal id) or a player card")
		case terminal != "":
			if err := t.knownTerminal(terminal); err != nil {
				return err
			}
		default:
			if err := checkCard(card); err != nil {
				return invalid("%v", err)
			}
		}
		detail := "cleared: back to the table's limit sign"
		if l != nil {
			if err := l.Validate(); err != nil {
				return invalid("%v", err)
			}
			detail = describeLimits(*l)
		}
		who := "seat " + terminal
		if card != "" {
			who = "player card " + card
		}
		err := t.led.Update(t.bg(), now, func(tx *ledger.Tx) error {
			return tx.Event("player-limits", terminal, "", 0, who+": "+detail)
		})
		if err != nil {
			return ledgerErr(err)
		}
		m, key := t.seatLimits, terminal
		if card != "" {
			m, key = t.cardLimits, card
		}
		if l == nil {
			delete(m, key)
		} else {
			m[key] = *l
		}
		t.limitsGen++ // a slip priced under the old limits is priced again
		for id := range t.subs {
			if id == terminal || (card != "" && t.cardAt[id] == card) {
				t.emit(now, id, table.PlayerLimitsChanged{Limits: t.personal(id)})
			}
		}
		return nil
	})
}

// describeLimits writes limits for the audit log: "min 5.00 max 100.00 unit 5.00; straight …".
func describeLimits(l roulette.Limits) string {
	one := func(x roulette.Limit) string {
		return fmt.Sprintf("min %s max %s unit %s", money.Decimal(x.Min), money.Decimal(x.Max), money.Decimal(x.Unit))
	}
	s := one(l.Default)
	for k := roulette.Straight; int(k) < roulette.NumKinds; k++ {
		if x, ok := l.PerKind[k]; ok {
			s += "; " + k.String() + " " + one(x)
		}
	}
	if l.TableMax > 0 {
		s += "; table max " + money.Decimal(l.TableMax)
	}
	if l.AggregateMin > 0 {
		s += "; aggregate min " + money.Decimal(l.AggregateMin)
	}
	return s
}
