package ledger

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

// floorTicket is a ticket for the floor tests: printed at issuer by T01, 90 days to run.
func floorTicket(vn, issuer string, amount int64, state string) Ticket {
	return Ticket{Validation: vn, Number: int64(len(vn)) + amount, Terminal: "T01", Amount: amount, Issued: now,
		Expires: now.Add(90 * 24 * time.Hour), State: state, IssuerTable: issuer}
}

// floorLedger writes what one table of the floor holds: its meters and accounts, and the floor's
// shared tickets (on PostgreSQL one table of them for every table; here each table's SQLite
// file has a copy, which is the same rows as far as the arithmetic is concerned).
func floorLedger(t *testing.T, table string, meters map[string]int64, accounts map[string]int64, tickets []Ticket) *Ledger {
	t.Helper()
	l := open(t, filepath.Join(t.TempDir(), table+".db"))
	l.SetTable(table)
	if err := l.Update(context.Background(), now, func(tx *Tx) error {
		for name, v := range meters {
			if _, err := tx.AddMeter(name, v); err != nil {
				return err
			}
		}
		for term, bal := range accounts {
			if err := tx.SetAccount(term, bal, true); err != nil {
				return err
			}
		}
		for _, tk := range tickets {
			if err := tx.PutTicket(tk); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return l
}

// The floor, worked by hand. Nobody played.
//
//	T1's T01 took 40.00 in notes and cashed out A; then 60.00 and cashed out B.
//	T1's T02 took 30.00 in notes.                                   T1: money in 130.00
//	T2's T01 took 50.00 and cashed out C; T2's T02 took 5.00 and cashed out E.  T2: in 55.00
//	A (T1's, 40.00) was redeemed at T2 by T2's T01: its balance 40.00.
//	B (T1's, 60.00) was paid at the cage.
//	C (T2's, 50.00) was redeemed at T1 by T1's T02: its balance 30.00 + 50.00 = 80.00.
//	E (T2's, 5.00) is still open.
//
// T1: in 130 + tickets in 50 (C) − tickets out 100 (A, B) = 80 = balances 80.
// T2: in 55 + tickets in 40 (A) − tickets out 50 (C) = 45 = balances 40 + open tickets 5.
// The floor: in 185 − the cage's 60 = 125 = balances 120 + open tickets 5.
func TestConservationAcrossTables(t *testing.T) {
	ctx := context.Background()
	tickets := []Ticket{
		floorTicket("000000000000000001", "T1", 4000, TicketRedeemed),
		floorTicket("000000000000000002", "T1", 6000, TicketRedeemed),
		floorTicket("000000000000000003", "T2", 5000, TicketRedeemed),
		floorTicket("000000000000000004", "T2", 500, TicketPrinted),
	}
	tickets[0].RedeemedWhere, tickets[0].RedeemedBy = "T2", "T01"
	tickets[1].RedeemedWhere, tickets[1].RedeemedBy = RedeemedAtCage, "cashier-1"
	tickets[2].RedeemedWhere, tickets[2].RedeemedBy = "T1", "T02"
	t1 := floorLedger(t, "T1", map[string]int64{MeterMoneyIn: 13000}, map[string]int64{"T01": 0, "T02": 8000}, tickets)
	t2 := floorLedger(t, "T2", map[string]int64{MeterMoneyIn: 5500}, map[string]int64{"T01": 4000}, tickets)

	c1, err := t1.Conserve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Conservation{MoneyIn: 13000, Balances: 8000, TicketsIn: 5000, TicketsOut: 10000}); c1 != want || !c1.Holds() {
		t.Fatalf("T1: %v (holds %v), want %v", c1, c1.Holds(), want)
	}
	c2, err := t2.Conserve(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Conservation{MoneyIn: 5500, Balances: 4000, OpenTickets: 500, TicketsIn: 4000, TicketsOut: 5000}); c2 != want || !c2.Holds() {
		t.Fatalf("T2: %v (holds %v), want %v", c2, c2.Holds(), want)
	}
	floor, err := Sum(c1, c2)
	if err != nil || !floor.Holds() {
		t.Fatalf("floor: %v %v", floor, err)
	}
	// Every crossing ticket is one table's in and another's out; what remains is the cage.
	if floor.TicketsOut-floor.TicketsIn != 6000 {
		t.Fatalf("floor tickets out − in = %d, want the cage's 6000", floor.TicketsOut-floor.TicketsIn)
	}

	// Counting the old way — every ticket in the store as this table's — breaks the identity:
	// the test can fail.
	wrong := c1
	wrong.TicketsIn, wrong.TicketsOut = 0, 0
	if wrong.Holds() {
		t.Fatal("T1's identity holds without the tickets that crossed tables: the test proves nothing")
	}
	// Asked for the other table, the same file gives that table's view of the tickets.
	asT2, err := t1.ConserveTable(ctx, "T2")
	if err != nil || asT2.TicketsIn != 4000 || asT2.TicketsOut != 5000 || asT2.OpenTickets != 500 {
		t.Fatalf("T1's file as T2: %v %v", asT2, err)
	}
}

// A ledger from before tickets knew their tables opens with every ticket its own: printed,
// held and redeemed here. Its identity holds as it did.
func TestTicketsFromBeforeTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE tickets (validation TEXT PRIMARY KEY, number INTEGER NOT NULL UNIQUE,
		terminal TEXT NOT NULL, amount INTEGER NOT NULL CHECK (amount > 0), issued INTEGER NOT NULL,
		expires INTEGER NOT NULL, state TEXT NOT NULL, holder TEXT NOT NULL);
		CREATE TABLE meters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
		INSERT INTO meters VALUES ('money_in', 10000);
		INSERT INTO tickets VALUES ('111111111111111111', 1, 'T01', 7000, 1, 4000000000000000000, 'redeemed', ''),
			('222222222222222222', 2, 'T02', 3000, 2, 4000000000000000000, 'printed', '')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	resealLegacy(t, path)
	l := open(t, path)
	l.SetTable("T1")
	tks, err := l.Tickets(context.Background())
	if err != nil || len(tks) != 2 {
		t.Fatalf("tickets: %v %v", tks, err)
	}
	if tk := tks[0]; tk.IssuerTable != "" || tk.RedeemedWhere != "" || tk.HolderTable != "" || !tk.RedeemedAt.IsZero() {
		t.Fatalf("an old ticket after the migration: %+v", tk)
	}
	// 100.00 came in; the 70.00 ticket was redeemed here and played away (house result
	// 70.00); the 30.00 ticket is still owed.
	if err := l.Update(context.Background(), now, func(tx *Tx) error {
		_, err := tx.AddMeter(MeterHouseResult, 7000)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	c, err := l.Conserve(context.Background())
	if err != nil || !c.Holds() || c.OpenTickets != 3000 || c.TicketsIn != 0 || c.TicketsOut != 0 {
		t.Fatalf("an old ledger's identity: %v %v", c, err)
	}
}

// The floor report's arithmetic by hand: T1 issued four tickets in the window (one to the cage,
// one to T2, one still open, one expired) and one before it; T2 issued one, which T1 redeemed.
func TestTicketTotals(t *testing.T) {
	tickets := []Ticket{
		floorTicket("000000000000000001", "T1", 6000, TicketRedeemed),
		floorTicket("000000000000000002", "T1", 4000, TicketRedeemed),
		floorTicket("000000000000000003", "T1", 1000, TicketPrinted),
		floorTicket("000000000000000004", "T1", 300, TicketPrinted),
		floorTicket("000000000000000005", "T1", 99900, TicketPrinted), // before the window
		floorTicket("000000000000000006", "T2", 2500, TicketRedeemed),
		floorTicket("000000000000000007", "T2", 700, TicketHandpaid),
	}
	tickets[0].RedeemedWhere = RedeemedAtCage
	tickets[1].RedeemedWhere = "T2"
	tickets[3].Expires = now.Add(time.Hour)
	tickets[4].Issued = now.Add(-48 * time.Hour)
	tickets[5].RedeemedWhere = "T1"
	l := floorLedger(t, "T1", nil, nil, tickets)
	tots, err := l.TicketTotals(context.Background(), now.Add(-time.Hour), now.Add(time.Hour), now.Add(2*time.Hour))
	if err != nil || len(tots) != 2 {
		t.Fatalf("totals: %+v %v", tots, err)
	}
	want := []TicketTotals{
		{Table: "T1", Issued: Tally{4, 11300}, RedeemedTable: Tally{1, 4000}, RedeemedCage: Tally{1, 6000},
			Outstanding: Tally{1, 1000}, ExpiredUnpaid: Tally{1, 300}, RedeemedByThem: Tally{1, 2500}},
		{Table: "T2", Issued: Tally{2, 3200}, RedeemedTable: Tally{1, 2500}, Handpaid: Tally{1, 700}, RedeemedByThem: Tally{1, 4000}},
	}
	for i := range want {
		if tots[i] != want[i] {
			t.Errorf("%s:\n got %+v\nwant %+v", want[i].Table, tots[i], want[i])
		}
	}
}

// The notes reconciliation by hand: T01 reported three notes and two were credited; T02 has a
// note credit the escrow never saw (a credit from before escrow, or a forged one): a
// difference of 20.00.
func TestNoteTotals(t *testing.T) {
	l := open(t, filepath.Join(t.TempDir(), "n.db"))
	if err := l.Update(context.Background(), now, func(tx *Tx) error {
		for _, n := range []NoteEscrow{
			{Terminal: "T01", Key: "a", Code: "AUD50", Amount: 5000, State: NoteCredited},
			{Terminal: "T01", Key: "b", Code: "AUD10", Amount: 1000, State: NoteCredited},
			{Terminal: "T01", Key: "c", Code: "AUD20", Amount: 2000, State: NoteEscrowed},
		} {
			if err := tx.PutNoteEscrow(n); err != nil {
				return err
			}
		}
		for _, e := range []struct {
			term   string
			amount int64
		}{{"T01", 5000}, {"T01", 1000}, {"T02", 2000}} {
			if err := tx.Event("note-in", e.term, "", e.amount, "AUD"); err != nil {
				return err
			}
		}
		return tx.Event("ticket-in", "T02", "", 9999, "not a note")
	}); err != nil {
		t.Fatal(err)
	}
	got, err := l.NoteTotals(context.Background(), time.Time{}, time.Time{})
	if err != nil || len(got) != 2 {
		t.Fatalf("notes: %+v %v", got, err)
	}
	want := []NoteTotals{
		{Terminal: "T01", Reported: Tally{3, 8000}, Stacked: Tally{2, 6000}, Uncredited: Tally{1, 2000}, Credited: Tally{2, 6000}},
		{Terminal: "T02", Credited: Tally{1, 2000}},
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("%s:\n got %+v\nwant %+v", w.Terminal, got[i], w)
		}
	}
	if d, _ := got[0].Difference(); d != 0 {
		t.Errorf("T01's difference %d", d)
	}
	if d, _ := got[1].Difference(); d != 2000 {
		t.Errorf("T02's difference %d, want 2000", d)
	}
	// A window after everything is empty.
	if later, err := l.NoteTotals(context.Background(), now.Add(time.Second), time.Time{}); err != nil || len(later) != 0 {
		t.Fatalf("a later window: %+v %v", later, err)
	}
}

// A ticket is paid at the cage once: a second payment of it fails at the database however it
// got there.
func TestCagePaymentOncePerTicket(t *testing.T) {
	l := open(t, filepath.Join(t.TempDir(), "c.db"))
	pay := func(id, cashier string) error {
		return l.Update(context.Background(), now, func(tx *Tx) error {
			return tx.PutCagePayment(CagePayment{ID: id, Validation: "000000000000000001", Cashier: cashier, Amount: 500, At: now, ViaTable: "T1"})
		})
	}
	if err := pay("P1", "cashier-1"); err != nil {
		t.Fatal(err)
	}
	if err := pay("P2", "cashier-2"); err == nil {
		t.Fatal("a ticket was paid at the cage twice")
	}
	ps, err := l.CagePayments(context.Background(), "cashier-2", time.Time{}, time.Time{})
	if err != nil || len(ps) != 0 {
		t.Fatalf("cashier-2's payments: %v %v", ps, err)
	}
	ps, err = l.CagePayments(context.Background(), "", time.Time{}, time.Time{})
	if err != nil || len(ps) != 1 || ps[0].Cashier != "cashier-1" || !ps[0].At.Equal(now) {
		t.Fatalf("payments: %+v %v", ps, err)
	}
}
