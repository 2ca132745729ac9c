package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// The side panel has the screen's height and no more, whatever it shows (issue 32 point 14).
// Its column's smallest height was the window's: with the personal limits, the closure, a
// pending change of limits and a correction's explanation up on U at 1280×800 it needed 863
// of the screen's 800 pixels, the window's content grew past the screen, and the whole screen
// stood ~30 pixels higher — the status and the felt's top row cut off, a tap aimed at 17
// landing on the split 17-18. Now the panel asks for no height (sidePanel.MinSize), and what
// it shows is fitted to the height it has: the less needed parts give way first (fitSide).

// sidePanel lays out its objects in a column of a fixed width and of the height it is given,
// which it first tells height, if set. It asks for its width only: the column is fitted to the
// height (fitSide), never the window to the column.
type sidePanel struct {
	width  float32
	height func(float32)
}

func (p sidePanel) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if p.height != nil {
		p.height(size.Height)
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (p sidePanel) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(p.width, 0) }

// sideShown is what decides the side panel's height besides the window: the parts that come
// and go. The panel is fitted again when it changes (refitSide).
type sideShown struct {
	explain, pending, personal, tournament, lucky, jackpot, jackpotWin, result bool
}

func (s *Screen) sideShownNow() sideShown {
	return sideShown{s.explain.Visible(), s.pending.Visible(), s.personal.Visible(), s.tournament.box.Visible(),
		s.lucky.Visible(), s.jackpot.Visible(), s.jackpotWin.Visible(), s.resultBox.Visible()}
}

// refitSide fits the side panel again after what it shows changed, at the height it has.
func (s *Screen) refitSide() {
	now := s.sideShownNow()
	if now == s.sideFor || s.sideH <= 0 {
		return
	}
	s.fitSide(s.sideH)
}

// fitSide is told the side panel's height before it is laid out, and fits the column to it. At
// the most: the statistics stand under the result, always shown, and the history shows its two
// rows. Short of height, in this order, until the column fits:
//
//   - the result and the statistics take turns in one place (resultSlot);
//   - the history shows its newest row only (a Lucky Ball table on L at 1280×800);
//   - the history gives way altogether: the statistics still tell the sample;
//   - the result's place keeps only the result's height: the statistics show in it between
//     results, the one thing in the column that then changes its height.
//
// What is still too tall after that is cut at the panel's foot: the window never grows.
func (s *Screen) fitSide(h float32) {
	s.sideH, s.sideFor = h, s.sideShownNow()
	was, wasRows, wasShort, wasTall := s.slot.both, s.historyRows, s.slot.short, s.tilesTall
	inTournament := s.tournament.box.Visible()
	fits := func() bool { return s.side.MinSize().Height+2*theme.Padding() <= h }
	s.slot.both, s.slot.short = false, false
	s.showHistoryRows(historyShown / historyColumns)
	// Tall tiles where they fit with the statistics under the result; else short ones.
	s.setTilesTall(true)
	if s.side.MinSize().Height+resultSlotGap+s.resultBox.MinSize().Height+2*theme.Padding() > h {
		s.setTilesTall(false)
	}
	for _, rows := range []int{1, 0} {
		if fits() {
			break
		}
		s.showHistoryRows(rows)
	}
	if !fits() && !inTournament {
		s.slot.short = true
	}
	if s.historyRows == historyShown/historyColumns && s.slot.reserve {
		need := s.side.MinSize().Height + resultSlotGap + s.resultBox.MinSize().Height + 2*theme.Padding()
		s.slot.both = need <= h
	}
	if s.slot.both != was || s.historyRows != wasRows || s.slot.short != wasShort || s.tilesTall != wasTall {
		s.stats.box.Hidden = !(s.slot.both || !s.resultBox.Visible()) || inTournament
		s.side.Refresh()
	}
}

// setTilesTall makes the history's tiles tall or short (tileCell).
func (s *Screen) setTilesTall(tall bool) {
	s.tilesTall = tall
	changed := false
	for _, t := range s.tiles {
		changed = t.setTall(tall) || changed
	}
	if changed {
		s.history.Refresh()
	}
}

// showHistoryRows shows the first rows of the history's tiles (the newest outcomes) and hides
// the rest, whose places the grid then leaves out; with none, the history gives way.
func (s *Screen) showHistoryRows(rows int) {
	s.historyRows = rows
	for i, t := range s.tiles {
		t.box.Hidden = i >= rows*historyColumns
	}
	// The tournament's panel hides the history in its own right (newTournamentPanel): only a
	// history hidden here is shown again here.
	switch {
	case rows == 0 && s.history.Visible():
		s.history.Hide()
		s.historyGaveWay = true
	case rows > 0 && s.historyGaveWay:
		s.historyGaveWay = false
		if !s.tournament.box.Visible() {
			s.history.Show()
		}
	}
}
