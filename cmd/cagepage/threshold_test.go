package main

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

var reasonField = regexp.MustCompile(`id="reason">([^<]*)<`)

// tableSays is the table's own words about ticket vn, as cashier's look-up gets them.
func (r *pageRig) tableSays(t *testing.T, cashier, vn string) *pb.CageTicket {
	t.Helper()
	c, err := r.dial.cage(cashier)
	if err != nil {
		t.Fatal(err)
	}
	return tableSays(t, c, vn)
}

// unescape reads back what html/template escaped in the page's text.
func unescape(s string) string {
	return strings.NewReplacer("&#39;", "'", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`).Replace(s)
}

// A ticket at the reporting threshold (AML/CTF threshold transaction): the page says it is at
// the threshold and that no second person's approval is on file, offers another cashier an
// Approve action, refuses to pay without the patron's ID (told in words, which fields), pays
// with it sending the identity, and the receipt shows the threshold record. The form sent
// again is the same payment.
func TestThresholdTicketPaidWithPatronIDAndASecondCashiersApproval(t *testing.T) {
	r, b, csrf := newShiftRig(t)
	vn := r.ticket(t, "T01", "big", 5000, 5000) // A$100.00: at the threshold
	_, page := b.post("/lookup", url.Values{"csrf": {csrf}, "number": {vn}})
	for _, want := range []string{"NOT PAYABLE: THRESHOLD", `id="threshold"`, "A$100.00 reporting threshold",
		`id="approval">No second person&#39;s approval is on file`, "a supervisor or another cashier approves it", `action="/approve"`} {
		if !strings.Contains(page, want) {
			t.Fatalf("an unapproved threshold ticket's page lacks %q:\n%s", want, page)
		}
	}
	if got, want := unescape(field(t, reasonField, page)), r.tableSays(t, "cashier-1", vn).Message; got != want || want == "" {
		t.Fatalf("the reason shown %q, the table's %q", got, want)
	}
	if strings.Contains(page, `action="/pay"`) {
		t.Fatalf("an unapproved threshold ticket has a Pay form:\n%s", page)
	}

	// The second cashier, at another station's session, approves it.
	other := r.client(t)
	csrf2 := other.login("cashier-2")
	_, approved := other.post("/approve", url.Values{"csrf": {csrf2}, "number": {vn}})
	if !strings.Contains(approved, "Approved by you (cashier:cashier-2)") || !strings.Contains(approved, "a cashier other than you pays it") {
		t.Fatalf("the approval's answer:\n%s", approved)
	}
	if strings.Contains(approved, `action="/pay"`) || strings.Contains(approved, `action="/approve"`) {
		t.Fatalf("the approver is offered to pay or approve again:\n%s", approved)
	}

	_, page = b.post("/lookup", url.Values{"csrf": {csrf}, "number": {vn}})
	for _, want := range []string{`id="verdict">PAYABLE`, "approved by cashier:cashier-2", `id="approval">Approved by cashier:cashier-2`,
		`name="idtype"`, `name="idnumber"`, `name="name"`} {
		if !strings.Contains(page, want) {
			t.Fatalf("the approved ticket's page lacks %q:\n%s", want, page)
		}
	}
	key := field(t, keyField, page)
	form := url.Values{"csrf": {csrf}, "number": {vn}, "key": {key}, "threshold": {"1"}}
	_, page = b.post("/pay", form)
	if !strings.Contains(page, "Not paid: the patron&#39;s ID type, ID number and name are required") {
		t.Fatalf("paying without the patron's ID:\n%s", page)
	}
	form.Set("name", "Jane Citizen")
	form.Set("key", field(t, keyField, page))
	_, page = b.post("/pay", form)
	if !strings.Contains(page, "Not paid: the patron&#39;s ID type and ID number are required") || !strings.Contains(page, `value="Jane Citizen"`) {
		t.Fatalf("paying with the name only (the name kept in the form):\n%s", page)
	}
	if ps := r.payments(t, vn); len(ps) != 0 {
		t.Fatalf("paid without the patron's ID: %+v", ps)
	}

	form.Set("key", field(t, keyField, page))
	form.Set("idtype", "passport")
	form.Set("idnumber", "PA1234567")
	_, receipt := b.post("/pay", form)
	for _, want := range []string{"PAID", `id="threshold-patron">Jane Citizen`, "passport PA1234567", `id="threshold-approved">cashier:cashier-2`} {
		if !strings.Contains(receipt, want) {
			t.Fatalf("the receipt lacks %q:\n%s", want, receipt)
		}
	}
	ps := r.payments(t, vn)
	if len(ps) != 1 || ps[0].Cashier != "cashier-1" || ps[0].Amount != 10000 || field(t, paymentID, receipt) != ps[0].ID {
		t.Fatalf("the ledger's payments %+v", ps)
	}
	pp, err := r.led.PatronPayments(context.Background(), time.Time{}, time.Time{})
	if err != nil || len(pp) != 1 || pp[0].Name != "Jane Citizen" || pp[0].IDType != "passport" || pp[0].IDNumber != "PA1234567" ||
		pp[0].ApprovedBy != "cashier:cashier-2" || pp[0].Payment != ps[0].ID {
		t.Fatalf("the ledger's threshold record %+v %v", pp, err)
	}
	_, again := b.post("/pay", form)
	if field(t, paymentID, again) != ps[0].ID || !strings.Contains(again, "already recorded") || !strings.Contains(again, "Jane Citizen") {
		t.Fatalf("the form sent again:\n%s", again)
	}
	if n := len(r.payments(t, vn)); n != 1 {
		t.Fatalf("%d payments", n)
	}
}

