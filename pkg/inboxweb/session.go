package inboxweb

import "github.com/doorstep/doorstep/pkg/booking"

// Session is a signed-in business: booking.Bookings' own.
type Session = booking.Session
