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
	pos, err := parseCommand(newFlagSet("mint-token"), mintTokenSynopsis, args, "SLUG")
	if err != nil {
		return err
	}
	store, err := c.open(ctx)
	if err != nil {
		return err
	}
	b, err := lookupBusiness(ctx, store, pos[0])
	if err != nil {
		return err
	}
	var token string
	var replaced bool
	// Stored only if the record is still the one read: a change made in
	// between makes this fail, never undone.
	err = store.UpdateBusiness(ctx, b.Slug, func(stored *booking.Business) (*booking.Business, error) {
		if stored == nil {
			return nil, booking.Errorf(booking.NotFound, "no business has the slug %q", b.Slug)
		}
		replaced = stored.InboxTokenSHA256 != ""
		token, stored.InboxTokenSHA256 = booking.NewInboxToken(stored.Slug)
		return stored, nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "New inbox token of %s, printed once: it is not stored (only its SHA-256 is) and cannot be shown again.\n", b.Slug)
	if replaced {
		fmt.Fprintln(c.stderr, "The business's previous inbox token has stopped working.")
	}
	fmt.Fprintln(c.stdout, token)
	return nil
}

// mintFeedToken makes a new calendar feed token for the business, as
// mintToken does an inbox token: printed once, alone on standard output,
// with the feed's address on standard error; only its SHA-256 is stored,
// and the previous token (the calendars subscribed with it) stops working.
func (c *ctl) mintFeedToken(ctx context.Context, args []string) error {
	pos, err := parseCommand(newFlagSet("mint-feed-token"), mintFeedSynopsis, args, "SLUG")
	if err != nil {
		return err
	}
	store, err := c.open(ctx)
	if err != nil {
		return err
	}
	b, err := lookupBusiness(ctx, store, pos[0])
	if err != nil {
		return err
	}
	var token string
	var replaced bool
	err = store.UpdateBusiness(ctx, b.Slug, func(stored *booking.Business) (*booking.Business, error) {
		if stored == nil {
			return nil, booking.Errorf(booking.NotFound, "no business has the slug %q", b.Slug)
		}
		replaced = stored.FeedTokenSHA256 != ""
		token, stored.FeedTokenSHA256 = booking.NewFeedToken(stored.Slug)
		return stored, nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "New calendar feed token of %s, printed once: it is not stored (only its SHA-256 is) and cannot be shown again.\n", b.Slug)
	fmt.Fprintln(c.stderr, "The feed's address: {SITE_URL}/calendar/<token>.ics")
	if replaced {
		fmt.Fprintln(c.stderr, "The business's previous calendar feed token has stopped working.")
	}
	fmt.Fprintln(c.stdout, token)
	return nil
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
