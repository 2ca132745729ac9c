package client

import (
	"context"
	"time"

	"github.com/tablegames/ats/app/table"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
)

// Carded play at the seat (SPEC §10, issue 31): the card read at the seat, its limits, the
// reality check acknowledged. None moves money; each is asked once (the player asks again).

// PresentCard tells the table the card read at the seat's reader and returns its state: held
// for the seat, or refused with its reason (CardState.Refusal).
func (c *Client) PresentCard(ctx context.Context, card string) (table.CardState, error) {
	r, err := c.tc.PresentCard(ctx, &pb.PresentCardRequest{Card: card})
	if err != nil {
		return table.CardState{}, err
	}
	return wire.CardStateOf(r)
}

// SetCardLimits sets the limits of the card read at the seat: a stricter limit at once, a
// looser one after the cooling-off.
func (c *Client) SetCardLimits(ctx context.Context, card string, l table.CardLimits) (table.CardState, error) {
	r, err := c.tc.SetCardLimits(ctx, wire.SetCardLimitsPB(card, l))
	if err != nil {
		return table.CardState{}, err
	}
	return wire.CardStateOf(r)
}

// AckRealityCheck tells the table the player acknowledged the reality check shown at shownAt
// (server time); the table journals it with the card.
func (c *Client) AckRealityCheck(ctx context.Context, card string, shownAt time.Time) error {
	_, err := c.tc.AckRealityCheck(ctx, &pb.AckRealityCheckRequest{Card: card, ShownAtUnixNanos: wire.TimeNanos(shownAt)})
	return err
}
