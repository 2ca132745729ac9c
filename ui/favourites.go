package ui

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
)

// favouritesRow is "Save favourite" and a button for each favourite the player saved, beside
// the chips: a slip kept, placed again with one touch (the keeping and placing are app's).
type favouritesRow struct {
	term  Model
	shown []app.Favourite // the favourites the buttons are for
	cur   string          // the table's currency, the buttons' totals are in
	box   *fyne.Container
	flow  *flow
	view  *container.ThemeOverride // the box at the controls' size
	lead  fyne.CanvasObject        // the Sound button, first in the row; nil for none
	// changed is called when the buttons changed, which may take the row another line.
	changed func()
}

func newFavouritesRow(term Model, sizing *touchSizing, lead fyne.CanvasObject) *favouritesRow {
	r := &favouritesRow{term: term, flow: &flow{}, lead: lead}
	r.box = container.New(r.flow)
	r.view = sizing.sized(r.box, nil, nil)
	r.refresh()
	return r
}

// refresh rebuilds the buttons from the favourites.
func (r *favouritesRow) refresh() {
	r.box.RemoveAll()
	if r.lead != nil {
		r.box.Add(r.lead) // the Sound button (sound.go): hidden, and so taking no room, until offered
	}
	// The terminal says what became of a touch here (saved, refused) on the message line.
	r.box.Add(widget.NewButtonWithIcon(T("Save favourite"), theme.DocumentSaveIcon(), func() { r.term.SaveFavourite() }))
	for _, f := range r.shown {
		r.box.Add(widget.NewButton(T("Favourite")+" "+inCurrency(r.cur, f.Total), func() { r.term.PlaceFavourite(f) }))
	}
	restyle(r.view)
	if r.changed != nil {
		r.changed()
	}
}

// seen follows the view: the favourites go when the account closes.
func (r *favouritesRow) seen(v app.View) {
	same := len(v.Favourites) == len(r.shown) && v.Config.Currency == r.cur
	for i := 0; same && i < len(r.shown); i++ {
		same = v.Favourites[i].Total == r.shown[i].Total && slices.Equal(v.Favourites[i].Stakes, r.shown[i].Stakes)
	}
	if !same {
		r.shown, r.cur = v.Favourites, v.Config.Currency
		r.refresh()
	}
}
