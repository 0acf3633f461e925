package mailevents_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/logjson"
	"github.com/doorstep/doorstep/pkg/mailevents"
	"github.com/doorstep/doorstep/pkg/metrics"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

// stack is the handler over a fresh table of one engine, its log, and the
// store it records in.
type stack struct {
	invoke func(t *testing.T, event []byte) mailevents.Report
	store  *dynamo.Store
	log    *bytes.Buffer
}

func forEachEngine(t *testing.T, test func(t *testing.T, s stack)) {
	for _, e := range dynamotest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			client, table := e.Open(t)
			store := dynamo.New(client, table)
			now := func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }
			bookings, err := booking.New(booking.Config{Store: store, SiteURL: booking.NoSiteURL, Now: now})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			log := logjson.New(&buf)
			h := lambda.NewHandler(mailevents.Handler(bookings, metrics.New(log, "", now), log))
			invoke := func(t *testing.T, event []byte) mailevents.Report {
				t.Helper()
				out, err := h.Invoke(context.Background(), event)
				if err != nil {
					t.Fatalf("invoke: %v", err)
				}
				var rep mailevents.Report
				if err := json.Unmarshal(out, &rep); err != nil {
					t.Fatalf("output %s: %v", out, err)
				}
				return rep
			}
			test(t, stack{invoke: invoke, store: store, log: &buf})
		})
	}
}

