package booking

import (
	"slices"
	"testing"
)

// The inbox lists the states a request can be in once the business has it
// (expired: it never answered): written out by hand, so a slip in the
// Lifecycle or in statesFrom fails.
func TestInboxStatuses(t *testing.T) {
	want := []Status{StatusNew, StatusAccepted, StatusDeclined, StatusCancelled, StatusExpired, StatusCompleted, StatusNoShow}
	if got := inboxStatuses; !slices.Equal(got, want) {
		t.Errorf("inboxStatuses = %v, want %v", got, want)
	}
}

// inboxOf is the inbox of b, as OpenInbox would open it.
func inboxOf(s *Bookings, b *Business) *Inbox { return &Inbox{s: s, b: b} }
