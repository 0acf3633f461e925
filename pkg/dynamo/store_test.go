package dynamo_test

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

func TestCreateRequestRoundTrip(t *testing.T) {
	full := newRequest(slug, phone(1), monday)
	full.ChangedByBusiness = true
	minimal := newRequest(slug, phone(2), monday.Add(2*time.Hour))
	minimal.ServiceID, minimal.Description, minimal.AssistantName = "", "", ""
	minimal.Address.Unit, minimal.Address.City, minimal.Contact.Email = "", "", ""
	minimal.Contact.SMSConsent = false
	minimal.ServiceName = booking.LocalText{EN: "Other service (see the description)", ES: "Otro servicio (ver la descripción)"}
	deposit := pending(newRequest(slug, phone(3), monday.Add(4*time.Hour)), now.Add(30*time.Minute))

	tests := []struct {
		name string
		r    booking.Request
	}{
		{"every field", full},
		{"optional fields empty", minimal},
		{"deposit due", deposit},
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				mustCreate(t, e, tt.r, nil, now)

				got, err := e.store.Request(context.Background(), tt.r.Code)
				if err != nil {
					t.Fatalf("Request() = %v, want nil", err)
				}
				if !reflect.DeepEqual(*got, tt.r) {
					t.Errorf("Request() = %s\nwant %s", jsonString(got), jsonString(tt.r))
				}

				stored := e.item(t, requestKey(tt.r.Code))
				if got, want := attrS(stored, "status"), string(tt.r.Status); got != want {
					t.Errorf("request item status = %q, want %q (a top-level S attribute)", got, want)
				}
				if got, want := attrS(stored, "business_slug"), slug; got != want {
					t.Errorf("request item business_slug = %q, want %q", got, want)
				}
				if _, ok := stored["window"].(*types.AttributeValueMemberM); !ok {
					t.Errorf("request item window = %#v, want a map", stored["window"])
				}
				if _, ok := stored["hold_expires"]; ok != !tt.r.HoldExpires.IsZero() {
					t.Errorf("request item has hold_expires = %v, want %v", ok, !tt.r.HoldExpires.IsZero())
				}

				hold := e.item(t, holdKey(slug, tt.r.Window.Start))
				if got, want := attrS(hold, "request_code"), tt.r.Code; got != want {
					t.Errorf("hold request_code = %q, want %q", got, want)
				}
				if got, want := attrN(t, hold, "expires_at"), tt.r.HoldUntil().Unix(); got != want {
					t.Errorf("hold expires_at = %d, want %d", got, want)
				}
				counter := e.item(t, phoneKey(slug, tt.r.Contact.Phone))
				if got, want := attrN(t, counter, "open_count"), int64(1); got != want {
					t.Errorf("phone open_count = %d, want %d", got, want)
				}
			})
		}
	})
}

func TestCreateRequestWindowHold(t *testing.T) {
	holdExpires := now.Add(30 * time.Minute)
	tests := []struct {
		name     string
		secondAt time.Time // when the second request comes
		want     booking.Code
	}{
		{"live hold", now.Add(10 * time.Minute), booking.WindowTaken},
		{"hold lapses one second later", holdExpires.Add(-time.Second), booking.WindowTaken},
		{"hold lapses at now", holdExpires, ""},
		{"lapsed hold", holdExpires.Add(time.Minute), ""},
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				start := monday.Add(time.Duration(i) * 2 * time.Hour)
				first := pending(newRequest(slug, phone(10+i), start), holdExpires)
				mustCreate(t, e, first, nil, now)
				second := newRequest(slug, phone(20+i), start)

				err := e.store.CreateRequest(context.Background(), second, nil, bookingtest.Unlimited, tt.secondAt)

				if got := code(err); got != tt.want {
					t.Fatalf("CreateRequest() = %v, want code %q", err, tt.want)
				}
				wantHolder := first.Code
				if tt.want == "" {
					wantHolder = second.Code
				}
				if got := attrS(e.item(t, holdKey(slug, start)), "request_code"); got != wantHolder {
					t.Errorf("hold request_code = %q, want %q", got, wantHolder)
				}
			})
		}
	})
}

