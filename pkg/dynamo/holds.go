package dynamo

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// HeldWindows returns the start instants, in UTC, of the windows of the
// business starting in [from, to) that a hold covers at now: one for each
// live hold, so a window with two crews out appears twice.
func (s *Store) HeldWindows(ctx context.Context, slug string, from, to, now time.Time) ([]time.Time, error) {
	// Hold keys have whole seconds: the first one in range is at or after
	// from rounded up, the last one before to rounded up. "#~" sorts after
	// the "#<slot>" of every slot of the last window.
	first, last := ceilSecond(from), ceilSecond(to).Add(-time.Second)
	if last.Before(first) {
		return nil, nil // BETWEEN refuses a range whose ends are reversed
	}
	var held []time.Time
	err := s.queryHolds(ctx, slug, "sk BETWEEN :first AND :last", map[string]types.AttributeValue{
		":first": str(holdSK(first, 0)),
		":last":  str(holdSK(last, 0) + "#~"),
	}, func(start time.Time, _ int, _ string, expires int64) {
		if expires > now.Unix() {
			held = append(held, start)
		}
	})
	return held, err
}

// queryHolds calls fn with the window start, the slot, the request code and
// the expiry (Unix seconds) of each hold of the business whose sort key
// meets the condition on sk, lapsed or not: a hold lapsed at now is absent
// to every condition, but a move still deletes its own.
func (s *Store) queryHolds(ctx context.Context, slug, skCondition string, values map[string]types.AttributeValue,
	fn func(start time.Time, slot int, code string, expires int64)) error {
	values[":pk"] = str(businessPK(slug))
	p := dynamodb.NewQueryPaginator(s.client.Query, &dynamodb.QueryInput{
		TableName:                 s.table,
		KeyConditionExpression:    aws.String("pk = :pk AND " + skCondition),
		ExpressionAttributeValues: values,
		ProjectionExpression:      aws.String(attrSK + ", " + attrRequestCode + ", " + attrExpiresAt),
		ConsistentRead:            aws.Bool(true),
		Limit:                     s.limit(),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("query holds of %q: %w", slug, err)
		}
		for _, item := range page.Items {
			sk, _ := item[attrSK].(*types.AttributeValueMemberS)
			if sk == nil {
				return fmt.Errorf("hold of %q without %s", slug, attrSK)
			}
			start, slot, ok := parseHoldSK(sk.Value)
			if !ok {
				return fmt.Errorf("hold of %q: bad sort key %q", slug, sk.Value)
			}
			code, _ := item[attrRequestCode].(*types.AttributeValueMemberS)
			if code == nil {
				return fmt.Errorf("hold %q of %q without %s", sk.Value, slug, attrRequestCode)
			}
			expires, err := unixAttr(item, attrExpiresAt)
			if err != nil {
				return fmt.Errorf("hold %q of %q: %w", sk.Value, slug, err)
			}
			fn(start, slot, code.Value, expires)
		}
	}
	return nil
}

// slotHold is the hold on one slot of a window.
type slotHold struct {
	code    string // the request's
	expires int64  // Unix seconds
}

// windowHolds returns the holds on the window of the business starting at
// start, lapsed or not, by slot.
func (s *Store) windowHolds(ctx context.Context, slug string, start time.Time) (map[int]slotHold, error) {
	holds := map[int]slotHold{}
	err := s.queryHolds(ctx, slug, "begins_with(sk, :window)", map[string]types.AttributeValue{
		":window": str(holdSK(start, 0)),
	}, func(_ time.Time, slot int, code string, expires int64) {
		holds[slot] = slotHold{code, expires}
	})
	return holds, err
}

// holdChoice is how a create or a move takes a hold on a window: the slot
// it puts its hold on, and the other slots that must stay free for the
// window to hold at most crews.PerWindow requests after it (see
// booking.Crews). Each is taken, or checked, on the condition that no live
// hold is on it: those conditions decide, never the read that chose them.
type holdChoice struct {
	slot     int
	keepFree []int
	// room says the read found room; false when the window was full (the
	// take is then sent all the same, so that it fails at its place in
	// the transaction's order) or when there was no read (one crew).
	room bool
}

// chooseHold reads the holds of the window of r and chooses how to take
// one on it with crews. A window with one crew, ever, has one slot and
// needs no read.
func (s *Store) chooseHold(ctx context.Context, r booking.Request, crews booking.Crews, now time.Time) (holdChoice, error) {
	if crews.PerWindow < 1 || crews.Ever < crews.PerWindow || crews.Ever > booking.MaxCrews {
		return holdChoice{}, fmt.Errorf("hold a window of %q: bad crews %+v", r.BusinessSlug, crews)
	}
	if crews.Ever == 1 {
		return holdChoice{}, nil
	}
	held, err := s.windowHolds(ctx, r.BusinessSlug, r.Window.Start)
	if err != nil {
		return holdChoice{}, err
	}
	var free, taken []int
	for i := range crews.Ever {
		if h, ok := held[i]; ok && h.expires > now.Unix() {
			taken = append(taken, i)
		} else {
			free = append(free, i)
		}
	}
	// Creates at once try different free slots; when too few are free, the
	// live holds that lapse first make up the rest.
	rand.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	slices.SortFunc(taken, func(i, j int) int { return cmp.Compare(held[i].expires, held[j].expires) })
	need := crews.Ever - crews.PerWindow + 1 // the slot taken and those kept free
	slots := append(free, taken...)[:need]
	return holdChoice{slot: slots[0], keepFree: slots[1:], room: len(free) >= need}, nil
}

