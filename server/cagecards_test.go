package server

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/pki"
)

var (
	holderJane = &pb.PatronIdentity{Name: "Jane Citizen", IdType: "passport", IdNumber: "PA1234567"}
	holderJohn = &pb.PatronIdentity{Name: "John Smith", IdType: "driver licence", IdNumber: "DL99887766"}
)

// SPEC §10 over gRPC: a cashier registers a card to the person whose document they checked;
// the card is then refused to another person until it is reported lost; a card reported lost
// or barred takes no wager; every change and refusal is journalled naming the cashier; the
// document's number is nowhere in the answer or the journal.
func TestSPEC10_CageRegistersACardToAPerson(t *testing.T) {
	bothStoresWith(t, cardedTable, func(t *testing.T, r *rig) {
		k1, k2 := r.cashier("K1"), r.cashier("K2")
		pc, err := k1.RegisterCard(ctx, &pb.RegisterCardRequest{CardId: "C42", Holder: holderJane})
		if err != nil {
			t.Fatal(err)
		}
		if pc.State != "registered" || pc.HolderName != "Jane Citizen" || pc.IdType != "passport" || pc.IdTail != "567" ||
			pc.RegisteredBy != "cashier:K1" || pc.RegisteredUnixNanos != r.clock.Now().UnixNano() || pc.LossLimit != 0 {
			t.Fatalf("registered: %v", pc)
		}
		// Another person: refused, naming the holder, until the card is reported lost.
		_, err = k2.RegisterCard(ctx, &pb.RegisterCardRequest{CardId: "C42", Holder: holderJohn})
		refusedSaying(t, err, "registered to Jane Citizen, passport ending 567")
		// The player sets limits and plays.
		if _, err := r.cards().SetLimits(ctx, "C42", limit100, r.clock.Now()); err != nil {
			t.Fatal(err)
		}
		c, round := openRound(t, r, "T1", 50000)
		if _, err := redSlip(c, round, 1, 500, "C42"); err != nil {
			t.Fatal(err)
		}
		look, err := k2.LookupCard(ctx, &pb.LookupCardRequest{CardId: "C42"})
		if err != nil || look.LossLimit != 10000 || look.HeldBy != "T1/T1" || look.NetLoss != 0 || look.Reserved != 10000 {
			t.Fatalf("lookup: %v %v", look, err)
		}
		r.finish(t, round, "2")
		// Reported lost: no wager from the next round, and the card may pass to John.
		lost, err := k2.ReportCard(ctx, &pb.ReportCardRequest{CardId: "C42", State: "lost", Reason: "holder phoned"})
		if err != nil || lost.State != "lost" || lost.HolderName != "Jane Citizen" {
			t.Fatalf("lost: %v %v", lost, err)
		}
		st, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c, st.RoundId, 1, 500, "C42")), "reported lost")
		pc, err = k2.RegisterCard(ctx, &pb.RegisterCardRequest{CardId: "C42", Holder: holderJohn})
		if err != nil || pc.HolderName != "John Smith" || pc.RegisteredBy != "cashier:K2" || pc.LossLimit != 0 || pc.NetLoss != 0 {
			t.Fatalf("to John after lost: %v %v", pc, err)
		}
		// Barred: refused at the seat until registered again.
		if _, err := r.cards().SetLimits(ctx, "C42", limit100, r.clock.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := k1.ReportCard(ctx, &pb.ReportCardRequest{CardId: "C42", State: "barred", Reason: "self-exclusion"}); err != nil {
			t.Fatal(err)
		}
		refusedSaying(t, errOf(redSlip(c, st.RoundId, 2, 500, "C42")), "barred from play")
		journal := strings.Join(r.auditOf("precommit"), "\n")
		for _, want := range []string{
			"cashier:K1  card C42: registered to Jane Citizen, passport ending 567, checked by cashier:K1",
			"cashier:K2  card C42: refused (owned)",
			"cashier:K2  card C42: lost by cashier:K2: holder phoned",
			"cashier:K2  card C42: registered to John Smith, driver licence ending 766, checked by cashier:K2",
			"cashier:K1  card C42: barred by cashier:K1: self-exclusion",
		} {
			if !strings.Contains(journal, want) {
				t.Errorf("journal lacks %q:\n%s", want, journal)
			}
		}
		if strings.Contains(journal, "1234567") || strings.Contains(journal, "99887766") {
			t.Fatalf("the journal has a document number in clear:\n%s", journal)
		}
	})
}

