package booking

import "slices"

// Clone returns a deep copy of b: changing the copy, its slices or what
// its pointers point to, never changes b. The store's business caches
// hand each caller a clone, so that a caller that changes the record it
// got (an edge, a test) cannot change it for the next request. The time
// zone is shared: a *time.Location never changes.
func (b *Business) Clone() *Business {
	if b == nil {
		return nil
	}
	c := *b
	c.Languages = slices.Clone(b.Languages)
	if b.License != nil {
		l := *b.License
		c.License = &l
	}
	c.ServiceArea.ZIPCodes = slices.Clone(b.ServiceArea.ZIPCodes)
	if b.BookingDeposit != nil {
		d := *b.BookingDeposit
		c.BookingDeposit = &d
	}
	for _, day := range []*[]Interval{&c.Hours.Mon, &c.Hours.Tue, &c.Hours.Wed, &c.Hours.Thu, &c.Hours.Fri, &c.Hours.Sat, &c.Hours.Sun} {
		*day = slices.Clone(*day)
	}
	c.Services = slices.Clone(b.Services)
	c.DaysOff = slices.Clone(b.DaysOff)
	if b.ReminderHour != nil {
		h := *b.ReminderHour
		c.ReminderHour = &h
	}
	c.RemovedServiceIDs = slices.Clone(b.RemovedServiceIDs)
	if b.ApprovalAsked != nil {
		at := *b.ApprovalAsked
		c.ApprovalAsked = &at
	}
	c.Changes = slices.Clone(b.Changes)
	for i := range c.Changes {
		c.Changes[i].Fields = slices.Clone(b.Changes[i].Fields)
	}
	c.daysOff = slices.Clone(b.daysOff)
	return &c
}
