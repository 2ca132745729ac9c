package table

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tablegames/ats/app/roulette"
)

// Rules is what a rules profile (Profile…) decides of a table, as one row of data: its money
// paths, whether winners ride, whether a player card is required, and the wheels and
// double-zero layouts its rule book describes. A table whose wheel or layout its rules do not
// describe is refused at start (Check), so a flag forgotten or mistyped cannot run one casino's
// rules on another's felt.
type Rules struct {
	Name string
	// Source cites where the rule book sets its wheels and layouts, for the refusal's message.
	Source string
	// DealerCashOnly: money in and out only through the dealer (see DealerCashOnly).
	DealerCashOnly bool
	// WinnersRide: winning wagers stay on the layout for the next spin (see WinnersRide).
	WinnersRide bool
	// PlayerCardRequired: a player must have their own player card to wager (003 §3.4, §9.1).
	PlayerCardRequired bool
	// AnnouncedBets: the dealer may place, through the console, any bet a player announces,
	// not only the call bets of the racetrack (000 §11.4.2(b), TouchTable: "announcing the bet
	// to the Dealer who will place the wagers for the player via the Dealer Console").
	AnnouncedBets bool
	// Carded: carded play and binding pre-commitment (SPEC §10): Victoria's regulator applies
	// them to Crown's table games from December 2025. The table server's default
	// (cmd/tableserver -carded); a table runs carded where its operator turns it on.
	Carded bool
	// Wheels are the wheels the rule book describes, the default first.
	Wheels []roulette.Wheel
	// Layouts are its layout profiles, the default first: on a double-zero wheel they decide
	// the zero combinations; a single-zero table names the default.
	Layouts []roulette.Profile
}

var (
	bothWheels = []roulette.Wheel{roulette.SingleZero, roulette.DoubleZero}
	// Crown Melbourne's double-zero layouts: Rapid Roulette's (001 §10.4.3) and Crown
	// Roulette's Diagrams O/P (the same rule), F/H and V/W (000 §8.2.1, §8.4.3), which its
	// TouchBet (000 §10.4, Diagram H) and TouchTable (000 §11) games play.
	crownLayouts = []roulette.Profile{roulette.CrownRapid, roulette.CrownFH, roulette.CrownVW}
)

// rulesProfiles are the rules profiles a table may run, in the order errors name them.
var rulesProfiles = []Rules{
	{Name: ProfileCrown, Source: "001 §10.4.3, 000 §8.4.3", Carded: true, Wheels: bothWheels, Layouts: crownLayouts},
	{Name: ProfileVic1999, Source: "004 §2.3", DealerCashOnly: true, WinnersRide: true,
		Wheels: []roulette.Wheel{roulette.SingleZero}, Layouts: []roulette.Profile{roulette.CrownRapid}},
	// The Star's table is its double-zero one (003 §3.2.2–3.2.5) unless the operator names
	// the single-zero wheel (§2.3.2); a player card is required from 19 August 2024.
	{Name: ProfileStar, Source: "003 §3.2", PlayerCardRequired: true,
		Wheels: []roulette.Wheel{roulette.DoubleZero, roulette.SingleZero}, Layouts: []roulette.Profile{roulette.Star}},
	{Name: ProfileTouchTable, Source: "000 §8.4.3", DealerCashOnly: true, AnnouncedBets: true, Wheels: bothWheels, Layouts: crownLayouts},
}

// RulesOf returns a rules profile by its exact name; any other name is an error naming the
// profiles (a misspelt one would silently run the default's money paths and rules).
func RulesOf(profile string) (Rules, error) {
	names := make([]string, len(rulesProfiles))
	for i, r := range rulesProfiles {
		if r.Name == profile {
			return r, nil
		}
		names[i] = r.Name
	}
	return Rules{}, fmt.Errorf("rules profile %q: want %s or %s", profile, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// rulesOf is the profile's row, the zero Rules for an unknown name.
func rulesOf(profile string) Rules {
	r, _ := RulesOf(profile)
	return r
}

// Wheel is the profile's default wheel.
func (r Rules) Wheel() roulette.Wheel { return r.Wheels[0] }

// Layout is the profile's default layout profile.
func (r Rules) Layout() roulette.Profile { return r.Layouts[0] }

// Check refuses a layout the rule book does not describe: a wheel it does not know, or a layout
// profile not its own (a single-zero table too names its rules' profile, so what the terminals
// and the records are told is never another casino's).
func (r Rules) Check(l roulette.Layout) error {
	if !slices.Contains(r.Wheels, l.Wheel) {
		return fmt.Errorf("rules profile %q (%s) plays the %s wheel, not %v", r.Name, r.Source, orList(r.Wheels), l.Wheel)
	}
	if !slices.Contains(r.Layouts, l.Profile) {
		return fmt.Errorf("rules profile %q (%s) plays the layout %s, not %v", r.Name, r.Source, orList(r.Layouts), l.Profile)
	}
	return nil
}

// orList writes "a", "a or b", "a, b or c".
func orList[T fmt.Stringer](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = x.String()
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// AnnouncedBets reports whether under a profile the dealer places any bet a player announces
// (000 §11.4.2(b)): the TouchTable's. Elsewhere the dealer places only call bets (002 §3.2B).
func AnnouncedBets(profile string) bool { return rulesOf(profile).AnnouncedBets }

// PlayerCardRequired reports whether a profile requires a player card to wager: The Star's
// (003 §3.4, §9.1). A table may require one under any profile (server Config.PlayerCardRequired).
func PlayerCardRequired(profile string) bool { return rulesOf(profile).PlayerCardRequired }

// RulesPlaying is the first rules profile (crown, vic-1999, star, touchtable) whose rule book
// describes the layout: the rules a table of that layout runs when nobody named them (the
// demo's). ok is false for a layout no rules profile plays.
func RulesPlaying(l roulette.Layout) (r Rules, ok bool) {
	for _, r := range rulesProfiles {
		if r.Check(l) == nil {
			return r, true
		}
	}
	return Rules{}, false
}
