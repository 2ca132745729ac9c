package main

import (
	"context"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

func (b *browserless) do(req *http.Request) (int, string) {
	b.t.Helper()
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	return res.StatusCode, string(body)
}

func (b *browserless) get(path string) (int, string) {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodGet, b.origin+path, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.do(req)
}

// post sends a form as a browser sends one from the page: with its Origin.
func (b *browserless) post(path string, form url.Values) (int, string) {
	b.t.Helper()
	return b.postFrom(b.origin, path, form)
}

func (b *browserless) postFrom(origin, path string, form url.Values) (int, string) {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodPost, b.origin+path, strings.NewReader(form.Encode()))
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", origin)
	return b.do(req)
}

var (
	csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	keyField  = regexp.MustCompile(`name="key" value="([^"]+)"`)
	paymentID = regexp.MustCompile(`id="payment-id">([^<]+)<`)
)

func field(t *testing.T, re *regexp.Regexp, page string) string {
	t.Helper()
	m := re.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no %v in the page:\n%s", re, page)
	}
	return m[1]
}

// login logs cashier in and answers the session's CSRF token (from the page it lands on).
func (b *browserless) login(cashier string) string {
	b.t.Helper()
	code, page := b.post("/login", url.Values{"cashier": {cashier}, "pin": {cashierPINs[cashier]}})
	if code != http.StatusOK || !strings.Contains(page, "Scan the ticket") {
		b.t.Fatalf("login: %d\n%s", code, page)
	}
	return field(b.t, csrfField, page)
}

// newShiftRig is a page rig with cashier-1 logged in and their shift open; csrf is the
// session's token.
func newShiftRig(t *testing.T) (r *pageRig, b *browserless, csrf string) {
	t.Helper()
	r = newPageRig(t)
	b = r.client(t)
	csrf = b.login("cashier-1")
	b.openShift(csrf)
	return r, b, csrf
}

// payKey looks ticket vn up and answers the key of the Pay form the page draws for it.
func (b *browserless) payKey(csrf, vn string) string {
	b.t.Helper()
	_, page := b.post("/lookup", url.Values{"csrf": {csrf}, "number": {vn}})
	return field(b.t, keyField, page)
}

func (b *browserless) openShift(csrf string) {
	b.t.Helper()
	if code, page := b.post("/shift/open", url.Values{"csrf": {csrf}}); code != http.StatusOK || !strings.Contains(page, "Shift open") {
		b.t.Fatalf("open shift: %d\n%s", code, page)
	}
}

