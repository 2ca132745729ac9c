package printer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Status replies as public descriptions of TCL printers give them: GEN2 ("GURUSAG18"), a
// PayCheck 4 emulator ("PAY-6.22B"), a standard-status GEN2 ("GRUSA4100").
func TestParseStatusRealReplies(t *testing.T) {
	cases := []struct {
		in       string
		template byte
		extended bool
		faults   []string
		flags    []Flag
	}{
		// Before the first print the last template is a space.
		{"*S|0|GURUSAG18|@|@|@|@|q|P |*", ' ', true, nil, []Flag{FlagPowerUp, FlagTopOfForm, FlagValidationDone}},
		{"*S|0|PAY-6.22B|@|@|@|@|a|P |*", ' ', true, nil, []Flag{FlagPowerUp, FlagValidationDone}},
		{"*S|0|GURUSAG18|`|@|@|@|@|P0|*", '0', true, nil, []Flag{FlagBusy}},
		{"*S|0|GURUSAG18|`|@|@|@|b|P9|*", '9', true, nil, []Flag{FlagBusy, FlagBarcodeAccessed, FlagValidationDone}},
		{"*S|0|PAY-6.22B|@|@|H|@|p|P9|*", '9', true, nil, []Flag{FlagPaperInChute, FlagValidationDone, FlagTopOfForm}},
		{"*S|0|GURUSAG18|@|@|@|@|@|Px|*", 'x', true, nil, nil},
		{"*S|0|PAY-6.22B|D|@|@|A|@|P1|*", '1', true, []string{"paper out"}, []Flag{FlagPaperLow}},
		{"*S|0|PAY-6.22B|H|@|@|B|D|P1|*", '1', true, []string{"print head up (platen open)", "chassis open", "paper jam"}, nil},
		{"*S|0|GURUSAG18|@|H|@|@|p|P |*", ' ', true, []string{"print data corrupted (print region data error)"}, nil},
		{"*S|0|GURUSAG18|@|P|`|@|p|P |*", ' ', true, []string{"template references a missing region or template", "command error"}, nil},
		// A status byte can itself be '|': busy, system error, head up and paper out.
		{"*S|0|GURUSAG18|||@|@|@|@|P1|*", '1', true, []string{"paper out", "print head up (platen open)", "system error"}, []Flag{FlagBusy}},
		// The standard status: three status bytes.
		{"*S|0|GRUSA4100|T|@|@|P |*", ' ', false, []string{"paper out", "system error"}, nil},
		{"*S|0|GRUSA4100|@|@|H|P9|*", '9', false, nil, []Flag{FlagPaperInChute}},
	}
	for _, c := range cases {
		s, err := ParseStatus([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if s.Template != c.template || s.Extended != c.extended {
			t.Errorf("%s: template %q extended %v, want %q %v", c.in, s.Template, s.Extended, c.template, c.extended)
		}
		if got := s.Faults(); strings.Join(got, ",") != strings.Join(c.faults, ",") {
			t.Errorf("%s: faults %q, want %q", c.in, got, c.faults)
		}
		for _, f := range c.flags {
			if !s.Has(f) {
				t.Errorf("%s: flag %+v not up", c.in, f)
			}
		}
		back, err := s.Encode()
		if err != nil || string(back) != c.in {
			t.Errorf("%s re-encodes to %s (%v)", c.in, back, err)
		}
	}
	bad := []string{
		"*S|0|GURUSAG18|@|@|@|@|@|P0|",     // short
		"*S|0|GURUSAG18|@|@|@|@|@|P0|**",   // long
		"*X|0|GURUSAG18|@|@|@|@|@|P0|*",    // not a status
		"*S|0|GURUSAG1|@|@|@|@|@|P0||*",    // firmware of 8
		"*S|0|GURUS\x01G18|@|@|@|@|@|P0|*", // control character in the firmware id
		"*S|0|GURUSAG18|@|@|@|@|\x00|P0|*", // status byte without bit 6
		"*S|0|GURUSAG18|@|@|@|@|@@P0|*",    // separator missing
		"*S|||GURUSAG18|@|@|@|@|@|P0|*",    // address '|'
		"*S|0|GURUSAG18|@|@|@|@|@|Q0|*",    // no P
		"*S|0|GURUSAG18|@|@|@|@|@|P\x00|*", // last template not printable
		"*S|0|GRUSA4100|T|@|@|P |x",        // standard status not ending |*
	}
	for _, b := range bad {
		b = strings.NewReplacer("\\x00", "\x00", "\\x01", "\x01").Replace(b)
		if _, err := ParseStatus([]byte(b)); !errors.Is(err, ErrStatus) {
			t.Errorf("%q: %v, want ErrStatus", b, err)
		}
	}
}

func TestStatusReaderSkipsNoise(t *testing.T) {
	stream := "xx*" + "*S|0|GURUSAG18|@|@|@|@|q|P |*" + "\r\n" +
		"*S|0|GURUSAG18|@|@|@|@|\x00|P0|*" + // a misframed reply: skipped
		"*S|0|GRUSA4100|T|@|@|P |*" + // a standard one
		"*S|0|GURUSAG18|`|@|@|@|@|P9|*"
	r := NewStatusReader(strings.NewReader(stream))
	var got []string
	noise := 0
	for {
		s, err := r.Next()
		if err == io.EOF {
			break
		}
		var ne *NoiseError
		if errors.As(err, &ne) {
			noise++
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%c%v", s.Template, s.Extended))
	}
	if strings.Join(got, ",") != " true, false,9true" || noise == 0 {
		t.Fatalf("statuses %q, %d noise reports", got, noise)
	}
}

func TestCommandEncoding(t *testing.T) {
	b, err := Command{Op: 'P', Fields: []string{"1", "1", "A B"}}.Encode()
	if err != nil || string(b) != "^P|1|1|A B|^" {
		t.Fatalf("%q %v", b, err)
	}
	c, err := ParseCommand(string(b[1 : len(b)-1]))
	if err != nil || c.Op != 'P' || len(c.Fields) != 3 || c.Fields[2] != "A B" {
		t.Fatalf("%+v %v", c, err)
	}
	for _, f := range []string{"a|b", "a^b", "a\nb", "a~124b"} {
		if _, err := (Command{Op: 'P', Fields: []string{f}}).Encode(); !errors.Is(err, ErrField) {
			t.Errorf("%q: %v", f, err)
		}
	}
	for _, b := range []string{"", "P", "PX", "P|x", "||", " |"} {
		if _, err := ParseCommand(b); !errors.Is(err, ErrCommand) {
			t.Errorf("%q: %v", b, err)
		}
	}
}

// The definitions a printer refuses, the old private forms among them.
func TestDefinitionsRefused(t *testing.T) {
	for _, body := range []string{
		"R|1|T|40|20|4|",                        // the short private form
		"R|11|R|20|40|60|1020||1|0|2|4|4|0|0||", // a two-character id
		"R|A|X|20|40|60|1020||1|0|2|4|4|0|0||",  // no such memory
		"R|A|R|500|40|60|1020||1|0|2|4|4|0|0||", // off the ticket across
		"R|A|R|20|100|60|1020||1|0|2|4|4|0|0||", // off the ticket along
		"R|A|R|20|40|60|1020||4|0|2|4|4|0|0||",  // no rotation 4
		"R|A|R|20|40|60|1020||1|3|2|4|4|0|0||",  // no justification 3
		"R|A|R|20|40|60|1020||1|0|Z|4|4|0|0||",  // no object Z
		"R|A|R|20|40|60|1020||1|0|2|0|4|0|0||",  // magnification 0
		"R|G|R|210|40|110|700||1|0|l|3|5|0|0||", // barcode wide less than twice narrow
		"R|A|R|20|40|60|1020||1|0|2|4|4|0|1|X|", // static data
		"R|A|R|-1|40|60|1020||1|0|2|4|4|0|0||",  // a negative start
		"R|A|R|+20|40|60|1020||1|0|2|4|4|0|0||", // a sign
		"R|^|R|20|40|60|1020||1|0|2|4|4|0|0||",  // an id that is a delimiter
		"T|1|1|2|3|4|5|6|7|8|9|10|11|",          // the private template form
		"T|10|R|512|1100|A|",                    // a two-character id
		"T|1|R|513|1100|A|",                     // wider than the head
		"T|1|R|512|1100|",                       // no regions
		"T|1|R|512|1100|AB|",                    // a two-character region id
	} {
		c, err := ParseCommand(body)
		if err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		if c.Op == 'R' {
			_, err = ParseRegion(c)
		} else {
			_, err = ParseTemplate(c)
		}
		if !errors.Is(err, ErrDefinition) {
			t.Errorf("%q: %v, want ErrDefinition", body, err)
		}
	}
}

func TestPrintCommandKeepsFieldsInTheirRegions(t *testing.T) {
	tk := Ticket{Venue: "GRAND CASINO", Terminal: "07", Asset: "A1234", Issued: time.Date(2026, 11, 22, 14, 5, 33, 0, time.UTC),
		Validation: "001234567890123456", Cents: 77777777, Number: 12, Expiry: "VOID AFTER 30 DAYS"}
	f, err := tk.Fields()
	if err != nil {
		t.Fatal(err)
	}
	c, err := PrintCommand(f)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Encode()
	if !strings.HasPrefix(string(b), "^P|1|1|CASHOUT TICKET|GRAND CASINO|TERMINAL 07  ASSET A1234|2026-11-22|14:05:33|") {
		t.Fatalf("%s", b)
	}
	long := append([]string(nil), f...)
	long[1] = strings.Repeat("V", 46) // region B holds 640/14 = 45
	if _, err := PrintCommand(long); err == nil || !strings.Contains(err.Error(), "holds 45") {
		t.Fatalf("a venue too long: %v", err)
	}
	odd := append([]string(nil), f...)
	odd[6] = "123"
	if _, err := PrintCommand(odd); err == nil {
		t.Fatal("an odd barcode was taken")
	}
	if _, err := PrintCommand(f[:3]); err == nil {
		t.Fatal("three fields were taken")
	}
}

func TestWordsAndFigures(t *testing.T) {
	cases := []struct {
		c       int64
		figures string
		words   string
	}{
		{1, "$0.01", "ZERO DOLLARS AND ONE CENT"},
		{100, "$1.00", "ONE DOLLAR AND ZERO CENTS"},
		{12345, "$123.45", "ONE HUNDRED TWENTY-THREE DOLLARS AND FORTY-FIVE CENTS"},
		{2000000, "$20,000.00", "TWENTY THOUSAND DOLLARS AND ZERO CENTS"},
		{100001999, "$1,000,019.99", "ONE MILLION NINETEEN DOLLARS AND NINETY-NINE CENTS"},
		{1170, "$11.70", "ELEVEN DOLLARS AND SEVENTY CENTS"},
	}
	for _, c := range cases {
		if got := Figures("", c.c); got != c.figures {
			t.Errorf("Figures(%d) = %q, want %q", c.c, got, c.figures)
		}
		if got := Words(c.c); got != c.words {
			t.Errorf("Words(%d) = %q, want %q", c.c, got, c.words)
		}
	}
	if v, err := FormatValidation("001234567890123456"); err != nil || v != "00-1234-5678-9012-3456" {
		t.Fatalf("%q %v", v, err)
	}
	for _, v := range []string{"", "12345678901234567", "00123456789012345x"} {
		if _, err := FormatValidation(v); err == nil {
			t.Errorf("%q formatted", v)
		}
	}
}

func TestTicketFields(t *testing.T) {
	tk := Ticket{Venue: "GRAND CASINO", Terminal: "07", Asset: "A1234", Issued: time.Date(2026, 11, 22, 14, 5, 33, 0, time.UTC),
		Validation: "001234567890123456", Cents: 12345, Number: 12, Expiry: "VOID AFTER 30 DAYS"}
	f, err := tk.Fields()
	if err != nil {
		t.Fatal(err)
	}
	if len(f) != len(CashoutRegions) || f[0] != "CASHOUT TICKET" || f[5] != "VALIDATION 00-1234-5678-9012-3456" || f[6] != tk.Validation || f[9] != "TICKET # 0012" {
		t.Fatalf("fields %q", f)
	}
	tk.Venue = "BAD|VENUE"
	f, _ = tk.Fields()
	if _, err := (Command{Op: 'P', Fields: f}).Encode(); err == nil {
		t.Fatal("a venue with | was sent")
	}
	for _, bad := range []Ticket{{Validation: "1", Cents: 1, Issued: tk.Issued}, {Validation: tk.Validation, Issued: tk.Issued}, {Validation: tk.Validation, Cents: 1}} {
		if _, err := bad.Fields(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func FuzzStatusReader(f *testing.F) {
	f.Add([]byte("*S|0|GURUSAG18|@|@|@|@|q|P |*"))
	f.Add([]byte("*S|0|GURUSAG18|`|@|@|@|b|P9|*"))
	f.Add([]byte("**S|*S|0|GURUSAG18|||@|@|@|@|P0|*x"))
	f.Add([]byte("*S|0|GRUSA4100|T|@|@|P |**S|0|PAY-6.22B|@|@|H|@|p|P9|*"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewStatusReader(bytes.NewReader(b))
		for range len(b) + 2 {
			s, err := r.Next()
			if err == io.EOF {
				return
			}
			var ne *NoiseError
			if errors.As(err, &ne) {
				if len(ne.Skipped) == 0 {
					t.Fatal("a noise report that skipped nothing")
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := s.Encode()
			if err != nil {
				t.Fatalf("accepted status does not encode: %v", err)
			}
			again, err := ParseStatus(out)
			if err != nil || again != s {
				t.Fatalf("%q re-parses to %+v (%v), was %+v", out, again, err, s)
			}
		}
		t.Fatalf("reader did not finish %d bytes", len(b))
	})
}

func FuzzParseCommand(f *testing.F) {
	f.Add("P|1|1|A|")
	f.Add("R|A|R|20|40|60|1020||1|0|2|4|4|0|0||")
	f.Add("R|G|R|210|40|110|700||1|0|l|3|9|0|0||")
	f.Add("T|1|R|512|1100|A|B|C|D|E|F|G|H|I|J|K|")
	f.Add("R|1|T|40|20|4|")
	f.Fuzz(func(t *testing.T, body string) {
		c, err := ParseCommand(body)
		if err != nil {
			return
		}
		b, err := c.Encode()
		if err == nil && string(b) != "^"+body+"^" {
			t.Fatalf("%q re-encodes to %q", body, b)
		}
		// A definition a printer takes says the same after a round trip.
		switch c.Op {
		case 'R':
			if r, err := ParseRegion(c); err == nil {
				back, err := ParseRegion(r.Command())
				if err != nil || !reflect.DeepEqual(back, r) {
					t.Fatalf("region %+v re-parses to %+v (%v)", r, back, err)
				}
			}
		case 'T':
			if tp, err := ParseTemplate(c); err == nil {
				back, err := ParseTemplate(tp.Command())
				if err != nil || !reflect.DeepEqual(back, tp) {
					t.Fatalf("template %+v re-parses to %+v (%v)", tp, back, err)
				}
			}
		}
	})
}
