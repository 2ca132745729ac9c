package printer

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ENQ asks for the status in real time.
const ENQ = 0x05

// StatusCommand asks for the status through the command stream, for printers that ignore ENQ.
var StatusCommand = []byte("^S|^")

// StatusLen is the length of an extended status reply; StandardStatusLen of a standard one.
const (
	StatusLen         = 29
	StandardStatusLen = 25
)

// NoTemplate is the last-template byte of a printer that has printed nothing since power-up.
const NoTemplate = ' '

// Flag is one status flag: its status byte (index 0 is s1) and bit.
type Flag struct {
	Byte int
	Bit  byte
}

// The flags.
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
	FlagDataCorrupted     = Flag{1, 0x08} // "print region data error": a definition or print's data refused
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
	FlagPowerUp           = Flag{4, 0x01} // reset or power up: RAM regions and templates are gone
	FlagBarcodeAccessed   = Flag{4, 0x02} // the printer has read the barcode data of the job
	FlagChassisOpen       = Flag{4, 0x04}
	FlagXOFF              = Flag{4, 0x08}
	FlagTopOfForm         = Flag{4, 0x10}
	FlagValidationDone    = Flag{4, 0x20} // the validation number is printed
)

// clearable are the flags ^C|^ clears: errors of what the host sent, and the power-up report.
var clearable = []Flag{FlagCommandError, FlagDataCorrupted, FlagLibraryRef, FlagPowerUp}

// Clearable lists the flags the clear command ^C|^ takes down.
func Clearable() []Flag { return append([]Flag(nil), clearable...) }

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
	{FlagLibraryRef, "template references a missing region or template"},
	{FlagDataCorrupted, "print data corrupted (print region data error)"},
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
	Bytes    [5]byte // flag bits only (bits 6 and 7 removed)
	Template byte    // last template printed; NoTemplate (a space) before the first print
	// Extended is true for the 29-byte reply. A standard (25-byte) reply has no s4 and s5, so
	// nothing of paper low, jams, validation done or top of form.
	Extended bool
}

// Has reports whether flag f is up.
func (s Status) Has(f Flag) bool { return s.Bytes[f.Byte]&f.Bit != 0 }

// Set raises or lowers flag f (for the emulator and tests).
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
	if !s.Extended {
		b.WriteString(" (standard status only)")
	}
	for _, f := range []struct {
		f Flag
		n string
	}{{FlagBusy, "busy"}, {FlagPaperLow, "paper low"}, {FlagPowerUp, "power up"},
		{FlagBarcodeAccessed, "barcode accessed"}, {FlagValidationDone, "validation done"},
		{FlagTopOfForm, "top of form"}, {FlagPaperInChute, "ticket in chute"}, {FlagJournalMode, "journal mode"}} {
		if s.Has(f.f) {
			b.WriteString(" " + f.n)
		}
	}
	for _, f := range s.Faults() {
		b.WriteString(" " + f)
	}
	if s.Template == NoTemplate {
		b.WriteString("; nothing printed since power up")
	} else {
		fmt.Fprintf(&b, "; last template %q", s.Template)
	}
	return b.String()
}

// ErrStatus is wrapped by every status parse and encode error.
var ErrStatus = errors.New("printer: malformed status reply")

func idByte(c byte) bool { return c >= 0x20 && c <= 0x7E && c != '|' && c != '*' }

// Encode renders the reply: 29 bytes, or 25 for a standard status.
func (s Status) Encode() ([]byte, error) {
	if len(s.Firmware) != 9 {
		return nil, fmt.Errorf("%w: firmware id %q is not 9 characters", ErrStatus, s.Firmware)
	}
	for i := range len(s.Firmware) {
		if !idByte(s.Firmware[i]) {
			return nil, fmt.Errorf("%w: firmware id %q", ErrStatus, s.Firmware)
		}
	}
	if !idByte(s.Addr) || s.Template < 0x20 || s.Template > 0x7E {
		return nil, fmt.Errorf("%w: address %q or template %q", ErrStatus, s.Addr, s.Template)
	}
	n := 5
	if !s.Extended {
		n = 3
	}
	b := make([]byte, 0, StatusLen)
	b = append(b, '*', 'S', '|', s.Addr, '|')
	b = append(b, s.Firmware...)
	b = append(b, '|')
	for _, x := range s.Bytes[:n] {
		b = append(b, 0x40|x&0x3F, '|')
	}
	return append(b, 'P', s.Template, '|', '*'), nil
}

