package bookform

import (
	"html/template"
	"strings"
	"testing"
)

// choicesAsTemplates are the templates dayChoices, serviceChoices and
// pageTop replace, as they were: the oracle of TestChoicesAsTheTemplatesWroteThem.
var choicesAsTemplates = template.Must(template.New("days").Parse(
	`{{with .Body}}{{$dayError := index .Errors "day"}}{{with .Soonest}}<label class="soonest"><input type="radio" name="day" id="{{.ID}}" value="{{.Value}}"{{if .Checked}} checked{{end}}><span><strong>{{$.L.soonest}}</strong> {{.Text}}, {{.First}}</span></label>
{{end}}{{range .Days}}{{if .Open}}<label><input type="radio" name="day" id="{{.ID}}" value="{{.Value}}"{{if .Checked}} checked{{end}}{{if $dayError}} aria-invalid="true"{{end}}><span><strong>{{.Text}}</strong> {{.First}} · {{.CountText}}</span></label>
{{else}}<p class="card off"><strong>{{.Text}}</strong> {{$.L.no_windows}}</p>
{{end}}{{end}}{{end}}` +
		`{{define "services"}}{{with .Body}}{{$serviceError := index .Errors "service"}}{{range .Services}}<div class="service"><label><input type="radio" name="service" value="{{.ID}}"{{if .Checked}} checked{{end}}{{if $serviceError}} aria-invalid="true"{{end}}><span>{{.Name}}{{if .Urgent}} <strong class="badge">{{$.L.urgent}}</strong>{{end}}</span></label>{{if .Urgent}}{{with $.Body.PhoneLink}}<a class="call-now" href="{{.}}">{{$.L.call_now}}</a>{{end}}{{end}}</div>
{{end}}{{end}}{{end}}` +
		`{{define "top"}}{{with .Body}}<p class="business">{{.Business}}</p>
<h1>{{.Heading}}</h1>
<section class="danger-first" aria-labelledby="danger-title">
<h2 id="danger-title">{{$.L.danger_title}}</h2>
<p>{{$.L.danger}}</p>
{{template "call" .}}
<p id="danger-else">{{$.L.danger_else}}</p>
</section>
{{if .Example}}<p class="note" id="example">{{$.L.example_notice}}</p>
{{end}}{{if .Preview}}<p class="note" id="preview">{{$.L.preview_notice}}</p>
{{end}}{{if .Problems}}<div class="error-box" id="fix" role="alert"><h2>{{$.L.fix_intro}}</h2>
<ul id="problems">{{range .Problems}}
<li>{{if eq .Field "top"}}<span class="error" id="top-error">{{.Text}}</span>{{else}}<a href="#{{.Field}}">{{.Text}}</a>{{end}}</li>{{end}}
</ul>
{{if .Call}}{{template "call" .}}
{{end}}</div>
{{end}}{{end}}{{end}}` +
		`{{define "call"}}<p>{{if .PhoneLink}}<a class="call" href="{{.PhoneLink}}">{{.CallText}}</a>{{else}}{{.CallText}}{{end}}</p>{{end}}`))

// TestChoicesAsTheTemplatesWroteThem: the days, the services and the
// page's top written in Go are, byte for byte, what their templates wrote,
// in both languages, with and without problems, checked or not, with text
// to escape.
func TestChoicesAsTheTemplatesWroteThem(t *testing.T) {
	days := []dayView{
		{ID: "day-2026-12-01", Value: "2026-12-01", Text: "Today, Tuesday, December 1", First: "first free 8:00 AM", CountText: "4 open windows", Open: true},
		{ID: "day-2026-12-02", Value: "2026-12-02", Text: "Tomorrow, Wednesday", First: "8:00 AM", CountText: "1 open window", Open: true, Checked: true},
		{ID: "day-2026-12-03", Value: "2026-12-03", Text: `Thursday <"&'+>`},
	}
	services := []serviceView{
		{ID: "ac-not-cooling", Name: "AC not cooling", Urgent: true, Checked: true},
		{ID: "tune-up", Name: `Tune-up <b>"A&B"</b> + 'more'`},
	}
	tests := []struct {
		name string
		f    form
	}{
		{"a week, the soonest window", form{Lang: "en", Days: days, Services: services, PhoneLink: "tel:+16025550163",
			Business: "Desert Cool <HVAC> & Co", Heading: "Book Desert Cool", CallText: "Call (602) 555-0163",
			Soonest: &dayView{ID: "soonest", Value: "2026-12-02T03:00:00Z", Text: "Today", First: "8:00 PM – 10:00 PM MST", Open: true}}},
		{"problems with the day and the service, in Spanish", form{Lang: "es", Days: days, Services: services, PhoneLink: "tel:+16025550163",
			Business: "Limpieza", Heading: "Reserve", CallText: "Llame", Example: true, Preview: true, Call: true,
			Errors:   map[string]string{"day": "Elija un día.", "service": "Elija un servicio."},
			Problems: []problemView{{Field: "service", Text: "Elija un servicio."}, {Field: "top", Text: `"Demasiadas" <solicitudes>`}}}},
		{"no number to call, nothing", form{Lang: "en", Services: services, CallText: "Call the business", Problems: []problemView{{Field: "zip", Text: "Outside"}}, Call: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := struct {
				L    map[string]string
				Body *form
			}{texts[tt.f.Lang], &tt.f}
			for _, c := range []struct {
				template string
				got      template.HTML
			}{{"days", tt.f.dayChoices()}, {"services", tt.f.serviceChoices()}, {"top", tt.f.pageTop()}} {
				var want strings.Builder
				if err := choicesAsTemplates.ExecuteTemplate(&want, c.template, data); err != nil {
					t.Fatal(err)
				}
				if string(c.got) != want.String() {
					t.Errorf("%s: got\n%s\nwant\n%s", c.template, c.got, want.String())
				}
			}
		})
	}
}
