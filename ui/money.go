package ui

import (
	"context"
	"errors"

	"fyne.io/fyne/v2/widget"

	"github.com/tablegames/ats/app/cashier"
	"github.com/tablegames/ats/diagrams"
)

// AttachCashier makes Cash out print a ticket through the cashier and shows the money status
// (credits, faults, "take your ticket", handpay) in the message line.
func (s *Screen) AttachCashier(c *cashier.Cashier) {
	if b, ok := s.Elements[diagrams.ElemCashOut].(*widget.Button); ok {
		b.OnTapped = func() {
			s.message.SetMoney(T("Printing your ticket"))
			go func() {
				err := c.CashOut(context.Background())
				if err != nil && !errors.Is(err, cashier.ErrBusy) {
					s.do(func() { s.message.SetText(sayErr(err)) })
				}
			}()
		}
	}
	c.OnChange(func(st cashier.Status) {
		m := st.Message
		if !st.Fault.IsZero() {
			m = st.Fault
		}
		s.do(func() { s.message.SetMoney(say(m)) })
	})
}
