package notify_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/notify"
)

// hour is the clock hour of the test limit hits; its ID names it in UTC.
var hour = created.Add(17 * time.Minute)

const limitChange = "limit#lakeview-plumbing#2026-11-20T15:00:00Z"

// TestLimitMessages: who hears of a limit hit follows the rules of the
// business's other e-mails.
func TestLimitMessages(t *testing.T) {
	tests := []struct {
		name     string
		business []func(*booking.Business)
		composer notify.Composer
		want     []string // "id -> to (language)"
	}{
		{"plain", nil, composer, []string{limitChange + "/limit_reached/business/email -> " + inbox + " (en)"}},
		{"spanish desk", []func(*booking.Business){spanishDesk}, composer, []string{limitChange + "/limit_reached/business/email -> " + inbox + " (es)"}},
		{"no inbox e-mail", []func(*booking.Business){noInbox}, composer, nil},
		{"example", []func(*booking.Business){example}, composer, nil},
		{"example, preview", []func(*booking.Business){example, preview}, composer, nil},
		{"preview", []func(*booking.Business){preview}, composer, []string{limitChange + "/limit_reached/preview/email -> " + previewInbox + " (en)"}},
		{"preview, spanish desk, no inbox e-mail", []func(*booking.Business){preview, spanishDesk, noInbox}, composer,
			[]string{limitChange + "/limit_reached/preview/email -> " + previewInbox + " (es)"}},
		{"preview, no preview inbox", []func(*booking.Business){preview}, notify.Composer{SiteURL: siteURL}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := business(t, tt.business...)
			msgs := tt.composer.LimitMessages(b, hour)
			if got := summary(msgs); !slices.Equal(got, tt.want) {
				t.Fatalf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
			// Any hit of the same hour is the same message.
			if again := summary(tt.composer.LimitMessages(b, hour.Add(40*time.Minute))); !slices.Equal(again, tt.want) {
				t.Errorf("later in the hour: got %v, want %v", again, tt.want)
			}
			for _, m := range msgs {
				if m.Kind != notify.KindLimitReached || m.Channel != notify.ChannelEmail || m.Change != limitChange || m.Subject == "" {
					t.Errorf("got %+v, want a limit_reached e-mail of %s with a subject", m, limitChange)
				}
				if b.Preview && (!strings.HasPrefix(m.Subject, "[preview] ") || !strings.HasPrefix(m.Body, "[preview] ")) {
					t.Errorf("got subject %q, want it and the body marked [preview]", m.Subject)
				}
			}
		})
	}
	if got, want := notify.LimitChangeID("lakeview-plumbing", hour.In(time.FixedZone("CST", -6*3600))), limitChange; got != want {
		t.Errorf("LimitChangeID in another zone: got %q, want %q", got, want)
	}
}

