// Package outbox is the local server's stand-in for SES and SMS: it sends
// nothing, logs each message and keeps the last ones, which GET /dev/outbox
// shows as JSON, and in a browser as a page whose links can be tapped. It
// is never deployed.
package outbox

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/notify"
)

// Path is where the local server serves the outbox.
const Path = "/dev/outbox"

// Outbox is a notify.EmailSender and notify.SMSSender that keeps the last
// messages in memory, and the http.Handler that lists them.
type Outbox struct {
	log  *slog.Logger
	keep int

	mu       sync.Mutex
	messages []notify.Message // oldest first, at most keep
	// report gets the events SES's mailbox simulator would yield
	// (SimulateSES, simulator.go); nil: none.
	report Reporter
	now    func() time.Time
}

var (
	_ notify.EmailSender = (*Outbox)(nil)
	_ notify.SMSSender   = (*Outbox)(nil)
)

// New returns an outbox that keeps the last keep messages (at least one).
func New(keep int, log *slog.Logger) *Outbox {
	return &Outbox{log: log, keep: max(keep, 1)}
}

// SendEmail keeps and logs an e-mail.
func (o *Outbox) SendEmail(ctx context.Context, m notify.Message) error { return o.add(ctx, m) }

// SendText keeps and logs a text.
func (o *Outbox) SendText(ctx context.Context, m notify.Message) error { return o.add(ctx, m) }

func (o *Outbox) add(ctx context.Context, m notify.Message) error {
	o.mu.Lock()
	o.messages = append(o.messages, m)
	if n := len(o.messages); n > o.keep {
		o.messages = append([]notify.Message(nil), o.messages[n-o.keep:]...)
	}
	o.mu.Unlock()
	// The log line says what went out, not to whom or what it said: the
	// outbox holds that, in memory only. The message is named as notify
	// names it on AWS: its request by the code's LogRef.
	o.log.InfoContext(ctx, "outbox: message", "message", booking.LogMessageRef(m.ID), "kind", m.Kind, "audience", m.Audience, "channel", m.Channel, "language", m.Language)
	o.simulate(ctx, m)
	return nil
}

// Messages returns the messages kept, newest first.
func (o *Outbox) Messages() []notify.Message {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]notify.Message, len(o.messages))
	for i, m := range o.messages {
		out[len(out)-1-i] = m
	}
	return out
}

// ServeHTTP answers GET (and HEAD) with {"messages": [...]}, newest
// first; a browser (Accept: text/html) gets them as a page (page.go).
func (o *Outbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusMethodNotAllowed)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{
			"code": "METHOD_NOT_ALLOWED", "message": "the outbox is read with GET",
		}})
		return
	}
	w.Header().Add("Vary", "Accept")
	if wantsPage(r) {
		messages := o.Messages()
		site.Headers(1, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { o.servePage(w, r, messages) })).ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(struct {
		Messages []notify.Message `json:"messages"`
	}{o.Messages()})
}
