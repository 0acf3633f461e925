package dynamo_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// TestRaceOwnerPhoneCodes asks for 20 confirmation texts of one business
// at once: the day's count lets exactly MaxPhoneCodesPerDay through and
// refuses the rest (RATE_LIMITED), whatever number each is for; then 20
// answers with the last code at once confirm the number exactly once;
// wrong answers past MaxPhoneCodeTries leave no code to answer, and an
// expired code confirms nothing.
func TestRaceOwnerPhoneCodes(t *testing.T) {
	const n = 20
	ctx := context.Background()
	client, table := dynamotest.Local(t)
	store := dynamo.New(client, table)
	if err := store.PutBusiness(ctx, inboxBusiness(t, slug, "office@test-plumbing.example.com")); err != nil {
		t.Fatal(err)
	}
	clock := bookingtest.NewClock(now)
	s := bookingtest.New(t, booking.Config{Store: store, SiteURL: "https://doorstep.example.com", Now: clock.Now})
	in, err := s.OperatorInbox(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	codes := make([]string, n)
	errs := race(n, func(i int) error {
		var err error
		codes[i], _, err = in.StartOwnerPhone(ctx, fmt.Sprintf("512555%04d", 100+i))
		return err
	})
	sent, limited, last := 0, 0, ""
	for i, err := range errs {
		switch {
		case code(err) == booking.RateLimited && codes[i] == "":
			limited++
		case err != nil:
			t.Errorf("StartOwnerPhone(%d) = %v", i, err)
		default:
			sent++
		}
	}
	if sent != booking.MaxPhoneCodesPerDay || limited != n-booking.MaxPhoneCodesPerDay {
		t.Fatalf("%d concurrent StartOwnerPhone: %d sent, %d limited, want %d and %d", n, sent, limited, booking.MaxPhoneCodesPerDay, n-booking.MaxPhoneCodesPerDay)
	}
	// The code stored is the one written last; find it by trying each.
	item := engine{store, client, table}.item(t, itemKey{"BUSINESS#" + slug, "PHONECODE"})
	for _, c := range codes {
		if c != "" && attrS(item, "code_hash") == booking.PhoneCodeHash(slug, c) {
			last = c
		}
	}
	if last == "" {
		t.Fatal("no code sent is the one stored")
	}
	phone := attrS(item, "phone")
	confirmed := 0
	errs = race(n, func(int) error {
		_, err := in.ConfirmOwnerPhone(ctx, last)
		return err
	})
	for i, err := range errs {
		switch {
		case err == nil:
			confirmed++
		case code(err) != booking.InvalidRequest:
			t.Errorf("ConfirmOwnerPhone(%d) = %v", i, err)
		}
	}
	b, err := store.Business(ctx, slug)
	if confirmed != 1 || err != nil || b.OwnerPhone != phone {
		t.Fatalf("%d concurrent answers: %d confirmed, owner_phone %q (%v), want 1 and %s", n, confirmed, b.OwnerPhone, err, phone)
	}

	// The next day: a code, tried wrong MaxPhoneCodeTries times, is dead.
	clock.Add(24 * time.Hour)
	right, _, err := in.StartOwnerPhone(ctx, "5125550199")
	if err != nil {
		t.Fatal(err)
	}
	wrong := "000000"
	if wrong == right {
		wrong = "111111"
	}
	for range booking.MaxPhoneCodeTries {
		if _, err := in.ConfirmOwnerPhone(ctx, wrong); code(err) != booking.InvalidRequest {
			t.Fatalf("a wrong code: got %v, want INVALID_REQUEST", err)
		}
	}
	if _, err := in.ConfirmOwnerPhone(ctx, right); code(err) != booking.InvalidRequest {
		t.Errorf("the right code after %d wrong ones: got %v, want INVALID_REQUEST", booking.MaxPhoneCodeTries, err)
	}
	// An expired code, not yet deleted by the TTL, confirms nothing.
	right, _, err = in.StartOwnerPhone(ctx, "5125550198")
	if err != nil {
		t.Fatal(err)
	}
	clock.Add(booking.PhoneCodeTTL)
	if _, err := in.ConfirmOwnerPhone(ctx, right); code(err) != booking.InvalidRequest {
		t.Errorf("an expired code: got %v, want INVALID_REQUEST", err)
	}
	if b, _ := store.Business(ctx, slug); b.OwnerPhone != phone {
		t.Errorf("owner_phone = %q, want %s still", b.OwnerPhone, phone)
	}
}

// pauseSecondCall returns a client of the same table as client whose
// calls, in a context made by the returned function, are held before the
// second one of that context is sent until release is closed; reached is
// told of each call held.
func pauseSecondCall(client *dynamodb.Client, reached chan<- struct{}, release <-chan struct{}) (*dynamodb.Client, func() context.Context) {
	type callsKey struct{}
	held := func(stack *middleware.Stack) error {
		return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("PauseSecondCall",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				if calls, ok := ctx.Value(callsKey{}).(*atomic.Int32); ok && calls.Add(1) == 2 {
					reached <- struct{}{}
					<-release
				}
				return next.HandleInitialize(ctx, in)
			}), middleware.Before)
	}
	paused := dynamodb.New(client.Options(), func(o *dynamodb.Options) { o.APIOptions = append(o.APIOptions, held) })
	return paused, func() context.Context { return context.WithValue(context.Background(), callsKey{}, new(atomic.Int32)) }
}

