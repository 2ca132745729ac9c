package ui

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// The conventional denominations each have a colour of their own, the same value always the
// same one, and a value between two of them the colour of the lower; the value printed on a
// chip stands out from its body.
func TestChipColours(t *testing.T) {
	standard := []int64{100, 500, 1000, 2500, 10000, 50000, 100000}
	seen := map[color.NRGBA]int64{}
	for _, c := range standard {
		b := styleOf(c).body
		if other, ok := seen[b]; ok {
			t.Errorf("%s and %s chips are the same colour", money(c), money(other))
		}
		seen[b] = c
	}
	for _, c := range []struct{ value, like int64 }{{2000, 1000}, {250, 100}, {20000, 10000}, {200000, 100000}} {
		if styleOf(c.value) != styleOf(c.like) {
			t.Errorf("a %s chip is not coloured as %s", money(c.value), money(c.like))
		}
	}
	if styleOf(500).body != (color.NRGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff}) || styleOf(10000).body.R > 0x40 {
		t.Error("5 is not red or 100 not black")
	}
	for _, b := range chipBands {
		if d := luminance(b.style.ink) - luminance(b.style.body); d < 0.35 && d > -0.35 {
			t.Errorf("the value on a chip from %s has too little contrast (%.2f)", money(b.from), d)
		}
	}
	for _, c := range []int64{0, 1, 25, 50} {
		if styleOf(c) != chipBands[0].style {
			t.Errorf("a %s chip is not grey", money(c))
		}
	}
}

func luminance(c color.NRGBA) float64 {
	return (0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)) / 255
}

// A touch anywhere on a chip's square chooses it; the chosen chip stands raised in a ring (by
// shape and position, not by colour alone); its value is printed inside the inlay, however long.
func TestChip(t *testing.T) {
	test.NewTempApp(t)
	tapped := 0
	c := NewChip(100000, func() { tapped++ })
	w := test.NewTempWindow(t, c)
	w.SetPadded(false)
	w.Resize(fyne.NewSquareSize(90))
	test.TapCanvas(w.Canvas(), fyne.NewPos(3, 3)) // the corner, outside the disc
	test.Tap(c)
	if tapped != 2 {
		t.Errorf("two touches chose the chip %d times", tapped)
	}
	r := test.WidgetRenderer(c).(*chipRenderer)
	if r.value.Text != "1,000" {
		t.Errorf("the chip says %q", r.value.Text)
	}
	if w := fyne.MeasureText(r.value.Text, r.value.TextSize, r.value.TextStyle).Width; w > r.inlay.Size().Width {
		t.Errorf("the value (%.0f wide) runs out of the inlay (%.0f)", w, r.inlay.Size().Width)
	}
	flatY, ring := r.body.Position().Y, r.ring.StrokeColor
	if ring != color.Transparent {
		t.Errorf("an unchosen chip has a ring %v", ring)
	}
	c.SetSelected(true)
	if r.ring.StrokeColor == color.Transparent || r.ring.StrokeWidth < 3 {
		t.Error("the chosen chip has no ring")
	}
	if r.ring.Size().Width <= r.body.Size().Width {
		t.Errorf("the ring (%v) does not surround the chip (%v)", r.ring.Size(), r.body.Size())
	}
	if lift := flatY - r.body.Position().Y; lift < 4 {
		t.Errorf("the chosen chip is raised by %.1f pixels", lift)
	}
	c.SetSelected(false)
	if r.ring.StrokeColor != color.Transparent || r.body.Position().Y != flatY {
		t.Error("the chip stays chosen")
	}
}

// On the screen the tray holds the table's chips, at least 72 pixels across at 1920×1080 and
// a finger's width (56) at 1280×800, all inside the screen; a touch on one chooses it and
// raises it.
func TestChipTrayOnTheScreen(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, c := range []struct {
		size fyne.Size
		min  float32
	}{{fyne.NewSize(1920, 1080), 72}, {fyne.NewSize(1280, 800), 56}} {
		term, _ := terminalAt(t, l)
		s, err := NewScreen(term, diagrams.DiagramA, l)
		if err != nil {
			t.Fatal(err)
		}
		w := test.NewTempWindow(t, s.Content())
		w.SetPadded(false)
		w.Resize(c.size)
		if n := len(s.chips.Objects); n != 4 {
			t.Fatalf("%d chips in the tray", n)
		}
		for _, o := range s.chips.Objects {
			chip := o.(*Chip)
			r := test.WidgetRenderer(chip).(*chipRenderer)
			pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(chip)
			if d := r.body.Size().Width; d < c.min {
				t.Errorf("at %v the %s chip is %.0f pixels across", c.size, chip.Label(), d)
			}
			if end := pos.Add(chip.Size()); end.X > c.size.Width || end.Y > c.size.Height {
				t.Errorf("at %v the %s chip ends at %v", c.size, chip.Label(), end)
			}
		}
		five := findChip(t, s.Content(), "5")
		test.TapCanvas(w.Canvas(), fyne.CurrentApp().Driver().AbsolutePositionForObject(five).Add(fyne.NewPos(five.Size().Width/2, five.Size().Height/2)))
		s.update(term.View())
		if term.View().Chip != 500 || !five.Selected || findChip(t, s.Content(), "1").Selected {
			t.Errorf("at %v after touching 5: chip %d, 5 chosen %v", c.size, term.View().Chip, five.Selected)
		}
	}
}
