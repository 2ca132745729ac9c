package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/recall"
	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

func TestRecallShowsEachGameOnTheLayout(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	geom, err := diagrams.New(l)
	if err != nil {
		t.Fatal(err)
	}
	s19, _ := l.Inside(roulette.Straight, []roulette.Number{19})
	red, _ := l.Outside(roulette.Red, 0)
	rounds := []recall.Round{
		{ID: "R2", Layout: l, Settled: true, Recognised: true, Number: 2, Staked: 500, BalanceBefore: 5000, BalanceAfter: 4500,
			Wagers: []recall.Wager{{Bet: roulette.Bet{Spot: red}.Spec(), Tried: 500, Accepted: 500}}},
		{ID: "R1", Layout: l, Settled: true, Recognised: true, Number: 19, Staked: 600, Returned: 4600, BalanceBefore: 1000,
			BalanceAfter: 5000, MoneyIn: 1000,
			Wagers: []recall.Wager{{Bet: roulette.Bet{Spot: s19}.Spec(), Tried: 100, Accepted: 100}, {Bet: roulette.Bet{Spot: red}.Spec(), Tried: 500, Accepted: 500}}},
	}
	printed := []recall.Ticket{{At: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), Validation: "001234567890123456", Amount: 4500, State: "printed"}}
	rv := newRecallView(geom, "", rounds, printed, nil)
	w := test.NewWindow(rv.root)
	defer w.Close()
	w.Resize(fyne.NewSize(1200, 800))

	if !strings.Contains(rv.title.Text, "Game 1 of 2") || !strings.Contains(rv.detail.Text, "Outcome 2") ||
		len(rv.felt.stakes) != 1 || rv.felt.stakes[red] != 500 || !rv.felt.hasWin || rv.felt.winning != 2 {
		t.Fatalf("newest game: %q %q stakes %v", rv.title.Text, rv.detail.Text, rv.felt.stakes)
	}
	test.Tap(findButton(t, rv.root, "Previous game"))
	if !strings.Contains(rv.title.Text, "Game 2 of 2: round R1") || rv.felt.stakes[s19] != 100 || rv.felt.stakes[red] != 500 ||
		!strings.Contains(rv.detail.Text, "Won 46.00") || !strings.Contains(rv.detail.Text, "Balance before 10.00   after 50.00") ||
		!strings.Contains(rv.detail.Text, "Money in 10.00") {
		t.Fatalf("older game: %q %q stakes %v", rv.title.Text, rv.detail.Text, rv.felt.stakes)
	}
	test.Tap(findButton(t, rv.root, "Previous game")) // there is none older: stays
	if !strings.Contains(rv.title.Text, "Game 2 of 2") {
		t.Errorf("past the oldest: %q", rv.title.Text)
	}
	if txt := labelTexts(ticketsView("", printed, nil)); !shows(txt, "001234567890123456") || !shows(txt, "45.00") {
		t.Errorf("tickets: %q", txt)
	}
	empty := newRecallView(geom, "", nil, nil, nil)
	if !strings.Contains(empty.title.Text, "No games") {
		t.Errorf("no records: %q", empty.title.Text)
	}
}

// findButton finds the button with a label in a tree of canvas objects.
func findButton(t *testing.T, o fyne.CanvasObject, label string) *widget.Button {
	t.Helper()
	var found *widget.Button
	walkObjects(o, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == label {
			found = b
		}
	})
	if found == nil {
		t.Fatalf("no %q button", label)
	}
	return found
}

// findChip finds the chip of the tray with a value printed on it.
func findChip(t *testing.T, o fyne.CanvasObject, label string) *Chip {
	t.Helper()
	var found *Chip
	walkObjects(o, func(o fyne.CanvasObject) {
		if c, ok := o.(*Chip); ok && c.Label() == label {
			found = c
		}
	})
	if found == nil {
		t.Fatalf("no %q chip", label)
	}
	return found
}

// walkObjects calls visit on every object of a tree of canvas objects, through the
// containers a screen nests them in.
func walkObjects(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		visit(o)
		switch v := o.(type) {
		case *container.ThemeOverride:
			walk(v.Content)
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case *container.AppTabs:
			for _, it := range v.Items {
				walk(it.Content)
			}
		case *container.Scroll:
			walk(v.Content)
		case *widget.PopUp:
			walk(v.Content)
		}
	}
	walk(o)
}

// Issue 32 point 11: game records read at the screen's body size (13–14 px before), with tabs a
// finger can hit, each game with its local time.
func TestRecallIsReadableAndTimed(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, _, _, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1280, 800))
	red, _ := l.Outside(roulette.Red, 0)
	at := time.Date(2026, 11, 22, 9, 41, 7, 0, time.UTC)
	rounds := []recall.Round{{ID: "R2", Layout: l, Settled: true, Recognised: true, Number: 2, Staked: 500, At: at,
		Wagers: []recall.Wager{{Bet: roulette.Bet{Spot: red}.Spec(), Tried: 500, Accepted: 500}}}}
	rv, content := s.recallContent(rounds, nil, nil)
	w := test.NewWindow(content)
	defer w.Close()
	w.Resize(fyne.NewSize(1200, 760))
	if want := at.Local().Format("15:04:05"); !strings.Contains(rv.title.Text, want) {
		t.Errorf("the game's title %q lacks its local time %s", rv.title.Text, want)
	}
	if size := theme.SizeForWidget(theme.SizeNameText, rv.detail); size < 20 {
		t.Errorf("the records' text is %.0f px, below the screen's body size", size)
	}
	var tabs *container.AppTabs
	walkObjects(content, func(o fyne.CanvasObject) {
		if x, ok := o.(*container.AppTabs); ok {
			tabs = x
		}
	})
	if tabs == nil {
		t.Fatal("no tabs")
	}
	// The tab bar is what lies above the selected tab's content.
	if bar := tabs.Items[0].Content.Position().Y; bar < 48 {
		t.Errorf("the tabs are %.0f px high: too small to hit with a finger", bar)
	}
}
