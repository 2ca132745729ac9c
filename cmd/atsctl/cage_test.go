package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server/ledger"
	"github.com/tablegames/ats/server/pki"
)

// cageTable is a real table server on a socket with a PKI directory on disk, as `tableserver
// pki init` makes it (a cashier-1 certificate among them), and terminal T01 connected to it.
type cageTable struct {
	addr, dir string
	term      pb.TerminalServiceClient
}

func newCageTable(t *testing.T) *cageTable {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pki")
	if err := pki.InitWith(dir, pki.InitOptions{Terminals: []string{"T01"}, Cashiers: []string{"cashier-1", "cashier-2"}}); err != nil {
		t.Fatal(err)
	}
	addr, _, caPEM := serveTable(t, dir, true)
	files := pki.Files{Dir: dir}
	pair, err := files.Load("T01")
	if err != nil {
		t.Fatal(err)
	}
	ctls, err := pki.ClientTLS(caPEM, pair, "")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(ctls)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &cageTable{addr: addr, dir: dir, term: pb.NewTerminalServiceClient(conn)}
}

// ticket is a printed cash-out ticket of cents from T01 (one 50.00 or 20.00 note at a time).
func (c *cageTable) ticket(t *testing.T, key string, notes ...int64) string {
	t.Helper()
	ctx := context.Background()
	codes := map[int64]string{5000: "AUD50", 2000: "AUD20", 1000: "AUD10"}
	for i, n := range notes {
		k := key + "/" + string(rune('a'+i))
		if _, err := c.term.ReportNoteEscrow(ctx, &pb.NoteEscrowRequest{IdempotencyKey: k, Amount: n, NoteCode: codes[n]}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.term.CreditNote(ctx, &pb.CreditNoteRequest{IdempotencyKey: k, Amount: n, NoteCode: codes[n]}); err != nil {
			t.Fatal(err)
		}
	}
	co, err := c.term.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: key + "/out"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.term.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: key + "/p", ValidationNumber: co.Ticket.ValidationNumber}); err != nil {
		t.Fatal(err)
	}
	return co.Ticket.ValidationNumber
}

