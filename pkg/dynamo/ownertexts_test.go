package dynamo_test

import (
	"context"
	"fmt"
	"testing"
	"time"

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
