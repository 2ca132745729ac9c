// Command ats is the player terminal (ATS) of an electronic multi-player roulette table.
package main

import (
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	a := app.NewWithID("com.tablegames.ats")
	w := a.NewWindow("ATS")
	w.SetContent(widget.NewLabel("ATS"))
	w.ShowAndRun()
}
