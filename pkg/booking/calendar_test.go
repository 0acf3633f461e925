package booking

import (
	"context"
	"strings"
	"testing"
)

// TestFeedAddress: a new address opens the feed and shuts the one before;
// stopping the feed shuts it.
func TestFeedAddress(t *testing.T) {
	ctx := context.Background()
	s, store, _ := newSignInService(t)
	b := signInBusiness(t)
	// token is the token in a feed's address.
	token := func(address string) string {
		t.Helper()
		rest, ok := strings.CutPrefix(address, "https://book.example.com"+FeedPathPrefix)
		token, ics := strings.CutSuffix(rest, ".ics")
		if !ok || !ics {
			t.Fatalf("got address %q, want the site's %s<token>.ics", address, FeedPathPrefix)
		}
		return token
	}
	opens := func(address string) bool {
		t.Helper()
		got, err := s.OpenFeed(ctx, token(address))
		switch {
		case err == nil && got.Slug == b.Slug:
			return true
		case ErrorCode(err) == NotFound:
			return false
		}
		t.Fatalf("OpenFeed(%s) = %v, %v", address, got, err)
		return false
	}

	first, err := inboxOf(s, b).NewFeedAddress(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !opens(first) {
		t.Fatalf("the new address %s opens nothing", first)
	}
	if got, want := store.bs[b.Slug].FeedTokenSHA256, HashInboxToken(token(first)); got != want {
		t.Errorf("stored %q, want the token's SHA-256 %q and never the token", got, want)
	}
	second, err := inboxOf(s, b).NewFeedAddress(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if second == first || !opens(second) || opens(first) {
		t.Errorf("after a new address: the new one opens %v, the old one %v; want only the new", opens(second), opens(first))
	}
	after, err := inboxOf(s, b).StopFeed(ctx)
	if err != nil || after.FeedTokenSHA256 != "" {
		t.Fatalf("StopFeed() = %v, %v, want the business without a feed", after, err)
	}
	if opens(second) {
		t.Error("the address opens the feed after StopFeed")
	}
}
