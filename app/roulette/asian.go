package roulette

import (
	"errors"
	"fmt"
	"strings"
)

// The Asian racetrack (002 §2.2(b), §3.2): an optional part of the layout where a player wagers
// on "any 3 specific numbers (comprising a group on this part of the layout)", the Asian
// Neighbour, which wins if any number of the group is spun and pays 11 to 1 (002 §3.3). The
// rule's Appendix 3, which drew the groups, is lost, so the groups are table data: a table
// configures its own, and DefaultAsianGroups gives twelve groups of three wheel-neighbours.

// MaxAsianGroups is the most groups an Asian racetrack holds: 36 numbers in threes.
const MaxAsianGroups = 12

// AsianGroups are the groups of a table's Asian racetrack, in the order the racetrack draws
// them; unused entries (after the last group) are zero. The zero value is a table without an
// Asian racetrack. It is an array so that a Layout holding it stays comparable.
type AsianGroups [MaxAsianGroups]Mask

// DefaultAsianGroups is the default Asian racetrack of a wheel: going clockwise round the wheel
// from 0, every three neighbours that no zero separates are a group — twelve groups that cover
// 1..36 once each (on the double-zero wheel 00 sits between 1 and 27, and the runs on either
// side of it are 18 numbers each, so no group straddles a zero there either).
func DefaultAsianGroups(w Wheel) AsianGroups {
	var g AsianGroups
	if !w.Valid() {
		return g
	}
	i := 0
	var run []Number
	for _, n := range w.Order() {
		if n == 0 || n == DoubleZeroNumber {
			run = run[:0]
			continue
		}
		run = append(run, n)
		if len(run) == 3 {
			g[i] = MaskOf(run...)
			i++
			run = run[:0]
		}
	}
	return g
}

// Offered reports whether the table has an Asian racetrack.
func (g AsianGroups) Offered() bool { return g[0] != 0 }

// Groups lists the groups in racetrack order.
func (g AsianGroups) Groups() []Mask {
	out := make([]Mask, 0, MaxAsianGroups)
	for _, m := range g {
		if m != 0 {
			out = append(out, m)
		}
	}
	return out
}

// Has reports whether m is exactly one of the groups: the only Asian Neighbour wagers a table
// takes (002 §3.2).
func (g AsianGroups) Has(m Mask) bool {
	if m == 0 {
		return false
	}
	for _, x := range g {
		if x == m {
			return true
		}
	}
	return false
}

// GroupOf returns the group holding n, if any.
func (g AsianGroups) GroupOf(n Number) (Mask, bool) {
	for _, x := range g {
		if x != 0 && x.Has(n) {
			return x, true
		}
	}
	return 0, false
}

// Validate checks the groups for wheel w: every group three numbers of the wheel, no number in
// two groups, the groups packed at the front. A table refuses to start with groups it fails.
func (g AsianGroups) Validate(w Wheel) error {
	var seen Mask
	ended := false
	for i, m := range g {
		if m == 0 {
			ended = true
			continue
		}
		if ended {
			return fmt.Errorf("asian racetrack: group %d follows an empty one", i+1)
		}
		if m.Count() != 3 {
			return fmt.Errorf("asian racetrack: group %d (%v) must hold 3 numbers", i+1, m)
		}
		if m&^w.all() != 0 {
			return fmt.Errorf("asian racetrack: group %d (%v) has a number not on a %v wheel", i+1, m, w)
		}
		if seen&m != 0 {
			return fmt.Errorf("asian racetrack: group %d (%v) repeats %v", i+1, m, seen&m)
		}
		seen |= m
	}
	return nil
}

// ParseAsianGroups reads groups as written in a table's configuration and the audit JSON: each
// group its three numbers ("32", "15", "19"). An empty list is a table without one.
func ParseAsianGroups(w Wheel, groups [][]string) (AsianGroups, error) {
	var g AsianGroups
	if len(groups) > MaxAsianGroups {
		return g, fmt.Errorf("asian racetrack: %d groups, at most %d", len(groups), MaxAsianGroups)
	}
	for i, ns := range groups {
		if len(ns) != 3 {
			return g, fmt.Errorf("asian racetrack: group %d has %d numbers, not 3", i+1, len(ns))
		}
		var m Mask
		for _, s := range ns {
			n, err := ParseNumber(s)
			if err != nil {
				return g, fmt.Errorf("asian racetrack: group %d: %w", i+1, err)
			}
			if m.Has(n) {
				return g, fmt.Errorf("asian racetrack: group %d: %v appears twice", i+1, n)
			}
			m |= 1 << n
		}
		g[i] = m
	}
	return g, g.Validate(w)
}

// Strings writes the groups back in the form ParseAsianGroups reads.
func (g AsianGroups) Strings() [][]string {
	var out [][]string
	for _, m := range g.Groups() {
		ns := m.Numbers()
		s := make([]string, len(ns))
		for i, n := range ns {
			s[i] = n.String()
		}
		out = append(out, s)
	}
	return out
}

// String writes the groups on one line: "15-19-32 2-4-21 …".
func (g AsianGroups) String() string {
	parts := make([]string, 0, MaxAsianGroups)
	for _, m := range g.Groups() {
		parts = append(parts, m.String())
	}
	return strings.Join(parts, " ")
}

// asianSpot checks numbers as an Asian Neighbour wager on layout l (002 §3.2): three distinct
// numbers of the wheel that are one of the table's groups.
func (l Layout) asianSpot(numbers []Number) (Spot, error) {
	name := func() string {
		parts := make([]string, len(numbers))
		for i, n := range numbers {
			parts[i] = n.String()
		}
		return "asian-neighbour " + strings.Join(parts, "-")
	}
	if !l.Valid() {
		return Spot{}, fmt.Errorf("%s: unknown layout", name())
	}
	if !l.Asian.Offered() {
		return Spot{}, fmt.Errorf("%s: this table has no Asian racetrack", name())
	}
	if len(numbers) != 3 {
		return Spot{}, fmt.Errorf("%s: an Asian Neighbour is 3 numbers, not %d", name(), len(numbers))
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
	if !l.Asian.Has(m) {
		return Spot{}, errors.New(name() + ": not a group of this table's Asian racetrack")
	}
	return Spot{AsianNeighbour, m}, nil
}
