package emulator

import (
	"strings"
	"testing"
	"time"

	"github.com/tablegames/ats/devices/printer"
)

func body(t *testing.T, c printer.Command) string {
	t.Helper()
	b, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return string(b[1 : len(b)-1])
}

// At power-up the printer says so, has validation done and top of form up, and names no
// template printed: "P ".
func TestPrinterPowerUpStatus(t *testing.T) {
	p := NewPrinter(PrinterConfig{})
	if got := string(p.statusReply()); got != "*S|0|ATSEMU101|@|@|@|@|q|P |*" {
		t.Fatalf("power-up status %q", got)
	}
	if got := string(p.command("S|")); got != "*S|0|ATSEMU101|@|@|@|@|q|P |*" {
		t.Fatalf("^S|^ answered %q", got)
	}
	p.command("C|")
	if got := string(p.statusReply()); got != "*S|0|ATSEMU101|@|@|@|@|p|P |*" {
		t.Fatalf("after ^C|^: %q", got)
	}
}

// What a printer refuses, it refuses with the flag a printer raises; ^C|^ clears them.
func TestPrinterRefusesMalformedCommands(t *testing.T) {
	cases := []struct {
		body string
		flag printer.Flag
	}{
		{"R|1|T|40|20|4|", printer.FlagDataCorrupted},                        // the old private region form
		{"R|11|R|20|40|60|1020||1|0|2|4|4|0|0||", printer.FlagDataCorrupted}, // two-character id
		{"T|1|1|2|3|", printer.FlagDataCorrupted},                            // the old private template form
		{"T|1|R|512|1100|A|", printer.FlagLibraryRef},                        // a region never defined
		{"P|1|1|x|", printer.FlagLibraryRef},                                 // a template never defined
		{"Q|", printer.FlagCommandError},                                     // no such command
		{"garbage", printer.FlagCommandError},                                // not a command
		{"f|X|", printer.FlagCommandError},                                   // a form feed of nothing
	}
	for _, c := range cases {
		p := NewPrinter(PrinterConfig{})
		p.command("C|")
		p.command(c.body)
		if !p.st.Has(c.flag) {
			t.Errorf("%q: status %v, want %+v up", c.body, p.st, c.flag)
		}
		p.command("C|")
		if f := p.st.Faults(); len(f) != 0 {
			t.Errorf("%q: ^C|^ left %q", c.body, f)
		}
	}
	// A print whose fields do not fit, or whose count is wrong, is refused and prints nothing.
	p := NewPrinter(PrinterConfig{})
	for _, c := range printer.TemplateCommands() {
		p.command(body(t, c))
	}
	fields := []string{"CASHOUT TICKET", "V", "T", "D", "T", "VALIDATION", "001234567890123456", "$1.00", "ONE", "TICKET # 0001", "X"}
	long := append([]string(nil), fields...)
	long[1] = strings.Repeat("V", 60)
	odd := append([]string(nil), fields...)
	odd[6] = "123"
	for _, f := range [][]string{long, odd, fields[:5]} {
		p.command("C|")
		p.command(body(t, printer.Command{Op: 'P', Fields: append([]string{"1", "1"}, f...)}))
		if !p.st.Has(printer.FlagDataCorrupted) || p.job != nil {
			t.Errorf("print of %q taken: %v", f, p.st)
		}
	}
	if p.st.Template != printer.NoTemplate {
		t.Fatalf("a refused print named template %q", p.st.Template)
	}
}

// A job's flags, step by step: busy with validation done and top of form down, barcode accessed,
// validation done, not busy with the template named and the ticket in the chute, top of form.
func TestPrinterJobFlagSequence(t *testing.T) {
	cfg := PrinterConfig{Start: 10 * time.Millisecond, Print: time.Second, Feed: 100 * time.Millisecond, Take: time.Hour}
	p := NewPrinter(cfg)
	p.command("C|")
	for _, c := range printer.TemplateCommands() {
		p.command(body(t, c))
	}
	fields := []string{"CASHOUT TICKET", "V", "T", "D", "T", "VALIDATION", "001234567890123456", "$1.00", "ONE", "TICKET # 0001", "X"}
	p.command(body(t, printer.Command{Op: 'P', Fields: append([]string{"1", "1"}, fields...)}))
	if p.job == nil {
		t.Fatalf("print refused: %v", p.st)
	}
	t0 := p.job.start
	steps := []struct {
		at   time.Duration
		want string
	}{
		{5 * time.Millisecond, "@|@|@|@|p|P "},    // still taking the command in: last job's flags
		{20 * time.Millisecond, "`|@|@|@|@|P "},   // busy
		{420 * time.Millisecond, "`|@|@|@|B|P "},  // barcode data accessed
		{520 * time.Millisecond, "`|@|@|@|b|P "},  // validation done
		{1020 * time.Millisecond, "@|@|H|@|b|P1"}, // out: not busy, in the chute, template 1
		{1120 * time.Millisecond, "@|@|H|@|r|P1"}, // top of form
	}
	for _, s := range steps {
		p.advance(t0.Add(s.at))
		b, _ := p.st.Encode()
		if got := string(b[15:27]); got != s.want {
			t.Errorf("at %v: %q, want %q", s.at, got, s.want)
		}
	}
	if len(p.printed) != 1 || !p.printed[0].Complete || p.paper != 199 {
		t.Fatalf("printed %d, paper %d", len(p.printed), p.paper)
	}
}

// Issue 32 point 12: the README's recovery after "paper-out" is "clear". It answered "faults
// cleared" but left the printer out of paper, so the kiosk kept "paper out" and Cash out off.
// Clear is the operator having seen to every fault: the paper is loaded again too, and the
// answer says so.
func TestPrinterClearAfterPaperOutRecoversThePrinter(t *testing.T) {
	p := NewPrinter(PrinterConfig{})
	if _, err := p.Command("paper-out"); err != nil {
		t.Fatal(err)
	}
	if !p.st.Has(printer.FlagPaperOut) {
		t.Fatalf("paper-out: status %v", p.st)
	}
	msg, err := p.Command("clear")
	if err != nil {
		t.Fatal(err)
	}
	if p.st.Has(printer.FlagPaperOut) || p.st.Has(printer.FlagPaperLow) {
		t.Errorf("clear answered %q and left the status %v", msg, p.st)
	}
	if !strings.Contains(msg, "paper loaded") {
		t.Errorf("clear answered %q: it loaded paper and must say so", msg)
	}
}
