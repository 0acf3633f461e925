package booking

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
)

// The owner edits what the business offers on the web inbox's settings, a
// section at a time: its public details, its services, its service area
// and its windows. Each section's change is made to the section as the
// owner saw it (its version), stored with the store's conditional update,
// and the whole record is validated as the loader validates a file
// (Validate): an invalid value is INVALID_REQUEST naming the field, and
// nothing is stored. Every owner edit of the record goes through one
// function, updateOwned, so that what happens on every change (a record
// of it, say) is added at one place.

// Details are a business's public details, as its owner sets them.
type Details struct {
	Name            string
	Phone           string // international format, with a leading +
	City            string
	State           string // two capital letters
	Timezone        string // one of Timezones
	URL             string // the business's own site
	Languages       []string
	DefaultLanguage string
	License         *License // nil: none
}

// Timezones are the time zones the owner picks from: the US zones a
// home-service business works in.
var Timezones = []string{
	"America/New_York", "America/Chicago", "America/Denver", "America/Phoenix",
	"America/Los_Angeles", "America/Anchorage", "Pacific/Honolulu", "America/Puerto_Rico",
}

// Area is a business's service area: its label and its ZIP codes.
type Area struct {
	Label    string
	ZIPCodes []string
}

// Windows are the length of a business's arrival windows and how many days
// ahead it takes requests.
type Windows struct {
	ArrivalWindowMinutes int
	BooksUpToDaysAhead   int
}

// WindowLengths are the arrival window lengths an owner picks from: whole
// and half hours that divide a working day into windows a person can plan
// around (1, 1½, 2, 3 or 4 hours). The loader takes any length from 15
// to 720 minutes; an operator may load another.
var WindowLengths = []int{60, 90, 120, 180, 240}

// MaxDaysAhead is the furthest ahead an owner lets requests be made: two
// months (the loader takes up to 365, for an operator).
const MaxDaysAhead = 60

// The ZIP codes of a service area: at most MaxZIPCodes.
const MaxZIPCodes = 200

// Details returns b's public details, as a copy the caller may change.
func (b *Business) Details() Details {
	d := Details{Name: b.Name, Phone: b.Phone, City: b.City, State: b.State, Timezone: b.Timezone, URL: b.URL,
		Languages: slices.Clone(b.Languages), DefaultLanguage: b.DefaultLanguage}
	if b.License != nil {
		l := *b.License
		d.License = &l
	}
	return d
}

// Area returns b's service area, as a copy the caller may change.
func (b *Business) Area() Area {
	return Area{Label: b.ServiceArea.Label, ZIPCodes: slices.Clone(b.ServiceArea.ZIPCodes)}
}

// WindowSettings returns b's window settings.
func (b *Business) WindowSettings() Windows {
	return Windows{ArrivalWindowMinutes: b.ArrivalWindowMinutes, BooksUpToDaysAhead: b.BooksUpToDaysAhead}
}

// The versions of the sections: a form carries the version of the section
// it was shown, so that a change is made only to what the owner saw.
func (d Details) Version() string { return versionOf(d) }
func (a Area) Version() string    { return versionOf(a) }
func (w Windows) Version() string { return versionOf(w) }

// ServicesVersion is the version of a list of services.
func ServicesVersion(services []Service) string { return versionOf(services) }

// versionOf names v by a hash of its JSON.
func versionOf(v any) string {
	doc, _ := json.Marshal(v) // plain strings, numbers and lists: never fails
	sum := sha256.Sum256(doc)
	return hex.EncodeToString(sum[:12])
}

// ErrOfferChanged is the answer of an offer section's update when the
// stored section is no longer the version seen: nothing is stored.
var ErrOfferChanged = errors.New("this section changed meanwhile; nothing was stored")

// ErrLiveRequestsAhead is the store's refusal to change the length of a
// business's arrival windows while a request holds a window now or later
// (Store.UpdateBusinessAt): windows of another length would overlap it.
var ErrLiveRequestsAhead = Errorf(InvalidRequest, "arrival_window_minutes: requests still to come hold windows of the current length; answer or move them first")

// ErrSiteTaken is the store's refusal of a record whose site (url or
// booking_url) another business has: nothing is stored. The store wraps
// it with ErrTakenByAnother.
var ErrSiteTaken = Errorf(InvalidRequest, "url: another business has this site")

// ErrLastService and ErrLastZIP are the refusals of a change that would
// leave a business that is live or takes requests (not SettingUp) without
// a service, or without a ZIP code: such a record cannot go live empty
// (Validate), so the change is refused and nothing is stored; the owner
// adds another first, or goes back to preview and pauses.
var (
	ErrLastService = Errorf(InvalidRequest, "services: a business that is live or takes requests keeps at least one service; add another first")
	ErrLastZIP     = Errorf(InvalidRequest, "service_area.zip_codes: a business that is live or takes requests keeps at least one ZIP code; add another first")
)

