// Package roulette is the rules engine shared by the terminal, the table server and the audit
// tool: wheels, every bet spot of the layouts as a bit mask of the numbers it covers, odds,
// racetrack call bets, the Asian racetrack's Asian Neighbour (002 §3.2, its groups table data in
// the Layout), the Lucky Ball side bet, table limits (rule 4.3) and settlement.
//
// It is pure Go with no I/O, so both ends of the wire and `atsctl settle` compute the same
// numbers from the same code. Money is int64 minor units (cents) throughout.
package roulette

import (
	"fmt"
	"strconv"
)

// Number is a compartment of the wheel: 0..36 are themselves and DoubleZeroNumber is "00".
type Number uint8

// DoubleZeroNumber is the "00" compartment of a double-zero wheel.
const DoubleZeroNumber Number = 37

// ParseNumber parses "0", "00" or "1".."36" exactly as written on the layout.
func ParseNumber(s string) (Number, error) {
	if s == "00" {
		return DoubleZeroNumber, nil
	}
	if s == "" || len(s) > 2 || (len(s) == 2 && s[0] == '0') {
		return 0, fmt.Errorf("%q is not a roulette number (0, 00, 1-36)", s)
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not a roulette number (0, 00, 1-36)", s)
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > 36 {
		return 0, fmt.Errorf("%q is not a roulette number (0, 00, 1-36)", s)
	}
	return Number(n), nil
}

func (n Number) String() string {
	if n == DoubleZeroNumber {
		return "00"
	}
	return strconv.Itoa(int(n))
}

// Colour is the colour of a compartment.
type Colour uint8

// The compartment colours.
const (
	ColourGreen Colour = iota
	ColourRed
	ColourBlack
)

func (c Colour) String() string {
	switch c {
	case ColourRed:
		return "red"
	case ColourBlack:
		return "black"
	default:
		return "green"
	}
}

// redMask holds the red numbers (SPEC §1).
const redMask Mask = 1<<1 | 1<<3 | 1<<5 | 1<<7 | 1<<9 | 1<<12 | 1<<14 | 1<<16 | 1<<18 |
	1<<19 | 1<<21 | 1<<23 | 1<<25 | 1<<27 | 1<<30 | 1<<32 | 1<<34 | 1<<36

// Colour returns the colour of n: green for 0 and 00.
func (n Number) Colour() Colour {
	switch {
	case n == 0 || n >= DoubleZeroNumber:
		return ColourGreen
	case redMask.Has(n):
		return ColourRed
	default:
		return ColourBlack
	}
}

// Wheel is the kind of wheel the table uses.
type Wheel uint8

// The wheels. The zero value is invalid so a forgotten setting is an error, not a default.
const (
	SingleZero Wheel = iota + 1
	DoubleZero
)

// ParseWheel parses "single-zero" or "double-zero".
func ParseWheel(s string) (Wheel, error) {
	switch s {
	case "single-zero":
		return SingleZero, nil
	case "double-zero":
		return DoubleZero, nil
	}
	return 0, fmt.Errorf("unknown wheel %q (single-zero, double-zero)", s)
}

func (w Wheel) String() string {
	switch w {
	case SingleZero:
		return "single-zero"
	case DoubleZero:
		return "double-zero"
	}
	return fmt.Sprintf("wheel(%d)", uint8(w))
}

var (
	// European order, clockwise from 0 (SPEC §1; 000 §6.4: "17 and the neighbours = 2, 25, 17, 34 and 6").
	singleOrder = []Number{0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10,
		5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26}
	// American order, clockwise from 0 (SPEC §1, 001 Diagram E).
	doubleOrder = []Number{0, 28, 9, 26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1,
		DoubleZeroNumber, 27, 10, 25, 29, 12, 8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2}
	singleNumbers = layoutNumbers(false)
	doubleNumbers = layoutNumbers(true)
	singlePos     = positions(singleOrder)
	doublePos     = positions(doubleOrder)
)

func layoutNumbers(dz bool) []Number {
	out := []Number{0}
	if dz {
		out = append(out, DoubleZeroNumber)
	}
	for n := Number(1); n <= 36; n++ {
		out = append(out, n)
	}
	return out
}

func positions(order []Number) [38]int {
	var p [38]int
	for i := range p {
		p[i] = -1
	}
	for i, n := range order {
		p[n] = i
	}
	return p
}

// Order returns the numbers in wheel order, clockwise from 0. The slice is shared: do not modify it.
func (w Wheel) Order() []Number {
	if w == DoubleZero {
		return doubleOrder
	}
	return singleOrder
}

// Numbers returns the numbers in layout order: 0, (00,) 1..36. The slice is shared: do not modify it.
func (w Wheel) Numbers() []Number {
	if w == DoubleZero {
		return doubleNumbers
	}
	return singleNumbers
}

// Has reports whether n is a compartment of the wheel.
func (w Wheel) Has(n Number) bool {
	return n <= 36 || (n == DoubleZeroNumber && w == DoubleZero)
}

// Valid reports whether w is a known wheel.
func (w Wheel) Valid() bool { return w == SingleZero || w == DoubleZero }

// all is the mask of every number on the wheel.
func (w Wheel) all() Mask {
	if w == DoubleZero {
		return 1<<38 - 1
	}
	return 1<<37 - 1
}

// Neighbours returns n and the spread numbers either side of it on the wheel, in wheel order
// (anticlockwise-most first).
func (w Wheel) Neighbours(n Number, spread int) ([]Number, error) {
	if !w.Valid() {
		return nil, fmt.Errorf("unknown wheel %d", uint8(w))
	}
	if !w.Has(n) {
		return nil, fmt.Errorf("%v is not on a %v wheel", n, w)
	}
	order := w.Order()
	if spread < 0 || 2*spread+1 > len(order) {
		return nil, fmt.Errorf("spread %d: must be 0 to %d", spread, (len(order)-1)/2)
	}
	pos := singlePos[n]
	if w == DoubleZero {
		pos = doublePos[n]
	}
	out := make([]Number, 0, 2*spread+1)
	for i := -spread; i <= spread; i++ {
		out = append(out, order[(pos+i+len(order))%len(order)])
	}
	return out, nil
}