// ParseStatus parses one status reply, extended (29 bytes) or standard (25 bytes), by position.
func ParseStatus(b []byte) (Status, error) {
	var n int
	switch len(b) {
	case StatusLen:
		n = 5
	case StandardStatusLen:
		n = 3
	default:
		return Status{}, fmt.Errorf("%w: %d bytes, want %d (or %d)", ErrStatus, len(b), StatusLen, StandardStatusLen)
	}
	if b[0] != '*' || b[1] != 'S' || b[2] != '|' || b[4] != '|' || b[14] != '|' {
		return Status{}, fmt.Errorf("%w: %q does not start *S|a|fffffffff|", ErrStatus, b)
	}
	s := Status{Addr: b[3], Firmware: string(b[5:14]), Extended: n == 5}
	if !idByte(s.Addr) {
		return Status{}, fmt.Errorf("%w: address %q", ErrStatus, s.Addr)
	}
	for i := range 9 {
		if !idByte(b[5+i]) {
			return Status{}, fmt.Errorf("%w: firmware id %q", ErrStatus, b[5:14])
		}
	}
	for i := range n {
		c, sep := b[15+2*i], b[16+2*i]
		if c&0x40 == 0 || sep != '|' {
			return Status{}, fmt.Errorf("%w: status byte %d is %#02x followed by %q", ErrStatus, i+1, c, sep)
		}
		s.Bytes[i] = c & 0x3F
	}
	t := b[15+2*n:]
	if t[0] != 'P' || t[2] != '|' || t[3] != '*' {
		return Status{}, fmt.Errorf("%w: %q does not end P<template>|*", ErrStatus, t)
	}
	if t[1] < 0x20 || t[1] > 0x7E {
		return Status{}, fmt.Errorf("%w: last template %#02x is not a printable character", ErrStatus, t[1])
	}
	s.Template = t[1]
	return s, nil
}

// isStandard reports whether b (at least StandardStatusLen bytes from a "*S|") is laid out as a
// standard status; an extended one has a status byte and '|' where the standard one ends "|*".
func isStandard(b []byte) bool {
	return len(b) >= StandardStatusLen && b[20] == '|' && b[21] == 'P' && b[23] == '|' && b[24] == '*'
}

// Command is one ^…^ command: its letter and fields.
type Command struct {
	Op     byte
	Fields []string
}

// ErrField is returned for a field that cannot be sent.
var ErrField = errors.New("printer: field contains ^, |, ~ or a control character")

// CheckField reports whether f can be sent as a TCL field.
func CheckField(f string) error {
	for _, r := range f {
		if r == '^' || r == '|' || r == '~' || r < 0x20 || r == 0x7F {
			return fmt.Errorf("%w: %q", ErrField, f)
		}
	}
	return nil
}

// Encode renders c as "^Op|f1|…|^".
func (c Command) Encode() ([]byte, error) {
	if c.Op <= 0x20 || c.Op >= 0x7F || c.Op == '^' || c.Op == '|' {
		return nil, fmt.Errorf("printer: command letter %q", c.Op)
	}
	b := []byte{'^', c.Op, '|'}
	for _, f := range c.Fields {
		if err := CheckField(f); err != nil {
			return nil, err
		}
		b = append(b, f...)
		b = append(b, '|')
	}
	return append(b, '^'), nil
}

func (c Command) String() string {
	b, err := c.Encode()
	if err != nil {
		return fmt.Sprintf("^%c|%s|^ (unsendable)", c.Op, strings.Join(c.Fields, "|"))
	}
	return string(b)
}

// ErrCommand is wrapped by every command parse error.
var ErrCommand = errors.New("printer: malformed command")

// ParseCommand parses the text between the carets of one command: "Op|f1|…|".
func ParseCommand(body string) (Command, error) {
	if len(body) < 2 || body[1] != '|' || body[len(body)-1] != '|' {
		return Command{}, fmt.Errorf("%w: %q is not Op|field|…|", ErrCommand, body)
	}
	c := Command{Op: body[0]}
	if c.Op <= 0x20 || c.Op >= 0x7F || c.Op == '|' {
		return Command{}, fmt.Errorf("%w: command letter %q", ErrCommand, c.Op)
	}
	if len(body) > 2 {
		c.Fields = strings.Split(body[2:len(body)-1], "|")
	}
	return c, nil
}

// Geometry and limits of the template this driver defines: the printable area of a 65 × 156 mm
// ticket at 203 dpi as TITO platforms define it for these printers, across the head (the dot
// axis) and along the paper.
const (
	TicketAcross = 512  // dots along the dot axis
	TicketAlong  = 1100 // dots along the paper axis
)

// Rotations and justifications of a region.
const (
	RotRight = 0 // text runs along the dot axis
	RotDown  = 1 // text runs along the paper: how a landscape ticket is printed
	RotLeft  = 2
	RotUp    = 3

	JustLeft   = 0
	JustCenter = 1
	JustRight  = 2
)

// ObjectI2of5 is the object code of an Interleaved 2 of 5 barcode region.
const ObjectI2of5 = "l"

