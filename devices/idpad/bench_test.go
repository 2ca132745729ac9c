package idpad_test

import (
	"bytes"
	"testing"

	"github.com/tablegames/ats/devices/idpad"
)

// BenchmarkReader measures frame parsing throughput on a stream of heartbeats and events.
func BenchmarkReader(b *testing.B) {
	var stream []byte
	for _, f := range []idpad.Frame{{Type: idpad.Heartbeat, Data: []byte{0, 1, 0, 0}}, {Type: idpad.TouchOn, Seq: 3, Data: []byte{1}}, {Type: idpad.CardIn, Seq: 4, Data: append([]byte{1}, "1234567890"...)}} {
		w, _ := f.Encode()
		stream = append(stream, w...)
	}
	for len(stream) < 64<<10 {
		stream = append(stream, stream...)
	}
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		r := idpad.NewReader(bytes.NewReader(stream))
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}
