package emulator

import (
	"strings"
	"testing"
)

func TestI2of5RoundTrip(t *testing.T) {
	for _, d := range []string{"00", "001234567890123456", "998877665544332211"} {
		w, err := I2of5(d, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(w) != 4+5*len(d)+3 {
			t.Fatalf("%s: %d elements", d, len(w))
		}
		got, err := DecodeI2of5(w)
		if err != nil || got != d {
			t.Fatalf("%s decodes to %s (%v)", d, got, err)
		}
	}
	for _, d := range []string{"", "123", "12a4"} {
		if _, err := I2of5(d, 3); err == nil {
			t.Errorf("%q encoded", d)
		}
	}
	w, _ := I2of5("12", 3)
	w[0] = 3 // a wide start bar
	if _, err := DecodeI2of5(w); err == nil {
		t.Error("a bad start pattern decoded")
	}
}

func TestOperatorCommandsExplainMistakes(t *testing.T) {
	n := NewNoteAcceptor(NoteAcceptorConfig{})
	p := NewPrinter(PrinterConfig{})
	w := NewWheel(WheelConfig{})
	for _, c := range []struct {
		run  func(string) (string, error)
		line string
		want string
	}{
		{n.Command, "note", "takes one argument"},
		{n.Command, "note twenty", "amount in cents"},
		{n.Command, "note 300", "no note of 300 cents"},
		{n.Command, "ticket 12ab", "not all digits"},
		{n.Command, "failure zz", "hex code"},
		{n.Command, "dance", "unknown command"},
		{p.Command, "dance", "unknown command"},
		{w.Command, "dance", "unknown command"},
		{w.Command, "spin", "spin <rpm>"},
		{w.Command, "spin fast", "not a number"},
		{w.Command, "spin 100", "outside 0–99"},
		{w.Command, "spin 20 up", "want cw or ccw"},
		{w.Command, "drop", "no ball in play"},
		{w.Command, "read 17", "no ball in play"},
		{w.Command, "fault dirty 3", "want 1 or 2"},
		{w.Command, "fault smoke", "unknown fault"},
	} {
		_, err := c.run(c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.line, err, c.want)
		}
	}
}
