package ui

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2/test"
)

// The message line lights its strip while it says something and dims it when empty; which
// message it says is the terminal's choice (app's board, tested there).
func TestMessageLineLightsWhileItSpeaks(t *testing.T) {
	test.NewTempApp(t)
	m := newMessageLine()
	for _, s := range []struct {
		say  string
		fill color.Color
	}{{"no more bets", messageBg}, {"", messageEmpty}, {"Printer: paper out", messageBg}} {
		m.SetText(s.say)
		if m.Text != s.say || m.strip.FillColor != s.fill {
			t.Fatalf("said %q: text %q strip %v", s.say, m.Text, m.strip.FillColor)
		}
	}
}
