package roulette

import (
	"fmt"
	"math/bits"
	"strings"
	"sync"
)

// Kind is a kind of bet (001 §7.1, 003 §3.2, §7).
type Kind uint8

// The bet kinds. Names and order match the atsctl JSON contract.
const (
	Straight Kind = iota + 1
	Split
	Street
	Corner
	FiveLine
	SixLine
	Column
	Dozen
	Low
	High
	Even
	Odd
	Red
	Black
	LuckyBall
	// AsianNeighbour is three numbers grouped on the Asian racetrack, 11 to 1 (002 §3.2). It is
	// last so that the kinds before it keep their numbers (the atsctl JSON and the ledger).
	AsianNeighbour
)

// NumKinds sizes arrays indexed by Kind (index 0 is unused).
const NumKinds = int(AsianNeighbour) + 1

var kindNames = [NumKinds]string{"", "straight", "split", "street", "corner", "five-line", "six-line",
	"column", "dozen", "low", "high", "even", "odd", "red", "black", "lucky-ball", "asian-neighbour"}

// kindOdds are the main-game odds "to 1" (001 §7.1; five-line 000 §8.4.1, 003 §3.2.5; Asian
// Neighbour 002 §3.2). Lucky Ball odds depend on the draw.
var kindOdds = [NumKinds]int64{0, 35, 17, 11, 8, 6, 5, 2, 2, 1, 1, 1, 1, 1, 1, 0, 11}

// ParseKind parses a bet name as written in the atsctl JSON ("straight" … "lucky-ball").
func ParseKind(s string) (Kind, error) {
	for k := Straight; int(k) < NumKinds; k++ {
		if kindNames[k] == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown bet %q", s)
}

func (k Kind) String() string {
	if k == 0 || int(k) >= NumKinds {
		return fmt.Sprintf("kind(%d)", uint8(k))
	}
	return kindNames[k]
}

// Valid reports whether k is a known kind.
func (k Kind) Valid() bool { return k > 0 && int(k) < NumKinds }

// Odds returns the odds "to 1" of a main-game bet; 0 for Lucky Ball, whose odds come from the draw.
func (k Kind) Odds() int64 {
	if !k.Valid() {
		return 0
	}
	return kindOdds[k]
}

// Inside reports whether k is placed on the numbers themselves (straight … six-line).
func (k Kind) Inside() bool { return k >= Straight && k <= SixLine }

// size is how many numbers an inside bet of kind k covers.
func (k Kind) size() int {
	switch k {
	case Straight:
		return 1
	case Split:
		return 2
	case Street:
		return 3
	case Corner:
		return 4
	case FiveLine:
		return 5
	case SixLine:
		return 6
	}
	return 0
}

// Mask is a set of numbers: bit n is number n, bit 37 is 00. Settling a wager is one AND.
type Mask uint64

// MaskOf returns the set of the given numbers.
func MaskOf(ns ...Number) Mask {
	var m Mask
	for _, n := range ns {
		m |= 1 << n
	}
	return m
}

// Has reports whether n is in m.
func (m Mask) Has(n Number) bool { return n < 64 && m>>n&1 != 0 }

// Count is the number of numbers in m.
func (m Mask) Count() int { return bits.OnesCount64(uint64(m)) }

// Numbers lists m in layout order: 0, 00, then 1..36.
func (m Mask) Numbers() []Number {
	out := make([]Number, 0, m.Count())
	if m.Has(0) {
		out = append(out, 0)
	}
	if m.Has(DoubleZeroNumber) {
		out = append(out, DoubleZeroNumber)
	}
	for n := Number(1); n <= 36; n++ {
		if m.Has(n) {
			out = append(out, n)
		}
	}
	return out
}

func (m Mask) String() string {
	ns := m.Numbers()
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = n.String()
	}
	return strings.Join(parts, "-")
}

// Spot is a place a wager can be put on a layout: a kind and the numbers it covers. Spots are
// comparable, so they key maps; the zero Spot is invalid. Lucky Ball spots use bit c of the mask
// for colour c.
type Spot struct {
	Kind Kind
	Mask Mask
}

