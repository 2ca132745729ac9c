package crc16

import "testing"

// The catalogue check value of CRC-16/KERMIT over "123456789" is 0x2189.
func TestKermitCheckValue(t *testing.T) {
	if got := Kermit([]byte("123456789")); got != 0x2189 {
		t.Fatalf("Kermit(123456789) = %04X, want 2189", got)
	}
	if got := Kermit(nil); got != 0 {
		t.Fatalf("Kermit(nil) = %04X, want 0", got)
	}
}
