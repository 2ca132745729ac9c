package money

// Grouped writes cents with thousands separators and two decimals: 1004000 → "10,040.00",
// -5 → "-0.05". The form every figure of money an operator or a player reads takes.
func Grouped(cents int64) string {
	d := Decimal(cents)
	sign := ""
	if d[0] == '-' {
		sign, d = "-", d[1:]
	}
	whole, frac := d[:len(d)-3], d[len(d)-3:]
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return sign + whole + frac
}

// Symbols are the symbols of the currencies that have a common one (ISO 4217 code → symbol).
var Symbols = map[string]string{
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

// Symbol is what stands before an amount of a currency (ISO 4217 code): its symbol where one
// is common, else the code and a space; nothing when no currency is named.
func Symbol(code string) string {
	if code == "" {
		return ""
	}
	if s, ok := Symbols[code]; ok {
		return s
	}
	return code + " "
}

// InCurrency is cents of a currency as a person reads them: "A$10,040.00"; the grouped
// amount alone when no currency is named.
func InCurrency(code string, cents int64) string { return Symbol(code) + Grouped(cents) }
