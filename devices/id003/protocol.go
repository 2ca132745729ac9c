package id003

import (
	"fmt"
	"strings"
)

// Commands, host to acceptor. Operation commands are answered with ACK; setting commands are
// echoed back with their data; setting requests (0x80 | n) are answered with the setting.
const (
	CmdStatusRequest = 0x11
	CmdReset         = 0x40
	CmdStack1        = 0x41
	CmdStack2        = 0x42
	CmdReturn        = 0x43
	CmdHold          = 0x44
	CmdWait          = 0x45
	CmdAck           = 0x50 // the host's answer to VEND VALID

	CmdSetDenomination   = 0xC0 // 2 bytes: bit n set inhibits escrow code 0x61+n
	CmdSetSecurity       = 0xC1 // 2 bytes: bit n set raises the security level of code 0x61+n
	CmdSetCommMode       = 0xC2 // 1 byte: 0 polling
	CmdSetInhibit        = 0xC3 // 1 byte: 1 inhibited (takes nothing), 0 accepting
	CmdSetDirection      = 0xC4 // 1 byte: bit n set inhibits insertion direction n
	CmdSetOptional       = 0xC5 // 2 bytes
	CmdSetBarcode        = 0xC6 // 2 bytes: barcode type (1 = Interleaved 2 of 5), number of characters
	CmdSetBarInhibit     = 0xC7 // 1 byte: bit 0 set inhibits notes, bit 1 set inhibits tickets; other bits 1
	CmdVersionRequest    = 0x88
	CmdBootVersion       = 0x89
	CmdCurrencyAssign    = 0x8A
	SettingRequestOffset = 0x40 // a setting's request is its command minus this: 0xC3 → 0x83
)

// Statuses, acceptor to host.
const (
	StEnable       = 0x11 // idle, accepting notes
	StAccepting    = 0x12
	StEscrow       = 0x13 // data: escrow code, or EscrowTicket followed by the barcode digits
	StStacking     = 0x14
	StVendValid    = 0x15 // the credit point: the host must ACK
	StStacked      = 0x16
	StRejecting    = 0x17 // data: reject reason
	StReturning    = 0x18
	StHolding      = 0x19
	StDisable      = 0x1A // inhibited
	StInitialize   = 0x1B
	StPowerUp      = 0x40
	StPowerUpBillA = 0x41 // power up with a bill in the acceptor: it will be returned
	StPowerUpBillS = 0x42 // power up with a bill in the stacker: it will be stacked, no vend valid
	StStackerFull  = 0x43
	StStackerOpen  = 0x44
	StJamAcceptor  = 0x45
	StJamStacker   = 0x46
	StPause        = 0x47
	StCheated      = 0x48
	StFailure      = 0x49 // data: failure code
	StCommError    = 0x4A // the acceptor received a frame it could not read
	StInvalidCmd   = 0x4B
	StAck          = 0x50
)

// EscrowTicket is the escrow code of a barcoded ticket; the barcode digits follow it.
const EscrowTicket = 0x6F

// BarcodeI2of5 is the barcode type of CmdSetBarcode for Interleaved 2 of 5.
const BarcodeI2of5 = 0x01

var statusNames = map[byte]string{
	StEnable: "enable (idle)", StAccepting: "accepting", StEscrow: "escrow", StStacking: "stacking",
	StVendValid: "vend valid", StStacked: "stacked", StRejecting: "rejecting", StReturning: "returning",
	StHolding: "holding", StDisable: "disable (inhibit)", StInitialize: "initialize",
	StPowerUp: "power up", StPowerUpBillA: "power up with bill in acceptor",
	StPowerUpBillS: "power up with bill in stacker", StStackerFull: "stacker full",
	StStackerOpen: "stacker open", StJamAcceptor: "jam in acceptor", StJamStacker: "jam in stacker",
	StPause: "pause", StCheated: "cheated", StFailure: "failure", StCommError: "communication error",
	StInvalidCmd: "invalid command", StAck: "ACK",
}

// StatusName names a status byte for logs and messages.
func StatusName(s byte) string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return fmt.Sprintf("unknown status %02X", s)
}

var rejectReasons = map[byte]string{
	0x71: "insertion error", 0x72: "magnetic pattern error", 0x73: "residual bill at head",
	0x74: "calibration or magnification error", 0x75: "conveying error",
	0x76: "denomination not recognised", 0x77: "photo pattern error", 0x78: "photo level error",
	0x79: "inhibited denomination or direction", 0x7B: "operation error",
	0x7C: "residual bill at stacker", 0x7D: "length error", 0x7E: "photo pattern error",
	0x7F: "true bill feature error",
	// Named in public ID-003 host libraries; an acceptor sends them though older tables lack them.
	0x98: "more than one note inserted", 0x9B: "ticket inserted upside down",
}

