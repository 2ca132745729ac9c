package main

// atsctl cage is the cashier's tool at the cage (issue 16): look a cash-out ticket up, pay it
// in cash, see why one is refused, and read a shift's totals or the floor's ticket report. It
// talks to a table server's CageService over mutual TLS with the cashier's certificate (from
// `tableserver pki init` or `pki issue -role cashier`), which is also who the audit log says
// paid.

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/app/localtime"
	"github.com/tablegames/ats/app/money"
	"github.com/tablegames/ats/devices/printer"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

func init() {
	register("cage", command{
		summary: "the cashier's cage: look up and pay tickets, shift totals, floor report (-id cashier-1)",
		run:     runCage,
	})
}

const cageUsage = `usage: atsctl cage [-addr HOST:PORT] [-pki DIR] [-id CASHIER] COMMAND
  lookup NUMBER            what a ticket is worth and whether it can be paid (if not, why)
  pay NUMBER [-yes] [-patron-id-type T -patron-id-number N -patron-name NAME]
                           pay a ticket in cash (asks first unless -yes); at or over the
                           reporting threshold the patron's ID is required, and an approval
  approve NUMBER [-note TEXT]   a second person's approval of a threshold payment (a
                           supervisor, or a cashier other than the one who pays)
  stop NUMBER -reason TEXT       stop a ticket floor-wide: lost, stolen, disputed (supervisor)
  release NUMBER -stop ID -note TEXT   release a supervisor's stop (supervisor)
  shift [-from T] [-to T] [-cashier ID]   what was paid (a supervisor may name any cashier)
  report [-from T] [-to T] [-format text|csv]   tickets per table and floor, notes reconciliation,
                           every reseal of a table's ledger (of all time)
  card CARD                what the cage knows of a player card: state, holder, limits, play
  register-card CARD -patron-name NAME -patron-id-type T -patron-id-number N
                           register a player card to the person whose ID you checked (the
                           number is not stored: its last 3 characters are)
  report-card CARD -state lost|barred -reason TEXT   report a player card lost or bar it
NUMBER: the ticket's 18 digits, dashes and spaces as printed are fine.
T: 2006-01-02, "2006-01-02 15:04" (local time) or RFC 3339; shift's -from defaults to today 00:00.`

// cageFlags are the cage's flags, read before and after the command.
type cageFlags struct {
	fs                        *flag.FlagSet
	addr, dir, id             *string
	yes                       *bool
	from, to, format, cashier *string
	timeout                   *time.Duration
	// The patron's identity (pay), a stop's reason, its id and a note (stop, release, approve).
	idType, idNumber, name, reason, stop, note *string
	state                                      *string // report-card: lost or barred
}

func newCageFlags(stderr io.Writer) cageFlags {
	fs := flag.NewFlagSet("cage", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, cageUsage) }
	return cageFlags{fs: fs,
		addr:     fs.String("addr", "127.0.0.1:7443", "table server address"),
		dir:      fs.String("pki", "pki", "PKI directory with ca.pem and the cashier's certificate"),
		id:       fs.String("id", "cashier-1", "the cashier's certificate name in the PKI directory"),
		yes:      fs.Bool("yes", false, "pay: do not ask"),
		from:     fs.String("from", "", "shift, report: from (inclusive)"),
		to:       fs.String("to", "", "shift, report: to (exclusive)"),
		format:   fs.String("format", "text", "report: text or csv"),
		cashier:  fs.String("cashier", "", "shift: the cashier (a supervisor's certificate only; default yourself)"),
		timeout:  fs.Duration("timeout", 10*time.Second, "how long to wait for the table server"),
		idType:   fs.String("patron-id-type", "", "pay: the patron's ID type (passport, driver licence, …)"),
		idNumber: fs.String("patron-id-number", "", "pay: the patron's ID number"),
		name:     fs.String("patron-name", "", "pay: the patron's name as on the ID"),
		reason:   fs.String("reason", "", "stop: why (lost, stolen, disputed: …)"),
		stop:     fs.String("stop", "", "release: the stop's id (lookup lists them)"),
		note:     fs.String("note", "", "release: why it may be paid; approve: a note"),
		state:    fs.String("state", "", "report-card: lost or barred"),
	}
}

