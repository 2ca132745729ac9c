package emulator

import "fmt"

// Interleaved 2 of 5: each digit is five elements, two of them wide. Digits go in pairs, the
// first drawn in the bars and the second in the spaces between them, between a start pattern
// (narrow bar, space, bar, space) and a stop pattern (wide bar, narrow space, narrow bar).
var i2of5 = [10]string{"nnwwn", "wnnnw", "nwnnw", "wwnnn", "nnwnw", "wnwnn", "nwwnn", "nnnww", "wnnwn", "nwnwn"}

// I2of5 returns the widths of the alternating bars and spaces (bar first) encoding digits, in
// multiples of the narrow element; wide is the wide element's width.
func I2of5(digits string, wide int) ([]int, error) {
	if len(digits) == 0 || len(digits)%2 != 0 {
		return nil, fmt.Errorf("emulator: Interleaved 2 of 5 needs an even number of digits, got %d", len(digits))
	}
	w := func(c byte) int {
		if c == 'w' {
			return wide
		}
		return 1
	}
	out := []int{1, 1, 1, 1}
	for i := 0; i < len(digits); i += 2 {
		a, b := digits[i]-'0', digits[i+1]-'0'
		if a > 9 || b > 9 {
			return nil, fmt.Errorf("emulator: %q is not all digits", digits)
		}
		for k := range 5 {
			out = append(out, w(i2of5[a][k]), w(i2of5[b][k]))
		}
	}
	return append(out, wide, 1, 1), nil
}

// DecodeI2of5 reads the digits back from element widths (bar first), telling narrow from wide
// by the midpoint of the narrowest and widest element. It checks start and stop patterns.
func DecodeI2of5(widths []int) (string, error) {
	if len(widths) < 7 || (len(widths)-7)%10 != 0 {
		return "", fmt.Errorf("emulator: %d elements is not a start, pairs of digits and a stop", len(widths))
	}
	lo, hi := widths[0], widths[0]
	for _, w := range widths {
		lo, hi = min(lo, w), max(hi, w)
	}
	if hi < 2*lo {
		return "", fmt.Errorf("emulator: no wide elements (narrowest %d, widest %d)", lo, hi)
	}
	mid := (lo + hi) / 2
	pat := make([]byte, len(widths))
	for i, w := range widths {
		pat[i] = 'n'
		if w > mid {
			pat[i] = 'w'
		}
	}
	if string(pat[:4]) != "nnnn" || string(pat[len(pat)-3:]) != "wnn" {
		return "", fmt.Errorf("emulator: bad start %q or stop %q", pat[:4], pat[len(pat)-3:])
	}
	var digits []byte
	for i := 4; i+10 <= len(pat)-3; i += 10 {
		var a, b []byte
		for k := range 5 {
			a = append(a, pat[i+2*k])
			b = append(b, pat[i+2*k+1])
		}
		da, db := -1, -1
		for d, p := range i2of5 {
			if p == string(a) {
				da = d
			}
			if p == string(b) {
				db = d
			}
		}
		if da < 0 || db < 0 {
			return "", fmt.Errorf("emulator: pattern %q/%q is not a digit", a, b)
		}
		digits = append(digits, byte('0'+da), byte('0'+db))
	}
	return string(digits), nil
}
