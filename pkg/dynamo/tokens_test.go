package dynamo_test

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

// tokenKind is a kind of single-use token as the tests use it: its item's
// key, how to put one, and how its route spends one.
type tokenKind struct {
	name  string
	key   func(hash string) itemKey
	put   func(s *dynamo.Store, hash string) error
	spend func(s *dynamo.Store, hash string) error
}

func tokenKinds() []tokenKind {
	ctx := context.Background()
	expires := now.Add(time.Hour)
	return []tokenKind{
		{
			name: "sign-in",
			key:  func(hash string) itemKey { return itemKey{"SIGNIN#" + hash, "SIGNIN"} },
			put: func(s *dynamo.Store, hash string) error {
				return s.PutSignInToken(ctx, booking.SignInRecord{TokenHash: hash, Slug: slug, EmailHash: booking.EmailHash("office@example.com"), Expires: expires})
			},
			spend: func(s *dynamo.Store, hash string) error { _, err := s.SpendSignInToken(ctx, hash, now); return err },
		},
		{
			name: "new inbox address",
			key:  func(hash string) itemKey { return itemKey{"EMAILCHANGE#" + hash, "EMAILCHANGE"} },
			put: func(s *dynamo.Store, hash string) error {
				return s.PutInboxEmailToken(ctx, booking.InboxEmailChangeRecord{TokenHash: hash, Slug: slug,
					EmailHash: booking.EmailHash("office@example.com"), NewEmail: "new@example.com", Expires: expires})
			},
			spend: func(s *dynamo.Store, hash string) error { _, err := s.SpendInboxEmailToken(ctx, hash, now); return err },
		},
		{
			name: "sign-up",
			key:  func(hash string) itemKey { return itemKey{"SIGNUP#" + hash, "SIGNUP"} },
			put: func(s *dynamo.Store, hash string) error {
				return s.PutSignupToken(ctx, booking.SignupRecord{TokenHash: hash, Name: "Fontanería José", Trade: "plumbing", Email: "jose@example.com", Expires: expires})
			},
			spend: func(s *dynamo.Store, hash string) error { return s.SpendSignupToken(ctx, hash, now) },
		},
	}
}

// TestTokenKinds, on both engines: a token of each kind spent as each
// other kind is NOT_FOUND and its item stays; spent as its own kind, it
// is deleted, once; put again under its hash, it is refused.
func TestTokenKinds(t *testing.T) {
	kinds := tokenKinds()
	forEachEngine(t, func(t *testing.T, e engine) {
		for _, k := range kinds {
			t.Run(k.name, func(t *testing.T) {
				hash := booking.WebTokenHash("a " + k.name + " token")
				if err := k.put(e.store, hash); err != nil {
					t.Fatal(err)
				}
				for _, other := range kinds {
					if other.name == k.name {
						continue
					}
					if err := other.spend(e.store, hash); code(err) != booking.NotFound {
						t.Errorf("spent as a %s token: got %v, want NOT_FOUND", other.name, err)
					}
					if item := e.item(t, k.key(hash)); item == nil {
						t.Fatalf("spent as a %s token: its item is gone", other.name)
					}
				}
				if err := k.put(e.store, hash); err == nil {
					t.Errorf("put again under its hash: got nil, want an error")
				}
				if err := k.spend(e.store, hash); err != nil {
					t.Errorf("spent as its own kind: got %v", err)
				}
				if item := e.item(t, k.key(hash)); item != nil {
					t.Errorf("after its spend, item %v, want none", item)
				}
				if err := k.spend(e.store, hash); code(err) != booking.NotFound {
					t.Errorf("spent again: got %v, want NOT_FOUND", err)
				}
			})
		}
	})
}

// TestOldInboxEmailTokenSignsNobodyIn, on both engines: a new inbox
// address's token stored as the sign-in token it was before those had a
// key of their own (with new_email) is not spent as a sign-in token, and
// stays.
func TestOldInboxEmailTokenSignsNobodyIn(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := context.Background()
		hash := booking.WebTokenHash("a confirmation stored as a sign-in token")
		key := itemKey{"SIGNIN#" + hash, "SIGNIN"}
		_, err := e.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(e.table), Item: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: key.pk}, "sk": &types.AttributeValueMemberS{Value: key.sk},
			"slug":       &types.AttributeValueMemberS{Value: slug},
			"email_hash": &types.AttributeValueMemberS{Value: booking.EmailHash("office@example.com")},
			"new_email":  &types.AttributeValueMemberS{Value: "new@example.com"},
			"expires_at": &types.AttributeValueMemberN{Value: "9999999999"},
		}})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := e.store.SpendSignInToken(ctx, hash, now); code(err) != booking.NotFound {
			t.Errorf("SpendSignInToken() = %+v, %v, want NOT_FOUND", got, err)
		}
		if e.item(t, key) == nil {
			t.Error("the refused spend deleted it")
		}
	})
}
