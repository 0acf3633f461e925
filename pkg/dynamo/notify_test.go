package dynamo_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/notify"
)

const messageID = "7K3M-Q9TD-2HXA#0/received/person/sms"

func notifyKey(id string) itemKey    { return itemKey{"NOTIFY#" + id, "NOTIFY"} }
func optOutKey(phone string) itemKey { return itemKey{"OPTOUT#" + phone, "SMS"} }

// forEachLedger runs test on each engine with a Ledger on its table.
func forEachLedger(t *testing.T, test func(t *testing.T, e engine, l *dynamo.Ledger)) {
	t.Helper()
	forEachEngine(t, func(t *testing.T, e engine) { test(t, e, dynamo.NewLedger(e.client, e.table)) })
}

func mustClaim(t *testing.T, l *dynamo.Ledger, id string, at time.Time, want notify.ClaimState) notify.Claim {
	t.Helper()
	c, err := l.Claim(context.Background(), id, at)
	if err != nil {
		t.Fatalf("Claim at %s = %v", at, err)
	}
	if c.State != want {
		t.Fatalf("Claim at %s: got state %d, want %d", at, c.State, want)
	}
	return c
}

func TestLedgerClaims(t *testing.T) {
	ctx := context.Background()
	forEachLedger(t, func(t *testing.T, e engine, l *dynamo.Ledger) {

		// A first claim holds the message for the lease.
		c := mustClaim(t, l, messageID, now, notify.Claimed)
		if c.Token == "" || !c.Until.Equal(now.Add(notify.ClaimLease)) {
			t.Fatalf("got token %q until %s, want a token until %s", c.Token, c.Until, now.Add(notify.ClaimLease))
		}
		item := e.item(t, notifyKey(messageID))
		if got := attrS(item, "state"); got != "sending" {
			t.Errorf("got state %q, want sending", got)
		}
		if got, want := attrN(t, item, "expires_at"), now.Add(notify.ClaimLease).Unix(); got != want {
			t.Errorf("got expires_at %d, want %d", got, want)
		}

		// While it holds, nobody else may send.
		other := mustClaim(t, l, messageID, now.Add(notify.ClaimLease-time.Second), notify.InFlight)
		if !other.Until.Equal(c.Until) {
			t.Errorf("got in flight until %s, want %s", other.Until, c.Until)
		}

		// Sent: every later claim is told so, for SentTTL.
		sentAt := now.Add(time.Second)
		if err := l.MarkSent(ctx, messageID, c.Token, sentAt); err != nil {
			t.Fatal(err)
		}
		item = e.item(t, notifyKey(messageID))
		if got := attrS(item, "state"); got != "sent" {
			t.Errorf("got state %q, want sent", got)
		}
		if got, want := attrN(t, item, "expires_at"), sentAt.Add(notify.SentTTL).Unix(); got != want {
			t.Errorf("got expires_at %d, want %d", got, want)
		}
		mustClaim(t, l, messageID, now.Add(notify.ClaimLease+time.Minute), notify.AlreadySent)
		mustClaim(t, l, messageID, sentAt.Add(notify.SentTTL-time.Second), notify.AlreadySent)
		// Past SentTTL no stream record of the change lives any more.
		mustClaim(t, l, messageID, sentAt.Add(notify.SentTTL), notify.Claimed)
	})
}

func TestLedgerRelease(t *testing.T) {
	ctx := context.Background()
	forEachLedger(t, func(t *testing.T, e engine, l *dynamo.Ledger) {
		c := mustClaim(t, l, messageID, now, notify.Claimed)
		if err := l.Release(ctx, messageID, c.Token); err != nil {
			t.Fatal(err)
		}
		if item := e.item(t, notifyKey(messageID)); item != nil {
			t.Fatalf("got %v after Release, want no item", item)
		}
		// The retry claims it again at once.
		mustClaim(t, l, messageID, now.Add(time.Second), notify.Claimed)
	})
}

// TestLedgerTakeOver: a claim whose process died lapses, and the one who
// takes it over is the only one whose MarkSent and Release count.
func TestLedgerTakeOver(t *testing.T) {
	ctx := context.Background()
	forEachLedger(t, func(t *testing.T, e engine, l *dynamo.Ledger) {
		dead := mustClaim(t, l, messageID, now, notify.Claimed)
		later := now.Add(notify.ClaimLease)
		live := mustClaim(t, l, messageID, later, notify.Claimed)
		if live.Token == dead.Token {
			t.Fatal("got the same token twice")
		}
		if err := l.MarkSent(ctx, messageID, dead.Token, later); err == nil {
			t.Error("got MarkSent with a lapsed claim's token = nil, want an error")
		}
		if err := l.Release(ctx, messageID, dead.Token); err != nil {
			t.Errorf("got Release with a lapsed claim's token = %v, want nil (nothing of its own to release)", err)
		}
		if got := attrS(e.item(t, notifyKey(messageID)), "claim_token"); got != live.Token {
			t.Fatalf("got claim_token %q, want the live claim's", got)
		}
		if err := l.MarkSent(ctx, messageID, live.Token, later); err != nil {
			t.Fatal(err)
		}
		// A sent record is not a claim: a stale Release cannot delete it.
		if err := l.Release(ctx, messageID, live.Token); err != nil {
			t.Fatal(err)
		}
		mustClaim(t, l, messageID, later.Add(time.Hour), notify.AlreadySent)
	})
}

// TestLedgerClaimRace: of many processes claiming one message at once,
// exactly one may send it.
func TestLedgerClaimRace(t *testing.T) {
	forEachLedger(t, func(t *testing.T, e engine, l *dynamo.Ledger) {
		const n = 20
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			claimed int
			errs    []error
		)
		for range n {
			wg.Go(func() {
				c, err := l.Claim(context.Background(), messageID, now)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, err)
				} else if c.State == notify.Claimed {
					claimed++
				}
			})
		}
		wg.Wait()
		if len(errs) > 0 {
			t.Fatalf("got errors %v", errs)
		}
		if claimed != 1 {
			t.Fatalf("got %d claims of %d, want exactly 1", claimed, n)
		}
	})
}

func TestLedgerOptOut(t *testing.T) {
	ctx := context.Background()
	forEachLedger(t, func(t *testing.T, e engine, l *dynamo.Ledger) {
		const phone = "3125550147"
		if out, err := l.OptedOut(ctx, phone); err != nil || out {
			t.Fatalf("got OptedOut %v, %v, want false", out, err)
		}
		if err := l.RecordOptOut(ctx, phone, now); err != nil {
			t.Fatal(err)
		}
		if err := l.RecordOptOut(ctx, phone, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if out, err := l.OptedOut(ctx, phone); err != nil || !out {
			t.Fatalf("got OptedOut %v, %v, want true", out, err)
		}
		item := e.item(t, optOutKey(phone))
		if got, want := attrS(item, "opted_out_at"), now.Format(time.RFC3339); got != want {
			t.Errorf("got opted_out_at %q, want the first opt-out, %q", got, want)
		}
		if _, ok := item["expires_at"]; ok {
			t.Error("got an opt-out with expires_at, want it kept for good")
		}
		if out, err := l.OptedOut(ctx, "3125550148"); err != nil || out {
			t.Fatalf("another number: got OptedOut %v, %v, want false", out, err)
		}
	})
}
