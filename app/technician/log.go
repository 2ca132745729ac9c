package technician

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/tablegames/ats/app"
	"github.com/tablegames/ats/app/journal"
	"github.com/tablegames/ats/app/msg"
)

// Record kinds of technician mode in the terminal journal, beside app's ServiceEntered,
// ServiceLeft and ServiceRefused.
const (
	KindConfig      = "technician-config"      // a setting changed: "key: old -> new"
	KindCalibration = "technician-calibration" // a touch calibration saved: the matrix and its errors
	KindFault       = "device-fault"           // a device reported a fault (the event log's faults)
	KindFaultClear  = "device-fault-cleared"
)

// recordBody is the body of a technician record: who, and what.
type recordBody struct {
	Technician string `json:"technician,omitempty"`
	Detail     string `json:"detail,omitempty"`
}

// JournalLog records technician sessions and changes in the terminal journal (app.ServiceLog):
// hash-chained and on disk before the terminal acts, like every money record, and read back by
// the event log page and atsctl records list.
type JournalLog struct{ J *journal.Journal }

// ServiceRecord implements app.ServiceLog.
func (l JournalLog) ServiceRecord(ctx context.Context, kind, technician, detail string) error {
	b, err := json.Marshal(recordBody{Technician: technician, Detail: detail})
	if err != nil {
		return err
	}
	if _, err := l.J.Append(ctx, journal.Record{Kind: kind, Body: b}); err != nil {
		return fmt.Errorf("technician: recording %s: %w", kind, err)
	}
	return nil
}

var _ app.ServiceLog = JournalLog{}

// CloseInterruptedSession ends, in the journal, a technician session the terminal went down in:
// a technician-in with no technician-out after it. The terminal starts in play (technician mode
// is not kept across a restart: the technician enters again), so the journal must say that
// session ended, when, and why, or it would read as open for ever. It returns the technician
// whose session it closed ("" and nil when there was none).
func CloseInterruptedSession(ctx context.Context, j *journal.Journal) (string, error) {
	in, err := j.Last(ctx, app.ServiceEntered, 1)
	if err != nil || len(in) == 0 {
		return "", err
	}
	out, err := j.Last(ctx, app.ServiceLeft, 1)
	if err != nil {
		return "", err
	}
	if len(out) > 0 && out[0].Seq > in[0].Seq {
		return "", nil
	}
	var b recordBody
	_ = json.Unmarshal(in[0].Body, &b) // a body that does not read still ends the session, unnamed
	detail := fmt.Sprintf("the terminal restarted in technician mode (entered %s): back in play", in[0].At.UTC().Format(time.RFC3339))
	if err := (JournalLog{J: j}).ServiceRecord(ctx, app.ServiceLeft, b.Technician, detail); err != nil {
		return "", err
	}
	return b.Technician, nil
}

// FaultLog journals the money devices' faults as they come and go, for the event log: the
// cashier's status repeats a fault on every poll, so only a change is recorded.
type FaultLog struct {
	J   *journal.Journal
	mu  sync.Mutex
	was msg.Msg
}

// Seen is told the devices' fault now (zero when none).
func (f *FaultLog) Seen(ctx context.Context, fault msg.Msg) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fault.Equal(f.was) {
		return nil
	}
	kind, detail := KindFault, fault.String()
	if fault.IsZero() {
		kind, detail = KindFaultClear, f.was.String()
	}
	f.was = fault
	return JournalLog{f.J}.ServiceRecord(ctx, kind, "", detail)
}

// LogLine is one line of the event log.
type LogLine struct {
	Seq        int64
	At         time.Time
	Kind       string
	Technician string
	Amount     int64 // cents, for money events
	Detail     string
}

// LogPage is one page of the event log, newest first.
type LogPage struct {
	Lines       []LogLine
	Page, Pages int // from 0
}

// LogPerPage is how many lines one page shows: they fit the screen at 1280×800.
const LogPerPage = 12

// logged says whether a record belongs in the event log: faults, technician sessions and
// changes, and money events. Slips and settlements are the game records' (their own page).
func logged(kind string) bool {
	switch kind {
	case "slip-acked", "settled":
		return false
	}
	return true
}

// ReadLog is page page (0 the newest) of the event log.
func ReadLog(ctx context.Context, j *journal.Journal, page int) (LogPage, error) {
	rs, err := j.Records(ctx, 0, 0)
	if err != nil {
		return LogPage{}, err
	}
	var lines []LogLine
	for _, r := range slices.Backward(rs) {
		if !logged(r.Kind) {
			continue
		}
		l := LogLine{Seq: r.Seq, At: r.At, Kind: r.Kind, Amount: r.Amount, Detail: r.Key}
		var b recordBody
		if json.Unmarshal(r.Body, &b) == nil && (b.Technician != "" || b.Detail != "") {
			l.Technician, l.Detail = b.Technician, b.Detail
		}
		lines = append(lines, l)
	}
	pages := max((len(lines)+LogPerPage-1)/LogPerPage, 1)
	page = min(max(page, 0), pages-1)
	end := min((page+1)*LogPerPage, len(lines))
	return LogPage{Lines: lines[page*LogPerPage : end], Page: page, Pages: pages}, nil
}