func TestCreateRequestTooManyOpen(t *testing.T) {
	tests := []struct {
		name  string
		slug  string
		phone string
		want  booking.Code
	}{
		{"fourth open request of the phone", slug, phone(1), booking.TooManyOpen},
		{"same phone at another business", "other-plumbing", phone(1), ""},
		{"another phone", slug, phone(2), ""},
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		for i := range booking.MaxOpenPerPhone {
			mustCreate(t, e, newRequest(slug, phone(1), monday.Add(time.Duration(i)*2*time.Hour)), nil, now)
		}
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := newRequest(tt.slug, tt.phone, monday.AddDate(0, 0, 1+i))
				err := e.store.CreateRequest(context.Background(), r, nil, bookingtest.Unlimited, now)
				if got := code(err); got != tt.want {
					t.Errorf("CreateRequest() = %v, want code %q", err, tt.want)
				}
			})
		}
		if got, want := attrN(t, e.item(t, phoneKey(slug, phone(1))), "open_count"), int64(booking.MaxOpenPerPhone); got != want {
			t.Errorf("open_count = %d, want %d", got, want)
		}
	})
}

// TestFailedCreateStoresNothing checks that a refused request leaves every
// item its transaction touches as it was.
func TestFailedCreateStoresNothing(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, e engine) // what is there before
		attempt func() (booking.Request, *booking.IdempotencyRecord)
		want    booking.Code
	}{
		{
			name: "window taken",
			setup: func(t *testing.T, e engine) {
				mustCreate(t, e, newRequest(slug, phone(1), monday), nil, now)
			},
			attempt: func() (booking.Request, *booking.IdempotencyRecord) {
				r := newRequest(slug, phone(2), monday)
				return r, record(r, "key-window-taken", now.Add(booking.IdempotencyKeyTTL))
			},
			want: booking.WindowTaken,
		},
		{
			name: "too many open",
			setup: func(t *testing.T, e engine) {
				for i := range booking.MaxOpenPerPhone {
					mustCreate(t, e, newRequest(slug, phone(3), monday.AddDate(0, 0, 1).Add(time.Duration(i)*2*time.Hour)), nil, now)
				}
			},
			attempt: func() (booking.Request, *booking.IdempotencyRecord) {
				r := newRequest(slug, phone(3), monday.AddDate(0, 0, 2))
				return r, record(r, "key-too-many", now.Add(booking.IdempotencyKeyTTL))
			},
			want: booking.TooManyOpen,
		},
		{
			name: "key used",
			setup: func(t *testing.T, e engine) {
				r := newRequest(slug, phone(4), monday.AddDate(0, 0, 3))
				mustCreate(t, e, r, record(r, "key-used", now.Add(booking.IdempotencyKeyTTL)), now)
			},
			attempt: func() (booking.Request, *booking.IdempotencyRecord) {
				r := newRequest(slug, phone(5), monday.AddDate(0, 0, 4))
				return r, record(r, "key-used", now.Add(booking.IdempotencyKeyTTL))
			},
		},
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				tt.setup(t, e)
				r, key := tt.attempt()
				touched := []itemKey{
					requestKey(r.Code),
					holdKey(r.BusinessSlug, r.Window.Start),
					phoneKey(r.BusinessSlug, r.Contact.Phone),
					idempotencyKey(r.BusinessSlug, key.Key),
				}
				before := make([]map[string]types.AttributeValue, len(touched))
				for i, k := range touched {
					before[i] = e.item(t, k)
				}

				err := e.store.CreateRequest(context.Background(), r, key, bookingtest.Unlimited, now)

				if tt.want == "" {
					if keyUsed(err) == nil {
						t.Fatalf("CreateRequest() = %v, want *booking.KeyUsedError", err)
					}
				} else if got := code(err); got != tt.want {
					t.Fatalf("CreateRequest() = %v, want code %q", err, tt.want)
				}
				for i, k := range touched {
					if got := e.item(t, k); !reflect.DeepEqual(got, before[i]) {
						t.Errorf("item %v = %v after the failed create, want it unchanged: %v", k, got, before[i])
					}
				}
				if _, err := e.store.Request(context.Background(), r.Code); code(err) != booking.NotFound {
					t.Errorf("Request(refused code) = %v, want NOT_FOUND", err)
				}
			})
		}
	})
}

