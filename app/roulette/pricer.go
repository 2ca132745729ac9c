package roulette

// Pricing a slip spot by spot (SPEC §3.7, 001 §4.3.2). The rule's "wager on a bet" is the money
// on one spot, however it got there: chips tapped one by one, several wagers of a slip naming
// the spot, the pieces of call bets that land on it (a neighbours bet's straight on 17 and a
// straight on 17 are one wager on straight 17), repeat, double, a favourite, a dealer's wager for
// the seat. So a spot's limits (minimum, unit, maximum) hold for the total on the spot after
// each placement, and a slip is priced wager by wager in its order, each against the totals the
// wagers before it left: that order makes "clamp down, never up" deterministic, and it is the
// one pricing the terminal's touch, the table server and atsctl settle all use (no copies).
//
// A wager's accepted amount is what it adds to the layout; its reason says why that differs
// from what it attempted. A wager that would take a spot over its maximum adds only what brings
// the spot to the next lowest permitted total (possibly nothing). A call bet adds one per-piece
// amount to every piece's spot, the largest not above its attempt that leaves every one of its
// spots at a permitted total; if there is none it is refused whole (SPEC §3.6).

// Placement is one wager of a slip as the pricer takes it.
type Placement struct {
	Pieces []Piece // one piece of one unit for an ordinary bet
	Call   bool
	Amount int64 // the attempt; per piece for a call bet
	// Held: a wager placed and accepted before, by someone the slip's owner cannot overrule
	// (the dealer's wagers for the seat): it is folded onto its spots at Amount as it stands.
	Held bool
}

// Price is what the pricer accepted of one placement.
type Price struct {
	PerPiece int64 // per piece for a call bet; the amount added for an ordinary bet
	Total    int64 // what the placement added to the layout: PerPiece × its units
	Why      Reason
}

// spotTotal is the money on one spot of the slip so far.
type spotTotal struct {
	spot  Spot
	total int64
}

// Pricer prices the wagers of one slip in order, keeping the total on each spot, what the
// balance still covers and the room left under the table maximum. Its zero value is not
// usable: start one with Limits.NewPricer, or Reset.
type Pricer struct {
	limits    Limits
	available int64 // Unlimited for no bound
	room      int64 // under Limits.TableMax; Unlimited for none
	spots     []spotTotal
	// filter has a bit for every spot's hash: a spot whose bit is clear is not on the slip,
	// so the usual slip of distinct spots is priced without searching spots at all.
	filter uint64
}

// NewPricer starts pricing a slip on an empty layout, with available what the balance covers
// (Unlimited for no bound); the table maximum, if l has one, bounds the slip's total too.
// sizeHint is how many spots the slip is expected to cover (0 if unknown).
func (l Limits) NewPricer(available int64, sizeHint int) Pricer {
	var p Pricer
	if sizeHint > 0 {
		p.spots = make([]spotTotal, 0, sizeHint)
	}
	p.Reset(l, available)
	return p
}

// Reset starts p on a new slip as NewPricer does, keeping the memory it has: a table pricing
// thousands of slips a second keeps its pricers in a pool.
func (p *Pricer) Reset(l Limits, available int64) {
	room := Unlimited
	if l.TableMax > 0 {
		room = l.TableMax
	}
	*p = Pricer{limits: l, available: available, room: room, spots: p.spots[:0]}
}

// PriceSlip prices a whole slip in its order (see Pricer): the accepted amount of each wager,
// with the slip's total. Held wagers are folded as they stand, so they come first.
func (l Limits) PriceSlip(ws []Placement, available int64) (prices []Price, total int64) {
	p := l.NewPricer(available, len(ws))
	prices = make([]Price, len(ws))
	for i, w := range ws {
		if w.Held {
			prices[i] = p.Hold(w.Pieces, w.Amount)
		} else {
			prices[i] = p.Place(w.Pieces, w.Call, w.Amount)
		}
		total += prices[i].Total
	}
	return prices, total
}

// On is the total on spot s so far.
func (p *Pricer) On(s Spot) int64 {
	if i := p.index(s); i >= 0 {
		return p.spots[i].total
	}
	return 0
}

// Hold folds a wager accepted before at perPiece onto its spots, as it stands: it takes its
// share of the balance and the table maximum, and later wagers on its spots add to it.
func (p *Pricer) Hold(pieces []Piece, perPiece int64) Price {
	if perPiece <= 0 {
		return Price{}
	}
	var total int64
	for _, pc := range pieces {
		p.add(pc.Spot, pc.Units*perPiece)
		total += pc.Units * perPiece
	}
	p.spend(total)
	return Price{PerPiece: perPiece, Total: total}
}

