package clocksync

import (
	"math/rand/v2"
	"testing"
	"time"
)

var base = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)

func TestSampleArithmetic(t *testing.T) {
	cases := []struct {
		name           string
		t0, t1, t2, t3 time.Duration // from base; t1,t2 on the server clock
		offset, delay  time.Duration
	}{
		{"same clock, symmetric", 0, 10 * time.Millisecond, 11 * time.Millisecond, 21 * time.Millisecond, 0, 20 * time.Millisecond},
		{"server 1 s ahead", 0, time.Second + 5*time.Millisecond, time.Second + 5*time.Millisecond, 10 * time.Millisecond, time.Second, 10 * time.Millisecond},
		{"server behind", 100 * time.Millisecond, 50 * time.Millisecond, 52 * time.Millisecond, 104 * time.Millisecond, -51 * time.Millisecond, 2 * time.Millisecond},
	}
	for _, c := range cases {
		s := Sample{base.Add(c.t0), base.Add(c.t1), base.Add(c.t2), base.Add(c.t3)}
		if s.Offset() != c.offset || s.Delay() != c.delay {
			t.Errorf("%s: offset %v delay %v, want %v %v", c.name, s.Offset(), s.Delay(), c.offset, c.delay)
		}
	}
}

func TestMinDelayFilterAndWindow(t *testing.T) {
	e := New(3)
	if _, _, ok := e.Estimate(); ok {
		t.Fatal("estimate without samples")
	}
	if !e.LockAt(base).IsZero() {
		t.Fatal("a lock time without any sample must be now (zero)")
	}
	add := func(offset, delay time.Duration) {
		t0 := base
		t1 := t0.Add(offset + delay/2)
		e.Add(Sample{t0, t1, t1, t0.Add(delay)})
	}
	add(100*time.Millisecond, 30*time.Millisecond)
	add(90*time.Millisecond, 2*time.Millisecond) // the best
	add(120*time.Millisecond, 40*time.Millisecond)
	off, bound, _ := e.Estimate()
	if off != 90*time.Millisecond || bound != time.Millisecond {
		t.Fatalf("min-delay sample: %v ±%v", off, bound)
	}
	add(0, 50*time.Millisecond)
	add(0, 50*time.Millisecond) // the best sample leaves the window of 3
	if off, _, _ := e.Estimate(); off == 90*time.Millisecond {
		t.Fatal("window not applied")
	}
	if e.Add(Sample{base, base, base.Add(time.Second), base}) {
		t.Fatal("a negative-delay sample was taken")
	}
	e.Reset()
	if _, _, ok := e.Estimate(); ok {
		t.Fatal("reset kept samples")
	}
}

// With up to 20 ms of jitter on each direction of the link and any clock offset, the lock is
// never after the server's deadline and never more than 50 ms before it.
func TestLockWithJitter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	worstEarly := time.Duration(0)
	for trial := range 2000 {
		trueOffset := time.Duration(rng.Int64N(int64(20*time.Second))) - 10*time.Second
		e := New(DefaultWindow)
		local := base.Add(time.Duration(trial) * time.Minute)
		for range DefaultWindow {
			up := time.Duration(rng.Int64N(int64(20 * time.Millisecond)))
			down := time.Duration(rng.Int64N(int64(20 * time.Millisecond)))
			proc := time.Duration(rng.Int64N(int64(time.Millisecond)))
			t0 := local
			t1 := t0.Add(up).Add(trueOffset)
			t2 := t1.Add(proc)
			t3 := t2.Add(down).Add(-trueOffset)
			e.Add(Sample{t0, t1, t2, t3})
			local = t3.Add(200 * time.Millisecond)
		}
		deadline := local.Add(trueOffset).Add(30 * time.Second) // a server deadline
		lock := e.LockAt(deadline)
		serverAtLock := lock.Add(trueOffset)
		if serverAtLock.After(deadline) {
			t.Fatalf("trial %d: locked %v after the deadline", trial, serverAtLock.Sub(deadline))
		}
		early := deadline.Sub(serverAtLock)
		worstEarly = max(worstEarly, early)
		if early > 50*time.Millisecond {
			t.Fatalf("trial %d: locked %v before the deadline (offset %v)", trial, early, trueOffset)
		}
	}
	t.Logf("worst early lock over 2000 trials with 20 ms jitter: %v", worstEarly)
}
