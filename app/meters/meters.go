// Package meters totals a terminal's journal into its meters: notes in by value, tickets in and
// out, handpays, dealer in and out, wagered, won and rounds played. atsctl records meters prints
// them and the technician's meters page shows them; both read the same append-only records, so
// the figures never go backwards and the two never disagree.
package meters

import (
	"context"
	"sort"
	"strings"

	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/recall"
)

// Meters are the totals, in cents and counts.
type Meters struct {
	Notes                 map[int64]int // by value in cents: count
	NotesIn, TicketsIn    int64
	TicketsInN            int
	TicketsOut, Handpays  int64
	TicketsOutN, HandpayN int
	DealerIn, DealerOut   int64
	Wagered, Won          int64 // Won includes the stakes returned
	Rounds                int   // rounds settled
}

// NoteValues are the note values seen, lowest first.
func (m Meters) NoteValues() []int64 {
	vs := make([]int64, 0, len(m.Notes))
	for v := range m.Notes {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i] < vs[j] })
	return vs
}

// Of totals the money records (the cashier's record kinds); Read adds the rounds.
func Of(rs []journal.Record) Meters {
	m := Meters{Notes: map[int64]int{}}
	for _, r := range rs {
		kind, _, _ := strings.Cut(r.Key, ":")
		switch r.Kind {
		case "credited":
			switch kind {
			case "note":
				m.Notes[r.Amount]++
				m.NotesIn += r.Amount
			case "ticket":
				m.TicketsIn += r.Amount
				m.TicketsInN++
			}
		case "ticket-confirmed":
			m.TicketsOut += r.Amount
			m.TicketsOutN++
		case "handpay":
			m.Handpays += r.Amount
			m.HandpayN++
		case recall.KindBuyInConfirmed: // the table's credit, not the player's acceptance
			m.DealerIn += r.Amount
		case recall.KindDealerCashOut:
			m.DealerOut += r.Amount
		}
	}
	return m
}

// Read totals the whole journal: the money records and the settled rounds.
func Read(ctx context.Context, j *journal.Journal) (Meters, error) {
	rs, err := j.Records(ctx, 0, 0)
	if err != nil {
		return Meters{}, err
	}
	m := Of(rs)
	rounds, err := recall.Rounds(ctx, j, 0)
	if err != nil {
		return Meters{}, err
	}
	for _, r := range rounds {
		if r.Settled {
			m.Rounds++
			m.Wagered += r.Staked
			m.Won += r.Returned
		}
	}
	return m, nil
}
