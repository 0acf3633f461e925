package booking

import (
	"context"
	"testing"
	"time"
)

// simulateStore holds one business and keeps the requests created.
type simulateStore struct {
	Store // the other methods are not called
	biz   *Business
	made  []Request
}

func (s *simulateStore) Business(context.Context, string) (*Business, error) { return s.biz, nil }

func (s *simulateStore) PublicBusiness(ctx context.Context, slug string) (*Business, error) {
	return s.Business(ctx, slug)
}

func (s *simulateStore) OwnBusiness(ctx context.Context, slug string) (*Business, error) {
	return s.Business(ctx, slug)
}

func (s *simulateStore) BusinessesAtHost(context.Context, string) ([]*Business, error) {
	return []*Business{s.biz}, nil
}

func (s *simulateStore) CreateRequest(_ context.Context, r Request, _ *IdempotencyRecord, _ Limits, _ time.Time) error {
	s.made = append(s.made, r)
	return nil
}

// TestSimulateDeposits: on a server that takes no real payment
// (SimulateDeposits), getBusiness's booking_deposit.simulated and each new
// request's deposit say simulated: true, whatever the business file says,
// and the stored business is left as it is; elsewhere they say what the
// file says (issue 20).
func TestSimulateDeposits(t *testing.T) {
	ctx := context.Background()
	body := withField(t, withField(t, withField(t, []byte(validBody), "window_start", "2026-11-23T13:00:00Z", false),
		"address.zip", "10001", false), "deposit_accepted", true, false)
	for _, tt := range []struct {
		name     string
		simulate bool
		want     bool
	}{
		{"payments on", false, false},
		{"payments off", true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stored := testBusinesses(t)["deposit-plumbing"]
			if stored.BookingDeposit == nil || stored.BookingDeposit.Simulated {
				t.Fatalf("deposit-plumbing: want a real deposit in the file, got %+v", stored.BookingDeposit)
			}
			store := &simulateStore{biz: stored}
			s := testBookings(t, Config{Store: store, SiteURL: "https://book.example.com", Now: func() time.Time { return createNow },
				SimulateDeposits: tt.simulate})
			b, err := s.Business(ctx, "deposit-plumbing")
			if err != nil {
				t.Fatal(err)
			}
			if got := b.BookingDeposit.Simulated; got != tt.want {
				t.Errorf("getBusiness booking_deposit.simulated = %v, want %v", got, tt.want)
			}
			// MCP names a business by a link to its site too.
			byLink, err := s.ResolveBusiness(ctx, "https://deposit-plumbing.example.com/book")
			if err != nil {
				t.Fatal(err)
			}
			if got := byLink.BookingDeposit.Simulated; got != tt.want {
				t.Errorf("by its link: booking_deposit.simulated = %v, want %v", got, tt.want)
			}
			if stored.BookingDeposit.Simulated {
				t.Error("the stored business's deposit was changed")
			}
			// The edge passes the business it read, or the store's own.
			for _, biz := range []*Business{b, stored} {
				c, _, err := s.CreateRequest(ctx, biz, inputOf(t, body, ""))
				if err != nil {
					t.Fatal(err)
				}
				r := store.made[len(store.made)-1]
				if r.Deposit == nil || r.Deposit.Simulated != tt.want {
					t.Errorf("stored deposit %+v, want simulated %v", r.Deposit, tt.want)
				}
				if got := r.DepositView(); got == nil || got.Simulated != tt.want {
					t.Errorf("status deposit %+v, want simulated %v", got, tt.want)
				}
				if c.Code != r.Code {
					t.Errorf("created %s, stored %s", c.Code, r.Code)
				}
			}
		})
	}
}
