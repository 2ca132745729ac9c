// Package money writes amounts of money, held everywhere as int64 cents, for people: the
// player's messages, the audit tools. It never goes through floating point.
package money

import (
	"fmt"
	"strconv"
	"strings"
)

// Decimal writes cents as units and two decimals: 10000 → "100.00", -5 → "-0.05".
func Decimal(cents int64) string {
	sign := ""
	u := uint64(cents)
	if cents < 0 {
		sign, u = "-", uint64(-(cents+1))+1 // the most negative int64 too
	}
	return fmt.Sprintf("%s%d.%02d", sign, u/100, u%100)
}

// Amount is an amount of money in cents, as an argument of a message to the player (msg.New):
// it reads as Decimal, and the screen puts the table's currency symbol before it. Amounts that
// are not money (tournament chips) are passed as Decimal's text instead.
type Amount int64

func (a Amount) String() string { return Decimal(int64(a)) }

// Grouped writes cents as units grouped by thousands and two decimals, as an operator's tools
// and the player's screen print money: 1004000 → "10,040.00", -5 → "-0.05".
func Grouped(cents int64) string {
	d := Decimal(cents)
	sign := ""
	if d[0] == '-' {
		sign, d = "-", d[1:]
	}
	whole, frac := d[:len(d)-3], d[len(d)-3:]
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return sign + b.String() + frac
}

// Chips writes cents as chips and limit signs read them: thousands grouped, whole units
// without their cents — 123456 → "1,234.56", 500 → "5", 100000 → "1,000". Tournament chips,
// which count in the chip tray's units (100 = a 1 chip), are written with it on the player's
// screen, the dealer's console and the printed results alike, so all three say the same count
// (issue 32 point 16).
func Chips(cents int64) string {
	sign := ""
	u := uint64(cents)
	if cents < 0 {
		sign, u = "-", uint64(-(cents+1))+1
	}
	whole := strconv.FormatUint(u/100, 10)
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	if c := u % 100; c != 0 {
		return fmt.Sprintf("%s%s.%02d", sign, whole, c)
	}
	return sign + whole
}

// currencySymbols are the symbols of the currencies that have a common one (ISO 4217 code → symbol).
// packaging/gen-fonts.sh puts their characters in the kiosk's embedded Chinese font: a Chinese
// screen draws "€" or "¥" with that font, and a character it lacked was a missing-glyph box.
var currencySymbols = map[string]string{
	"USD": "$",
	"AUD": "A$",
	"NZD": "NZ$",
	"CAD": "C$",
	"HKD": "HK$",
	"SGD": "S$",
	"MOP": "MOP$",
	"EUR": "€",
	"GBP": "£",
	"CNY": "¥",
}

// currencyUnits name each currency's unit and its hundredth, one and many, as a ticket says its
// amount in words (issue 32 point 11: a euro table's ticket said DOLLARS). A currency not here
// is said in its code: "TWENTY EUR AND ZERO HUNDREDTHS" reads poorly but says no wrong money.
var currencyUnits = map[string]Units{
	"USD": dollars, "AUD": dollars, "NZD": dollars, "CAD": dollars, "HKD": dollars, "SGD": dollars,
	"MOP": {"PATACA", "PATACAS", "AVO", "AVOS"},
	"EUR": {"EURO", "EUROS", "CENT", "CENTS"},
	"GBP": {"POUND", "POUNDS", "PENNY", "PENCE"},
	"CNY": {"YUAN", "YUAN", "FEN", "FEN"},
}

var dollars = Units{"DOLLAR", "DOLLARS", "CENT", "CENTS"}

// Units are a currency's unit and its hundredth in words, singular and plural.
type Units struct{ One, Many, HundredthOne, HundredthMany string }

// UnitsOf is the words of a currency's amounts (ISO 4217 code): dollars for "" (a table that
// names no currency), the code for one not known.
func UnitsOf(code string) Units {
	if code == "" {
		return dollars
	}
	if u, ok := currencyUnits[code]; ok {
		return u
	}
	return Units{code, code, "HUNDREDTH", "HUNDREDTHS"}
}

// PrintedSymbol is Symbol as a ticket printer prints it: its resident fonts are single-byte
// ASCII, so a symbol outside ASCII (€, £, ¥), which UTF-8 sends as two or three bytes the
// ticket would show as garbage, is the currency's code instead ("EUR 20.00").
func PrintedSymbol(code string) string {
	s := Symbol(code)
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return code + " "
		}
	}
	return s
}

// Symbol is what stands before an amount of a currency (ISO 4217 code, from the table's
// configuration): its symbol where one is common, else the code and a space; none for "".
func Symbol(code string) string {
	if code == "" {
		return ""
	}
	if s, ok := currencySymbols[code]; ok {
		return s
	}
	return code + " "
}

// InCurrency is cents of a currency as every figure of money reads for people: the symbol, then
// the amount grouped with two decimals ("A$10,040.00"; "-A$0.05" owed); the bare amount for "".
func InCurrency(code string, cents int64) string {
	if cents < 0 {
		return "-" + Symbol(code) + Grouped(cents)[1:]
	}
	return Symbol(code) + Grouped(cents)
}

// Symbols is every currency symbol Symbol knows, by ISO 4217 code (a copy): what a screen's
// fonts must draw.
func Symbols() map[string]string {
	out := make(map[string]string, len(currencySymbols))
	for k, v := range currencySymbols {
		out[k] = v
	}
	return out
}
