// Package bookingtest holds what tests of the domain's users share.
package bookingtest

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Clock is a settable clock: its Now is the now func the domain's types
// take, so a test moves time by hand (holds, horizons, expiry, DST days).
// It is safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock that reads t until it is moved.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.t = c.t.Add(d) }

// Unlimited are limits no test of the store reaches by accident: for
// tests that store many requests at one business and are not about the
// limits. A window holds one request, as a business sets by default.
var Unlimited = booking.Limits{PerHour: 1000, Unanswered: 1000, Crews: booking.Crews{PerWindow: 1, Ever: 1}}

// ReadBusiness decodes the business in the JSON file at path, stopping the
// test on any error.
func ReadBusiness(t testing.TB, path string) *booking.Business {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := booking.DecodeBusiness(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}

// New returns the service c configures (booking.New), stopping the test
// when c is bad.
func New(t testing.TB, c booking.Config) *booking.Bookings {
	t.Helper()
	s, err := booking.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// NoClock is the clock of a service that a test calls only with times of
// its own (a sweep at a given instant): reading it fails the test.
func NoClock(t testing.TB) func() time.Time {
	return func() time.Time {
		t.Error("the service read its clock; this test gives it none")
		return time.Time{}
	}
}

// Inbox opens the inbox of the business slug as the operator does
// (booking.Bookings.OperatorInbox): a test acts as the business through it.
func Inbox(t testing.TB, bookings *booking.Bookings, slug string) *booking.Inbox {
	t.Helper()
	in, err := bookings.OperatorInbox(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	return in
}