// RejectReason explains the data byte of StRejecting.
func RejectReason(code byte) string {
	if r, ok := rejectReasons[code]; ok {
		return r
	}
	return fmt.Sprintf("reject code %02X", code)
}

var failureCodes = map[byte]string{
	0xA2: "stack motor failure", 0xA5: "transport motor speed failure", 0xA6: "transport motor failure",
	0xA8: "solenoid failure", 0xA9: "PB unit failure", 0xAB: "cash box not ready",
	0xAF: "validator head removed", 0xB0: "boot ROM failure", 0xB1: "external ROM failure",
	0xB2: "RAM failure", 0xB3: "external ROM writing failure",
}

// FailureName explains the data byte of StFailure.
func FailureName(code byte) string {
	if r, ok := failureCodes[code]; ok {
		return r
	}
	return fmt.Sprintf("failure code %02X", code)
}

// Denomination is one entry of the acceptor's currency table: the escrow code it reports for a
// note and the note's value, Base × 10^Exponent major units of the country's currency.
type Denomination struct {
	Code     byte
	Country  byte
	Base     byte
	Exponent byte
}

// Cents is the note's value in minor units (a currency with 100 minor units per major unit).
func (d Denomination) Cents() int64 {
	v := int64(d.Base) * 100
	for range d.Exponent {
		v *= 10
	}
	return v
}

// MaxExponent bounds Exponent so Cents cannot overflow (255 × 100 × 10^12 < 2^63).
const MaxExponent = 12

// ParseCurrencyTable parses the data of the answer to CmdCurrencyAssign: four bytes per entry.
// Entries with a zero value are unassigned codes and are left out.
func ParseCurrencyTable(data []byte) ([]Denomination, error) {
	if len(data)%4 != 0 {
		return nil, fmt.Errorf("id003: currency table of %d bytes is not a multiple of 4", len(data))
	}
	var out []Denomination
	seen := map[byte]bool{}
	for i := 0; i < len(data); i += 4 {
		d := Denomination{Code: data[i], Country: data[i+1], Base: data[i+2], Exponent: data[i+3]}
		if d.Base == 0 {
			continue
		}
		if d.Code < 0x61 || d.Code >= EscrowTicket {
			return nil, fmt.Errorf("id003: currency table entry %d has escrow code %02X outside 61–6E", i/4, d.Code)
		}
		if d.Exponent > MaxExponent {
			return nil, fmt.Errorf("id003: currency table entry %d has exponent %d", i/4, d.Exponent)
		}
		if seen[d.Code] {
			return nil, fmt.Errorf("id003: currency table lists escrow code %02X twice", d.Code)
		}
		seen[d.Code] = true
		out = append(out, d)
	}
	return out, nil
}

// CurrencyTable encodes a table as the acceptor sends it.
func CurrencyTable(ds []Denomination) []byte {
	b := make([]byte, 0, 4*len(ds))
	for _, d := range ds {
		b = append(b, d.Code, d.Country, d.Base, d.Exponent)
	}
	return b
}

// Escrow is what an escrow status holds: a note's escrow code, or a ticket's barcode.
type Escrow struct {
	Code    byte   // 0x61… for a note, EscrowTicket for a ticket
	Barcode string // the ticket's digits
}

// ParseEscrow decodes the data of StEscrow. A ticket's barcode must be digits only.
func ParseEscrow(data []byte) (Escrow, error) {
	if len(data) == 0 {
		return Escrow{}, fmt.Errorf("id003: escrow status without an escrow code")
	}
	e := Escrow{Code: data[0]}
	if e.Code != EscrowTicket {
		if len(data) != 1 {
			return Escrow{}, fmt.Errorf("id003: note escrow %02X with %d extra bytes", e.Code, len(data)-1)
		}
		return e, nil
	}
	digits := data[1:]
	if len(digits) == 0 {
		return Escrow{}, fmt.Errorf("id003: ticket escrow without a barcode")
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return Escrow{}, fmt.Errorf("id003: ticket barcode %q is not all digits", strings.ToValidUTF8(string(digits), "?"))
		}
	}
	e.Barcode = string(digits)
	return e, nil
}

// Data encodes e as the data of StEscrow.
func (e Escrow) Data() []byte {
	if e.Code == EscrowTicket {
		return append([]byte{EscrowTicket}, e.Barcode...)
	}
	return []byte{e.Code}
}
