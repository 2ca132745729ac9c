package app

import (
	"errors"
	"slices"
	"testing"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app/roulette"
)

// A player saves the slip as a favourite and places it again later: as it was, through the
// limits and the balance, as one undo step; the same slip is kept once, the oldest goes past
// MaxFavourites, and the favourites go with the player when the account closes.
func TestFavourites(t *testing.T) {
	h := newHarness(t)
	var favs Favourites
	if _, err := favs.Save(h.term.View()); !errors.Is(err, ErrNothingToSave) {
		t.Fatalf("an empty slip saved: %v", err)
	}
	s17, red := spot(t, roulette.Straight, 17), outside(t, roulette.Red, 0)
	h.term.SelectChip(500)
	h.term.Place(s17)
	h.term.Place(s17)
	h.term.Place(red)
	fav, err := favs.Save(h.term.View())
	if err != nil || fav.Total != 1500 || len(fav.Stakes) != 2 {
		t.Fatalf("saved %+v, %v", fav, err)
	}
	want := slices.Clone(h.term.View().Stakes)

	if err := h.term.Clear(); err != nil {
		t.Fatal(err)
	}
	if err := h.term.PlaceFavourite(favs.List()[0]); err != nil {
		t.Fatal(err)
	}
	if got := h.term.View().Stakes; !slices.Equal(got, want) {
		t.Fatalf("placed again: %+v, want %+v", got, want)
	}
	h.term.Undo() // one step takes the whole favourite back
	if got := h.term.View().Stakes; len(got) != 0 {
		t.Fatalf("after one undo: %+v", got)
	}

	// Less money now: the favourite goes through what the balance covers (rule 4.3).
	h.link.Push(table.BalanceChanged{Balance: 1200})
	h.waitFor(func(v View) bool { return v.Balance == 1200 })
	if err := h.term.PlaceFavourite(fav); err != nil {
		t.Fatal(err)
	}
	v := h.term.View()
	if len(v.Stakes) != 2 || v.Stakes[0].Amount != 1000 || v.Stakes[1].Amount != 200 || v.Message.IsZero() {
		t.Fatalf("with 12.00: %+v, %q", v.Stakes, v.Message)
	}

	// Saved once; the newest MaxFavourites kept.
	favs.Save(h.term.View())
	favs.Save(h.term.View())
	if n := len(favs.List()); n != 2 {
		t.Fatalf("%d favourites after saving the same slip twice", n)
	}
	for i := range MaxFavourites {
		h.term.Clear()
		h.term.SelectChip(100)
		for range i + 1 {
			h.term.Place(red)
		}
		favs.Save(h.term.View())
	}
	list := favs.List()
	if len(list) != MaxFavourites || list[0].Total != 100 || list[MaxFavourites-1].Total != int64(MaxFavourites)*100 {
		t.Fatalf("kept %+v", list)
	}

	// No more bets: a favourite is refused like any touch.
	h.link.Push(table.PhaseChanged{Phase: table.PhaseNoMoreBets, RoundID: "R1"})
	h.waitFor(func(v View) bool { return v.Phase == table.PhaseNoMoreBets })
	if err := h.term.PlaceFavourite(fav); !errors.Is(err, ErrLocked) {
		t.Fatalf("a favourite after the deadline: %v", err)
	}

	// The next player does not find them.
	if favs.Seen(h.term.View()) || len(favs.List()) != MaxFavourites {
		t.Fatal("favourites forgotten while the account is open")
	}
	h.link.Push(table.AccountClosed{Reason: "cash-out", Amount: 1200, Ticket: &table.Ticket{Validation: "001234567890123456", Amount: 1200}})
	v = h.waitFor(func(v View) bool { return !v.AccountOpen })
	if !favs.Seen(v) || len(favs.List()) != 0 {
		t.Fatalf("after the cash-out: %+v", favs.List())
	}
}
