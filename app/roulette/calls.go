package roulette

import "fmt"

// Call is a racetrack call bet: a named bundle of ordinary bets, one unit on each piece
// (000 §6.4, 002 §3.2A).
type Call uint8

// The call bets.
const (
	Tier Call = iota + 1
	Orphelins
	Voisins
	ZeroGame
	Neighbours
)

var callNames = [...]string{"", "tier", "orphelins", "voisins", "zero-game", "neighbours"}

// ParseCall parses "tier", "orphelins", "voisins", "zero-game" or "neighbours".
func ParseCall(s string) (Call, error) {
	for c := Tier; c <= Neighbours; c++ {
		if callNames[c] == s {
			return c, nil
		}
	}
	return 0, fmt.Errorf("unknown call bet %q", s)
}

func (c Call) String() string {
	if c >= Tier && c <= Neighbours {
		return callNames[c]
	}
	return fmt.Sprintf("call(%d)", uint8(c))
}

// Piece is one bet of a call bet. Units is its stake as a multiple of the per-piece amount:
// Voisins puts two units on the 0/2/3 street and two on the 25/26/28/29 corner, each of which
// is one individual wager of twice the per-piece amount for the limits.
type Piece struct {
	Spot  Spot
	Units int64
}

// DefaultSpread is the neighbours spread when none is chosen: two either side.
const DefaultSpread = 2

// MaxSpread is the widest neighbours bet offered: four either side.
const MaxSpread = 4

// The single-zero sectors as bets on the felt (000 §6.4, 002 §3.2A).
var sectorPieces = map[Call][]struct {
	kind  Kind
	ns    []Number
	units int64
}{
	Tier: {{Split, []Number{5, 8}, 1}, {Split, []Number{10, 11}, 1}, {Split, []Number{13, 16}, 1},
		{Split, []Number{23, 24}, 1}, {Split, []Number{27, 30}, 1}, {Split, []Number{33, 36}, 1}},
	Orphelins: {{Straight, []Number{1}, 1}, {Split, []Number{6, 9}, 1}, {Split, []Number{14, 17}, 1},
		{Split, []Number{17, 20}, 1}, {Split, []Number{31, 34}, 1}},
	Voisins: {{Street, []Number{0, 2, 3}, 2}, {Corner, []Number{25, 26, 28, 29}, 2},
		{Split, []Number{4, 7}, 1}, {Split, []Number{12, 15}, 1}, {Split, []Number{18, 21}, 1},
		{Split, []Number{19, 22}, 1}, {Split, []Number{32, 35}, 1}},
	ZeroGame: {{Split, []Number{0, 3}, 1}, {Split, []Number{12, 15}, 1}, {Split, []Number{32, 35}, 1},
		{Straight, []Number{26}, 1}},
}

// CallPieces decomposes a call bet into its pieces on layout l. Tier, orphelins, voisins and
// zero game are sectors of the single-zero wheel: on a double-zero table they are an error, and
// centre and spread are ignored. Neighbours covers centre and spread numbers either side of it
// on the table's own wheel, straight-up; spread 0 means DefaultSpread, and 1..MaxSpread are
// offered.
func (l Layout) CallPieces(c Call, centre Number, spread int) ([]Piece, error) {
	if !l.Valid() {
		return nil, fmt.Errorf("%v: unknown layout", c)
	}
	if c == Neighbours {
		if spread == 0 {
			spread = DefaultSpread
		}
		if spread < 1 || spread > MaxSpread {
			return nil, fmt.Errorf("neighbours of %v: spread %d must be 1 to %d", centre, spread, MaxSpread)
		}
		ns, err := l.Wheel.Neighbours(centre, spread)
		if err != nil {
			return nil, fmt.Errorf("neighbours: %w", err)
		}
		out := make([]Piece, len(ns))
		for i, n := range ns {
			out[i] = Piece{Spot{Straight, MaskOf(n)}, 1}
		}
		return out, nil
	}
	def, ok := sectorPieces[c]
	if !ok {
		return nil, fmt.Errorf("unknown call bet %d", uint8(c))
	}
	if l.Wheel != SingleZero {
		return nil, fmt.Errorf("%v is a sector of the single-zero wheel; this table is %v", c, l.Wheel)
	}
	out := make([]Piece, len(def))
	for i, d := range def {
		s, err := l.Inside(d.kind, d.ns)
		if err != nil { // the table above is wrong: a programming error, reported not hidden
			return nil, fmt.Errorf("%v: %w", c, err)
		}
		out[i] = Piece{s, d.units}
	}
	return out, nil
}

// Units is the total number of units of a call bet's pieces.
func Units(ps []Piece) int64 {
	var u int64
	for _, p := range ps {
		u += p.Units
	}
	return u
}
