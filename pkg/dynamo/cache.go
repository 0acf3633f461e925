package dynamo

import (
	"sync"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// BusinessCacheTTL is how long a warm function keeps a business record it
// read before reading it again. Every operation reads its business, and a
// record changes only when an operator stores it: a change (pausing online
// requests, or a newly minted inbox token replacing the old one) reaches
// every function within this time. Holds, requests
// and idempotency keys are never cached; they decide bookings.
const BusinessCacheTTL = 10 * time.Second

// businessCache keeps the business records a store read, by slug. Only
// records that exist are kept, so lookups of made-up slugs cannot grow it
// past the number of businesses in the table.
type businessCache struct {
	ttl time.Duration
	now func() time.Time

	mu      sync.Mutex
	entries map[string]cachedBusiness
}

type cachedBusiness struct {
	b       *booking.Business
	fetched time.Time
}

func newBusinessCache(ttl time.Duration, now func() time.Time) *businessCache {
	return &businessCache{ttl: ttl, now: now, entries: map[string]cachedBusiness{}}
}

func (c *businessCache) get(slug string) (*booking.Business, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[slug]
	if !ok || c.now().Sub(e.fetched) >= c.ttl {
		return nil, false
	}
	return e.b, true
}

func (c *businessCache) put(b *booking.Business) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[b.Slug] = cachedBusiness{b: b, fetched: c.now()}
}

func (c *businessCache) forget(slug string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, slug)
}

// decodedBusinesses keeps, by slug, the last business record a store
// decoded and the stored document it came from. Every read still reads the
// table; when the document read is the one decoded last time, byte for
// byte, the record is the same and is not decoded and validated again
// (about 80 µs of a getBusiness, the largest part of its time above the
// GetItem it cannot avoid). Only records that exist are kept, one per
// slug, so it cannot grow past the number of businesses in the table.
type decodedBusinesses struct {
	mu      sync.Mutex
	entries map[string]decodedBusiness
}

type decodedBusiness struct {
	doc string
	b   *booking.Business
}

// get returns the business decoded from doc, if doc is the last one
// decoded for slug.
func (d *decodedBusinesses) get(slug, doc string) (*booking.Business, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.entries[slug]
	if !ok || e.doc != doc {
		return nil, false
	}
	return e.b, true
}

func (d *decodedBusinesses) put(slug, doc string, b *booking.Business) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.entries == nil {
		d.entries = map[string]decodedBusiness{}
	}
	d.entries[slug] = decodedBusiness{doc: doc, b: b}
}
