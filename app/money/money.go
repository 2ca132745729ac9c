// Package money writes amounts of money, held everywhere as int64 cents, for people: the
// player's messages, the audit tools. It never goes through floating point.
package money

import (
	"fmt"
	"strconv"
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

// Grouped writes cents as chips and limit signs read them: thousands grouped, whole units
// without their cents — 123456 → "1,234.56", 500 → "5", 100000 → "1,000". Tournament chips,
// which count in the chip tray's units (100 = a 1 chip), are written with it on the player's
// screen, the dealer's console and the printed results alike, so all three say the same count
// (issue 32 point 16).
func Grouped(cents int64) string {
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

// currencySymbols are the symbols of the currencies that have a common one (ISO 4217 code →
// symbol). The screen and the printed ticket both write money with them, so a ticket says
// "A$460.00" where the screen does (issue 32 point 11). packaging/gen-fonts.sh puts their
// characters in the embedded Chinese font: a Chinese screen draws "€" or "¥" with that font
// too, and a character it lacked was a missing-glyph box.
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

// Symbol is what stands before an amount of a currency (its ISO 4217 code, from the table's
// configuration): its symbol where one is common, else the code and a space; none when the
// table names no currency.
func Symbol(code string) string {
	if code == "" {
		return ""
	}
	if s, ok := currencySymbols[code]; ok {
		return s
	}
	return code + " "
}

// Symbols are the currencies' symbols by ISO 4217 code, a copy: the font's check reads them.
func Symbols() map[string]string {
	out := make(map[string]string, len(currencySymbols))
	for k, v := range currencySymbols {
		out[k] = v
	}
	return out
}
