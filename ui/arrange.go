package ui

import (
	"fyne.io/fyne/v2"
)

// rowGap is the space between the rows under the felt and around the groups in them.
const rowGap = 8

// playArea lays out the part of the screen left of the side panel: the felt on top, then the
// racetrack row, the chip tray row and the rows of fixed height (controls, the buy-in offer,
// the message line), each as tall as it needs.
//
// The felt is wide and flat: at the full width of the area it needs about half the height, and
// any more only adds empty green above and below it. So the felt gets the height that makes it
// as wide as the area, as long as the rows keep their minimum; then the tray and the racetrack
// grow towards what they can use (the chips up to trayShare of the screen's height, the
// racetrack to the height its proportions give at its width); what is still left goes back
// to the felt, which centres itself in it.
type playArea struct {
	feltAspect float32 // the felt's width over its height
	track      *trackRow
	tray       *trayRow
	sizing     *touchSizing
}

// trayShare is the part of the height the chip tray row takes where there is room, and
// trayLeast the least it takes then: chips of about 78 pixels at 1080 rows and 64 at 800.
const (
	trayShare = 0.09
	trayLeast = 80
)

// Layout takes the felt, the racetrack row, the tray row and then the fixed rows.
func (p *playArea) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	felt, track, tray, rest := objs[0], objs[1], objs[2], objs[3:]
	// The size class first: it changes what the rows measure.
	p.sizing.fit(size.Width)
	cell := max(size.Height*trayShare, trayLeast)
	p.tray.fit(tray.(*fyne.Container).Objects, size.Width, cell)
	var fixed float32
	for _, o := range rest {
		if o.Visible() {
			// At the width first: a wrapping label (the message line) knows how many lines
			// it needs only once it has its width.
			if o.Size().Width != size.Width {
				o.Resize(fyne.NewSize(size.Width, o.MinSize().Height))
			}
			fixed += o.MinSize().Height + rowGap
		}
	}
	avail := size.Height - fixed - 2*rowGap
	trackMin, trayMin := track.MinSize().Height, tray.MinSize().Height
	feltH := max(min(size.Width/p.feltAspect, avail-trackMin-trayMin), felt.MinSize().Height)
	left := avail - feltH
	trayH := max(min(cell, left-trackMin), trayMin)
	trackH := max(min(p.track.want(size.Width), left-trayH), trackMin)
	feltH = max(avail-trayH-trackH, felt.MinSize().Height)

	y := float32(0)
	put := func(o fyne.CanvasObject, h float32) {
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h + rowGap
	}
	put(felt, feltH)
	put(track, trackH)
	put(tray, trayH)
	for _, o := range rest {
		if o.Visible() {
			put(o, o.MinSize().Height)
		}
	}
}

func (p *playArea) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for i, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
		if i > 0 {
			s.Height += rowGap
		}
	}
	return s
}

// trackRow lays out the neighbours spread column on the left and the racetrack beside it,
// the column a seventh of the width (within 200 and 240 pixels), the racetrack the rest.
type trackRow struct {
	aspect float32 // the racetrack's width over its height
}

func (r *trackRow) column(width float32) float32 { return min(max(width/7, 200), 240) }

// want is the height at which the racetrack fills the width the row leaves it.
func (r *trackRow) want(width float32) float32 {
	return (width - r.column(width) - rowGap) / r.aspect
}

// Layout takes the column and the racetrack.
func (r *trackRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	col, track := objs[0], objs[1]
	cw := r.column(size.Width)
	col.Move(fyne.NewPos(0, 0))
	col.Resize(fyne.NewSize(cw, size.Height))
	track.Move(fyne.NewPos(cw+rowGap, 0))
	track.Resize(fyne.NewSize(size.Width-cw-rowGap, size.Height))
}

func (r *trackRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	col, track := objs[0].MinSize(), objs[1].MinSize()
	return fyne.NewSize(max(col.Width, 200)+rowGap+track.Width, max(col.Height, track.Height))
}

// spreadColumn stacks the column's caption, the spread's segments (taller where the row is)
// and the call bets placed.
type spreadColumn struct{}

