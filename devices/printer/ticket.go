package printer

import (
	"fmt"
	"strings"
	"time"
)

// CashoutTemplate is the id of the cash-out ticket's template.
const CashoutTemplate byte = '1'

// text and barcode build the cash-out regions: all in RAM (a power-up forgets them and the
// driver defines them again), printed along the paper so the ticket reads in landscape.
func text(id byte, x, y, dx, dy, m1, m2 int) Region {
	return Region{ID: id, Mem: MemRAM, X: x, Y: y, DX: dx, DY: dy, Rot: RotDown, Just: JustLeft, Object: "2", M1: m1, M2: m2}
}

// CashoutRegions lay out the cash-out ticket, in the order its fields fill them. x and dx are
// across the ticket (its height as read), y and dy along it (its width as read).
var CashoutRegions = []Region{
	text('A', 20, 40, 60, 1020, 4, 4),  // CASHOUT TICKET
	text('B', 90, 40, 30, 640, 2, 2),   // venue
	text('C', 122, 40, 30, 640, 2, 2),  // terminal and asset number
	text('D', 90, 760, 30, 300, 2, 2),  // date
	text('E', 122, 760, 30, 300, 2, 2), // time
	text('F', 160, 40, 42, 700, 3, 3),  // validation number, formatted
	{ID: 'G', Mem: MemRAM, X: 210, Y: 40, DX: 110, DY: 700, Rot: RotDown, Just: JustLeft, Object: ObjectI2of5, M1: 3, M2: 9}, // barcode of the 18 digits
	text('H', 160, 760, 42, 300, 3, 3), // amount in figures
	text('I', 340, 40, 30, 1020, 1, 2), // amount in words: narrow, to hold large amounts
	text('J', 230, 760, 30, 300, 2, 2), // ticket number
	text('K', 390, 40, 30, 1020, 2, 2), // expiry
}

// CashoutTemplateDef is the cash-out template: the whole printable area, the regions in order.
func CashoutTemplateDef() Template {
	t := Template{ID: CashoutTemplate, Mem: MemRAM, DX: TicketAcross, DY: TicketAlong}
	for _, r := range CashoutRegions {
		t.Regions = append(t.Regions, r.ID)
	}
	return t
}

// TemplateCommands are the commands that define the cash-out template on a printer: every
// region, then the template.
func TemplateCommands() []Command {
	var cs []Command
	for _, r := range CashoutRegions {
		cs = append(cs, r.Command())
	}
	return append(cs, CashoutTemplateDef().Command())
}

// PrintCommand is the command that prints fields with the cash-out template, one copy. It checks
// that every field can be sent and fits its region (a printer would truncate it and report a
// print region data error), and that the barcode is digits.
func PrintCommand(fields []string) (Command, error) {
	if len(fields) != len(CashoutRegions) {
		return Command{}, fmt.Errorf("printer: %d fields for %d regions", len(fields), len(CashoutRegions))
	}
	for i, f := range fields {
		if err := CheckField(f); err != nil {
			return Command{}, err
		}
		r := CashoutRegions[i]
		if r.Barcode() {
			if len(f) == 0 || len(f)%2 != 0 || strings.Trim(f, "0123456789") != "" {
				return Command{}, fmt.Errorf("printer: barcode %q is not an even number of digits", f)
			}
			continue
		}
		if n := len([]rune(f)); n > r.Holds() {
			return Command{}, fmt.Errorf("printer: %q is %d characters; region %c holds %d", f, n, r.ID, r.Holds())
		}
	}
	return Command{Op: 'P', Fields: append([]string{string(CashoutTemplate), "1"}, fields...)}, nil
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
	Currency   string // symbol for the figures, "$" when empty; ASCII (the printer's fonts)
	Units      Units  // the currency's words for the amount in words; dollars when zero
}

// Units are a currency's unit and hundredth in words, singular and plural (app/money.UnitsOf).
type Units struct{ One, Many, HundredthOne, HundredthMany string }

// TestTicket is a technician's test ticket: it says VOID on its heading, carries an all-zero
// validation number no table ever issues (so it can never be redeemed) and a nominal cent.
// atsctl device printer test-ticket and the kiosk's devices page print the same one.
func TestTicket(terminal, asset string, at time.Time) Ticket {
	return Ticket{Heading: "TEST TICKET - VOID", Venue: "TECHNICIAN TEST", Terminal: terminal, Asset: asset,
		Issued: at, Validation: "000000000000000000", Cents: 1, Number: 0, Expiry: "NOT NEGOTIABLE"}
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
func Words(cents int64) string { return Units{}.Words(cents) }

// Words renders cents in these units ("TWENTY EUROS AND ZERO CENTS"); zero Units are dollars.
func (u Units) Words(cents int64) string {
	if u == (Units{}) {
		u = Units{"DOLLAR", "DOLLARS", "CENT", "CENTS"}
	}
	if cents < 0 {
		return "MINUS " + u.Words(-cents)
	}
	d, c := cents/100, cents%100
	dn, cn := u.Many, u.HundredthMany
	if d == 1 {
		dn = u.One
	}
	if c == 1 {
		cn = u.HundredthOne
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
		t.Units.Words(t.Cents),
		fmt.Sprintf("TICKET # %04d", t.Number),
		t.Expiry,
	}, nil
}
