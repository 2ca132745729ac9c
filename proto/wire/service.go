package wire

import (
	"fmt"
	"regexp"
	"unicode"
	"unicode/utf8"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// A seat in service (technician mode, SPEC §8): the terminal's report (SetInService) and the
// table's status of the seat, both ways. The readers check what a peer could have sent: the
// server reads a terminal's report, the dealer console the table's status.

// SetInServicePB writes a terminal's report: s is the seat out of play, nil back in play.
func SetInServicePB(s *table.SeatService) *pb.SetInServiceRequest {
	if s == nil {
		return &pb.SetInServiceRequest{}
	}
	return &pb.SetInServiceRequest{InService: true, TechnicianId: s.Technician, Reason: s.Reason}
}

// SetInServiceOf reads a terminal's report: nil when it is back in play. Out of play names its
// technician; the reason is short printable text. Back in play carries neither (a technician or
// a reason there would be a terminal saying two things at once).
func SetInServiceOf(r *pb.SetInServiceRequest) (*table.SeatService, error) {
	if !r.GetInService() {
		if r.GetTechnicianId() != "" || r.GetReason() != "" {
			return nil, fmt.Errorf("back in play: no technician or reason, got %q %q", r.GetTechnicianId(), r.GetReason())
		}
		return nil, nil
	}
	s := &table.SeatService{Technician: r.GetTechnicianId(), Reason: r.GetReason()}
	if err := checkService(s); err != nil {
		return nil, err
	}
	return s, nil
}

// SeatServicePB writes a seat's service state for the table's status; nil for a seat in play.
func SeatServicePB(s *table.SeatService) *pb.SeatService {
	if s == nil {
		return nil
	}
	return &pb.SeatService{TechnicianId: s.Technician, SinceUnixNanos: TimeNanos(s.Since), Reason: s.Reason}
}

// SeatServiceOf reads a seat's service state from the table's status; nil for a seat in play.
func SeatServiceOf(p *pb.SeatService) (*table.SeatService, error) {
	if p == nil {
		return nil, nil
	}
	s := &table.SeatService{Technician: p.GetTechnicianId(), Since: Time(p.GetSinceUnixNanos()), Reason: p.GetReason()}
	if err := checkService(s); err != nil {
		return nil, err
	}
	return s, nil
}

// technicianID is what a technician's id may be: a certificate's id (letters, digits, '_', '-')
// or a terminal technicians file's (which also allows '.'), 1 to 32 characters, starting with
// a letter or a digit. A technician in service on a terminal that checks PINs itself
// (-local-technician-pins) has the file's kind.
var technicianID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$`)

func checkService(s *table.SeatService) error {
	if !technicianID.MatchString(s.Technician) {
		return fmt.Errorf("in service: technician %q: 1 to 32 letters, digits, '.', '_' or '-', starting with a letter or digit", s.Technician)
	}
	if utf8.RuneCountInString(s.Reason) > table.MaxServiceReason || !printable(s.Reason) {
		return fmt.Errorf("in service: reason: up to %d printable characters", table.MaxServiceReason)
	}
	return nil
}

// printable is valid UTF-8 without control characters: what a log line and a console show as
// it is.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return false
		}
	}
	return true
}