// The session cookie reaches no script and no other site, and never travels without TLS.
func TestSessionCookieIsSecureHttpOnlySameSiteStrict(t *testing.T) {
	r := newPageRig(t)
	c := r.srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	req, _ := http.NewRequest(http.MethodPost, r.srv.URL+"/login", strings.NewReader(url.Values{"cashier": {"cashier-1"}, "pin": {"2468"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	set := res.Header.Get("Set-Cookie")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(set, sessionCookie+"=") {
		t.Fatalf("login: %d, Set-Cookie %q", res.StatusCode, set)
	}
	for _, want := range []string{"Secure", "HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(set, want) {
			t.Errorf("the session cookie lacks %s: %q", want, set)
		}
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("Content-Security-Policy: %q", csp)
	}
}

// A wrong PIN is refused without saying whether the id exists, and the third in a row locks the
// cashier out (the technicians' throttle).
func TestWrongPINIsRefusedThenLockedOut(t *testing.T) {
	r := newPageRig(t)
	b := r.client(t)
	for i := 0; i < 2; i++ {
		_, page := b.post("/login", url.Values{"cashier": {"cashier-1"}, "pin": {"0000"}})
		if !strings.Contains(page, "Wrong cashier id or PIN.") {
			t.Fatalf("wrong PIN %d:\n%s", i+1, page)
		}
	}
	_, unknown := b.post("/login", url.Values{"cashier": {"cashier-9"}, "pin": {"0000"}})
	if !strings.Contains(unknown, "Wrong cashier id or PIN.") {
		t.Fatalf("an unknown cashier is told apart from a wrong PIN:\n%s", unknown)
	}
	_, page := b.post("/login", url.Values{"cashier": {"cashier-1"}, "pin": {"0000"}})
	if !strings.Contains(page, "Too many wrong PINs") {
		t.Fatalf("the third wrong PIN:\n%s", page)
	}
	_, page = b.post("/login", url.Values{"cashier": {"cashier-1"}, "pin": {"2468"}})
	if !strings.Contains(page, "Too many wrong PINs") || strings.Contains(page, "Scan the ticket") {
		t.Fatalf("the right PIN during the lock-out let the cashier in:\n%s", page)
	}
}

// A double click, or the Pay form sent again (back and resubmit), pays once: the same key goes
// to the table, which answers the second with the first payment.
func TestPayFormSentTwicePaysOnce(t *testing.T) {
	r, b, csrf := newShiftRig(t)
	vn := r.ticket(t, "T01", "a", 5000)
	key := b.payKey(csrf, vn)
	form := url.Values{"csrf": {csrf}, "number": {vn}, "key": {key}}
	_, first := b.post("/pay", form)
	_, second := b.post("/pay", form)
	p1, p2 := field(t, paymentID, first), field(t, paymentID, second)
	if p1 != p2 {
		t.Fatalf("the form sent twice made payments %s and %s", p1, p2)
	}
	if !strings.Contains(second, "already recorded") {
		t.Errorf("the second answer does not say the payment was already recorded:\n%s", second)
	}
	if ps := r.payments(t, vn); len(ps) != 1 || ps[0].Amount != 5000 || ps[0].Cashier != "cashier-1" {
		t.Fatalf("the ledger's payments of the ticket: %+v", ps)
	}
	// The receipt is the paying session's: another cashier's session does not show it.
	other := r.client(t)
	other.login("cashier-2")
	if _, page := other.get("/receipt?id=" + p1); strings.Contains(page, p1) || !strings.Contains(page, "That receipt is not in this session") {
		t.Fatalf("cashier-2 sees cashier-1's receipt:\n%s", page)
	}
}

// A form from another site (no token, a wrong token, or another Origin) pays nothing, even
// with the cashier logged in.
func TestCrossSitePayIsRefused(t *testing.T) {
	r, b, csrf := newShiftRig(t)
	vn := r.ticket(t, "T01", "a", 2000)
	key := strings.Repeat("k", 32)
	for name, try := range map[string]func() (int, string){
		"no token": func() (int, string) { return b.post("/pay", url.Values{"number": {vn}, "key": {key}}) },
		"wrong token": func() (int, string) {
			return b.post("/pay", url.Values{"csrf": {csrf + "x"}, "number": {vn}, "key": {key}})
		},
		"other origin": func() (int, string) {
			return b.postFrom("https://evil.example", "/pay", url.Values{"csrf": {csrf}, "number": {vn}, "key": {key}})
		},
	} {
		if code, page := try(); code != http.StatusForbidden {
			t.Errorf("%s: %d\n%s", name, code, page)
		}
	}
	if ps := r.payments(t, vn); len(ps) != 0 {
		t.Fatalf("a cross-site form paid: %+v", ps)
	}
}

// A session unused for the idle time ends: the next page is the login, saying why; a logout
// ends it at once, and its cookie opens nothing after.
func TestIdleSessionEndsAndLogoutEndsIt(t *testing.T) {
	r := newPageRig(t)
	b := r.client(t)
	b.login("cashier-1")
	r.clock.Add(9 * time.Minute)
	if _, page := b.get("/"); !strings.Contains(page, "Scan the ticket") {
		t.Fatalf("9 minutes idle ended the session:\n%s", page)
	}
	r.clock.Add(10*time.Minute + time.Second)
	if _, page := b.get("/"); !strings.Contains(page, "Your session ended after 10 minutes without use") {
		t.Fatalf("after 10 minutes idle:\n%s", page)
	}
	if _, page := b.get("/"); !strings.Contains(page, "Log in") || strings.Contains(page, "Scan the ticket") {
		t.Fatalf("the timed-out session came back:\n%s", page)
	}

	csrf := b.login("cashier-1")
	u, _ := url.Parse(r.srv.URL)
	cookies := b.c.Jar.Cookies(u)
	if _, page := b.post("/logout", url.Values{"csrf": {csrf}}); !strings.Contains(page, "You are logged out.") {
		t.Fatalf("logout:\n%s", page)
	}
	b.c.Jar.SetCookies(u, cookies) // the old cookie, kept by whoever copied it
	if _, page := b.get("/"); strings.Contains(page, "Scan the ticket") {
		t.Fatalf("the session's cookie still opens the page after the logout:\n%s", page)
	}
}

// Paying needs the cashier's shift open: nothing is paid before.
func TestPayNeedsAnOpenShift(t *testing.T) {
	r := newPageRig(t)
	b := r.client(t)
	csrf := b.login("cashier-1")
	vn := r.ticket(t, "T01", "a", 1000)
	_, page := b.post("/lookup", url.Values{"csrf": {csrf}, "number": {vn}})
	if !strings.Contains(page, "PAYABLE") || !strings.Contains(page, "Open your shift before you pay") || strings.Contains(page, `action="/pay"`) {
		t.Fatalf("a payable ticket with no shift open:\n%s", page)
	}
	_, page = b.post("/pay", url.Values{"csrf": {csrf}, "number": {vn}, "key": {strings.Repeat("k", 32)}})
	if !strings.Contains(page, "Nothing was paid: you have no shift open") {
		t.Fatalf("pay with no shift open:\n%s", page)
	}
	if ps := r.payments(t, vn); len(ps) != 0 {
		t.Fatalf("paid with no shift open: %+v", ps)
	}
}

// A table server that does not answer is told in words: no gRPC status, and a payment that
// got no answer is not called paid.
func TestTableDownIsToldInWords(t *testing.T) {
	r, b, csrf := newShiftRig(t)
	vn := r.ticket(t, "T01", "a", 1000)
	key := b.payKey(csrf, vn)
	r.dial.close()
	r.dial.mu.Lock()
	r.dial.conns, r.dial.addr = map[string]*grpc.ClientConn{}, "127.0.0.1:1" // nothing listens there
	r.dial.mu.Unlock()
	for name, page := range map[string]string{
		"lookup": second(b.post("/lookup", url.Values{"csrf": {csrf}, "number": {vn}})),
		"pay":    second(b.post("/pay", url.Values{"csrf": {csrf}, "number": {vn}, "key": {key}})),
	} {
		if !strings.Contains(page, "The table server did not answer") || strings.Contains(page, "rpc error") || strings.Contains(page, "code =") {
			t.Errorf("%s with the table down:\n%s", name, page)
		}
		if strings.Contains(page, "PAID") || strings.Contains(page, "PAYABLE") {
			t.Errorf("%s with the table down says PAID or PAYABLE:\n%s", name, page)
		}
	}
}

// A payment the table made but whose answer was lost is not called paid: the page says it
// cannot tell, offers the same payment again (its key), and the retry answers with the one
// payment the table made.
func TestLostPayAnswerRetriedPaysOnce(t *testing.T) {
	r, b, csrf := newShiftRig(t)
	vn := r.ticket(t, "T01", "a", 5000)
	key := b.payKey(csrf, vn)
	r.loseAnswers.Store(true)
	_, page := b.post("/pay", url.Values{"csrf": {csrf}, "number": {vn}, "key": {key}})
	if !strings.Contains(page, "NO ANSWER FROM THE TABLE") || !strings.Contains(page, "cannot say whether the ticket was paid") ||
		strings.Contains(page, "PAID") || strings.Contains(page, "PAYABLE") || strings.Contains(page, "rpc error") || field(t, keyField, page) != key {
		t.Fatalf("the page after a lost answer:\n%s", page)
	}
	r.loseAnswers.Store(false)
	_, receipt := b.post("/pay", url.Values{"csrf": {csrf}, "number": {vn}, "key": {field(t, keyField, page)}})
	ps := r.payments(t, vn)
	if len(ps) != 1 || field(t, paymentID, receipt) != ps[0].ID || !strings.Contains(receipt, "already recorded") {
		t.Fatalf("the retry: payments %+v, receipt:\n%s", ps, receipt)
	}
}

func second(_ int, s string) string { return s }

// A bad number is told as one, without asking the table.
func TestNotANumberIsToldInWords(t *testing.T) {
	r := newPageRig(t)
	b := r.client(t)
	csrf := b.login("cashier-1")
	for _, typed := range []string{"12ab", "123", strings.Repeat("9", 200)} {
		_, page := b.post("/lookup", url.Values{"csrf": {csrf}, "number": {typed}})
		if !strings.Contains(page, "That is not a ticket number") {
			t.Errorf("%q:\n%s", typed, page)
		}
	}
	// A megabyte sent as a form is refused, not read.
	if code, page := b.post("/lookup", url.Values{"csrf": {csrf}, "number": {strings.Repeat("9", 1<<20)}}); code != http.StatusBadRequest {
		t.Errorf("a megabyte form: %d\n%.300s", code, page)
	}
}

var shiftField = regexp.MustCompile(`name="shift" value="([^"]+)"`)

// A shift closes with the ledger's count and sum of what the cashier paid in it (a payment made
// through another station, here the cage API directly, too), and the close form sent again
// shows the same closed shift rather than an error or a second close.
func TestShiftClosesWithTheLedgersTotalsOnce(t *testing.T) {
	r, b, csrf := newShiftRig(t)
	vn := r.ticket(t, "T01", "a", 5000)
	b.post("/pay", url.Values{"csrf": {csrf}, "number": {vn}, "key": {b.payKey(csrf, vn)}})
	other := r.ticket(t, "T01", "b", 2000)
	c, err := r.dial.cage("cashier-1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.PayTicket(context.Background(), &pb.PayTicketRequest{ValidationNumber: other, IdempotencyKey: "elsewhere"}); err != nil {
		t.Fatal(err)
	}
	_, home := b.get("/")
	if !strings.Contains(home, "2 tickets paid, A$70.00") {
		t.Fatalf("the open shift's totals:\n%s", home)
	}
	form := url.Values{"csrf": {csrf}, "shift": {field(t, shiftField, home)}}
	_, ask := b.post("/shift/close", form) // the home page's button: asks first
	if !strings.Contains(ask, "Close your shift?") || !strings.Contains(ask, "2 tickets, A$70.00") {
		t.Fatalf("the close is not asked first:\n%s", ask)
	}
	if evs, err := r.led.Events(context.Background(), "cage-shift-closed", 10); err != nil || len(evs) != 0 {
		t.Fatalf("the shift closed before the cashier confirmed: %+v %v", evs, err)
	}
	form.Set("confirm", "yes")
	_, first := b.post("/shift/close", form)
	_, again := b.post("/shift/close", form)
	for _, report := range []string{first, again} {
		if !strings.Contains(report, "Shift closed") || !strings.Contains(report, `id="shift-count">2<`) || !strings.Contains(report, `id="shift-amount">A$70.00<`) {
			t.Fatalf("the closed shift's report:\n%s", report)
		}
	}
	evs, err := r.led.Events(context.Background(), "cage-shift-closed", 10)
	if err != nil || len(evs) != 1 {
		t.Fatalf("the close sent twice was recorded %d times: %+v %v", len(evs), evs, err)
	}
	if _, home = b.get("/"); !strings.Contains(home, "No shift open") {
		t.Fatalf("after the close:\n%s", home)
	}
}

// The page's static files are answered whole, without http.FileServer's Range parsing (the
// standard library's GO-2026-6609 lives there), and nothing else under /static/ is served.
func TestStaticFilesWholeAndNothingElse(t *testing.T) {
	p, err := NewPage(PageConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, rng string
		code      int
		typ       string
	}{
		{"/static/cage.css", "", http.StatusOK, "text/css; charset=utf-8"},
		{"/static/cage.css", "bytes=0-3,5-9,11-20", http.StatusOK, "text/css; charset=utf-8"},
		{"/static/print.js", "", http.StatusOK, "text/javascript; charset=utf-8"},
		{"/static/", "", http.StatusNotFound, ""},
		{"/static/templates/layout.html", "", http.StatusNotFound, ""},
		{"/static/../templates/layout.html", "", http.StatusNotFound, ""},
	} {
		req := httptest.NewRequest(http.MethodGet, "https://cage.test"+c.path, nil)
		if c.rng != "" {
			req.Header.Set("Range", c.rng)
		}
		w := httptest.NewRecorder()
		p.ServeHTTP(w, req)
		if w.Code != c.code || (c.typ != "" && w.Header().Get("Content-Type") != c.typ) {
			t.Errorf("%s (Range %q): %d %q, want %d %q", c.path, c.rng, w.Code, w.Header().Get("Content-Type"), c.code, c.typ)
		}
		if c.code == http.StatusOK {
			want, _ := fs.ReadFile(files, strings.TrimPrefix(c.path, "/"))
			if w.Body.String() != string(want) {
				t.Errorf("%s (Range %q): a part of the file, not the whole", c.path, c.rng)
			}
		}
	}
}