func (c *cageTable) cage(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	all := append([]string{"cage", "-addr", c.addr, "-pki", c.dir}, args...)
	code := run(all, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestCageCommand(t *testing.T) {
	c := newCageTable(t)
	vn := c.ticket(t, "a", 5000)
	printed := vn[:2] + "-" + vn[2:6] + "-" + vn[6:10] + "-" + vn[10:14] + "-" + vn[14:]

	code, out, errs := c.cage(t, "", "-id", "cashier-1", "lookup", printed)
	if code != 0 || !strings.Contains(out, "A$50.00") || !strings.Contains(out, "payable  yes") || !strings.Contains(out, "table T1, terminal T01") {
		t.Fatalf("lookup: %d\n%s%s", code, out, errs)
	}
	t.Logf("lookup:\n%s", out)
	// Asked, and the cashier says no: nothing is paid.
	code, out, _ = c.cage(t, "n\n", "-id", "cashier-1", "pay", vn)
	if code != 1 || !strings.Contains(out, "Pay A$50.00 for ticket "+printed) || !strings.Contains(out, "Not paid.") {
		t.Fatalf("pay, declined: %d\n%s", code, out)
	}
	code, out, errs = c.cage(t, "y\n", "-id", "cashier-1", "pay", vn)
	if code != 0 || !strings.Contains(out, "PAID. Hand over A$50.00.") || !strings.Contains(out, "by cashier-1") {
		t.Fatalf("pay: %d\n%s%s", code, out, errs)
	}
	t.Logf("pay:\n%s", out)
	// Again, by another cashier: refused, naming who paid it where.
	code, out, _ = c.cage(t, "", "-id", "cashier-2", "pay", vn, "-yes")
	if code != 1 || !strings.Contains(out, "REFUSED (ALREADY_PAID)") || !strings.Contains(out, "at the cage by cashier-1") {
		t.Fatalf("paid twice: %d\n%s", code, out)
	}
	t.Logf("paid twice:\n%s", out)
	code, out, _ = c.cage(t, "", "-id", "cashier-1", "lookup", "000000000000000001")
	if code != 1 || !strings.Contains(out, "REFUSED (UNKNOWN)") {
		t.Fatalf("unknown: %d\n%s", code, out)
	}
	for _, bad := range []string{"12345", "12345678901234567x", "1234567890123456789"} {
		code, _, errs = c.cage(t, "", "lookup", bad)
		if code != 2 || !strings.Contains(errs, "validation number") {
			t.Fatalf("%q: %d %s", bad, code, errs)
		}
	}
	if code, _, errs = c.cage(t, "", "pay"); code != 2 || !strings.Contains(errs, "18 digits") {
		t.Fatalf("pay with no number: %d %s", code, errs)
	}
	if code, _, errs = c.cage(t, "", "-id", "nobody", "lookup", vn); code != 1 || !strings.Contains(errs, "pki issue") {
		t.Fatalf("no such certificate: %d %s", code, errs)
	}
	// A terminal's certificate is not a cashier's.
	if code, _, errs = c.cage(t, "", "-id", "T01", "lookup", vn); code != 1 || !strings.Contains(errs, "terminal:T01 may not do that") {
		t.Fatalf("a terminal's certificate: %d %s", code, errs)
	}

	second := c.ticket(t, "b", 2000)
	if code, _, errs = c.cage(t, "", "-id", "cashier-2", "pay", "-yes", second); code != 0 {
		t.Fatalf("cashier-2 pays: %d %s", code, errs)
	}
	code, out, errs = c.cage(t, "", "-id", "cashier-1", "shift", "-from", time.Now().Add(-time.Hour).Format(time.RFC3339))
	if code != 0 || !strings.Contains(out, "1 tickets paid, total A$50.00") {
		t.Fatalf("cashier-1's shift: %d\n%s%s", code, out, errs)
	}
	if code, _, errs = c.cage(t, "", "-id", "cashier-1", "shift", "-cashier", "cashier-2"); code != 1 || !strings.Contains(errs, "may not") {
		t.Fatalf("another cashier's shift: %d %s", code, errs)
	}
	if code, _, errs = c.cage(t, "", "shift", "-from", "yesterday"); code != 2 || !strings.Contains(errs, "-from") {
		t.Fatalf("a bad -from: %d %s", code, errs)
	}
	code, out, errs = c.cage(t, "", "-id", "supervisor", "shift", "-cashier", "cashier-2")
	if code != 0 || !strings.Contains(out, "1 tickets paid, total A$20.00") {
		t.Fatalf("the supervisor reads cashier-2's shift: %d\n%s%s", code, out, errs)
	}
	t.Logf("shift:\n%s", out)

	c.ticket(t, "c", 1000) // outstanding
	code, out, errs = c.cage(t, "", "report")
	if code != 0 || !strings.Contains(out, "floor report") {
		t.Fatalf("report: %d\n%s%s", code, out, errs)
	}
	t.Logf("\n%s", out)
	code, out, errs = c.cage(t, "", "report", "-format", "csv")
	if code != 0 {
		t.Fatalf("csv: %d %s", code, errs)
	}
	r := csv.NewReader(strings.NewReader(out))
	r.FieldsPerRecord = -1 // the tickets and the notes sections have their own columns
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var t1, floor, notes []string
	for _, r := range recs {
		switch {
		case r[0] == "tickets" && r[1] == "T1":
			t1 = r
		case r[0] == "tickets" && r[1] == "floor":
			floor = r
		case r[0] == "notes" && r[2] == "T01":
			notes = r
		}
	}
	// T1 issued 3 (80.00): 2 paid at the cage (70.00), 1 outstanding (10.00).
	if strings.Join(t1[3:], ",") != "3,80.00,0,0.00,2,70.00,0,0.00,1,10.00,0,0.00,0,0.00" || strings.Join(floor[3:5], ",") != "3,80.00" {
		t.Fatalf("csv tickets: %v / %v", t1, floor)
	}
	if strings.Join(notes[3:], ",") != "3,80.00,3,80.00,0,0.00,3,80.00,0.00" {
		t.Fatalf("csv notes: %v", notes)
	}
}

// FuzzCageWindow: any -from and -to. Refused with a message or read; a window read ends after
// it starts.
func FuzzCageWindow(f *testing.F) {
	for _, s := range [][2]string{{"", ""}, {"2026-11-24", "2026-11-25"}, {"2026-11-24 14:00", ""}, {"2026-11-25", "2026-11-24"}, {"yesterday", ""}, {"2026-11-24T10:00:00Z", "2026-11-24T10:00:00Z"}} {
		f.Add(s[0], s[1], true)
	}
	now := time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, from, to string, shift bool) {
		fr, tt, err := cageWindow(from, to, shift, now)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("a refusal without a message")
			}
			return
		}
		if !fr.IsZero() && !tt.IsZero() && !tt.After(fr) {
			t.Fatalf("%q %q read as %v .. %v", from, to, fr, tt)
		}
		if shift && from == "" && !fr.Equal(time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)) {
			t.Fatalf("a shift's default start: %v", fr)
		}
	})
}

