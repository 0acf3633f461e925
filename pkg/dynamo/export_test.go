package dynamo

// SetPageSize makes the store's queries read at most n items per page, so
// that tests cover pagination without megabytes of items.
func SetPageSize(s *Store, n int32) { s.pageSize = n }
