package idleloop

import (
	"context"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// onMain makes g's waits valid on the calling goroutine's thread, as hook does on Fyne's, with
// GLFW's event poll replaced by poll.
func onMain(t *testing.T, g *Governor, poll func()) {
	t.Helper()
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	g.mainTID = unix.Gettid()
	g.pollEvents = poll
}

func TestWakeBeforeTheWaitSkipsIt(t *testing.T) {
	g := New()
	onMain(t, g, func() {})
	g.MaxWait = time.Hour // a wait that ran would hang the test
	g.Wake()
	g.Wake() // two changes, one token: the next wait ends at once, the one after waits
	if !g.wait(context.Background()) {
		t.Fatal("a change queued before the wait: want woken")
	}
	g.MaxWait = time.Millisecond
	if g.wait(context.Background()) {
		t.Fatal("the second wait was woken by the first change's token")
	}
	if w, woken, out := g.Stats(); w != 2 || woken != 1 || out != 1 {
		t.Fatalf("stats %d %d %d, want 2 1 1", w, woken, out)
	}
}

func TestWakeDuringTheWaitEndsIt(t *testing.T) {
	g := New()
	polled := make(chan struct{})
	onMain(t, g, func() { close(polled) })
	g.MaxWait = time.Hour
	go func() {
		<-polled // the wait has begun (or is about to: the token waits for it)
		g.Wake()
	}()
	if !g.wait(context.Background()) {
		t.Fatal("want woken")
	}
}

func TestAWaitNobodyEndsTimesOut(t *testing.T) {
	g := New()
	onMain(t, g, func() {})
	g.MaxWait = 20 * time.Millisecond
	if g.wait(context.Background()) {
		t.Fatal("nothing happened: want timed out, not woken")
	}
	if _, _, out := g.Stats(); out != 1 {
		t.Fatalf("timed out %d, want 1", out)
	}
}

// Input Xlib read while a frame was drawn is on no socket: the wait handles it before waiting.
func TestInputAlreadyReadEndsTheWait(t *testing.T) {
	g := New()
	onMain(t, g, func() { g.input.Store(time.Since(g.start).Nanoseconds() + 1) }) // a touch's callback
	g.MaxWait = time.Hour
	if !g.wait(context.Background()) {
		t.Fatal("want woken by the input the poll handled")
	}
}

// After Fyne's loop has ended, fyne.DoAndWait runs the function on the caller's goroutine:
// GLFW must not be called there.
func TestNoWaitOffTheMainThread(t *testing.T) {
	g := New()
	g.pollEvents = func() { t.Error("GLFW called off the main thread") }
	g.mainTID = -1 // not this thread
	g.MaxWait = time.Hour
	if g.wait(context.Background()) {
		t.Fatal("want no wait")
	}
	if w, _, _ := g.Stats(); w != 0 {
		t.Fatalf("%d waits off the main thread", w)
	}
	if !g.ended.Load() {
		t.Fatal("Fyne's loop has ended, and the governor would go round for ever")
	}
}

// The X connection's descriptor, watched through Go's poller, ends a wait when data arrives,
// and the watcher leaves the data for Xlib to read: a real socket pair stands for the
// connection.
func TestDataOnTheConnectionEndsTheWait(t *testing.T) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	x, err := watchable(fds[0])
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	g := New()
	onMain(t, g, func() {})
	g.MaxWait = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go g.watchX(ctx, x)
	go func() {
		time.Sleep(20 * time.Millisecond) // most likely inside the wait; before it, the token waits
		if _, err := unix.Write(fds[1], []byte{42}); err != nil {
			t.Error(err)
		}
	}()
	if !g.wait(ctx) {
		t.Fatal("want woken by the connection")
	}
	buf := make([]byte, 4)
	n, _, err := unix.Recvfrom(fds[0], buf, unix.MSG_PEEK)
	if err != nil || n != 1 || buf[0] != 42 {
		t.Fatalf("the event is not left for Xlib: %d %v %v", n, buf[:max(n, 0)], err)
	}
}

func TestNoDisplayNoWatch(t *testing.T) {
	if _, err := watchable(-1); err == nil {
		t.Fatal("want an error without a display")
	}
}
