package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"golang.org/x/image/font/sfnt"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// A player changes the language at the screen (issue 18, point 10): the button names the other
// language in its own script, a touch asks for that language's code, and a screen built after
// SetLanguage speaks it and offers the first one back. The button is in the controls row from
// the start, so offering it moves nothing later.
func TestLanguageButton(t *testing.T) {
	restoreLanguage(t)
	if err := SetLanguage("en"); err != nil {
		t.Fatal(err)
	}
	test.NewTempApp(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	s, _, _, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	if s.langBox.Visible() {
		t.Fatal("a language button on a screen the kiosk offered no language")
	}
	var asked string
	s.OfferLanguages(func(code string) { asked = code })
	if !s.langBox.Visible() || s.languageName.text.Text != "中文" {
		t.Fatalf("on an English screen the button reads %q (shown %v), want 中文", s.languageName.text.Text, s.langBox.Visible())
	}
	test.Tap(s.language)
	if asked != "zh_Hans" {
		t.Fatalf("a touch asked for %q, want zh_Hans", asked)
	}

	if err := SetLanguage(asked); err != nil {
		t.Fatal(err)
	}
	// The felt's and the racetrack's pictures draw their labels (红, 一打…) in the Chinese font:
	// Fyne's Latin one has no glyph for them.
	if labelFont() != chineseBoldFont() {
		t.Fatal("in Chinese the felt's labels are drawn in a font without Chinese glyphs")
	}
	var sb sfnt.Buffer
	for _, r := range T("RED") + T("1st 12") {
		if g, err := labelFont().GlyphIndex(&sb, r); err != nil || g == 0 {
			t.Errorf("the labels' font has no glyph for %q", r)
		}
	}
	zh, _, _, _ := screenAt(t, diagrams.DiagramA, l, fyne.NewSize(1920, 1080))
	zh.OfferLanguages(func(code string) { asked = code })
	if zh.languageName.text.Text != "English" || T("Help") == "Help" {
		t.Fatalf("the screen built in Chinese: button %q, Help reads %q", zh.languageName.text.Text, T("Help"))
	}
	test.Tap(zh.language)
	if asked != "en" {
		t.Fatalf("a touch on the Chinese screen asked for %q, want en", asked)
	}
	if err := SetLanguage("en"); err != nil {
		t.Fatal(err)
	}
	if labelFont() != boldFont() {
		t.Fatal("in English the felt's labels are not in Fyne's bold font (the reference renders' font)")
	}
}