// UpdateDetails stores next as the business's public details, on the
// condition that they are still the version seen.
func (in *Inbox) UpdateDetails(ctx context.Context, seen string, next Details) (*Business, error) {
	return in.updateOwned(ctx, func(b *Business) string { return b.Details().Version() }, seen, ErrOfferChanged, func(b *Business) error {
		if next.Phone != b.Phone && !isPublicPhone(next.Phone) {
			return Errorf(InvalidRequest, "phone: %s, got %s", publicPhoneRule, excerpt(next.Phone))
		}
		b.Name, b.Phone, b.City, b.State = next.Name, next.Phone, next.City, next.State
		b.URL, b.Languages, b.DefaultLanguage = next.URL, slices.Clone(next.Languages), next.DefaultLanguage
		if !slices.Contains(Timezones, next.Timezone) && next.Timezone != b.Timezone {
			return Errorf(InvalidRequest, "timezone: want one of %s, got %s", strings.Join(Timezones, ", "), excerpt(next.Timezone))
		}
		b.Timezone = next.Timezone
		b.License = nil
		if next.License != nil {
			l := *next.License
			b.License = &l
		}
		return nil
	})
}

// UpdateArea stores next as the business's service area, on the condition
// that it is still the version seen. Its ZIP codes are kept in the order
// given, each once. Requests already made for a ZIP code no longer in the
// area stay as they are. A business that is live or takes requests keeps
// at least one ZIP code (ErrLastZIP).
func (in *Inbox) UpdateArea(ctx context.Context, seen string, next Area) (*Business, error) {
	return in.updateOwned(ctx, func(b *Business) string { return b.Area().Version() }, seen, ErrOfferChanged, func(b *Business) error {
		if len(next.ZIPCodes) > MaxZIPCodes {
			return Errorf(InvalidRequest, "service_area.zip_codes: want up to %d, got %d", MaxZIPCodes, len(next.ZIPCodes))
		}
		if len(next.ZIPCodes) == 0 && !b.SettingUp() {
			return ErrLastZIP
		}
		b.ServiceArea = ServiceArea{Label: next.Label, ZIPCodes: uniqueZIPs(next.ZIPCodes)}
		return nil
	})
}

// uniqueZIPs is zips, each once, in the order first given.
func uniqueZIPs(zips []string) []string {
	out := make([]string, 0, len(zips))
	for _, z := range zips {
		if !slices.Contains(out, z) {
			out = append(out, z)
		}
	}
	return out
}

// UpdateWindows stores next as the business's window settings, on the
// condition that they are still the version seen. The window length is
// one of WindowLengths, the days ahead 1 to MaxDaysAhead. A new window
// length is stored only while no request holds a window now or later
// (ErrLiveRequestsAhead), decided by the store's conditions: windows of two
// lengths never overlap over the crews.
func (in *Inbox) UpdateWindows(ctx context.Context, seen string, next Windows) (*Business, error) {
	return in.updateOwned(ctx, func(b *Business) string { return b.WindowSettings().Version() }, seen, ErrOfferChanged, func(b *Business) error {
		if next.ArrivalWindowMinutes != b.ArrivalWindowMinutes && !slices.Contains(WindowLengths, next.ArrivalWindowMinutes) {
			return Errorf(InvalidRequest, "arrival_window_minutes: want one of %v, got %d", WindowLengths, next.ArrivalWindowMinutes)
		}
		if next.BooksUpToDaysAhead < 1 || next.BooksUpToDaysAhead > MaxDaysAhead {
			return Errorf(InvalidRequest, "books_up_to_days_ahead: want 1 to %d, got %d", MaxDaysAhead, next.BooksUpToDaysAhead)
		}
		b.ArrivalWindowMinutes, b.BooksUpToDaysAhead = next.ArrivalWindowMinutes, next.BooksUpToDaysAhead
		return nil
	})
}

// MaxServices is how many services a business offers at most.
const MaxServices = 30

