package bookform

import (
	"html/template"
	"strings"
	"testing"
)

// choicesAsTemplates are the templates dayChoices and serviceChoices
// replace, as they were: the oracle of TestChoicesAsTheTemplatesWroteThem.
var choicesAsTemplates = template.Must(template.New("days").Parse(
	`{{with .Body}}{{$dayError := index .Errors "day"}}{{with .Soonest}}<label class="soonest"><input type="radio" name="day" id="{{.ID}}" value="{{.Value}}"{{if .Checked}} checked{{end}}><span><strong>{{$.L.soonest}}</strong> {{.Text}}, {{.First}}</span></label>
{{end}}{{range .Days}}{{if .Open}}<label><input type="radio" name="day" id="{{.ID}}" value="{{.Value}}"{{if .Checked}} checked{{end}}{{if $dayError}} aria-invalid="true"{{end}}><span><strong>{{.Text}}</strong> {{.First}} · {{.CountText}}</span></label>
{{else}}<p class="card off"><strong>{{.Text}}</strong> {{$.L.no_windows}}</p>
{{end}}{{end}}{{end}}` +
		`{{define "services"}}{{with .Body}}{{$serviceError := index .Errors "service"}}{{range .Services}}<div class="service"><label><input type="radio" name="service" value="{{.ID}}"{{if .Checked}} checked{{end}}{{if $serviceError}} aria-invalid="true"{{end}}><span>{{.Name}}{{if .Urgent}} <strong class="badge">{{$.L.urgent}}</strong>{{end}}</span></label>{{if .Urgent}}{{with $.Body.PhoneLink}}<a class="call-now" href="{{.}}">{{$.L.call_now}}</a>{{end}}{{end}}</div>
{{end}}{{end}}{{end}}`))

// TestChoicesAsTheTemplatesWroteThem: the days and services written in Go
// are, byte for byte, what their templates wrote, in both languages, with
// and without a problem, checked or not, with text to escape.
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
			Soonest: &dayView{ID: "soonest", Value: "2026-12-02T03:00:00Z", Text: "Today", First: "8:00 PM – 10:00 PM MST", Open: true}}},
		{"problems with the day and the service, in Spanish", form{Lang: "es", Days: days, Services: services, PhoneLink: "tel:+16025550163",
			Errors: map[string]string{"day": "Elija un día.", "service": "Elija un servicio."}}},
		{"no number to call, nothing", form{Lang: "en", Services: services}},
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
			}{{"days", tt.f.dayChoices()}, {"services", tt.f.serviceChoices()}} {
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
