package ui

import (
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
)

// soundButton is the player's mute (View.Muted, Model.SetMuted): "Sound" with a speaker that is
// crossed out while the terminal is muted. The level is the technician's; the player can only
// silence the terminal. It stands first in the chip tray's right-hand row, before Save
// favourite — the player's own choices — where a 1280×800 screen has room (the controls row
// has none left there); hidden, and taking no room, until the kiosk offers it (OfferSound), as
// a terminal without the sound output has nothing to mute.
type soundButton struct {
	button *widget.Button
	muted  bool
}

func newSoundButton(term Model) *soundButton {
	b := &soundButton{}
	b.button = widget.NewButtonWithIcon(T("Sound"), theme.VolumeUpIcon(), func() { term.SetMuted(!b.muted) })
	b.button.Hide()
	return b
}

// update shows the mute as the view has it.
func (b *soundButton) update(v app.View) {
	if v.Muted == b.muted {
		return
	}
	b.muted = v.Muted
	if b.muted {
		b.button.SetIcon(theme.VolumeMuteIcon())
	} else {
		b.button.SetIcon(theme.VolumeUpIcon())
	}
}

// OfferSound puts the Sound button in the controls row: the kiosk plays the terminal's cues, so
// the player may mute them. Call it before the screen is shown, as OfferLanguages.
func (s *Screen) OfferSound() {
	s.sound.button.Show()
	s.relayout()
}
