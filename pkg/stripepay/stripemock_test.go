package stripepay_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	stripe "github.com/stripe/stripe-go/v84"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/stripepay"
)

// stripeMockBin is where make installs stripe-mock, Stripe's own mock
// server (the Makefile's STRIPE_MOCK_DIR), seen from this package's folder.
var stripeMockBin = filepath.Join("..", "..", ".tools", "stripe-mock", "stripe-mock")

// stripeMock is the one stripe-mock of the test run: started by the first
// test that needs it, on a free loopback port, and stopped by TestMain.
var stripeMock struct {
	once sync.Once
	cmd  *exec.Cmd
	url  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if c := stripeMock.cmd; c != nil {
		c.Process.Kill()
		c.Wait()
	}
	os.Exit(code)
}

// stripeMockURL returns the address of the test run's stripe-mock, which
// checks each request against Stripe's OpenAPI description and answers
// from Stripe's fixtures. Without the binary the test skips, and fails
// under CI=true: make test installs it (make stripe-mock).
func stripeMockURL(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(stripeMockBin); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("stripe-mock is not installed at %s (CI=true: run make stripe-mock)", stripeMockBin)
		}
		t.Skipf("stripe-mock is not installed at %s: run make stripe-mock", stripeMockBin)
	}
	stripeMock.once.Do(func() { stripeMock.url, stripeMock.err = startStripeMock() })
	if stripeMock.err != nil {
		t.Fatal(stripeMock.err)
	}
	return stripeMock.url
}

// listening is stripe-mock's line that says where its HTTP listener is.
var listening = regexp.MustCompile(`Listening for HTTP at address: (127\.0\.0\.1:\d+)`)

// startStripeMock starts stripe-mock with the system's choice of free
// loopback ports (HTTPS too, whose default port is fixed), and returns its
// HTTP address once it listens.
func startStripeMock() (string, error) {
	cmd := exec.Command(stripeMockBin, "-http-addr", "127.0.0.1:", "-https-addr", "127.0.0.1:")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("start stripe-mock: %w", err)
	}
	stripeMock.cmd = cmd
	found := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			if m := listening.FindStringSubmatch(lines.Text()); m != nil {
				found <- "http://" + m[1]
				break
			}
		}
		io.Copy(io.Discard, out) // keep its output from blocking it
	}()
	select {
	case url := <-found:
		return url, nil
	case <-time.After(60 * time.Second):
		return "", fmt.Errorf("stripe-mock did not say where it listens within 60 s")
	}
}

// TestStripeMock runs the adapter's three Stripe calls against stripe-mock,
// which refuses any parameter Stripe's API description does not allow: the
// Checkout Session's create (both languages, a hold shorter than Stripe's
// 30 minutes and one longer than its 24 hours), its retrieve and the
// refund. The stand-in (stripetest) keeps the flows that need state.
func TestStripeMock(t *testing.T) {
	url := stripeMockURL(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)
	var logs strings.Builder
	p := stripepay.New(stripepay.Config{
		SecretKey: "sk_test_doorstep", SiteURL: siteURL, APIURL: url, Now: func() time.Time { return now },
		Log: slog.New(slog.NewJSONHandler(&logs, nil)),
	})
	b := &booking.Business{Name: "Austin Rapid Plumbing"}

	checkouts := []struct {
		name string
		lang string
		hold time.Duration
	}{
		{"English, a 30-minute hold", "en", 30 * time.Minute},
		{"Spanish, a 10-minute hold", "es", 10 * time.Minute},
		{"English, a 2-day hold", "en", 48 * time.Hour},
	}
	for _, tt := range checkouts {
		t.Run("checkout: "+tt.name, func(t *testing.T) {
			r := booking.Request{
				Code: "7K3M-Q9TD-2HXA", Language: tt.lang, HoldExpires: now.Add(tt.hold),
				Deposit: &booking.DepositRecord{AmountCents: 4900, Currency: "usd", State: booking.DepositDue},
			}
			got, err := p.Checkout(ctx, r, b)
			if err != nil {
				t.Fatalf("got %v, want stripe-mock to take the create (logs: %s)", err, logs.String())
			}
			if !strings.HasPrefix(got, "https://") {
				t.Errorf("got payment URL %q, want Stripe's https address", got)
			}
		})
	}

	t.Run("retrieve", func(t *testing.T) {
		pay, err := p.Returned(ctx, "cs_test_a1b2c3")
		if err != nil {
			t.Fatalf("got %v, want stripe-mock to answer the retrieve", err)
		}
		if !strings.HasPrefix(pay.Ref, "pi_") {
			t.Errorf("got %+v, want the session's PaymentIntent read", pay)
		}
	})

	t.Run("refund", func(t *testing.T) {
		if err := p.Refund(ctx, "7K3M-Q9TD-2HXA", "pi_3MtwBwLkdIwHu7ix28a3tqPa"); err != nil {
			t.Fatalf("got %v, want stripe-mock to take the refund (logs: %s)", err, logs.String())
		}
	})

	// stripe-mock does check what it is sent: a mode Stripe's API
	// description does not list is refused, so the passes above are not a
	// server that takes anything.
	t.Run("a create Stripe would refuse", func(t *testing.T) {
		client := stripe.NewClient("sk_test_doorstep", stripe.WithBackends(stripe.NewBackendsWithConfig(&stripe.BackendConfig{
			URL: stripe.String(url), LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
		})))
		_, err := client.V1CheckoutSessions.Create(ctx, &stripe.CheckoutSessionCreateParams{Mode: stripe.String("deposit")})
		if err == nil || !strings.Contains(err.Error(), "validation") {
			t.Fatalf("got %v, want stripe-mock's validation error", err)
		}
	})
}
