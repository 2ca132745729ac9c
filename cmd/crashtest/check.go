package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/app/recall"
	"github.com/tablegames/ats/devices/id003"
	"github.com/tablegames/ats/server/ledger"
)

// Books are the figures the checks compare, from four independent places: the notes and tickets
// in the emulated stacker, the tickets out of the emulated printer, the server's ledger and the
// terminal's journal.
type Books struct {
	StackedNotes      int   // notes in the stacker
	StackedNoteCents  int64 //
	StackedTickets    int   // tickets in the stacker
	ServerMoneyIn     int64 // the ledger's money in (notes: no dealer buy-ins here)
	JournalNoteCents  int64 // the terminal's credited notes
	JournalTicketIn   int64 // the terminal's credited tickets
	TicketsIssued     int   // server tickets, by final state
	TicketsPrinted    int   //   printed and not redeemed (owed to their bearer)
	TicketsRedeemed   int
	TicketsHandpay    int   //   print failed: the dealer pays by hand
	PrintedCopies     int   // tickets out of the printer, reprints included
	PrintedUnique     int   // distinct validation numbers printed
	VoidCopies        int   // printed copies of tickets the server marked print-failed (not redeemable)
	Handpays          int   // handpay records in the terminal journal
	HandpayCents      int64 //
	Rounds            int   // rounds in the terminal's game records
	RoundsRecomputed  int   // settlements recomputed by the rules engine
	SlipsNotRecorded  int   // rounds whose settled slip version the terminal died before recording
	JournalRecords    int
	Conservation      ledger.Conservation
	FinalBalance      int64
	OpenTicketsCents  int64 // tickets printed and not redeemed
	HandpayOwedCents  int64 // print-failed tickets
	HouseResultCents  int64
	Problems          []string
	UnrecordedCredits int
}

func (b Books) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "  stacker: %d notes (%s), %d tickets; server money in %s; terminal journal credited notes %s, tickets %s\n",
		b.StackedNotes, cents(b.StackedNoteCents), b.StackedTickets, cents(b.ServerMoneyIn), cents(b.JournalNoteCents), cents(b.JournalTicketIn))
	fmt.Fprintf(&s, "  tickets: %d issued: %d owed to bearer (%s), %d redeemed, %d handpay (%s); printer put out %d copies of %d numbers, %d copies void\n",
		b.TicketsIssued, b.TicketsPrinted, cents(b.OpenTicketsCents), b.TicketsRedeemed, b.TicketsHandpay, cents(b.HandpayOwedCents),
		b.PrintedCopies, b.PrintedUnique, b.VoidCopies)
	fmt.Fprintf(&s, "  terminal: %d journal records, %d rounds recalled, %d settlements recomputed by the rules engine (%d not: killed between ack and record), %d handpays recorded, final balance %s\n",
		b.JournalRecords, b.Rounds, b.RoundsRecomputed, b.SlipsNotRecorded, b.Handpays, cents(b.FinalBalance))
	fmt.Fprintf(&s, "  ledger: %s\n", b.Conservation)
	if len(b.Problems) == 0 {
		s.WriteString("  result: nothing lost, nothing paid twice\n")
	} else {
		fmt.Fprintf(&s, "  result: %d problems:\n", len(b.Problems))
		for _, p := range b.Problems {
			fmt.Fprintf(&s, "    - %s\n", p)
		}
	}
	return s.String()
}

func cents(c int64) string { return "$" + money.Decimal(c) }