// TestLimitText pins the whole message in each language: Doorstep's own
// words, the business's limits, the inbox; no request, nothing a stranger
// wrote.
func TestLimitText(t *testing.T) {
	tests := []struct {
		name          string
		business      []func(*booking.Business)
		subject, body string
	}{
		{"english, default limits", nil, "Unusual number of requests at Lakeview Plumbing", `Lakeview Plumbing received an unusual number of online requests within an hour.

New online requests are being refused for now: you take at most 10 in any hour, and at most 20 unanswered at once. Customers can still call you.

Open your inbox and answer the requests waiting there: accept them, offer another window or decline them. Mark any request that is not genuine as spam there: that declines it and blocks its phone and e-mail. Online requests are taken again as the hour passes and as you answer them.
Inbox: https://book.example.com/inbox
`},
		{"spanish, its own limits", []func(*booking.Business){spanishDesk, func(b *booking.Business) { b.RequestsPerHour, b.MaxUnanswered = 4, 7 }},
			"Número inusual de solicitudes en Lakeview Plumbing", `Lakeview Plumbing recibió un número inusual de solicitudes en línea en una hora.

Por ahora se rechazan las nuevas solicitudes en línea: usted recibe como máximo 4 en una hora, y como máximo 7 sin responder a la vez. Los clientes todavía pueden llamarle.

Abra su bandeja y responda las solicitudes que esperan allí: acéptelas, ofrezca otro horario o rechácelas. Marque allí como spam las que no sean genuinas: así se rechazan y se bloquean su teléfono y su correo. Las solicitudes en línea se aceptan de nuevo a medida que pasa la hora y que usted las responde.
Bandeja: https://book.example.com/inbox
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := composer.LimitMessages(business(t, tt.business...), hour)
			if len(msgs) != 1 {
				t.Fatalf("got %d messages, want 1", len(msgs))
			}
			if m := msgs[0]; m.Subject != tt.subject || m.Body != tt.body {
				t.Errorf("got subject %q, body\n%s\nwant subject %q, body\n%s", m.Subject, m.Body, tt.subject, tt.body)
			}
		})
	}
	t.Run("preview", func(t *testing.T) {
		msgs := composer.LimitMessages(business(t, preview), hour)
		want := "[preview] Lakeview Plumbing is a preview site, so this message went only to the preview inbox, instead of to the business's inbox.\n\n" +
			"Lakeview Plumbing received an unusual number of online requests within an hour."
		if len(msgs) != 1 || msgs[0].Subject != "[preview] Unusual number of requests at Lakeview Plumbing" || !strings.HasPrefix(msgs[0].Body, want) {
			t.Fatalf("got %+v, want the preview's note before the business's text", msgs)
		}
	})
}

// TestLimitReachedOnce: every record of a limit hit in the same hour sends
// the business one e-mail, through the Ledger; a failed send is sent by the
// retry; the next hour is another e-mail.
func TestLimitReachedOnce(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for _, at := range []time.Time{hour, hour, hour.Add(30 * time.Minute)} {
		if err := f.n.LimitReached(ctx, "lakeview-plumbing", at); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{limitChange + "/limit_reached/business/email -> " + inbox}
	if got := f.senders.got(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want one e-mail: %v", got, want)
	}
	if _, ok := f.ledger.items[limitChange+"/limit_reached/business/email"]; !ok {
		t.Errorf("got no claim in the ledger, want the message claimed under its ID")
	}

	f.senders.fail[inbox] = true
	next := hour.Add(time.Hour)
	err := f.n.LimitReached(ctx, "lakeview-plumbing", next)
	if err == nil || !strings.Contains(err.Error(), "MessageRejected") {
		t.Fatalf("got %v, want the send's failure", err)
	}
	delete(f.senders.fail, inbox)
	for range 2 {
		if err := f.n.LimitReached(ctx, "lakeview-plumbing", next); err != nil {
			t.Fatal(err)
		}
	}
	want = append(want, "limit#lakeview-plumbing#2026-11-20T16:00:00Z/limit_reached/business/email -> "+inbox)
	if got := f.senders.got(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// The logs name the message by its ID: a slug and an hour, no code to hide.
	if !strings.Contains(f.logs.String(), `"message":"`+limitChange+`/limit_reached/business/email"`) || strings.Contains(f.logs.String(), inbox) {
		t.Errorf("got logs %s, want the message's ID and never its recipient", f.logs)
	}
}

func TestLimitReachedFailures(t *testing.T) {
	ctx := context.Background()
	t.Run("business gone", func(t *testing.T) {
		f := newFixture(t)
		if err := f.n.LimitReached(ctx, "gone-plumbing", hour); err != nil || f.senders.tries > 0 {
			t.Fatalf("got %v and %d sends, want nil and none (nothing a retry can fix)", err, f.senders.tries)
		}
	})
	t.Run("ledger down", func(t *testing.T) {
		f := newFixture(t)
		f.ledger.fail = errors.New("ProvisionedThroughputExceededException")
		if err := f.n.LimitReached(ctx, "lakeview-plumbing", hour); err == nil || f.senders.tries > 0 {
			t.Fatalf("got %v and %d sends, want a failure and nothing sent unclaimed", err, f.senders.tries)
		}
	})
	t.Run("business unreadable", func(t *testing.T) {
		f := newFixture(t)
		f.n.Businesses = unreadable{}
		if err := f.n.LimitReached(ctx, "lakeview-plumbing", hour); err == nil || !strings.Contains(err.Error(), limitChange) {
			t.Fatalf("got %v, want a failure naming %s, for the retry", err, limitChange)
		}
	})
}

type unreadable struct{}

func (unreadable) Business(context.Context, string) (*booking.Business, error) {
	return nil, errors.New("RequestLimitExceeded")
}

// limitStore is a booking.Store whose RecordLimitHit answers first and err.
type limitStore struct {
	booking.Store
	first bool
	err   error
	calls int
}

func (s *limitStore) RecordLimitHit(context.Context, string, time.Time) (bool, error) {
	s.calls++
	return s.first, s.err
}

// TestNotifyingLimitHit: on the local server, the first record of a limit
// hit in an hour tells the business; a later one, or one that failed, does
// not, and a failed message is logged, never returned.
func TestNotifyingLimitHit(t *testing.T) {
	ctx := context.Background()
	sent := limitChange + "/limit_reached/business/email -> " + inbox
	tests := []struct {
		name      string
		first     bool
		err       error
		failSend  bool
		wantFirst bool
		wantSent  []string
		wantLog   string
	}{
		{"first of the hour", true, nil, false, true, []string{sent}, ""},
		{"later in the hour", false, nil, false, false, nil, ""},
		{"the record failed", false, errors.New("ProvisionedThroughputExceededException"), false, false, nil, ""},
		{"the e-mail failed", true, nil, true, true, nil, "the limit hit's message did not go out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.senders.fail[inbox] = tt.failSend
			inner := &limitStore{first: tt.first, err: tt.err}
			first, err := notify.Notifying(inner, f.n, f.n.Log).RecordLimitHit(ctx, "lakeview-plumbing", hour)
			if first != tt.wantFirst || !errors.Is(err, tt.err) || inner.calls != 1 {
				t.Fatalf("got %v, %v after %d calls, want the store's answer %v, %v after one", first, err, inner.calls, tt.wantFirst, tt.err)
			}
			if got := f.senders.got(); !slices.Equal(got, tt.wantSent) {
				t.Errorf("got %v, want %v", got, tt.wantSent)
			}
			if tt.wantLog != "" && !strings.Contains(f.logs.String(), tt.wantLog) {
				t.Errorf("got logs %s, want %q", f.logs, tt.wantLog)
			}
		})
	}
}