// Issue 34: re-sealing a table's ledger "leaves a permanent mark in the ledger and on the
// floor's reports". A ledger re-sealed by its operator (pitboss-7, with a reason) before the
// table starts: the floor report lists the reseal — table, who, why, when — in text and CSV.
func TestCageReportListsTheReseals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.db")
	led, err := ledger.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	led.Close()
	before := time.Now()
	if _, err := ledger.Reseal(context.Background(), ledger.StoreConfig{DSN: path}, "pitboss-7", "key lost in the disk swap, ticket 4411"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "pki")
	if err := pki.InitWith(dir, pki.InitOptions{Terminals: []string{"T01"}, Cashiers: []string{"cashier-1"}}); err != nil {
		t.Fatal(err)
	}
	addr, _, _ := serveTableOn(t, dir, path, true)
	c := &cageTable{addr: addr, dir: dir}
	code, out, errs := c.cage(t, "", "report")
	if code != 0 || !strings.Contains(out, "re-sealed") || !strings.Contains(out, "pitboss-7") ||
		!strings.Contains(out, "key lost in the disk swap, ticket 4411") || !strings.Contains(out, before.Local().Format("2006-01-02")) {
		t.Fatalf("the report does not list the reseal: %d\n%s%s", code, out, errs)
	}
	t.Logf("\n%s", out)
	code, out, errs = c.cage(t, "", "report", "-format", "csv")
	if code != 0 {
		t.Fatalf("csv: %d %s", code, errs)
	}
	r := csv.NewReader(strings.NewReader(out))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var mark []string
	for _, rec := range recs {
		if rec[0] == "reseal" {
			mark = rec
		}
	}
	if len(mark) < 5 || mark[1] != "T1" || mark[3] != "pitboss-7" || mark[4] != "key lost in the disk swap, ticket 4411" {
		t.Fatalf("the csv's reseal row: %q\n%s", mark, out)
	}
}

// The stop list and the reporting threshold from the cashier's and supervisor's command line
// (issue 33): the supervisor stops a ticket and the cashier's lookup says why; a cashier cannot
// stop one; released, it pays. A A$10,040.00 ticket is refused with the threshold's words
// until a second cashier approves and the patron's ID is given, and the report lists it.
func TestCageStopAndThresholdCommands(t *testing.T) {
	c := newCageTable(t)
	vn := c.ticket(t, "a", 5000)
	code, out, errs := c.cage(t, "", "-id", "supervisor", "stop", vn, "-reason", "reported stolen")
	if code != 0 || !strings.Contains(out, "STOPPED.") {
		t.Fatalf("stop: %d\n%s%s", code, out, errs)
	}
	code, out, _ = c.cage(t, "", "-id", "cashier-1", "lookup", vn)
	if code != 1 || !strings.Contains(out, "no: STOPPED\n") || !strings.Contains(out, "stopped by supervisor supervisor at T1") ||
		!strings.Contains(out, "reported stolen") {
		t.Fatalf("lookup of a stopped ticket: %d\n%s", code, out)
	}
	t.Logf("lookup of a stopped ticket:\n%s", out)
	i := strings.Index(out, "stop S")
	stopID := strings.Fields(out[i:])[1]
	if code, _, errs = c.cage(t, "", "-id", "cashier-1", "release", vn, "-stop", stopID, "-note", "mine"); code != 1 || !strings.Contains(errs, "may not do that") {
		t.Fatalf("a cashier released a stop: %d %s", code, errs)
	}
	if code, out, errs = c.cage(t, "", "-id", "supervisor", "release", vn, "-stop", stopID, "-note", "found"); code != 0 || !strings.Contains(out, "RELEASED.") {
		t.Fatalf("release: %d\n%s%s", code, out, errs)
	}
	if code, out, _ = c.cage(t, "", "-id", "cashier-1", "pay", vn, "-yes"); code != 0 {
		t.Fatalf("released, pay: %d\n%s", code, out)
	}

	big := c.bigTicket(t, 1004000)
	code, out, _ = c.cage(t, "", "-id", "cashier-1", "pay", big, "-yes")
	if code != 1 || !strings.Contains(out, "REFUSED (THRESHOLD): A$10,040.00 is at or over the A$10,000.00 reporting threshold: record the patron's ID and a second person's approval (a supervisor's or another cashier's)") {
		t.Fatalf("a threshold payment with nothing: %d\n%s", code, out)
	}
	if code, out, errs = c.cage(t, "", "-id", "cashier-2", "approve", big); code != 0 || !strings.Contains(out, "APPROVED.") {
		t.Fatalf("approve: %d\n%s%s", code, out, errs)
	}
	code, out, errs = c.cage(t, "", "-id", "cashier-1", "pay", big, "-yes", "-patron-id-type", "passport", "-patron-id-number", "PA1234567", "-patron-name", "Jane Citizen")
	if code != 0 || !strings.Contains(out, "threshold payment recorded: patron Jane Citizen (passport PA1234567), approved by cashier:cashier-2") {
		t.Fatalf("a threshold payment: %d\n%s%s", code, out, errs)
	}
	code, out, _ = c.cage(t, "", "-id", "cashier-1", "report")
	if code != 0 || !strings.Contains(out, "Jane Citizen (passport PA1234567), approved by cashier:cashier-2") {
		t.Fatalf("report: %d\n%s", code, out)
	}
	t.Logf("report:\n%s", out)
}

