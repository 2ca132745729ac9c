package roulette

import (
	"slices"
	"strings"
	"testing"
)

func TestCallPieces(t *testing.T) {
	single := Layout{Wheel: SingleZero, Profile: CrownRapid}
	type want struct {
		spots []string
		units int64
	}
	cases := map[Call]want{
		// 000 §6.4 and 002 §3.2A, piece by piece.
		Tier:      {[]string{"split 5-8", "split 10-11", "split 13-16", "split 23-24", "split 27-30", "split 33-36"}, 6},
		Orphelins: {[]string{"straight 1", "split 6-9", "split 14-17", "split 17-20", "split 31-34"}, 5},
		Voisins:   {[]string{"street 0-2-3", "corner 25-26-28-29", "split 4-7", "split 12-15", "split 18-21", "split 19-22", "split 32-35"}, 9},
		ZeroGame:  {[]string{"split 0-3", "split 12-15", "split 32-35", "straight 26"}, 4},
	}
	for c, w := range cases {
		ps, err := single.CallPieces(c, 0, 0)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.Spot.String())
			if p.Units == 2 && p.Spot.Kind != Street && p.Spot.Kind != Corner {
				t.Errorf("%v: two units on %v", c, p.Spot)
			}
		}
		if !slices.Equal(got, w.spots) || Units(ps) != w.units {
			t.Errorf("%v: pieces %v (%d units), want %v (%d)", c, got, Units(ps), w.spots, w.units)
		}
		if _, err := (Layout{Wheel: DoubleZero, Profile: Star}).CallPieces(c, 0, 0); err == nil || !strings.Contains(err.Error(), "single-zero") {
			t.Errorf("%v on double zero: %v", c, err)
		}
	}
	// The sectors together cover the wheel: every number is in exactly one of tier, orphelins,
	// voisins (the zero game is part of voisins).
	var tier, orph, vois Mask
	for c, m := range map[Call]*Mask{Tier: &tier, Orphelins: &orph, Voisins: &vois} {
		ps, _ := single.CallPieces(c, 0, 0)
		for _, p := range ps {
			*m |= p.Spot.Mask
		}
	}
	if tier&orph != 0 || tier&vois != 0 || orph&vois != 0 || tier|orph|vois != SingleZero.all() {
		t.Errorf("sectors overlap or leave gaps: tier %v orphelins %v voisins %v", tier, orph, vois)
	}

	ps, err := single.CallPieces(Neighbours, 17, 0)
	if err != nil || len(ps) != 5 {
		t.Fatalf("neighbours of 17: %v %v", ps, err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.Spot.String())
	}
	if !slices.Equal(got, []string{"straight 2", "straight 25", "straight 17", "straight 34", "straight 6"}) {
		t.Errorf("neighbours of 17 (default spread 2): %v", got)
	}
	if ps, err := (Layout{Wheel: DoubleZero, Profile: CrownRapid}).CallPieces(Neighbours, DoubleZeroNumber, 4); err != nil || len(ps) != 9 {
		t.Errorf("neighbours of 00 spread 4: %v %v", len(ps), err)
	}
	for _, bad := range []struct {
		l      Layout
		centre Number
		spread int
	}{{single, 17, 7}, {single, 17, 5}, {single, 17, -1}, {single, DoubleZeroNumber, 2}} {
		if _, err := bad.l.CallPieces(Neighbours, bad.centre, bad.spread); err == nil {
			t.Errorf("neighbours of %v spread %d accepted", bad.centre, bad.spread)
		}
	}
	if _, err := single.CallPieces(Call(99), 0, 0); err == nil {
		t.Error("unknown call accepted")
	}
	for c := Tier; c <= Neighbours; c++ {
		if back, err := ParseCall(c.String()); err != nil || back != c {
			t.Errorf("ParseCall(%q) = %v %v", c, back, err)
		}
	}
}

