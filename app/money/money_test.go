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

// Tournament chips and chip faces are written grouped, cents only where there are some.
func TestGrouped(t *testing.T) {
	for _, c := range []struct {
		in   int64
		want string
	}{
		{0, "0"}, {500, "5"}, {150, "1.50"}, {100000, "1,000"}, {123456, "1,234.56"}, {-250000, "-2,500"},
		{math.MinInt64, "-92,233,720,368,547,758.08"},
	} {
		if got := Grouped(c.in); got != c.want {
			t.Errorf("Grouped(%d) = %q, want %q", c.in, got, c.want)
		}
	}
}
