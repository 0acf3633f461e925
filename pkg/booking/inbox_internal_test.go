package booking

import (
	"slices"
	"testing"
)

// The inbox lists the states a request can be in once the business has it:
// written out by hand, so a slip in the Lifecycle or in statesFrom fails.
func TestInboxStatuses(t *testing.T) {
	want := []Status{StatusNew, StatusAccepted, StatusDeclined, StatusCancelled, StatusCompleted, StatusNoShow}
	if got := inboxStatuses; !slices.Equal(got, want) {
		t.Errorf("inboxStatuses = %v, want %v", got, want)
	}
}
