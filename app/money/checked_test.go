package money

import (
	"errors"
	"math"
	"math/big"
	"testing"
)

// The checked helpers at the int64 edges, against math/big.
func TestCheckedArithmeticAtTheEdges(t *testing.T) {
	edges := []int64{0, 1, -1, 2, -2, 100, -100, 1 << 31, -(1 << 31), math.MaxInt32, math.MaxInt64, math.MaxInt64 - 1,
		math.MinInt64, math.MinInt64 + 1, math.MaxInt64 / 2, math.MinInt64 / 2, 9_223_372_036_854_765_806, 3037000499, 3037000500, -3037000500}
	fits := func(b *big.Int) bool { return b.IsInt64() }
	for _, a := range edges {
		for _, b := range edges {
			check := func(name string, got int64, err error, want *big.Int) {
				t.Helper()
				if fits(want) {
					if err != nil || got != want.Int64() {
						t.Errorf("%s(%d, %d) = %d, %v; want %v", name, a, b, got, err, want)
					}
				} else if !errors.Is(err, ErrOverflow) {
					t.Errorf("%s(%d, %d) = %d, %v; want ErrOverflow (true value %v)", name, a, b, got, err, want)
				}
			}
			A, B := big.NewInt(a), big.NewInt(b)
			s, err := Add(a, b)
			check("Add", s, err, new(big.Int).Add(A, B))
			d, err := Sub(a, b)
			check("Sub", d, err, new(big.Int).Sub(A, B))
			p, err := Mul(a, b)
			check("Mul", p, err, new(big.Int).Mul(A, B))
		}
	}
}

func TestSum(t *testing.T) {
	if s, err := Sum(1, 2, 3, -4); err != nil || s != 2 {
		t.Fatalf("Sum = %d, %v", s, err)
	}
	if s, err := Sum(); err != nil || s != 0 {
		t.Fatalf("empty Sum = %d, %v", s, err)
	}
	// The attack: a note of 9,223,372,036,854,765,806 cents on a balance of 10,000, then a
	// straight-up win of 35 × 25.00 on settlement.
	if _, err := Sum(10_000, 9_223_372_036_854_765_806, 35*2500); !errors.Is(err, ErrOverflow) {
		t.Fatalf("Sum wrapped: %v", err)
	}
}

func FuzzChecked(f *testing.F) {
	f.Add(int64(1), int64(2))
	f.Add(int64(math.MaxInt64), int64(1))
	f.Add(int64(math.MinInt64), int64(-1))
	f.Fuzz(func(t *testing.T, a, b int64) {
		A, B := big.NewInt(a), big.NewInt(b)
		for _, c := range []struct {
			got  int64
			err  error
			want *big.Int
		}{
			{first(Add(a, b)), second(Add(a, b)), new(big.Int).Add(A, B)},
			{first(Sub(a, b)), second(Sub(a, b)), new(big.Int).Sub(A, B)},
			{first(Mul(a, b)), second(Mul(a, b)), new(big.Int).Mul(A, B)},
		} {
			if c.want.IsInt64() != (c.err == nil) || (c.err == nil && c.got != c.want.Int64()) {
				t.Fatalf("%d, %d: got %d, %v; want %v", a, b, c.got, c.err, c.want)
			}
		}
	})
}

func first(v int64, _ error) int64    { return v }
func second(_ int64, err error) error { return err }