// UpdateServices stores next as the business's services, in its order, on
// the condition that they are still the version seen (ServicesVersion).
// A service of next with an ID is that stored service, renamed,
// described or marked as next says; one without is new, and gets an ID
// from its English name that the business has never used (NewServiceID).
// A stored service not in next is removed, and its ID is never given
// again: a request made for it keeps its ID and the name it was made with
// (Request.ServiceName). A business that is live or takes requests keeps
// at least one service (ErrLastService).
func (in *Inbox) UpdateServices(ctx context.Context, seen string, next []Service) (*Business, error) {
	return in.updateOwned(ctx, func(b *Business) string { return ServicesVersion(b.Services) }, seen, ErrOfferChanged, func(b *Business) error {
		if len(next) > MaxServices {
			return Errorf(InvalidRequest, "services: want up to %d, got %d", MaxServices, len(next))
		}
		services := make([]Service, 0, len(next))
		for i, s := range next {
			if s.ID == "" {
				s.ID = NewServiceID(s.Name.EN, b, services)
			} else if _, ok := b.service(s.ID); !ok || slices.ContainsFunc(services, func(o Service) bool { return o.ID == s.ID }) {
				return Errorf(InvalidRequest, "services[%d].id: no service of this business has the id %s", i, excerpt(s.ID))
			}
			services = append(services, s)
		}
		for _, s := range b.Services {
			if !slices.ContainsFunc(services, func(o Service) bool { return o.ID == s.ID }) && !slices.Contains(b.RemovedServiceIDs, s.ID) {
				b.RemovedServiceIDs = append(b.RemovedServiceIDs, s.ID)
			}
		}
		if len(services) == 0 && !b.SettingUp() {
			return ErrLastService
		}
		b.Services = services
		return nil
	})
}

// NewServiceID is the ID of a new service named nameEN at b, which already
// has the services taken (the ones being saved with it): the name in
// lowercase ASCII with dashes, with -2, -3 and so on when b has (or had,
// RemovedServiceIDs) a service of that ID.
func NewServiceID(nameEN string, b *Business, taken []Service) string {
	base := idFromName(nameEN)
	used := func(id string) bool {
		_, now := b.service(id)
		return now || slices.Contains(b.RemovedServiceIDs, id) || slices.ContainsFunc(taken, func(s Service) bool { return s.ID == id })
	}
	id := base
	for n := 2; used(id); n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	return id
}

// unaccented are the accented letters of English and Spanish names, as
// their plain letter.
var unaccented = map[rune]rune{'á': 'a', 'à': 'a', 'â': 'a', 'ä': 'a', 'é': 'e', 'è': 'e', 'ê': 'e', 'ë': 'e',
	'í': 'i', 'ï': 'i', 'ó': 'o', 'ô': 'o', 'ö': 'o', 'ú': 'u', 'ü': 'u', 'ñ': 'n', 'ç': 'c'}

// maxServiceIDBase is the longest ID made from a name, before its -2.
const maxServiceIDBase = 40

// idFromName is name in lowercase ASCII letters and digits, words joined
// by single dashes (accents dropped); "service" when nothing is left.
func idFromName(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if plain, ok := unaccented[r]; ok {
			r = plain
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
		if b.Len() >= maxServiceIDBase {
			break
		}
	}
	id := strings.Trim(b.String(), "-")
	if id == "" {
		return "service"
	}
	return id
}

// updateOwned is every owner's edit of the business record: change is
// made to the stored record, on the condition that the stored section
// (version) is still the one seen, with the store's conditional
// UpdateBusinessAt, and the whole record changed is validated as the
// loader validates a business file. An invalid value is INVALID_REQUEST
// naming the field, and nothing is stored. It returns the business as
// stored after; after a lost race (changed), the business as stored now.
func (in *Inbox) updateOwned(ctx context.Context, version func(*Business) string, seen string, changed error, change func(*Business) error) (*Business, error) {
	s, b := in.s, in.b
	var after *Business
	err := s.store.UpdateBusinessAt(ctx, b.Slug, s.now(), func(stored *Business) (*Business, error) {
		if stored == nil {
			return nil, Errorf(NotFound, "no business has the slug %s", excerpt(b.Slug))
		}
		if version(stored) != seen {
			after = stored
			return nil, changed
		}
		next := *stored
		next.Private.DaysOff = slices.Clone(stored.DaysOff)
		next.RemovedServiceIDs = slices.Clone(stored.RemovedServiceIDs)
		if err := change(&next); err != nil {
			return nil, err
		}
		if err := next.validate(); err != nil {
			return nil, Errorf(InvalidRequest, "%v", err)
		}
		after = &next
		return after, nil
	})
	if errors.Is(err, ErrBusinessChanged) {
		// Another change landed between the store's read and its write:
		// as lost a race as a version that no longer matches.
		if after, err = s.store.OwnBusiness(ctx, b.Slug); err != nil {
			return nil, err
		}
		return after, changed
	}
	if errors.Is(err, changed) {
		return after, err
	}
	if err != nil {
		return nil, err
	}
	return after, nil
}
