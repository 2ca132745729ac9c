package client

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/tablegames/ats/app/table"
	"github.com/tablegames/ats/internal/backoff"
	pb "github.com/tablegames/ats/proto/ats/table/v1"
	"github.com/tablegames/ats/proto/wire"
)

// DisplayConfig is a winning number display's link to its table (cmd/wnd): the table's
// address and the display's mutual TLS (a display certificate, LoadTLS).
type DisplayConfig struct {
	Addr string
	TLS  *tls.Config
	// Backoff bounds the reconnect delay (full jitter, internal/backoff); 0: 100 ms to 5 s.
	BaseBackoff, MaxBackoff time.Duration
	Logger                  *slog.Logger
	DialOptions             []grpc.DialOption
}

// DisplayUpdate is what a display is told: the link up with the table's state, or the link
// down and why (the display says so on screen and keeps trying).
type DisplayUpdate struct {
	Up    bool
	Err   error // why the link is down
	State table.Display
}

// WatchDisplay follows a table for a winning number display until ctx ends: it calls update
// with each state the table sends, and with Up false each time the link is lost, then
// reconnects with backoff. update is called from one goroutine, in order.
func WatchDisplay(ctx context.Context, cfg DisplayConfig, update func(DisplayUpdate)) error {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.BaseBackoff <= 0 {
		cfg.BaseBackoff = 100 * time.Millisecond
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 5 * time.Second
	}
	opts := append([]grpc.DialOption{linkKeepalive}, cfg.DialOptions...)
	if cfg.TLS != nil {
		opts = append(opts, grpc.WithTransportCredentials(credentials.NewTLS(cfg.TLS)))
	}
	conn, err := grpc.NewClient(cfg.Addr, opts...)
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	defer conn.Close()
	dc := pb.NewDisplayServiceClient(conn)
	policy := backoff.Policy{Base: cfg.BaseBackoff, Max: cfg.MaxBackoff}
	for attempt := 0; ctx.Err() == nil; attempt++ {
		started := time.Now()
		err := watchDisplayOnce(ctx, dc, update)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		update(DisplayUpdate{Err: err})
		if time.Since(started) > 10*time.Second {
			attempt = 0 // a stream that lived a while was a good connection
		}
		wait := policy.Delay(attempt)
		cfg.Logger.Info("table link down; reconnecting", "err", err, "in", wait)
		if backoff.Sleep(ctx, wait) != nil {
			return ctx.Err()
		}
	}
	return ctx.Err()
}

// watchDisplayOnce runs one Watch stream until it fails.
func watchDisplayOnce(ctx context.Context, dc pb.DisplayServiceClient, update func(DisplayUpdate)) error {
	stream, err := dc.Watch(ctx, &pb.DisplayWatchRequest{})
	if err != nil {
		return err
	}
	for {
		msg, err := stream.Recv()
		if err != nil {
			return err
		}
		d, err := wire.DisplayOf(msg)
		if err != nil {
			// A state the screen cannot show is the server's or the link's error: say so and
			// start again rather than draw it.
			return errors.Join(errors.New("the table sent a display state that cannot be shown"), err)
		}
		update(DisplayUpdate{Up: true, State: d})
	}
}
