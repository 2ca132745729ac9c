package ui

import (
	"math"

	"fyne.io/fyne/v2"
)

// A touch target's size is a length on the glass, not a count of pixels: a fingertip covers
// about 10 mm, and a target a technician must hit on a panel that may be miscalibrated (the
// calibration screen's buttons) needs room for the error too: 15 mm (issue 32 point 13: they
// were ~130×34 px, 9 mm high).

// panelDiagonalMM is the cabinet's touch panel: 22 inches across, whatever its resolution
// (1920×1080 or 1280×800); the screen fills it.
const panelDiagonalMM = 22 * 25.4

// fingerMM is the least size of a button a technician touches on the calibration screen.
const fingerMM = 15

// mmOn is mm on the glass of a panel showing a screen of size, in the screen's units.
func mmOn(size fyne.Size, mm float32) float32 {
	diagonal := math.Hypot(float64(size.Width), float64(size.Height))
	return float32(float64(mm) * diagonal / panelDiagonalMM)
}
