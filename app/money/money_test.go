package money

import (
	"math"
	"testing"
)

func TestDecimal(t *testing.T) {
	for _, c := range []struct {
		in   int64
		want string
	}{
		{0, "0.00"}, {5, "0.05"}, {100, "1.00"}, {10000, "100.00"}, {123456, "1234.56"}, {-5, "-0.05"}, {-123456, "-1234.56"},
		{math.MaxInt64, "92233720368547758.07"}, {math.MinInt64, "-92233720368547758.08"},
	} {
		if got := Decimal(c.in); got != c.want {
			t.Errorf("Decimal(%d) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Issue 33, point 8: amounts read "A$10,040.00", not "A$ 10040.00".
func TestGroupedAndInCurrency(t *testing.T) {
	for _, c := range []struct {
		in             int64
		code           string
		grouped, inCur string
	}{
		{0, "AUD", "0.00", "A$0.00"}, {5, "AUD", "0.05", "A$0.05"}, {100000, "AUD", "1,000.00", "A$1,000.00"},
		{1004000, "AUD", "10,040.00", "A$10,040.00"}, {12345, "EUR", "123.45", "€123.45"}, {99999, "XYZ", "999.99", "XYZ 999.99"},
		{-5, "AUD", "-0.05", "-A$0.05"}, {-123456789, "", "-1,234,567.89", "-1,234,567.89"},
		{math.MaxInt64, "USD", "92,233,720,368,547,758.07", "$92,233,720,368,547,758.07"},
		{math.MinInt64, "USD", "-92,233,720,368,547,758.08", "-$92,233,720,368,547,758.08"},
	} {
		if got := Grouped(c.in); got != c.grouped {
			t.Errorf("Grouped(%d) = %q, want %q", c.in, got, c.grouped)
		}
		if got := InCurrency(c.code, c.in); got != c.inCur {
			t.Errorf("InCurrency(%q, %d) = %q, want %q", c.code, c.in, got, c.inCur)
		}
	}
}

// Tournament chips and chip faces are written grouped, cents only where there are some.
func TestChips(t *testing.T) {
	for _, c := range []struct {
		in   int64
		want string
	}{
		{0, "0"}, {500, "5"}, {150, "1.50"}, {100000, "1,000"}, {123456, "1,234.56"}, {-250000, "-2,500"},
		{math.MinInt64, "-92,233,720,368,547,758.08"},
	} {
		if got := Chips(c.in); got != c.want {
			t.Errorf("Chips(%d) = %q, want %q", c.in, got, c.want)
		}
	}
}
