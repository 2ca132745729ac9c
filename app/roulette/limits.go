package roulette

import (
	"errors"
	"fmt"
	"math"
)

// MaxStake bounds any single stake so that the largest payout (Mega, 1000 to 1, plus the stake)
// cannot overflow int64. Limits and the audit tool refuse larger amounts.
const MaxStake = math.MaxInt64 / (MegaOdds + 1)

// Limit is the limit of one kind of individual wager: permitted amounts are Min + k×Unit, up to
// Max. Max 0 means no maximum; Unit 0 means any amount over the minimum (one cent steps).
type Limit struct {
	Min, Max, Unit int64
}

// Validate checks the limit makes sense.
func (l Limit) Validate() error {
	switch {
	case l.Min < 1:
		return fmt.Errorf("minimum %d: must be at least 1 cent", l.Min)
	case l.Unit < 0:
		return fmt.Errorf("unit %d: must not be negative", l.Unit)
	case l.Max != 0 && l.Max < l.Min:
		return fmt.Errorf("maximum %d is below the minimum %d", l.Max, l.Min)
	case l.Min > MaxStake || l.Max > MaxStake:
		return fmt.Errorf("limit above the largest stake %d", MaxStake)
	}
	return nil
}

// Permitted reports whether amount is a permitted wager under l.
func (l Limit) Permitted(amount int64) bool {
	if amount < l.Min || (l.Max > 0 && amount > l.Max) || amount > MaxStake {
		return false
	}
	return l.Unit <= 1 || (amount-l.Min)%l.Unit == 0
}

// floor is the largest permitted amount <= ceiling, or 0 if none.
func (l Limit) floor(ceiling int64) int64 {
	if l.Max > 0 && ceiling > l.Max {
		ceiling = l.Max
	}
	if ceiling > MaxStake {
		ceiling = MaxStake
	}
	if ceiling < l.Min {
		return 0
	}
	if l.Unit <= 1 {
		return ceiling
	}
	return l.Min + (ceiling-l.Min)/l.Unit*l.Unit
}

// Limits are a table's limits, as its limit sign shows them (001 §4.1–4.3, 003 §2.5.4).
// The zero value has no limits at all: any positive amount, one cent steps.
type Limits struct {
	Default      Limit
	PerKind      map[Kind]Limit // overrides Default for that kind of individual wager
	TableMax     int64          // most a player may have on the layout in one round; 0 = none
	AggregateMin int64          // rule 4.3.3: a round's wagers totalling less are not recognised
}

// For returns the limit for an individual wager of kind k.
func (l Limits) For(k Kind) Limit {
	if lim, ok := l.PerKind[k]; ok {
		return lim
	}
	if l.Default.Min == 0 && l.Default.Max == 0 && l.Default.Unit == 0 {
		return Limit{Min: 1}
	}
	return l.Default
}

// Validate checks every limit.
func (l Limits) Validate() error {
	if l.Default != (Limit{}) {
		if err := l.Default.Validate(); err != nil {
			return fmt.Errorf("limits: %w", err)
		}
	}
	for k, lim := range l.PerKind {
		if !k.Valid() {
			return fmt.Errorf("limits: unknown bet kind %d", uint8(k))
		}
		if err := lim.Validate(); err != nil {
			return fmt.Errorf("limits: %v: %w", k, err)
		}
	}
	if l.TableMax < 0 || l.AggregateMin < 0 {
		return errors.New("limits: table maximum and aggregate minimum must not be negative")
	}
	return nil
}

// Reason says why the amount a player sees on a spot differs from what they tried to put there.
type Reason uint8

// The reasons, in the order they are checked.
const (
	ReasonNone         Reason = iota
	ReasonBelowMinimum        // rule 4.3.1: no chips appear
	ReasonAboveMaximum        // rule 4.3.2(b): clamped to the next lowest permitted wager
	ReasonOffUnit             // rule 4.3.2(a): not a permitted multiple over the minimum
	ReasonTableMax            // the layout would exceed the table maximum
	ReasonBalance             // rule 4 (SPEC §3.4): a wager never exceeds the balance
)

var reasonCodes = [...]string{"", "below-minimum", "above-maximum", "off-unit", "above-table-maximum", "insufficient-balance"}

var reasonMessages = [...]string{
	"",
	"below the minimum for this bet: no chips placed",
	"above the maximum for this bet: reduced to the next lowest permitted wager",
	"not a permitted multiple over the minimum: reduced to the next lowest permitted wager",
	"above the table maximum: reduced to what the table allows",
	"more than the balance covers: reduced to what the balance allows",
}

// String is a stable code ("below-minimum" …; "" for ReasonNone), used in the audit JSON.
func (r Reason) String() string {
	if int(r) < len(reasonCodes) {
		return reasonCodes[r]
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// Message is the sentence the player is shown.
func (r Reason) Message() string {
	if int(r) < len(reasonMessages) {
		return reasonMessages[r]
	}
	return r.String()
}

// Unlimited, passed as the available balance or table room, means no such bound.
const Unlimited int64 = -1

// Place applies rule 4.3 to an attempt to have `attempt` in total on one spot of kind k, with
// `available` the most the balance can cover there (Unlimited for no bound). It returns the
// amount the screen shows: 0 below the minimum; otherwise the largest permitted amount not above
// the attempt nor above what is available (0 if none) — clamped down, never up.
func (l Limits) Place(k Kind, attempt, available int64) (int64, Reason) {
	return l.PlaceOnTable(k, attempt, available, Unlimited)
}

// PlaceOnTable is Place with a second bound, the room left under the table maximum.
func (l Limits) PlaceOnTable(k Kind, attempt, available, tableRoom int64) (int64, Reason) {
	if attempt <= 0 {
		return 0, ReasonNone
	}
	lim := l.For(k)
	if attempt < lim.Min {
		return 0, ReasonBelowMinimum
	}
	ceiling, why := attempt, ReasonNone
	if lim.Max > 0 && ceiling > lim.Max {
		ceiling, why = lim.Max, ReasonAboveMaximum
	}
	if tableRoom >= 0 && ceiling > tableRoom {
		ceiling, why = tableRoom, ReasonTableMax
	}
	if available >= 0 && ceiling > available {
		ceiling, why = available, ReasonBalance
	}
	got := lim.floor(ceiling)
	if got != attempt && why == ReasonNone {
		why = ReasonOffUnit
	}
	return got, why
}

// PlaceCall applies rule 4.3 to a call bet of perPiece on each piece on an empty layout (SPEC
// §3.6): one per-piece amount permitted for every piece, the largest not above perPiece whose
// total the balance covers. It is refused whole (0) if any piece would be below its minimum at
// the attempted amount, or if no permitted amount fits the balance. Pricer.Place is the same on
// a slip, with what is already on each piece's spot.
func (l Limits) PlaceCall(pieces []Piece, perPiece, available int64) (int64, Reason) {
	if perPiece <= 0 || len(pieces) == 0 {
		return 0, ReasonNone
	}
	p := Pricer{limits: l, available: available, room: Unlimited}
	return p.placeCall(pieces, perPiece)
}

// Recognised applies rule 4.3.3: wagers totalling less than the aggregate minimum are not
// recognised at the end of the wagering period.
func (l Limits) Recognised(total int64) bool { return total >= l.AggregateMin }

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