// MemRAM is the memory letter of definitions a power-up forgets; MemFlash of those it keeps.
const (
	MemRAM   = 'R'
	MemFlash = 'F'
)

// Region is one TCL print region.
type Region struct {
	ID     byte // one character, not '^', '|' or '$'
	Mem    byte // MemRAM or MemFlash
	X, Y   int  // start: dots along the dot axis, dots along the paper axis
	DX, DY int  // size along the same axes
	Rot    int  // RotRight…RotUp
	Just   int  // JustLeft…JustRight
	Object string
	M1, M2 int // text: width and height magnification; barcode: narrow and wide element in dots
	Attr   int // object attribute
}

// Barcode reports whether r prints an Interleaved 2 of 5 barcode.
func (r Region) Barcode() bool { return r.Object == ObjectI2of5 }

// FontCell is the nominal character cell, in dots, of a text region's font before magnification.
// A printer's own fonts differ a little; the driver keeps each field within what its region holds
// at this size so that a printer never has to truncate (which it reports as a data error).
const (
	FontCellWidth  = 7
	FontCellHeight = 13
)

// Holds reports how many characters of text fit in the region along its text direction.
func (r Region) Holds() int {
	if r.Barcode() || r.M1 <= 0 {
		return 0
	}
	length := r.DY
	if r.Rot == RotRight || r.Rot == RotLeft {
		length = r.DX
	}
	return length / (FontCellWidth * r.M1)
}

// Command renders the 15-field region definition.
func (r Region) Command() Command {
	return Command{Op: 'R', Fields: []string{string(r.ID), string(r.Mem),
		strconv.Itoa(r.X), strconv.Itoa(r.Y), strconv.Itoa(r.DX), strconv.Itoa(r.DY), "",
		strconv.Itoa(r.Rot), strconv.Itoa(r.Just), r.Object, strconv.Itoa(r.M1), strconv.Itoa(r.M2),
		strconv.Itoa(r.Attr), "0", ""}}
}

// ErrDefinition is wrapped by the errors of ParseRegion and ParseTemplate: the definitions a
// printer refuses with a print region data error.
var ErrDefinition = errors.New("printer: region or template definition refused")

func validID(s string) bool {
	return len(s) == 1 && s[0] > 0x20 && s[0] < 0x7F && s[0] != '^' && s[0] != '|' && s[0] != '$'
}

func num(s string, lo, hi int, what string) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi || strings.TrimLeft(s, "0123456789") != "" {
		return 0, fmt.Errorf("%w: %s %q is not a number in %d–%d", ErrDefinition, what, s, lo, hi)
	}
	return v, nil
}

// ParseRegion reads a region definition (c.Op 'R' with 15 fields) and checks it against the
// printer's limits: one-character id, a memory letter, a region inside the printable area,
// known rotation, justification and object, text magnifications 1–8 (barcode elements of 1–16
// and 1–32 dots, the wide at least twice the narrow), and dynamic data (print attribute 0).
func ParseRegion(c Command) (Region, error) {
	f := c.Fields
	if c.Op != 'R' || len(f) != 15 {
		return Region{}, fmt.Errorf("%w: a region has 15 fields after ^R, got %d", ErrDefinition, len(f))
	}
	if !validID(f[0]) {
		return Region{}, fmt.Errorf("%w: region id %q is not one character", ErrDefinition, f[0])
	}
	if f[1] != string(rune(MemRAM)) && f[1] != string(rune(MemFlash)) {
		return Region{}, fmt.Errorf("%w: memory %q is not R or F", ErrDefinition, f[1])
	}
	r := Region{ID: f[0][0], Mem: f[1][0], Object: f[9]}
	var err error
	ints := []struct {
		dst    *int
		i      int
		lo, hi int
		what   string
	}{
		{&r.X, 2, 0, TicketAcross - 1, "start on the dot axis"}, {&r.Y, 3, 0, TicketAlong - 1, "start on the paper axis"},
		{&r.DX, 4, 1, TicketAcross, "size on the dot axis"}, {&r.DY, 5, 1, TicketAlong, "size on the paper axis"},
		{&r.Rot, 7, 0, 3, "rotation"}, {&r.Just, 8, 0, 2, "justification"},
		{&r.M1, 10, 1, 16, "multiplier 1"}, {&r.M2, 11, 1, 32, "multiplier 2"}, {&r.Attr, 12, 0, 255, "object attribute"},
	}
	for _, x := range ints {
		if *x.dst, err = num(f[x.i], x.lo, x.hi, x.what); err != nil {
			return Region{}, err
		}
	}
	if r.X+r.DX > TicketAcross || r.Y+r.DY > TicketAlong {
		return Region{}, fmt.Errorf("%w: region %c runs off the ticket", ErrDefinition, r.ID)
	}
	switch {
	case r.Object == ObjectI2of5:
		if r.M2 < 2*r.M1 {
			return Region{}, fmt.Errorf("%w: barcode wide element %d is less than twice the narrow %d", ErrDefinition, r.M2, r.M1)
		}
	case len(r.Object) == 1 && r.Object[0] >= '1' && r.Object[0] <= '9':
		if r.M1 > 8 || r.M2 > 8 {
			return Region{}, fmt.Errorf("%w: text magnification %d×%d is more than 8", ErrDefinition, r.M1, r.M2)
		}
	default:
		return Region{}, fmt.Errorf("%w: object %q is neither a font 1–9 nor barcode l", ErrDefinition, r.Object)
	}
	if f[13] != "0" || f[14] != "" {
		return Region{}, fmt.Errorf("%w: print attribute %q with data %q: only dynamic regions (0, no data) are taken", ErrDefinition, f[13], f[14])
	}
	return r, nil
}

