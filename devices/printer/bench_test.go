package printer

import (
	"bytes"
	"strings"
	"testing"
)

// BenchmarkStatusReader measures status reply parsing throughput.
func BenchmarkStatusReader(b *testing.B) {
	stream := []byte(strings.Repeat("*S|0|GURUSAG18|`|@|@|A|R|P1|*", 2000))
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		r := NewStatusReader(bytes.NewReader(stream))
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}