// The paying cashier's own approval does not count: the table refuses the payment, and the
// page shows the table's refusal word for word, offering neither Pay nor a second Approve.
func TestOwnApprovalIsRefusedByTheTableWordForWord(t *testing.T) {
	r, b, csrf := newShiftRig(t)
	vn := r.ticket(t, "T01", "big", 5000, 5000)
	_, page := b.post("/approve", url.Values{"csrf": {csrf}, "number": {vn}})
	says := r.tableSays(t, "cashier-1", vn)
	if !strings.Contains(says.Message, "the approval on file is cashier-1's own") {
		t.Fatalf("the table's look-up: %q", says.Message)
	}
	if got := unescape(field(t, reasonField, page)); got != says.Message {
		t.Fatalf("the page shows %q, the table says %q:\n%s", got, says.Message, page)
	}
	if strings.Contains(page, `action="/pay"`) || strings.Contains(page, `action="/approve"`) {
		t.Fatalf("own approval: the page offers Pay or Approve:\n%s", page)
	}
	// A Pay form made by hand is refused by the table, in its words.
	_, page = b.post("/pay", url.Values{"csrf": {csrf}, "number": {vn}, "key": {strings.Repeat("k", 32)}, "threshold": {"1"},
		"idtype": {"passport"}, "idnumber": {"PA1"}, "name": {"Jane Citizen"}})
	if !strings.Contains(page, "Not paid.") || !strings.Contains(unescape(field(t, reasonField, page)), "the approval on file is cashier-1's own") {
		t.Fatalf("paying on one's own approval:\n%s", page)
	}
	if ps := r.payments(t, vn); len(ps) != 0 {
		t.Fatalf("paid on the payer's own approval: %+v", ps)
	}
}

// An approval the table refuses (a ticket under the threshold needs none) is shown in the
// table's words, and nothing is recorded.
func TestApprovalUnderTheThresholdIsRefusedInTheTablesWords(t *testing.T) {
	r, b, csrf := newShiftRig(t)
	vn := r.ticket(t, "T01", "small", 5000)
	_, page := b.post("/approve", url.Values{"csrf": {csrf}, "number": {vn}})
	if !strings.Contains(page, "Not approved: ticket "+vn+" is A$50.00, under the A$100.00 reporting threshold: it needs no approval") {
		t.Fatalf("approving a small ticket:\n%s", page)
	}
	if evs, err := r.led.Events(context.Background(), "cage-approval", 10); err != nil || len(evs) != 0 {
		t.Fatalf("approvals recorded: %+v %v", evs, err)
	}
}

// A threshold payment whose answer was lost is offered again as the same payment with the
// identity it was sent with, and the retry answers the one payment with its threshold record.
func TestThresholdPayAnswerLostRetriedWithTheSameIdentityPaysOnce(t *testing.T) {
	r, b, csrf := newShiftRig(t)
	vn := r.ticket(t, "T01", "big", 5000, 5000)
	c, err := r.dial.cage("cashier-2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ApprovePayment(context.Background(), &pb.ApprovePaymentRequest{ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	key := b.payKey(csrf, vn)
	r.loseAnswers.Store(true)
	_, page := b.post("/pay", url.Values{"csrf": {csrf}, "number": {vn}, "key": {key}, "threshold": {"1"},
		"idtype": {"driver licence"}, "idnumber": {"NSW 123"}, "name": {"Jo Bloggs"}})
	if !strings.Contains(page, "NO ANSWER FROM THE TABLE") || field(t, keyField, page) != key ||
		!strings.Contains(page, `value="driver licence"`) || !strings.Contains(page, `value="NSW 123"`) || !strings.Contains(page, `value="Jo Bloggs"`) {
		t.Fatalf("the page after a lost answer:\n%s", page)
	}
	r.loseAnswers.Store(false)
	_, receipt := b.post("/pay", url.Values{"csrf": {csrf}, "number": {vn}, "key": {key}, "threshold": {"1"},
		"idtype": {"driver licence"}, "idnumber": {"NSW 123"}, "name": {"Jo Bloggs"}})
	ps := r.payments(t, vn)
	if len(ps) != 1 || field(t, paymentID, receipt) != ps[0].ID || !strings.Contains(receipt, "already recorded") ||
		!strings.Contains(receipt, `id="threshold-patron">Jo Bloggs`) {
		t.Fatalf("the retry: payments %+v, receipt:\n%s", ps, receipt)
	}
}

// An identity the table cannot take (a name longer than it records) is the table's refusal of
// the form, told in its words with the form drawn again: not a payment that may have been made.
func TestPatronIDTheTableRefusesIsToldAndNothingPaid(t *testing.T) {
	r, b, csrf := newShiftRig(t)
	vn := r.ticket(t, "T01", "big", 5000, 5000)
	c, err := r.dial.cage("cashier-2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ApprovePayment(context.Background(), &pb.ApprovePaymentRequest{ValidationNumber: vn}); err != nil {
		t.Fatal(err)
	}
	_, page := b.post("/pay", url.Values{"csrf": {csrf}, "number": {vn}, "key": {b.payKey(csrf, vn)}, "threshold": {"1"},
		"idtype": {"passport"}, "idnumber": {"PA1"}, "name": {strings.Repeat("n", 300)}})
	if !strings.Contains(page, "Not paid: The table could not read that: the patron&#39;s identity: the patron&#39;s name: 300 bytes, at most 200.") ||
		strings.Contains(page, "NO ANSWER") || !strings.Contains(page, `name="idtype" value="passport"`) {
		t.Fatalf("a name too long:\n%s", page)
	}
	if ps := r.payments(t, vn); len(ps) != 0 {
		t.Fatalf("paid: %+v", ps)
	}
}
