// Command ats is the player terminal (ATS) of an electronic multi-player roulette table: the
// Fyne kiosk. With no table server configured it runs in demo mode.
package main

import (
	"log"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/diagrams"
	"github.com/tablegames/ats/ui"
)

func main() {
	geom, err := diagrams.New(roulette.Layout{Wheel: roulette.SingleZero})
	if err != nil {
		log.Fatal(err)
	}
	a := app.NewWithID("com.tablegames.ats")
	w := a.NewWindow("ATS")
	w.SetContent(ui.NewFelt(geom))
	w.Resize(fyne.NewSize(1280, 800))
	w.ShowAndRun()
}
