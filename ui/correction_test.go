package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/diagrams"
	"github.com/tablegames/ats/internal/testwait"
)

// 001 §9.4 (issue 32 point 15): a corrected outcome's tile in the recent outcomes is marked, so
// the number the player saw change stands apart; the others are not.
func TestRule001_9_4_CorrectedTileIsMarked(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, link, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R0", Number: 5}})
	link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R1", Number: 17}})
	link.Push(table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R1", Number: 20, Corrected: true}})
	if !testwait.For(3*time.Second, func() bool { v := term.View(); return len(v.History) > 1 && v.History[0].Corrected }) {
		t.Fatalf("history %+v", term.View().History)
	}
	s.update(term.View())
	if tile := s.tiles[0]; tile.num.Text != "20" || tile.bg.StrokeColor != warnColour || tile.bg.StrokeWidth < 3 {
		t.Errorf("the corrected tile %q is framed %v × %v", tile.num.Text, tile.bg.StrokeColor, tile.bg.StrokeWidth)
	}
	if tile := s.tiles[1]; tile.bg.StrokeColor == warnColour {
		t.Errorf("the uncorrected tile %q is marked too", tile.num.Text)
	}
}

// 001 §9.4 (issue 32 point 15): the frozen state is visible — the words that say why stand
// under the status, in the side panel's width, not drawn over it.
func TestRule001_9_4_FrozenIsExplainedUnderTheStatus(t *testing.T) {
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, term, link, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	link.Push(table.FrozenChanged{Frozen: true})
	if !testwait.For(3*time.Second, func() bool { return term.View().Frozen }) {
		t.Fatal("never frozen")
	}
	s.update(term.View())
	st, ex := s.status, s.explain
	if !ex.Visible() || ex.Position().Y < st.Position().Y+st.Size().Height-1 || ex.Size().Width < sidePanelWidth/2 {
		t.Fatalf("status %q at %v %v; the explanation at %v %v", st.Text, st.Position(), st.Size(), ex.Position(), ex.Size())
	}
}
