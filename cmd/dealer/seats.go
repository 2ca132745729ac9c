package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tablegames/ats/app/money"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// The seats as a dealer reads them, not as JSON: `dealer seats` prints one line a terminal, and
// every reply that is the table's status (status, open, start, …) is followed on stderr by a
// line for each seat a field technician has out of play, so the dealer sees it whatever they
// ran. The since time is the table's; how long is measured on the console's clock.

// seatLines is one line a terminal of st: connected or not, its balance and slip, and IN SERVICE
// with the technician and since when, where a technician has it out of play.
func seatLines(st *pb.TableStatus, now time.Time) []string {
	var out []string
	for _, ts := range st.GetTerminals() {
		conn := "connected"
		switch {
		case ts.GetGuest():
			conn = "guest" // a guest player's account: no Player Display (000 §11.3.1)
		case !ts.GetConnected():
			conn = "not connected"
		}
		line := fmt.Sprintf("%-8s %-13s balance %10s  slip %9s", ts.GetTerminalId(), conn,
			money.Decimal(ts.GetBalance()), money.Decimal(ts.GetSlipTotal()))
		if n := ts.GetAbstained(); n > 0 {
			line += fmt.Sprintf("  abstained %d", n)
			if ts.GetVacatable() {
				line += " (may be asked to vacate: 001 §12.8)"
			}
		}
		if ts.GetCashOutRequested() {
			line += "  CASH OUT REQUESTED"
		}
		if s := ts.GetInService(); s != nil {
			line += "  " + inService(ts, now)
		}
		out = append(out, line)
		out = append(out, slipLines(ts.GetSlip())...)
	}
	return out
}

// slipLines are a seat's wagers, one a line under the seat's, each with its index in the slip:
// the index a supervisor's `refuse` names (003 §9.12). A wager the dealer placed says who did.
func slipLines(sl *pb.Slip) []string {
	var out []string
	for i, w := range sl.GetWagers() {
		var accepted int64
		if i < len(sl.GetResults()) {
			accepted = sl.GetResults()[i].GetAccepted()
		}
		line := fmt.Sprintf("    [%d] %-12s %-10s %9s", i, strings.ToLower(strings.TrimPrefix(w.GetKind().String(), "BET_KIND_")),
			strings.Join(append(slices.Clone(w.GetNumbers()), w.GetColour()), " "), money.Decimal(accepted))
		if w.GetPlacedBy() != "" {
			line += "  placed by " + w.GetPlacedBy()
		}
		out = append(out, strings.TrimRight(line, " "))
	}
	return out
}

// inServiceLines is a line for each seat of st a technician has out of play.
func inServiceLines(st *pb.TableStatus, now time.Time) []string {
	var out []string
	for _, ts := range st.GetTerminals() {
		if ts.GetInService() != nil {
			out = append(out, ts.GetTerminalId()+" "+inService(ts, now))
		}
	}
	return out
}

// inService says a seat out of play: "IN SERVICE technician tech1 since 14:02:07 CET (12m0s):
// technician mode". A seat whose terminal is not connected is the table's last word from it,
// which the dealer is told is not confirmed: the technician may have unplugged it, or it died.
func inService(ts *pb.TerminalStatus, now time.Time) string {
	s := ts.GetInService()
	since := time.Unix(0, s.GetSinceUnixNanos())
	line := fmt.Sprintf("IN SERVICE technician %s since %s (%v)", s.GetTechnicianId(), since.In(now.Location()).Format("15:04:05 MST"),
		max(now.Sub(since), 0).Round(time.Second))
	if s.GetReason() != "" {
		line += ": " + s.GetReason()
	}
	if !ts.GetConnected() {
		line += " [terminal not connected: not confirmed since]"
	}
	return line
}
