package ui

import (
	"fmt"
	"strconv"
)

// money formats cents as dollars and cents with thousands separators, without floating point:
// 123456 → "1,234.56"; whole dollars drop the cents on chips: 500 → "5".
func money(cents int64) string {
	neg := cents < 0
	if neg {
		cents = -cents
	}
	whole := strconv.FormatInt(cents/100, 10)
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	s := whole
	if c := cents % 100; c != 0 {
		s += fmt.Sprintf(".%02d", c)
	}
	if neg {
		s = "-" + s
	}
	return s
}

// amount formats cents always with two decimals, for balances and wins: "1,234.50".
func amount(cents int64) string {
	s := money(cents)
	if cents%100 == 0 {
		s += ".00"
	}
	return s
}

// currencySymbol is what stands before an amount of the table's currency (ISO 4217 code, from
// the table's configuration): its symbol where one is common, else the code and a space; none
// when the table names no currency.
func currencySymbol(code string) string {
	switch code {
	case "":
		return ""
	case "USD":
		return "$"
	case "AUD":
		return "A$"
	case "NZD":
		return "NZ$"
	case "CAD":
		return "C$"
	case "HKD":
		return "HK$"
	case "SGD":
		return "S$"
	case "MOP":
		return "MOP$"
	case "EUR":
		return "€"
	case "GBP":
		return "£"
	case "CNY":
		return "¥"
	}
	return code + " "
}