func TestLuckyBall(t *testing.T) {
	d := LuckyBallDraw{Version: LuckyStandard, Numbers: [4]Number{7, 13, 22, 30}}
	if err := d.Validate(SingleZero); err != nil {
		t.Fatal(err)
	}
	// 003 §7.8 Table One.
	for c, odds := range []int64{6, 12, 20, 25} {
		if d.Odds(BallColour(c)) != odds {
			t.Errorf("standard %v: %d to 1, want %d", BallColour(c), d.Odds(BallColour(c)), odds)
		}
	}
	d.Super, d.HasSuper = BallGreen, true
	if d.Odds(BallGreen) != 100 || d.Odds(BallRed) != 6 {
		t.Errorf("super green: green %d red %d", d.Odds(BallGreen), d.Odds(BallRed))
	}
	if got := d.Returned(BallGreen, 100, 13); got != 100+100*100 {
		t.Errorf("green on 13 returns %d", got)
	}
	if got := d.Returned(BallGreen, 100, 7); got != 0 {
		t.Errorf("green on 7 returns %d", got)
	}
	// 003 §7.10 Table Two: Red is 5 to 1 standard in the Mega version; Mega pays 1000 to 1.
	m := LuckyBallDraw{Version: LuckyMega, Numbers: [4]Number{1, 2, 3, 4}, Mega: BallBlue, HasMega: true}
	if err := m.Validate(SingleZero); err != nil {
		t.Fatal(err)
	}
	if m.Odds(BallRed) != 5 || m.Odds(BallBlue) != 1000 || m.Odds(BallYellow) != 25 {
		t.Errorf("mega odds: red %d blue %d yellow %d", m.Odds(BallRed), m.Odds(BallBlue), m.Odds(BallYellow))
	}
	superMega := LuckyBallDraw{Version: LuckyMega, Numbers: [4]Number{1, 2, 3, 4}, Super: BallRed, HasSuper: true}
	if superMega.Odds(BallRed) != 120 {
		t.Errorf("mega version super red: %d", superMega.Odds(BallRed))
	}
	bad := []LuckyBallDraw{
		{Numbers: [4]Number{1, 1, 2, 3}},
		{Numbers: [4]Number{1, 2, 3, DoubleZeroNumber}},
		{Numbers: [4]Number{1, 2, 3, 4}, Mega: BallRed, HasMega: true},
		{Version: LuckyMega, Numbers: [4]Number{1, 2, 3, 4}, Mega: BallRed, HasMega: true, Super: BallBlue, HasSuper: true},
		{Numbers: [4]Number{1, 2, 3, 4}, Super: 9, HasSuper: true},
	}
	for _, b := range bad {
		if err := b.Validate(SingleZero); err == nil {
			t.Errorf("draw %+v accepted", b)
		}
	}
	r := Round{Outcome: 13, Draw: &d}
	if got := r.Returned(Wager{LuckyBallSpot(BallGreen), 100}); got != 10100 {
		t.Errorf("round: green returns %d", got)
	}
	// 003 §7.4, §8.11: with no numbers drawn, or a void draw, the wager is returned whole.
	if got := (Round{Outcome: 13}).Returned(Wager{LuckyBallSpot(BallGreen), 100}); got != 100 {
		t.Errorf("no draw: green returns %d, want the stake back", got)
	}
	void := d
	void.Void = true
	if got := (Round{Outcome: 13, Draw: &void}).Returned(Wager{LuckyBallSpot(BallGreen), 100}); got != 100 {
		t.Errorf("void draw: green returns %d, want the stake back", got)
	}
	if got := (Round{Outcome: 13, Draw: &void}).Returned(Wager{Spot{Straight, MaskOf(13)}, 100}); got != 3600 {
		t.Errorf("void draw: the main game's straight 13 returns %d", got)
	}
	if got := r.Returned(Wager{Spot{Straight, MaskOf(13)}, 100}); got != 3600 {
		t.Errorf("round: straight 13 returns %d", got)
	}
	if c, ok := LuckyBallSpot(BallYellow).Colour(); !ok || c != BallYellow || LuckyBallSpot(BallYellow).String() != "lucky-ball yellow" {
		t.Errorf("yellow spot: %v %v", c, ok)
	}
}

func TestPlace(t *testing.T) {
	lim := Limits{
		Default: Limit{Min: 100, Max: 50000, Unit: 100},
		PerKind: map[Kind]Limit{Straight: {Min: 100, Max: 2500, Unit: 100}, Red: {Min: 500, Max: 100000, Unit: 250}},
	}
	cases := []struct {
		name      string
		k         Kind
		attempt   int64
		available int64
		want      int64
		why       Reason
	}{
		{"nothing", Straight, 0, Unlimited, 0, ReasonNone},
		{"below the minimum: no chips (4.3.1)", Straight, 50, Unlimited, 0, ReasonBelowMinimum},
		{"exactly the minimum", Straight, 100, Unlimited, 100, ReasonNone},
		{"on the unit", Straight, 2300, Unlimited, 2300, ReasonNone},
		{"off the unit: next lowest (4.3.2a)", Straight, 2350, Unlimited, 2300, ReasonOffUnit},
		{"exactly the maximum", Straight, 2500, Unlimited, 2500, ReasonNone},
		{"over the maximum: next lowest (4.3.2b)", Straight, 2600, Unlimited, 2500, ReasonAboveMaximum},
		{"far over the maximum", Straight, 1 << 40, Unlimited, 2500, ReasonAboveMaximum},
		{"balance caps", Straight, 2000, 1550, 1500, ReasonBalance},
		{"balance below the minimum", Straight, 2000, 99, 0, ReasonBalance},
		{"per-kind minimum", Red, 400, Unlimited, 0, ReasonBelowMinimum},
		{"per-kind unit above the minimum", Red, 1000, Unlimited, 1000, ReasonNone},
		{"per-kind off unit", Red, 900, Unlimited, 750, ReasonOffUnit},
		{"default for others", Dozen, 50000, Unlimited, 50000, ReasonNone},
		{"never up", Dozen, 150, Unlimited, 100, ReasonOffUnit},
	}
	for _, c := range cases {
		got, why := lim.Place(c.k, c.attempt, c.available)
		if got != c.want || why != c.why {
			t.Errorf("%s: Place(%v, %d, %d) = %d %v, want %d %v", c.name, c.k, c.attempt, c.available, got, why, c.want, c.why)
		}
	}
	// Max not on the unit grid: the largest permitted amount is below it.
	odd := Limits{Default: Limit{Min: 100, Max: 500, Unit: 300}}
	if got, why := odd.Place(Split, 600, Unlimited); got != 400 || why != ReasonAboveMaximum {
		t.Errorf("max off the grid: %d %v", got, why)
	}
	if got, why := lim.PlaceOnTable(Dozen, 5000, Unlimited, 3000); got != 3000 || why != ReasonTableMax {
		t.Errorf("table max: %d %v", got, why)
	}
	if got, _ := (Limits{}).Place(Straight, 1, Unlimited); got != 1 {
		t.Errorf("no limits: %d", got)
	}
	if !lim.Recognised(0) || (Limits{AggregateMin: 500}).Recognised(499) || !(Limits{AggregateMin: 500}).Recognised(500) {
		t.Error("Recognised")
	}
	for _, r := range []Reason{ReasonBelowMinimum, ReasonAboveMaximum, ReasonOffUnit, ReasonTableMax, ReasonBalance} {
		if r.String() == "" || r.Message() == "" {
			t.Errorf("reason %d has no text", r)
		}
	}
}

