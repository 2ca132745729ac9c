// Package idleloop lets the kiosk's Fyne event loop sleep while nothing on its screen changes.
//
// Why: Fyne's GLFW driver (v2.7, internal/driver/glfw/loop.go) wakes 60 times a second for
// ever — a time.Ticker of 1/60 s that polls X for events and draws a frame only if something
// is dirty. Idle in a wagering period the kiosk draws one frame a second (the countdown), yet
// those 60 wakes a second, each a hand-off to the main thread locked to GLFW and back, were
// about half of the kiosk's own CPU (issue 18: ≤ 5 % of a core idle, the GL driver's one frame
// a second included). Fyne has no setting for the ticker.
//
// How: a goroutine hands the main thread a function (fyne.DoAndWait) that waits, in Go, while
// the screen is at rest. Fyne's loop is parked in that function and its ticker, with no
// receiver, costs nothing (Go's channel timers since 1.23). The wait ends:
//   - when the X connection has something to read: a touch, a key, an expose. The connection's
//     descriptor is watched through Go's poller (epoll), and the loop's next tick, at once,
//     polls GLFW and handles the touch as it would have;
//   - when the application queues a change to the screen (Wake, after its fyne.Do);
//   - after MaxWait at the latest, for work Fyne queues by itself.
//
// The wait is in Go, not in GLFW's glfwWaitEventsTimeout: a cgo call that blocks holds a Go
// processor in a system call, and Go's sysmon thread, which retakes it after 10 ms, then polls
// every 20 µs for a millisecond — that build woke sysmon ~485 times a second, more than Fyne's
// ticker had cost.
//
// After any input the loop runs freely for Hold: what a touch starts inside Fyne — a button's
// animation, a touch-and-hold or a double-tap timer — runs on the loop's ticker and queue,
// which this package cannot see. After a Wake it runs for Settle, long enough to draw the
// change. The screen never waits longer for a change than it did: a queued change wakes the
// loop at once, and a touch ends the wait as it arrives.
package idleloop

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"sync/atomic"
	"time"
	"unsafe"

	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.3/glfw"
	"golang.org/x/sys/unix"
)

// #cgo LDFLAGS: -lX11
// #include <X11/Xlib.h>
import "C"

// Governor parks Fyne's event loop while the screen is at rest. Its zero value is not usable:
// make one with New.
type Governor struct {
	// MaxWait is the longest one wait lasts; Hold how long the loop runs freely after input;
	// Settle how long after a Wake.
	MaxWait, Hold, Settle time.Duration

	wake    chan struct{} // a change was queued (Wake); one token is enough
	ready   chan struct{} // the X connection has something to read (watchX)
	input   atomic.Int64  // when input last arrived, in nanoseconds since start
	start   time.Time
	mainTID int         // the main thread's, where GLFW may be called (0: not hooked)
	ended   atomic.Bool // a wait ran off the main thread: Fyne's loop has ended

	waits, woken, timedOut atomic.Int64 // counters for Stats

	// pollEvents is GLFW's, replaced by the tests.
	pollEvents func()
}

// New returns a governor with the kiosk's timings.
func New() *Governor {
	return &Governor{MaxWait: 250 * time.Millisecond, Hold: time.Second, Settle: 50 * time.Millisecond, start: time.Now(),
		wake: make(chan struct{}, 1), ready: make(chan struct{}, 1), pollEvents: glfw.PollEvents}
}

