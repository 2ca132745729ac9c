// Package printer drives a ticket printer that speaks TCL (the ASCII ticket command language of
// casino TITO printers) and holds the cash-out ticket template.
//
// # The protocol, as this package speaks it
//
// Commands are ASCII between carets, fields separated by '|': "^P|1|1|field…|^". A field may not
// contain '^' or '|' (there is no escape), so Print refuses such text rather than garble a ticket.
//
//	^R|id|kind|x|y|scale|^   define region id: kind T (text) or B (Interleaved 2 of 5 barcode),
//	                         top-left corner in dots (203 dpi), text scale or barcode narrow bar width
//	^T|id|r1|r2|…|^          define template id as the regions its fields fill, in order
//	^P|id|copies|f1|f2|…|^   print template id with the fields
//	^C|^                     clear the error flags the host may clear (command error)
//
// Status: the host sends ENQ (0x05); the printer answers "*S|a|fffffffff|1|2|3|4|5|Pt|*", 29
// bytes with a one-character template number — address, a 9-character firmware id, five status
// bytes, the last template printed. Each status byte has bit 6 set (0x40, '@' when no flag is
// up), so the reply stays printable:
//
//	s1: 01 voltage error  02 head error      04 paper out        08 head up (platen open) 10 system error    20 busy
//	s2: 01 job memory full 02 buffer overflow 04 library load err 08 print data error     10 library ref err 20 temperature
//	s3: 01 missing supply 02 offline         04 flash error      08 paper in chute        10 library corrupt 20 command error
//	s4: 01 paper low      02 paper jam       04 cutter error     08 journal printing
//	s5: 01 power up (templates lost)  02 validation number printed  04 chassis open  08 XOFF  10 top of form  20 validation done
//
// A job is done only when the status has gone busy → validation printed → not busy → top of form.
package printer

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// ENQ asks for the status.
const ENQ = 0x05

// StatusLen is the length of a status reply.
const StatusLen = 29

// Status flags, by byte (index 0 is s1) and bit.
type Flag struct {
	Byte int
	Bit  byte
}

// The flags the driver acts on.
var (
	FlagVoltageError      = Flag{0, 0x01}
	FlagHeadError         = Flag{0, 0x02}
	FlagPaperOut          = Flag{0, 0x04}
	FlagHeadUp            = Flag{0, 0x08}
	FlagSystemError       = Flag{0, 0x10}
	FlagBusy              = Flag{0, 0x20}
	FlagJobMemoryOverflow = Flag{1, 0x01}
	FlagBufferOverflow    = Flag{1, 0x02}
	FlagLibraryLoad       = Flag{1, 0x04}
	FlagDataCorrupted     = Flag{1, 0x08}
	FlagLibraryRef        = Flag{1, 0x10}
	FlagTemperature       = Flag{1, 0x20}
	FlagMissingSupply     = Flag{2, 0x01}
	FlagOffline           = Flag{2, 0x02}
	FlagFlashError        = Flag{2, 0x04}
	FlagPaperInChute      = Flag{2, 0x08}
	FlagLibraryCorrupted  = Flag{2, 0x10}
	FlagCommandError      = Flag{2, 0x20}
	FlagPaperLow          = Flag{3, 0x01}
	FlagJam               = Flag{3, 0x02}
	FlagCutterError       = Flag{3, 0x04}
	FlagJournalMode       = Flag{3, 0x08}
	FlagPowerUp           = Flag{4, 0x01}
	FlagValidationPrinted = Flag{4, 0x02}
	FlagChassisOpen       = Flag{4, 0x04}
	FlagXOFF              = Flag{4, 0x08}
	FlagTopOfForm         = Flag{4, 0x10}
	FlagValidationDone    = Flag{4, 0x20}
)