// parse reads flags wherever they are: before the command, between and after its arguments.
func (c cageFlags) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := c.fs.Parse(args); err != nil {
			return nil, err
		}
		args = c.fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

func runCage(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := newCageFlags(stderr)
	pos, err := f.parse(args)
	if err != nil {
		return 2
	}
	if len(pos) == 0 {
		fmt.Fprintln(stderr, cageUsage)
		return 2
	}
	verb, rest := pos[0], pos[1:]
	want := map[string]int{"lookup": 1, "pay": 1, "shift": 0, "report": 0, "approve": 1, "stop": 1, "release": 1,
		"card": 1, "register-card": 1, "report-card": 1}
	n, ok := want[verb]
	if !ok {
		fmt.Fprintf(stderr, "atsctl cage: unknown command %q\n%s\n", verb, cageUsage)
		return 2
	}
	if len(rest) != n {
		if n == 1 && strings.Contains(verb, "card") {
			fmt.Fprintf(stderr, "atsctl cage %s: give the player card's id\n", verb)
		} else if n == 1 {
			fmt.Fprintf(stderr, "atsctl cage %s: give the ticket's validation number (18 digits)\n", verb)
		} else {
			fmt.Fprintf(stderr, "atsctl cage %s: unexpected %q\n", verb, strings.Join(rest, " "))
		}
		return 2
	}
	// Everything the cashier typed is checked before the table server is called.
	cardVerb := strings.Contains(verb, "card")
	var vn string
	if n == 1 && cardVerb {
		vn = rest[0] // the table checks a card's id
	} else if n == 1 {
		if vn, err = server.ParseValidation(rest[0]); err != nil {
			fmt.Fprintln(stderr, "atsctl cage:", err)
			return 2
		}
	}
	from, to, err := cageWindow(*f.from, *f.to, verb == "shift", time.Now())
	if err != nil {
		fmt.Fprintln(stderr, "atsctl cage:", err)
		return 2
	}
	if *f.format != "text" && *f.format != "csv" {
		fmt.Fprintf(stderr, "atsctl cage: -format %q: text or csv\n", *f.format)
		return 2
	}
	conn, who, err := dialCage(*f.addr, *f.dir, *f.id)
	if err != nil {
		fmt.Fprintln(stderr, "atsctl cage:", err)
		return 1
	}
	defer conn.Close()
	cage := pb.NewCageServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), *f.timeout)
	defer cancel()
	switch verb {
	case "lookup":
		err = cageLookup(ctx, cage, vn, stdout)
	case "pay":
		var patron *pb.PatronIdentity
		if *f.idType != "" || *f.idNumber != "" || *f.name != "" {
			patron = &pb.PatronIdentity{IdType: *f.idType, IdNumber: *f.idNumber, Name: *f.name}
		}
		err = cagePay(ctx, cage, vn, patron, *f.yes, stdin, stdout)
	case "approve":
		err = cageApprove(ctx, cage, vn, *f.note, stdout)
	case "stop":
		err = cageStop(ctx, cage, vn, *f.reason, stdout)
	case "release":
		err = cageRelease(ctx, cage, vn, *f.stop, *f.note, stdout)
	case "shift":
		err = cageShift(ctx, cage, *f.cashier, from, to, stdout)
	case "report":
		err = cageReport(ctx, cage, from, to, *f.format, stdout)
	case "card":
		err = cageCard(stdout)(cage.LookupCard(ctx, &pb.LookupCardRequest{CardId: vn}))
	case "register-card":
		err = cageCard(stdout)(cage.RegisterCard(ctx, &pb.RegisterCardRequest{CardId: vn,
			Holder: &pb.PatronIdentity{Name: *f.name, IdType: *f.idType, IdNumber: *f.idNumber}}))
	case "report-card":
		err = cageCard(stdout)(cage.ReportCard(ctx, &pb.ReportCardRequest{CardId: vn, State: *f.state, Reason: *f.reason}))
	}
	var refused refusedErr
	var cardNo cardRefused
	switch {
	case err == nil:
		return 0
	case errors.As(err, &cardNo):
		fmt.Fprintln(stdout, cardNo.Error())
		return 1
	case errors.As(err, &refused):
		fmt.Fprintln(stdout, refused.Error())
		return 1
	case errors.Is(err, errNotPaid):
		fmt.Fprintln(stdout, "Not paid.")
		return 1
	case status.Code(err) == codes.PermissionDenied:
		fmt.Fprintf(stderr, "atsctl cage: %s may not do that: %s\n", who, status.Convert(err).Message())
		return 1
	case status.Code(err) == codes.InvalidArgument:
		fmt.Fprintln(stderr, "atsctl cage:", status.Convert(err).Message())
		return 2
	case status.Code(err) != codes.Unknown:
		fmt.Fprintf(stderr, "atsctl cage: %s (%s)\n", status.Convert(err).Message(), status.Code(err))
		return 1
	}
	fmt.Fprintln(stderr, "atsctl cage:", err)
	return 1
}

