package precommit

// The card tied to a verified identity (SPEC §10, issue 31): the cage registers a card to the
// person whose identity document the cashier checked. In 2025 the regulator found players on
// cards not in their names, and players who kept gambling past their limits; the rules here
// close the ways a card's registration could be used for either:
//
//   - A card is registered to one person at a time. A card registered (or barred) to one person
//     is not registered to another until the first registration is ended — the card reported
//     lost — so a card cannot pass from hand to hand at the cage.
//   - One person, one card in play: a person whose document is registered to a card not lost
//     is refused a second, so no one holds two cards' limits.
//   - Limits follow the person: a person registering a new card after reporting the old one
//     lost takes the old card's limits, period, play and any bar onto the new one, so a lost
//     card is never a way out of a limit or a bar. A card passing to a new person starts
//     with no limits (the new person sets their own) and no play.
//
// The document's number is never stored in clear (ledger.CardOwner): its kind, its last
// characters and a keyed digest, which is what deciding "the same person" needs.

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tablegames/ats/server/ledger"
)

// Person is the holder of a card as the cashier checked them: the name on the document, its
// kind and its number.
type Person struct {
	Name, IDType, IDNumber string
}

// maxIdentityText bounds each field a cashier types.
const maxIdentityText = 120

// normal is p as recorded: the name and type trimmed (the type lower-case), the number
// upper-case without spaces, dashes or dots (as a document is typed one way or another); an
// error names what is missing or malformed.
func (p Person) normal() (Person, error) {
	clean := func(what, s string) (string, error) {
		s = strings.TrimSpace(s)
		switch {
		case s == "":
			return "", fmt.Errorf("precommit: %s is required", what)
		case len(s) > maxIdentityText:
			return "", fmt.Errorf("precommit: %s: %d bytes, at most %d", what, len(s), maxIdentityText)
		case !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0:
			return "", fmt.Errorf("precommit: %s: one line of text", what)
		}
		return s, nil
	}
	var err error
	var out Person
	if out.Name, err = clean("the holder's name", p.Name); err != nil {
		return Person{}, err
	}
	if out.IDType, err = clean("the identity document's type", p.IDType); err != nil {
		return Person{}, err
	}
	out.IDType = strings.ToLower(out.IDType)
	n, err := clean("the identity document's number", p.IDNumber)
	if err != nil {
		return Person{}, err
	}
	out.IDNumber = strings.ToUpper(strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '.' {
			return -1
		}
		return r
	}, n))
	if len(out.IDNumber) < 4 {
		return Person{}, fmt.Errorf("precommit: the identity document's number %q: at least 4 characters", n)
	}
	return out, nil
}

// tail is the last characters of the document's number that are recorded and shown.
func (p Person) tail() string { return p.IDNumber[len(p.IDNumber)-3:] }

// Registration is whom a card is registered to, as recorded: never the document's number.
type Registration struct {
	Name, IDType string
	IDTail       string    // the document number's last 3 characters
	Since        time.Time // registered to this person at
	By           string    // the cashier who checked the document (role:id)
}

// Describe is the registration as the journal and the cashier read it:
// "Jane Citizen, passport ending 567".
func (r Registration) Describe() string {
	if r.Name == "" {
		return "no one"
	}
	return fmt.Sprintf("%s, %s ending %s", r.Name, r.IDType, r.IDTail)
}

func registrationOf(o ledger.CardOwner) Registration {
	return Registration{Name: o.Name, IDType: o.IDType, IDTail: o.IDTail, Since: timeOf(o.Since), By: o.By}
}

// Owner is the person card id is (or was last) registered to; ok false when none was.
func (s *LedgerStore) Owner(ctx context.Context, id string, now time.Time) (r Registration, ok bool, err error) {
	err = s.L.Update(ctx, now, func(tx *ledger.Tx) error {
		o, found, err := tx.CardOwner(id)
		r, ok = registrationOf(o), found
		return err
	})
	return r, ok, err
}

// carried are the fields of a card that are its holder's, not the card's: what passes with the
// person to a new card.
func carried(to *Card, from Card) {
	to.Limits, to.Next, to.NextFrom = from.Limits, from.Next, from.NextFrom
	to.PeriodStart, to.Staked, to.Returned = from.PeriodStart, from.Staked, from.Returned
	to.BarredUntil, to.BarredFor = from.BarredUntil, from.BarredFor
	to.PlayFrom, to.PlayedAt, to.BreakUntil = from.PlayFrom, from.PlayedAt, from.BreakUntil
	to.Spans = append([]Span(nil), from.Spans...)
}

