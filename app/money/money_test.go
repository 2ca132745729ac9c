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
