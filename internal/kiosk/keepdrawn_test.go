package kiosk

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
)

func TestKeepDrawnRedrawsOnlyAScreenAtRest(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const every = 2500 * time.Millisecond
	t0 := time.Unix(1_700_000_000, 0)
	var changed atomic.Int64
	changed.Store(t0.UnixNano())
	tick := make(chan time.Time)
	redraws := make(chan time.Time, 10)
	var now time.Time
	go keepDrawn(ctx, every, tick, &changed, func() { redraws <- now })
	// at sends a tick at t0+d and reports whether it redrew. A tick is taken once the previous
	// one has been handled (the channel is unbuffered), so a redraw shows before the next send.
	at := func(d time.Duration) bool {
		now = t0.Add(d)
		tick <- now
		tick <- now // handled after the first: its redraw, if any, is in the channel
		select {
		case <-redraws:
			return true
		default:
			return false
		}
	}
	if at(time.Second) {
		t.Fatal("redrawn 1 s after a change")
	}
	if !at(every) {
		t.Fatal("not redrawn after a quiet spell of every")
	}
	if at(every + time.Second) {
		t.Fatal("redrawn again 1 s after its own redraw")
	}
	// The countdown: a change each second keeps it from drawing anything.
	for s := 3; s < 20; s++ {
		changed.Store(t0.Add(time.Duration(s) * time.Second).UnixNano())
		if at(time.Duration(s)*time.Second + 900*time.Millisecond) {
			t.Fatalf("redrawn at %d.9 s, 0.9 s after a change", s)
		}
	}
	if !at(19*time.Second + every) {
		t.Fatal("not redrawn when the changes stopped")
	}
}

// dirtyCanvas is a canvas that says whether it is to be drawn, as Fyne's GLFW canvas does.
type dirtyCanvas struct {
	fyne.Canvas
	dirty bool
}

func (c *dirtyCanvas) CheckDirtyAndClear() bool { d := c.dirty; c.dirty = false; return d }
func (c *dirtyCanvas) SetDirty()                { c.dirty = true }

func TestToBeDrawnLeavesTheFlagAsItWas(t *testing.T) {
	for _, dirty := range []bool{false, true} {
		c := &dirtyCanvas{dirty: dirty}
		if got := toBeDrawn(c); got != dirty || c.dirty != dirty {
			t.Errorf("dirty %v: toBeDrawn %v, and the canvas is left dirty %v", dirty, got, c.dirty)
		}
	}
	if !toBeDrawn(struct{ fyne.Canvas }{}) {
		t.Error("a canvas that cannot say is not taken to be drawn")
	}
}
