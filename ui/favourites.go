package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app"
)

// favouritesRow is "Save favourite" and a button for each favourite the player saved, beside
// the chips: a slip kept, placed again with one touch (the keeping and placing are app's).
type favouritesRow struct {
	term *app.Terminal
	favs app.Favourites
	say  func(string) // the message line
	box  *fyne.Container
	flow *flow
	view *container.ThemeOverride // the box at the controls' size
	// changed is called when the buttons changed, which may take the row another line.
	changed func()
}

func newFavouritesRow(term *app.Terminal, say func(string), sizing *touchSizing) *favouritesRow {
	r := &favouritesRow{term: term, say: say, flow: &flow{}}
	r.box = container.New(r.flow)
	r.view = sizing.sized(r.box, nil, nil)
	r.refresh()
	return r
}

// refresh rebuilds the buttons from the favourites.
func (r *favouritesRow) refresh() {
	r.box.RemoveAll()
	r.box.Add(widget.NewButtonWithIcon(T("Save favourite"), theme.DocumentSaveIcon(), r.save))
	for _, f := range r.favs.List() {
		f := f
		r.box.Add(widget.NewButton(T("Favourite")+" "+amount(f.Total), func() {
			if err := r.term.PlaceFavourite(f); err != nil {
				r.say(sayErr(err))
			}
		}))
	}
	restyle(r.view)
	if r.changed != nil {
		r.changed()
	}
}

func (r *favouritesRow) save() {
	f, err := r.favs.Save(r.term.View())
	if err != nil {
		r.say(sayErr(err))
		return
	}
	r.say(fmt.Sprintf(T("Saved as a favourite: %s"), amount(f.Total)))
	r.refresh()
}

// seen follows the view: the favourites go when the account closes.
func (r *favouritesRow) seen(v app.View) {
	if r.favs.Seen(v) {
		r.refresh()
	}
}
