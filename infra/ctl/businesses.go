package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

const (
	loadSynopsis        = "load FILE [--owner-fields F1,F2]"
	mintTokenSynopsis   = "mint-token SLUG"
	mintFeedSynopsis    = "mint-feed-token SLUG"
	createTableSynopsis = "create-table"
)

// load checks the whole business file before it stores anything, so that a
// mistake in the tenth record leaves the table as it was, not half loaded.
// A business not stored yet is stored as the file has it. One that is
// stored keeps its owner's fields (booking.OwnerFieldNames): load changes
// only the operator's (booking.OperatorFields), prints each owner's field
// where the file and the stored record differ, and writes those named in
// --owner-fields. Each write is conditional on the record as read
// (booking.OperatorUpdate); an owner's change in between makes it read
// again and merge again, up to loadTries times.
func (c *ctl) load(ctx context.Context, args []string) error {
	fs := newFlagSet("load")
	ownerFields := fs.String("owner-fields", "", "")
	pos, err := parseCommand(fs, loadSynopsis, args, "FILE")
	if err != nil {
		return err
	}
	var named []string
	if *ownerFields != "" {
		named = strings.Split(*ownerFields, ",")
		owners := booking.OwnerFieldNames()
		for _, f := range named {
			if !slices.Contains(owners, f) {
				return usagef(loadSynopsis, "--owner-fields: %q is not an owner's field; want some of %s, joined by commas", f, strings.Join(owners, ","))
			}
		}
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
		var diffs []booking.FieldDiff
		for try := 1; ; try++ {
			err = booking.OperatorUpdate(ctx, store, b.Slug, c.now(), func(stored *booking.Business) (*booking.Business, error) {
				note, diffs = "", nil
				if stored == nil {
					note = newNote(b)
					created := *b
					if !created.Preview {
						created.Approved = true // the operator publishes it
					}
					return &created, nil
				}
				merged, d, err := booking.MergeLoaded(stored, b, named)
				if err != nil {
					return nil, err
				}
				note, diffs = loadNote(stored, b), d
				return merged, nil
			})
			if errors.Is(err, booking.ErrBusinessChanged) && try < loadTries {
				continue // the owner changed it meanwhile: merge with that
			}
			break
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "stored %s: %s\n", b.Slug, note)
		for _, d := range diffs {
			what := "kept as stored (--owner-fields " + d.Field + " writes the file's)"
			if d.Written {
				what = "written from the file (--owner-fields)"
			}
			fmt.Fprintf(c.stdout, "  owner's field %s differs: stored %s, file %s: %s\n", d.Field, clip(d.Stored), clip(d.File), what)
		}
	}
	return nil
}

// loadTries is how many times load reads and merges a business whose
// record changed between its read and its write.
const loadTries = 5

// clip shortens a field's JSON for a line of load's report.
func clip(v string) string {
	if v == "" {
		return "(none)"
	}
	if r := []rune(v); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return v
}

// loadNote says what a load did to a stored business's operator's fields
// and tokens.
func loadNote(stored, file *booking.Business) string {
	token := "kept its inbox token"
	switch {
	case file.InboxTokenSHA256 != "":
		token = "inbox token hash from the file"
	case stored.InboxTokenSHA256 == "":
		token = "no inbox token yet (ctl mint-token " + file.Slug + ")"
	}
	return "kept the owner's fields; " + token
}

// newNote says what became of a new business's inbox token, for the
// operator.
func newNote(b *booking.Business) string {
	if b.InboxTokenSHA256 == "" {
		return "new business; no inbox token yet (ctl mint-token " + b.Slug + ")"
	}
	return "new business; inbox token hash from the file"
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
	err = booking.OperatorUpdate(ctx, store, b.Slug, c.now(), func(stored *booking.Business) (*booking.Business, error) {
		if stored == nil {
			return nil, booking.Errorf(booking.NotFound, "no business has the slug %q", b.Slug)
		}
		changed := *stored
		field := hash(&changed)
		replaced = *field != ""
		token, *field = mint(stored.Slug)
		return &changed, nil
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
