// Package apptest holds a fake of app.Link: a table that the test drives by hand, which records
// every slip the terminal sends and answers it as the test says.
package apptest

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/tablegames/ats/app/table"

	"github.com/tablegames/ats/app/roulette"
)

// Link is a fake table link. Its zero value is not usable; use NewLink.
type Link struct {
	events chan table.Event
	now    func() time.Time

	mu     sync.Mutex
	offset time.Duration // server minus local
	bound  time.Duration
	limits roulette.Limits
	layout roulette.Layout
	// Slips are the slips received, in order.
	Slips []SentSlip
	// Refuse, if set, makes UpdateSlip fail with this error.
	Refuse error
	buyIns []string // ConfirmBuyIn calls: the buy-in ids
	acked  []string // AckDealerClose calls
	calls  []string // CallDealer calls: the reasons
	// CallErr, if set, makes CallDealer fail with it.
	CallErr error
	// Service are the SetInService reports received, in order (nil: back in play).
	Service       []*table.SeatService
	refuseService error // SetRefuseService
	serviceCalls  int   // SetInService calls, refused ones included
	sent          chan struct{}
}

// SentSlip is one UpdateSlip call.
type SentSlip struct {
	Round   string
	Version uint64
	Bets    []table.SlipBet
}

// NewLink returns a fake link whose server clock is the local clock plus offset, known to within
// bound, and which prices slips with limits like the server does.
func NewLink(now func() time.Time, offset, bound time.Duration, layout roulette.Layout, limits roulette.Limits) *Link {
	return &Link{events: make(chan table.Event, 64), now: now, offset: offset, bound: bound, layout: layout, limits: limits, sent: make(chan struct{}, 64)}
}

// Push delivers an event to the terminal.
func (l *Link) Push(ev table.Event) { l.events <- ev }

// Events implements app.Link.
func (l *Link) Events() <-chan table.Event { return l.events }

// ServerNow implements app.Link.
func (l *Link) ServerNow() time.Time { return l.now().Add(l.offset) }

// LockAt implements app.Link like client.Client: early by the bound and a margin.
func (l *Link) LockAt(deadline time.Time) time.Time {
	return deadline.Add(-l.offset - l.bound - 5*time.Millisecond)
}

// UpdateSlip implements app.Link: it records the slip and acknowledges what the limits accept.
func (l *Link) UpdateSlip(_ context.Context, round string, version uint64, bets []table.SlipBet) (*table.SlipAck, error) {
	l.mu.Lock()
	defer func() {
		l.mu.Unlock()
		l.sent <- struct{}{}
	}()
	l.Slips = append(l.Slips, SentSlip{round, version, bets})
	if l.Refuse != nil {
		return nil, l.Refuse
	}
	ack := &table.SlipAck{RoundID: round, Version: version, Bets: bets}
	slip := make([]roulette.Placement, len(bets))
	for i, b := range bets {
		pieces, err := b.Bet.Pieces(l.layout)
		if err != nil {
			return nil, err
		}
		slip[i] = roulette.Placement{Pieces: pieces, Call: b.Bet.IsCall(), Amount: b.Amount}
	}
	prices, total := l.limits.PriceSlip(slip, roulette.Unlimited) // as the table prices it (SPEC §3.7)
	for _, p := range prices {
		ack.Results = append(ack.Results, table.BetResult{Accepted: p.Total, Reason: p.Why.String()})
	}
	ack.Total = total
	return ack, nil
}

// WaitSlip waits for the next UpdateSlip call.
func (l *Link) WaitSlip(timeout time.Duration) error {
	select {
	case <-l.sent:
		return nil
	case <-time.After(timeout):
		return errors.New("apptest: no slip update")
	}
}

// SetLimits changes the limits the fake server prices with.
func (l *Link) SetLimits(limits roulette.Limits) {
	l.mu.Lock()
	l.limits = limits
	l.mu.Unlock()
}

// LastSlip returns the most recent slip received.
func (l *Link) LastSlip() (SentSlip, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.Slips) == 0 {
		return SentSlip{}, false
	}
	return l.Slips[len(l.Slips)-1], true
}

// ConfirmBuyIn implements app.Link.
func (l *Link) ConfirmBuyIn(_ context.Context, key, id string, accept bool) (table.Money, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buyIns = append(l.buyIns, id)
	return table.Money{}, nil
}

// AckDealerClose implements app.Link.
// CallDealer records the player's call; CallErr, if set, is its answer.
func (l *Link) CallDealer(_ context.Context, reason string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, reason)
	return l.CallErr
}

// Calls are the player's calls to the dealer so far, their reasons in order.
func (l *Link) Calls() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.calls...)
}

func (l *Link) AckDealerClose(_ context.Context, closeID string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acked = append(l.acked, closeID)
	return nil
}

// SetInService implements app.Link: it records the report.
func (l *Link) SetInService(_ context.Context, s *table.SeatService) (time.Time, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.serviceCalls++
	if l.refuseService != nil {
		return time.Time{}, l.refuseService
	}
	var c *table.SeatService
	if s != nil {
		cp := *s
		c = &cp
	}
	l.Service = append(l.Service, c)
	if s == nil {
		return time.Time{}, nil
	}
	return l.now().Add(l.offset), nil
}

// SetRefuseService makes SetInService fail with err (nil: answer again).
func (l *Link) SetRefuseService(err error) {
	l.mu.Lock()
	l.refuseService = err
	l.mu.Unlock()
}

// ServiceCalls is how many times SetInService was called, refused calls included.
func (l *Link) ServiceCalls() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.serviceCalls
}

// ServiceReports returns the SetInService reports received so far, in order.
func (l *Link) ServiceReports() []*table.SeatService {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*table.SeatService(nil), l.Service...)
}

// AskedBuyIns returns the buy-in ids ConfirmBuyIn was called with so far, in order.
func (l *Link) AskedBuyIns() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.buyIns...)
}

// AckedCloses returns the close ids acknowledged so far.
func (l *Link) AckedCloses() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.acked...)
}
