package ui

// TakeOver makes a screen built in place of old — the kiosk builds the screen again in the
// language a player chooses, its texts being made when it is built — carry on what the player
// chose on old that the terminal does not hold: the neighbours spread (issue 32 point 6: it
// went back to 2 after 中文). Call it before the screen is shown.
func (s *Screen) TakeOver(old *Screen) {
	if old == nil {
		return
	}
	if i := old.spreadSel.Selected(); i != s.spreadSel.Selected() {
		s.spreadSel.selected = i
		s.spreadSel.Refresh()
	}
}
