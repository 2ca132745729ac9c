package printer

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseStatusFixtures(t *testing.T) {
	cases := []struct {
		in     string
		faults []string
		flags  []Flag
	}{
		{"*S|0|GURUSAG18|@|@|@|@|@|P0|*", nil, nil},
		{"*S|0|GURUSAG18|P|@|@|@|A|P0|*", []string{"system error"}, []Flag{FlagPowerUp}},
		{"*S|0|PAY-6.22B|`|@|@|@|R|P1|*", nil, []Flag{FlagBusy, FlagValidationPrinted, FlagTopOfForm}},
		{"*S|0|PAY-6.22B|D|@|@|A|@|P1|*", []string{"paper out"}, []Flag{FlagPaperLow}},
		{"*S|0|PAY-6.22B|H|@|@|B|D|P1|*", []string{"print head up (platen open)", "chassis open", "paper jam"}, nil},
	}
	for _, c := range cases {
		s, err := ParseStatus([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
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
		"*X|0|GURUSAG18|@|@|@|@|@|P0|*",    // not a status
		"*S|0|GURUSAG1|@|@|@|@|@|P0||*",    // firmware of 8
		"*S|0|GURUSAG18|@|@|@|@|\x00|P0|*", // status byte without bit 6
		"*S|x|GURUSAG18|@|@|@|@|@|P0|*",    // address not a digit
		"*S|0|GURUSAG18|@|@|@|@|@|Q0|*",    // no P
	}
	for _, b := range bad {
		if _, err := ParseStatus([]byte(b)); !errors.Is(err, ErrStatus) {
			t.Errorf("%q: %v, want ErrStatus", b, err)
		}
	}
}

func TestStatusReaderSkipsNoise(t *testing.T) {
	good := "*S|0|GURUSAG18|@|@|@|@|@|P0|*"
	stream := "xx*" + good + "*S|0|GURUSAG18|@|@|@|@|@|P0|X" + good
	r := NewStatusReader(strings.NewReader(stream))
	var got, noise int
	for {
		_, err := r.Next()
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
		got++
	}
	if got != 2 || noise == 0 {
		t.Fatalf("%d statuses, %d noise reports", got, noise)
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
	for _, f := range []string{"a|b", "a^b", "a\nb"} {
		if _, err := (Command{Op: 'P', Fields: []string{f}}).Encode(); !errors.Is(err, ErrField) {
			t.Errorf("%q: %v", f, err)
		}
	}
	for _, b := range []string{"", "P", "PX", "P|x"} {
		if _, err := ParseCommand(b); err == nil {
			t.Errorf("%q parsed", b)
		}
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
	f.Add([]byte("*S|0|GURUSAG18|@|@|@|@|@|P0|*"))
	f.Add([]byte("**S|*S|0|GURUSAG18|P|@|@|@|A|P0|*x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := NewStatusReader(bytes.NewReader(b))
		for range len(b) + 2 {
			s, err := r.Next()
			if err == io.EOF {
				return
			}
			var ne *NoiseError
			if errors.As(err, &ne) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Encode(); err != nil {
				t.Fatalf("accepted status does not encode: %v", err)
			}
		}
		t.Fatalf("reader did not finish %d bytes", len(b))
	})
}

func FuzzParseCommand(f *testing.F) {
	f.Add("P|1|1|A|")
	f.Add("R|1|T|0|0|2|")
	f.Fuzz(func(t *testing.T, body string) {
		c, err := ParseCommand(body)
		if err != nil {
			return
		}
		b, err := c.Encode()
		if err != nil {
			return // a field with a control character: refused, not sent
		}
		if string(b) != "^"+body+"^" {
			t.Fatalf("%q re-encodes to %q", body, b)
		}
	})
}
