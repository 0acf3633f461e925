package dynamo_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

func mailKey(email string) itemKey { return itemKey{"MAIL#" + booking.EmailHash(email), "MAIL"} }

func softKey(email, day string) itemKey {
	return itemKey{"MAIL#" + booking.EmailHash(email), "SOFT#" + day}
}

// requestsOf returns the address item's requests set, sorted.
func requestsOf(item map[string]types.AttributeValue) []string {
	set, _ := item["requests"].(*types.AttributeValueMemberSS)
	if set == nil {
		return nil
	}
	codes := slices.Clone(set.Value)
	slices.Sort(codes)
	return codes
}

func TestRecordUndeliverable(t *testing.T) {
	ctx := context.Background()
	email := "Ana.Ruiz@Example.com"
	hash := booking.EmailHash(email)
	bounce := booking.Undeliverable{Reason: booking.UndeliverableBounce, At: now}
	complaint := booking.Undeliverable{Reason: booking.UndeliverableComplaint, At: now.Add(time.Hour)}
	forEachEngine(t, func(t *testing.T, e engine) {
		t.Run("none yet", func(t *testing.T) {
			got, err := e.store.UndeliverableEmail(ctx, email)
			if err != nil || got != nil {
				t.Errorf("UndeliverableEmail() = %v, %v, want nil, nil", got, err)
			}
		})
		steps := []struct {
			name string
			u    booking.Undeliverable
			code string
			want bool
		}{
			{"the first bounce records", bounce, "AAAA-BBBB-CCCC", true},
			{"the same event again records nothing", bounce, "AAAA-BBBB-CCCC", false},
			{"a complaint after it records nothing", complaint, "DDDD-EEEE-FFFF", false},
			{"no request", complaint, "", false},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				got, err := e.store.RecordUndeliverable(ctx, hash, st.u, st.code)
				if err != nil || got != st.want {
					t.Errorf("RecordUndeliverable() = %v, %v, want %v", got, err, st.want)
				}
			})
		}
		t.Run("the first record stands, read in any case", func(t *testing.T) {
			got, err := e.store.UndeliverableEmail(ctx, " ana.ruiz@example.COM")
			if err != nil || got == nil || *got != bounce {
				t.Errorf("UndeliverableEmail() = %v, %v, want %v", got, err, bounce)
			}
		})
		t.Run("the item as documented", func(t *testing.T) {
			item := e.item(t, mailKey(email))
			if attrS(item, "reason") != "bounce" || attrS(item, "at") != "2026-11-20T00:00:00Z" {
				t.Errorf("item = %v, want reason bounce at 2026-11-20T00:00:00Z", item)
			}
			if got, want := requestsOf(item), []string{"AAAA-BBBB-CCCC", "DDDD-EEEE-FFFF"}; !slices.Equal(got, want) {
				t.Errorf("requests = %v, want %v", got, want)
			}
		})
		t.Run("another address is deliverable", func(t *testing.T) {
			got, err := e.store.UndeliverableEmail(ctx, "ana.ruiz@example.org")
			if err != nil || got != nil {
				t.Errorf("UndeliverableEmail() = %v, %v, want nil, nil", got, err)
			}
		})
	})
}

func TestRecordTransientBounce(t *testing.T) {
	ctx := context.Background()
	email := "full@example.com"
	hash := booking.EmailHash(email)
	span := 14 * 24 * time.Hour
	day := func(d int, hour int) time.Time { return time.Date(2026, 11, d, hour, 0, 0, 0, time.UTC) }
	steps := []struct {
		name string
		at   time.Time
		want []time.Time
	}{
		{"the first", day(10, 9), []time.Time{day(10, 0)}},
		{"the same day again is one day", day(10, 23), []time.Time{day(10, 0)}},
		{"another day", day(12, 1), []time.Time{day(10, 0), day(12, 0)}},
		{"in another time zone, the UTC day", time.Date(2026, 11, 12, 20, 0, 0, 0, time.FixedZone("", -5*3600)), []time.Time{day(10, 0), day(12, 0), day(13, 0)}},
		{"a day far later sees none of them", day(30, 0).AddDate(0, 1, 0), []time.Time{day(30, 0).AddDate(0, 1, 0)}},
		{"an earlier day late sees those after it too", day(11, 4), []time.Time{day(10, 0), day(11, 0), day(12, 0), day(13, 0)}},
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				got, err := e.store.RecordTransientBounce(ctx, hash, st.at, span, "AAAA-BBBB-CCCC")
				if err != nil || !slices.EqualFunc(got, st.want, time.Time.Equal) {
					t.Errorf("RecordTransientBounce(%s) = %v, %v, want %v", st.at, got, err, st.want)
				}
			})
		}
		t.Run("no record: transient bounces alone decide nothing in the store", func(t *testing.T) {
			got, err := e.store.UndeliverableEmail(ctx, email)
			if err != nil || got != nil {
				t.Errorf("UndeliverableEmail() = %v, %v, want nil, nil", got, err)
			}
		})
		t.Run("the day item as documented", func(t *testing.T) {
			item := e.item(t, softKey(email, "2026-11-10"))
			if got, want := attrN(t, item, "expires_at"), day(10, 0).Add(15*24*time.Hour).Unix(); got != want {
				t.Errorf("expires_at = %d, want %d (the span and a day after the day)", got, want)
			}
			if got := requestsOf(e.item(t, mailKey(email))); !slices.Equal(got, []string{"AAAA-BBBB-CCCC"}) {
				t.Errorf("requests = %v, want the one request", got)
			}
		})
	})
}