// faults are the flags that stop printing, with what a technician is told.
var faults = []struct {
	f   Flag
	msg string
}{
	{FlagPaperOut, "paper out"},
	{FlagHeadUp, "print head up (platen open)"},
	{FlagChassisOpen, "chassis open"},
	{FlagJam, "paper jam"},
	{FlagCutterError, "cutter error"},
	{FlagSystemError, "system error"},
	{FlagHeadError, "print head error"},
	{FlagVoltageError, "supply voltage error"},
	{FlagTemperature, "print head temperature error"},
	{FlagLibraryRef, "template references a missing region"},
	{FlagDataCorrupted, "print data corrupted"},
	{FlagLibraryLoad, "template library load error"},
	{FlagBufferOverflow, "buffer overflow"},
	{FlagJobMemoryOverflow, "job memory overflow"},
	{FlagCommandError, "command error"},
	{FlagLibraryCorrupted, "template library corrupted"},
	{FlagFlashError, "flash memory error"},
	{FlagOffline, "printer offline"},
	{FlagMissingSupply, "missing supply index"},
}

// Status is a parsed status reply.
type Status struct {
	Addr     byte
	Firmware string
	Bytes    [5]byte // flag bits only (bit 6 removed)
	Template byte    // last template printed, '0' for none
}

// Has reports whether flag f is up.
func (s Status) Has(f Flag) bool { return s.Bytes[f.Byte]&f.Bit != 0 }

// Set raises flag f (for the emulator).
func (s *Status) Set(f Flag, on bool) {
	if on {
		s.Bytes[f.Byte] |= f.Bit
	} else {
		s.Bytes[f.Byte] &^= f.Bit
	}
}

// Faults lists what stops the printer, in words; empty when it can print.
func (s Status) Faults() []string {
	var out []string
	for _, f := range faults {
		if s.Has(f.f) {
			out = append(out, f.msg)
		}
	}
	return out
}

func (s Status) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "printer %s:", s.Firmware)
	for _, f := range []struct {
		f Flag
		n string
	}{{FlagBusy, "busy"}, {FlagPaperLow, "paper low"}, {FlagPowerUp, "power up"}, {FlagValidationPrinted, "validation printed"}, {FlagTopOfForm, "top of form"}, {FlagPaperInChute, "ticket in chute"}} {
		if s.Has(f.f) {
			b.WriteString(" " + f.n)
		}
	}
	for _, f := range s.Faults() {
		b.WriteString(" " + f)
	}
	return b.String()
}

// Encode renders the 29-byte reply.
func (s Status) Encode() ([]byte, error) {
	if len(s.Firmware) != 9 {
		return nil, fmt.Errorf("printer: firmware id %q is not 9 characters", s.Firmware)
	}
	if s.Addr < '0' || s.Addr > '9' || s.Template < '0' || s.Template > '9' {
		return nil, fmt.Errorf("printer: address %q or template %q out of range", s.Addr, s.Template)
	}
	b := fmt.Appendf(nil, "*S|%c|%s|", s.Addr, s.Firmware)
	for _, x := range s.Bytes {
		b = append(b, 0x40|x&0x3F, '|')
	}
	b = fmt.Appendf(b, "P%c|*", s.Template)
	return b, nil
}

// ErrStatus is wrapped by every status parse error.
var ErrStatus = errors.New("printer: malformed status reply")

// ParseStatus parses a 29-byte status reply.
func ParseStatus(b []byte) (Status, error) {
	if len(b) != StatusLen {
		return Status{}, fmt.Errorf("%w: %d bytes, want %d", ErrStatus, len(b), StatusLen)
	}
	if string(b[:3]) != "*S|" || string(b[len(b)-2:]) != "|*" {
		return Status{}, fmt.Errorf("%w: %q does not start *S| and end |*", ErrStatus, b)
	}
	f := strings.Split(string(b[3:len(b)-2]), "|")
	if len(f) != 8 || len(f[0]) != 1 || len(f[1]) != 9 || len(f[7]) != 2 || f[7][0] != 'P' {
		return Status{}, fmt.Errorf("%w: fields %q", ErrStatus, f)
	}
	s := Status{Addr: f[0][0], Firmware: f[1], Template: f[7][1]}
	if s.Addr < '0' || s.Addr > '9' || s.Template < '0' || s.Template > '9' {
		return Status{}, fmt.Errorf("%w: address %q or template %q not a digit", ErrStatus, f[0], f[7])
	}
	for i := range 5 {
		c := f[2+i]
		if len(c) != 1 || c[0]&0xC0 != 0x40 {
			return Status{}, fmt.Errorf("%w: status byte %d is %q", ErrStatus, i+1, c)
		}
		s.Bytes[i] = c[0] & 0x3F
	}
	return s, nil
}