func TestIdempotency(t *testing.T) {
	ctx := context.Background()
	expires := now.Add(time.Hour)
	forEachEngine(t, func(t *testing.T, e engine) {
		t.Run("same key again replays the first record", func(t *testing.T) {
			first := newRequest(slug, phone(1), monday)
			want := record(first, "key-same", expires)
			mustCreate(t, e, first, want, now)

			// The same body again, as the domain sends it: a fresh code,
			// the same window and phone (which fail too, but later).
			again := newRequest(slug, phone(1), monday)
			err := e.store.CreateRequest(ctx, again, record(again, "key-same", expires.Add(time.Minute)), bookingtest.Unlimited, now.Add(time.Minute))

			got := keyUsed(err)
			if got == nil {
				t.Fatalf("CreateRequest() = %v, want *booking.KeyUsedError", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("KeyUsedError.Record = %s\nwant %s", jsonString(got), jsonString(want))
			}
		})

		t.Run("expired record is replaced", func(t *testing.T) {
			first := newRequest(slug, phone(2), monday.Add(2*time.Hour))
			mustCreate(t, e, first, record(first, "key-expired", expires), now)

			later := expires.Add(time.Minute)
			second := newRequest(slug, phone(2), monday.Add(4*time.Hour))
			want := record(second, "key-expired", later.Add(booking.IdempotencyKeyTTL))
			mustCreate(t, e, second, want, later)

			got, err := e.store.IdempotencyRecord(ctx, slug, "key-expired", later)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("IdempotencyRecord() = %s, %v\nwant %s", jsonString(got), err, jsonString(want))
			}
		})

		rec := record(newRequest(slug, phone(3), monday), "key-read", expires)
		r := newRequest(slug, phone(3), monday.Add(6*time.Hour))
		rec.Response = created(r)
		mustCreate(t, e, r, rec, now)
		reads := []struct {
			name string
			key  string
			at   time.Time
			want *booking.IdempotencyRecord
		}{
			{"live record", "key-read", expires.Add(-time.Second), rec},
			{"record expires at now", "key-read", expires, nil},
			{"expired record", "key-read", expires.Add(time.Hour), nil},
			{"unknown key", "key-unknown", now, nil},
		}
		for _, tt := range reads {
			t.Run(tt.name, func(t *testing.T) {
				got, err := e.store.IdempotencyRecord(ctx, slug, tt.key, tt.at)
				if err != nil || !reflect.DeepEqual(got, tt.want) {
					t.Errorf("IdempotencyRecord() = %s, %v, want %s", jsonString(got), err, jsonString(tt.want))
				}
			})
		}
	})
}