// Wins reports whether a wager on s wins when the ball lands on outcome (main game only).
func (s Spot) Wins(outcome Number) bool { return s.Kind != LuckyBall && s.Mask.Has(outcome) }

// Returned is what a winning wager of stake on s returns (stake plus odds × stake), or 0 if it
// loses. Stakes are bounded by MaxStake, so this cannot overflow. Lucky Ball spots return 0 here:
// their odds come from the draw (see LuckyBallDraw.Returned and Settle).
func (s Spot) Returned(stake int64, outcome Number) int64 {
	if outcome >= 64 || s.Mask>>outcome&1 == 0 || int(s.Kind) >= NumKinds {
		return 0
	}
	return stake * (kindOdds[s.Kind] + 1)
}

// Which returns 1..3 for a column or dozen spot, 0 otherwise.
func (s Spot) Which() int {
	lo := Number(bits.TrailingZeros64(uint64(s.Mask)))
	switch s.Kind {
	case Column:
		return int(lo)
	case Dozen:
		return int(lo-1)/12 + 1
	}
	return 0
}

func (s Spot) String() string {
	switch {
	case s.Kind.Inside() || s.Kind == AsianNeighbour:
		return s.Kind.String() + " " + s.Mask.String()
	case s.Kind == Column || s.Kind == Dozen:
		return fmt.Sprintf("%v %d", s.Kind, s.Which())
	case s.Kind == LuckyBall:
		for c := BallRed; c <= BallYellow; c++ {
			if s.Mask == 1<<c {
				return "lucky-ball " + c.String()
			}
		}
	}
	return s.Kind.String()
}

// Profile says which zero combinations a double-zero layout offers; a single-zero layout is the
// same under every profile. Each profile is one row of data (profiles below): its name, the
// zero combinations its felt has, and whether the five-line is a box marked First Five. Adding a
// layout is adding a row, not a branch.
type Profile uint8

// The layout profiles.
const (
	// CrownRapid is Crown Melbourne's Double Zero Rapid Roulette (001 §10), and Crown
	// Roulette's Diagrams O and P (000 §8.4.3(b), the same rule): on 00 only a straight-up on
	// 00 and the split 0/00 win (§10.4.3), so no other spot covers 00. On 0, §7.3 (via §10.1)
	// lets the split, street and corner bets that join 0 to 1, 2 or 3 win; on the double-zero
	// felt 0 borders 1 and 2 only (00 borders 3), so those are the splits 0/1 and 0/2 and the
	// street 0/1/2.
	CrownRapid Profile = iota
	// Star is The Star's Roulette (003 §3.2): splits 0/1, 0/2, 0/00, 00/2, 00/3; streets
	// 0/1/2, 0/00/2, 00/2/3; the five-line 0/00/1/2/3; no 0/2/3 street, no 0/1/2/3 corner.
	Star
	// CrownFH is Crown Roulette's Diagrams F and H (000 §8.4.3(a)): on 00 the straight-up and
	// every split, street, corner and five-line joining 00 to 0, 1, 2 or 3 win. Its felt is the
	// double-zero one (00 beside 3 and 2, 0 beside 2 and 1), where those are the splits 0/00,
	// 00/2, 00/3, the streets 0/00/2, 00/2/3 and the five-line at the point where 0, 00, 1, 2
	// and 3 meet (6 to 1, §8.4.1); no four boxes meet at a point with 00, so it has no corner
	// with a zero. Its zero bets are therefore the Star's, under Crown's rule.
	CrownFH
	// CrownVW is Crown Roulette's Diagrams V and W (000 §8.4.3(c)): crown-rapid's zero bets and
	// the First Five, a box of its own on the felt (§8.4.1, 6 to 1); on 00 only straight 00,
	// split 0/00 and First Five win.
	CrownVW
)

// zeroBet is a zero combination of a felt: a bet kind and its numbers.
type zeroBet struct {
	kind    Kind
	numbers []Number
}

