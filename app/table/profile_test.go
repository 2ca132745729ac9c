package table

import "testing"

// Which profiles take money only through the dealer (004 §6.2, §6.6; 000 §11.7.2, §11.7.6) and
// which keep winners on the layout (004 §3.6(b)): the server tells terminals the first, and
// carries winners by the second.
func TestProfiles(t *testing.T) {
	for _, c := range []struct {
		profile             string
		dealerOnly, winners bool
	}{
		{ProfileCrown, false, false},
		{ProfileStar, false, false},
		{ProfileVic1999, true, true},
		{ProfileTouchTable, true, false},
		{"", false, false},
		{"VIC-1999", false, false}, // profiles are exact names; the server refuses any other
	} {
		if got := DealerCashOnly(c.profile); got != c.dealerOnly {
			t.Errorf("DealerCashOnly(%q) = %v, want %v", c.profile, got, c.dealerOnly)
		}
		if got := WinnersRide(c.profile); got != c.winners {
			t.Errorf("WinnersRide(%q) = %v, want %v", c.profile, got, c.winners)
		}
	}
}
