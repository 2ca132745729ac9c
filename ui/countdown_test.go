package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app"
	appmoney "github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/msg"
)

// The countdown's bar is as long as the share of the period left, turns the warning colour in
// the warning state, where the plate lights every other second; outside wagering it is empty.
func TestCountdownBar(t *testing.T) {
	test.NewTempApp(t)
	c := newCountdownView(canvas.NewText("", nil))
	w := test.NewTempWindow(t, c.view)
	w.Resize(fyne.NewSize(300, 120))
	width := func() float32 { return c.fill.Size().Width / c.track.Size().Width }
	c.show(20*time.Second, 0, app.PeriodOpen, 20)
	if f := width(); f < 0.99 {
		t.Errorf("at the start the bar is %.2f full", f)
	}
	c.show(10*time.Second, 0, app.PeriodOpen, 10)
	if f := width(); f < 0.49 || f > 0.51 || c.fill.FillColor != openColour || c.lastLit {
		t.Errorf("half way: %.2f full, %v, lit %v", f, c.fill.FillColor, c.lastLit)
	}
	lit := 0
	for s := 5; s >= 1; s-- {
		c.show(time.Duration(s)*time.Second, 0, app.PeriodWarning, s)
		if c.fill.FillColor != warnColour {
			t.Errorf("warning at %d s: the bar is %v", s, c.fill.FillColor)
		}
		if c.lastLit != (c.plate.FillColor == warnColour) {
			t.Errorf("at %d s the plate's colour does not follow its state", s)
		}
		if c.lastLit {
			lit++
		}
	}
	if lit < 2 || lit > 3 {
		t.Errorf("the plate lit %d of 5 warning seconds, not every other one", lit)
	}
	c.show(0, 0, app.PeriodNoMoreBets, 0)
	if f := width(); f != 0 || c.lastLit {
		t.Errorf("after the deadline the bar is %.2f full, lit %v", f, c.lastLit)
	}
}

// With the table's wagering period known, the bar is measured against it, even on a screen that
// came up in the middle of the period.
func TestCountdownBarAgainstThePeriod(t *testing.T) {
	test.NewTempApp(t)
	c := newCountdownView(canvas.NewText("", nil))
	w := test.NewTempWindow(t, c.view)
	w.Resize(fyne.NewSize(300, 120))
	c.show(5*time.Second, 20*time.Second, app.PeriodWarning, 5)
	if f := c.fill.Size().Width / c.track.Size().Width; f < 0.24 || f > 0.26 {
		t.Errorf("5 s of a 20 s period: the bar is %.2f full", f)
	}
}

// Money on the screen carries the table's currency symbol; a table that names none shows none.
func TestCurrencySymbol(t *testing.T) {
	for code, want := range map[string]string{"": "", "USD": "$", "AUD": "A$", "EUR": "€", "CNY": "¥", "XYZ": "XYZ "} {
		if got := currencySymbol(code); got != want {
			t.Errorf("%q: %q, want %q", code, got, want)
		}
	}
	s := &Screen{}
	s.last.Config.Currency = "AUD"
	if got := s.cash(123456); got != "A$1,234.56" {
		t.Errorf("cash: %q", got)
	}
	// Amounts in the terminal's messages too (money.Amount), but not tournament chips (text).
	if got := s.say(msg.New("Credited %s", appmoney.Amount(10000))); got != "Credited A$100.00" {
		t.Errorf("a message's amount: %q", got)
	}
	if got := s.say(msg.New("wager at least the minimum of %s before you end your turn", appmoney.Decimal(200))); strings.Contains(got, "A$") {
		t.Errorf("tournament chips said as money: %q", got)
	}
}