func TestHeldWindows(t *testing.T) {
	ctx := context.Background()
	from := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	to := from.AddDate(0, 0, 2)
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		dynamo.SetPageSize(e.store, 2) // a page per two items read: many pages
		n := 0
		// Windows of three crews: the holds of a window after its first
		// have sort keys past the window's own (HOLD#<start>#<slot>).
		limits := bookingtest.Unlimited
		limits.Crews = booking.Crews{PerWindow: 3, Ever: 3}
		hold := func(r booking.Request) {
			t.Helper()
			n++
			r.Contact.Phone, r.Contact.Email = phone(n), "ana-"+phone(n)+"@example.com"
			if err := e.store.CreateRequest(ctx, r, nil, limits, now); err != nil {
				t.Fatalf("CreateRequest(%s) = %v", r.Code, err)
			}
		}
		// Live holds in range, from its first instant to its last window.
		var want []time.Time
		for i := range 9 {
			start := from.Add(time.Duration(i) * 5 * time.Hour)
			hold(newRequest(slug, "", start))
			want = append(want, start)
		}
		last := to.Add(-2 * time.Hour)
		for range 3 {
			hold(newRequest(slug, "", last))
			want = append(want, last)
		}
		// Lapsed holds in range: deposits not paid in time.
		for i := range 4 {
			start := from.Add(time.Duration(i)*5*time.Hour + 2*time.Hour)
			hold(pending(newRequest(slug, "", start), now.Add(-time.Minute)))
		}
		// Live holds out of range, and at another business.
		for _, start := range []time.Time{from.Add(-2 * time.Hour), to, to, to.Add(2 * time.Hour)} {
			hold(newRequest(slug, "", start))
		}
		hold(newRequest("other-plumbing", "", from))
		// Other items of the business: idempotency records and counters
		// are written above; a profile too.
		b := loadBusiness(t)
		if err := e.store.PutBusiness(ctx, b); err != nil {
			t.Fatal(err)
		}

		tests := []struct {
			name     string
			from, to time.Time
			want     []time.Time
		}{
			{"range", from, to, want},
			{"same range in another zone", from.In(la), to.In(la), want},
			{"range ends within a second", from.Add(time.Millisecond), to.Add(time.Millisecond), append(want[1:len(want):len(want)], to, to)},
			{"range ends a little earlier", from.Add(-time.Millisecond), to.Add(-time.Millisecond), want},
			{"one window", last, last.Add(time.Second), want[len(want)-3:]},
			{"empty range", to, to, nil},
			{"reversed range", to, from, nil},
			{"nothing held", to.AddDate(0, 0, 1), to.AddDate(0, 0, 2), nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, err := e.store.HeldWindows(ctx, slug, tt.from, tt.to, now)
				if err != nil {
					t.Fatalf("HeldWindows() = %v", err)
				}
				slices.SortFunc(got, time.Time.Compare)
				if !slices.Equal(got, tt.want) || (len(got) > 0 && got[0].Location() != time.UTC) {
					t.Errorf("HeldWindows() = %v\nwant %v (UTC)", got, tt.want)
				}
			})
		}
	})
}

func TestNotFound(t *testing.T) {
	tests := []struct {
		name string
		read func(s *dynamo.Store) error
	}{
		{"business", func(s *dynamo.Store) error {
			_, err := s.Business(context.Background(), "no-such-business")
			return err
		}},
		{"request", func(s *dynamo.Store) error {
			_, err := s.Request(context.Background(), "0000-0000-0000")
			return err
		}},
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if got := code(tt.read(e.store)); got != booking.NotFound {
					t.Errorf("code = %q, want %q", got, booking.NotFound)
				}
			})
		}
	})
}

// loadBusiness reads the test business.
func loadBusiness(t *testing.T) *booking.Business {
	t.Helper()
	return bookingtest.ReadBusiness(t, "testdata/business.json")
}

func TestBusiness(t *testing.T) {
	ctx := context.Background()
	forEachEngine(t, func(t *testing.T, e engine) {
		t.Run("round trip", func(t *testing.T) {
			want := loadBusiness(t)
			if err := e.store.PutBusiness(ctx, want); err != nil {
				t.Fatalf("PutBusiness() = %v", err)
			}
			got, err := e.store.Business(ctx, want.Slug)
			if err != nil {
				t.Fatalf("Business() = %v", err)
			}
			if jsonString(got) != jsonString(want) {
				t.Errorf("Business() = %s\nwant %s", jsonString(got), jsonString(want))
			}
			if got.Location() == nil || got.Location().String() != want.Timezone {
				t.Errorf("Business().Location() = %v, want %s", got.Location(), want.Timezone)
			}
		})
		t.Run("replace", func(t *testing.T) {
			b := loadBusiness(t)
			b.AcceptingRequests = false
			if err := e.store.PutBusiness(ctx, b); err != nil {
				t.Fatalf("PutBusiness() = %v", err)
			}
			got, err := e.store.Business(ctx, b.Slug)
			if err != nil || got.AcceptingRequests {
				t.Errorf("Business() = accepting %v, %v, want false, nil", got != nil && got.AcceptingRequests, err)
			}
		})
		t.Run("invalid record is refused", func(t *testing.T) {
			b := loadBusiness(t)
			b.Slug = "bad-record"
			b.URL = "http://insecure.example.com"
			if err := e.store.PutBusiness(ctx, b); err == nil {
				t.Errorf("PutBusiness(http URL) = nil, want an error")
			}
			if _, err := e.store.Business(ctx, b.Slug); code(err) != booking.NotFound {
				t.Errorf("Business() = %v, want NOT_FOUND", err)
			}
		})
	})
}
