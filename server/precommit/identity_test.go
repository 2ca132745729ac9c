package precommit

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/server/ledger"
)

var (
	jane = Person{Name: "Jane Citizen", IDType: "Passport", IDNumber: "pa 123-4567"}
	john = Person{Name: "John Smith", IDType: "driver licence", IDNumber: "DL99887766"}
)

// SPEC §10 (the card tied to a verified identity): a card registered to one person is not
// registered to another until the first registration is ended (reported lost), at any table
// of the floor; registering it again to the same person changes nothing.
func TestSPEC10_CardNotReregisteredToAnotherUntilLost(t *testing.T) {
	bothStores(t, 2, func(t *testing.T, ss []*LedgerStore) {
		if _, _, err := ss[0].RegisterTo(ctx, "C1", jane, "cashier:K1", t0); err != nil {
			t.Fatal(err)
		}
		_, _, err := ss[1].RegisterTo(ctx, "C1", john, "cashier:K2", t0.Add(time.Minute))
		refusedFor(t, err, "owned")
		if !strings.Contains(err.Error(), "Jane Citizen, passport ending 567") {
			t.Fatalf("the refusal names the holder: %v", err)
		}
		// Barred is still Jane's: not John's either.
		if _, err := ss[1].Report(ctx, "C1", Barred, "cashier:K2", "self-exclusion", t0.Add(2*time.Minute)); err != nil {
			t.Fatal(err)
		}
		_, _, err = ss[0].RegisterTo(ctx, "C1", john, "cashier:K1", t0.Add(3*time.Minute))
		refusedFor(t, err, "owned")
		if _, err := ss[0].Report(ctx, "C1", Lost, "cashier:K1", "holder phoned", t0.Add(4*time.Minute)); err != nil {
			t.Fatal(err)
		}
		c, reg, err := ss[1].RegisterTo(ctx, "C1", john, "cashier:K2", t0.Add(5*time.Minute))
		if err != nil || c.State != Registered || reg.Name != "John Smith" || reg.IDTail != "766" || reg.By != "cashier:K2" {
			t.Fatalf("after lost, to another: %+v %+v %v", c, reg, err)
		}
		// The same person again: answered, nothing changes.
		c2, reg2, err := ss[0].RegisterTo(ctx, "C1", Person{Name: "John Smith", IDType: "Driver Licence", IDNumber: "dl-9988 7766"}, "cashier:K1", t0.Add(6*time.Minute))
		if err != nil || c2.State != Registered || reg2.By != "cashier:K2" || !reg2.Since.Equal(reg.Since) {
			t.Fatalf("the same person again: %+v %+v %v", c2, reg2, err)
		}
	})
}

// The document's number is never stored in clear: the owner row has its tail and a digest.
func TestSPEC10_IdentityNumberNotStoredInClear(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		if _, _, err := ss[0].RegisterTo(ctx, "C1", jane, "cashier:K1", t0); err != nil {
			t.Fatal(err)
		}
		var o ledger.CardOwner
		if err := ss[0].L.Update(ctx, t0, func(tx *ledger.Tx) error {
			var err error
			o, _, err = tx.CardOwner("C1")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if o.IDTail != "567" || len(o.IDDigest) != 64 || strings.Contains(o.IDDigest, "1234567") {
			t.Fatalf("owner row: %+v", o)
		}
		evs, err := ss[0].L.Events(ctx, "precommit", 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if strings.Contains(e.Detail, "1234567") {
				t.Fatalf("the journal has the number in clear: %s", e.Detail)
			}
		}
	})
}

// One person, one card; and limits follow the person: a second card for a document
// registered to a card not lost is refused; after the first is reported lost, the new card
// takes its limits, play and bar, so a lost card is no way out of a bar.
func TestSPEC10_OnePersonOneCardLimitsFollowThePerson(t *testing.T) {
	bothStores(t, 2, func(t *testing.T, ss []*LedgerStore) {
		if _, _, err := ss[0].RegisterTo(ctx, "C1", jane, "cashier:K1", t0); err != nil {
			t.Fatal(err)
		}
		if _, err := ss[0].SetLimits(ctx, "C1", dayLimits, t0); err != nil {
			t.Fatal(err)
		}
		h := Hold{Card: "C1", Table: "T1", Terminal: "T01", Round: "R1"}
		if _, err := ss[0].Stake(ctx, h, 10000, t0); err != nil {
			t.Fatal(err)
		}
		_, _, err := ss[1].RegisterTo(ctx, "C2", jane, "cashier:K2", t0.Add(time.Minute))
		refusedFor(t, err, "identity")
		if _, err := ss[1].Report(ctx, "C1", Lost, "cashier:K2", "lost", t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		// A stake of the lost card still open: not yet.
		_, _, err = ss[1].RegisterTo(ctx, "C2", jane, "cashier:K2", t0.Add(2*time.Minute))
		refusedFor(t, err, "identity")
		if _, err := ss[0].Settle(ctx, h, 10000, 0, t0.Add(3*time.Minute)); err != nil { // lost it all: barred a day
			t.Fatal(err)
		}
		c, _, err := ss[1].RegisterTo(ctx, "C2", jane, "cashier:K2", t0.Add(4*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if c.Limits != dayLimits || c.BarredFor != "loss" || !c.BarredUntil.Equal(t0.Add(3*time.Minute+BarDay)) || c.NetLoss() != 10000 {
			t.Fatalf("the new card does not carry the person's limits and bar: %+v", c)
		}
		if _, err := ss[0].Stake(ctx, Hold{Card: "C2", Table: "T1", Terminal: "T01", Round: "R2"}, 100, t0.Add(5*time.Minute)); err == nil {
			t.Fatal("a new card took a wager during its holder's bar")
		}
		// The lost card given to someone else starts with no limits of Jane's.
		c1, _, err := ss[0].RegisterTo(ctx, "C1", john, "cashier:K1", t0.Add(6*time.Minute))
		if err != nil || c1.Limits.Set() || c1.NetLoss() != 0 || !c1.BarredUntil.IsZero() {
			t.Fatalf("card C1 to a new person: %+v %v", c1, err)
		}
	})
}

// Bad input is refused with what is wrong, never recorded half.
func TestSPEC10_RegistrationNeedsTheIdentity(t *testing.T) {
	bothStores(t, 1, func(t *testing.T, ss []*LedgerStore) {
		for _, p := range []Person{{IDType: "passport", IDNumber: "PA1234567"}, {Name: "Jane", IDNumber: "PA1234567"},
			{Name: "Jane", IDType: "passport"}, {Name: "Jane", IDType: "passport", IDNumber: "12"}, {Name: "Jane\nX", IDType: "passport", IDNumber: "PA1234567"}} {
			if _, _, err := ss[0].RegisterTo(ctx, "C1", p, "cashier:K1", t0); err == nil {
				t.Fatalf("%+v registered", p)
			}
		}
		if _, _, err := ss[0].RegisterTo(ctx, "C1", jane, "", t0); err == nil {
			t.Fatal("registered by no one")
		}
		if _, err := ss[0].Card(ctx, "C1", t0); !errors.Is(err, ErrUnknown) {
			t.Fatalf("a refused registration left a card: %v", err)
		}
		if _, err := ss[0].Report(ctx, "C9", Lost, "cashier:K1", "lost", t0); err == nil {
			t.Fatal("an unknown card reported lost")
		}
	})
}