// bigTicket is a printed ticket of cents from T01, funded by the dealer's buy-in.
func (c *cageTable) bigTicket(t *testing.T, cents int64) string {
	t.Helper()
	ctx := context.Background()
	files := pki.Files{Dir: c.dir}
	caFile, _ := files.CA()
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := files.Load("dealer")
	if err != nil {
		t.Fatal(err)
	}
	ctls, err := pki.ClientTLS(caPEM, pair, "")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(c.addr, grpc.WithTransportCredentials(credentials.NewTLS(ctls)))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	b, err := pb.NewDealerServiceClient(conn).CreditPlayer(ctx, &pb.CreditPlayerRequest{IdempotencyKey: "big", TerminalId: "T01", Amount: cents})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.term.ConfirmBuyIn(ctx, &pb.ConfirmBuyInRequest{IdempotencyKey: "big", BuyInId: b.BuyInId, Accept: true}); err != nil {
		t.Fatal(err)
	}
	co, err := c.term.CashOut(ctx, &pb.CashOutRequest{IdempotencyKey: "big/out"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.term.TicketPrinted(ctx, &pb.TicketRequest{IdempotencyKey: "big/p", ValidationNumber: co.Ticket.ValidationNumber}); err != nil {
		t.Fatal(err)
	}
	return co.Ticket.ValidationNumber
}

// Issue 33, point 8: the cage said "held until 11:25:12" and, on the same screen, "lapses at
// 00:25:12 UTC". The refusal's time and the ticket's hold read the same, in one clock.
func TestCageHeldTicketReadsOneClock(t *testing.T) {
	c := newCageTable(t)
	vn := c.ticket(t, "h", 2000)
	if _, err := c.term.RedeemTicket(context.Background(), &pb.RedeemTicketRequest{IdempotencyKey: "hold", ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	code, out, errs := c.cage(t, "", "-id", "cashier-1", "lookup", vn)
	t.Logf("lookup:\n%s", out)
	held := regexp.MustCompile(`until (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \S+)`).FindStringSubmatch(out)
	if code != 1 || held == nil || !strings.Contains(out, "REFUSED (HELD)") {
		t.Fatalf("a held ticket: %d\n%s%s", code, out, errs)
	}
	refused := out[strings.Index(out, "REFUSED"):]
	if !strings.Contains(refused, held[1]) || regexp.MustCompile(`[^-\d]\d{2}:\d{2}:\d{2} UTC`).MatchString(strings.ReplaceAll(refused, held[1], "")) {
		t.Fatalf("the hold's time (%s) and the refusal's differ:\n%s", held[1], out)
	}
}

// atsctl cage register-card, report-card and card: a player card registered to the person
// whose ID the cashier checked, refused to another person until reported lost (issue 31).
func TestCageCardCommands(t *testing.T) {
	c := newCageTable(t)
	code, out, errs := c.cage(t, "", "-id", "cashier-1", "register-card", "C42",
		"-patron-name", "Jane Citizen", "-patron-id-type", "passport", "-patron-id-number", "PA1234567")
	if code != 0 || !strings.Contains(out, "card C42 is registered to Jane Citizen, passport ending 567") || strings.Contains(out, "1234567") {
		t.Fatalf("register-card: %d\n%s%s", code, out, errs)
	}
	code, out, _ = c.cage(t, "", "-id", "cashier-2", "register-card", "C42",
		"-patron-name", "John Smith", "-patron-id-type", "passport", "-patron-id-number", "PB7654321")
	if code != 1 || !strings.Contains(out, "REFUSED: Card C42 is registered to Jane Citizen, passport ending 567: it is registered to another person only after it is reported lost.") {
		t.Fatalf("to another: %d\n%s", code, out)
	}
	code, _, errs = c.cage(t, "", "-id", "cashier-2", "report-card", "C42", "-state", "lost")
	if code != 2 || !strings.Contains(errs, "the reason is required") {
		t.Fatalf("report-card without a reason: %d\n%s", code, errs)
	}
	code, out, errs = c.cage(t, "", "-id", "cashier-2", "report-card", "C42", "-state", "lost", "-reason", "holder phoned")
	if code != 0 || !strings.Contains(out, "card C42 is lost") {
		t.Fatalf("report-card: %d\n%s%s", code, out, errs)
	}
	code, out, errs = c.cage(t, "", "-id", "cashier-1", "card", "C42")
	if code != 0 || !strings.Contains(out, "state       lost") || !strings.Contains(out, "by cashier:cashier-1") {
		t.Fatalf("card: %d\n%s%s", code, out, errs)
	}
	t.Logf("card:\n%s", out)
}
