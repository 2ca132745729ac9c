package ui

import (
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// stakesDrawn finds, under o, each printed amount with the body colour of the chip it sits on
// and the chip's centre: the body is the largest circle under the text's centre.
func stakesDrawn(o fyne.CanvasObject) map[string]struct {
	body   color.Color
	centre fyne.Position
} {
	type circ struct {
		c   *canvas.Circle
		pos fyne.Position
	}
	var circles []circ
	var texts []*canvas.Text
	var textPos []fyne.Position
	var walk func(o fyne.CanvasObject, at fyne.Position)
	walk = func(o fyne.CanvasObject, at fyne.Position) {
		if !o.Visible() {
			return
		}
		p := at.Add(o.Position())
		switch x := o.(type) {
		case *canvas.Circle:
			circles = append(circles, circ{x, p})
		case *canvas.Text:
			texts, textPos = append(texts, x), append(textPos, p)
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c, p)
			}
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c, p)
			}
		}
	}
	walk(o, fyne.Position{})
	out := map[string]struct {
		body   color.Color
		centre fyne.Position
	}{}
	for i, t := range texts {
		c := textPos[i].Add(fyne.NewPos(t.Size().Width/2, t.Size().Height/2))
		var best *canvas.Circle
		for _, k := range circles {
			in := c.X >= k.pos.X && c.X <= k.pos.X+k.c.Size().Width && c.Y >= k.pos.Y && c.Y <= k.pos.Y+k.c.Size().Height
			if in && (best == nil || k.c.Size().Width > best.Size().Width) {
				best = k.c
			}
		}
		if best != nil {
			out[t.Text] = struct {
				body   color.Color
				centre fyne.Position
			}{best.FillColor, c}
		}
	}
	return out
}

