// Package dynamo is the DynamoDB store of the booking domain: it implements
// booking.Store over one table.
//
// # Item design
//
// One table with a string partition key pk and a string sort key sk, billed
// per request. Holds and idempotency records carry expires_at (N, Unix
// seconds), the table's TTL attribute.
//
//	item            pk                 sk                    attributes
//	business        BUSINESS#<slug>    PROFILE               doc (S): the business record as JSON
//	window hold     BUSINESS#<slug>    HOLD#<start>          request_code (S), expires_at (N)
//	phone counter   BUSINESS#<slug>    PHONE#<10 digits>     open_count (N)
//	idempotency     BUSINESS#<slug>    IDEMPOTENCY#<key>     body_hash (S), response (S), expires_at (N)
//	request         REQUEST#<code>     REQUEST               the booking.Request, one attribute per JSON field
//
// <start> is the window's start instant in UTC, RFC 3339 with whole seconds
// (2026-11-23T16:00:00Z), so the holds of a business sort by time and the
// holds of a time range are one Query with sk BETWEEN. A hold's expires_at
// is the request's HoldUntil: the end of the payment window while a deposit
// is due, otherwise the window's end.
//
// The business doc is json.Marshal of *booking.Business, read back with
// booking.DecodeBusiness. The idempotency response is the booking.Created
// answer as JSON. The request item names its attributes as booking.Request's
// JSON fields (status, business_slug, window, contact, ...), with maps for
// nested objects and RFC 3339 strings for instants; status is a top-level S
// attribute that conditional updates can test.
//
// # Expiry
//
// A hold or idempotency record is live at now while expires_at > now (Unix
// seconds), and absent otherwise: conditions (expires_at <= :now lets a
// write replace it), queries and reads all say so alike. The TTL deletes
// lapsed items some time later (hours or days on DynamoDB); nothing waits
// for it.
//
// # Creating a request
//
// CreateRequest is one TransactWriteItems, its items in precedence order:
//
//  1. with an idempotency key: put the idempotency item unless a live one
//     exists, returning the old item when it does;
//  2. add one to the phone's open_count unless it has reached
//     booking.MaxOpenPerPhone;
//  3. put the window hold unless a live one exists;
//  4. put the request unless its code exists.
//
// The first item that fails decides: *booking.KeyUsedError carrying the
// stored record, TOO_MANY_OPEN or WINDOW_TAKEN. A transaction cancelled
// because another one wrote the same items at the same moment
// (TransactionConflict) runs again after a jittered pause, up to eight times;
// a hold still conflicting after that is WINDOW_TAKEN. No read before a
// write decides anything: callers racing for a window, a phone's last open
// slot or an idempotency key are told apart by DynamoDB's conditions alone.
package dynamo
