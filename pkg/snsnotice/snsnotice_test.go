package snsnotice_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/snsnotice"
)

// TestSendOperator publishes notify's approval message to the topic: the
// subject names the business by its slug only, and the text quotes its
// name as the owner's words, with the command that approves it.
func TestSendOperator(t *testing.T) {
	var got url.Values
	sns := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got, _ = url.ParseQuery(string(body))
		w.Header().Set("Content-Type", "text/xml")
		io.WriteString(w, `<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>1</MessageId></PublishResult></PublishResponse>`)
	}))
	defer sns.Close()
	env := map[string]string{snsnotice.EndpointVariable: sns.URL, "AWS_REGION": "us-east-1"}
	client, err := snsnotice.NewClient(context.Background(), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	const topic = "arn:aws:sns:us-east-1:123456789012:doorstep-OperatorTopic"
	b := &booking.Business{Slug: "new-plumbing", Name: "Best \"Plumbing\" — call 555", Private: booking.Private{InboxEmail: "owner@example.com"}}
	m := notify.ApprovalMessage(b, time.Date(2026, 11, 20, 15, 20, 0, 0, time.UTC))
	if err := snsnotice.New(client, topic).SendOperator(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ field, want string }{
		{"Action", "Publish"},
		{"TopicArn", topic},
		{"Subject", "Doorstep: new-plumbing asks to go live"},
	}
	for _, tt := range tests {
		if g := got.Get(tt.field); g != tt.want {
			t.Errorf("%s: got %q, want %q", tt.field, g, tt.want)
		}
	}
	msg := got.Get("Message")
	for _, want := range []string{`as its owner typed it: "Best \"Plumbing\" — call 555"`, "owner@example.com", "ctl businesses approve new-plumbing"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
}
