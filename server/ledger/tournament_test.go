package ledger

import (
	"context"
	"testing"
	"time"
)

// A tournament's record is written, replaced and read back the same on both stores, the most
// recently changed one first, and survives a reopen sealed.
func TestTournamentRecords(t *testing.T) {
	stores(t, func(t *testing.T, s *store) {
		ctx := context.Background()
		l := s.open(t)
		put := func(r TournamentRecord) {
			t.Helper()
			if err := l.Update(ctx, now, func(tx *Tx) error { return tx.PutTournament(r) }); err != nil {
				t.Fatal(err)
			}
		}
		put(TournamentRecord{ID: "TN1", Status: "open", State: []byte(`{"players":1}`), Created: now, Updated: now})
		put(TournamentRecord{ID: "TN2", Status: "open", State: []byte{0, 1, 2, 255}, Created: now, Updated: now.Add(time.Minute)})
		put(TournamentRecord{ID: "TN1", Status: "finished", State: []byte(`{"players":2}`), Created: now, Updated: now.Add(2 * time.Minute)})
		l.Close()
		l = s.open(t)
		r, ok, err := l.Tournament(ctx, "TN1")
		if err != nil || !ok || r.Status != "finished" || string(r.State) != `{"players":2}` || !r.Created.Equal(now) || !r.Updated.Equal(now.Add(2*time.Minute)) {
			t.Fatalf("TN1: %+v %v %v", r, ok, err)
		}
		if r, ok, err := l.LatestTournament(ctx); err != nil || !ok || r.ID != "TN1" {
			t.Fatalf("latest: %+v %v %v", r, ok, err)
		}
		if r, _, _ := l.Tournament(ctx, "TN2"); string(r.State) != "\x00\x01\x02\xff" {
			t.Fatalf("TN2's bytes: %q", r.State)
		}
		if _, ok, err := l.Tournament(ctx, "none"); ok || err != nil {
			t.Fatalf("no such tournament: %v %v", ok, err)
		}
	})
}