// profileRow is one layout profile as data.
type profileRow struct {
	name  string
	zeros []zeroBet // the double-zero felt's zero combinations (inside bets with 0 or 00), straights aside
	// firstFiveBox: the five-line is placed in a box marked First Five, not on the point
	// where 0, 00, 1, 2 and 3 meet (000 §8.4.1 "as applicable").
	firstFiveBox bool
}

const dz = DoubleZeroNumber

var (
	// The Star's (003 §3.2.2–3.2.5) and Diagrams F/H's (000 §8.4.3(a)): 0 joined to 1 and 2,
	// 00 to 0, 2 and 3, and the five-line.
	zeroAndDoubleZero = []zeroBet{{Split, []Number{0, 1}}, {Split, []Number{0, 2}}, {Split, []Number{0, dz}},
		{Split, []Number{dz, 2}}, {Split, []Number{dz, 3}}, {Street, []Number{0, 1, 2}}, {Street, []Number{0, dz, 2}},
		{Street, []Number{dz, 2, 3}}, {FiveLine, []Number{0, dz, 1, 2, 3}}}
	// A single-zero felt's (001 §7.2.2, §7.1 Corner; 000 §6.2.2, §6.1), the same under every profile.
	singleZeroBets = []zeroBet{{Split, []Number{0, 1}}, {Split, []Number{0, 2}}, {Split, []Number{0, 3}},
		{Street, []Number{0, 1, 2}}, {Street, []Number{0, 2, 3}}, {Corner, []Number{0, 1, 2, 3}}}
)

// profiles are the layout profiles, indexed by Profile. The joins of 0 to 1 and 2 are on every
// double-zero felt (001 §7.3 via §10.1; 000 §6.3 via §8.1).
var profiles = [...]profileRow{
	CrownRapid: {name: "crown-rapid", zeros: []zeroBet{{Split, []Number{0, dz}}, {Split, []Number{0, 1}},
		{Split, []Number{0, 2}}, {Street, []Number{0, 1, 2}}}},
	Star:    {name: "star", zeros: zeroAndDoubleZero},
	CrownFH: {name: "crown-fh", zeros: zeroAndDoubleZero},
	CrownVW: {name: "crown-vw", zeros: []zeroBet{{Split, []Number{0, dz}}, {Split, []Number{0, 1}},
		{Split, []Number{0, 2}}, {Street, []Number{0, 1, 2}}, {FiveLine, []Number{0, dz, 1, 2, 3}}}, firstFiveBox: true},
}

// Profiles lists every layout profile in order.
func Profiles() []Profile {
	out := make([]Profile, len(profiles))
	for i := range profiles {
		out[i] = Profile(i)
	}
	return out
}

// profileNames is "crown-rapid, star, …", for errors.
func profileNames() string {
	names := make([]string, len(profiles))
	for i, p := range profiles {
		names[i] = p.name
	}
	return strings.Join(names, ", ")
}

// ParseProfile parses a layout profile's name ("crown-rapid", "star", "crown-fh", "crown-vw");
// "" is the default, crown-rapid.
func ParseProfile(s string) (Profile, error) {
	if s == "" {
		return CrownRapid, nil
	}
	for i, p := range profiles {
		if p.name == s {
			return Profile(i), nil
		}
	}
	return 0, fmt.Errorf("unknown profile %q (%s)", s, profileNames())
}

func (p Profile) String() string {
	if !p.valid() {
		return fmt.Sprintf("profile(%d)", uint8(p))
	}
	return profiles[p].name
}

func (p Profile) valid() bool { return int(p) < len(profiles) }

// FirstFiveBox reports whether the profile's felt marks the five-line as a box of its own,
// "First Five" (000 §8.4.1, Diagrams V/W), rather than a chip on the point where 0, 00, 1, 2
// and 3 meet.
func (p Profile) FirstFiveBox() bool { return p.valid() && profiles[p].firstFiveBox }

// Layout is a table's betting layout: its wheel, for double zero its profile, and the groups of
// its Asian racetrack when the table has one (002 §2.2(b), §3.2; the zero value has none). A
// Layout stays comparable: the groups are a fixed array.
type Layout struct {
	Wheel   Wheel
	Profile Profile
	Asian   AsianGroups
}

