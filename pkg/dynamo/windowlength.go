package dynamo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// UpdateBusinessAt is UpdateBusiness, and a change of the window length
// only while no request holds a window at now or later: see
// booking.Store and README.md ("Window length"). A hold taken between its
// read of the holds and its write makes the write fail; it then reads
// again, a few times, before it gives up as contended.
func (s *Store) UpdateBusinessAt(ctx context.Context, slug string, now time.Time, change func(stored *booking.Business) (*booking.Business, error)) error {
	var err error
	for range windowChangeAttempts {
		if err = s.updateBusiness(ctx, slug, &now, change); !errors.Is(err, errHoldTaken) {
			return err
		}
	}
	return fmt.Errorf("put business %q: windows kept being taken while the window length changed: %w", slug, booking.ErrLiveRequestsAhead)
}

// windowChangeAttempts is how many times UpdateBusinessAt tries a change
// of window length that a hold taken meanwhile made fail.
const windowChangeAttempts = 4

// errHoldTaken: a hold was taken between a window-length change's read of
// the holds and its write.
var errHoldTaken = errors.New("a window hold was taken meanwhile")

// liveAheadSince is how far before now a hold's window may start and it
// still be live: the longest window the loader takes (720 minutes), and
// more.
const liveAheadSince = 24 * time.Hour

// holdsLiveAt reports whether any hold of the business is live at now (its
// expires_at after now: a hold lasts at most to its window's end).
func (s *Store) holdsLiveAt(ctx context.Context, slug string, now time.Time) (bool, error) {
	live := false
	// Strongly consistent: a hold whose transaction counted on OPEN before
	// the count was read must be seen here, or the count's condition
	// would pass over it.
	err := s.queryHolds(ctx, slug, true, "sk BETWEEN :first AND :last", map[string]types.AttributeValue{
		":first": str(holdSK(now.Add(-liveAheadSince).Truncate(time.Second), 0)),
		":last":  str(prefixHold + "~"),
	}, func(_ time.Time, _ int, _ string, expires int64) {
		if expires > now.Unix() {
			live = true
		}
	})
	return live, err
}

// windowsItem is the update of the business's open count item that goes
// with a change of its window length to minutes: the length holds are
// taken on from then (takeOn). With takes (the count read before the read of
// the holds), only while no hold was taken since: see README.md.
func (s *Store) windowsItem(slug string, minutes int, takes *int64) types.TransactWriteItem {
	u := &types.Update{
		TableName:                 s.table,
		Key:                       keyMap(businessPK(slug), skOpen),
		UpdateExpression:          aws.String("SET window_minutes = :m"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":m": num(int64(minutes))},
	}
	switch {
	case takes == nil:
	case *takes == 0:
		u.ConditionExpression = aws.String("attribute_not_exists(takes) OR takes = :zero")
		u.ExpressionAttributeValues[":zero"] = num(0)
	default:
		u.ConditionExpression = aws.String("takes = :takes")
		u.ExpressionAttributeValues[":takes"] = num(*takes)
	}
	return types.TransactWriteItem{Update: u}
}

// windowTakes is how many holds were ever counted on the business's open
// count item (0 with none), read consistently.
func (s *Store) windowTakes(ctx context.Context, slug string) (int64, error) {
	item, err := s.get(ctx, businessPK(slug), skOpen)
	if err != nil || item == nil {
		return 0, err
	}
	if _, ok := item[attrTakes]; !ok {
		return 0, nil
	}
	return unixAttr(item, attrTakes)
}
