package main

import (
	"context"
	"strings"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/booking"
)

// localForms is the store as the local server reads it: every business's
// booking_url is this server's own form, {siteURL}/book/{slug}, the form a
// newcomer opens from the README, not the business's site
// (https://…example.com/book), which does not exist. Only reads change:
// the stored record keeps its booking_url (which must be https, so
// http://127.0.0.1 could not be stored), and a change of the record
// (UpdateBusiness) starts from the stored one.
type localForms struct {
	booking.Store
	siteURL string
}

// withLocalForms wraps store so that the businesses it returns have the
// local form as their booking_url.
func withLocalForms(store booking.Store, siteURL string) booking.Store {
	return localForms{Store: store, siteURL: siteURL}
}

func (s localForms) local(b *booking.Business) *booking.Business {
	if b == nil {
		return nil
	}
	c := *b
	c.BookingURL = s.siteURL + bookform.Path + b.Slug
	return &c
}

func (s localForms) Business(ctx context.Context, slug string) (*booking.Business, error) {
	b, err := s.Store.Business(ctx, slug)
	return s.local(b), err
}

func (s localForms) PublicBusiness(ctx context.Context, slug string) (*booking.Business, error) {
	b, err := s.Store.PublicBusiness(ctx, slug)
	return s.local(b), err
}

func (s localForms) OwnBusiness(ctx context.Context, slug string) (*booking.Business, error) {
	b, err := s.Store.OwnBusiness(ctx, slug)
	return s.local(b), err
}

func (s localForms) BusinessByInboxEmail(ctx context.Context, email string) (*booking.Business, error) {
	b, err := s.Store.BusinessByInboxEmail(ctx, email)
	return s.local(b), err
}

func (s localForms) BusinessesAtHost(ctx context.Context, host string) ([]*booking.Business, error) {
	bs, err := s.Store.BusinessesAtHost(ctx, host)
	out := make([]*booking.Business, len(bs))
	for i, b := range bs {
		out[i] = s.local(b)
	}
	return out, err
}

// localFormSite is what a signed-up business's stored booking_url is
// built on when the server is not served over https (booking.Config's
// FormSiteURL): a stored booking_url must be https, and reads replace it
// with this server's own form anyway. .localhost is reserved (RFC 6761).
const localFormSite = "https://doorstep.localhost"

// formSiteURL is the FormSiteURL of a server at siteURL.
func formSiteURL(siteURL string) string {
	if strings.HasPrefix(siteURL, "https://") {
		return siteURL
	}
	return localFormSite
}