// Place prices the next wager of the slip, amount on pieces (per piece for a call bet), against
// the totals on its spots so far, and adds what it accepted to them.
func (p *Pricer) Place(pieces []Piece, call bool, amount int64) Price {
	if amount <= 0 || len(pieces) == 0 {
		return Price{}
	}
	if !call {
		if len(pieces) != 1 || pieces[0].Units != 1 {
			return Price{}
		}
		s := pieces[0].Spot
		i, on := p.index(s), int64(0)
		if i >= 0 {
			on = p.spots[i].total
		}
		bound, boundWhy := p.bound()
		got, why := p.limits.PlaceOnTable(s.Kind, satAdd(on, amount), satAdd(on, bound), Unlimited)
		if why == ReasonBalance {
			why = boundWhy
		}
		add := max(got-on, 0)
		if add > 0 {
			if i >= 0 {
				p.spots[i].total += add
			} else {
				p.filter |= spotBit(s)
				p.spots = append(p.spots, spotTotal{s, add})
			}
			p.spend(add)
		}
		return Price{PerPiece: add, Total: add, Why: why}
	}
	per, why := p.placeCall(pieces, amount)
	if per == 0 {
		return Price{Why: why}
	}
	var total int64
	for _, pc := range pieces {
		p.add(pc.Spot, pc.Units*per)
		total += pc.Units * per
	}
	p.spend(total)
	return Price{PerPiece: per, Total: total, Why: why}
}

// bound is the most the slip may still add, and the reason it binds: the balance, or the table
// maximum when that is the smaller.
func (p *Pricer) bound() (int64, Reason) {
	if p.room >= 0 && (p.available < 0 || p.room < p.available) {
		return p.room, ReasonTableMax
	}
	return p.available, ReasonBalance
}

func (p *Pricer) spend(amount int64) {
	if p.available >= 0 {
		p.available = max(p.available-amount, 0)
	}
	if p.room >= 0 {
		p.room = max(p.room-amount, 0)
	}
}

// satAdd is on + b, with Unlimited (b < 0) staying Unlimited and no overflow.
func satAdd(on, b int64) int64 {
	if b < 0 {
		return Unlimited
	}
	if b > maxInt64-on {
		return maxInt64
	}
	return on + b
}

const maxInt64 = 1<<63 - 1

func spotBit(s Spot) uint64 {
	return 1 << ((uint64(s.Mask)*0x9E3779B97F4A7C15 + uint64(s.Kind)*0xC2B2AE3D27D4EB4F) >> 58)
}

func (p *Pricer) index(s Spot) int {
	if p.filter&spotBit(s) == 0 {
		return -1
	}
	for i := range p.spots {
		if p.spots[i].spot == s {
			return i
		}
	}
	return -1
}

func (p *Pricer) add(s Spot, amount int64) {
	if i := p.index(s); i >= 0 {
		p.spots[i].total += amount
		return
	}
	p.filter |= spotBit(s)
	p.spots = append(p.spots, spotTotal{s, amount})
}

// callPiece is a call bet's piece with the total already on its spot.
type callPiece struct {
	spot  Spot
	units int64
	on    int64
}

// placeCall finds the per-piece amount of a call bet (SPEC §3.6 with §3.7): the largest a not
// above perPiece such that every piece's spot total, on + units×a, is a permitted amount and
// the bet's total fits the bound; 0 (refused whole) if any piece would be below its minimum at
// the attempted amount, or if no such amount exists.
func (p *Pricer) placeCall(pieces []Piece, perPiece int64) (int64, Reason) {
	var buf [12]callPiece
	cps := buf[:0]
	for _, pc := range pieces {
		if pc.Units <= 0 || perPiece > MaxStake/pc.Units {
			return 0, ReasonAboveMaximum
		}
		merged := false
		for i := range cps { // a call bet with two pieces on one spot is one wager there
			if cps[i].spot == pc.Spot {
				cps[i].units += pc.Units
				merged = true
			}
		}
		if !merged {
			cps = append(cps, callPiece{spot: pc.Spot, units: pc.Units, on: p.On(pc.Spot)})
		}
	}
	hi, why := perPiece, ReasonNone
	lo := int64(1)
	var units int64
	for _, c := range cps {
		units += c.units
		lim := p.limits.For(c.spot.Kind)
		if c.units > MaxStake/perPiece {
			return 0, ReasonAboveMaximum
		}
		if satAdd(c.on, c.units*perPiece) < lim.Min {
			return 0, ReasonBelowMinimum
		}
		if need := lim.Min - c.on; need > 0 {
			lo = max(lo, (need+c.units-1)/c.units)
		}
		if lim.Max > 0 && hi > (lim.Max-c.on)/c.units {
			hi, why = (lim.Max-c.on)/c.units, ReasonAboveMaximum
		}
	}
	if bound, boundWhy := p.bound(); bound >= 0 && hi > bound/units {
		hi, why = bound/units, boundWhy
	}
	// The per-piece amounts a piece permits form a progression with step Unit/gcd(Units, Unit)
	// (whatever is already on its spot only shifts it); those every piece permits repeat with
	// the lcm of the steps. So a search down from hi finds the answer, or proves there is none,
	// within one period.
	period := int64(1)
	for _, c := range cps {
		u := p.limits.For(c.spot.Kind).Unit
		if u > 1 {
			step := u / gcd(u, c.units)
			period = period / gcd(period, step) * step
			if period > hi-lo+1 {
				period = hi - lo + 1
				break
			}
		}
	}
	for a := hi; a >= lo && a > hi-period; a-- {
		if p.allPermitted(cps, a) {
			if a != perPiece && why == ReasonNone {
				why = ReasonOffUnit
			}
			return a, why
		}
	}
	if why == ReasonNone {
		why = ReasonOffUnit
	}
	return 0, why
}

func (p *Pricer) allPermitted(cps []callPiece, perPiece int64) bool {
	for _, c := range cps {
		if !p.limits.For(c.spot.Kind).Permitted(c.on + c.units*perPiece) {
			return false
		}
	}
	return true
}
