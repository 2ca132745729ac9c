//go:build ci

package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// The money devices' status shares the message line with the player's refusals: their words
// replace what the line says, and when they fall silent they take back only their own words.
// A printer poll that changes nothing the player needs must not wipe "no more bets".
func TestMoneyStatusTakesBackOnlyItsOwnWords(t *testing.T) {
	test.NewTempApp(t)
	m := newMessageLine()
	steps := []struct {
		money bool // said by the money devices (SetMoney), else by the game (SetText)
		say   string
		want  string
	}{
		{false, "no more bets", "no more bets"},
		{true, "", "no more bets"}, // the cashier's status changed, with nothing to say
		{true, "Printer: paper out", "Printer: paper out"},
		{true, "", ""}, // the fault cleared: its words go
		{true, "Please take your ticket", "Please take your ticket"},
		{false, "below the table minimum", "below the table minimum"},
		{true, "", "below the table minimum"}, // the player's newer message stays
		{true, "Printing your ticket", "Printing your ticket"},
		{true, "Please take your ticket", "Please take your ticket"},
		{true, "", ""},
	}
	for i, s := range steps {
		if s.money {
			m.SetMoney(s.say)
		} else {
			m.SetText(s.say)
		}
		if m.Text != s.want {
			t.Fatalf("step %d (%+v): the line says %q", i, s, m.Text)
		}
	}
}
