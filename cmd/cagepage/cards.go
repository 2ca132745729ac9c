package main

// Player cards at the cage (issue 31): the cashier looks a card up by its id, registers it to
// the person whose identity document they have in hand (name, document type and number), and
// reports a card lost or barred with the reason. The table decides (CageService.RegisterCard,
// ReportCard): a card registered to someone else, or a person who already holds a card, is
// refused with the table's words, shown here as they come. The document's number is sent
// once, with the registration, and never shown back: the table keeps its last 3 characters.

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/tablegames/ats/proto/ats/table/v1"
)

// cardView is the card page: a card as the table tells it, or the table's refusal.
type cardView struct {
	Cashier, CSRF, Message string
	ID                     string
	Known                  bool   // the table knows the card (registered once)
	Kind                   string // the message's kind, its class: msg-info, msg-refused, msg-registered, msg-reported
	State, Holder, Since   string
	Limits, Play, Barred   string
	HeldBy                 string
	// The registration form as the cashier filled it (kept when the table refuses it).
	Name, IDType string
}

func (p *Page) cardView(ss *session, pc *pb.PlayerCard) cardView {
	v := cardView{Cashier: ss.cashier, CSRF: ss.csrf, ID: pc.CardId, Known: true, State: pc.State, HeldBy: pc.HeldBy}
	if pc.HolderName != "" {
		v.Holder = fmt.Sprintf("%s — %s ending %s", pc.HolderName, pc.IdType, pc.IdTail)
		v.Since = fmt.Sprintf("%s, checked by %s", p.whenNanos(pc.RegisteredUnixNanos), pc.RegisteredBy)
	}
	if pc.LossLimit > 0 {
		bar := "a day"
		if pc.BarSeconds >= int64(7*24*time.Hour/time.Second) {
			bar = "7 days"
		}
		v.Limits = fmt.Sprintf("loss %s, time %s, bar %s", aud(pc.LossLimit), time.Duration(pc.TimeLimitSeconds)*time.Second, bar)
		v.Play = fmt.Sprintf("net loss %s this period, %s held at a seat", aud(pc.NetLoss), aud(pc.Reserved))
	} else {
		v.Limits = "none set yet: the player sets them at the terminal before play"
	}
	if pc.BarredUntilUnixNanos != 0 {
		v.Barred = fmt.Sprintf("%s limit reached: barred until %s", pc.BarredFor, p.whenNanos(pc.BarredUntilUnixNanos))
	}
	return v
}

// cardPage looks card id up and shows it with msg, of kind (msg-…), above it.
func (p *Page) cardPage(w http.ResponseWriter, ss *session, id, msg, kind string, form cardView) {
	id = strings.TrimSpace(id)
	if id == "" {
		p.home(w, ss, "Type or read the player card's id.")
		return
	}
	var pc *pb.PlayerCard
	err := p.call(ss.cashier, func(ctx context.Context, c pb.CageServiceClient) (err error) {
		pc, err = c.LookupCard(ctx, &pb.LookupCardRequest{CardId: id})
		return err
	})
	v := cardView{Cashier: ss.cashier, CSRF: ss.csrf, ID: id}
	switch {
	case err == nil:
		v = p.cardView(ss, pc)
	case status.Code(err) == codes.NotFound:
		if msg == "" {
			msg = "Card " + id + " is not registered: register it to the person whose identity document you have checked."
		}
	default:
		if msg == "" {
			msg = cashierWords(err, false)
		}
	}
	if kind == "" {
		kind = "msg-info"
	}
	v.Message, v.Kind, v.Name, v.IDType = msg, kind, form.Name, form.IDType
	p.render(w, http.StatusOK, "card", v)
}

// registerCard sends the registration form: the holder's name, the document's type and number.
func (p *Page) registerCard(w http.ResponseWriter, r *http.Request, ss *session) {
	f := r.PostForm
	id := strings.TrimSpace(f.Get("card"))
	holder := &pb.PatronIdentity{Name: strings.TrimSpace(f.Get("name")), IdType: strings.TrimSpace(f.Get("idtype")),
		IdNumber: strings.TrimSpace(f.Get("idnumber"))}
	form := cardView{Name: holder.Name, IDType: holder.IdType}
	var missing []string
	for _, m := range []struct{ what, v string }{{"the holder's name", holder.Name}, {"the document's type", holder.IdType}, {"the document's number", holder.IdNumber}} {
		if m.v == "" {
			missing = append(missing, m.what)
		}
	}
	if len(missing) > 0 {
		p.cardPage(w, ss, id, "Not registered: "+strings.Join(missing, ", ")+" missing.", "msg-refused", form)
		return
	}
	var pc *pb.PlayerCard
	err := p.call(ss.cashier, func(ctx context.Context, c pb.CageServiceClient) (err error) {
		pc, err = c.RegisterCard(ctx, &pb.RegisterCardRequest{CardId: id, Holder: holder})
		return err
	})
	if err != nil {
		p.cardPage(w, ss, id, "Not registered. "+cashierWords(err, false), "msg-refused", form)
		return
	}
	p.log.Info("cage page: card registered", "cashier", ss.cashier, "card", id)
	p.cardPage(w, ss, id, "Registered: "+pc.Message+".", "msg-registered", cardView{})
}

// reportCard reports the card lost or barred with the cashier's reason.
func (p *Page) reportCard(w http.ResponseWriter, r *http.Request, ss *session) {
	f := r.PostForm
	id, state, reason := strings.TrimSpace(f.Get("card")), f.Get("state"), strings.TrimSpace(f.Get("reason"))
	if reason == "" {
		p.cardPage(w, ss, id, "Not reported: the reason is required.", "msg-refused", cardView{})
		return
	}
	var pc *pb.PlayerCard
	err := p.call(ss.cashier, func(ctx context.Context, c pb.CageServiceClient) (err error) {
		pc, err = c.ReportCard(ctx, &pb.ReportCardRequest{CardId: id, State: state, Reason: reason})
		return err
	})
	if err != nil {
		p.cardPage(w, ss, id, "Not reported. "+cashierWords(err, false), "msg-refused", cardView{})
		return
	}
	p.cardPage(w, ss, id, "Reported: "+pc.Message+".", "msg-reported", cardView{})
}