// Template is a TCL template: its size and the regions its print fields fill, in order.
type Template struct {
	ID      byte
	Mem     byte
	DX, DY  int
	Regions []byte
}

// Command renders the template definition.
func (t Template) Command() Command {
	c := Command{Op: 'T', Fields: []string{string(t.ID), string(t.Mem), strconv.Itoa(t.DX), strconv.Itoa(t.DY)}}
	for _, r := range t.Regions {
		c.Fields = append(c.Fields, string(r))
	}
	return c
}

// ParseTemplate reads a template definition (c.Op 'T'): one-character ids, a memory letter, a
// size within the printable area and at least one region.
func ParseTemplate(c Command) (Template, error) {
	f := c.Fields
	if c.Op != 'T' || len(f) < 5 {
		return Template{}, fmt.Errorf("%w: a template has an id, memory, size and regions, got %d fields", ErrDefinition, len(f))
	}
	if !validID(f[0]) {
		return Template{}, fmt.Errorf("%w: template id %q is not one character", ErrDefinition, f[0])
	}
	if f[1] != string(rune(MemRAM)) && f[1] != string(rune(MemFlash)) {
		return Template{}, fmt.Errorf("%w: memory %q is not R or F", ErrDefinition, f[1])
	}
	t := Template{ID: f[0][0], Mem: f[1][0]}
	var err error
	if t.DX, err = num(f[2], 1, TicketAcross, "template size on the dot axis"); err != nil {
		return Template{}, err
	}
	if t.DY, err = num(f[3], 1, TicketAlong, "template size on the paper axis"); err != nil {
		return Template{}, err
	}
	for _, r := range f[4:] {
		if !validID(r) {
			return Template{}, fmt.Errorf("%w: region id %q is not one character", ErrDefinition, r)
		}
		t.Regions = append(t.Regions, r[0])
	}
	return t, nil
}

// StatusReader finds status replies in a byte stream: each starts "*S|" and is read by position,
// StatusLen bytes (or StandardStatusLen for a standard status). Bytes before one, and replies that
// do not parse, are skipped and reported as a *NoiseError so the caller can log them and read on.
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
		// Drop everything before a "*S|" that could start a reply.
		i := indexStart(sr.buf)
		if i > 0 || (i < 0 && len(sr.buf) > 2) {
			cut := i
			if i < 0 {
				cut = len(sr.buf) - 2 // keep a possible "*S" split across reads
			}
			skipped := append([]byte(nil), sr.buf[:cut]...)
			sr.buf = append(sr.buf[:0], sr.buf[cut:]...)
			return Status{}, &NoiseError{Skipped: skipped, Err: fmt.Errorf("%w: bytes outside a reply", ErrStatus)}
		}
		if i == 0 {
			n := 0
			switch {
			case isStandard(sr.buf):
				n = StandardStatusLen
			case len(sr.buf) >= StatusLen:
				n = StatusLen
			}
			if n > 0 {
				b := sr.buf[:n]
				s, err := ParseStatus(b)
				if err != nil {
					skipped := append([]byte(nil), b[:1]...)
					sr.buf = append(sr.buf[:0], sr.buf[1:]...) // resynchronise after the bad reply's '*'
					return Status{}, &NoiseError{Skipped: skipped, Err: err}
				}
				sr.buf = append(sr.buf[:0], sr.buf[n:]...)
				return s, nil
			}
		}
		n, err := sr.r.Read(sr.one[:])
		sr.buf = append(sr.buf, sr.one[:n]...)
		if n == 0 && err != nil {
			return Status{}, err
		}
	}
}

func indexStart(b []byte) int {
	for i := 0; i+3 <= len(b); i++ {
		if b[i] == '*' && b[i+1] == 'S' && b[i+2] == '|' {
			return i
		}
	}
	return -1
}