// Wake tells the governor a change to the screen was queued (fyne.Do): a wait in progress
// ends at once, and one about to begin does not begin. Safe from any goroutine.
func (g *Governor) Wake() {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// Stats are how many waits the loop made, how many a change or input ended early and how
// many ran to MaxWait.
func (g *Governor) Stats() (waits, woken, timedOut int64) {
	return g.waits.Load(), g.woken.Load(), g.timedOut.Load()
}

// Run parks the loop of the app's window w whenever the screen has been at rest for Hold,
// until ctx ends. It returns at once, doing nothing, if w is not a GLFW window on X11. Call it
// on its own goroutine once the app runs (the app's OnStarted).
func (g *Governor) Run(ctx context.Context, w fyne.Window) {
	fd := -1
	fyne.DoAndWait(func() { fd = g.hook(w) })
	if g.mainTID == 0 {
		return
	}
	x, err := watchable(fd)
	if err != nil {
		slog.Warn("kiosk: Fyne's loop runs at 60 Hz: the X connection cannot be watched", "err", err)
		return
	}
	defer x.Close()
	go g.watchX(ctx, x)
	for ctx.Err() == nil {
		if rest := time.Duration(time.Since(g.start).Nanoseconds() - g.input.Load()); rest < g.Hold {
			sleep(ctx, g.Hold-rest)
			continue
		}
		var woken bool
		fyne.DoAndWait(func() { woken = g.wait(ctx) })
		if g.ended.Load() {
			return // Fyne's loop has ended: nothing to park
		}
		if woken {
			sleep(ctx, g.Settle)
		}
	}
}

// watchable is a duplicate of the X connection's descriptor registered with Go's poller.
// Xlib (xcb) keeps the connection non-blocking and waits on it with poll(2) itself, so the
// duplicate — the same open socket — is pollable as it is; nothing here ever reads it.
func watchable(fd int) (*os.File, error) {
	if fd < 0 {
		return nil, errors.New("no X display")
	}
	d, err := unix.Dup(fd)
	if err != nil {
		return nil, err
	}
	if err := unix.SetNonblock(d, true); err != nil {
		unix.Close(d)
		return nil, err
	}
	return os.NewFile(uintptr(d), "x11"), nil
}

// watchX signals ready each time the X connection becomes readable. epoll (edge-triggered, as
// Go's poller uses it) tells of data as it arrives, not while it waits to be read, so this does
// not spin while Xlib has not read it yet. A readiness no wait takes stays in ready and ends the
// next wait early: at worst a wait ends once for nothing.
func (g *Governor) watchX(ctx context.Context, x *os.File) {
	rc, err := x.SyscallConn()
	if err != nil {
		return
	}
	for ctx.Err() == nil {
		calls := 0
		// Read calls the function, waits for readability when it returns false, and calls it
		// again: the first call says "not yet", the second ends the wait.
		if err := rc.Read(func(uintptr) bool { calls++; return calls > 1 }); err != nil {
			return
		}
		select {
		case g.ready <- struct{}{}:
		default:
		}
	}
}

// hook runs on the main thread: it notes the thread, has every input callback Fyne set on the
// window also note the time of the input, and returns the X connection's descriptor (-1 if
// there is none).
func (g *Governor) hook(w fyne.Window) int {
	rc, ok := w.(interface{ RunWithContext(func()) })
	if !ok {
		return -1
	}
	var gw *glfw.Window
	rc.RunWithContext(func() { gw = glfw.GetCurrentContext() })
	if gw == nil {
		return -1
	}
	d := glfw.GetX11Display()
	if d == nil {
		return -1
	}
	fd := int(C.XConnectionNumber((*C.Display)(unsafe.Pointer(d))))
	touched := func() { g.input.Store(time.Since(g.start).Nanoseconds()) }
	if prev := gw.SetMouseButtonCallback(nil); prev != nil {
		gw.SetMouseButtonCallback(func(w *glfw.Window, b glfw.MouseButton, a glfw.Action, m glfw.ModifierKey) {
			touched()
			prev(w, b, a, m)
		})
	}
	if prev := gw.SetCursorPosCallback(nil); prev != nil {
		gw.SetCursorPosCallback(func(w *glfw.Window, x, y float64) { touched(); prev(w, x, y) })
	}
	if prev := gw.SetScrollCallback(nil); prev != nil {
		gw.SetScrollCallback(func(w *glfw.Window, x, y float64) { touched(); prev(w, x, y) })
	}
	if prev := gw.SetKeyCallback(nil); prev != nil {
		gw.SetKeyCallback(func(w *glfw.Window, k glfw.Key, sc int, a glfw.Action, m glfw.ModifierKey) {
			touched()
			prev(w, k, sc, a, m)
		})
	}
	if prev := gw.SetCharCallback(nil); prev != nil {
		gw.SetCharCallback(func(w *glfw.Window, r rune) { touched(); prev(w, r) })
	}
	touched() // the window just showed: let its first frames draw
	g.mainTID = unix.Gettid()
	return fd
}

// wait runs on the main thread (through fyne.DoAndWait) and parks Fyne's loop until a change,
// the X connection's readiness or MaxWait; true if it ended early. After Fyne's loop has ended,
// fyne.DoAndWait runs the function on the caller's goroutine, where GLFW must not be called:
// then it does nothing, and Run ends (it would otherwise go round at once, for ever).
func (g *Governor) wait(ctx context.Context) bool {
	if unix.Gettid() != g.mainTID {
		g.ended.Store(true)
		return false
	}
	if ctx.Err() != nil {
		return false
	}
	g.waits.Add(1)
	// Events Xlib has read already (while a frame was drawn) leave nothing on the socket to
	// wake the wait: handle them first, as the loop's tick would.
	before := g.input.Load()
	g.pollEvents()
	if g.input.Load() != before {
		g.woken.Add(1)
		return true
	}
	t := time.NewTimer(g.MaxWait)
	defer t.Stop()
	select {
	case <-g.wake:
	case <-g.ready:
	case <-ctx.Done():
	case <-t.C:
		g.timedOut.Add(1)
		return false
	}
	g.woken.Add(1)
	return true
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
