package inboxweb_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/outbox"
)

// EmailMailer sends the sign-in e-mail as a notify message, through the
// local outbox here (pkg/sesmail when deployed), whose log line names the
// message by an ID without the link.
func TestEmailMailer(t *testing.T) {
	var log bytes.Buffer
	box := outbox.New(10, slog.New(slog.NewJSONHandler(&log, nil)))
	m := inboxweb.EmailMailer{Sender: box, Now: func() time.Time { return start }}
	b := &booking.Business{Slug: "limpieza-la-estrella", Name: "Limpieza La Estrella", DefaultLanguage: "es"}
	link := siteURL + "/inbox/sign-in/secret-token-123"
	if err := m.SendSignIn(t.Context(), "inbox@limpieza-la-estrella.example.com", b, link); err != nil {
		t.Fatal(err)
	}
	msgs := box.Messages()
	if len(msgs) != 1 {
		t.Fatalf("got %d messages, want 1", len(msgs))
	}
	got := msgs[0]
	if got.To != "inbox@limpieza-la-estrella.example.com" || got.Language != "es" || got.Kind != inboxweb.KindSignIn ||
		got.Audience != notify.AudienceBusiness || got.Channel != notify.ChannelEmail || !strings.Contains(got.Body, link) ||
		!strings.Contains(got.Subject, "Limpieza La Estrella") {
		t.Errorf("got %+v", got)
	}
	if strings.Contains(got.ID, "secret-token") || strings.Contains(log.String(), "secret-token") || strings.Contains(log.String(), "inbox@") {
		t.Errorf("the ID %q or the log %s holds the link or the address", got.ID, log.String())
	}
}
