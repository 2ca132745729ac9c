package money

import (
	"errors"
	"fmt"
	"math"
)

// ErrOverflow is wrapped by every checked sum or product that does not fit in int64 cents.
// No amount a casino handles comes near 2^63 cents; one that does is a forged or corrupt input,
// and wrapping it round would turn a huge credit into a debt (or the reverse) while an
// identity computed with the same wrapping arithmetic still balanced.
var ErrOverflow = errors.New("amount out of range")

// Add returns a + b, or ErrOverflow when the sum does not fit in int64.
func Add(a, b int64) (int64, error) {
	s := a + b
	// Overflow happened iff a and b have the same sign and s has the other.
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, fmt.Errorf("%d + %d: %w", a, b, ErrOverflow)
	}
	return s, nil
}

// Sub returns a − b, or ErrOverflow when the difference does not fit in int64.
func Sub(a, b int64) (int64, error) {
	if b == math.MinInt64 {
		if a >= 0 {
			return 0, fmt.Errorf("%d − %d: %w", a, b, ErrOverflow)
		}
		return a - b, nil // a < 0: a − MinInt64 = a + 2^63 fits
	}
	s, err := Add(a, -b)
	if err != nil {
		return 0, fmt.Errorf("%d − %d: %w", a, b, ErrOverflow)
	}
	return s, nil
}

// Mul returns a × b, or ErrOverflow when the product does not fit in int64.
func Mul(a, b int64) (int64, error) {
	if a == 0 || b == 0 {
		return 0, nil
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, fmt.Errorf("%d × %d: %w", a, b, ErrOverflow)
	}
	return p, nil
}

// Sum adds every amount, or fails with ErrOverflow as soon as a partial sum does not fit.
// (A sum whose true value fits can still fail if its partial sums do not; amounts are added in
// order, and money amounts here are all far from the edges, so that is never a real case.)
func Sum(amounts ...int64) (int64, error) {
	var s int64
	for _, a := range amounts {
		var err error
		if s, err = Add(s, a); err != nil {
			return 0, err
		}
	}
	return s, nil
}
