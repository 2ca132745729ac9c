package main

// What a supervisor reads at a glance (issue 33, point 8): the money commands' answers as
// aligned lines, not raw JSON with unix nanoseconds (JSON stays behind -json). One clock on
// the whole screen: every time in the console's zone (-tz, the machine's local zone by
// default), each with the zone's abbreviation, so no line reads UTC beside local time. Every
// amount grouped and in the table's currency (app/money.InCurrency: "A$10,040.00").

import (
	"bytes"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/tablegames/ats/app/localtime"
	"github.com/tablegames/ats/app/money"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// view is how the console prints: its zone, its clock (what "today" and "2h ago" mean when
// a command reads a time), and whether it prints JSON.
type view struct {
	loc  *time.Location
	now  func() time.Time
	json bool
}

// stamp is a time as every line of the console prints it: date, time and the zone's
// abbreviation, in the console's zone; "-" for none.
func (v view) stamp(unixNanos int64) string {
	if unixNanos == 0 {
		return "-"
	}
	return localtime.Stamp(time.Unix(0, unixNanos), v.loc)
}

// words is the table's words (an event's detail, a reason) with every time in them in the
// console's zone: the table writes its records in UTC.
func (v view) words(s string) string { return localtime.Rewrite(s, v.loc, v.now()) }

// textCommands are the commands printed as lines (render); every other prints JSON.
var textCommands = map[string]bool{"log": true, "alarms": true, "holds": true, "overpayments": true, "closing": true,
	"release": true, "handpay": true, "resolve": true}

// columns lays rows out as aligned columns, two spaces apart, the last column as it is.
func columns(rows [][]string) []string {
	var b bytes.Buffer
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(w, strings.Join(r, "\t"))
	}
	w.Flush()
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// where names a terminal with its table: "T1/T01"; the bare id when the table is not known,
// and a caller who is no table's terminal ("cashier:C1", whose card works at every cage) as
// it is.
func where(table, terminal string) string {
	if table == "" || terminal == "" || strings.Contains(terminal, ":") {
		return terminal
	}
	return table + "/" + terminal
}

// render is reply as lines for people: cmd's answer in v's zone, amounts in currency.
func render(cmd string, reply proto.Message, currency string, v view) []string {
	cash := func(cents int64) string { return money.InCurrency(currency, cents) }
	switch r := reply.(type) {
	case *pb.GetAuditLogResponse:
		if len(r.Entries) == 0 {
			return []string{"no entries"}
		}
		rows := [][]string{{"TIME", "KIND", "TERMINAL", "ROUND", "AMOUNT", "BY", "DETAIL"}}
		for _, e := range r.Entries {
			amount := ""
			if e.Amount != 0 {
				amount = cash(e.Amount)
			}
			detail := v.words(e.Detail)
			if e.FromTableId != "" {
				detail = "[from table " + e.FromTableId + "] " + detail
			}
			rows = append(rows, []string{v.stamp(e.AtUnixNanos), e.Kind, orDash(where(e.TableId, e.TerminalId)), orDash(e.RoundId),
				orDash(amount), orDash(e.Actor), detail})
		}
		return columns(rows)
	case *pb.ListAlarmsResponse:
		if len(r.Alarms) == 0 {
			return []string{"no alarms"}
		}
		rows := [][]string{{"ID", "TIME", "KIND", "WHO", "ACKNOWLEDGED", "DETAIL"}}
		for _, a := range r.Alarms {
			rows = append(rows, alarmRow(a, v))
		}
		return columns(rows)
	case *pb.Alarm:
		return columns([][]string{{"ID", "TIME", "KIND", "WHO", "ACKNOWLEDGED", "DETAIL"}, alarmRow(r, v)})
	case *pb.TableStatus:
		if cmd == "closing" {
			if r.ClosingAtUnixNanos == 0 {
				return []string{"no closure announced"}
			}
			return []string{"the table closes at " + v.stamp(r.ClosingAtUnixNanos)}
		}
		if len(r.TicketHolds) == 0 {
			return []string{"no tickets held"}
		}
		rows := [][]string{{"TICKET", "HELD BY", "AMOUNT", "HELD SINCE", "LAPSES AT"}}
		for _, h := range r.TicketHolds {
			rows = append(rows, []string{h.ValidationNumber, where(h.HolderTableId, h.TerminalId), cash(h.Amount),
				v.stamp(h.HeldAtUnixNanos), v.stamp(h.LapsesAtUnixNanos)})
		}
		return columns(rows)
	case *pb.ListOverpaymentsResponse:
		if len(r.Overpayments) == 0 {
			return []string{"no overpayments"}
		}
		rows := [][]string{{"ID", "FOUND", "KIND", "TERMINAL", "ROUND", "AMOUNT", "STATE", "WHY"}}
		for _, o := range r.Overpayments {
			rows = append(rows, overpaymentRow(o, cash, v))
		}
		return columns(rows)
	case *pb.Overpayment:
		return columns([][]string{{"ID", "FOUND", "KIND", "TERMINAL", "ROUND", "AMOUNT", "STATE", "WHY"}, overpaymentRow(r, cash, v)})
	case *pb.ReleaseTicketHoldResponse:
		return []string{fmt.Sprintf("ticket %s (%s) released from terminal %s: redeemable again", r.GetTicket().GetValidationNumber(),
			cash(r.GetTicket().GetAmount()), r.ReleasedFrom)}
	case *pb.HandpayResponse:
		tk := r.GetTicket()
		if len(r.Parts) < 2 {
			return []string{fmt.Sprintf("ticket %s of terminal %s: pay %s by hand; the ticket is void (%s)", tk.GetValidationNumber(),
				tk.GetTerminalId(), cash(tk.GetAmount()), tk.GetState())}
		}
		// Over the cash cap: the cash to hand over, and each other part as recorded.
		var rest []string
		for _, p := range r.Parts {
			if p.Method != "cash" {
				rest = append(rest, fmt.Sprintf("%s by %s ref %s", cash(p.Amount), p.Method, p.Reference))
			}
		}
		return []string{fmt.Sprintf("ticket %s of terminal %s (%s): pay %s in cash by hand, %s; the ticket is void (%s)", tk.GetValidationNumber(),
			tk.GetTerminalId(), cash(tk.GetAmount()), cash(r.Cash), strings.Join(rest, ", "), tk.GetState())}
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func alarmRow(a *pb.Alarm, v view) []string {
	ack := "NO"
	if a.AckedBy != "" {
		ack = a.AckedBy + " " + v.stamp(a.AckedAtUnixNanos)
	}
	return []string{orDash(a.Id), v.stamp(a.AtUnixNanos), a.Kind, orDash(where(a.TableId, a.TerminalId)), ack, v.words(a.Detail)}
}

func overpaymentRow(o *pb.Overpayment, cash func(int64) string, v view) []string {
	state := o.State
	if o.ResolvedBy != "" {
		state += " by " + o.ResolvedBy + " " + v.stamp(o.ResolvedAtUnixNanos)
		if o.Note != "" {
			state += ": " + v.words(o.Note)
		}
	}
	return []string{o.Id, v.stamp(o.AtUnixNanos), o.Kind, o.TerminalId, o.RoundId, cash(o.Amount), state, v.words(o.Reason)}
}

// logTime reads a time -since or -until names, in the console's zone: "2026-11-23 14:05[:SS]",
// "14:05" (today), RFC 3339, or a duration ago ("90m").
func (v view) logTime(s string) (time.Time, error) {
	now := v.now().In(v.loc)
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, fmt.Errorf("%q: a duration ago is positive (90m)", s)
		}
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, v.loc); err == nil {
			return t, nil
		}
	}
	for _, layout := range []string{"15:04:05", "15:04"} {
		if t, err := time.ParseInLocation(layout, s, v.loc); err == nil {
			return time.Date(now.Year(), now.Month(), now.Day(), t.Hour(), t.Minute(), t.Second(), 0, v.loc), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q: a time is 2006-01-02 15:04, 15:04 (today), RFC 3339 or a duration ago (90m)", s)
}
