package booking

import (
	"reflect"
	"testing"
	"time"
)

// TestCloneSharesNothing walks a business with every slice and pointer
// set, and its clone, field by field (unexported ones too), and fails on
// any slice or pointer the two share: a field added to Business without
// its copy in Clone fails here. Only the time zone, which never changes,
// may be shared.
func TestCloneSharesNothing(t *testing.T) {
	hour := 8
	b := &Business{
		Slug: "a", Languages: []string{"en", "es"}, License: &License{Number: "1"},
		ServiceArea:    ServiceArea{ZIPCodes: []string{"85004"}},
		BookingDeposit: &Deposit{AmountCents: 100},
		Hours: Hours{Mon: []Interval{{Open: "08:00"}}, Tue: []Interval{{}}, Wed: []Interval{{}}, Thu: []Interval{{}},
			Fri: []Interval{{}}, Sat: []Interval{{}}, Sun: []Interval{{}}},
		Services: []Service{{ID: "s"}},
		loc:      time.UTC,
		daysOff:  []dayRange{{1, 2}},
	}
	b.DaysOff = []DayOff{{From: "2026-12-25"}}
	b.ReminderHour = &hour
	b.RemovedServiceIDs = []string{"gone"}
	asked := time.Date(2026, 11, 20, 15, 20, 0, 0, time.UTC)
	b.ApprovalAsked = &asked
	b.Changes = []Change{{At: asked, By: "operator", Fields: []string{"hours"}}}
	c := b.Clone()
	var walk func(path string, x, y reflect.Value)
	walk = func(path string, x, y reflect.Value) {
		switch x.Kind() {
		case reflect.Pointer:
			if x.IsNil() {
				t.Errorf("%s: nil in the test's business: set it, so that Clone's copy of it is checked", path)
				return
			}
			if x.Type() == reflect.TypeFor[*time.Location]() {
				return
			}
			if x.Pointer() == y.Pointer() {
				t.Errorf("%s: the clone shares the pointer", path)
			}
			walk(path, x.Elem(), y.Elem())
		case reflect.Slice:
			if x.Len() == 0 {
				t.Errorf("%s: empty in the test's business: set it, so that Clone's copy of it is checked", path)
				return
			}
			if x.Pointer() == y.Pointer() {
				t.Errorf("%s: the clone shares the slice", path)
			}
			for i := range x.Len() {
				walk(path+"[]", x.Index(i), y.Index(i))
			}
		case reflect.Struct:
			if x.Type() == reflect.TypeFor[time.Time]() {
				return // a value: its zone pointer is the time zone's, never changed
			}
			for i := range x.NumField() {
				walk(path+"."+x.Type().Field(i).Name, x.Field(i), y.Field(i))
			}
		case reflect.Map, reflect.Chan, reflect.Func, reflect.Interface:
			t.Errorf("%s: a %s: Clone must copy it", path, x.Kind())
		}
	}
	walk("Business", reflect.ValueOf(b).Elem(), reflect.ValueOf(c).Elem())
	if !reflect.DeepEqual(b, c) {
		t.Errorf("got a clone that differs: %+v, want %+v", c, b)
	}
}
