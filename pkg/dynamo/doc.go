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
//	business        BUSINESS#<slug>    PROFILE               doc (S): the business record as JSON; sites (L of S)
//	site            SITE#<host>        PATH#<path>           slug (S): the business that has the site
//	window hold     BUSINESS#<slug>    HOLD#<start>          request_code (S), expires_at (N)
//	phone counter   BUSINESS#<slug>    PHONE#<10 digits>     open_count (N)
//	idempotency     BUSINESS#<slug>    IDEMPOTENCY#<key>     body_hash (S), response (S), expires_at (N)
//	request         REQUEST#<code>     REQUEST               the booking.Request, one attribute per JSON field
//	notification    NOTIFY#<message>   NOTIFY                state, claim_token, expires_at (Ledger)
//	SMS opt-out     OPTOUT#<10 digits> SMS                   opted_out_at (Ledger)
//
// <start> is the window's start instant in UTC, RFC 3339 with whole seconds
// (2026-11-23T16:00:00Z), so the holds of a business sort by time and the
// holds of a time range are one Query with sk BETWEEN. A hold's expires_at
// is the request's HoldUntil: the end of the payment window while a deposit
// is due, otherwise the window's end.
//
// The request item also carries the keys of two sparse global secondary
// indexes: inbox_slug (S) and created (S) once the business sees the
// request (index inbox, all attributes: a business's requests newest
// first), and sweep_shard (S, SWEEP#0 to SWEEP#7 by a hash of the code) and
// sweep_at (N, when the payment hold lapses) while it is pending_payment
// (index sweep, keys only: the lapsed holds, never from one hot partition).
//
// The business doc is booking.EncodeBusinessRecord of *booking.Business, read back with
// booking.DecodeBusiness. The idempotency response is the booking.Created
// answer as JSON. The request item names its attributes as booking.Request's
// JSON fields (status, business_slug, window, contact, ...), with maps for
// nested objects and RFC 3339 strings for instants; status is a top-level S
// attribute that conditional updates can test.
//
// # Sites
//
// A business is also named by a link to any page of its site
// (booking.Desk.ResolveBusiness). Each of its sites, its url and its
// booking_url as booking.ParseSiteLink reads them, has a site item: <host>
// is lower case, without www. and without the default port
// (acme.example.com, book.example.net:8443), <path> is the cleaned path
// without a trailing slash, empty for the root (PATH# is the root's sort
// key, PATH#/book a booking page). The site items of a host are one Query on
// SITE#<host>; BusinessesAtHost reads the business item of each slug they
// name, and the domain picks the business whose site holds the page.
//
// A site item belongs to one business: it is put on the condition
// attribute_not_exists(pk) OR slug = :slug, so a second business cannot take
// a site the first still has. The business item's sites attribute lists the
// sites it has items for, as host then path (acme.example.com/book), so
// that storing the business again knows which ones to delete.
//
// PutBusiness is one TransactWriteItems: put the business item (on the
// condition that it is as read just before, or absent), put each site item,
// delete each site item of a site the business no longer has (both on the
// slug condition above). Its read of the business item is no booking
// decision: businesses are stored by an operator.
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
//
// # Moving a request
//
// MoveRequest is one TransactWriteItems, its items in this order:
//
//  1. put the whole request as it is after the move, on the condition
//     #status = :from AND #window.#start = :start (the state and window it
//     was read with; from pending_payment also sweep_at <= :now for an
//     expiry, > :now for anything else). Every move changes the state or
//     the window, so two moves of one request as read cannot both pass. A
//     put, not an update: leaving pending_payment drops the sweep keys by
//     leaving them out (minidyn 0.8.2 ignores REMOVE);
//  2. when the request leaves new or pending_payment for a closed state,
//     open_count - 1 on the condition open_count >= 1;
//  3. for a window move, put the new window's hold on the create's
//     condition (none live);
//  4. release the old window's hold (delete on request_code = :code), only
//     when a read just before found this request holding it; or, when a
//     deposit is paid, keep it to the window's end (update on the same
//     condition).
//
// The first item that fails decides: INVALID_TRANSITION (the request was
// moved meanwhile) or WINDOW_TAKEN; a hold that changed since its read runs
// the move again on a fresh read, as a TransactionConflict does.
package dynamo