// RegisterTo registers card id to person p, whose document cashier by has checked (by is
// recorded: "cashier:C1"), or registers it again to the same person (a card lost and found, a
// bar lifted). Refused (*Refusal, reason "owned") for a card registered or barred to someone
// else, and (reason "identity") for a person whose document is registered to another card
// not reported lost, or whose lost card still has a stake open at a table.
func (s *LedgerStore) RegisterTo(ctx context.Context, id string, p Person, by string, now time.Time) (Card, Registration, error) {
	p, err := p.normal()
	if err != nil {
		return Card{}, Registration{}, err
	}
	if by == "" {
		return Card{}, Registration{}, fmt.Errorf("precommit: card %s: registered by no one: the cashier is recorded", id)
	}
	var reg Registration
	c, err := s.change(ctx, id, now, true, func(tx *ledger.Tx, c *Card, known bool) (string, int64, error) {
		digest, err := tx.IdentityDigest(p.IDType, p.IDNumber)
		if err != nil {
			return "", 0, err
		}
		old, had, err := tx.CardOwner(id)
		if err != nil {
			return "", 0, err
		}
		same := had && old.IDDigest == digest
		if known && c.State != Lost && had && !same {
			return "", 0, refuse(*c, "owned", time.Time{},
				"Card %s is registered to %s: it is registered to another person only after it is reported lost.", id, registrationOf(old).Describe())
		}
		others, err := tx.CardsOfIdentity(digest)
		if err != nil {
			return "", 0, err
		}
		var from *Card // the person's latest other card: their limits and play
		for _, other := range others {
			if other == id {
				continue
			}
			row, ok, err := tx.Card(other)
			if err != nil {
				return "", 0, err
			}
			if !ok {
				continue
			}
			oc := cardOf(row)
			oc.roll(now, s.S.withDefaults())
			if oc.State != Lost {
				return "", 0, refuse(*c, "identity", time.Time{},
					"This %s is registered to card %s (%s): one person holds one card; report card %s lost first.", p.IDType, other, oc.State, other)
			}
			if oc.Reserved > 0 {
				return "", 0, refuse(*c, "identity", time.Time{},
					"Card %s of this person has a stake open at a table: register the new card after that round's result.", other)
			}
			from = &oc
		}
		if same && known && c.State == Registered {
			reg = registrationOf(old)
			return "", 0, nil // registered to this person already: nothing changes
		}
		detail := "registered to "
		switch {
		case same:
			detail = "registered again to " // the limits, play and any limit's bar stay with the card
		case from != nil:
			carried(c, *from)
			detail = "registered (limits and play carried from card " + from.ID + ") to "
		default:
			if c.Reserved > 0 {
				// The last holder's stake still open at a table settles on this card; the
				// new holder starts once it has.
				return "", 0, refuse(*c, "owned", time.Time{},
					"Card %s has a stake of its last holder open at a table: register it after that round's result.", id)
			}
			carried(c, Card{}) // a new person: no limits of the last, no play of theirs
		}
		c.State, c.HeldBy = Registered, ""
		o := ledger.CardOwner{Card: id, Name: p.Name, IDType: p.IDType, IDTail: p.tail(), IDDigest: digest, Since: now.UnixNano(), By: by}
		if same {
			o.Since, o.By = old.Since, old.By // the registration stands: first checked then, by them
		}
		if err := tx.PutCardOwner(o); err != nil {
			return "", 0, err
		}
		reg = registrationOf(o)
		return detail + reg.Describe() + ", checked by " + by, 0, nil
	})
	if err != nil {
		return c, Registration{}, err
	}
	return c, reg, nil
}

// Report changes a registered card's state at the cage: lost (ends its registration: its
// holder may register a new card, the card may be registered to someone else) or barred (an
// exclusion: refused until it is registered again to its holder). why is recorded with by.
// A card already in that state is answered unchanged.
func (s *LedgerStore) Report(ctx context.Context, id string, state State, by, why string, now time.Time) (Card, error) {
	if state != Lost && state != Barred {
		return Card{}, fmt.Errorf("precommit: card %s: the cage reports a card lost or barred, not %q", id, state)
	}
	if by == "" || strings.TrimSpace(why) == "" {
		return Card{}, fmt.Errorf("precommit: card %s: who reports it and why are recorded", id)
	}
	return s.change(ctx, id, now, false, func(_ *ledger.Tx, c *Card, known bool) (string, int64, error) {
		if !known {
			return "", 0, stateRefusal(*c, false, now)
		}
		if c.State == state {
			return "", 0, nil
		}
		if state == Barred && c.State == Lost {
			return "", 0, refuse(*c, "lost", time.Time{}, "Card %s is reported lost: it bars no one.", id)
		}
		c.State, c.HeldBy = state, ""
		return fmt.Sprintf("%s by %s: %s", state, by, strings.TrimSpace(why)), 0, nil
	})
}