// dialCage connects with the cashier's certificate; who is its role:id, for messages.
func dialCage(addr, dir, id string) (*grpc.ClientConn, string, error) {
	files := pki.Files{Dir: dir}
	caFile, _ := files.CA()
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		return nil, "", fmt.Errorf("the table's CA certificate: %w", err)
	}
	pair, err := files.Load(id)
	if err != nil {
		return nil, "", fmt.Errorf("the certificate of %q: %w (issue one with: tableserver pki issue -dir %s -role cashier -id %s)", id, err, dir, id)
	}
	who := id
	if cert, err := pki.ParseCert(pair.CertPEM); err == nil {
		if role, cn, err := pki.Identity(cert); err == nil {
			who = role + ":" + cn
		}
	}
	tlsCfg, err := pki.ClientTLS(caPEM, pair, "") // gRPC checks the server's certificate against addr's host
	if err != nil {
		return nil, "", err
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(tlsCfg)))
	if err != nil {
		return nil, "", err
	}
	return conn, who, nil
}

// cageWindow reads -from and -to. A shift with no -from starts at today's midnight.
func cageWindow(from, to string, shift bool, now time.Time) (time.Time, time.Time, error) {
	parse := func(name, s string) (time.Time, error) {
		if s == "" {
			return time.Time{}, nil
		}
		for _, layout := range []string{time.RFC3339, "2006-01-02 15:04", "2006-01-02T15:04", time.DateOnly} {
			if t, err := time.ParseInLocation(layout, s, now.Location()); err == nil {
				return t, nil
			}
		}
		return time.Time{}, fmt.Errorf("-%s %q: use 2006-01-02, \"2006-01-02 15:04\" or RFC 3339", name, s)
	}
	f, err := parse("from", from)
	if err != nil {
		return f, f, err
	}
	t, err := parse("to", to)
	if err != nil {
		return f, t, err
	}
	if f.IsZero() && shift {
		y, m, d := now.Date()
		f = time.Date(y, m, d, 0, 0, 0, 0, now.Location())
	}
	if !f.IsZero() && !t.IsZero() && !t.After(f) {
		return f, t, fmt.Errorf("-to %s is not after -from %s", t.Format(time.RFC3339), f.Format(time.RFC3339))
	}
	return f, t, nil
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// aud is an amount as the cage reads it, grouped in the floor's currency: "A$10,040.00"
// (issue 33, point 8: not "A$ 10040.00").
func aud(cents int64) string { return money.InCurrency("AUD", cents) }

func pretty(vn string) string {
	if s, err := printer.FormatValidation(vn); err == nil {
		return s
	}
	return vn
}

// when is a time as every line of the cage prints it: local, with the zone's abbreviation, so
// no line can be read as another clock's (issue 33, point 8).
func when(unixNanos int64) string {
	if unixNanos == 0 {
		return "-"
	}
	return localtime.Stamp(time.Unix(0, unixNanos), time.Local)
}

// refusedErr is the table's refusal of a ticket, told to the cashier as it is: the reason, in
// its machine name and in words.
type refusedErr struct{ v *pb.CageTicket }

func (r refusedErr) Error() string {
	reason := strings.TrimPrefix(r.v.Refusal.String(), "TICKET_REFUSAL_")
	// The table's words give times in UTC: shown in the cage's clock, as every other time here.
	return fmt.Sprintf("REFUSED (%s): %s", reason, localtime.Rewrite(r.v.Message, time.Local, time.Now()))
}

// asRefusal turns a refusal carrying the cage's view of the ticket into a refusedErr.
func asRefusal(err error) error {
	if v := server.CageRefusalOf(err); v != nil {
		return refusedErr{v}
	}
	return err
}

var errNotPaid = errors.New("not paid")

func printTicket(w io.Writer, v *pb.CageTicket) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "ticket\t%s\n", pretty(v.ValidationNumber))
	fmt.Fprintf(tw, "amount\t%s\n", aud(v.Amount))
	fmt.Fprintf(tw, "issued\t%s at table %s, terminal %s (ticket no. %d)\n", when(v.IssuedUnixNanos), v.IssuerTableId, v.IssuerTerminalId, v.TicketNumber)
	fmt.Fprintf(tw, "expires\t%s\n", when(v.ExpiresUnixNanos))
	fmt.Fprintf(tw, "state\t%s\n", v.State)
	if v.RedeemedWhere != "" {
		fmt.Fprintf(tw, "redeemed\tat %s by %s, %s\n", v.RedeemedWhere, v.RedeemedBy, when(v.RedeemedAtUnixNanos))
	}
	if v.HolderTerminalId != "" {
		fmt.Fprintf(tw, "held\tby terminal %s of table %s until %s\n", v.HolderTerminalId, v.HolderTableId, when(v.HoldLapsesAtUnixNanos))
	}
	for _, s := range v.Stops {
		fmt.Fprintf(tw, "stop %s\t%s by %s at %s, %s: %s\n", s.Id, s.Kind, s.StoppedBy, s.TableId, when(s.StoppedAtUnixNanos), s.Reason)
	}
	if v.Approval != nil {
		fmt.Fprintf(tw, "approved\tby %s, %s\n", v.Approval.ApprovedBy, when(v.Approval.ApprovedAtUnixNanos))
	}
	if v.Payable {
		fmt.Fprintf(tw, "payable\tyes\n")
	} else {
		fmt.Fprintf(tw, "payable\tno: %s\n", strings.TrimPrefix(v.Refusal.String(), "TICKET_REFUSAL_"))
	}
	if v.Payable && v.Message != "" { // a refusal's words follow it as REFUSED (…)
		fmt.Fprintf(tw, "note\t%s\n", v.Message)
	}
	tw.Flush()
}

