// Package crc16 holds the one CRC the serial devices use: CRC-16/KERMIT (polynomial 0x1021
// reflected, initial value 0, no final XOR), so the ID-003 codec and the ID pad codec cannot drift.
package crc16

// Kermit computes CRC-16/KERMIT of b.
func Kermit(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc ^= uint16(c)
		for range 8 {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0x8408
			} else {
				crc >>= 1
			}
		}
	}
	return crc
}
