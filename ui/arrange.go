package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
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
// to the felt, which centres itself in it. Where the area is narrow (the compact size class,
// 1280×800) there is not height for all three at their width, and the tray and the racetrack
// are served first (see Layout).
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
	p.track.fit(size.Width)
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
	feltMin := felt.MinSize().Height
	var feltH, trayH, trackH float32
	if p.track.across {
		// Short of height (1280×800) the tray and the racetrack come first, each at the size
		// its width gives it, and the felt takes what is left: a few pixels off the felt's
		// height cost it 3 % of its size, the same pixels off the racetrack a tenth of its
		// cells' (issue 18).
		trayH = max(min(cell, avail-feltMin-trackMin), trayMin)
		trackH = max(min(p.track.want(size.Width), avail-trayH-feltMin), trackMin)
	} else {
		feltH = max(min(size.Width/p.feltAspect, avail-trackMin-trayMin), feltMin)
		left := avail - feltH
		trayH = max(min(cell, left-trackMin), trayMin)
		trackH = max(min(p.track.want(size.Width), left-trayH), trackMin)
	}
	feltH = max(avail-trayH-trackH, feltMin)

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

// trackRow lays out the neighbours spread and the racetrack. Where the play area is wide
// (1920×1080) the spread is a column on the left, a seventh of the width (within 200 and 240
// pixels), and the racetrack takes the rest. Where it is narrow (1280×800, the compact size
// class) that column cost the racetrack a fifth of its width, and the racetrack is as tall as
// its width makes it: its cells were 41 pixels with 16-pixel labels while 70 pixels of felt
// above stayed empty (issue 18). There the spread is a strip across the top of the row —
// caption, segments and the call bets placed, side by side — and the racetrack below it takes
// the full width.
type trackRow struct {
	aspect float32 // the racetrack's width over its height
	across bool    // the spread is a strip above the racetrack (set for the width by the play area)
	spread *spreadColumn
	calls  *widget.Label // the call bets placed, in the spread
}

// fit chooses the arrangement for the play area's width: the same size class as the controls'.
// The call bets' line is drawn at 18 points in both (at Fyne's 14 in the column it was the
// smallest words on the screen, issue 32 point 5): in the strip it has the row's width and one
// line, cut with an ellipsis; in the 200-pixel column it wraps onto the lines under the
// segments, whole.
func (r *trackRow) fit(width float32) {
	across := width < compactBelow
	if across == r.across && r.calls != nil && r.calls.SizeName != "" {
		return
	}
	r.across, r.spread.across = across, across
	if r.calls != nil {
		r.calls.SizeName = theme.SizeNameSubHeadingText
		r.calls.Wrapping, r.calls.Truncation = fyne.TextWrapWord, fyne.TextTruncateOff
		if across {
			r.calls.Wrapping, r.calls.Truncation = fyne.TextWrapOff, fyne.TextTruncateEllipsis
		}
		r.calls.Refresh()
	}
}

func (r *trackRow) column(width float32) float32 { return min(max(width/7, 200), 240) }

// stripHeight is the spread strip's height: a segment's, a fingertip.
var stripHeight = segmentMin.Height

// want is the height at which the racetrack fills the width the row leaves it.
func (r *trackRow) want(width float32) float32 {
	if r.across {
		return stripHeight + rowGap + width/r.aspect
	}
	return (width - r.column(width) - rowGap) / r.aspect
}

// Layout takes the spread and the racetrack.
func (r *trackRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	col, track := objs[0], objs[1]
	if r.across {
		col.Move(fyne.NewPos(0, 0))
		col.Resize(fyne.NewSize(size.Width, stripHeight))
		track.Move(fyne.NewPos(0, stripHeight+rowGap))
		track.Resize(fyne.NewSize(size.Width, max(size.Height-stripHeight-rowGap, 0)))
		return
	}
	cw := r.column(size.Width)
	col.Move(fyne.NewPos(0, 0))
	col.Resize(fyne.NewSize(cw, size.Height))
	track.Move(fyne.NewPos(cw+rowGap, 0))
	track.Resize(fyne.NewSize(size.Width-cw-rowGap, size.Height))
}

func (r *trackRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	col, track := objs[0].MinSize(), objs[1].MinSize()
	if r.across {
		return fyne.NewSize(max(col.Width, track.Width), stripHeight+rowGap+track.Height)
	}
	return fyne.NewSize(max(col.Width, 200)+rowGap+track.Width, max(col.Height, track.Height))
}

// spreadColumn arranges the spread's caption, its segments and the call bets placed: stacked
// in the column beside the racetrack (the segments taller where the row is), or side by side
// in the strip above it (across).
type spreadColumn struct {
	across bool
}

// stripSegments is the segments' width in the strip: four fingertips and more.
const stripSegments = 4*60 + 3*segmentGap

func (c *spreadColumn) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	caption, seg, calls := objs[0], objs[1], objs[2]
	if c.across {
		cm := caption.MinSize()
		caption.Move(fyne.NewPos(0, (size.Height-cm.Height)/2))
		caption.Resize(cm)
		x := cm.Width + rowGap
		seg.Move(fyne.NewPos(x, 0))
		seg.Resize(fyne.NewSize(stripSegments, size.Height))
		x += stripSegments + rowGap
		ch := calls.MinSize().Height
		calls.Move(fyne.NewPos(x, (size.Height-ch)/2))
		calls.Resize(fyne.NewSize(max(size.Width-x, 0), ch))
		return
	}
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

func (c *spreadColumn) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if c.across {
		w := objs[0].MinSize().Width + rowGap + stripSegments + rowGap + 100 // a call bet's first words
		return fyne.NewSize(w, stripHeight)
	}
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
