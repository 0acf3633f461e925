package inboxweb

import (
	"bytes"
	"maps"
	"net/http"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/export"
)

// The business's records are its own: a CSV download of its requests sent
// in a range of days (booking.Inbox.Export, written by pkg/export), in its
// time zone and in the page's language.
//
//	GET /inbox/export       the range to download: from and to, days
//	GET /inbox/export.csv   the download; a bad range is the page again, saying why (400)

// exportView is the export page: the range as typed, and what is wrong
// with each field.
type exportView struct {
	From, To string
	Invalid  map[string]string
	Timezone string
}

func (h *handler) exportPage(w http.ResponseWriter, r *http.Request, s Session) {
	b := s.Inbox.Business()
	lang := language(w, r, b)
	today := h.Now().In(b.Location())
	v := exportView{
		From:     time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly),
		To:       today.Format(time.DateOnly),
		Timezone: b.Timezone,
	}
	render(w, r, http.StatusOK, "export", lang, &s, tr(lang, "export_title"), v)
}

func (h *handler) exportCSV(w http.ResponseWriter, r *http.Request, s Session) {
	b := s.Inbox.Business()
	lang := language(w, r, b)
	q := r.URL.Query()
	v := exportView{From: q.Get("from"), To: q.Get("to"), Invalid: map[string]string{}, Timezone: b.Timezone}
	from, err := edge.ParseDate("from", v.From)
	if err != nil {
		v.Invalid["from"] = tr(lang, "export_bad_date")
	}
	to, err := edge.ParseDate("to", v.To)
	if err != nil {
		v.Invalid["to"] = tr(lang, "export_bad_date")
	}
	if len(v.Invalid) == 0 && to.Before(from) {
		v.Invalid["to"] = tr(lang, "export_to_before_from")
	}
	var e booking.Export
	if len(v.Invalid) == 0 {
		e, err = s.Inbox.Export(r.Context(), from, to)
		if booking.ErrorCode(err) == booking.InvalidRequest {
			v.Invalid["from"] = tr(lang, "export_too_many", booking.MaxExportRows)
		} else if err != nil {
			h.fail(w, r, err)
			return
		}
	}
	if len(v.Invalid) > 0 {
		render(w, r, http.StatusBadRequest, "export", lang, &s, tr(lang, "export_title"), v)
		return
	}
	var buf bytes.Buffer // whole before anything is written: a failure is a plain 500
	if err := export.CSV(&buf, e, lang); err != nil {
		h.fail(w, r, err)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", export.ContentType)
	hd.Set("Content-Disposition", `attachment; filename="`+export.Filename(e)+`"`)
	hd.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(buf.Bytes())
}

func init() {
	for lang, words := range exportTexts {
		maps.Copy(texts[lang], words)
	}
}

var exportTexts = map[string]map[string]string{
	"en": {
		"export":                "Export",
		"export_title":          "Export your requests",
		"export_help":           "A CSV file for a spreadsheet: one row per request sent on these days, with the person's details where they are not erased, and its history. Times are in %s.",
		"export_from":           "Sent from (first day)",
		"export_to":             "Sent until (last day)",
		"export_button":         "Download CSV",
		"export_bad_date":       "Enter a date, such as 2026-11-01.",
		"export_to_before_from": "The last day cannot be before the first.",
		"export_too_many":       "More than %d requests were sent on these days: choose fewer days.",
	},
	"es": {
		"export":                "Exportar",
		"export_title":          "Exportar sus solicitudes",
		"export_help":           "Un archivo CSV para una hoja de cálculo: una fila por cada solicitud enviada en estos días, con los datos de la persona si no están borrados, y su historial. Las horas están en %s.",
		"export_from":           "Enviadas desde (primer día)",
		"export_to":             "Enviadas hasta (último día)",
		"export_button":         "Descargar CSV",
		"export_bad_date":       "Escriba una fecha, como 2026-11-01.",
		"export_to_before_from": "El último día no puede ser antes del primero.",
		"export_too_many":       "Se enviaron más de %d solicitudes en estos días: elija menos días.",
	},
}