// cageApprove records the caller's approval of a threshold payment.
func cageApprove(ctx context.Context, cage pb.CageServiceClient, vn, note string, stdout io.Writer) error {
	a, err := cage.ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: vn, Note: note})
	if err != nil {
		return asRefusal(err)
	}
	fmt.Fprintf(stdout, "APPROVED. Ticket %s may be paid by a cashier other than %s, with the patron's ID (%s).\n",
		pretty(vn), a.ApprovedBy, when(a.ApprovedAtUnixNanos))
	return nil
}

// cageKey is one call's idempotency key: a retry after a lost answer is the same call.
func cageKey() (string, error) {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "atsctl-" + hex.EncodeToString(b), nil
}

// cageStop stops a ticket floor-wide.
func cageStop(ctx context.Context, cage pb.CageServiceClient, vn, reason string, stdout io.Writer) error {
	key, err := cageKey()
	if err != nil {
		return err
	}
	s, err := cage.StopTicket(ctx, &pb.StopTicketRequest{ValidationNumber: vn, Reason: reason, IdempotencyKey: key})
	if err != nil {
		return asRefusal(err)
	}
	fmt.Fprintf(stdout, "STOPPED. Ticket %s is held at every cage and terminal of the floor (stop %s by %s, %s: %s).\n",
		pretty(vn), s.Id, s.StoppedBy, when(s.StoppedAtUnixNanos), s.Reason)
	return nil
}

// cageRelease releases a supervisor's stop.
func cageRelease(ctx context.Context, cage pb.CageServiceClient, vn, stop, note string, stdout io.Writer) error {
	key, err := cageKey()
	if err != nil {
		return err
	}
	s, err := cage.ReleaseTicketStop(ctx, &pb.ReleaseTicketStopRequest{ValidationNumber: vn, StopId: stop, Note: note, IdempotencyKey: key})
	if err != nil {
		return asRefusal(err)
	}
	fmt.Fprintf(stdout, "RELEASED. Stop %s of ticket %s released by %s, %s: %s\n", s.Id, pretty(vn), s.ReleasedBy, when(s.ReleasedAtUnixNanos), s.ReleaseNote)
	return nil
}

