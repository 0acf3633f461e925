// Package dynamo is the DynamoDB store of the booking domain (booking.Store)
// and the notifier's ledger (notify.Ledger), over one table. The item design
// is in README.md.
package dynamo
