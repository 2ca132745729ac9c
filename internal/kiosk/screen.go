package kiosk

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/station"
	"github.com/tablegames/ats/diagrams"
	// What Fyne reads from the environment as it initialises, set before Fyne's own packages
	// initialise: English for the POSIX locale, its caches' lifetime (issue 18).
	"github.com/tablegames/ats/internal/fyneenv"
	"github.com/tablegames/ats/internal/idleloop"
	"github.com/tablegames/ats/ui"
)

// showScreen runs the Fyne app with the station's screen, in design o.design, until the window
// closes. stopped is called when the app stops and firstFrame when the window first shows.
func showScreen(ctx context.Context, st *station.Station, view app.View, o options, stopped, firstFrame func()) error {
	a := fyneapp.NewWithID("com.tablegames.ats")
	// Stop the background updates with the app, so none reaches a stopped Fyne thread.
	a.Lifecycle().SetOnStopped(stopped)
	a.Lifecycle().SetOnEnteredForeground(firstFrame)
	a.Settings().SetTheme(ui.Theme())
	w := a.NewWindow("ATS")
	// Fyne's loop sleeps while the screen is at rest, and wakes for a touch or a change.
	idle := idleloop.New()
	// A screen at rest is redrawn before Fyne's caches drop what it shows (keepdrawn.go).
	var changed atomic.Int64
	changed.Store(time.Now().UnixNano())
	a.Lifecycle().SetOnStarted(func() {
		go idle.Run(ctx, w)
		if every := fyneenv.Lifetime() / 4; every > 0 {
			t := time.NewTicker(every)
			go func() {
				defer t.Stop()
				keepDrawn(ctx, every, t.C, &changed, func() {
					fyne.Do(func() { w.Canvas().Refresh(w.Content()) })
					idle.Wake()
				})
			}()
		}
	})
	noDepthBuffer()
	// The screen is built again in the language a player chooses (its texts are made when it is
	// built); the new one follows the terminal in place of the old, whose countdown stops.
	var (
		screen     *ui.Screen
		stopScreen context.CancelFunc = func() {}
	)
	var build func() error
	build = func() error {
		s, err := ui.NewScreen(st.Terminal, designOf(o.design), view.Config.Layout)
		if err != nil {
			return err
		}
		s.TakeOver(screen)  // the spread the player chose stays in the new language (nil at first)
		if st.Desk != nil { // technician mode (technician.go)
			var panel *ui.TouchPanel
			if o.technicianDemo {
				panel = demoPanel()
			}
			s.AttachService(st.Desk, panel)
		}
		// The cues play through internal/sound (run.go), which the player may mute.
		s.OfferSound()
		s.OfferLanguages(func(code string) { // on the Fyne thread: a touch
			if err := ui.SetLanguage(code); err != nil {
				slog.Error("kiosk: language", "code", code, "err", err)
				return
			}
			a.Settings().SetTheme(ui.Theme())
			if err := build(); err != nil {
				slog.Error("kiosk: the screen in the new language", "code", code, "err", err)
			}
		})
		s.ScheduleWith(func(f func()) {
			fyne.Do(func() {
				f()
				// The screen schedules a look at the view every second, changed or not: only one
				// that will be drawn counts as a change (the canvas is dirty).
				if toBeDrawn(w.Canvas()) {
					changed.Store(time.Now().UnixNano())
				}
			})
			idle.Wake()
		})
		stopScreen()
		var sctx context.Context
		sctx, stopScreen = context.WithCancel(ctx)
		s.Follow(sctx)
		ui.SetContent(w, s.Content())
		screen = s
		return nil
	}
	if err := build(); err != nil {
		return err
	}
	defer func() { stopScreen() }()
	w.Resize(fyne.NewSize(1920, 1080))
	if !o.windowed {
		ui.Kiosk(w)
	}
	if o.technicianDemo {
		go enterTechnicianDemo(ctx, st, screen, slog.Default())
	}
	w.ShowAndRun()
	return nil
}

// noDepthBuffer asks GLFW for a window without depth and stencil buffers: Fyne's painter uses
// neither, and at 1920×1080 they are 8 MB the GL driver allocates and clears every frame for
// nothing. GLFW's hints apply to the next window it creates; NewWindow has initialised GLFW
// and Show creates the window, both on this (the main) thread.
func noDepthBuffer() {
	glfw.WindowHint(glfw.DepthBits, 0)
	glfw.WindowHint(glfw.StencilBits, 0)
}

// designOf maps the -design flag to a screen design; anything unknown is design A.
func designOf(name string) diagrams.Design {
	switch name {
	case "L":
		return diagrams.DiagramL
	case "U":
		return diagrams.DiagramU
	}
	return diagrams.DiagramA
}

// toBeDrawn reports, on the Fyne thread, whether the canvas is to be drawn at the loop's next
// turn. fyne.Canvas does not say; Fyne's GLFW canvas does, through its CheckDirtyAndClear and
// SetDirty (exported methods of its concrete type): the flag is read and set again. A canvas that
// cannot say is taken to be drawn (keepDrawn then redraws only a screen that schedules nothing).
func toBeDrawn(c fyne.Canvas) bool {
	d, ok := c.(interface {
		CheckDirtyAndClear() bool
		SetDirty()
	})
	if !ok {
		return true
	}
	dirty := d.CheckDirtyAndClear()
	if dirty {
		d.SetDirty()
	}
	return dirty
}