// withBounceTime returns a sample event with its bounce's (or complaint's)
// timestamp set to at.
func withBounceTime(t *testing.T, event []byte, at time.Time) []byte {
	t.Helper()
	var e map[string]any
	if err := json.Unmarshal(event, &e); err != nil {
		t.Fatal(err)
	}
	d := e["detail"].(map[string]any)
	for _, k := range []string{"bounce", "complaint"} {
		if b, ok := d[k].(map[string]any); ok {
			b["timestamp"] = at.Format(time.RFC3339Nano)
		}
	}
	out, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func record(t *testing.T, s stack, email string) *booking.Undeliverable {
	t.Helper()
	u, err := s.store.UndeliverableEmail(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// metricLines returns the EMF lines of metric name in the log.
func metricLines(t *testing.T, log *bytes.Buffer, name string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m[name] != nil && m["_aws"] != nil {
			lines = append(lines, m)
		}
	}
	return lines
}

// TestRecords feeds each sample event to the handler, then again: the
// address is recorded with the reason and the time SES gives, and a
// redelivery changes nothing.
func TestRecords(t *testing.T) {
	tests := []struct {
		event, email string
		want         *booking.Undeliverable
	}{
		{"mail-events-permanent-bounce.json", "j.ruiz@example.net",
			&booking.Undeliverable{Reason: booking.UndeliverableBounce, At: time.Date(2026, 11, 20, 15, 4, 11, 0, time.UTC)}},
		{"mail-events-complaint.json", "no.thanks@example.com",
			&booking.Undeliverable{Reason: booking.UndeliverableComplaint, At: time.Date(2026, 11, 21, 9, 15, 2, 0, time.UTC)}},
		{"mail-events-transient-bounce.json", "full.box@example.org", nil},
		{"mail-events-delivery-delay.json", "full.box@example.org", nil},
	}
	for _, tt := range tests {
		t.Run(tt.event, func(t *testing.T) {
			forEachEngine(t, func(t *testing.T, s stack) {
				event := lambdatest.Event(t, tt.event)
				for _, round := range []string{"first", "redelivered"} {
					rep := s.invoke(t, event)
					wantRecorded := []booking.UndeliverableReason{}
					if tt.want != nil && round == "first" {
						wantRecorded = append(wantRecorded, tt.want.Reason)
					}
					if !slices.Equal(rep.Recorded, wantRecorded) {
						t.Errorf("%s: recorded %v, want %v", round, rep.Recorded, wantRecorded)
					}
					got := record(t, s, strings.ToUpper(tt.email))
					if (got == nil) != (tt.want == nil) || (got != nil && (got.Reason != tt.want.Reason || !got.At.Equal(tt.want.At))) {
						t.Errorf("%s: record = %+v, want %+v", round, got, tt.want)
					}
				}
				n := 0
				if tt.want != nil {
					n = 1
				}
				if got := metricLines(t, s.log, metrics.UndeliverableRecorded); len(got) != n {
					t.Errorf("%d UndeliverableRecorded lines, want %d:\n%s", len(got), n, s.log)
				} else if n == 1 && got[0]["Reason"] != string(tt.want.Reason) {
					t.Errorf("UndeliverableRecorded Reason = %v, want %s", got[0]["Reason"], tt.want.Reason)
				}
				if strings.Contains(s.log.String(), tt.email) {
					t.Errorf("the log names the address %s:\n%s", tt.email, s.log)
				}
			})
		})
	}
}

// TestTransientBounces: transient bounces on 3 different UTC days within
// 14 make the address undeliverable; the same day again, or a redelivery,
// is one day; 3 days spread over 15 are not enough.
func TestTransientBounces(t *testing.T) {
	sample := lambdatest.Event(t, "mail-events-transient-bounce.json")
	day := func(d, h int) time.Time { return time.Date(2026, 11, d, h, 0, 0, 0, time.UTC) }
	tests := []struct {
		name string
		at   []time.Time
		want []int // the records made after each event: 0 or 1
	}{
		{"3 days within 14", []time.Time{day(1, 9), day(7, 9), day(14, 23)}, []int{0, 0, 1}},
		{"the same day thrice is one", []time.Time{day(1, 9), day(1, 10), day(1, 11)}, []int{0, 0, 0}},
		{"redelivered", []time.Time{day(1, 9), day(1, 9), day(2, 9), day(2, 9)}, []int{0, 0, 0, 0}},
		{"3 days over 15", []time.Time{day(1, 9), day(8, 9), day(15, 0)}, []int{0, 0, 0}},
		{"late and out of order", []time.Time{day(20, 9), day(10, 9), day(15, 9)}, []int{0, 0, 1}},
		{"the fourth day records nothing new", []time.Time{day(1, 9), day(2, 9), day(3, 9), day(4, 9)}, []int{0, 0, 1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forEachEngine(t, func(t *testing.T, s stack) {
				var first time.Time
				for i, at := range tt.at {
					rep := s.invoke(t, withBounceTime(t, sample, at))
					if len(rep.Recorded) != tt.want[i] || rep.Heard != 1 {
						t.Errorf("event %d (%s): %+v, want %d records", i, at.Format(time.RFC3339), rep, tt.want[i])
					}
					if tt.want[i] == 1 {
						first = at
					}
				}
				got := record(t, s, "full.box@example.org")
				switch {
				case first.IsZero() && got != nil:
					t.Errorf("record = %+v, want none", got)
				case !first.IsZero() && (got == nil || got.Reason != booking.UndeliverableTransient || !got.At.Equal(first)):
					t.Errorf("record = %+v, want transient at %s", got, first)
				}
			})
		})
	}
}

// TestSuppressed: a send to an address on the account's suppression list
// is no new bounce: after the bounce that put it there, nothing changes;
// with no record left (erased with its requests), the truth is recorded.
func TestSuppressed(t *testing.T) {
	forEachEngine(t, func(t *testing.T, s stack) {
		bounce := lambdatest.Event(t, "mail-events-permanent-bounce.json")
		suppressed := lambdatest.Event(t, "mail-events-suppressed.json")
		t.Run("after the bounce", func(t *testing.T) {
			s.invoke(t, bounce)
			if rep := s.invoke(t, suppressed); len(rep.Recorded) != 0 || rep.Heard != 1 {
				t.Errorf("suppressed: %+v, want heard, nothing recorded", rep)
			}
			if got := record(t, s, "j.ruiz@example.net"); got == nil || !got.At.Equal(time.Date(2026, 11, 20, 15, 4, 11, 0, time.UTC)) {
				t.Errorf("record = %+v, want the bounce's, unchanged", got)
			}
		})
		t.Run("no record left", func(t *testing.T) {
			ctx := context.Background()
			hash := booking.EmailHash("j.ruiz@example.net")
			for _, code := range []string{"7K3M-Q9TD-2HXA", "2MNP-QRST-VWX4"} {
				if err := s.store.ForgetMailRequest(ctx, hash, code); err != nil {
					t.Fatal(err)
				}
			}
			if got := record(t, s, "j.ruiz@example.net"); got != nil {
				t.Fatalf("record = %+v after both requests were forgotten, want none", got)
			}
			if rep := s.invoke(t, suppressed); !slices.Equal(rep.Recorded, []booking.UndeliverableReason{booking.UndeliverableBounce}) {
				t.Errorf("suppressed: %+v, want a bounce recorded", rep)
			}
		})
	})
}

// TestSendingStatus: "Sending Status Disabled" is logged at ERROR and
// counted for the operator's alarm; "Enabled" is logged; neither records
// anything.
func TestSendingStatus(t *testing.T) {
	forEachEngine(t, func(t *testing.T, s stack) {
		rep := s.invoke(t, lambdatest.Event(t, "mail-events-sending-disabled.json"))
		if !rep.SendingDisabled || rep.Heard != 0 {
			t.Errorf("disabled: %+v, want sending_disabled", rep)
		}
		if got := metricLines(t, s.log, metrics.SendingDisabled); len(got) != 1 {
			t.Errorf("%d SendingDisabled lines, want 1:\n%s", len(got), s.log)
		}
		if !strings.Contains(s.log.String(), `"level":"ERROR"`) || !strings.Contains(s.log.String(), "bounce rate exceeded 10.0%") {
			t.Errorf("log has no ERROR line with SES's cause:\n%s", s.log)
		}
		s.log.Reset()
		if rep := s.invoke(t, lambdatest.Event(t, "mail-events-sending-enabled.json")); rep.SendingDisabled {
			t.Errorf("enabled: %+v, want not disabled", rep)
		}
		if got := metricLines(t, s.log, metrics.SendingDisabled); len(got) != 0 {
			t.Errorf("enabled: %d SendingDisabled lines, want 0", len(got))
		}
	})
}

// TestBadEvents: an event that is not SES's is ignored; a detail that is
// not JSON fails the invocation (Lambda retries it, then the DLQ keeps
// it); a recipient that is no address is skipped.
func TestBadEvents(t *testing.T) {
	forEachEngine(t, func(t *testing.T, s stack) {
		h := lambda.NewHandler(mailevents.Handler(nil, nil, logjson.New(s.log)))
		if _, err := h.Invoke(context.Background(), []byte(`{"source":"aws.events","detail-type":"Scheduled Event","detail":{}}`)); err != nil {
			t.Errorf("another source: %v, want ignored", err)
		}
		if _, err := h.Invoke(context.Background(), []byte(`{"source":"aws.ses","detail-type":"Email Bounced","detail":"not a record"}`)); err == nil {
			t.Errorf("a detail that is no record: no error, want one")
		}
		var e map[string]any
		if err := json.Unmarshal(lambdatest.Event(t, "mail-events-permanent-bounce.json"), &e); err != nil {
			t.Fatal(err)
		}
		e["detail"].(map[string]any)["bounce"].(map[string]any)["bouncedRecipients"] = []any{map[string]any{"emailAddress": "not an address"}}
		bad, _ := json.Marshal(e)
		if rep := s.invoke(t, bad); rep.Heard != 0 || len(rep.Recorded) != 0 {
			t.Errorf("no address: %+v, want skipped", rep)
		}
	})
}

// TestLogsNameTheRequestByItsLogRef: each event about a request's message
// logs the request as its code's booking.LogRef, never the code (which
// opens the person's pages) nor the address; a refused address is logged
// by its error's code, not by what SES gave.
func TestLogsNameTheRequestByItsLogRef(t *testing.T) {
	reject := func(t *testing.T) []byte {
		var e map[string]any
		if err := json.Unmarshal(lambdatest.Event(t, "mail-events-delivery-delay.json"), &e); err != nil {
			t.Fatal(err)
		}
		e["detail-type"] = mailevents.DetailRejected
		d := e["detail"].(map[string]any)
		delete(d, "deliveryDelay")
		d["reject"] = map[string]any{"reason": "Bad content"}
		out, _ := json.Marshal(e)
		return out
	}
	refused := func(t *testing.T) []byte {
		var e map[string]any
		if err := json.Unmarshal(lambdatest.Event(t, "mail-events-permanent-bounce.json"), &e); err != nil {
			t.Fatal(err)
		}
		e["detail"].(map[string]any)["bounce"].(map[string]any)["bouncedRecipients"] = []any{map[string]any{"emailAddress": "J Ruiz <j.ruiz@example.net>"}}
		out, _ := json.Marshal(e)
		return out
	}
	sample := func(name string) func(t *testing.T) []byte {
		return func(t *testing.T) []byte { return lambdatest.Event(t, name) }
	}
	tests := []struct {
		name    string
		event   func(t *testing.T) []byte
		code    string
		address string
	}{
		{"permanent bounce", sample("mail-events-permanent-bounce.json"), "7K3M-Q9TD-2HXA", "j.ruiz@example.net"},
		{"suppressed", sample("mail-events-suppressed.json"), "2MNP-QRST-VWX4", "j.ruiz@example.net"},
		{"complaint", sample("mail-events-complaint.json"), "9ABC-DEFG-HJK3", "no.thanks@example.com"},
		{"transient bounce", sample("mail-events-transient-bounce.json"), "4PQR-8STV-WXY2", "full.box@example.org"},
		{"delivery delay", sample("mail-events-delivery-delay.json"), "4PQR-8STV-WXY2", "full.box@example.org"},
		{"reject", reject, "4PQR-8STV-WXY2", "full.box@example.org"},
		{"refused address", refused, "7K3M-Q9TD-2HXA", "j.ruiz@example.net"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forEachEngine(t, func(t *testing.T, s stack) {
				s.invoke(t, tt.event(t))
				got := s.log.String()
				for _, secret := range []string{tt.code, strings.ReplaceAll(tt.code, "-", ""), tt.address} {
					if strings.Contains(got, secret) {
						t.Errorf("the log holds %s:\n%s", secret, got)
					}
				}
				if want := `"request":"` + booking.LogRef(tt.code) + `"`; !strings.Contains(got, want) {
					t.Errorf("the log has no %s:\n%s", want, got)
				}
			})
		})
	}
}
