package app

// The seat's player-ID pad on the screen (000 §11.4.2(a); issue 32 point 19). Where the table's
// profile requires it, the layout takes a wager only while the pad is touched: the screen says
// so from the start, not first in the refusal of a tap, and shows each touch of the pad as read,
// so the player knows the pad works before they reach for the layout. The gate (Config.Gate)
// still decides at each touch of the layout; the pad's events, told here by the station, only
// change what is shown.

// PadView is the seat's player-ID pad as the screen shows it.
type PadView struct {
	Required bool // the table's profile requires the pad for a wager
	Touched  bool // the pad is touched now, as its last event said
}

// PadTouched tells the terminal the seat's player-ID pad was touched (true) or released.
func (t *Terminal) PadTouched(on bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.padTouched == on {
		return
	}
	t.padTouched = on
	t.changedLocked()
}
