package ui

import (
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"github.com/tablegames/ats/app"
)

// countdownView is the countdown's number on a plate, over a bar of the wagering time left
// (issue 18: the countdown had been a number only). In the warning state the plate lights in
// the warning colour every other second and the bar turns the same colour: the last seconds
// cannot be missed, and cost no frame more than the number's own once-a-second change.
type countdownView struct {
	plate    *canvas.Rectangle
	track    *canvas.Rectangle
	fill     *canvas.Rectangle
	bar      *fyne.Container
	frac     float32       // the share of the period left, 0–1, as the bar shows it
	longest  time.Duration // the longest wait seen this period: the bar's full length
	view     fyne.CanvasObject
	lastLit  bool
	lastFill color.Color
}

var barTrack = color.NRGBA{R: 0x2a, G: 0x3a, B: 0x2f, A: 0xff}

func newCountdownView(number *canvas.Text) *countdownView {
	c := &countdownView{plate: canvas.NewRectangle(color.Transparent), track: canvas.NewRectangle(barTrack),
		fill: canvas.NewRectangle(openColour)}
	c.plate.CornerRadius, c.track.CornerRadius, c.fill.CornerRadius = 8, 4, 4
	c.bar = container.New(&barLayout{c}, c.track, c.fill)
	c.view = container.NewBorder(nil, c.bar, nil, nil, container.NewStack(c.plate, number))
	return c
}

// show updates the bar and plate for the time left (0: none, outside wagering), the period
// state and the second shown; it redraws only what changed.
// period is the table's wagering period, the bar's full length (0 if unknown: then the
// longest wait seen this period).
func (c *countdownView) show(left, period time.Duration, p app.Period, second int) {
	if left <= 0 {
		c.longest = 0
	} else if left > c.longest {
		c.longest = left.Round(time.Second)
	}
	if period >= c.longest {
		c.longest = period
	}
	frac := float32(0)
	if c.longest > 0 {
		frac = min(float32(left)/float32(c.longest), 1)
	}
	fill := color.Color(openColour)
	if p == app.PeriodWarning {
		fill = warnColour
	}
	lit := p == app.PeriodWarning && second%2 == 1
	if frac != c.frac || fill != c.lastFill {
		c.frac, c.lastFill = frac, fill
		c.fill.FillColor = fill
		c.bar.Refresh()
		c.fill.Refresh()
	}
	if lit != c.lastLit {
		c.lastLit = lit
		c.plate.FillColor = color.Transparent
		if lit {
			c.plate.FillColor = warnColour
		}
		c.plate.Refresh()
	}
}

// barLayout draws the fill over the track, as long as the share of the period left.
type barLayout struct{ c *countdownView }

const barHeight = 10

func (l *barLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Resize(size)
	objs[1].Resize(fyne.NewSize(size.Width*l.c.frac, size.Height))
}

func (l *barLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(40, barHeight) }