func TestLimitsValidate(t *testing.T) {
	good := Limits{Default: Limit{Min: 100, Max: 500, Unit: 100}, PerKind: map[Kind]Limit{Straight: {Min: 100, Max: 100}}}
	if err := good.Validate(); err != nil {
		t.Error(err)
	}
	for _, bad := range []Limits{
		{Default: Limit{Min: 0, Max: 100}},
		{Default: Limit{Min: 100, Max: 50}},
		{Default: Limit{Min: 100, Unit: -1}},
		{PerKind: map[Kind]Limit{Kind(77): {Min: 1}}},
		{AggregateMin: -1},
		{Default: Limit{Min: 1, Max: MaxStake + 1}},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestPlaceCall(t *testing.T) {
	single := Layout{Wheel: SingleZero, Profile: CrownRapid}
	voisins, _ := single.CallPieces(Voisins, 0, 0)
	tier, _ := single.CallPieces(Tier, 0, 0)
	orphelins, _ := single.CallPieces(Orphelins, 0, 0)
	lim := Limits{Default: Limit{Min: 100, Max: 2500, Unit: 100}}
	cases := []struct {
		name      string
		pieces    []Piece
		lim       Limits
		per       int64
		available int64
		want      int64
		why       Reason
	}{
		{"tier on the grid", tier, lim, 300, Unlimited, 300, ReasonNone},
		{"tier off the grid", tier, lim, 350, Unlimited, 300, ReasonOffUnit},
		{"tier below the minimum: refused whole", tier, lim, 50, Unlimited, 0, ReasonBelowMinimum},
		{"tier over the max", tier, lim, 3000, Unlimited, 2500, ReasonAboveMaximum},
		// Voisins' street and corner carry 2 units: 2×1300 > 2500, so 1250 — but 1250 is off
		// the straight grid of the splits (100+100k), so the largest amount every piece permits is 1200.
		{"voisins over the max of the 2-unit pieces", voisins, lim, 1300, Unlimited, 1200, ReasonAboveMaximum},
		{"voisins balance covers all pieces", voisins, lim, 500, 9 * 300, 300, ReasonBalance},
		{"voisins balance cannot cover the minimum", voisins, lim, 500, 899, 0, ReasonBalance},
		// A 2-unit piece's minimum is met at half the per-piece amount, the splits' is not.
		{"voisins per-kind minimum on the splits", voisins, Limits{Default: Limit{Min: 100, Unit: 100}, PerKind: map[Kind]Limit{Split: {Min: 200, Unit: 100}}}, 150, Unlimited, 0, ReasonBelowMinimum},
		{"grids of 300 and 200 meet at 600", orphelins, Limits{PerKind: map[Kind]Limit{Straight: {Min: 300, Unit: 300}, Split: {Min: 200, Unit: 200}}}, 850, Unlimited, 600, ReasonOffUnit},
		{"grids that never meet under the attempt", orphelins, Limits{PerKind: map[Kind]Limit{Straight: {Min: 300, Unit: 300}, Split: {Min: 200, Unit: 200}}}, 500, Unlimited, 0, ReasonOffUnit},
	}
	for _, c := range cases {
		got, why := c.lim.PlaceCall(c.pieces, c.per, c.available)
		if got != c.want || why != c.why {
			t.Errorf("%s: PlaceCall(%d, %d) = %d %v, want %d %v", c.name, c.per, c.available, got, why, c.want, c.why)
		}
	}
}
