package wire

import (
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/roulette"
	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// A batch makes the round trip model → wire bytes → model as its events would one by one: the
// same events in the same order, each with its own seq and server time on the wire.
func TestEventBatchRoundTrip(t *testing.T) {
	layout := roulette.Layout{Wheel: roulette.SingleZero}
	at := time.Unix(1_800_000_040, 5)
	evs := []table.Event{
		table.OutcomeEntered{Outcome: table.Outcome{RoundID: "R000007", Number: 17, At: at}},
		table.PhaseChanged{Phase: table.PhaseResult, RoundID: "R000007", Deadline: at.Add(-time.Minute)},
		table.Settled{RoundID: "R000007", Number: 17, Recognised: true, Staked: 2600, Returned: 3600, Balance: 11000,
			ReturnedPerBet: []int64{3600, 0}, SlipVersion: 3},
	}
	var msgs []*pb.TableEvent
	for i, ev := range evs {
		m, err := EventPB(ev)
		if err != nil {
			t.Fatal(err)
		}
		m.Seq, m.ServerTimeUnixNanos = uint64(41+i), at.UnixNano()+int64(i)
		msgs = append(msgs, m)
	}
	batch, err := BatchPB(msgs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := proto.Marshal(batch)
	if err != nil {
		t.Fatal(err)
	}
	var read pb.TableEvent
	if err := proto.Unmarshal(b, &read); err != nil {
		t.Fatal(err)
	}
	got, err := EventsOf(&read, layout)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, evs) {
		t.Fatalf("batch read back as\n%#v\nwant\n%#v", got, evs)
	}
	for i, m := range read.GetBatch().GetEvents() {
		if m.Seq != uint64(41+i) || m.ServerTimeUnixNanos != at.UnixNano()+int64(i) {
			t.Errorf("event %d: seq %d time %d", i, m.Seq, m.ServerTimeUnixNanos)
		}
	}
	// One event alone reads as itself, a batch of one.
	one, err := EventsOf(msgs[2], layout)
	if err != nil || len(one) != 1 || !reflect.DeepEqual(one[0], evs[2]) {
		t.Fatalf("one event: %#v %v", one, err)
	}
	// EventOf is for one event: a batch given to it is an error, never its first event.
	if ev, err := EventOf(batch, layout); err == nil {
		t.Fatalf("EventOf read a batch as %#v", ev)
	}
}

// A batch that cannot be read is refused whole: empty, holding a snapshot or a batch, or with
// one malformed event among good ones. Writing such a batch is refused too.
func TestEventBatchRefused(t *testing.T) {
	layout := roulette.Layout{Wheel: roulette.SingleZero}
	good := &pb.TableEvent{Seq: 1, Event: &pb.TableEvent_Phase{Phase: &pb.PhaseChanged{Phase: pb.Phase(table.PhaseResult)}}}
	snap := &pb.TableEvent{Seq: 2, Event: &pb.TableEvent_Snapshot{Snapshot: &pb.Snapshot{Config: &pb.TableConfig{Wheel: pb.Wheel_WHEEL_SINGLE_ZERO}}}}
	bad := &pb.TableEvent{Seq: 3, Event: &pb.TableEvent_Outcome{Outcome: &pb.OutcomeEntered{Outcome: &pb.Outcome{RoundId: "R1", Number: "99"}}}}
	nested := &pb.TableEvent{Event: &pb.TableEvent_Batch{Batch: &pb.EventBatch{Events: []*pb.TableEvent{good}}}}
	for name, evs := range map[string][]*pb.TableEvent{
		"empty": nil, "snapshot": {good, snap}, "nested": {good, nested}, "no event": {good, {Seq: 4}},
	} {
		if _, err := BatchPB(evs); err == nil {
			t.Errorf("%s: BatchPB wrote it", name)
		}
		msg := &pb.TableEvent{Event: &pb.TableEvent_Batch{Batch: &pb.EventBatch{Events: evs}}}
		if got, err := EventsOf(msg, layout); err == nil {
			t.Errorf("%s: read as %#v", name, got)
		}
	}
	msg, err := BatchPB([]*pb.TableEvent{good, bad})
	if err != nil {
		t.Fatal(err) // well formed as a batch; its second event is not
	}
	if got, err := EventsOf(msg, layout); err == nil {
		t.Errorf("a batch with a malformed outcome read as %#v", got)
	}
}

// FuzzEventsOf feeds arbitrary bytes to the terminal's reading of a message: it never panics,
// and a batch it reads is exactly its events read one by one, none a snapshot or a batch.
func FuzzEventsOf(f *testing.F) {
	l := roulette.Layout{Wheel: roulette.SingleZero}
	outcome := &pb.TableEvent{Seq: 7, Event: &pb.TableEvent_Outcome{Outcome: &pb.OutcomeEntered{Outcome: &pb.Outcome{RoundId: "R1", Number: "17"}}}}
	phase := &pb.TableEvent{Seq: 8, Event: &pb.TableEvent_Phase{Phase: &pb.PhaseChanged{Phase: pb.Phase(table.PhaseResult), RoundId: "R1"}}}
	settled := &pb.TableEvent{Seq: 9, Event: &pb.TableEvent_Settled{Settled: &pb.Settled{RoundId: "R1", Number: "17", Staked: 100, Returned: 3600, Balance: 3500}}}
	for _, ev := range []*pb.TableEvent{
		{Event: &pb.TableEvent_Batch{Batch: &pb.EventBatch{Events: []*pb.TableEvent{outcome, phase, settled}}}},
		{Event: &pb.TableEvent_Batch{Batch: &pb.EventBatch{Events: []*pb.TableEvent{outcome}}}},
		settled,
	} {
		b, err := proto.Marshal(ev)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var ev pb.TableEvent
		if proto.Unmarshal(b, &ev) != nil {
			return
		}
		got, err := EventsOf(&ev, l)
		if err != nil {
			return
		}
		batch, ok := ev.Event.(*pb.TableEvent_Batch)
		if !ok {
			if len(got) != 1 {
				t.Fatalf("one event read as %d", len(got))
			}
			return
		}
		if len(got) != len(batch.Batch.Events) || len(got) == 0 {
			t.Fatalf("a batch of %d read as %d events", len(batch.Batch.Events), len(got))
		}
		for i, inner := range batch.Batch.Events {
			one, err := EventOf(inner, l)
			if err != nil || !reflect.DeepEqual(one, got[i]) {
				t.Fatalf("event %d: alone %#v %v, in the batch %#v", i, one, err, got[i])
			}
			if _, ok := got[i].(table.Snapshot); ok {
				t.Fatalf("a snapshot read from a batch")
			}
		}
	})
}
