package main

import (
	"context"
	"fmt"
)

const eraseSynopsis = "erase --phone P | --email E"

// erase erases the personal details of every request of one contact, at
// every business, ended or not: the live ones are cancelled first, as the
// operator, with the messages and refunds of any cancel
// (booking.Bookings.OperatorErase). It prints one line per request it
// erased, then how many. It scans the whole table.
func (c *ctl) erase(ctx context.Context, args []string) error {
	var phone, email string
	fs := newFlagSet("erase")
	fs.StringVar(&phone, "phone", "", "")
	fs.StringVar(&email, "email", "", "")
	if _, err := parseCommand(fs, eraseSynopsis, args); err != nil {
		return err
	}
	if (phone == "") == (email == "") {
		return usagef(eraseSynopsis, "name one contact: --phone or --email")
	}
	_, bookings, err := c.service(ctx)
	if err != nil {
		return err
	}
	erased, err := bookings.OperatorErase(ctx, phone, email)
	tw := newTable(c.stdout)
	for _, e := range erased {
		note := ""
		if e.Cancelled {
			note = "cancelled first"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.Code, e.BusinessSlug, e.Status, note)
	}
	if ferr := tw.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%d requests erased: their name, phone, e-mail, street, unit, city and description are gone; "+
		"a blocked contact stays only as a one-way hash\n", len(erased))
	return nil
}

// addEraseKeys gives the ended requests stored before ended requests had
// erase keys those keys (dynamo.Store.AddEraseKeys), and says how many.
func (c *ctl) addEraseKeys(ctx context.Context, args []string) error {
	const synopsis = "requests add-erase-keys"
	if len(args) > 0 {
		return usagef(synopsis, "add-erase-keys takes no arguments")
	}
	store, err := c.open(ctx)
	if err != nil {
		return err
	}
	n, err := store.AddEraseKeys(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%d ended requests without erase keys have them now; the sweeper erases their details PersonalDataDays after each ended\n", n)
	return nil
}
