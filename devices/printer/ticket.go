package printer

import (
	"fmt"
	"strings"
	"time"
)

// Region is one area of a ticket.
type Region struct {
	ID    int
	Kind  byte // 'T' text, 'B' Interleaved 2 of 5 barcode
	X, Y  int  // dots from the top-left corner
	Scale int  // text magnification, or the barcode's narrow bar width in dots
}

// TicketWidth and TicketHeight are the printable area of a ticket, in dots (about 6.5 × 2.2 in at 203 dpi).
const (
	TicketWidth  = 1320
	TicketHeight = 440
)

// CashoutTemplate is the template number of the cash-out ticket.
const CashoutTemplate = 1

// CashoutRegions lay out the cash-out ticket, in the order its fields fill them.
var CashoutRegions = []Region{
	{1, 'T', 40, 20, 4},    // CASHOUT TICKET
	{2, 'T', 40, 80, 2},    // venue
	{3, 'T', 40, 112, 2},   // terminal and asset number
	{4, 'T', 900, 80, 2},   // date
	{5, 'T', 900, 112, 2},  // time
	{6, 'T', 40, 150, 3},   // validation number, formatted
	{7, 'B', 40, 200, 3},   // barcode of the 18 digits
	{8, 'T', 900, 150, 4},  // amount in figures
	{9, 'T', 40, 340, 2},   // amount in words
	{10, 'T', 900, 230, 2}, // ticket number
	{11, 'T', 40, 390, 2},  // expiry
}

// TemplateCommands are the commands that define the cash-out template on a printer.
func TemplateCommands() []Command {
	var cs []Command
	t := Command{Op: 'T', Fields: []string{fmt.Sprint(CashoutTemplate)}}
	for _, r := range CashoutRegions {
		cs = append(cs, Command{Op: 'R', Fields: []string{fmt.Sprint(r.ID), string(r.Kind), fmt.Sprint(r.X), fmt.Sprint(r.Y), fmt.Sprint(r.Scale)}})
		t.Fields = append(t.Fields, fmt.Sprint(r.ID))
	}
	return append(cs, t)
}

// Ticket is a cash-out ticket.
type Ticket struct {
	Heading    string // "CASHOUT TICKET" when empty; a technician's test ticket says it is void
	Venue      string
	Terminal   string // terminal id
	Asset      string // asset number
	Issued     time.Time
	Validation string // 18 digits
	Cents      int64
	Number     int    // ticket number at this terminal
	Expiry     string // e.g. "VOID AFTER 30 DAYS"
	Currency   string // symbol for the figures, "$" when empty
}

// FormatValidation renders 18 digits as 00-0000-0000-0000-0000.
func FormatValidation(v string) (string, error) {
	if len(v) != 18 || strings.Trim(v, "0123456789") != "" {
		return "", fmt.Errorf("printer: validation number %q is not 18 digits", v)
	}
	return v[:2] + "-" + v[2:6] + "-" + v[6:10] + "-" + v[10:14] + "-" + v[14:], nil
}

// Figures renders cents as "$1,234.56".
func Figures(symbol string, cents int64) string {
	if symbol == "" {
		symbol = "$"
	}
	neg := ""
	if cents < 0 {
		neg, cents = "-", -cents
	}
	whole := fmt.Sprint(cents / 100)
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return fmt.Sprintf("%s%s%s.%02d", neg, symbol, whole, cents%100)
}

var ones = []string{"ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN",
	"ELEVEN", "TWELVE", "THIRTEEN", "FOURTEEN", "FIFTEEN", "SIXTEEN", "SEVENTEEN", "EIGHTEEN", "NINETEEN"}
var tens = []string{"", "", "TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY", "SEVENTY", "EIGHTY", "NINETY"}

func under1000(n int64) string {
	var parts []string
	if n >= 100 {
		parts = append(parts, ones[n/100]+" HUNDRED")
		n %= 100
	}
	switch {
	case n >= 20 && n%10 != 0:
		parts = append(parts, tens[n/10]+"-"+ones[n%10])
	case n >= 20:
		parts = append(parts, tens[n/10])
	case n > 0:
		parts = append(parts, ones[n])
	}
	return strings.Join(parts, " ")
}

func number(n int64) string {
	if n == 0 {
		return "ZERO"
	}
	scales := []struct {
		v int64
		n string
	}{{1_000_000_000_000, "TRILLION"}, {1_000_000_000, "BILLION"}, {1_000_000, "MILLION"}, {1000, "THOUSAND"}}
	var parts []string
	for _, s := range scales {
		if n >= s.v {
			parts = append(parts, number(n/s.v)+" "+s.n)
			n %= s.v
		}
	}
	if n > 0 {
		parts = append(parts, under1000(n))
	}
	return strings.Join(parts, " ")
}

// Words renders cents as "ONE HUNDRED TWENTY-THREE DOLLARS AND FORTY-FIVE CENTS".
func Words(cents int64) string {
	if cents < 0 {
		return "MINUS " + Words(-cents)
	}
	d, c := cents/100, cents%100
	dn, cn := "DOLLARS", "CENTS"
	if d == 1 {
		dn = "DOLLAR"
	}
	if c == 1 {
		cn = "CENT"
	}
	return fmt.Sprintf("%s %s AND %s %s", number(d), dn, number(c), cn)
}

// Fields are the print command's fields for t, in the order of CashoutRegions.
func (t Ticket) Fields() ([]string, error) {
	v, err := FormatValidation(t.Validation)
	if err != nil {
		return nil, err
	}
	if t.Cents <= 0 {
		return nil, fmt.Errorf("printer: a ticket for %d cents", t.Cents)
	}
	if t.Issued.IsZero() {
		return nil, fmt.Errorf("printer: ticket without an issue time")
	}
	heading := t.Heading
	if heading == "" {
		heading = "CASHOUT TICKET"
	}
	return []string{
		heading,
		t.Venue,
		fmt.Sprintf("TERMINAL %s  ASSET %s", t.Terminal, t.Asset),
		t.Issued.Format("2006-01-02"),
		t.Issued.Format("15:04:05"),
		"VALIDATION " + v,
		t.Validation,
		Figures(t.Currency, t.Cents),
		Words(t.Cents),
		fmt.Sprintf("TICKET # %04d", t.Number),
		t.Expiry,
	}, nil
}