// Command is one ^…^ command: its letter and fields.
type Command struct {
	Op     byte
	Fields []string
}

// ErrField is returned for a field that cannot be sent.
var ErrField = errors.New("printer: field contains ^ or | or a control character")

// Encode renders c as "^Op|f1|…|^".
func (c Command) Encode() ([]byte, error) {
	b := []byte{'^', c.Op, '|'}
	for _, f := range c.Fields {
		for _, r := range f {
			if r == '^' || r == '|' || r < 0x20 || r == 0x7F {
				return nil, fmt.Errorf("%w: %q", ErrField, f)
			}
		}
		b = append(b, f...)
		b = append(b, '|')
	}
	return append(b, '^'), nil
}

// ParseCommand parses the text between the carets of one command: "Op|f1|…|".
func ParseCommand(body string) (Command, error) {
	if len(body) < 2 || body[1] != '|' || body[len(body)-1] != '|' {
		return Command{}, fmt.Errorf("printer: malformed command %q", body)
	}
	c := Command{Op: body[0]}
	if len(body) > 2 {
		c.Fields = strings.Split(body[2:len(body)-1], "|")
	}
	return c, nil
}

// StatusReader finds status replies in a byte stream: each starts "*S|" and is StatusLen bytes
// long. Bytes before one, and replies that do not parse, are skipped and reported as a
// *NoiseError so the caller can log them and read on.
type StatusReader struct {
	r   io.Reader
	buf []byte
	one [64]byte
}

// NewStatusReader reads status replies from r.
func NewStatusReader(r io.Reader) *StatusReader { return &StatusReader{r: r} }

// NoiseError reports skipped bytes.
type NoiseError struct {
	Skipped []byte
	Err     error
}

func (e *NoiseError) Error() string {
	return fmt.Sprintf("printer: skipped %d bytes (%q): %v", len(e.Skipped), e.Skipped, e.Err)
}

func (e *NoiseError) Unwrap() error { return e.Err }

// Next returns the next status, a *NoiseError, or the reader's error (a timeout, io.EOF).
func (sr *StatusReader) Next() (Status, error) {
	for {
		// Drop everything before a '*' that could start a reply.
		if i := strings.Index(string(sr.buf), "*S|"); i > 0 || (i < 0 && len(sr.buf) > 2) {
			cut := i
			if i < 0 {
				cut = len(sr.buf) - 2 // keep a possible "*S" split across reads
			}
			skipped := append([]byte(nil), sr.buf[:cut]...)
			sr.buf = sr.buf[cut:]
			return Status{}, &NoiseError{Skipped: skipped, Err: ErrStatus}
		}
		if len(sr.buf) >= StatusLen && strings.HasPrefix(string(sr.buf), "*S|") {
			b := sr.buf[:StatusLen]
			s, err := ParseStatus(b)
			if err != nil {
				sr.buf = sr.buf[1:] // resynchronise after the bad reply's '*'
				return Status{}, &NoiseError{Skipped: append([]byte(nil), b...), Err: err}
			}
			sr.buf = sr.buf[StatusLen:]
			return s, nil
		}
		n, err := sr.r.Read(sr.one[:])
		sr.buf = append(sr.buf, sr.one[:n]...)
		if n == 0 && err != nil {
			return Status{}, err
		}
	}
}
