package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
)

// The player's mute: the Sound button the kiosk offers mutes the terminal at a touch and lifts
// the mute at the next, its speaker crossed out while muted; it reads in the screen's language;
// and on every design, at both sizes, in both languages, it stands clear of every other button
// of the controls row, the row within the screen (TestKioskSizesUseTheScreen checks the whole
// screen with it offered).
func TestSoundButtonMutesTheTerminalAndStandsClear(t *testing.T) {
	restoreLanguage(t)
	l := roulette.Layout{Wheel: roulette.SingleZero}
	for _, language := range []string{"en", "zh_Hans"} {
		if err := SetLanguage(language); err != nil {
			t.Fatal(err)
		}
		test.NewTempApp(t)
		for _, size := range []fyne.Size{fyne.NewSize(1920, 1080), fyne.NewSize(1280, 800)} {
			for _, d := range diagrams.Designs {
				where := language + " " + d.Name
				s, term, _, w := screenAt(t, d, l, size)
				if s.sound.button.Visible() {
					t.Fatalf("%s: a Sound button on a screen the kiosk offered none", where)
				}
				s.OfferSound()
				s.OfferLanguages(func(string) {})
				w.SetPadded(false)
				w.Resize(size)
				w.Content().Refresh()
				b := s.sound.button
				if want := map[string]string{"en": "Sound", "zh_Hans": "声音"}[language]; b.Text != want {
					t.Fatalf("%s: the button reads %q, want %q", where, b.Text, want)
				}
				drv := fyne.CurrentApp().Driver()
				at := drv.AbsolutePositionForObject(b)
				end := at.Add(b.Size())
				if b.Size().Width < b.MinSize().Width || end.X > size.Width || end.Y > size.Height {
					t.Errorf("%s %v: the button at %v–%v, %v wide of the %v it needs", where, size, at, end, b.Size().Width, b.MinSize().Width)
				}
				others := append([]fyne.CanvasObject{}, s.controls.Objects...)
				others = append(others, s.favourites.box.Objects[1:]...) // Save favourite
				others = append(others, s.chips.Objects...)
				for _, o := range s.bettingCtl {
					others = append(others, o)
				}
				for _, o := range others {
					if !o.Visible() || o.Size().Width == 0 {
						continue
					}
					oa := drv.AbsolutePositionForObject(o)
					oe := oa.Add(o.Size())
					if at.X < oe.X && oa.X < end.X && at.Y < oe.Y && oa.Y < end.Y {
						t.Errorf("%s %v: the Sound button (%v–%v) overlaps a button at %v–%v", where, size, at, end, oa, oe)
					}
				}
				test.Tap(b)
				if !term.View().Muted {
					t.Fatalf("%s: a touch of Sound did not mute the terminal", where)
				}
				s.update(term.View())
				if b.Icon != theme.VolumeMuteIcon() {
					t.Fatalf("%s: muted, the button's icon is %v", where, b.Icon.Name())
				}
				test.Tap(b)
				if term.View().Muted {
					t.Fatalf("%s: a second touch of Sound did not lift the mute", where)
				}
				s.update(term.View())
				if b.Icon != theme.VolumeUpIcon() {
					t.Fatalf("%s: unmuted, the button's icon is %v", where, b.Icon.Name())
				}
			}
		}
	}
}
