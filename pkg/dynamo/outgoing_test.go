package dynamo_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/notify"
)

// TestOutgoing: a message written to go out is one item, whose insert on
// the stream DecodeOutgoing reads back as the same message; the same ID is
// not written twice, and a message on the wrong channel is refused.
func TestOutgoing(t *testing.T) {
	ctx := context.Background()
	mail := notify.Message{
		ID: "sign-in/" + slug + "/1795452067000/business/email", Change: "sign-in/" + slug, Kind: "sign_in",
		Audience: notify.AudienceBusiness, Channel: notify.ChannelEmail, To: "inbox@" + slug + ".example.com",
		Language: "en", Subject: "Sign in", Body: "Hello,\n\nhttps://book.example.com/inbox/sign-in/t\n",
	}
	text := notify.Message{
		ID: "phone-code/" + slug + "/1795452068000/business/sms", Change: "phone-code/" + slug, Kind: "phone_code",
		Audience: notify.AudienceBusiness, Channel: notify.ChannelSMS, To: "+16025550177", Language: "es",
		Body: "Doorstep: su código es 123456.",
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		out := dynamo.NewOutgoing(e.client, e.table, func() time.Time { return now })
		if err := out.SendEmail(ctx, mail); err != nil {
			t.Fatal(err)
		}
		if err := out.SendText(ctx, text); err != nil {
			t.Fatal(err)
		}
		for _, m := range []notify.Message{mail, text} {
			item := e.item(t, itemKey{"OUTGOING#" + m.ID, "MESSAGE"})
			if item == nil {
				t.Fatalf("no item for %s", m.ID)
			}
			want := strconv.FormatInt(now.Add(dynamo.OutgoingTTL).Unix(), 10)
			if got, _ := item["expires_at"].(*types.AttributeValueMemberN); got == nil || got.Value != want {
				t.Errorf("%s: got expires_at %v, want %s", m.ID, item["expires_at"], want)
			}
			got, ok, err := dynamo.DecodeOutgoing(streamRecord(t, "INSERT", nil, item))
			if err != nil || !ok || got != m {
				t.Errorf("got %+v, %v, %v, want %+v", got, ok, err, m)
			}
			if got, ok, err := dynamo.DecodeOutgoing(streamRecord(t, "REMOVE", item, nil)); ok || err != nil {
				t.Errorf("its removal: got %+v, %v, %v, want it ignored", got, ok, err)
			}
		}
		if err := out.SendEmail(ctx, mail); err == nil {
			t.Error("the same ID again: got no error, want it refused")
		}
		wrong := mail
		wrong.ID += "/2"
		if err := out.SendText(ctx, wrong); err == nil {
			t.Error("an e-mail as a text: got no error, want it refused")
		}
		if item := e.item(t, itemKey{"OUTGOING#" + wrong.ID, "MESSAGE"}); item != nil {
			t.Errorf("a refused message: got an item %v, want none", item)
		}
	})
}