// holdSteps take a hold as choice says, for a create or a window move: the
// put of the hold of r on its window's slot and the checks of the slots it
// keeps free, each on the condition that no live hold is there. One that
// fails after the read found room was taken since: run again; when the
// read found the window full, it is taken. stuck answers them still
// failing after the last attempt.
func (s *Store) holdSteps(r booking.Request, choice holdChoice, now time.Time, stuck func(context.Context, failure) error) []step {
	pk := businessPK(r.BusinessSlug)
	free := aws.String("attribute_not_exists(pk) OR expires_at <= :now")
	nowValue := map[string]types.AttributeValue{":now": unix(now)}
	failed := staleOr(choice.room, errWindowTaken)
	hold := keyMap(pk, holdSK(r.Window.Start, choice.slot))
	hold[attrRequestCode] = str(r.Code)
	hold[attrExpiresAt] = unix(r.HoldUntil())
	steps := []step{{
		item: types.TransactWriteItem{Put: &types.Put{
			TableName: s.table, Item: hold, ConditionExpression: free, ExpressionAttributeValues: nowValue,
		}},
		failed: failed, stuck: stuck,
	}}
	for _, slot := range choice.keepFree {
		steps = append(steps, step{
			item: types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
				TableName: s.table, Key: keyMap(pk, holdSK(r.Window.Start, slot)), ConditionExpression: free, ExpressionAttributeValues: nowValue,
			}},
			failed: failed, stuck: stuck,
		})
	}
	return steps
}

// A hold is taken on a window length: every create and window move
// counts its hold on the business's open count item (skOpen: a create
// writes it anyway), on the condition that the window length there is
// its window's (or that there is none yet). A change of the window length
// (Store.UpdateBusinessAt) conditions its write on that count being the
// one it read before it read the holds: the change and a hold taken on
// the length before it never both pass. See README.md ("Window length").
const (
	takeSet        = "takes = if_not_exists(takes, :zero) + :one"
	sameWindowCond = "(attribute_not_exists(window_minutes) OR window_minutes = :m)"
)

// windowMinutes is the length of r's window, in minutes.
func windowMinutes(r booking.Request) int64 {
	return int64(r.Window.End.Sub(r.Window.Start) / time.Minute)
}

// takeOn adds the count of a hold of r, and its condition, to an update
// of the open count item.
func takeOn(u *types.Update, r booking.Request) {
	u.UpdateExpression = aws.String(*u.UpdateExpression + ", " + takeSet)
	cond := sameWindowCond
	if u.ConditionExpression != nil {
		cond = "(" + *u.ConditionExpression + ") AND " + cond
	}
	u.ConditionExpression = aws.String(cond)
	if u.ExpressionAttributeValues == nil {
		u.ExpressionAttributeValues = map[string]types.AttributeValue{}
	}
	u.ExpressionAttributeValues[":zero"] = num(0)
	u.ExpressionAttributeValues[":one"] = num(1)
	u.ExpressionAttributeValues[":m"] = num(windowMinutes(r))
	u.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
}

// takeStep counts a hold of r alone, for a move that changes no count.
func (s *Store) takeStep(r booking.Request) step {
	u := &types.Update{
		TableName:           s.table,
		Key:                 keyMap(businessPK(r.BusinessSlug), skOpen),
		UpdateExpression:    aws.String("SET " + takeSet),
		ConditionExpression: aws.String(sameWindowCond),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":zero": num(0), ":one": num(1), ":m": num(windowMinutes(r)),
		},
	}
	return step{item: types.TransactWriteItem{Update: u}, failed: refuse(errWindowLength)}
}

// orWindowLength answers a failed condition of an open count item that
// counts a hold of r: errWindowLength when the window length there is
// another (from the item the failure returned, or read again on an engine
// that returns none), else otherwise's answer.
func (s *Store) orWindowLength(r booking.Request, otherwise func(context.Context, failure) error) func(context.Context, failure) error {
	return func(ctx context.Context, f failure) error {
		item := f.old
		if item == nil {
			var err error
			if item, err = s.get(ctx, businessPK(r.BusinessSlug), skOpen); err != nil {
				return err
			}
		}
		if m, ok := item[attrWindowMinutes].(*types.AttributeValueMemberN); ok && m.Value != strconv.FormatInt(windowMinutes(r), 10) {
			return errWindowLength
		}
		return otherwise(ctx, f)
	}
}

// errWindowLength: the business changed its window length since the
// window was listed.
var errWindowLength = booking.Errorf(booking.InvalidWindow, "this business changed the length of its arrival windows; list the windows again")

// takenIfConflicted is a create's answer to its hold still failing after
// the last attempt, by conflicts or by holds taken since each read: a
// window that others keep writing is taken.
func takenIfConflicted(_ context.Context, f failure) error {
	if f.code == reasonTransactionConflict || f.code == reasonConditionalCheckFailed {
		return errWindowTaken
	}
	return nil
}

// heldSlot returns the slot of the window of r whose hold names r, lapsed
// or not, or -1 when none does.
func (s *Store) heldSlot(ctx context.Context, r booking.Request) (int, error) {
	held, err := s.windowHolds(ctx, r.BusinessSlug, r.Window.Start)
	if err != nil {
		return 0, err
	}
	for slot, h := range held {
		if h.code == r.Code {
			return slot, nil
		}
	}
	return -1, nil
}
