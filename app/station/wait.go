package station

import (
	"context"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/roulette"
)

// WaitForTable waits, up to timeout or ctx's end, for the table's first snapshot, so a screen
// can be built for the table's layout. It returns the view then; if the table has not answered,
// it returns the view with a single-zero layout, which the screen shows until the table does
// (the terminal follows the table from then on).
func (s *Station) WaitForTable(ctx context.Context, timeout time.Duration) app.View {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// A poll: the view is all the terminal promises a watcher (a change notice would need
	// unregistering once answered), and 20 ms is well under the start-up target.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if v := s.Terminal.View(); v.Config.Layout.Wheel != 0 {
			return v
		}
		select {
		case <-ctx.Done():
			v := s.Terminal.View()
			if v.Config.Layout.Wheel == 0 {
				v.Config.Layout.Wheel = roulette.SingleZero
			}
			return v
		case <-tick.C:
		}
	}
}