func (spreadColumn) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	caption, seg, calls := objs[0], objs[1], objs[2]
	ch := caption.MinSize().Height
	caption.Move(fyne.NewPos(0, 0))
	caption.Resize(fyne.NewSize(size.Width, ch))
	// The calls' line is kept whether or not there are call bets: the segments do not shrink
	// under a finger when the first one comes.
	sh := max(seg.MinSize().Height, min(72, size.Height-ch-calls.MinSize().Height-rowGap))
	seg.Move(fyne.NewPos(0, ch+rowGap/2))
	seg.Resize(fyne.NewSize(size.Width, sh))
	calls.Move(fyne.NewPos(0, ch+rowGap/2+sh))
	calls.Resize(fyne.NewSize(size.Width, max(size.Height-ch-rowGap/2-sh, calls.MinSize().Height)))
}

func (spreadColumn) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
	}
	return s.AddWidthHeight(0, rowGap/2)
}

// trayRow lays out the chips on the left and the favourites on the right: the favourites at
// their size, in two lines if one would leave the chips too little room, the chips in the rest.
type trayRow struct {
	favs *flow
	box  *fyne.Container // the favourites' buttons, laid out by favs
	cell float32         // the size a chip would like, set by the play area
}

// fit tells the favourites the width they may take in a row of the given width, where a chip
// would like cell pixels: what the chips leave at that size if the favourites then fit in two
// lines, else what they leave at their smallest.
func (r *trayRow) fit(objs []fyne.CanvasObject, width, cell float32) {
	r.cell = cell
	n := float32(len(objs[0].(*fyne.Container).Objects))
	r.favs.width = width - n*cell - max(n-1, 0)*trayGap - 2*rowGap
	if lines, _ := r.favs.lines(r.box.Objects); len(lines) <= 2 {
		return
	}
	r.favs.width = width - objs[0].MinSize().Width - 2*rowGap
}

func (r *trayRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	chips, favs := objs[0], objs[1]
	r.fit(objs, size.Width, r.cell)
	fm := favs.MinSize()
	favs.Move(fyne.NewPos(size.Width-fm.Width, (size.Height-fm.Height)/2))
	favs.Resize(fm)
	chips.Move(fyne.NewPos(0, 0))
	chips.Resize(fyne.NewSize(max(size.Width-fm.Width-2*rowGap, chips.MinSize().Width), size.Height))
}

func (r *trayRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	c, f := objs[0].MinSize(), objs[1].MinSize()
	return fyne.NewSize(c.Width+2*rowGap+f.Width, max(c.Height, f.Height))
}

// flow lays out its objects in a line, right-aligned, or in as many lines as its width needs.
type flow struct {
	width float32 // the width it may take; 0 for no limit
}

// lines breaks the objects into lines no wider than the width, and returns each line's objects
// and the size of the whole.
func (f *flow) lines(objs []fyne.CanvasObject) ([][]fyne.CanvasObject, fyne.Size) {
	var out [][]fyne.CanvasObject
	var line []fyne.CanvasObject
	var lw, w, h, lh float32
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		if len(line) > 0 && f.width > 0 && lw+rowGap+m.Width > f.width {
			out = append(out, line)
			w, h = max(w, lw), h+lh+rowGap
			line, lw, lh = nil, 0, 0
		}
		if len(line) > 0 {
			lw += rowGap
		}
		line, lw, lh = append(line, o), lw+m.Width, max(lh, m.Height)
	}
	if len(line) > 0 {
		out = append(out, line)
		w, h = max(w, lw), h+lh
	}
	return out, fyne.NewSize(w, h)
}

func (f *flow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	lines, whole := f.lines(objs)
	y := (size.Height - whole.Height) / 2
	for _, line := range lines {
		var lw, lh float32
		for _, o := range line {
			lw, lh = lw+o.MinSize().Width+rowGap, max(lh, o.MinSize().Height)
		}
		x := size.Width - lw + rowGap
		for _, o := range line {
			o.Move(fyne.NewPos(x, y))
			o.Resize(fyne.NewSize(o.MinSize().Width, lh))
			x += o.MinSize().Width + rowGap
		}
		y += lh + rowGap
	}
}

func (f *flow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	_, s := f.lines(objs)
	return s
}

// inset lays its objects out with a margin on every side.
type inset struct{ margin float32 }

func (l inset) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(l.margin, l.margin))
		o.Resize(size.SubtractWidthHeight(2*l.margin, 2*l.margin))
	}
}

func (l inset) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return m.AddWidthHeight(2*l.margin, 2*l.margin)
}