// A stake on the felt is the tray's chip of its value: its colour band and its amount. The
// chips are drawn into the felt's picture, so the test reads the pixels: the chip's body colour
// between two of its edge spots.
func TestFeltStakesAreTrayChips(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	g, err := diagrams.New(l)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFelt(g)
	w := test.NewTempWindow(t, f)
	w.Resize(fyne.NewSize(1400, 500))
	red, err := l.Outside(roulette.Red, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, err := l.Inside(roulette.Straight, []roulette.Number{17})
	if err != nil {
		t.Fatal(err)
	}
	f.SetStakes(map[roulette.Spot]int64{red: 2500, st: 10000, {}: 0})
	drawn := test.WidgetRenderer(f).(*feltRenderer).drawn
	img := w.Canvas().Capture()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(f)
	got := map[string]color.Color{}
	for _, c := range drawn {
		// Between the top spot and the next, inside the rim: the body (spots at 0.41 d).
		a := math.Pi / chipSpots
		p := pos.Add(c.at).Add(fyne.NewPos(float32(math.Sin(a))*c.d*0.41, -float32(math.Cos(a))*c.d*0.41))
		got[money(c.amount)] = img.At(int(p.X), int(p.Y))
	}
	for label, want := range map[string]color.NRGBA{"25": styleOf(2500).body, "100": styleOf(10000).body} {
		c, ok := got[label]
		if !ok {
			t.Errorf("no chip reads %q on the felt (drawn: %v)", label, drawn)
			continue
		}
		r, g, b, _ := c.RGBA()
		if d := max(diff8(r>>8, want.R), diff8(g>>8, want.G), diff8(b>>8, want.B)); d > 8 {
			t.Errorf("the %s chip is %v on the screen, the tray's is %v", label, c, want)
		}
	}
	if len(drawn) != 2 {
		t.Errorf("%d chips drawn, want 2 (a zero stake draws none): %v", len(drawn), drawn)
	}
	if styleOf(2500).body == styleOf(10000).body {
		t.Fatal("the test needs two values of different colours")
	}
}

func diff8(a uint32, b uint8) uint32 {
	if a > uint32(b) {
		return a - uint32(b)
	}
	return uint32(b) - a
}

// Call bets stand as chips on the racetrack where they were placed: a neighbours bet on its
// centre number, a sector bet on its sector; a stake of several chips of its band is a stack.
func TestRacetrackStakesStandWherePlaced(t *testing.T) {
	test.NewTempApp(t)
	rt, err := diagrams.NewRacetrack(roulette.SingleZero)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRacetrack(rt)
	w := test.NewTempWindow(t, r)
	w.Resize(fyne.NewSize(1300, 220))
	if got := trackChips(r); len(got) != 0 {
		t.Fatalf("chips on an empty racetrack: %v", got)
	}
	r.SetStakes(map[diagrams.TrackTarget]int64{
		{Call: roulette.Neighbours, Centre: 17}: 500,
		{Call: roulette.Voisins}:                900, // 9: more than one chip of the 5 band
	})
	got := trackChips(r)
	for _, reg := range append(append([]diagrams.TrackRegion{}, rt.Numbers...), rt.Sectors...) {
		var label string
		switch reg.Target {
		case diagrams.TrackTarget{Call: roulette.Neighbours, Centre: 17}:
			label = "5"
		case diagrams.TrackTarget{Call: roulette.Voisins}:
			label = "9"
		default:
			continue
		}
		c, ok := got[label]
		if !ok {
			t.Fatalf("no %s chip on the racetrack (drawn: %v)", label, got)
		}
		tl, br := r.ToScreen(reg.Rect.Min), r.ToScreen(reg.Rect.Max)
		if c.X < tl.X || c.X > br.X || c.Y < tl.Y || c.Y > br.Y {
			t.Errorf("the %s chip stands at %v, outside %s (%v–%v)", label, c, reg.Label, tl, br)
		}
	}
	// The chips are in the racetrack's picture: a frame draws the one raster, whatever the bets.
	if n := len(objectsOf(r)); n != 1 {
		t.Errorf("%d objects drawn, want the raster alone", n)
	}
	r.SetStakes(nil)
	if got := trackChips(r); len(got) != 0 {
		t.Errorf("chips left after the call bets went: %v", got)
	}
}

func objectsOf(w fyne.Widget) []fyne.CanvasObject { return test.WidgetRenderer(w).Objects() }

// trackChips is what the racetrack draws into its picture: each chip's amount and centre.
func trackChips(r *Racetrack) map[string]fyne.Position {
	got := map[string]fyne.Position{}
	for _, c := range test.WidgetRenderer(r).(*trackRenderer).drawn {
		got[money(c.amount)] = c.at
	}
	return got
}

// An Asian Neighbour (002 §3.2) has its chip on its group's box of the Asian racetrack, where it
// was placed, not only a line of text beside the racetrack.
func TestAsianNeighbourChipOnItsGroup(t *testing.T) {
	test.NewTempApp(t)
	rt, err := diagrams.NewRacetrack(roulette.SingleZero)
	if err != nil {
		t.Fatal(err)
	}
	rt.AddAsian(roulette.DefaultAsianGroups(roulette.SingleZero))
	r := NewRacetrack(rt)
	w := test.NewTempWindow(t, r)
	w.Resize(fyne.NewSize(1300, 260))
	reg := rt.Asian[4]
	r.SetStakes(map[diagrams.TrackTarget]int64{reg.Target: 2500})
	c, ok := trackChips(r)["25"]
	if !ok {
		t.Fatalf("no chip of 25 on the Asian racetrack (drawn: %v)", trackChips(r))
	}
	tl, br := r.ToScreen(reg.Rect.Min), r.ToScreen(reg.Rect.Max)
	if c.X < tl.X || c.X > br.X || c.Y < tl.Y || c.Y > br.Y {
		t.Errorf("the chip stands at %v, outside the group %s (%v–%v)", c, reg.Label, tl, br)
	}
	// And it is on the screen: the chip's body colour between two of its edge spots.
	img := w.Canvas().Capture()
	d := min(reg.Rect.Max.X-reg.Rect.Min.X, reg.Rect.Max.Y-reg.Rect.Min.Y) * (br.X - tl.X) / (reg.Rect.Max.X - reg.Rect.Min.X) * 0.82
	p := fyne.CurrentApp().Driver().AbsolutePositionForObject(r).Add(c).Add(fyne.NewPos(float32(math.Sin(math.Pi/chipSpots))*d*0.41, -float32(math.Cos(math.Pi/chipSpots))*d*0.41))
	want := styleOf(2500).body
	if cr, cg, cb, _ := img.At(int(p.X), int(p.Y)).RGBA(); max(diff8(cr>>8, want.R), diff8(cg>>8, want.G), diff8(cb>>8, want.B)) > 8 {
		t.Errorf("at the chip's body the screen shows %v, want the 25 chip's %v", img.At(int(p.X), int(p.Y)), want)
	}
}

// A Lucky Ball wager has its chip in its colour's area, and the areas' Bet buttons are dimmed
// while the table takes no bets.
func TestLuckyBallStakesAndClosedButtons(t *testing.T) {
	test.NewTempApp(t)
	d := &roulette.LuckyBallDraw{Version: roulette.LuckyMega, Numbers: [4]roulette.Number{7, 23, 14, 31}}
	staked := map[roulette.Spot]int64{roulette.LuckyBallSpot(roulette.BallBlue): 500}
	for _, open := range []bool{true, false} {
		p := luckyBallPanel(d, roulette.LuckyMega, staked, luckyResult{}, open, false, func(roulette.BallColour) {})
		w := test.NewTempWindow(t, p)
		w.Resize(fyne.NewSize(300, 200))
		if _, ok := stakesDrawn(p)["5"]; !ok {
			t.Errorf("open %v: no chip of 5 on the blue area", open)
		}
		var buttons, disabled int
		var walk func(o fyne.CanvasObject)
		walk = func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widget.Button:
				buttons++
				if x.Disabled() {
					disabled++
				}
			case *fyne.Container:
				for _, c := range x.Objects {
					walk(c)
				}
			}
		}
		walk(p)
		if buttons != 4 || (open && disabled != 0) || (!open && disabled != 4) {
			t.Errorf("open %v: %d of %d Bet buttons dimmed", open, disabled, buttons)
		}
	}
}