// TestPhoneCodeTriesInFlight: ten wrong answers sent at once, each held
// after its first write, must have spent the code's MaxPhoneCodeTries
// tries, so that the right code answered then is refused: the try is
// counted, by its condition, before the code is compared. Comparing first
// and counting after let any number of answers in flight be compared
// with a code that allows five. On both engines.
func TestPhoneCodeTriesInFlight(t *testing.T) {
	const wrongs = 10
	ctx := context.Background()
	for _, eng := range dynamotest.Engines() {
		t.Run(eng.Name, func(t *testing.T) {
			client, table := eng.Open(t)
			store := dynamo.New(client, table)
			right := booking.PhoneCodeHash(slug, "123456")
			if err := store.PutPhoneCode(ctx, booking.PhoneCodeRecord{Slug: slug, Phone: "5125550142", CodeHash: right, Expires: now.Add(booking.PhoneCodeTTL)}); err != nil {
				t.Fatal(err)
			}
			reached, release := make(chan struct{}, wrongs), make(chan struct{})
			paused, newCtx := pauseSecondCall(client, reached, release)
			wrongStore := dynamo.New(paused, table)
			done := make(chan error, wrongs)
			for i := range wrongs {
				go func() {
					_, err := wrongStore.SpendPhoneCode(newCtx(), slug, booking.PhoneCodeHash(slug, fmt.Sprintf("99999%d", i)), booking.MaxPhoneCodeTries, now)
					done <- err
				}()
			}
			// Each wrong answer is either held after its first write or done.
			var errs []error
			for settled := 0; settled < wrongs; settled++ {
				select {
				case <-reached:
				case err := <-done:
					errs = append(errs, err)
				}
			}
			_, err := store.SpendPhoneCode(ctx, slug, right, booking.MaxPhoneCodeTries, now)
			close(release)
			for len(errs) < wrongs {
				errs = append(errs, <-done)
			}
			if code(err) != booking.NotFound {
				t.Errorf("the right code with %d wrong answers in flight = %v, want NOT_FOUND (its %d tries spent)", wrongs, err, booking.MaxPhoneCodeTries)
			}
			for i, err := range errs {
				if code(err) != booking.NotFound {
					t.Errorf("wrong answer %d = %v, want NOT_FOUND", i, err)
				}
			}
		})
	}
}
