package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/doorstep/doorstep/pkg/booking"
)

const (
	listBusinessesSynopsis = "businesses list [--pending]"
	approveSynopsis        = "businesses approve SLUG"
	suspendSynopsis        = "businesses suspend SLUG"
	unsuspendSynopsis      = "businesses unsuspend SLUG"
)

// businesses runs ctl businesses SUB: the operator's part in a business's
// life (booking.OperatorFields: approval and suspension).
func (c *ctl) businesses(ctx context.Context, args []string) error {
	const want = "want list, approve, suspend or unsuspend"
	if len(args) == 0 {
		return usagef("", "businesses: %s", want)
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "list":
		return c.listBusinesses(ctx, args)
	case "approve":
		return c.operatorChange(ctx, "businesses approve", approveSynopsis, args, func(b *booking.Business) (string, error) {
			published, missing := booking.Approve(b)
			switch {
			case published:
				return "approved and live: it takes requests now", nil
			case len(missing) > 0:
				return "approved, not live: it no longer has " + strings.Join(missing, ", ") + "; the owner goes live from the inbox once it has", nil
			}
			return "approved: its owner goes live from the inbox without asking", nil
		})
	case "suspend":
		return c.operatorChange(ctx, "businesses suspend", suspendSynopsis, args, func(b *booking.Business) (string, error) {
			b.Suspended = true
			return "suspended: it takes no requests, and its inbox is read-only", nil
		})
	case "unsuspend":
		return c.operatorChange(ctx, "businesses unsuspend", unsuspendSynopsis, args, func(b *booking.Business) (string, error) {
			b.Suspended = false
			return "no longer suspended: it takes requests again if its owner has them on", nil
		})
	}
	return usagef("", "businesses: unknown command %q; %s", sub, want)
}

// operatorChange makes change to the business named in args as stored,
// with booking.OperatorUpdate (conditional on the record read, recorded
// as the operator's), and prints what it did.
func (c *ctl) operatorChange(ctx context.Context, name, synopsis string, args []string, change func(*booking.Business) (string, error)) error {
	pos, err := parseCommand(newFlagSet(name), synopsis, args, "SLUG")
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
	var note string
	err = booking.OperatorUpdate(ctx, store, b.Slug, c.now(), func(stored *booking.Business) (*booking.Business, error) {
		if stored == nil {
			return nil, booking.Errorf(booking.NotFound, "no business has the slug %q", b.Slug)
		}
		changed := *stored
		n, err := change(&changed)
		note = n
		return &changed, err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%s: %s\n", b.Slug, note)
	return nil
}

// listBusinesses prints a line per business, sorted by slug: slug, state
// (booking.LiveState), name, inbox e-mail, and since when it waits; with
// --pending only those waiting for approval, oldest ask first.
func (c *ctl) listBusinesses(ctx context.Context, args []string) error {
	fs := newFlagSet("businesses list")
	pending := fs.Bool("pending", false, "")
	if _, err := parseCommand(fs, listBusinessesSynopsis, args); err != nil {
		return err
	}
	store, err := c.open(ctx)
	if err != nil {
		return err
	}
	var all []*booking.Business
	err = store.EachBusiness(ctx, func(b *booking.Business) error {
		if !*pending || b.Waiting() {
			all = append(all, b)
		}
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(all, func(x, y *booking.Business) int {
		if *pending {
			if c := x.ApprovalAsked.Compare(*y.ApprovalAsked); c != 0 {
				return c
			}
		}
		return strings.Compare(x.Slug, y.Slug)
	})
	for _, b := range all {
		line := fmt.Sprintf("%s\t%s\t%s\t%s", b.Slug, b.LiveState(), b.Name, b.InboxEmail)
		if b.Waiting() {
			line += "\tasked " + b.ApprovalAsked.UTC().Format("2006-01-02 15:04Z")
		}
		fmt.Fprintln(c.stdout, line)
	}
	if len(all) == 0 && *pending {
		fmt.Fprintln(c.stderr, "No business waits for approval.")
	}
	return nil
}
