package server

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// watchBatches is watch for a terminal that reads batches (WatchRequest.batches): each message
// as it came off the wire.
func (r *rig) watchBatches(c pb.TerminalServiceClient) *watcher {
	r.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := c.Watch(ctx, &pb.WatchRequest{Batches: true})
	if err != nil {
		r.t.Fatal(err)
	}
	w := &watcher{cancel: cancel, events: make(chan *pb.TableEvent, 1024)}
	go func() {
		defer close(w.events)
		for {
			ev, err := stream.Recv()
			if err != nil {
				return
			}
			w.events <- ev
		}
	}()
	if first := w.next(r.t); first.GetSnapshot() == nil {
		r.t.Fatalf("first message is not a snapshot: %v", first)
	}
	return w
}

// upToSettled reads a stream's messages up to the one holding round's Settled event (or, with
// none for the terminal, the next round's wagering phase), and returns them and their events.
func upToSettled(t *testing.T, w *watcher, round string) (msgs []*pb.TableEvent, evs []*pb.TableEvent) {
	t.Helper()
	for {
		m := w.next(t)
		msgs = append(msgs, m)
		inner := []*pb.TableEvent{m}
		if b := m.GetBatch(); b != nil {
			inner = b.Events
		}
		// Events are compared up to the one that ends the look: a batch may carry events past
		// it (a loaded machine coalesces more into one message), which the plain stream sends
		// in messages of their own that this look does not read.
		for _, ev := range inner {
			evs = append(evs, ev)
			if s := ev.GetSettled(); s != nil && s.RoundId == round {
				return msgs, evs
			}
			if p := ev.GetPhase(); p != nil && p.RoundId != round && p.Phase == pb.Phase(table.PhaseWagering) {
				return msgs, evs
			}
		}
	}
}

// A terminal that reads batches is sent exactly the events, seq numbers and server times of
// one that does not, in the same order; at the outcome its outcome, result phase and settlement
// come as one message. One that does not ask (an older terminal) never gets a batch. A terminal
// without a settlement gets the outcome and the phase, and no settlement.
func TestWatchBatchesAreTheSameEventsInOrder(t *testing.T) {
	r := newRig(t)
	t1, t2 := r.terminal("T1"), r.terminal("T2")
	if _, err := r.dealer.OpenTable(ctx, &pb.OpenTableRequest{}); err != nil {
		t.Fatal(err)
	}
	for id, c := range map[string]pb.TerminalServiceClient{"T1": t1, "T2": t2} {
		if err := r.buyIn(c, id, "in-"+id, 10000); err != nil {
			t.Fatal(err)
		}
	}
	plain := r.watch(t1)
	defer plain.cancel()
	batched := r.watchBatches(t1) // the terminal's second stream, MaxWatchStreams
	defer batched.cancel()
	other := r.watch(t2)
	defer other.cancel()

	round := r.playRound(t, "17", map[pb.TerminalServiceClient][]*pb.Wager{t1: {straight("17", 100)}})
	// A later round's first events too: batches carry on after the outcome.
	if _, err := r.dealer.StartRound(ctx, &pb.StartRoundRequest{}); err != nil {
		t.Fatal(err)
	}

	plainMsgs, want := upToSettled(t, plain, round)
	batchMsgs, got := upToSettled(t, batched, round)
	for _, m := range plainMsgs {
		if m.GetBatch() != nil {
			t.Fatalf("a stream that did not ask for batches was sent one: %v", m)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("batched stream: %d events, plain stream %d", len(got), len(want))
	}
	for i := range want {
		if !proto.Equal(got[i], want[i]) {
			t.Fatalf("event %d: batched %v, plain %v", i, got[i], want[i])
		}
	}
	// The outcome's message holds the outcome, the result phase and the settlement, in order.
	var outcomeMsg *pb.TableEvent
	for _, m := range batchMsgs {
		for _, ev := range m.GetBatch().GetEvents() {
			if ev.GetOutcome() != nil {
				outcomeMsg = m
			}
		}
	}
	if outcomeMsg == nil {
		t.Fatalf("the outcome did not come in a batch: %v", batchMsgs)
	}
	var kinds []string
	for _, ev := range outcomeMsg.GetBatch().Events {
		switch {
		case ev.GetOutcome() != nil:
			kinds = append(kinds, "outcome "+ev.GetOutcome().GetOutcome().GetNumber())
		case ev.GetPhase() != nil:
			kinds = append(kinds, "phase "+table.Phase(ev.GetPhase().Phase).String())
		case ev.GetSettled() != nil:
			kinds = append(kinds, "settled")
		default:
			kinds = append(kinds, "other")
		}
	}
	if g, w := join(kinds), "outcome 17 | phase "+table.PhaseResult.String()+" | settled"; g != w {
		t.Fatalf("the outcome's batch: %s, want %s", g, w)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Seq <= got[i-1].Seq {
			t.Fatalf("event %d has seq %d after %d", i, got[i].Seq, got[i-1].Seq)
		}
	}

	// T2 placed nothing: the outcome and the phase, then the next round, with no settlement.
	_, evs := upToSettled(t, other, round)
	var seen []string
	for _, ev := range evs {
		switch {
		case ev.GetOutcome() != nil:
			seen = append(seen, "outcome")
		case ev.GetSettled() != nil:
			seen = append(seen, "settled")
		case ev.GetPhase() != nil && ev.GetPhase().Phase == pb.Phase(table.PhaseResult):
			seen = append(seen, "result")
		}
	}
	if g := join(seen); g != "outcome | result" {
		t.Fatalf("T2 without a slip: %s", g)
	}
}