func (h *harness) check() (*Report, error) {
	ctx := context.Background()
	var b Books
	bad := func(format string, a ...any) { b.Problems = append(b.Problems, fmt.Sprintf(format, a...)) }

	// The stacker.
	stackedTickets := map[string]int{}
	for _, e := range h.acc.Cashbox() {
		if e.Code == id003.EscrowTicket {
			stackedTickets[e.Barcode]++
			b.StackedTickets++
		} else {
			b.StackedNotes++
		}
	}
	b.StackedNoteCents = h.acc.CashboxCents()
	for v, n := range stackedTickets {
		if n > 1 {
			bad("ticket %s was stacked %d times", v, n)
		}
	}
	// The printer.
	printed := map[string]int{}
	for _, t := range h.prn.Printed() {
		if len(t.Fields) > 6 {
			printed[t.Fields[6]]++
			b.PrintedCopies++
		}
	}
	b.PrintedUnique = len(printed)

	// The server's ledger.
	led, err := h.openLedger(floorT1)
	if err != nil {
		return nil, err
	}
	defer led.Close()
	if b.Conservation, err = led.Conserve(ctx); err != nil {
		return nil, err
	}
	var floor *FloorBooks
	if h.floor != nil {
		// Where the floor's tickets went, each table's books and the floor's (floor.go).
		if floor, err = h.floorCheck(ctx, led, b.Conservation, stackedTickets, bad); err != nil {
			return nil, err
		}
	}
	if !b.Conservation.Holds() {
		bad("the ledger does not conserve: %s", b.Conservation)
	}
	b.ServerMoneyIn, b.HouseResultCents = b.Conservation.MoneyIn, b.Conservation.HouseResult
	b.FinalBalance = b.Conservation.Balances
	tickets, err := led.Tickets(ctx)
	if err != nil {
		return nil, err
	}
	var redeemedCents int64
	server := map[string]ledger.Ticket{}
	for _, tk := range tickets {
		server[tk.Validation] = tk
		b.TicketsIssued++
		switch tk.State {
		case ledger.TicketPrinted:
			b.TicketsPrinted++
			b.OpenTicketsCents += tk.Amount
			if printed[tk.Validation] == 0 {
				bad("ticket %s (%s) is owed as printed, but never came out of the printer: the player lost it", tk.Validation, cents(tk.Amount))
			}
			if stackedTickets[tk.Validation] > 0 {
				bad("ticket %s is in the stacker but still owed: paid twice", tk.Validation)
			}
		case ledger.TicketRedeemed:
			b.TicketsRedeemed++
			if h.floor != nil && tk.RedeemedWhere != floorT1 {
				// Redeemed at T2 or the cage: floorCheck holds it against their records.
				break
			}
			redeemedCents += tk.Amount
			if stackedTickets[tk.Validation] != 1 {
				bad("ticket %s is redeemed but is not in the stacker", tk.Validation)
			}
		case ledger.TicketPrintFailed:
			b.TicketsHandpay++
			b.HandpayOwedCents += tk.Amount
			b.VoidCopies += printed[tk.Validation]
			if stackedTickets[tk.Validation] > 0 {
				bad("ticket %s was marked unprintable (handpay) yet redeemed from a copy: paid twice", tk.Validation)
			}
		default:
			bad("ticket %s (%s) was left %s after the drain", tk.Validation, cents(tk.Amount), tk.State)
		}
	}
	for v := range printed {
		if _, ok := server[v]; !ok {
			bad("the printer put out %s, which the server never issued", v)
		}
	}
	for v := range stackedTickets {
		if tk, ok := server[v]; !ok || tk.State != ledger.TicketRedeemed {
			bad("ticket %s is in the stacker but the server has it %q", v, tk.State)
		}
	}
	if b.ServerMoneyIn != b.StackedNoteCents {
		bad("notes in the stacker are worth %s, the server credited %s", cents(b.StackedNoteCents), cents(b.ServerMoneyIn))
	}
	if b.Conservation.MoneyOut != 0 {
		bad("money out %s without a dealer", cents(b.Conservation.MoneyOut))
	}
	if b.FinalBalance != 0 {
		bad("the account still holds %s after the drain", cents(b.FinalBalance))
	}

	// The terminal's journal (opening it verifies the hash chain). Read-only: it only reads, and
	// a terminal slow to exit after its drain still holds the writer's lock.
	j, err := journal.OpenReadOnly(journalPath(h.dir))
	if err != nil {
		return nil, err
	}
	defer j.Close()
	pending, err := j.Pending(ctx)
	if err != nil {
		return nil, err
	}
	for _, f := range pending {
		bad("journal flow %s left %s", f.Key, f.State)
	}
	recs, err := j.Records(ctx, 0, 0)
	if err != nil {
		return nil, err
	}
	b.JournalRecords = len(recs)
	for _, r := range recs {
		switch r.Kind {
		case "credited":
			if strings.HasPrefix(r.Key, "note:") {
				b.JournalNoteCents += r.Amount
			} else {
				b.JournalTicketIn += r.Amount
			}
		case "handpay":
			b.Handpays++
			b.HandpayCents += r.Amount
		case "unrecorded-credit-point":
			b.UnrecordedCredits++
			bad("record %d: a note was stacked without a record (%s)", r.Seq, cents(r.Amount))
		}
	}
	if b.JournalNoteCents != b.StackedNoteCents {
		bad("the terminal journal credited %s of notes, the stacker holds %s", cents(b.JournalNoteCents), cents(b.StackedNoteCents))
	}
	if b.JournalTicketIn != redeemedCents {
		bad("the terminal journal credited %s of tickets, the server redeemed %s", cents(b.JournalTicketIn), cents(redeemedCents))
	}
	if b.Handpays != b.TicketsHandpay || b.HandpayCents != b.HandpayOwedCents {
		bad("the terminal recorded %d handpays (%s), the server has %d (%s)", b.Handpays, cents(b.HandpayCents), b.TicketsHandpay, cents(b.HandpayOwedCents))
	}
	rounds, err := recall.Rounds(ctx, j, 0)
	if err != nil {
		return nil, err
	}
	b.Rounds = len(rounds)
	for _, r := range rounds {
		if !r.Settled || !r.Recognised {
			continue
		}
		if err := r.Verify(); errors.Is(err, recall.ErrSlipNotRecorded) {
			b.SlipsNotRecorded++
			continue
		} else if err != nil && !errors.Is(err, recall.ErrLuckyBall) {
			bad("%v", err)
			continue
		}
		b.RoundsRecomputed++
	}
	rep := &Report{Books: b, Floor: floor}
	if len(b.Problems) > 0 {
		return rep, fmt.Errorf("%w: %s", errCheck, strings.Join(b.Problems, "; "))
	}
	return rep, nil
}