func TestForgetMailRequest(t *testing.T) {
	ctx := context.Background()
	bounce := booking.Undeliverable{Reason: booking.UndeliverableBounce, At: now}
	forEachEngine(t, func(t *testing.T, e engine) {
		record := func(t *testing.T, email string, codes ...string) {
			t.Helper()
			if _, err := e.store.RecordUndeliverable(ctx, booking.EmailHash(email), bounce, ""); err != nil {
				t.Fatal(err)
			}
			for _, c := range codes {
				if err := e.store.NoteMailRequest(ctx, booking.EmailHash(email), c); err != nil {
					t.Fatal(err)
				}
			}
		}
		forget := func(t *testing.T, email, code string) {
			t.Helper()
			if err := e.store.ForgetMailRequest(ctx, booking.EmailHash(email), code); err != nil {
				t.Fatalf("ForgetMailRequest(%s) = %v", code, err)
			}
		}
		t.Run("the last request's erasure deletes the record and its days", func(t *testing.T) {
			email := "gone@example.com"
			record(t, email, "AAAA-AAAA-AAAA", "BBBB-BBBB-BBBB")
			if _, err := e.store.RecordTransientBounce(ctx, booking.EmailHash(email), now, 14*24*time.Hour, ""); err != nil {
				t.Fatal(err)
			}
			forget(t, email, "AAAA-AAAA-AAAA")
			if got := requestsOf(e.item(t, mailKey(email))); !slices.Equal(got, []string{"BBBB-BBBB-BBBB"}) {
				t.Errorf("after the first: requests = %v, want the other one", got)
			}
			if u, _ := e.store.UndeliverableEmail(ctx, email); u == nil {
				t.Errorf("after the first: the record is gone, want it kept for the other request")
			}
			forget(t, email, "AAAA-AAAA-AAAA") // again: nothing
			forget(t, email, "BBBB-BBBB-BBBB")
			if item := e.item(t, mailKey(email)); item != nil {
				t.Errorf("after the last: item = %v, want none", item)
			}
			if item := e.item(t, softKey(email, "2026-11-20")); item != nil {
				t.Errorf("after the last: transient day = %v, want none", item)
			}
			forget(t, email, "BBBB-BBBB-BBBB") // again: nothing
		})
		t.Run("a request that never used it changes nothing", func(t *testing.T) {
			email := "kept@example.com"
			record(t, email, "CCCC-CCCC-CCCC")
			forget(t, email, "DDDD-DDDD-DDDD")
			if got := requestsOf(e.item(t, mailKey(email))); !slices.Equal(got, []string{"CCCC-CCCC-CCCC"}) {
				t.Errorf("requests = %v, want unchanged", got)
			}
		})
		t.Run("an address no request used (an inbox address) stays", func(t *testing.T) {
			email := "office@example.com"
			record(t, email)
			forget(t, email, "EEEE-EEEE-EEEE")
			if u, _ := e.store.UndeliverableEmail(ctx, email); u == nil {
				t.Errorf("the record is gone, want it kept")
			}
		})
		t.Run("no address recorded: nothing to do", func(t *testing.T) {
			forget(t, "never@example.com", "FFFF-FFFF-FFFF")
		})
	})
}
