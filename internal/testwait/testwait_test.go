package testwait

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestForWaitsThenGivesUp(t *testing.T) {
	var n atomic.Int32
	time.AfterFunc(30*time.Millisecond, func() { n.Store(1) }) // another goroutine's work, taking a while
	if !For(5*time.Second, func() bool { return n.Load() == 1 }) {
		t.Fatal("For gave up on a condition that came true")
	}
	start := time.Now()
	if For(50*time.Millisecond, func() bool { return false }) {
		t.Fatal("For reported a condition that never held")
	}
	if d := time.Since(start); d < 50*time.Millisecond || d > 2*time.Second {
		t.Fatalf("gave up after %v", d)
	}
}
