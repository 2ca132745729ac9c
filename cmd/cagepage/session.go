package main

// Sessions: a cashier who logged in with id and PIN holds a random token in a cookie that only
// this page's HTTPS origin ever gets back (Secure, HttpOnly, SameSite=Strict, Path=/). Every
// form that changes anything carries the session's own CSRF token, compared in constant time,
// and a POST from another origin is refused before that (Origin / Sec-Fetch-Site), so a page
// elsewhere cannot pay a ticket through the cashier's browser. A session unused for the idle
// timeout ends: the next request goes to the login page and says why.

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"sync"
	"time"
)

const sessionCookie = "cage_session"

// session is one cashier's login at this station.
type session struct {
	token, csrf string
	cashier     string
	lastSeen    time.Time
	// kept is what this session's pages were made from, for showing them again after the
	// redirect that follows a POST: "receipt:" and a payment id, "shift:" and a shift id.
	kept map[string]any
}

type sessions struct {
	mu   sync.Mutex
	byID map[string]*session
	idle time.Duration
}

func newSessions(idle time.Duration) *sessions {
	return &sessions{byID: map[string]*session{}, idle: idle}
}

func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on Linux (Go 1.24+ crashes the program itself)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// start makes a new session for cashier; any session of the cashier at this station ends.
func (s *sessions) start(cashier string, now time.Time) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, o := range s.byID {
		if o.cashier == cashier {
			delete(s.byID, id)
		}
	}
	ss := &session{token: randomToken(), csrf: randomToken(), cashier: cashier, lastSeen: now, kept: map[string]any{}}
	s.byID[ss.token] = ss
	return ss
}

// lookup is the request's session, touched; expired is true when it was there and timed out
// (and is now gone).
func (s *sessions) lookup(r *http.Request, now time.Time) (ss *session, expired bool) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss = s.byID[c.Value]
	if ss == nil {
		return nil, false
	}
	if now.Sub(ss.lastSeen) > s.idle {
		delete(s.byID, c.Value)
		return nil, true
	}
	ss.lastSeen = now
	return ss, false
}

func (s *sessions) end(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.byID, token)
}

// keep keeps v in the session under key.
func (s *sessions) keep(ss *session, key string, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss.kept[key] = v
}

// kept is what the session keeps under key, if it is a T.
func kept[T any](s *sessions, ss *session, key string) (T, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := ss.kept[key].(T)
	return v, ok
}

func setSessionCookie(w http.ResponseWriter, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: value, Path: "/", MaxAge: maxAge,
		Secure: true, HttpOnly: true, SameSite: http.SameSiteStrictMode})
}

// sameOrigin refuses a POST a browser says came from elsewhere. Browsers send Sec-Fetch-Site
// (and Origin) on every POST; a request without either is not a browser's, and the CSRF token
// still stands in its way.
func sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	if o := r.Header.Get("Origin"); o != "" && o != "https://"+r.Host {
		return false
	}
	return true
}

// csrfOK is whether a form's token is the session's.
func csrfOK(ss *session, form string) bool {
	return form != "" && subtle.ConstantTimeCompare([]byte(form), []byte(ss.csrf)) == 1
}
