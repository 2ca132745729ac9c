package ui

import "fyne.io/fyne/v2"

// Kiosk makes the window the kiosk: full screen, and not closable by a player — the close
// request is swallowed; a technician stops the kiosk through its service, not the window.
func Kiosk(w fyne.Window) {
	w.SetFullScreen(true)
	w.SetCloseIntercept(func() {})
}
