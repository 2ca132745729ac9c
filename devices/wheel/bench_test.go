package wheel_test

import (
	"bytes"
	"testing"

	"github.com/tablegames/ats/devices/wheel"
)

// BenchmarkReader measures sentence parsing throughput on a stream of a spin's sentences.
func BenchmarkReader(b *testing.B) {
	var stream []byte
	for _, s := range []wheel.Sentence{wheel.S("HB", "37", "A"), wheel.S("SP", "24", "CW"), wheel.S("BL", "41", "CCW"),
		wheel.S("BD", "41", "12"), wheel.S("WN", "41", "17", "17")} {
		stream = append(stream, wheel.MustEncode(s)...)
	}
	for len(stream) < 64<<10 {
		stream = append(stream, stream...)
	}
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		r := wheel.NewReader(bytes.NewReader(stream))
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}
