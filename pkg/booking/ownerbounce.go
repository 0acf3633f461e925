package booking

import (
	"context"
	"strconv"
	"strings"
)

// Telling the owner that mail to the business's own inbox address cannot
// be delivered: the web inbox shows a banner (pkg/inboxweb), and a text
// goes to the owner's confirmed mobile number, once for each record of
// the address (Undeliverable), decided by a conditional write
// (Store.ClaimOwnerNotice). The mail-events function asks for it for
// every event it handles about an address, so that a retry after a
// failure still finds it to do, and a redelivery finds it done.

// ClaimOwnerBounceText claims the text that tells the owner of the
// business whose inbox_email is email that mail to it cannot be
// delivered: ok is true, with the business and the record, for the one
// call that claims it, when the address is recorded undeliverable, is a
// business's inbox_email and the business has a confirmed OwnerPhone.
// Otherwise ok is false and nothing is to be sent.
func (s *Bookings) ClaimOwnerBounceText(ctx context.Context, email string) (b *Business, u *Undeliverable, ok bool, err error) {
	if strings.TrimSpace(email) == "" {
		return nil, nil, false, nil
	}
	// The record mail-events wrote just before: read strongly consistent.
	u, err = s.store.UndeliverableEmailNow(ctx, email)
	if err != nil || u == nil {
		return nil, nil, false, err
	}
	b, err = s.store.BusinessByInboxEmail(ctx, email)
	switch {
	case ErrorCode(err) == NotFound:
		return nil, nil, false, nil
	case err != nil:
		return nil, nil, false, err
	}
	if b.OwnerPhone == "" {
		return nil, nil, false, nil
	}
	key := "bounce#" + EmailHash(email) + "#" + strconv.FormatInt(u.At.Unix(), 10)
	ok, err = s.store.ClaimOwnerNotice(ctx, b.Slug, key)
	if err != nil || !ok {
		return nil, nil, false, err
	}
	return b, u, true, nil
}
