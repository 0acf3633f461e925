package dynamo

import "github.com/doorstep/doorstep/pkg/booking"

// SetPageSize makes the store's queries read at most n items per page, so
// that tests cover pagination without megabytes of items.
func SetPageSize(s *Store, n int32) { s.pageSize = n }

// CountDecodes counts the business records the stores decode until the
// test ends.
func CountDecodes(t interface{ Cleanup(func()) }) *int {
	n := new(int)
	decode := decodeBusiness
	decodeBusiness = func(data []byte) (*booking.Business, error) {
		*n++
		return decode(data)
	}
	t.Cleanup(func() { decodeBusiness = decode })
	return n
}
