package app

import (
	"slices"
	"sync"

	"github.com/tablegames/ats/app/msg"
)

// Favourites are the slips a player saved to place again with one touch (issue 4: "saved
// favourite bets"). They are the player's, not the terminal's: they are forgotten when the
// chip account closes — a cash-out, or the dealer closing it — so the next player at the kiosk
// does not find them. They live in memory only: a favourite is a convenience, not a record,
// and a favourite placed again goes through the limits and the balance like any touch.
type Favourites struct {
	mu    sync.Mutex
	saved []Favourite
}

// Favourite is one saved slip.
type Favourite struct {
	Stakes []Stake // as placed: the total of an ordinary bet, the per-piece amount of a call bet
	Total  int64   // what the slip had on the layout when it was saved
}

// MaxFavourites is how many a player keeps; saving one more forgets the oldest.
const MaxFavourites = 4

// ErrNothingToSave refuses to save an empty slip.
var ErrNothingToSave = msg.Err("place some bets first, then save them as a favourite")

// Save keeps the slip shown in v as a favourite, the newest last. A slip already saved is not
// saved twice: it becomes the newest.
func (f *Favourites) Save(v View) (Favourite, error) {
	if len(v.Stakes) == 0 {
		return Favourite{}, ErrNothingToSave
	}
	// The player's own stakes only: the dealer's (DealerStakes) were placed for one round.
	fav := Favourite{Stakes: slices.Clone(v.Stakes), Total: v.SlipTotal - dealerTotal(v.DealerStakes, v.Config.Layout)}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saved = slices.DeleteFunc(f.saved, func(s Favourite) bool { return slices.Equal(s.Stakes, fav.Stakes) })
	f.saved = append(f.saved, fav)
	if len(f.saved) > MaxFavourites {
		f.saved = f.saved[len(f.saved)-MaxFavourites:]
	}
	return fav, nil
}

// List returns the favourites, the oldest first.
func (f *Favourites) List() []Favourite {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.saved)
}

// Seen follows the terminal's view: once the chip account is closed the favourites are
// forgotten. It reports whether that changed the list.
func (f *Favourites) Seen(v View) bool {
	if v.AccountOpen {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	had := len(f.saved) > 0
	f.saved = nil
	return had
}

// PlaceFavourite replaces the slip with a favourite, each stake through the limits and what
// the balance covers, in the order it was placed, as one undo step (as Repeat does).
func (t *Terminal) PlaceFavourite(fav Favourite) error {
	if len(fav.Stakes) == 0 {
		return ErrNothingToPlace
	}
	return t.rebuild(func(s Stake) int64 { return s.Amount }, fav.Stakes)
}
