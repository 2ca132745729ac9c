package money

import "testing"

// The cage's and the console's figures: grouped, two decimals, the currency's symbol.
func TestGroupedAndInCurrency(t *testing.T) {
	for _, c := range []struct {
		code  string
		cents int64
		want  string
	}{
		{"AUD", 1004000, "A$10,040.00"},
		{"AUD", 1000000, "A$10,000.00"},
		{"AUD", 36000, "A$360.00"},
		{"AUD", 5, "A$0.05"},
		{"AUD", -123456789, "A$-1,234,567.89"},
		{"EUR", 100000000, "€1,000,000.00"},
		{"XYZ", 99900, "XYZ 999.00"},
		{"", 12345678, "123,456.78"},
		{"", -9223372036854775808, "-92,233,720,368,547,758.08"},
	} {
		if got := InCurrency(c.code, c.cents); got != c.want {
			t.Errorf("InCurrency(%q, %d) = %q, want %q", c.code, c.cents, got, c.want)
		}
	}
}
