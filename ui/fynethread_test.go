package ui

import (
	"sync"
	"testing"
	"time"
)

// fyneThread is a headless test's Fyne thread: the GLFW driver's event loop in miniature. The
// test driver runs fyne.Do on the caller's goroutine, so a screen following a live terminal
// would change its widgets from the terminal's goroutines while the test taps them from its
// own. Here every UI change — the screen's updates (Screen.do), the test's taps and its reads
// of what is shown — runs on one goroutine, in order, and the race detector catches UI code
// that touches a widget anywhere else.
type fyneThread struct {
	mu      sync.Mutex
	queue   []func()
	wake    chan struct{}
	stop    chan struct{}
	stopped chan struct{}
}

// startFyneThread starts the thread; it stops when the test ends, dropping what is queued.
func startFyneThread(t *testing.T) *fyneThread {
	f := &fyneThread{wake: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	go f.loop()
	t.Cleanup(func() {
		close(f.stop)
		<-f.stopped
	})
	return f
}

func (f *fyneThread) loop() {
	defer close(f.stopped)
	for {
		f.mu.Lock()
		q := f.queue
		f.queue = nil
		f.mu.Unlock()
		for _, fn := range q {
			fn()
		}
		if len(q) > 0 {
			continue
		}
		select {
		case <-f.stop:
			return
		case <-f.wake:
		}
	}
}

// Do queues fn to run on the thread and returns at once, like fyne.Do.
func (f *fyneThread) Do(fn func()) {
	f.mu.Lock()
	f.queue = append(f.queue, fn)
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// DoAndWait runs fn on the thread and waits for it, like fyne.DoAndWait. Not from the thread.
func (f *fyneThread) DoAndWait(fn func()) {
	done := make(chan struct{})
	f.Do(func() {
		defer close(done)
		fn()
	})
	select {
	case <-done:
	case <-f.stopped:
	}
}

// eventually polls ok on the thread until it holds, failing the test after a generous deadline
// (the race detector on two shared cores is slow); say describes what was shown instead.
func (f *fyneThread) eventually(t *testing.T, what string, ok func() bool, say func() string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var done bool
		var shown string
		f.DoAndWait(func() {
			if done = ok(); !done && say != nil {
				shown = say()
			}
		})
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %s; it shows %s", what, shown)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
