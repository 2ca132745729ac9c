package server

import (
	"time"

	"google.golang.org/grpc"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// The dealer console's stream (DealerService.WatchTable, issue 28): the table's status, sent
// whole at once and again after every change. A change is a committed ledger write (the
// ledger's OnCommit: money, slips, alarms, calls, buy-ins, faults…) or an event sent to the
// terminals (a phase, a deadline passing); a terminal connecting or leaving is one too. Each
// stream holds one pending signal, never a queue: however many changes happen while a console
// is slow or gone, the table only sets a flag it already holds, and the console gets the
// latest status when it reads again. Nothing runs on a timer: at rest nothing is sent.

// tableWatcher is one WatchTable stream's change signal: capacity one, so it means "changed
// since you last looked" and a burst of changes is one signal.
type tableWatcher struct{ ch chan struct{} }

// watchCoalesce is how long a stream lets a burst of changes gather after the first before it
// reads the status: the settlement of every seat, a hundred terminals' slips changing in the
// last seconds of the period. It bounds a console to 1/watchCoalesce statuses a second (each
// read under the table's lock, with the ledger's conservation sums) at the cost of that much
// latency on the dealer's screen; the terminals are told at once, as ever.
const watchCoalesce = 50 * time.Millisecond

// watch registers a stream's signal.
func (t *Table) watch() *tableWatcher {
	w := &tableWatcher{ch: make(chan struct{}, 1)}
	t.watchMu.Lock()
	defer t.watchMu.Unlock()
	if t.watchers == nil {
		t.watchers = map[*tableWatcher]struct{}{}
	}
	t.watchers[w] = struct{}{}
	return w
}

// unwatch forgets a stream's signal; the table holds nothing of it afterwards.
func (t *Table) unwatch(w *tableWatcher) {
	t.watchMu.Lock()
	defer t.watchMu.Unlock()
	delete(t.watchers, w)
}

// watching is how many WatchTable streams the table holds (for the tests' leak check).
func (t *Table) watching() int {
	t.watchMu.Lock()
	defer t.watchMu.Unlock()
	return len(t.watchers)
}

// changed tells every stream the table changed. It never waits: a signal already pending
// stands for this change too.
func (t *Table) changed() {
	t.watchMu.Lock()
	defer t.watchMu.Unlock()
	for w := range t.watchers {
		select {
		case w.ch <- struct{}{}:
		default:
		}
	}
}

// WatchTable streams the table's status to a dealer console: the status at once, then the
// latest after each burst of changes.
func (s *dealerService) WatchTable(_ *pb.WatchTableRequest, stream grpc.ServerStreamingServer[pb.TableStatus]) error {
	ctx := stream.Context()
	w := s.t.watch()
	defer s.t.unwatch(w)
	coalesce := time.NewTimer(0)
	defer coalesce.Stop()
	for {
		st, err := s.t.Status()
		if err != nil {
			return err
		}
		if err := stream.Send(st); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-w.ch:
		}
		coalesce.Reset(watchCoalesce)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-coalesce.C:
		}
		select { // the changes of the burst are in the status about to be read
		case <-w.ch:
		default:
		}
	}
}
