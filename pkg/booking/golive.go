package booking

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Going live: a business starts in preview (its requests reach the
// preview inbox, its deposit is simulated) and goes live when its owner
// asks and its checklist holds. Where the stack wants the operator to
// approve new businesses (ApprovalOperator), asking marks the business as
// waiting and tells the operator (OperatorNotices); the operator approves
// it with ctl. The owner goes back to preview, or pauses, at any time.

// The ways a stack approves a business's going live (Config.NewBusinessApproval).
const (
	// ApprovalOperator: the operator approves each business's first
	// going live (ctl businesses approve); the default on AWS.
	ApprovalOperator = "operator"
	// ApprovalAuto: the business goes live when its checklist holds (the
	// local server).
	ApprovalAuto = "auto"
)

// OperatorNotices tells the operator what needs them. pkg/snsnotice
// publishes to the stack's operator topic.
type OperatorNotices interface {
	// AskApproval tells the operator that b (as stored, waiting) asks to
	// go live.
	AskApproval(ctx context.Context, b *Business) error
}

// lifeSettings are the business's private state of its life on Doorstep
// (Private embeds them), kept apart so that other private settings merge
// cleanly.
type lifeSettings struct {
	// Approved: the operator let the business go live (ctl businesses
	// approve, or a file that loaded it live). Once approved, the owner
	// goes live again without asking.
	Approved bool `json:"approved,omitempty"`
	// ApprovalAsked is when the owner asked to go live on a stack where
	// the operator approves, until the operator does or the owner goes
	// back to preview: the business is waiting (ctl businesses list
	// --pending).
	ApprovalAsked *time.Time `json:"approval_asked,omitempty"`
	// Suspended: the operator stopped the business (ctl businesses
	// suspend). It takes no requests, and its inbox is read-only.
	Suspended bool `json:"suspended,omitempty"`
	// Changes are the last MaxChanges changes to the record, oldest
	// first: who, when, which fields (recordChange).
	Changes []Change `json:"changes,omitempty"`
}

// Waiting reports whether b waits for the operator's approval.
func (b *Business) Waiting() bool { return b.ApprovalAsked != nil && !b.Approved }

// TakesRequests reports whether b takes online requests now: accepting
// them, and not suspended by the operator.
func (b *Business) TakesRequests() bool { return b.AcceptingRequests && !b.Suspended }

// ChecklistItem is one thing a business needs before it goes live.
type ChecklistItem struct {
	// Key names the item: "email", "mobile", "service", "zip", "hours",
	// "details" (the public phone, city and state).
	Key  string
	Done bool
}

// Checklist returns what b needs to go live, in the order the inbox shows
// it. The e-mail is confirmed when the business has an inbox_email: the
// only way into the inbox is a link sent to it (or a token the operator
// gave), so an owner who sees the checklist has used the address.
func (b *Business) Checklist() []ChecklistItem {
	open := false
	for _, day := range b.Hours.days() {
		for _, iv := range *day {
			if iv.Open < iv.Close || iv.Close == "24:00" {
				open = true
			}
		}
	}
	return []ChecklistItem{
		{Key: "email", Done: b.InboxEmail != ""},
		{Key: "mobile", Done: b.OwnerPhone != ""},
		{Key: "service", Done: len(b.Services) > 0},
		{Key: "zip", Done: len(b.ServiceArea.ZIPCodes) > 0},
		{Key: "hours", Done: open},
		// A signed-up business starts without them (Business.SettingUp);
		// a live one must have them (Validate).
		{Key: "details", Done: b.Phone != "" && b.City != "" && b.State != ""},
	}
}

// Ready reports whether every item of b's checklist holds; missing names
// the items that do not.
func (b *Business) Ready() (ok bool, missing []string) {
	for _, it := range b.Checklist() {
		if !it.Done {
			missing = append(missing, it.Key)
		}
	}
	return len(missing) == 0, missing
}

// requestItems are the checklist items a business needs before it takes
// requests, live or in preview (RequestsMissing).
var requestItems = []string{"service", "zip", "details"}

// RequestsMissing names the items of b's checklist (ChecklistItem.Key)
// that a business needs before it takes requests, live or in preview,
// and b lacks: a service, a ZIP code, its public phone, city and state.
// A business being set up (SettingUp) may lack them; Validate refuses any
// other business that does, so a business lacking one neither resumes
// its requests (SetAcceptingRequests) nor goes live.
func (b *Business) RequestsMissing() []string {
	var missing []string
	for _, it := range b.Checklist() {
		if !it.Done && slices.Contains(requestItems, it.Key) {
			missing = append(missing, it.Key)
		}
	}
	return missing
}

// LiveState is where a business stands on its way to live.
type LiveState string

// The states of LiveState.
const (
	StatePreview   LiveState = "preview"   // not published
	StateWaiting   LiveState = "waiting"   // asked to go live; the operator approves
	StateLive      LiveState = "live"      // published
	StateSuspended LiveState = "suspended" // stopped by the operator
)

// LiveState returns where b stands.
func (b *Business) LiveState() LiveState {
	switch {
	case b.Suspended:
		return StateSuspended
	case !b.Preview:
		return StateLive
	case b.Waiting():
		return StateWaiting
	}
	return StatePreview
}

// GoLive publishes the business: preview false, accepting requests, its
// deposit (if the operator set one) no longer simulated. Every checklist
// item must hold, checked on the record as stored inside the conditional
// update; otherwise INVALID_REQUEST naming what is missing, and nothing
// is stored. On a stack where the operator approves
// (ApprovalOperator) and has not yet approved this business, the business
// is marked as waiting instead, and the operator is told (OperatorNotices);
// it stays in preview. It returns the business as stored after.
func (in *Inbox) GoLive(ctx context.Context) (*Business, error) {
	s := in.s
	now := s.now()
	var after *Business
	err := s.store.UpdateBusiness(ctx, in.b.Slug, func(stored *Business) (*Business, error) {
		if stored == nil {
			return nil, Errorf(NotFound, "no business has the slug %s", excerpt(in.b.Slug))
		}
		if ok, missing := stored.Ready(); !ok {
			return nil, Errorf(InvalidRequest, "not ready to go live: missing %s", strings.Join(missing, ", "))
		}
		changed := *stored
		switch {
		case !stored.Preview:
			// Live already: only accepting requests again.
			changed.AcceptingRequests = true
		case s.approval == ApprovalOperator && !stored.Approved:
			at := now.UTC()
			changed.ApprovalAsked = &at
		default:
			publish(&changed)
		}
		if err := changed.validate(); err != nil {
			return nil, Errorf(InvalidRequest, "%v", err)
		}
		after = &changed
		return after, nil
	})
	if err != nil {
		return nil, err
	}
	if after.Waiting() && s.operator != nil {
		if err := s.operator.AskApproval(ctx, after); err != nil {
			// The business waits all the same (ctl businesses list
			// --pending shows it); asking again tells the operator again.
			return after, fmt.Errorf("telling the operator: %w", err)
		}
	}
	return after, nil
}

// publish makes b live: the record the operator's approval or the owner's
// going live stores.
func publish(b *Business) {
	b.Preview = false
	b.AcceptingRequests = true
	b.ApprovalAsked = nil
	b.setDepositSimulated(false)
}

// setDepositSimulated keeps the deposit's simulated flag equal to preview
// (Validate wants it so): it follows preview, and is not the owner's to
// set otherwise.
func (b *Business) setDepositSimulated(on bool) {
	if b.BookingDeposit != nil && b.BookingDeposit.Simulated != on {
		d := *b.BookingDeposit
		d.Simulated = on
		b.BookingDeposit = &d
	}
}

// BackToPreview unpublishes the business: preview true (its requests go to
// the preview inbox, its deposit is simulated), and no longer waiting for
// the operator. Whether it accepts requests stays as it was. It returns
// the business as stored after.
func (in *Inbox) BackToPreview(ctx context.Context) (*Business, error) {
	return in.s.changeBusiness(ctx, in.b.Slug, func(changed *Business) error {
		changed.Preview = true
		changed.ApprovalAsked = nil
		changed.setDepositSimulated(true)
		return nil
	})
}

// OperatorFields are the fields of a business record that are the
// operator's, not the owner's: no owner path changes them (ownerWrites
// refuses), and ctl load changes only them on a business that exists.
// Every other field is the owner's. (The deposit's simulated flag follows
// preview, which is the owner's.)
var OperatorFields = []string{"example", "booking_deposit", "requests_per_hour", "max_unanswered", "approved", "suspended"}

// MaxChanges is how many changes a business record keeps (Changes).
const MaxChanges = 20

// Change is one change to a business record: who made it (the owner's
// e-mail address, or ByOperator), when, and the fields it changed.
type Change struct {
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Fields []string  `json:"fields"`
}

// ByOperator is Change.By of the operator's changes.
const ByOperator = "operator"

// untracked are the fields a change leaves out of its list: the history
// itself, and what the store keeps by itself.
var untracked = map[string]bool{"changes": true, "crews_ever": true}

// ChangedFields returns the top-level fields of the business record
// (EncodeBusinessRecord's keys) whose values differ between before and
// after, sorted; before nil is a new record (every field after has).
// The deposit's simulated flag is not a change of the deposit (it follows
// preview).
func ChangedFields(before, after *Business) []string {
	fields := func(b *Business) map[string]string {
		if b == nil {
			return nil
		}
		c := *b
		if c.BookingDeposit != nil {
			d := *c.BookingDeposit
			d.Simulated = false
			c.BookingDeposit = &d
		}
		return recordFields(&c)
	}
	was, is := fields(before), fields(after)
	var changed []string
	for k, v := range is {
		if !untracked[k] && was[k] != v {
			changed = append(changed, k)
		}
	}
	for k := range was {
		if _, ok := is[k]; !ok && !untracked[k] {
			changed = append(changed, k)
		}
	}
	slices.Sort(changed)
	return changed
}

// RecordChange returns after with the change from before to after
// appended to its history (by, at, ChangedFields), keeping the last
// MaxChanges. after's history is copied, never shared with before's.
func RecordChange(before, after *Business, by string, at time.Time) *Business {
	fields := ChangedFields(before, after)
	c := *after
	var kept []Change
	if before != nil {
		kept = before.Changes
	}
	if len(fields) == 0 {
		c.Changes = append([]Change(nil), kept...)
		return &c
	}
	all := append(append(make([]Change, 0, len(kept)+1), kept...), Change{At: at.UTC(), By: by, Fields: fields})
	if len(all) > MaxChanges {
		all = all[len(all)-MaxChanges:]
	}
	c.Changes = all
	return &c
}

// errSuspended is the refusal of an owner's change on a suspended
// business: its inbox is read-only.
func errSuspended(b *Business) error {
	return Errorf(BookingPaused, "Doorstep's operator has suspended %s: its inbox is read-only (you can read it; nothing can be changed) until the operator lifts it", b.Name)
}

// ownerWrites is the store as the domain writes to it: every change to a
// business record goes through its UpdateBusiness, which refuses a change
// to a suspended business or to an operator's field (OperatorFields), and
// records the change in the record's history as the owner's (its inbox
// e-mail). A change the domain makes is the owner's: the operator's go
// through OperatorUpdate.
type ownerWrites struct {
	Store
	now func() time.Time
}

func (o ownerWrites) UpdateBusiness(ctx context.Context, slug string, change func(stored *Business) (*Business, error)) error {
	return o.Store.UpdateBusiness(ctx, slug, o.owned(change))
}

// UpdateBusinessAt is UpdateBusiness for the offer's sections (a change of
// window length is decided at now), with the same refusals and history.
func (o ownerWrites) UpdateBusinessAt(ctx context.Context, slug string, now time.Time, change func(stored *Business) (*Business, error)) error {
	return o.Store.UpdateBusinessAt(ctx, slug, now, o.owned(change))
}

// owned wraps a change of the owner's: refused on a suspended business or
// when it touches an operator's field, and recorded in the history.
func (o ownerWrites) owned(change func(stored *Business) (*Business, error)) func(stored *Business) (*Business, error) {
	return func(stored *Business) (*Business, error) {
		if stored != nil && stored.Suspended {
			return nil, errSuspended(stored)
		}
		after, err := change(stored)
		if err != nil || after == nil {
			return after, err
		}
		for _, f := range ChangedFields(stored, after) {
			if isOperatorField(f) && (stored != nil || !isZeroField(after, f)) {
				return nil, Errorf(InvalidRequest, "%s: only Doorstep's operator changes it; ask them", f)
			}
		}
		by := after.InboxEmail
		if by == "" {
			by = "owner"
		}
		return RecordChange(stored, after, by, o.now()), nil
	}
}

func isOperatorField(f string) bool { return slices.Contains(OperatorFields, f) }

// isZeroField reports whether field f of b is absent or its zero value,
// as the record encodes it.
func isZeroField(b *Business, f string) bool {
	v, ok := recordFields(b)[f]
	return !ok || v == "false" || v == "null" || v == "0"
}

// UpdateStore is what OperatorUpdate needs of a store.
type UpdateStore interface {
	UpdateBusiness(ctx context.Context, slug string, change func(stored *Business) (*Business, error)) error
}

// OperatorUpdate is the operator's change to a business record (ctl): the
// store's conditional UpdateBusiness (on the record as read; a change in
// between fails it with ErrBusinessChanged, and nothing is stored), with
// the change recorded in the record's history as ByOperator's at now.
// change may change any field; it returns nil, nil to store nothing.
func OperatorUpdate(ctx context.Context, store UpdateStore, slug string, now time.Time, change func(stored *Business) (*Business, error)) error {
	return store.UpdateBusiness(ctx, slug, func(stored *Business) (*Business, error) {
		after, err := change(stored)
		if err != nil || after == nil {
			return after, err
		}
		return RecordChange(stored, after, ByOperator, now), nil
	})
}

// Approve is the operator's approval of b (as stored), which it changes:
// approved, and published when the owner asked to go live and the
// checklist still holds (published true); when it no longer holds, the
// ask is dropped and missing names what is missing: the owner goes live
// from the inbox once it holds, without asking again.
func Approve(b *Business) (published bool, missing []string) {
	b.Approved = true
	if b.ApprovalAsked == nil {
		return false, nil
	}
	if ok, missing := b.Ready(); !ok {
		b.ApprovalAsked = nil
		return false, missing
	}
	publish(b)
	return true, nil
}

// recordFields is b's record (EncodeBusinessRecord) by top-level field,
// each value as its JSON.
func recordFields(b *Business) map[string]string {
	doc, err := EncodeBusinessRecord(b)
	if err != nil {
		return nil // plain values: never fails
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(doc, &raw); err != nil {
		return nil
	}
	m := make(map[string]string, len(raw))
	for k, v := range raw {
		m[k] = string(v)
	}
	return m
}
