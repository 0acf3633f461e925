package inboxweb

import (
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Session is a signed-in business, as booking.Session of the web inbox's
// sign-in (issue 13, /tmp/web-api.md) defines it, field for field.
//
// TEMPORARY, until pkg/booking's signin.go lands from the web-signin
// branch: this file then becomes the one line
//
//	type Session = booking.Session
//
// so that *booking.Bookings satisfies Bookings as it is (its FinishSignIn
// and OpenSession return booking.Session); nothing else here changes.
type Session struct {
	Token    string // the cookie's value; only its hash is stored
	CSRF     string // the token every form of the session carries
	Business *booking.Business
	Expires  time.Time
}