// spotSet is the precomputed set of a layout's spots.
type spotSet struct {
	list []Spot
	has  map[Spot]bool
}

var (
	setsOnce sync.Once
	sets     map[Layout]*spotSet
)

func spotsOf(l Layout) *spotSet {
	setsOnce.Do(func() {
		sets = map[Layout]*spotSet{}
		single := newSpotSet(Layout{Wheel: SingleZero, Profile: CrownRapid})
		for _, p := range Profiles() {
			sets[Layout{Wheel: SingleZero, Profile: p}] = single
			sets[Layout{Wheel: DoubleZero, Profile: p}] = newSpotSet(Layout{Wheel: DoubleZero, Profile: p})
		}
	})
	return sets[Layout{Wheel: l.Wheel, Profile: l.Profile}] // the main game's spots do not depend on the Asian groups
}

func newSpotSet(l Layout) *spotSet {
	s := &spotSet{list: buildSpots(l), has: map[Spot]bool{}}
	for _, sp := range s.list {
		s.has[sp] = true
	}
	return s
}

// buildSpots lists every spot of a layout from the felt's geometry: numbers in twelve rows of
// three (1-2-3 … 34-35-36), zero(s) at the head.
func buildSpots(l Layout) []Spot {
	var out []Spot
	add := func(k Kind, ns ...Number) { out = append(out, Spot{k, MaskOf(ns...)}) }
	for _, n := range l.Wheel.Numbers() {
		add(Straight, n)
	}
	for n := Number(1); n <= 36; n++ {
		if n%3 != 0 {
			add(Split, n, n+1)
		}
		if n <= 33 {
			add(Split, n, n+3)
		}
	}
	for n := Number(1); n <= 34; n += 3 {
		add(Street, n, n+1, n+2)
	}
	for n := Number(1); n <= 32; n++ {
		if n%3 != 0 {
			add(Corner, n, n+1, n+3, n+4)
		}
	}
	for n := Number(1); n <= 31; n += 3 {
		add(SixLine, n, n+1, n+2, n+3, n+4, n+5)
	}
	zeros := singleZeroBets
	if l.Wheel == DoubleZero {
		zeros = profiles[l.Profile].zeros
	}
	for _, z := range zeros {
		add(z.kind, z.numbers...)
	}
	for c := 1; c <= 3; c++ {
		var m Mask
		for n := c; n <= 36; n += 3 {
			m |= 1 << n
		}
		out = append(out, Spot{Column, m})
	}
	for d := 0; d < 3; d++ {
		var m Mask
		for n := 12*d + 1; n <= 12*d+12; n++ {
			m |= 1 << n
		}
		out = append(out, Spot{Dozen, m})
	}
	var low, high, even, odd, black Mask
	for n := Number(1); n <= 36; n++ {
		if n <= 18 {
			low |= 1 << n
		} else {
			high |= 1 << n
		}
		if n%2 == 0 {
			even |= 1 << n
		} else {
			odd |= 1 << n
		}
		if !redMask.Has(n) {
			black |= 1 << n
		}
	}
	out = append(out, Spot{Low, low}, Spot{High, high}, Spot{Even, even}, Spot{Odd, odd},
		Spot{Red, redMask}, Spot{Black, black})
	return out
}

// Valid reports whether l is a known layout.
func (l Layout) Valid() bool {
	return l.Wheel.Valid() && l.Profile.valid() && l.Asian.Validate(l.Wheel) == nil
}

// Spots returns every main-game spot of the layout in a fixed order. The slice is shared: do
// not modify it.
func (l Layout) Spots() []Spot {
	if s := spotsOf(l); s != nil {
		return s.list
	}
	return nil
}

// Has reports whether s is a spot of the layout (Lucky Ball spots are on every layout).
func (l Layout) Has(s Spot) bool {
	if s.Kind == LuckyBall {
		return s.Mask != 0 && s.Mask&^(1<<4-1) == 0 && s.Mask.Count() == 1
	}
	if s.Kind == AsianNeighbour {
		return l.Asian.Has(s.Mask) // 002 §3.2: only a group of the table's Asian racetrack
	}
	set := spotsOf(l)
	return set != nil && set.has[s]
}

