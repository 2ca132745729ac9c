package kiosk

import (
	"context"
	"sync/atomic"
	"time"
)

// keepDrawn redraws the screen when it has not changed for every, so that what it shows stays
// in Fyne's caches. Fyne drops a texture, a text's rasterisation or a widget's renderer it has
// not drawn for its cache lifetime (internal/fyneenv: 10 s here, for memory), and a screen at
// rest draws nothing: after a quiet spell longer than that — no more bets while the wheel
// spins — the next frame, the result's, would draw every text and the felt's picture afresh.
// During wagering the countdown changes the screen every second and this draws nothing more.
//
// changed holds when the screen last changed (Unix nanoseconds; the screen's scheduler sets it
// after a change that left the canvas to be drawn, toBeDrawn in screen.go);
// tick is when to look (a time.Ticker's channel in the kiosk, a test's own); redraw asks for a
// frame. It returns when ctx ends.
func keepDrawn(ctx context.Context, every time.Duration, tick <-chan time.Time, changed *atomic.Int64, redraw func()) {
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick:
			if now.UnixNano()-changed.Load() < int64(every) {
				continue
			}
			changed.Store(now.UnixNano())
			redraw()
		}
	}
}
