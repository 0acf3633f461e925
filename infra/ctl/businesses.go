package main

import (
	"context"
	"fmt"
	"os"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

const (
	loadSynopsis        = "load FILE"
	mintTokenSynopsis   = "mint-token SLUG"
	mintFeedSynopsis    = "mint-feed-token SLUG"
	createTableSynopsis = "create-table"
)

// load checks the whole business file before it stores anything, so that a
// mistake in the tenth record leaves the table as it was, not half loaded.
func (c *ctl) load(ctx context.Context, args []string) error {
	pos, err := parseCommand(newFlagSet("load"), loadSynopsis, args, "FILE")
	if err != nil {
		return err
	}
	path := pos[0]
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	businesses, err := booking.LoadBusinesses(f)
	if err != nil {
		return fmt.Errorf("%s: %w (nothing was stored)", path, err)
	}
	if len(businesses) == 0 {
		return fmt.Errorf("%s holds no business", path)
	}
	store, err := c.open(ctx)
	if err != nil {
		return err
	}
	for _, b := range businesses {
		var note string
		err := store.UpdateBusiness(ctx, b.Slug, func(stored *booking.Business) (*booking.Business, error) {
			note = keepInboxToken(stored, b)
			if stored != nil && b.FeedTokenSHA256 == "" {
				// Likewise the calendar feed's (mint-feed-token): the
				// business's subscribed calendars keep working.
				b.FeedTokenSHA256 = stored.FeedTokenSHA256
			}
			return b, nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "stored %s: %s\n", b.Slug, note)
	}
	return nil
}

// keepInboxToken gives b the inbox token hash of the stored record when the
// file gives none: the file is the business's public record, written by
// hand, and the hash is made by mint-token, so a file without it means "no
// change", not "lock the business out". It returns what became of the
// token, for the operator. UpdateBusiness stores b only if the stored
// record is still the one read, so a token minted meanwhile is not undone.
func keepInboxToken(stored, b *booking.Business) string {
	switch {
	case stored == nil && b.InboxTokenSHA256 == "":
		return "new business; no inbox token yet (ctl mint-token " + b.Slug + ")"
	case stored == nil:
		return "new business; inbox token hash from the file"
	case b.InboxTokenSHA256 != "":
		return "replaced; inbox token hash from the file"
	case stored.InboxTokenSHA256 != "":
		b.InboxTokenSHA256 = stored.InboxTokenSHA256
		return "replaced; kept its inbox token"
	}
	return "replaced; no inbox token yet (ctl mint-token " + b.Slug + ")"
}

// mintToken prints the token alone on standard output, so that
// TOKEN=$(ctl mint-token SLUG) keeps it and nothing else, and says on
// standard error what the operator must know.
func (c *ctl) mintToken(ctx context.Context, args []string) error {
	slug, replaced, err := c.replaceToken(ctx, "mint-token", mintTokenSynopsis, args, func(b *booking.Business) *string { return &b.InboxTokenSHA256 }, booking.NewInboxToken)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "New inbox token of %s, printed once: it is not stored (only its SHA-256 is) and cannot be shown again.\n", slug)
	if replaced {
		fmt.Fprintln(c.stderr, "The business's previous inbox token has stopped working.")
	}
	return nil
}

// mintFeedToken makes a new calendar feed token for the business, as
// mintToken does an inbox token: printed once, alone on standard output,
// with the feed's address on standard error; only its SHA-256 is stored,
// and the previous token (the calendars subscribed with it) stops working.
func (c *ctl) mintFeedToken(ctx context.Context, args []string) error {
	slug, replaced, err := c.replaceToken(ctx, "mint-feed-token", mintFeedSynopsis, args, func(b *booking.Business) *string { return &b.FeedTokenSHA256 }, booking.NewFeedToken)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "New calendar feed token of %s, printed once: it is not stored (only its SHA-256 is) and cannot be shown again.\n", slug)
	fmt.Fprintln(c.stderr, "The feed's address: {SITE_URL}/calendar/<token>.ics")
	if replaced {
		fmt.Fprintln(c.stderr, "The business's previous calendar feed token has stopped working.")
	}
	return nil
}

// replaceToken is the work of the mint commands: it mints a token for the
// business named in args, stores its hash in the field hash points at, and
// prints the token alone on standard output. It reports whether a previous
// token was replaced. The hash is stored only if the record is still the
// one read: a change made in between makes this fail, never undone.
func (c *ctl) replaceToken(ctx context.Context, name, synopsis string, args []string, hash func(*booking.Business) *string, mint func(slug string) (token, hash string)) (slug string, replaced bool, err error) {
	pos, err := parseCommand(newFlagSet(name), synopsis, args, "SLUG")
	if err != nil {
		return "", false, err
	}
	store, err := c.open(ctx)
	if err != nil {
		return "", false, err
	}
	b, err := lookupBusiness(ctx, store, pos[0])
	if err != nil {
		return "", false, err
	}
	var token string
	err = store.UpdateBusiness(ctx, b.Slug, func(stored *booking.Business) (*booking.Business, error) {
		if stored == nil {
			return nil, booking.Errorf(booking.NotFound, "no business has the slug %q", b.Slug)
		}
		field := hash(stored)
		replaced = *field != ""
		token, *field = mint(stored.Slug)
		return stored, nil
	})
	if err != nil {
		return "", false, err
	}
	fmt.Fprintln(c.stdout, token)
	return b.Slug, replaced, nil
}

func (c *ctl) createTable(ctx context.Context, args []string) error {
	if _, err := parseCommand(newFlagSet("create-table"), createTableSynopsis, args); err != nil {
		return err
	}
	client, err := c.client(ctx)
	if err != nil {
		return err
	}
	if err := dynamo.CreateTable(ctx, client, c.table); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "table %s is ready\n", c.table)
	return nil
}