// A card registered at the cage through one table server binds at another table of the floor.
func TestSPEC10_CageRegistrationBindsFloorWide(t *testing.T) {
	rs := floorRigs(t, 2, cardedTable)
	if _, err := rs[0].cashier("K1").RegisterCard(ctx, &pb.RegisterCardRequest{CardId: "C7", Holder: holderJane}); err != nil {
		t.Fatal(err)
	}
	// Jane's second card, at the other table's cage: one person, one card.
	_, err := rs[1].cashier("K2").RegisterCard(ctx, &pb.RegisterCardRequest{CardId: "C8", Holder: holderJane})
	refusedSaying(t, err, "registered to card C7")
	if _, err := rs[1].cards().SetLimits(ctx, "C7", limit100, rs[1].clock.Now()); err != nil {
		t.Fatal(err)
	}
	c := rs[1].terminal("T01")
	if err := rs[1].buyIn(c, "T01", "b", 50000); err != nil {
		t.Fatal(err)
	}
	st, err := rs[1].dealer.StartRound(ctx, &pb.StartRoundRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := redSlip(c, st.RoundId, 1, 500, "C7"); err != nil {
		t.Fatalf("a card registered at T1's cage plays at T2: %v", err)
	}
}

// Bad input is refused with what is wrong; only a cashier registers or reports a card.
func TestSPEC10_CageCardCallsRefuseBadInputAndOtherRoles(t *testing.T) {
	r := newRigWith(t, cardedTable)
	k := r.cashier("K1")
	for _, req := range []*pb.RegisterCardRequest{
		{CardId: "", Holder: holderJane},
		{CardId: "C 1", Holder: holderJane},
		{CardId: "C1"},
		{CardId: "C1", Holder: &pb.PatronIdentity{Name: "Jane", IdType: "passport"}},
		{CardId: "C1", Holder: &pb.PatronIdentity{IdType: "passport", IdNumber: "PA1234567"}},
	} {
		if _, err := k.RegisterCard(ctx, req); code(err) != codes.InvalidArgument {
			t.Errorf("%v: %v, want InvalidArgument", req, err)
		}
	}
	if _, err := k.ReportCard(ctx, &pb.ReportCardRequest{CardId: "C1", State: "stolen", Reason: "x"}); code(err) != codes.InvalidArgument {
		t.Errorf("state stolen: %v", err)
	}
	if _, err := k.ReportCard(ctx, &pb.ReportCardRequest{CardId: "C1", State: "lost"}); code(err) != codes.InvalidArgument {
		t.Errorf("no reason: %v", err)
	}
	if _, err := k.ReportCard(ctx, &pb.ReportCardRequest{CardId: "C1", State: "lost", Reason: "x"}); code(err) != codes.FailedPrecondition {
		t.Errorf("an unknown card reported: %v", err)
	}
	if _, err := k.LookupCard(ctx, &pb.LookupCardRequest{CardId: "C1"}); code(err) != codes.NotFound {
		t.Errorf("an unknown card looked up: %v", err)
	}
	for _, who := range []struct{ role, id string }{{pki.RoleTerminal, "T01"}, {pki.RoleDealer, "D1"}, {pki.RoleSupervisor, "S1"}} {
		c := pb.NewCageServiceClient(r.dial(who.role, who.id))
		if _, err := c.RegisterCard(ctx, &pb.RegisterCardRequest{CardId: "C1", Holder: holderJane}); code(err) != codes.PermissionDenied {
			t.Errorf("%s RegisterCard: %v", who.role, err)
		}
		if _, err := c.ReportCard(ctx, &pb.ReportCardRequest{CardId: "C1", State: "lost", Reason: "x"}); code(err) != codes.PermissionDenied {
			t.Errorf("%s ReportCard: %v", who.role, err)
		}
	}
	if _, err := pb.NewCageServiceClient(r.dial(pki.RoleSupervisor, "S1")).LookupCard(ctx, &pb.LookupCardRequest{CardId: "C1"}); code(err) != codes.NotFound {
		t.Errorf("supervisor LookupCard: %v", err)
	}
}
