package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// writeAvailability answers listArrivalWindows' 200: av as JSON, byte for
// byte what edge.WriteJSON writes (TestAvailabilityJSON), made without
// reflection. A listing is up to 14 days of windows, each three strings;
// through encoding/json their encoding was about 60% of the handler's time
// above its DynamoDB calls (a CPU profile of the floor run).
func writeAvailability(w http.ResponseWriter, av booking.Availability) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(appendAvailability(make([]byte, 0, 64+len(av.Windows)*96), av)) // the status is sent; a broken connection has nobody left to tell
}

// appendAvailability appends av's JSON and a newline, as json.Encoder
// (HTML characters as they are) writes it, to b.
func appendAvailability(b []byte, av booking.Availability) []byte {
	b = append(b, `{"timezone":`...)
	b = appendJSONString(b, av.Timezone)
	b = append(b, `,"accepting_requests":`...)
	b = strconv.AppendBool(b, av.AcceptingRequests)
	b = append(b, `,"windows":`...)
	if av.Windows == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, win := range av.Windows {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"date":`...)
			b = appendJSONString(b, win.Date)
			b = append(b, `,"start":`...)
			b = appendJSONTime(b, win.Start)
			b = append(b, `,"end":`...)
			b = appendJSONTime(b, win.End)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, "}\n"...)
}

// appendJSONString appends s as a JSON string: as it is, quoted, when it
// holds only printable ASCII other than " and \ (a date, an IANA time
// zone's name); through encoding/json otherwise.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			var quoted bytes.Buffer
			enc := json.NewEncoder(&quoted)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s) // a string always encodes
			return append(b, bytes.TrimSuffix(quoted.Bytes(), []byte("\n"))...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSONTime appends t as time.Time's MarshalJSON does: RFC 3339 with
// the fraction of a second when there is one. (A window is within two
// weeks of now, never outside the years 0-9999 MarshalJSON refuses.)
func appendJSONTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}
