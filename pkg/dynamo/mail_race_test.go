package dynamo_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestRecordUndeliverableRace: 20 deliveries of reports about one address
// at once (a redelivered bounce, a complaint racing it) make one record,
// and exactly one call says it made it.
func TestRecordUndeliverableRace(t *testing.T) {
	e := openLocal(t)
	hash := booking.EmailHash("race@example.com")
	const n = 20
	made := make([]bool, n)
	errs := race(n, func(i int) error {
		reason := booking.UndeliverableBounce
		if i%2 == 1 {
			reason = booking.UndeliverableComplaint
		}
		var err error
		made[i], err = e.store.RecordUndeliverable(context.Background(), hash, booking.Undeliverable{Reason: reason, At: now}, fmt.Sprintf("CODE-%04d", i))
		return err
	})
	recorded := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("call %d: %v", i, errs[i])
		}
		if made[i] {
			recorded++
		}
	}
	if recorded != 1 {
		t.Errorf("%d calls made the record, want 1", recorded)
	}
	if got := requestsOf(e.item(t, mailKey("race@example.com"))); len(got) != n {
		t.Errorf("%d requests noted, want all %d", len(got), n)
	}
}

// TestTransientBounceRace: 20 deliveries of transient bounces at once, on
// 3 days, leave 3 day items, and the last of each day's readers sees all
// the days written before it: at least one call sees all 3.
func TestTransientBounceRace(t *testing.T) {
	e := openLocal(t)
	hash := booking.EmailHash("full@example.com")
	const n = 20
	seen := make([][]time.Time, n)
	errs := race(n, func(i int) error {
		at := now.AddDate(0, 0, i%3).Add(time.Duration(i) * time.Minute)
		var err error
		seen[i], err = e.store.RecordTransientBounce(context.Background(), hash, at, 14*24*time.Hour, "")
		return err
	})
	most := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("call %d: %v", i, errs[i])
		}
		most = max(most, len(seen[i]))
	}
	if most != 3 {
		t.Errorf("the most days any call saw: %d, want 3", most)
	}
	for d := range 3 {
		if e.item(t, softKey("full@example.com", now.AddDate(0, 0, d).Format("2006-01-02"))) == nil {
			t.Errorf("no item for day %d", d)
		}
	}
}

// TestForgetMailRequestRace: 10 requests' erasures at once take every
// code out, and the record goes with the last one, whichever it is.
func TestForgetMailRequestRace(t *testing.T) {
	e := openLocal(t)
	const email = "many@example.com"
	hash := booking.EmailHash(email)
	const n = 10
	var codes []string
	for i := range n {
		code := fmt.Sprintf("CODE-%04d", i)
		codes = append(codes, code)
		if _, err := e.store.RecordUndeliverable(context.Background(), hash, booking.Undeliverable{Reason: booking.UndeliverableBounce, At: now}, code); err != nil {
			t.Fatal(err)
		}
	}
	for i, err := range race(n, func(i int) error { return e.store.ForgetMailRequest(context.Background(), hash, codes[i]) }) {
		if err != nil {
			t.Fatalf("erasure %d: %v", i, err)
		}
	}
	if item := e.item(t, mailKey(email)); item != nil {
		t.Errorf("after every erasure: %v (requests %v), want no item", item, requestsOf(item))
	}
}
