package meters

import (
	"testing"

	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/recall"
)

// The meters count each money record once by its kind: notes by value, tickets in and out,
// handpays, and the dealer's credits (confirmed, not merely accepted) and closes.
func TestOf(t *testing.T) {
	m := Of([]journal.Record{
		{Kind: "note-escrow", Key: "note:65:a", Amount: 2000},
		{Kind: "credited", Key: "note:65:a", Amount: 2000},
		{Kind: "credited", Key: "note:67:b", Amount: 10000},
		{Kind: "credited", Key: "note:65:c", Amount: 2000},
		{Kind: "credited", Key: "ticket:1234:d", Amount: 4550},
		{Kind: "ticket-issued", Key: "cashout:-:e", Amount: 3000},
		{Kind: "ticket-confirmed", Key: "cashout:-:e", Amount: 3000},
		{Kind: "handpay", Key: "cashout:-:f", Amount: 50000},
		{Kind: recall.KindBuyInAccepted, Amount: 50000},
		{Kind: recall.KindBuyInConfirmed, Amount: 50000},
		{Kind: recall.KindDealerCashOut, Amount: 700},
		{Kind: "technician-in"},
	})
	if m.NotesIn != 14000 || m.Notes[2000] != 2 || m.Notes[10000] != 1 || m.TicketsIn != 4550 || m.TicketsInN != 1 ||
		m.TicketsOut != 3000 || m.TicketsOutN != 1 || m.Handpays != 50000 || m.HandpayN != 1 || m.DealerIn != 50000 || m.DealerOut != 700 {
		t.Fatalf("%+v", m)
	}
	if vs := m.NoteValues(); len(vs) != 2 || vs[0] != 2000 || vs[1] != 10000 {
		t.Fatalf("note values %v", vs)
	}
}
