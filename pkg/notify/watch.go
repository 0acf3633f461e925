package notify

import (
	"context"
	"log/slog"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Notifying returns store with n.Notify called after each request write
// that commits: a create, and a move; and n.LimitReached after the first
// record of a limit hit in an hour (RecordLimitHit's first). It stands in for the table's stream
// where there is none (the local server on minidyn): it sees each request
// as it was written, which is what the stream's images carry, and only
// writes that succeeded, as the stream does. A failure to notify is logged,
// never returned: the write it follows stands. Unlike the stream, nothing
// retries it.
func Notifying(store booking.Store, n *Notifier, log *slog.Logger) booking.Store {
	return notifyingStore{Store: store, n: n, log: log}
}

type notifyingStore struct {
	booking.Store
	n   *Notifier
	log *slog.Logger
}

func (s notifyingStore) CreateRequest(ctx context.Context, r booking.Request, key *booking.IdempotencyRecord, limits booking.Limits, now time.Time) error {
	if err := s.Store.CreateRequest(ctx, r, key, limits, now); err != nil {
		return err
	}
	s.notify(ctx, nil, r)
	return nil
}

func (s notifyingStore) MoveRequest(ctx context.Context, before, after booking.Request, t booking.Transition, crews booking.Crews, now time.Time) error {
	if err := s.Store.MoveRequest(ctx, before, after, t, crews, now); err != nil {
		return err
	}
	s.notify(ctx, &before, after)
	return nil
}

func (s notifyingStore) RecordReminder(ctx context.Context, before, after booking.Request) error {
	if err := s.Store.RecordReminder(ctx, before, after); err != nil {
		return err
	}
	s.notify(ctx, &before, after)
	return nil
}

func (s notifyingStore) ChangeContact(ctx context.Context, before, after booking.Request, now time.Time) error {
	if err := s.Store.ChangeContact(ctx, before, after, now); err != nil {
		return err
	}
	s.notify(ctx, &before, after)
	return nil
}

func (s notifyingStore) RecordLimitHit(ctx context.Context, slug string, now time.Time) (bool, error) {
	first, err := s.Store.RecordLimitHit(ctx, slug, now)
	if err != nil || !first {
		return first, err
	}
	// As on the stream, only the record's insert tells the business.
	if err := s.n.LimitReached(context.WithoutCancel(ctx), slug, now); err != nil {
		s.log.Error("notify: the limit hit's message did not go out", "business", slug, "error", err)
	}
	return first, nil
}

func (s notifyingStore) notify(ctx context.Context, before *booking.Request, after booking.Request) {
	// The caller may hang up once its write is done; the messages go out.
	if err := s.n.Notify(context.WithoutCancel(ctx), before, after); err != nil {
		s.log.Error("notify: not every message went out", "request", booking.LogRef(after.Code), "error", err)
	}
}
