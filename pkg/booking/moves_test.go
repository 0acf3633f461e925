package booking

import (
	"context"
	"errors"
	"testing"
	"time"
)

// movedMeanwhileStore keeps one request, counts its reads, and lets another move
// land between a move's read and its write (meanwhile, once): the write's
// condition then fails, as the real store's does when the stored request
// is no longer the one read.
type movedMeanwhileStore struct {
	oneRequestStore
	reads     int
	meanwhile func(stored *Request)
}

func (s *movedMeanwhileStore) Request(ctx context.Context, code string) (*Request, error) {
	s.reads++
	return s.oneRequestStore.Request(ctx, code)
}

func (s *movedMeanwhileStore) MoveRequest(ctx context.Context, before, after Request, t Transition, c Crews, now time.Time) error {
	if s.meanwhile != nil {
		s.meanwhile(&s.r)
		s.meanwhile = nil
	}
	if s.r.Status != before.Status || !s.r.ReminderDue.Equal(before.ReminderDue) {
		return Errorf(InvalidTransition, "this request was moved meanwhile")
	}
	return s.oneRequestStore.MoveRequest(ctx, before, after, t, c, now)
}

// A business's move reads the request once when it is made, and once
// more only after a write that lost a race, to return the request as it
// now stands in a *MovedError.
func TestInboxMoveRefusals(t *testing.T) {
	at := time.Date(2026, 10, 26, 12, 0, 0, 0, time.UTC) // before the window
	errMine := errors.New("the caller's own condition")
	tests := []struct {
		name      string
		stored    Status
		reminder  bool // the stored request has a reminder due
		meanwhile func(*Request)
		action    Action
		check     MoveCheck
		wantErr   error  // nil: the move is made
		wantNow   Status // the request as a *MovedError carries it; "" for none
		wantReads int
		wantMoves int
	}{
		{"made", StatusNew, false, nil, ActionDecline, nil, nil, "", 1, 1},
		{"refused as read", StatusDeclined, false, nil, ActionAccept, nil, errMoved, StatusDeclined, 1, 0},
		{"lost a race", StatusNew, false, func(r *Request) { r.Status = StatusCancelled }, ActionDecline, nil, errMoved, StatusCancelled, 2, 0},
		{"only reminded meanwhile: made again", StatusAccepted, true, func(r *Request) { r.ReminderDue = time.Time{} }, ActionCancel, nil, nil, "", 2, 1},
		{"refused by the caller's check", StatusNew, false, nil, ActionDecline,
			func(before InboxRequest, tr Transition) error {
				if before.Status != StatusNew || tr.To != StatusDeclined {
					t.Errorf("check got %s to %s, want new to declined", before.Status, tr.To)
				}
				return errMine
			}, errMine, "", 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := depositRequest(tt.stored, DepositPaid, false)
			if tt.reminder {
				r.ReminderDue = r.Window.Start.Add(-12 * time.Hour)
			}
			store := &movedMeanwhileStore{oneRequestStore: oneRequestStore{r: r}, meanwhile: tt.meanwhile}
			in := inboxOf(testBookings(t, Config{Store: store, SiteURL: NoSiteURL, Now: func() time.Time { return at }}), &Business{Slug: r.BusinessSlug})
			_, err := in.MoveIf(context.Background(), r.Code, tt.action, time.Time{}, tt.check)
			var moved *MovedError
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("got %v, want the move made", err)
			case tt.wantErr == errMoved && !errors.As(err, &moved):
				t.Fatalf("got %v, want a *MovedError", err)
			case tt.wantErr == errMoved && (ErrorCode(err) != InvalidTransition || moved.Request.Status != tt.wantNow || moved.Request.Code != r.Code):
				t.Errorf("got %s carrying %s, want INVALID_TRANSITION carrying the request %s", ErrorCode(err), moved.Request.Status, tt.wantNow)
			case tt.wantErr != nil && tt.wantErr != errMoved && !errors.Is(err, tt.wantErr):
				t.Errorf("got %v, want %v", err, tt.wantErr)
			}
			if store.reads != tt.wantReads || store.moves != tt.wantMoves {
				t.Errorf("got %d reads, %d moves; want %d, %d", store.reads, store.moves, tt.wantReads, tt.wantMoves)
			}
		})
	}
}

// errMoved stands for any *MovedError in TestInboxMoveRefusals.
var errMoved = errors.New("a *MovedError")

// Nothing a business does is reached from another business's inbox: its
// request is NOT_FOUND, as an unknown code is, and nothing is read twice
// or written.
func TestInboxOfAnotherBusiness(t *testing.T) {
	r := depositRequest(StatusNew, DepositPaid, false)
	store := &movedMeanwhileStore{oneRequestStore: oneRequestStore{r: r}}
	in := inboxOf(testBookings(t, Config{Store: store, SiteURL: NoSiteURL, Now: time.Now}), &Business{Slug: "another-plumbing"})
	if _, err := in.Move(context.Background(), r.Code, ActionDecline, time.Time{}); ErrorCode(err) != NotFound {
		t.Errorf("Move() = %v, want NOT_FOUND", err)
	}
	if _, err := in.Request(context.Background(), r.Code); ErrorCode(err) != NotFound {
		t.Errorf("Request() = %v, want NOT_FOUND", err)
	}
	if store.moves != 0 || store.r.Status != StatusNew {
		t.Errorf("got %d moves, %s; want none, new", store.moves, store.r.Status)
	}
}
