package main

// The page: a cashier logs in, scans or types a ticket's number, sees what it is worth and
// whether it can be paid (and if not, the table's reason, word for word), pays it, prints the
// receipt, and opens and closes a shift; at or over the reporting threshold it sends the
// patron's identity with the payment, and another cashier approves the payment from their own
// session. Every answer comes from the cage's gRPC API (CageService) called with the cashier's
// own certificate, so the floor's ledger records the cashier who paid, and a refusal the table
// learns to give appears here without a change.

import (
	"context"
	"embed"
	"fmt"
	"github.com/tablegames/ats/app/localtime"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tablegames/ats/devices/printer"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/server"
	"github.com/tablegames/ats/server/pki"
)

//go:embed templates/*.html static/*
var files embed.FS

// callTimeout bounds one call to the table server: a cashier is told it did not answer rather
// than left looking at a spinning page.
const callTimeout = 10 * time.Second

// maxForm bounds what a request's body may hold.
const maxForm = 16 << 10

// Page is the cashier's page over one table server's cage.
type Page struct {
	pins    *server.Technicians // the cashiers' PINs (the technicians' file format)
	cage    func(cashier string) (pb.CageServiceClient, error)
	sess    *sessions
	now     func() time.Time
	zone    *time.Location
	station string // this station's name, on receipts
	log     *slog.Logger
	pages   map[string]*template.Template
}

// PageConfig is what a Page is made of.
type PageConfig struct {
	PINs    *server.Technicians
	Cage    func(cashier string) (pb.CageServiceClient, error)
	Idle    time.Duration
	Now     func() time.Time
	Zone    *time.Location
	Station string
	Log     *slog.Logger
}

// NewPage builds the page's handler.
func NewPage(c PageConfig) (*Page, error) {
	p := &Page{pins: c.PINs, cage: c.Cage, sess: newSessions(c.Idle), now: c.Now, zone: c.Zone,
		station: c.Station, log: c.Log, pages: map[string]*template.Template{}}
	if p.now == nil {
		p.now = time.Now
	}
	if p.zone == nil {
		p.zone = time.Local
	}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	names, err := fs.Glob(files, "templates/*.html")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if n == "templates/layout.html" {
			continue
		}
		t, err := template.New("").ParseFS(files, "templates/layout.html", n)
		if err != nil {
			return nil, err
		}
		p.pages[strings.TrimSuffix(strings.TrimPrefix(n, "templates/"), ".html")] = t
	}
	return p, nil
}

// ServeHTTP routes a request, with the headers every answer carries.
func (p *Page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// Nothing but this origin's own stylesheet and print script; no frames; no caching of pages
	// that show tickets and money.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin") // not no-referrer: with it a browser sends "Origin: null" on the page's own forms
	h.Set("Strict-Transport-Security", "max-age=31536000")
	if strings.HasPrefix(r.URL.Path, "/static/") {
		serveStatic(w, r)
		return
	}
	h.Set("Cache-Control", "no-store")
	// The page's forms are a few short fields: a larger body is no form of this page's.
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if r.Method == http.MethodPost && !sameOrigin(r) {
		http.Error(w, "This form did not come from the cage page: refused.", http.StatusForbidden)
		return
	}
	if r.URL.Path == "/login" && r.Method == http.MethodPost {
		p.login(w, r)
		return
	}
	now := p.now()
	ss, expired := p.sess.lookup(r, now)
	if ss == nil {
		msg := ""
		if expired {
			msg = fmt.Sprintf("Your session ended after %s without use: log in again.", words(p.sess.idle))
		}
		if r.Method == http.MethodPost && !expired {
			msg = "Log in first."
		}
		p.render(w, http.StatusOK, "login", loginView{Message: msg})
		return
	}
	if r.Method == http.MethodPost {
		if err := r.ParseForm(); err != nil {
			http.Error(w, "The form could not be read: it is not one of the cage page's. Go back to the cage page and try again.", http.StatusBadRequest)
			return
		}
		if !csrfOK(ss, r.PostForm.Get("csrf")) {
			http.Error(w, "This form has expired or did not come from the cage page: go back to the cage page and try again.", http.StatusForbidden)
			return
		}
	}
	switch {
	case r.URL.Path == "/" && r.Method == http.MethodGet:
		p.home(w, ss, "")
	case r.URL.Path == "/lookup" && r.Method == http.MethodPost:
		p.lookup(w, ss, r.PostForm.Get("number"))
	case r.URL.Path == "/pay" && r.Method == http.MethodPost:
		p.pay(w, r, ss)
	case r.URL.Path == "/approve" && r.Method == http.MethodPost:
		p.approve(w, ss, r.PostForm.Get("number"))
	case r.URL.Path == "/receipt" && r.Method == http.MethodGet:
		p.receipt(w, ss, r.URL.Query().Get("id"))
	case r.URL.Path == "/shift/open" && r.Method == http.MethodPost:
		p.openShift(w, ss)
	case r.URL.Path == "/shift/close" && r.Method == http.MethodPost:
		if r.PostForm.Get("confirm") != "yes" {
			p.confirmClose(w, ss)
			return
		}
		p.closeShift(w, r, ss, r.PostForm.Get("shift"))
	case r.URL.Path == "/shift" && r.Method == http.MethodGet:
		p.shiftReport(w, ss, r.URL.Query().Get("id"))
	case r.URL.Path == "/card" && r.Method == http.MethodPost:
		p.cardPage(w, ss, r.PostForm.Get("card"), "", "", cardView{})
	case r.URL.Path == "/card/register" && r.Method == http.MethodPost:
		p.registerCard(w, r, ss)
	case r.URL.Path == "/card/report" && r.Method == http.MethodPost:
		p.reportCard(w, r, ss)
	case r.URL.Path == "/logout" && r.Method == http.MethodPost:
		p.sess.end(ss.token)
		setSessionCookie(w, "", -1)
		p.render(w, http.StatusOK, "login", loginView{Message: "You are logged out."})
	default:
		p.home(w, ss, "There is no such page here.")
	}
}

