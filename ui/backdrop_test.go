package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// Under the kiosk's theme the window is cleared to the panels' colour, so the screen's
// full-window rectangles are not drawn (each was a full-window pass on every frame in software
// GL); under any other theme they are, and the screen looks the same either way.
func TestBackdropOnlyWhereTheClearDiffers(t *testing.T) {
	test.NewTempApp(t)
	fyne.CurrentApp().Settings().SetTheme(Theme())
	if !sameColour(theme.Color(theme.ColorNameBackground), panelBg) {
		t.Fatalf("the kiosk's theme clears to %v, not the panels' %v", theme.Color(theme.ColorNameBackground), panelBg)
	}
	if b := backdrop(); b.Visible() {
		t.Error("under the kiosk's theme the backdrop is drawn over a clear of the same colour")
	}
	fyne.CurrentApp().Settings().SetTheme(darkTheme{theme.DefaultTheme()})
	if b := backdrop(); !b.Visible() || !sameColour(b.FillColor, panelBg) {
		t.Error("under a theme of another background the backdrop is not the panels' colour")
	}
}