// Issue 32 point 5: a sector's chip stood on the sector's name, hiding it (VOISINS under a
// chip of 1). The chip stands at the sector's end, clear of its name.
func TestSectorChipLeavesItsNameReadable(t *testing.T) {
	test.NewTempApp(t)
	rt, err := diagrams.NewRacetrack(roulette.SingleZero)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRacetrack(rt)
	w := test.NewTempWindow(t, r)
	w.Resize(fyne.NewSize(1356, 222))
	for _, reg := range rt.Sectors {
		r.SetStakes(map[diagrams.TrackTarget]int64{reg.Target: 900})
		got := trackChips(r)
		c, ok := got["9"]
		if !ok {
			t.Fatalf("%s: no chip drawn (%v)", reg.Label, got)
		}
		tl, br := r.ToScreen(reg.Rect.Min), r.ToScreen(reg.Rect.Max)
		d := min(br.X-tl.X, br.Y-tl.Y) * 0.82
		// The name as the racetrack draws it: 0.3 layout units high, centred (CreateRenderer).
		scale := (br.X - tl.X) / (reg.Rect.Max.X - reg.Rect.Min.X)
		name := reg.Label
		if name == "ZERO" {
			name = "ZERO GAME"
		}
		half := fyne.MeasureText(T(name), 0.3*scale, fyne.TextStyle{Bold: true}).Width / 2
		mid := (tl.X + br.X) / 2
		if c.X-d/2 < mid+half && c.X+d/2 > mid-half {
			t.Errorf("%s: the chip (centre %.0f, %.0f across) covers the name at %.0f–%.0f", reg.Label, c.X, d, mid-half, mid+half)
		}
		if c.X-d/2 < tl.X || c.X+d/2 > br.X || c.Y < tl.Y || c.Y > br.Y {
			t.Errorf("%s: the chip at %v is not inside its sector %v–%v", reg.Label, c, tl, br)
		}
	}
}
