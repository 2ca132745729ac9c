package main

import (
	"github.com/tablegames/ats/app/localtime"
	"net/url"
	"strings"
	"testing"
	"time"
)

// A stopped ticket (reported stolen, then disputed too) shows NOT PAYABLE: STOPPED with the
// table's sentence word for word, and each stop in force: its reason, who stopped it, where,
// and when in the floor's time zone. No Pay form.
func TestStoppedTicketShowsEachStopAndTheTablesSentence(t *testing.T) {
	r, b, csrf := newShiftRig(t)
	vn := r.ticket(t, "T01", "a", 5000)
	s1 := r.stop(t, r.addr, vn, "reported stolen by the patron")
	s2 := r.stop(t, r.addr, vn, "disputed: two patrons claim it")
	_, page := b.post("/lookup", url.Values{"csrf": {csrf}, "number": {vn}})
	if !strings.Contains(page, `id="verdict">NOT PAYABLE: STOPPED<`) {
		t.Fatalf("a stopped ticket's verdict:\n%s", page)
	}
	// The table's sentence word for word, its times in the floor's zone: one clock on the page
	// (issue 33 point 8; the sentence said "05:14:01 UTC" beside "16:14:01 AEDT").
	zone := sydney(t)
	if got, said := unescape(field(t, reasonField, page)), r.tableSays(t, "cashier-1", vn).Message; !strings.Contains(said, "stopped by supervisor") ||
		strings.Contains(got, "UTC") || got != localtime.Rewrite(said, zone, time.Now()) {
		t.Fatalf("the reason shown %q, the table's %q", got, said)
	}
	for _, s := range []struct {
		reason string
		at     int64
	}{{s1.Reason, s1.StoppedAtUnixNanos}, {s2.Reason, s2.StoppedAtUnixNanos}} {
		when := time.Unix(0, s.at).In(zone).Format("2 Jan 2006 15:04:05 MST")
		want := `<strong class="stop-reason">` + s.reason + `</strong><br>
      stopped by supervisor:supervisor at T1, ` + when
		if !strings.Contains(page, want) {
			t.Fatalf("the stop %q is not shown as %q:\n%s", s.reason, want, page)
		}
	}
	if strings.Contains(page, `action="/pay"`) {
		t.Fatalf("a stopped ticket has a Pay form:\n%s", page)
	}
}
