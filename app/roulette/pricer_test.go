package roulette

import (
	"testing"
)

// The lab's limits: straight 1.00–25.00 in steps of 1.00, the rest 1.00–500.00.
var labLimits = Limits{
	Default: Limit{Min: 100, Max: 50000, Unit: 100},
	PerKind: map[Kind]Limit{Straight: {Min: 100, Max: 2500, Unit: 100}},
}

func straightOn(n Number) []Piece { return []Piece{{Spot{Straight, MaskOf(n)}, 1}} }

func neighboursOf(t *testing.T, n Number) []Piece {
	t.Helper()
	ps, err := Layout{Wheel: SingleZero, Profile: CrownRapid}.CallPieces(Neighbours, n, 0)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// The lab's attack (issue 34, finding 1; 001 §4.3.2): ten wagers of 25.00 on straight 17, the
// straight maximum 25.00, were each priced alone and accepted as 250.00 on one number. Priced
// spot by spot the first takes the spot to its maximum and the other nine add nothing.
func TestAttackTenMaximumWagersOnOneStraightPricedAsOneSpot(t *testing.T) {
	ws := make([]Placement, 10)
	for i := range ws {
		ws[i] = Placement{Pieces: straightOn(17), Amount: 2500}
	}
	prices, total := labLimits.PriceSlip(ws, Unlimited)
	if total != 2500 {
		t.Fatalf("ten wagers of 25.00 on straight 17: %d accepted, want 2500 (the straight maximum)", total)
	}
	if prices[0] != (Price{PerPiece: 2500, Total: 2500}) {
		t.Errorf("first wager: %+v", prices[0])
	}
	for i, p := range prices[1:] {
		if p.Total != 0 || p.Why != ReasonAboveMaximum {
			t.Errorf("wager %d: %+v, want nothing added, above-maximum", i+1, p)
		}
	}
	var ret int64
	for i, w := range ws {
		ret += SettleWager(Wager{w.Pieces[0].Spot, prices[i].Total}, 17)
	}
	if ret != 2500*36 {
		t.Errorf("17 comes up: returned %d, want %d", ret, 2500*36)
	}
}

// The lab's settle case: two straight 17 wagers of 25.00 and a neighbours-of-17 bet at 25.00 a
// piece are one wager on straight 17: the neighbours bet cannot put its piece on 17 whole, so
// it is refused whole (SPEC §3.6, §3.7).
func TestAttackNeighboursPieceFoldsOntoStraight(t *testing.T) {
	ws := []Placement{
		{Pieces: straightOn(17), Amount: 2500},
		{Pieces: straightOn(17), Amount: 2500},
		{Pieces: neighboursOf(t, 17), Call: true, Amount: 2500},
	}
	prices, total := labLimits.PriceSlip(ws, Unlimited)
	if total != 2500 || prices[2].Total != 0 || prices[2].Why != ReasonAboveMaximum {
		t.Fatalf("prices %+v total %d: want 2500 on straight 17 and the neighbours bet refused whole", prices, total)
	}
	// With room left on 17 the neighbours bet takes the largest per-piece amount that keeps
	// 17 within its maximum: 24.00 on 17 leaves 1.00 a piece.
	ws = []Placement{
		{Pieces: straightOn(17), Amount: 2400},
		{Pieces: neighboursOf(t, 17), Call: true, Amount: 500},
	}
	prices, total = labLimits.PriceSlip(ws, Unlimited)
	if prices[1].PerPiece != 100 || prices[1].Total != 500 || prices[1].Why != ReasonAboveMaximum || total != 2900 {
		t.Fatalf("prices %+v total %d: want the neighbours bet at 1.00 a piece", prices, total)
	}
}

// SPEC §3.7 with §3.2: the unit and the minimum hold for the spot's total; a second wager
// smaller than the minimum is taken when the total is permitted, and one that leaves the total
// off the unit is clamped down to the unit.
func TestSpotTotalKeepsUnitAndMinimum(t *testing.T) {
	loose := Limits{Default: Limit{Min: 100, Max: 1000}}
	p := loose.NewPricer(Unlimited, 0)
	if got := p.Place(straightOn(5), false, 100); got.Total != 100 {
		t.Fatalf("first: %+v", got)
	}
	if got := p.Place(straightOn(5), false, 50); got.Total != 50 || got.Why != ReasonNone {
		t.Fatalf("50 more on a spot holding 100 (minimum 100, any cent): %+v, want 50 taken", got)
	}
	if got := p.Place(straightOn(6), false, 50); got.Total != 0 || got.Why != ReasonBelowMinimum {
		t.Fatalf("50 on an empty spot: %+v, want below-minimum", got)
	}
	stepped := Limits{Default: Limit{Min: 100, Max: 1000, Unit: 100}}
	p = stepped.NewPricer(Unlimited, 0)
	p.Place(straightOn(5), false, 100)
	if got := p.Place(straightOn(5), false, 150); got.Total != 100 || got.Why != ReasonOffUnit {
		t.Fatalf("150 more on 100 in steps of 100: %+v, want 100 (total 200), off-unit", got)
	}
	if p.On(Spot{Straight, MaskOf(5)}) != 200 {
		t.Fatalf("total on straight 5: %d", p.On(Spot{Straight, MaskOf(5)}))
	}
}

// A dealer's wager for the seat is held as placed and the player's wagers add to its spots
// (SPEC §3.7); the balance bounds the slip's total.
func TestHeldDealerWagerCountsOnItsSpot(t *testing.T) {
	ws := []Placement{
		{Pieces: neighboursOf(t, 17), Call: true, Amount: 2000, Held: true},
		{Pieces: straightOn(17), Amount: 2500},
		{Pieces: straightOn(2), Amount: 2500},
	}
	prices, total := labLimits.PriceSlip(ws, 10500)
	if prices[0].Total != 10000 || prices[1].Total != 500 || prices[1].Why != ReasonAboveMaximum {
		t.Fatalf("prices %+v", prices)
	}
	if prices[2].Total != 0 || prices[2].Why != ReasonBalance || total != 10500 {
		t.Fatalf("straight 2 (20.00 of the dealer's on it) with the balance spent: %+v total %d", prices[2], total)
	}
}

// The table maximum bounds the slip's total, and says so.
func TestPricerTableMaximum(t *testing.T) {
	l := labLimits
	l.TableMax = 3000
	prices, total := l.PriceSlip([]Placement{
		{Pieces: straightOn(1), Amount: 2500},
		{Pieces: straightOn(2), Amount: 2500},
	}, Unlimited)
	if total != 3000 || prices[1].Total != 500 || prices[1].Why != ReasonTableMax {
		t.Fatalf("prices %+v total %d", prices, total)
	}
}

// Lucky Ball (003 §7) and the Asian Neighbour (002 §3.2) follow SPEC §3.7 on their own spots.
func TestLuckyBallAndAsianNeighbourSpotTotals(t *testing.T) {
	l := Limits{
		Default: Limit{Min: 100, Max: 50000, Unit: 100},
		PerKind: map[Kind]Limit{LuckyBall: {Min: 100, Max: 1000, Unit: 100}, AsianNeighbour: {Min: 300, Max: 900, Unit: 300}},
	}
	red := []Piece{{LuckyBallSpot(BallRed), 1}}
	blue := []Piece{{LuckyBallSpot(BallBlue), 1}}
	layout := Layout{Wheel: SingleZero, Profile: CrownRapid, Asian: DefaultAsianGroups(SingleZero)}
	group, err := layout.asianSpot([]Number{32, 15, 19})
	if err != nil {
		t.Fatal(err)
	}
	asian := []Piece{{group, 1}}
	prices, total := l.PriceSlip([]Placement{
		{Pieces: red, Amount: 800}, {Pieces: red, Amount: 800}, {Pieces: blue, Amount: 800},
		{Pieces: asian, Amount: 600}, {Pieces: asian, Amount: 600},
	}, Unlimited)
	want := []int64{800, 200, 800, 600, 300}
	for i, p := range prices {
		if p.Total != want[i] {
			t.Errorf("wager %d: %+v, want %d", i, p, want[i])
		}
	}
	if total != 2700 {
		t.Errorf("total %d", total)
	}
}

// FuzzPricerOnTotals checks SPEC §3.7 against brute force: after wagers already on the layout,
// an ordinary wager adds the most that leaves its spot at a permitted total, and a call bet the
// largest per-piece amount that leaves every one of its spots at a permitted total (or nothing),
// never more than the balance left.
func FuzzPricerOnTotals(f *testing.F) {
	f.Add(int64(100), int64(2500), int64(100), int64(2400), int64(300), int64(-1), uint8(4), uint8(0))
	f.Add(int64(150), int64(1000), int64(50), int64(175), int64(60), int64(5000), uint8(1), uint8(3))
	f.Add(int64(100), int64(0), int64(0), int64(50), int64(77), int64(900), uint8(2), uint8(7))
	f.Fuzz(func(t *testing.T, min, max, unit, first, per, available int64, which, target uint8) {
		lim := Limit{Min: min, Max: max, Unit: unit}
		if lim.Validate() != nil || unit > 5000 || per < 0 || per > 20000 || first < 0 || first > 100000 {
			return
		}
		ls := Limits{Default: lim, PerKind: map[Kind]Limit{Straight: {Min: min, Max: max, Unit: unit * 2}}}
		if ls.Validate() != nil {
			return
		}
		calls := []Call{Tier, Orphelins, Voisins, ZeroGame, Neighbours}
		c := calls[int(which)%len(calls)]
		pieces, err := Layout{Wheel: SingleZero, Profile: CrownRapid}.CallPieces(c, 17, 0)
		if err != nil {
			t.Fatal(err)
		}
		// A first wager on one of the call bet's spots, then the call bet.
		hit := pieces[int(target)%len(pieces)].Spot
		p := ls.NewPricer(available, 0)
		got0 := p.Place([]Piece{{hit, 1}}, false, first)
		on := got0.Total
		if on != 0 && !ls.For(hit.Kind).Permitted(on) {
			t.Fatalf("first wager left %d on %v, not permitted", on, hit)
		}
		left := available
		if left >= 0 {
			left -= on
		}
		got := p.Place(pieces, true, per)
		want := int64(0)
		below := false
		for _, pc := range pieces {
			o := int64(0)
			if pc.Spot == hit {
				o = on
			}
			if o+pc.Units*per < ls.For(pc.Spot.Kind).Min {
				below = true
			}
		}
		if !below {
			for a := per; a >= 1; a-- {
				ok := left < 0 || a*Units(pieces) <= left
				for _, pc := range pieces {
					o := int64(0)
					if pc.Spot == hit {
						o = on
					}
					ok = ok && ls.For(pc.Spot.Kind).Permitted(o+pc.Units*a)
				}
				if ok {
					want = a
					break
				}
			}
		}
		if got.PerPiece != want || got.Total != want*Units(pieces) {
			t.Fatalf("%v per %d after %d on %v (avail %d, limits %+v): got %+v, brute force %d", c, per, on, hit, available, ls, got, want)
		}
		// And an ordinary wager of first again on the same spot, now holding on2.
		on2 := p.On(hit)
		if left >= 0 {
			left -= got.Total
		}
		more := p.Place([]Piece{{hit, 1}}, false, first)
		wantMore := int64(0)
		for add := first; add >= 1; add-- {
			if (left < 0 || add <= left) && ls.For(hit.Kind).Permitted(on2+add) {
				wantMore = add
				break
			}
		}
		if more.Total != wantMore {
			t.Fatalf("%d more on %v holding %d (left %d, limits %+v): got %+v, brute force %d", first, hit, on2, left, ls, more, wantMore)
		}
	})
}
