package wire

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// A terminal's in-service report and a seat's service state make the round trip model → wire
// bytes → model unchanged; back in play is nil both ways.
func TestSeatServiceRoundTrip(t *testing.T) {
	bytesTrip := func(in, out proto.Message) {
		t.Helper()
		b, err := proto.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		if err := proto.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []*table.SeatService{nil,
		{Technician: "tech-1", Reason: "technician mode"},
		{Technician: "T_9", Reason: "触摸校准"},
		{Technician: "tech-2"},
		{Technician: "tess.t"}, // a terminal technicians file's id
	} {
		var req pb.SetInServiceRequest
		bytesTrip(SetInServicePB(s), &req)
		got, err := SetInServiceOf(&req)
		if err != nil || !reflect.DeepEqual(got, s) {
			t.Errorf("report %+v: read back %+v, %v", s, got, err)
		}
	}
	at := time.Unix(1_800_000_000, 123456789)
	for _, s := range []*table.SeatService{{Technician: "tech-1", Since: at, Reason: "technician mode"}, {Technician: "tech-1", Since: at}} {
		var p pb.SeatService
		bytesTrip(SeatServicePB(s), &p)
		got, err := SeatServiceOf(&p)
		if err != nil || !reflect.DeepEqual(got, s) {
			t.Errorf("status %+v: read back %+v, %v", s, got, err)
		}
	}
	if got, err := SeatServiceOf(SeatServicePB(nil)); got != nil || err != nil {
		t.Errorf("a seat in play read back as %+v, %v", got, err)
	}
}

// What a terminal may not report is refused with a reason, never taken in part.
func TestSetInServiceOfRefuses(t *testing.T) {
	for _, r := range []*pb.SetInServiceRequest{
		{InService: true},
		{InService: true, TechnicianId: strings.Repeat("t", 33)},
		{InService: true, TechnicianId: "tech\n1"},
		{InService: true, TechnicianId: "../tech1"},
		{InService: true, TechnicianId: "tech 1"},
		{InService: true, TechnicianId: "tech-1", Reason: strings.Repeat("r", table.MaxServiceReason+1)},
		{InService: true, TechnicianId: "tech-1", Reason: "a\x00b"},
		{InService: true, TechnicianId: "tech-1", Reason: "\xff"},
		{TechnicianId: "tech-1"},
		{Reason: "done"},
	} {
		if got, err := SetInServiceOf(r); err == nil {
			t.Errorf("%v read as %+v", r, got)
		}
	}
	if _, err := SetInServiceOf(&pb.SetInServiceRequest{InService: true, TechnicianId: "tech-1", Reason: strings.Repeat("校", table.MaxServiceReason)}); err != nil {
		t.Errorf("a reason of %d characters refused: %v", table.MaxServiceReason, err)
	}
}

// FuzzSetInServiceOf reads arbitrary reports: never a panic, and what it takes it writes back
// exactly as sent (nothing dropped or changed on the way in).
func FuzzSetInServiceOf(f *testing.F) {
	f.Add(true, "tech-1", "technician mode")
	f.Add(false, "", "")
	f.Add(true, "", "\x00")
	f.Add(false, "x", "")
	f.Fuzz(func(t *testing.T, in bool, id, reason string) {
		req := &pb.SetInServiceRequest{InService: in, TechnicianId: id, Reason: reason}
		s, err := SetInServiceOf(req)
		if err != nil {
			return
		}
		if back := SetInServicePB(s); !proto.Equal(back, req) {
			t.Fatalf("%v read as %+v, written back as %v", req, s, back)
		}
	})
}
