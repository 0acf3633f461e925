package main

import (
	"context"
	"encoding/json"
	"time"

	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/export"
)

const exportSynopsis = "export --business SLUG [--from DAY] [--to DAY] [--json]"

// export writes a business's records (booking.Inbox.Export) on standard
// output: the web inbox's CSV download, in the business's language and
// time zone, or with --json the JSON inbox's export.
func (c *ctl) export(ctx context.Context, args []string) error {
	var slug, from, to string
	var asJSON bool
	fs := newFlagSet("export")
	fs.StringVar(&slug, "business", "", "")
	fs.StringVar(&from, "from", "", "")
	fs.StringVar(&to, "to", "", "")
	fs.BoolVar(&asJSON, "json", false, "")
	if _, err := parseCommand(fs, exportSynopsis, args); err != nil {
		return err
	}
	if slug == "" {
		return usagef(exportSynopsis, "name the business: --business SLUG")
	}
	var fromDay, toDay time.Time
	var err error
	if from != "" {
		if fromDay, err = edge.ParseDate("--from", from); err != nil {
			return err
		}
	}
	if to != "" {
		if toDay, err = edge.ParseDate("--to", to); err != nil {
			return err
		}
	}
	_, bookings, err := c.service(ctx)
	if err != nil {
		return err
	}
	in, err := bookings.OperatorInbox(ctx, slug)
	if err != nil {
		return err
	}
	e, err := in.Export(ctx, fromDay, toDay)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(e)
	}
	lang := "en"
	if in.Business().DefaultLanguage == "es" {
		lang = "es"
	}
	return export.CSV(c.stdout, e, lang)
}