// call runs fn with the cage API as cashier, bounded by callTimeout.
func (p *Page) call(cashier string, fn func(ctx context.Context, c pb.CageServiceClient) error) error {
	c, err := p.cage(cashier)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return fn(ctx, c)
}

// words writes a duration as a cashier says it: "10 minutes".
func words(d time.Duration) string {
	if d%time.Minute == 0 && d >= time.Minute {
		if d == time.Minute {
			return "1 minute"
		}
		return fmt.Sprintf("%d minutes", int(d/time.Minute))
	}
	return d.Round(time.Second).String()
}

func (p *Page) render(w http.ResponseWriter, code int, name string, data any) {
	var b strings.Builder
	if err := p.pages[name].ExecuteTemplate(&b, "layout", data); err != nil {
		p.log.Error("cage page: template", "page", name, "err", err)
		http.Error(w, "The page could not be drawn: call the supervisor.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprint(w, b.String())
}

// ---- login ----------------------------------------------------------------------------------

type loginView struct {
	Message, Cashier string
	CSRF             string // none before a login: the layout shows no logout
}

func (p *Page) login(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		p.render(w, http.StatusBadRequest, "login", loginView{Message: "The form could not be read: try again."})
		return
	}
	id, pin := strings.TrimSpace(r.PostForm.Get("cashier")), r.PostForm.Get("pin")
	if err := pki.ValidID(id); err != nil {
		p.render(w, http.StatusOK, "login", loginView{Message: "Type your cashier id (as on your card), then your PIN."})
		return
	}
	if err := p.pins.Verify(id, pin); err != nil {
		p.log.Warn("cage page: PIN refused", "cashier", id, "why", status.Convert(err).Message())
		msg := "Wrong cashier id or PIN."
		if status.Code(err) == codes.ResourceExhausted {
			msg = "Too many wrong PINs: " + status.Convert(err).Message() + ". Call the supervisor if you are locked out."
		}
		p.render(w, http.StatusOK, "login", loginView{Message: msg, Cashier: id})
		return
	}
	if _, err := p.cage(id); err != nil {
		p.log.Error("cage page: no certificate", "cashier", id, "err", err)
		p.render(w, http.StatusOK, "login", loginView{Message: "This station holds no certificate for " + id + ": the supervisor issues one (tableserver pki issue -role cashier)."})
		return
	}
	ss := p.sess.start(id, p.now())
	p.log.Info("cage page: cashier logged in", "cashier", id)
	setSessionCookie(w, ss.token, 0)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// ---- the ticket -----------------------------------------------------------------------------

type shiftView struct {
	Open           bool
	ID             string
	Opened, Closed string
	Count          int64
	Amount         string
	Cash           string // of Amount, the cash handed over, when some was paid by transfer or cheque
	TotalsError    string // the table could not be asked: said instead of the figures
}

type homeView struct {
	Cashier, CSRF, Message string
	Shift                  shiftView
}

func (p *Page) home(w http.ResponseWriter, ss *session, msg string) {
	sh, _ := p.currentShift(ss.cashier)
	p.render(w, http.StatusOK, "home", homeView{Cashier: ss.cashier, CSRF: ss.csrf, Message: msg, Shift: sh})
}

// currentShift is the cashier's open shift as the table tells it, with what was paid in it so
// far; ok is false when the table could not be asked (v.TotalsError says why).
func (p *Page) currentShift(cashier string) (v shiftView, ok bool) {
	var sh *pb.CageShift
	err := p.call(cashier, func(ctx context.Context, c pb.CageServiceClient) (err error) {
		sh, err = c.CurrentShift(ctx, &pb.CurrentShiftRequest{})
		return err
	})
	if err != nil {
		return shiftView{TotalsError: cashierWords(err, false)}, false
	}
	return p.shiftView(sh), true
}

// cashOf is a shift's cash as shown beside its total: "" when it is the whole total.
func cashOf(sh *pb.CageShift) string {
	if sh.Cash == sh.Amount {
		return ""
	}
	return aud(sh.Cash)
}

func (p *Page) shiftView(sh *pb.CageShift) shiftView {
	return shiftView{Open: sh.Open, ID: sh.ShiftId, Opened: p.whenNanos(sh.OpenedUnixNanos), Closed: p.whenNanos(sh.ClosedUnixNanos),
		Count: sh.Count, Amount: aud(sh.Amount), Cash: cashOf(sh)}
}

type ticketView struct {
	Cashier, CSRF string
	Message       string // an error told above the ticket (a payment that failed)
	Known         bool   // false: the table does not know the number (Reason says so)
	Number        string // as printed: 12-3456-7890-1234-5678
	Digits        string
	Amount        string
	Issued        string // when, local time with zone
	Where         string // table and terminal
	Expires       string
	Redeemed      string
	Held          string
	Stops         []stopView // the stops in force on it (refusal STOPPED)
	Payable       bool
	Refusal       string // the table's reason's name: ALREADY_PAID, HELD…
	Reason        string // the table's reason, word for word
	PayKey        string // this payment's idempotency key: a resubmitted form is the same payment
	ShiftOpen     bool
	Unanswered    bool // a payment the table did not answer: the form again, with the same key
	Threshold     *thresholdView
	Cap           *capView // over the cash cap: how the rest is paid
}

// capView is a ticket over the cash cap (issue 31): cash up to the cap, the rest by transfer
// or cheque with the patron's identity, as the cashier fills it in.
type capView struct {
	Cap, Cash, Rest      string
	CashCents, RestCents int64
	Method, Reference    string
	Patron               patron
}

// stopView is one stop in force on a ticket: what, who, when, where.
type stopView struct {
	Reason, By, At, Table string
	Overpayment           string // the overpayment that stopped it ("" for a supervisor's stop)
}

// thresholdView is what a ticket at or over the reporting threshold needs before it is paid:
// a second person's approval on file and the patron's identity, typed in the Pay form.
type thresholdView struct {
	Threshold  string // the floor's threshold, in the currency
	Approval   string // "Approved by cashier:cashier-2 on …", or that none is on file
	Approved   bool   // an approval is on file (possibly the viewer's own: Payable says if it counts)
	Own        bool   // the approval on file is the viewer's: another person pays
	CanApprove bool   // the viewer may approve it now (none on file, the ticket otherwise payable)
	Patron     patron // what the cashier typed, kept when the form is drawn again
}

// patron is the patron's identity as typed in the Pay form.
type patron struct{ IDType, IDNumber, Name string }

// missing names the fields left empty, in words: "ID type and ID number".
func (pt patron) missing() string {
	var m []string
	for _, f := range []struct{ name, v string }{{"ID type", pt.IDType}, {"ID number", pt.IDNumber}, {"name", pt.Name}} {
		if f.v == "" {
			m = append(m, f.name)
		}
	}
	switch len(m) {
	case 0:
		return ""
	case 1:
		return m[0] + " is"
	default:
		return strings.Join(m[:len(m)-1], ", ") + " and " + m[len(m)-1] + " are"
	}
}

func (p *Page) ticketView(ss *session, v *pb.CageTicket) ticketView {
	t := ticketView{Cashier: ss.cashier, CSRF: ss.csrf, Known: v.Refusal != pb.TicketRefusal_TICKET_REFUSAL_UNKNOWN,
		Number: pretty(v.ValidationNumber), Digits: v.ValidationNumber, Amount: aud(v.Amount),
		Issued: p.whenNanos(v.IssuedUnixNanos), Expires: p.whenNanos(v.ExpiresUnixNanos),
		Where:   fmt.Sprintf("table %s, terminal %s (ticket no. %d)", v.IssuerTableId, v.IssuerTerminalId, v.TicketNumber),
		Payable: v.Payable, Reason: localtime.Rewrite(v.Message, p.zone, p.now())}
	sh, _ := p.currentShift(ss.cashier)
	t.ShiftOpen = sh.Open
	if !v.Payable {
		t.Refusal = strings.ReplaceAll(strings.TrimPrefix(v.Refusal.String(), "TICKET_REFUSAL_"), "_", " ")
	}
	if v.RedeemedWhere != "" {
		t.Redeemed = fmt.Sprintf("at %s by %s, %s", v.RedeemedWhere, v.RedeemedBy, p.whenNanos(v.RedeemedAtUnixNanos))
	}
	if v.HolderTerminalId != "" {
		t.Held = fmt.Sprintf("in the acceptor of terminal %s at table %s until %s", v.HolderTerminalId, v.HolderTableId, p.whenNanos(v.HoldLapsesAtUnixNanos))
	}
	for _, s := range v.Stops {
		t.Stops = append(t.Stops, stopView{Reason: s.Reason, By: s.StoppedBy, At: p.whenNanos(s.StoppedAtUnixNanos), Table: s.TableId, Overpayment: s.OverpaymentId})
	}
	// Over the threshold, what the payment needs is shown whenever the ticket could otherwise
	// be paid (payable, or refused for the threshold alone): a paid or stopped one needs none.
	if v.OverThreshold && (v.Payable || v.Refusal == pb.TicketRefusal_TICKET_REFUSAL_THRESHOLD) {
		th := &thresholdView{Threshold: aud(v.ReportingThreshold)}
		if a := v.Approval; a != nil {
			th.Approved, th.Own = true, a.ApprovedBy == pki.RoleCashier+":"+ss.cashier
			th.Approval = fmt.Sprintf("Approved by %s on %s", a.ApprovedBy, p.whenNanos(a.ApprovedAtUnixNanos))
		} else {
			th.Approval, th.CanApprove = "No second person's approval is on file", true
		}
		t.Threshold = th
	}
	if v.OverCashCap && (v.Payable || v.Refusal == pb.TicketRefusal_TICKET_REFUSAL_THRESHOLD || v.Refusal == pb.TicketRefusal_TICKET_REFUSAL_CASH_CAP) {
		t.Cap = &capView{Cap: aud(v.CashCap), Cash: aud(v.CashCap), Rest: aud(v.Amount - v.CashCap),
			CashCents: v.CashCap, RestCents: v.Amount - v.CashCap, Method: "transfer"}
		if v.Refusal == pb.TicketRefusal_TICKET_REFUSAL_CASH_CAP { // the parts refused: the form again
			t.Payable, t.Refusal = true, ""
		}
	}
	if t.Payable {
		t.PayKey = randomToken()
	}
	return t
}

// keepTyped puts back what the cashier typed into a ticket's forms drawn again.
func (t *ticketView) keepTyped(pt patron, method, reference string) {
	if t.Threshold != nil {
		t.Threshold.Patron = pt
	}
	if t.Cap != nil {
		t.Cap.Patron, t.Cap.Reference = pt, reference
		if method != "" {
			t.Cap.Method = method
		}
	}
}

// lookupTicket is the table's view of ticket vn for cashier: a refusal's view too (an unknown
// number's, say); err only when the table gave none.
func (p *Page) lookupTicket(cashier, vn string) (*pb.CageTicket, error) {
	var v *pb.CageTicket
	err := p.call(cashier, func(ctx context.Context, c pb.CageServiceClient) (err error) {
		v, err = c.LookupTicket(ctx, &pb.LookupTicketRequest{ValidationNumber: vn})
		return err
	})
	if err != nil {
		if v = server.CageRefusalOf(err); v == nil {
			return nil, err
		}
	}
	return v, nil
}

func (p *Page) lookup(w http.ResponseWriter, ss *session, number string) {
	vn, err := server.ParseValidation(number)
	if err != nil {
		p.home(w, ss, "That is not a ticket number: "+err.Error()+". Scan the ticket's barcode or type its 18 digits.")
		return
	}
	v, err := p.lookupTicket(ss.cashier, vn)
	if err != nil {
		p.home(w, ss, cashierWords(err, false))
		return
	}
	p.render(w, http.StatusOK, "ticket", p.ticketView(ss, v))
}

// redraw shows ticket vn again, as the table now tells it, with msg above it and the patron's
// identity as the cashier typed it: after a payment or an approval that did not happen.
func (p *Page) redraw(w http.ResponseWriter, ss *session, vn, msg string, pt patron, typed ...string) {
	method, reference := "", ""
	if len(typed) == 2 {
		method, reference = typed[0], typed[1]
	}
	v, err := p.lookupTicket(ss.cashier, vn)
	if err != nil {
		p.home(w, ss, msg+" "+cashierWords(err, false))
		return
	}
	tv := p.ticketView(ss, v)
	tv.Message = msg
	tv.keepTyped(pt, method, reference)
	p.render(w, http.StatusOK, "ticket", tv)
}

// approve records the session's cashier as the second person approving a threshold payment of
// ticket number. The table decides: one cashier's approval does not let that cashier pay.
func (p *Page) approve(w http.ResponseWriter, ss *session, number string) {
	vn, err := server.ParseValidation(number)
	if err != nil {
		p.home(w, ss, "That approval form is not one this page made: look the ticket up again.")
		return
	}
	var a *pb.PaymentApproval
	err = p.call(ss.cashier, func(ctx context.Context, c pb.CageServiceClient) (err error) {
		a, err = c.ApprovePayment(ctx, &pb.ApprovePaymentRequest{ValidationNumber: vn, Note: "at the cage page, station " + p.station})
		return err
	})
	if err != nil {
		msg := "Not approved: " + cashierWords(err, false)
		if refusedByTable(err) { // the table's own words about this ticket, as they are
			msg = "Not approved: " + status.Convert(err).Message()
		}
		p.redraw(w, ss, vn, msg, patron{})
		return
	}
	p.log.Info("cage page: threshold payment approved", "cashier", ss.cashier, "ticket", vn)
	p.redraw(w, ss, vn, fmt.Sprintf("Approved by you (%s) on %s: a cashier other than you pays it, with the patron's ID.",
		a.ApprovedBy, p.whenNanos(a.ApprovedAtUnixNanos)), patron{})
}

// refusedByTable is whether err is the table's answer about the request itself (its words are
// for the cashier), rather than a failure to reach the table or of the station's certificate.
func refusedByTable(err error) bool {
	switch status.Code(err) {
	case codes.FailedPrecondition, codes.NotFound, codes.InvalidArgument, codes.AlreadyExists:
		return true
	}
	return false
}

// receipt is one payment as its receipt shows it.
type receipt struct {
	PaymentID, Number, Amount, Cashier, PaidAt, Issued, Where, Station string
	Total                                                              string     // the ticket's amount (Amount is the cash handed over)
	Parts                                                              []partLine // how it was paid, when not in cash whole
	Replayed                                                           bool
	Threshold                                                          *thresholdRecord
}

// thresholdRecord is a threshold payment's record on its receipt: the patron identified and
// the second person who approved it.
type thresholdRecord struct {
	Threshold, Patron, ID, ApprovedBy, ApprovedAt string
}

func (p *Page) pay(w http.ResponseWriter, r *http.Request, ss *session) {
	number, key := r.PostForm.Get("number"), r.PostForm.Get("key")
	vn, err := server.ParseValidation(number)
	if err != nil || len(key) < 16 || len(key) > 64 {
		p.home(w, ss, "That payment form is not one this page made: look the ticket up again.")
		return
	}
	if sh, ok := p.currentShift(ss.cashier); !ok {
		p.home(w, ss, "Nothing was paid: "+sh.TotalsError)
		return
	} else if !sh.Open {
		p.home(w, ss, "Nothing was paid: you have no shift open. Open your shift first.")
		return
	}
	// A form drawn for a ticket at or over the reporting threshold carries the patron's
	// identity, every field required (the table checks them too, and refuses without them).
	req := &pb.PayTicketRequest{ValidationNumber: vn, IdempotencyKey: "cagepage-" + key}
	pt := patron{IDType: strings.TrimSpace(r.PostForm.Get("idtype")), IDNumber: strings.TrimSpace(r.PostForm.Get("idnumber")),
		Name: strings.TrimSpace(r.PostForm.Get("name"))}
	if r.PostForm.Get("threshold") != "" {
		if m := pt.missing(); m != "" {
			p.redraw(w, ss, vn, "Not paid: the patron's "+m+" required at or over the reporting threshold. Type them from the patron's ID, then Pay.", pt)
			return
		}
		req.Patron = &pb.PatronIdentity{IdType: pt.IDType, IdNumber: pt.IDNumber, Name: pt.Name}
	}
	// Over the cash cap: cash up to the cap, the rest by the method chosen, with its reference
	// and the patron's identity (the table checks every part, the sum and the cap again).
	method, reference := r.PostForm.Get("method"), strings.TrimSpace(r.PostForm.Get("reference"))
	if r.PostForm.Get("cap") != "" {
		cash, err1 := strconv.ParseInt(r.PostForm.Get("cash"), 10, 64)
		rest, err2 := strconv.ParseInt(r.PostForm.Get("rest"), 10, 64)
		if err1 != nil || err2 != nil || (method != "transfer" && method != "cheque") {
			p.home(w, ss, "That payment form is not one this page made: look the ticket up again.")
			return
		}
		var missing []string
		if reference == "" {
			missing = append(missing, "the "+map[string]string{"transfer": "transfer's reference", "cheque": "cheque's number"}[method])
		}
		if m := pt.missing(); m != "" {
			missing = append(missing, "the patron's "+strings.TrimSuffix(strings.TrimSuffix(m, " is"), " are"))
		}
		if len(missing) > 0 {
			p.redraw(w, ss, vn, "Not paid: "+strings.Join(missing, " and ")+" required for the part over the cash cap.", pt, method, reference)
			return
		}
		req.Patron = &pb.PatronIdentity{IdType: pt.IDType, IdNumber: pt.IDNumber, Name: pt.Name}
		req.Parts = []*pb.PaymentPart{{Method: "cash", Amount: cash}, {Method: method, Amount: rest, Reference: reference}}
	}
	// The key came with the form the lookup drew: a double click, a resubmitted form or a retry
	// after no answer send it again, and the table answers them with the first payment.
	var res *pb.PayTicketResponse
	err = p.call(ss.cashier, func(ctx context.Context, c pb.CageServiceClient) (err error) {
		res, err = c.PayTicket(ctx, req)
		return err
	})
	if err != nil {
		if v := server.CageRefusalOf(err); v != nil {
			tv := p.ticketView(ss, v)
			tv.Message = "Not paid."
			if v.Refusal == pb.TicketRefusal_TICKET_REFUSAL_CASH_CAP {
				tv.Message = "Not paid: " + v.Message + "."
			}
			tv.keepTyped(pt, method, reference)
			p.render(w, http.StatusOK, "ticket", tv)
			return
		}
		if status.Code(err) == codes.InvalidArgument { // the table read the form and refused it: nothing paid
			p.redraw(w, ss, vn, "Not paid: "+cashierWords(err, false), pt, method, reference)
			return
		}
		// Not paid as far as this page knows; if the table did not answer, the same key
		// still makes a retry safe, so the form keeps it.
		tv := ticketView{Cashier: ss.cashier, CSRF: ss.csrf, Known: true, Number: pretty(vn), Digits: vn,
			Message: cashierWords(err, true), PayKey: key, Payable: true, ShiftOpen: true, Unanswered: true}
		if req.Patron != nil && len(req.Parts) == 0 { // the same payment again: with the identity it was sent with
			tv.Threshold = &thresholdView{Patron: pt}
		}
		if len(req.Parts) == 2 { // the same parts again
			tv.Cap = &capView{Cash: aud(req.Parts[0].Amount), Rest: aud(req.Parts[1].Amount), CashCents: req.Parts[0].Amount,
				RestCents: req.Parts[1].Amount, Method: method, Reference: reference, Patron: pt}
		}
		p.render(w, http.StatusOK, "ticket", tv)
		return
	}
	t := res.Ticket
	rc := receipt{PaymentID: res.PaymentId, Number: pretty(t.GetValidationNumber()), Amount: aud(res.Amount), Cashier: res.CashierId,
		PaidAt: p.whenNanos(res.PaidAtUnixNanos), Issued: p.whenNanos(t.GetIssuedUnixNanos()),
		Where: fmt.Sprintf("table %s, terminal %s", t.GetIssuerTableId(), t.GetIssuerTerminalId()), Station: p.station, Replayed: res.Replayed}
	rc.Total = aud(res.Total)
	if res.Total == 0 { // a table from before the parts: the cash was the ticket
		rc.Total = rc.Amount
	}
	if len(res.Parts) > 1 || len(res.Parts) == 1 && res.Parts[0].Method != "cash" {
		for _, pt := range res.Parts {
			rc.Parts = append(rc.Parts, partLine{Method: pt.Method, Amount: aud(pt.Amount), Reference: pt.Reference})
		}
	}
	if th := res.Threshold; th != nil {
		rc.Threshold = &thresholdRecord{Threshold: aud(th.Threshold), Patron: th.Patron.GetName(),
			ID: th.Patron.GetIdType() + " " + th.Patron.GetIdNumber(), ApprovedBy: th.ApprovedBy, ApprovedAt: p.whenNanos(th.ApprovedAtUnixNanos)}
	}
	p.sess.keep(ss, "receipt:"+rc.PaymentID, rc)
	p.log.Info("cage page: ticket paid", "cashier", ss.cashier, "ticket", t.GetValidationNumber(), "amount", res.Amount, "payment", res.PaymentId, "replayed", res.Replayed)
	http.Redirect(w, r, "/receipt?id="+res.PaymentId, http.StatusSeeOther)
}

// partLine is one part of a payment as its receipt shows it.
type partLine struct{ Method, Amount, Reference string }

type receiptView struct {
	Cashier, CSRF string
	R             receipt
}

func (p *Page) receipt(w http.ResponseWriter, ss *session, id string) {
	rc, ok := kept[receipt](p.sess, ss, "receipt:"+id)
	if !ok {
		p.home(w, ss, "That receipt is not in this session (a payment's receipt shows once you pay it; the payment itself is in your shift's totals).")
		return
	}
	p.render(w, http.StatusOK, "receipt", receiptView{Cashier: ss.cashier, CSRF: ss.csrf, R: rc})
}

// ---- shifts ---------------------------------------------------------------------------------

func (p *Page) openShift(w http.ResponseWriter, ss *session) {
	err := p.call(ss.cashier, func(ctx context.Context, c pb.CageServiceClient) error {
		_, err := c.OpenShift(ctx, &pb.OpenShiftRequest{})
		return err
	})
	if err != nil {
		p.log.Error("cage page: opening a shift", "cashier", ss.cashier, "err", err)
		p.home(w, ss, "The shift was not opened: "+cashierWords(err, false))
		return
	}
	p.log.Info("cage page: shift opened", "cashier", ss.cashier)
	p.home(w, ss, "Your shift is open.")
}

// confirmClose asks before a shift closes, showing what it closes with so far: a stray Enter
// or click does not end the cashier's shift.
func (p *Page) confirmClose(w http.ResponseWriter, ss *session) {
	sh, ok := p.currentShift(ss.cashier)
	if !ok || !sh.Open {
		msg := "You have no shift open."
		if !ok {
			msg = "The shift was not closed: " + sh.TotalsError
		}
		p.home(w, ss, msg)
		return
	}
	p.render(w, http.StatusOK, "closeshift", shiftReportView{Cashier: ss.cashier, CSRF: ss.csrf, Shift: sh})
}

func (p *Page) closeShift(w http.ResponseWriter, r *http.Request, ss *session, id string) {
	if id == "" || len(id) > 64 {
		p.home(w, ss, "That form names no shift: close the shift from the cage page.")
		return
	}
	var sh *pb.CageShift
	err := p.call(ss.cashier, func(ctx context.Context, c pb.CageServiceClient) (err error) {
		// Closing a closed shift answers it again: a resubmitted form shows the same report.
		sh, err = c.CloseShift(ctx, &pb.CloseShiftRequest{ShiftId: id})
		return err
	})
	if err != nil {
		p.log.Error("cage page: closing a shift", "cashier", ss.cashier, "err", err)
		p.home(w, ss, "The shift was not closed: "+cashierWords(err, false))
		return
	}
	p.sess.keep(ss, "shift:"+sh.ShiftId, p.shiftView(sh))
	p.log.Info("cage page: shift closed", "cashier", ss.cashier, "shift", sh.ShiftId, "count", sh.Count, "amount", sh.Amount)
	http.Redirect(w, r, "/shift?id="+url.QueryEscape(sh.ShiftId), http.StatusSeeOther)
}

type shiftReportView struct {
	Cashier, CSRF string
	Shift         shiftView
}

func (p *Page) shiftReport(w http.ResponseWriter, ss *session, id string) {
	sh, ok := kept[shiftView](p.sess, ss, "shift:"+id)
	if !ok {
		p.home(w, ss, "That shift's report is not in this session (it shows when you close the shift; the audit log keeps every close).")
		return
	}
	p.render(w, http.StatusOK, "shift", shiftReportView{Cashier: ss.cashier, CSRF: ss.csrf, Shift: sh})
}

// ---- words ----------------------------------------------------------------------------------

func aud(cents int64) string { return printer.Figures("A$", cents) }

func pretty(vn string) string {
	if s, err := printer.FormatValidation(vn); err == nil {
		return s
	}
	return vn
}

// when is a time as the cashier reads it: the floor's local time with its zone.
func (p *Page) when(t time.Time) string { return t.In(p.zone).Format("2 Jan 2006 15:04:05 MST") }

func (p *Page) whenNanos(n int64) string {
	if n == 0 {
		return "-"
	}
	return p.when(time.Unix(0, n))
}

// cashierWords is an error from the table (or from reaching it) as a cashier reads it: never a
// gRPC status or a stack trace. paying says whether a payment was asked for, as a payment that
// got no answer may or may not have been made.
func cashierWords(err error, paying bool) string {
	st, ok := status.FromError(err)
	if !ok {
		return "The table server could not be reached: " + err.Error() + ". Call the supervisor."
	}
	msg := st.Message()
	switch st.Code() {
	case codes.Unavailable, codes.DeadlineExceeded, codes.Canceled:
		if paying {
			return "The table server did not answer, so this page cannot say whether the ticket was paid. Do not hand over money yet: press Pay again (the same payment is never made twice) or look the ticket up."
		}
		return "The table server did not answer. Try again in a moment; if it keeps happening, call the supervisor."
	case codes.ResourceExhausted:
		return "Locked: " + msg + ". Call the supervisor."
	case codes.PermissionDenied, codes.Unauthenticated:
		return "The table refused this station's certificate for you: " + msg + ". Call the supervisor."
	case codes.InvalidArgument:
		return "The table could not read that: " + msg + "."
	default:
		return "The table refused: " + msg + "."
	}
}

// staticTypes are the page's own static files and their types: nothing else under /static/.
var staticTypes = map[string]string{
	"/static/cage.css": "text/css; charset=utf-8",
	"/static/print.js": "text/javascript; charset=utf-8",
}

// serveStatic answers the page's two static files whole. Not http.FileServer: its Range
// parsing is a path of the standard library's GO-2026-6609 (unbounded Range headers, fixed
// in go1.26.9), and two small files need neither ranges nor directory listings.
func serveStatic(w http.ResponseWriter, r *http.Request) {
	typ, ok := staticTypes[r.URL.Path]
	if !ok || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		http.NotFound(w, r)
		return
	}
	b, err := fs.ReadFile(files, strings.TrimPrefix(r.URL.Path, "/"))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	if r.Method == http.MethodGet {
		w.Write(b) //nolint:errcheck // the browser went away: nothing to tell it
	}
}