func cageLookup(ctx context.Context, cage pb.CageServiceClient, vn string, stdout io.Writer) error {
	v, err := cage.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
	if err != nil {
		return asRefusal(err)
	}
	printTicket(stdout, v)
	if !v.Payable {
		return refusedErr{v}
	}
	return nil
}

func cagePay(ctx context.Context, cage pb.CageServiceClient, vn string, patron *pb.PatronIdentity, yes bool, stdin io.Reader, stdout io.Writer) error {
	v, err := cage.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
	if err != nil {
		return asRefusal(err)
	}
	if !v.Payable {
		return refusedErr{v}
	}
	if !yes {
		fmt.Fprintf(stdout, "Pay %s for ticket %s (table %s, terminal %s)? [y/N] ", aud(v.Amount), pretty(vn), v.IssuerTableId, v.IssuerTerminalId)
		line, _ := bufio.NewReader(stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
			return errNotPaid
		}
	}
	// One key for this payment: a retry after a lost answer is the same payment, answered
	// with the same reply, never a second one.
	key, err := cageKey()
	if err != nil {
		return err
	}
	req := &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: key, Patron: patron}
	var res *pb.PayTicketResponse
	for attempt := 0; ; attempt++ {
		res, err = cage.PayTicket(ctx, req)
		if status.Code(err) != codes.Unavailable || attempt == 2 {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if err != nil {
		return asRefusal(err)
	}
	fmt.Fprintf(stdout, "PAID. Hand over %s.\nticket %s paid at the cage by %s at %s (payment %s)\n",
		aud(res.Amount), pretty(vn), res.CashierId, when(res.PaidAtUnixNanos), res.PaymentId)
	if th := res.Threshold; th != nil {
		fmt.Fprintf(stdout, "threshold payment recorded: patron %s (%s %s), approved by %s\n", th.Patron.GetName(), th.Patron.GetIdType(),
			th.Patron.GetIdNumber(), th.ApprovedBy)
	}
	return nil
}

func cageShift(ctx context.Context, cage pb.CageServiceClient, cashier string, from, to time.Time, stdout io.Writer) error {
	res, err := cage.ShiftTotals(ctx, &pb.ShiftTotalsRequest{CashierId: cashier, FromUnixNanos: nanos(from), ToUnixNanos: nanos(to)})
	if err != nil {
		return err
	}
	who := res.CashierId
	if who == "" {
		who = "every cashier"
	}
	span := "from " + when(nanos(from)) + " to " + map[bool]string{true: "now", false: when(nanos(to))}[to.IsZero()]
	fmt.Fprintf(stdout, "shift of %s, %s\n", who, span)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "paid at\tticket\tamount\tcashier\tvia\t")
	for _, p := range res.Payments {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", when(p.PaidAtUnixNanos), pretty(p.ValidationNumber), aud(p.Amount), p.CashierId, p.ViaTableId)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "%d tickets paid, total %s\n", res.Count, aud(res.Amount))
	return nil
}

func cageReport(ctx context.Context, cage pb.CageServiceClient, from, to time.Time, format string, stdout io.Writer) error {
	res, err := cage.FloorReport(ctx, &pb.FloorReportRequest{FromUnixNanos: nanos(from), ToUnixNanos: nanos(to)})
	if err != nil {
		return err
	}
	rows := append(append([]*pb.TableTickets{}, res.Tables...), res.Floor)
	tallies := func(t *pb.TableTickets) []*pb.TicketTally {
		return []*pb.TicketTally{t.Issued, t.RedeemedTable, t.RedeemedCage, t.Handpaid, t.Outstanding, t.ExpiredUnpaid, t.RedeemedByTable}
	}
	heads := []string{"issued", "redeemed at a table", "paid at the cage", "handpaid", "outstanding", "expired unpaid", "redeemed by its terminals"}
	if format == "csv" {
		w := csv.NewWriter(stdout)
		head := []string{"section", "table", "terminal"}
		for _, h := range heads {
			head = append(head, h+" count", h+" amount")
		}
		w.Write(head)
		for _, t := range rows {
			rec := []string{"tickets", t.TableId, ""}
			for _, x := range tallies(t) {
				rec = append(rec, fmt.Sprint(x.GetCount()), money.Decimal(x.GetAmount()))
			}
			w.Write(rec)
		}
		w.Write([]string{"section", "table", "terminal", "reported count", "reported amount", "stacked count", "stacked amount",
			"uncredited count", "uncredited amount", "credited count", "credited amount", "difference"})
		for _, n := range res.Notes {
			rec := []string{"notes", n.TableId, n.TerminalId}
			for _, x := range []*pb.TicketTally{n.Reported, n.Stacked, n.Uncredited, n.Credited} {
				rec = append(rec, fmt.Sprint(x.GetCount()), money.Decimal(x.GetAmount()))
			}
			w.Write(append(rec, money.Decimal(n.Difference)))
		}
		if len(res.Reseals) > 0 {
			w.Write([]string{"section", "table", "at", "by", "why", "rows sealed as found", "found"})
		}
		for _, m := range res.Reseals {
			w.Write([]string{"reseal", m.TableId, time.Unix(0, m.AtUnixNanos).UTC().Format(time.RFC3339), m.By, m.Why, fmt.Sprint(m.SealedRows), m.Found})
		}
		if len(res.ThresholdPayments) > 0 {
			w.Write([]string{"section", "payment", "ticket", "amount", "paid at", "cashier", "via", "id type", "id number", "name", "approved by", "threshold"})
		}
		for _, p := range res.ThresholdPayments {
			w.Write([]string{"threshold", p.PaymentId, p.ValidationNumber, money.Decimal(p.Amount), time.Unix(0, p.PaidAtUnixNanos).UTC().Format(time.RFC3339),
				p.CashierId, p.ViaTableId, p.Patron.GetIdType(), p.Patron.GetIdNumber(), p.Patron.GetName(), p.ApprovedBy, money.Decimal(p.Threshold)})
		}
		if len(res.PatronDays) > 0 {
			w.Write([]string{"section", "day", "id type", "id number", "name", "count", "amount", "payments"})
		}
		for _, d := range res.PatronDays {
			w.Write([]string{"patron-day", d.Day, d.Patron.GetIdType(), d.Patron.GetIdNumber(), d.Patron.GetName(), fmt.Sprint(d.Count), money.Decimal(d.Amount),
				strings.Join(d.PaymentIds, " ")})
		}
		w.Flush()
		return w.Error()
	}
	span := "every ticket"
	if !from.IsZero() || !to.IsZero() {
		span = "tickets issued from " + when(nanos(from)) + " to " + map[bool]string{true: "now", false: when(nanos(to))}[to.IsZero()]
	}
	fmt.Fprintf(stdout, "floor report as of %s: %s\n\n", when(res.AtUnixNanos), span)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "table\tissued\tat a table\tat the cage\thandpaid\toutstanding\texpired\tits terminals redeemed\t")
	for _, t := range rows {
		fmt.Fprintf(tw, "%s\t", t.TableId)
		for _, x := range tallies(t) {
			fmt.Fprintf(tw, "%d / %s\t", x.GetCount(), money.Decimal(x.GetAmount()))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nnotes (reported in escrow, stacked, never credited; credited for notes):\n")
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "table\tterminal\treported\tstacked\tuncredited\tcredited\tdifference\t")
	var flagged []string
	for _, n := range res.Notes {
		fmt.Fprintf(tw, "%s\t%s\t", n.TableId, n.TerminalId)
		for _, x := range []*pb.TicketTally{n.Reported, n.Stacked, n.Uncredited, n.Credited} {
			fmt.Fprintf(tw, "%d / %s\t", x.GetCount(), money.Decimal(x.GetAmount()))
		}
		fmt.Fprintf(tw, "%s\t\n", money.Decimal(n.Difference))
		if n.Difference != 0 || n.Uncredited.GetCount() != 0 {
			flagged = append(flagged, fmt.Sprintf("  %s %s: credited %s beyond the notes stacked; %d notes (%s) reported and never credited",
				n.TableId, n.TerminalId, money.Decimal(n.Difference), n.Uncredited.GetCount(), money.Decimal(n.Uncredited.GetAmount())))
		}
	}
	tw.Flush()
	if len(flagged) > 0 {
		fmt.Fprintf(stdout, "\ncheck the cash boxes of:\n%s\n", strings.Join(flagged, "\n"))
	}
	if len(res.Reseals) > 0 {
		// A ledger trusted as it was found (`tableserver reseal`): its figures before then
		// are only as good as that order.
		fmt.Fprintf(stdout, "\nledgers re-sealed as found (trusted by the operator's order):\n")
		for _, m := range res.Reseals {
			fmt.Fprintf(stdout, "  %s %s by %s: %s (%d rows; found %s)\n", m.TableId, when(m.AtUnixNanos), m.By, m.Why, m.SealedRows, m.Found)
		}
	}
	// The AML/CTF threshold transactions of the window, and the patrons whose identified
	// payments of one day reach the threshold over several tickets.
	fmt.Fprintf(stdout, "\ncash payments at or over the %s reporting threshold (threshold transactions):\n", aud(res.ReportingThreshold))
	if len(res.ThresholdPayments) == 0 {
		fmt.Fprintln(stdout, "  none")
	}
	for _, p := range res.ThresholdPayments {
		fmt.Fprintf(stdout, "  %s %s ticket %s paid by %s via %s to %s (%s %s), approved by %s (payment %s)\n", when(p.PaidAtUnixNanos), aud(p.Amount),
			pretty(p.ValidationNumber), p.CashierId, p.ViaTableId, p.Patron.GetName(), p.Patron.GetIdType(), p.Patron.GetIdNumber(), p.ApprovedBy, p.PaymentId)
	}
	if len(res.PatronDays) > 0 {
		fmt.Fprintf(stdout, "\none patron's tickets of a day reaching the threshold together (split payments to check):\n")
		for _, d := range res.PatronDays {
			fmt.Fprintf(stdout, "  %s %s (%s %s): %d tickets, %s (payments %s)\n", d.Day, d.Patron.GetName(), d.Patron.GetIdType(), d.Patron.GetIdNumber(),
				d.Count, aud(d.Amount), strings.Join(d.PaymentIds, ", "))
		}
	}
	return nil
}

// cardRefused is the table's refusal of a card call, printed as the cashier reads it.
type cardRefused string

func (r cardRefused) Error() string { return "REFUSED: " + string(r) }

// cageCard prints a player card as the table answered it; a refusal is the table's words.
func cageCard(w io.Writer) func(*pb.PlayerCard, error) error {
	return func(pc *pb.PlayerCard, err error) error {
		if status.Code(err) == codes.FailedPrecondition {
			return cardRefused(status.Convert(err).Message())
		}
		if err != nil {
			return err
		}
		if pc.Message != "" {
			fmt.Fprintln(w, pc.Message)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "card\t%s\nstate\t%s\n", pc.CardId, pc.State)
		if pc.HolderName != "" {
			fmt.Fprintf(tw, "holder\t%s, %s ending %s\nregistered\t%s by %s\n", pc.HolderName, pc.IdType, pc.IdTail,
				time.Unix(0, pc.RegisteredUnixNanos).Local().Format(time.RFC3339), pc.RegisteredBy)
		}
		if pc.LossLimit > 0 {
			fmt.Fprintf(tw, "limits\tloss %s, time %v, bar %v\nplay\tnet loss %s, held at a seat %s\n", money.InCurrency("AUD", pc.LossLimit),
				time.Duration(pc.TimeLimitSeconds)*time.Second, time.Duration(pc.BarSeconds)*time.Second,
				money.InCurrency("AUD", pc.NetLoss), money.InCurrency("AUD", pc.Reserved))
		}
		if pc.BarredUntilUnixNanos != 0 {
			fmt.Fprintf(tw, "barred\t%s limit reached: until %s\n", pc.BarredFor, time.Unix(0, pc.BarredUntilUnixNanos).Local().Format(time.RFC3339))
		}
		if pc.HeldBy != "" {
			fmt.Fprintf(tw, "at seat\t%s\n", pc.HeldBy)
		}
		return tw.Flush()
	}
}