// Inside returns the inside spot (straight … six-line) of kind k on the given numbers, which may
// come in any order. An error says why there is no such spot on this layout.
func (l Layout) Inside(k Kind, numbers []Number) (Spot, error) {
	name := func() string {
		parts := make([]string, len(numbers))
		for i, n := range numbers {
			parts[i] = n.String()
		}
		return k.String() + " " + strings.Join(parts, "-")
	}
	if !l.Valid() {
		return Spot{}, fmt.Errorf("%s: unknown layout", name())
	}
	if !k.Inside() {
		return Spot{}, fmt.Errorf("%v is not an inside bet", k)
	}
	var m Mask
	for _, n := range numbers {
		if !l.Wheel.Has(n) {
			return Spot{}, fmt.Errorf("%s: %v is not on a %v wheel", name(), n, l.Wheel)
		}
		if m.Has(n) {
			return Spot{}, fmt.Errorf("%s: %v appears twice", name(), n)
		}
		m |= 1 << n
	}
	if len(numbers) != k.size() {
		return Spot{}, fmt.Errorf("%s: a %v covers %d numbers, not %d", name(), k, k.size(), len(numbers))
	}
	s := Spot{k, m}
	if !l.Has(s) {
		return Spot{}, fmt.Errorf("%s: %s", name(), whyNot(l, k, m))
	}
	return s, nil
}

// InsideOf returns the inside spot a set of numbers makes on the layout, its kind named by how
// many numbers there are (one a straight, two a split … six a six-line), as a dealer builds a bet
// a player announces by touching numbers: "17 and 20" is the split 17/20. It is Inside with the
// kind found, so a set it accepts is exactly a bet the table takes; an error says why a set is
// no bet of this layout (two numbers that do not touch, seven numbers, a zero bet this felt lacks).
func (l Layout) InsideOf(numbers []Number) (Spot, error) {
	for k := Straight; k <= SixLine; k++ {
		if k.size() == len(numbers) {
			return l.Inside(k, numbers)
		}
	}
	return Spot{}, fmt.Errorf("%d numbers: no inside bet covers %d", len(numbers), len(numbers))
}

// whyNot explains why a set of numbers is not a spot of kind k.
func whyNot(l Layout, k Kind, m Mask) string {
	if m.Has(0) || m.Has(DoubleZeroNumber) {
		return fmt.Sprintf("this %v layout (%v) has no such zero bet", l.Wheel, l.Profile)
	}
	switch k {
	case Split:
		return "numbers are not adjacent on the layout"
	case Street:
		return "numbers are not a row of three on the layout"
	case Corner:
		return "numbers do not meet at a point on the layout"
	case SixLine:
		return "numbers are not two adjacent rows on the layout"
	case FiveLine:
		return "the five-line is 0-00-1-2-3 on a double-zero layout only"
	}
	return "no such bet on the layout"
}

// Outside returns an outside spot: column or dozen 1..3, or low/high/even/odd/red/black with
// which 0.
func (l Layout) Outside(k Kind, which int) (Spot, error) {
	if !l.Valid() {
		return Spot{}, fmt.Errorf("%v: unknown layout", k)
	}
	switch k {
	case Column, Dozen:
		if which < 1 || which > 3 {
			return Spot{}, fmt.Errorf("%v %d: must be 1, 2 or 3", k, which)
		}
	case Low, High, Even, Odd, Red, Black:
		if which != 0 {
			return Spot{}, fmt.Errorf("%v takes no number (got %d)", k, which)
		}
	default:
		return Spot{}, fmt.Errorf("%v is not an outside bet", k)
	}
	for _, s := range l.Spots() {
		if s.Kind == k && (which == 0 || s.Which() == which) {
			return s, nil
		}
	}
	return Spot{}, fmt.Errorf("%v %d: not on the layout", k, which)
}
